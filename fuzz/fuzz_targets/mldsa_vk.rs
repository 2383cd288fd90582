//! ML-DSA verifying keys (FIPS 204, Algorithm 23: pkDecode) of all three parameter sets: every
//! input of the right length must decode (every byte string is a public key) and re-encode to
//! itself; any other length is an error; nothing panics; a verification with the key rejects
//! an all-zero signature without panicking.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pqlab_fuzz::Input;
use pqlab_mldsa::{MlDsa44, MlDsa65, MlDsa87, ParameterSet, Signature, VerifyingKey};

fn check<P: ParameterSet>(raw: &[u8], input: &mut Input<'_>) {
    match VerifyingKey::<P>::from_bytes(raw) {
        Ok(vk) => {
            assert_eq!(raw.len(), P::PK_LEN);
            assert_eq!(
                vk.as_bytes(),
                raw,
                "{}: pkEncode(pkDecode(pk)) != pk",
                P::NAME
            );
        }
        Err(_) => assert_ne!(
            raw.len(),
            P::PK_LEN,
            "{}: a public key was rejected",
            P::NAME
        ),
    }
    let pk = input.fitted(P::PK_LEN);
    let vk = VerifyingKey::<P>::from_bytes(&pk).expect("every pk of the right length decodes");
    assert_eq!(vk.as_bytes(), &pk[..]);
    let zeros = vec![0u8; P::SIG_LEN];
    let sig = Signature::<P>::from_bytes(&zeros).expect("length");
    assert!(vk.verify(b"msg", b"", &sig).is_err());
}

fuzz_target!(|data: &[u8]| {
    let mut input = Input::new(data);
    let sel = input.byte();
    let copy = input.rest();
    let mut input = Input::new(copy);
    match sel % 3 {
        0 => check::<MlDsa44>(copy, &mut input),
        1 => check::<MlDsa65>(copy, &mut input),
        _ => check::<MlDsa87>(copy, &mut input),
    }
});
