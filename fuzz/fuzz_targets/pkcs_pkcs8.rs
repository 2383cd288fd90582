//! PKCS#8 decoding: the `pqlab` command's (crates/pqlab/src/pkcs.rs, included here since `pqlab`
//! is a binary crate) and pqlab-tls's (`pkcs8::decode_pq_private_key`, which also builds the
//! ML-DSA or Falcon key, and `cert::Keypair::from_pkcs8_der`), both through the scheme crates'
//! `pkcs8` codecs. Nothing panics; a key that decodes re-encodes (in its canonical form) to a
//! document that decodes to the same key. The first byte picks the decoder.
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
    let Some((&sel, der)) = data.split_first() else {
        return;
    };
    match sel % 3 {
        0 => {
            // Every form that decodes re-encodes (canonical form) to a document that decodes to
            // the same key.
            for alg in ALGS {
                if let Ok(key) = pkcs::decode_private(alg, der) {
                    let seed = key.seed.as_deref().map(Vec::as_slice);
                    let again = pkcs::encode_private(alg, seed, &key.expanded, key.variant)
                        .expect("re-encoding");
                    let back = pkcs::decode_private(alg, &again).expect("decoding again");
                    assert_eq!(back.expanded, key.expanded, "{alg}: another key");
                    assert_eq!(back.public, key.public, "{alg}: another public key");
                }
            }
        }
        1 => {
            let _ = pqlab_tls::pkcs8::decode_pq_private_key(der);
        }
        _ => {
            if let Ok(kp) = pqlab_tls::cert::Keypair::from_pkcs8_der(der) {
                assert_eq!(kp.pkcs8_der(), der);
                let _ = kp.spki_der().expect("the SPKI of a loaded key");
            }
        }
    }
});
