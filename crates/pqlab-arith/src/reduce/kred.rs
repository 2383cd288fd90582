//! K-RED for q = k * 2^m + 1 (Longa and Naehrig, "Speeding up the number theoretic transform
//! for faster ideal lattice-based cryptography", CANS 2016), in the centred form.

use super::{Reduction, Rule};

/// One K-RED step for q = `K` * 2^`M` + 1: with c = c0 + 2^m c1, c0 = c mod 2^m (here taken
/// centred, in [-2^(m-1), 2^(m-1)), so that |k c0| <= (q - 1) / 2) and c1 = (c - c0) / 2^m,
/// k c = k c0 - c1 (mod q), since k 2^m = -1.
///
/// * Input: |c| <= 2^62.
/// * Output: |out| <= k 2^(m-1) + (|c| + 2^(m-1)) / 2^m: one step removes only m bits, so on its
///   own it reduces an NTT product (2 log2 q bits) to about 2 log2 q - m bits. That is too wide
///   for the `i32` / `i16` coefficients of the ML-DSA and ML-KEM NTTs, which therefore offer
///   [`super::K2Red`] instead.
/// * Factor: k (twiddles are stored times k^-1).
pub struct KRed<const K: i64, const M: u32>;

impl<const K: i64, const M: u32> KRed<K, M> {
    /// The modulus k * 2^m + 1.
    pub const MODULUS: i64 = {
        assert!(K > 0 && M >= 1 && M < 31 && K < (1 << 31));
        K * (1 << M) + 1
    };

    /// One step, for use by [`super::K2Red`].
    /// One step in 32-bit arithmetic, for |c| <= 2^30 (the same result as [`Self::step`]).
    #[inline(always)]
    pub const fn step_i32(c: i32) -> i32 {
        let sh = 32 - M;
        let c0 = (c << sh) >> sh;
        let c1 = (c - c0) >> M;
        (K as i32) * c0 - c1
    }

    /// One step.
    #[inline(always)]
    pub const fn step(c: i64) -> i64 {
        let sh = 64 - M;
        let c0 = (c << sh) >> sh;
        let c1 = (c - c0) >> M;
        K * c0 - c1
    }
}

impl<const K: i64, const M: u32> Reduction for KRed<K, M> {
    const NAME: &'static str = "k-red";
    const Q: i64 = Self::MODULUS;
    const IN_MAX: i64 = 1 << 62;
    const FACTOR: i64 = K % Self::MODULUS;
    const RULE: Rule = Rule::Shift {
        base: K * (1 << (M - 1)),
        add: 1 << (M - 1),
        shift: M,
        mul: 1,
        times: 1,
    };

    #[inline(always)]
    fn reduce(c: i64) -> i64 {
        Self::step(c)
    }

    #[inline(always)]
    fn reduce_i32(c: i32) -> i32 {
        Self::step_i32(c)
    }
}
