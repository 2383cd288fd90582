//! FIPS 204, Algorithm 29 (SampleInBall), lines 6 to 10, in constant time on 256-bit vectors:
//! the masks of c ([`crate::ball::BallMasks`]) as two vectors of four 64-bit words, and the
//! one-hot masks of the positions i and j built with variable shifts (`vpsllvq` gives zero
//! for the counts that land outside a word), so that each byte costs a few vector operations
//! instead of the portable form's per-word selections. Twin of
//! [`crate::ball::ball_bytes_portable`] (same result, checked by the tests of `crate::ball`).

use core::arch::x86_64::{
    __m256i, _mm256_and_si256, _mm256_andnot_si256, _mm256_cmpeq_epi64, _mm256_loadu_si256,
    _mm256_or_si256, _mm256_permute4x64_epi64, _mm256_set1_epi64x, _mm256_setr_epi64x,
    _mm256_setzero_si256, _mm256_sllv_epi64, _mm256_storeu_si256, _mm256_sub_epi64,
    _mm256_xor_si256,
};

use crate::ball::BallState;

/// All ones in every lane if the 256-bit `x` has a set bit, else zero: an OR across the four
/// lanes and a comparison, all in vector registers (a flag read into a general register, as
/// `vptest` gives, let LLVM turn the mask into a branch, which the constant-time suite caught).
#[inline]
#[target_feature(enable = "avx2")]
fn any_mask(x: __m256i) -> __m256i {
    let t = _mm256_or_si256(x, _mm256_permute4x64_epi64::<0b01_00_11_10>(x));
    let t = _mm256_or_si256(t, _mm256_permute4x64_epi64::<0b10_11_00_01>(t));
    let zero = _mm256_cmpeq_epi64(t, _mm256_setzero_si256());
    _mm256_xor_si256(zero, _mm256_set1_epi64x(-1))
}

/// [`crate::backend::Ops::ball_bytes`] on AVX2.
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub(in crate::backend) unsafe fn ball_bytes(st: &mut BallState, bytes: &[u8]) {
    // SAFETY: each array is 4 u64 = 32 readable bytes; `loadu` needs no alignment.
    let (mut nz, mut neg) = unsafe {
        (
            _mm256_loadu_si256(st.c.nonzero.as_ptr().cast()),
            _mm256_loadu_si256(st.c.negative.as_ptr().cast()),
        )
    };
    // Bit x of the 256 lies in word w at bit x - 64 w; other words' counts are out of range.
    let base = _mm256_setr_epi64x(0, 64, 128, 192);
    let one = _mm256_set1_epi64x(1);
    let one_hot =
        |x: u64| _mm256_sllv_epi64(one, _mm256_sub_epi64(_mm256_set1_epi64x(x as i64), base));
    let mut i = st.i;
    for &b in bytes {
        let j = u64::from(b);
        // accept: i < 256 and j <= i (as in `BallState::byte`).
        let active = (i.wrapping_sub(256) >> 63).wrapping_neg();
        let accept = active & ((i.wrapping_sub(j) >> 63) ^ 1).wrapping_neg();
        let (at_i, at_j) = (one_hot(i), one_hot(j));
        // c_j before the step: nonzero? negative? (masks in every lane)
        let acc = _mm256_set1_epi64x(accept as i64);
        let nz_j = _mm256_and_si256(any_mask(_mm256_and_si256(nz, at_j)), acc);
        let neg_j = _mm256_and_si256(any_mask(_mm256_and_si256(neg, at_j)), acc);
        let k = i.wrapping_sub(256 - st.tau) & 63;
        let sign = _mm256_set1_epi64x(((st.signs >> k) & 1).wrapping_neg() as i64);
        // Line 9 (bit i is zero before): c_i = c_j; line 10 after it: c_j = +-1.
        let set_j = _mm256_and_si256(at_j, acc);
        nz = _mm256_or_si256(nz, _mm256_or_si256(_mm256_and_si256(at_i, nz_j), set_j));
        neg = _mm256_or_si256(neg, _mm256_and_si256(at_i, neg_j));
        neg = _mm256_or_si256(
            _mm256_andnot_si256(set_j, neg),
            _mm256_and_si256(set_j, sign),
        );
        i += accept & 1;
    }
    st.i = i;
    // SAFETY: each array is 4 u64 = 32 writable bytes; `storeu` needs no alignment.
    unsafe {
        _mm256_storeu_si256(st.c.nonzero.as_mut_ptr().cast(), nz);
        _mm256_storeu_si256(st.c.negative.as_mut_ptr().cast(), neg);
    }
}
