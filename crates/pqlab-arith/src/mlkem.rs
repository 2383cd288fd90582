//! Arithmetic modulo q = 3329 (FIPS 203): Barrett and Montgomery reduction (R = 2^16), and the
//! NTT of Algorithms 9 and 10 with the NTT-domain multiplication of Algorithms 11 and 12, in the
//! Montgomery domain.
//!
//! Polynomials are `[i16; 256]`. The contracts, which keep every intermediate value inside `i16`
//! (and the products inside the range of [`montgomery_reduce`]):
//!
//! * [`ntt`] takes coefficients of absolute value below 2q and returns them Barrett-reduced, in
//!   \[-(q-1)/2, (q-1)/2\], in the order of FIPS 203 Algorithm 9 (no bit-reversal of the output is
//!   needed: it is the standard's NTT representation).
//! * [`multiply_ntts`] multiplies two NTT-domain polynomials (Algorithm 11) and returns the
//!   product times 2^-16; [`multiply_ntts_acc`] adds the unreduced product to an `i32`
//!   accumulator, and [`reduce_acc`] finishes a sum of up to [`MAX_ACC_TERMS`] such products with
//!   one Montgomery reduction per coefficient. Inputs must have absolute value at most q.
//! * [`inv_ntt_to_mont`] undoes the NTT (Algorithm 10, including the factor 128^-1) and multiplies
//!   by 2^16, so that `inv_ntt_to_mont(multiply_ntts(ntt(a), ntt(b)))` is a * b mod q, with
//!   coefficients of absolute value below q. Its input must be below 2^14 in absolute value.
//!
//! Nothing here branches on, indexes memory by, or divides by a coefficient: every reduction is a
//! multiplication and a shift.

/// The modulus q = 3329 = 13 * 256 + 1.
pub const Q: i16 = 3329;
/// The number of coefficients of a polynomial.
pub const N: usize = 256;
/// q^-1 mod 2^16, as a signed 16-bit value.
pub const QINV: i16 = -3327;
/// 2^16 mod q, centred: the Montgomery form of 1.
pub const MONT: i16 = -1044;
/// 2^32 mod q: multiplying by it with [`fqmul`] converts to the Montgomery domain.
pub const MONT2: i16 = 1353;
/// The primitive 256th root of unity modulo q (FIPS 203, Section 4.3).
pub const ZETA: i32 = 17;
/// The largest number of [`multiply_ntts_acc`] products that one `i32` accumulator may hold
/// before [`reduce_acc`] (the module rank k is at most 4).
pub const MAX_ACC_TERMS: usize = 4;

/// Montgomery reduction: for |a| <= 2^15 q, returns r = a * 2^-16 mod q with |r| <= q.
#[inline(always)]
pub const fn montgomery_reduce(a: i32) -> i16 {
    let t = (a as i16).wrapping_mul(QINV);
    ((a - (t as i32) * (Q as i32)) >> 16) as i16
}

/// a * b * 2^-16 mod q, for |a * b| <= 2^15 q; the result has absolute value at most q.
#[inline(always)]
pub const fn fqmul(a: i16, b: i16) -> i16 {
    montgomery_reduce((a as i32) * (b as i32))
}

/// Barrett reduction: for every `i16` a, the representative of a mod q in
/// \[-(q-1)/2, (q-1)/2\].
#[inline(always)]
pub const fn barrett_reduce(a: i16) -> i16 {
    // v = round(2^26 / q).
    const V: i32 = ((1 << 26) + (Q as i32) / 2) / (Q as i32);
    let t = (V * (a as i32) + (1 << 25)) >> 26;
    ((a as i32) - t * (Q as i32)) as i16
}

/// Adds q if `a` is negative (no branch): maps (-q, q) to [0, q).
#[inline(always)]
pub const fn caddq(a: i16) -> i16 {
    a + ((a >> 15) & Q)
}

/// The standard representative of `a` mod q in [0, q), for every `i16` a.
#[inline(always)]
pub const fn freeze(a: i16) -> i16 {
    caddq(barrett_reduce(a))
}

const fn pow_mod(base: i32, mut e: u32) -> i32 {
    let q = Q as i64;
    let mut r = 1i64;
    let mut b = (base as i64) % q;
    while e > 0 {
        if e & 1 == 1 {
            r = r * b % q;
        }
        b = b * b % q;
        e >>= 1;
    }
    r as i32
}

const fn bit_rev7(k: usize) -> u32 {
    ((k as u8).reverse_bits() >> 1) as u32
}

/// `x * 2^16 mod q`, centred in (-q/2, q/2].
const fn to_mont_centred(x: i32) -> i16 {
    let q = Q as i64;
    let v = (x as i64) * (1i64 << 16) % q;
    if v > q / 2 { (v - q) as i16 } else { v as i16 }
}

/// zetas\[k\] = 2^16 * zeta^BitRev7(k) mod q, centred (FIPS 203, Appendix A, in Montgomery form).
/// Entry 0 is not used by the transforms.
pub const ZETAS: [i16; 128] = {
    let mut z = [0i16; 128];
    let mut k = 0;
    while k < 128 {
        z[k] = to_mont_centred(pow_mod(ZETA, bit_rev7(k)));
        k += 1;
    }
    z
};

/// gammas\[i\] = 2^16 * zeta^(2 BitRev7(i) + 1) mod q, centred: the moduli X^2 - gamma_i of
/// Algorithm 11 (FIPS 203, Appendix A, second table, in Montgomery form).
pub const GAMMAS: [i16; 128] = {
    let mut g = [0i16; 128];
    let mut i = 0;
    while i < 128 {
        g[i] = to_mont_centred(pow_mod(ZETA, 2 * bit_rev7(i) + 1));
        i += 1;
    }
    g
};

/// FIPS 203, Algorithm 9: NTT(f), in place, followed by a Barrett reduction of every coefficient.
///
/// Input coefficients must have absolute value below 2q (each of the seven layers adds less
/// than q); the output lies in \[-(q-1)/2, (q-1)/2\].
///
/// Always Montgomery reduction (the reduction study's other strategies are instantiated
/// separately, from [`crate::reduce::ntt_mlkem::ntt_with`], never reached from here).
pub fn ntt(f: &mut [i16; N]) {
    let _k = pqlab_profile::enter(pqlab_profile::Kernel::Ntt);
    crate::reduce::ntt_mlkem::ntt_with::<crate::reduce::ntt_mlkem::Mont>(f);
}

/// FIPS 203, Algorithm 10: NTT^-1(f_hat), in place, times 2^16 (so that a product made with
/// [`multiply_ntts`] comes back in the normal domain; use [`montgomery_reduce`] on each
/// coefficient to drop the factor otherwise).
///
/// Input coefficients must have absolute value below 2^14; outputs have absolute value below q.
/// Always Montgomery reduction, like [`ntt`].
pub fn inv_ntt_to_mont(f: &mut [i16; N]) {
    let _k = pqlab_profile::enter(pqlab_profile::Kernel::InvNtt);
    crate::reduce::ntt_mlkem::inv_ntt_to_mont_with::<crate::reduce::ntt_mlkem::Mont>(f);
}

/// FIPS 203, Algorithm 12: BaseCaseMultiply(a0, a1, b0, b1, gamma), the product of
/// a0 + a1 X and b0 + b1 X modulo X^2 - gamma, unreduced: returns (c0, c1) with
/// c0 = a0 b0 + (a1 b1 2^-16 mod q) gamma and c1 = a0 b1 + a1 b0, so that
/// `montgomery_reduce` of each gives the product times 2^-16 when `gamma` is in Montgomery form.
/// With inputs of absolute value at most q, |c0|, |c1| <= 2 q^2.
#[inline(always)]
pub const fn base_case_multiply(a0: i16, a1: i16, b0: i16, b1: i16, gamma: i16) -> (i32, i32) {
    let c0 = (a0 as i32) * (b0 as i32) + (fqmul(a1, b1) as i32) * (gamma as i32);
    let c1 = (a0 as i32) * (b1 as i32) + (a1 as i32) * (b0 as i32);
    (c0, c1)
}

/// FIPS 203, Algorithm 11: MultiplyNTTs(f_hat, g_hat), with Montgomery reduction:
/// h = f_hat x_T g_hat * 2^-16. Inputs must have absolute value at most q; outputs have absolute
/// value at most q.
pub fn multiply_ntts(h: &mut [i16; N], f: &[i16; N], g: &[i16; N]) {
    for (i, ((hc, fc), gc)) in h
        .chunks_exact_mut(2)
        .zip(f.chunks_exact(2))
        .zip(g.chunks_exact(2))
        .enumerate()
    {
        let (c0, c1) = base_case_multiply(fc[0], fc[1], gc[0], gc[1], GAMMAS[i]);
        hc[0] = montgomery_reduce(c0);
        hc[1] = montgomery_reduce(c1);
    }
}

/// acc += f_hat x_T g_hat (Algorithm 11 without the final reduction), for sums such as the
/// matrix-vector products of K-PKE. Inputs must have absolute value at most q; the accumulator
/// may hold at most [`MAX_ACC_TERMS`] products before [`reduce_acc`].
pub fn multiply_ntts_acc(acc: &mut [i32; N], f: &[i16; N], g: &[i16; N]) {
    for (i, ((ac, fc), gc)) in acc
        .chunks_exact_mut(2)
        .zip(f.chunks_exact(2))
        .zip(g.chunks_exact(2))
        .enumerate()
    {
        let (c0, c1) = base_case_multiply(fc[0], fc[1], gc[0], gc[1], GAMMAS[i]);
        ac[0] += c0;
        ac[1] += c1;
    }
}

/// h = acc * 2^-16 mod q, with one Montgomery reduction per coefficient: finishes a sum made
/// with [`multiply_ntts_acc`]. Outputs have absolute value at most q.
pub fn reduce_acc(h: &mut [i16; N], acc: &[i32; N]) {
    for (x, &a) in h.iter_mut().zip(acc.iter()) {
        *x = montgomery_reduce(a);
    }
}

/// Barrett-reduces every coefficient to \[-(q-1)/2, (q-1)/2\].
pub fn poly_reduce(f: &mut [i16; N]) {
    for x in f.iter_mut() {
        *x = barrett_reduce(*x);
    }
}

/// Maps every coefficient to its standard representative in [0, q).
pub fn poly_freeze(f: &mut [i16; N]) {
    for x in f.iter_mut() {
        *x = freeze(*x);
    }
}

/// Multiplies every coefficient by 2^16 mod q (into the Montgomery domain); outputs have
/// absolute value at most q.
pub fn poly_to_mont(f: &mut [i16; N]) {
    for x in f.iter_mut() {
        *x = fqmul(*x, MONT2);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    const QI: i64 = Q as i64;

    fn schoolbook(a: &[i16; N], b: &[i16; N]) -> [i16; N] {
        let mut c = [0i64; N];
        for i in 0..N {
            for j in 0..N {
                let p = i64::from(a[i]) * i64::from(b[j]) % QI;
                if i + j < N {
                    c[i + j] += p;
                } else {
                    c[i + j - N] -= p;
                }
            }
        }
        c.map(|x| x.rem_euclid(QI) as i16)
    }

    /// FIPS 203, Algorithm 9, written literally with exact arithmetic mod q.
    fn literal_ntt(f: &[i16; N]) -> [i64; N] {
        let mut f = f.map(|x| i64::from(x).rem_euclid(QI));
        let mut i = 1;
        let mut len = 128;
        while len >= 2 {
            let mut start = 0;
            while start < 256 {
                let zeta = i64::from(pow_mod(ZETA, bit_rev7(i)));
                i += 1;
                for j in start..start + len {
                    let t = zeta * f[j + len] % QI;
                    f[j + len] = (f[j] - t).rem_euclid(QI);
                    f[j] = (f[j] + t) % QI;
                }
                start += 2 * len;
            }
            len /= 2;
        }
        f
    }

    /// FIPS 203, Algorithms 11 and 12, written literally with exact arithmetic mod q.
    fn literal_multiply_ntts(f: &[i64; N], g: &[i64; N]) -> [i64; N] {
        let mut h = [0i64; N];
        for i in 0..128 {
            let gamma = i64::from(pow_mod(ZETA, 2 * bit_rev7(i) + 1));
            let (a0, a1, b0, b1) = (f[2 * i], f[2 * i + 1], g[2 * i], g[2 * i + 1]);
            h[2 * i] = (a0 * b0 + a1 * b1 % QI * gamma).rem_euclid(QI);
            h[2 * i + 1] = (a0 * b1 + a1 * b0).rem_euclid(QI);
        }
        h
    }

    fn random_poly(rng: &mut impl Rng, bound: i16) -> [i16; N] {
        core::array::from_fn(|_| rng.gen_range(-bound + 1..bound))
    }

    #[test]
    fn constants_are_consistent() {
        assert_eq!(Q.wrapping_mul(QINV), 1);
        assert_eq!(i64::from(MONT).rem_euclid(QI), (1i64 << 16) % QI);
        assert_eq!(i64::from(MONT2), (1i64 << 32) % QI);
        // zeta has order 256: zeta^128 = -1.
        assert_eq!(i64::from(pow_mod(ZETA, 128)), QI - 1);
        // The reference implementation's first twiddles (Montgomery form).
        assert_eq!(ZETAS[0], -1044);
        assert_eq!(ZETAS[1], -758);
        assert_eq!(ZETAS[127], 1628);
        // FIPS 203, Appendix A: zeta^BitRev7(1) = 1729 and the first gamma is 17.
        assert_eq!(pow_mod(ZETA, bit_rev7(1)), 1729);
        assert_eq!(pow_mod(ZETA, 2 * bit_rev7(0) + 1), 17);
        // The gammas pair up as +-zeta^BitRev7(64 + i), as the reference's basemul uses them.
        for i in 0..64 {
            assert_eq!(GAMMAS[2 * i], ZETAS[64 + i]);
            assert_eq!(GAMMAS[2 * i + 1], -ZETAS[64 + i]);
        }
    }

    #[test]
    fn reductions_are_exact_over_their_whole_domain() {
        for a in i16::MIN..=i16::MAX {
            let r = barrett_reduce(a);
            assert!(
                (-(Q - 1) / 2..=(Q - 1) / 2).contains(&r),
                "barrett({a}) = {r}"
            );
            assert_eq!((i64::from(a) - i64::from(r)).rem_euclid(QI), 0);
            let f = freeze(a);
            assert!((0..Q).contains(&f));
            assert_eq!((i64::from(a) - i64::from(f)).rem_euclid(QI), 0);
        }
        for a in -Q + 1..Q {
            assert_eq!(caddq(a), a.rem_euclid(Q));
        }
        let mut rng = rand::rngs::StdRng::seed_from_u64(1);
        let bound = (1i32 << 15) * i32::from(Q);
        for a in (0..1_000_000)
            .map(|_| rng.gen_range(-bound..=bound))
            .chain([-bound, bound, 0, 1, -1])
        {
            let r = montgomery_reduce(a);
            assert!(r.abs() <= Q, "montgomery({a}) = {r}");
            // r * 2^16 = a (mod q)
            assert_eq!((i64::from(r) * 65536 - i64::from(a)).rem_euclid(QI), 0);
        }
    }

    #[test]
    fn ntt_matches_algorithm_9_literally() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(2);
        for _ in 0..50 {
            let a = random_poly(&mut rng, 2 * Q);
            let mut b = a;
            ntt(&mut b);
            assert!(b.iter().all(|x| x.abs() <= (Q - 1) / 2));
            let want = literal_ntt(&a);
            for k in 0..N {
                assert_eq!(i64::from(b[k]).rem_euclid(QI), want[k], "coefficient {k}");
            }
        }
    }

    #[test]
    fn multiply_ntts_matches_algorithms_11_and_12_literally() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(3);
        for _ in 0..50 {
            let f = random_poly(&mut rng, Q + 1);
            let g = random_poly(&mut rng, Q + 1);
            let mut h = [0; N];
            multiply_ntts(&mut h, &f, &g);
            let want = literal_multiply_ntts(
                &f.map(|x| i64::from(x).rem_euclid(QI)),
                &g.map(|x| i64::from(x).rem_euclid(QI)),
            );
            for k in 0..N {
                assert!(h[k].abs() <= Q);
                // h = f x_T g * 2^-16
                assert_eq!((i64::from(h[k]) * 65536 - want[k]).rem_euclid(QI), 0);
            }
        }
    }

    #[test]
    fn ntt_multiplication_matches_schoolbook() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        for _ in 0..20 {
            let a = random_poly(&mut rng, Q);
            let b = random_poly(&mut rng, Q);
            let (mut fa, mut fb, mut fc) = (a, b, [0; N]);
            ntt(&mut fa);
            ntt(&mut fb);
            multiply_ntts(&mut fc, &fa, &fb);
            inv_ntt_to_mont(&mut fc);
            assert!(fc.iter().all(|x| x.abs() < Q));
            assert_eq!(fc.map(freeze), schoolbook(&a, &b));
        }
    }

    #[test]
    fn accumulated_products_match_schoolbook_sums() {
        // The largest sums the schemes form: k = 4 products.
        let mut rng = rand::rngs::StdRng::seed_from_u64(9);
        for _ in 0..10 {
            let mut acc = [0i32; N];
            let mut want = [0i64; N];
            for _ in 0..MAX_ACC_TERMS {
                let (mut a, mut b) = (random_poly(&mut rng, Q), random_poly(&mut rng, Q));
                let s = schoolbook(&a, &b);
                for k in 0..N {
                    want[k] += i64::from(s[k]);
                }
                ntt(&mut a);
                ntt(&mut b);
                multiply_ntts_acc(&mut acc, &a, &b);
            }
            let mut h = [0i16; N];
            reduce_acc(&mut h, &acc);
            assert!(h.iter().all(|x| x.abs() <= Q));
            inv_ntt_to_mont(&mut h);
            assert_eq!(h.map(freeze), want.map(|x| x.rem_euclid(QI) as i16));
        }
        // Inputs at the bound q, with both signs: no overflow (the tests run with overflow
        // checks) and reduced outputs within q.
        for (a, b) in [(Q, Q), (Q, -Q), (-Q, -Q)] {
            let mut acc = [0i32; N];
            for _ in 0..MAX_ACC_TERMS {
                multiply_ntts_acc(&mut acc, &[a; N], &[b; N]);
            }
            let mut h = [0i16; N];
            reduce_acc(&mut h, &acc);
            assert!(h.iter().all(|x| x.abs() <= Q));
        }
    }

    #[test]
    fn inverse_undoes_forward() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(8);
        for _ in 0..20 {
            let a: [i16; N] = core::array::from_fn(|_| rng.gen_range(0..Q));
            let mut b = a;
            ntt(&mut b);
            inv_ntt_to_mont(&mut b);
            // The inverse multiplies by 2^16: take it out with one Montgomery reduction.
            let back = b.map(|x| freeze(montgomery_reduce(i32::from(x))));
            assert_eq!(back, a);
        }
        // The largest inputs the contract allows.
        let mut b = [(1 << 14) - 1; N];
        inv_ntt_to_mont(&mut b);
        assert!(b.iter().all(|x| x.abs() < Q));
        let mut b = [-(1 << 14) + 1; N];
        inv_ntt_to_mont(&mut b);
        assert!(b.iter().all(|x| x.abs() < Q));
    }

    #[test]
    fn to_mont_and_freeze() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(10);
        let a = random_poly(&mut rng, i16::MAX);
        let mut b = a;
        poly_to_mont(&mut b);
        poly_freeze(&mut b);
        for k in 0..N {
            assert_eq!(
                i64::from(b[k]),
                (i64::from(a[k]) * 65536).rem_euclid(QI),
                "coefficient {k}"
            );
        }
        let mut c = a;
        poly_reduce(&mut c);
        assert!(c.iter().all(|x| x.abs() <= (Q - 1) / 2));
    }
}
