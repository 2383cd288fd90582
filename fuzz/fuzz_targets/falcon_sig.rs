//! Falcon signatures (Falcon spec v1.2, Section 3.11.3: header 0x30 + logn, 40-byte nonce,
//! compressed s2 with every canonicality check of Decompress, Algorithm 18) of both degrees,
//! verified under a fixed key (seeds: its signatures): nothing panics; a signature that decodes
//! re-encodes to exactly the same bytes (the compressed format is canonical); verifying the
//! bytes and verifying the decoded signature agree.
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use pqlab_falcon::{Signature, SigningKey, VerifyingKey};
use pqlab_fuzz::{Input, falcon_key};

static K512: OnceLock<SigningKey<512>> = OnceLock::new();
static K1024: OnceLock<SigningKey<1024>> = OnceLock::new();
static V512: OnceLock<VerifyingKey<512>> = OnceLock::new();
static V1024: OnceLock<VerifyingKey<1024>> = OnceLock::new();

fn check<const N: usize>(vk: &VerifyingKey<N>, msg: &[u8], raw: &[u8]) {
    let by_bytes = vk.verify(msg, raw).is_ok();
    match Signature::<N>::decode(raw) {
        Ok(sig) => {
            let mut out = vec![0u8; Signature::<N>::MAX_LEN];
            let len = sig.encode(&mut out).expect("a decoded signature encodes");
            assert_eq!(&out[..len], raw, "falcon-{N}: signature re-encoding");
            assert_eq!(vk.verify_signature(msg, &sig).is_ok(), by_bytes);
        }
        Err(_) => assert!(!by_bytes, "falcon-{N}: undecodable signature verified"),
    }
}

fuzz_target!(|data: &[u8]| {
    let mut input = Input::new(data);
    let sel = input.byte();
    let msg = input.field(4000);
    let raw = input.rest();
    if sel.is_multiple_of(2) {
        let vk = V512.get_or_init(|| falcon_key(&K512).verifying_key());
        check(vk, msg, raw);
    } else {
        let vk = V1024.get_or_init(|| falcon_key(&K1024).verifying_key());
        check(vk, msg, raw);
    }
});
