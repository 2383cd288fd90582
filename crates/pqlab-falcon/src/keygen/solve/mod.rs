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
    /// The two polynomials (F, G) of n coefficients of w words held at the start of `buf`,
    /// F first.
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

/// Falcon spec, Algorithm 6: NTRUSolve.
///
/// For logn in {9, 10}: writes F and G (coefficients in \[-127, 127\], the reference's
/// limit) and returns true, or returns false if (f, g) must be rejected.
#[allow(non_snake_case)]
pub(crate) fn solve_ntru<M: SolverMul>(
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
        fail!(false);
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
            fail!(false);
        };
        let Some(nf) = field_norm::<M>(fp, lg, &mut fg_arena, scratch) else {
            fail!(false);
        };
        let Some(ng) = field_norm::<M>(gp, lg, &mut fg_arena, scratch) else {
            fail!(false);
        };
        if !fits(&nf, MAX_BL_SMALL[d + 1]) || !fits(&ng, MAX_BL_SMALL[d + 1]) {
            fail!(false);
        }
        levels_f[d + 1] = Some(nf);
        levels_g[d + 1] = Some(ng);
    }
    // Deepest level: the extended GCD of the resultants; (F, G) then live in pa with
    // (n, w) = cur.
    let (Some(fl), Some(gl)) = (&levels_f[logn as usize], &levels_g[logn as usize]) else {
        fail!(false);
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
            fail!(false);
        };
        let (cn, cw) = cur;
        let (Fc, Gc) = Poly::pair(pa, cn, cw);
        let Some((mut nF, mut nG)) =
            lift::<M>(&Fc, &Gc, fp, gp, lg, 31 * MAX_BL_LARGE[d], pb, scratch)
        else {
            fail!(false);
        };
        if !fits(&nF, MAX_BL_LARGE[d]) || !fits(&nG, MAX_BL_LARGE[d]) {
            fail!(false);
        }
        if !reduce_as_reference::<M>(&mut nF, &mut nG, fp, gp, lg, d, scratch) {
            fail!(false);
        }
        let nn = nF.n;
        let w2 = words_for(nF.bitlen().max(nG.bitlen()));
        if 2 * nn * w2 > pa.len() {
            fail!(false);
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
        fail!(false);
    };
    let (cn, cw) = cur;
    let (Fc, Gc) = Poly::pair(pa, cn, cw);
    let mut F1 = [0i32; 512];
    let mut G1 = [0i32; 512];
    let hn = n >> 1;
    if !depth1::<M>(
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
        fail!(false);
    }
    // Depth 0, as the reference: the round-off modulo the first prime.
    depth0::<M>(&F1[..hn], &G1[..hn], f, g, logn, scratch, F, G)
}
