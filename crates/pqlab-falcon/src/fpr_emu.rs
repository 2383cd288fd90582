//! The emulated back end of [`Fpr`] (feature `fpr-emu`): IEEE-754 binary64 with
//! round-to-nearest-even computed with integer operations only, for targets whose FPU is
//! missing or not strict (the reference implementation's `fpr.c` emulation plays the same role).
//!
//! Values are the binary64 bit patterns. Results equal the native back end for every normal
//! operand; as in the reference emulation, subnormal results are flushed to zero and infinities
//! and NaNs are not handled (Falcon never produces them). Every operation runs a fixed sequence
//! of integer instructions (masks instead of branches; the division and square root run a fixed
//! number of steps), so timing does not depend on the values.

use zeroize::Zeroize;

const MANT: u64 = 0x000F_FFFF_FFFF_FFFF;
const SIGN: u64 = 0x8000_0000_0000_0000;

/// A binary64 floating-point value, as its bit pattern.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[repr(transparent)]
pub struct Fpr(u64);

/// All ones when `c` is true.
#[inline(always)]
fn mask(c: bool) -> u64 {
    0u64.wrapping_sub(u64::from(c))
}

/// The unbiased exponent field and the 53-bit mantissa with its implicit bit (0 for zero and
/// subnormals, which are treated as zero).
#[inline(always)]
fn unpack(x: u64) -> (i32, u64) {
    let e = ((x >> 52) & 0x7FF) as i32;
    let m = ((x & MANT) | (1u64 << 52)) & mask(e != 0);
    (e, m)
}

/// The binary64 nearest to (-1)^s m 2^e (ties to even), for any m (its lowest bit may be a
/// sticky bit standing for non-zero bits below it). Results below the normal range are zero.
#[inline(always)]
fn round_pack(s: u64, e: i32, m: u64) -> u64 {
    let nz = mask(m != 0);
    let lz = (m | 1).leading_zeros() as i32;
    // Bring the top bit to position 54 (53 mantissa bits and 2 extra bits).
    let left = (lz - 9).max(0) as u32;
    let right = (9 - lz).max(0) as u32;
    let lost = m & ((1u64 << right) - 1);
    let mut mm = ((m << left) >> right) | u64::from(lost != 0);
    let mut ee = e - left as i32 + right as i32;
    // Round to nearest even on the two extra bits (the lower one is sticky).
    let low = mm & 3;
    mm >>= 2;
    let up = (low >> 1) & ((low & 1) | (mm & 1));
    mm += up;
    // A carry out of 53 bits moves into the exponent.
    let carry = mm >> 53;
    mm >>= carry;
    ee += carry as i32;
    let be = ee + 2 + 52 + 1023;
    let ok = nz & mask(be > 0);
    let be = (be.max(0) as u64) & 0x7FF;
    ((s << 63) | (be << 52) | (mm & MANT)) & ok
}

// The method names follow the reference's `fpr_add`, `fpr_mul`, ...; `fpr.rs` implements the
// operator traits on top of them.
#[allow(clippy::should_implement_trait)]
impl Fpr {
    /// The value with these IEEE-754 bits.
    #[inline(always)]
    pub const fn from_bits(b: u64) -> Fpr {
        Fpr(b)
    }

    /// The IEEE-754 bits.
    #[inline(always)]
    pub const fn to_bits(self) -> u64 {
        self.0
    }

    /// The integer i as a floating-point value (exact for |i| < 2^53).
    #[inline(always)]
    pub fn of(i: i64) -> Fpr {
        let s = (i as u64) >> 63;
        Fpr(round_pack(s, 0, i.unsigned_abs()))
    }

    /// a + b.
    pub fn add(self, b: Fpr) -> Fpr {
        let (x, y) = (self.0, b.0);
        // Order so that |x| >= |y| (on equal magnitudes, x positive: (-a) + a = +0).
        let ax = x & !SIGN;
        let ay = y & !SIGN;
        let swap = mask((ax < ay) | ((ax == ay) & ((x >> 63) == 1)));
        let t = (x ^ y) & swap;
        let (x, y) = (x ^ t, y ^ t);
        let (ex, mx) = unpack(x);
        let (ey, my) = unpack(y);
        // Ten guard bits below the mantissa; align y with a sticky bit.
        let mx = mx << 10;
        let my = my << 10;
        let sh = (ex - ey).min(63) as u32;
        let lost = my & ((1u64 << sh) - 1);
        let my = (my >> sh) | u64::from(lost != 0);
        let diff = mask(((x ^ y) >> 63) == 1);
        let mz = (mx.wrapping_add(my) & !diff) | (mx.wrapping_sub(my) & diff);
        // A zero x means both are zero.
        let r = round_pack(x >> 63, ex - 1075 - 10, mz);
        Fpr(r & mask(ex != 0) | (y & mask(ex == 0) & !SIGN))
    }

    /// a - b.
    #[inline(always)]
    pub fn sub(self, b: Fpr) -> Fpr {
        self.add(b.neg())
    }

    /// a * b.
    pub fn mul(self, b: Fpr) -> Fpr {
        let (ex, mx) = unpack(self.0);
        let (ey, my) = unpack(b.0);
        let s = (self.0 ^ b.0) >> 63;
        // The product has 105 or 106 bits; keep the top 56 with a sticky bit.
        let p = u128::from(mx) * u128::from(my);
        let hi = (p >> 50) as u64;
        let lost = (p as u64) & ((1u64 << 50) - 1);
        let m = hi | u64::from(lost != 0);
        let r = round_pack(s, ex + ey - 2 * 1075 + 50, m);
        Fpr(r & mask((ex != 0) & (ey != 0)))
    }

    /// a / b (b non-zero): 56 quotient bits by restoring division, then rounding.
    pub fn div(self, b: Fpr) -> Fpr {
        let (ex, mx) = unpack(self.0);
        let (ey, my) = unpack(b.0);
        let s = (self.0 ^ b.0) >> 63;
        let mut r = mx;
        let mut q = 0u64;
        for _ in 0..56 {
            let ge = mask(r >= my);
            r -= my & ge;
            q = (q << 1) | (ge & 1);
            r <<= 1;
        }
        let m = q | u64::from(r != 0);
        let res = round_pack(s, ex - ey - 55, m);
        Fpr(res & mask(ex != 0))
    }

    /// -a.
    #[inline(always)]
    pub fn neg(self) -> Fpr {
        Fpr(self.0 ^ SIGN)
    }

    /// a / 2.
    #[inline(always)]
    pub fn half(self) -> Fpr {
        self.mul(Fpr(0x3FE0_0000_0000_0000))
    }

    /// 2 a.
    #[inline(always)]
    pub fn double(self) -> Fpr {
        self.add(self)
    }

    /// a^2.
    #[inline(always)]
    pub fn sqr(self) -> Fpr {
        self.mul(self)
    }

    /// 1 / a.
    #[inline(always)]
    pub fn inv(self) -> Fpr {
        Fpr(0x3FF0_0000_0000_0000).div(self)
    }

    /// The correctly rounded square root of a non-negative a.
    pub fn sqrt(self) -> Fpr {
        Fpr(crate::fpr_emu_sqrt::sqrt_bits(self.0))
    }

    /// a rounded towards zero, with the discarded fraction: (|a| truncated, fraction non-zero,
    /// the half bit, fraction bits below the half bit non-zero, sign).
    #[inline(always)]
    fn split_int(self) -> (u64, bool, bool, bool, u64) {
        let (e, m) = unpack(self.0);
        let s = self.0 >> 63;
        // a = m 2^(e - 1075); only |a| < 2^63 is supported.
        let k = e - 1075;
        let left = k.clamp(0, 63) as u32;
        let right = (-k).clamp(0, 64) as u32;
        let wide = u128::from(m) << 64;
        let shifted = wide >> right;
        let int = ((shifted >> 64) as u64) << left;
        let frac = shifted as u64;
        let half = (frac >> 63) == 1;
        let below = (frac << 1) != 0;
        (int, frac != 0, half, below, s)
    }

    /// a rounded to the nearest integer, ties to even (|a| < 2^63).
    pub fn rint(self) -> i64 {
        let (int, _, half, below, s) = self.split_int();
        let up = u64::from(half & (below | ((int & 1) == 1)));
        let v = (int + up) as i64;
        let neg = mask(s == 1) as i64;
        (v ^ neg) - neg
    }

    /// The largest integer not above a (|a| < 2^63).
    pub fn floor(self) -> i64 {
        let (int, frac, _, _, s) = self.split_int();
        let v = int as i64;
        let neg = mask(s == 1) as i64;
        ((v ^ neg) - neg) - i64::from((s == 1) & frac)
    }

    /// a rounded towards zero (|a| < 2^63).
    pub fn trunc(self) -> i64 {
        let (int, _, _, _, s) = self.split_int();
        let v = int as i64;
        let neg = mask(s == 1) as i64;
        (v ^ neg) - neg
    }
}

impl Zeroize for Fpr {
    fn zeroize(&mut self) {
        self.0.zeroize();
    }
}

#[cfg(test)]
mod tests {
    extern crate std;

    use super::Fpr;

    fn rnd(s: &mut u64) -> f64 {
        *s ^= *s << 13;
        *s ^= *s >> 7;
        *s ^= *s << 17;
        // Moderate exponents, both signs, and some exact integers and halves.
        match *s % 5 {
            0 => ((*s >> 8) % 20001) as f64 - 10000.0,
            1 => (((*s >> 8) % 4001) as f64 - 2000.0) * 0.5,
            _ => {
                let e = 1023 - 40 + ((*s >> 3) % 80);
                f64::from_bits(((*s >> 63) << 63) | (e << 52) | (*s & 0x000F_FFFF_FFFF_FFFF))
            }
        }
    }

    /// Every operation matches the hardware's binary64 arithmetic bit for bit.
    #[test]
    fn matches_native() {
        let mut s = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..300_000 {
            let a = rnd(&mut s);
            let b = rnd(&mut s);
            let (x, y) = (Fpr::from_bits(a.to_bits()), Fpr::from_bits(b.to_bits()));
            let chk = |got: Fpr, want: f64, op: &str| {
                let w = if want == 0.0 { 0 } else { want.to_bits() };
                let g = if got.to_bits() << 1 == 0 {
                    0
                } else {
                    got.to_bits()
                };
                assert_eq!(g, w, "{op}: {a:e} {b:e}");
            };
            chk(x.add(y), a + b, "add");
            chk(x.sub(y), a - b, "sub");
            chk(x.mul(y), a * b, "mul");
            if b != 0.0 {
                chk(x.div(y), a / b, "div");
            }
            chk(x.half(), a * 0.5, "half");
            if a.abs() < 9.0e15 {
                assert_eq!(x.trunc(), a as i64, "trunc {a}");
                assert_eq!(x.floor(), a.floor() as i64, "floor {a}");
                assert_eq!(x.rint(), a.round_ties_even() as i64, "rint {a}");
            }
            let i = (a as i64) % (1 << 40);
            assert_eq!(Fpr::of(i).to_bits(), (i as f64).to_bits(), "of {i}");
        }
        assert_eq!(Fpr::from_bits(2.5f64.to_bits()).rint(), 2);
        assert_eq!(Fpr::from_bits((-2.5f64).to_bits()).rint(), -2);
        assert_eq!(Fpr::from_bits((-0.5f64).to_bits()).floor(), -1);
        assert_eq!(
            Fpr::from_bits(0.0f64.to_bits())
                .add(Fpr::from_bits(1.5f64.to_bits()))
                .to_bits(),
            1.5f64.to_bits()
        );
    }
}
