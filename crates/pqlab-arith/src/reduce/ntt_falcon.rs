//! The negacyclic NTT and inverse NTT modulo q = 12289 = 3 * 2^12 + 1 of Falcon (specification
//! v1.2, Section 3.7.4; the reference's `mq_NTT` / `mq_iNTT`), for n = 2^logn, logn in 0..=10,
//! generic over the reduction strategy. [`crate::falcon::ntt`] and [`crate::falcon::intt`]
//! are [`ntt_with`] and [`intt_with`] for [`Mont`] (by type); [`ntt`] and [`intt`] take a
//! strategy for the reduction study; [`Mont`] is (Montgomery with R = 2^16, as
//! the Falcon reference code does).
//!
//! As the reference does, the coefficients stay fully reduced in \[0, q) (`u16`): each butterfly
//! reduces the product of a twiddle and a coefficient with the strategy and brings the result
//! into \[0, q) with one masked addition, then adds and subtracts with masked corrections. Every
//! strategy therefore returns **the same bits** (the exact residues), and no plan of extra
//! passes is needed: the compile-time check is that one reduction of the largest product lands
//! strictly between -q and q ([`Tables::CHECKED`]). This is the NTT whose Montgomery reduction
//! the Falcon study replaced with K2-RED ([`K2`]: 12289 = 3 * 2^12 + 1, two K-RED steps, the
//! twiddles pre-scaled by 3^-2).
//!
//! The tables are built at compile time per strategy by the shared [`super::plan::twiddles`]:
//! psi^BitRev10(k) and psi^-BitRev10(k) for a primitive 2048th root of unity psi, pre-scaled by
//! the strategy's FACTOR^-1 (one table serves every n: its first n entries are the table of the
//! 2n-th root psi^(1024/n)), and n^-1 for every logn.

use core::marker::PhantomData;

use super::plan::{narrow_i16, twiddles};
use super::{
    Barrett, I32_IN_MAX, K2Red, Montgomery, PlainRem, Q_FALCON, Reduction, Strategy, inv_mod,
    prescale,
};

const Q: i64 = Q_FALCON;
/// The largest degree.
pub const MAX_N: usize = 1024;
/// Montgomery reduction with R = 2^16 (the default, as the Falcon reference's `mq_montymul`).
pub type Mont = Montgomery<Q_FALCON, 16>;
/// Barrett reduction.
pub type Bar = Barrett<Q_FALCON>;
/// K2-RED with q = 3 * 2^12 + 1 (the Falcon study's choice).
pub type K2 = K2Red<3, 12>;
/// The `%` baseline (benchmark-only).
pub type Rem = PlainRem<Q_FALCON>;

/// psi, the primitive 2048th root of unity of [`crate::falcon::PSI`] (a power of the smallest
/// generator mod q), so that every strategy reproduces the transform of [`crate::falcon`].
pub const PSI: i64 = crate::falcon::PSI as i64;
const ZMAX: i64 = (Q - 1) / 2;

/// The precomputed tables of strategy `S` (all evaluated at compile time).
pub struct Tables<S>(PhantomData<S>);

impl<S: Reduction> Tables<S> {
    /// Compile-time proof that one reduction of a centred twiddle times a value in \[0, q) stays
    /// in the 32-bit path and strictly inside (-q, q).
    pub const CHECKED: () = {
        assert!(S::Q == Q && ZMAX * (Q - 1) <= I32_IN_MAX);
        assert!(S::RULE.out_bound(ZMAX * (Q - 1)) < Q);
    };
    /// psi^BitRev10(k) * FACTOR^-1 mod q, centred.
    pub const PSI: [i16; MAX_N] = narrow_i16(twiddles::<S, MAX_N>(PSI, 10));
    /// psi^-BitRev10(k) * FACTOR^-1 mod q, centred.
    pub const PSI_INV: [i16; MAX_N] = narrow_i16(twiddles::<S, MAX_N>(inv_mod(PSI, Q), 10));
    /// 2^-logn * FACTOR^-1 mod q, centred, for logn = 0..=10.
    pub const N_INV: [i16; 11] = {
        let mut t = [0i16; 11];
        let mut l = 0;
        while l < 11 {
            t[l] = prescale::<S>(inv_mod(1 << l, Q)) as i16;
            l += 1;
        }
        t
    };
}

/// reduce(z * y) brought into \[0, q).
#[inline(always)]
fn mul_red<S: Reduction>(z: i32, y: u16) -> u32 {
    let r = S::reduce_i32(z * i32::from(y));
    (r + (Q as i32 & (r >> 31))) as u32
}

/// a + b mod q for a, b in \[0, q) (masked, no branch).
#[inline(always)]
fn add(a: u32, b: u32) -> u16 {
    let s = (a + b).wrapping_sub(Q as u32);
    s.wrapping_add(Q as u32 & 0u32.wrapping_sub(s >> 31)) as u16
}

/// a - b mod q for a, b in \[0, q) (masked, no branch).
#[inline(always)]
fn sub(a: u32, b: u32) -> u16 {
    let s = a.wrapping_sub(b);
    s.wrapping_add(Q as u32 & 0u32.wrapping_sub(s >> 31)) as u16
}

/// Falcon's forward NTT (Cooley-Tukey, the reference's `mq_NTT`) in place under strategy `S`:
/// `a` holds n = 2^logn <= 1024 coefficients in \[0, q); the output, in \[0, q), is in
/// bit-reversed order and the same for every strategy.
pub fn ntt_with<S: Reduction>(a: &mut [u16]) {
    let () = Tables::<S>::CHECKED;
    let psi: &'static [i16; MAX_N] = const { &Tables::<S>::PSI };
    let n = a.len();
    debug_assert!(n.is_power_of_two() && n <= MAX_N);
    let mut t = n;
    let mut m = 1;
    while m < n {
        t >>= 1;
        for (i, block) in a.chunks_exact_mut(2 * t).enumerate() {
            let s = i32::from(psi[m + i]);
            let (lo, hi) = block.split_at_mut(t);
            for (x, y) in lo.iter_mut().zip(hi.iter_mut()) {
                let u = u32::from(*x);
                let v = mul_red::<S>(s, *y);
                *x = add(u, v);
                *y = sub(u, v);
            }
        }
        m <<= 1;
    }
}

/// Falcon's inverse NTT (Gentleman-Sande, the reference's `mq_iNTT`) in place under strategy
/// `S`, including the factor n^-1: the inverse of [`ntt_with`], output in \[0, q).
pub fn intt_with<S: Reduction>(a: &mut [u16]) {
    let () = Tables::<S>::CHECKED;
    let psi_inv: &'static [i16; MAX_N] = const { &Tables::<S>::PSI_INV };
    let n = a.len();
    debug_assert!(n.is_power_of_two() && n <= MAX_N);
    let mut t = 1;
    let mut m = n;
    while m > 1 {
        let h = m >> 1;
        for (i, block) in a.chunks_exact_mut(2 * t).enumerate() {
            let s = i32::from(psi_inv[h + i]);
            let (lo, hi) = block.split_at_mut(t);
            for (x, y) in lo.iter_mut().zip(hi.iter_mut()) {
                let u = u32::from(*x);
                let v = u32::from(*y);
                *x = add(u, v);
                *y = mul_red::<S>(s, sub(u, v)) as u16;
            }
        }
        t <<= 1;
        m = h;
    }
    let ninv = i32::from(Tables::<S>::N_INV[n.trailing_zeros() as usize]);
    for x in a.iter_mut() {
        *x = mul_red::<S>(ninv, *x) as u16;
    }
}

/// [`ntt_with`] for a strategy chosen at run time.
pub fn ntt(s: Strategy, a: &mut [u16]) {
    match s {
        Strategy::Montgomery => ntt_with::<Mont>(a),
        Strategy::Barrett => ntt_with::<Bar>(a),
        Strategy::K2Red => ntt_with::<K2>(a),
        Strategy::PlainRem => ntt_with::<Rem>(a),
    }
}

/// [`intt_with`] for a strategy chosen at run time.
pub fn intt(s: Strategy, a: &mut [u16]) {
    match s {
        Strategy::Montgomery => intt_with::<Mont>(a),
        Strategy::Barrett => intt_with::<Bar>(a),
        Strategy::K2Red => intt_with::<K2>(a),
        Strategy::PlainRem => intt_with::<Rem>(a),
    }
}

/// Bytes of precomputed tables: the two 1024-entry twiddle tables (`i16`) and the eleven
/// factors n^-1. The same for every strategy: pre-scaling changes the values, not the size.
pub const fn table_bytes(_s: Strategy) -> usize {
    2 * size_of::<[i16; MAX_N]>() + size_of::<[i16; 11]>()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::falcon::{PSI_INV_POWERS, PSI_POWERS, mul, pointwise_mul};
    use rand::{Rng, SeedableRng};

    const QU: u16 = Q as u16;

    /// The transforms as written before the strategies (Barrett `mul` of [`crate::falcon`]).
    fn reference_ntt(a: &mut [u16]) {
        let n = a.len();
        let (mut t, mut m) = (n, 1);
        while m < n {
            t >>= 1;
            for i in 0..m {
                let s = u32::from(PSI_POWERS[m + i]);
                for j in 2 * i * t..2 * i * t + t {
                    let u = u32::from(a[j]);
                    let v = mul(u32::from(a[j + t]), s);
                    a[j] = add(u, v);
                    a[j + t] = sub(u, v);
                }
            }
            m <<= 1;
        }
    }

    fn reference_intt(a: &mut [u16]) {
        let n = a.len();
        let (mut t, mut m) = (1, n);
        while m > 1 {
            let h = m >> 1;
            for i in 0..h {
                let s = u32::from(PSI_INV_POWERS[h + i]);
                for j in 2 * i * t..2 * i * t + t {
                    let u = u32::from(a[j]);
                    let v = u32::from(a[j + t]);
                    a[j] = add(u, v);
                    a[j + t] = mul(u32::from(sub(u, v)), s) as u16;
                }
            }
            t <<= 1;
            m = h;
        }
        let ninv = crate::falcon::inv(n as u32);
        for x in a.iter_mut() {
            *x = mul(u32::from(*x), ninv) as u16;
        }
    }

    fn schoolbook(a: &[u16], b: &[u16]) -> [u16; MAX_N] {
        let n = a.len();
        let mut c = [0i64; MAX_N];
        for i in 0..n {
            for j in 0..n {
                let p = i64::from(a[i]) * i64::from(b[j]);
                if i + j < n {
                    c[i + j] += p;
                } else {
                    c[i + j - n] -= p;
                }
            }
        }
        c.map(|x| x.rem_euclid(Q) as u16)
    }

    #[test]
    fn montgomery_tables_match_the_reference_root() {
        // Montgomery form: psi^BitRev(k) * 2^16; undoing it gives the old tables.
        for k in 0..MAX_N {
            let back = |t: i16| (i64::from(t) * Mont::FACTOR).rem_euclid(Q);
            assert_eq!(back(Tables::<Mont>::PSI[k]), i64::from(PSI_POWERS[k]));
            assert_eq!(
                back(Tables::<Mont>::PSI_INV[k]),
                i64::from(PSI_INV_POWERS[k])
            );
        }
        assert_eq!(i64::from(PSI_POWERS[1]), super::super::pow_mod(PSI, 512, Q));
    }

    #[test]
    fn every_strategy_is_bit_identical_to_the_reference() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        for logn in 0..=10 {
            let n = 1 << logn;
            for round in 0..6 {
                let a: [u16; MAX_N] = match round {
                    0 => [QU - 1; MAX_N],
                    1 => [0; MAX_N],
                    _ => core::array::from_fn(|_| rng.gen_range(0..QU)),
                };
                let mut want = a;
                reference_ntt(&mut want[..n]);
                let mut back = want;
                reference_intt(&mut back[..n]);
                assert_eq!(back[..n], a[..n]);
                for s in Strategy::ALL {
                    let mut x = a;
                    ntt(s, &mut x[..n]);
                    assert_eq!(x[..n], want[..n], "{s:?} logn={logn}");
                    intt(s, &mut x[..n]);
                    assert_eq!(x[..n], a[..n], "{s:?} logn={logn}: round trip");
                }
            }
        }
    }

    #[test]
    fn every_strategy_multiplies_like_schoolbook() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(8);
        for logn in [1, 4, 9, 10] {
            let n = 1 << logn;
            for s in Strategy::ALL {
                let a: [u16; MAX_N] = core::array::from_fn(|_| rng.gen_range(0..QU));
                let b: [u16; MAX_N] = core::array::from_fn(|_| rng.gen_range(0..QU));
                let (mut x, mut y) = (a, b);
                ntt(s, &mut x[..n]);
                ntt(s, &mut y[..n]);
                pointwise_mul(&mut x[..n], &y[..n]);
                intt(s, &mut x[..n]);
                assert_eq!(
                    x[..n],
                    schoolbook(&a[..n], &b[..n])[..n],
                    "{s:?} logn={logn}"
                );
            }
        }
    }

    #[test]
    fn table_sizes() {
        for s in Strategy::ALL {
            assert_eq!(table_bytes(s), 4118);
        }
    }
}
