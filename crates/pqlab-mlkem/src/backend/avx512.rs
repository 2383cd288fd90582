//! The Avx512 back end of ML-KEM. Kernels not written for Avx512 yet fall back to the portable
//! code (see the list in the note of each method).
#![allow(unsafe_code)]

use pqlab_backend::Backend;

use super::portable::Portable;
use super::{Coeffs, Ops};

/// The Avx512 kernels. Only instantiated by `dispatch!` after `pqlab_backend` found Avx512
/// available.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Avx512;

impl Ops for Avx512 {
    const BACKEND: Backend = Backend::Avx512;

    fn ntt(f: &mut Coeffs) {
        Portable::ntt(f);
    }

    fn inv_ntt_to_mont(f: &mut Coeffs) {
        Portable::inv_ntt_to_mont(f);
    }

    fn inner_product_ntt(out: &mut Coeffs, a: &[&Coeffs], b: &[&Coeffs]) {
        Portable::inner_product_ntt(out, a, b);
    }

    fn to_mont(f: &mut Coeffs) {
        Portable::to_mont(f);
    }

    fn freeze(f: &mut Coeffs) {
        Portable::freeze(f);
    }

    fn rej_uniform(buf: &[u8], out: &mut [i16]) -> usize {
        Portable::rej_uniform(buf, out)
    }

    fn sample_poly_cbd(eta: usize, buf: &[u8], f: &mut Coeffs) {
        Portable::sample_poly_cbd(eta, buf, f);
    }

    fn compress_encode(d: u32, f: &Coeffs, out: &mut [u8]) {
        Portable::compress_encode(d, f, out);
    }

    fn decode_decompress(d: u32, b: &[u8], f: &mut Coeffs) {
        Portable::decode_decompress(d, b, f);
    }

    fn byte_encode12(f: &Coeffs, out: &mut [u8]) {
        Portable::byte_encode12(f, out);
    }

    fn byte_decode12(b: &[u8], f: &mut Coeffs) {
        Portable::byte_decode12(b, f);
    }

    fn byte_decode12_checked(b: &[u8], f: &mut Coeffs) -> bool {
        Portable::byte_decode12_checked(b, f)
    }
}
