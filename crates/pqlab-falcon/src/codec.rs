//! Encodings of Falcon spec v1.2, Section 3.11: the public key's 14-bit packing of h
//! (Section 3.11.4), the secret key's fixed-width signed packing of f, g, F (Section 3.11.5), and
//! the compression of s2 (Section 3.11.2, Algorithms 17 and 18: Compress and Decompress).
//!
//! Decoders accept exactly the canonical encodings and report the first violation as a typed
//! [`Error`]; none of them panics on any input.

use crate::error::Error;
use crate::params::Q;

/// Packs coefficients in \[0, q) on 14 bits each, most significant bit first
/// (Section 3.11.4). `out` must hold exactly 14 n / 8 bytes.
pub(crate) fn modq_encode(h: &[u16], out: &mut [u8]) {
    let _k = pqlab_profile::enter(pqlab_profile::Kernel::Encode);
    let mut acc: u32 = 0;
    let mut acc_len = 0;
    let mut pos = 0;
    for &x in h {
        acc = (acc << 14) | u32::from(x);
        acc_len += 14;
        while acc_len >= 8 {
            acc_len -= 8;
            out[pos] = (acc >> acc_len) as u8;
            pos += 1;
        }
    }
}

/// Inverse of [`modq_encode`]: `data` must be exactly 14 n / 8 bytes, each value below q.
pub(crate) fn modq_decode(data: &[u8], h: &mut [u16]) -> Result<(), Error> {
    modq_decode_with(data, h.len(), |u, w| h[u] = w)
}

/// [`modq_decode`] of `n` values handing each value w (below q) to `put(u, w)` in order, so
/// that it can land in any type (verification from the encoded key writes NTT lanes).
pub(crate) fn modq_decode_with(
    data: &[u8],
    n: usize,
    mut put: impl FnMut(usize, u16),
) -> Result<(), Error> {
    let _k = pqlab_profile::enter(pqlab_profile::Kernel::Encode);
    const WHAT: &str = "public key";
    let need = 14 * n / 8;
    if data.len() != need {
        return Err(Error::InvalidLength {
            what: WHAT,
            expected: need + 1,
            actual: data.len() + 1,
        });
    }
    let mut acc: u32 = 0;
    let mut acc_len = 0;
    let mut u = 0;
    for &b in data {
        acc = (acc << 8) | u32::from(b);
        acc_len += 8;
        if acc_len >= 14 {
            acc_len -= 14;
            let w = (acc >> acc_len) & 0x3FFF;
            if w >= Q {
                return Err(Error::CoefficientOutOfRange { what: WHAT });
            }
            put(u, w as u16);
            u += 1;
        }
    }
    // n is a multiple of 4, so 14 n bits fill whole bytes and nothing is left over.
    Ok(())
}

/// Packs small signed values on `bits` bits each, two's complement, most significant bit first
/// (Section 3.11.5). The caller guarantees |x| < 2^(bits-1); `out` holds bits n / 8 bytes.
pub(crate) fn trim_i8_encode(x: &[i8], bits: usize, out: &mut [u8]) {
    let _k = pqlab_profile::enter(pqlab_profile::Kernel::Encode);
    let mask = (1u32 << bits) - 1;
    let mut acc: u32 = 0;
    let mut acc_len = 0;
    let mut pos = 0;
    for &v in x {
        acc = (acc << bits) | (v as u32 & mask);
        acc_len += bits;
        while acc_len >= 8 {
            acc_len -= 8;
            out[pos] = (acc >> acc_len) as u8;
            pos += 1;
        }
    }
}

/// Inverse of [`trim_i8_encode`]: `data` is exactly bits n / 8 bytes; the value -2^(bits-1)
/// is rejected (it has no place in a canonical key).
pub(crate) fn trim_i8_decode(data: &[u8], bits: usize, x: &mut [i8]) -> Result<(), Error> {
    let _k = pqlab_profile::enter(pqlab_profile::Kernel::Encode);
    const WHAT: &str = "secret key";
    let mask1 = (1u32 << bits) - 1;
    let mask2 = 1u32 << (bits - 1);
    let mut acc: u32 = 0;
    let mut acc_len = 0;
    let mut u = 0;
    for &b in data {
        acc = (acc << 8) | u32::from(b);
        acc_len += 8;
        while acc_len >= bits && u < x.len() {
            acc_len -= bits;
            let w = (acc >> acc_len) & mask1;
            if w == mask2 {
                return Err(Error::CoefficientOutOfRange { what: WHAT });
            }
            // Sign extension from `bits` bits.
            let v = (w | 0u32.wrapping_sub(w & mask2)) as i32;
            x[u] = v as i8;
            u += 1;
        }
    }
    if u != x.len() {
        return Err(Error::Truncated { what: WHAT });
    }
    Ok(())
}

/// Falcon spec v1.2, Algorithm 17: Compress. Writes the compressed s2 into `out` and returns
/// its length, or `None` when a value has |x| > 2047 or the encoding does not fit in `out`.
/// The last byte is padded with zero bits; nothing else is added.
pub(crate) fn compress(s: &[i16], out: &mut [u8]) -> Option<usize> {
    let _k = pqlab_profile::enter(pqlab_profile::Kernel::Encode);
    let mut acc: u32 = 0;
    let mut acc_len: u32 = 0;
    let mut pos = 0;
    for &x in s {
        if !(-2047..=2047).contains(&x) {
            return None;
        }
        let w = u32::from(x.unsigned_abs());
        // Sign bit, then the 7 low bits of |x|.
        acc = (acc << 8) | (u32::from(x < 0) << 7) | (w & 127);
        acc_len += 8;
        // The high part in unary: (|x| >> 7) zeros, then a one.
        let hi = w >> 7;
        acc = (acc << (hi + 1)) | 1;
        acc_len += hi + 1;
        while acc_len >= 8 {
            acc_len -= 8;
            *out.get_mut(pos)? = (acc >> acc_len) as u8;
            pos += 1;
        }
    }
    if acc_len > 0 {
        *out.get_mut(pos)? = (acc << (8 - acc_len)) as u8;
        pos += 1;
    }
    Some(pos)
}

/// The length in bytes of [`compress`]'s output for `s` (None when a coefficient is out of
/// range), without writing it: 8 + (|x| >> 7) + 1 bits per coefficient, rounded up to bytes.
pub(crate) fn compressed_len(s: &[i16]) -> Option<usize> {
    let mut bits = 0usize;
    for &x in s {
        if !(-2047..=2047).contains(&x) {
            return None;
        }
        bits += 9 + usize::from(x.unsigned_abs() >> 7);
    }
    Some(bits.div_ceil(8))
}

/// Falcon spec v1.2, Algorithm 18: Decompress, with every canonicality check: no "-0", the
/// high part at most 15 (|x| <= 2047), the unused bits of the last byte zero, and no bytes
/// after the last coefficient.
///
/// The bits stream through a 64-bit register whose top `nb` bits are counted (refilled eight
/// bytes at a time to at least 57 bits while the data lasts; a coefficient uses at most 24):
/// the sign and the 7 low bits, then the unary high part as the count of leading zeros. The
/// errors are those of the bit-by-bit reading of the specification: a 16th zero of the unary
/// part is out of range, running out of bits before it is truncation.
///
/// This is the portable instance; the x86 back ends compile the same body with BMI1, BMI2 and
/// LZCNT (`lzcnt` and one-cycle variable shifts on the serial path from one coefficient to the
/// next) through [`crate::backend::Ops::decompress`].
pub(crate) fn decompress(data: &[u8], s: &mut [i16]) -> Result<(), Error> {
    decompress_inline(data, s)
}

/// The body of [`decompress`], inlined into each back end's instance.
#[inline(always)]
pub(crate) fn decompress_inline(data: &[u8], s: &mut [i16]) -> Result<(), Error> {
    let _k = pqlab_profile::enter(pqlab_profile::Kernel::Encode);
    const WHAT: &str = "signature";
    let mut acc: u64 = 0;
    let mut nb: usize = 0;
    let mut v = 0;
    for x in s.iter_mut() {
        if nb < 24 {
            if let Some(c) = data.get(v..v + 8) {
                let mut b = [0u8; 8];
                b.copy_from_slice(c);
                // Bytes past the counted ones land in the uncounted low bits; they are the
                // stream's own bits, so OR-ing them again at the next refill changes nothing.
                acc |= u64::from_be_bytes(b) >> nb;
                let k = (63 - nb) >> 3;
                v += k;
                nb += 8 * k;
            } else {
                while nb <= 56 && v < data.len() {
                    acc |= u64::from(data[v]) << (56 - nb);
                    v += 1;
                    nb += 8;
                }
            }
        }
        // Below 24 counted bits, the data has ended and the other bits of `acc` are zero.
        if nb < 8 {
            return Err(Error::Truncated { what: WHAT });
        }
        let neg = acc >> 63 != 0;
        let low = ((acc >> 56) & 127) as u32;
        let z = (acc << 8).leading_zeros() as usize;
        let unary = nb - 8;
        if z >= 16 && unary >= 16 {
            return Err(Error::CoefficientOutOfRange { what: WHAT });
        }
        if z >= unary {
            return Err(Error::Truncated { what: WHAT });
        }
        let m = low + 128 * z as u32;
        if neg && m == 0 {
            return Err(Error::NonCanonical { what: WHAT });
        }
        *x = if neg { -(m as i16) } else { m as i16 };
        acc <<= 9 + z;
        nb -= 9 + z;
    }
    // The rest of the last byte read (the top nb mod 8 counted bits) must be zero, and no
    // whole byte may be left.
    let part = nb & 7;
    if part != 0 && acc >> (64 - part) != 0 {
        return Err(Error::NonCanonical { what: WHAT });
    }
    if v - nb / 8 != data.len() {
        return Err(Error::TrailingBytes { what: WHAT });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Falcon spec v1.2, Algorithm 18: Decompress, with every canonicality check: no "-0", the
    /// high part at most 15 (|x| <= 2047), the unused bits of the last byte zero, and no bytes
    /// after the last coefficient.
    fn decompress_bitwise(data: &[u8], s: &mut [i16]) -> Result<(), Error> {
        const WHAT: &str = "signature";
        let mut acc: u32 = 0;
        let mut acc_len: u32 = 0;
        let mut v = 0;
        for x in s.iter_mut() {
            // Sign bit and the 7 low bits.
            let Some(&b) = data.get(v) else {
                return Err(Error::Truncated { what: WHAT });
            };
            v += 1;
            acc = (acc << 8) | u32::from(b);
            let t = acc >> acc_len;
            let neg = t & 128 != 0;
            let mut m = t & 127;
            // The high part, in unary.
            loop {
                if acc_len == 0 {
                    let Some(&b) = data.get(v) else {
                        return Err(Error::Truncated { what: WHAT });
                    };
                    v += 1;
                    acc = (acc << 8) | u32::from(b);
                    acc_len = 8;
                }
                acc_len -= 1;
                if (acc >> acc_len) & 1 != 0 {
                    break;
                }
                m += 128;
                if m > 2047 {
                    return Err(Error::CoefficientOutOfRange { what: WHAT });
                }
            }
            if neg && m == 0 {
                return Err(Error::NonCanonical { what: WHAT });
            }
            *x = if neg { -(m as i16) } else { m as i16 };
        }
        if acc & ((1u32 << acc_len) - 1) != 0 {
            return Err(Error::NonCanonical { what: WHAT });
        }
        if v != data.len() {
            return Err(Error::TrailingBytes { what: WHAT });
        }
        Ok(())
    }

    /// The register-based Decompress against the bit-by-bit one (the previous implementation) on
    /// valid encodings and on every kind of damage: same coefficients, same errors.
    #[test]
    fn decompress_matches_the_bitwise_reading() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut cases = 0;
        for round in 0..3000 {
            let scale = [3, 30, 200, 2047][round % 4];
            let s: [i16; 512] =
                core::array::from_fn(|_| ((next() % (2 * scale + 1)) as i64 - scale as i64) as i16);
            let mut buf = [0u8; 1500];
            let Some(len) = compress(&s, &mut buf) else {
                continue;
            };
            let mut data = buf[..len + 2].to_vec();
            match round % 6 {
                0 => data.truncate(len),
                1 => data.truncate(len - 1 - (next() % 16) as usize),
                2 => {
                    data.truncate(len);
                    let i = (next() as usize) % len;
                    data[i] ^= 1 << (next() % 8);
                }
                3 => data.truncate(len + 1),
                4 => {
                    data.truncate(len);
                    let i = (next() as usize) % len;
                    for b in &mut data[i..(i + 3).min(len)] {
                        *b = 0;
                    }
                }
                _ => {
                    data.truncate(len);
                    *data.last_mut().unwrap_or(&mut 0) |= 1;
                }
            }
            let (mut a, mut b) = ([0i16; 512], [0i16; 512]);
            let (ra, rb) = (decompress(&data, &mut a), decompress_bitwise(&data, &mut b));
            assert_eq!(ra, rb, "round {round}");
            if ra.is_ok() {
                assert_eq!(a, b, "round {round}");
            }
            cases += 1;
        }
        assert!(cases > 2000);
    }

    #[test]
    fn compress_round_trip() {
        let s: [i16; 512] = core::array::from_fn(|i| ((i as i32 * 37 % 301) - 150) as i16);
        let mut buf = [0u8; 700];
        let len = compress(&s, &mut buf).unwrap_or(0);
        assert!(len > 0);
        let mut back = [0i16; 512];
        assert_eq!(decompress(&buf[..len], &mut back), Ok(()));
        assert_eq!(back, s);
        assert!(compress(&[2048], &mut buf).is_none());
        assert!(compress(&s, &mut buf[..len - 1]).is_none());
    }

    /// The length without writing is the length `compress` writes, for every magnitude class
    /// (0 to 15 unary zeros, from 0 to 2047), and None where `compress` refuses a coefficient.
    #[test]
    fn compressed_len_is_the_written_length() {
        let mut buf = [0u8; 6000];
        for k in 0..40i32 {
            let s: [i16; 512] =
                core::array::from_fn(|i| ((i as i32 * (7 + 13 * k) + k * k) % 4095 - 2047) as i16);
            let small: [i16; 512] = core::array::from_fn(|i| s[i] >> (k % 12));
            for p in [&s, &small] {
                assert_eq!(compressed_len(p), compress(p, &mut buf), "k = {k}");
            }
        }
        for bad in [2048, -2048, i16::MAX, i16::MIN] {
            assert_eq!(compressed_len(&[0, bad, 1]), None);
            assert_eq!(compress(&[0, bad, 1], &mut buf), None);
        }
    }

    #[test]
    fn trim_round_trip() {
        let f: [i8; 512] = core::array::from_fn(|i| ((i % 63) as i8) - 31);
        let mut buf = [0u8; 384];
        trim_i8_encode(&f, 6, &mut buf);
        let mut back = [0i8; 512];
        assert_eq!(trim_i8_decode(&buf, 6, &mut back), Ok(()));
        assert_eq!(back, f);
    }
}
