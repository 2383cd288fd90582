//! The AVX2 back end of Falcon verification: the kernels of [`Ops`] on 256-bit vectors of
//! sixteen `i16` coefficients, with the operations of the portable back end lane by lane
//! (`vpmullw` / `vpmulhw` Montgomery products, `vpmulhw` / `vpmulhrsw` Barrett reductions), so
//! the results are the same bits.
//!
//! Layers with butterfly distance 16 or more pair whole vectors, with a broadcast twiddle. The
//! last four layers of the forward transform (distances 8, 4, 2, 1) run on a block of 256
//! coefficients loaded as 16 vectors and transposed in registers, so that the butterfly
//! partners are again whole vectors (with one twiddle per lane); the block is stored
//! transposed, which is the NTT order of [`super`]. The inverse does the same in reverse.
//!
//! For signing, with native floating point, the FFT, the inverse FFT, splitfft, mergefft, the
//! LDL step and the target update of ffSampling run on four `f64` lanes (`avx2_fft.rs`,
//! `avx2_tree.rs`, `avx2_ldl.rs`; the same bits as the portable kernels); with `fpr-emu`, and
//! for the leaf square roots, the portable kernels.
//!
//! The kernels are safe functions compiled with `#[target_feature(enable = "avx2")]`; the
//! [`Ops`] methods call them in `unsafe` blocks only because the type [`Avx2`] is instantiated
//! by `dispatch!` after `pqlab_backend` found AVX2 available. Loads and stores go through
//! bounds-checked slices.
#![allow(unsafe_code)]

use core::arch::x86_64::*;

use pqlab_backend::Backend;

use crate::hash::BLOCK_BYTES;

use super::{
    BARRETT_V, FWD, FWD_BLOCK, INV, INV_BLOCK, Ops, Q, QINV, final_factor, first_block,
    reduce_after,
};

/// The AVX2 kernels. Only instantiated by `dispatch!` after `pqlab_backend` found AVX2, BMI1,
/// BMI2, LZCNT and POPCNT available.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Avx2;

impl Ops for Avx2 {
    const BACKEND: Backend = Backend::Avx2;

    fn ntt<const N: usize>(a: &mut [i16; N]) {
        const { crate::params::check_n(N) };
        let _k = pqlab_profile::enter(pqlab_profile::Kernel::Ntt);
        // SAFETY: `Avx2` is only instantiated after AVX2 was detected; every access goes
        // through a bounds-checked slice of `a`.
        unsafe { ntt(a) }
    }

    fn pointwise<const N: usize>(a: &mut [i16; N], b: &[i16; N]) {
        // SAFETY: AVX2 was detected (see `Avx2`); accesses are bounds-checked slices.
        unsafe { pointwise(a, b) }
    }

    fn intt_mont<const N: usize>(a: &mut [i16; N]) {
        const { crate::params::check_n(N) };
        let _k = pqlab_profile::enter(pqlab_profile::Kernel::InvNtt);
        // SAFETY: AVX2 was detected (see `Avx2`); accesses are bounds-checked slices.
        unsafe { intt_mont(a) }
    }

    fn norm<const N: usize>(c: &[u16; N], t: &[i16; N], s2: &[i16; N]) -> u32 {
        // SAFETY: AVX2 was detected (see `Avx2`); accesses are bounds-checked slices.
        unsafe { norm(c, t, s2) }
    }

    fn hash_block(block: &[u8; BLOCK_BYTES], c: &mut [u16], i: usize) -> usize {
        // SAFETY: `Avx2` is only instantiated after AVX2, BMI2 and POPCNT were detected;
        // accesses are bounds-checked slices.
        unsafe { hash_block(block, c, i) }
    }

    fn decompress(data: &[u8], s: &mut [i16]) -> Result<(), crate::Error> {
        // SAFETY: `Avx2` is only instantiated after AVX2, BMI1, BMI2 and LZCNT were detected.
        unsafe { decompress(data, s) }
    }

    #[cfg(not(feature = "fpr-emu"))]
    fn fft(f: &mut [crate::fpr::Fpr], logn: u32) {
        if logn >= 4 {
            let _k = pqlab_profile::enter(pqlab_profile::Kernel::Fft);
            // SAFETY: AVX2 was detected (see `Avx2`); accesses are bounds-checked slices.
            unsafe { super::avx2_fft::fft(f, logn) }
        } else {
            crate::fft::fft(f, logn);
        }
    }

    #[cfg(not(feature = "fpr-emu"))]
    fn ifft(f: &mut [crate::fpr::Fpr], logn: u32) {
        if logn >= 4 {
            let _k = pqlab_profile::enter(pqlab_profile::Kernel::Fft);
            // SAFETY: AVX2 was detected (see `Avx2`); accesses are bounds-checked slices.
            unsafe { super::avx2_fft::ifft(f, logn) }
        } else {
            crate::fft::ifft(f, logn);
        }
    }

    #[cfg(not(feature = "fpr-emu"))]
    fn ldlmv(
        d11: &mut [crate::fpr::Fpr],
        l10: &mut [crate::fpr::Fpr],
        g00: &[crate::fpr::Fpr],
        g01: &[crate::fpr::Fpr],
        g11: &[crate::fpr::Fpr],
    ) {
        // SAFETY: AVX2 was detected (see `Avx2`); accesses are bounds-checked slices.
        unsafe { super::avx2_ldl::poly_ldlmv_fft(d11, l10, g00, g01, g11) }
    }

    #[cfg(not(feature = "fpr-emu"))]
    fn split_level(
        f: &[crate::fpr::Fpr],
        hm: usize,
        f0: [&mut [crate::fpr::Fpr]; 2],
        f1: [&mut [crate::fpr::Fpr]; 2],
    ) {
        // SAFETY: AVX2 was detected (see `Avx2`); accesses are bounds-checked slices.
        unsafe { super::avx2_tree::split_level(f, hm, f0, f1) }
    }

    #[cfg(not(feature = "fpr-emu"))]
    fn merge_fft(f: &mut [crate::fpr::Fpr], f0: &[crate::fpr::Fpr], f1: &[crate::fpr::Fpr]) {
        // SAFETY: AVX2 was detected (see `Avx2`); accesses are bounds-checked slices.
        unsafe { super::avx2_tree::merge_fft(f, f0, f1) }
    }

    #[cfg(not(feature = "fpr-emu"))]
    fn diff_mul_add_fft(
        acc: &mut [crate::fpr::Fpr],
        t1: &[crate::fpr::Fpr],
        z1: &[crate::fpr::Fpr],
        l10: &[crate::fpr::Fpr],
    ) {
        // SAFETY: AVX2 was detected (see `Avx2`); accesses are bounds-checked slices.
        unsafe { super::avx2_tree::diff_mul_add_fft(acc, t1, z1, l10) }
    }

    #[cfg(not(feature = "fpr-emu"))]
    fn mul_fft(a: &mut [crate::fpr::Fpr], b: &[crate::fpr::Fpr]) {
        // SAFETY: AVX2 was detected (see `Avx2`); accesses are bounds-checked slices.
        unsafe { super::avx2_tree::mul_fft(a, b) }
    }

    #[cfg(not(feature = "fpr-emu"))]
    fn add(a: &mut [crate::fpr::Fpr], b: &[crate::fpr::Fpr]) {
        // SAFETY: AVX2 was detected (see `Avx2`); accesses are bounds-checked slices.
        unsafe { super::avx2_tree::add_assign(a, b) }
    }

    #[cfg(not(feature = "fpr-emu"))]
    fn mulconst(a: &mut [crate::fpr::Fpr], x: crate::fpr::Fpr) {
        // SAFETY: AVX2 was detected (see `Avx2`); accesses are bounds-checked slices.
        unsafe { super::avx2_tree::mulconst(a, x) }
    }
}

/// [`crate::codec::decompress`] compiled with BMI1, BMI2 and LZCNT.
#[target_feature(enable = "bmi1,bmi2,lzcnt")]
pub(super) fn decompress(data: &[u8], s: &mut [i16]) -> Result<(), crate::Error> {
    crate::codec::decompress_inline(data, s)
}

/// Coefficients 16 i to 16 i + 15 of `f`.
#[target_feature(enable = "avx2")]
#[inline]
fn load(f: &[i16], i: usize) -> __m256i {
    let c = &f[16 * i..16 * i + 16];
    // SAFETY: `c` holds 16 `i16`, the 32 bytes read.
    unsafe { _mm256_loadu_si256(c.as_ptr().cast()) }
}

/// Stores `v` into coefficients 16 i to 16 i + 15 of `f`.
#[target_feature(enable = "avx2")]
#[inline]
fn store(f: &mut [i16], i: usize, v: __m256i) {
    let c = &mut f[16 * i..16 * i + 16];
    // SAFETY: `c` holds 16 `i16`, the 32 bytes written.
    unsafe { _mm256_storeu_si256(c.as_mut_ptr().cast(), v) }
}

/// Lane-wise [`super::montmul`]: a z 2^-16 mod q.
#[target_feature(enable = "avx2")]
#[inline]
fn montmul(a: __m256i, z: __m256i, zq: __m256i) -> __m256i {
    let hi = _mm256_mulhi_epi16(a, z);
    let m = _mm256_mullo_epi16(a, zq);
    _mm256_sub_epi16(hi, _mm256_mulhi_epi16(m, _mm256_set1_epi16(Q)))
}

/// Lane-wise [`super::barrett`].
#[target_feature(enable = "avx2")]
#[inline]
fn barrett(a: __m256i) -> __m256i {
    let t = _mm256_mulhi_epi16(a, _mm256_set1_epi16(BARRETT_V));
    let t = _mm256_mulhrs_epi16(t, _mm256_set1_epi16(8));
    _mm256_sub_epi16(a, _mm256_mullo_epi16(t, _mm256_set1_epi16(Q)))
}

/// Lane-wise [`super::to_unsigned`].
#[target_feature(enable = "avx2")]
#[inline]
fn to_unsigned(a: __m256i) -> __m256i {
    _mm256_add_epi16(
        a,
        _mm256_and_si256(_mm256_srai_epi16(a, 15), _mm256_set1_epi16(Q)),
    )
}

/// The Cooley-Tukey butterfly: (a, b) <- (a + b z, a - b z).
#[target_feature(enable = "avx2")]
#[inline]
fn ct(a: &mut __m256i, b: &mut __m256i, z: __m256i, zq: __m256i) {
    let t = montmul(*b, z, zq);
    *b = _mm256_sub_epi16(*a, t);
    *a = _mm256_add_epi16(*a, t);
}

/// The Gentleman-Sande butterfly: (a, b) <- (barrett(a + b), (a - b) z).
#[target_feature(enable = "avx2")]
#[inline]
fn gs(a: &mut __m256i, b: &mut __m256i, z: __m256i, zq: __m256i) {
    let d = _mm256_sub_epi16(*a, *b);
    *a = barrett(_mm256_add_epi16(*a, *b));
    *b = montmul(d, z, zq);
}

/// Transposes the 16 x 16 matrix of `i16` whose rows are the 16 vectors (an involution):
/// an 8 x 8 transposition within each 128-bit lane of rows 0 to 7 and of rows 8 to 15, then
/// the lanes exchanged.
#[target_feature(enable = "avx2")]
#[inline]
fn transpose(x: &mut [__m256i; 16]) {
    let mut c = [_mm256_setzero_si256(); 16];
    for h in 0..2 {
        let r = &x[8 * h..8 * h + 8];
        let t0 = _mm256_unpacklo_epi16(r[0], r[1]);
        let t1 = _mm256_unpackhi_epi16(r[0], r[1]);
        let t2 = _mm256_unpacklo_epi16(r[2], r[3]);
        let t3 = _mm256_unpackhi_epi16(r[2], r[3]);
        let t4 = _mm256_unpacklo_epi16(r[4], r[5]);
        let t5 = _mm256_unpackhi_epi16(r[4], r[5]);
        let t6 = _mm256_unpacklo_epi16(r[6], r[7]);
        let t7 = _mm256_unpackhi_epi16(r[6], r[7]);
        let u0 = _mm256_unpacklo_epi32(t0, t2);
        let u1 = _mm256_unpackhi_epi32(t0, t2);
        let u2 = _mm256_unpacklo_epi32(t1, t3);
        let u3 = _mm256_unpackhi_epi32(t1, t3);
        let u4 = _mm256_unpacklo_epi32(t4, t6);
        let u5 = _mm256_unpackhi_epi32(t4, t6);
        let u6 = _mm256_unpacklo_epi32(t5, t7);
        let u7 = _mm256_unpackhi_epi32(t5, t7);
        // Lane 0: column k (of rows 8h..8h+7), lane 1: column k + 8.
        let o = &mut c[8 * h..8 * h + 8];
        o[0] = _mm256_unpacklo_epi64(u0, u4);
        o[1] = _mm256_unpackhi_epi64(u0, u4);
        o[2] = _mm256_unpacklo_epi64(u1, u5);
        o[3] = _mm256_unpackhi_epi64(u1, u5);
        o[4] = _mm256_unpacklo_epi64(u2, u6);
        o[5] = _mm256_unpackhi_epi64(u2, u6);
        o[6] = _mm256_unpacklo_epi64(u3, u7);
        o[7] = _mm256_unpackhi_epi64(u3, u7);
    }
    for k in 0..8 {
        x[k] = _mm256_permute2x128_si256(c[k], c[8 + k], 0x20);
        x[k + 8] = _mm256_permute2x128_si256(c[k], c[8 + k], 0x31);
    }
}

/// Twiddle vector `idx` of virtual block `b` of a block table.
#[target_feature(enable = "avx2")]
#[inline]
fn block_tw(t: &[[[i16; 16]; 15]; 6], b: usize, idx: usize) -> __m256i {
    load(&t[b][idx], 0)
}

/// The forward NTT (see [`Ops::ntt`]).
#[target_feature(enable = "avx2")]
fn ntt<const N: usize>(a: &mut [i16; N]) {
    let logn = N.trailing_zeros();
    let mut ht = N / 2;
    let mut layer = 1;
    while ht >= 16 {
        let m = N / (2 * ht);
        let vh = ht / 16;
        for i in 0..m {
            let z = _mm256_set1_epi16(FWD.z[m + i]);
            let zq = _mm256_set1_epi16(FWD.zq[m + i]);
            for j in 2 * i * vh..(2 * i + 1) * vh {
                let (mut x, mut y) = (load(a, j), load(a, j + vh));
                ct(&mut x, &mut y, z, zq);
                store(a, j, x);
                store(a, j + vh, y);
            }
        }
        if reduce_after(logn, layer) {
            for j in 0..N / 16 {
                let v = load(a, j);
                store(a, j, barrett(v));
            }
        }
        ht /= 2;
        layer += 1;
    }
    // The last four layers (layer = logn - 3), reducing after the second and the fourth.
    let b0 = first_block(N);
    for (blk, c) in a.chunks_exact_mut(256).enumerate() {
        let tz = |idx| block_tw(&FWD_BLOCK.z, b0 + blk, idx);
        let tq = |idx| block_tw(&FWD_BLOCK.zq, b0 + blk, idx);
        let mut x: [__m256i; 16] = core::array::from_fn(|v| load(c, v));
        transpose(&mut x);
        for ht in [8, 4, 2, 1] {
            for g in 0..8 / ht {
                let (z, zq) = (tz(8 / ht - 1 + g), tq(8 / ht - 1 + g));
                for l in 2 * ht * g..2 * ht * g + ht {
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
            store(c, l, to_unsigned(barrett(*v)));
        }
    }
}

/// The pointwise Montgomery product (see [`Ops::pointwise`]).
#[target_feature(enable = "avx2")]
fn pointwise<const N: usize>(a: &mut [i16; N], b: &[i16; N]) {
    for j in 0..N / 16 {
        let (x, y) = (load(a, j), load(b, j));
        let lo = _mm256_mullo_epi16(x, y);
        let hi = _mm256_mulhi_epi16(x, y);
        let m = _mm256_mullo_epi16(lo, _mm256_set1_epi16(QINV));
        store(
            a,
            j,
            _mm256_sub_epi16(hi, _mm256_mulhi_epi16(m, _mm256_set1_epi16(Q))),
        );
    }
}

/// The inverse NTT times 2^16 (see [`Ops::intt_mont`]).
#[target_feature(enable = "avx2")]
fn intt_mont<const N: usize>(a: &mut [i16; N]) {
    let b0 = first_block(N);
    for (blk, c) in a.chunks_exact_mut(256).enumerate() {
        let tz = |idx| block_tw(&INV_BLOCK.z, b0 + blk, idx);
        let tq = |idx| block_tw(&INV_BLOCK.zq, b0 + blk, idx);
        let mut x: [__m256i; 16] = core::array::from_fn(|l| load(c, l));
        for t in [1, 2, 4, 8] {
            for g in 0..8 / t {
                let (z, zq) = (tz(8 / t - 1 + g), tq(8 / t - 1 + g));
                for l in 2 * t * g..2 * t * g + t {
                    let (lo, hi) = x.split_at_mut(l + t);
                    gs(&mut lo[l], &mut hi[0], z, zq);
                }
            }
        }
        transpose(&mut x);
        for (v, r) in x.iter().enumerate() {
            store(c, v, *r);
        }
    }
    let mut t = 16;
    while t < N {
        let hm = N / (2 * t);
        let vt = t / 16;
        for i in 0..hm {
            let z = _mm256_set1_epi16(INV.z[hm + i]);
            let zq = _mm256_set1_epi16(INV.zq[hm + i]);
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
    let (f, fq) = (_mm256_set1_epi16(f), _mm256_set1_epi16(fq));
    for j in 0..N / 16 {
        let v = load(a, j);
        store(a, j, montmul(v, f, fq));
    }
}

/// The squared norm of (c - t mod q centred, s2), saturated (see [`Ops::norm`]). Each 32-bit
/// lane accumulates pairs of squares (`vpmaddwd`, below 2^29 per step for the contract's
/// inputs) and is clamped at 2^31 after every step, so it never wraps; the lanes are summed in
/// 64 bits at the end.
#[target_feature(enable = "avx2")]
fn norm<const N: usize>(c: &[u16; N], t: &[i16; N], s2: &[i16; N]) -> u32 {
    let q = _mm256_set1_epi16(Q);
    let half = _mm256_set1_epi16((Q - 1) / 2);
    let cap = _mm256_set1_epi32(1 << 31);
    let mut acc = _mm256_setzero_si256();
    for j in 0..N / 16 {
        let cc = &c[16 * j..16 * j + 16];
        // SAFETY: `cc` holds 16 `u16`, the 32 bytes read (values below q, so the same as i16).
        let cv = unsafe { _mm256_loadu_si256(cc.as_ptr().cast()) };
        // d = c - t in (-q, 2q), then [0, q), then centred to (-q/2, q/2].
        let mut d = _mm256_sub_epi16(cv, load(t, j));
        d = _mm256_add_epi16(d, _mm256_and_si256(_mm256_srai_epi16(d, 15), q));
        let e = _mm256_sub_epi16(d, q);
        d = _mm256_blendv_epi8(e, d, _mm256_srai_epi16(e, 15));
        let big = _mm256_cmpgt_epi16(d, half);
        d = _mm256_sub_epi16(d, _mm256_and_si256(big, q));
        let s = load(s2, j);
        let sq = _mm256_add_epi32(_mm256_madd_epi16(d, d), _mm256_madd_epi16(s, s));
        acc = _mm256_min_epu32(_mm256_add_epi32(acc, sq), cap);
    }
    let mut lanes = [0u32; 8];
    // SAFETY: `lanes` holds 8 `u32`, the 32 bytes written.
    unsafe { _mm256_storeu_si256(lanes.as_mut_ptr().cast(), acc) };
    let total: u64 = lanes.iter().map(|&x| u64::from(x)).sum();
    if total >= 1 << 31 {
        u32::MAX
    } else {
        total as u32
    }
}

/// [`Ops::hash_block`] eight words at a time: the big-endian words widened to 32-bit lanes,
/// reduced mod q by three conditional subtractions (of 2q, 2q, q: exact below 5q), the lanes
/// below 5q moved to the front in order by a `vpermd` whose indices `pext` gathers from the
/// lane mask, and narrowed back to 16 bits. The 8 places written from c\[i\] exist because at
/// most 8 were filled per group before (`c.len() - i >= 68` on entry); the last four words go
/// through [`crate::hash::hash_words`].
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt")]
fn hash_block(block: &[u8; BLOCK_BYTES], c: &mut [u16], mut i: usize) -> usize {
    let q = _mm256_set1_epi32(i32::from(Q));
    let q2 = _mm256_set1_epi32(2 * i32::from(Q));
    let q5 = _mm256_set1_epi32(5 * i32::from(Q));
    // Swaps the two bytes of every 16-bit word.
    let swap = _mm_setr_epi8(1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14);
    for g in block[..128].chunks_exact(16) {
        // SAFETY: `g` holds the 16 bytes read.
        let raw = unsafe { _mm_loadu_si128(g.as_ptr().cast()) };
        let w = _mm256_cvtepu16_epi32(_mm_shuffle_epi8(raw, swap));
        let mut r = _mm256_min_epu32(w, _mm256_sub_epi32(w, q2));
        r = _mm256_min_epu32(r, _mm256_sub_epi32(r, q2));
        r = _mm256_min_epu32(r, _mm256_sub_epi32(r, q));
        let keep = _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpgt_epi32(q5, w))) as u64;
        // The indices of the kept lanes, one byte each, in order.
        let bytes = _pdep_u64(keep, 0x0101_0101_0101_0101) * 0xFF;
        let idx = _pext_u64(0x0706_0504_0302_0100, bytes);
        let perm = _mm256_cvtepu8_epi32(_mm_cvtsi64_si128(idx as i64));
        let kept = _mm256_permutevar8x32_epi32(r, perm);
        // 32 to 16 bits (values below q): words 0-3 and 4-7 of the two 128-bit halves.
        let packed = _mm256_permute4x64_epi64::<0b1000>(_mm256_packus_epi32(kept, kept));
        let out = &mut c[i..i + 8];
        // SAFETY: `out` holds the 8 `u16` written.
        unsafe { _mm_storeu_si128(out.as_mut_ptr().cast(), _mm256_castsi256_si128(packed)) };
        i += keep.count_ones() as usize;
    }
    crate::hash::hash_words(&block[128..], c, i)
}
