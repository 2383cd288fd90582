//! SubjectPublicKeyInfo decoding of the `pqlab` command (crates/pqlab/src/pkcs.rs, included
//! here since `pqlab` is a binary crate): nothing panics; DER is canonical, so an SPKI that
//! decodes re-encodes (encode_spki) to exactly the input.
#![no_main]

#[allow(dead_code)]
#[path = "../../crates/pqlab/src/pkcs.rs"]
mod pkcs;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(info) = pkcs::decode_spki(data) {
        let again = pkcs::encode_spki(&info.oid, &info.key).expect("re-encoding");
        assert_eq!(again, data, "SPKI re-encoding differs");
    }
});
