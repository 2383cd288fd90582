//! Key documents written by BouncyCastle (fixtures in `tests/fixtures/bouncycastle/`, made by
//! `interop/bouncycastle/`: `Interop.java` with bcprov 1.87, `LegacyKeys.java` with 1.79 and
//! 1.80): every private-key form BouncyCastle writes decodes to the key of its
//! SubjectPublicKeyInfo and decapsulates BouncyCastle's ciphertext to its shared secret.
//! Without Java: the whole check is `interop/bouncycastle/run.sh`.
#![cfg(feature = "pkcs8")]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use pqlab_mlkem::pkcs8::{decode_decapsulation_key, decode_encapsulation_key};
use pqlab_mlkem::{Ciphertext, MlKem512};

macro_rules! fixture {
    ($name:literal) => {
        include_bytes!(concat!("../fixtures/bouncycastle/", $name)).as_slice()
    };
}

/// The private key's encapsulation key is the SPKI's, and encapsulation to it round-trips.
fn check_pair(dk: &[u8], ek: &[u8]) {
    let key = decode_decapsulation_key::<MlKem512>(dk).unwrap();
    let ek = decode_encapsulation_key::<MlKem512>(ek).unwrap();
    assert_eq!(key.encapsulation_key(), &ek);
    let (ct, ss) = ek.encapsulate_deterministic(&[9; 32]);
    assert_eq!(key.decapsulate(&ct), ss);
}

#[test]
fn bouncycastle_1_87_every_private_key_form_decapsulates() {
    let pk = fixture!("bc1.87-ml-kem-512-pk.der");
    let ct = Ciphertext::<MlKem512>::from_bytes(fixture!("bc1.87-ml-kem-512.ct")).unwrap();
    let ss = fixture!("bc1.87-ml-kem-512.ss");
    for (dk, has_seed) in [
        (fixture!("bc1.87-ml-kem-512-seed.der"), true),
        (fixture!("bc1.87-ml-kem-512-expanded.der"), false),
        (fixture!("bc1.87-ml-kem-512-both.der"), true),
    ] {
        check_pair(dk, pk);
        let key = decode_decapsulation_key::<MlKem512>(dk).unwrap();
        assert_eq!(key.seed().is_some(), has_seed);
        assert_eq!(key.decapsulate(&ct).as_bytes(), ss);
    }
}

/// BouncyCastle 1.79 wrote `privateKey` as an OCTET STRING holding the 64-byte seed d || z (an
/// early draft's form, read as the seed: it was refused as an expanded key of 64 bytes); 1.80
/// the bare seed.
#[test]
fn bouncycastle_1_79_and_1_80_seed_forms() {
    for (dk, ek) in [
        (
            fixture!("bc1.79-ml-kem-512-sk.der"),
            fixture!("bc1.79-ml-kem-512-pk.der"),
        ),
        (
            fixture!("bc1.80-ml-kem-512-sk.der"),
            fixture!("bc1.80-ml-kem-512-pk.der"),
        ),
    ] {
        check_pair(dk, ek);
        assert!(
            decode_decapsulation_key::<MlKem512>(dk)
                .unwrap()
                .seed()
                .is_some()
        );
    }
    // The 1.79 form is `04 42 04 40 seed` inside the document.
    let dk = fixture!("bc1.79-ml-kem-512-sk.der");
    assert_eq!(&dk[18..22], &[0x04, 0x42, 0x04, 0x40]);
}
