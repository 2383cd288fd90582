//! Differential ML-DSA verification (FIPS 204, Algorithm 3: ML-DSA.Verify) of pqlab against
//! RustCrypto's `ml-dsa` 0.1.2 and Cryspen's `libcrux-ml-dsa` 0.0.11, all three parameter sets.
//! The first byte picks the parameter set and the mode:
//! - raw (3 in 8): public key, signature, message and context straight from the input;
//! - cached (4 in 8): one of 16 valid (key, message, context, signature) tuples per parameter
//!   set, made once per process (pqlab's and ml-dsa's deterministic signatures must be
//!   identical, all three must accept), with bytes of the signature or of the public key
//!   XORed by the fuzzer: signatures one mutation away from valid, without a key generation
//!   and two signings per execution (which held the target at ~300 executions/s);
//! - fresh (1 in 8): a key from a fuzzed seed signs a fuzzed message and context
//!   deterministically (same checks), then the signature or the public key is mutated.
//!
//! The three verdicts must agree.
#![no_main]
#![allow(deprecated)]

use std::cell::RefCell;
use std::collections::HashMap;

use libfuzzer_sys::fuzz_target;
use ml_dsa as rc;
use pqlab_fuzz::{Input, mutate};
use pqlab_mldsa::{MlDsa44, MlDsa65, MlDsa87, ParameterSet, Signature, SigningKey, VerifyingKey};

type Libcrux = fn(&[u8], &[u8], &[u8], &[u8]) -> bool;

fn ours<P: ParameterSet>(pk: &[u8], msg: &[u8], ctx: &[u8], sig: &[u8]) -> bool {
    let vk = VerifyingKey::<P>::from_bytes(pk).expect("pk length");
    let sig = Signature::<P>::from_bytes(sig).expect("sig length");
    vk.verify(msg, ctx, &sig).is_ok()
}

fn rustcrypto<Q: rc::MlDsaParams>(pk: &[u8], msg: &[u8], ctx: &[u8], sig: &[u8]) -> bool {
    let vk = rc::VerifyingKey::<Q>::decode(&rc::EncodedVerifyingKey::<Q>::try_from(pk).unwrap());
    match rc::Signature::<Q>::try_from(sig) {
        Ok(s) => vk.verify_with_context(msg, ctx, &s),
        Err(_) => false,
    }
}

fn libcrux44(pk: &[u8], msg: &[u8], ctx: &[u8], sig: &[u8]) -> bool {
    use libcrux_ml_dsa::{MLDSASignature, MLDSAVerificationKey, ml_dsa_44};
    let vk = MLDSAVerificationKey::new(pk.try_into().unwrap());
    let s = MLDSASignature::new(sig.try_into().unwrap());
    ml_dsa_44::verify(&vk, msg, ctx, &s).is_ok()
}

fn libcrux65(pk: &[u8], msg: &[u8], ctx: &[u8], sig: &[u8]) -> bool {
    use libcrux_ml_dsa::{MLDSASignature, MLDSAVerificationKey, ml_dsa_65};
    let vk = MLDSAVerificationKey::new(pk.try_into().unwrap());
    let s = MLDSASignature::new(sig.try_into().unwrap());
    ml_dsa_65::verify(&vk, msg, ctx, &s).is_ok()
}

fn libcrux87(pk: &[u8], msg: &[u8], ctx: &[u8], sig: &[u8]) -> bool {
    use libcrux_ml_dsa::{MLDSASignature, MLDSAVerificationKey, ml_dsa_87};
    let vk = MLDSAVerificationKey::new(pk.try_into().unwrap());
    let s = MLDSASignature::new(sig.try_into().unwrap());
    ml_dsa_87::verify(&vk, msg, ctx, &s).is_ok()
}

/// A valid signature: the public key, message, context and signature bytes.
type Signed = (Vec<u8>, Vec<u8>, Vec<u8>, Vec<u8>);

/// A deterministic ML-DSA signature of `msg` under the key of seed `xi`, made by pqlab and
/// checked: ml-dsa's deterministic signature has the same bytes, and all three verifiers
/// accept it. `None` for a context over 255 bytes.
fn signed<P: ParameterSet, Q: rc::MlDsaParams>(
    xi: [u8; 32],
    msg: Vec<u8>,
    ctx: Vec<u8>,
    lc: Libcrux,
) -> Option<Signed> {
    if ctx.len() > 255 {
        return None;
    }
    let sk = SigningKey::<P>::from_seed(&xi);
    let sig = sk.sign_deterministic(&msg, &ctx).expect("sign");
    let pk = sk.verifying_key().as_bytes().to_vec();
    let sig = sig.as_bytes().to_vec();
    let rc_sk = rc::ExpandedSigningKey::<Q>::from_seed(&rc::Seed::from(xi));
    let rc_sig = rc_sk.sign_deterministic(&msg, &ctx).expect("ml-dsa signs");
    assert_eq!(
        rc_sig.encode().as_slice(),
        &sig[..],
        "{}: deterministic signatures differ",
        P::NAME
    );
    assert!(ours::<P>(&pk, &msg, &ctx, &sig));
    assert!(rustcrypto::<Q>(&pk, &msg, &ctx, &sig));
    assert!(lc(&pk, &msg, &ctx, &sig));
    Some((pk, msg, ctx, sig))
}

thread_local! {
    /// The cached mode's valid signatures, by (parameter set, index 0..16).
    static CACHE: RefCell<HashMap<(&'static str, u8), Signed>> = RefCell::new(HashMap::new());
}

/// Cached valid signature `i` (0..16) of parameter set `P`: key seed, message and context
/// derived from `i` (messages of 0 to 75 bytes, contexts of 0 to 30).
fn cached<P: ParameterSet, Q: rc::MlDsaParams>(i: u8, lc: Libcrux) -> Signed {
    CACHE.with(|c| {
        c.borrow_mut()
            .entry((P::NAME, i))
            .or_insert_with(|| {
                let msg = vec![i.wrapping_mul(37); 5 * usize::from(i)];
                let ctx = vec![0xC0 | i; 2 * usize::from(i)];
                signed::<P, Q>([i; 32], msg, ctx, lc).expect("short context")
            })
            .clone()
    })
}

fn check<P: ParameterSet, Q: rc::MlDsaParams>(input: &mut Input<'_>, mode: u8, lc: Libcrux) {
    let (mut pk, msg, ctx, mut sig) = match mode {
        0..=2 => {
            let ctx = input.field(260).to_vec();
            let msg = input.field(128).to_vec();
            (input.fitted(P::PK_LEN), msg, ctx, input.fitted(P::SIG_LEN))
        }
        3..=6 => cached::<P, Q>(input.byte() % 16, lc),
        _ => {
            let ctx = input.field(260).to_vec();
            let msg = input.field(128).to_vec();
            let xi = input.array::<32>();
            match signed::<P, Q>(xi, msg, ctx, lc) {
                Some(t) => t,
                None => return,
            }
        }
    };
    if mode >= 3 {
        if input.byte() & 1 == 0 {
            mutate(&mut sig, input, 3);
        } else {
            mutate(&mut pk, input, 2);
        }
    }
    let a = ours::<P>(&pk, &msg, &ctx, &sig);
    let b = rustcrypto::<Q>(&pk, &msg, &ctx, &sig);
    let c = lc(&pk, &msg, &ctx, &sig);
    assert_eq!(a, b, "{}: pqlab {a}, ml-dsa {b}", P::NAME);
    assert_eq!(a, c, "{}: pqlab {a}, libcrux {c}", P::NAME);
}

fuzz_target!(|data: &[u8]| {
    let mut input = Input::new(data);
    let sel = input.byte();
    let mode = (sel / 3) % 8;
    match sel % 3 {
        0 => check::<MlDsa44, rc::MlDsa44>(&mut input, mode, libcrux44),
        1 => check::<MlDsa65, rc::MlDsa65>(&mut input, mode, libcrux65),
        _ => check::<MlDsa87, rc::MlDsa87>(&mut input, mode, libcrux87),
    }
});
