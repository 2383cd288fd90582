//! Babai's reduction of the lifted (F, G) against (f, g) (Falcon spec v1.2, Algorithm 7:
//! Reduce) at the intermediate depths logn - 1 to 2, on the reference's schedule.

use super::super::modp::{Twiddles, primes_for_words};
use super::super::zint;
use super::{Arena, MAX_BL_LARGE, MAX_BL_SMALL, Poly, fpr_area, words_for};
use crate::fft::{
    fft, ifft, poly_add, poly_adj_fft, poly_invnorm2_fft, poly_mul_autoadj_fft, poly_mul_fft,
};
use crate::fpr::Fpr;
use pqlab_arith::falcon_solver::SolverMul;

/// The measured bit length of f and g per depth (average, standard deviation), from which
/// the reference sets its reduction schedule.
const BITLENGTH: [(i32, i32); 11] = [
    (4, 0),
    (11, 1),
    (24, 1),
    (50, 1),
    (102, 1),
    (202, 2),
    (401, 4),
    (794, 5),
    (1577, 8),
    (3138, 13),
    (6308, 25),
];

/// Falcon spec, Algorithm 7: Reduce.
///
/// Babai's reduction at an intermediate depth as the reference performs it
/// (`solve_NTRU_intermediate`, from the lifted F, G onwards): k is computed in floating point
/// from the top (at most) ten 31-bit words of f, g and of F, G (converted as
/// [`zint::window_to_fpr`]), scaled by 2^-scale_k with scale_k starting at 31 llen - (avg -
/// 6 sd) of the bit length of f and g and lowered by 25 bits per pass down to 0, the reference
/// assuming that every pass removes that much; F and G are kept modulo 2^(31 FGlen), FGlen
/// shrinking with that assumption, and the result is what the reference keeps: F and G modulo
/// 2^(31 min(FGlen, slen)), as signed values. The reference rejects (f, g) when a scaled
/// coefficient of k leaves the open range (-(2^31 - 1), 2^31 - 1); so does this function
/// (returns false).
///
/// Memory: `fp` holds the values kept for every pass (FFT(adj f), FFT(adj g) and
/// 1 / (f adj(f) + g adj(g)): 5 n / 2); each pass computes FFT(F) and FFT(G) in the last 4 n
/// words of `scratch` (8-byte aligned at its end), which the products then reuse, as the
/// reference reuses its buffers (at least 5 n words of `scratch`: k and those).
#[allow(non_snake_case)]
#[inline(never)]
pub(super) fn reduce_as_reference<M: SolverMul>(
    F: &mut Poly<'_>,
    G: &mut Poly<'_>,
    f: &Poly<'_>,
    g: &Poly<'_>,
    logn: u32,
    depth: usize,
    scratch: &mut [u32],
    fp: &mut [Fpr],
) -> bool {
    let n = f.n;
    if 5 * n / 2 > fp.len() || 5 * n > scratch.len() {
        fail!(false);
    }
    let slen = MAX_BL_SMALL[depth] as i32;
    let llen = MAX_BL_LARGE[depth] as i32;
    let (rt3, fp) = fp.split_at_mut(n);
    let (rt4, fp) = fp.split_at_mut(n);
    let rt5 = &mut fp[..n / 2];
    // k, as the bits of its signed 32-bit coefficients.
    let (k, scratch) = scratch.split_at_mut(n);
    let rlen_fg = slen.min(10);
    let scale_fg = 31 * (slen - rlen_fg);
    windows_to_fpr(f, scale_fg as u32, rlen_fg as usize, rt3);
    windows_to_fpr(g, scale_fg as u32, rlen_fg as usize, rt4);
    let (avg, sd) = BITLENGTH[depth];
    let (minbl_fg, maxbl_fg) = (avg - 6 * sd, avg + 6 * sd);
    fft(rt3, logn);
    fft(rt4, logn);
    poly_invnorm2_fft(rt5, rt3, rt4);
    poly_adj_fft(rt3);
    poly_adj_fft(rt4);
    // From depth DEPTH_INT_FG up, the products k f and k g go through NTTs: f and g are
    // transformed once here, for every pass.
    let by_ntt = depth <= DEPTH_INT_FG;
    // Kept for every pass where the scratch has room for them and for the products
    // ([`sub_mul_ntt`]); else made again prime by prime at each pass ([`sub_mul_ntt_lean`],
    // as the reference's `poly_sub_scaled_ntt`), with the same results.
    let (fg_ntt, scratch) = if by_ntt && room_for_fg_ntt(f, g, logn, scratch.len()) {
        match fg_to_ntt::<M>(f, g, logn, scratch) {
            Some((x, rest)) => (Some(x), rest),
            None => {
                fail!(false);
            }
        }
    } else {
        (None, scratch)
    };
    // Below DEPTH_INT_FG, f and g as 64-bit limbs for the schoolbook products.
    let cut = if by_ntt {
        0
    } else {
        (4 * LIMB_CAP).min(scratch.len())
    };
    let (limb_buf, scratch) = scratch.split_at_mut(cut);
    let (fb, gb) = limb_buf.split_at_mut(cut / 2);
    let (f_limbs, g_limbs) = if by_ntt {
        (None, None)
    } else {
        match (Limbs::new(f, fb), Limbs::new(g, gb)) {
            (Some(a), Some(b)) => (Some(a), Some(b)),
            _ => fail!(false),
        }
    };
    let mut fglen = llen;
    let mut maxbl_fgl = 31 * llen;
    let mut scale_k = maxbl_fgl - minbl_fg;
    let lim = Fpr::of((1 << 31) - 1);
    loop {
        // The reference updates and reads only the low FGlen words of F and G.
        for i in 0..n {
            zint::wrap_signed(F.c_mut(i), 31 * fglen as u32);
            zint::wrap_signed(G.c_mut(i), 31 * fglen as u32);
        }
        let rlen = fglen.min(10);
        let scale_big = 31 * (fglen - rlen);
        // FFT(F) and FFT(G) in the last 4 n words of the scratch (the products' scratch
        // after k is known).
        let Some(rt12) = scratch
            .len()
            .checked_sub(4 * n)
            .and_then(|at| fpr_area(&mut scratch[at..]))
        else {
            fail!(false);
        };
        let (rt1, rt2) = rt12.split_at_mut(n);
        windows_to_fpr(F, scale_big as u32, rlen as usize, rt1);
        windows_to_fpr(G, scale_big as u32, rlen as usize, rt2);
        fft(rt1, logn);
        fft(rt2, logn);
        poly_mul_fft(rt1, rt3);
        poly_mul_fft(rt2, rt4);
        poly_add(rt2, rt1);
        poly_mul_autoadj_fft(rt2, rt5);
        ifft(rt2, logn);
        let dc = scale_k - scale_big + scale_fg;
        if !(-1000..=1000).contains(&dc) {
            fail!(false);
        }
        let pdc = Fpr::pow2(-dc);
        for i in 0..n {
            let xv = rt2[i].mul(pdc);
            if !lim.neg().lt(xv) || !xv.lt(lim) {
                fail!(false);
            }
            // In (-(2^31 - 1), 2^31 - 1) (checked above).
            k[i] = xv.rint() as i32 as u32;
        }
        // Only the low FGlen 31-bit words matter (the next pass wraps to them).
        let wlim = words_for(31 * fglen as u32);
        if by_ntt {
            let k = &k[..n];
            let s = scale_k as u32;
            let done = match &fg_ntt {
                Some(fg) => sub_mul_ntt::<M>(F, G, fg, k, s, wlim, logn, scratch),
                None => sub_mul_ntt_lean::<M>(F, G, f, g, k, s, wlim, logn, scratch),
            };
            if !done {
                fail!(false);
            }
        } else {
            let (Some(fl), Some(gl)) = (&f_limbs, &g_limbs) else {
                fail!(false);
            };
            fl.sub_mul_negacyclic(F, &k[..n], scale_k as u32, wlim);
            gl.sub_mul_negacyclic(G, &k[..n], scale_k as u32, wlim);
        }
        let new_maxbl = scale_k + maxbl_fg + 10;
        if new_maxbl < maxbl_fgl {
            maxbl_fgl = new_maxbl;
            if fglen * 31 >= maxbl_fgl + 31 {
                fglen -= 1;
            }
        }
        if scale_k <= 0 {
            break;
        }
        scale_k = (scale_k - 25).max(0);
    }
    let keep = 31 * fglen.min(slen) as u32;
    for i in 0..n {
        zint::wrap_signed(F.c_mut(i), keep);
        zint::wrap_signed(G.c_mut(i), keep);
    }
    true
}

/// [`zint::window_to_fpr`] of every coefficient of `p` into `out` (n values), with the same
/// operations per coefficient, hence the same values: eight coefficients at a time, word v
/// of each in turn, so that their eight chains of roundings (one addition per word, in the
/// reference's order) overlap instead of running one after the other.
#[inline(never)]
fn windows_to_fpr(p: &Poly<'_>, shift: u32, rlen: usize, out: &mut [Fpr]) {
    const B: usize = 8;
    let w = p.w;
    // Whether the window lies within every coefficient (as in `zint::window_to_fpr`).
    let inside = (shift as usize + 31 * rlen) / 32 < w;
    for (ci, o) in out[..p.n].chunks_mut(B).enumerate() {
        let m = o.len();
        let c = |j: usize| p.c(ci * B + j);
        let mut acc = [Fpr::ZERO; B];
        let mut neg = [false; B];
        let mut xm = [0u32; B];
        let mut cc = [0u32; B];
        for j in 0..m {
            // Two's complement negation of the window for a negative value.
            neg[j] = zint::is_neg(c(j));
            (xm[j], cc[j]) = if neg[j] { (0x7FFF_FFFF, 1) } else { (0, 0) };
        }
        for v in 0..rlen {
            let scale = Fpr::pow2(31 * v as i32);
            let pos = shift as usize + 31 * v;
            let (i, b) = (pos / 32, pos % 32);
            for j in 0..m {
                let x = c(j);
                let word = if inside {
                    let hi = x.get(i + 1).copied().unwrap_or(0);
                    ((u64::from(hi) << 32 | u64::from(x[i])) >> b) as u32 & 0x7FFF_FFFF
                } else {
                    zint::bits31(x, pos as u32)
                };
                let word = (word ^ xm[j]) + cc[j];
                cc[j] = word >> 31;
                let word = i64::from(word & 0x7FFF_FFFF);
                acc[j] = acc[j].add(Fpr::of(if neg[j] { -word } else { word }).mul(scale));
            }
        }
        o.copy_from_slice(&acc[..m]);
    }
}

/// The most 64-bit limbs of f (or g) over all coefficients at the schoolbook depths: f and g
/// at depth d are below 2^(31 MAX_BL_SMALL\[d\] - 2) (checked on the way down) and stored
/// on the fewest words, so that n ceil(w / 2) is at most 128 (depth 5: 32 coefficients of 7
/// words; 112 at depths 6 and 7, 104 at depths 8 and 9).
const LIMB_CAP: usize = 128;
/// The largest degree at the schoolbook depths (depth 5 of Falcon-1024).
const LIMBS_MAX_N: usize = 32;
/// The most limbs of one coefficient (52, at depth 9: 103 words), plus one for the sign.
const COL_CAP: usize = 53;

/// f (or g) prepared once per depth for [`Limbs::sub_mul_negacyclic`]: each coefficient
/// y_j as L = ceil(w / 2) 64-bit limbs Y_j (its words, sign-extended to an even count, held
/// as pairs of words in the caller's scratch; y_j = Y_j - 2^(64 L) when negative).
struct Limbs<'a> {
    y: &'a [u32],
    n: usize,
    l: usize,
}

impl<'a> Limbs<'a> {
    /// None if f exceeds [`LIMB_CAP`] (not reached within the reference's bounds) or `buf`
    /// is too small.
    fn new(f: &Poly<'_>, buf: &'a mut [u32]) -> Option<Self> {
        let (n, w) = (f.n, f.w);
        let l = w.div_ceil(2);
        if n * l > LIMB_CAP || n > LIMBS_MAX_N || l >= COL_CAP || 2 * n * l > buf.len() {
            fail!(None);
        }
        let y = &mut buf[..2 * n * l];
        for j in 0..n {
            let c = f.c(j);
            let sw = 0u32.wrapping_sub(u32::from(zint::is_neg(c)));
            let yj = &mut y[2 * j * l..2 * (j + 1) * l];
            yj[..w].copy_from_slice(c);
            yj[w..].fill(sw);
        }
        Some(Limbs { y, n, l })
    }

    /// Limb t of coefficient j.
    #[inline(always)]
    fn limb(&self, j: usize, t: usize) -> u64 {
        let i = 2 * (j * self.l + t);
        u64::from(self.y[i + 1]) << 32 | u64::from(self.y[i])
    }

    /// F -= k f 2^s in Z\[x\]/(x^n + 1) (schoolbook; k has 32-bit coefficients, given by
    /// their bits), on the low `wlim` words of each coefficient of F (exact modulo
    /// 2^(32 wlim); the words above are left as they were).
    ///
    /// (k f)_idx = sum over j of m_j y_j with m_j = k_(idx - j) (negated where idx - j wraps),
    /// |m_j| < 2^31, and y_j = Y_j - 2^(64 L) where y_j is negative: sum over t of 2^(64 t)
    /// (sum over j of m_j Y_j\[t\]) - 2^(64 L) (sum over j of m_j, y_j negative). Each limb
    /// product m_j Y_j\[t\] is one 64 x 64 -> 128-bit multiplication (unsigned, corrected), added without
    /// carries into the column of limb t (|column| < 2^100 for n <= 32 terms), the carries
    /// resolved once, then the result subtracted, shifted: the same integers as one
    /// subtraction per term, modulo 2^(32 wlim). (Two arrays in the frame: the columns and
    /// the result's words; key generation's peak stack runs through here.)
    #[allow(non_snake_case)]
    fn sub_mul_negacyclic(&self, F: &mut Poly<'_>, k: &[u32], s: u32, wlim: usize) {
        let (n, l) = (self.n, self.l);
        let mut col = [0i128; COL_CAP];
        let mut acc = [0u32; 2 * COL_CAP];
        let (col, acc) = (&mut col[..=l], &mut acc[..2 * (l + 1)]);
        // The sign masks of the y_j (all ones when negative).
        let neg = |j: usize| 0i64.wrapping_sub((self.limb(j, l - 1) >> 63) as i64);
        for idx in 0..n {
            col.fill(0);
            for j in 0..n {
                let m = if j <= idx {
                    i64::from(k[idx - j] as i32)
                } else {
                    -i64::from(k[idx + n - j] as i32)
                };
                // m y as one unsigned 64 x 64 -> 128-bit product of (m mod 2^64) and y, less
                // 2^64 y where m < 0.
                let mu = m as u64;
                let mneg = 0u64.wrapping_sub(mu >> 63);
                let yj = &self.y[2 * j * l..2 * (j + 1) * l];
                for (c, y) in col[..l].iter_mut().zip(yj.chunks_exact(2)) {
                    let y = u64::from(y[1]) << 32 | u64::from(y[0]);
                    let p =
                        (u128::from(mu) * u128::from(y)).wrapping_sub(u128::from(y & mneg) << 64);
                    *c = c.wrapping_add(p as i128);
                }
                col[l] -= i128::from(m & neg(j));
            }
            // The value fits 64 (l + 1) signed bits: the last carry is the sign.
            let mut carry = 0i128;
            for (a, &c) in acc.chunks_exact_mut(2).zip(col.iter()) {
                let v = c + carry;
                a[0] = v as u32;
                a[1] = (v >> 32) as u32;
                carry = v >> 64;
            }
            let x = F.c_mut(idx);
            let lx = x.len().min(wlim);
            zint::sub_shifted(&mut x[..lx], acc, s);
        }
    }
}

/// The depths from which [`sub_mul_ntt`] replaces the schoolbook product (as in the
/// reference: there the degree is large and the integers small).
const DEPTH_INT_FG: usize = 4;

/// f and g in NTT form modulo the first `np` solver primes (coefficient i of prime j at
/// j n + i), enough primes for the products with a k of 31-bit coefficients: the operands
/// that [`sub_mul_ntt`] reuses at every pass of a depth. (The twiddle tables are not kept:
/// [`sub_mul_ntt`] recomputes them, 2 n np words fewer for a few multiplications per point.)
struct FgNtt<'a> {
    f: &'a [u32],
    g: &'a [u32],
    np: usize,
    /// Words of a product coefficient.
    w: usize,
}

/// The words of a product coefficient and the number of primes for the products k f and
/// k g with a k of 31-bit coefficients: |(k f)_i| < n 2^31 2^bitlen(f), and the same for g.
fn product_size(f: &Poly<'_>, g: &Poly<'_>, logn: u32) -> (usize, usize) {
    let w = words_for(f.bitlen().max(g.bitlen()) + 31 + logn);
    (w, primes_for_words(w))
}

/// Whether `words` of scratch hold f and g in NTT form ([`fg_to_ntt`]) and then the lean
/// schedule of [`sub_mul_ntt`] (one set of residues, the tables, NTT(k), the CRT's words) or
/// FFT(F) and FFT(G) of [`reduce_as_reference`] (4 n words), whichever is larger.
fn room_for_fg_ntt(f: &Poly<'_>, g: &Poly<'_>, logn: u32, words: usize) -> bool {
    let n = f.n;
    let (w, np) = product_size(f, g, logn);
    2 * n * np + (n * np + 3 * n + w + zint::crt_tmp_words(n, np)).max(4 * n) <= words
}

/// Carves f and g in NTT form ([`FgNtt`]) off the front of `scratch`; returns them and the
/// rest of `scratch` (whose first 2 n words held the twiddle tables), or None if it is too
/// small.
#[inline(never)]
fn fg_to_ntt<'s, M: SolverMul>(
    f: &Poly<'_>,
    g: &Poly<'_>,
    logn: u32,
    scratch: &'s mut [u32],
) -> Option<(FgNtt<'s>, &'s mut [u32])> {
    let n = f.n;
    let (w, np) = product_size(f, g, logn);
    let mut sa = Arena { buf: scratch };
    let (rf, rg) = (sa.take(n * np)?, sa.take(n * np)?);
    let twb = sa.buf.get_mut(..2 * n)?;
    for j in 0..np {
        let tw = Twiddles::<M>::new(j, logn, &mut *twb);
        for (src, dst) in [(f, &mut *rf), (g, &mut *rg)] {
            let t = &mut dst[j * n..(j + 1) * n];
            to_ntt(&tw, src, t);
        }
    }
    let fg = FgNtt {
        f: rf,
        g: rg,
        np,
        w,
    };
    Some((fg, sa.buf))
}

/// [`sub_mul_negacyclic`] for F and G, with the products k f and k g computed exactly in
/// RNS form (NTT of k modulo each prime, times the NTTs of f and g, inverse NTTs), rebuilt by
/// CRT and subtracted: the same result. Where `scratch` has room for the residues of both
/// products, each prime's twiddle tables and NTT of k are computed once for both
/// ([`products_together`]); otherwise F and G go one after the other (as the reference's
/// `poly_sub_scaled_ntt`), one set of residues held at a time, the tables and NTT(k) made
/// again for G. Returns false if `scratch` is too small.
#[allow(non_snake_case, clippy::too_many_arguments)]
#[inline(never)]
fn sub_mul_ntt<M: SolverMul>(
    F: &mut Poly<'_>,
    G: &mut Poly<'_>,
    fg: &FgNtt<'_>,
    k: &[u32],
    s: u32,
    wlim: usize,
    logn: u32,
    scratch: &mut [u32],
) -> bool {
    let (n, np, w) = (k.len(), fg.np, fg.w);
    let mut sa = Arena { buf: scratch };
    let (Some(r), Some(kt), Some(twb), Some(prod), Some(crt_tmp)) = (
        sa.take(n * np),
        sa.take(n),
        sa.take(2 * n),
        sa.take(w),
        sa.take(zint::crt_tmp_words(n, np)),
    ) else {
        return false;
    };
    let mut subtract =
        |r: &mut [u32], P: &mut Poly<'_>| sub_residues(r, np, crt_tmp, prod, P, s, wlim);
    if let Some(r_g) = sa.take(n * np) {
        products_together::<M>(fg, k, logn, kt, twb, r, r_g);
        return subtract(r, F) && subtract(r_g, G);
    }
    let mut one = |src: &[u32], P: &mut Poly<'_>| {
        for j in 0..np {
            let tw = Twiddles::<M>::new(j, logn, &mut *twb);
            k_ntt(&tw, k, kt);
            product(
                &tw,
                kt,
                &src[j * n..(j + 1) * n],
                &mut r[j * n..(j + 1) * n],
            );
        }
        subtract(r, P)
    };
    one(fg.f, F) && one(fg.g, G)
}

/// P -= (the integers of the residues `r`, n values modulo `np` primes) 2^s, coefficient by
/// coefficient, on the low `wlim` words of each (`crt_tmp` and `prod`: the CRT's scratch and
/// one product coefficient). False if a product does not fit `prod`.
#[allow(non_snake_case)]
#[inline(never)]
fn sub_residues(
    r: &mut [u32],
    np: usize,
    crt_tmp: &mut [u32],
    prod: &mut [u32],
    P: &mut Poly<'_>,
    s: u32,
    wlim: usize,
) -> bool {
    zint::crt_batch(r, P.n, np, crt_tmp, |i, v| {
        if !zint::copy_resize(prod, v) {
            return false;
        }
        let x = P.c_mut(i);
        let l = x.len().min(wlim);
        zint::sub_shifted(&mut x[..l], prod, s);
        true
    })
}

/// [`sub_mul_ntt`] without f and g kept in NTT form: prime by prime, the tables, NTT(k) and the
/// NTT of f (and g) made again at each pass, the residues of the products kept, then rebuilt
/// and subtracted (the reference's `poly_sub_scaled_ntt`). The same integers, in fewer words:
/// both sets of residues where `scratch` has room (the tables and NTT(k) made once for both),
/// else F, then G, with one set of residues and 4 n words. Returns false if `scratch` is too
/// small.
#[allow(non_snake_case, clippy::too_many_arguments)]
#[inline(never)]
fn sub_mul_ntt_lean<M: SolverMul>(
    F: &mut Poly<'_>,
    G: &mut Poly<'_>,
    f: &Poly<'_>,
    g: &Poly<'_>,
    k: &[u32],
    s: u32,
    wlim: usize,
    logn: u32,
    scratch: &mut [u32],
) -> bool {
    let n = k.len();
    let (w, np) = product_size(f, g, logn);
    let mut sa = Arena { buf: scratch };
    let (Some(r), Some(kt), Some(twb), Some(sx), Some(prod), Some(crt_tmp)) = (
        sa.take(n * np),
        sa.take(n),
        sa.take(2 * n),
        sa.take(n),
        sa.take(w),
        sa.take(zint::crt_tmp_words(n, np)),
    ) else {
        return false;
    };
    // Both products prime by prime (the tables and NTT(k) made once for both) where the
    // scratch holds a second set of residues.
    if let Some(r_g) = sa.take(n * np) {
        for j in 0..np {
            let tw = Twiddles::<M>::new(j, logn, &mut *twb);
            k_ntt(&tw, k, kt);
            for (src, out) in [(f, &mut *r), (g, &mut *r_g)] {
                to_ntt(&tw, src, sx);
                product(&tw, kt, sx, &mut out[j * n..(j + 1) * n]);
            }
        }
        return sub_residues(r, np, crt_tmp, prod, F, s, wlim)
            && sub_residues(r_g, np, crt_tmp, prod, G, s, wlim);
    }
    let mut one = |src: &Poly<'_>, P: &mut Poly<'_>| {
        for j in 0..np {
            let tw = Twiddles::<M>::new(j, logn, &mut *twb);
            k_ntt(&tw, k, kt);
            to_ntt(&tw, src, sx);
            product(&tw, kt, sx, &mut r[j * n..(j + 1) * n]);
        }
        sub_residues(r, np, crt_tmp, prod, P, s, wlim)
    };
    one(f, F) && one(g, G)
}

/// The residues of k f into `r_f` and of k g into `r_g` (coefficient i of prime j at j n + i,
/// normal form), modulo each of the `fg.np` primes in turn: its tables and the NTT of k
/// (in `twb`, `kt`) made once for both products.
fn products_together<M: SolverMul>(
    fg: &FgNtt<'_>,
    k: &[u32],
    logn: u32,
    kt: &mut [u32],
    twb: &mut [u32],
    r_f: &mut [u32],
    r_g: &mut [u32],
) {
    let n = k.len();
    for j in 0..fg.np {
        let tw = Twiddles::<M>::new(j, logn, &mut *twb);
        k_ntt(&tw, k, kt);
        let at = j * n..(j + 1) * n;
        product(&tw, kt, &fg.f[at.clone()], &mut r_f[at.clone()]);
        product(&tw, kt, &fg.g[at.clone()], &mut r_g[at]);
    }
}

/// The big-integer polynomial `src` (n coefficients) modulo the prime of `tw`, in NTT form,
/// into `out`: the operand f or g of the products, kept ([`fg_to_ntt`]) or remade at each
/// pass ([`sub_mul_ntt_lean`]).
fn to_ntt<M: SolverMul>(tw: &Twiddles<'_, M>, src: &Poly<'_>, out: &mut [u32]) {
    zint::mod_small_signed_batch(&src.d[..src.n * src.w], src.w, &tw.m, out);
    tw.ntt(out);
}

/// NTT(k) modulo the prime of `tw` into `kt` (k: signed 32-bit coefficients as bits).
fn k_ntt<M: SolverMul>(tw: &Twiddles<'_, M>, k: &[u32], kt: &mut [u32]) {
    let m = tw.m;
    for (x, &ki) in kt.iter_mut().zip(k) {
        *x = m.set(ki as i32);
    }
    tw.ntt(kt);
}

/// The residues of the product whose NTT operands are `kt` and `src` (modulo the prime of
/// `tw`) into `out`: the pointwise product, then the inverse NTT.
fn product<M: SolverMul>(tw: &Twiddles<'_, M>, kt: &[u32], src: &[u32], out: &mut [u32]) {
    let m = tw.m;
    for ((x, &a), &b) in out.iter_mut().zip(kt).zip(src) {
        *x = m.mul(a, b);
    }
    tw.intt(out);
}

#[cfg(test)]
mod tests {
    use super::{Fpr, Poly, windows_to_fpr};
    use crate::keygen::zint;

    /// The batched conversion gives [`zint::window_to_fpr`]'s values, bit for bit, on random
    /// signed integers, windows within and beyond the words, and counts not a multiple of 8.
    #[test]
    fn windows_to_fpr_matches_one_by_one() {
        let mut rng = pqlab_testutil::rng::TestRng::new(1);
        let mut next = || rng.next_u64();
        for round in 0..300 {
            let n = [1, 2, 5, 8, 13, 16, 32][round % 7];
            let w = 1 + (next() % 12) as usize;
            let rlen = 1 + (next() % 10) as usize;
            let shift = (next() % (32 * w as u64 + 40)) as u32;
            let mut d: std::vec::Vec<u32> = (0..n * w).map(|_| next() as u32).collect();
            // Some small values (sign words above).
            if round % 3 == 0 {
                for i in 0..n {
                    let s = 0u32.wrapping_sub(d[i * w] & 1);
                    d[i * w + 1..(i + 1) * w].fill(s);
                }
            }
            let p = Poly { d: &mut d, n, w };
            let mut out = std::vec![Fpr::ZERO; n];
            windows_to_fpr(&p, shift, rlen, &mut out);
            for i in 0..n {
                let want = zint::window_to_fpr(p.c(i), shift, rlen);
                assert_eq!(
                    out[i].to_bits(),
                    want.to_bits(),
                    "round {round}, coefficient {i}"
                );
            }
        }
    }
}
