//! ML-DSA signing keys (FIPS 204, Algorithm 25: skDecode) of all three parameter sets: a key
//! that decodes re-encodes (Algorithm 24) to the same bytes; a key with a coefficient of s1 or
//! s2 outside [-eta, eta] is rejected (checked here independently); nothing panics, neither
//! decoding nor deriving the public key nor (when the selector asks) signing with the key.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pqlab_fuzz::Input;
use pqlab_mldsa::{MlDsa44, MlDsa65, MlDsa87, ParameterSet, SigningKey};

/// Whether every eta-packed coefficient of s1 || s2 lies in [-eta, eta] (BitUnpack with
/// a = b = eta: the stored value is eta - coefficient, on 3 bits for eta = 2, 4 for eta = 4).
fn s_in_range<P: ParameterSet>(sk: &[u8]) -> bool {
    let bits = P::ETA_BITS;
    let n = (P::L + P::K) * 256;
    let s = &sk[128..128 + n * bits / 8];
    (0..n).all(|i| {
        let bit = i * bits;
        let word = u16::from(s[bit / 8]) | (u16::from(*s.get(bit / 8 + 1).unwrap_or(&0)) << 8);
        let v = (word >> (bit % 8)) & ((1 << bits) - 1);
        u32::from(v) <= 2 * P::ETA
    })
}

fn check<P: ParameterSet>(data: &[u8], sign: bool) {
    let raw = pqlab_fuzz::fit(data, P::SK_LEN);
    let in_range = s_in_range::<P>(&raw);
    match SigningKey::<P>::from_expanded(&raw) {
        Ok(sk) => {
            assert!(
                in_range,
                "{}: skDecode accepted an s coefficient out of range",
                P::NAME
            );
            assert_eq!(
                sk.to_expanded().as_ref(),
                &raw[..],
                "{}: skEncode(skDecode(sk)) != sk",
                P::NAME
            );
            assert!(sk.seed().is_none());
            let vk = sk.verifying_key();
            assert_eq!(vk.as_bytes().len(), P::PK_LEN);
            if sign {
                let sig = sk.sign_deterministic(b"fuzz", b"").expect("signing");
                let _ = vk.verify(b"fuzz", b"", &sig);
            }
        }
        Err(_) => assert!(
            !in_range,
            "{}: skDecode rejected a well-formed key",
            P::NAME
        ),
    }
    if data.len() != P::SK_LEN {
        assert!(SigningKey::<P>::from_expanded(data).is_err());
    }
}

fuzz_target!(|data: &[u8]| {
    let mut input = Input::new(data);
    let sel = input.byte();
    let rest = input.rest();
    let sign = sel & 0x80 != 0;
    match sel % 3 {
        0 => check::<MlDsa44>(rest, sign),
        1 => check::<MlDsa65>(rest, sign),
        _ => check::<MlDsa87>(rest, sign),
    }
});
