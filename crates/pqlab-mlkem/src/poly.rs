//! Polynomials of R_q = Z_q\[X\]/(X^256 + 1) and of its NTT image T_q (FIPS 203, Section 2.4.4),
//! over the kernels of `pqlab_arith::mlkem`.

use pqlab_arith::mlkem as arith;
use zeroize::Zeroize;

use crate::params::N;

/// A polynomial with 256 coefficients, in the normal or the NTT domain (the caller knows which).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Zeroize)]
pub(crate) struct Poly(pub(crate) [i16; N]);

impl Default for Poly {
    fn default() -> Self {
        Poly::ZERO
    }
}

impl Poly {
    pub(crate) const ZERO: Poly = Poly([0; N]);

    /// FIPS 203, Algorithm 9: NTT, with Barrett-reduced output (see [`arith::ntt`]).
    #[inline]
    pub(crate) fn ntt(&mut self) {
        arith::ntt(&mut self.0);
    }

    /// FIPS 203, Algorithm 10: NTT^-1, times 2^16 (see [`arith::inv_ntt_to_mont`]).
    #[inline]
    pub(crate) fn inv_ntt_to_mont(&mut self) {
        arith::inv_ntt_to_mont(&mut self.0);
    }

    /// Maps every coefficient to its standard representative in [0, q).
    #[inline]
    pub(crate) fn freeze(&mut self) {
        arith::poly_freeze(&mut self.0);
    }

    /// Multiplies every coefficient by 2^16 (into the Montgomery domain).
    #[inline]
    pub(crate) fn tomont(&mut self) {
        arith::poly_to_mont(&mut self.0);
    }

    /// self += other, coefficient-wise, without reduction.
    #[inline]
    pub(crate) fn add_assign(&mut self, other: &Poly) {
        for (a, b) in self.0.iter_mut().zip(other.0.iter()) {
            *a += *b;
        }
    }

    /// self = other - self, coefficient-wise, without reduction.
    #[inline]
    pub(crate) fn sub_from(&mut self, other: &Poly) {
        for (a, b) in self.0.iter_mut().zip(other.0.iter()) {
            *a = *b - *a;
        }
    }
}

/// The NTT-domain inner product sum_j a_j x_T b_j * 2^-16 (FIPS 203, Algorithm 11 summed, as in
/// the products A_hat o s_hat, A_hat^T o y_hat, t_hat^T o y_hat and s_hat^T o u_hat of
/// Algorithms 13 to 15), with one Montgomery reduction per coefficient. At most k = 4 terms;
/// inputs must have coefficients of absolute value at most q.
pub(crate) fn inner_product_ntt<'a>(a: impl Iterator<Item = &'a Poly>, b: &[Poly]) -> Poly {
    let mut acc = [0i32; N];
    for (x, y) in a.zip(b) {
        arith::multiply_ntts_acc(&mut acc, &x.0, &y.0);
    }
    let mut out = Poly::ZERO;
    arith::reduce_acc(&mut out.0, &acc);
    acc.zeroize();
    out
}
