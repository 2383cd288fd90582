//! The AVX2 back end of the multi-lane permutation: Keccak-f\[1600\] (FIPS 202, Algorithm 7) on
//! four interleaved states at once, one ymm register per lane `A[i]` of the four instances.
//!
//! Twin of `portable.rs` and `avx512.rs` (same function set). The callers have checked
//! (through [`pqlab_backend::Backend::is_available`]) that the CPU has AVX2 before any call.
#![allow(unsafe_code)]

use core::arch::x86_64::{
    _mm256_andnot_si256, _mm256_loadu_si256, _mm256_or_si256, _mm256_set1_epi64x, _mm256_setr_epi8,
    _mm256_setzero_si256, _mm256_shuffle_epi8, _mm256_slli_epi64, _mm256_srli_epi64,
    _mm256_storeu_si256, _mm256_xor_si256,
};

use pqlab_backend::Backend;

use super::Interleaved;
use crate::keccak::RC;

/// Rotation of each 64-bit lane left by `$n` bits (0 < n < 64): two shifts and an OR.
macro_rules! rol {
    ($x:expr, $n:literal) => {{
        let x = $x;
        _mm256_or_si256(
            _mm256_slli_epi64::<$n>(x),
            _mm256_srli_epi64::<{ 64 - $n }>(x),
        )
    }};
}

/// One round (FIPS 202, Algorithm 7, step 2: iota . chi . pi . rho . theta) from the lanes `$a`
/// into `$e`, with the round constant `$rc` broadcast; the output is built row by row as in the
/// scalar `keccak::round` (theta's XOR, rho and pi straight into chi). The rotations by 8 and 56
/// bits are byte shuffles with the masks `$rho8` and `$rho56`.
macro_rules! round {
    ($a:ident, $e:ident, $rc:expr, $rho8:ident, $rho56:ident) => {{
        let c0 = _mm256_xor_si256(
            _mm256_xor_si256(
                _mm256_xor_si256($a[0], $a[5]),
                _mm256_xor_si256($a[10], $a[15]),
            ),
            $a[20],
        );
        let c1 = _mm256_xor_si256(
            _mm256_xor_si256(
                _mm256_xor_si256($a[1], $a[6]),
                _mm256_xor_si256($a[11], $a[16]),
            ),
            $a[21],
        );
        let c2 = _mm256_xor_si256(
            _mm256_xor_si256(
                _mm256_xor_si256($a[2], $a[7]),
                _mm256_xor_si256($a[12], $a[17]),
            ),
            $a[22],
        );
        let c3 = _mm256_xor_si256(
            _mm256_xor_si256(
                _mm256_xor_si256($a[3], $a[8]),
                _mm256_xor_si256($a[13], $a[18]),
            ),
            $a[23],
        );
        let c4 = _mm256_xor_si256(
            _mm256_xor_si256(
                _mm256_xor_si256($a[4], $a[9]),
                _mm256_xor_si256($a[14], $a[19]),
            ),
            $a[24],
        );
        let d0 = _mm256_xor_si256(c4, rol!(c1, 1));
        let d1 = _mm256_xor_si256(c0, rol!(c2, 1));
        let d2 = _mm256_xor_si256(c1, rol!(c3, 1));
        let d3 = _mm256_xor_si256(c2, rol!(c4, 1));
        let d4 = _mm256_xor_si256(c3, rol!(c0, 1));
        // Output row 0: A[0], A[6], A[12], A[18], A[24].
        let b0 = _mm256_xor_si256($a[0], d0);
        let b1 = rol!(_mm256_xor_si256($a[6], d1), 44);
        let b2 = rol!(_mm256_xor_si256($a[12], d2), 43);
        let b3 = rol!(_mm256_xor_si256($a[18], d3), 21);
        let b4 = rol!(_mm256_xor_si256($a[24], d4), 14);
        $e[0] = _mm256_xor_si256(_mm256_xor_si256(b0, _mm256_andnot_si256(b1, b2)), $rc);
        $e[1] = _mm256_xor_si256(b1, _mm256_andnot_si256(b2, b3));
        $e[2] = _mm256_xor_si256(b2, _mm256_andnot_si256(b3, b4));
        $e[3] = _mm256_xor_si256(b3, _mm256_andnot_si256(b4, b0));
        $e[4] = _mm256_xor_si256(b4, _mm256_andnot_si256(b0, b1));
        // Output row 1: A[3], A[9], A[10], A[16], A[22].
        let b0 = rol!(_mm256_xor_si256($a[3], d3), 28);
        let b1 = rol!(_mm256_xor_si256($a[9], d4), 20);
        let b2 = rol!(_mm256_xor_si256($a[10], d0), 3);
        let b3 = rol!(_mm256_xor_si256($a[16], d1), 45);
        let b4 = rol!(_mm256_xor_si256($a[22], d2), 61);
        $e[5] = _mm256_xor_si256(b0, _mm256_andnot_si256(b1, b2));
        $e[6] = _mm256_xor_si256(b1, _mm256_andnot_si256(b2, b3));
        $e[7] = _mm256_xor_si256(b2, _mm256_andnot_si256(b3, b4));
        $e[8] = _mm256_xor_si256(b3, _mm256_andnot_si256(b4, b0));
        $e[9] = _mm256_xor_si256(b4, _mm256_andnot_si256(b0, b1));
        // Output row 2: A[1], A[7], A[13], A[19], A[20].
        let b0 = rol!(_mm256_xor_si256($a[1], d1), 1);
        let b1 = rol!(_mm256_xor_si256($a[7], d2), 6);
        let b2 = rol!(_mm256_xor_si256($a[13], d3), 25);
        let b3 = _mm256_shuffle_epi8(_mm256_xor_si256($a[19], d4), $rho8);
        let b4 = rol!(_mm256_xor_si256($a[20], d0), 18);
        $e[10] = _mm256_xor_si256(b0, _mm256_andnot_si256(b1, b2));
        $e[11] = _mm256_xor_si256(b1, _mm256_andnot_si256(b2, b3));
        $e[12] = _mm256_xor_si256(b2, _mm256_andnot_si256(b3, b4));
        $e[13] = _mm256_xor_si256(b3, _mm256_andnot_si256(b4, b0));
        $e[14] = _mm256_xor_si256(b4, _mm256_andnot_si256(b0, b1));
        // Output row 3: A[4], A[5], A[11], A[17], A[23].
        let b0 = rol!(_mm256_xor_si256($a[4], d4), 27);
        let b1 = rol!(_mm256_xor_si256($a[5], d0), 36);
        let b2 = rol!(_mm256_xor_si256($a[11], d1), 10);
        let b3 = rol!(_mm256_xor_si256($a[17], d2), 15);
        let b4 = _mm256_shuffle_epi8(_mm256_xor_si256($a[23], d3), $rho56);
        $e[15] = _mm256_xor_si256(b0, _mm256_andnot_si256(b1, b2));
        $e[16] = _mm256_xor_si256(b1, _mm256_andnot_si256(b2, b3));
        $e[17] = _mm256_xor_si256(b2, _mm256_andnot_si256(b3, b4));
        $e[18] = _mm256_xor_si256(b3, _mm256_andnot_si256(b4, b0));
        $e[19] = _mm256_xor_si256(b4, _mm256_andnot_si256(b0, b1));
        // Output row 4: A[2], A[8], A[14], A[15], A[21].
        let b0 = rol!(_mm256_xor_si256($a[2], d2), 62);
        let b1 = rol!(_mm256_xor_si256($a[8], d3), 55);
        let b2 = rol!(_mm256_xor_si256($a[14], d4), 39);
        let b3 = rol!(_mm256_xor_si256($a[15], d0), 41);
        let b4 = rol!(_mm256_xor_si256($a[21], d1), 2);
        $e[20] = _mm256_xor_si256(b0, _mm256_andnot_si256(b1, b2));
        $e[21] = _mm256_xor_si256(b1, _mm256_andnot_si256(b2, b3));
        $e[22] = _mm256_xor_si256(b2, _mm256_andnot_si256(b3, b4));
        $e[23] = _mm256_xor_si256(b3, _mm256_andnot_si256(b4, b0));
        $e[24] = _mm256_xor_si256(b4, _mm256_andnot_si256(b0, b1));
    }};
}

/// FIPS 202, Algorithm 7: KECCAK-p\[1600, 24\] on instances 0..4 of `state`, or 4..8 if `upper`.
///
/// # Safety
///
/// The CPU must have AVX2.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn keccak_f1600_x4(state: &mut Interleaved, upper: bool) {
    let off = if upper { 4 } else { 0 };
    let mut a = [_mm256_setzero_si256(); 25];
    for (v, row) in a.iter_mut().zip(state.0.iter()) {
        let four = &row[off..off + 4];
        // SAFETY: `four` is 4 u64 = 32 readable bytes; `loadu` needs no alignment; AVX2 is
        // present (this function's contract).
        *v = unsafe { _mm256_loadu_si256(four.as_ptr().cast()) };
    }
    // Byte shuffles that rotate each 64-bit lane left by 8 and by 56 bits.
    let rho8 = _mm256_setr_epi8(
        7, 0, 1, 2, 3, 4, 5, 6, 15, 8, 9, 10, 11, 12, 13, 14, 7, 0, 1, 2, 3, 4, 5, 6, 15, 8, 9, 10,
        11, 12, 13, 14,
    );
    let rho56 = _mm256_setr_epi8(
        1, 2, 3, 4, 5, 6, 7, 0, 9, 10, 11, 12, 13, 14, 15, 8, 1, 2, 3, 4, 5, 6, 7, 0, 9, 10, 11,
        12, 13, 14, 15, 8,
    );
    let mut e = a;
    for rc in RC.chunks_exact(2) {
        let (rc0, rc1) = (
            _mm256_set1_epi64x(rc[0] as i64),
            _mm256_set1_epi64x(rc[1] as i64),
        );
        round!(a, e, rc0, rho8, rho56);
        round!(e, a, rc1, rho8, rho56);
    }
    for (v, row) in a.iter().zip(state.0.iter_mut()) {
        let four = &mut row[off..off + 4];
        // SAFETY: `four` is 4 u64 = 32 writable bytes; `storeu` needs no alignment; AVX2 is
        // present (this function's contract).
        unsafe { _mm256_storeu_si256(four.as_mut_ptr().cast(), *v) };
    }
}

/// FIPS 202, Algorithm 7: KECCAK-p\[1600, 24\] on all eight instances: two 4-way permutations.
///
/// # Safety
///
/// The CPU must have AVX2.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn keccak_f1600_x8(state: &mut Interleaved) {
    // SAFETY: this function's contract (AVX2 present) is the callee's.
    unsafe {
        keccak_f1600_x4(state, false);
        keccak_f1600_x4(state, true);
    }
}

/// Proof that this CPU has AVX2: only [`Avx2::detect`] makes one, so the safe methods below
/// may call the `unsafe` kernels.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Avx2(());

impl Avx2 {
    /// The proof, if [`Backend::Avx2`] is available on this machine (detected once, cached).
    pub(crate) fn detect() -> Option<Self> {
        Backend::Avx2.is_available().then_some(Self(()))
    }

    /// [`keccak_f1600_x4`], safe.
    pub(crate) fn keccak_f1600_x4(self, state: &mut Interleaved, upper: bool) {
        // SAFETY: `self` exists only if the back end was detected available (`detect`).
        unsafe { keccak_f1600_x4(state, upper) }
    }

    /// [`keccak_f1600_x8`], safe.
    pub(crate) fn keccak_f1600_x8(self, state: &mut Interleaved) {
        // SAFETY: `self` exists only if the back end was detected available (`detect`).
        unsafe { keccak_f1600_x8(state) }
    }
}
