//! ML-DSA signatures (FIPS 204, Algorithm 27: sigDecode, inside Algorithm 8: Verify_internal)
//! of all three parameter sets, verified under a fixed key (seeds: signatures by that key, so
//! that mutations reach the hint and z decoding): nothing panics; the wrapper keeps the bytes;
//! a wrong length and a context over 255 bytes are rejected; verification is deterministic.
//! Whether the verdict is right is the differential target `diff_mldsa`'s question.
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use pqlab_fuzz::{Input, mldsa_vk};
use pqlab_mldsa::{MlDsa44, MlDsa65, MlDsa87, ParameterSet, Signature, VerifyingKey};

static K44: OnceLock<VerifyingKey<MlDsa44>> = OnceLock::new();
static K65: OnceLock<VerifyingKey<MlDsa65>> = OnceLock::new();
static K87: OnceLock<VerifyingKey<MlDsa87>> = OnceLock::new();

fn check<P: ParameterSet>(vk: &VerifyingKey<P>, input: &mut Input<'_>) {
    let ctx = input.field(300);
    let msg = input.field(64);
    let raw = input.rest();
    let sig_bytes = pqlab_fuzz::fit(raw, P::SIG_LEN);
    let sig = Signature::<P>::from_bytes(&sig_bytes).expect("length");
    assert_eq!(sig.as_bytes(), &sig_bytes[..]);
    if raw.len() != P::SIG_LEN {
        assert!(Signature::<P>::from_bytes(raw).is_err());
    }
    let ok = vk.verify(msg, ctx, &sig).is_ok();
    if ctx.len() > 255 {
        assert!(
            !ok,
            "{}: a context of {} bytes was accepted",
            P::NAME,
            ctx.len()
        );
    }
    // Verification is a pure function of its inputs.
    assert_eq!(vk.verify(msg, ctx, &sig).is_ok(), ok);
}

fuzz_target!(|data: &[u8]| {
    let mut input = Input::new(data);
    match input.byte() % 3 {
        0 => check(mldsa_vk(&K44), &mut input),
        1 => check(mldsa_vk(&K65), &mut input),
        _ => check(mldsa_vk(&K87), &mut input),
    }
});
