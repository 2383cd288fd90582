//! FIPS 204, Algorithm 29 (SampleInBall) in constant time on 512-bit vectors and mask
//! registers. The byte steps ([`ball_bytes`]) keep c as the positions of its nonzero
//! coefficients, as the AVX2 kernel does (`super::super::avx2::ball`, whose module
//! documentation has the method), in one vector of 64 byte lanes: a step compares every lane
//! with j into a mask register and blends under it. The masks of c are then made by the AVX2
//! kernel (`ball_finish`: 256-bit masks are its width), and [`ball_poly`] turns them into
//! coefficients, sixteen at a time, each 16-bit piece of the masks used as a mask register
//! (`vmovdqa32` with a write mask: a lane-wise selection, no branch and no memory index).
//! Twins of [`crate::ball::ball_bytes_portable`] (same c, tests of `crate::ball`) and
//! [`crate::ball::ball_poly_portable`] (backend tests).

use core::arch::x86_64::{
    __mmask64, _mm512_loadu_si512, _mm512_mask_blend_epi8, _mm512_mask_cmpeq_epi8_mask,
    _mm512_mask_mov_epi32, _mm512_maskz_mov_epi32, _mm512_set1_epi8, _mm512_set1_epi32,
    _mm512_storeu_si512,
};

use super::store;
use crate::backend::Coeffs;
use crate::ball::{BallMasks, BallState, accept_mask};

/// [`crate::backend::Ops::ball_bytes`] on AVX-512: FIPS 204, Algorithm 29 lines 6 to 10 for
/// each byte of `bytes`, on the positions form of c (`BallState::pos`, one vector).
#[target_feature(enable = "avx512f,avx512bw")]
pub(super) fn ball_bytes(st: &mut BallState, bytes: &[u8]) {
    // SAFETY: `st.pos` is 64 readable bytes; `loadu` needs no alignment.
    let mut pos = unsafe { _mm512_loadu_si512(st.pos.as_ptr().cast()) };
    let first = 256 - st.tau;
    let mut i = st.i;
    for &b in bytes {
        let j = u64::from(b);
        let accept = accept_mask(i, j);
        // Lane t (below tau while active) is the coefficient this step places.
        let new: __mmask64 = (1u64 << (i.wrapping_sub(first) & 63)) & accept;
        let (bj, bi) = (_mm512_set1_epi8(b as i8), _mm512_set1_epi8(i as u8 as i8));
        let to = _mm512_mask_blend_epi8(new, bi, bj);
        // Line 9: the coefficient at j moves to i; line 10: lane t is placed at j. (Lanes not
        // placed yet hold 0xFF: see the AVX2 kernel.)
        let moved = _mm512_mask_cmpeq_epi8_mask(accept, pos, bj);
        pos = _mm512_mask_blend_epi8(moved | new, pos, to);
        i += accept & 1;
    }
    st.i = i;
    // SAFETY: `st.pos` is 64 writable bytes; `storeu` needs no alignment.
    unsafe { _mm512_storeu_si512(st.pos.as_mut_ptr().cast(), pos) };
}

/// [`crate::backend::Ops::ball_poly`] on AVX-512: coefficient k is -1 where bit k of
/// `negative` is set, else 1 where bit k of `nonzero` is set, else 0.
#[target_feature(enable = "avx512f")]
pub(super) fn ball_poly(c: &BallMasks, out: &mut Coeffs) {
    let (one, minus_one) = (_mm512_set1_epi32(1), _mm512_set1_epi32(-1));
    for g in 0..16 {
        let shift = 16 * (g % 4);
        let nz = (c.nonzero[g / 4] >> shift) as u16;
        let neg = (c.negative[g / 4] >> shift) as u16;
        let v = _mm512_mask_mov_epi32(_mm512_maskz_mov_epi32(nz, one), neg, minus_one);
        store(out, g, v);
    }
}
