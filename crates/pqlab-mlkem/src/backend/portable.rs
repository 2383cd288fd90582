//! The portable back end of ML-KEM: plain Rust for every target, the reference the SIMD back
//! ends are tested against. The arithmetic is `pqlab_arith::mlkem` (Montgomery reduction,
//! always: the reduction study's other strategies are not reachable from here).

use pqlab_arith::mlkem as arith;
use pqlab_backend::Backend;

use super::{Coeffs, Ops};
use crate::compress::{compress_poly, decompress_poly};
use crate::encode::{byte_decode, byte_decode12, byte_decode12_checked, byte_encode};

/// The portable kernels.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Portable;

impl Ops for Portable {
    const BACKEND: Backend = Backend::Portable;

    fn ntt(f: &mut Coeffs) {
        arith::ntt(f);
    }

    fn inv_ntt_to_mont(f: &mut Coeffs) {
        arith::inv_ntt_to_mont(f);
    }

    fn inner_product_ntt(out: &mut Coeffs, a: &[&Coeffs], b: &[&Coeffs]) {
        let mut acc = [0i32; 256];
        for (x, y) in a.iter().zip(b) {
            arith::multiply_ntts_acc(&mut acc, x, y);
        }
        arith::reduce_acc(out, &acc);
        pqlab_arith::wipe::wipe(&mut acc);
    }

    fn to_mont(f: &mut Coeffs) {
        arith::poly_to_mont(f);
    }

    fn freeze(f: &mut Coeffs) {
        arith::poly_freeze(f);
    }

    fn rej_uniform(buf: &[u8], out: &mut [i16]) -> usize {
        let q = crate::params::Q;
        let mut n = 0;
        for c in buf.chunks_exact(3) {
            if n == out.len() {
                break;
            }
            let d1 = i16::from(c[0]) | (i16::from(c[1] & 0x0f) << 8);
            let d2 = i16::from(c[1] >> 4) | (i16::from(c[2]) << 4);
            if d1 < q {
                out[n] = d1;
                n += 1;
            }
            if d2 < q && n < out.len() {
                out[n] = d2;
                n += 1;
            }
        }
        n
    }

    fn sample_poly_cbd(eta: usize, buf: &[u8], f: &mut Coeffs) {
        if eta == 3 {
            cbd3(buf, f);
        } else {
            cbd2(buf, f);
        }
    }

    fn compress_encode(d: u32, f: &Coeffs, out: &mut [u8]) {
        let mut c = [0i16; 256];
        compress_poly(f, d, &mut c);
        byte_encode(&c, d, out);
        pqlab_arith::wipe::wipe(&mut c);
    }

    fn decode_decompress(d: u32, b: &[u8], f: &mut Coeffs) {
        byte_decode(b, d, f);
        decompress_poly(f, d);
    }

    fn byte_encode12(f: &Coeffs, out: &mut [u8]) {
        byte_encode(f, 12, out);
    }

    fn byte_decode12(b: &[u8], f: &mut Coeffs) {
        byte_decode12(b, f);
    }

    fn byte_decode12_checked(b: &[u8], f: &mut Coeffs) -> bool {
        byte_decode12_checked(b, f)
    }
}

/// FIPS 203, Algorithm 8 for eta = 2 (B has 128 bytes): coefficients x - y in [-2, 2], x and y
/// each the sum of two bits of B. Branch-free.
fn cbd2(b: &[u8], f: &mut Coeffs) {
    for (coeffs, w) in f.chunks_exact_mut(8).zip(b.chunks_exact(4)) {
        let t = u32::from_le_bytes([w[0], w[1], w[2], w[3]]);
        // Each 2-bit field of d is the sum of the two bits of t there.
        let d = (t & 0x5555_5555) + ((t >> 1) & 0x5555_5555);
        for (k, c) in coeffs.iter_mut().enumerate() {
            let x = ((d >> (4 * k)) & 3) as i16;
            let y = ((d >> (4 * k + 2)) & 3) as i16;
            *c = x - y;
        }
    }
}

/// FIPS 203, Algorithm 8 for eta = 3 (B has 192 bytes): coefficients x - y in [-3, 3], x and y
/// each the sum of three bits of B. Branch-free.
fn cbd3(b: &[u8], f: &mut Coeffs) {
    for (coeffs, w) in f.chunks_exact_mut(4).zip(b.chunks_exact(3)) {
        let t = u32::from(w[0]) | (u32::from(w[1]) << 8) | (u32::from(w[2]) << 16);
        // Each 3-bit field of d is the sum of the three bits of t there.
        let d = (t & 0x0024_9249) + ((t >> 1) & 0x0024_9249) + ((t >> 2) & 0x0024_9249);
        for (k, c) in coeffs.iter_mut().enumerate() {
            let x = ((d >> (6 * k)) & 7) as i16;
            let y = ((d >> (6 * k + 3)) & 7) as i16;
            *c = x - y;
        }
    }
}
