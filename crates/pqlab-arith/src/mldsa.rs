//! Arithmetic modulo q = 8380417 = 2^23 - 2^13 + 1 (FIPS 204): Montgomery reduction with
//! R = 2^32, and the NTT of Algorithms 41 and 42 in the Montgomery domain.
//!
//! Polynomials are `[i32; 256]`. [`ntt`] takes coefficients of absolute value below q and returns
//! values of absolute value below 9q; [`pointwise_montgomery`] multiplies NTT-domain
//! polynomials (result times 2^-32); [`inv_ntt_to_mont`] undoes the NTT and multiplies by 2^32,
//! so that `inv_ntt_to_mont(pointwise_montgomery(ntt(a), ntt(b)))` is a * b mod q with
//! coefficients of absolute value below q.

/// The modulus q.
pub const Q: i32 = 8_380_417;
/// q^-1 mod 2^32.
pub const QINV: i32 = 58_728_449;
/// 2^32 mod q: the Montgomery form of 1.
pub const MONT: i32 = 4_193_792;
/// The primitive 512th root of unity modulo q (FIPS 204, Section 7.5).
pub const ZETA: i64 = 1753;

/// Montgomery reduction: for |a| < 2^31 q, returns r = a * 2^-32 mod q with |r| < q.
#[inline(always)]
pub const fn montgomery_reduce(a: i64) -> i32 {
    let t = (a as i32).wrapping_mul(QINV);
    ((a - (t as i64) * (Q as i64)) >> 32) as i32
}

/// For a <= 2^31 - 2^22 - 1, returns r = a mod q with -6283008 <= r <= 6283008.
#[inline(always)]
pub const fn reduce32(a: i32) -> i32 {
    let t = (a + (1 << 22)) >> 23;
    a - t * Q
}

/// Adds q if `a` is negative (no branch).
#[inline(always)]
pub const fn caddq(a: i32) -> i32 {
    a + ((a >> 31) & Q)
}

/// The standard representative of `a` mod q in [0, q), for |a| < 2^31 - 2^22.
#[inline(always)]
pub const fn freeze(a: i32) -> i32 {
    caddq(reduce32(a))
}

const fn pow_mod(base: i64, mut e: u32) -> i64 {
    let mut r = 1i64;
    let mut b = base % Q as i64;
    while e > 0 {
        if e & 1 == 1 {
            r = r * b % Q as i64;
        }
        b = b * b % Q as i64;
        e >>= 1;
    }
    r
}

const fn bit_rev8(k: usize) -> u32 {
    (k as u8).reverse_bits() as u32
}

/// zetas\[k\] = 2^32 * zeta^BitRev8(k) mod q, centred in (-q/2, q/2] (FIPS 204, Appendix B, in
/// Montgomery form). Entry 0 is unused.
pub const ZETAS: [i32; 256] = {
    let mut z = [0i32; 256];
    let mut k = 1;
    while k < 256 {
        let v = pow_mod(ZETA, bit_rev8(k)) * (1i64 << 32) % Q as i64;
        z[k] = if v > (Q as i64) / 2 {
            (v - Q as i64) as i32
        } else {
            v as i32
        };
        k += 1;
    }
    z
};

/// FIPS 204, Algorithm 41: NTT(w), in place. Input coefficients must be below q in absolute
/// value; outputs are below 9q in absolute value.
///
/// Always Montgomery reduction (the reduction study's other strategies are instantiated
/// separately, from [`crate::reduce::ntt_mldsa::ntt_with`], never reached from here).
pub fn ntt(a: &mut [i32; 256]) {
    let _k = pqlab_profile::enter(pqlab_profile::Kernel::Ntt);
    crate::reduce::ntt_mldsa::ntt_with::<crate::reduce::ntt_mldsa::Mont>(a);
}

/// FIPS 204, Algorithm 42: NTT^-1(w_hat), in place, times 2^32 (so that a product made with
/// [`pointwise_montgomery`] comes back in the normal domain). Input coefficients must be below q
/// in absolute value; outputs are below q in absolute value.
///
/// Always Montgomery reduction, like [`ntt`].
pub fn inv_ntt_to_mont(a: &mut [i32; 256]) {
    let _k = pqlab_profile::enter(pqlab_profile::Kernel::InvNtt);
    crate::reduce::ntt_mldsa::inv_ntt_to_mont_with::<crate::reduce::ntt_mldsa::Mont>(a);
}

/// FIPS 204, Algorithm 45: MultiplyNTT, with Montgomery reduction: c = a o b * 2^-32.
pub fn pointwise_montgomery(c: &mut [i32; 256], a: &[i32; 256], b: &[i32; 256]) {
    for i in 0..256 {
        c[i] = montgomery_reduce(i64::from(a[i]) * i64::from(b[i]));
    }
}

/// c += a o b * 2^-32 (a multiply-accumulate for matrix-vector products).
pub fn pointwise_acc_montgomery(c: &mut [i32; 256], a: &[i32; 256], b: &[i32; 256]) {
    for i in 0..256 {
        c[i] += montgomery_reduce(i64::from(a[i]) * i64::from(b[i]));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    fn schoolbook(a: &[i32; 256], b: &[i32; 256]) -> [i32; 256] {
        let mut c = [0i64; 256];
        for i in 0..256 {
            for j in 0..256 {
                let p = i64::from(a[i]) * i64::from(b[j]) % i64::from(Q);
                if i + j < 256 {
                    c[i + j] += p;
                } else {
                    c[i + j - 256] -= p;
                }
            }
        }
        c.map(|x| x.rem_euclid(i64::from(Q)) as i32)
    }

    #[test]
    fn constants_are_consistent() {
        assert_eq!(Q.wrapping_mul(QINV), 1);
        assert_eq!(((1i64 << 32) % i64::from(Q)) as i32, MONT);
        // zeta has order 512: zeta^256 = -1.
        assert_eq!(pow_mod(ZETA, 256), i64::from(Q) - 1);
        // Montgomery form of zeta^BitRev8(1) = zeta^128.
        assert_eq!(ZETAS[1], 25847);
    }

    #[test]
    fn ntt_multiplication_matches_schoolbook() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        for _ in 0..20 {
            let a: [i32; 256] = core::array::from_fn(|_| rng.gen_range(-Q + 1..Q));
            let b: [i32; 256] = core::array::from_fn(|_| rng.gen_range(-Q + 1..Q));
            let (mut fa, mut fb, mut fc) = (a, b, [0; 256]);
            ntt(&mut fa);
            ntt(&mut fb);
            pointwise_montgomery(&mut fc, &fa, &fb);
            inv_ntt_to_mont(&mut fc);
            assert_eq!(fc.map(freeze), schoolbook(&a, &b));
        }
    }

    #[test]
    fn inverse_undoes_forward() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(8);
        let a: [i32; 256] = core::array::from_fn(|_| rng.gen_range(0..Q));
        let mut b = a;
        ntt(&mut b);
        // Reduce into (-q, q) before the inverse, as its contract asks.
        for x in b.iter_mut() {
            *x = reduce32(*x);
        }
        inv_ntt_to_mont(&mut b);
        // The inverse multiplies by 2^32: take it out with one Montgomery reduction.
        let back = b.map(|x| freeze(montgomery_reduce(i64::from(x))));
        assert_eq!(back, a);
    }
}
