//! Key documents written by BouncyCastle (fixtures in `tests/fixtures/bouncycastle/`, made by
//! `interop/bouncycastle/Interop.java` with bcprov 1.87, and by 1.78.1 under the older OID
//! 1.3.9999.3.6): BouncyCastle's `FalconPrivateKey` SEQUENCE decodes to the key of its
//! SubjectPublicKeyInfo, pqlab's encoder of that form ([`PrivateKeyForm::BouncyCastle`]) writes
//! BouncyCastle 1.87's document byte for byte (1.78.1's `privateKey` contents), and
//! BouncyCastle's signature verifies. Without Java: the whole check
//! is `interop/bouncycastle/run.sh`.
#![cfg(feature = "pkcs8")]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use der::Decode;
use pkcs8::PrivateKeyInfoRef;
use pqlab_falcon::pkcs8::{
    MAX_PKCS8_LEN, PrivateKeyForm, decode_signing_key, decode_verifying_key, encode_signing_key_as,
};

macro_rules! fixture {
    ($name:literal) => {
        include_bytes!(concat!("../fixtures/bouncycastle/", $name)).as_slice()
    };
}

const MSG: &[u8] = b"pqlab <-> BouncyCastle interop message";

/// BouncyCastle's document re-encoded by pqlab in BouncyCastle's form.
fn reencoded(der: &[u8]) -> Vec<u8> {
    let key = decode_signing_key::<512>(der).unwrap();
    let mut out = [0u8; MAX_PKCS8_LEN];
    let n = encode_signing_key_as(&key, PrivateKeyForm::BouncyCastle, &mut out).unwrap();
    out[..n].to_vec()
}

#[test]
fn bouncycastle_form_is_written_byte_for_byte() {
    let bc187 = fixture!("bc1.87-falcon-512-sk.der");
    assert_eq!(reencoded(bc187), bc187);
    // 1.78.1 wrote the older OID (1.3.9999.3.6); its privateKey contents are the same form.
    let bc178 = fixture!("bc1.78.1-falcon-512-sk.der");
    let ours = reencoded(bc178);
    let (ours, theirs) = (
        PrivateKeyInfoRef::from_der(&ours).unwrap(),
        PrivateKeyInfoRef::from_der(bc178).unwrap(),
    );
    assert_eq!(ours.private_key.as_bytes(), theirs.private_key.as_bytes());
}

#[test]
fn bouncycastle_keys_and_signature() {
    for (sk, pk) in [
        (
            fixture!("bc1.87-falcon-512-sk.der"),
            fixture!("bc1.87-falcon-512-pk.der"),
        ),
        (
            fixture!("bc1.78.1-falcon-512-sk.der"),
            fixture!("bc1.78.1-falcon-512-pk.der"),
        ),
    ] {
        let key = decode_signing_key::<512>(sk).unwrap();
        let vk = decode_verifying_key::<512>(pk).unwrap();
        assert_eq!(key.verifying_key(), vk);
        assert!(decode_signing_key::<1024>(sk).is_err());
    }
    let vk = decode_verifying_key::<512>(fixture!("bc1.87-falcon-512-pk.der")).unwrap();
    let sig = fixture!("bc1.87-falcon-512.sig");
    vk.verify(MSG, sig).unwrap();
    let mut bad = sig.to_vec();
    bad[100] ^= 1;
    assert!(vk.verify(MSG, &bad).is_err());
}
