//! Rounding and hints (FIPS 204, Section 7.4: Algorithms 35 to 40) and the infinity-norm
//! check, 16 coefficients per step, lane for lane the arithmetic of `crate::rounding` (so the
//! results are the same bits): multiply-and-shift instead of division, compares to masks and
//! masked moves instead of branches.

use core::arch::x86_64::*;

use super::{Coeffs, load, store};
use crate::params::{D, Q};

/// gamma2 = (q - 1) / 88 (ML-DSA-44).
pub(super) const G88: i32 = (Q - 1) / 88;
/// gamma2 = (q - 1) / 32 (ML-DSA-65 and ML-DSA-87).
pub(super) const G32: i32 = (Q - 1) / 32;

/// FIPS 204, Algorithm 35: Power2Round of every coefficient of `t` (in [0, q)).
///
/// # Safety
/// The CPU must support AVX-512F/BW/VL/DQ.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq")]
pub(super) unsafe fn power2round(t: &Coeffs, t1: &mut Coeffs, t0: &mut Coeffs) {
    let round = _mm512_set1_epi32((1 << (D - 1)) - 1);
    for i in 0..16 {
        let r = load(t, i);
        let r1 = _mm512_srai_epi32::<D>(_mm512_add_epi32(r, round));
        store(t1, i, r1);
        store(t0, i, _mm512_sub_epi32(r, _mm512_slli_epi32::<D>(r1)));
    }
}

/// FIPS 204, Algorithm 36: Decompose on 16 lanes (r in [0, q)): (r1, r0) as
/// `crate::rounding::decompose`, the special case r - r0 = q - 1 mapped to (0, r0 - 1).
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq")]
fn decompose_v<const GAMMA2: i32>(r: __m512i) -> (__m512i, __m512i) {
    // ceil(r / 128), then times 1025 / 2^22 (~ 1 / 4092) or 11275 / 2^24 (~ 1 / 1488).
    let r1 = _mm512_srai_epi32::<7>(_mm512_add_epi32(r, _mm512_set1_epi32(127)));
    let r1 = if GAMMA2 == G32 {
        let r1 = _mm512_mullo_epi32(r1, _mm512_set1_epi32(1025));
        let r1 = _mm512_srai_epi32::<22>(_mm512_add_epi32(r1, _mm512_set1_epi32(1 << 21)));
        // 16 only in the special case: it wraps to 0.
        _mm512_and_si512(r1, _mm512_set1_epi32(15))
    } else {
        let r1 = _mm512_mullo_epi32(r1, _mm512_set1_epi32(11275));
        let r1 = _mm512_srai_epi32::<24>(_mm512_add_epi32(r1, _mm512_set1_epi32(1 << 23)));
        // 44 only in the special case: set to 0.
        _mm512_maskz_mov_epi32(_mm512_cmple_epi32_mask(r1, _mm512_set1_epi32(43)), r1)
    };
    let r0 = _mm512_sub_epi32(r, _mm512_mullo_epi32(r1, _mm512_set1_epi32(2 * GAMMA2)));
    // r0 mod+- q: subtract q from values above (q - 1) / 2.
    let above = _mm512_cmpgt_epi32_mask(r0, _mm512_set1_epi32((Q - 1) / 2));
    let r0 = _mm512_mask_sub_epi32(r0, above, r0, _mm512_set1_epi32(Q));
    (r1, r0)
}

/// FIPS 204, Algorithm 36: Decompose of every coefficient of `w` (in (-q, q), q added to the
/// negative ones first, as `caddq`), in place: w0 = LowBits over `w`, w1 = HighBits into `w1`
/// (Algorithms 37, 38).
///
/// # Safety
/// The CPU must support AVX-512F/BW/VL/DQ.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq")]
pub(super) unsafe fn decompose<const GAMMA2: i32>(w: &mut Coeffs, w1: &mut Coeffs) {
    let q = _mm512_set1_epi32(Q);
    let zero = _mm512_setzero_si512();
    for i in 0..16 {
        let r = load(w, i);
        let r = _mm512_mask_add_epi32(r, _mm512_cmplt_epi32_mask(r, zero), r, q);
        let (r1, r0) = decompose_v::<GAMMA2>(r);
        store(w1, i, r1);
        store(w, i, r0);
    }
}

/// FIPS 204, Algorithm 39: MakeHint in the reference form (`crate::rounding::make_hint`): h =
/// 1 where r0 > gamma2, r0 < -gamma2, or r0 = -gamma2 with r1 != 0, as bits (coefficient i at
/// bit i % 64 of `h[i / 64]`: the lane masks themselves). Returns the number of ones (a
/// popcount of the lane masks: no branch on the values).
///
/// # Safety
/// The CPU must support AVX-512F/BW/VL/DQ and POPCNT.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,popcnt")]
pub(super) unsafe fn make_hint(gamma2: i32, r0: &Coeffs, r1: &Coeffs, h: &mut [u64; 4]) -> usize {
    let g = _mm512_set1_epi32(gamma2);
    let neg_g = _mm512_set1_epi32(-gamma2);
    let zero = _mm512_setzero_si512();
    let mut ones = 0;
    *h = [0; 4];
    for i in 0..16 {
        let (x0, x1) = (load(r0, i), load(r1, i));
        let outside = _mm512_cmpgt_epi32_mask(x0, g) | _mm512_cmplt_epi32_mask(x0, neg_g);
        let at_neg = _mm512_cmpeq_epi32_mask(x0, neg_g);
        let hint = outside | _mm512_mask_cmpneq_epi32_mask(at_neg, x1, zero);
        // The 16 lane masks are the hint bits of coefficients 16 i .. 16 i + 15.
        h[i / 4] |= u64::from(hint) << (16 * (i % 4));
        ones += hint.count_ones() as usize;
    }
    ones
}

/// FIPS 204, Algorithm 40: UseHint(h\[i\], w\[i\]) for every coefficient (w in [0, q), h in
/// {0, 1}), written over `w`: r1 + 1 where h = 1 and r0 > 0, r1 - 1 where h = 1 and r0 <= 0,
/// modulo m = (q - 1) / (2 gamma2). Public data.
///
/// # Safety
/// The CPU must support AVX-512F/BW/VL/DQ.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq")]
pub(super) unsafe fn use_hint<const GAMMA2: i32>(h: &Coeffs, w: &mut Coeffs) {
    let zero = _mm512_setzero_si512();
    let one = _mm512_set1_epi32(1);
    let m = (Q - 1) / (2 * GAMMA2);
    for i in 0..16 {
        let (r1, r0) = decompose_v::<GAMMA2>(load(w, i));
        let hint = _mm512_cmpneq_epi32_mask(load(h, i), zero);
        let up = _mm512_mask_cmpgt_epi32_mask(hint, r0, zero);
        let down = hint & !up;
        let r = _mm512_mask_add_epi32(r1, up, r1, one);
        let r = _mm512_mask_sub_epi32(r, down, r, one);
        let r = if m == 16 {
            _mm512_and_si512(r, _mm512_set1_epi32(15))
        } else {
            // m = 44: 44 wraps to 0 and -1 to 43.
            let r =
                _mm512_mask_mov_epi32(r, _mm512_cmpeq_epi32_mask(r, _mm512_set1_epi32(m)), zero);
            let wrap = _mm512_cmplt_epi32_mask(r, zero);
            _mm512_mask_mov_epi32(r, wrap, _mm512_set1_epi32(m - 1))
        };
        store(w, i, r);
    }
}

/// Whether some |a_i| >= bound (FIPS 204, Section 7.4, the infinity norm) for coefficients
/// reduced by reduce32: every lane is compared and the masks OR-ed, one test at the end, so
/// the time does not depend on where a coefficient is too large.
///
/// # Safety
/// The CPU must support AVX-512F/BW/VL/DQ.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq")]
pub(super) unsafe fn norm_exceeds(a: &Coeffs, bound: i32) -> bool {
    let b = _mm512_set1_epi32(bound);
    let mut over: u16 = 0;
    for i in 0..16 {
        over |= _mm512_cmpge_epi32_mask(_mm512_abs_epi32(load(a, i)), b);
    }
    over != 0
}
