//! The 4-way and 8-way permutations of every back end on this machine against the scalar
//! Keccak-f\[1600\] of each instance, on random states.

use pqlab_backend::Backend;
use rand::rngs::StdRng;
use rand::{RngCore, SeedableRng};

use super::{Interleaved, portable};
use crate::keccak::{keccak_f1600_portable_state, permute};

fn random_state(rng: &mut StdRng) -> Interleaved {
    let mut s = Interleaved::ZERO;
    for row in s.0.iter_mut() {
        for w in row.iter_mut() {
            *w = rng.next_u64();
        }
    }
    s
}

/// The scalar permutation applied to instances `first..first + count`: on states in the
/// form of `keccak::lane_in` for the portable back end (bit-interleaved with
/// `keccak::INTERLEAVED`), on standard states for the SIMD ones.
fn reference(backend: Backend, s: &Interleaved, first: usize, count: usize) -> Interleaved {
    let keccak_f1600 = if backend == Backend::Portable {
        keccak_f1600_portable_state
    } else {
        permute
    };
    let mut r = *s;
    for l in first..first + count {
        let mut a = [0u64; 25];
        for (w, row) in a.iter_mut().zip(r.0.iter()) {
            *w = row[l];
        }
        keccak_f1600(&mut a);
        for (w, row) in a.iter().zip(r.0.iter_mut()) {
            row[l] = *w;
        }
    }
    r
}

/// Runs the x4 (lower, upper) and x8 permutations of `backend` on `s`.
fn run(backend: Backend, s: &Interleaved) -> [Interleaved; 3] {
    let (mut lo, mut hi, mut all) = (*s, *s, *s);
    match backend {
        Backend::Portable => {
            portable::keccak_f1600_x4(&mut lo, false);
            portable::keccak_f1600_x4(&mut hi, true);
            portable::keccak_f1600_x8(&mut all);
        }
        #[cfg(target_arch = "x86_64")]
        Backend::Avx2 => {
            let cpu = super::avx2::Avx2::detect().expect("AVX2 is available");
            cpu.keccak_f1600_x4(&mut lo, false);
            cpu.keccak_f1600_x4(&mut hi, true);
            cpu.keccak_f1600_x8(&mut all);
        }
        #[cfg(target_arch = "x86_64")]
        Backend::Avx512 => {
            let cpu = super::avx512::Avx512::detect().expect("AVX-512 is available");
            cpu.keccak_f1600_x4(&mut lo, false);
            cpu.keccak_f1600_x4(&mut hi, true);
            cpu.keccak_f1600_x8(&mut all);
        }
        #[cfg(not(target_arch = "x86_64"))]
        _ => unreachable!("only the portable back end exists here"),
    }
    [lo, hi, all]
}

#[test]
fn x4_and_x8_equal_scalar_permutations() {
    let mut rng = StdRng::seed_from_u64(0x6b65_6363_616b);
    let mut ran = [0usize; 3];
    for backend in pqlab_backend::available() {
        for _ in 0..50 {
            let s = random_state(&mut rng);
            let [lo, hi, all] = run(backend, &s);
            assert_eq!(lo, reference(backend, &s, 0, 4), "{backend} x4 lower");
            assert_eq!(hi, reference(backend, &s, 4, 4), "{backend} x4 upper");
            assert_eq!(all, reference(backend, &s, 0, 8), "{backend} x8");
            ran[backend as usize] += 1;
        }
    }
    for backend in Backend::ALL {
        std::eprintln!(
            "x4/x8 permutations: {backend}: {} states",
            ran[backend as usize]
        );
    }
    assert!(ran[Backend::Portable as usize] > 0);
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") {
        assert!(
            ran[Backend::Avx2 as usize] > 0,
            "the CPU has AVX2 but no AVX2 case ran"
        );
    }
}

#[test]
fn release_builds_clamp_caller_errors() {
    // Release builds clamp a caller's errors instead of panicking; debug builds assert.
    if cfg!(debug_assertions) {
        return;
    }
    let long = [7u8; 40];
    let short = [7u8; 10];
    let x = super::Shake128X::new(Backend::Portable, &[&long, &short]);
    assert_eq!(x.lanes(), 2);
    let nine: [&[u8]; 9] = [&short; 9];
    let mut x = super::Shake256X::new(Backend::Portable, &nine);
    assert_eq!(x.lanes(), 8);
    let mut out = [[0u8; 136]; 3];
    x.squeeze_blocks(&mut out);
    assert_eq!(out[0], out[1]);
    let mut x = super::Shake256X::new(Backend::Portable, &[]);
    assert_eq!(x.lanes(), 0);
    x.squeeze_blocks(&mut out);
}

#[test]
fn lane_batches_cover_every_stream_once() {
    for backend in Backend::ALL {
        let lanes = if backend == Backend::Avx512 { 8 } else { 4 };
        for total in 0..=60 {
            let mut seen = 0;
            for (first, n) in super::lane_batches(backend, total) {
                assert_eq!(first, seen);
                assert!((1..=lanes).contains(&n), "{backend} {total}: {n}");
                seen += n;
            }
            assert_eq!(seen, total);
        }
    }
}
