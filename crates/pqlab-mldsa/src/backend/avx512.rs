//! The Avx512 back end of ML-DSA. Kernels not written for Avx512 yet fall back to the portable
//! code.
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

    fn ntt(a: &mut Coeffs) {
        Portable::ntt(a);
    }

    fn inv_ntt_to_mont(a: &mut Coeffs) {
        Portable::inv_ntt_to_mont(a);
    }

    fn pointwise(c: &mut Coeffs, a: &Coeffs, b: &Coeffs) {
        Portable::pointwise(c, a, b);
    }

    fn inner_product(out: &mut Coeffs, a: &[&Coeffs], b: &[&Coeffs]) {
        Portable::inner_product(out, a, b);
    }

    fn reduce32(a: &mut Coeffs) {
        Portable::reduce32(a);
    }

    fn caddq(a: &mut Coeffs) {
        Portable::caddq(a);
    }

    fn rej_uniform(buf: &[u8], out: &mut [i32]) -> usize {
        Portable::rej_uniform(buf, out)
    }

    fn rej_eta(eta: u32, buf: &[u8], out: &mut [i32]) -> usize {
        Portable::rej_eta(eta, buf, out)
    }

    fn power2round(t: &Coeffs, t1: &mut Coeffs, t0: &mut Coeffs) {
        Portable::power2round(t, t1, t0);
    }

    fn decompose(gamma2: i32, w: &Coeffs, w1: &mut Coeffs, w0: &mut Coeffs) {
        Portable::decompose(gamma2, w, w1, w0);
    }

    fn make_hint(gamma2: i32, r0: &Coeffs, r1: &Coeffs, h: &mut Coeffs) -> usize {
        Portable::make_hint(gamma2, r0, r1, h)
    }

    fn use_hint(gamma2: i32, h: &Coeffs, w: &mut Coeffs) {
        Portable::use_hint(gamma2, h, w);
    }

    fn norm_exceeds(a: &Coeffs, bound: i32) -> bool {
        Portable::norm_exceeds(a, bound)
    }

    fn simple_bit_pack(a: &Coeffs, bits: usize, out: &mut [u8]) {
        Portable::simple_bit_pack(a, bits, out);
    }

    fn simple_bit_unpack(v: &[u8], bits: usize, a: &mut Coeffs) {
        Portable::simple_bit_unpack(v, bits, a);
    }

    fn bit_pack(a: &Coeffs, bits: usize, b: i32, out: &mut [u8]) {
        Portable::bit_pack(a, bits, b, out);
    }

    fn bit_unpack(v: &[u8], bits: usize, b: i32, a: &mut Coeffs) {
        Portable::bit_unpack(v, bits, b, a);
    }
}
