//! The way down and the bottom of NTRUSolve (Falcon spec v1.2, Algorithm 6): the field norm
//! (line 5: f' = N(f), g' = N(g), computed exactly in RNS form) and the base case n = 1
//! (lines 1-3: the extended GCD of the resultants, (F, G) = (q v, q u)).

use super::super::modp::{Twiddles, primes_for_words};
use super::super::zint;
use super::{Arena, Poly, SCHOOLBOOK_MAX_N};
use pqlab_arith::falcon_solver::SolverMul;

/// Falcon spec, Algorithm 6: NTRUSolve, line 5 (f' = N(f)).
///
/// One field-norm step: N(f) (degree n/2) of f (degree n = 2^logn), exactly, into `out` (n/2
/// coefficients of w words, w enough for the value): schoolbook up to [`SCHOOLBOOK_MAX_N`],
/// else in RNS form (NTTs modulo enough primes, then CRT). Returns false if `scratch` is too
/// small.
pub(super) fn field_norm<M: SolverMul>(
    f: &Poly<'_>,
    logn: u32,
    out: &mut [u32],
    w: usize,
    scratch: &mut [u32],
) -> bool {
    let n = f.n;
    let hn = n >> 1;
    let np = primes_for_words(w);
    let out = &mut out[..hn * w];
    if n <= SCHOOLBOOK_MAX_N {
        // With f = f0(x^2) + x f1(x^2): N(f)(y) = f0(y)^2 - y f1(y)^2 mod y^(n/2) + 1.
        out.fill(0);
        for i in 0..hn {
            for j in 0..hn {
                let (a, b) = (f.c(2 * i), f.c(2 * j));
                let k = i + j;
                let (idx, wrap) = if k < hn { (k, false) } else { (k - hn, true) };
                zint::add_mul_signed(&mut out[idx * w..(idx + 1) * w], a, b, wrap, scratch);
                let (a, b) = (f.c(2 * i + 1), f.c(2 * j + 1));
                let k = i + j + 1;
                let (idx, wrap) = if k < hn { (k, false) } else { (k - hn, true) };
                zint::add_mul_signed(&mut out[idx * w..(idx + 1) * w], a, b, !wrap, scratch);
            }
        }
        return true;
    }
    let mut sa = Arena { buf: scratch };
    let (Some(rns), Some(twb), Some(t), Some(crt_tmp)) = (
        sa.take(hn * np),
        sa.take(2 * n),
        sa.take(n),
        sa.take(zint::crt_tmp_words(hn, np)),
    ) else {
        fail!(false);
    };
    for j in 0..np {
        let tw = Twiddles::<M>::new(j, logn, twb);
        let m = tw.m;
        zint::mod_small_signed_batch(&f.d[..n * f.w], f.w, &m, t);
        tw.ntt(t);
        for v in 0..hn {
            t[v] = m.mul(t[2 * v], t[2 * v + 1]);
        }
        tw.intt_sized(&mut t[..hn], logn - 1);
        rns[j * hn..(j + 1) * hn].copy_from_slice(&t[..hn]);
    }
    if !zint::crt_batch(rns, hn, np, crt_tmp, |v, x| {
        zint::copy_resize(&mut out[v * w..(v + 1) * w], x)
    }) {
        fail!(false);
    }
    true
}

/// Falcon spec, Algorithm 6: NTRUSolve, lines 1-3 (n = 1: xgcd).
///
/// The deepest level: (F, G) = (q v, q u) with f u - g v = 1 for the resultants f, g, at the
/// start of `rest` (whose remainder is the scratch).
#[allow(non_snake_case)]
pub(super) fn deepest<'a>(
    f: &Poly<'_>,
    g: &Poly<'_>,
    rest: &'a mut [u32],
) -> Option<(Poly<'a>, Poly<'a>)> {
    let w = f.w.max(g.w);
    // One extra word for the factor q and the sign.
    let wo = w + 1;
    if 2 * wo > rest.len() {
        fail!(None);
    }
    let (dst, scratch) = rest.split_at_mut(2 * wo);
    // The resultants are positive and odd (the sampler makes the sums of coefficients odd).
    if zint::is_neg(f.c(0)) || zint::is_neg(g.c(0)) || f.c(0)[0] & 1 == 0 || g.c(0)[0] & 1 == 0 {
        fail!(None);
    }
    let mut sa = Arena { buf: scratch };
    let x = sa.take(w)?;
    let y = sa.take(w)?;
    let tmp = sa.take(super::super::xgcd::bezout_tmp_words(w))?;
    if !zint::copy_resize(x, f.c(0)) || !zint::copy_resize(y, g.c(0)) {
        fail!(None);
    }
    let mut da = Arena { buf: dst };
    let Fd = da.take(wo)?;
    let Gd = da.take(wo)?;
    Fd.fill(0);
    Gd.fill(0);
    if !super::super::xgcd::bezout(&mut Gd[..w], &mut Fd[..w], x, y, tmp) {
        fail!(None);
    }
    if zint::mul_small(Fd, crate::params::Q) != 0 || zint::mul_small(Gd, crate::params::Q) != 0 {
        fail!(None);
    }
    Some((Poly { d: Fd, n: 1, w: wo }, Poly { d: Gd, n: 1, w: wo }))
}
