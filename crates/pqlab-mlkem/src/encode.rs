//! Encoding and decoding (FIPS 203, Section 4.2.1: Algorithms 5 and 6, ByteEncode_d and
//! ByteDecode_d): the portable kernels behind [`crate::backend::portable::Portable`].
//!
//! Bit strings are packed little-endian: coefficient i occupies bits \[i d, (i + 1) d) of the
//! byte string, least significant bit first, as BitsToBytes (Algorithm 3) lays them out.

use crate::backend::Coeffs;
use crate::params::Q;

/// FIPS 203, Algorithm 5: ByteEncode_d(F), for coefficients in [0, 2^d) (d < 12) or [0, q)
/// (d = 12). `out` must hold 32 d bytes.
pub(crate) fn byte_encode(f: &Coeffs, d: u32, out: &mut [u8]) {
    let _k = pqlab_profile::enter(pqlab_profile::Kernel::Encode);
    debug_assert_eq!(out.len(), 32 * d as usize);
    if d == 12 {
        for (b, c) in out.chunks_exact_mut(3).zip(f.chunks_exact(2)) {
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
    for &c in f.iter() {
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
pub(crate) fn byte_decode(b: &[u8], d: u32, f: &mut Coeffs) {
    let _k = pqlab_profile::enter(pqlab_profile::Kernel::Encode);
    debug_assert!(d < 12 && b.len() == 32 * d as usize);
    let mask = (1u32 << d) - 1;
    let mut acc: u32 = 0;
    let mut n = 0;
    let mut bytes = b.iter();
    for c in f.iter_mut() {
        while n < d {
            acc |= u32::from(*bytes.next().unwrap_or(&0)) << n;
            n += 8;
        }
        *c = (acc & mask) as i16;
        acc >>= d;
        n -= d;
    }
}

/// The 12-bit values of ByteDecode_12(B) before reduction, two per three bytes.
#[inline(always)]
fn unpack12(b: &[u8], f: &mut Coeffs) {
    for (c, x) in f.chunks_exact_mut(2).zip(b.chunks_exact(3)) {
        c[0] = (i16::from(x[0]) | (i16::from(x[1]) << 8)) & 0x0fff;
        c[1] = (i16::from(x[1] >> 4)) | (i16::from(x[2]) << 4);
    }
}

/// FIPS 203, Algorithm 6: ByteDecode_12(B), each 12-bit value reduced mod q (m = q for
/// d = 12). Constant time: the reduction is a subtraction and a masked addition, so this is
/// safe on the secret s_hat of a decapsulation key. `b` must hold 384 bytes.
pub(crate) fn byte_decode12(b: &[u8], f: &mut Coeffs) {
    let _k = pqlab_profile::enter(pqlab_profile::Kernel::Encode);
    debug_assert_eq!(b.len(), 384);
    unpack12(b, f);
    for c in f.iter_mut() {
        let t = *c - Q;
        *c = t + ((t >> 15) & Q);
    }
}

/// ByteDecode_12(B) with the modulus check of FIPS 203, Section 7.2: returns `false` unless
/// every 12-bit value is below q, which holds exactly when ByteEncode_12(ByteDecode_12(B)) = B.
/// Used on encapsulation keys only (public data).
pub(crate) fn byte_decode12_checked(b: &[u8], f: &mut Coeffs) -> bool {
    let _k = pqlab_profile::enter(pqlab_profile::Kernel::Encode);
    debug_assert_eq!(b.len(), 384);
    unpack12(b, f);
    // Accumulate without an early exit; the result is public either way.
    let mut all_below_q = true;
    for &c in f.iter() {
        all_below_q &= c < Q;
    }
    all_below_q
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::N;

    /// Decodes into a fresh array.
    fn decode12(b: &[u8]) -> Coeffs {
        let mut f = [0; N];
        byte_decode12(b, &mut f);
        f
    }

    /// The checked decoding, `None` when a value is not below q.
    fn decode12_checked(b: &[u8]) -> Option<Coeffs> {
        let mut f = [0; N];
        byte_decode12_checked(b, &mut f).then_some(f)
    }

    fn pseudo_random_poly(seed: u32, bound: u32) -> Coeffs {
        let mut x = seed.wrapping_mul(0x9E37_79B9) | 1;
        let mut f = [0; N];
        for c in f.iter_mut() {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            *c = (x % bound) as i16;
        }
        f
    }

    /// FIPS 203, Algorithm 5, written literally through the bit array.
    fn literal_encode(f: &Coeffs, d: u32) -> [u8; 384] {
        let d = d as usize;
        let mut bits = [0u8; N * 12];
        for i in 0..N {
            let mut a = f[i] as u32;
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
                    assert_eq!(decode12_checked(out), Some(f));
                    decode12(out)
                } else {
                    let mut g = [0; N];
                    byte_decode(out, d, &mut g);
                    g
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
            let f = decode12(&b);
            assert_eq!(f[1], v % Q);
            assert_eq!(decode12_checked(&b).is_some(), v < Q);
            b = [0u8; 384];
            b[381] = v as u8;
            b[382] = (v >> 8) as u8;
            assert_eq!(decode12(&b)[254], v % Q);
            assert_eq!(decode12_checked(&b).is_some(), v < Q);
        }
    }
}
