//! Differential ML-DSA verification (FIPS 204, Algorithm 3: ML-DSA.Verify) of pqlab against
//! RustCrypto's `ml-dsa` 0.1.2 and Cryspen's `libcrux-ml-dsa` 0.0.11, all three parameter sets.
//! Mode 0: public key, signature, message and context straight from the input. Mode 1: a key
//! from a fuzzed seed signs a fuzzed message deterministically (all three must accept, and
//! both pqlab and ml-dsa must give the same bytes), then the fuzzer XORs bytes into the
//! signature or the public key. The three verdicts must agree.
#![no_main]
#![allow(deprecated)]

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

fn check<P: ParameterSet, Q: rc::MlDsaParams>(input: &mut Input<'_>, mode: u8, lc: Libcrux) {
    let ctx = input.field(260).to_vec();
    let msg = input.field(128).to_vec();
    let (mut pk, mut sig) = if mode == 0 {
        (input.fitted(P::PK_LEN), input.fitted(P::SIG_LEN))
    } else {
        let xi = input.array::<32>();
        if ctx.len() > 255 {
            return;
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
        (pk, sig)
    };
    if mode == 1 {
        mutate(&mut sig, input, 3);
    } else if mode == 2 {
        mutate(&mut pk, input, 2);
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
    let mode = (sel / 3) % 3;
    match sel % 3 {
        0 => check::<MlDsa44, rc::MlDsa44>(&mut input, mode, libcrux44),
        1 => check::<MlDsa65, rc::MlDsa65>(&mut input, mode, libcrux65),
        _ => check::<MlDsa87, rc::MlDsa87>(&mut input, mode, libcrux87),
    }
});
