//! PEM armour: the `pqlab` command's `pem_decode` (crates/pqlab/src/pkcs.rs, included here) and
//! pqlab-tls's `Keypair::from_pkcs8_pem`. Nothing panics; PEM text is not canonical (line
//! lengths, white space), so the check runs the other way: what `pem_decode` returns, armoured
//! again by `pem_encode`, decodes to the same bytes.
#![no_main]

#[allow(dead_code)]
#[path = "../../crates/pqlab/src/pkcs.rs"]
mod pkcs;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&sel, text)) = data.split_first() else {
        return;
    };
    let label = match sel % 3 {
        0 => pkcs::PUBLIC_KEY_LABEL,
        1 => pkcs::PRIVATE_KEY_LABEL,
        _ => {
            if let Ok(s) = std::str::from_utf8(text) {
                let _ = pqlab_tls::cert::Keypair::from_pkcs8_pem(s);
            }
            return;
        }
    };
    if let Ok(der) = pkcs::pem_decode(text, label) {
        // Not asserted: `is_pem(text)`. It is false for a PEM with explanatory text before the
        // BEGIN line (RFC 7468, Section 5.2), which `pem_decode` accepts (README: findings).
        let pem = pkcs::pem_encode(label, &der).expect("armour");
        let back = pkcs::pem_decode(pem.as_bytes(), label).expect("own PEM decodes");
        assert_eq!(&back[..], &der[..]);
        for alg in ["ml-dsa-65", "ml-kem-768", "falcon-512"] {
            let _ = pkcs::decode_public(alg, &der);
            let _ = pkcs::decode_private(alg, &der);
        }
    }
});
