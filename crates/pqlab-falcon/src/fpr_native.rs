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

    /// a / b.
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

    /// 1 / a.
    #[inline(always)]
    pub fn inv(self) -> Fpr {
        Fpr(1.0 / self.0)
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
