//! Polynomials of R_q = Z_q\[X\]/(X^256 + 1) and their vectors.

use pqlab_arith::mldsa;
use zeroize::Zeroize;

/// A polynomial with 256 coefficients, in the normal or the NTT domain (the caller knows which).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Zeroize)]
pub(crate) struct Poly(pub(crate) [i32; 256]);

impl Default for Poly {
    fn default() -> Self {
        Poly::ZERO
    }
}

impl Poly {
    pub(crate) const ZERO: Poly = Poly([0; 256]);

    /// FIPS 204, Algorithm 41: NTT.
    pub(crate) fn ntt(&mut self) {
        mldsa::ntt(&mut self.0);
    }

    /// FIPS 204, Algorithm 42: NTT^-1, times 2^32 (see [`mldsa::inv_ntt_to_mont`]).
    pub(crate) fn inv_ntt_to_mont(&mut self) {
        mldsa::inv_ntt_to_mont(&mut self.0);
    }

    /// Reduces every coefficient to (-6283009, 6283009) (see [`mldsa::reduce32`]).
    pub(crate) fn reduce(&mut self) {
        for x in self.0.iter_mut() {
            *x = mldsa::reduce32(*x);
        }
    }

    /// Maps every coefficient of absolute value below q to [0, q).
    pub(crate) fn caddq(&mut self) {
        for x in self.0.iter_mut() {
            *x = mldsa::caddq(*x);
        }
    }

    /// self += other, coefficient-wise, without reduction.
    pub(crate) fn add_assign(&mut self, other: &Poly) {
        for (a, b) in self.0.iter_mut().zip(other.0.iter()) {
            *a += *b;
        }
    }

    /// self -= other, coefficient-wise, without reduction.
    pub(crate) fn sub_assign(&mut self, other: &Poly) {
        for (a, b) in self.0.iter_mut().zip(other.0.iter()) {
            *a -= *b;
        }
    }

    /// The product a o b * 2^-32 of two NTT-domain polynomials.
    pub(crate) fn pointwise(a: &Poly, b: &Poly) -> Poly {
        let mut c = Poly::ZERO;
        mldsa::pointwise_montgomery(&mut c.0, &a.0, &b.0);
        c
    }

    /// `true` if some coefficient c has |c mod± q| >= bound (FIPS 204, Section 7.4, the infinity
    /// norm check). Coefficients must be reduced by [`Poly::reduce`] first. The early exit leaks
    /// only which coefficient of a rejected candidate was too large, which is independent of
    /// the secret (as in the reference implementation).
    pub(crate) fn norm_exceeds(&self, bound: i32) -> bool {
        self.0.iter().any(|&a| {
            // |a| without a branch on its sign.
            let abs = a - ((a >> 31) & (2 * a));
            abs >= bound
        })
    }
}

/// NTT-domain matrix-vector product: out\[i\] = sum_j a_hat\[i\]\[j\] o v_hat\[j\] * 2^-32
/// (FIPS 204, Algorithm 48: MatrixVectorNTT), for the first `rows` rows and `cols` columns.
pub(crate) fn matrix_vector_ntt(
    out: &mut [Poly],
    a_hat: &[[Poly; crate::params::MAX_L]],
    v_hat: &[Poly],
) {
    for (o, row) in out.iter_mut().zip(a_hat) {
        *o = Poly::ZERO;
        for (a, v) in row.iter().zip(v_hat) {
            mldsa::pointwise_acc_montgomery(&mut o.0, &a.0, &v.0);
        }
    }
}
