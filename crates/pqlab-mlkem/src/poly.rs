//! Polynomials of R_q = Z_q\[X\]/(X^256 + 1) and of its NTT image T_q (FIPS 203, Section 2.4.4),
//! over the kernels of the selected back end ([`crate::backend::Ops`]).

use pqlab_arith::array::ConstZero;
use zeroize::Zeroize;

use crate::backend::Ops;
use crate::params::{MAX_K, N};

/// A polynomial with 256 coefficients, in the normal or the NTT domain (the caller knows which).
/// (`pub` only so that the storage types of [`crate::ParameterSet`] can name it; the module is
/// private.)
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Poly(pub(crate) [i16; N]);

impl ConstZero for Poly {
    const ZERO: Self = Poly([0; N]);
}

impl Zeroize for Poly {
    /// Clears the coefficients with [`pqlab_arith::wipe`] (vector stores, not one volatile
    /// store per coefficient).
    fn zeroize(&mut self) {
        pqlab_arith::wipe::wipe(&mut self.0);
    }
}

impl Default for Poly {
    fn default() -> Self {
        Poly::ZERO
    }
}

impl Poly {
    pub(crate) const ZERO: Poly = Poly([0; N]);

    /// FIPS 203, Algorithm 9: NTT, with Barrett-reduced output (see [`Ops::ntt`]).
    #[inline]
    pub(crate) fn ntt<B: Ops>(&mut self) {
        B::ntt(&mut self.0);
    }

    /// FIPS 203, Algorithm 10: NTT^-1, times 2^16 (see [`Ops::inv_ntt_to_mont`]).
    #[inline]
    pub(crate) fn inv_ntt_to_mont<B: Ops>(&mut self) {
        B::inv_ntt_to_mont(&mut self.0);
    }

    /// Maps every coefficient to its standard representative in [0, q).
    #[inline]
    pub(crate) fn freeze<B: Ops>(&mut self) {
        B::freeze(&mut self.0);
    }

    /// Multiplies every coefficient by 2^16 (into the Montgomery domain).
    #[inline]
    pub(crate) fn tomont<B: Ops>(&mut self) {
        B::to_mont(&mut self.0);
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
/// Algorithms 13 to 15). At most k = 4 terms; inputs must have coefficients of absolute value
/// at most q; the output has absolute value at most q.
#[cfg_attr(feature = "small-memory", allow(dead_code))]
pub(crate) fn inner_product_ntt<'a, B: Ops>(a: impl Iterator<Item = &'a Poly>, b: &[Poly]) -> Poly {
    let mut xs: [&[i16; N]; MAX_K] = [&Poly::ZERO.0; MAX_K];
    let mut ys: [&[i16; N]; MAX_K] = [&Poly::ZERO.0; MAX_K];
    let mut n = 0;
    for (x, y) in a.zip(b).take(MAX_K) {
        xs[n] = &x.0;
        ys[n] = &y.0;
        n += 1;
    }
    let mut out = Poly::ZERO;
    B::inner_product_ntt(&mut out.0, &xs[..n], &ys[..n]);
    out
}
