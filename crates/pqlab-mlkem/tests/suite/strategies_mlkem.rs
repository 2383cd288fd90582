//! The reduction-strategy study's instantiation of ML-KEM (`pqlab_mlkem::study`, used by
//! `pqlab compare --reductions`): under every strategy of `pqlab_arith::reduce`, key
//! generation, encapsulation and decapsulation give exactly what the production code gives
//! (which the ACVP, CCTV and Wycheproof tests check), on fixed seeds of every parameter set,
//! including the implicit rejection of a corrupted ciphertext.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use pqlab_mlkem::study::{self, Strategy};
use pqlab_mlkem::{Ciphertext, DecapsulationKey, MlKem512, MlKem768, MlKem1024, ParameterSet};

const SEEDS: usize = 8;

fn check<P: ParameterSet>() -> usize {
    let mut cases = 0;
    for i in 0..SEEDS {
        let (d, z, m) = ([i as u8; 32], [0x11 ^ i as u8; 32], [0x77 ^ i as u8; 32]);
        let dk = DecapsulationKey::<P>::from_seed(&d, &z);
        let ek = dk.encapsulation_key();
        let (ct, ss) = ek.encapsulate_deterministic(&m);
        let mut bad = ct.to_bytes();
        bad.as_mut()[i] ^= 1;
        let bad = Ciphertext::<P>::from_bytes(bad.as_ref()).unwrap();
        let rejected = dk.decapsulate(&bad);
        for s in Strategy::ALL {
            let dk_s = study::key_gen_internal::<P>(s, &d, &z);
            assert_eq!(dk_s.to_expanded().as_ref(), dk.to_expanded().as_ref());
            let (ct_s, ss_s) = study::encaps_internal::<P>(s, ek, &m);
            assert_eq!(ct_s.as_bytes(), ct.as_bytes(), "{} {}", P::NAME, s.name());
            assert_eq!(ss_s.as_bytes(), ss.as_bytes());
            assert_eq!(
                study::decapsulate::<P>(s, &dk, &ct).as_bytes(),
                ss.as_bytes()
            );
            assert_eq!(
                study::decapsulate::<P>(s, &dk, &bad).as_bytes(),
                rejected.as_bytes()
            );
            cases += 1;
        }
    }
    cases
}

#[test]
fn study_equals_production_under_every_strategy() {
    let n = check::<MlKem512>() + check::<MlKem768>() + check::<MlKem1024>();
    assert_eq!(n, 3 * SEEDS * Strategy::ALL.len());
    println!(
        "ML-KEM study == production under {} strategies, {n} cases",
        Strategy::ALL.len()
    );
}
