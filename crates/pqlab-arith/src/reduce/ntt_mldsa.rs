//! The NTT and inverse NTT of FIPS 204 (Algorithms 41 and 42) for q = 8380417, generic over the
//! reduction strategy. [`crate::mldsa::ntt`] and [`crate::mldsa::inv_ntt_to_mont`] dispatch
//! here; with [`Mont`] the code computes exactly what the Montgomery reference does.
//!
//! Each strategy gets its own twiddle table, pre-scaled at compile time by the inverse of the
//! strategy's factor ([`prescale`]), and a compile-time *plan* ([`Plan`], derived from [`SHAPE`]
//! by the machinery shared with the other moduli in [`super::plan`]): from the strategy's
//! stated output bound, a const fn follows the worst-case coefficient bound through the layers
//! and inserts an extra [`reduce32`] pass over all 256 coefficients wherever the next layer
//! would leave the `i32` range or the strategy's input range, and after the last layer where
//! the result would miss the contract of the Montgomery functions (forward: |out| < 9q from
//! |in| < q; inverse: |out| < q from |in| < q). Those passes are part of the strategy's cost;
//! which strategies need them is recorded in [`Tables::FORWARD`] and [`Tables::INVERSE`] (today:
//! K2-RED needs one pass after the inverse transform; see the tests).

use core::marker::PhantomData;

use super::plan::{Plan, Shape, forward_plan, inverse_plan, narrow_i32, twiddles};
use super::{
    Barrett, K2Red, Montgomery, PlainRem, Q_MLDSA, Reduction, Strategy, inv_mod, prescale,
};
use crate::mldsa::reduce32;

const Q: i64 = Q_MLDSA;
/// Montgomery reduction with R = 2^32 (the default).
pub type Mont = Montgomery<Q_MLDSA, 32>;
/// Barrett reduction.
pub type Bar = Barrett<Q_MLDSA>;
/// K2-RED with q = 1023 * 2^13 + 1.
pub type K2 = K2Red<1023, 13>;
/// The `%` baseline (benchmark-only).
pub type Rem = PlainRem<Q_MLDSA>;

/// The primitive 512th root of unity (FIPS 204, Section 7.5).
const ZETA: i64 = 1753;
/// The largest |twiddle| (the tables are centred).
const ZMAX: i64 = (Q - 1) / 2;
/// [`reduce32`] accepts a <= 2^31 - 2^22 - 1 and returns |r| <= 6283008.
const PASS_IN_MAX: i64 = (1 << 31) - (1 << 22) - 1;
const PASS_OUT_MAX: i64 = 6_283_008;

/// The shape of the transforms (FIPS 204 reference: `i32` coefficients, |in| < q, forward
/// output below 9q, inverse output below q), for the plans of [`super::plan`].
pub const SHAPE: Shape = Shape {
    layers: 8,
    zmax: ZMAX,
    coeff_max: i32::MAX as i64,
    pass_in_max: PASS_IN_MAX,
    pass_out_max: PASS_OUT_MAX,
    forward_in: Q - 1,
    forward_out: 9 * Q,
    inverse_in: Q - 1,
    inverse_sums_reduced: false,
    inverse_out: Q,
};

/// The precomputed tables and plans of strategy `S` (all evaluated at compile time).
pub struct Tables<S>(PhantomData<S>);

impl<S: Reduction> Tables<S> {
    /// zetas\[k\] = zeta^BitRev8(k) * FACTOR^-1 mod q, centred (FIPS 204, Appendix B, pre-scaled
    /// for `S`). Entry 0 is unused.
    pub const ZETAS: [i32; 256] = {
        assert!(S::Q == Q);
        let mut z = narrow_i32(twiddles::<S, 256>(ZETA, 8));
        z[0] = 0;
        z
    };
    /// The final factor of the inverse: 256^-1 * 2^32 * FACTOR^-1 mod q, centred (the inverse
    /// transform returns its result times 2^32, as [`crate::mldsa::inv_ntt_to_mont`] promises).
    pub const F: i64 = prescale::<S>(inv_mod(256, Q) * ((1i64 << 32) % Q) % Q);
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
fn pass(a: &mut [i32; 256]) {
    for x in a.iter_mut() {
        *x = reduce32(*x);
    }
}

/// FIPS 204, Algorithm 41: NTT(w), in place, under strategy `S`. From |in| < q, the output is
/// below 9q in absolute value and congruent mod q to the Montgomery NTT's output.
pub fn ntt_with<S: Reduction>(a: &mut [i32; 256]) {
    let zetas: &'static [i32; 256] = const { &Tables::<S>::ZETAS };
    let plan = Tables::<S>::FORWARD;
    let any = Tables::<S>::FORWARD_ANY;
    let mut k = 0;
    let mut len = 128;
    let mut layer = 0;
    while len > 0 {
        if any && plan.pass_before[layer] {
            pass(a);
        }
        let mut start = 0;
        while start < 256 {
            k += 1;
            let zeta = i64::from(zetas[k]);
            for j in start..start + len {
                let t = S::reduce(zeta * i64::from(a[j + len])) as i32;
                a[j + len] = a[j] - t;
                a[j] += t;
            }
            start += 2 * len;
        }
        len >>= 1;
        layer += 1;
    }
    if plan.pass_after {
        pass(a);
    }
}

/// FIPS 204, Algorithm 42: NTT^-1(w_hat), in place, times 2^32, under strategy `S`. From
/// |in| < q, the output is below q in absolute value.
pub fn inv_ntt_to_mont_with<S: Reduction>(a: &mut [i32; 256]) {
    let zetas: &'static [i32; 256] = const { &Tables::<S>::ZETAS };
    let plan = Tables::<S>::INVERSE;
    let any = Tables::<S>::INVERSE_ANY;
    let f = Tables::<S>::F;
    let mut k = 256;
    let mut len = 1;
    let mut layer = 0;
    while len < 256 {
        if any && plan.pass_before[layer] {
            pass(a);
        }
        let mut start = 0;
        while start < 256 {
            k -= 1;
            let zeta = -i64::from(zetas[k]);
            for j in start..start + len {
                let t = a[j];
                a[j] = t + a[j + len];
                a[j + len] = S::reduce(zeta * i64::from(t - a[j + len])) as i32;
            }
            start += 2 * len;
        }
        len <<= 1;
        layer += 1;
    }
    for x in a.iter_mut() {
        *x = S::reduce(f * i64::from(*x)) as i32;
    }
    if plan.pass_after {
        pass(a);
    }
}

/// [`ntt_with`] for a strategy chosen at run time.
pub fn ntt(s: Strategy, a: &mut [i32; 256]) {
    match s {
        Strategy::Montgomery => ntt_with::<Mont>(a),
        Strategy::Barrett => ntt_with::<Bar>(a),
        Strategy::K2Red => ntt_with::<K2>(a),
        Strategy::PlainRem => ntt_with::<Rem>(a),
    }
}

/// [`inv_ntt_to_mont_with`] for a strategy chosen at run time.
pub fn inv_ntt_to_mont(s: Strategy, a: &mut [i32; 256]) {
    match s {
        Strategy::Montgomery => inv_ntt_to_mont_with::<Mont>(a),
        Strategy::Barrett => inv_ntt_to_mont_with::<Bar>(a),
        Strategy::K2Red => inv_ntt_to_mont_with::<K2>(a),
        Strategy::PlainRem => inv_ntt_to_mont_with::<Rem>(a),
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

/// Bytes of precomputed tables: the 256-entry twiddle table (`i32`) and the inverse's final
/// factor. The same for every strategy: pre-scaling changes the values, not the size.
pub const fn table_bytes(_s: Strategy) -> usize {
    size_of::<[i32; 256]>() + size_of::<i32>()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mldsa::{ZETAS, freeze, montgomery_reduce, pointwise_montgomery};
    use rand::{Rng, SeedableRng};

    const QI: i32 = Q as i32;

    /// The Montgomery NTT as it was written before the strategies (FIPS 204 reference code).
    fn reference_ntt(a: &mut [i32; 256]) {
        let mut k = 0;
        let mut len = 128;
        while len > 0 {
            let mut start = 0;
            while start < 256 {
                k += 1;
                let zeta = i64::from(ZETAS[k]);
                for j in start..start + len {
                    let t = montgomery_reduce(zeta * i64::from(a[j + len]));
                    a[j + len] = a[j] - t;
                    a[j] += t;
                }
                start += 2 * len;
            }
            len >>= 1;
        }
    }

    fn reference_inv_ntt_to_mont(a: &mut [i32; 256]) {
        let mut k = 256;
        let mut len = 1;
        while len < 256 {
            let mut start = 0;
            while start < 256 {
                k -= 1;
                let zeta = -i64::from(ZETAS[k]);
                for j in start..start + len {
                    let t = a[j];
                    a[j] = t + a[j + len];
                    a[j + len] = montgomery_reduce(zeta * i64::from(t - a[j + len]));
                }
                start += 2 * len;
            }
            len <<= 1;
        }
        for x in a.iter_mut() {
            *x = montgomery_reduce(41_978 * i64::from(*x));
        }
    }

    fn schoolbook(a: &[i32; 256], b: &[i32; 256]) -> [i32; 256] {
        let mut c = [0i64; 256];
        for i in 0..256 {
            for j in 0..256 {
                let p = i64::from(a[i]) * i64::from(b[j]) % Q;
                if i + j < 256 {
                    c[i + j] += p;
                } else {
                    c[i + j - 256] -= p;
                }
            }
        }
        c.map(|x| x.rem_euclid(Q) as i32)
    }

    /// Random polynomials below q, and the extremes of the input range.
    fn inputs(seed: u64) -> impl Iterator<Item = [i32; 256]> {
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        let random: [[i32; 256]; 20] =
            core::array::from_fn(|_| core::array::from_fn(|_| rng.gen_range(-QI + 1..QI)));
        let alternating: [i32; 256] =
            core::array::from_fn(|i| if i % 2 == 0 { QI - 1 } else { -QI + 1 });
        random
            .into_iter()
            .chain([[QI - 1; 256], [-QI + 1; 256], alternating])
    }

    #[test]
    fn montgomery_tables_and_plans_are_todays() {
        assert_eq!(Tables::<Mont>::ZETAS, ZETAS);
        assert_eq!(Tables::<Mont>::F, 41_978);
        let none = [false; super::super::plan::MAX_LAYERS];
        assert_eq!(Tables::<Mont>::FORWARD.pass_before, none);
        const { assert!(!Tables::<Mont>::FORWARD.pass_after) };
        assert_eq!(Tables::<Mont>::INVERSE.pass_before, none);
        const { assert!(!Tables::<Mont>::INVERSE.pass_after) };
        // K2-RED leaves up to about 2^28 after the inverse's final scaling: one extra pass.
        const { assert!(Tables::<K2>::INVERSE.pass_after) };
        for s in Strategy::ALL {
            let (f, i) = plans(s);
            assert!(f.out_max < 9 * Q && i.out_max < Q, "{s:?}");
        }
    }

    #[test]
    fn montgomery_is_bit_identical_to_the_reference() {
        for a in inputs(1) {
            let (mut x, mut y) = (a, a);
            ntt_with::<Mont>(&mut x);
            reference_ntt(&mut y);
            assert_eq!(x, y);
            let (mut x, mut y) = (a, a);
            inv_ntt_to_mont_with::<Mont>(&mut x);
            reference_inv_ntt_to_mont(&mut y);
            assert_eq!(x, y);
        }
    }

    #[test]
    fn every_strategy_is_congruent_to_montgomery_within_the_same_ranges() {
        for s in Strategy::ALL {
            for a in inputs(2) {
                let (mut x, mut y) = (a, a);
                ntt(s, &mut x);
                ntt_with::<Mont>(&mut y);
                for k in 0..256 {
                    assert!(x[k].abs() < 9 * QI, "{s:?}: forward bound");
                    assert_eq!((x[k] - y[k]).rem_euclid(QI), 0, "{s:?}: forward {k}");
                }
                let (mut x, mut y) = (a, a);
                inv_ntt_to_mont(s, &mut x);
                inv_ntt_to_mont_with::<Mont>(&mut y);
                for k in 0..256 {
                    assert!(x[k].abs() < QI, "{s:?}: inverse bound");
                    assert_eq!((x[k] - y[k]).rem_euclid(QI), 0, "{s:?}: inverse {k}");
                }
            }
        }
    }

    #[test]
    fn every_strategy_multiplies_like_schoolbook_and_round_trips() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(3);
        for s in Strategy::ALL {
            for _ in 0..5 {
                let a: [i32; 256] = core::array::from_fn(|_| rng.gen_range(-QI + 1..QI));
                let b: [i32; 256] = core::array::from_fn(|_| rng.gen_range(-QI + 1..QI));
                let (mut fa, mut fb, mut fc) = (a, b, [0; 256]);
                ntt(s, &mut fa);
                ntt(s, &mut fb);
                pointwise_montgomery(&mut fc, &fa, &fb);
                inv_ntt_to_mont(s, &mut fc);
                assert_eq!(fc.map(freeze), schoolbook(&a, &b), "{s:?}");

                let mut r = a;
                ntt(s, &mut r);
                r = r.map(reduce32);
                inv_ntt_to_mont(s, &mut r);
                let back = r.map(|x| freeze(montgomery_reduce(i64::from(x))));
                assert_eq!(back, a.map(freeze), "{s:?}: round trip");
            }
        }
    }

    #[test]
    fn table_sizes() {
        for s in Strategy::ALL {
            assert_eq!(table_bytes(s), 1028);
        }
    }
}
