//! Correctly rounded binary64 square root with integer operations only, shared by both
//! [`crate::fpr::Fpr`] back ends: Newton iterations for 1/sqrt on 32-bit words, one Heron step
//! with the exact residual, then the exact remainder and masked corrections. No division
//! instruction and no branch or index on the operand; the products are 32 x 32 -> 64 bits or
//! wrapping 64-bit ones (UMULL and MLA on the Cortex-M4, no 128-bit arithmetic).

const MANT: u64 = 0x000F_FFFF_FFFF_FFFF;
const IMPLICIT: u64 = 1 << 52;

/// S = floor(sqrt(m' 2^54)) for m' in \[2^52, 2^54), within one unit: the result s0 has
/// s0 - S in \[-1, 1] (the corrections of [`sqrt_bits`] allow \[-2, 1]).
///
/// With D = m' / 2^52 in \[1, 4):
/// * a quadratic seed Z ~ 1/sqrt(D), the minimax 1.33522 - 0.41055 D + 0.05119 D^2 (with the
///   16-bit constants, |1 - D Z^2| < 0.049);
/// * three Newton steps Z += Z (1 - D Z^2) / 2 on the top 32 bits of D: the error
///   e = 1 - D Z^2 becomes about 3/4 e^2 (0.049, then below 2^-9, 2^-18, 2^-37), plus the
///   truncations, so that Z, z = Z 2^30, is 1/sqrt(D) within 2^-28 relative;
/// * s1 = floor(D Z 2^31) is sqrt(D) 2^31 within 2^-27.8 relative, so S0 = s1 2^22 is within
///   2^26.2 of sqrt(m' 2^54), and the residual m' 2^54 - S0^2 = 2^44 (m' 2^10 - s1^2), with
///   |m' 2^10 - s1^2| < 2^37, is exact in wrapping 64-bit arithmetic;
/// * one Heron step S0 + delta, delta = (m' 2^54 - S0^2) / (2 S0) taken as
///   floor(floor(res / 2^8) z / 2^32): the step overshoots by delta^2 / (2 S0) < 2^-1.6
///   (2 S0 >= 2^54), the error of z moves delta by less than 2^-1.8, the two floors take off
///   less than 1.25. So s0 - sqrt(m' 2^54) is in (-1.6, 0.7) and s0 - S in \[-1, 1].
#[inline(always)]
pub(crate) fn approx_root(mp: u64) -> i64 {
    // D 2^30 and D 2^14.
    let d = (mp >> 22) as u32;
    let d14 = d >> 16;
    // Z0 = 1.33522 - D (0.41055 - 0.05119 D), in Q16, then Q30.
    let cd = (3355 * d14) >> 14;
    let u = 26906 - cd;
    let v = (d14 * u) >> 14;
    let mut z = ((87505 - v) << 14) as i32;
    for _ in 0..3 {
        // Z^2 2^30, (1 - D Z^2) 2^60, then 2^31.
        let z2 = (u64::from(z as u32) * u64::from(z as u32)) >> 30;
        let p = u64::from(d) * z2;
        let err = (1u64 << 60).wrapping_sub(p) as i64;
        let eh = (err >> 29) as i32;
        z += ((i64::from(z) * i64::from(eh)) >> 32) as i32;
    }
    // s1 ~ sqrt(D) 2^31 (D Z 2^60 / 2^29), the residual m' 2^10 - s1^2 exactly.
    let s1 = (u64::from(d) * u64::from(z as u32)) >> 29;
    let res = (mp << 10).wrapping_sub(s1.wrapping_mul(s1)) as i64;
    // Heron: delta = 2^44 res / (2 s1 2^22) = res 2^21 / s1 ~ res z 2^-40.
    let rh = (res >> 8) as i32;
    let delta = (i64::from(rh) * i64::from(z)) >> 32;
    ((s1 << 22) as i64) + delta
}

/// The bits of sqrt(x) for the bits of a non-negative x (zero and subnormals give zero; Falcon
/// only takes square roots of positive normal values).
///
/// With x = m 2^(e - 1075), m' = m 2^t (t = 1 when e - 1075 is odd) makes the exponent even:
/// sqrt(x) = sqrt(m' 2^52) 2^((e - 1127 - t) / 2). A square root of an integer is never a
/// half-integer, so the nearest integer to sqrt(m' 2^52) is (S + 1) >> 1 with
/// S = floor(sqrt(m' 2^54)) in \[2^53, 2^54), and it is in \[2^52, 2^53] (2^53 carries into the
/// exponent). S comes from [`approx_root`], the exact remainder m' 2^54 - s0^2 (below 2^58 in
/// absolute value: its low 64 bits are its value) and masked corrections to
/// 0 <= m' 2^54 - S^2 <= 2 S.
pub(crate) fn sqrt_bits(x: u64) -> u64 {
    let e = (x >> 52) as u32 & 0x7FF;
    let t = (e & 1) ^ 1;
    let mp = ((x & MANT) | IMPLICIT) << t;
    let mut s = approx_root(mp);
    let mut rem = (mp << 54).wrapping_sub((s as u64).wrapping_mul(s as u64)) as i64;
    // Too large (rem < 0), at most once: S - 1, rem + 2 S - 1.
    let neg = rem >> 63;
    rem += (2 * s - 1) & neg;
    s += neg;
    // Too small (rem > 2 S), at most twice: rem - 2 S - 1, S + 1.
    for _ in 0..2 {
        let big = (2 * s - rem) >> 63;
        rem -= (2 * s + 1) & big;
        s -= big;
    }
    let mant = ((s + 1) >> 1) as u64;
    let out = (u64::from((e + 1021 - t) >> 1) << 52) + mant;
    // Zero (or subnormal) input gives +0.
    out & 0u64.wrapping_sub(u64::from((e + 0x7FF) >> 11))
}

#[cfg(test)]
mod tests {
    use super::{approx_root, sqrt_bits};

    /// A xorshift generator (deterministic, no dependency).
    fn next(s: &mut u64) -> u64 {
        *s ^= *s << 13;
        *s ^= *s >> 7;
        *s ^= *s << 17;
        *s
    }

    /// floor(sqrt(mp 2^54)), exactly, with 128-bit integers.
    fn isqrt(mp: u64) -> i64 {
        let n = u128::from(mp) << 54;
        let mut r = (n as f64).sqrt() as u128;
        while r * r > n {
            r -= 1;
        }
        while (r + 1) * (r + 1) <= n {
            r += 1;
        }
        r as i64
    }

    #[test]
    fn approx_root_is_within_its_bound() {
        let mut s = 0x0123_4567_89ab_cdefu64;
        let (mut lo, mut hi) = (0i64, 0i64);
        let mut check = |mp: u64| {
            let d = approx_root(mp) - isqrt(mp);
            assert!((-2..=1).contains(&d), "m' = {mp:#x}: {d}");
            lo = lo.min(d);
            hi = hi.max(d);
        };
        for k in 0..4096u64 {
            for base in [1u64 << 52, 1 << 53, (1 << 54) - 4096] {
                check(base + k);
            }
            // Perfect squares and their neighbours: m' = j^2 (m' 2^54 = (j 2^27)^2).
            let j = (1u64 << 26) + (next(&mut s) % (1 << 26));
            for mp in [j * j - 1, j * j, j * j + 1] {
                check(mp.clamp(1 << 52, (1 << 54) - 1));
            }
        }
        for _ in 0..1_000_000 {
            check((1 << 52) + (next(&mut s) % (3 << 52)));
        }
        std::println!("approx_root error range: [{lo}, {hi}]");
    }

    #[test]
    fn matches_hardware_sqrt() {
        extern crate std;
        let mut s: u64 = 0x1234_5678_9abc_def1;
        let mut cases = 0u32;
        for _ in 0..1_000_000 {
            let x = f64::from_bits(next(&mut s) & 0x7FFF_FFFF_FFFF_FFFF);
            if !x.is_normal() {
                continue;
            }
            assert_eq!(sqrt_bits(x.to_bits()), x.sqrt().to_bits(), "{x:e}");
            cases += 1;
        }
        // Every exponent parity and range, mantissas at the edges, exact squares and their
        // neighbours (remainders 0, 1 and 2S).
        for e in [1u64, 2, 3, 1022, 1023, 1024, 1025, 2045, 2046] {
            for f in (0..256).chain(((1 << 52) - 256)..(1 << 52)) {
                let x = f64::from_bits((e << 52) | f);
                assert_eq!(sqrt_bits(x.to_bits()), x.sqrt().to_bits(), "{x:e}");
                cases += 1;
            }
        }
        for _ in 0..200_000 {
            let k = (next(&mut s) >> 38) | (1 << 25);
            let sq = (k * k) as f64;
            for x in [
                sq,
                f64::from_bits(sq.to_bits() + 1),
                f64::from_bits(sq.to_bits() - 1),
            ] {
                assert_eq!(sqrt_bits(x.to_bits()), x.sqrt().to_bits(), "{x:e}");
                cases += 1;
            }
        }
        for x in [
            1.0f64,
            2.0,
            4.0,
            0.25,
            12289.0,
            1e-300,
            1e300,
            3.0,
            f64::MIN_POSITIVE,
        ] {
            assert_eq!(sqrt_bits(x.to_bits()), x.sqrt().to_bits(), "{x}");
        }
        assert_eq!(sqrt_bits(0), 0);
        assert!(cases > 1_000_000);
    }
}
