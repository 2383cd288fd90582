//! Key documents written by BouncyCastle (fixtures in `tests/fixtures/bouncycastle/`, made by
//! `interop/bouncycastle/Interop.java` with bcprov 1.87, and by 1.78.1 under the older OID
//! 1.3.9999.3.6): BouncyCastle's `FalconPrivateKey` SEQUENCE decodes to the key of its
//! SubjectPublicKeyInfo, and BouncyCastle's signature verifies. Without Java: the whole check
//! is `interop/bouncycastle/run.sh`.
#![cfg(feature = "pkcs8")]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use pqlab_falcon::pkcs8::{decode_signing_key, decode_verifying_key};

macro_rules! fixture {
    ($name:literal) => {
        include_bytes!(concat!("fixtures/bouncycastle/", $name)).as_slice()
    };
}

const MSG: &[u8] = b"pqlab <-> BouncyCastle interop message";

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
