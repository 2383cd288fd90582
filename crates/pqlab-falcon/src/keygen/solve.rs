//! NTRUSolve (Falcon spec v1.2, Algorithm 6): given short f, g, find short F, G with
//! f G - g F = q, by the tower of field norms down to integers, an extended GCD there, and
//! lifting back up with Babai's round-off reduction at every level.
//!
//! Levels d = 0 (degree n) to logn (degree 1). Going down, f_(d+1)(x^2) = f_d(x) f_d(-x)
//! (the field norm), computed exactly in RNS form with NTTs modulo the primes of
//! [`super::modp`]. At the bottom, f_L and g_L are the resultants of f and g with x^n + 1;
//! the binary extended GCD gives u, v with f_L u - g_L v = 1, and (F, G) = (q v, q u).
//! Going up, (F, G) at level d is (F'(x^2) g_d(-x), G'(x^2) f_d(-x)), reduced by
//! k = round((F adj(f) + G adj(g)) / (f adj(f) + g adj(g))).
//!
//! Faithfulness to the reference: Babai's reduction does not give one canonical (F, G) (a
//! rounding at one level changes the lattice vector carried to the next), and the reference's
//! rejections (a scaled coefficient of k leaving 31 bits) decide which (f, g) it keeps, so the
//! solver follows the reference's `keygen.c` step for step where it matters: at depths
//! logn - 1 to 2 the lifted (F, G) is computed exactly and reduced with the reference's
//! schedule ([`reduce_as_reference`]: the same floating-point approximations of f, g, F and G,
//! the same scalings, F and G kept modulo 2^(31 FGlen) as its word buffers keep them; F and
//! G are held on at least 31 llen bits so that a coefficient that grows during a pass is not
//! truncated earlier than in the reference); depths 1 and 0 repeat the reference's
//! floating-point round-off and its arithmetic modulo the first prime operation for
//! operation. The result is the key of the round-3 reference for all 200 KAT key pairs.
//!
//! Cost: the products k f of the reduction are schoolbook at the deep levels (few, large
//! coefficients) and computed by NTTs modulo the solver primes from depth 4 up (as the
//! reference does); the extended GCD strips all trailing zeros at once; the rest is the RNS
//! arithmetic (field norms, lifts, CRT).
//!
//! Constant time: this solver is NOT constant-time. Its loop counts, the sizes it chooses
//! and the binary GCD depend on the values of the norms of f and g; see the crate
//! documentation.

use super::modp::{Twiddles, primes_for_words};
use super::zint;
use crate::fft::{
    fft, ifft, poly_add, poly_add_muladj_fft, poly_adj_fft, poly_div_autoadj_fft,
    poly_invnorm2_fft, poly_mul_autoadj_fft, poly_mul_fft, poly_sub,
};
use crate::fpr::Fpr;

/// Reports where a rejection came from (tests only).
macro_rules! fail {
    () => {
        #[cfg(test)]
        std::eprintln!("ntrusolve reject at line {}", line!());
    };
}

/// The largest integer the solver handles, in 32-bit words (about 10,000 bits; the unreduced
/// F at depth 9 of Falcon-1024 is about 9,600).
pub(crate) const MAX_WORDS: usize = 320;

/// The reference's buffer lengths, in 31-bit words, per depth: f and g (and the reduced F
/// and G), and the unreduced F and G. The reference rejects (f, g) whose values outgrow them
/// (its results are then wrong and fail a later check), so this solver rejects the same
/// (f, g) to reproduce its keys.
const MAX_BL_SMALL: [u32; 11] = [1, 1, 2, 2, 4, 7, 14, 27, 53, 106, 209];
const MAX_BL_LARGE: [u32; 10] = [2, 2, 5, 7, 12, 21, 40, 78, 157, 308];

/// Whether every coefficient fits the reference's signed 31-bit-word buffer of `words`.
fn fits(p: &Poly<'_>, words: u32) -> bool {
    p.bitlen() < 31 * words - 1
}

/// Words for f and g at every level.
const FG_WORDS: usize = 12 * 1024;
/// Words for one (F, G) pair (two are used alternately).
const PAIR_WORDS: usize = 5 * 1024;
/// Scratch words for the RNS residues, twiddle tables and temporaries.
const SCRATCH_WORDS: usize = 10 * 1024;

/// The solver's workspace (128 KiB), zeroized by the caller after use.
pub(crate) struct Workspace {
    fg: [u32; FG_WORDS],
    pairs: [[u32; PAIR_WORDS]; 2],
    scratch: [u32; SCRATCH_WORDS],
}

impl Workspace {
    pub(crate) fn new() -> Self {
        Workspace {
            fg: [0; FG_WORDS],
            pairs: [[0; PAIR_WORDS]; 2],
            scratch: [0; SCRATCH_WORDS],
        }
    }

    pub(crate) fn clear(&mut self) {
        use zeroize::Zeroize;
        self.fg.zeroize();
        self.pairs[0].zeroize();
        self.pairs[1].zeroize();
        self.scratch.zeroize();
    }
}

/// A polynomial with big-integer coefficients: n coefficients of w words each.
struct Poly<'a> {
    d: &'a mut [u32],
    n: usize,
    w: usize,
}

impl<'a> Poly<'a> {
    fn c(&self, i: usize) -> &[u32] {
        &self.d[i * self.w..(i + 1) * self.w]
    }

    fn c_mut(&mut self, i: usize) -> &mut [u32] {
        &mut self.d[i * self.w..(i + 1) * self.w]
    }

    /// The largest bit length of a coefficient.
    fn bitlen(&self) -> u32 {
        (0..self.n)
            .map(|i| zint::bitlen(self.c(i)))
            .max()
            .unwrap_or(0)
    }
}

/// Carves slices off a buffer.
struct Arena<'a> {
    buf: &'a mut [u32],
}

impl<'a> Arena<'a> {
    fn take(&mut self, n: usize) -> Option<&'a mut [u32]> {
        if n > self.buf.len() {
            {
                fail!();
                return None;
            }
        }
        let buf = core::mem::take(&mut self.buf);
        let (a, b) = buf.split_at_mut(n);
        self.buf = b;
        Some(a)
    }
}

/// Words for a signed integer of `bits` magnitude bits.
fn words_for(bits: u32) -> usize {
    bits as usize / 32 + 1
}

/// NTRUSolve for logn in {9, 10}: writes F and G (coefficients in \[-127, 127\], the
/// reference's limit) and returns true, or returns false if (f, g) must be rejected.
#[allow(non_snake_case)]
pub(crate) fn solve_ntru(
    logn: u32,
    f: &[i8],
    g: &[i8],
    F: &mut [i8],
    G: &mut [i8],
    ws: &mut Workspace,
) -> bool {
    let n = 1usize << logn;
    let Workspace {
        fg,
        pairs: [pa, pb],
        scratch,
    } = ws;
    let mut fg_arena = Arena { buf: &mut fg[..] };
    // Level 0: f and g as one-word integers.
    let mut levels_f: [Option<Poly<'_>>; 11] = Default::default();
    let mut levels_g: [Option<Poly<'_>>; 11] = Default::default();
    let (Some(fd), Some(gd)) = (fg_arena.take(n), fg_arena.take(n)) else {
        {
            fail!();
            return false;
        }
    };
    for i in 0..n {
        fd[i] = i32::from(f[i]) as u32;
        gd[i] = i32::from(g[i]) as u32;
    }
    levels_f[0] = Some(Poly { d: fd, n, w: 1 });
    levels_g[0] = Some(Poly { d: gd, n, w: 1 });
    // Going down: field norms.
    for d in 0..logn as usize {
        let lg = logn - d as u32;
        let (Some(fp), Some(gp)) = (&levels_f[d], &levels_g[d]) else {
            {
                fail!();
                return false;
            }
        };
        let Some(nf) = field_norm(fp, lg, &mut fg_arena, scratch) else {
            {
                fail!();
                return false;
            }
        };
        let Some(ng) = field_norm(gp, lg, &mut fg_arena, scratch) else {
            {
                fail!();
                return false;
            }
        };
        if !fits(&nf, MAX_BL_SMALL[d + 1]) || !fits(&ng, MAX_BL_SMALL[d + 1]) {
            fail!();
            return false;
        }
        levels_f[d + 1] = Some(nf);
        levels_g[d + 1] = Some(ng);
    }
    // Deepest level: the extended GCD of the resultants; (F, G) then live in pa with
    // (n, w) = cur.
    let (Some(fl), Some(gl)) = (&levels_f[logn as usize], &levels_g[logn as usize]) else {
        {
            fail!();
            return false;
        }
    };
    let mut cur = match deepest(fl, gl, pa, scratch) {
        Some((dF, dG))
            if fits(&dF, MAX_BL_SMALL[logn as usize]) && fits(&dG, MAX_BL_SMALL[logn as usize]) =>
        {
            (dF.n, dF.w)
        }
        _ => return false,
    };
    // Going up, depths logn - 1 to 2: exact lift and round-off, then compaction into pa.
    for d in (2..logn as usize).rev() {
        let lg = logn - d as u32;
        let (Some(fp), Some(gp)) = (&levels_f[d], &levels_g[d]) else {
            {
                fail!();
                return false;
            }
        };
        let (cn, cw) = cur;
        let (Fc, Gc) = pa[..2 * cn * cw].split_at_mut(cn * cw);
        let (Fc, Gc) = (
            Poly {
                d: Fc,
                n: cn,
                w: cw,
            },
            Poly {
                d: Gc,
                n: cn,
                w: cw,
            },
        );
        let Some((mut nF, mut nG)) = lift(&Fc, &Gc, fp, gp, lg, 31 * MAX_BL_LARGE[d], pb, scratch)
        else {
            {
                fail!();
                return false;
            }
        };
        if !fits(&nF, MAX_BL_LARGE[d]) || !fits(&nG, MAX_BL_LARGE[d]) {
            fail!();
            return false;
        }
        if !reduce_as_reference(&mut nF, &mut nG, fp, gp, lg, d, scratch) {
            {
                fail!();
                return false;
            }
        }
        let nn = nF.n;
        let w2 = words_for(nF.bitlen().max(nG.bitlen()));
        if 2 * nn * w2 > pa.len() {
            {
                fail!();
                return false;
            }
        }
        for i in 0..nn {
            // Cannot fail: w2 words hold every coefficient.
            zint::copy_resize(&mut pa[i * w2..(i + 1) * w2], nF.c(i));
            zint::copy_resize(&mut pa[(nn + i) * w2..(nn + i + 1) * w2], nG.c(i));
        }
        cur = (nn, w2);
    }
    // Depth 1, as the reference: one floating-point round-off.
    let (Some(f1), Some(g1)) = (&levels_f[1], &levels_g[1]) else {
        {
            fail!();
            return false;
        }
    };
    let (cn, cw) = cur;
    let (Fc, Gc) = pa[..2 * cn * cw].split_at_mut(cn * cw);
    let (Fc, Gc) = (
        Poly {
            d: Fc,
            n: cn,
            w: cw,
        },
        Poly {
            d: Gc,
            n: cn,
            w: cw,
        },
    );
    let mut F1 = [0i32; 512];
    let mut G1 = [0i32; 512];
    let hn = n >> 1;
    if !depth1(
        &Fc,
        &Gc,
        f1,
        g1,
        logn - 1,
        pb,
        scratch,
        &mut F1[..hn],
        &mut G1[..hn],
    ) {
        {
            fail!();
            return false;
        }
    }
    // Depth 0, as the reference: the round-off modulo the first prime.
    depth0(&F1[..hn], &G1[..hn], f, g, logn, scratch, F, G)
}

/// One field-norm step: N(f) (degree n/2) of f (degree n = 2^logn), exactly.
fn field_norm<'a>(
    f: &Poly<'_>,
    logn: u32,
    arena: &mut Arena<'a>,
    scratch: &mut [u32],
) -> Option<Poly<'a>> {
    let n = f.n;
    let hn = n >> 1;
    let w = words_for(2 * f.bitlen() + logn + 1);
    if w > MAX_WORDS {
        {
            fail!();
            return None;
        }
    }
    let np = primes_for_words(w);
    let out = arena.take(hn * w)?;
    let mut sa = Arena { buf: scratch };
    let rns = sa.take(hn * np)?;
    let twb = sa.take(2 * n)?;
    let t = sa.take(n)?;
    let crt_tmp = sa.take(3 * (w + 3))?;
    for j in 0..np {
        let tw = Twiddles::new(j, logn, twb);
        let m = tw.m;
        for (i, x) in t.iter_mut().enumerate() {
            *x = zint::mod_small_signed(f.c(i), &m);
        }
        tw.ntt(t);
        for v in 0..hn {
            t[v] = m.mul(t[2 * v], t[2 * v + 1]);
        }
        tw.intt_sized(&mut t[..hn], logn - 1);
        for v in 0..hn {
            rns[v * np + j] = t[v];
        }
    }
    for v in 0..hn {
        if !zint::crt_rebuild(
            &mut out[v * w..(v + 1) * w],
            &rns[v * np..(v + 1) * np],
            crt_tmp,
        ) {
            {
                fail!();
                return None;
            }
        }
    }
    Some(Poly { d: out, n: hn, w })
}

/// The deepest level: (F, G) = (q v, q u) with f u - g v = 1 for the resultants f, g.
#[allow(non_snake_case)]
fn deepest<'a>(
    f: &Poly<'_>,
    g: &Poly<'_>,
    dst: &'a mut [u32],
    scratch: &mut [u32],
) -> Option<(Poly<'a>, Poly<'a>)> {
    let w = f.w.max(g.w);
    // The resultants are positive and odd (the sampler makes the sums of coefficients odd).
    if zint::is_neg(f.c(0)) || zint::is_neg(g.c(0)) || f.c(0)[0] & 1 == 0 || g.c(0)[0] & 1 == 0 {
        {
            fail!();
            return None;
        }
    }
    let mut sa = Arena { buf: scratch };
    let x = sa.take(w)?;
    let y = sa.take(w)?;
    let tmp = sa.take(4 * w)?;
    if !zint::copy_resize(x, f.c(0)) || !zint::copy_resize(y, g.c(0)) {
        {
            fail!();
            return None;
        }
    }
    // One extra word for the factor q and the sign.
    let wo = w + 1;
    let mut da = Arena { buf: dst };
    let Fd = da.take(wo)?;
    let Gd = da.take(wo)?;
    Fd.fill(0);
    Gd.fill(0);
    if !zint::bezout(&mut Gd[..w], &mut Fd[..w], x, y, tmp) {
        {
            fail!();
            return None;
        }
    }
    if zint::mul_small(Fd, crate::params::Q) != 0 || zint::mul_small(Gd, crate::params::Q) != 0 {
        {
            fail!();
            return None;
        }
    }
    Some((Poly { d: Fd, n: 1, w: wo }, Poly { d: Gd, n: 1, w: wo }))
}

/// Lifts (F', G') from degree n/2 to the unreduced (F, G) = (F'(x^2) g(-x), G'(x^2) f(-x))
/// at degree n = 2^logn, exactly (RNS with enough primes, then CRT).
#[allow(non_snake_case)]
fn lift<'a>(
    Fp: &Poly<'_>,
    Gp: &Poly<'_>,
    f: &Poly<'_>,
    g: &Poly<'_>,
    logn: u32,
    min_bits: u32,
    dst: &'a mut [u32],
    scratch: &mut [u32],
) -> Option<(Poly<'a>, Poly<'a>)> {
    let n = f.n;
    let hn = n >> 1;
    let bits = Fp.bitlen().max(Gp.bitlen()) + f.bitlen().max(g.bitlen()) + logn + 1;
    let w = words_for(bits);
    let wo = w.max(words_for(min_bits));
    if wo > MAX_WORDS {
        {
            fail!();
            return None;
        }
    }
    let np = primes_for_words(w);
    let mut da = Arena { buf: dst };
    let Fo = da.take(n * wo)?;
    let Go = da.take(n * wo)?;
    let mut sa = Arena { buf: scratch };
    let rF = sa.take(n * np)?;
    let rG = sa.take(n * np)?;
    let twb = sa.take(2 * n)?;
    let fx = sa.take(n)?;
    let gx = sa.take(n)?;
    let Ft = sa.take(n)?;
    let Gt = sa.take(n)?;
    let crt_tmp = sa.take(3 * (wo + 3))?;
    for j in 0..np {
        let tw = Twiddles::new(j, logn, twb);
        let m = tw.m;
        for i in 0..n {
            fx[i] = zint::mod_small_signed(f.c(i), &m);
            gx[i] = zint::mod_small_signed(g.c(i), &m);
        }
        tw.ntt(fx);
        tw.ntt(gx);
        for v in 0..hn {
            Ft[v] = zint::mod_small_signed(Fp.c(v), &m);
            Gt[v] = zint::mod_small_signed(Gp.c(v), &m);
        }
        tw.ntt_sized(&mut Ft[..hn], logn - 1);
        tw.ntt_sized(&mut Gt[..hn], logn - 1);
        // Points 2v and 2v+1 are w and -w, and w^2 is point v of the half-size NTT:
        // F(w) = F'(w^2) g(-w), F(-w) = F'(w^2) g(w).
        for v in (0..hn).rev() {
            let (a, b) = (Ft[v], Gt[v]);
            Ft[2 * v] = m.mul(a, gx[2 * v + 1]);
            Ft[2 * v + 1] = m.mul(a, gx[2 * v]);
            Gt[2 * v] = m.mul(b, fx[2 * v + 1]);
            Gt[2 * v + 1] = m.mul(b, fx[2 * v]);
        }
        tw.intt(Ft);
        tw.intt(Gt);
        for i in 0..n {
            rF[i * np + j] = Ft[i];
            rG[i * np + j] = Gt[i];
        }
    }
    for i in 0..n {
        let (r1, r2) = (&rF[i * np..(i + 1) * np], &rG[i * np..(i + 1) * np]);
        if !zint::crt_rebuild(&mut Fo[i * wo..(i + 1) * wo], r1, crt_tmp)
            || !zint::crt_rebuild(&mut Go[i * wo..(i + 1) * wo], r2, crt_tmp)
        {
            {
                fail!();
                return None;
            }
        }
    }
    Some((Poly { d: Fo, n, w: wo }, Poly { d: Go, n, w: wo }))
}

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
#[allow(non_snake_case)]
fn reduce_as_reference(
    F: &mut Poly<'_>,
    G: &mut Poly<'_>,
    f: &Poly<'_>,
    g: &Poly<'_>,
    logn: u32,
    depth: usize,
    scratch: &mut [u32],
) -> bool {
    let n = f.n;
    if n > REDUCE_MAX_N {
        return false;
    }
    let slen = MAX_BL_SMALL[depth] as i32;
    let llen = MAX_BL_LARGE[depth] as i32;
    let mut rt1 = [Fpr::ZERO; REDUCE_MAX_N];
    let mut rt2 = [Fpr::ZERO; REDUCE_MAX_N];
    let mut rt3 = [Fpr::ZERO; REDUCE_MAX_N];
    let mut rt4 = [Fpr::ZERO; REDUCE_MAX_N];
    let mut rt5 = [Fpr::ZERO; REDUCE_MAX_N / 2];
    let mut k = [0i32; REDUCE_MAX_N];
    let (rt1, rt2, rt3, rt4) = (&mut rt1[..n], &mut rt2[..n], &mut rt3[..n], &mut rt4[..n]);
    let rt5 = &mut rt5[..n / 2];
    let rlen_fg = slen.min(10);
    let scale_fg = 31 * (slen - rlen_fg);
    for i in 0..n {
        rt3[i] = zint::window_to_fpr(f.c(i), scale_fg as u32, rlen_fg as usize);
        rt4[i] = zint::window_to_fpr(g.c(i), scale_fg as u32, rlen_fg as usize);
    }
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
    let (fg_ntt, scratch) = if by_ntt {
        match fg_to_ntt(f, g, logn, scratch) {
            Some(x) => x,
            None => {
                fail!();
                return false;
            }
        }
    } else {
        (FgNtt::default(), scratch)
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
        for i in 0..n {
            rt1[i] = zint::window_to_fpr(F.c(i), scale_big as u32, rlen as usize);
            rt2[i] = zint::window_to_fpr(G.c(i), scale_big as u32, rlen as usize);
        }
        fft(rt1, logn);
        fft(rt2, logn);
        poly_mul_fft(rt1, rt3);
        poly_mul_fft(rt2, rt4);
        poly_add(rt2, rt1);
        poly_mul_autoadj_fft(rt2, rt5);
        ifft(rt2, logn);
        let dc = scale_k - scale_big + scale_fg;
        if !(-1000..=1000).contains(&dc) {
            fail!();
            return false;
        }
        let pdc = Fpr::pow2(-dc);
        for i in 0..n {
            let xv = rt2[i].mul(pdc);
            if !lim.neg().lt(xv) || !xv.lt(lim) {
                fail!();
                return false;
            }
            // In (-(2^31 - 1), 2^31 - 1) (checked above).
            k[i] = xv.rint() as i32;
        }
        // Only the low FGlen 31-bit words matter (the next pass wraps to them).
        let wlim = words_for(31 * fglen as u32);
        if by_ntt {
            if !sub_mul_ntt(F, G, &fg_ntt, &k[..n], scale_k as u32, wlim, logn, scratch) {
                fail!();
                return false;
            }
        } else {
            sub_mul_negacyclic(F, f, &k[..n], scale_k as u32, wlim);
            sub_mul_negacyclic(G, g, &k[..n], scale_k as u32, wlim);
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

/// The largest degree reduced by [`reduce_as_reference`] (depth 2 of Falcon-1024).
const REDUCE_MAX_N: usize = 256;

/// F -= k f 2^s in Z\[x\]/(x^n + 1) (schoolbook; k has 32-bit coefficients), on the low
/// `wlim` words of each coefficient of F (exact modulo 2^(32 wlim); the words above are left
/// as they were).
#[allow(non_snake_case)]
fn sub_mul_negacyclic(F: &mut Poly<'_>, f: &Poly<'_>, k: &[i32], s: u32, wlim: usize) {
    let n = f.n;
    for (i, &ki) in k.iter().enumerate() {
        if ki == 0 {
            continue;
        }
        for j in 0..n {
            let (idx, kk) = if i + j < n {
                (i + j, ki)
            } else {
                (i + j - n, -ki)
            };
            let x = F.c_mut(idx);
            let l = x.len().min(wlim);
            zint::sub_scaled_mul(&mut x[..l], f.c(j), kk, s);
        }
    }
}

/// The depths from which [`sub_mul_ntt`] replaces the schoolbook product (as in the
/// reference: there the degree is large and the integers small).
const DEPTH_INT_FG: usize = 4;

/// f and g in NTT form modulo the first `np` solver primes (coefficient i of prime j at
/// i np + j), enough primes for the products with a k of 31-bit coefficients: the operands
/// that [`sub_mul_ntt`] reuses at every pass of a depth.
#[derive(Default)]
struct FgNtt<'a> {
    f: &'a [u32],
    g: &'a [u32],
    np: usize,
    /// Words of a product coefficient.
    w: usize,
}

/// Carves f and g in NTT form ([`FgNtt`]) off the front of `scratch`; returns them and the
/// rest of `scratch`, or None if it is too small.
fn fg_to_ntt<'s>(
    f: &Poly<'_>,
    g: &Poly<'_>,
    logn: u32,
    scratch: &'s mut [u32],
) -> Option<(FgNtt<'s>, &'s mut [u32])> {
    let n = f.n;
    // |(k f)_i| < n 2^31 2^bitlen(f), and the same for g.
    let w = words_for(f.bitlen().max(g.bitlen()) + 31 + logn);
    let np = primes_for_words(w);
    let mut sa = Arena { buf: scratch };
    let (rf, rg, twb, t) = (
        sa.take(n * np)?,
        sa.take(n * np)?,
        sa.take(2 * n)?,
        sa.take(n)?,
    );
    for j in 0..np {
        let tw = Twiddles::new(j, logn, twb);
        for (src, dst) in [(f, &mut *rf), (g, &mut *rg)] {
            for (i, x) in t.iter_mut().enumerate() {
                *x = zint::mod_small_signed(src.c(i), &tw.m);
            }
            tw.ntt(t);
            for (i, &x) in t.iter().enumerate() {
                dst[i * np + j] = x;
            }
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

/// [`sub_mul_negacyclic`] for F and G together, with the products k f and k g computed
/// exactly in RNS form (NTT of k modulo each prime, times the NTTs of f and g, inverse NTTs),
/// rebuilt by CRT and subtracted: the same result. Returns false if `scratch` is too small.
#[allow(non_snake_case, clippy::too_many_arguments)]
fn sub_mul_ntt(
    F: &mut Poly<'_>,
    G: &mut Poly<'_>,
    fg: &FgNtt<'_>,
    k: &[i32],
    s: u32,
    wlim: usize,
    logn: u32,
    scratch: &mut [u32],
) -> bool {
    let (n, np, w) = (k.len(), fg.np, fg.w);
    let mut sa = Arena { buf: scratch };
    let (Some(rF), Some(rG), Some(twb), Some(kt), Some(t), Some(prod), Some(crt_tmp)) = (
        sa.take(n * np),
        sa.take(n * np),
        sa.take(2 * n),
        sa.take(n),
        sa.take(n),
        sa.take(w),
        sa.take(3 * (w + 3)),
    ) else {
        return false;
    };
    for j in 0..np {
        let tw = Twiddles::new(j, logn, twb);
        let m = tw.m;
        for (x, &ki) in kt.iter_mut().zip(k) {
            *x = m.set(ki);
        }
        tw.ntt(kt);
        for (src, dst) in [(fg.f, &mut *rF), (fg.g, &mut *rG)] {
            for i in 0..n {
                t[i] = m.mul(kt[i], src[i * np + j]);
            }
            tw.intt(t);
            for (i, &x) in t.iter().enumerate() {
                dst[i * np + j] = x;
            }
        }
    }
    // P -= (the integers of residues r) 2^s, coefficient by coefficient.
    let mut sub_crt = |P: &mut Poly<'_>, r: &[u32]| {
        for i in 0..n {
            if !zint::crt_rebuild(prod, &r[i * np..(i + 1) * np], crt_tmp) {
                return false;
            }
            let x = P.c_mut(i);
            let l = x.len().min(wlim);
            zint::sub_scaled_mul(&mut x[..l], prod, 1, s);
        }
        true
    };
    sub_crt(F, rF) && sub_crt(G, rG)
}

/// Depth 1 of the reference (`solve_NTRU_binary_depth1`): lift exactly, then a single
/// round-off computed in floating point with the reference's sequence of operations (the
/// unreduced values fit in 53 bits, so their conversion is exact), the reduced F and G
/// rounded back to integers and read as 31-bit signed words, as the reference stores them.
#[allow(non_snake_case, clippy::too_many_arguments)]
fn depth1(
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
    let Some((uF, uG)) = lift(Fc, Gc, f1, g1, logn, 0, dst, scratch) else {
        fail!();
        return false;
    };
    if !fits(&uF, MAX_BL_LARGE[1]) || !fits(&uG, MAX_BL_LARGE[1]) {
        fail!();
        return false;
    }
    if uF.bitlen().max(uG.bitlen()) > 52 || f1.bitlen().max(g1.bitlen()) > 52 {
        {
            fail!();
            return false;
        }
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
            {
                fail!();
                return false;
            }
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

/// Depth 0 of the reference (`solve_NTRU_binary_depth0` and the end of `solve_NTRU`):
/// everything modulo the first prime p; (F adj(f) + G adj(g)) and (f adj(f) + g adj(g))
/// taken as signed values modulo p, divided in floating point, rounded to k; F - k f and
/// G - k g must lie in \[-127, 127\] and satisfy f G - g F = q.
#[allow(non_snake_case, clippy::too_many_arguments)]
fn depth0(
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
        {
            fail!();
            return false;
        }
    };
    let tw = Twiddles::new(0, logn, twb);
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
            {
                fail!();
                return false;
            }
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
fn adj_ntt(tw: &Twiddles<'_>, a: &[i8], out: &mut [u32]) {
    let n = out.len();
    out[0] = tw.m.set(i32::from(a[0]));
    for u in 1..n {
        out[n - u] = tw.m.set(-i32::from(a[u]));
    }
    tw.ntt(out);
}
