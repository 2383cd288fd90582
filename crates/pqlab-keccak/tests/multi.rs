//! Multi-lane SHAKE ([`Shake128X`], [`Shake256X`]) against the one-lane [`Shake128`] /
//! [`Shake256`] and the RustCrypto `sha3` crate: every back end this machine has, 1 to 8 lanes,
//! input lengths around the block boundaries of both rates, 1 to 6 squeezed blocks.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use pqlab_backend::Backend;
use pqlab_keccak::{Shake, ShakeX};
use rand::rngs::StdRng;
use rand::{RngCore, SeedableRng};
use sha3::digest::{ExtendableOutput, Update, XofReader};

/// Empty, short, around the lane size, and around the rates of SHAKE256 (136) and SHAKE128 (168).
const INPUT_LENS: [usize; 11] = [0, 1, 33, 34, 66, 135, 136, 137, 168, 169, 300];
const MAX_BLOCKS: usize = 6;

/// `blocks` blocks of `RATE` bytes of the one-lane SHAKE of `m`, checked against `sha3`.
fn one_lane<const RATE: usize>(m: &[u8], blocks: usize) -> Vec<u8> {
    let mut ours = vec![0u8; blocks * RATE];
    Shake::<RATE>::digest_parts(&[m], &mut ours);
    let mut theirs = vec![0u8; blocks * RATE];
    match RATE {
        168 => {
            let mut h = sha3::Shake128::default();
            h.update(m);
            h.finalize_xof().read(&mut theirs);
        }
        136 => {
            let mut h = sha3::Shake256::default();
            h.update(m);
            h.finalize_xof().read(&mut theirs);
        }
        _ => unreachable!(),
    }
    assert_eq!(
        ours,
        theirs,
        "one-lane SHAKE{} differs from sha3",
        1344 / RATE
    );
    ours
}

/// Checks every (lane count, input length, block count) on `backend`; returns the cases run.
fn check_rate<const RATE: usize>(backend: Backend, rng: &mut StdRng) -> usize {
    let mut cases = 0;
    for lanes in 1..=ShakeX::<RATE>::MAX_LANES {
        for len in INPUT_LENS {
            let inputs: Vec<Vec<u8>> = (0..lanes)
                .map(|_| {
                    let mut v = vec![0u8; len];
                    rng.fill_bytes(&mut v);
                    v
                })
                .collect();
            let refs: Vec<&[u8]> = inputs.iter().map(|v| &v[..]).collect();
            let expected: Vec<Vec<u8>> = inputs
                .iter()
                .map(|m| one_lane::<RATE>(m, MAX_BLOCKS))
                .collect();
            for blocks in 1..=MAX_BLOCKS {
                let mut x = ShakeX::<RATE>::new(backend, &refs);
                assert_eq!(x.lanes(), lanes);
                assert_eq!(x.backend(), backend);
                let mut out = vec![[0u8; RATE]; lanes];
                for k in 0..blocks {
                    x.squeeze_blocks(&mut out);
                    for (l, block) in out.iter().enumerate() {
                        assert_eq!(
                            &block[..],
                            &expected[l][k * RATE..(k + 1) * RATE],
                            "{backend}, SHAKE{}, {lanes} lanes, input length {len}, \
                             lane {l}, block {k} of {blocks}",
                            1344 / RATE
                        );
                    }
                }
                cases += 1;
            }
        }
    }
    cases
}

#[test]
fn multi_lane_equals_one_lane_on_every_backend() {
    let mut rng = StdRng::seed_from_u64(0x5348_414b_4558);
    let mut ran = [0usize; 3];
    for backend in pqlab_backend::available() {
        ran[backend as usize] += check_rate::<168>(backend, &mut rng);
        ran[backend as usize] += check_rate::<136>(backend, &mut rng);
    }
    for backend in Backend::ALL {
        eprintln!(
            "multi-lane SHAKE: {backend}: {} cases",
            ran[backend as usize]
        );
    }
    assert!(ran[Backend::Portable as usize] > 0);
    let ci = std::env::var("CI").is_ok_and(|v| v == "true");
    #[cfg(target_arch = "x86_64")]
    if ci && std::is_x86_feature_detected!("avx2") {
        assert!(
            ran[Backend::Avx2 as usize] > 0,
            "CI: the CPU has AVX2 but no AVX2 case ran (is pqlab-backend's `std` feature on?)"
        );
    }
    #[cfg(target_arch = "x86_64")]
    if ci && std::is_x86_feature_detected!("avx512f") && std::is_x86_feature_detected!("avx512vl") {
        assert!(
            ran[Backend::Avx512 as usize] > 0,
            "CI: the CPU has AVX-512 but no AVX-512 case ran"
        );
    }
    let _ = ci;
}

#[test]
fn unavailable_backend_falls_back_to_portable() {
    for backend in Backend::ALL {
        let x = pqlab_keccak::Shake128X::new(backend, &[b"abc", b"def"]);
        let expect = if backend.is_available() {
            backend
        } else {
            Backend::Portable
        };
        assert_eq!(x.backend(), expect);
    }
}

#[test]
fn squeezing_into_fewer_or_more_blocks_than_lanes() {
    let m: [&[u8]; 5] = [b"a", b"b", b"c", b"d", b"e"];
    for backend in pqlab_backend::available() {
        let mut x = pqlab_keccak::Shake256X::new(backend, &m);
        // Fewer outputs than lanes: the missing ones are skipped.
        let mut few = [[0u8; 136]; 2];
        x.squeeze_blocks(&mut few);
        // More: the extra entries are left alone.
        let mut many = [[0xAAu8; 136]; 7];
        x.squeeze_blocks(&mut many);
        for (l, mm) in m.iter().enumerate() {
            let e = one_lane::<136>(mm, 2);
            if l < 2 {
                assert_eq!(&few[l][..], &e[..136], "{backend} lane {l}");
            }
            assert_eq!(&many[l][..], &e[136..], "{backend} lane {l}");
        }
        assert!(many[5..].iter().all(|b| b.iter().all(|&v| v == 0xAA)));
    }
}

/// `next_blocks` then `read_block` (whole blocks, prefixes, odd lengths) gives the bytes of
/// `squeeze_blocks`, on every back end.
#[test]
fn reading_lanes_one_at_a_time_equals_squeezing_blocks() {
    let m: [&[u8]; 6] = [b"a", b"b", b"c", b"d", b"e", b"f"];
    for backend in pqlab_backend::available() {
        let mut x = pqlab_keccak::Shake128X::new(backend, &m);
        let mut y = pqlab_keccak::Shake128X::new(backend, &m);
        let mut blocks = [[0u8; 168]; 6];
        for round in 0..3 {
            x.squeeze_blocks(&mut blocks);
            y.next_blocks();
            for (l, block) in blocks.iter().enumerate() {
                for len in [168usize, 128, 61, 1] {
                    let mut out = [0x55u8; 170];
                    y.read_block(l, &mut out[..len]);
                    assert_eq!(
                        &out[..len],
                        &block[..len],
                        "{backend} round {round} lane {l}"
                    );
                    assert!(out[len..].iter().all(|&b| b == 0x55));
                }
                let mut long = [0x55u8; 170];
                y.read_block(l, &mut long);
                assert_eq!(
                    &long[..168],
                    &block[..],
                    "{backend} lane {l}: capped at the rate"
                );
                assert_eq!(long[168..], [0x55, 0x55]);
            }
            let mut none = [0x55u8; 8];
            y.read_block(6, &mut none);
            assert_eq!(
                none, [0x55; 8],
                "{backend}: a lane not in use is left alone"
            );
        }
    }
}

#[test]
fn mixed_lanes_equal_one_lane_on_every_backend() {
    use pqlab_keccak::{ShakeMix, Xof};
    let mut rng = StdRng::seed_from_u64(0x004d_4958_4544);
    let mut ran = [0usize; 3];
    for backend in pqlab_backend::available() {
        for case in 0..200 {
            let lanes = 1 + case % 8;
            let xofs: Vec<Xof> = (0..lanes)
                .map(|_| {
                    if rng.next_u32() & 1 == 0 {
                        Xof::Shake128
                    } else {
                        Xof::Shake256
                    }
                })
                .collect();
            let inputs: Vec<Vec<u8>> = xofs
                .iter()
                .map(|x| {
                    let mut v = vec![0u8; rng.next_u32() as usize % x.rate()];
                    rng.fill_bytes(&mut v);
                    v
                })
                .collect();
            let refs: Vec<&[u8]> = inputs.iter().map(|v| &v[..]).collect();
            let expected: Vec<Vec<u8>> = inputs
                .iter()
                .zip(&xofs)
                .map(|(m, x)| match x {
                    Xof::Shake128 => one_lane::<168>(m, 4),
                    Xof::Shake256 => one_lane::<136>(m, 4),
                })
                .collect();
            let mut x = ShakeMix::new(backend, &refs, &xofs).unwrap();
            let mut out = vec![[0u8; 168]; lanes];
            for k in 0..4 {
                // Drop trailing lanes now and then, as ML-KEM does once its PRF lanes are done.
                if k > 0 && rng.next_u32() % 3 == 0 {
                    x.truncate(1 + rng.next_u32() as usize % x.lanes());
                }
                x.squeeze_blocks(&mut out);
                for l in 0..x.lanes() {
                    let r = xofs[l].rate();
                    assert_eq!(
                        &out[l][..r],
                        &expected[l][k * r..(k + 1) * r],
                        "{backend}, {lanes} lanes, lane {l} ({:?}), block {k}",
                        xofs[l]
                    );
                }
            }
            ran[backend as usize] += 1;
        }
    }
    for backend in Backend::ALL {
        eprintln!("mixed SHAKE: {backend}: {} cases", ran[backend as usize]);
    }
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx512f") && std::is_x86_feature_detected!("avx512vl") {
        assert!(ran[Backend::Avx512 as usize] > 0);
    }
    // Bad inputs are refused, never a panic.
    let long = [0u8; 136];
    assert!(ShakeMix::new(Backend::Portable, &[&long], &[Xof::Shake256]).is_none());
    assert!(ShakeMix::new(Backend::Portable, &[&long], &[Xof::Shake128]).is_some());
    assert!(ShakeMix::new(Backend::Portable, &[], &[]).is_none());
    assert!(ShakeMix::new(Backend::Portable, &[&long], &[]).is_none());
    assert!(ShakeMix::new(Backend::Portable, &[&long[..1]; 9], &[Xof::Shake128; 9]).is_none());
}
