//! The portable back end of ML-DSA: plain Rust for every target, the reference the SIMD back
//! ends are tested against. The arithmetic is `pqlab_arith::mldsa` (Montgomery reduction,
//! always: the reduction study's other strategies are not reachable from here).

use pqlab_arith::mldsa as arith;
use pqlab_backend::Backend;

use super::{Coeffs, Ops};
use crate::encode::{bit_pack, bit_unpack, simple_bit_pack, simple_bit_unpack};
use crate::params::Q;
use crate::rounding::{decompose, make_hint, power2round, use_hint};

/// The portable kernels.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Portable;

const G88: i32 = (Q - 1) / 88;
const G32: i32 = (Q - 1) / 32;

impl Ops for Portable {
    const BACKEND: Backend = Backend::Portable;

    fn ntt(a: &mut Coeffs) {
        arith::ntt(a);
    }

    fn inv_ntt_to_mont(a: &mut Coeffs) {
        arith::inv_ntt_to_mont(a);
    }

    fn pointwise(c: &mut Coeffs, a: &Coeffs, b: &Coeffs) {
        arith::pointwise_montgomery(c, a, b);
    }

    fn inner_product(out: &mut Coeffs, a: &[&Coeffs], b: &[&Coeffs]) {
        *out = [0; 256];
        for (x, y) in a.iter().zip(b) {
            arith::pointwise_acc_montgomery(out, x, y);
        }
    }

    fn reduce32(a: &mut Coeffs) {
        for x in a.iter_mut() {
            *x = arith::reduce32(*x);
        }
    }

    fn caddq(a: &mut Coeffs) {
        for x in a.iter_mut() {
            *x = arith::caddq(*x);
        }
    }

    fn add_short_centered(a: &mut Coeffs, s: &[i16; 256], subtract: bool, bound: i32) -> bool {
        for (x, &v) in a.iter_mut().zip(s) {
            let v = i32::from(pqlab_mlkem::ring::centered(v));
            *x += if subtract { -v } else { v };
        }
        Self::norm_exceeds(a, bound)
    }

    fn rej_uniform(buf: &[u8], out: &mut [i32]) -> usize {
        let mut j = 0;
        for c in buf.chunks_exact(3) {
            if j == out.len() {
                break;
            }
            // FIPS 204, Algorithm 14: CoeffFromThreeBytes.
            let z = i32::from(c[0]) | (i32::from(c[1]) << 8) | (i32::from(c[2] & 0x7f) << 16);
            if z < Q {
                out[j] = z;
                j += 1;
            }
        }
        j
    }

    fn rej_eta(eta: u32, buf: &[u8], out: &mut [i32]) -> usize {
        let mut j = 0;
        for &z in buf {
            for b in [z & 15, z >> 4] {
                if j < out.len() {
                    // FIPS 204, Algorithm 15: CoeffFromHalfByte; mod 5 by multiply-and-shift.
                    let b = i32::from(b);
                    if eta == 2 && b < 15 {
                        out[j] = 2 - (b - 5 * ((b * 205) >> 10));
                        j += 1;
                    } else if eta == 4 && b < 9 {
                        out[j] = 4 - b;
                        j += 1;
                    }
                }
            }
        }
        j
    }

    fn power2round(t: &Coeffs, t1: &mut Coeffs, t0: &mut Coeffs) {
        for i in 0..256 {
            (t1[i], t0[i]) = power2round(t[i]);
        }
    }

    fn decompose(gamma2: i32, w: &mut Coeffs, w1: &mut Coeffs) {
        for (x, x1) in w.iter_mut().zip(w1.iter_mut()) {
            let r = arith::caddq(*x);
            (*x1, *x) = if gamma2 == G88 {
                decompose::<G88>(r)
            } else {
                decompose::<G32>(r)
            };
        }
    }

    fn make_hint(gamma2: i32, r0: &Coeffs, r1: &Coeffs, h: &mut [u64; 4]) -> usize {
        let mut ones = 0;
        *h = [0; 4];
        for i in 0..256 {
            let bit = if gamma2 == G88 {
                make_hint::<G88>(r0[i], r1[i])
            } else {
                make_hint::<G32>(r0[i], r1[i])
            };
            h[i / 64] |= u64::from(bit as u32 & 1) << (i % 64);
            ones += bit as usize;
        }
        ones
    }

    fn use_hint(gamma2: i32, h: &Coeffs, w: &mut Coeffs) {
        for i in 0..256 {
            let hint = h[i] != 0;
            w[i] = if gamma2 == G88 {
                use_hint::<G88>(hint, w[i])
            } else {
                use_hint::<G32>(hint, w[i])
            };
        }
    }

    fn norm_exceeds(a: &Coeffs, bound: i32) -> bool {
        let mut over = 0;
        for &x in a.iter() {
            // |x| without a branch on its sign; (bound - 1 - |x|) is negative exactly when
            // |x| >= bound.
            let abs = x - ((x >> 31) & (2 * x));
            over |= (bound - 1 - abs) >> 31;
        }
        over != 0
    }

    fn simple_bit_pack(a: &Coeffs, bits: usize, out: &mut [u8]) {
        simple_bit_pack(a, bits, out);
    }

    fn simple_bit_unpack(v: &[u8], bits: usize, a: &mut Coeffs) {
        simple_bit_unpack(v, bits, a);
    }

    fn bit_pack(a: &Coeffs, bits: usize, b: i32, out: &mut [u8]) {
        bit_pack(a, bits, b, out);
    }

    fn bit_unpack(v: &[u8], bits: usize, b: i32, a: &mut Coeffs) {
        bit_unpack(v, bits, b, a);
    }
}
