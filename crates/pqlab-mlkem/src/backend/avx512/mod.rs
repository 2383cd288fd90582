//! The AVX-512 back end of ML-KEM: every kernel of [`Ops`] on 512-bit vectors of 32 `i16`
//! coefficients (a polynomial is eight `zmm` registers), with AVX-512 F, BW, VL and DQ only (no
//! VBMI / VBMI2: byte permutes are `vpshufb` within 128-bit lanes plus `vpermd` / `vpermt2d`
//! across them, and the rejection sampler compacts with `vpcompressd`).
//!
//! * [`ntt`]: FIPS 203, Algorithms 9 and 10 (signed Montgomery butterflies, the layers of
//!   distance below 32 in registers after in-register transposes), Algorithms 11 and 12 (the
//!   base-case products, accumulated in 32-bit lanes with `vpmaddwd`), and the coefficient-wise
//!   conversions `to_mont` and `freeze`.
//! * [`sample`]: Algorithm 7's rejection step and Algorithm 8 (SamplePolyCBD, eta 2 and 3).
//! * [`encode`]: Algorithms 5 and 6 (ByteEncode / ByteDecode) fused with Compress / Decompress
//!   (equations 4.7 and 4.8).
//!
//! Every kernel is an `unsafe fn` compiled with `#[target_feature(enable = "avx512f,avx512bw,
//! avx512vl,avx512dq")]`; the safe methods of [`Ops`] below call them because [`Avx512`] is only
//! instantiated by `dispatch!` after `pqlab_backend` detected those four features (see
//! `pqlab_backend::Backend::is_available`). Inputs whose length breaks a kernel's contract go to
//! the portable code instead, so no kernel ever sees a slice shorter than it reads or writes.
#![allow(unsafe_code)]

mod encode;
mod ntt;
mod sample;

use core::arch::x86_64::{__m512i, _mm512_loadu_epi8, _mm512_loadu_epi16, _mm512_loadu_epi32};

use pqlab_backend::Backend;

use super::portable::Portable;
use super::{Coeffs, Ops};

/// The AVX-512 kernels. Only instantiated by `dispatch!` after `pqlab_backend` found AVX-512
/// F, BW, VL and DQ available.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Avx512;

impl Ops for Avx512 {
    const BACKEND: Backend = Backend::Avx512;

    fn ntt(f: &mut Coeffs) {
        // SAFETY: `Avx512` exists only after the run-time check of avx512f/bw/vl/dq (module
        // doc); the kernel reads and writes the 256 coefficients of `f` only.
        unsafe { ntt::ntt(f) }
    }

    fn inv_ntt_to_mont(f: &mut Coeffs) {
        // SAFETY: as in `ntt`; in-bounds accesses to `f` only.
        unsafe { ntt::inv_ntt_to_mont(f) }
    }

    fn inner_product_ntt(out: &mut Coeffs, a: &[&Coeffs], b: &[&Coeffs]) {
        // SAFETY: as in `ntt`; the kernel reads whole `[i16; 256]` arrays behind `a` and `b`
        // (zipped, so never past the shorter slice) and writes `out`.
        unsafe { ntt::inner_product(out, a, b) }
    }

    fn to_mont(f: &mut Coeffs) {
        // SAFETY: as in `ntt`.
        unsafe { ntt::to_mont(f) }
    }

    fn freeze(f: &mut Coeffs) {
        // SAFETY: as in `ntt`.
        unsafe { ntt::freeze(f) }
    }

    fn rej_uniform(buf: &[u8], out: &mut [i16]) -> usize {
        if pqlab_backend::has_avx512_vbmi2() {
            // SAFETY: as in `ntt`, and the CPU has VBMI2 (checked above); the kernel's loads
            // are masked to `buf.len()` and its stores to `out.len()`.
            unsafe { sample::rej_uniform_vbmi2(buf, out) }
        } else {
            // SAFETY: as in `ntt`; the kernel's loads are masked to `buf.len()` and its stores
            // to `out.len()` (see `sample::rej_uniform`).
            unsafe { sample::rej_uniform(buf, out) }
        }
    }

    fn sample_poly_cbd(eta: usize, buf: &[u8], f: &mut Coeffs) {
        if eta == 3 && buf.len() >= 192 {
            // SAFETY: as in `ntt`; `cbd3` reads the first 192 bytes of `buf`, checked above.
            unsafe { sample::cbd3(buf, f) }
        } else if eta != 3 && buf.len() >= 128 {
            // SAFETY: as in `ntt`; `cbd2` reads the first 128 bytes of `buf`, checked above.
            unsafe { sample::cbd2(buf, f) }
        } else {
            Portable::sample_poly_cbd(eta, buf, f);
        }
    }

    fn compress_encode(d: u32, f: &Coeffs, out: &mut [u8]) {
        if out.len() != 32 * d as usize {
            return Portable::compress_encode(d, f, out);
        }
        // SAFETY: as in `ntt`; `out` holds exactly 32 d bytes (checked above), which is what
        // the kernel for d writes.
        unsafe {
            match d {
                1 => encode::compress_encode1(f, out),
                4 => encode::compress_encode::<4>(f, out),
                5 => encode::compress_encode::<5>(f, out),
                10 => encode::compress_encode::<10>(f, out),
                11 => encode::compress_encode::<11>(f, out),
                _ => Portable::compress_encode(d, f, out),
            }
        }
    }

    fn decode_decompress(d: u32, b: &[u8], f: &mut Coeffs) {
        if b.len() != 32 * d as usize {
            return Portable::decode_decompress(d, b, f);
        }
        // SAFETY: as in `ntt`; `b` holds exactly 32 d bytes (checked above), which is what the
        // kernel for d reads.
        unsafe {
            match d {
                1 => encode::decode_decompress1(b, f),
                4 => encode::decode_decompress::<4>(b, f),
                5 => encode::decode_decompress::<5>(b, f),
                10 => encode::decode_decompress::<10>(b, f),
                11 => encode::decode_decompress::<11>(b, f),
                _ => Portable::decode_decompress(d, b, f),
            }
        }
    }

    fn byte_encode12(f: &Coeffs, out: &mut [u8]) {
        if out.len() != 384 {
            return Portable::byte_encode12(f, out);
        }
        // SAFETY: as in `ntt`; `out` holds the 384 bytes written (checked above).
        unsafe { encode::byte_encode12(f, out) }
    }

    fn byte_decode12(b: &[u8], f: &mut Coeffs) {
        if b.len() != 384 {
            return Portable::byte_decode12(b, f);
        }
        // SAFETY: as in `ntt`; `b` holds the 384 bytes read (checked above).
        unsafe { encode::byte_decode12(b, f) }
    }

    fn byte_decode12_checked(b: &[u8], f: &mut Coeffs) -> bool {
        if b.len() != 384 {
            return Portable::byte_decode12_checked(b, f);
        }
        // SAFETY: as in `ntt`; `b` holds the 384 bytes read (checked above).
        unsafe { encode::byte_decode12_checked(b, f) }
    }
}

/// A vector of 32 `i16` from a table.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq")]
fn ld16(t: &[i16; 32]) -> __m512i {
    // SAFETY: `t` is 64 readable bytes; the load is unaligned.
    unsafe { _mm512_loadu_epi16(t.as_ptr()) }
}

/// A vector of 16 `i32` from a table.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq")]
fn ld32(t: &[i32; 16]) -> __m512i {
    // SAFETY: `t` is 64 readable bytes; the load is unaligned.
    unsafe { _mm512_loadu_epi32(t.as_ptr()) }
}

/// A vector of 64 bytes from a table.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq")]
fn ld8(t: &[i8; 64]) -> __m512i {
    // SAFETY: `t` is 64 readable bytes; the load is unaligned.
    unsafe { _mm512_loadu_epi8(t.as_ptr()) }
}

/// A 16-byte `vpshufb` control repeated in the four 128-bit lanes (compile time).
const fn bytes_x4(v: [i8; 16]) -> [i8; 64] {
    let mut t = [0i8; 64];
    let mut i = 0;
    while i < 64 {
        t[i] = v[i % 16];
        i += 1;
    }
    t
}

/// Both AVX-512 rejection samplers on the same input, for the twin test (the back end runs only
/// the one the CPU picks): the one without VBMI2 into `plain`, and the VBMI2 one into `vbmi2`
/// when the CPU has it. `None` when the CPU has no AVX-512 back end.
#[cfg(test)]
pub(super) fn rej_uniform_twins(
    buf: &[u8],
    plain: &mut [i16],
    vbmi2: &mut [i16],
) -> Option<(usize, Option<usize>)> {
    if !Backend::Avx512.is_available() {
        return None;
    }
    // SAFETY: the CPU has AVX-512 F, BW, VL and DQ (the back end is available).
    let a = unsafe { sample::rej_uniform(buf, plain) };
    let b = pqlab_backend::has_avx512_vbmi2().then(|| {
        // SAFETY: as above, and the CPU has VBMI2 (checked).
        unsafe { sample::rej_uniform_vbmi2(buf, vbmi2) }
    });
    Some((a, b))
}
