//! The native back end of [`Fpr`]: Rust `f64` arithmetic, which is strict IEEE-754 binary64
//! with round-to-nearest-even (no FMA contraction, no extended precision on x86-64 SSE2 and
//! AArch64). Reciprocal and square root use no division or square-root instruction (whose
//! latency may depend on the operands): an `f64` Newton approximation on a fixed path, then an
//! exact integer correction, so both are correctly rounded like the hardware instructions.

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

    /// The correctly rounded square root of a non-negative a (bit-identical to the IEEE-754
    /// square root; zero and subnormals give +0), in constant time: see `sqrt_bits`.
    #[inline(always)]
    pub fn sqrt(self) -> Fpr {
        Fpr::from_bits(sqrt_bits(self.to_bits()))
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

/// The bits of sqrt(x), correctly rounded to nearest, for the bits `b` of a non-negative x
/// (zero and subnormals give +0), without a division or square-root instruction and without a
/// branch or an index depending on x.
///
/// With x = m 2^(e - 1075), m in \[2^52, 2^53), p = (e - 1075) mod 2 and M = m 2^(52 + p):
/// x = M 2^(e - 1127 - p), an even power of two, so sqrt(x) = sqrt(M) 2^((e - 1127 - p) / 2)
/// with sqrt(M) in \[2^52, 2^53). The 53-bit result is R = round(sqrt(M)), characterized
/// exactly by -R < M - R^2 <= R (a square root of an integer is never a half-integer, so there
/// are no ties). R is computed in three steps: an approximation r0 from `f64` arithmetic (a
/// quadratic seed of 1/sqrt on \[1, 2), relative error below 0.0036, and three Newton steps, so
/// |r0 - sqrt(M)| is a few units); the exact remainder D = M - r0^2 (|D| < 2^60, so its value
/// is the wrapping 64-bit difference); the step c = rint(D / (2 sqrt(M))), after which r0 + c is
/// R or off by one, fixed by [`round_root`].
#[inline(always)]
pub(crate) fn sqrt_bits(b: u64) -> u64 {
    const FRAC: u64 = (1 << 52) - 1;
    const ONE: u64 = 0x3FF0_0000_0000_0000;
    const SQRT2: u64 = 0x3FF6_A09E_667F_3BCD; // sqrt(2), rounded
    const INV_SQRT2: u64 = 0x3FE6_A09E_667F_3BCD; // 1 / sqrt(2), rounded
    const MAGIC: f64 = 6755399441055744.0; // 1.5 * 2^52
    let e = (b >> 52) & 0x7ff;
    let p = (e + 1) & 1;
    let odd = 0u64.wrapping_sub(p);
    let m = (b & FRAC) | (1 << 52);
    // md = m / 2^52 in [1, 2); y ~ 1/sqrt(md); s = sqrt(md) (sqrt 2)^p ~ sqrt(M) / 2^52.
    let md = f64::from_bits(ONE | (b & FRAC));
    let mut y =
        (0.144_964_748_552_869_75 * md - 0.722_236_566_244_751_2) * md + 1.573_680_746_050_896_1;
    for _ in 0..3 {
        y = y * (1.5 - 0.5 * md * y * y);
    }
    let k = f64::from_bits(ONE ^ ((ONE ^ SQRT2) & odd));
    let kinv = f64::from_bits(ONE ^ ((ONE ^ INV_SQRT2) & odd));
    let s = md * y * k;
    let r0 = (s * (1u64 << 52) as f64) as i64;
    let d = (m << (52 + p)).wrapping_sub((r0 as u64).wrapping_mul(r0 as u64)) as i64;
    // D / (2 sqrt(M)) ~ D (y / k) 2^-53, rounded to an integer by the addition of 1.5 2^52.
    let t = (d as f64) * (y * kinv) * (1.0 / (1u64 << 53) as f64) + MAGIC;
    let c = (t.to_bits() as i64).wrapping_sub(MAGIC.to_bits() as i64);
    let r = round_root(m << (52 + p), r0 + c);
    let out = (((e + 1021 - p) >> 1) << 52).wrapping_add(r as u64);
    out & 0u64.wrapping_sub(u64::from(e != 0))
}

/// R = round(sqrt(M)) from an estimate r with |r - R| <= 1, given M mod 2^64 (M in
/// \[2^104, 2^106)): the exact D = M - r^2 (|D| < 2^56, so the wrapping difference is exact),
/// then one masked step up when D > r and one down when D <= -r, which leave -R < M - R^2 <= R.
#[inline(always)]
fn round_root(m_low: u64, r: i64) -> i64 {
    let mut r = r;
    let mut d = m_low.wrapping_sub((r as u64).wrapping_mul(r as u64)) as i64;
    let up = (r - d) >> 63;
    d -= (2 * r + 1) & up;
    r -= up;
    let down = (d + r - 1) >> 63;
    r + down
}

#[cfg(test)]
mod tests {
    use super::{recip_bits, round_root, sqrt_bits};

    #[test]
    fn root_rounding_corrects_an_estimate_off_by_one() {
        let mut s = 0x853c_49e6_748f_ea9bu64;
        for _ in 0..200_000 {
            // R in [2^52, 2^53) and M in [R^2 - R + 1, R^2 + R], whose rounded root is R.
            let r = ((next(&mut s) >> 12) | (1 << 52)) as i64;
            let off = (next(&mut s) % (2 * r as u64)) as i64 - r + 1;
            let m = (i128::from(r) * i128::from(r) + i128::from(off)) as u128;
            if m >> 104 == 0 {
                continue;
            }
            for est in [r - 1, r, r + 1] {
                assert_eq!(round_root(m as u64, est), r, "M = {m}, estimate {est}");
            }
        }
    }

    #[test]
    fn square_root_is_the_correctly_rounded_one() {
        extern crate std;
        let mut s = 0x2545_f491_4f6c_dd1du64;
        let mut cases = 0u32;
        let check = |b: u64| {
            let x = f64::from_bits(b);
            assert_eq!(
                sqrt_bits(b),
                x.sqrt().to_bits(),
                "sqrt {x:e} (bits {b:#018x})"
            );
        };
        for e in [1u64, 2, 3, 1022, 1023, 1024, 1025, 2045, 2046] {
            for f in (0..64).chain(((1 << 52) - 64)..(1 << 52)) {
                check((e << 52) | f);
                cases += 1;
            }
        }
        for _ in 0..2_000_000 {
            let r = next(&mut s);
            let e = 1 + (r >> 52) % 2046;
            check((r & ((1 << 52) - 1)) | (e << 52));
            cases += 1;
        }
        // Exact squares and their neighbours, and squares of half-integers (the closest cases
        // to a rounding boundary): k^2 and k^2 + k for 53-bit k, as mantissas of both parities.
        for _ in 0..200_000 {
            let k = u128::from((next(&mut s) >> 11) | (1 << 52));
            for v in [k * k, k * k + k, k * k + k + 1, k * k - 1] {
                // v in [2^104, 2^106): the mantissa is v >> 53 or v >> 54 when exact.
                for (sh, e) in [(52u32, 1023u64), (53, 1024)] {
                    let m = (v >> sh) as u64;
                    if m >> 52 == 1 {
                        check((e << 52) | (m & ((1 << 52) - 1)));
                        cases += 1;
                    }
                }
            }
        }
        assert_eq!(sqrt_bits(0), 0);
        assert_eq!(sqrt_bits(1), 0);
        assert!(cases > 2_100_000, "{cases}");
    }

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
