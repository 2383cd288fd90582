//! The lifting step of NTRUSolve (Falcon spec v1.2, Algorithm 6, line 7):
//! (F, G) = (F'(x^2) g(-x), G'(x^2) f(-x)), exactly, in RNS form and rebuilt by CRT.

use super::super::modp::{Twiddles, primes_for_words};
use super::super::zint;
use super::{Arena, MAX_WORDS, Poly, SCHOOLBOOK_MAX_N, words_for};
use pqlab_arith::falcon_solver::SolverMul;

/// Falcon spec, Algorithm 6: NTRUSolve, line 7 (the lift).
///
/// Lifts (F', G') from degree n/2 to the unreduced (F, G) = (F'(x^2) g(-x), G'(x^2) f(-x))
/// at degree n = 2^logn, exactly: schoolbook products of the big coefficients up to
/// [`SCHOOLBOOK_MAX_N`] (few, large coefficients), else RNS with enough primes, then CRT.
/// (F, G) are written at the start of `rest` and returned with the words of `rest` after
/// them (free again: the scratch of the lift).
#[allow(non_snake_case)]
pub(super) fn lift<'a, M: SolverMul>(
    Fp: &Poly<'_>,
    Gp: &Poly<'_>,
    f: &Poly<'_>,
    g: &Poly<'_>,
    logn: u32,
    min_bits: u32,
    rest: &'a mut [u32],
) -> Option<(Poly<'a>, Poly<'a>, &'a mut [u32])> {
    let n = f.n;
    let hn = n >> 1;
    let bits = Fp.bitlen().max(Gp.bitlen()) + f.bitlen().max(g.bitlen()) + logn + 1;
    let w = words_for(bits);
    let wo = w.max(words_for(min_bits));
    if wo > MAX_WORDS {
        fail!(None);
    }
    let np = primes_for_words(w);
    if 2 * n * wo > rest.len() {
        fail!(None);
    }
    let (out, scratch) = rest.split_at_mut(2 * n * wo);
    let (Fo, Go) = out.split_at_mut(n * wo);
    if n <= SCHOOLBOOK_MAX_N {
        // F_idx = sum of F'_v (-1)^j g_j over 2 v + j = idx (mod n, negated on the wrap); G
        // the same with G' and f.
        Fo.fill(0);
        Go.fill(0);
        for v in 0..hn {
            for j in 0..n {
                let pos = 2 * v + j;
                let (idx, wrap) = if pos < n {
                    (pos, false)
                } else {
                    (pos - n, true)
                };
                let sub = wrap ^ (j & 1 == 1);
                let (Fi, Gi) = (idx * wo, (idx + 1) * wo);
                zint::add_mul_signed(&mut Fo[Fi..Gi], Fp.c(v), g.c(j), sub, scratch);
                zint::add_mul_signed(&mut Go[Fi..Gi], Gp.c(v), f.c(j), sub, scratch);
            }
        }
        return Some((Poly { d: Fo, n, w: wo }, Poly { d: Go, n, w: wo }, scratch));
    }
    // Both halves prime by prime (one set of twiddle tables per prime) where the scratch
    // holds both sets of residues; else F, then G (one set at a time, as the reference
    // rebuilds F, then G).
    let done = match lift_both::<M>(
        [Fp, Gp],
        [g, f],
        logn,
        [&mut *Fo, &mut *Go],
        wo,
        np,
        scratch,
    ) {
        Some(ok) => ok,
        None => {
            lift_one::<M>(Fp, g, logn, Fo, wo, np, scratch)
                && lift_one::<M>(Gp, f, logn, Go, wo, np, scratch)
        }
    };
    if !done {
        fail!(None);
    }
    Some((Poly { d: Fo, n, w: wo }, Poly { d: Go, n, w: wo }, scratch))
}

/// Both halves of [`lift`] in RNS form: `outs[h]` = `big[h]`(x^2) `small[h]`(-x) (n
/// coefficients of wo words each) from their residues modulo `np` primes, each prime's tables
/// made once for both. None (nothing done) if `scratch` cannot hold both sets of residues;
/// else whether both values fit.
#[allow(clippy::too_many_arguments)]
fn lift_both<M: SolverMul>(
    big: [&Poly<'_>; 2],
    small: [&Poly<'_>; 2],
    logn: u32,
    outs: [&mut [u32]; 2],
    wo: usize,
    np: usize,
    scratch: &mut [u32],
) -> Option<bool> {
    let n = small[0].n;
    let mut sa = Arena { buf: scratch };
    let (r0, r1, twb, gx) = (
        sa.take(n * np)?,
        sa.take(n * np)?,
        sa.take(2 * n)?,
        sa.take(n)?,
    );
    let crt_tmp = sa.take(zint::crt_tmp_words(n, np))?;
    for j in 0..np {
        let tw = Twiddles::<M>::new(j, logn, &mut *twb);
        let at = j * n..(j + 1) * n;
        lift_residues(&tw, big[0], small[0], logn, &mut r0[at.clone()], gx);
        lift_residues(&tw, big[1], small[1], logn, &mut r1[at], gx);
    }
    let [o0, o1] = outs;
    Some(crt_into(r0, n, np, crt_tmp, o0, wo) && crt_into(r1, n, np, crt_tmp, o1, wo))
}

/// One half of [`lift`] in RNS form: out = F'(x^2) g(-x) (n coefficients of wo words), from
/// its residues modulo `np` primes. Returns false if `scratch` is too small or the value does
/// not fit.
#[allow(non_snake_case)]
fn lift_one<M: SolverMul>(
    Fp: &Poly<'_>,
    g: &Poly<'_>,
    logn: u32,
    out: &mut [u32],
    wo: usize,
    np: usize,
    scratch: &mut [u32],
) -> bool {
    let n = g.n;
    let mut sa = Arena { buf: scratch };
    let (Some(r), Some(twb), Some(gx), Some(crt_tmp)) = (
        sa.take(n * np),
        sa.take(2 * n),
        sa.take(n),
        sa.take(zint::crt_tmp_words(n, np)),
    ) else {
        return false;
    };
    for j in 0..np {
        let tw = Twiddles::<M>::new(j, logn, &mut *twb);
        lift_residues(&tw, Fp, g, logn, &mut r[j * n..(j + 1) * n], gx);
    }
    crt_into(r, n, np, crt_tmp, out, wo)
}

/// The residues of F'(x^2) g(-x) modulo the prime of `tw` into `ft` (n values, in place:
/// prime-major, as the CRT reads them); `gx` (n words) is the scratch for NTT(g).
#[allow(non_snake_case)]
fn lift_residues<M: SolverMul>(
    tw: &Twiddles<'_, M>,
    Fp: &Poly<'_>,
    g: &Poly<'_>,
    logn: u32,
    ft: &mut [u32],
    gx: &mut [u32],
) {
    let n = g.n;
    let hn = n >> 1;
    let m = tw.m;
    zint::mod_small_signed_batch(&g.d[..n * g.w], g.w, &m, gx);
    tw.ntt(gx);
    zint::mod_small_signed_batch(&Fp.d[..hn * Fp.w], Fp.w, &m, &mut ft[..hn]);
    tw.ntt_sized(&mut ft[..hn], logn - 1);
    // Points 2v and 2v+1 are w and -w, and w^2 is point v of the half-size NTT:
    // F(w) = F'(w^2) g(-w), F(-w) = F'(w^2) g(w).
    for v in (0..hn).rev() {
        let a = ft[v];
        ft[2 * v] = m.mul(a, gx[2 * v + 1]);
        ft[2 * v + 1] = m.mul(a, gx[2 * v]);
    }
    tw.intt(ft);
}

/// The integers of the residues `r` (n values modulo `np` primes, prime-major) into `out`,
/// wo words each, in order. False if one does not fit.
fn crt_into(
    r: &mut [u32],
    n: usize,
    np: usize,
    crt_tmp: &mut [u32],
    out: &mut [u32],
    wo: usize,
) -> bool {
    // The coefficients come in order: each takes the next wo words (no index i wo, whose
    // bounds check the compiler would hoist as a division by wo).
    let mut dst: &mut [u32] = out;
    zint::crt_batch(r, n, np, crt_tmp, |_, x| {
        match core::mem::take(&mut dst).split_at_mut_checked(wo) {
            Some((c, rest)) => {
                dst = rest;
                zint::copy_resize(c, x)
            }
            None => false,
        }
    })
}
