//! Barrett reduction with a 64-bit reciprocal (Barrett, CRYPTO '86).

use super::{Reduction, Rule};

/// Barrett reduction modulo `Q` (Q < 2^31): t = round(c * v / 2^64) with v = round(2^64 / q),
/// out = c - t q. The product c * v is taken in 128 bits (one widening multiplication on 64-bit
/// CPUs).
///
/// * Input: |c| <= 2^62.
/// * Output: |out| <= (q + 1) / 2 + |c| q / 2^65 + 1, so at most about 5q/8 over the whole range
///   and (q + 1) / 2 + 1 for |c| < 2^65 / q.
/// * Factor: 1 (twiddles are stored as they are).
pub struct Barrett<const Q: i64>;

impl<const Q: i64> Barrett<Q> {
    /// v = round(2^64 / q).
    pub const V: i64 = {
        assert!(Q > 2 && Q < (1 << 31));
        (((1i128 << 64) + (Q as i128) / 2) / (Q as i128)) as i64
    };
}

impl<const Q: i64> Reduction for Barrett<Q> {
    const NAME: &'static str = "barrett";
    const Q: i64 = Q;
    const IN_MAX: i64 = 1 << 62;
    const FACTOR: i64 = 1;
    const RULE: Rule = Rule::Barrett { q: Q };

    #[inline(always)]
    fn reduce(c: i64) -> i64 {
        let t = ((i128::from(c) * i128::from(Self::V) + (1i128 << 63)) >> 64) as i64;
        c - t * Q
    }
}
