//! Generalised K-RED for q = k * 2^m + l with a signed l, that is q = k * 2^m +- |l|: the form
//! the Falcon study used for the 31-bit primes of the NTRU solver (m = 24, k = 127).

use super::{Reduction, Rule};

/// One generalised K-RED step for q = `K` * 2^`M` + `L` (|l| < 2^m): with c = c0 + 2^m c1,
/// c0 = c mod 2^m taken centred in [-2^(m-1), 2^(m-1)) and c1 = (c - c0) / 2^m,
/// k c = k c0 - l c1 (mod q), since k 2^m = -l. (For q = k 2^m + |l| this is k c0 - |l| c1,
/// for q = k 2^m - |l| it is k c0 + |l| c1.)
///
/// * Input: |c| <= 2^62.
/// * Output: |out| <= k 2^(m-1) + |l| (|c| + 2^(m-1)) / 2^m.
/// * Factor: k.
pub struct KRedGeneral<const K: i64, const M: u32, const L: i64>;

impl<const K: i64, const M: u32, const L: i64> KRedGeneral<K, M, L> {
    /// The modulus k * 2^m + l.
    pub const MODULUS: i64 = {
        assert!(K > 0 && M >= 1 && M < 31 && L != 0 && L.abs() < (1 << M));
        let q = K * (1 << M) + L;
        assert!(q > 2 && q < (1 << 31));
        q
    };
}

impl<const K: i64, const M: u32, const L: i64> Reduction for KRedGeneral<K, M, L> {
    const NAME: &'static str = "k-red-general";
    const Q: i64 = Self::MODULUS;
    const IN_MAX: i64 = 1 << 62;
    const FACTOR: i64 = K % Self::MODULUS;
    const RULE: Rule = Rule::Shift {
        base: K * (1 << (M - 1)),
        add: 1 << (M - 1),
        shift: M,
        mul: L.abs(),
        times: 1,
    };

    #[inline(always)]
    fn reduce(c: i64) -> i64 {
        let sh = 64 - M;
        let c0 = (c << sh) >> sh;
        let c1 = (c - c0) >> M;
        K * c0 - L * c1
    }
}
