//! PKCS#8 decoding: the `pqlab` command's (crates/pqlab/src/pkcs.rs, included here since `pqlab`
//! is a binary crate) and pqlab-tls's (`pkcs8::decode_pq_private_key`, which also builds the
//! ML-DSA or Falcon key, and `cert::Keypair::from_pkcs8_der`). Nothing panics; a version-1
//! PKCS#8 that the command's decoder accepts re-encodes (encode_pkcs8) to exactly the input
//! (DER is canonical). The first byte picks the decoder.
#![no_main]

#[allow(dead_code)]
#[path = "../../crates/pqlab/src/pkcs.rs"]
mod pkcs;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&sel, der)) = data.split_first() else {
        return;
    };
    match sel % 3 {
        0 => {
            if let Ok(info) = pkcs::decode_pkcs8(der)
                && info.public_key.is_none()
            {
                let again = pkcs::encode_pkcs8(&info.oid, &info.key).expect("re-encoding");
                assert_eq!(&again[..], der, "PKCS#8 re-encoding differs");
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
