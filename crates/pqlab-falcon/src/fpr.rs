//! The floating-point type of the signer, [`Fpr`]: IEEE-754 binary64 with round-to-nearest-even
//! (Falcon spec v1.2, Section 3.8 and the reference implementation's `fpr` layer).
//!
//! This module holds the operations every back end shares (the constants, exp(-x) by a fixed-
//! point polynomial) and selects the back end: the native one, plain Rust `f64` arithmetic
//! (strict binary64: Rust never contracts `a * b + c` into an FMA), or, with the `fpr-emu`
//! feature, an integer-only emulation. Both give bit-identical results (the KAT tests run
//! with each).
//!
//! Constant time: the native operations are the CPU's (no data-dependent timing for normal
//! operands on current x86-64 and AArch64 cores); [`Fpr::sqrt`], [`Fpr::rint`], [`Fpr::floor`] and
//! [`Fpr::trunc`] are branch-free.

pub use backend::Fpr;

/// The floating-point back end this build uses, for reports.
#[cfg(not(feature = "fpr-emu"))]
pub const BACKEND: &str = "native f64";
/// The floating-point back end this build uses, for reports.
#[cfg(feature = "fpr-emu")]
pub const BACKEND: &str = "emulated binary64 (integer-only, fpr-emu)";

#[cfg(not(feature = "fpr-emu"))]
#[path = "fpr_native.rs"]
mod backend;

#[cfg(feature = "fpr-emu")]
#[path = "fpr_emu.rs"]
mod backend;

impl Fpr {
    /// 0.
    pub const ZERO: Fpr = Fpr::from_bits(0);
    /// 1.
    pub const ONE: Fpr = Fpr::from_bits(0x3FF0_0000_0000_0000);
    /// 1/q.
    pub const INVERSE_OF_Q: Fpr = Fpr::from_bits(4545632735260551042);
    /// 1 / (2 sigma0^2), sigma0 = 1.8205 (the base sampler's standard deviation).
    pub const INV_2SQRSIGMA0: Fpr = Fpr::from_bits(4594603506513722306);
    /// ln 2.
    pub const LOG2: Fpr = Fpr::from_bits(4604418534313441775);
    /// 1 / ln 2.
    pub const INV_LOG2: Fpr = Fpr::from_bits(4609176140021203710);
    /// 2^63.
    pub const PTWO63: Fpr = Fpr::from_bits(4890909195324358656);

    /// 1 / sigma for logn = 9 and 10 (Table 3.3: sigma = 165.736617183, 168.388571447).
    pub const fn inv_sigma(logn: u32) -> Fpr {
        if logn == 10 {
            Fpr::from_bits(4573496814039276259)
        } else {
            Fpr::from_bits(4573606369665796042)
        }
    }

    /// sigma_min for logn = 9 and 10 (Table 3.3: 1.277833697, 1.298280334).
    pub const fn sigma_min(logn: u32) -> Fpr {
        if logn == 10 {
            Fpr::from_bits(4608525754002622308)
        } else {
            Fpr::from_bits(4608433670533905013)
        }
    }

    /// 2^(1 - logn), the scaling of the inverse FFT (whose first, implicit level is not run).
    pub const fn p2(logn: u32) -> Fpr {
        Fpr::from_bits((1024 - logn as u64) << 52)
    }

    /// a < b (for values that are not NaN; -0 equals +0), from the IEEE-754 bits.
    pub fn lt(self, b: Fpr) -> bool {
        fn key(x: u64) -> i64 {
            let m = (x & 0x7FFF_FFFF_FFFF_FFFF) as i64;
            if x >> 63 == 1 { -m } else { m }
        }
        key(self.to_bits()) < key(b.to_bits())
    }

    /// 2^e for -1022 <= e <= 1023 (exact).
    pub const fn pow2(e: i32) -> Fpr {
        Fpr::from_bits(((1023 + e) as u64) << 52)
    }

    /// 2^63 exp(-x) ccs, for 0 <= x < ln 2 and 0 <= ccs <= 1, computed with a fixed-point
    /// polynomial (the FACCT approximation used by the reference `fpr_expm_p63`); used by
    /// BerExp (Falcon spec v1.2, Algorithm 14).
    pub fn expm_p63(self, ccs: Fpr) -> u64 {
        const C: [u64; 13] = [
            0x00000004741183A3,
            0x00000036548CFC06,
            0x0000024FDCBF140A,
            0x0000171D939DE045,
            0x0000D00CF58F6F84,
            0x000680681CF796E3,
            0x002D82D8305B0FEA,
            0x011111110E066FD0,
            0x0555555555070F00,
            0x155555555581FF00,
            0x400000000002B400,
            0x7FFFFFFFFFFF4800,
            0x8000000000000000,
        ];
        let mut y = C[0];
        let z = (self.scale_p63().trunc() as u64) << 1;
        for &c in &C[1..] {
            y = c.wrapping_sub(mulhi(z, y));
        }
        let z = (ccs.scale_p63().trunc() as u64) << 1;
        mulhi(z, y)
    }

    /// A value whose truncation is that of a 2^63 (`a.mul(Fpr::PTWO63)`), for |a| < 1: the
    /// exponent field plus 63, exact for a normal a; a zero (or subnormal) a becomes a value
    /// below 2^-959 in magnitude, truncated to 0 as a 2^63 is.
    #[inline(always)]
    fn scale_p63(self) -> Fpr {
        Fpr::from_bits(self.to_bits() + (63 << 52))
    }
}

/// The high 64 bits of the 128-bit product z y (exact).
#[inline(always)]
fn mulhi(z: u64, y: u64) -> u64 {
    ((u128::from(z) * u128::from(y)) >> 64) as u64
}

impl core::ops::Add for Fpr {
    type Output = Fpr;
    #[inline(always)]
    fn add(self, b: Fpr) -> Fpr {
        Fpr::add(self, b)
    }
}

impl core::ops::Sub for Fpr {
    type Output = Fpr;
    #[inline(always)]
    fn sub(self, b: Fpr) -> Fpr {
        Fpr::sub(self, b)
    }
}

impl core::ops::Mul for Fpr {
    type Output = Fpr;
    #[inline(always)]
    fn mul(self, b: Fpr) -> Fpr {
        Fpr::mul(self, b)
    }
}

impl core::ops::Neg for Fpr {
    type Output = Fpr;
    #[inline(always)]
    fn neg(self) -> Fpr {
        Fpr::neg(self)
    }
}

// SAFETY: `Fpr` is `#[repr(transparent)]` over `f64` (native) or `u64` (fpr-emu): eight
// bytes, alignment 8, no padding, and every bit pattern is a value (all zeros is +0.0). These
// impls let key generation view its aligned integer workspace as floating-point values
// through bytemuck's checked casts (`keygen::solve::fpr_area`), as the reference overlays its
// `fpr` arrays on its word buffer.
#[allow(unsafe_code)]
unsafe impl bytemuck::Zeroable for Fpr {}
// SAFETY: as above.
#[allow(unsafe_code)]
unsafe impl bytemuck::Pod for Fpr {}

#[cfg(test)]
mod tests {
    use super::Fpr;

    /// The exponent shift truncates as the multiplication by 2^63 does, on the operands of
    /// `expm_p63` (in [0, 1], and slightly negative) and on zeros.
    #[test]
    fn scale_p63_truncates_as_the_product() {
        let mut s = 0x0123_4567_89AB_CDEFu64;
        let check = |b: u64| {
            let a = Fpr::from_bits(b);
            assert_eq!(a.scale_p63().trunc(), a.mul(Fpr::PTWO63).trunc(), "{b:#x}");
        };
        for b in [
            0u64,
            1 << 63,
            1,
            Fpr::ONE.to_bits() - 1,
            Fpr::LOG2.to_bits(),
        ] {
            check(b);
        }
        for _ in 0..200_000 {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            // Exponents 0 to 1022 (|a| < 1), either sign.
            let e = (s >> 52) % 1023;
            check((s & ((1 << 63) | ((1 << 52) - 1))) | (e << 52));
        }
    }
}
