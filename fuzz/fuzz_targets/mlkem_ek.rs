//! ML-KEM encapsulation keys (FIPS 203, Section 7.2: the type and modulus checks) of all three
//! parameter sets: a key is accepted exactly when its length is right and every ByteDecode12
//! coefficient is below q (read here independently); an accepted key re-encodes to itself and
//! encapsulates (Algorithm 17) without panicking, to a ciphertext its length.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pqlab_fuzz::{Input, mlkem_reduced};
use pqlab_mlkem::{EncapsulationKey, MlKem512, MlKem768, MlKem1024, ParameterSet};

fn check<P: ParameterSet>(data: &[u8], m: &[u8; 32]) {
    if data.len() != P::EK_LEN {
        assert!(EncapsulationKey::<P>::from_bytes(data).is_err());
    }
    let raw = pqlab_fuzz::fit(data, P::EK_LEN);
    let valid = mlkem_reduced(&raw[..P::EK_LEN - 32]);
    match EncapsulationKey::<P>::from_bytes(&raw) {
        Ok(ek) => {
            assert!(
                valid,
                "{}: an ek with a coefficient >= q was accepted",
                P::NAME
            );
            assert_eq!(
                ek.as_bytes(),
                &raw[..],
                "{}: ek does not re-encode to itself",
                P::NAME
            );
            let (ct, _ss) = ek.encapsulate_deterministic(m);
            assert_eq!(ct.as_bytes().len(), P::CT_LEN);
        }
        Err(_) => assert!(!valid, "{}: a valid ek was rejected", P::NAME),
    }
}

fuzz_target!(|data: &[u8]| {
    let mut input = Input::new(data);
    let sel = input.byte();
    let m = input.array::<32>();
    let rest = input.rest();
    match sel % 3 {
        0 => check::<MlKem512>(rest, &m),
        1 => check::<MlKem768>(rest, &m),
        _ => check::<MlKem1024>(rest, &m),
    }
});
