//! Encoding and decoding (FIPS 203, Section 4.2.1: Algorithms 5 and 6, ByteEncode_d and
//! ByteDecode_d).
//!
//! Bit strings are packed little-endian: coefficient i occupies bits \[i d, (i + 1) d) of the
//! byte string, least significant bit first, as BitsToBytes (Algorithm 3) lays them out.

use crate::params::{N, Q};
use crate::poly::Poly;

/// FIPS 203, Algorithm 5: ByteEncode_d(F), for coefficients in [0, 2^d) (d < 12) or [0, q)
/// (d = 12). `out` must hold 32 d bytes.
pub(crate) fn byte_encode(f: &Poly, d: u32, out: &mut [u8]) {
    let _k = pqlab_profile::enter(pqlab_profile::Kernel::Encode);
    debug_assert_eq!(out.len(), 32 * d as usize);
    if d == 12 {
        for (b, c) in out.chunks_exact_mut(3).zip(f.0.chunks_exact(2)) {
            let (x, y) = (c[0] as u16, c[1] as u16);
            b[0] = x as u8;
            b[1] = ((x >> 8) | (y << 4)) as u8;
            b[2] = (y >> 4) as u8;
        }
        return;
    }
    let mask = (1u32 << d) - 1;
    let mut acc: u32 = 0;
    let mut n = 0;
    let mut bytes = out.iter_mut();
    for &c in f.0.iter() {
        acc |= (c as u32 & mask) << n;
        n += d;
        while n >= 8 {
            if let Some(b) = bytes.next() {
                *b = acc as u8;
            }
            acc >>= 8;
            n -= 8;
        }
    }
}

/// FIPS 203, Algorithm 6: ByteDecode_d(B) for d < 12: coefficients in [0, 2^d). `b` must hold
/// 32 d bytes.
pub(crate) fn byte_decode(b: &[u8], d: u32) -> Poly {
    let _k = pqlab_profile::enter(pqlab_profile::Kernel::Encode);
    debug_assert!(d < 12 && b.len() == 32 * d as usize);
    let mut f = Poly::ZERO;
    let mask = (1u32 << d) - 1;
    let mut acc: u32 = 0;
    let mut n = 0;
    let mut bytes = b.iter();
    for c in f.0.iter_mut() {
        while n < d {
            acc |= u32::from(*bytes.next().unwrap_or(&0)) << n;
            n += 8;
        }
        *c = (acc & mask) as i16;
        acc >>= d;
        n -= d;
    }
    f
}

/// The 12-bit values of ByteDecode_12(B) before reduction, two per three bytes.
#[inline(always)]
fn unpack12(b: &[u8], f: &mut Poly) {
    for (c, x) in f.0.chunks_exact_mut(2).zip(b.chunks_exact(3)) {
        c[0] = (i16::from(x[0]) | (i16::from(x[1]) << 8)) & 0x0fff;
        c[1] = (i16::from(x[1] >> 4)) | (i16::from(x[2]) << 4);
    }
}

/// FIPS 203, Algorithm 6: ByteDecode_12(B), each 12-bit value reduced mod q (m = q for
/// d = 12). Constant time: the reduction is a subtraction and a masked addition, so this is
/// safe on the secret s_hat of a decapsulation key. `b` must hold 384 bytes.
pub(crate) fn byte_decode12(b: &[u8]) -> Poly {
    let _k = pqlab_profile::enter(pqlab_profile::Kernel::Encode);
    debug_assert_eq!(b.len(), 384);
    let mut f = Poly::ZERO;
    unpack12(b, &mut f);
    for c in f.0.iter_mut() {
        let t = *c - Q;
        *c = t + ((t >> 15) & Q);
    }
    f
}

/// ByteDecode_12(B) with the modulus check of FIPS 203, Section 7.2: returns `None` unless every
/// 12-bit value is below q, which holds exactly when ByteEncode_12(ByteDecode_12(B)) = B. Used
/// on encapsulation keys only (public data).
pub(crate) fn byte_decode12_checked(b: &[u8]) -> Option<Poly> {
    let _k = pqlab_profile::enter(pqlab_profile::Kernel::Encode);
    debug_assert_eq!(b.len(), 384);
    let mut f = Poly::ZERO;
    unpack12(b, &mut f);
    // Accumulate without an early exit; the result is public either way.
    let mut all_below_q = true;
    for &c in f.0.iter() {
        all_below_q &= c < Q;
    }
    all_below_q.then_some(f)
}

/// ByteDecode_1 then Decompress_1 (FIPS 203, Algorithm 14 line 20): each bit of the message m
/// becomes 0 or ceil(q / 2) = 1665, without a branch.
pub(crate) fn decode_message(m: &[u8; 32]) -> Poly {
    let mut f = Poly::ZERO;
    for (c, i) in f.0.iter_mut().zip(0..N) {
        let bit = i16::from((m[i / 8] >> (i % 8)) & 1);
        *c = bit.wrapping_neg() & ((Q + 1) / 2);
    }
    f
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pseudo_random_poly(seed: u32, bound: u32) -> Poly {
        let mut x = seed.wrapping_mul(0x9E37_79B9) | 1;
        let mut f = Poly::ZERO;
        for c in f.0.iter_mut() {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            *c = (x % bound) as i16;
        }
        f
    }

    /// FIPS 203, Algorithm 5, written literally through the bit array.
    fn literal_encode(f: &Poly, d: u32) -> [u8; 384] {
        let d = d as usize;
        let mut bits = [0u8; N * 12];
        for i in 0..N {
            let mut a = f.0[i] as u32;
            for j in 0..d {
                bits[i * d + j] = (a & 1) as u8;
                a >>= 1;
            }
        }
        let mut out = [0u8; 384];
        for (k, b) in bits[..N * d].iter().enumerate() {
            out[k / 8] |= b << (k % 8);
        }
        out
    }

    #[test]
    fn encode_decode_round_trip_for_every_d() {
        for d in [1u32, 4, 5, 10, 11, 12] {
            for seed in 0..20 {
                let bound = if d == 12 { Q as u32 } else { 1 << d };
                let f = pseudo_random_poly(seed + 100 * d, bound);
                let len = 32 * d as usize;
                let mut buf = [0u8; 384];
                let out = &mut buf[..len];
                byte_encode(&f, d, out);
                assert_eq!(*out, literal_encode(&f, d)[..len], "d = {d}");
                let back = if d == 12 {
                    assert_eq!(byte_decode12_checked(out), Some(f));
                    byte_decode12(out)
                } else {
                    byte_decode(out, d)
                };
                assert_eq!(back, f, "d = {d}");
            }
        }
    }

    #[test]
    fn decode12_reduces_and_the_check_rejects_unreduced_values() {
        for v in 0..4096i16 {
            let mut b = [0u8; 384];
            // Put v in the second coefficient (the one that straddles a byte differently).
            b[1] = (v << 4) as u8;
            b[2] = (v >> 4) as u8;
            let f = byte_decode12(&b);
            assert_eq!(f.0[1], v % Q);
            assert_eq!(byte_decode12_checked(&b).is_some(), v < Q);
            b = [0u8; 384];
            b[381] = v as u8;
            b[382] = (v >> 8) as u8;
            assert_eq!(byte_decode12(&b).0[254], v % Q);
            assert_eq!(byte_decode12_checked(&b).is_some(), v < Q);
        }
    }

    #[test]
    fn message_decoding_is_decompress_1() {
        let mut m = [0u8; 32];
        for (i, b) in m.iter_mut().enumerate() {
            *b = (i as u8).wrapping_mul(37) ^ 0x5a;
        }
        let f = decode_message(&m);
        let g = byte_decode(&m, 1);
        for i in 0..N {
            assert_eq!(f.0[i], crate::compress::decompress(g.0[i] as u16, 1) as i16);
        }
    }
}
