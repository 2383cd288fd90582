//! SubjectPublicKeyInfo decoding of the `pqlab` command (crates/pqlab/src/pkcs.rs, included
//! here since `pqlab` is a binary crate; it decodes through the scheme crates' `pkcs8`
//! codecs): nothing panics; DER is canonical and every public-key form is written back the
//! same way, so an SPKI that decodes re-encodes (encode_public) to exactly the input, except
//! BouncyCastle's older Falcon SEQUENCE form, which is written in the standard form and must
//! decode to the same key.
#![no_main]

#[allow(dead_code)]
#[path = "../../crates/pqlab/src/pkcs.rs"]
mod pkcs;

use libfuzzer_sys::fuzz_target;

const ALGS: [&str; 8] = [
    "ml-dsa-44", "ml-dsa-65", "ml-dsa-87", "ml-kem-512", "ml-kem-768", "ml-kem-1024",
    "falcon-512", "falcon-1024",
];

fuzz_target!(|data: &[u8]| {
    for alg in ALGS {
        if let Ok((key, variant)) = pkcs::decode_public(alg, data) {
            let again = pkcs::encode_public(alg, &key, variant).expect("re-encoding");
            if again != data {
                assert!(alg.starts_with("falcon"), "{alg}: SPKI re-encoding differs");
                assert_eq!(pkcs::decode_public(alg, &again).expect("again").0, key);
            }
        }
    }
});
