//! Polynomials of R_q = Z_q\[X\]/(X^256 + 1) and their vectors, over the kernels of the selected
//! back end ([`crate::backend::Ops`]).

use pqlab_arith::array::ConstZero;
use zeroize::Zeroize;

use crate::backend::Ops;
use crate::params::MAX_L;

/// A polynomial with 256 coefficients, in the normal or the NTT domain (the caller knows which).
/// (`pub` only so that the storage types of in [`crate::ParameterSet`]; the module is private.)
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Poly(pub(crate) [i32; 256]);

impl Zeroize for Poly {
    /// Clears the coefficients with [`pqlab_arith::wipe`] (vector stores, not one volatile
    /// store per coefficient).
    fn zeroize(&mut self) {
        pqlab_arith::wipe::wipe(&mut self.0);
    }
}

impl ConstZero for Poly {
    const ZERO: Self = Poly([0; 256]);
}

impl Default for Poly {
    fn default() -> Self {
        Poly::ZERO
    }
}

impl Poly {
    pub(crate) const ZERO: Poly = Poly([0; 256]);

    /// FIPS 204, Algorithm 41: NTT.
    #[inline]
    pub(crate) fn ntt<B: Ops>(&mut self) {
        B::ntt(&mut self.0);
    }

    /// FIPS 204, Algorithm 42: NTT^-1, times 2^32 (see [`Ops::inv_ntt_to_mont`]).
    #[inline]
    pub(crate) fn inv_ntt_to_mont<B: Ops>(&mut self) {
        B::inv_ntt_to_mont(&mut self.0);
    }

    /// Reduces every coefficient to \[-6283008, 6283008\] (see [`Ops::reduce32`]).
    #[inline]
    pub(crate) fn reduce<B: Ops>(&mut self) {
        B::reduce32(&mut self.0);
    }

    /// Maps every coefficient of absolute value below q to [0, q).
    #[inline]
    pub(crate) fn caddq<B: Ops>(&mut self) {
        B::caddq(&mut self.0);
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
    #[inline]
    pub(crate) fn pointwise<B: Ops>(a: &Poly, b: &Poly) -> Poly {
        let mut c = Poly::ZERO;
        B::pointwise(&mut c.0, &a.0, &b.0);
        c
    }

    /// `true` if some coefficient c has |c| >= bound (FIPS 204, Section 7.4, the infinity norm
    /// check), looking at every coefficient. Coefficients must be reduced by [`Poly::reduce`]
    /// first.
    #[inline]
    pub(crate) fn norm_exceeds<B: Ops>(&self, bound: i32) -> bool {
        B::norm_exceeds(&self.0, bound)
    }
}

/// One row of an NTT-domain matrix-vector product: sum_j row\[j\] o v_hat\[j\] * 2^-32 (FIPS 204,
/// Algorithm 48: MatrixVectorNTT) over the first `v_hat.len()` columns.
pub(crate) fn row_times_vector<B: Ops>(out: &mut Poly, row: &[Poly], v_hat: &[Poly]) {
    let mut xs: [&[i32; 256]; MAX_L] = [&Poly::ZERO.0; MAX_L];
    let mut ys: [&[i32; 256]; MAX_L] = [&Poly::ZERO.0; MAX_L];
    let mut n = 0;
    for (x, y) in row.iter().zip(v_hat).take(MAX_L) {
        xs[n] = &x.0;
        ys[n] = &y.0;
        n += 1;
    }
    B::inner_product(&mut out.0, &xs[..n], &ys[..n]);
}

/// NTT-domain matrix-vector product: out\[i\] = sum_j a_hat\[i\]\[j\] o v_hat\[j\] * 2^-32
/// (FIPS 204, Algorithm 48: MatrixVectorNTT), for the first `out.len()` rows and
/// `v_hat.len()` columns.
pub(crate) fn matrix_vector_ntt<B: Ops>(out: &mut [Poly], a_hat: &[Poly], v_hat: &[Poly]) {
    for (o, row) in out.iter_mut().zip(a_hat.chunks_exact(v_hat.len())) {
        row_times_vector::<B>(o, row, v_hat);
    }
}
