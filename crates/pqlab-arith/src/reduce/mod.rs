//! Modular-reduction strategies as first-class, interchangeable types.
//!
//! Every strategy implements [`Reduction`]: it maps a signed 64-bit value c to a small value
//! congruent to `FACTOR * c` modulo q, and states
//!
//! * its valid input range, |c| <= [`Reduction::IN_MAX`];
//! * its output range as a function of the input bound ([`Reduction::RULE`], evaluated at compile
//!   time with [`Rule::out_bound`]), and [`Reduction::OUT_MAX`] for the whole input range;
//! * the factor it introduces, [`Reduction::FACTOR`] (Montgomery 2^-r, K-RED k, K2-RED k^2,
//!   Barrett and `%` 1), from which the NTTs derive their twiddle pre-scaling at compile time
//!   ([`prescale`]: a twiddle zeta is stored as zeta * FACTOR^-1 mod q, so that one reduction of
//!   a product with it yields exactly zeta * b mod q).
//!
//! The strategies (one file each):
//!
//! * [`Montgomery`]: signed Montgomery reduction with R = 2^r (Seiler, "Faster AVX2 optimized NTT
//!   multiplication for Ring-LWE lattice cryptography", 2018), the one FIPS 203/204 reference
//!   implementations use.
//! * [`Barrett`]: Barrett reduction with a 64-bit reciprocal (factor 1).
//! * [`KRed`] and [`K2Red`]: K-RED for q = k * 2^m + 1 (Longa and Naehrig, "Speeding up the
//!   number theoretic transform for faster ideal lattice-based cryptography", CANS 2016), one or
//!   two applications (factor k or k^2).
//! * [`KRedGeneral`]: generalised K-RED for q = k * 2^m + l with a signed l (so q = k * 2^m +- l):
//!   k * c = k * c0 - l * c1 (mod q).
//! * [`PlainRem`]: the `%` operator, a **benchmark-only baseline**: integer division is
//!   variable-time on some CPUs, so it must never touch secret data.
//!
//! All strategies but [`PlainRem`] are constant time: no branch, memory index or division
//! depends on the value reduced (only shifts, multiplications, additions).
//!
//! The production transforms of [`crate::mldsa`], [`crate::mlkem`], [`crate::falcon`] and
//! [`crate::falcon_solver`] use their fastest constant-time reduction by type (Montgomery);
//! there is no process-wide switch. The reduction study runs the same generic transforms
//! under every [`Strategy`] through separate instantiations: [`ntt_mldsa`], [`ntt_mlkem`] and
//! [`ntt_falcon`] (`ntt_with::<S>`, or `ntt(strategy, ..)`), built from the shared
//! compile-time tables and plans of [`plan`], and the solver primes' [`crate::falcon_solver`].

mod barrett;
mod k2red;
mod kred;
mod kred_general;
mod montgomery;
pub mod ntt_falcon;
pub mod ntt_mldsa;
pub mod ntt_mlkem;
mod plain;
pub mod plan;

pub use barrett::Barrett;
pub use k2red::K2Red;
pub use kred::KRed;
pub use kred_general::KRedGeneral;
pub use montgomery::Montgomery;
pub use plain::PlainRem;

/// How the output bound of a strategy grows with its input bound x (|c| <= x).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    /// |out| <= base + mul * ((x + add) >> shift), applied `times` times in a row.
    Shift {
        /// Constant part of the bound.
        base: i64,
        /// Added to x before the shift.
        add: i64,
        /// Right shift.
        shift: u32,
        /// Multiplier of the shifted part.
        mul: i64,
        /// How many times the step is applied (K2-RED: 2).
        times: u32,
    },
    /// Barrett with a 64-bit reciprocal: |out| <= (q + 1) / 2 + (x * q) >> 65 + 1.
    Barrett {
        /// The modulus.
        q: i64,
    },
    /// The remainder of truncated division: |out| <= q - 1.
    Below {
        /// The modulus.
        q: i64,
    },
}

impl Rule {
    /// The bound on |out| for inputs with |c| <= x.
    pub const fn out_bound(self, x: i64) -> i64 {
        match self {
            Rule::Shift {
                base,
                add,
                shift,
                mul,
                times,
            } => {
                let mut b = x;
                let mut i = 0;
                while i < times {
                    b = base + mul * ((b + add) >> shift);
                    i += 1;
                }
                b
            }
            Rule::Barrett { q } => (q + 1) / 2 + (((x as i128) * (q as i128)) >> 65) as i64 + 1,
            Rule::Below { q } => q - 1,
        }
    }
}

/// A modular-reduction strategy for one modulus q < 2^31.
pub trait Reduction {
    /// A short name for reports.
    const NAME: &'static str;
    /// The modulus q.
    const Q: i64;
    /// The largest |c| that [`Reduction::reduce`] accepts.
    const IN_MAX: i64;
    /// The factor F of the strategy: reduce(c) = F * c (mod q), as a residue in [0, q).
    const FACTOR: i64;
    /// The output bound as a function of the input bound.
    const RULE: Rule;
    /// The bound on |reduce(c)| over the whole input range.
    const OUT_MAX: i64 = Self::RULE.out_bound(Self::IN_MAX);
    /// Whether the strategy is constant time (only [`PlainRem`] is not).
    const CONSTANT_TIME: bool = true;
    /// Returns r = FACTOR * c (mod q) with |r| <= RULE.out_bound(|c|), for |c| <= IN_MAX.
    fn reduce(c: i64) -> i64;
    /// The same reduction (same result, same bounds) for 32-bit inputs with |c| <= 2^30, in
    /// 32-bit arithmetic where the strategy allows it (Montgomery with r <= 16, K-RED, K2-RED,
    /// `%`), so that the `i16` transforms of q = 3329 are not forced into 64-bit arithmetic;
    /// by default it widens to [`Reduction::reduce`].
    #[inline(always)]
    fn reduce_i32(c: i32) -> i32 {
        Self::reduce(i64::from(c)) as i32
    }
}

/// The largest |c| that [`Reduction::reduce_i32`] accepts.
pub const I32_IN_MAX: i64 = 1 << 30;

/// base^e mod q (q < 2^31), for compile-time tables.
pub const fn pow_mod(base: i64, mut e: u64, q: i64) -> i64 {
    let mut r = 1i64;
    let mut b = base.rem_euclid(q);
    while e > 0 {
        if e & 1 == 1 {
            r = r * b % q;
        }
        b = b * b % q;
        e >>= 1;
    }
    r
}

/// a^-1 mod q for a prime q (Fermat), for compile-time tables.
pub const fn inv_mod(a: i64, q: i64) -> i64 {
    pow_mod(a, (q - 2) as u64, q)
}

/// x mod q, centred in (-q/2, q/2].
pub const fn centre(x: i64, q: i64) -> i64 {
    let v = x.rem_euclid(q);
    if v > q / 2 { v - q } else { v }
}

/// The twiddle pre-scaling of strategy `S`: x * FACTOR^-1 mod q, centred, so that
/// `S::reduce(prescale::<S>(x) * b) = x * b (mod q)`.
pub const fn prescale<S: Reduction>(x: i64) -> i64 {
    centre((x.rem_euclid(S::Q) * inv_mod(S::FACTOR, S::Q)) % S::Q, S::Q)
}

/// The strategies the reduction study runs the ML-DSA, ML-KEM and Falcon NTTs under.
///
/// K-RED with a single application and the generalised K-RED are not offered here: one K-RED
/// removes only m bits (13 for q = 8380417, 8 for q = 3329), so the product of a twiddle and a
/// coefficient would not fit the coefficient type again (see [`KRed`]); the generalised form
/// is for the 31-bit primes of Falcon's NTRU solver: there, in [`crate::falcon_solver`],
/// [`Strategy::K2Red`] selects the generalised K-RED (p = 2^31 - l0 with two steps, or
/// p = k 2^11 + 1 with three), Montgomery uses R = 2^32, Barrett and `%` a run-time p.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Strategy {
    /// Signed Montgomery reduction (the default, what FIPS 203/204 reference code uses).
    Montgomery = 0,
    /// Barrett reduction.
    Barrett = 1,
    /// K2-RED (two K-RED steps, twiddles pre-scaled by k^-2).
    K2Red = 2,
    /// The `%` operator: benchmark-only, variable time on some CPUs.
    PlainRem = 3,
}

impl Strategy {
    /// Every strategy, Montgomery first.
    pub const ALL: [Strategy; 4] = [
        Strategy::Montgomery,
        Strategy::Barrett,
        Strategy::K2Red,
        Strategy::PlainRem,
    ];

    /// A short name for reports.
    pub const fn name(self) -> &'static str {
        match self {
            Strategy::Montgomery => "montgomery",
            Strategy::Barrett => "barrett",
            Strategy::K2Red => "k2-red",
            Strategy::PlainRem => "plain-%",
        }
    }
}

/// The moduli with NTTs in this crate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Modulus {
    /// q = 8380417 (ML-DSA).
    MlDsa,
    /// q = 3329 (ML-KEM).
    MlKem,
    /// q = 12289 (Falcon verification).
    Falcon,
}

/// The bytes of precomputed tables (twiddles and scaling constants) the forward and inverse
/// NTTs of `modulus` use under strategy `s`.
pub fn table_bytes(s: Strategy, modulus: Modulus) -> usize {
    match modulus {
        Modulus::MlDsa => ntt_mldsa::table_bytes(s),
        Modulus::MlKem => ntt_mlkem::table_bytes(s),
        Modulus::Falcon => ntt_falcon::table_bytes(s),
    }
}

/// The ML-DSA modulus q = 8380417 = 1023 * 2^13 + 1.
pub const Q_MLDSA: i64 = 8_380_417;
/// The ML-KEM modulus q = 3329 = 13 * 2^8 + 1.
pub const Q_MLKEM: i64 = 3329;
/// The Falcon modulus q = 12289 = 3 * 2^12 + 1.
pub const Q_FALCON: i64 = 12289;

/// Runs `$body` with the type `$S` set to the one of `[montgomery, barrett, k2red, rem]`
/// that stands for strategy `$s`: the one strategy switch of the reduction study, for the
/// schemes' study instantiations (each names its kernel types for the four strategies).
#[macro_export]
macro_rules! with_strategy {
    ($s:expr, [$mont:ty, $bar:ty, $k2:ty, $rem:ty], $S:ident => $body:expr) => {
        match $s {
            $crate::reduce::Strategy::Montgomery => {
                type $S = $mont;
                $body
            }
            $crate::reduce::Strategy::Barrett => {
                type $S = $bar;
                $body
            }
            $crate::reduce::Strategy::K2Red => {
                type $S = $k2;
                $body
            }
            $crate::reduce::Strategy::PlainRem => {
                type $S = $rem;
                $body
            }
        }
    };
}

#[cfg(test)]
mod tests;
