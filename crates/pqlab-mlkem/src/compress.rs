//! Compression and decompression (FIPS 203, Section 4.2.1, equations 4.7 and 4.8).
//!
//! Compress_d(x) = round(2^d x / q) mod 2^d is computed without any division by q (the
//! KyberSlash class of timing leaks): round(2^d x / q) = floor((2^d x + (q - 1) / 2) / q) for
//! x in [0, q) (there are no ties, q being odd), and the division by q is a multiplication by
//! the precomputed constant ceil(2^36 / q) and a shift, exact for every numerator below 2^23
//! (numerator times the rounding error of the constant stays below 2^36). The unit tests check
//! every x in [0, q) for every d in 1..=11 against exact rational rounding.

use crate::backend::Coeffs;
use crate::params::{N, Q};

const SHIFT: u32 = 36;
/// ceil(2^36 / q): a compile-time constant, so the division here is not on data.
const RECIP_Q: u64 = (1u64 << SHIFT).div_ceil(Q as u64);

/// Compress_d(x) for x in [0, q) and 1 <= d <= 11 (FIPS 203, equation 4.7). Branch-free and
/// division-free.
#[inline(always)]
pub(crate) const fn compress(x: u16, d: u32) -> u16 {
    let numerator = ((x as u64) << d) + ((Q as u64 - 1) / 2);
    (((numerator * RECIP_Q) >> SHIFT) as u16) & ((1u16 << d) - 1)
}

/// Decompress_d(y) = round(q y / 2^d) for y in [0, 2^d) and 1 <= d <= 11 (FIPS 203,
/// equation 4.8), with round half up as the standard defines it. Branch-free and division-free.
#[inline(always)]
pub(crate) const fn decompress(y: u16, d: u32) -> u16 {
    (((y as u32) * (Q as u32) + (1u32 << (d - 1))) >> d) as u16
}

/// Compress_d applied to every coefficient of `f`, whose coefficients must lie in [0, q),
/// into `out`.
pub(crate) fn compress_poly(f: &Coeffs, d: u32, out: &mut Coeffs) {
    let _k = pqlab_profile::enter(pqlab_profile::Kernel::Encode);
    for (o, &x) in out.iter_mut().zip(f.iter()) {
        *o = compress(x as u16, d) as i16;
    }
}

/// Decompress_d applied to every coefficient of `f`, whose coefficients must lie in [0, 2^d).
pub(crate) fn decompress_poly(f: &mut Coeffs, d: u32) {
    let _k = pqlab_profile::enter(pqlab_profile::Kernel::Encode);
    for x in f.iter_mut() {
        *x = decompress(*x as u16, d) as i16;
    }
}

const _: () = assert!(N == 256);

#[cfg(test)]
mod tests {
    use super::*;

    const QU: u64 = Q as u64;

    /// round(2^d x / q) mod 2^d with exact rational arithmetic: floor((2^(d+1) x + q) / (2q)).
    fn exact_compress(x: u64, d: u32) -> u64 {
        (((x << (d + 1)) + QU) / (2 * QU)) % (1 << d)
    }

    /// round(q y / 2^d), rounding halves up: floor((2 q y + 2^d) / 2^(d+1)).
    fn exact_decompress(y: u64, d: u32) -> u64 {
        (2 * QU * y + (1 << d)) / (1 << (d + 1))
    }

    #[test]
    fn compress_is_exact_rounding_for_every_input() {
        // Every d that FIPS 203 uses (1, 4, 5, 10, 11), and the others up to 11 as well.
        for d in 1..=11 {
            for x in 0..Q as u16 {
                assert_eq!(
                    u64::from(compress(x, d)),
                    exact_compress(u64::from(x), d),
                    "Compress_{d}({x})"
                );
            }
        }
    }

    #[test]
    fn decompress_is_exact_rounding_for_every_input() {
        for d in 1..=11 {
            for y in 0..(1u16 << d) {
                let z = decompress(y, d);
                assert_eq!(u64::from(z), exact_decompress(u64::from(y), d));
                assert!(z < Q as u16);
                // Compress_d(Decompress_d(y)) = y (FIPS 203, Section 4.2.1).
                assert_eq!(compress(z, d), y, "d = {d}, y = {y}");
            }
        }
    }

    #[test]
    fn the_constant_is_exact_over_the_whole_numerator_range() {
        // The largest numerator is 2^11 (q - 1) + (q - 1) / 2 < 2^23; the error term of the
        // reciprocal times it must stay below 2^SHIFT.
        let max_numerator = (1u64 << 11) * (QU - 1) + (QU - 1) / 2;
        assert!(max_numerator < 1 << 23);
        let err = RECIP_Q * QU - (1 << SHIFT);
        assert!(err < QU);
        assert!(max_numerator * err < 1 << SHIFT);
    }
}
