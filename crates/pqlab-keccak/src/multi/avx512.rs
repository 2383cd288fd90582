//! The AVX-512 back end of the multi-lane permutation: Keccak-f\[1600\] (FIPS 202, Algorithm 7)
//! on eight interleaved states at once, one zmm register per lane `A[i]` of the eight instances
//! (25 of the 32 zmm registers), with `vpternlogq` for theta's column parities and for chi, and
//! `vprolq` for the rotations; and the same on four states in ymm registers (AVX-512VL forms).
//!
//! Twin of `portable.rs` and `avx2.rs` (same function set). The callers have checked (through
//! [`pqlab_backend::Backend::is_available`]) that the CPU has AVX-512 F, BW, VL and DQ before
//! any call; only F and VL are used.
#![allow(unsafe_code)]

use core::arch::x86_64::{
    _mm256_loadu_si256, _mm256_rol_epi64, _mm256_set1_epi64x, _mm256_setzero_si256,
    _mm256_storeu_si256, _mm256_ternarylogic_epi64, _mm256_xor_si256, _mm512_loadu_epi64,
    _mm512_rol_epi64, _mm512_set1_epi64, _mm512_setzero_si512, _mm512_storeu_epi64,
    _mm512_ternarylogic_epi64, _mm512_xor_si512,
};

use pqlab_backend::Backend;

use super::Interleaved;
use crate::keccak::RC;

/// One round (FIPS 202, Algorithm 7, step 2: iota . chi . pi . rho . theta) from the lanes `$a`
/// into `$e`, with the broadcast round constant `$rc`, on vectors of either width: `$xor`,
/// `$tern` and `$rol` are the XOR, ternary-logic and rotate intrinsics of that width. Ternary
/// logic 0x96 is a three-way XOR (theta's parities), 0xD2 is `x ^ (!y & z)` (chi, Algorithm 4).
/// Theta's D\[x\] = C\[x-1\] ^ rot(C\[x+1\], 1) is formed first, so that at most 32 vectors are
/// live at any point (the 25 lanes, five D, and the scratch of one output row: no spill to
/// memory). The output is built row by row as in the scalar `keccak::round`.
macro_rules! round {
    ($a:ident, $e:ident, $rc:expr, $xor:ident, $tern:ident, $rol:ident) => {{
        let c0 = $tern::<0x96>($tern::<0x96>($a[0], $a[5], $a[10]), $a[15], $a[20]);
        let c1 = $tern::<0x96>($tern::<0x96>($a[1], $a[6], $a[11]), $a[16], $a[21]);
        let c2 = $tern::<0x96>($tern::<0x96>($a[2], $a[7], $a[12]), $a[17], $a[22]);
        let c3 = $tern::<0x96>($tern::<0x96>($a[3], $a[8], $a[13]), $a[18], $a[23]);
        let c4 = $tern::<0x96>($tern::<0x96>($a[4], $a[9], $a[14]), $a[19], $a[24]);
        let d0 = $xor(c4, $rol::<1>(c1));
        let d1 = $xor(c0, $rol::<1>(c2));
        let d2 = $xor(c1, $rol::<1>(c3));
        let d3 = $xor(c2, $rol::<1>(c4));
        let d4 = $xor(c3, $rol::<1>(c0));
        // Output row 0: A[0], A[6], A[12], A[18], A[24].
        let b0 = $xor($a[0], d0);
        let b1 = $rol::<44>($xor($a[6], d1));
        let b2 = $rol::<43>($xor($a[12], d2));
        let b3 = $rol::<21>($xor($a[18], d3));
        let b4 = $rol::<14>($xor($a[24], d4));
        $e[0] = $xor($tern::<0xD2>(b0, b1, b2), $rc);
        $e[1] = $tern::<0xD2>(b1, b2, b3);
        $e[2] = $tern::<0xD2>(b2, b3, b4);
        $e[3] = $tern::<0xD2>(b3, b4, b0);
        $e[4] = $tern::<0xD2>(b4, b0, b1);
        // Output row 1: A[3], A[9], A[10], A[16], A[22].
        let b0 = $rol::<28>($xor($a[3], d3));
        let b1 = $rol::<20>($xor($a[9], d4));
        let b2 = $rol::<3>($xor($a[10], d0));
        let b3 = $rol::<45>($xor($a[16], d1));
        let b4 = $rol::<61>($xor($a[22], d2));
        $e[5] = $tern::<0xD2>(b0, b1, b2);
        $e[6] = $tern::<0xD2>(b1, b2, b3);
        $e[7] = $tern::<0xD2>(b2, b3, b4);
        $e[8] = $tern::<0xD2>(b3, b4, b0);
        $e[9] = $tern::<0xD2>(b4, b0, b1);
        // Output row 2: A[1], A[7], A[13], A[19], A[20].
        let b0 = $rol::<1>($xor($a[1], d1));
        let b1 = $rol::<6>($xor($a[7], d2));
        let b2 = $rol::<25>($xor($a[13], d3));
        let b3 = $rol::<8>($xor($a[19], d4));
        let b4 = $rol::<18>($xor($a[20], d0));
        $e[10] = $tern::<0xD2>(b0, b1, b2);
        $e[11] = $tern::<0xD2>(b1, b2, b3);
        $e[12] = $tern::<0xD2>(b2, b3, b4);
        $e[13] = $tern::<0xD2>(b3, b4, b0);
        $e[14] = $tern::<0xD2>(b4, b0, b1);
        // Output row 3: A[4], A[5], A[11], A[17], A[23].
        let b0 = $rol::<27>($xor($a[4], d4));
        let b1 = $rol::<36>($xor($a[5], d0));
        let b2 = $rol::<10>($xor($a[11], d1));
        let b3 = $rol::<15>($xor($a[17], d2));
        let b4 = $rol::<56>($xor($a[23], d3));
        $e[15] = $tern::<0xD2>(b0, b1, b2);
        $e[16] = $tern::<0xD2>(b1, b2, b3);
        $e[17] = $tern::<0xD2>(b2, b3, b4);
        $e[18] = $tern::<0xD2>(b3, b4, b0);
        $e[19] = $tern::<0xD2>(b4, b0, b1);
        // Output row 4: A[2], A[8], A[14], A[15], A[21].
        let b0 = $rol::<62>($xor($a[2], d2));
        let b1 = $rol::<55>($xor($a[8], d3));
        let b2 = $rol::<39>($xor($a[14], d4));
        let b3 = $rol::<41>($xor($a[15], d0));
        let b4 = $rol::<2>($xor($a[21], d1));
        $e[20] = $tern::<0xD2>(b0, b1, b2);
        $e[21] = $tern::<0xD2>(b1, b2, b3);
        $e[22] = $tern::<0xD2>(b2, b3, b4);
        $e[23] = $tern::<0xD2>(b3, b4, b0);
        $e[24] = $tern::<0xD2>(b4, b0, b1);
    }};
}

/// FIPS 202, Algorithm 7: KECCAK-p\[1600, 24\] on all eight instances of `state`, on zmm
/// registers.
///
/// # Safety
///
/// The CPU must have AVX-512F.
#[target_feature(enable = "avx512f")]
pub(crate) unsafe fn keccak_f1600_x8(state: &mut Interleaved) {
    let mut a = [_mm512_setzero_si512(); 25];
    for (v, row) in a.iter_mut().zip(state.0.iter()) {
        // SAFETY: `row` is 8 u64 = 64 readable bytes; `loadu` needs no alignment; AVX-512F is
        // present (this function's contract).
        *v = unsafe { _mm512_loadu_epi64(row.as_ptr().cast()) };
    }
    let mut e = a;
    for rc in RC.chunks_exact(2) {
        let (rc0, rc1) = (
            _mm512_set1_epi64(rc[0] as i64),
            _mm512_set1_epi64(rc[1] as i64),
        );
        round!(
            a,
            e,
            rc0,
            _mm512_xor_si512,
            _mm512_ternarylogic_epi64,
            _mm512_rol_epi64
        );
        round!(
            e,
            a,
            rc1,
            _mm512_xor_si512,
            _mm512_ternarylogic_epi64,
            _mm512_rol_epi64
        );
    }
    for (v, row) in a.iter().zip(state.0.iter_mut()) {
        // SAFETY: `row` is 8 u64 = 64 writable bytes; `storeu` needs no alignment; AVX-512F is
        // present (this function's contract).
        unsafe { _mm512_storeu_epi64(row.as_mut_ptr().cast(), *v) };
    }
}

/// FIPS 202, Algorithm 7: KECCAK-p\[1600, 24\] on instances 0..4 of `state`, or 4..8 if `upper`,
/// on ymm registers with the AVX-512VL forms of ternary logic and rotation.
///
/// # Safety
///
/// The CPU must have AVX-512F and AVX-512VL.
#[target_feature(enable = "avx512f,avx512vl")]
pub(crate) unsafe fn keccak_f1600_x4(state: &mut Interleaved, upper: bool) {
    let off = if upper { 4 } else { 0 };
    let mut a = [_mm256_setzero_si256(); 25];
    for (v, row) in a.iter_mut().zip(state.0.iter()) {
        let four = &row[off..off + 4];
        // SAFETY: `four` is 4 u64 = 32 readable bytes; `loadu` needs no alignment; AVX (implied
        // by AVX-512F) is present (this function's contract).
        *v = unsafe { _mm256_loadu_si256(four.as_ptr().cast()) };
    }
    let mut e = a;
    for rc in RC.chunks_exact(2) {
        let (rc0, rc1) = (
            _mm256_set1_epi64x(rc[0] as i64),
            _mm256_set1_epi64x(rc[1] as i64),
        );
        round!(
            a,
            e,
            rc0,
            _mm256_xor_si256,
            _mm256_ternarylogic_epi64,
            _mm256_rol_epi64
        );
        round!(
            e,
            a,
            rc1,
            _mm256_xor_si256,
            _mm256_ternarylogic_epi64,
            _mm256_rol_epi64
        );
    }
    for (v, row) in a.iter().zip(state.0.iter_mut()) {
        let four = &mut row[off..off + 4];
        // SAFETY: `four` is 4 u64 = 32 writable bytes; `storeu` needs no alignment; AVX is
        // present (this function's contract).
        unsafe { _mm256_storeu_si256(four.as_mut_ptr().cast(), *v) };
    }
}

/// Proof that this CPU has AVX-512 (F, BW, VL, DQ): only [`Avx512::detect`] makes one, so the safe methods below
/// may call the `unsafe` kernels.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Avx512(());

impl Avx512 {
    /// The proof, if [`Backend::Avx512`] is available on this machine (detected once, cached).
    pub(crate) fn detect() -> Option<Self> {
        Backend::Avx512.is_available().then_some(Self(()))
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
