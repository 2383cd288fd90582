//! The emulated back end of [`Fpr`] (feature `fpr-emu`): IEEE-754 binary64 with
//! round-to-nearest-even computed with integer operations only, for targets whose FPU is
//! missing or not strict (the reference implementation's `fpr.c` emulation plays the same role;
//! the formulation here is written for 32-bit cores such as the Cortex-M4).
//!
//! Values are the binary64 bit patterns. Results equal the native back end for every normal
//! operand and result, signed zeros included; as in the reference emulation, results below the
//! normal range are flushed to (signed) zero, and subnormal operands, infinities and NaNs are
//! not handled (Falcon never produces them; a subnormal operand gives zero or a value near it).
//!
//! Constant time: every operation runs a fixed sequence of integer instructions (masks instead
//! of branches, shifts by register, `leading_zeros` and `trailing_zeros`, which are CLZ and
//! RBIT on the Cortex-M4 and BSR / LZCNT and TZCNT / BSF on x86-64, all of fixed latency);
//! the reciprocal and the square root use multiplications only (no division instruction,
//! whose timing depends on the operands on the Cortex-M4).
//!
//! The larger operations (`add`, `mul`, `sqr`, `of`, `inv`, `sqrt`, `rint`, `floor`, `trunc`)
//! are `#[inline(never)]`, as the reference's `fpr.c` functions are: each is one branch-free body
//! (checked in the x86-64 and thumbv7em disassembly), out of reach of LLVM's conversion of
//! conditional moves into branches inside loops (seen on x86-64 when they were inlined into
//! the FFT loops), and of its vectorization of those loops with emulated 64-bit lanes (slower
//! on x86-64); the call costs less than either.
//!
//! Cost: every rounding works on a value brought to \[2^62, 2^63) by left shifts only (the
//! bits below the 53-bit mantissa are the round bit and the sticky ones), so that rounding to
//! nearest even is one addition (`pack_top`); the alignment's sticky bit in `add` comes from
//! the trailing zeros of the smaller mantissa, and `trunc`, `floor` and `rint` shift the
//! mantissa once and read the fraction from its trailing zeros. On 32-bit cores mantissas are
//! multiplied as 32-bit limbs (UMULL and UMLAL, no 64 x 64 -> 128 library call); the
//! reciprocal and the square root are Newton iterations on 32-bit words followed by an exact
//! remainder in wrapping 64-bit arithmetic and a fixed number of masked corrections (see
//! `fpr_emu_inv.rs` and `fpr_emu_sqrt.rs`).

use zeroize::Zeroize;

#[path = "fpr_emu_inv.rs"]
mod inv;

const MANT: u64 = 0x000F_FFFF_FFFF_FFFF;
const IMPLICIT: u64 = 1 << 52;
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

/// All ones when the 11-bit biased exponent `e` is non-zero (the value is not zero).
#[inline(always)]
fn nonzero_exp(e: u32) -> u64 {
    0u64.wrapping_sub(u64::from((e + 0x7FF) >> 11))
}

/// The biased exponent field of the bits `x`.
#[inline(always)]
fn exp_of(x: u64) -> u32 {
    (x >> 52) as u32 & 0x7FF
}

/// The product of two mantissas in \[2^52, 2^53), shifted down by 43 bits with a sticky lowest
/// bit (set when a non-zero bit was shifted out): in \[2^61, 2^63). One 64 x 64 -> 128
/// multiplication (64-bit targets).
#[cfg_attr(not(target_pointer_width = "64"), allow(dead_code))]
#[inline(always)]
fn mant_mul_wide(mx: u64, my: u64) -> u64 {
    let p = u128::from(mx) * u128::from(my);
    let lost = (p as u64) << 21;
    ((p >> 43) as u64) | ((lost | lost.wrapping_neg()) >> 63)
}

/// As [`mant_mul_wide`], with four 32 x 32 -> 64 products accumulated without carries (the
/// high words have 21 bits): UMULL and UMLAL on 32-bit cores, where a 128-bit product is a
/// library call.
#[cfg_attr(target_pointer_width = "64", allow(dead_code))]
#[inline(always)]
fn mant_mul_limbs(mx: u64, my: u64) -> u64 {
    let (xl, xh) = (u64::from(mx as u32), mx >> 32);
    let (yl, yh) = (u64::from(my as u32), my >> 32);
    // The product is p0 + 2^32 p1 + 2^64 p2 with the carries moved up: p1 < 2^54 + 2^32 and
    // p2 < 2^43.
    let p0 = xl * yl;
    let p1 = xl * yh + xh * yl + (p0 >> 32);
    let p2 = xh * yh + (p1 >> 32);
    // Bits 43.. are p2 2^21 + (bits 11..31 of p1); bits 0..42 the low 21 bits of p1 and p0.
    let w1 = p1 as u32;
    let lost = (w1 << 21) | (p0 as u32);
    (p2 << 21) | u64::from(w1 >> 11) | u64::from((lost | lost.wrapping_neg()) >> 31)
}

#[cfg(target_pointer_width = "64")]
use mant_mul_wide as mant_mul;

#[cfg(not(target_pointer_width = "64"))]
use mant_mul_limbs as mant_mul;

/// z in \[2^61, 2^63) brought to \[2^62, 2^63): doubled when below 2^62 (an addition, cheaper
/// than a shift by a variable count on 32-bit cores).
#[inline(always)]
fn double_low(z: u64) -> u64 {
    // All ones when bit 62 is clear.
    let low = (((z << 1) as i64) >> 63) as u64 ^ u64::MAX;
    z + (z & low)
}

/// The binary64 (-1)^s z 2^(be - 1085) rounded to nearest even, for z in \[2^62, 2^63) (its
/// 53-bit mantissa z 2^-10, a round bit and nine bits below it, the sticky ones): the sign bit
/// `s`, the biased exponent `be` before rounding (rounding up may carry into it: the mantissa
/// is added to the exponent field). A result below the normal range (be <= 0), or when `bad`
/// is negative, is flushed to the signed zero s.
#[inline(always)]
fn pack_top(s: u64, be: i32, bad: i32, z: u64) -> u64 {
    // Adding 2^9 - 1 plus the last kept bit carries into that bit exactly when the round bit
    // is set and the sticky bits or the last kept bit are: ties to even.
    let m = (z + u64::from(0x1FF + ((z as u32 >> 10) & 1))) >> 10;
    let e = u64::from((be - 1) as u32);
    // All ones unless be - 1 < 0 or bad < 0.
    let ok = !(i64::from(((be - 1) | bad) >> 31) as u64);
    s | ((e << 52).wrapping_add(m) & ok)
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

    /// The integer i as a floating-point value (exact for |i| < 2^53, rounded to nearest even
    /// above).
    #[inline(never)]
    pub fn of(i: i64) -> Fpr {
        let a = i.unsigned_abs();
        // a << n has its top bit at 63; one bit down (the dropped bit sticky), in [2^62, 2^63):
        // a = z 2^(1 - n), with mantissa z 2^-10, biased exponent 1086 - n. Zero (n = 64) is
        // flushed to +0.
        let n = a.leading_zeros();
        let z = a << (n & 63);
        let z = (z >> 1) | (z & 1);
        Fpr(pack_top(
            (i as u64) & SIGN,
            1086 - n as i32,
            (n as i32) << 25,
            z,
        ))
    }

    /// a + b.
    #[inline(never)]
    pub fn add(self, b: Fpr) -> Fpr {
        let (x, y) = (self.0, b.0);
        // Order so that |x| >= |y|; on equal magnitudes x is the positive one, if any, so that
        // an exact zero gets x's sign: (-a) + a = +0, (-0) + (-0) = -0. Swapping when
        // |x| < |y| + sx does both (|y| + sx does not overflow: |y| < 2^63).
        let swap = mask((x & !SIGN) < (y & !SIGN) + (x >> 63));
        let t = (x ^ y) & swap;
        let (x, y) = (x ^ t, y ^ t);
        let (ex, ey) = (exp_of(x), exp_of(y));
        // Mantissas with 3 extra bits below, in [2^55, 2^56) (a zero x means both are zero,
        // and the result is x's signed zero; a zero y has no implicit bit).
        let mx = ((x & MANT) | IMPLICIT) << 3;
        let fy = (y & MANT) | (u64::from(ey != 0) << 52);
        // Align y, with a sticky lowest bit: some of the d bits shifted out are non-zero when
        // y's mantissa has fewer than d trailing zeros (counted with the implicit bit always
        // set; a zero y then gets a sticky bit only for d > 55, where x's guard bits absorb
        // it: the rounding is that of a tiny non-zero y, i.e. of y = 0).
        let d = (ex - ey).min(63);
        let tz = ((y & MANT) | IMPLICIT).trailing_zeros() + 3;
        let my = ((fy << 3) >> d) | u64::from(tz < d);
        // Add, or subtract when the signs differ (no borrow: |x| >= |y|).
        let neg = 0u64.wrapping_sub((x ^ y) >> 63);
        let z = mx.wrapping_add(my ^ neg).wrapping_sub(neg);
        // z = (x + y) 2^(1078 - ex) < 2^57 and non-zero unless x + y = 0: shifting it left to
        // [2^62, 2^63) loses no bit, and its 53-bit mantissa is then z' 2^-10 with a round bit
        // and 9 bits below it (the alignment's sticky bit among them), so that x + y =
        // z' 2^(ex - 1077 - n) with n the leading zeros of z: biased exponent ex + 8 - n.
        let n = z.leading_zeros();
        let z = z << ((n - 1) & 63);
        let be = ex as i32 + 8 - n as i32;
        // An exact zero sum (n = 64) is flushed to x's sign.
        Fpr(pack_top(x & SIGN, be, (n as i32) << 25, z))
    }

    /// a - b.
    #[inline(always)]
    pub fn sub(self, b: Fpr) -> Fpr {
        self.add(b.neg())
    }

    /// a * b.
    #[inline(never)]
    pub fn mul(self, b: Fpr) -> Fpr {
        let (x, y) = (self.0, b.0);
        let (ex, ey) = (exp_of(x), exp_of(y));
        // z = mx my 2^-43 in [2^61, 2^63) with a sticky lowest bit; brought to [2^62, 2^63).
        let z = mant_mul((x & MANT) | IMPLICIT, (y & MANT) | IMPLICIT);
        let c = (z >> 62) as i32;
        let z = double_low(z);
        // x y = z 2^(ex + ey - 2108 + c), mantissa z 2^-10: biased exponent ex + ey - 1023 + c.
        // A zero operand (exponent field 0) flushes the result to the signed zero.
        let be = ex as i32 + ey as i32 - 1023 + c;
        let zero = (ex as i32 - 1) | (ey as i32 - 1);
        Fpr(pack_top((x ^ y) & SIGN, be, zero, z))
    }

    /// a / b (b non-zero): 56 quotient bits by restoring division, then rounding. Not used by
    /// key generation or signing (they use [`Fpr::inv`]).
    pub fn div(self, b: Fpr) -> Fpr {
        let (x, y) = (self.0, b.0);
        let (ex, ey) = (exp_of(x), exp_of(y));
        let s = (x ^ y) >> 63;
        let mx = (x & MANT) | IMPLICIT;
        let my = (y & MANT) | IMPLICIT;
        // mx / my in (1/2, 2): 56 bits of the quotient, the remainder as a sticky bit.
        let mut r = mx;
        let mut q = 0u64;
        for _ in 0..56 {
            let ge = mask(r >= my);
            r -= my & ge;
            q = (q << 1) | (ge & 1);
            r <<= 1;
        }
        // q = (mx / my) 2^55 in [2^54, 2^56), then shifted to [2^62, 2^63).
        let q = (q | u64::from(r != 0)) << 7;
        let c = (q >> 62) as i32;
        let q = double_low(q);
        let be = ex as i32 - ey as i32 + 1022 + c;
        Fpr(pack_top(s << 63, be, ex as i32 - 1, q))
    }

    /// -a.
    #[inline(always)]
    pub fn neg(self) -> Fpr {
        Fpr(self.0 ^ SIGN)
    }

    /// a / 2 (exact: the exponent minus one; flushed to zero below the normal range).
    #[inline(always)]
    pub fn half(self) -> Fpr {
        let x = self.0;
        let big = mask(exp_of(x) > 1);
        Fpr((x.wrapping_sub(IMPLICIT) & big) | (x & SIGN))
    }

    /// 2 a (exact: the exponent plus one).
    #[inline(always)]
    pub fn double(self) -> Fpr {
        let x = self.0;
        Fpr(x + (IMPLICIT & nonzero_exp(exp_of(x))))
    }

    /// a^2 (as `a * a`, with one exponent, a positive sign and one zero test).
    #[inline(never)]
    pub fn sqr(self) -> Fpr {
        let x = self.0;
        let ex = exp_of(x);
        let m = (x & MANT) | IMPLICIT;
        let z = mant_mul(m, m);
        let c = (z >> 62) as i32;
        let z = double_low(z);
        Fpr(pack_top(0, 2 * ex as i32 - 1023 + c, ex as i32 - 1, z))
    }

    /// 1 / a, correctly rounded (a non-zero).
    #[inline(never)]
    pub fn inv(self) -> Fpr {
        Fpr(inv::recip_bits(self.0))
    }

    /// The correctly rounded square root of a non-negative a.
    #[inline(never)]
    pub fn sqrt(self) -> Fpr {
        Fpr(crate::fpr_emu_sqrt::sqrt_bits(self.0))
    }

    /// a rounded towards zero, with the discarded fraction (|a| < 2^63): (2 |a| truncated, plus
    /// the half bit; the trailing zeros of the mantissa t at the top of 64 bits; the position k
    /// of the half bit in t, at most 63; the sign as a mask). The fraction is non-zero when t
    /// has at most k trailing zeros, and below one half non-zero when it has fewer than k.
    #[inline(always)]
    fn split_int(self) -> (u64, u32, u32, i64) {
        let x = self.0;
        let e = exp_of(x);
        // a = t 2^(e - 1086) with t in [2^63, 2^64) (0 for a zero a: no implicit bit).
        let t = ((x << 12) >> 1) | (u64::from(e != 0) << 63);
        // The half bit is bit 1085 - e of t; below one half (1085 - e >= 64) nothing is left.
        let k = 1085u32.wrapping_sub(e);
        let kk = k.min(63);
        let h2 = (t >> kk) & mask(k < 64);
        (h2, t.trailing_zeros(), kk, (x as i64) >> 63)
    }

    /// a rounded to the nearest integer, ties to even (|a| < 2^63).
    #[inline(never)]
    pub fn rint(self) -> i64 {
        let (h2, tz, k, neg) = self.split_int();
        let int = h2 >> 1;
        // Up when the half bit is set and the bits below it, or the last integer bit, are.
        let up = h2 & (u64::from(tz < k) | int) & 1;
        let v = (int + up) as i64;
        (v ^ neg) - neg
    }

    /// The largest integer not above a (|a| < 2^63).
    #[inline(never)]
    pub fn floor(self) -> i64 {
        let (h2, tz, k, neg) = self.split_int();
        let v = (h2 >> 1) as i64;
        ((v ^ neg) - neg) - (neg & i64::from(tz <= k))
    }

    /// a rounded towards zero (|a| < 2^63).
    #[inline(never)]
    pub fn trunc(self) -> i64 {
        let (h2, _, _, neg) = self.split_int();
        let v = (h2 >> 1) as i64;
        (v ^ neg) - neg
    }
}

impl Zeroize for Fpr {
    fn zeroize(&mut self) {
        self.0.zeroize();
    }
}

#[cfg(test)]
#[path = "fpr_emu_tests.rs"]
mod tests;
