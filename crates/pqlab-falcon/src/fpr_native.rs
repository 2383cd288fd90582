//! The native back end of [`Fpr`]: Rust `f64` arithmetic, which is strict IEEE-754 binary64
//! with round-to-nearest-even (no FMA contraction, no extended precision on x86-64 SSE2 and
//! AArch64). Square root is computed with integers (`core` has no `f64::sqrt` without `std`),
//! correctly rounded like the hardware instruction.

/// A binary64 floating-point value (the reference implementation's `fpr`).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[repr(transparent)]
pub struct Fpr(f64);

// The method names follow the reference's `fpr_add`, `fpr_mul`, ...; `fpr.rs` implements the
// operator traits on top of them.
#[allow(clippy::should_implement_trait)]
impl Fpr {
    /// The value with these IEEE-754 bits.
    #[inline(always)]
    pub const fn from_bits(b: u64) -> Fpr {
        Fpr(f64::from_bits(b))
    }

    /// The IEEE-754 bits.
    #[inline(always)]
    pub const fn to_bits(self) -> u64 {
        self.0.to_bits()
    }

    /// The integer i as a floating-point value (exact for |i| < 2^53).
    #[inline(always)]
    pub fn of(i: i64) -> Fpr {
        Fpr(i as f64)
    }

    /// a + b.
    #[inline(always)]
    pub fn add(self, b: Fpr) -> Fpr {
        Fpr(self.0 + b.0)
    }

    /// a - b.
    #[inline(always)]
    pub fn sub(self, b: Fpr) -> Fpr {
        Fpr(self.0 - b.0)
    }

    /// a * b.
    #[inline(always)]
    pub fn mul(self, b: Fpr) -> Fpr {
        Fpr(self.0 * b.0)
    }

    /// a / b, with the hardware division (whose latency may depend on the operands on some
    /// cores; key generation and signing do not use it: they use [`Fpr::inv`]).
    #[inline(always)]
    pub fn div(self, b: Fpr) -> Fpr {
        Fpr(self.0 / b.0)
    }

    /// -a.
    #[inline(always)]
    pub fn neg(self) -> Fpr {
        Fpr(-self.0)
    }

    /// a / 2.
    #[inline(always)]
    pub fn half(self) -> Fpr {
        Fpr(self.0 * 0.5)
    }

    /// 2 a.
    #[inline(always)]
    pub fn double(self) -> Fpr {
        Fpr(self.0 + self.0)
    }

    /// a^2.
    #[inline(always)]
    pub fn sqr(self) -> Fpr {
        Fpr(self.0 * self.0)
    }

    /// 1 / a, correctly rounded (bit-identical to the IEEE-754 division `1.0 / a`), in
    /// constant time: no division instruction (whose latency may depend on the operands), only
    /// multiplications, additions and integer operations on a fixed path. Requires a normal a
    /// with 2^-1022 <= |a| < 2^1021 (every value it is used on: the Gram-matrix entries and
    /// norms of key expansion and NTRUSolve are positive and of moderate size); see
    /// `recip_bits`.
    #[inline(always)]
    pub fn inv(self) -> Fpr {
        Fpr::from_bits(recip_bits(self.to_bits()))
    }

    /// The correctly rounded square root of a non-negative a (branch-free).
    pub fn sqrt(self) -> Fpr {
        Fpr::from_bits(crate::fpr_emu_sqrt::sqrt_bits(self.to_bits()))
    }

    /// a rounded to the nearest integer, ties to even (|a| < 2^51).
    #[inline(always)]
    pub fn rint(self) -> i64 {
        // Adding and subtracting 1.5 * 2^52 rounds to an integer in the current (nearest-even)
        // mode; the result is exact for |a| < 2^51.
        const BIG: f64 = 6755399441055744.0;
        ((self.0 + BIG) - BIG) as i64
    }

    /// The largest integer not above a (|a| < 2^63).
    #[inline(always)]
    pub fn floor(self) -> i64 {
        let t = self.0 as i64;
        t - i64::from(self.0 < t as f64)
    }

    /// a rounded towards zero (|a| < 2^63).
    #[inline(always)]
    pub fn trunc(self) -> i64 {
        self.0 as i64
    }
}

impl zeroize::Zeroize for Fpr {
    fn zeroize(&mut self) {
        self.0.zeroize();
    }
}

/// The bits of 1 / x, correctly rounded to nearest, for the bits `b` of a normal x with biased
/// exponent in 1..=2044 (2^-1022 <= |x| < 2^1021), without a division instruction and without
/// a branch or an index depending on x.
///
/// With x = m 2^(e - 1075), m in \[2^52, 2^53): 1/x = 2^(969 - e) 2^106 / m. Let
/// Q = floor((2^106 - 1) / m), in \[2^53, 2^54). For m > 2^52 the quotient 2^106 / m is never
/// an integer nor a half-integer (m has an odd factor), so the correctly rounded 53-bit
/// mantissa is (Q + 1) >> 1 (Q's last bit is the rounding bit and the discarded rest is never
/// zero); for m = 2^52, Q = 2^54 - 1 and (Q + 1) >> 1 = 2^53, whose carry into the exponent
/// gives the exact power of two. Q is computed exactly: an approximation of 1/m from a quadratic
/// seed and three Newton iterations in `f64` (multiplications and subtractions only), then the
/// exact remainder in 64-bit integers and a fixed number of masked corrections that leave
/// 0 <= (2^106 - 1) - Q m < m.
#[inline(always)]
pub(crate) fn recip_bits(b: u64) -> u64 {
    const FRAC: u64 = (1 << 52) - 1;
    let sign = b & (1 << 63);
    let e = (b >> 52) & 0x7ff;
    let m = (b & FRAC) | (1 << 52);
    // md = m / 2^52 in [1, 2); y ~ 1/md from the minimax quadratic (210 - 144 md + 32 md^2) / 99
    // (1 - md y = T3(2 md - 3) / 99, relative error at most 1/99), then three Newton steps
    // y (2 - md y): error below 2^-49 ((1/99)^8 < 2^-53; the rest is f64 rounding, a few
    // ulps).
    let md = f64::from_bits((1023 << 52) | (b & FRAC));
    let mut y = ((32.0 / 99.0) * md - 144.0 / 99.0) * md + 210.0 / 99.0;
    for _ in 0..3 {
        y = y * (2.0 - md * y);
    }
    let mi = m as i64;
    // 2^54 y, exactly, from the bits of y in (1/2, 1]: its mantissa shifted by 1 (or 2 for
    // y = 1). Then r0 = 2^54 y - 64 <= Q (|2^54 y - 2^106 / m| < 32), so the remainder
    // (2^106 - 1) - r0 m is in [0, 100 m), below 2^60: its low 64 bits (wrapping products)
    // are the exact value.
    let yb = y.to_bits();
    let r0 = ((((yb & FRAC) | (1 << 52)) << ((yb >> 52) - 1021)) - 64) as i64;
    let rem = u64::MAX.wrapping_sub((r0 as u64).wrapping_mul(m)) as i64;
    // rem / m ~ rem y / 2^52 to within 2^-40, rounded to an integer by adding 2^52 (the
    // rounding of the addition, no conversion instruction): c = that - 2 is floor(rem / m)
    // - 2 or - 1.
    const MAGIC: f64 = (1u64 << 52) as f64;
    let t = (rem as f64) * y * (1.0 / (1u64 << 52) as f64) + MAGIC;
    let c = (t.to_bits() - MAGIC.to_bits()) as i64 - 2;
    let mut q = r0 + c;
    let mut rem = rem - c * mi;
    // Now m <= rem < 3m: two masked steps.
    for _ in 0..2 {
        let ge = !((rem - mi) >> 63); // all ones when rem >= m
        q += 1 & ge;
        rem -= mi & ge;
    }
    let mant = (q as u64 + 1) >> 1;
    sign | (((2044 - e) << 52) + mant)
}

#[cfg(test)]
mod tests {
    use super::recip_bits;

    /// A xorshift generator (deterministic, no dependency).
    fn next(s: &mut u64) -> u64 {
        *s ^= *s << 13;
        *s ^= *s >> 7;
        *s ^= *s << 17;
        *s
    }

    fn check(b: u64) {
        let x = f64::from_bits(b);
        assert_eq!(
            recip_bits(b),
            (1.0 / x).to_bits(),
            "1 / {x:e} (bits {b:#018x})"
        );
    }

    #[test]
    fn reciprocal_is_the_correctly_rounded_division() {
        let mut s = 0x9e37_79b9_7f4a_7c15u64;
        let mut cases = 0u32;
        // Mantissas at the edges of [2^52, 2^53), every exponent class, both signs.
        for e in [1u64, 2, 500, 1022, 1023, 1024, 1500, 2043, 2044] {
            for f in (0..64).chain(((1 << 52) - 64)..(1 << 52)) {
                for sign in [0, 1u64 << 63] {
                    check(sign | (e << 52) | f);
                    cases += 1;
                }
            }
        }
        // Random mantissas, exponents of the Gram values and beyond.
        for _ in 0..2_000_000 {
            let r = next(&mut s);
            let e = 900 + (r >> 52) % 300;
            check((r & ((1 << 52) - 1)) | (e << 52) | (r & (1 << 63)));
            cases += 1;
        }
        // Mantissas whose reciprocal is close to a rounding boundary: m near 2^105 / k for
        // 53-bit odd k (1 / m then lies close to k / 2^105, a midpoint).
        for _ in 0..200_000 {
            let k = (next(&mut s) >> 11) | (1 << 52) | 1;
            let m = ((1u128 << 105) / u128::from(k)) as u64;
            for d in [0u64, 1] {
                let m = (m + d).clamp(1 << 52, (1 << 53) - 1);
                check((1023 << 52) | (m & ((1 << 52) - 1)));
                cases += 1;
            }
        }
        assert!(cases > 2_000_000);
    }
}
