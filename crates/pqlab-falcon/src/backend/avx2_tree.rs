//! The kernels of the AVX2 back end that build and walk the Falcon tree: splitfft over a whole
//! depth of the tree (`crate::ffldl_levels`, [`crate::fft::split_level`], Falcon spec v1.2,
//! Algorithm 1; one polynomial is one node), mergefft (Algorithm 2) and the target update of
//! ffSampling (Algorithm 11, line 6), four `f64` lanes at a time.
//!
//! Every lane performs the operations of the scalar kernel in the same order (separate
//! `vmulpd`, `vaddpd` and `vsubpd`, no fused multiply-add, IEEE-754 binary64 lane by lane), so
//! the results are the same bits as the portable kernels'; the equivalence tests of
//! `backend::tests` compare them. Native floating point only: with `fpr-emu` the AVX2 back end
//! keeps the portable kernels.
//!
//! The leaf normalization sqrt(x) / sigma (Algorithm 8, step 6) is not here: the scalar
//! [`crate::fpr::Fpr::sqrt`] deliberately uses no square-root instruction (its latency may
//! depend on the operand, and it does not flush subnormals to +0 as the scalar code does), and
//! its integer steps need 64-bit multiplications and conversions that AVX2 lacks, so the AVX2
//! back end keeps the portable kernel for it.
#![allow(unsafe_code)]

use core::arch::x86_64::*;

use super::avx2_fft::{GM_TAB, cmul, load, load_gm, store};
use crate::fpr::Fpr;

/// The even-indexed and the odd-indexed lanes of the 8 values (lo, hi).
#[target_feature(enable = "avx2")]
#[inline]
fn deinterleave(lo: __m256d, hi: __m256d) -> (__m256d, __m256d) {
    // (0, 4, 2, 6) and (1, 5, 3, 7), then lanes 1 and 2 exchanged.
    (
        _mm256_permute4x64_pd::<0b11_01_10_00>(_mm256_unpacklo_pd(lo, hi)),
        _mm256_permute4x64_pd::<0b11_01_10_00>(_mm256_unpackhi_pd(lo, hi)),
    )
}

/// The twiddles of outputs k to k + 4 of [`split_level`] (node place u = k mod qm): gm(u + hm)
/// and its negated imaginary part. Below four per node the pattern repeats in every group of
/// four.
#[target_feature(enable = "avx2")]
#[inline]
fn twiddles(k: usize, qm: usize, hm: usize) -> (__m256d, __m256d) {
    if qm >= 4 {
        let i = (k & (qm - 1)) + hm;
        let (w_re, w_im) = deinterleave(load_gm(2 * i), load_gm(2 * i + 4));
        (w_re, _mm256_xor_pd(w_im, _mm256_set1_pd(-0.0)))
    } else {
        let mut w = [Fpr::ZERO; 8];
        for j in 0..4 {
            let i = (j & (qm - 1)) + hm;
            w[j] = Fpr::from_bits(GM_TAB[2 * i]);
            w[4 + j] = Fpr::from_bits(GM_TAB[2 * i + 1]).neg();
        }
        (load(&w, 0), load(&w, 4))
    }
}

/// [`crate::fft::split_level`] (Falcon spec v1.2, Algorithm 1: splitfft, on every node of one
/// depth) four outputs at a time (the portable kernel when a half holds fewer than four or not
/// a multiple of four values).
#[target_feature(enable = "avx2")]
pub(super) fn split_level(f: &[Fpr], hm: usize, f0: [&mut [Fpr]; 2], f1: [&mut [Fpr]; 2]) {
    let h = f.len() >> 1;
    let q = h >> 1;
    if q == 0 || !q.is_multiple_of(4) {
        crate::fft::split_level(f, hm, f0, f1);
        return;
    }
    let (re, im) = f.split_at(h);
    let [f0_re, f0_im] = f0;
    let [f1_re, f1_im] = f1;
    let qm = hm >> 1;
    let half = _mm256_set1_pd(0.5);
    let fixed = twiddles(0, qm, hm);
    for k in (0..q).step_by(4) {
        let (w_re, w_im) = if qm < 4 { fixed } else { twiddles(k, qm, hm) };
        let (a_re, b_re) = deinterleave(load(re, 2 * k), load(re, 2 * k + 4));
        let (a_im, b_im) = deinterleave(load(im, 2 * k), load(im, 2 * k + 4));
        store(f0_re, k, _mm256_mul_pd(_mm256_add_pd(a_re, b_re), half));
        store(f0_im, k, _mm256_mul_pd(_mm256_add_pd(a_im, b_im), half));
        let (x_re, x_im) = (_mm256_sub_pd(a_re, b_re), _mm256_sub_pd(a_im, b_im));
        let (t_re, t_im) = cmul(x_re, x_im, w_re, w_im);
        store(f1_re, k, _mm256_mul_pd(t_re, half));
        store(f1_im, k, _mm256_mul_pd(t_im, half));
    }
}

/// [`crate::fft::poly_merge_fft`] (Falcon spec v1.2, Algorithm 2: mergefft) four outputs at a
/// time for n >= 16, the portable kernel below.
#[target_feature(enable = "avx2")]
pub(super) fn merge_fft(f: &mut [Fpr], f0: &[Fpr], f1: &[Fpr]) {
    let n = f.len();
    if n < 16 {
        crate::fft::poly_merge_fft(f, f0, f1);
        return;
    }
    let hn = n >> 1;
    let qn = hn >> 1;
    for u in (0..qn).step_by(4) {
        let (a_re, a_im) = (load(f0, u), load(f0, u + qn));
        let (c_re, c_im) = (load(f1, u), load(f1, u + qn));
        let i = u + hn;
        let (w_re, w_im) = deinterleave(load_gm(2 * i), load_gm(2 * i + 4));
        let (b_re, b_im) = cmul(c_re, c_im, w_re, w_im);
        for (x, y, at) in [(a_re, b_re, 2 * u), (a_im, b_im, hn + 2 * u)] {
            let (s, d) = (_mm256_add_pd(x, y), _mm256_sub_pd(x, y));
            // (s0, d0, s2, d2) and (s1, d1, s3, d3), then the 128-bit halves regrouped.
            let (lo, hi) = (_mm256_unpacklo_pd(s, d), _mm256_unpackhi_pd(s, d));
            store(f, at, _mm256_permute2f128_pd::<0x20>(lo, hi));
            store(f, at + 4, _mm256_permute2f128_pd::<0x31>(lo, hi));
        }
    }
}

/// [`crate::fft::poly_diff_mul_add_fft`] (Falcon spec v1.2, Algorithm 11, line 6):
/// acc += (t1 - z1) l10, four complex values at a time (the portable kernel when n / 2 is not
/// a multiple of four).
#[target_feature(enable = "avx2")]
pub(super) fn diff_mul_add_fft(acc: &mut [Fpr], t1: &[Fpr], z1: &[Fpr], l10: &[Fpr]) {
    let hn = acc.len() >> 1;
    if hn == 0 || !hn.is_multiple_of(4) {
        crate::fft::poly_diff_mul_add_fft(acc, t1, z1, l10);
        return;
    }
    for u in (0..hn).step_by(4) {
        let d_re = _mm256_sub_pd(load(t1, u), load(z1, u));
        let d_im = _mm256_sub_pd(load(t1, u + hn), load(z1, u + hn));
        let (p_re, p_im) = cmul(d_re, d_im, load(l10, u), load(l10, u + hn));
        store(acc, u, _mm256_add_pd(load(acc, u), p_re));
        store(acc, u + hn, _mm256_add_pd(load(acc, u + hn), p_im));
    }
}

/// [`crate::fft::poly_mul_fft`]: a *= b, four complex values at a time (the portable kernel
/// when n / 2 is not a multiple of four).
#[target_feature(enable = "avx2")]
pub(super) fn mul_fft(a: &mut [Fpr], b: &[Fpr]) {
    let hn = a.len() >> 1;
    if !hn.is_multiple_of(4) || b.len() != a.len() {
        crate::fft::poly_mul_fft(a, b);
        return;
    }
    for u in (0..hn).step_by(4) {
        let (re, im) = cmul(load(a, u), load(a, u + hn), load(b, u), load(b, u + hn));
        store(a, u, re);
        store(a, u + hn, im);
    }
}

/// [`crate::fft::poly_add`]: a += b, four values at a time (the portable kernel when the length
/// is not a multiple of four).
#[target_feature(enable = "avx2")]
pub(super) fn add_assign(a: &mut [Fpr], b: &[Fpr]) {
    if !a.len().is_multiple_of(4) || b.len() != a.len() {
        crate::fft::poly_add(a, b);
        return;
    }
    for u in (0..a.len()).step_by(4) {
        store(a, u, _mm256_add_pd(load(a, u), load(b, u)));
    }
}

/// [`crate::fft::poly_mulconst`]: a *= x, four values at a time (the portable kernel when the
/// length is not a multiple of four).
#[target_feature(enable = "avx2")]
pub(super) fn mulconst(a: &mut [Fpr], x: Fpr) {
    if !a.len().is_multiple_of(4) {
        crate::fft::poly_mulconst(a, x);
        return;
    }
    let xs = load(&[x; 4], 0);
    for u in (0..a.len()).step_by(4) {
        store(a, u, _mm256_mul_pd(load(a, u), xs));
    }
}
