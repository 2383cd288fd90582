//! Key documents written by BouncyCastle (fixtures in `tests/fixtures/bouncycastle/`, made by
//! `interop/bouncycastle/`: `Interop.java` with bcprov 1.87, `LegacyKeys.java` with 1.79 and
//! 1.80): every private-key form BouncyCastle writes decodes to the key of its
//! SubjectPublicKeyInfo, and BouncyCastle's signatures (with and without a context, HashML-DSA
//! with SHA-512) verify. Without Java: the whole check is `interop/bouncycastle/run.sh`.
#![cfg(feature = "pkcs8")]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use pqlab_mldsa::pkcs8::{KeyVariant, decode_signing_key, decode_verifying_key};
use pqlab_mldsa::{HashAlg, MlDsa44, Signature};

/// The message and context of every fixture signature.
const MSG: &[u8] = b"pqlab <-> BouncyCastle interop message";
const CTX: &[u8] = b"pqlab-ctx";

macro_rules! fixture {
    ($name:literal) => {
        include_bytes!(concat!("../fixtures/bouncycastle/", $name)).as_slice()
    };
}

/// The private key's public key is the SPKI's, and it makes signatures that verify under it.
fn check_pair(sk: &[u8], pk: &[u8], variant: KeyVariant) {
    let (key, v) = decode_signing_key::<MlDsa44>(sk).unwrap();
    let (vk, vv) = decode_verifying_key::<MlDsa44>(pk).unwrap();
    assert_eq!((v, vv), (variant, variant));
    assert_eq!(key.verifying_key(), vk);
    let sig = key.sign_deterministic(MSG, CTX).unwrap();
    vk.verify(MSG, CTX, &sig).unwrap();
}

#[test]
fn bouncycastle_1_87_every_private_key_form() {
    let pk = fixture!("bc1.87-ml-dsa-44-pk.der");
    let seed = fixture!("bc1.87-ml-dsa-44-seed.der");
    let expanded = fixture!("bc1.87-ml-dsa-44-expanded.der");
    let both = fixture!("bc1.87-ml-dsa-44-both.der");
    for sk in [seed, expanded, both] {
        check_pair(sk, pk, KeyVariant::Pure);
    }
    // The seed and both forms keep the seed; all three are the same key.
    let (a, _) = decode_signing_key::<MlDsa44>(seed).unwrap();
    let (b, _) = decode_signing_key::<MlDsa44>(expanded).unwrap();
    let (c, _) = decode_signing_key::<MlDsa44>(both).unwrap();
    assert!(a.seed().is_some() && b.seed().is_none() && c.seed() == a.seed());
    assert_eq!(a.to_expanded().as_ref(), b.to_expanded().as_ref());
}

#[test]
fn bouncycastle_1_87_signatures_verify() {
    let (vk, _) = decode_verifying_key::<MlDsa44>(fixture!("bc1.87-ml-dsa-44-pk.der")).unwrap();
    let sig = Signature::<MlDsa44>::from_bytes(fixture!("bc1.87-ml-dsa-44.sig")).unwrap();
    vk.verify(MSG, b"", &sig).unwrap();
    assert!(vk.verify(MSG, CTX, &sig).is_err());
    let sig = Signature::<MlDsa44>::from_bytes(fixture!("bc1.87-ml-dsa-44-ctx.sig")).unwrap();
    vk.verify(MSG, CTX, &sig).unwrap();
    assert!(vk.verify(MSG, b"", &sig).is_err());
}

#[test]
fn bouncycastle_1_87_hash_ml_dsa() {
    let sk = fixture!("bc1.87-hash-ml-dsa-44-seed.der");
    let pk = fixture!("bc1.87-hash-ml-dsa-44-pk.der");
    check_pair(sk, pk, KeyVariant::HashSha512);
    let (vk, _) = decode_verifying_key::<MlDsa44>(pk).unwrap();
    let sig = Signature::<MlDsa44>::from_bytes(fixture!("bc1.87-hash-ml-dsa-44.sig")).unwrap();
    vk.verify_prehash(MSG, b"", HashAlg::Sha2_512, &sig)
        .unwrap();
    assert!(vk.verify(MSG, b"", &sig).is_err());
}

/// BouncyCastle 1.79 wrote `privateKey` as an OCTET STRING holding the 32-byte seed (an early
/// draft's form, read as the seed: it was refused as an expanded key of 32 bytes); 1.80 the
/// bare seed.
#[test]
fn bouncycastle_1_79_and_1_80_seed_forms() {
    for (sk, pk, sig) in [
        (
            fixture!("bc1.79-ml-dsa-44-sk.der"),
            fixture!("bc1.79-ml-dsa-44-pk.der"),
            fixture!("bc1.79-ml-dsa-44.sig"),
        ),
        (
            fixture!("bc1.80-ml-dsa-44-sk.der"),
            fixture!("bc1.80-ml-dsa-44-pk.der"),
            fixture!("bc1.80-ml-dsa-44.sig"),
        ),
    ] {
        check_pair(sk, pk, KeyVariant::Pure);
        let (key, _) = decode_signing_key::<MlDsa44>(sk).unwrap();
        assert!(key.seed().is_some());
        let sig = Signature::<MlDsa44>::from_bytes(sig).unwrap();
        key.verifying_key().verify(MSG, b"", &sig).unwrap();
    }
    // The 1.79 form is `04 22 04 20 seed` inside the document.
    let sk = fixture!("bc1.79-ml-dsa-44-sk.der");
    assert_eq!(&sk[18..22], &[0x04, 0x22, 0x04, 0x20]);
}
