//! The AVX2 twin of [`super::chacha::refill_portable`]: the eight ChaCha20 blocks of a refill
//! with one 256-bit vector per state row (lane u is block u), so that row v of the result is
//! exactly the 32 interleaved output bytes 32 v to 32 v + 31 of the reference's
//! `prng_refill`. Rotations by 16 and 8 are byte shuffles, by 12 and 7 shift pairs.
//!
//! [`refill`] is a safe function compiled with `#[target_feature(enable = "avx2")]`, called in
//! an `unsafe` block by [`refill_detected`], which the PRNG calls only when `pqlab_backend`
//! found AVX2 at run time. Loads and stores go through bounds-checked slices.
#![allow(unsafe_code)]

use core::arch::x86_64::*;

use zeroize::Zeroize;

use super::chacha::{BUF_LEN, initial_rows};

/// x <<< 16 in each 32-bit lane (a byte shuffle).
#[target_feature(enable = "avx2")]
#[inline]
fn rot16(x: __m256i) -> __m256i {
    let m = _mm256_setr_epi8(
        2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13, 2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9,
        14, 15, 12, 13,
    );
    _mm256_shuffle_epi8(x, m)
}

/// x <<< 8 in each 32-bit lane (a byte shuffle).
#[target_feature(enable = "avx2")]
#[inline]
fn rot8(x: __m256i) -> __m256i {
    let m = _mm256_setr_epi8(
        3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14, 3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10,
        15, 12, 13, 14,
    );
    _mm256_shuffle_epi8(x, m)
}

/// x <<< 12 in each 32-bit lane.
#[target_feature(enable = "avx2")]
#[inline]
fn rot12(x: __m256i) -> __m256i {
    _mm256_or_si256(_mm256_slli_epi32::<12>(x), _mm256_srli_epi32::<20>(x))
}

/// x <<< 7 in each 32-bit lane.
#[target_feature(enable = "avx2")]
#[inline]
fn rot7(x: __m256i) -> __m256i {
    _mm256_or_si256(_mm256_slli_epi32::<7>(x), _mm256_srli_epi32::<25>(x))
}

/// One ChaCha20 quarter round on rows a, b, c, d (eight blocks at once).
#[target_feature(enable = "avx2")]
#[inline]
fn qround(x: &mut [__m256i; 16], a: usize, b: usize, c: usize, d: usize) {
    x[a] = _mm256_add_epi32(x[a], x[b]);
    x[d] = rot16(_mm256_xor_si256(x[d], x[a]));
    x[c] = _mm256_add_epi32(x[c], x[d]);
    x[b] = rot12(_mm256_xor_si256(x[b], x[c]));
    x[a] = _mm256_add_epi32(x[a], x[b]);
    x[d] = rot8(_mm256_xor_si256(x[d], x[a]));
    x[c] = _mm256_add_epi32(x[c], x[d]);
    x[b] = rot7(_mm256_xor_si256(x[b], x[c]));
}

/// [`refill`], for the PRNG of the AVX2 back end, which `chacha::Lanes::of` gives only after
/// `pqlab_backend` found it available (run-time detection of AVX2 among others).
#[inline]
pub(super) fn refill_detected(buf: &mut [u8; BUF_LEN], state: &[u32; 12], counter: u64) {
    // SAFETY: AVX2 was detected at run time (see above).
    unsafe { refill(buf, state, counter) }
}

/// [`refill`] with AVX-512 F and VL (the same steps: the compiler has 32 vector registers and
/// single-instruction rotations), for the PRNG of the AVX-512 back end, which
/// `chacha::Lanes::of` gives only after `pqlab_backend` found it available (AVX-512 F, BW, VL
/// and DQ, and AVX2, detected at run time).
#[inline]
pub(super) fn refill_detected_avx512(buf: &mut [u8; BUF_LEN], state: &[u32; 12], counter: u64) {
    // SAFETY: AVX2, AVX-512 F and VL were detected at run time (see above).
    unsafe { refill_avx512(buf, state, counter) }
}

/// The 16 state rows of the eight blocks of `counter` (lane u is block u).
#[target_feature(enable = "avx2")]
#[inline]
fn rows(state: &[u32; 12], counter: u64) -> [__m256i; 16] {
    let mut init = initial_rows(state, counter);
    let mut x = [_mm256_setzero_si256(); 16];
    for (xv, row) in x.iter_mut().zip(init.iter()) {
        // SAFETY: `row` holds eight `u32`, the 32 bytes read.
        *xv = unsafe { _mm256_loadu_si256(row.as_ptr().cast()) };
    }
    init.zeroize();
    x
}

/// The 20 rounds (ten double rounds) on the rows.
#[target_feature(enable = "avx2")]
#[inline]
fn rounds(x: &mut [__m256i; 16]) {
    for _ in 0..10 {
        qround(x, 0, 4, 8, 12);
        qround(x, 1, 5, 9, 13);
        qround(x, 2, 6, 10, 14);
        qround(x, 3, 7, 11, 15);
        qround(x, 0, 5, 10, 15);
        qround(x, 1, 6, 11, 12);
        qround(x, 2, 7, 8, 13);
        qround(x, 3, 4, 9, 14);
    }
}

/// Row v of the output (the rounds' result plus the initial rows) into bytes 32 v to 32 v + 31.
#[target_feature(enable = "avx2")]
#[inline]
fn store(buf: &mut [u8; BUF_LEN], x: &[__m256i; 16], x0: &[__m256i; 16]) {
    for (v, (xv, iv)) in x.iter().zip(x0.iter()).enumerate() {
        let out = &mut buf[32 * v..32 * v + 32];
        // SAFETY: `out` holds 32 bytes, the 32 bytes written (x86-64 is little-endian, so the
        // lanes are stored as the reference's little-endian words).
        unsafe { _mm256_storeu_si256(out.as_mut_ptr().cast(), _mm256_add_epi32(*xv, *iv)) };
    }
}

/// `prng_refill` with AVX2: the eight blocks of counters `counter` to `counter + 7`, written
/// interleaved into `buf` (word v of block u at byte 4 u + 32 v), the same bytes as
/// [`super::chacha::refill_portable`].
#[target_feature(enable = "avx2")]
fn refill(buf: &mut [u8; BUF_LEN], state: &[u32; 12], counter: u64) {
    let x0 = rows(state, counter);
    let mut x = x0;
    rounds(&mut x);
    store(buf, &x, &x0);
}

/// [`refill`] compiled with AVX-512 F and VL as well.
#[target_feature(enable = "avx2,avx512f,avx512vl")]
fn refill_avx512(buf: &mut [u8; BUF_LEN], state: &[u32; 12], counter: u64) {
    let x0 = rows(state, counter);
    let mut x = x0;
    rounds(&mut x);
    store(buf, &x, &x0);
}
