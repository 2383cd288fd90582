//! The NTT and inverse NTT of FIPS 203 (Algorithms 9 and 10) for q = 3329, generic over the
//! reduction strategy. [`crate::mlkem::ntt`] and [`crate::mlkem::inv_ntt_to_mont`] dispatch
//! here; with [`Mont`] the code computes exactly what the Montgomery reference does.
//!
//! As in [`super::ntt_mldsa`], each strategy gets a twiddle table pre-scaled at compile time and
//! a compile-time [`Plan`] (from [`SHAPE`] and [`super::plan`]) that follows the worst-case coefficient bound through the layers,
//! inserting a [`barrett_reduce`] pass wherever the next layer would leave `i16` or the
//! strategy's input range, and after the inverse where the output would not be below q. The
//! forward transform always ends with a Barrett pass (the contract of [`crate::mlkem::ntt`]);
//! the inverse keeps the Barrett reduction of the sums of Algorithm 10 for every strategy.

use core::marker::PhantomData;

use super::plan::{Plan, Shape, forward_plan, inverse_plan, narrow_i16, twiddles};
use super::{
    Barrett, K2Red, Montgomery, PlainRem, Q_MLKEM, Reduction, Strategy, inv_mod, prescale,
};
use crate::mlkem::barrett_reduce;

const Q: i64 = Q_MLKEM;
const N: usize = 256;
/// Montgomery reduction with R = 2^16 (the default).
pub type Mont = Montgomery<Q_MLKEM, 16>;
/// Barrett reduction.
pub type Bar = Barrett<Q_MLKEM>;
/// K2-RED with q = 13 * 2^8 + 1.
pub type K2 = K2Red<13, 8>;
/// The `%` baseline (benchmark-only).
pub type Rem = PlainRem<Q_MLKEM>;

/// The primitive 256th root of unity (FIPS 203, Section 4.3).
const ZETA: i64 = 17;
const ZMAX: i64 = (Q - 1) / 2;
const PASS_OUT_MAX: i64 = (Q - 1) / 2;
const COEFF_MAX: i64 = i16::MAX as i64;
// Every product of a twiddle (or the final factor) and a sum or difference of two `i16` values
// fits the 32-bit path of the strategies.
const _: () = assert!(ZMAX * 2 * COEFF_MAX <= super::I32_IN_MAX);

/// The shape of the transforms (FIPS 203 reference: `i16` coefficients; forward from |in| < 2q,
/// always ending with a Barrett pass; inverse from |in| < 2^14, Barrett-reducing the sums, output
/// below q), for the plans of [`super::plan`].
pub const SHAPE: Shape = Shape {
    layers: 7,
    zmax: ZMAX,
    coeff_max: COEFF_MAX,
    pass_in_max: COEFF_MAX,
    pass_out_max: PASS_OUT_MAX,
    forward_in: 2 * Q - 1,
    forward_out: 0,
    inverse_in: (1 << 14) - 1,
    inverse_sums_reduced: true,
    inverse_out: Q,
};

/// The precomputed tables and plans of strategy `S` (all evaluated at compile time).
pub struct Tables<S>(PhantomData<S>);

impl<S: Reduction> Tables<S> {
    /// zetas\[k\] = zeta^BitRev7(k) * FACTOR^-1 mod q, centred (FIPS 203, Appendix A,
    /// pre-scaled for `S`).
    pub const ZETAS: [i16; 128] = {
        assert!(S::Q == Q);
        narrow_i16(twiddles::<S, 128>(ZETA, 7))
    };
    /// The final factor of the inverse: 128^-1 * 2^16 * FACTOR^-1 mod q, centred (Algorithm 10,
    /// line 14, times the 2^16 that [`crate::mlkem::inv_ntt_to_mont`] promises).
    pub const F: i64 = prescale::<S>(inv_mod(128, Q) * ((1i64 << 16) % Q) % Q);
    /// The plan of the forward transform.
    pub const FORWARD: Plan = forward_plan::<S>(SHAPE);
    /// The plan of the inverse transform.
    pub const INVERSE: Plan = inverse_plan::<S>(SHAPE, Self::F);
    /// Whether the forward plan has a pass between layers (if not, the transform's loop has
    /// no check at all).
    const FORWARD_ANY: bool = Self::FORWARD.any_between();
    /// Whether the inverse plan has a pass between layers.
    const INVERSE_ANY: bool = Self::INVERSE.any_between();
}

#[inline(always)]
fn pass(f: &mut [i16; N]) {
    for x in f.iter_mut() {
        *x = barrett_reduce(*x);
    }
}

/// FIPS 203, Algorithm 9: NTT(f), in place, under strategy `S`, followed by a Barrett reduction:
/// from |in| < 2q, the output lies in \[-(q-1)/2, (q-1)/2\].
pub fn ntt_with<S: Reduction>(f: &mut [i16; N]) {
    let zetas: &'static [i16; 128] = const { &Tables::<S>::ZETAS };
    let plan = Tables::<S>::FORWARD;
    let any = Tables::<S>::FORWARD_ANY;
    let mut i = 1;
    let mut len = 128;
    let mut layer = 0;
    while len >= 2 {
        if any && plan.pass_before[layer] {
            pass(f);
        }
        for block in f.chunks_exact_mut(2 * len) {
            let zeta = i32::from(zetas[i]);
            i += 1;
            let (lo, hi) = block.split_at_mut(len);
            for (a, b) in lo.iter_mut().zip(hi.iter_mut()) {
                let t = S::reduce_i32(zeta * i32::from(*b)) as i16;
                *b = *a - t;
                *a += t;
            }
        }
        len >>= 1;
        layer += 1;
    }
    pass(f);
}

/// FIPS 203, Algorithm 10: NTT^-1(f_hat), in place, times 2^16, under strategy `S`. From
/// |in| < 2^14, the output is below q in absolute value.
pub fn inv_ntt_to_mont_with<S: Reduction>(f: &mut [i16; N]) {
    let zetas: &'static [i16; 128] = const { &Tables::<S>::ZETAS };
    let plan = Tables::<S>::INVERSE;
    let any = Tables::<S>::INVERSE_ANY;
    let fin = Tables::<S>::F as i32;
    let mut i = 127;
    let mut len = 2;
    let mut layer = 0;
    while len <= 128 {
        if any && plan.pass_before[layer] {
            pass(f);
        }
        for block in f.chunks_exact_mut(2 * len) {
            let zeta = i32::from(zetas[i]);
            i -= 1;
            let (lo, hi) = block.split_at_mut(len);
            for (a, b) in lo.iter_mut().zip(hi.iter_mut()) {
                let t = *a;
                *a = barrett_reduce(t + *b);
                *b = S::reduce_i32(zeta * i32::from(*b - t)) as i16;
            }
        }
        len <<= 1;
        layer += 1;
    }
    for x in f.iter_mut() {
        *x = S::reduce_i32(fin * i32::from(*x)) as i16;
    }
    if plan.pass_after {
        pass(f);
    }
}

/// [`ntt_with`] for a strategy chosen at run time.
pub fn ntt(s: Strategy, f: &mut [i16; N]) {
    match s {
        Strategy::Montgomery => ntt_with::<Mont>(f),
        Strategy::Barrett => ntt_with::<Bar>(f),
        Strategy::K2Red => ntt_with::<K2>(f),
        Strategy::PlainRem => ntt_with::<Rem>(f),
    }
}

/// [`inv_ntt_to_mont_with`] for a strategy chosen at run time.
pub fn inv_ntt_to_mont(s: Strategy, f: &mut [i16; N]) {
    match s {
        Strategy::Montgomery => inv_ntt_to_mont_with::<Mont>(f),
        Strategy::Barrett => inv_ntt_to_mont_with::<Bar>(f),
        Strategy::K2Red => inv_ntt_to_mont_with::<K2>(f),
        Strategy::PlainRem => inv_ntt_to_mont_with::<Rem>(f),
    }
}

/// The plans (forward, inverse) of a strategy.
pub const fn plans(s: Strategy) -> (Plan, Plan) {
    match s {
        Strategy::Montgomery => (Tables::<Mont>::FORWARD, Tables::<Mont>::INVERSE),
        Strategy::Barrett => (Tables::<Bar>::FORWARD, Tables::<Bar>::INVERSE),
        Strategy::K2Red => (Tables::<K2>::FORWARD, Tables::<K2>::INVERSE),
        Strategy::PlainRem => (Tables::<Rem>::FORWARD, Tables::<Rem>::INVERSE),
    }
}

/// Bytes of precomputed tables: the 128-entry twiddle table (`i16`) and the inverse's final
/// factor. The same for every strategy: pre-scaling changes the values, not the size.
pub const fn table_bytes(_s: Strategy) -> usize {
    size_of::<[i16; 128]>() + size_of::<i16>()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mlkem::{ZETAS, fqmul, freeze, montgomery_reduce, multiply_ntts};
    use rand::{Rng, SeedableRng};

    const QI: i16 = Q as i16;

    /// The Montgomery NTT as it was written before the strategies (FIPS 203 reference code).
    fn reference_ntt(f: &mut [i16; N]) {
        let mut i = 1;
        let mut len = 128;
        while len >= 2 {
            for block in f.chunks_exact_mut(2 * len) {
                let zeta = ZETAS[i];
                i += 1;
                let (lo, hi) = block.split_at_mut(len);
                for (a, b) in lo.iter_mut().zip(hi.iter_mut()) {
                    let t = fqmul(zeta, *b);
                    *b = *a - t;
                    *a += t;
                }
            }
            len >>= 1;
        }
        pass(f);
    }

    fn reference_inv_ntt_to_mont(f: &mut [i16; N]) {
        let mut i = 127;
        let mut len = 2;
        while len <= 128 {
            for block in f.chunks_exact_mut(2 * len) {
                let zeta = ZETAS[i];
                i -= 1;
                let (lo, hi) = block.split_at_mut(len);
                for (a, b) in lo.iter_mut().zip(hi.iter_mut()) {
                    let t = *a;
                    *a = barrett_reduce(t + *b);
                    *b = fqmul(zeta, *b - t);
                }
            }
            len <<= 1;
        }
        for x in f.iter_mut() {
            *x = fqmul(*x, 1441);
        }
    }

    fn schoolbook(a: &[i16; N], b: &[i16; N]) -> [i16; N] {
        let mut c = [0i64; N];
        for i in 0..N {
            for j in 0..N {
                let p = i64::from(a[i]) * i64::from(b[j]) % Q;
                if i + j < N {
                    c[i + j] += p;
                } else {
                    c[i + j - N] -= p;
                }
            }
        }
        c.map(|x| x.rem_euclid(Q) as i16)
    }

    /// Random polynomials below `bound` and the extremes of that range.
    fn inputs(seed: u64, bound: i16) -> impl Iterator<Item = [i16; N]> {
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        let random: [[i16; N]; 30] =
            core::array::from_fn(|_| core::array::from_fn(|_| rng.gen_range(-bound + 1..bound)));
        let alternating: [i16; N] =
            core::array::from_fn(|i| if i % 2 == 0 { bound - 1 } else { -bound + 1 });
        random
            .into_iter()
            .chain([[bound - 1; N], [-bound + 1; N], alternating])
    }

    #[test]
    fn montgomery_tables_and_plans_are_todays() {
        assert_eq!(Tables::<Mont>::ZETAS, ZETAS);
        assert_eq!(Tables::<Mont>::F, 1441);
        let none = [false; super::super::plan::MAX_LAYERS];
        assert_eq!(Tables::<Mont>::FORWARD.pass_before, none);
        assert_eq!(Tables::<Mont>::INVERSE.pass_before, none);
        const { assert!(!Tables::<Mont>::INVERSE.pass_after) };
        for s in Strategy::ALL {
            let (f, i) = plans(s);
            assert!(f.out_max <= (Q - 1) / 2 && i.out_max < Q, "{s:?}");
        }
    }

    #[test]
    fn montgomery_is_bit_identical_to_the_reference() {
        for a in inputs(1, 2 * QI) {
            let (mut x, mut y) = (a, a);
            ntt_with::<Mont>(&mut x);
            reference_ntt(&mut y);
            assert_eq!(x, y);
        }
        for a in inputs(2, 1 << 14) {
            let (mut x, mut y) = (a, a);
            inv_ntt_to_mont_with::<Mont>(&mut x);
            reference_inv_ntt_to_mont(&mut y);
            assert_eq!(x, y);
        }
    }

    #[test]
    fn every_strategy_is_congruent_to_montgomery_within_the_same_ranges() {
        for s in Strategy::ALL {
            for a in inputs(3, 2 * QI) {
                let (mut x, mut y) = (a, a);
                ntt(s, &mut x);
                ntt_with::<Mont>(&mut y);
                for k in 0..N {
                    assert!(x[k].abs() <= (QI - 1) / 2, "{s:?}: forward bound");
                    assert_eq!((x[k] - y[k]).rem_euclid(QI), 0, "{s:?}: forward {k}");
                }
            }
            for a in inputs(4, 1 << 14) {
                let (mut x, mut y) = (a, a);
                inv_ntt_to_mont(s, &mut x);
                inv_ntt_to_mont_with::<Mont>(&mut y);
                for k in 0..N {
                    assert!(x[k].abs() < QI, "{s:?}: inverse bound");
                    assert_eq!((x[k] - y[k]).rem_euclid(QI), 0, "{s:?}: inverse {k}");
                }
            }
        }
    }

    #[test]
    fn every_strategy_multiplies_like_schoolbook_and_round_trips() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(5);
        for s in Strategy::ALL {
            for _ in 0..5 {
                let a: [i16; N] = core::array::from_fn(|_| rng.gen_range(-QI + 1..QI));
                let b: [i16; N] = core::array::from_fn(|_| rng.gen_range(-QI + 1..QI));
                let (mut fa, mut fb, mut fc) = (a, b, [0; N]);
                ntt(s, &mut fa);
                ntt(s, &mut fb);
                multiply_ntts(&mut fc, &fa, &fb);
                inv_ntt_to_mont(s, &mut fc);
                assert_eq!(fc.map(freeze), schoolbook(&a, &b), "{s:?}");

                let mut r = a;
                ntt(s, &mut r);
                inv_ntt_to_mont(s, &mut r);
                let back = r.map(|x| freeze(montgomery_reduce(i32::from(x))));
                assert_eq!(back, a.map(freeze), "{s:?}: round trip");
            }
        }
    }

    #[test]
    fn table_sizes() {
        for s in Strategy::ALL {
            assert_eq!(table_bytes(s), 258);
        }
    }
}
