//! The FFT of the AVX-512 back end for signing ([`crate::fft::fft`] and [`crate::fft::ifft`],
//! Falcon spec v1.2, Section 3.7.2 and Algorithm 1 (splitfft) / 2 (mergefft) applied layer by
//! layer): eight `f64` lanes, real parts in one vector and imaginary parts in another (the
//! split layout of the FFT representation: f\[j\] real, f\[j + n/2\] imaginary).
//!
//! Layers whose butterflies are 8 or more values apart pair whole vectors with a broadcast
//! twiddle. The last three layers of the forward transform (distances 4, 2, 1) and the first
//! three of the inverse run on 16 values at a time: the butterfly partners are gathered into two
//! vectors with `vshuff64x2` / `vpermt2pd`, the twiddles of the 2, 4 or 8 groups are spread over
//! the lanes with `vpermpd`, and the results are put back in place the same way.
//!
//! Every lane performs the operations of the scalar kernel in the same order (separate
//! multiplications and additions, no fused multiply-add, IEEE-754 binary64 lane by lane), so the
//! results are the same bits as the portable transform; the equivalence test of
//! `backend::tests` compares them. The arithmetic is that of the build's floating-point back
//! end (`avx512_fpr.rs`): `vaddpd` / `vsubpd` / `vmulpd`, or with `fpr-emu` the integer-only
//! emulation on eight lanes (the same bits as the scalar emulation). For n >= 32 (smaller
//! degrees go to the portable transform).
#![allow(unsafe_code)]

use core::arch::x86_64::*;

use super::avx512_fpr::{add, mul, sub};

use crate::fpr::Fpr;

/// The twiddle table of [`crate::fft`] (cos, sin of pi BitRev10(k) / 1024 at 2k, 2k + 1), in one
/// place in memory.
pub(super) static GM_TAB: [u64; 2048] = crate::fft_table::GM_TAB;

/// Eight values from `f[i..i + 8]`.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,avx512cd")]
#[inline]
pub(super) fn load(f: &[Fpr], i: usize) -> __m512d {
    let c = &f[i..i + 8];
    // SAFETY: `Fpr` is `repr(transparent)` over `f64` (native) or `u64` (`fpr-emu`), 8 bytes
    // either way; `c` holds 8 values, the 64 bytes read.
    unsafe { _mm512_loadu_pd(c.as_ptr().cast()) }
}

/// Stores eight values into `f[i..i + 8]`.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,avx512cd")]
#[inline]
pub(super) fn store(f: &mut [Fpr], i: usize, v: __m512d) {
    let c = &mut f[i..i + 8];
    // SAFETY: as in `load`; the 64 bytes written.
    unsafe { _mm512_storeu_pd(c.as_mut_ptr().cast(), v) }
}

/// Eight twiddle words `GM_TAB[i..i + 8]` (four complex values, real and imaginary parts
/// interleaved) as `f64` lanes.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,avx512cd")]
#[inline]
pub(super) fn load_gm(i: usize) -> __m512d {
    let c = &GM_TAB[i..i + 8];
    // SAFETY: `c` holds 8 `u64`, the 64 bytes read; every bit pattern is an `f64`.
    unsafe { _mm512_loadu_pd(c.as_ptr().cast()) }
}

#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,avx512cd")]
#[inline]
fn idx(i: [i64; 8]) -> __m512i {
    _mm512_setr_epi64(i[0], i[1], i[2], i[3], i[4], i[5], i[6], i[7])
}

/// (a_re + i a_im)(b_re + i b_im) lane by lane, as [`crate::fft::cmul`].
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,avx512cd")]
#[inline]
pub(super) fn cmul(
    a_re: __m512d,
    a_im: __m512d,
    b_re: __m512d,
    b_im: __m512d,
) -> (__m512d, __m512d) {
    (
        sub(mul(a_re, b_re), mul(a_im, b_im)),
        add(mul(a_re, b_im), mul(a_im, b_re)),
    )
}

/// The twiddles of the groups `g..g + k` of a layer whose first twiddle is GM\[m\], spread so
/// that lane l holds the one of group g + l / (8 / k) (k = 2, 4 or 8): (real, imaginary).
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,avx512cd")]
#[inline]
fn twiddles(m: usize, g: usize, k: usize) -> (__m512d, __m512d) {
    let at = (m + g) << 1;
    match k {
        2 => {
            let c = &GM_TAB[at..at + 4];
            // SAFETY: `c` holds 4 `u64`, the 32 bytes read; every bit pattern is an `f64`.
            let t = _mm512_zextpd256_pd512(unsafe { _mm256_loadu_pd(c.as_ptr().cast()) });
            (
                _mm512_permutexvar_pd(idx([0, 0, 0, 0, 2, 2, 2, 2]), t),
                _mm512_permutexvar_pd(idx([1, 1, 1, 1, 3, 3, 3, 3]), t),
            )
        }
        4 => {
            let t = load_gm(at);
            (
                _mm512_permutexvar_pd(idx([0, 0, 2, 2, 4, 4, 6, 6]), t),
                _mm512_permutexvar_pd(idx([1, 1, 3, 3, 5, 5, 7, 7]), t),
            )
        }
        _ => {
            let (t0, t1) = (load_gm(at), load_gm(at + 8));
            (
                _mm512_permutex2var_pd(t0, idx([0, 2, 4, 6, 8, 10, 12, 14]), t1),
                _mm512_permutex2var_pd(t0, idx([1, 3, 5, 7, 9, 11, 13, 15]), t1),
            )
        }
    }
}

/// The lane permutations of the small layers, for butterfly distance `ht` (4, 2 or 1) within a
/// block of 16 values in two vectors (a, b): (first partners, second partners) of
/// `vpermt2pd`, and the two inverse permutations that put (x, y) back into (a, b).
const fn gather(ht: usize) -> ([i64; 8], [i64; 8], [i64; 8], [i64; 8]) {
    match ht {
        4 => (
            [0, 1, 2, 3, 8, 9, 10, 11],
            [4, 5, 6, 7, 12, 13, 14, 15],
            [0, 1, 2, 3, 8, 9, 10, 11],
            [4, 5, 6, 7, 12, 13, 14, 15],
        ),
        2 => (
            [0, 1, 4, 5, 8, 9, 12, 13],
            [2, 3, 6, 7, 10, 11, 14, 15],
            [0, 1, 8, 9, 2, 3, 10, 11],
            [4, 5, 12, 13, 6, 7, 14, 15],
        ),
        _ => (
            [0, 2, 4, 6, 8, 10, 12, 14],
            [1, 3, 5, 7, 9, 11, 13, 15],
            [0, 8, 1, 9, 2, 10, 3, 11],
            [4, 12, 5, 13, 6, 14, 7, 15],
        ),
    }
}

/// [`crate::fft::fft`] for 32 <= n = 2^logn <= 1024 (same bits).
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,avx512cd")]
pub(super) fn fft(f: &mut [Fpr], logn: u32) {
    let n = 1usize << logn;
    let hn = n >> 1;
    let (re, im) = f[..n].split_at_mut(hn);
    let mut t = hn;
    let mut m = 2;
    for _ in 1..logn {
        let ht = t >> 1;
        if ht >= 8 {
            for i1 in 0..m >> 1 {
                let s_re = _mm512_set1_pd(f64::from_bits(GM_TAB[(m + i1) << 1]));
                let s_im = _mm512_set1_pd(f64::from_bits(GM_TAB[((m + i1) << 1) + 1]));
                let j1 = i1 * t;
                for j in (j1..j1 + ht).step_by(8) {
                    let (x_re, x_im) = (load(re, j), load(im, j));
                    let (y_re, y_im) = cmul(load(re, j + ht), load(im, j + ht), s_re, s_im);
                    store(re, j, add(x_re, y_re));
                    store(im, j, add(x_im, y_im));
                    store(re, j + ht, sub(x_re, y_re));
                    store(im, j + ht, sub(x_im, y_im));
                }
            }
        } else {
            // Blocks of 16 values hold 16 / t groups of the layer.
            let (gx, gy, px, py) = gather(ht);
            let (gx, gy, px, py) = (idx(gx), idx(gy), idx(px), idx(py));
            for blk in (0..hn).step_by(16) {
                let (s_re, s_im) = twiddles(m, blk / t, 16 / t);
                let (a_re, b_re) = (load(re, blk), load(re, blk + 8));
                let (a_im, b_im) = (load(im, blk), load(im, blk + 8));
                let x_re = _mm512_permutex2var_pd(a_re, gx, b_re);
                let x_im = _mm512_permutex2var_pd(a_im, gx, b_im);
                let (y_re, y_im) = cmul(
                    _mm512_permutex2var_pd(a_re, gy, b_re),
                    _mm512_permutex2var_pd(a_im, gy, b_im),
                    s_re,
                    s_im,
                );
                let (u_re, u_im) = (add(x_re, y_re), add(x_im, y_im));
                let (v_re, v_im) = (sub(x_re, y_re), sub(x_im, y_im));
                store(re, blk, _mm512_permutex2var_pd(u_re, px, v_re));
                store(re, blk + 8, _mm512_permutex2var_pd(u_re, py, v_re));
                store(im, blk, _mm512_permutex2var_pd(u_im, px, v_im));
                store(im, blk + 8, _mm512_permutex2var_pd(u_im, py, v_im));
            }
        }
        t = ht;
        m <<= 1;
    }
}

/// [`crate::fft::ifft`] for 32 <= n = 2^logn <= 1024 (same bits).
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,avx512cd")]
pub(super) fn ifft(f: &mut [Fpr], logn: u32) {
    let n = 1usize << logn;
    let hn = n >> 1;
    let (re, im) = f[..n].split_at_mut(hn);
    let mut t = 1;
    let mut m = n;
    for _ in (2..=logn).rev() {
        let hm = m >> 1;
        let dt = t << 1;
        if t >= 8 {
            for (i1, j1) in (0..hn).step_by(dt).enumerate() {
                let s_re = _mm512_set1_pd(f64::from_bits(GM_TAB[(hm + i1) << 1]));
                let s_im = _mm512_set1_pd(-f64::from_bits(GM_TAB[((hm + i1) << 1) + 1]));
                for j in (j1..j1 + t).step_by(8) {
                    let (x_re, x_im) = (load(re, j), load(im, j));
                    let (y_re, y_im) = (load(re, j + t), load(im, j + t));
                    store(re, j, add(x_re, y_re));
                    store(im, j, add(x_im, y_im));
                    let (d_re, d_im) = cmul(sub(x_re, y_re), sub(x_im, y_im), s_re, s_im);
                    store(re, j + t, d_re);
                    store(im, j + t, d_im);
                }
            }
        } else {
            let (gx, gy, px, py) = gather(t);
            let (gx, gy, px, py) = (idx(gx), idx(gy), idx(px), idx(py));
            let neg = _mm512_set1_pd(-0.0);
            for blk in (0..hn).step_by(16) {
                let (s_re, s_im) = twiddles(hm, blk / dt, 16 / dt);
                let s_im = _mm512_xor_pd(s_im, neg);
                let (a_re, b_re) = (load(re, blk), load(re, blk + 8));
                let (a_im, b_im) = (load(im, blk), load(im, blk + 8));
                let x_re = _mm512_permutex2var_pd(a_re, gx, b_re);
                let x_im = _mm512_permutex2var_pd(a_im, gx, b_im);
                let y_re = _mm512_permutex2var_pd(a_re, gy, b_re);
                let y_im = _mm512_permutex2var_pd(a_im, gy, b_im);
                let (u_re, u_im) = (add(x_re, y_re), add(x_im, y_im));
                let (v_re, v_im) = cmul(sub(x_re, y_re), sub(x_im, y_im), s_re, s_im);
                store(re, blk, _mm512_permutex2var_pd(u_re, px, v_re));
                store(re, blk + 8, _mm512_permutex2var_pd(u_re, py, v_re));
                store(im, blk, _mm512_permutex2var_pd(u_im, px, v_im));
                store(im, blk + 8, _mm512_permutex2var_pd(u_im, py, v_im));
            }
        }
        t = dt;
        m = hm;
    }
    let ni = _mm512_set1_pd(f64::from_bits(Fpr::p2(logn).to_bits()));
    for j in (0..hn).step_by(8) {
        store(re, j, mul(load(re, j), ni));
        store(im, j, mul(load(im, j), ni));
    }
}
