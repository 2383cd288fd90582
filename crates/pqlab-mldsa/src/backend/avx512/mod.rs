//! The AVX-512 back end of ML-DSA: every kernel of [`Ops`] on 512-bit vectors of 16 `i32`
//! lanes, for CPUs with AVX-512F, BW, VL and DQ (and the AVX2, BMI2 and POPCNT that
//! `pqlab_backend` checks alongside). No VBMI, VBMI2 or IFMA instruction is used.
//!
//! * [`ntt`]: Algorithms 41 and 42 (NTT, NTT^-1), Algorithm 45 (MultiplyNTT) and the inner
//!   product of Algorithm 48, with signed Montgomery multiplication; reduce32, caddq.
//! * [`sample`]: the rejection loops of Algorithms 30 and 31 (RejNTTPoly, RejBoundedPoly).
//! * [`rounding`]: Algorithms 35, 36, 39 and 40 (Power2Round, Decompose, MakeHint, UseHint)
//!   and the infinity-norm check.
//! * [`ball`]: Algorithm 29 (SampleInBall): its byte steps on the positions of c, and c's
//!   coefficients from its masks.
//! * [`pack`]: Algorithms 16 to 19 (SimpleBitPack, BitPack, SimpleBitUnpack, BitUnpack).
//!
//! Every kernel is a `#[target_feature]` function; the safe [`Ops`] methods below call them
//! in `unsafe` blocks, which is sound because [`Avx512`] is only named by `dispatch!` after
//! `pqlab_backend` detected every feature listed above on this CPU. Each memory access inside
//! the kernels stays within the slice or array it was derived from (see the `SAFETY` comment
//! at each access). No kernel branches on, or indexes memory by, a secret coefficient.
#![allow(unsafe_code)]

use core::arch::x86_64::{__m512i, _mm512_loadu_si512, _mm512_storeu_si512};

use pqlab_backend::Backend;

use super::{Coeffs, Ops};
use crate::ball::{BallMasks, BallState};

mod ball;
mod ntt;
mod pack;
mod rounding;
mod sample;

/// The AVX-512 kernels. Only instantiated by `dispatch!` after `pqlab_backend` found AVX-512
/// (F, BW, VL, DQ) available.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Avx512;

/// Loads coefficients 16 i .. 16 i + 15 of `a` (i < 16; the slice index checks it, and the
/// check folds away for the constant indices of the unrolled kernels).
#[inline]
#[target_feature(enable = "avx512f")]
fn load(a: &Coeffs, i: usize) -> __m512i {
    let chunk = &a[16 * i..16 * i + 16];
    // SAFETY: `chunk` is 16 readable i32 (64 bytes); the load has no alignment requirement.
    unsafe { _mm512_loadu_si512(chunk.as_ptr().cast()) }
}

/// Stores `v` over coefficients 16 i .. 16 i + 15 of `a` (i < 16, checked as in [`load`]).
#[inline]
#[target_feature(enable = "avx512f")]
fn store(a: &mut Coeffs, i: usize, v: __m512i) {
    let chunk = &mut a[16 * i..16 * i + 16];
    // SAFETY: `chunk` is 16 writable i32 (64 bytes); the store has no alignment requirement.
    unsafe { _mm512_storeu_si512(chunk.as_mut_ptr().cast(), v) }
}

/// Loads 16 lanes of a constant table row.
#[inline]
#[target_feature(enable = "avx512f")]
fn load_row(r: &[i32; 16]) -> __m512i {
    // SAFETY: `r` is 16 readable i32 (64 bytes); the load has no alignment requirement.
    unsafe { _mm512_loadu_si512(r.as_ptr().cast()) }
}

impl Ops for Avx512 {
    const BACKEND: Backend = Backend::Avx512;

    fn ball_bytes(st: &mut BallState, bytes: &[u8]) {
        // SAFETY: `Avx512` is only instantiated after AVX-512F and BW were detected; the
        // kernel reads and writes the 64 bytes of `st.pos`.
        unsafe { ball::ball_bytes(st, bytes) }
    }

    fn ball_finish(st: &mut BallState) {
        // SAFETY: `Avx512` is only instantiated after AVX-512 and AVX2 were detected; the AVX2
        // kernel (256-bit masks) is the right width for this step, on the positions that
        // `ball_bytes` kept in the same form.
        unsafe { super::avx2::ball::ball_finish(st) }
    }

    fn ball_poly(c: &BallMasks, out: &mut Coeffs) {
        // SAFETY: `Avx512` is only instantiated after AVX-512F was detected; the kernel writes
        // the 256 coefficients of `out` through 16 sixteen-lane vectors.
        unsafe { ball::ball_poly(c, out) }
    }

    fn ntt(a: &mut Coeffs) {
        // SAFETY (this and every call below): `Avx512` is only instantiated by `dispatch!`
        // after `pqlab_backend` detected AVX-512F/BW/VL/DQ, AVX2, BMI2 and POPCNT, the
        // features the kernels are compiled for; their memory accesses stay within their
        // arguments (see each kernel).
        unsafe { ntt::ntt(a) }
    }

    fn inv_ntt_to_mont(a: &mut Coeffs) {
        // SAFETY: as in `ntt`: the CPU features were detected before `Avx512` was named.
        unsafe { ntt::inv_ntt_to_mont(a) }
    }

    fn pointwise(c: &mut Coeffs, a: &Coeffs, b: &Coeffs) {
        // SAFETY: as in `ntt`: the CPU features were detected before `Avx512` was named.
        unsafe { ntt::pointwise(c, a, b) }
    }

    fn inner_product(out: &mut Coeffs, a: &[&Coeffs], b: &[&Coeffs]) {
        // SAFETY: as in `ntt`: the CPU features were detected before `Avx512` was named.
        unsafe { ntt::inner_product(out, a, b) }
    }

    fn add_short_centered(a: &mut Coeffs, s: &[i16; 256], subtract: bool, bound: i32) -> bool {
        // SAFETY: as in `ntt`: the CPU features were detected before `Avx512` was named.
        unsafe { ntt::add_short_centered(a, s, subtract, bound) }
    }

    fn reduce32(a: &mut Coeffs) {
        // SAFETY: as in `ntt`: the CPU features were detected before `Avx512` was named.
        unsafe { ntt::reduce32(a) }
    }

    fn caddq(a: &mut Coeffs) {
        // SAFETY: as in `ntt`: the CPU features were detected before `Avx512` was named.
        unsafe { ntt::caddq(a) }
    }

    fn rej_uniform(buf: &[u8], out: &mut [i32]) -> usize {
        // SAFETY: as in `ntt`; the kernel reads only `buf` and writes only `out`.
        unsafe { sample::rej_uniform(buf, out) }
    }

    fn rej_eta(eta: u32, buf: &[u8], out: &mut [i32]) -> usize {
        // SAFETY: as in `ntt`; the kernels read only `buf` and write only `out`.
        unsafe {
            if eta == 2 {
                sample::rej_eta::<2>(buf, out)
            } else {
                sample::rej_eta::<4>(buf, out)
            }
        }
    }

    fn power2round(t: &Coeffs, t1: &mut Coeffs, t0: &mut Coeffs) {
        // SAFETY: as in `ntt`: the CPU features were detected before `Avx512` was named.
        unsafe { rounding::power2round(t, t1, t0) }
    }

    fn decompose(gamma2: i32, w: &mut Coeffs, w1: &mut Coeffs) {
        // SAFETY: as in `ntt`: the CPU features were detected before `Avx512` was named.
        unsafe {
            if gamma2 == rounding::G88 {
                rounding::decompose::<{ rounding::G88 }>(w, w1);
            } else {
                rounding::decompose::<{ rounding::G32 }>(w, w1);
            }
        }
    }

    fn make_hint(gamma2: i32, r0: &Coeffs, r1: &Coeffs, h: &mut [u64; 4]) -> usize {
        // SAFETY: as in `ntt`: the CPU features were detected before `Avx512` was named.
        unsafe { rounding::make_hint(gamma2, r0, r1, h) }
    }

    fn use_hint(gamma2: i32, h: &Coeffs, w: &mut Coeffs) {
        // SAFETY: as in `ntt`: the CPU features were detected before `Avx512` was named.
        unsafe {
            if gamma2 == rounding::G88 {
                rounding::use_hint::<{ rounding::G88 }>(h, w);
            } else {
                rounding::use_hint::<{ rounding::G32 }>(h, w);
            }
        }
    }

    fn norm_exceeds(a: &Coeffs, bound: i32) -> bool {
        // SAFETY: as in `ntt`: the CPU features were detected before `Avx512` was named.
        unsafe { rounding::norm_exceeds(a, bound) }
    }

    fn simple_bit_pack(a: &Coeffs, bits: usize, out: &mut [u8]) {
        // SAFETY: as in `ntt`; the kernel writes only within `out`.
        unsafe { pack::bit_pack(a, bits, None, out) }
    }

    fn simple_bit_unpack(v: &[u8], bits: usize, a: &mut Coeffs) {
        // SAFETY: as in `ntt`; the kernel reads only within `v`.
        unsafe { pack::bit_unpack(v, bits, None, a) }
    }

    fn bit_pack(a: &Coeffs, bits: usize, b: i32, out: &mut [u8]) {
        // SAFETY: as in `ntt`; the kernel writes only within `out`.
        unsafe { pack::bit_pack(a, bits, Some(b), out) }
    }

    fn bit_unpack(v: &[u8], bits: usize, b: i32, a: &mut Coeffs) {
        // SAFETY: as in `ntt`; the kernel reads only within `v`.
        unsafe { pack::bit_unpack(v, bits, Some(b), a) }
    }
}
