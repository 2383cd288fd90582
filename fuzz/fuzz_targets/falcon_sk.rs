//! Falcon secret keys (Falcon spec v1.2, Section 3.11.5: header 0x50 + logn, f and g on 6 or 5
//! bits, F on 8 bits, G recomputed) of both degrees: nothing panics; a key that decodes
//! re-encodes to itself, and its public key (h = g / f mod q) decodes from its own encoding;
//! a trimmed coefficient equal to -2^(bits-1) is rejected (checked here independently).
#![no_main]

use libfuzzer_sys::fuzz_target;
use pqlab_falcon::{SigningKey, VerifyingKey};
use pqlab_fuzz::Input;

/// True when no `bits`-bit field of `data` is -2^(bits-1) (the value trim_i8 forbids).
fn no_min<const N: usize>(data: &[u8], bits: usize) -> bool {
    let mut acc = 0u32;
    let mut have = 0;
    let mut count = 0;
    for &b in data {
        acc = (acc << 8) | u32::from(b);
        have += 8;
        while have >= bits && count < N {
            have -= bits;
            if (acc >> have) & ((1 << bits) - 1) == 1 << (bits - 1) {
                return false;
            }
            count += 1;
        }
    }
    true
}

fn check<const N: usize>(raw: &[u8]) {
    let fgb = if N == 512 { 6 } else { 5 };
    let l1 = fgb * N / 8;
    let trim_ok = raw.len() == SigningKey::<N>::ENCODED_LEN
        && raw[0] == 0x50 + N.trailing_zeros() as u8
        && no_min::<N>(&raw[1..1 + l1], fgb)
        && no_min::<N>(&raw[1 + l1..1 + 2 * l1], fgb)
        && no_min::<N>(&raw[1 + 2 * l1..], 8);
    if let Ok(sk) = SigningKey::<N>::decode(raw) {
        {
            assert!(trim_ok, "falcon-{N}: accepted a malformed secret key");
            let mut out = vec![0u8; SigningKey::<N>::ENCODED_LEN];
            let len = sk.encode(&mut out).expect("encode");
            assert_eq!(&out[..len], raw, "falcon-{N}: secret key re-encoding");
            let vk = sk.verifying_key();
            let mut pk = vec![0u8; VerifyingKey::<N>::ENCODED_LEN];
            let len = vk.encode(&mut pk).expect("encode");
            assert!(VerifyingKey::<N>::decode(&pk[..len]).expect("own pk") == vk);
        }
    }
}

/// `data` fitted to the key length, with the right header, so that the fields are reached.
fn fixed<const N: usize>(data: &[u8]) -> Vec<u8> {
    let mut v = pqlab_fuzz::fit(data, SigningKey::<N>::ENCODED_LEN);
    v[0] = 0x50 + N.trailing_zeros() as u8;
    v
}

fuzz_target!(|data: &[u8]| {
    let mut input = Input::new(data);
    let sel = input.byte();
    let rest = input.rest();
    match sel % 4 {
        0 => check::<512>(rest),
        1 => check::<1024>(rest),
        2 => check::<512>(&fixed::<512>(rest)),
        _ => check::<1024>(&fixed::<1024>(rest)),
    }
});
