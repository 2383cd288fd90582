//! The AVX-512 back end of Falcon verification (AVX-512 F, BW, VL, DQ): the kernels of [`Ops`]
//! on 512-bit vectors of 32 `i16` coefficients, with the operations of the portable back end
//! lane by lane, so the results are the same bits.
//!
//! Layers with butterfly distance 32 or more pair whole vectors. The last five layers (distances
//! 16 to 1) run on two blocks of 256 coefficients at once: vector v holds row v (16
//! coefficients) of the first block in its low half and of the second in its high half, so the
//! distance-16 layer pairs whole vectors; both halves are then transposed as 16 x 16 matrices
//! (as in the AVX2 back end, the 128-bit lanes exchanged with `vpermt2q`) and the distances
//! 8 to 1 pair whole vectors too. The blocks are stored transposed, the NTT order of
//! [`super`]; the inverse does the same in reverse.
//!
//! The kernels are safe functions compiled with `#[target_feature(enable =
//! "avx512f,avx512bw,avx512vl,avx512dq")]`; the [`Ops`] methods call them in `unsafe` blocks
//! only because the type [`Avx512`] is instantiated by `dispatch!` after `pqlab_backend` found
//! those features available. Loads and stores go through bounds-checked slices.
#![allow(unsafe_code)]

use core::arch::x86_64::*;

use pqlab_backend::Backend;

use crate::hash::BLOCK_BYTES;

use super::{
    BARRETT_V, FWD, FWD_BLOCK, INV, INV_BLOCK, Ops, Q, QINV, final_factor, first_block,
    reduce_after,
};

/// The AVX-512 kernels. Only instantiated by `dispatch!` after `pqlab_backend` found AVX-512
/// F, BW, VL and DQ available.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Avx512;

impl Ops for Avx512 {
    const BACKEND: Backend = Backend::Avx512;

    fn ntt<const N: usize>(a: &mut [i16; N]) {
        const { crate::params::check_n(N) };
        let _k = pqlab_profile::enter(pqlab_profile::Kernel::Ntt);
        // SAFETY: `Avx512` is only instantiated after the features were detected; every access
        // goes through a bounds-checked slice of `a`.
        unsafe { ntt(a) }
    }

    fn pointwise<const N: usize>(a: &mut [i16; N], b: &[i16; N]) {
        // SAFETY: the features were detected (see `Avx512`); accesses are bounds-checked.
        unsafe { pointwise(a, b) }
    }

    fn intt_mont<const N: usize>(a: &mut [i16; N]) {
        const { crate::params::check_n(N) };
        let _k = pqlab_profile::enter(pqlab_profile::Kernel::InvNtt);
        // SAFETY: the features were detected (see `Avx512`); accesses are bounds-checked.
        unsafe { intt_mont(a) }
    }

    fn norm<const N: usize>(c: &[u16; N], t: &[i16; N], s2: &[i16; N]) -> u32 {
        // SAFETY: the features were detected (see `Avx512`); accesses are bounds-checked.
        unsafe { norm(c, t, s2) }
    }

    fn hash_block(block: &[u8; BLOCK_BYTES], c: &mut [u16], i: usize) -> usize {
        // SAFETY: the features were detected (see `Avx512`); accesses are bounds-checked.
        unsafe { hash_block(block, c, i) }
    }

    fn decompress(data: &[u8], s: &mut [i16]) -> Result<(), crate::Error> {
        // SAFETY: `Avx512` is only instantiated after AVX-512 and the features of `Avx2`
        // (BMI1, BMI2, LZCNT) were detected.
        unsafe { super::avx2::decompress(data, s) }
    }

    fn fft(f: &mut [crate::fpr::Fpr], logn: u32) {
        if logn >= 5 {
            let _k = pqlab_profile::enter(pqlab_profile::Kernel::Fft);
            // SAFETY: the features were detected (see `Avx512`); accesses are bounds-checked.
            unsafe { super::avx512_fft::fft(f, logn) }
        } else {
            crate::fft::fft(f, logn);
        }
    }

    fn ifft(f: &mut [crate::fpr::Fpr], logn: u32) {
        if logn >= 5 {
            let _k = pqlab_profile::enter(pqlab_profile::Kernel::Fft);
            // SAFETY: the features were detected (see `Avx512`); accesses are bounds-checked.
            unsafe { super::avx512_fft::ifft(f, logn) }
        } else {
            crate::fft::ifft(f, logn);
        }
    }

    fn ldlmv(
        d11: &mut [crate::fpr::Fpr],
        l10: &mut [crate::fpr::Fpr],
        g00: &[crate::fpr::Fpr],
        g01: &[crate::fpr::Fpr],
        g11: &[crate::fpr::Fpr],
    ) {
        // SAFETY: the features were detected (see `Avx512`); accesses are bounds-checked.
        unsafe { super::avx512_ldl::poly_ldlmv_fft(d11, l10, g00, g01, g11) }
    }

    fn split_level(
        f: &[crate::fpr::Fpr],
        hm: usize,
        f0: [&mut [crate::fpr::Fpr]; 2],
        f1: [&mut [crate::fpr::Fpr]; 2],
    ) {
        // SAFETY: the features were detected (see `Avx512`); accesses are bounds-checked.
        unsafe { super::avx512_tree::split_level(f, hm, f0, f1) }
    }

    fn merge_fft(f: &mut [crate::fpr::Fpr], f0: &[crate::fpr::Fpr], f1: &[crate::fpr::Fpr]) {
        // SAFETY: the features were detected (see `Avx512`); accesses are bounds-checked.
        unsafe { super::avx512_tree::merge_fft(f, f0, f1) }
    }

    fn diff_mul_add_fft(
        acc: &mut [crate::fpr::Fpr],
        t1: &[crate::fpr::Fpr],
        z1: &[crate::fpr::Fpr],
        l10: &[crate::fpr::Fpr],
    ) {
        // SAFETY: the features were detected (see `Avx512`); accesses are bounds-checked.
        unsafe { super::avx512_tree::diff_mul_add_fft(acc, t1, z1, l10) }
    }

    fn mul_fft(a: &mut [crate::fpr::Fpr], b: &[crate::fpr::Fpr]) {
        // SAFETY: the features were detected (see `Avx512`); accesses are bounds-checked.
        unsafe { super::avx512_tree::mul_fft(a, b) }
    }

    fn add(a: &mut [crate::fpr::Fpr], b: &[crate::fpr::Fpr]) {
        // SAFETY: the features were detected (see `Avx512`); accesses are bounds-checked.
        unsafe { super::avx512_tree::add_assign(a, b) }
    }

    fn mulconst(a: &mut [crate::fpr::Fpr], x: crate::fpr::Fpr) {
        // SAFETY: the features were detected (see `Avx512`); accesses are bounds-checked.
        unsafe { super::avx512_tree::mulconst(a, x) }
    }

    #[cfg(not(feature = "fpr-emu"))]
    fn sqrt_scale(v: &mut [crate::fpr::Fpr], s: crate::fpr::Fpr) {
        // SAFETY: the features were detected (see `Avx512`); accesses are bounds-checked.
        unsafe { super::avx512_tree::sqrt_scale(v, s) }
    }
}

/// Coefficients 32 i to 32 i + 31 of `f`.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq")]
#[inline]
fn load(f: &[i16], i: usize) -> __m512i {
    let c = &f[32 * i..32 * i + 32];
    // SAFETY: `c` holds 32 `i16`, the 64 bytes read.
    unsafe { _mm512_loadu_si512(c.as_ptr().cast()) }
}

/// Stores `v` into coefficients 32 i to 32 i + 31 of `f`.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq")]
#[inline]
fn store(f: &mut [i16], i: usize, v: __m512i) {
    let c = &mut f[32 * i..32 * i + 32];
    // SAFETY: `c` holds 32 `i16`, the 64 bytes written.
    unsafe { _mm512_storeu_si512(c.as_mut_ptr().cast(), v) }
}

/// The 16 coefficients `f[16 i..16 i + 16]` in the low half and `g[16 i..16 i + 16]` in the high.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq")]
#[inline]
fn load_pair(f: &[i16], g: &[i16], i: usize) -> __m512i {
    let (c, d) = (&f[16 * i..16 * i + 16], &g[16 * i..16 * i + 16]);
    // SAFETY: `c` and `d` hold 16 `i16` each, the 32 bytes read from each.
    let (lo, hi) = unsafe {
        (
            _mm256_loadu_si256(c.as_ptr().cast()),
            _mm256_loadu_si256(d.as_ptr().cast()),
        )
    };
    _mm512_inserti64x4(_mm512_castsi256_si512(lo), hi, 1)
}

/// Stores the low half of `v` into `f[16 i..16 i + 16]` and the high half into `g[...]`.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq")]
#[inline]
fn store_pair(f: &mut [i16], g: &mut [i16], i: usize, v: __m512i) {
    let (c, d) = (&mut f[16 * i..16 * i + 16], &mut g[16 * i..16 * i + 16]);
    // SAFETY: `c` and `d` hold 16 `i16` each, the 32 bytes written to each.
    unsafe {
        _mm256_storeu_si256(c.as_mut_ptr().cast(), _mm512_castsi512_si256(v));
        _mm256_storeu_si256(d.as_mut_ptr().cast(), _mm512_extracti64x4_epi64(v, 1));
    }
}

/// Lane-wise [`super::montmul`]: a z 2^-16 mod q.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq")]
#[inline]
fn montmul(a: __m512i, z: __m512i, zq: __m512i) -> __m512i {
    let hi = _mm512_mulhi_epi16(a, z);
    let m = _mm512_mullo_epi16(a, zq);
    _mm512_sub_epi16(hi, _mm512_mulhi_epi16(m, _mm512_set1_epi16(Q)))
}

/// Lane-wise [`super::barrett`].
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq")]
#[inline]
fn barrett(a: __m512i) -> __m512i {
    let t = _mm512_mulhi_epi16(a, _mm512_set1_epi16(BARRETT_V));
    let t = _mm512_mulhrs_epi16(t, _mm512_set1_epi16(8));
    _mm512_sub_epi16(a, _mm512_mullo_epi16(t, _mm512_set1_epi16(Q)))
}

/// Lane-wise [`super::to_unsigned`].
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq")]
#[inline]
fn to_unsigned(a: __m512i) -> __m512i {
    _mm512_add_epi16(
        a,
        _mm512_and_si512(_mm512_srai_epi16(a, 15), _mm512_set1_epi16(Q)),
    )
}

/// The Cooley-Tukey butterfly: (a, b) <- (a + b z, a - b z).
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq")]
#[inline]
fn ct(a: &mut __m512i, b: &mut __m512i, z: __m512i, zq: __m512i) {
    let t = montmul(*b, z, zq);
    *b = _mm512_sub_epi16(*a, t);
    *a = _mm512_add_epi16(*a, t);
}

/// The Gentleman-Sande butterfly: (a, b) <- (barrett(a + b), (a - b) z).
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq")]
#[inline]
fn gs(a: &mut __m512i, b: &mut __m512i, z: __m512i, zq: __m512i) {
    let d = _mm512_sub_epi16(*a, *b);
    *a = barrett(_mm512_add_epi16(*a, *b));
    *b = montmul(d, z, zq);
}

/// Transposes, in each 256-bit half, the 16 x 16 matrix of `i16` whose rows are the halves of
/// the 16 vectors (an involution): an 8 x 8 transposition within each 128-bit lane, then the
/// lanes exchanged within each half.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq")]
#[inline]
fn transpose(x: &mut [__m512i; 16]) {
    let mut c = [_mm512_setzero_si512(); 16];
    for h in 0..2 {
        let r = &x[8 * h..8 * h + 8];
        let t0 = _mm512_unpacklo_epi16(r[0], r[1]);
        let t1 = _mm512_unpackhi_epi16(r[0], r[1]);
        let t2 = _mm512_unpacklo_epi16(r[2], r[3]);
        let t3 = _mm512_unpackhi_epi16(r[2], r[3]);
        let t4 = _mm512_unpacklo_epi16(r[4], r[5]);
        let t5 = _mm512_unpackhi_epi16(r[4], r[5]);
        let t6 = _mm512_unpacklo_epi16(r[6], r[7]);
        let t7 = _mm512_unpackhi_epi16(r[6], r[7]);
        let u0 = _mm512_unpacklo_epi32(t0, t2);
        let u1 = _mm512_unpackhi_epi32(t0, t2);
        let u2 = _mm512_unpacklo_epi32(t1, t3);
        let u3 = _mm512_unpackhi_epi32(t1, t3);
        let u4 = _mm512_unpacklo_epi32(t4, t6);
        let u5 = _mm512_unpackhi_epi32(t4, t6);
        let u6 = _mm512_unpacklo_epi32(t5, t7);
        let u7 = _mm512_unpackhi_epi32(t5, t7);
        // Lanes 0 and 2: column k (of rows 8h..8h+7), lanes 1 and 3: column k + 8.
        let o = &mut c[8 * h..8 * h + 8];
        o[0] = _mm512_unpacklo_epi64(u0, u4);
        o[1] = _mm512_unpackhi_epi64(u0, u4);
        o[2] = _mm512_unpacklo_epi64(u1, u5);
        o[3] = _mm512_unpackhi_epi64(u1, u5);
        o[4] = _mm512_unpacklo_epi64(u2, u6);
        o[5] = _mm512_unpackhi_epi64(u2, u6);
        o[6] = _mm512_unpacklo_epi64(u3, u7);
        o[7] = _mm512_unpackhi_epi64(u3, u7);
    }
    // Quadword indices: [C0, D0, C2, D2] and [C1, D1, C3, D3] (lanes of c[k], c[8 + k]).
    let lo = _mm512_setr_epi64(0, 1, 8, 9, 4, 5, 12, 13);
    let hi = _mm512_setr_epi64(2, 3, 10, 11, 6, 7, 14, 15);
    for k in 0..8 {
        x[k] = _mm512_permutex2var_epi64(c[k], lo, c[8 + k]);
        x[k + 8] = _mm512_permutex2var_epi64(c[k], hi, c[8 + k]);
    }
}

/// Twiddle vector `idx` of virtual blocks `b` (low half) and `b + 1` (high half).
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq")]
#[inline]
fn block_tw(t: &[[[i16; 16]; 15]; 6], b: usize, idx: usize) -> __m512i {
    load_pair(&t[b][idx], &t[b + 1][idx], 0)
}

/// Two broadcast scalars: `x` in the low half, `y` in the high.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq")]
#[inline]
fn set2(x: i16, y: i16) -> __m512i {
    _mm512_inserti64x4(
        _mm512_castsi256_si512(_mm256_set1_epi16(x)),
        _mm256_set1_epi16(y),
        1,
    )
}

/// The forward NTT (see [`Ops::ntt`]).
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq")]
fn ntt<const N: usize>(a: &mut [i16; N]) {
    let logn = N.trailing_zeros();
    let mut ht = N / 2;
    let mut layer = 1;
    while ht >= 32 {
        let m = N / (2 * ht);
        let vh = ht / 32;
        for i in 0..m {
            let z = _mm512_set1_epi16(FWD.z[m + i]);
            let zq = _mm512_set1_epi16(FWD.zq[m + i]);
            for j in 2 * i * vh..(2 * i + 1) * vh {
                let (mut x, mut y) = (load(a, j), load(a, j + vh));
                ct(&mut x, &mut y, z, zq);
                store(a, j, x);
                store(a, j + vh, y);
            }
        }
        if reduce_after(logn, layer) {
            for j in 0..N / 32 {
                let v = load(a, j);
                store(a, j, barrett(v));
            }
        }
        ht /= 2;
        layer += 1;
    }
    // The last five layers (layer = logn - 4), on two blocks at a time, reducing after the
    // first, the third and the fifth.
    let b0 = first_block(N);
    let m16 = N / 32;
    for (p, c) in a.chunks_exact_mut(512).enumerate() {
        let (f, g) = c.split_at_mut(256);
        let (bf, bg) = (2 * p, 2 * p + 1);
        let mut x: [__m512i; 16] = core::array::from_fn(|v| load_pair(f, g, v));
        // Distance 16: rows 2r and 2r + 1, twiddle n / 32 + 8 b + r.
        for r in 0..8 {
            let k = (m16 + 8 * bf + r, m16 + 8 * bg + r);
            let z = set2(FWD.z[k.0], FWD.z[k.1]);
            let zq = set2(FWD.zq[k.0], FWD.zq[k.1]);
            let (lo, hi) = x.split_at_mut(2 * r + 1);
            ct(&mut lo[2 * r], &mut hi[0], z, zq);
        }
        for v in x.iter_mut() {
            *v = barrett(*v);
        }
        transpose(&mut x);
        let blk = b0 + bf;
        for ht in [8, 4, 2, 1] {
            for gr in 0..8 / ht {
                let idx = 8 / ht - 1 + gr;
                let z = block_tw(&FWD_BLOCK.z, blk, idx);
                let zq = block_tw(&FWD_BLOCK.zq, blk, idx);
                for l in 2 * ht * gr..2 * ht * gr + ht {
                    let (lo, hi) = x.split_at_mut(l + ht);
                    ct(&mut lo[l], &mut hi[0], z, zq);
                }
            }
            if ht == 4 {
                for v in x.iter_mut() {
                    *v = barrett(*v);
                }
            }
        }
        for (l, v) in x.iter().enumerate() {
            store_pair(f, g, l, to_unsigned(barrett(*v)));
        }
    }
}

/// The pointwise Montgomery product (see [`Ops::pointwise`]).
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq")]
fn pointwise<const N: usize>(a: &mut [i16; N], b: &[i16; N]) {
    for j in 0..N / 32 {
        let (x, y) = (load(a, j), load(b, j));
        let lo = _mm512_mullo_epi16(x, y);
        let hi = _mm512_mulhi_epi16(x, y);
        let m = _mm512_mullo_epi16(lo, _mm512_set1_epi16(QINV));
        store(
            a,
            j,
            _mm512_sub_epi16(hi, _mm512_mulhi_epi16(m, _mm512_set1_epi16(Q))),
        );
    }
}

/// The inverse NTT times 2^16 (see [`Ops::intt_mont`]).
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq")]
fn intt_mont<const N: usize>(a: &mut [i16; N]) {
    let b0 = first_block(N);
    let m16 = N / 32;
    for (p, c) in a.chunks_exact_mut(512).enumerate() {
        let (f, g) = c.split_at_mut(256);
        let (bf, bg) = (2 * p, 2 * p + 1);
        let blk = b0 + bf;
        let mut x: [__m512i; 16] = core::array::from_fn(|l| load_pair(f, g, l));
        for t in [1, 2, 4, 8] {
            for gr in 0..8 / t {
                let idx = 8 / t - 1 + gr;
                let z = block_tw(&INV_BLOCK.z, blk, idx);
                let zq = block_tw(&INV_BLOCK.zq, blk, idx);
                for l in 2 * t * gr..2 * t * gr + t {
                    let (lo, hi) = x.split_at_mut(l + t);
                    gs(&mut lo[l], &mut hi[0], z, zq);
                }
            }
        }
        transpose(&mut x);
        // Distance 16: rows 2r and 2r + 1, twiddle n / 32 + 8 b + r.
        for r in 0..8 {
            let k = (m16 + 8 * bf + r, m16 + 8 * bg + r);
            let z = set2(INV.z[k.0], INV.z[k.1]);
            let zq = set2(INV.zq[k.0], INV.zq[k.1]);
            let (lo, hi) = x.split_at_mut(2 * r + 1);
            gs(&mut lo[2 * r], &mut hi[0], z, zq);
        }
        for (v, r) in x.iter().enumerate() {
            store_pair(f, g, v, *r);
        }
    }
    let mut t = 32;
    while t < N {
        let hm = N / (2 * t);
        let vt = t / 32;
        for i in 0..hm {
            let z = _mm512_set1_epi16(INV.z[hm + i]);
            let zq = _mm512_set1_epi16(INV.zq[hm + i]);
            for j in 2 * i * vt..(2 * i + 1) * vt {
                let (mut x, mut y) = (load(a, j), load(a, j + vt));
                gs(&mut x, &mut y, z, zq);
                store(a, j, x);
                store(a, j + vt, y);
            }
        }
        t *= 2;
    }
    let (f, fq) = final_factor(N.trailing_zeros());
    let (f, fq) = (_mm512_set1_epi16(f), _mm512_set1_epi16(fq));
    for j in 0..N / 32 {
        let v = load(a, j);
        store(a, j, montmul(v, f, fq));
    }
}

/// The squared norm of (c - t mod q centred, s2), saturated (see [`Ops::norm`]), with 32-bit
/// lanes clamped at 2^31 after every step as in the AVX2 back end.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq")]
fn norm<const N: usize>(c: &[u16; N], t: &[i16; N], s2: &[i16; N]) -> u32 {
    let q = _mm512_set1_epi16(Q);
    let half = _mm512_set1_epi16((Q - 1) / 2);
    let cap = _mm512_set1_epi32(1 << 31);
    let mut acc = _mm512_setzero_si512();
    for j in 0..N / 32 {
        let cc = &c[32 * j..32 * j + 32];
        // SAFETY: `cc` holds 32 `u16`, the 64 bytes read (values below q, so the same as i16).
        let cv = unsafe { _mm512_loadu_si512(cc.as_ptr().cast()) };
        // d = c - t in (-q, 2q), then [0, q), then centred to (-q/2, q/2].
        let mut d = _mm512_sub_epi16(cv, load(t, j));
        d = _mm512_mask_add_epi16(d, _mm512_cmplt_epi16_mask(d, _mm512_setzero_si512()), d, q);
        d = _mm512_mask_sub_epi16(d, _mm512_cmpge_epi16_mask(d, q), d, q);
        d = _mm512_mask_sub_epi16(d, _mm512_cmpgt_epi16_mask(d, half), d, q);
        let s = load(s2, j);
        let sq = _mm512_add_epi32(_mm512_madd_epi16(d, d), _mm512_madd_epi16(s, s));
        acc = _mm512_min_epu32(_mm512_add_epi32(acc, sq), cap);
    }
    let mut lanes = [0u32; 16];
    // SAFETY: `lanes` holds 16 `u32`, the 64 bytes written.
    unsafe { _mm512_storeu_si512(lanes.as_mut_ptr().cast(), acc) };
    let total: u64 = lanes.iter().map(|&x| u64::from(x)).sum();
    if total >= 1 << 31 {
        u32::MAX
    } else {
        total as u32
    }
}

/// [`Ops::hash_block`] sixteen words at a time: the big-endian words widened to 32-bit lanes,
/// reduced mod q by three conditional subtractions (of 2q, 2q, q: exact below 5q), the lanes
/// below 5q compacted to the front in order (`vpcompressd`) and narrowed back to 16 bits. The
/// 16 places written from c\[i\] exist because at most 16 were filled per group before
/// (`c.len() - i >= 68` on entry); the last four words go through [`crate::hash::hash_words`].
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,popcnt")]
fn hash_block(block: &[u8; BLOCK_BYTES], c: &mut [u16], mut i: usize) -> usize {
    let q = _mm512_set1_epi32(i32::from(Q));
    let q2 = _mm512_set1_epi32(2 * i32::from(Q));
    let q5 = _mm512_set1_epi32(5 * i32::from(Q));
    // Swaps the two bytes of every 16-bit word.
    let swap = _mm256_setr_epi8(
        1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14, 1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10,
        13, 12, 15, 14,
    );
    for g in block[..128].chunks_exact(32) {
        // SAFETY: `g` holds the 32 bytes read.
        let raw = unsafe { _mm256_loadu_si256(g.as_ptr().cast()) };
        let w = _mm512_cvtepu16_epi32(_mm256_shuffle_epi8(raw, swap));
        let mut r = _mm512_min_epu32(w, _mm512_sub_epi32(w, q2));
        r = _mm512_min_epu32(r, _mm512_sub_epi32(r, q2));
        r = _mm512_min_epu32(r, _mm512_sub_epi32(r, q));
        let keep = _mm512_cmplt_epu32_mask(w, q5);
        let packed = _mm512_cvtepi32_epi16(_mm512_maskz_compress_epi32(keep, r));
        let out = &mut c[i..i + 16];
        // SAFETY: `out` holds the 16 `u16` written.
        unsafe { _mm256_storeu_si256(out.as_mut_ptr().cast(), packed) };
        i += keep.count_ones() as usize;
    }
    crate::hash::hash_words(&block[128..], c, i)
}
