//! The FFT of the AVX2 back end for signing ([`crate::fft::fft`] and [`crate::fft::ifft`],
//! Falcon spec v1.2, Section 3.7.2 and Algorithm 1 (splitfft) / 2 (mergefft) applied layer by
//! layer): four `f64` lanes, real parts in one vector and imaginary parts in another (the
//! split layout of the FFT representation: f\[j\] real, f\[j + n/2\] imaginary).
//!
//! Layers whose butterflies are 4 or more values apart pair whole vectors with a broadcast
//! twiddle. The last two layers of the forward transform (distances 2 and 1) and the first two
//! of the inverse run on 8 values at a time: the butterfly partners are gathered into two
//! vectors with `vperm2f128` (distance 2) or `vunpcklpd` / `vunpckhpd` (distance 1), the
//! twiddles of the 2 or 4 groups are spread over the lanes in the same order, and the results
//! are put back in place the same way.
//!
//! Every lane performs the operations of the scalar kernel in the same order (separate
//! `vmulpd`, `vaddpd` and `vsubpd`, no fused multiply-add, IEEE-754 binary64 lane by lane), so
//! the results are the same bits as the portable transform; the equivalence test of
//! `backend::tests` compares them. Native floating point only: with `fpr-emu` the AVX2 back end
//! keeps the portable transform. For n >= 16 (smaller degrees go to the portable transform).
#![allow(unsafe_code)]

use core::arch::x86_64::*;

// The twiddle table, shared with the AVX-512 kernels (one copy in memory).
pub(super) use super::avx512_fft::GM_TAB;

use crate::fpr::Fpr;

/// Four values from `f[i..i + 4]`.
#[target_feature(enable = "avx2")]
#[inline]
pub(super) fn load(f: &[Fpr], i: usize) -> __m256d {
    let c = &f[i..i + 4];
    // SAFETY: `Fpr` is `repr(transparent)` over `f64` (this file is not built with
    // `fpr-emu`); `c` holds 4 values, the 32 bytes read.
    unsafe { _mm256_loadu_pd(c.as_ptr().cast()) }
}

/// Stores four values into `f[i..i + 4]`.
#[target_feature(enable = "avx2")]
#[inline]
pub(super) fn store(f: &mut [Fpr], i: usize, v: __m256d) {
    let c = &mut f[i..i + 4];
    // SAFETY: as in `load`; the 32 bytes written.
    unsafe { _mm256_storeu_pd(c.as_mut_ptr().cast(), v) }
}

/// Four twiddle words `GM_TAB[i..i + 4]` (two complex values, real and imaginary parts
/// interleaved) as `f64` lanes.
#[target_feature(enable = "avx2")]
#[inline]
pub(super) fn load_gm(i: usize) -> __m256d {
    let c = &GM_TAB[i..i + 4];
    // SAFETY: `c` holds 4 `u64`, the 32 bytes read; every bit pattern is an `f64`.
    unsafe { _mm256_loadu_pd(c.as_ptr().cast()) }
}

/// The twiddle GM\[i\] broadcast: (real, imaginary).
#[target_feature(enable = "avx2")]
#[inline]
fn broadcast(i: usize) -> (__m256d, __m256d) {
    (
        _mm256_set1_pd(f64::from_bits(GM_TAB[i << 1])),
        _mm256_set1_pd(f64::from_bits(GM_TAB[(i << 1) + 1])),
    )
}

/// (a_re + i a_im)(b_re + i b_im) lane by lane, as [`crate::fft::cmul`].
#[target_feature(enable = "avx2")]
#[inline]
pub(super) fn cmul(
    a_re: __m256d,
    a_im: __m256d,
    b_re: __m256d,
    b_im: __m256d,
) -> (__m256d, __m256d) {
    (
        _mm256_sub_pd(_mm256_mul_pd(a_re, b_re), _mm256_mul_pd(a_im, b_im)),
        _mm256_add_pd(_mm256_mul_pd(a_re, b_im), _mm256_mul_pd(a_im, b_re)),
    )
}

/// The butterfly partners of a block of 8 values in two vectors (a, b) for distance `ht`
/// (2 or 1): (first partners, second partners). Distance 2: positions (0, 1, 4, 5) and
/// (2, 3, 6, 7); distance 1: (0, 4, 2, 6) and (1, 5, 3, 7) (`vunpcklpd` order, groups 0, 2,
/// 1, 3).
#[target_feature(enable = "avx2")]
#[inline]
fn gather(ht: usize, a: __m256d, b: __m256d) -> (__m256d, __m256d) {
    if ht == 2 {
        (
            _mm256_permute2f128_pd::<0x20>(a, b),
            _mm256_permute2f128_pd::<0x31>(a, b),
        )
    } else {
        (_mm256_unpacklo_pd(a, b), _mm256_unpackhi_pd(a, b))
    }
}

/// The inverse of [`gather`]: the vectors (a, b) of the block from the results at the places of
/// the first partners (u) and of the second partners (v).
#[target_feature(enable = "avx2")]
#[inline]
fn scatter(ht: usize, u: __m256d, v: __m256d) -> (__m256d, __m256d) {
    // Both permutations are involutions on the pair of vectors.
    gather(ht, u, v)
}

/// The twiddles of the groups of a block of 8 values for distance `ht` (2 or 1), in the lane
/// order of [`gather`], for a layer whose first twiddle is GM\[m\] and the block's first group
/// g: (real, imaginary). Distance 2: groups (g, g, g + 1, g + 1); distance 1: groups (g, g + 2,
/// g + 1, g + 3).
#[target_feature(enable = "avx2")]
#[inline]
fn twiddles(ht: usize, m: usize, g: usize) -> (__m256d, __m256d) {
    let at = (m + g) << 1;
    if ht == 2 {
        let t = load_gm(at);
        (
            _mm256_permute_pd::<0b0000>(t),
            _mm256_permute_pd::<0b1111>(t),
        )
    } else {
        let (t0, t1) = (load_gm(at), load_gm(at + 4));
        (_mm256_unpacklo_pd(t0, t1), _mm256_unpackhi_pd(t0, t1))
    }
}

/// [`crate::fft::fft`] for 16 <= n = 2^logn <= 1024 (same bits).
#[target_feature(enable = "avx2")]
pub(super) fn fft(f: &mut [Fpr], logn: u32) {
    let n = 1usize << logn;
    let hn = n >> 1;
    let (re, im) = f[..n].split_at_mut(hn);
    let mut t = hn;
    let mut m = 2;
    for _ in 1..logn {
        let ht = t >> 1;
        if ht >= 4 {
            for i1 in 0..m >> 1 {
                let (s_re, s_im) = broadcast(m + i1);
                let j1 = i1 * t;
                for j in (j1..j1 + ht).step_by(4) {
                    let (x_re, x_im) = (load(re, j), load(im, j));
                    let (y_re, y_im) = cmul(load(re, j + ht), load(im, j + ht), s_re, s_im);
                    store(re, j, _mm256_add_pd(x_re, y_re));
                    store(im, j, _mm256_add_pd(x_im, y_im));
                    store(re, j + ht, _mm256_sub_pd(x_re, y_re));
                    store(im, j + ht, _mm256_sub_pd(x_im, y_im));
                }
            }
        } else {
            // Blocks of 8 values hold 8 / t groups of the layer.
            for blk in (0..hn).step_by(8) {
                let (s_re, s_im) = twiddles(ht, m, blk / t);
                let (x_re, y_re) = gather(ht, load(re, blk), load(re, blk + 4));
                let (x_im, y_im) = gather(ht, load(im, blk), load(im, blk + 4));
                let (y_re, y_im) = cmul(y_re, y_im, s_re, s_im);
                let (u_re, u_im) = (_mm256_add_pd(x_re, y_re), _mm256_add_pd(x_im, y_im));
                let (v_re, v_im) = (_mm256_sub_pd(x_re, y_re), _mm256_sub_pd(x_im, y_im));
                let (a_re, b_re) = scatter(ht, u_re, v_re);
                let (a_im, b_im) = scatter(ht, u_im, v_im);
                store(re, blk, a_re);
                store(re, blk + 4, b_re);
                store(im, blk, a_im);
                store(im, blk + 4, b_im);
            }
        }
        t = ht;
        m <<= 1;
    }
}

/// [`crate::fft::ifft`] for 16 <= n = 2^logn <= 1024 (same bits).
#[target_feature(enable = "avx2")]
pub(super) fn ifft(f: &mut [Fpr], logn: u32) {
    let n = 1usize << logn;
    let hn = n >> 1;
    let (re, im) = f[..n].split_at_mut(hn);
    let neg = _mm256_set1_pd(-0.0);
    let mut t = 1;
    let mut m = n;
    for _ in (2..=logn).rev() {
        let hm = m >> 1;
        let dt = t << 1;
        if t >= 4 {
            for (i1, j1) in (0..hn).step_by(dt).enumerate() {
                let (s_re, s_im) = broadcast(hm + i1);
                let s_im = _mm256_xor_pd(s_im, neg);
                for j in (j1..j1 + t).step_by(4) {
                    let (x_re, x_im) = (load(re, j), load(im, j));
                    let (y_re, y_im) = (load(re, j + t), load(im, j + t));
                    store(re, j, _mm256_add_pd(x_re, y_re));
                    store(im, j, _mm256_add_pd(x_im, y_im));
                    let (d_re, d_im) = cmul(
                        _mm256_sub_pd(x_re, y_re),
                        _mm256_sub_pd(x_im, y_im),
                        s_re,
                        s_im,
                    );
                    store(re, j + t, d_re);
                    store(im, j + t, d_im);
                }
            }
        } else {
            for blk in (0..hn).step_by(8) {
                let (s_re, s_im) = twiddles(t, hm, blk / dt);
                let s_im = _mm256_xor_pd(s_im, neg);
                let (x_re, y_re) = gather(t, load(re, blk), load(re, blk + 4));
                let (x_im, y_im) = gather(t, load(im, blk), load(im, blk + 4));
                let (u_re, u_im) = (_mm256_add_pd(x_re, y_re), _mm256_add_pd(x_im, y_im));
                let (v_re, v_im) = cmul(
                    _mm256_sub_pd(x_re, y_re),
                    _mm256_sub_pd(x_im, y_im),
                    s_re,
                    s_im,
                );
                let (a_re, b_re) = scatter(t, u_re, v_re);
                let (a_im, b_im) = scatter(t, u_im, v_im);
                store(re, blk, a_re);
                store(re, blk + 4, b_re);
                store(im, blk, a_im);
                store(im, blk + 4, b_im);
            }
        }
        t = dt;
        m = hm;
    }
    let ni = _mm256_set1_pd(f64::from_bits(Fpr::p2(logn).to_bits()));
    for j in (0..hn).step_by(4) {
        store(re, j, _mm256_mul_pd(load(re, j), ni));
        store(im, j, _mm256_mul_pd(load(im, j), ni));
    }
}
