//! NTTs modulo the 31-bit primes of Falcon's NTRU solver (Falcon specification v1.2, Section
//! 3.8.2, Algorithm 6: NTRUSolve; the reference implementation's `keygen.c`, which works in
//! residue number system modulo the primes p = 1 (mod 2048), p < 2^31, taken downward from
//! 2^31: 2147473409, 2147389441, ...), generic over the reduction strategy, for Falcon key
//! generation.
//!
//! * [`PRIMES`]: the first [`NPRIMES`] = 522 such primes (as many as the reference's `PRIMES`
//!   table), computed **at compile time** (2088 bytes).
//! * [`ModMul`]: one modular multiplication per strategy for a prime chosen at run time:
//!   [`Mont32`] (Montgomery, R = 2^32), [`BarrettP`], [`KRedP`] (generalised K-RED,
//!   p = k 2^m + l: [`KRedPm2`] or [`KRed11x3`], see below) and [`RemP`] (`%`, benchmark-only).
//! * Twiddle tables are computed **at run time**, per prime, degree and strategy, into a
//!   caller buffer ([`twiddles_into`], or the [`Twiddles`] struct): 2n + 1 words, 8196 bytes
//!   for n = 1024 ([`table_bytes`]), as the reference computes its `gm`/`igm` tables with
//!   `modp_mkgm2`. A table is tied to the strategy it was built for (pre-scaled by its
//!   FACTOR^-1).
//! * [`DynModMul`]: the [`ModMul`] of a [`Strategy`] for one prime, chosen at run time (the
//!   one place that maps a strategy to its multiplication); it dispatches once per call to the
//!   generic transforms and to [`twiddles_from_root`] (the tables from a given root, in
//!   caller buffers, as Falcon key generation uses them: `pqlab-falcon`'s `keygen::modp`).
//! * [`SolverMul`]: the transforms and tables of one multiplication chosen **by type**, as
//!   Falcon key generation instantiates them: [`Mont32`] in production (the fastest constant-
//!   time one), every [`ModMul`] and [`KRedSolver`] (the study's generalised K-RED, the form
//!   per prime) for the reduction study. No process-wide switch reaches them.
//! * [`ntt`] / [`intt`] (run-time strategy, from the [`Twiddles`]: the study's NTT rows) and
//!   [`ntt_with`] / [`intt_with`] (a [`ModMul`] type): the negacyclic transforms of size
//!   n = 2^logn, logn <= 10, coefficients in \[0, p), the output in bit-reversed order.
//!
//! # Which K-RED parameters reduce for these primes
//!
//! The Falcon study used one generalised K-RED for all solver primes with m = 24, k = 127,
//! i.e. p = 127 * 2^24 + l. For **these** primes (just below 2^31 = 128 * 2^24), that l is
//! large: from 16766977 (p = 2147473409, |l| / 2^24 = 0.9994) down to 5203969 (the 522nd,
//! 0.31). A step maps |c| to at most k 2^23 + |l| (|c| + 2^23) / 2^24, so it removes at most
//! 1.7 bits, and for the first primes almost nothing: **m = 24, k = 127 does not reduce for
//! the reference's primes** (see the test `study_parameters_do_not_reduce`). [`kred_params`]
//! therefore picks, per prime, the form with the fewest steps among
//!
//! * p = 2^31 - l0 (k = 1, m = 31, l = -l0; 2 steps for p = 2147473409, l0 = 10239, but up to
//!   5 for the later primes, whose l0 reaches 2^23.5), and
//! * p = k 2^v + 1 with v = the 2-adic valuation of p - 1 >= 11 (l = 1: plain K-RED; 3 steps,
//!   2 where v >= 17),
//!
//! preferring the first on a tie (factor 1). Over the 522 primes: 2^31 - l0 for 64 primes (2
//! steps for the first, 3 for 63), k 2^v + 1 for 458 (2 steps for 12, 3 for 446): 509 of the
//! primes need 3 steps. The transforms use two forms with the shift and the step count fixed
//! at compile time (so that the steps unroll and the unit factor disappears):
//! [`KRedPm2`] (2^31 - l0, two steps) where it fits, i.e. for PRIMES\[0\] = 2^31 - 10239,
//! and [`KRed11x3`] (k 2^11 + 1, three steps) for every other prime. Three steps cost three
//! multiplications and a dozen shifts and subtractions against Montgomery's three
//! multiplications, which `pqlab compare --reductions` measures rather than assumes.
//!
//! Constant time: every strategy but [`RemP`] reduces with shifts, multiplications and masks;
//! the step count and the parameters depend on the public prime only.

mod modmul;

pub use modmul::{BarrettP, KRed11x3, KRedP, KRedPm2, ModMul, Mont32, RemP};

use crate::reduce::Strategy;

/// The largest degree (Falcon-1024).
pub const MAX_N: usize = 1024;
/// The largest logn.
pub const MAX_LOGN: u32 = 10;
/// How many primes [`PRIMES`] holds.
pub const NPRIMES: usize = 522;

/// Deterministic Miller-Rabin with the bases 2, 3, 5, 7 (exact below 3.2 * 10^9).
const fn is_prime(n: u64) -> bool {
    let mut d = n - 1;
    let mut s = 0;
    while d.is_multiple_of(2) {
        d /= 2;
        s += 1;
    }
    let bases = [2u64, 3, 5, 7];
    let mut i = 0;
    while i < 4 {
        let mut x = pow_mod_u64(bases[i], d, n);
        let mut ok = x == 1 || x == n - 1;
        let mut r = 1;
        while r < s && !ok {
            x = x * x % n;
            ok = x == n - 1;
            r += 1;
        }
        if !ok {
            return false;
        }
        i += 1;
    }
    true
}

const fn pow_mod_u64(b: u64, mut e: u64, n: u64) -> u64 {
    let mut r = 1;
    let mut b = b % n;
    while e > 0 {
        if e & 1 == 1 {
            r = r * b % n;
        }
        b = b * b % n;
        e >>= 1;
    }
    r
}

/// The primes p = 1 (mod 2048), p < 2^31, in decreasing order from 2147473409 (the order and
/// values of the Falcon reference's `PRIMES` table), computed at compile time.
pub const PRIMES: [u32; NPRIMES] = {
    let mut t = [0u32; NPRIMES];
    let mut c: u64 = (1 << 31) - 2047;
    let mut i = 0;
    while i < NPRIMES {
        if is_prime(c) {
            t[i] = c as u32;
            i += 1;
        }
        c -= 2048;
    }
    t
};

/// The prime of index `i` (panics past [`NPRIMES`]).
pub const fn prime(i: usize) -> u32 {
    PRIMES[i]
}

/// b^e mod p for public values (run time, `%` on public data only).
pub fn pow_mod_p(b: u32, e: u32, p: u32) -> u32 {
    pow_mod_u64(u64::from(b), u64::from(e), u64::from(p)) as u32
}

/// a^-1 mod p (Fermat; public values only).
pub fn inv_mod_p(a: u32, p: u32) -> u32 {
    pow_mod_p(a, p - 2, p)
}

/// The bound on |out| after one generalised K-RED step from |c| <= x.
const fn kred_step_bound(k: i64, m: u32, l: i64, x: i64) -> i64 {
    k * (1 << (m - 1)) + l.abs() * ((x + (1 << (m - 1))) >> m)
}

/// How many steps of K-RED with (k, m, l) bring every product of two values in \[0, p) into
/// (-p, p) (at most 8; 9 means "does not reduce in 8 steps").
pub const fn kred_steps(p: u32, k: i64, m: u32, l: i64) -> u32 {
    let p = p as i64;
    let mut b = (p - 1) * (p - 1);
    let mut s = 0;
    while b >= p && s < 9 {
        b = kred_step_bound(k, m, l, b);
        s += 1;
    }
    s
}

/// The generalised K-RED parameters (k, m, l, steps) for p: the fewer steps of p = 2^31 - l0
/// (k = 1, m = 31) and p = k 2^v + 1 (v the 2-adic valuation of p - 1), the first on a tie
/// (see the module documentation for why not the study's m = 24, k = 127).
pub const fn kred_params(p: u32) -> (i64, u32, i64, u32) {
    let pm = (1i64, 31u32, p as i64 - (1i64 << 31));
    let v = (p - 1).trailing_zeros();
    let kv = (((p - 1) >> v) as i64, v, 1i64);
    let s1 = kred_steps(p, pm.0, pm.1, pm.2);
    let s2 = kred_steps(p, kv.0, kv.1, kv.2);
    if s1 <= s2 {
        (pm.0, pm.1, pm.2, s1)
    } else {
        (kv.0, kv.1, kv.2, s2)
    }
}

/// A primitive 2048th root of unity mod p: g^((p-1)/2048) for the smallest quadratic
/// non-residue g (then its 1024th power is g^((p-1)/2) = -1).
pub fn psi(p: u32) -> u32 {
    let mut g = 2;
    while pow_mod_p(g, (p - 1) / 2, p) != p - 1 {
        g += 1;
    }
    pow_mod_p(g, (p - 1) / 2048, p)
}

fn mulmod(a: u32, b: u32, p: u32) -> u32 {
    ((u64::from(a) * u64::from(b)) % u64::from(p)) as u32
}

/// Computes the tables of strategy `M` for degree n = 2^logn modulo `m.p()` into the caller's
/// buffers: gm\[k\] = w^BitRev_logn(k) and igm\[k\] = w^-BitRev_logn(k) for the primitive 2n-th
/// root w = psi^(1024/n), both pre-scaled by FACTOR^-1; returns n^-1 FACTOR^-1 mod p, the last
/// factor of [`intt_with`]. Run time, on public values only (the prime and its roots).
///
/// # Panics
///
/// If `logn > MAX_LOGN` or a buffer is shorter than 2^logn.
pub fn twiddles_into<M: ModMul>(m: &M, logn: u32, gm: &mut [u32], igm: &mut [u32]) -> u32 {
    twiddles_from_root(m, psi(m.p()), logn, gm, igm)
}

/// [`twiddles_into`] with the primitive 2048th root of unity `root` given (as the Falcon
/// reference's `modp_mkgm2` takes its `g`; for callers that keep the roots of their primes,
/// e.g. at compile time): 2n + 2 multiplications of strategy `M` (each entry is the previous
/// one times the pre-scaled w, w FACTOR^-1, so that every entry stays pre-scaled) and a few
/// exponentiations of public values. The tables of size n/2 are the prefixes of those of size
/// n (w_(n/2) = w_n^2, and BitRev over logn bits of k < n/2 is twice its reversal over logn - 1
/// bits), so one table serves every smaller size ([`scaled_ninv`] gives the last factor).
///
/// # Panics
///
/// If `logn > MAX_LOGN` or a buffer is shorter than 2^logn.
pub fn twiddles_from_root<M: ModMul>(
    m: &M,
    root: u32,
    logn: u32,
    gm: &mut [u32],
    igm: &mut [u32],
) -> u32 {
    assert!(logn <= MAX_LOGN);
    let n = 1usize << logn;
    let p = m.p();
    let finv = m.factor_inv();
    let w = pow_mod_p(root, 1024 >> logn, p);
    // w^-1 = w^(2n - 1).
    let iw = pow_mod_p(w, (2 << logn) - 1, p);
    let (ws, iws) = (mulmod(w, finv, p), mulmod(iw, finv, p));
    let (mut x, mut ix) = (finv, finv);
    for j in 0..n {
        let r = if logn == 0 {
            0
        } else {
            (j as u32).reverse_bits() >> (32 - logn)
        } as usize;
        gm[r] = x;
        igm[r] = ix;
        x = m.mul(x, ws);
        ix = m.mul(ix, iws);
    }
    scaled_ninv(finv, logn, p)
}

/// n^-1 FACTOR^-1 mod p for n = 2^logn (the last factor of [`intt_with`]), from
/// `finv` = FACTOR^-1 ([`ModMul::factor_inv`]): as p = 1 (mod 2048), n^-1 = p - (p - 1) / n.
pub fn scaled_ninv(finv: u32, logn: u32, p: u32) -> u32 {
    mulmod(p - ((p - 1) >> logn), finv, p)
}

#[inline(always)]
fn add_p(a: u32, b: u32, p: u32) -> u32 {
    modmul::sub_p(a + b, p)
}

#[inline(always)]
fn sub_mod(a: u32, b: u32, p: u32) -> u32 {
    let d = a.wrapping_sub(b);
    d.wrapping_add(p & 0u32.wrapping_sub(d >> 31))
}

/// The forward negacyclic NTT (Cooley-Tukey, the reference's `modp_NTT2`) of `a` (n = a.len()
/// = 2^logn coefficients in \[0, p)) with the table `gm` of [`twiddles_into`] for the same `M`.
pub fn ntt_with<M: ModMul>(m: &M, a: &mut [u32], gm: &[u32]) {
    let n = a.len();
    debug_assert!(n.is_power_of_two() && n <= MAX_N && gm.len() >= n);
    let p = m.p();
    let mut t = n;
    let mut k = 1;
    while k < n {
        t >>= 1;
        for (i, block) in a.chunks_exact_mut(2 * t).enumerate() {
            let s = gm[k + i];
            let (lo, hi) = block.split_at_mut(t);
            for (x, y) in lo.iter_mut().zip(hi.iter_mut()) {
                let u = *x;
                let v = m.mul(*y, s);
                *x = add_p(u, v, p);
                *y = sub_mod(u, v, p);
            }
        }
        k <<= 1;
    }
}

/// The inverse of [`ntt_with`] (Gentleman-Sande, the reference's `modp_iNTT2`), including the
/// factor n^-1 (`ninv`, as [`twiddles_into`] returns it).
pub fn intt_with<M: ModMul>(m: &M, a: &mut [u32], igm: &[u32], ninv: u32) {
    let n = a.len();
    debug_assert!(n.is_power_of_two() && n <= MAX_N && igm.len() >= n);
    let p = m.p();
    let mut t = 1;
    let mut k = n;
    while k > 1 {
        let h = k >> 1;
        for (i, block) in a.chunks_exact_mut(2 * t).enumerate() {
            let s = igm[h + i];
            let (lo, hi) = block.split_at_mut(t);
            for (x, y) in lo.iter_mut().zip(hi.iter_mut()) {
                let (u, v) = (*x, *y);
                *x = add_p(u, v, p);
                *y = m.mul(sub_mod(u, v, p), s);
            }
        }
        t <<= 1;
        k = h;
    }
    for x in a.iter_mut() {
        *x = m.mul(*x, ninv);
    }
}

/// The [`ModMul`] of a [`Strategy`] for one prime, chosen at run time: the single place that
/// maps a strategy to its multiplication for the solver primes ([`Strategy::K2Red`] selects the
/// generalised K-RED: [`KRedPm2`] where it fits, else [`KRed11x3`]). Its methods dispatch once
/// per transform (or table) to the generic [`ntt_with`], [`intt_with`] and
/// [`twiddles_from_root`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DynModMul {
    /// [`Strategy::Montgomery`].
    Mont32(Mont32),
    /// [`Strategy::Barrett`].
    Barrett(BarrettP),
    /// [`Strategy::K2Red`] for p = 2^31 - l0 with two steps.
    KRedPm2(KRedPm2),
    /// [`Strategy::K2Red`] for every other prime (p = k 2^11 + 1, three steps).
    KRed11x3(KRed11x3),
    /// [`Strategy::PlainRem`] (benchmark-only).
    Rem(RemP),
}

/// Runs `$body` with `$m` bound to the concrete [`ModMul`] of a [`DynModMul`].
macro_rules! with_mul {
    ($d:expr, $m:ident => $body:expr) => {
        match $d {
            DynModMul::Mont32($m) => $body,
            DynModMul::Barrett($m) => $body,
            DynModMul::KRedPm2($m) => $body,
            DynModMul::KRed11x3($m) => $body,
            DynModMul::Rem($m) => $body,
        }
    };
}

impl DynModMul {
    /// The multiplication of strategy `s` modulo p (a prime p = 1 mod 2048 below 2^31).
    pub fn new(s: Strategy, p: u32) -> DynModMul {
        match s {
            Strategy::Montgomery => DynModMul::Mont32(Mont32::new(p)),
            Strategy::Barrett => DynModMul::Barrett(BarrettP::new(p)),
            Strategy::K2Red if KRedPm2::fits(p) => DynModMul::KRedPm2(KRedPm2::new(p)),
            Strategy::K2Red => DynModMul::KRed11x3(KRed11x3::new(p)),
            Strategy::PlainRem => DynModMul::Rem(RemP::new(p)),
        }
    }

    /// The prime.
    pub fn p(&self) -> u32 {
        with_mul!(self, m => m.p())
    }

    /// FACTOR^-1 mod p ([`ModMul::factor_inv`]).
    pub fn factor_inv(&self) -> u32 {
        with_mul!(self, m => m.factor_inv())
    }

    /// [`twiddles_from_root`] for this multiplication.
    pub fn twiddles_from_root(&self, root: u32, logn: u32, gm: &mut [u32], igm: &mut [u32]) -> u32 {
        with_mul!(self, m => twiddles_from_root(m, root, logn, gm, igm))
    }

    /// [`ntt_with`] for this multiplication (n = a.len()).
    pub fn ntt(&self, a: &mut [u32], gm: &[u32]) {
        with_mul!(self, m => ntt_with(m, a, gm))
    }

    /// [`intt_with`] for this multiplication (n = a.len()).
    pub fn intt(&self, a: &mut [u32], igm: &[u32], ninv: u32) {
        with_mul!(self, m => intt_with(m, a, igm, ninv))
    }
}

/// The negacyclic transforms modulo one solver prime under one reduction chosen by type
/// (Falcon key generation is generic over it: production instantiates [`Mont32`], the
/// reduction study the others). Blanket-implemented for every [`ModMul`] (the generic
/// [`twiddles_from_root`], [`ntt_with`], [`intt_with`]) and for [`KRedSolver`].
pub trait SolverMul: Copy {
    /// [`ModMul::HAS_SIMD_TWINS`].
    const HAS_SIMD_TWINS: bool = false;
    /// The constants for prime p (a prime p = 1 mod 2048 below 2^31).
    fn for_prime(p: u32) -> Self;
    /// FACTOR^-1 mod p ([`ModMul::factor_inv`]), the pre-scaling of the tables.
    fn scale_inv(&self) -> u32;
    /// [`twiddles_from_root`].
    fn tables_from_root(&self, root: u32, logn: u32, gm: &mut [u32], igm: &mut [u32]) -> u32;
    /// [`ntt_with`] (n = a.len()).
    fn ntt(&self, a: &mut [u32], gm: &[u32]);
    /// [`intt_with`] (n = a.len()).
    fn intt(&self, a: &mut [u32], igm: &[u32], ninv: u32);
}

impl<M: ModMul> SolverMul for M {
    const HAS_SIMD_TWINS: bool = M::HAS_SIMD_TWINS;
    fn for_prime(p: u32) -> Self {
        M::new(p)
    }
    fn scale_inv(&self) -> u32 {
        ModMul::factor_inv(self)
    }
    fn tables_from_root(&self, root: u32, logn: u32, gm: &mut [u32], igm: &mut [u32]) -> u32 {
        twiddles_from_root(self, root, logn, gm, igm)
    }
    fn ntt(&self, a: &mut [u32], gm: &[u32]) {
        ntt_with(self, a, gm);
    }
    fn intt(&self, a: &mut [u32], igm: &[u32], ninv: u32) {
        intt_with(self, a, igm, ninv);
    }
}

/// The study's generalised K-RED for the solver primes ([`Strategy::K2Red`]): [`KRedPm2`]
/// where it fits, else [`KRed11x3`], chosen per prime (once per transform, not per product).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KRedSolver {
    /// p = 2^31 - l0, two steps.
    Pm2(KRedPm2),
    /// p = k 2^11 + 1, three steps.
    X3(KRed11x3),
}

/// Runs `$body` with `$m` bound to the concrete [`ModMul`] of a [`KRedSolver`].
macro_rules! with_kred {
    ($d:expr, $m:ident => $body:expr) => {
        match $d {
            KRedSolver::Pm2($m) => $body,
            KRedSolver::X3($m) => $body,
        }
    };
}

impl SolverMul for KRedSolver {
    fn for_prime(p: u32) -> Self {
        if KRedPm2::fits(p) {
            KRedSolver::Pm2(KRedPm2::new(p))
        } else {
            KRedSolver::X3(KRed11x3::new(p))
        }
    }
    fn scale_inv(&self) -> u32 {
        with_kred!(self, m => ModMul::factor_inv(m))
    }
    fn tables_from_root(&self, root: u32, logn: u32, gm: &mut [u32], igm: &mut [u32]) -> u32 {
        with_kred!(self, m => twiddles_from_root(m, root, logn, gm, igm))
    }
    fn ntt(&self, a: &mut [u32], gm: &[u32]) {
        with_kred!(self, m => ntt_with(m, a, gm));
    }
    fn intt(&self, a: &mut [u32], igm: &[u32], ninv: u32) {
        with_kred!(self, m => intt_with(m, a, igm, ninv));
    }
}

/// The twiddle tables of one prime, degree and strategy (8 KiB: a caller-owned buffer; keep it
/// while working modulo that prime).
#[derive(Clone, Debug)]
pub struct Twiddles {
    /// The strategy the tables are pre-scaled for.
    pub strategy: Strategy,
    /// Index into [`PRIMES`].
    pub prime_index: usize,
    /// log2 of the degree.
    pub logn: u32,
    /// Forward twiddles (first n entries used).
    pub gm: [u32; MAX_N],
    /// Inverse twiddles (first n entries used).
    pub igm: [u32; MAX_N],
    /// n^-1, pre-scaled.
    pub ninv: u32,
}

impl Twiddles {
    /// The tables for `PRIMES[prime_index]` and n = 2^logn under strategy `s`.
    ///
    /// # Panics
    ///
    /// If `prime_index >= NPRIMES` or `logn > MAX_LOGN` (both are the caller's constants, never
    /// data).
    pub fn new(s: Strategy, prime_index: usize, logn: u32) -> Twiddles {
        let mut t = Twiddles {
            strategy: s,
            prime_index,
            logn,
            gm: [0; MAX_N],
            igm: [0; MAX_N],
            ninv: 0,
        };
        let p = PRIMES[prime_index];
        let n = 1 << logn;
        t.ninv =
            DynModMul::new(s, p).twiddles_from_root(psi(p), logn, &mut t.gm[..n], &mut t.igm[..n]);
        t
    }
}

/// The forward NTT of `a` (2^tw.logn coefficients in \[0, p)) modulo `PRIMES[tw.prime_index]`,
/// under the strategy the tables were built for (see [`DynModMul`]).
pub fn ntt(a: &mut [u32], tw: &Twiddles) {
    let n = 1 << tw.logn;
    DynModMul::new(tw.strategy, PRIMES[tw.prime_index]).ntt(&mut a[..n], &tw.gm);
}

/// The inverse of [`ntt`], including n^-1.
pub fn intt(a: &mut [u32], tw: &Twiddles) {
    let n = 1 << tw.logn;
    DynModMul::new(tw.strategy, PRIMES[tw.prime_index]).intt(&mut a[..n], &tw.igm, tw.ninv);
}

/// Bytes of the run-time tables of one prime and degree 2^logn under strategy `s`: gm and igm
/// (n words each), n^-1, and the strategy's constants (p0i; v; k, m, l, steps). The prime
/// list itself ([`PRIMES`], compile time) is another 2088 bytes shared by every strategy.
pub fn table_bytes(s: Strategy, logn: u32) -> usize {
    let words = (2 << logn) + 1;
    let consts = match s {
        Strategy::Montgomery => 4,
        Strategy::Barrett => 8,
        Strategy::K2Red => 8 + 8,
        Strategy::PlainRem => 0,
    };
    4 * words + consts
}

#[cfg(test)]
mod tests;
