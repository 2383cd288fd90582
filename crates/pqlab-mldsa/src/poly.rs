//! Polynomials of R_q = Z_q\[X\]/(X^256 + 1) and their vectors, over the kernels of the selected
//! back end ([`crate::backend::Ops`]).

use pqlab_arith::array::ConstZero;
use zeroize::Zeroize;

use crate::backend::Ops;
use crate::params::MAX_L;
use crate::sample::expand_a_batches;
#[cfg(feature = "small-memory")]
use crate::sample::rej_ntt_poly_each;

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

    /// `true` if some coefficient c has |c| >= bound (FIPS 204, Section 7.4, the infinity norm
    /// check), looking at every coefficient. Coefficients must be reduced by [`Poly::reduce`]
    /// first.
    #[inline]
    pub(crate) fn norm_exceeds<B: Ops>(&self, bound: i32) -> bool {
        B::norm_exceeds(&self.0, bound)
    }
}

/// A short polynomial (s1\[i\], s2\[i\] or the challenge c: coefficients of absolute value at
/// most eta) in the NTT domain of ML-KEM's ring Z_3329\[X\]/(X^256 + 1) ([`pqlab_mlkem::ring`]),
/// where signing computes <<c s1>> and <<c s2>> exactly (|c s| <= tau eta <= 196 < 1664) on
/// 16-bit kernels. (`pub` only for the storage types of [`crate::ParameterSet`].)
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct ShortNtt(pub(crate) [i16; 256]);

impl Zeroize for ShortNtt {
    fn zeroize(&mut self) {
        pqlab_arith::wipe::wipe(&mut self.0);
    }
}

impl ConstZero for ShortNtt {
    const ZERO: Self = ShortNtt([0; 256]);
}

impl ShortNtt {
    /// NTT_3329 of the short polynomial `f` (every |coefficient| < 6658: s1, s2, c), on the
    /// kernels of `B`'s back end.
    #[cfg_attr(feature = "small-memory", allow(dead_code))]
    pub(crate) fn of_short<B: Ops>(f: &Poly) -> Self {
        let mut out = ShortNtt([0; 256]);
        for (o, &x) in out.0.iter_mut().zip(f.0.iter()) {
            *o = x as i16;
        }
        B::short_ntt(&mut out.0);
        out
    }

    /// `out` = the product of the short polynomials of `self` and `other` modulo 3329, in the
    /// normal domain, every coefficient below 3329 in absolute value: the exact product (as
    /// <<c s1>> and <<c s2>>, whose coefficients are at most 1664 in absolute value) once
    /// centered by [`Ops::add_short_centered`].
    #[cfg_attr(feature = "small-memory", allow(dead_code))]
    pub(crate) fn product<B: Ops>(&self, other: &ShortNtt, out: &mut [i16; 256]) {
        B::short_product(&self.0, &other.0, out);
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

/// The vector v_hat of a streamed product A_hat v_hat ([`matrix_rows`]).
pub(crate) enum Columns<'a> {
    /// v_hat itself (NTT domain), all l polynomials held.
    Ntt(&'a [Poly]),
    /// v in the normal domain, packed: column s is BitUnpack(bytes\[32 s bits..32 (s + 1) bits\],
    /// `bits`, `b`) (FIPS 204, Algorithm 19), unpacked and transformed each time it is used (the
    /// `small-memory` form: one polynomial instead of l, for k l NTTs instead of l).
    Packed {
        bytes: &'a [u8],
        bits: usize,
        b: i32,
    },
}

/// Part of one row of FIPS 204, Algorithm 48 (MatrixVectorNTT): for the entries `run` of a row
/// of A_hat from column `s0` on, acc = sum_t run\[t\] o v_hat\[s0 + t\] * 2^-32 when `s0` is 0,
/// else acc += that sum (`part` and `col` are scratch).
pub(crate) fn row_product<B: Ops>(
    acc: &mut Poly,
    part: &mut Poly,
    col: &mut Poly,
    run: &[Poly],
    s0: usize,
    v: &Columns<'_>,
) {
    let m = run.len();
    match v {
        Columns::Ntt(v_hat) => {
            if s0 == 0 {
                row_times_vector::<B>(acc, run, &v_hat[..m]);
            } else {
                row_times_vector::<B>(part, run, &v_hat[s0..s0 + m]);
                acc.add_assign(part);
            }
        }
        Columns::Packed { bytes, bits, b } => {
            let len = 32 * bits;
            for (j, a) in run.iter().enumerate() {
                let s = s0 + j;
                B::bit_unpack(&bytes[s * len..(s + 1) * len], *bits, *b, &mut col.0);
                col.ntt::<B>();
                if s == 0 {
                    B::inner_product(&mut acc.0, &[&a.0], &[&col.0]);
                } else {
                    B::inner_product(&mut part.0, &[&a.0], &[&col.0]);
                    acc.add_assign(part);
                }
            }
        }
    }
}

/// FIPS 204, Algorithm 48: MatrixVectorNTT, with A_hat = ExpandA(rho) (Algorithm 32) streamed:
/// for each row r of the k x l matrix, in order, `row_done(r, w)` with
/// w = sum_s A_hat\[r\]\[s\] o v_hat\[s\] * 2^-32 (mod q, |w| < l q). Only one batch of
/// entries of A_hat and one row of the product are held, never the matrix; a row that two
/// batches share is summed from their partial inner products. The scratch polynomials (which
/// may hold secret columns) are wiped.
pub(crate) fn matrix_rows<B: Ops>(
    rho: &[u8; 32],
    k: usize,
    l: usize,
    v: &Columns<'_>,
    mut row_done: impl FnMut(usize, &mut Poly),
) {
    let (mut acc, mut part, mut col) = (Poly::ZERO, Poly::ZERO, Poly::ZERO);
    expand_a_batches::<B>(rho, k, l, |first, entries| {
        let mut t = 0;
        while t < entries.len() {
            let (r, s0) = ((first + t) / l, (first + t) % l);
            let m = (l - s0).min(entries.len() - t);
            row_product::<B>(&mut acc, &mut part, &mut col, &entries[t..t + m], s0, v);
            if s0 + m == l {
                row_done(r, &mut acc);
            }
            t += m;
        }
    });
    acc.zeroize();
    part.zeroize();
    col.zeroize();
}

/// FIPS 204, Algorithm 48: [`matrix_rows`] in a frame of its own (never inlined), for a caller
/// that streams A_hat on one path only (signing without a prepared A_hat): the batch of entries
/// (up to eight polynomials) and the sampler's lanes then take stack only on that path, not in
/// the caller's frame on the other.
#[cfg(not(feature = "small-memory"))]
#[inline(never)]
pub(crate) fn matrix_rows_apart<B: Ops>(
    rho: &[u8; 32],
    k: usize,
    l: usize,
    v: &Columns<'_>,
    row_done: impl FnMut(usize, &mut Poly),
) {
    matrix_rows::<B>(rho, k, l, v, row_done);
}

/// One term of a row of FIPS 204, Algorithm 48 (MatrixVectorNTT) with A_hat\[r\]\[s\]
/// (Algorithm 32) streamed coefficient by coefficient ([`rej_ntt_poly_each`]) into the
/// product: acc = A_hat\[r\]\[s\] o v_hat * 2^-32 for s = 0, acc += that product after
/// (|acc| < (s + 1) q). The entry of A_hat is never held: the `small-memory` form, one
/// accumulator and one column instead of a batch of entries. Indices and the branch on `s`
/// are public; `v_hat` may be secret (it is only multiplied).
#[cfg(feature = "small-memory")]
pub(crate) fn entry_times_column(rho: &[u8; 32], r: usize, s: usize, v_hat: &Poly, acc: &mut Poly) {
    use pqlab_arith::mldsa::montgomery_reduce;
    let (acc, v) = (&mut acc.0, &v_hat.0);
    if s == 0 {
        rej_ntt_poly_each(rho, r, s, |j, a| {
            acc[j] = montgomery_reduce(i64::from(a) * i64::from(v[j]));
        });
    } else {
        rej_ntt_poly_each(rho, r, s, |j, a| {
            acc[j] += montgomery_reduce(i64::from(a) * i64::from(v[j]));
        });
    }
}
