//! The emulated back end of [`Fpr`] (feature `fpr-emu`): IEEE-754 binary64 with
//! round-to-nearest-even computed with integer operations only, for targets whose FPU is
//! missing or not strict (the reference implementation's `fpr.c` emulation plays the same role;
//! the formulation here is written for 32-bit cores such as the Cortex-M4).
//!
//! Values are the binary64 bit patterns. Results equal the native back end for every normal
//! operand and result, signed zeros included; as in the reference emulation, results below the
//! normal range are flushed to (signed) zero, subnormal operands are read as zero, and
//! infinities and NaNs are not handled (Falcon never produces them).
//!
//! Constant time: every operation runs a fixed sequence of integer instructions (masks instead
//! of branches, shifts by register, `leading_zeros`, which is CLZ on the Cortex-M4 and BSR or
//! LZCNT on x86-64); the reciprocal and the square root use multiplications only (no division
//! instruction, whose timing depends on the operands on the Cortex-M4).
//!
//! The larger operations (`add`, `mul`, `of`, `inv`, `sqrt`, `rint`, `floor`, `trunc`) are
//! `#[inline(never)]`, as the reference's `fpr.c` functions are: each is one branch-free body
//! (checked in the x86-64 and thumbv7em disassembly), out of reach of LLVM's conversion of
//! conditional moves into branches inside loops (seen on x86-64 when they were inlined into
//! the FFT loops), and of its vectorization of those loops with emulated 64-bit lanes (slower
//! on x86-64); the call costs less than either.
//!
//! Cost on 32-bit cores: mantissas are multiplied as 32-bit limbs (UMULL, no 64 x 64 -> 128
//! library call); the reciprocal and the square root are Newton iterations on 32-bit words
//! followed by an exact remainder in wrapping 64-bit arithmetic and a fixed number of masked
//! corrections (see `fpr_emu_inv.rs` and `fpr_emu_sqrt.rs`).

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

/// 1 when the 64-bit value `x & m` is non-zero, for a mask `m = 2^k - 1` with k < 64.
#[inline(always)]
fn sticky(x: u64, m: u64) -> u64 {
    ((x & m) + m) >> m.count_ones()
}

/// The binary64 (-1)^s z 2^(be - 1077) rounded to nearest even, for z in \[2^54, 2^55): 53
/// mantissa bits, a round bit and a sticky bit (the lowest). `be` is the biased exponent of the
/// result before rounding; rounding up may carry into it (the mantissa is added to the
/// exponent field). A result below the normal range (be <= 0) is flushed to (-1)^s 0.
#[inline(always)]
fn pack(s: u64, be: i32, z: u64) -> u64 {
    // All ones when be > 0 (else the exponent bits are garbage, masked).
    let ok = i64::from((-be) >> 31) as u64;
    let e = u64::from((be - 1) as u32);
    // Round up when the round bit is set and the sticky or the last kept bit is (the low
    // three bits 011, 110 or 111: bits 3, 6 and 7 of 0xC8).
    let up = (0xC8 >> (z & 7)) & 1;
    (s << 63) | ((e << 52).wrapping_add(z >> 2).wrapping_add(up) & ok)
}

/// The top bits of the product of two mantissas in \[2^52, 2^53): (mx my) >> 50 with a sticky
/// lowest bit, in \[2^54, 2^56). One 64 x 64 -> 128 multiplication (64-bit targets).
#[cfg_attr(not(target_pointer_width = "64"), allow(dead_code))]
#[inline(always)]
fn mant_mul_wide(mx: u64, my: u64) -> u64 {
    let p = u128::from(mx) * u128::from(my);
    let lo = p as u64;
    ((p >> 50) as u64) | sticky(lo, (1 << 50) - 1)
}

/// As [`mant_mul_wide`], with four 32 x 32 -> 64 products (UMULL on 32-bit cores, where a
/// 128-bit product is a library call).
#[cfg_attr(target_pointer_width = "64", allow(dead_code))]
#[inline(always)]
fn mant_mul_limbs(mx: u64, my: u64) -> u64 {
    let (xl, xh) = (u64::from(mx as u32), mx >> 32);
    let (yl, yh) = (u64::from(my as u32), my >> 32);
    let ll = xl * yl;
    let lh = xl * yh;
    let hl = xh * yl;
    let hh = xh * yh;
    // The product is hh 2^64 + (lh + hl) 2^32 + ll: bits 32..63 in `mid`'s low half.
    let mid = (ll >> 32) + (lh & 0xFFFF_FFFF) + (hl & 0xFFFF_FFFF);
    let top = hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
    let w1 = mid as u32;
    let w0 = ll as u32;
    // Bits 50.. of the product; bits 0..49 are w0 and the low 18 bits of w1.
    let lost = (w1 & 0x3_FFFF) | w0;
    (top << 14) | u64::from(w1 >> 18) | u64::from((lost | lost.wrapping_neg()) >> 31)
}

/// m >> d with a sticky lowest bit (set when a non-zero bit was shifted out), for m < 2^63;
/// beyond 63 bits m is dropped (in an addition it is then below a 2^-10 fraction of the
/// larger operand's last bit and cannot change the rounding).
#[inline(always)]
fn align(m: u64, d: u32) -> u64 {
    let m = m & (i64::from((d as i32 - 64) >> 31) as u64);
    let d = d & 63;
    let r = m >> d;
    // The shifted-out bits are non-zero when shifting back does not give m.
    let lost = (r << d) ^ m;
    r | ((lost | lost.wrapping_neg()) >> 63)
}

#[cfg(target_pointer_width = "64")]
use mant_mul_wide as mant_mul;

#[cfg(not(target_pointer_width = "64"))]
use mant_mul_limbs as mant_mul;

/// Normalizes a non-zero z < 2^64 to \[2^54, 2^55) with a sticky lowest bit; returns it and
/// 63 - (the index of z's top bit). For z = 0 the result is 0 (and the count 64).
#[inline(always)]
fn normalize(z: u64) -> (u64, i32) {
    let lz = z.leading_zeros();
    let z = z << (lz & 63);
    ((z >> 9) | sticky(z, 0x1FF), lz as i32)
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
        let s = (i as u64) >> 63;
        let a = i.unsigned_abs();
        // a = z 2^(9 - lz) after normalization.
        let (z, lz) = normalize(a);
        Fpr(pack(s, 1086 - lz, z) & !mask(a == 0))
    }

    /// a + b.
    #[inline(never)]
    pub fn add(self, b: Fpr) -> Fpr {
        let (x, y) = (self.0, b.0);
        // Order so that |x| >= |y|; on equal magnitudes x is the positive one, if any, so that
        // an exact zero gets x's sign: (-a) + a = +0, (-0) + (-0) = -0.
        let za = (x & !SIGN).wrapping_sub(y & !SIGN) as i64;
        let swap = (za >> 63) as u64 | (mask(za == 0) & 0u64.wrapping_sub(x >> 63));
        let t = (x ^ y) & swap;
        let (x, y) = (x ^ t, y ^ t);
        let (ex, ey) = (exp_of(x), exp_of(y));
        let (sx, sy) = (x >> 63, y >> 63);
        // Mantissas with 10 extra bits below (a zero y contributes nothing; a zero x means both
        // are zero, and the result is x).
        let mx = ((x & MANT) | IMPLICIT) << 10;
        let my = (((y & MANT) | IMPLICIT) & nonzero_exp(ey)) << 10;
        // Align y with a sticky lowest bit.
        let my = align(my, ex - ey);
        // Add, or subtract when the signs differ (no borrow: |x| >= |y|).
        let neg = 0u64.wrapping_sub(sx ^ sy);
        let z = mx.wrapping_add(my ^ neg).wrapping_sub(neg);
        // z = (x + y) 2^(1085 - ex); after normalization z' = (x + y) 2^(1076 - ex + lz). When
        // x is zero (so is y), z = mx 2^10 and be = ex = 0: flushed to x's signed zero.
        let (z, lz) = normalize(z);
        let r = pack(sx, ex as i32 + 1 - lz, z);
        Fpr((r & !mask(z == 0)) | (sx << 63))
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
        let s = (x ^ y) >> 63;
        let z = mant_mul((x & MANT) | IMPLICIT, (y & MANT) | IMPLICIT);
        // z = mx my 2^-50 in [2^54, 2^56): bring it to [2^54, 2^55), the dropped bit sticky.
        let c = z >> 55;
        let z = (z >> c) | (z & c);
        // x y = z 2^(ex + ey - 2100 + c); a zero operand (ex ey = 0 < 2^22) takes 4096 off the
        // exponent, so that the result is flushed to the signed zero.
        let nz = (ex * ey + 0x3F_FFFF) >> 22;
        let be = ex as i32 + ey as i32 - 1023 + c as i32 - (((1 - nz) as i32) << 12);
        Fpr(pack(s, be, z))
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
        // q = (mx / my) 2^55 in [2^54, 2^56); normalize to [2^54, 2^55).
        let q = q | u64::from(r != 0);
        let c = q >> 55;
        let q = (q >> c) | (q & c);
        let res = pack(s, ex as i32 - ey as i32 + 1022 + c as i32, q);
        Fpr((res & nonzero_exp(ex)) | (s << 63))
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

    /// a^2.
    #[inline(always)]
    pub fn sqr(self) -> Fpr {
        self.mul(self)
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

    /// a rounded towards zero, with the discarded fraction: (|a| truncated, fraction non-zero,
    /// the half bit, fraction bits below the half bit non-zero, sign).
    #[inline(always)]
    fn split_int(self) -> (u64, bool, bool, bool, u64) {
        let x = self.0;
        let e = exp_of(x) as i32;
        let m = ((x & MANT) | IMPLICIT) & nonzero_exp(e as u32);
        let s = x >> 63;
        // |a| = m 2^k (only |a| < 2^63 is supported: k <= 10).
        let k = e - 1075;
        let left = k.clamp(0, 63) as u32;
        // r fraction bits (r = 0: none; r >= 64: m is all fraction, below one half).
        let r = (-k).clamp(0, 64) as u32;
        let int = ((m >> (r & 63)) & mask(r < 64)) << left;
        let frac = (m << ((64 - r) & 63)) & mask(r != 0);
        let half = (frac >> 63) == 1;
        let below = (frac << 1) != 0;
        (int, frac != 0, half, below, s)
    }

    /// a rounded to the nearest integer, ties to even (|a| < 2^63).
    #[inline(never)]
    pub fn rint(self) -> i64 {
        let (int, _, half, below, s) = self.split_int();
        let up = u64::from(half & (below | ((int & 1) == 1)));
        let v = (int + up) as i64;
        let neg = mask(s == 1) as i64;
        (v ^ neg) - neg
    }

    /// The largest integer not above a (|a| < 2^63).
    #[inline(never)]
    pub fn floor(self) -> i64 {
        let (int, frac, _, _, s) = self.split_int();
        let v = int as i64;
        let neg = mask(s == 1) as i64;
        ((v ^ neg) - neg) - i64::from((s == 1) & frac)
    }

    /// a rounded towards zero (|a| < 2^63).
    #[inline(never)]
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
#[path = "fpr_emu_tests.rs"]
mod tests;
