//! The `%` operator as a reduction: a **benchmark-only baseline**.

use super::{Reduction, Rule};

/// c % q (the remainder of truncated division, with the sign of c).
///
/// **Benchmark-only, never on secret data**: the division instruction is variable-time on some
/// CPUs (and a library call on others, such as Cortex-M for 64-bit operands). With `Q` a
/// compile-time constant, compilers usually lower `%` to a multiply-by-reciprocal sequence (on
/// x86-64 the reduction bench runs no division instruction), but that is the compiler's choice,
/// not a guarantee.
///
/// * Input: every i64 (|c| <= 2^63 - 1).
/// * Output: |out| <= q - 1.
/// * Factor: 1.
pub struct PlainRem<const Q: i64>;

impl<const Q: i64> Reduction for PlainRem<Q> {
    const NAME: &'static str = "plain-%";
    const Q: i64 = Q;
    const IN_MAX: i64 = i64::MAX;
    const FACTOR: i64 = 1;
    const RULE: Rule = Rule::Below { q: Q };
    const CONSTANT_TIME: bool = false;

    #[inline(always)]
    fn reduce(c: i64) -> i64 {
        c % Q
    }

    #[inline(always)]
    fn reduce_i32(c: i32) -> i32 {
        c % (Q as i32)
    }
}
