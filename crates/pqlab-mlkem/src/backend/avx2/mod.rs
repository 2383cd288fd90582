//! The AVX2 back end of ML-KEM (with BMI2 and POPCNT, as `pqlab_backend` detects them): every
//! kernel of [`Ops`] on 256-bit vectors of sixteen `i16` coefficients.
//!
//! * [`ntt`]: the NTT and its inverse (FIPS 203, Algorithms 9 and 10) in the standard's
//!   coefficient order, the NTT-domain products (Algorithms 11 and 12) and the reductions.
//! * [`sample`]: rejection sampling (Algorithm 7) and the centred binomial distribution
//!   (Algorithm 8).
//! * [`encode`]: compression (equations 4.7 and 4.8) fused with ByteEncode / ByteDecode
//!   (Algorithms 5 and 6).
//!
//! The kernels are `unsafe fn`s compiled with `#[target_feature(enable = "avx2")]` (and BMI2 /
//! POPCNT where used). The safe [`Ops`] methods below call them only because the type [`Avx2`]
//! is instantiated by `dispatch!` after `pqlab_backend` found AVX2, BMI2 and POPCNT available;
//! each kernel keeps its memory accesses inside the slices it is given (the lengths it needs
//! are checked here, a shorter slice falling back to the portable code).
//!
//! Montgomery arithmetic is the signed 16-bit one of the Kyber AVX2 code: a * b * 2^-16 is
//! mulhi(a, b) - mulhi(mullo(a, b q^-1), q), with the twiddles and their q^-1 multiples
//! precomputed at compile time from [`pqlab_arith::mlkem::ZETAS`]. Nothing branches on, or
//! indexes memory by, a secret coefficient; only the rejection sampling (public data) indexes
//! a table by the accepted-candidate mask.
#![allow(unsafe_code)]

use pqlab_backend::Backend;

use super::portable::Portable;
use super::{Coeffs, Ops};

mod encode;
mod ntt;
mod sample;

/// The Avx2 kernels. Only instantiated by `dispatch!` after `pqlab_backend` found AVX2, BMI2
/// and POPCNT available.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Avx2;

/// Whether `d` is one of the compression widths of FIPS 203 (1, 4, 5, 10, 11).
const fn is_compress_d(d: u32) -> bool {
    matches!(d, 1 | 4 | 5 | 10 | 11)
}

impl Ops for Avx2 {
    const BACKEND: Backend = Backend::Avx2;

    fn ntt(f: &mut Coeffs) {
        let _k = pqlab_profile::enter(pqlab_profile::Kernel::Ntt);
        // SAFETY: `Avx2` is only instantiated after AVX2 was detected; the kernel reads and
        // writes the 256 coefficients of `f` through sixteen 16-lane vectors.
        unsafe { ntt::ntt(f) }
    }

    fn inv_ntt_to_mont(f: &mut Coeffs) {
        let _k = pqlab_profile::enter(pqlab_profile::Kernel::InvNtt);
        // SAFETY: AVX2 was detected (see `Avx2`); accesses stay inside `f`.
        unsafe { ntt::inv_ntt_to_mont(f) }
    }

    fn inner_product_ntt(out: &mut Coeffs, a: &[&Coeffs], b: &[&Coeffs]) {
        if a.is_empty() || a.len() > pqlab_arith::mlkem::MAX_ACC_TERMS || a.len() != b.len() {
            // Outside the contract (the scheme never calls this): the portable code.
            Portable::inner_product_ntt(out, a, b);
            return;
        }
        // SAFETY: AVX2 was detected (see `Avx2`); every access is one 16-lane vector of `out`
        // or of one of the 256-coefficient arrays of `a` and `b`, and a.len() == b.len().
        unsafe { ntt::inner_product(out, a, b) }
    }

    fn to_mont(f: &mut Coeffs) {
        // SAFETY: AVX2 was detected (see `Avx2`); accesses stay inside `f`.
        unsafe { ntt::to_mont(f) }
    }

    fn freeze(f: &mut Coeffs) {
        // SAFETY: AVX2 was detected (see `Avx2`); accesses stay inside `f`.
        unsafe { ntt::freeze(f) }
    }

    fn rej_uniform(buf: &[u8], out: &mut [i16]) -> usize {
        // SAFETY: AVX2, BMI2 and POPCNT were detected (see `Avx2`); the kernel reads `buf`
        // only in 24-byte groups that lie inside it and writes eight lanes to `out` only where
        // eight remain, finishing both with scalar code.
        unsafe { sample::rej_uniform(buf, out) }
    }

    fn sample_poly_cbd(eta: usize, buf: &[u8], f: &mut Coeffs) {
        match eta {
            2 if buf.len() >= 128 => {
                // SAFETY: AVX2 was detected (see `Avx2`); the kernel reads the first 128 bytes
                // of `buf` (checked) and writes the 256 coefficients of `f`.
                unsafe { sample::cbd2(buf, f) }
            }
            3 if buf.len() >= 192 => {
                // SAFETY: as above, with the first 192 bytes of `buf` (checked).
                unsafe { sample::cbd3(buf, f) }
            }
            _ => Portable::sample_poly_cbd(eta, buf, f),
        }
    }

    fn compress_encode(d: u32, f: &Coeffs, out: &mut [u8]) {
        if !is_compress_d(d) || out.len() < 32 * d as usize {
            Portable::compress_encode(d, f, out);
            return;
        }
        let _k = pqlab_profile::enter(pqlab_profile::Kernel::Encode);
        // SAFETY: AVX2 was detected (see `Avx2`); `out` holds at least 32 d bytes (checked)
        // and the kernel writes exactly the first 32 d.
        unsafe { encode::compress_encode(d, f, out) }
    }

    fn decode_decompress(d: u32, b: &[u8], f: &mut Coeffs) {
        if !is_compress_d(d) || b.len() < 32 * d as usize {
            Portable::decode_decompress(d, b, f);
            return;
        }
        let _k = pqlab_profile::enter(pqlab_profile::Kernel::Encode);
        // SAFETY: AVX2 was detected (see `Avx2`); `b` holds at least 32 d bytes (checked) and
        // the kernel reads only inside its first 32 d.
        unsafe { encode::decode_decompress(d, b, f) }
    }

    fn byte_encode12(f: &Coeffs, out: &mut [u8]) {
        if out.len() < 384 {
            Portable::byte_encode12(f, out);
            return;
        }
        let _k = pqlab_profile::enter(pqlab_profile::Kernel::Encode);
        // SAFETY: AVX2 was detected (see `Avx2`); `out` holds at least 384 bytes (checked).
        unsafe { encode::byte_encode12(f, out) }
    }

    fn byte_decode12(b: &[u8], f: &mut Coeffs) {
        if b.len() < 384 {
            Portable::byte_decode12(b, f);
            return;
        }
        let _k = pqlab_profile::enter(pqlab_profile::Kernel::Encode);
        // SAFETY: AVX2 was detected (see `Avx2`); `b` holds at least 384 bytes (checked).
        unsafe { encode::byte_decode12::<false>(b, f) };
    }

    fn byte_decode12_checked(b: &[u8], f: &mut Coeffs) -> bool {
        if b.len() < 384 {
            return Portable::byte_decode12_checked(b, f);
        }
        let _k = pqlab_profile::enter(pqlab_profile::Kernel::Encode);
        // SAFETY: AVX2 was detected (see `Avx2`); `b` holds at least 384 bytes (checked).
        unsafe { encode::byte_decode12::<true>(b, f) }
    }
}
