//! Correctly rounded binary64 square root with integer operations only, shared by both
//! [`crate::fpr::Fpr`] back ends: a fixed 55-step digit-by-digit integer square root, without
//! branches on the operand.

/// The bits of sqrt(x) for the bits of a non-negative x (zero and subnormals give zero; Falcon
/// only takes square roots of positive normal values).
pub(crate) fn sqrt_bits(x: u64) -> u64 {
    let e = ((x >> 52) & 0x7FF) as i64;
    // Mantissa with the implicit bit: [2^52, 2^53).
    let m = (x & 0x000F_FFFF_FFFF_FFFF) | (1u64 << 52);
    // x = m * 2^(e - 1075). Make the exponent even: if it is odd, double m.
    let odd = ((e - 1075) & 1) as u32;
    let m = u128::from(m << odd);
    let ex = e - 1075 - i64::from(odd);
    // r = isqrt(m * 2^56) is in [2^54, 2^55): 53 bits, a guard bit and a round bit.
    let big = m << 56;
    let mut rem = big;
    let mut r: u128 = 0;
    let mut bit: u128 = 1u128 << 110;
    for _ in 0..56 {
        let t = r + bit;
        // ge = all ones when rem >= t.
        let ge = 0u128.wrapping_sub(u128::from(rem >= t));
        rem -= t & ge;
        r = (r >> 1) + (bit & ge);
        bit >>= 2;
    }
    let sticky = u64::from(rem != 0);
    let r = r as u64;
    // sqrt(x) = r * 2^((ex - 56) / 2); keep 53 bits, round to nearest even with the two low
    // bits and the sticky bit.
    let low = r & 3;
    let mut q = r >> 2;
    let half = low >> 1;
    let rest = (low & 1) | sticky;
    q += half & (rest | (q & 1));
    let exp = (ex - 56) / 2 + 2 + 52 + 1023;
    // q is in [2^52, 2^53] (2^53 only after rounding up, which moves into the exponent).
    let carry = q >> 53;
    let q = q >> carry;
    let exp = exp + carry as i64;
    let out = ((exp as u64) << 52) + (q & 0x000F_FFFF_FFFF_FFFF);
    // Zero (or subnormal) input gives +0.
    out & 0u64.wrapping_sub(u64::from(e != 0))
}

#[cfg(test)]
mod tests {
    use super::sqrt_bits;

    #[test]
    fn matches_hardware_sqrt() {
        extern crate std;
        let mut s: u64 = 0x1234_5678_9abc_def1;
        for _ in 0..200_000 {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            let x = f64::from_bits(s & 0x7FFF_FFFF_FFFF_FFFF);
            if !x.is_finite() || x == 0.0 || !x.is_normal() {
                continue;
            }
            assert_eq!(sqrt_bits(x.to_bits()), x.sqrt().to_bits(), "{x}");
        }
        for x in [1.0f64, 2.0, 4.0, 0.25, 12289.0, 1e-300, 1e300, 3.0] {
            assert_eq!(sqrt_bits(x.to_bits()), x.sqrt().to_bits(), "{x}");
        }
        assert_eq!(sqrt_bits(0), 0);
    }
}
