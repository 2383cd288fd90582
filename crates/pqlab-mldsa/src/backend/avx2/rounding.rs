//! Rounding, hints and the norm check on AVX2 (FIPS 204, Section 7.4: Algorithms 35 to 40),
//! lane by lane the branch-free formulas of `crate::rounding`, so every output equals the
//! portable one.

use core::arch::x86_64::*;

use pqlab_arith::mldsa::Q;

use super::super::Coeffs;
use super::ntt::{load, store};
use crate::params::D;

const G88: i32 = (Q - 1) / 88;

/// FIPS 204, Algorithm 35: Power2Round of every coefficient of `t` (in [0, q)).
#[target_feature(enable = "avx2,bmi2,popcnt")]
pub(super) unsafe fn power2round(t: &Coeffs, t1: &mut Coeffs, t0: &mut Coeffs) {
    let round = _mm256_set1_epi32((1 << (D - 1)) - 1);
    for i in 0..32 {
        let r = load(t, i);
        let r1 = _mm256_srai_epi32::<{ D as i32 }>(_mm256_add_epi32(r, round));
        store(t1, i, r1);
        store(
            t0,
            i,
            _mm256_sub_epi32(r, _mm256_slli_epi32::<{ D as i32 }>(r1)),
        );
    }
}

/// FIPS 204, Algorithm 36: Decompose of the coefficients r (in [0, q)) of one vector, as
/// `crate::rounding::decompose`: r1 = round(ceil(r / 128) / (2 gamma2 / 128)) by
/// multiply-and-shift (ceil(r / 128) < 2^16, so the products stay below 2^30),
/// the special case r1 = (q - 1) / (2 gamma2) mapped to 0, and r0 = r - 2 gamma2 r1 centred.
#[target_feature(enable = "avx2")]
#[inline]
fn decompose_v(g88: bool, r: __m256i) -> (__m256i, __m256i) {
    let q = _mm256_set1_epi32(Q);
    let r1 = _mm256_srli_epi32::<7>(_mm256_add_epi32(r, _mm256_set1_epi32(127)));
    let (r1, g) = if g88 {
        // 11275 / 2^24 approximates 1 / 1488 (exact on [0, q)).
        let t = _mm256_mullo_epi32(r1, _mm256_set1_epi32(11275));
        let r1 = _mm256_srli_epi32::<24>(_mm256_add_epi32(t, _mm256_set1_epi32(1 << 23)));
        // r1 = 44 only in the special case: set it to 0.
        let special = _mm256_cmpgt_epi32(r1, _mm256_set1_epi32(43));
        (_mm256_andnot_si256(special, r1), 1488)
    } else {
        // 1025 / 2^22 approximates 1 / 4092 (exact on [0, q)).
        let t = _mm256_mullo_epi32(r1, _mm256_set1_epi32(1025));
        let r1 = _mm256_srli_epi32::<22>(_mm256_add_epi32(t, _mm256_set1_epi32(1 << 21)));
        // r1 = 16 only in the special case: it wraps to 0.
        (_mm256_and_si256(r1, _mm256_set1_epi32(15)), 4092)
    };
    // 2 gamma2 r1 = 128 (g r1) with g = 2 gamma2 / 128 (1488 or 4092): a 16-bit multiply-add
    // of small positives, exact in 32 bits.
    let prod = _mm256_slli_epi32::<7>(_mm256_madd_epi16(r1, _mm256_set1_epi32(g)));
    let r0 = _mm256_sub_epi32(r, prod);
    // r0 mod± q: subtract q from values above (q - 1) / 2.
    let over = _mm256_cmpgt_epi32(r0, _mm256_set1_epi32((Q - 1) / 2));
    (r1, _mm256_sub_epi32(r0, _mm256_and_si256(over, q)))
}

/// FIPS 204, Algorithm 36: Decompose of every coefficient of `w` (in (-q, q), q added to the
/// negative ones first, as `caddq`), in place: w0 over `w`, w1 into `w1`; `gamma2` is
/// (q - 1) / 88, anything else meaning (q - 1) / 32 (as in the portable code).
#[target_feature(enable = "avx2,bmi2,popcnt")]
pub(super) unsafe fn decompose(gamma2: i32, w: &mut Coeffs, w1: &mut Coeffs) {
    let g88 = gamma2 == G88;
    let q = _mm256_set1_epi32(Q);
    for i in 0..32 {
        let r = load(w, i);
        let r = _mm256_add_epi32(r, _mm256_and_si256(_mm256_srai_epi32::<31>(r), q));
        let (r1, r0) = decompose_v(g88, r);
        store(w1, i, r1);
        store(w, i, r0);
    }
}

/// FIPS 204, Algorithm 39: MakeHint in the reference form (see `crate::rounding::make_hint`):
/// h = 1 where r0 > gamma2, r0 < -gamma2, or r0 = -gamma2 and r1 != 0 (compare masks), as bits
/// (coefficient i at bit i % 64 of `h[i / 64]`: the lanes' sign bits); returns the number of
/// ones (a popcount of the masks, no branch).
#[target_feature(enable = "avx2,bmi2,popcnt")]
pub(super) unsafe fn make_hint(gamma2: i32, r0: &Coeffs, r1: &Coeffs, h: &mut [u64; 4]) -> usize {
    let g = _mm256_set1_epi32(gamma2);
    let neg_g = _mm256_set1_epi32(-gamma2);
    let zero = _mm256_setzero_si256();
    let mut ones = 0;
    *h = [0; 4];
    for i in 0..32 {
        let (a, b) = (load(r0, i), load(r1, i));
        let above = _mm256_cmpgt_epi32(a, g);
        let below = _mm256_cmpgt_epi32(neg_g, a);
        let at_neg = _mm256_andnot_si256(_mm256_cmpeq_epi32(b, zero), _mm256_cmpeq_epi32(a, neg_g));
        let m = _mm256_or_si256(_mm256_or_si256(above, below), at_neg);
        // The 8 lane signs are the hint bits of coefficients 8 i .. 8 i + 7.
        let bits = u64::from(_mm256_movemask_ps(_mm256_castsi256_ps(m)) as u32);
        h[i / 8] |= bits << (8 * (i % 8));
        ones += bits.count_ones() as usize;
    }
    ones
}

/// FIPS 204, Algorithm 40: UseHint for every coefficient, w in [0, q), h in {0, 1} (public
/// data, though nothing branches anyway): r1 + 1 where h != 0 and r0 > 0, r1 - 1 where h != 0
/// and r0 <= 0, modulo m = (q - 1) / (2 gamma2).
#[target_feature(enable = "avx2,bmi2,popcnt")]
pub(super) unsafe fn use_hint(gamma2: i32, h: &Coeffs, w: &mut Coeffs) {
    let g88 = gamma2 == G88;
    let zero = _mm256_setzero_si256();
    let one = _mm256_set1_epi32(1);
    let m = _mm256_set1_epi32(44);
    for i in 0..32 {
        let (r1, r0) = decompose_v(g88, load(w, i));
        // +1 where r0 > 0, else -1; kept where h != 0.
        let pos = _mm256_cmpgt_epi32(r0, zero);
        let step = _mm256_sub_epi32(zero, _mm256_or_si256(pos, one));
        let step = _mm256_andnot_si256(_mm256_cmpeq_epi32(load(h, i), zero), step);
        let r = _mm256_add_epi32(r1, step);
        let r = if g88 {
            // -1 to 43, 44 to 0.
            let r = _mm256_add_epi32(r, _mm256_and_si256(_mm256_cmpgt_epi32(zero, r), m));
            _mm256_andnot_si256(_mm256_cmpeq_epi32(r, m), r)
        } else {
            _mm256_and_si256(r, _mm256_set1_epi32(15))
        };
        store(w, i, r);
    }
}

/// Whether some |a_i| >= bound (FIPS 204, Section 7.4), looking at every coefficient: the
/// comparison masks are OR-ed together and tested once at the end.
#[target_feature(enable = "avx2,bmi2,popcnt")]
pub(super) unsafe fn norm_exceeds(a: &Coeffs, bound: i32) -> bool {
    let limit = _mm256_set1_epi32(bound - 1);
    let mut over = _mm256_setzero_si256();
    for i in 0..32 {
        let x = _mm256_abs_epi32(load(a, i));
        over = _mm256_or_si256(over, _mm256_cmpgt_epi32(x, limit));
    }
    _mm256_testz_si256(over, over) == 0
}
