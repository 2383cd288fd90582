//! Falcon public keys (Falcon spec v1.2, Section 3.11.4: header 0x00 + logn, then h on 14 bits
//! per coefficient) of both degrees: a key is accepted exactly when the length and header are
//! right and every coefficient is below q = 12289 (read here independently); an accepted key
//! re-encodes to itself; verification with it of a fuzzed signature does not panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pqlab_falcon::VerifyingKey;
use pqlab_fuzz::Input;

/// Header and 14-bit coefficients, checked independently of pqlab-falcon.
fn well_formed<const N: usize>(raw: &[u8]) -> bool {
    let logn = N.trailing_zeros() as u8;
    if raw.len() != 1 + 14 * N / 8 || raw[0] != logn {
        return false;
    }
    let mut acc = 0u32;
    let mut bits = 0;
    let mut ok = true;
    for &b in &raw[1..] {
        acc = (acc << 8) | u32::from(b);
        bits += 8;
        if bits >= 14 {
            bits -= 14;
            ok &= (acc >> bits) & 0x3FFF < 12289;
        }
    }
    ok
}

fn check<const N: usize>(raw: &[u8], sig: &[u8]) {
    let ok = well_formed::<N>(raw);
    match VerifyingKey::<N>::decode(raw) {
        Ok(vk) => {
            assert!(ok, "falcon-{N}: accepted a malformed public key");
            let mut out = vec![0u8; VerifyingKey::<N>::ENCODED_LEN];
            let len = vk.encode(&mut out).expect("encode");
            assert_eq!(&out[..len], raw, "falcon-{N}: public key re-encoding");
            let _ = vk.verify(b"fuzz", sig);
        }
        Err(_) => assert!(!ok, "falcon-{N}: rejected a well-formed public key"),
    }
}

fuzz_target!(|data: &[u8]| {
    let mut input = Input::new(data);
    let sel = input.byte();
    let sig = input.field(1330);
    let rest = input.rest();
    // Half of the inputs get the right header and length, so that the coefficients are reached.
    let fixed = |n: usize, logn: u8| {
        let mut v = pqlab_fuzz::fit(rest, 1 + 14 * n / 8);
        v[0] = logn;
        v
    };
    match sel % 4 {
        0 => check::<512>(rest, sig),
        1 => check::<1024>(rest, sig),
        2 => check::<512>(&fixed(512, 9), sig),
        _ => check::<1024>(&fixed(1024, 10), sig),
    }
});
