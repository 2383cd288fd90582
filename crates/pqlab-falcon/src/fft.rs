//! The FFT over R\[x\]/(x^n + 1) and the operations on polynomials in FFT representation
//! (Falcon spec v1.2, Section 3.8.1; Algorithms 1 and 2: splitfft and mergefft).
//!
//! A real polynomial of degree n is represented by its n/2 complex values at the roots of
//! x^n + 1 with positive imaginary part: real parts in `f[..n/2]`, imaginary parts in
//! `f[n/2..]`, in the order of the reference implementation. Every operation here is a fixed
//! sequence of [`Fpr`] operations (no branch or index depends on the values), written in the
//! exact order of the reference so that results are bit-identical.

use crate::fft_table::GM_TAB;
use crate::fpr::Fpr;

#[inline(always)]
fn gm(i: usize) -> Fpr {
    Fpr::from_bits(GM_TAB[i])
}

/// Complex product (a_re + i a_im)(b_re + i b_im).
#[inline(always)]
pub(crate) fn cmul(a_re: Fpr, a_im: Fpr, b_re: Fpr, b_im: Fpr) -> (Fpr, Fpr) {
    (
        a_re.mul(b_re).sub(a_im.mul(b_im)),
        a_re.mul(b_im).add(a_im.mul(b_re)),
    )
}

/// Complex quotient a / b, computed as a * (conj(b) / |b|^2).
#[inline(always)]
pub(crate) fn cdiv(a_re: Fpr, a_im: Fpr, b_re: Fpr, b_im: Fpr) -> (Fpr, Fpr) {
    let m = b_re.sqr().add(b_im.sqr()).inv();
    let b_re = b_re.mul(m);
    let b_im = b_im.neg().mul(m);
    cmul(a_re, a_im, b_re, b_im)
}

/// FFT in place (coefficients to FFT representation).
pub(crate) fn fft(f: &mut [Fpr], logn: u32) {
    let _k = pqlab_profile::enter(pqlab_profile::Kernel::Fft);
    let n = 1usize << logn;
    let hn = n >> 1;
    let mut t = hn;
    let mut m = 2;
    for _ in 1..logn {
        let ht = t >> 1;
        let hm = m >> 1;
        let mut j1 = 0;
        for i1 in 0..hm {
            let s_re = gm((m + i1) << 1);
            let s_im = gm(((m + i1) << 1) + 1);
            for j in j1..j1 + ht {
                let x_re = f[j];
                let x_im = f[j + hn];
                let (y_re, y_im) = cmul(f[j + ht], f[j + ht + hn], s_re, s_im);
                f[j] = x_re.add(y_re);
                f[j + hn] = x_im.add(y_im);
                f[j + ht] = x_re.sub(y_re);
                f[j + ht + hn] = x_im.sub(y_im);
            }
            j1 += t;
        }
        t = ht;
        m <<= 1;
    }
}

/// Inverse FFT in place (FFT representation to coefficients).
pub(crate) fn ifft(f: &mut [Fpr], logn: u32) {
    let _k = pqlab_profile::enter(pqlab_profile::Kernel::Fft);
    let n = 1usize << logn;
    let hn = n >> 1;
    let mut t = 1;
    let mut m = n;
    for _ in (2..=logn).rev() {
        let hm = m >> 1;
        let dt = t << 1;
        let mut j1 = 0;
        let mut i1 = 0;
        while j1 < hn {
            let s_re = gm((hm + i1) << 1);
            let s_im = gm(((hm + i1) << 1) + 1).neg();
            for j in j1..j1 + t {
                let x_re = f[j];
                let x_im = f[j + hn];
                let y_re = f[j + t];
                let y_im = f[j + t + hn];
                f[j] = x_re.add(y_re);
                f[j + hn] = x_im.add(y_im);
                let (d_re, d_im) = cmul(x_re.sub(y_re), x_im.sub(y_im), s_re, s_im);
                f[j + t] = d_re;
                f[j + t + hn] = d_im;
            }
            i1 += 1;
            j1 += dt;
        }
        t = dt;
        m = hm;
    }
    if logn > 0 {
        let ni = Fpr::p2(logn);
        for x in f[..n].iter_mut() {
            *x = x.mul(ni);
        }
    }
}

/// a += b.
pub(crate) fn poly_add(a: &mut [Fpr], b: &[Fpr]) {
    for (x, &y) in a.iter_mut().zip(b) {
        *x = x.add(y);
    }
}

/// a -= b.
pub(crate) fn poly_sub(a: &mut [Fpr], b: &[Fpr]) {
    for (x, &y) in a.iter_mut().zip(b) {
        *x = x.sub(y);
    }
}

/// a = -a.
pub(crate) fn poly_neg(a: &mut [Fpr]) {
    for x in a.iter_mut() {
        *x = x.neg();
    }
}

/// a *= b (FFT representation).
pub(crate) fn poly_mul_fft(a: &mut [Fpr], b: &[Fpr]) {
    let hn = a.len() >> 1;
    for u in 0..hn {
        let (re, im) = cmul(a[u], a[u + hn], b[u], b[u + hn]);
        a[u] = re;
        a[u + hn] = im;
    }
}

/// acc += (t1 - z1) l10 (FFT representation): the target update of ffSampling (Falcon spec
/// v1.2, Algorithm 11, line 6: t0 + (t1 - z1) l10), one complex value at a time in the order of
/// [`poly_sub`], [`poly_mul_fft`] and [`poly_add`].
pub(crate) fn poly_diff_mul_add_fft(acc: &mut [Fpr], t1: &[Fpr], z1: &[Fpr], l10: &[Fpr]) {
    let hn = acc.len() >> 1;
    for u in 0..hn {
        let (d_re, d_im) = (t1[u].sub(z1[u]), t1[u + hn].sub(z1[u + hn]));
        let (p_re, p_im) = cmul(d_re, d_im, l10[u], l10[u + hn]);
        acc[u] = acc[u].add(p_re);
        acc[u + hn] = acc[u + hn].add(p_im);
    }
}

/// a *= adj(b) (FFT representation).
pub(crate) fn poly_muladj_fft(a: &mut [Fpr], b: &[Fpr]) {
    let hn = a.len() >> 1;
    for u in 0..hn {
        let (re, im) = cmul(a[u], a[u + hn], b[u], b[u + hn].neg());
        a[u] = re;
        a[u + hn] = im;
    }
}

/// a *= adj(a) (FFT representation; the result is real).
pub(crate) fn poly_mulselfadj_fft(a: &mut [Fpr]) {
    let hn = a.len() >> 1;
    for u in 0..hn {
        a[u] = a[u].sqr().add(a[u + hn].sqr());
        a[u + hn] = Fpr::ZERO;
    }
}

/// a *= x for a real constant x.
pub(crate) fn poly_mulconst(a: &mut [Fpr], x: Fpr) {
    for v in a.iter_mut() {
        *v = v.mul(x);
    }
}

/// a = adj(a) (FFT representation: conjugate every value).
pub(crate) fn poly_adj_fft(a: &mut [Fpr]) {
    let hn = a.len() >> 1;
    for x in a[hn..].iter_mut() {
        *x = x.neg();
    }
}

/// ff = ff adj(f) + gg adj(g) in place (FFT representation; each point is read before it is
/// written: the reference's poly_add_muladj_fft with its output on ff).
pub(crate) fn poly_add_muladj_fft_in_place(ff: &mut [Fpr], gg: &[Fpr], f: &[Fpr], g: &[Fpr]) {
    let hn = ff.len() >> 1;
    for u in 0..hn {
        let (a_re, a_im) = cmul(ff[u], ff[u + hn], f[u], f[u + hn].neg());
        let (b_re, b_im) = cmul(gg[u], gg[u + hn], g[u], g[u + hn].neg());
        ff[u] = a_re.add(b_re);
        ff[u + hn] = a_im.add(b_im);
    }
}

/// d = 1 / (a adj(a) + b adj(b)) (FFT representation; the result is real, so only its n/2
/// real parts are written: d has n/2 entries).
pub(crate) fn poly_invnorm2_fft(d: &mut [Fpr], a: &[Fpr], b: &[Fpr]) {
    let hn = a.len() >> 1;
    for u in 0..hn {
        let na = a[u].sqr().add(a[u + hn].sqr());
        let nb = b[u].sqr().add(b[u + hn].sqr());
        d[u] = na.add(nb).inv();
    }
}

/// a *= b for an auto-adjoint b given by its n/2 real values.
pub(crate) fn poly_mul_autoadj_fft(a: &mut [Fpr], b: &[Fpr]) {
    let hn = a.len() >> 1;
    for u in 0..hn {
        a[u] = a[u].mul(b[u]);
        a[u + hn] = a[u + hn].mul(b[u]);
    }
}

/// a /= b for an auto-adjoint b given by its n/2 real values.
pub(crate) fn poly_div_autoadj_fft(a: &mut [Fpr], b: &[Fpr]) {
    let hn = a.len() >> 1;
    for u in 0..hn {
        let ib = b[u].inv();
        a[u] = a[u].mul(ib);
        a[u + hn] = a[u + hn].mul(ib);
    }
}

/// LDL decomposition of the 2x2 Gram matrix \[\[g00, g01\], \[adj(g01), g11\]\] (FFT
/// representation): writes d11 = g11 - |g01|^2 / g00 and l10 = adj(g01 / g00).
pub(crate) fn poly_ldlmv_fft(
    d11: &mut [Fpr],
    l10: &mut [Fpr],
    g00: &[Fpr],
    g01: &[Fpr],
    g11: &[Fpr],
) {
    let hn = g00.len() >> 1;
    for u in 0..hn {
        let (g01_re, g01_im) = (g01[u], g01[u + hn]);
        let (mu_re, mu_im) = cdiv(g01_re, g01_im, g00[u], g00[u + hn]);
        let (p_re, p_im) = cmul(mu_re, mu_im, g01_re, g01_im.neg());
        d11[u] = g11[u].sub(p_re);
        d11[u + hn] = g11[u + hn].sub(p_im);
        l10[u] = mu_re;
        l10[u + hn] = mu_im.neg();
    }
}

/// Falcon spec v1.2, Algorithm 1: splitfft. f (size n) to f0, f1 (size n/2) with
/// f(x) = f0(x^2) + x f1(x^2): for n = 2 the identity on (re, im), else [`split_level`] with
/// one node.
pub(crate) fn poly_split_fft(f0: &mut [Fpr], f1: &mut [Fpr], f: &[Fpr]) {
    let n = f.len();
    if n < 4 {
        f0[0] = f[0];
        f1[0] = f[n >> 1];
        return;
    }
    let q = n >> 2;
    let (f0_re, f0_im) = f0.split_at_mut(q);
    let (f1_re, f1_im) = f1.split_at_mut(q);
    split_level(f, n >> 1, [f0_re, f0_im], [f1_re, f1_im]);
}

/// Falcon spec v1.2, Algorithm 1 (splitfft) on every node of one depth of the Falcon tree (see
/// `ffldl_levels`): `f` holds the real parts of all nodes, then their imaginary parts, `hm`
/// complex values per node (`hm` >= 2, a power of two); node p's halves go to place p of `f0`
/// and `f1` (each `[re, im]`, f.len() / 4 values apiece). The operations of
/// [`poly_split_fft`] on each node, in the same order.
pub(crate) fn split_level(f: &[Fpr], hm: usize, f0: [&mut [Fpr]; 2], f1: [&mut [Fpr]; 2]) {
    let h = f.len() >> 1;
    let (re, im) = f.split_at(h);
    let [f0_re, f0_im] = f0;
    let [f1_re, f1_im] = f1;
    let qm = hm >> 1;
    for k in 0..h >> 1 {
        let u = k & (qm - 1);
        let (a_re, a_im) = (re[2 * k], im[2 * k]);
        let (b_re, b_im) = (re[2 * k + 1], im[2 * k + 1]);
        f0_re[k] = a_re.add(b_re).half();
        f0_im[k] = a_im.add(b_im).half();
        let (t_re, t_im) = cmul(
            a_re.sub(b_re),
            a_im.sub(b_im),
            gm((u + hm) << 1),
            gm(((u + hm) << 1) + 1).neg(),
        );
        f1_re[k] = t_re.half();
        f1_im[k] = t_im.half();
    }
}

/// Falcon spec v1.2, Algorithm 2: mergefft, the inverse of [`poly_split_fft`].
pub(crate) fn poly_merge_fft(f: &mut [Fpr], f0: &[Fpr], f1: &[Fpr]) {
    let n = f.len();
    let hn = n >> 1;
    let qn = hn >> 1;
    f[0] = f0[0];
    f[hn] = f1[0];
    for u in 0..qn {
        let a_re = f0[u];
        let a_im = f0[u + qn];
        let (b_re, b_im) = cmul(
            f1[u],
            f1[u + qn],
            gm((u + hn) << 1),
            gm(((u + hn) << 1) + 1),
        );
        f[u << 1] = a_re.add(b_re);
        f[(u << 1) + hn] = a_im.add(b_im);
        f[(u << 1) + 1] = a_re.sub(b_re);
        f[(u << 1) + 1 + hn] = a_im.sub(b_im);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fft_round_trip_and_product() {
        let logn = 9;
        let n = 512;
        let mut a = [Fpr::ZERO; 512];
        let mut b = [Fpr::ZERO; 512];
        for i in 0..n {
            a[i] = Fpr::of((i as i64 * 37 % 11) - 5);
            b[i] = Fpr::of((i as i64 * 53 % 7) - 3);
        }
        // Schoolbook negacyclic product.
        let mut want = [0i64; 512];
        for i in 0..n {
            for j in 0..n {
                let p = a[i].rint() * b[j].rint();
                if i + j < n {
                    want[i + j] += p;
                } else {
                    want[i + j - n] -= p;
                }
            }
        }
        let (mut fa, mut fb) = (a, b);
        fft(&mut fa, logn);
        fft(&mut fb, logn);
        let mut back = fa;
        ifft(&mut back, logn);
        for i in 0..n {
            assert_eq!(back[i].rint(), a[i].rint());
        }
        poly_mul_fft(&mut fa, &fb);
        ifft(&mut fa, logn);
        for i in 0..n {
            assert_eq!(fa[i].rint(), want[i]);
        }
        // split then merge is the identity (up to rounding).
        fft(&mut b, logn);
        let (mut f0, mut f1) = ([Fpr::ZERO; 256], [Fpr::ZERO; 256]);
        poly_split_fft(&mut f0, &mut f1, &b);
        let mut m = [Fpr::ZERO; 512];
        poly_merge_fft(&mut m, &f0, &f1);
        ifft(&mut m, logn);
        for i in 0..n {
            assert_eq!(m[i].rint(), ((i as i64 * 53 % 7) - 3));
        }
    }
}
