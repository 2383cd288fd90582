//! K2-RED: two K-RED steps for q = k * 2^m + 1 (Longa and Naehrig, CANS 2016), the reduction
//! the Falcon study used in its NTTs instead of Montgomery reduction.

use super::{KRed, Reduction, Rule};

/// Two [`KRed`] steps for q = `K` * 2^`M` + 1: the result is congruent to k^2 c.
///
/// * Input: |c| <= 2^62.
/// * Output: |out| <= k 2^(m-1) + (b1 + 2^(m-1)) / 2^m with b1 = k 2^(m-1) + (|c| + 2^(m-1)) / 2^m,
///   that is about (q - 1) / 2 + |c| / 2^(2m).
/// * Factor: k^2 (twiddles are stored times k^-2).
pub struct K2Red<const K: i64, const M: u32>;

impl<const K: i64, const M: u32> Reduction for K2Red<K, M> {
    const NAME: &'static str = "k2-red";
    const Q: i64 = KRed::<K, M>::MODULUS;
    const IN_MAX: i64 = 1 << 62;
    const FACTOR: i64 = (K * K) % KRed::<K, M>::MODULUS;
    const RULE: Rule = Rule::Shift {
        base: K * (1 << (M - 1)),
        add: 1 << (M - 1),
        shift: M,
        mul: 1,
        times: 2,
    };

    #[inline(always)]
    fn reduce(c: i64) -> i64 {
        KRed::<K, M>::step(KRed::<K, M>::step(c))
    }

    #[inline(always)]
    fn reduce_i32(c: i32) -> i32 {
        KRed::<K, M>::step_i32(KRed::<K, M>::step_i32(c))
    }
}
