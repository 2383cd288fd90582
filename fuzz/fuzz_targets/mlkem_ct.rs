//! ML-KEM ciphertexts (FIPS 203, Algorithm 21: Decaps, with the ciphertext type check of
//! Section 7.3) of all three parameter sets, under a fixed key: a wrong length is rejected; the
//! wrapper keeps the bytes; decapsulation never panics, is deterministic, and gives the shared
//! secret of encapsulation for the key's own ciphertexts (the seeds hold some).
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use pqlab_fuzz::{Input, mlkem_key};
use pqlab_mlkem::{Ciphertext, DecapsulationKey, MlKem512, MlKem768, MlKem1024, ParameterSet};

static K512: OnceLock<DecapsulationKey<MlKem512>> = OnceLock::new();
static K768: OnceLock<DecapsulationKey<MlKem768>> = OnceLock::new();
static K1024: OnceLock<DecapsulationKey<MlKem1024>> = OnceLock::new();

fn check<P: ParameterSet>(dk: &DecapsulationKey<P>, m: &[u8; 32], data: &[u8]) {
    if data.len() != P::CT_LEN {
        assert!(Ciphertext::<P>::from_bytes(data).is_err());
    }
    let raw = pqlab_fuzz::fit(data, P::CT_LEN);
    let ct = Ciphertext::<P>::from_bytes(&raw).expect("length");
    assert_eq!(ct.as_bytes(), &raw[..]);
    let ss = dk.decapsulate(&ct);
    assert_eq!(dk.decapsulate(&ct).as_bytes(), ss.as_bytes());
    // The key's own ciphertext for m decapsulates to encapsulation's secret.
    let (own, want) = dk.encapsulation_key().encapsulate_deterministic(m);
    assert_eq!(
        dk.decapsulate(&own).as_bytes(),
        want.as_bytes(),
        "{}",
        P::NAME
    );
}

fuzz_target!(|data: &[u8]| {
    let mut input = Input::new(data);
    let sel = input.byte();
    let m = input.array::<32>();
    let rest = input.rest();
    match sel % 3 {
        0 => check(mlkem_key(&K512), &m, rest),
        1 => check(mlkem_key(&K768), &m, rest),
        _ => check(mlkem_key(&K1024), &m, rest),
    }
});
