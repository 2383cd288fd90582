//! The AVX2 back end of ML-DSA (with BMI2 and POPCNT, as `pqlab_backend` detects them): every
//! kernel of [`Ops`] on 256-bit vectors of eight `i32` coefficients.
//!
//! * [`ntt`]: the NTT and its inverse (FIPS 204, Algorithms 41 and 42) in the standard's
//!   coefficient order, MultiplyNTT (Algorithm 45), the inner products of MatrixVectorNTT
//!   (Algorithm 48) and the reductions.
//! * [`sample`]: the coefficient loops of RejNTTPoly and RejBoundedPoly (Algorithms 30 and 31).
//! * [`rounding`]: Power2Round, Decompose, MakeHint, UseHint (Algorithms 35 to 40) and the
//!   infinity-norm check.
//! * [`pack`]: SimpleBitPack, BitPack and their inverses (Algorithms 16 to 19).
//! * [`ball`]: SampleInBall in constant time (Algorithm 29): its byte steps (lines 6 to 10) on
//!   the positions of c, then c's masks and coefficients.
//!
//! The kernels are `unsafe fn`s compiled with `#[target_feature(enable = "avx2,bmi2,popcnt")]`.
//! The safe [`Ops`] methods below call them only because the type [`Avx2`] is instantiated by
//! `dispatch!` after `pqlab_backend` found AVX2, BMI2 and POPCNT available; each kernel keeps
//! its memory accesses inside the arrays and slices it is given (the lengths it needs are
//! checked here, anything outside the contract falling back to the portable code).
//!
//! Nothing branches on, or indexes memory by, a secret coefficient. The only table look-ups
//! are the compaction steps of the rejection samplers, indexed by the acceptance mask (public
//! for RejNTTPoly; for RejBoundedPoly, which half-bytes are rejected, as the standard's loop
//! reveals anyway).
#![allow(unsafe_code)]

use pqlab_backend::Backend;

use super::portable::Portable;
use super::{Coeffs, Ops};
use crate::ball::{BallMasks, BallState};

pub(in crate::backend) mod ball;
mod ntt;
mod pack;
mod rounding;
mod sample;

/// The Avx2 kernels. Only instantiated by `dispatch!` after `pqlab_backend` found AVX2, BMI2
/// and POPCNT available.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Avx2;

impl Ops for Avx2 {
    const BACKEND: Backend = Backend::Avx2;

    fn ball_bytes(st: &mut BallState, bytes: &[u8]) {
        // SAFETY: `Avx2` is only instantiated after AVX2 was detected (module documentation).
        unsafe { ball::ball_bytes(st, bytes) }
    }

    fn ball_finish(st: &mut BallState) {
        // SAFETY: `Avx2` is only instantiated after AVX2 was detected (module documentation).
        unsafe { ball::ball_finish(st) }
    }

    fn ball_poly(c: &BallMasks, out: &mut Coeffs) {
        // SAFETY: `Avx2` is only instantiated after AVX2 was detected (module documentation).
        unsafe { ball::ball_poly(c, out) }
    }

    fn ntt(a: &mut Coeffs) {
        let _k = pqlab_profile::enter(pqlab_profile::Kernel::Ntt);
        // SAFETY: `Avx2` is only instantiated after AVX2, BMI2 and POPCNT were detected; the
        // kernel reads and writes the 256 coefficients of `a` through 32 eight-lane vectors.
        unsafe { ntt::ntt(a) }
    }

    fn inv_ntt_to_mont(a: &mut Coeffs) {
        let _k = pqlab_profile::enter(pqlab_profile::Kernel::InvNtt);
        // SAFETY: the features were detected (see `Avx2`); accesses stay inside `a`.
        unsafe { ntt::inv_ntt_to_mont(a) }
    }

    fn pointwise(c: &mut Coeffs, a: &Coeffs, b: &Coeffs) {
        // SAFETY: the features were detected (see `Avx2`); accesses stay inside the arrays.
        unsafe { ntt::pointwise(c, a, b) }
    }

    fn inner_product(out: &mut Coeffs, a: &[&Coeffs], b: &[&Coeffs]) {
        if a.len() > 7 || a.len() != b.len() {
            // Outside the contract (the scheme never calls this): the portable code.
            Portable::inner_product(out, a, b);
            return;
        }
        // SAFETY: the features were detected (see `Avx2`); every access is one eight-lane
        // vector of `out` or of one of the 256-coefficient arrays of `a` and `b`.
        unsafe { ntt::inner_product(out, a, b) }
    }

    fn reduce32(a: &mut Coeffs) {
        // SAFETY: the features were detected (see `Avx2`); accesses stay inside `a`.
        unsafe { ntt::reduce32(a) }
    }

    fn caddq(a: &mut Coeffs) {
        // SAFETY: the features were detected (see `Avx2`); accesses stay inside `a`.
        unsafe { ntt::caddq(a) }
    }

    fn add_short_centered(a: &mut Coeffs, s: &[i16; 256], subtract: bool, bound: i32) -> bool {
        // SAFETY: the features were detected (see `Avx2`); accesses stay inside `a` and `s`.
        unsafe { ntt::add_short_centered(a, s, subtract, bound) }
    }

    fn rej_uniform(buf: &[u8], out: &mut [i32]) -> usize {
        // SAFETY: the features were detected (see `Avx2`); the kernel reads `buf` only in
        // 24-byte groups that lie inside it and writes eight lanes to `out` only where eight
        // remain (a local buffer otherwise), finishing with the portable code.
        unsafe { sample::rej_uniform(buf, out) }
    }

    fn rej_eta(eta: u32, buf: &[u8], out: &mut [i32]) -> usize {
        if eta != 2 && eta != 4 {
            return Portable::rej_eta(eta, buf, out);
        }
        // SAFETY: the features were detected (see `Avx2`); the kernel reads `buf` only in
        // 8-byte groups that lie inside it and writes eight lanes to `out` only where eight
        // remain (a local buffer otherwise), finishing with the portable code.
        unsafe { sample::rej_eta(eta, buf, out) }
    }

    fn power2round(t: &Coeffs, t1: &mut Coeffs, t0: &mut Coeffs) {
        // SAFETY: the features were detected (see `Avx2`); accesses stay inside the arrays.
        unsafe { rounding::power2round(t, t1, t0) }
    }

    fn decompose(gamma2: i32, w: &mut Coeffs, w1: &mut Coeffs) {
        // SAFETY: the features were detected (see `Avx2`); accesses stay inside the arrays.
        unsafe { rounding::decompose(gamma2, w, w1) }
    }

    fn make_hint(gamma2: i32, r0: &Coeffs, r1: &Coeffs, h: &mut [u64; 4]) -> usize {
        // SAFETY: the features were detected (see `Avx2`); accesses stay inside the arrays.
        unsafe { rounding::make_hint(gamma2, r0, r1, h) }
    }

    fn use_hint(gamma2: i32, h: &Coeffs, w: &mut Coeffs) {
        // SAFETY: the features were detected (see `Avx2`); accesses stay inside the arrays.
        unsafe { rounding::use_hint(gamma2, h, w) }
    }

    fn norm_exceeds(a: &Coeffs, bound: i32) -> bool {
        // SAFETY: the features were detected (see `Avx2`); accesses stay inside `a`.
        unsafe { rounding::norm_exceeds(a, bound) }
    }

    fn simple_bit_pack(a: &Coeffs, bits: usize, out: &mut [u8]) {
        if !pack_fits(bits, out.len()) {
            Portable::simple_bit_pack(a, bits, out);
            return;
        }
        let _k = pqlab_profile::enter(pqlab_profile::Kernel::Encode);
        // SAFETY: the features were detected (see `Avx2`); `out` holds at least 32 bits bytes
        // (checked) and the kernel writes only inside its first 32 bits.
        unsafe { pack_any::<false>(a, bits, 0, out) }
    }

    fn simple_bit_unpack(v: &[u8], bits: usize, a: &mut Coeffs) {
        if !pack_fits(bits, v.len()) {
            Portable::simple_bit_unpack(v, bits, a);
            return;
        }
        let _k = pqlab_profile::enter(pqlab_profile::Kernel::Encode);
        // SAFETY: the features were detected (see `Avx2`); `v` holds at least 32 bits bytes
        // (checked) and the kernel reads only inside its first 32 bits.
        unsafe { unpack_any::<false>(v, bits, 0, a) }
    }

    fn bit_pack(a: &Coeffs, bits: usize, b: i32, out: &mut [u8]) {
        if !pack_fits(bits, out.len()) {
            Portable::bit_pack(a, bits, b, out);
            return;
        }
        let _k = pqlab_profile::enter(pqlab_profile::Kernel::Encode);
        // SAFETY: as in `simple_bit_pack`.
        unsafe { pack_any::<true>(a, bits, b, out) }
    }

    fn bit_unpack(v: &[u8], bits: usize, b: i32, a: &mut Coeffs) {
        if !pack_fits(bits, v.len()) {
            Portable::bit_unpack(v, bits, b, a);
            return;
        }
        let _k = pqlab_profile::enter(pqlab_profile::Kernel::Encode);
        // SAFETY: as in `simple_bit_unpack`.
        unsafe { unpack_any::<true>(v, bits, b, a) }
    }
}

/// Whether `bits` is one of the widths of the standard and `len` holds 32 bits bytes.
fn pack_fits(bits: usize, len: usize) -> bool {
    matches!(bits, 3 | 4 | 6 | 10 | 13 | 18 | 20) && len >= 32 * bits
}

/// [`pack::pack`] for a width checked by [`pack_fits`].
///
/// # Safety
/// AVX2, BMI2 and POPCNT are available and `out` holds at least 32 bits bytes.
#[target_feature(enable = "avx2,bmi2,popcnt")]
unsafe fn pack_any<const NEG: bool>(a: &Coeffs, bits: usize, b: i32, out: &mut [u8]) {
    // SAFETY: the caller's guarantees, passed on.
    unsafe {
        match bits {
            3 => pack::pack::<3, NEG>(a, b, out),
            4 => pack::pack::<4, NEG>(a, b, out),
            6 => pack::pack::<6, NEG>(a, b, out),
            10 => pack::pack::<10, NEG>(a, b, out),
            13 => pack::pack::<13, NEG>(a, b, out),
            18 => pack::pack::<18, NEG>(a, b, out),
            _ => pack::pack::<20, NEG>(a, b, out),
        }
    }
}

/// [`pack::unpack`] for a width checked by [`pack_fits`].
///
/// # Safety
/// AVX2, BMI2 and POPCNT are available and `v` holds at least 32 bits bytes.
#[target_feature(enable = "avx2,bmi2,popcnt")]
unsafe fn unpack_any<const NEG: bool>(v: &[u8], bits: usize, b: i32, a: &mut Coeffs) {
    // SAFETY: the caller's guarantees, passed on.
    unsafe {
        match bits {
            3 => pack::unpack::<3, NEG>(v, b, a),
            4 => pack::unpack::<4, NEG>(v, b, a),
            6 => pack::unpack::<6, NEG>(v, b, a),
            10 => pack::unpack::<10, NEG>(v, b, a),
            13 => pack::unpack::<13, NEG>(v, b, a),
            18 => pack::unpack::<18, NEG>(v, b, a),
            _ => pack::unpack::<20, NEG>(v, b, a),
        }
    }
}
