//! The correctly rounded reciprocal of the emulated back end, with integer multiplications
//! only (no division instruction, no branch or index on the operand): Newton iterations on
//! 32-bit words, one step with the full 53-bit mantissa, then the exact remainder and masked
//! corrections.

const MANT: u64 = 0x000F_FFFF_FFFF_FFFF;
const IMPLICIT: u64 = 1 << 52;
const SIGN: u64 = 0x8000_0000_0000_0000;

/// Q = floor((2^106 - 1) / m) for a mantissa m in \[2^52, 2^53), within one unit: the result
/// q0 has q0 - Q in {-1, 0, 1}.
///
/// With M = m / 2^52 in \[1, 2):
/// * a quadratic seed Y ~ 1/M, the minimax 2.12098 - 1.45430 M + 0.32317 M^2 (with the 16-bit
///   constants, |1 - M Y| < 0.0103);
/// * three Newton steps Y += Y (1 - D Y) on D, the top 32 bits of M: 1 - D Y becomes
///   (1 - D Y)^2 plus at most 2^-29 of truncation, so |1 - M Y| < 2^-28 with y = Y 2^30;
/// * a last step with all of m: e = 1 - M Y is exactly r / 2^82 with r = 2^82 - m y, below
///   2^54 in absolute value, so the wrapping 64-bit product gives it exactly. Then
///   2^54 / M = y 2^24 (1 + e + e^2 / (1 - e)), and q0 = y 2^24 + floor(y floor(r / 2^27) / 2^31)
///   falls short of 2^54 / M by less than 1.6 (0.5 and 1 from the two floors, 2^54 e^2 < 2^-2).
///
/// Since Q is in \[2^54 / M - 1, 2^54 / M), q0 - Q is in {-1, 0, 1}.
#[inline(always)]
pub(super) fn approx_quotient(m: u64) -> i64 {
    // D 2^31 and D 2^14.
    let d = (m >> 21) as u32;
    let d14 = d >> 17;
    // Y0 = 2.12098 - M (1.45430 - 0.32317 M), in Q16, then Q30.
    let cd = (21180 * d14) >> 14;
    let u = 95309 - cd;
    let v = (d14 * u) >> 14;
    let mut y = ((139_001 - v) << 14) as i32;
    for _ in 0..3 {
        // (1 - D Y) 2^61, then 2^31.
        let p = u64::from(d) * u64::from(y as u32);
        let err = (1u64 << 61).wrapping_sub(p) as i64;
        let eh = (err >> 30) as i32;
        y += ((i64::from(y) * i64::from(eh)) >> 31) as i32;
    }
    // r = (1 - M Y) 2^82, exactly.
    let r = 0u64.wrapping_sub(m.wrapping_mul(u64::from(y as u32))) as i64;
    let rh = (r >> 27) as i32;
    let corr = (i64::from(y) * i64::from(rh)) >> 31;
    (i64::from(y) << 24) + corr
}

/// The bits of 1 / x, correctly rounded to nearest, for the bits `b` of a non-zero normal x;
/// results below the normal range (|x| > 2^1022) are flushed to zero.
///
/// With x = m 2^(e - 1075): 1 / x = (2^106 / m) 2^(969 - e). For m > 2^52, 2^106 / m is neither
/// an integer nor a half-integer (m has an odd factor), so with Q = floor((2^106 - 1) / m), in
/// \[2^53, 2^54), the correctly rounded 53-bit mantissa is (Q + 1) >> 1 (Q's last bit is the
/// rounding bit, the discarded rest is never zero and never a tie); for m = 2^52, Q = 2^54 - 1
/// and (Q + 1) >> 1 = 2^53 carries into the exponent and gives the exact power of two. Q comes
/// from [`approx_quotient`] and the exact remainder (2^106 - 1) - q0 m, in \[-m, 2m), whose low
/// 64 bits (wrapping products) are its value, and two masked corrections.
#[inline(always)]
pub(super) fn recip_bits(b: u64) -> u64 {
    let e = i64::from((b >> 52) as u32 & 0x7FF);
    let m = (b & MANT) | IMPLICIT;
    let mut q = approx_quotient(m);
    let mi = m as i64;
    let mut rem = u64::MAX.wrapping_sub((q as u64).wrapping_mul(m)) as i64;
    // rem < 0: one less.
    let neg = rem >> 63;
    q += neg;
    rem += mi & neg;
    // rem >= m: one more.
    q += !((rem - mi) >> 63) & 1;
    let mant = (q + 1) >> 1;
    // Biased exponent 2044 - e, plus one for the implicit bit (two for mant = 2^53); below the
    // normal range when that is not positive.
    let r = ((2044 - e) << 52) + mant;
    let ok = !((r - (1 << 52)) >> 63) as u64;
    (b & SIGN) | (r as u64 & ok)
}
