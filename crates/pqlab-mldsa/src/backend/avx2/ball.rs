//! FIPS 204, Algorithm 29 (SampleInBall) in constant time on 256-bit vectors, in two phases.
//!
//! While the bytes are read ([`ball_bytes`]), c is held as the positions of its tau nonzero
//! coefficients, one byte lane each (`BallState::pos`, two vectors of 32 lanes): lane t is
//! where the t-th +-1 placed (sign bit t of the sign bits) is now. A step (i, j) of lines 9
//! and 10 moves the coefficient at position j to i (one byte comparison of every lane with j
//! and a blend) and places the next one at j: no lane is extracted and nothing is reduced
//! across lanes, so the steps' dependency chain is a few one-cycle operations per byte.
//! [`ball_finish`] then turns the positions into the masks of c
//! ([`crate::ball::BallMasks`]), one position at a time with variable shifts, and
//! [`ball_poly`] the masks into coefficients. Whether a byte is accepted, which lanes match
//! and where a coefficient goes are masks and shift amounts, never a branch or a memory
//! index. Twin of [`crate::ball::ball_bytes_portable`] (same c, checked by the tests of
//! `crate::ball`) and of [`crate::ball::ball_poly_portable`] (backend tests).

use core::arch::x86_64::{
    __m256i, _mm256_and_si256, _mm256_blendv_epi8, _mm256_cmpeq_epi8, _mm256_cmpeq_epi32,
    _mm256_loadu_si256, _mm256_or_si256, _mm256_set1_epi8, _mm256_set1_epi32, _mm256_set1_epi64x,
    _mm256_setr_epi8, _mm256_setr_epi32, _mm256_setr_epi64x, _mm256_setzero_si256,
    _mm256_sllv_epi64, _mm256_storeu_si256, _mm256_sub_epi64,
};

use crate::backend::Coeffs;
use crate::ball::{BallMasks, BallState, accept_mask};

/// [`crate::backend::Ops::ball_bytes`] on AVX2: FIPS 204, Algorithm 29 lines 6 to 10 for
/// each byte of `bytes`, on the positions form of c (module documentation).
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub(in crate::backend) unsafe fn ball_bytes(st: &mut BallState, bytes: &[u8]) {
    let (lo, hi) = st.pos.split_at_mut(32);
    // SAFETY: `lo` and `hi` are 32 readable bytes each; `loadu` needs no alignment.
    let (mut pos_lo, mut pos_hi) = unsafe {
        (
            _mm256_loadu_si256(lo.as_ptr().cast()),
            _mm256_loadu_si256(hi.as_ptr().cast()),
        )
    };
    let lane_lo = _mm256_setr_epi8(
        0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24,
        25, 26, 27, 28, 29, 30, 31,
    );
    let lane_hi = _mm256_setr_epi8(
        32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54,
        55, 56, 57, 58, 59, 60, 61, 62, 63,
    );
    let first = 256 - st.tau;
    let mut i = st.i;
    for &b in bytes {
        let j = u64::from(b);
        let accept = accept_mask(i, j);
        // The lane of the coefficient placed by this step (below tau while active).
        let t = i.wrapping_sub(first) & 63;
        let acc = _mm256_set1_epi8(accept as i8);
        let (bj, bi, bt) = (
            _mm256_set1_epi8(b as i8),
            _mm256_set1_epi8(i as u8 as i8),
            _mm256_set1_epi8(t as i8),
        );
        // Line 9: the coefficient at j (the lane holding j, if any) moves to i; line 10: lane
        // t is placed at j. Lanes not placed yet hold 0xFF, which j only equals when i = 255,
        // the last step, whose lanes above t are never read.
        let (new_lo, new_hi) = (
            _mm256_and_si256(_mm256_cmpeq_epi8(lane_lo, bt), acc),
            _mm256_and_si256(_mm256_cmpeq_epi8(lane_hi, bt), acc),
        );
        let (to_lo, to_hi) = (
            _mm256_blendv_epi8(bi, bj, new_lo),
            _mm256_blendv_epi8(bi, bj, new_hi),
        );
        let mv_lo = _mm256_and_si256(_mm256_cmpeq_epi8(pos_lo, bj), acc);
        let mv_hi = _mm256_and_si256(_mm256_cmpeq_epi8(pos_hi, bj), acc);
        pos_lo = _mm256_blendv_epi8(pos_lo, to_lo, _mm256_or_si256(mv_lo, new_lo));
        pos_hi = _mm256_blendv_epi8(pos_hi, to_hi, _mm256_or_si256(mv_hi, new_hi));
        i += accept & 1;
    }
    st.i = i;
    // SAFETY: `lo` and `hi` are 32 writable bytes each; `storeu` needs no alignment.
    unsafe {
        _mm256_storeu_si256(lo.as_mut_ptr().cast(), pos_lo);
        _mm256_storeu_si256(hi.as_mut_ptr().cast(), pos_hi);
    }
}

/// [`crate::backend::Ops::ball_finish`] on AVX2: the masks of c from the positions of its tau
/// nonzero coefficients (lane t at `pos[t]` with sign bit t of `signs`), each turned into a
/// one-hot 256-bit vector by variable shifts (`vpsllvq` gives zero for the counts that land
/// outside a word).
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub(in crate::backend) unsafe fn ball_finish(st: &mut BallState) {
    let base = _mm256_setr_epi64x(0, 64, 128, 192);
    let one = _mm256_set1_epi64x(1);
    let (mut nz, mut neg) = (_mm256_setzero_si256(), _mm256_setzero_si256());
    let tau = (st.tau as usize).min(st.pos.len());
    for (t, &p) in st.pos[..tau].iter().enumerate() {
        let at = _mm256_sllv_epi64(
            one,
            _mm256_sub_epi64(_mm256_set1_epi64x(i64::from(p)), base),
        );
        let sign = _mm256_set1_epi64x(((st.signs >> t) & 1).wrapping_neg() as i64);
        nz = _mm256_or_si256(nz, at);
        neg = _mm256_or_si256(neg, _mm256_and_si256(at, sign));
    }
    // SAFETY: each array is 4 u64 = 32 writable bytes; `storeu` needs no alignment.
    unsafe {
        _mm256_storeu_si256(st.c.nonzero.as_mut_ptr().cast(), nz);
        _mm256_storeu_si256(st.c.negative.as_mut_ptr().cast(), neg);
    }
}

/// [`crate::backend::Ops::ball_poly`] on AVX2: eight coefficients at a time, each lane's bit
/// of the masks tested by a comparison (coefficient = (nonzero & 1) | negative, the negative
/// lanes all ones).
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub(in crate::backend) unsafe fn ball_poly(c: &BallMasks, out: &mut Coeffs) {
    let bit = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
    let one = _mm256_set1_epi32(1);
    let lanes = |mask: &[u64; 4], g: usize| {
        let byte = (mask[g / 8] >> (8 * (g % 8))) & 0xFF;
        let v = _mm256_set1_epi32(byte as i32);
        _mm256_cmpeq_epi32(_mm256_and_si256(v, bit), bit)
    };
    for (g, chunk) in out.chunks_exact_mut(8).enumerate() {
        let v = _mm256_or_si256(
            _mm256_and_si256(lanes(&c.nonzero, g), one),
            lanes(&c.negative, g),
        );
        // SAFETY: `chunk` is 8 writable i32 (32 bytes); `storeu` needs no alignment.
        unsafe { _mm256_storeu_si256(chunk.as_mut_ptr().cast::<__m256i>(), v) };
    }
}
