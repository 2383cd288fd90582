//! `SigningKey::generate_encoded_with_rng`: the key pair written straight into the caller's
//! buffers is the key pair of `generate_with_rng` with the same randomness, encoded; it signs
//! and verifies; buffers that are too short are refused before any randomness is drawn.

use pqlab_falcon::{Error, SigningKey, VerifyingKey};

use std::cell::Cell;
use std::rc::Rc;

/// A deterministic `fill` (the bytes of a counter stream), and how many times it was called.
fn counter(start: u8) -> (impl FnMut(&mut [u8]) -> bool, Rc<Cell<u32>>) {
    let calls = Rc::new(Cell::new(0));
    let seen = calls.clone();
    let mut next = start;
    let fill = move |b: &mut [u8]| {
        seen.set(seen.get() + 1);
        for x in b.iter_mut() {
            *x = next;
            next = next.wrapping_mul(13).wrapping_add(7);
        }
        true
    };
    (fill, calls)
}

fn check<const N: usize>() {
    for start in [1u8, 200] {
        let mut sk_out = vec![0xa5u8; SigningKey::<N>::ENCODED_LEN + 3];
        let mut pk_out = vec![0xa5u8; VerifyingKey::<N>::ENCODED_LEN + 3];
        let (fill, _) = counter(start);
        let (sl, pl) =
            SigningKey::<N>::generate_encoded_with_rng(fill, &mut sk_out, &mut pk_out).unwrap();
        assert_eq!(
            (sl, pl),
            (SigningKey::<N>::ENCODED_LEN, VerifyingKey::<N>::ENCODED_LEN)
        );
        // The same randomness through the key-returning API gives the same encodings.
        let (fill, _) = counter(start);
        let sk = SigningKey::<N>::generate_with_rng(fill).unwrap();
        let mut want_sk = vec![0u8; sl];
        sk.encode(&mut want_sk).unwrap();
        let mut want_pk = vec![0u8; pl];
        sk.verifying_key().encode(&mut want_pk).unwrap();
        assert_eq!(&sk_out[..sl], &want_sk[..], "N = {N}, start {start}");
        assert_eq!(&pk_out[..pl], &want_pk[..], "N = {N}, start {start}");
        // Bytes past the encodings untouched.
        assert!(sk_out[sl..].iter().chain(&pk_out[pl..]).all(|&b| b == 0xa5));
        // The encodings make a working key pair.
        let dec = SigningKey::<N>::decode(&sk_out[..sl]).unwrap();
        let vk = VerifyingKey::<N>::decode(&pk_out[..pl]).unwrap();
        let sig = dec.sign_with_seed(b"msg", &[3u8; 40], &[4u8; 48]);
        assert!(vk.verify_signature(b"msg", &sig).is_ok());
        assert!(vk.verify_signature(b"msh", &sig).is_err());
    }
    // Too short: refused with the sizes, before `fill` is called.
    let mut short_sk = vec![0u8; SigningKey::<N>::ENCODED_LEN - 1];
    let mut pk_out = vec![0u8; VerifyingKey::<N>::ENCODED_LEN];
    let (fill, calls) = counter(9);
    assert_eq!(
        SigningKey::<N>::generate_encoded_with_rng(fill, &mut short_sk, &mut pk_out),
        Err(Error::BufferTooSmall {
            needed: SigningKey::<N>::ENCODED_LEN,
            actual: SigningKey::<N>::ENCODED_LEN - 1
        })
    );
    let mut sk_out = vec![0u8; SigningKey::<N>::ENCODED_LEN];
    let mut short_pk = vec![0u8; 10];
    let (fill2, calls2) = counter(9);
    assert!(matches!(
        SigningKey::<N>::generate_encoded_with_rng(fill2, &mut sk_out, &mut short_pk),
        Err(Error::BufferTooSmall { .. })
    ));
    assert_eq!((calls.get(), calls2.get()), (0, 0));
    // A failing source of randomness is an error.
    let mut pk_out = vec![0u8; VerifyingKey::<N>::ENCODED_LEN];
    assert_eq!(
        SigningKey::<N>::generate_encoded_with_rng(|_| false, &mut sk_out, &mut pk_out),
        Err(Error::Randomness)
    );
}

#[test]
fn encoded_key_pairs_512() {
    check::<512>();
}

#[test]
fn encoded_key_pairs_1024() {
    check::<1024>();
}
