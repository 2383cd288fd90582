//! ML-KEM decapsulation keys in the expanded form (FIPS 203, Section 7.3: the type and hash
//! checks; the embedded ek must also pass the modulus check of Section 7.2) of all three
//! parameter sets: a key is accepted exactly when H(ek) matches (SHA3-256 from the `sha3`
//! crate) and ek is reduced (read here independently); an accepted key re-encodes to the input
//! with dk_PKE reduced mod q (the input itself when it was canonical); decapsulation of a
//! fuzzed ciphertext does not panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pqlab_fuzz::{Input, mlkem_reduce12, mlkem_reduced};
use pqlab_mlkem::{Ciphertext, DecapsulationKey, MlKem512, MlKem768, MlKem1024, ParameterSet};
use sha3::Digest as _;

fn check<P: ParameterSet>(data: &[u8], input: &mut Input<'_>) {
    if data.len() != P::DK_LEN {
        assert!(DecapsulationKey::<P>::from_expanded(data).is_err());
    }
    let raw = pqlab_fuzz::fit(data, P::DK_LEN);
    let pke_len = 384 * P::K;
    let ek = &raw[pke_len..pke_len + P::EK_LEN];
    let h = &raw[pke_len + P::EK_LEN..pke_len + P::EK_LEN + 32];
    let hash_ok = sha3::Sha3_256::digest(ek).as_slice() == h;
    let valid = hash_ok && mlkem_reduced(&ek[..P::EK_LEN - 32]);
    match DecapsulationKey::<P>::from_expanded(&raw) {
        Ok(dk) => {
            assert!(
                valid,
                "{}: accepted a dk failing the hash or modulus check",
                P::NAME
            );
            let mut want = mlkem_reduce12(&raw[..pke_len]);
            want.extend_from_slice(&raw[pke_len..]);
            assert_eq!(
                dk.to_expanded().as_ref(),
                &want[..],
                "{}: dk re-encoding",
                P::NAME
            );
            assert_eq!(dk.encapsulation_key().as_bytes(), ek);
            let ct = input.fitted(P::CT_LEN);
            let ct = Ciphertext::<P>::from_bytes(&ct).expect("length");
            let a = dk.decapsulate(&ct);
            assert_eq!(dk.decapsulate(&ct).as_bytes(), a.as_bytes());
        }
        Err(_) => assert!(!valid, "{}: a valid dk was rejected", P::NAME),
    }
}

fuzz_target!(|data: &[u8]| {
    let mut input = Input::new(data);
    let sel = input.byte();
    let ct = input.bytes(1568);
    let rest = input.rest();
    let mut ct = Input::new(ct);
    match sel % 3 {
        0 => check::<MlKem512>(rest, &mut ct),
        1 => check::<MlKem768>(rest, &mut ct),
        _ => check::<MlKem1024>(rest, &mut ct),
    }
});
