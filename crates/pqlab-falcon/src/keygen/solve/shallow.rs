//! Depths 1 and 0 of NTRUSolve (Falcon spec v1.2, Algorithm 6, lines 7-9: the lift and one
//! round-off of Algorithm 7: Reduce) as the reference computes them there: in floating point
//! at depth 1, modulo the first solver prime at depth 0.

use super::super::modp::Twiddles;
use super::super::zint;
use super::lift::lift;
use super::{MAX_BL_LARGE, Place, Poly, fits, fpr_area};
use crate::fft::{
    fft, ifft, poly_add_muladj_fft_in_place, poly_div_autoadj_fft, poly_mul_fft, poly_sub,
};
use crate::fpr::Fpr;
use pqlab_arith::falcon_solver::SolverMul;

/// Falcon spec, Algorithm 6: NTRUSolve, lines 7-9 with Algorithm 7: Reduce (one pass).
///
/// Depth 1 of the reference (`solve_NTRU_binary_depth1`), in the workspace `ws`: the (F', G')
/// of depth 2 at `cur`, (f_1, g_1) at `here` right above it (degree n = 2^logn). Lifts
/// exactly (above (f_1, g_1)), moves (f_1, g_1) and the unreduced (F, G) down to word 0
/// (over (F', G'), no longer needed), then computes a single round-off in floating point with
/// the reference's sequence of operations (the unreduced values fit in 53 bits, so their
/// conversion is exact), its 4 n values above those integers; leaves the reduced F and G,
/// rounded, at words 0 and 2 n ([`store_for_depth0`]).
#[allow(non_snake_case)]
pub(super) fn depth1<M: SolverMul>(ws: &mut [u32], cur: Place, here: Place, logn: u32) -> bool {
    let n = 1usize << logn;
    let lifted = {
        let (lo, rest) = ws.split_at_mut(here.end());
        let (lc, lf) = lo.split_at_mut(here.off);
        let (f1, g1) = Poly::pair(lf, here.n, here.w);
        let (Fc, Gc) = Poly::pair(&mut lc[cur.off..], cur.n, cur.w);
        let Some((uF, uG, _)) = lift::<M>(&Fc, &Gc, &f1, &g1, logn, 0, rest) else {
            fail!(false);
        };
        if !fits(&uF, MAX_BL_LARGE[1]) || !fits(&uG, MAX_BL_LARGE[1]) {
            fail!(false);
        }
        if uF.bitlen().max(uG.bitlen()) > 52 || f1.bitlen().max(g1.bitlen()) > 52 {
            fail!(false);
        }
        Place {
            off: here.end(),
            n: uF.n,
            w: uF.w,
        }
    };
    // (f_1, g_1) and (F, G) are contiguous: down to word 0.
    ws.copy_within(here.off..lifted.end(), 0);
    let fg = Place { off: 0, ..here };
    let big = Place {
        off: fg.end(),
        ..lifted
    };
    // The floating-point values above them, and above the words depth 0 reads.
    let at = big.end().max(3 * n).next_multiple_of(2);
    if at + 8 * n > ws.len() {
        fail!(false);
    }
    let (lo, hi) = ws.split_at_mut(at);
    let Some(fp) = fpr_area(&mut hi[..8 * n]) else {
        fail!(false);
    };
    {
        let (lf, lu) = lo.split_at_mut(big.off);
        let (f1, g1) = Poly::pair(lf, fg.n, fg.w);
        let (uF, uG) = Poly::pair(lu, big.n, big.w);
        if !round_off(&uF, &uG, &f1, &g1, logn, fp) {
            fail!(false);
        }
    }
    store_for_depth0(lo, fp, 2 * n);
    true
}

/// The round-off of [`depth1`]: from the unreduced F, G and f_1, g_1 (n = 2^logn values
/// each, below 2^52), the reduced F and G (not yet rounded) in `fp[..n]` and `fp[n..2 n]`;
/// `fp` holds 4 n values.
#[allow(non_snake_case)]
fn round_off(
    uF: &Poly<'_>,
    uG: &Poly<'_>,
    f1: &Poly<'_>,
    g1: &Poly<'_>,
    logn: u32,
    fp: &mut [Fpr],
) -> bool {
    let n = 1usize << logn;
    let hn = n >> 1;
    let (rt1, fp) = fp.split_at_mut(n);
    let (rt2, fp) = fp.split_at_mut(n);
    let (rt3, fp) = fp.split_at_mut(n);
    let rt4 = &mut fp[..n];
    for i in 0..n {
        rt1[i] = zint::to_fpr(uF.c(i), 0);
        rt2[i] = zint::to_fpr(uG.c(i), 0);
        rt3[i] = zint::to_fpr(f1.c(i), 0);
        rt4[i] = zint::to_fpr(g1.c(i), 0);
    }
    fft(rt1, logn);
    fft(rt2, logn);
    fft(rt3, logn);
    fft(rt4, logn);
    // k = (F adj(f) + G adj(g)) / (f adj(f) + g adj(g)), in F's place rt1: the reference's
    // poly_add_muladj_fft, then its poly_invnorm2_fft and poly_mul_autoadj_fft point by
    // point. (The reference keeps k in a fifth buffer; FFT(F) is recomputed below instead,
    // the same operations on the same integers, so the same values.)
    poly_add_muladj_fft_in_place(rt1, rt2, rt3, rt4);
    for u in 0..hn {
        let na = rt3[u].sqr().add(rt3[u + hn].sqr());
        let nb = rt4[u].sqr().add(rt4[u + hn].sqr());
        let inv = na.add(nb).inv();
        rt1[u] = rt1[u].mul(inv);
        rt1[u + hn] = rt1[u + hn].mul(inv);
    }
    ifft(rt1, logn);
    let lim = Fpr::pow2(63);
    for z in rt1.iter_mut() {
        if !z.lt(lim) || !lim.neg().lt(*z) {
            fail!(false);
        }
        *z = Fpr::of(z.rint());
    }
    fft(rt1, logn);
    poly_mul_fft(rt3, rt1);
    poly_mul_fft(rt4, rt1);
    for (i, x) in rt1.iter_mut().enumerate() {
        *x = zint::to_fpr(uF.c(i), 0);
    }
    fft(rt1, logn);
    poly_sub(rt1, rt3);
    poly_sub(rt2, rt4);
    ifft(rt1, logn);
    ifft(rt2, logn);
    true
}

/// The end of depth 1 of the reference: the reduced F and G that [`round_off`] left in `fp`
/// (n / 2 values each, n = 2^logn of depth 0) rounded, their low 32 bits kept and read back
/// as 31-bit signed words as the reference stores them, written as the first n / 2
/// coefficients of the polynomials at words 0 and n of `ws` (where [`depth0`] reads them).
#[allow(non_snake_case)]
fn store_for_depth0(ws: &mut [u32], fp: &[Fpr], n: usize) {
    let hn = n >> 1;
    let one_to_plain = |x: i64| {
        let w = x as u32;
        w | ((w & 0x4000_0000) << 1)
    };
    for i in 0..hn {
        ws[i] = one_to_plain(fp[i].rint());
        ws[n + i] = one_to_plain(fp[hn + i].rint());
    }
}

/// Falcon spec, Algorithm 6: NTRUSolve, lines 7-9 with Algorithm 7: Reduce (one pass).
///
/// Depth 0 of the reference (`solve_NTRU_binary_depth0` and the end of `solve_NTRU`):
/// everything modulo the first prime p; (F adj(f) + G adj(g)) and (f adj(f) + g adj(g))
/// taken as signed values modulo p, divided in floating point, rounded to k; F - k f and
/// G - k g must lie in \[-127, 127\] and satisfy f G - g F = q. The F and G of depth 1 (n / 2
/// signed words each) are at words 0 and n of `ws` ([`store_for_depth0`]).
///
/// Memory: 7 n words, as the reference: F and G (n each), three polynomials a, b, c, and two
/// n that hold the twiddle tables during the NTTs and the floating-point values in between
/// (tables made twice; the NTTs of f and g recomputed from f and g rather than kept).
///
/// The NTT of adj(a) = a(1/x) is that of a read backwards: the point of index i is
/// w_i = psi^(2 rev(i) + 1), and 1 / w_i = psi^(2 n - 2 rev(i) - 1) = w_(n - 1 - i)
/// (rev(n - 1 - i) = n - 1 - rev(i)).
#[allow(non_snake_case)]
pub(super) fn depth0<M: SolverMul>(
    f: &[i8],
    g: &[i8],
    logn: u32,
    ws: &mut [u32],
    F: &mut [i8],
    G: &mut [i8],
) -> bool {
    let n = 1usize << logn;
    let hn = n >> 1;
    if ws.len() < 7 * n {
        fail!(false);
    }
    let (Fn, ws) = ws.split_at_mut(n);
    let (Gn, ws) = ws.split_at_mut(n);
    let (a, ws) = ws.split_at_mut(n);
    let (b, ws) = ws.split_at_mut(n);
    let (c, ws) = ws.split_at_mut(n);
    let tables = &mut ws[..2 * n];
    // The unreduced F and G in NTT form (Fn, Gn), then, with f and g in NTT form (a, b),
    // F adj(f) + G adj(g) into c and f adj(f) + g adj(g) into a, back to normal form.
    let m = {
        let tw = Twiddles::<M>::new(0, logn, &mut *tables);
        let m = tw.m;
        for v in 0..hn {
            Fn[v] = m.set(Fn[v] as i32);
            Gn[v] = m.set(Gn[v] as i32);
        }
        tw.ntt_sized(&mut Fn[..hn], logn - 1);
        tw.ntt_sized(&mut Gn[..hn], logn - 1);
        small_to_ntt(&tw, f, a);
        small_to_ntt(&tw, g, b);
        for v in (0..hn).rev() {
            let (x, y) = (Fn[v], Gn[v]);
            Fn[2 * v] = m.mul(x, b[2 * v + 1]);
            Fn[2 * v + 1] = m.mul(x, b[2 * v]);
            Gn[2 * v] = m.mul(y, a[2 * v + 1]);
            Gn[2 * v + 1] = m.mul(y, a[2 * v]);
        }
        for i in 0..n {
            c[i] = m.add(m.mul(Fn[i], a[n - 1 - i]), m.mul(Gn[i], b[n - 1 - i]));
        }
        // In place: points i and n - 1 - i from the same four values.
        for i in 0..hn {
            let j = n - 1 - i;
            let (ai, aj, bi, bj) = (a[i], a[j], b[i], b[j]);
            a[i] = m.add(m.mul(ai, aj), m.mul(bi, bj));
            a[j] = m.add(m.mul(aj, ai), m.mul(bj, bi));
        }
        tw.intt(a);
        tw.intt(c);
        m
    };
    // f adj(f) + g adj(g) to floating point (FFT) in b (n / 2 values: its FFT is real), then
    // F adj(f) + G adj(g), divided, rounded to k in c.
    {
        let (Some(rt3), Some(rt2)) = (fpr_area(tables), fpr_area(b)) else {
            fail!(false);
        };
        for i in 0..n {
            rt3[i] = Fpr::of(i64::from(m.norm(a[i])));
        }
        fft(rt3, logn);
        rt2.copy_from_slice(&rt3[..hn]);
        for i in 0..n {
            rt3[i] = Fpr::of(i64::from(m.norm(c[i])));
        }
        fft(rt3, logn);
        poly_div_autoadj_fft(rt3, rt2);
        ifft(rt3, logn);
        for i in 0..n {
            c[i] = m.set(rt3[i].rint() as i32);
        }
    }
    // F - k f and G - k g, in NTT form (the tables and the NTTs of f and g made again).
    let tw = Twiddles::<M>::new(0, logn, tables);
    tw.ntt(c);
    small_to_ntt(&tw, f, a);
    small_to_ntt(&tw, g, b);
    for i in 0..n {
        Fn[i] = m.sub(Fn[i], m.mul(c[i], a[i]));
        Gn[i] = m.sub(Gn[i], m.mul(c[i], b[i]));
    }
    // f G - g F = q at every point (holds by construction; a guard on this code).
    let q = crate::params::Q;
    for i in 0..n {
        if m.sub(m.mul(a[i], Gn[i]), m.mul(b[i], Fn[i])) != q {
            fail!(false);
        }
    }
    tw.intt(Fn);
    tw.intt(Gn);
    let mut ok = true;
    for i in 0..n {
        let (x, y) = (m.norm(Fn[i]), m.norm(Gn[i]));
        ok &= (-127..=127).contains(&x) && (-127..=127).contains(&y);
        F[i] = x as i8;
        G[i] = y as i8;
    }
    ok
}

/// The small polynomial `x` modulo the prime of `tw`, in NTT form, into `out`.
fn small_to_ntt<M: SolverMul>(tw: &Twiddles<'_, M>, x: &[i8], out: &mut [u32]) {
    for (o, &v) in out.iter_mut().zip(x) {
        *o = tw.m.set(i32::from(v));
    }
    tw.ntt(out);
}
