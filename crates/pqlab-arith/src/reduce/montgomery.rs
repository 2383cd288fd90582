//! Signed Montgomery reduction with R = 2^r (Seiler 2018; the reduction of the FIPS 203 and
//! FIPS 204 reference implementations, there with r = 16 and r = 32).

use super::{Reduction, Rule, inv_mod};

/// Signed Montgomery reduction modulo an odd `Q` with R = 2^`R` (1 <= R <= 32, Q < 2^31):
/// returns (c - t q) / 2^r with t = c q^-1 mod 2^r taken in [-2^(r-1), 2^(r-1)).
///
/// * Input: |c| <= 2^62.
/// * Output: |out| <= (|c| + 2^(r-1) q) / 2^r, so |out| < q for |c| < 2^(r-1) q.
/// * Factor: 2^-r (twiddles are stored times 2^r, the "Montgomery form").
pub struct Montgomery<const Q: i64, const R: u32>;

impl<const Q: i64, const R: u32> Montgomery<Q, R> {
    /// q^-1 mod 2^r, sign-extended from r bits (Newton iteration on 2-adic inverses).
    pub const QINV: i64 = {
        assert!(Q % 2 == 1 && Q > 2 && Q < (1 << 31) && R >= 1 && R <= 32);
        let q = Q as u64;
        let mut inv = q; // correct to 3 bits
        let mut i = 0;
        while i < 5 {
            inv = inv.wrapping_mul(2u64.wrapping_sub(q.wrapping_mul(inv)));
            i += 1;
        }
        ((inv << (64 - R)) as i64) >> (64 - R)
    };
}

impl<const Q: i64, const R: u32> Reduction for Montgomery<Q, R> {
    const NAME: &'static str = "montgomery";
    const Q: i64 = Q;
    const IN_MAX: i64 = 1 << 62;
    const FACTOR: i64 = inv_mod((1i64 << R) % Q, Q);
    const RULE: Rule = Rule::Shift {
        base: 0,
        add: (1i64 << (R - 1)) * Q,
        shift: R,
        mul: 1,
        times: 1,
    };

    #[inline(always)]
    fn reduce(c: i64) -> i64 {
        // t = c * q^-1 mod 2^r, signed. For r = 32 (and 16) the multiplication is done in that
        // width, as the reference code does (same value; it keeps the loops vectorisable).
        let t = if R == 32 {
            i64::from((c as i32).wrapping_mul(Self::QINV as i32))
        } else if R == 16 {
            i64::from((c as i16).wrapping_mul(Self::QINV as i16))
        } else {
            let sh = 64 - R;
            (c.wrapping_mul(Self::QINV) << sh) >> sh
        };
        (c - t * Q) >> R
    }

    #[inline(always)]
    fn reduce_i32(c: i32) -> i32 {
        if R <= 16 && (1i64 << (R - 1)) * Q <= 1 << 30 {
            // |c| + 2^(r-1) q <= 2^31: no overflow, and the same t and result as `reduce`.
            let t = if R == 16 {
                i32::from((c as i16).wrapping_mul(Self::QINV as i16))
            } else {
                let sh = 32 - R;
                (c.wrapping_mul(Self::QINV as i32) << sh) >> sh
            };
            (c - t * (Q as i32)) >> R
        } else {
            Self::reduce(i64::from(c)) as i32
        }
    }
}
