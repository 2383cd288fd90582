//! Depths 1 and 0 of NTRUSolve (Falcon spec v1.2, Algorithm 6, lines 7-9: the lift and one
//! round-off of Algorithm 7: Reduce) as the reference computes them there: in floating point
//! at depth 1, modulo the first solver prime at depth 0.

use super::super::modp::Twiddles;
use super::super::zint;
use super::lift::lift;
use super::{Arena, MAX_BL_LARGE, Poly, fits};
use crate::fft::{
    fft, ifft, poly_add_muladj_fft, poly_div_autoadj_fft, poly_invnorm2_fft, poly_mul_autoadj_fft,
    poly_mul_fft, poly_sub,
};
use crate::fpr::Fpr;
use pqlab_arith::falcon_solver::SolverMul;

/// Falcon spec, Algorithm 6: NTRUSolve, lines 7-9 with Algorithm 7: Reduce (one pass).
///
/// Depth 1 of the reference (`solve_NTRU_binary_depth1`): lift exactly, then a single
/// round-off computed in floating point with the reference's sequence of operations (the
/// unreduced values fit in 53 bits, so their conversion is exact), the reduced F and G
/// rounded back to integers and read as 31-bit signed words, as the reference stores them.
#[allow(non_snake_case, clippy::too_many_arguments)]
pub(super) fn depth1<M: SolverMul>(
    Fc: &Poly<'_>,
    Gc: &Poly<'_>,
    f1: &Poly<'_>,
    g1: &Poly<'_>,
    logn: u32,
    dst: &mut [u32],
    scratch: &mut [u32],
    F1: &mut [i32],
    G1: &mut [i32],
) -> bool {
    let n = 1usize << logn;
    let Some((uF, uG)) = lift::<M>(Fc, Gc, f1, g1, logn, 0, dst, scratch) else {
        fail!(false);
    };
    if !fits(&uF, MAX_BL_LARGE[1]) || !fits(&uG, MAX_BL_LARGE[1]) {
        fail!(false);
    }
    if uF.bitlen().max(uG.bitlen()) > 52 || f1.bitlen().max(g1.bitlen()) > 52 {
        fail!(false);
    }
    let mut rt1 = [Fpr::ZERO; 512];
    let mut rt2 = [Fpr::ZERO; 512];
    let mut rt3 = [Fpr::ZERO; 512];
    let mut rt4 = [Fpr::ZERO; 512];
    let mut rt5 = [Fpr::ZERO; 512];
    let mut rt6 = [Fpr::ZERO; 256];
    let (rt1, rt2, rt3, rt4, rt5) = (
        &mut rt1[..n],
        &mut rt2[..n],
        &mut rt3[..n],
        &mut rt4[..n],
        &mut rt5[..n],
    );
    let rt6 = &mut rt6[..n / 2];
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
    poly_add_muladj_fft(rt5, rt1, rt2, rt3, rt4);
    poly_invnorm2_fft(rt6, rt3, rt4);
    poly_mul_autoadj_fft(rt5, rt6);
    ifft(rt5, logn);
    let lim = Fpr::pow2(63);
    for z in rt5.iter_mut() {
        if !z.lt(lim) || !lim.neg().lt(*z) {
            fail!(false);
        }
        *z = Fpr::of(z.rint());
    }
    fft(rt5, logn);
    poly_mul_fft(rt3, rt5);
    poly_mul_fft(rt4, rt5);
    poly_sub(rt1, rt3);
    poly_sub(rt2, rt4);
    ifft(rt1, logn);
    ifft(rt2, logn);
    // The reference keeps the low 32 bits and reads them back as a 31-bit signed word.
    let one_to_plain = |x: i64| {
        let w = x as u32;
        (w | ((w & 0x4000_0000) << 1)) as i32
    };
    for i in 0..n {
        F1[i] = one_to_plain(rt1[i].rint());
        G1[i] = one_to_plain(rt2[i].rint());
    }
    true
}

/// Falcon spec, Algorithm 6: NTRUSolve, lines 7-9 with Algorithm 7: Reduce (one pass).
///
/// Depth 0 of the reference (`solve_NTRU_binary_depth0` and the end of `solve_NTRU`):
/// everything modulo the first prime p; (F adj(f) + G adj(g)) and (f adj(f) + g adj(g))
/// taken as signed values modulo p, divided in floating point, rounded to k; F - k f and
/// G - k g must lie in \[-127, 127\] and satisfy f G - g F = q.
#[allow(non_snake_case, clippy::too_many_arguments)]
pub(super) fn depth0<M: SolverMul>(
    F1: &[i32],
    G1: &[i32],
    f: &[i8],
    g: &[i8],
    logn: u32,
    scratch: &mut [u32],
    F: &mut [i8],
    G: &mut [i8],
) -> bool {
    let n = 1usize << logn;
    let hn = n >> 1;
    let mut sa = Arena { buf: scratch };
    let (Some(twb), Some(Fn), Some(Gn), Some(ft), Some(gt), Some(t1), Some(t2), Some(t3)) = (
        sa.take(2 * n),
        sa.take(n),
        sa.take(n),
        sa.take(n),
        sa.take(n),
        sa.take(n),
        sa.take(n),
        sa.take(n),
    ) else {
        fail!(false);
    };
    let tw = Twiddles::<M>::new(0, logn, twb);
    let m = tw.m;
    for v in 0..hn {
        Fn[v] = m.set(F1[v]);
        Gn[v] = m.set(G1[v]);
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
    // t1 = F adj(f) + G adj(g), t2 = f adj(f) + g adj(g).
    adj_ntt(&tw, f, t3);
    for i in 0..n {
        t1[i] = m.mul(Fn[i], t3[i]);
        t2[i] = m.mul(ft[i], t3[i]);
    }
    adj_ntt(&tw, g, t3);
    for i in 0..n {
        t1[i] = m.add(t1[i], m.mul(Gn[i], t3[i]));
        t2[i] = m.add(t2[i], m.mul(gt[i], t3[i]));
    }
    tw.intt(t1);
    tw.intt(t2);
    let mut rt2 = [Fpr::ZERO; 512];
    let mut rt3 = [Fpr::ZERO; 1024];
    let (rt2, rt3) = (&mut rt2[..hn], &mut rt3[..n]);
    for i in 0..n {
        rt3[i] = Fpr::of(i64::from(m.norm(t2[i])));
    }
    fft(rt3, logn);
    rt2.copy_from_slice(&rt3[..hn]);
    for i in 0..n {
        rt3[i] = Fpr::of(i64::from(m.norm(t1[i])));
    }
    fft(rt3, logn);
    poly_div_autoadj_fft(rt3, rt2);
    ifft(rt3, logn);
    // k, then F - k f and G - k g.
    for i in 0..n {
        t1[i] = m.set(rt3[i].rint() as i32);
    }
    tw.ntt(t1);
    for i in 0..n {
        Fn[i] = m.sub(Fn[i], m.mul(t1[i], ft[i]));
        Gn[i] = m.sub(Gn[i], m.mul(t1[i], gt[i]));
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

/// The NTT of adj(a) = a(1/x) = a_0 - a_(n-1) x - ... - a_1 x^(n-1).
fn adj_ntt<M: SolverMul>(tw: &Twiddles<'_, M>, a: &[i8], out: &mut [u32]) {
    let n = out.len();
    out[0] = tw.m.set(i32::from(a[0]));
    for u in 1..n {
        out[n - u] = tw.m.set(-i32::from(a[u]));
    }
    tw.ntt(out);
}
