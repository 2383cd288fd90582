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
//!
//! Files, along the specification:
//!
//! * this file: [`solve_ntru`] (Algorithm 6: NTRUSolve, the recursion unrolled into a loop
//!   down and a loop up) and the solver's buffers;
//! * [`norm`]: the way down (the field norms N(f), N(g) of Algorithm 6 line 5) and the
//!   bottom (the extended GCD of Algorithm 6 lines 1-3);
//! * [`lift`]: the way up, (F, G) = (F'(x^2) g(-x), G'(x^2) f(-x)) (Algorithm 6 line 7);
//! * [`reduce`]: Babai's reduction at the intermediate depths (Algorithm 7: Reduce), as the
//!   reference schedules it;
//! * [`shallow`]: depths 1 and 0, lift and reduction as the reference computes them there.

/// Rejects: returns `$ret` (`false` or `None`), reporting the line in tests.
macro_rules! fail {
    ($ret:expr) => {{
        #[cfg(test)]
        std::eprintln!("ntrusolve reject at line {}", line!());
        return $ret;
    }};
}

mod lift;
mod norm;
mod reduce;
mod shallow;

use super::zint;
use crate::fpr::Fpr;
use lift::lift;
use norm::{deepest, field_norm};
use pqlab_arith::falcon_solver::SolverMul;
use reduce::reduce_as_reference;
use shallow::{depth0, depth1};

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

/// Words of the workspace per coefficient of f: the solver's integers and, overlaid on them
/// step by step, its floating-point values ([`fpr_area`]), as the reference overlays its `fpr`
/// arrays on its word buffer. The schedule of [`solve_ntru`] fits in fewer (the steps that find
/// room for two sets of residues take it, else they go one set at a time with the same
/// results): 7.5 n gave every key of 100 seeds per degree; with 7 n Falcon-512 rejected
/// candidate after candidate. The test `workspace_margin` runs with n / 2 fewer and must find
/// the same keys (the solver rejects an (f, g) whose values outgrow its area, which would
/// change the key).
pub(crate) const WORDS_PER_N: usize = 8;

/// The key generation's workspace for degree N: [`WORDS_PER_N`] N words, 8-byte aligned so
/// that any even-offset, even-length part of it can hold floating-point values
/// ([`fpr_area`]); sized at compile time by N, zeroized by the caller after use.
#[repr(C, align(8))]
pub(crate) struct Workspace<const N: usize> {
    words: [[u32; N]; WORDS_PER_N],
}

impl<const N: usize> Workspace<N> {
    pub(crate) fn new() -> Self {
        Workspace {
            words: [[0; N]; WORDS_PER_N],
        }
    }

    /// All the words (the first is 8-byte aligned).
    pub(crate) fn words(&mut self) -> &mut [u32] {
        self.words.as_flattened_mut()
    }

    pub(crate) fn clear(&mut self) {
        use zeroize::Zeroize;
        self.words.as_flattened_mut().zeroize();
    }
}

/// The words `w` as floating-point values (two words each): None unless `w` starts on an
/// 8-byte boundary and has an even length, which the callers ensure (even offsets into a
/// [`Workspace`]).
pub(crate) fn fpr_area(w: &mut [u32]) -> Option<&mut [Fpr]> {
    bytemuck::try_cast_slice_mut(w).ok()
}

/// A polynomial with big-integer coefficients: n coefficients of w words each.
struct Poly<'a> {
    d: &'a mut [u32],
    n: usize,
    w: usize,
}

impl<'a> Poly<'a> {
    /// The two polynomials (F, G) (or (f, g)) of n coefficients of w words held at the start
    /// of `buf`, the first one first.
    fn pair(buf: &'a mut [u32], n: usize, w: usize) -> (Self, Self) {
        let (f, g) = buf[..2 * n * w].split_at_mut(n * w);
        (Poly { d: f, n, w }, Poly { d: g, n, w })
    }

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
            fail!(None);
        }
        let buf = core::mem::take(&mut self.buf);
        let (a, b) = buf.split_at_mut(n);
        self.buf = b;
        Some(a)
    }
}

/// The largest degree whose field norms and lifts are computed schoolbook on the big
/// coefficients rather than in RNS form (the deep levels: few coefficients of many words,
/// where the RNS form's residues and CRT, quadratic in the words per coefficient, cost more).
const SCHOOLBOOK_MAX_N: usize = 16;

/// Words for a signed integer of `bits` magnitude bits.
fn words_for(bits: u32) -> usize {
    bits as usize / 32 + 1
}

/// Where a pair of polynomials lies in the workspace: from word `off`, the first then the
/// second, n coefficients of w words each.
#[derive(Clone, Copy, Default)]
struct Place {
    off: usize,
    n: usize,
    w: usize,
}

impl Place {
    /// The first word after the pair.
    fn end(&self) -> usize {
        self.off + 2 * self.n * self.w
    }
}

/// Re-packs the pair at `src` (2 n coefficients of w words) at word `dst` <= src.off on the
/// fewest words that hold every coefficient (the values unchanged); returns the new place.
fn compact(buf: &mut [u32], src: Place, dst: usize) -> Place {
    let mut top = 0;
    for i in 0..2 * src.n {
        let o = src.off + i * src.w;
        top = top.max(zint::bitlen(&buf[o..o + src.w]));
    }
    let w2 = words_for(top).min(src.w);
    // Every coefficient moves down (dst + i w2 <= src.off + i w): forward order is safe, and
    // the dropped words are sign words.
    for i in 0..2 * src.n {
        let o = src.off + i * src.w;
        buf.copy_within(o..o + w2, dst + i * w2);
    }
    Place {
        off: dst,
        n: src.n,
        w: w2,
    }
}

/// The pair at `p`, read-write, and the words from `from` on (`p` lies below `from`).
fn pair_and_rest(buf: &mut [u32], p: Place, from: usize) -> (Poly<'_>, Poly<'_>, &mut [u32]) {
    let (lo, rest) = buf.split_at_mut(from);
    let (a, b) = Poly::pair(&mut lo[p.off..], p.n, p.w);
    (a, b, rest)
}

/// Falcon spec, Algorithm 6: NTRUSolve, line 5 (f' = N(f), g' = N(g)), one level down.
///
/// Writes N(f), N(g) of the pair at `src` (depth d, degree 2^lg) at word `at` (>= src.end())
/// on the words their values need (the next levels re-pack them, [`compact`]); the words after
/// them are the scratch. None if they outgrow the reference's buffers or the workspace.
fn norm_step<M: SolverMul>(
    ws: &mut [u32],
    src: Place,
    at: usize,
    lg: u32,
    d: usize,
) -> Option<Place> {
    let (fp_, gp_, free) = pair_and_rest(ws, src, at);
    let hn = src.n >> 1;
    let w = words_for(2 * fp_.bitlen().max(gp_.bitlen()) + lg + 1);
    if w > MAX_WORDS || 2 * hn * w > free.len() {
        fail!(None);
    }
    let (out, scratch) = free.split_at_mut(2 * hn * w);
    let (of, og) = out.split_at_mut(hn * w);
    if !field_norm::<M>(&fp_, lg, of, w, scratch) || !field_norm::<M>(&gp_, lg, og, w, scratch) {
        fail!(None);
    }
    let (nf, ng) = Poly::pair(out, hn, w);
    if !fits(&nf, MAX_BL_SMALL[d + 1]) || !fits(&ng, MAX_BL_SMALL[d + 1]) {
        fail!(None);
    }
    Some(Place { off: at, n: hn, w })
}

/// (f_1, g_1) = (N(f), N(g)) from the key's (f, g) of degree 2^logn, re-packed at word `at`;
/// the scratch (f, then g, as one-word integers, then the field norm's) lies above it.
/// Computed going down and again at depth 1 going up (as the reference recomputes its
/// (f_d, g_d) rather than keeping every level).
fn norms_of_fg<M: SolverMul>(
    ws: &mut [u32],
    at: usize,
    f: &[i8],
    g: &[i8],
    logn: u32,
) -> Option<Place> {
    let n = 1usize << logn;
    let hn = n >> 1;
    // The words of (f, g) as [`norm_step`] sizes them.
    let bits = f
        .iter()
        .chain(g)
        .map(|&x| zint::bitlen(&[i32::from(x) as u32]))
        .max()
        .unwrap_or(0);
    let w = words_for(2 * bits + logn + 1);
    let free = ws.get_mut(at..)?;
    if w > MAX_WORDS || 2 * hn * w + n > free.len() {
        fail!(None);
    }
    let (out, rest) = free.split_at_mut(2 * hn * w);
    let (src, scratch) = rest.split_at_mut(n);
    let (of, og) = out.split_at_mut(hn * w);
    for (x, dst) in [(f, of), (g, og)] {
        for (d, &c) in src.iter_mut().zip(x) {
            *d = i32::from(c) as u32;
        }
        let p = Poly {
            d: &mut *src,
            n,
            w: 1,
        };
        if !field_norm::<M>(&p, logn, dst, w, scratch) {
            fail!(None);
        }
    }
    let (nf, ng) = Poly::pair(out, hn, w);
    if !fits(&nf, MAX_BL_SMALL[1]) || !fits(&ng, MAX_BL_SMALL[1]) {
        fail!(None);
    }
    Some(compact(ws, Place { off: at, n: hn, w }, at))
}

/// Falcon spec, Algorithm 6: NTRUSolve.
///
/// For logn in {9, 10}: writes F and G (coefficients in \[-127, 127\], the reference's
/// limit) and returns true, or returns false if (f, g) must be rejected.
///
/// Memory: one area `ws` of integer words, used as a stack. Going down, the field norms
/// (f_d, g_d) of depths 2 to logn are stored one after the other from word 0, each re-packed
/// on the fewest words that hold it ([`compact`]); (f_1, g_1) is computed at word 0 and
/// overwritten by (f_2, g_2) (as the reference, which recomputes its (f_d, g_d) instead of
/// keeping every level; here only depth 1 is recomputed, [`norms_of_fg`]). Going up, at depth
/// d >= 2 the area holds (f_2, g_2) to (f_d, g_d), then the reduced (F', G') of depth d + 1,
/// then the unreduced (F, G) of depth d (the lift's result), which then moves down over
/// (F', G'), then the scratch of the round-off (the lift and the products k f handle F and G
/// together where there is room, else one after the other); the reduced (F, G) is
/// re-packed where (f_d, g_d) was, which the next step no longer needs; the floating-point
/// values that the round-off keeps through its passes (5 n_d / 2 at degree n_d) take the top
/// of the area, the others the end of the scratch ([`reduce_as_reference`]).
/// Depth 1 recomputes (f_1, g_1) above the (F', G') of depth 2, lifts, moves its integers
/// down to word 0 and puts its floating-point values above them ([`depth1`]); it leaves its
/// (F, G) at words 0 and n for depth 0, which uses 7 n words, floating-point values included.
#[allow(non_snake_case)]
pub(crate) fn solve_ntru<M: SolverMul>(
    logn: u32,
    f: &[i8],
    g: &[i8],
    F: &mut [i8],
    G: &mut [i8],
    ws: &mut [u32],
) -> bool {
    // Going down: field norms, stored from word 0 on; (f_1, g_1) replaced by (f_2, g_2) (it
    // is recomputed at depth 1).
    let mut lev = [Place::default(); 11];
    let Some(first) = norms_of_fg::<M>(ws, 0, f, g, logn) else {
        fail!(false);
    };
    lev[1] = first;
    let mut top = lev[1].end();
    for d in 1..logn as usize {
        let Some(out) = norm_step::<M>(ws, lev[d], top, logn - d as u32, d) else {
            fail!(false);
        };
        let dst = if d == 1 { lev[1].off } else { top };
        lev[d + 1] = compact(ws, out, dst);
        top = lev[d + 1].end();
    }
    // Deepest level: the extended GCD of the resultants; (F, G) written above it, then moved
    // where the deepest norms were.
    let deep = lev[logn as usize];
    let mut cur = {
        let (fl, gl, rest) = pair_and_rest(ws, deep, deep.end());
        match deepest(&fl, &gl, rest) {
            Some((dF, dG))
                if fits(&dF, MAX_BL_SMALL[logn as usize])
                    && fits(&dG, MAX_BL_SMALL[logn as usize]) =>
            {
                Place {
                    off: deep.end(),
                    n: 1,
                    w: dF.w,
                }
            }
            _ => return false,
        }
    };
    ws.copy_within(cur.off..cur.end(), deep.off);
    cur.off = deep.off;
    // Going up, depths logn - 1 to 2: exact lift and round-off, then re-packing where
    // (f_d, g_d) was.
    for d in (2..logn as usize).rev() {
        let lg = logn - d as u32;
        let here = lev[d];
        debug_assert!(here.end() == cur.off);
        // The lift, above (F', G').
        let lifted = {
            let (lo, rest) = ws.split_at_mut(cur.end());
            let (lf, lc) = lo.split_at_mut(cur.off);
            let (fp_, gp_) = Poly::pair(&mut lf[here.off..], here.n, here.w);
            let (Fc, Gc) = Poly::pair(lc, cur.n, cur.w);
            let Some((nF, nG, _)) = lift::<M>(&Fc, &Gc, &fp_, &gp_, lg, 31 * MAX_BL_LARGE[d], rest)
            else {
                fail!(false);
            };
            if !fits(&nF, MAX_BL_LARGE[d]) || !fits(&nG, MAX_BL_LARGE[d]) {
                fail!(false);
            }
            Place {
                off: cur.end(),
                n: nF.n,
                w: nF.w,
            }
        };
        // (F', G') is no longer needed: the unreduced (F, G) moves down over it.
        ws.copy_within(lifted.off..lifted.end(), cur.off);
        let lifted = Place {
            off: cur.off,
            ..lifted
        };
        // The round-off, its lasting floating-point values at the top of the area (5 n_d
        // words: even, so that the scratch below ends 8-byte aligned).
        let Some(int_words) = ws.len().checked_sub(5 * here.n) else {
            fail!(false);
        };
        if lifted.end() > int_words {
            fail!(false);
        }
        {
            let (iws, fws) = ws.split_at_mut(int_words);
            let Some(fp) = fpr_area(fws) else {
                fail!(false);
            };
            let (lo, scratch) = iws.split_at_mut(lifted.end());
            let (lf, lu) = lo.split_at_mut(lifted.off);
            let (fp_, gp_) = Poly::pair(&mut lf[here.off..], here.n, here.w);
            let (mut nF, mut nG) = Poly::pair(lu, lifted.n, lifted.w);
            if !reduce_as_reference::<M>(&mut nF, &mut nG, &fp_, &gp_, lg, d, scratch, fp) {
                fail!(false);
            }
        }
        cur = compact(ws, lifted, here.off);
    }
    // Depth 1, as the reference: one floating-point round-off; (F, G) left at words 0 and n.
    // (f_1, g_1) recomputed from (f, g) above (F', G').
    let Some(here) = norms_of_fg::<M>(ws, cur.end(), f, g, logn) else {
        fail!(false);
    };
    if !depth1::<M>(ws, cur, here, logn - 1) {
        fail!(false);
    }
    // Depth 0, as the reference: the round-off modulo the first prime.
    depth0::<M>(f, g, logn, ws, F, G)
}
