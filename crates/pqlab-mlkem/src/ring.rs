//! ML-KEM's ring R_q = Z_3329\[X\]/(X^256 + 1) and its NTT (FIPS 203, Algorithms 9 to 12) as a
//! service to another scheme: the exact product of two short polynomials whose product has
//! every coefficient below q / 2 = 1664.5 in absolute value, computed modulo 3329 on 16-bit
//! kernels ([`multiply`]) and lifted back to the integers ([`centered`]).
//!
//! ML-DSA's signing uses it for `<<c s1>>` and `<<c s2>>` (|c s| <= tau eta <= 196 for every
//! parameter set), whose 16-bit NTTs cost a fraction of its own 32-bit ones modulo 8380417 (the
//! technique of Abdulrahman, Hwang, Kannwischer and Sprenkels, "Faster Kyber and Dilithium on
//! the Cortex-M4", ACNS 2022, there with a smaller modulus). The kernels are ML-KEM's, on the
//! back end the caller names: constant time like every kernel of the crate.

use pqlab_backend::Backend;

use crate::backend::{Ops, dispatch};

/// The modulus of the ring.
pub const Q: i16 = 3329;

/// The largest absolute value of a product coefficient that [`multiply`] and [`centered`]
/// give exactly: (q - 1) / 2.
pub const EXACT_BOUND: i32 = (Q as i32 - 1) / 2;

/// The back end that runs the kernels: `backend` where this CPU has it, else the portable one
/// (the choice is public; it never depends on data).
fn usable(backend: Backend) -> Backend {
    if backend.is_available() {
        backend
    } else {
        Backend::Portable
    }
}

/// FIPS 203, Algorithm 9: NTT(f) modulo 3329, in place, on `backend`'s kernels. Inputs of
/// absolute value below 2q = 6658 (a short polynomial as it is, e.g. coefficients in
/// \[-4, 4\]); outputs in \[-(q-1)/2, (q-1)/2\], the same under every back end.
#[inline]
pub fn ntt(backend: Backend, f: &mut [i16; 256]) {
    dispatch!(on usable(backend), B => B::ntt(f))
}

/// a b modulo q for two polynomials given by their NTT forms ([`ntt`]): FIPS 203, Algorithm 11
/// (MultiplyNTTs) with Montgomery reduction, then Algorithm 10 (NTT^-1, whose factor 2^16
/// cancels the reduction's 2^-16), into `out` with every coefficient of absolute value below q
/// (the same under every back end). When every coefficient of a b over the integers (modulo
/// X^256 + 1) has absolute value at most [`EXACT_BOUND`], [`centered`] of `out` is a b exactly.
#[inline]
pub fn multiply(backend: Backend, a_hat: &[i16; 256], b_hat: &[i16; 256], out: &mut [i16; 256]) {
    dispatch!(on usable(backend), B => {
        B::inner_product_ntt(out, &[a_hat], &[b_hat]);
        B::inv_ntt_to_mont(out);
    });
}

/// The representative in \[-(q-1)/2, (q-1)/2\] of x mod q, for |x| < q: one subtraction or
/// addition of q chosen by sign masks (no branch).
#[inline]
pub const fn centered(x: i16) -> i16 {
    let x = x as i32;
    let above = ((EXACT_BOUND - x) >> 31) & Q as i32;
    let below = ((x + EXACT_BOUND) >> 31) & Q as i32;
    (x - above + below) as i16
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng, rngs::StdRng};

    /// Schoolbook a b modulo X^256 + 1 over the integers.
    fn schoolbook(a: &[i16; 256], b: &[i16; 256]) -> [i32; 256] {
        let mut out = [0i32; 256];
        for i in 0..256 {
            for j in 0..256 {
                let p = i32::from(a[i]) * i32::from(b[j]);
                if i + j < 256 {
                    out[i + j] += p;
                } else {
                    out[i + j - 256] -= p;
                }
            }
        }
        out
    }

    /// A polynomial with `weight` coefficients +-1 (a challenge) or, with `weight` 0, every
    /// coefficient in [-eta, eta].
    fn short(rng: &mut StdRng, weight: usize, eta: i16) -> [i16; 256] {
        let mut f = [0i16; 256];
        if weight == 0 {
            f.iter_mut().for_each(|x| *x = rng.gen_range(-eta..=eta));
        } else {
            let mut set = 0;
            while set < weight {
                let i = rng.gen_range(0..256);
                if f[i] == 0 {
                    f[i] = if rng.r#gen::<bool>() { 1 } else { -1 };
                    set += 1;
                }
            }
        }
        f
    }

    /// Exact products of challenges and short secrets as ML-DSA makes them (tau, eta of each
    /// parameter set, and the extreme case of all coefficients at the bound), under every back
    /// end this machine has, against schoolbook multiplication.
    #[test]
    fn products_of_short_polynomials_are_exact_under_every_backend() {
        let mut rng = StdRng::seed_from_u64(0x3329);
        let mut checked = 0;
        for (tau, eta) in [(39, 2), (49, 4), (60, 2)] {
            for round in 0..8 {
                let c = short(&mut rng, tau, 1);
                let mut s = short(&mut rng, 0, eta);
                if round == 0 {
                    s = [eta; 256];
                }
                let want = schoolbook(&c, &s);
                assert!(want.iter().all(|x| x.abs() <= EXACT_BOUND));
                for backend in Backend::ALL.into_iter().filter(|b| b.is_available()) {
                    let (mut c_hat, mut s_hat) = (c, s);
                    ntt(backend, &mut c_hat);
                    ntt(backend, &mut s_hat);
                    let mut out = [0i16; 256];
                    multiply(backend, &c_hat, &s_hat, &mut out);
                    let got: [i32; 256] = core::array::from_fn(|i| i32::from(centered(out[i])));
                    assert_eq!(got, want, "tau {tau} eta {eta} round {round} {backend}");
                    checked += 1;
                }
            }
        }
        assert!(checked >= 24);
    }

    /// The centering at and around its edges.
    #[test]
    fn centering_takes_the_representative_nearest_zero() {
        let cases = [
            (0, 0),
            (1664, 1664),
            (1665, -1664),
            (-1664, -1664),
            (-1665, 1664),
            (3328, -1),
            (-3328, 1),
        ];
        for (x, want) in cases {
            assert_eq!(centered(x), want, "{x}");
        }
        for x in -3328..=3328i16 {
            let c = centered(x);
            assert!(
                c.abs() <= 1664 && (i32::from(x) - i32::from(c)) % 3329 == 0,
                "{x}"
            );
        }
    }
}
