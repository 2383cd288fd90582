//! The reduction-strategy study's instantiation of ML-DSA (`pqlab_mldsa::study`, used by
//! `pqlab compare --reductions`): under every strategy of `pqlab_arith::reduce`, key
//! generation, signing and verification give exactly what the production code gives (which the
//! ACVP, KAT and Wycheproof tests check), on fixed seeds and messages of every parameter set;
//! a corrupted signature is rejected under every strategy.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use pqlab_mldsa::study::{self, Strategy};
use pqlab_mldsa::{MlDsa44, MlDsa65, MlDsa87, ParameterSet, Signature, SigningKey};

const SEEDS: usize = 8;

fn check<P: ParameterSet>() -> usize {
    let mut cases = 0;
    for i in 0..SEEDS {
        let xi = [i as u8 ^ 0x5a; 32];
        let (vk, sk) = SigningKey::<P>::key_pair_from_seed(&xi);
        let msg = [i as u8; 77];
        let rnd = [0x33u8 ^ i as u8; 32];
        let sig = sk.sign_internal(&msg, &rnd).unwrap();
        let sig_pure = sk.sign_with_rnd(&msg, b"ctx", &rnd).unwrap();
        for s in Strategy::ALL {
            let (pk, sk_s) = study::key_gen_internal::<P>(s, &xi);
            assert_eq!(pk.as_ref(), vk.as_bytes(), "{} {} pk", P::NAME, s.name());
            assert_eq!(sk_s.to_expanded().as_ref(), sk.to_expanded().as_ref());
            let sig_s = study::sign_internal::<P>(s, &sk, &msg, &rnd).unwrap();
            assert!(sig_s == sig, "{} {} signature", P::NAME, s.name());
            study::verify::<P>(s, &vk, &msg, b"ctx", &sig_pure).unwrap();
            let mut bad = sig_pure.to_bytes();
            bad.as_mut()[i % 16] ^= 1;
            let bad = Signature::<P>::from_bytes(bad.as_ref()).unwrap();
            assert!(study::verify::<P>(s, &vk, &msg, b"ctx", &bad).is_err());
            cases += 1;
        }
    }
    cases
}

#[test]
fn study_equals_production_under_every_strategy() {
    let n = check::<MlDsa44>() + check::<MlDsa65>() + check::<MlDsa87>();
    assert_eq!(n, 3 * SEEDS * Strategy::ALL.len());
    println!(
        "ML-DSA study == production under {} strategies, {n} cases",
        Strategy::ALL.len()
    );
}
