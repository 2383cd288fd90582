//! Depths 1 and 0 of NTRUSolve (Falcon spec v1.2, Algorithm 6, lines 7-9: the lift and one
//! round-off of Algorithm 7: Reduce) as the reference computes them there: in floating point
//! at depth 1, modulo the first solver prime at depth 0.

use super::super::modp::Twiddles;
use super::super::zint;
use super::lift::lift;
use super::{MAX_BL_LARGE, Poly, fits};
use crate::fft::{
    fft, ifft, poly_add_muladj_fft_in_place, poly_div_autoadj_fft, poly_mul_fft, poly_sub,
};
use crate::fpr::Fpr;
use pqlab_arith::falcon_solver::SolverMul;

/// Falcon spec, Algorithm 6: NTRUSolve, lines 7-9 with Algorithm 7: Reduce (one pass).
///
/// Depth 1 of the reference (`solve_NTRU_binary_depth1`): lift exactly (into `rest`), then a
/// single round-off computed in floating point with the reference's sequence of operations
/// (the unreduced values fit in 53 bits, so their conversion is exact). Leaves the reduced F
/// and G (n = 2^logn values each, not yet rounded) in `fp[..n]` and `fp[n..2 n]` for
/// [`depth1_store`]; `fp` holds 4 n values.
#[allow(non_snake_case)]
pub(super) fn depth1<M: SolverMul>(
    Fc: &Poly<'_>,
    Gc: &Poly<'_>,
    f1: &Poly<'_>,
    g1: &Poly<'_>,
    logn: u32,
    rest: &mut [u32],
    fp: &mut [Fpr],
) -> bool {
    let n = 1usize << logn;
    let hn = n >> 1;
    let Some((uF, uG, _)) = lift::<M>(Fc, Gc, f1, g1, logn, 0, rest) else {
        fail!(false);
    };
    if !fits(&uF, MAX_BL_LARGE[1]) || !fits(&uG, MAX_BL_LARGE[1]) {
        fail!(false);
    }
    if uF.bitlen().max(uG.bitlen()) > 52 || f1.bitlen().max(g1.bitlen()) > 52 {
        fail!(false);
    }
    if fp.len() < 4 * n {
        fail!(false);
    }
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

/// The end of depth 1 of the reference: the reduced F and G that [`depth1`] left in `fp`
/// (n / 2 values each, n = 2^logn of depth 0) rounded, their low 32 bits kept and read back
/// as 31-bit signed words as the reference stores them, written as the first n / 2
/// coefficients of the polynomials at words 0 and n of `ws` (where [`depth0`] reads them).
#[allow(non_snake_case)]
pub(super) fn depth1_store(ws: &mut [u32], fp: &[Fpr], n: usize) {
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
/// signed words each) are at words 0 and n of `ws` ([`depth1_store`]); `ws` holds 7 n words
/// (F, G, f, g, a temporary, the twiddle tables) and `fp` 3 n / 2 values.
///
/// The NTT of adj(a) = a(1/x) is that of a read backwards: the point of index i is
/// w_i = psi^(2 rev(i) + 1), and 1 / w_i = psi^(2 n - 2 rev(i) - 1) = w_(n - 1 - i)
/// (rev(n - 1 - i) = n - 1 - rev(i)).
#[allow(non_snake_case, clippy::too_many_arguments)]
pub(super) fn depth0<M: SolverMul>(
    f: &[i8],
    g: &[i8],
    logn: u32,
    ws: &mut [u32],
    fp: &mut [Fpr],
    F: &mut [i8],
    G: &mut [i8],
) -> bool {
    let n = 1usize << logn;
    let hn = n >> 1;
    if ws.len() < 7 * n || 2 * fp.len() < 3 * n {
        fail!(false);
    }
    let (Fn, ws) = ws.split_at_mut(n);
    let (Gn, ws) = ws.split_at_mut(n);
    let (ft, ws) = ws.split_at_mut(n);
    let (gt, ws) = ws.split_at_mut(n);
    let (t, ws) = ws.split_at_mut(n);
    let tw = Twiddles::<M>::new(0, logn, &mut ws[..2 * n]);
    let m = tw.m;
    for v in 0..hn {
        Fn[v] = m.set(Fn[v] as i32);
        Gn[v] = m.set(Gn[v] as i32);
    }
    tw.ntt_sized(&mut Fn[..hn], logn - 1);
    tw.ntt_sized(&mut Gn[..hn], logn - 1);
    for i in 0..n {
        ft[i] = m.set(i32::from(f[i]));
        gt[i] = m.set(i32::from(g[i]));
    }
    tw.ntt(ft);
    tw.ntt(gt);
    for v in (0..hn).rev() {
        let (a, b) = (Fn[v], Gn[v]);
        Fn[2 * v] = m.mul(a, gt[2 * v + 1]);
        Fn[2 * v + 1] = m.mul(a, gt[2 * v]);
        Gn[2 * v] = m.mul(b, ft[2 * v + 1]);
        Gn[2 * v + 1] = m.mul(b, ft[2 * v]);
    }
    let (rt3, fp) = fp.split_at_mut(n);
    let rt2 = &mut fp[..hn];
    // f adj(f) + g adj(g), to floating point (FFT) in rt2.
    for i in 0..n {
        t[i] = m.add(m.mul(ft[i], ft[n - 1 - i]), m.mul(gt[i], gt[n - 1 - i]));
    }
    tw.intt(t);
    for i in 0..n {
        rt3[i] = Fpr::of(i64::from(m.norm(t[i])));
    }
    fft(rt3, logn);
    rt2.copy_from_slice(&rt3[..hn]);
    // F adj(f) + G adj(g), to floating point, divided.
    for i in 0..n {
        t[i] = m.add(m.mul(Fn[i], ft[n - 1 - i]), m.mul(Gn[i], gt[n - 1 - i]));
    }
    tw.intt(t);
    for i in 0..n {
        rt3[i] = Fpr::of(i64::from(m.norm(t[i])));
    }
    fft(rt3, logn);
    poly_div_autoadj_fft(rt3, rt2);
    ifft(rt3, logn);
    // k, then F - k f and G - k g.
    for i in 0..n {
        t[i] = m.set(rt3[i].rint() as i32);
    }
    tw.ntt(t);
    for i in 0..n {
        Fn[i] = m.sub(Fn[i], m.mul(t[i], ft[i]));
        Gn[i] = m.sub(Gn[i], m.mul(t[i], gt[i]));
    }
    // f G - g F = q at every point (holds by construction; a guard on this code).
    let q = crate::params::Q;
    for i in 0..n {
        if m.sub(m.mul(ft[i], Gn[i]), m.mul(gt[i], Fn[i])) != q {
            fail!(false);
        }
    }
    tw.intt(Fn);
    tw.intt(Gn);
    let mut ok = true;
    for i in 0..n {
        let (a, b) = (m.norm(Fn[i]), m.norm(Gn[i]));
        ok &= (-127..=127).contains(&a) && (-127..=127).contains(&b);
        F[i] = a as i8;
        G[i] = b as i8;
    }
    ok
}
