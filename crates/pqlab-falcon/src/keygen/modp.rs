//! Arithmetic modulo the small primes of NTRUSolve (Falcon spec v1.2, Section 3.8.2, and the
//! round-3 reference `keygen.c`, which computes with big integers in residue-number-system
//! (RNS) form): the primes p = 1 (mod 2048) below 2^31, taken downward from 2^31 (the first
//! [`NUM_PRIMES`] of [`pqlab_arith::falcon_solver::PRIMES`]), their primitive 2048-th roots of
//! unity and the CRT constants, all computed at compile time; Montgomery multiplication with
//! R = 2^32 ([`Modp`], for the pointwise work of the callers); the negacyclic NTT modulo p.
//!
//! The NTTs ([`Twiddles`]) run under a reduction chosen by type, `M: SolverMul`: production
//! key generation instantiates [`Mont32`] (Montgomery, R = 2^32, the reference's
//! `modp_montymul`; the fastest constant-time one), the reduction study (feature
//! `reduction-study`, `crate::study`) Barrett, the generalised K-RED or `%` (benchmark-only),
//! through the generic transforms of [`pqlab_arith::falcon_solver`] (the reference's
//! `modp_NTT2` / `modp_iNTT2` butterflies). Their tables are pre-scaled by the reduction's
//! factor^-1 (for Montgomery: the Montgomery form), so that inputs and outputs are the plain
//! residues in \[0, p) under every reduction, in the order below, and the callers' [`Modp`]
//! arithmetic applies unchanged.
//!
//! NTT order: `ntt` leaves f(w_i) at index i with w_i = psi^(2 rev(i) + 1) (rev: bit reversal
//! over logn bits, psi a primitive 2n-th root). Then w_(2v+1) = -w_(2v), and w_(2v)^2 is the
//! point of index v of the NTT of half the size, which is what the field norm
//! N(f)(x^2) = f(x) f(-x) and the lifting F(x) = F'(x^2) g(-x) use. The transforms of
//! `falcon_solver` keep this order (Cooley-Tukey and Gentleman-Sande over the same bit-reversed
//! tables, as the reference's `modp_NTT2` / `modp_iNTT2`); the tests `ntt_product_and_pairing`
//! and `strategies_agree` check it, and that a table of size n serves size n/2, under every
//! strategy.

use pqlab_arith::falcon_solver::{self, Mont32, SolverMul};
use pqlab_backend::Backend;

/// How many primes the table holds: enough for the largest value NTRUSolve builds for
/// n = 1024 (the unreduced F at depth 9, about 9,600 bits).
pub(crate) const NUM_PRIMES: usize = 340;

/// One NTRUSolve prime.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SmallPrime {
    /// The prime p, 2^30 < p < 2^31, p = 1 (mod 2048).
    pub(crate) p: u32,
    /// A primitive 2048-th root of unity modulo p.
    pub(crate) g: u32,
    /// g, 1 / g and 1 in Montgomery form (times 2^32 mod p), for the vector tables
    /// (`super::ntt_x86::tables`: no division or exponentiation per table); only where those
    /// are built (no table bytes on other targets).
    #[cfg(target_arch = "x86_64")]
    pub(crate) roots_mont: [u32; 3],
    /// 1 / (product of the previous primes of the table) mod p (Garner's CRT constant).
    pub(crate) s: u32,
    /// The Montgomery constants of p, computed once.
    pub(crate) m: Modp,
}

const fn mul_mod(a: u64, b: u64, p: u64) -> u64 {
    (a * b) % p
}

const fn pow_mod(mut a: u64, mut e: u64, p: u64) -> u64 {
    let mut r = 1;
    a %= p;
    while e > 0 {
        if e & 1 == 1 {
            r = mul_mod(r, a, p);
        }
        a = mul_mod(a, a, p);
        e >>= 1;
    }
    r
}

const fn make_primes() -> [SmallPrime; NUM_PRIMES] {
    let mut t = [SmallPrime {
        p: 0,
        g: 0,
        #[cfg(target_arch = "x86_64")]
        roots_mont: [0; 3],
        s: 0,
        m: Modp {
            p: 0,
            p0i: 0,
            r2: 0,
        },
    }; NUM_PRIMES];
    let mut i = 0;
    while i < NUM_PRIMES {
        let p = falcon_solver::PRIMES[i] as u64;
        // A primitive 2048-th root: h^((p-1)/2048) for the first h whose 1024-th power is -1.
        let mut h = 2;
        let g = loop {
            let g = pow_mod(h, (p - 1) / 2048, p);
            if pow_mod(g, 1024, p) == p - 1 {
                break g;
            }
            h += 1;
        };
        // s = 1 / (p_0 ... p_(i-1)) mod p.
        let mut prod = 1;
        let mut j = 0;
        while j < i {
            prod = mul_mod(prod, t[j].p as u64 % p, p);
            j += 1;
        }
        let s = pow_mod(prod, p - 2, p);
        #[cfg(target_arch = "x86_64")]
        let ig = pow_mod(g, p - 2, p);
        t[i] = SmallPrime {
            p: p as u32,
            g: g as u32,
            #[cfg(target_arch = "x86_64")]
            roots_mont: [
                ((g << 32) % p) as u32,
                ((ig << 32) % p) as u32,
                ((1 << 32) % p) as u32,
            ],
            s: s as u32,
            m: Modp::new(p as u32),
        };
        i += 1;
    }
    t
}

/// The primes, in decreasing order (the first is 2147473409, as in the reference).
pub(crate) static PRIMES: [SmallPrime; NUM_PRIMES] = make_primes();

/// The number of primes whose product exceeds 2^(32 words + 1), so that a signed integer of
/// `words` 32-bit words is determined by its residues (every prime exceeds 2^30.99).
pub(crate) const fn primes_for_words(words: usize) -> usize {
    (3200 * words + 200).div_ceil(3099)
}

/// 1/x mod 2^32 for odd x (Newton's iteration: each step doubles the correct low bits, from
/// the 3 that x itself gets right).
pub(crate) const fn inv_mod_2_32(x: u32) -> u32 {
    let mut y = x;
    let mut i = 0;
    while i < 4 {
        y = y.wrapping_mul(2u32.wrapping_sub(x.wrapping_mul(y)));
        i += 1;
    }
    y
}

/// Arithmetic modulo one prime p (2^30 < p < 2^31) in Montgomery form with R = 2^32.
/// Values are in \[0, p). Every operation is branch-free.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Modp {
    pub(crate) p: u32,
    /// -1/p mod 2^32.
    p0i: u32,
    /// R^2 mod p = 2^64 mod p.
    r2: u32,
}

impl Modp {
    pub(crate) const fn new(p: u32) -> Self {
        let y = inv_mod_2_32(p);
        // (`From` is not const: widening casts.)
        let r = ((1u64 << 32) % (p as u64)) as u32;
        let r2 = ((r as u64 * r as u64) % (p as u64)) as u32;
        Modp {
            p,
            p0i: y.wrapping_neg(),
            r2,
        }
    }

    /// a + b mod p.
    #[inline(always)]
    pub(crate) fn add(&self, a: u32, b: u32) -> u32 {
        let d = a.wrapping_add(b).wrapping_sub(self.p);
        d.wrapping_add(self.p & 0u32.wrapping_sub(d >> 31))
    }

    /// a - b mod p.
    #[inline(always)]
    pub(crate) fn sub(&self, a: u32, b: u32) -> u32 {
        let d = a.wrapping_sub(b);
        d.wrapping_add(self.p & 0u32.wrapping_sub(d >> 31))
    }

    /// Montgomery product a b / 2^32 mod p.
    #[inline(always)]
    pub(crate) fn mmul(&self, a: u32, b: u32) -> u32 {
        let z = u64::from(a) * u64::from(b);
        let m = (z as u32).wrapping_mul(self.p0i);
        // (z + m p) / 2^32 < 2p.
        let d = ((z + u64::from(m) * u64::from(self.p)) >> 32) as u32;
        self.sub(d, self.p)
    }

    /// [`Self::mmul`] without its last subtraction: a b / 2^32 mod p in \[0, 2p), for any
    /// 32-bit a and b < p.
    #[inline(always)]
    pub(crate) fn mmul_lazy(&self, a: u32, b: u32) -> u32 {
        let z = u64::from(a) * u64::from(b);
        let m = (z as u32).wrapping_mul(self.p0i);
        // z + m p < 2^33 p < 2^64.
        ((z + u64::from(m) * u64::from(self.p)) >> 32) as u32
    }

    /// a b mod p (a in normal form, b in Montgomery form gives a b in normal form).
    #[inline(always)]
    pub(crate) fn to_mont(self, a: u32) -> u32 {
        self.mmul(a, self.r2)
    }

    /// The product a b mod p of two values in normal form.
    #[inline(always)]
    pub(crate) fn mul(&self, a: u32, b: u32) -> u32 {
        self.mmul(self.to_mont(a), b)
    }

    /// x mod p for -2^31 <= x < 2^31 (then |x| < 2p).
    #[inline(always)]
    pub(crate) fn set(&self, x: i32) -> u32 {
        // x + 2p is in (0, 2^33); reduce in two branch-free steps.
        let w = i64::from(x) + 2 * i64::from(self.p);
        let w = w - (i64::from(self.p) & -i64::from(w >= i64::from(self.p) << 1)) * 2;
        let w = w as u32;
        self.sub(w, self.p)
    }

    /// A 32-bit word w mod p (w < 2^32 < 3p).
    #[cfg(test)]
    pub(crate) fn reduce_word(&self, w: u32) -> u32 {
        let w = u64::from(w);
        let p = u64::from(self.p);
        let w = w - (p & 0u64.wrapping_sub(u64::from(w >= p)));
        let w = w - (p & 0u64.wrapping_sub(u64::from(w >= p)));
        w as u32
    }

    /// The representative of x in (-p/2, p/2].
    #[inline(always)]
    pub(crate) fn norm(&self, x: u32) -> i32 {
        let half = (self.p + 1) >> 1;
        let m = (x.wrapping_sub(half) >> 31).wrapping_sub(1);
        x.wrapping_sub(self.p & m) as i32
    }

    /// 2^32 mod p in Montgomery form (multiplying by it shifts a value up by 32 bits).
    #[inline(always)]
    pub(crate) fn r2(&self) -> u32 {
        self.r2
    }

    /// a^e mod p, a in normal form (square and multiply over the public exponent).
    #[cfg(test)]
    pub(crate) fn pow(&self, a: u32, mut e: u32) -> u32 {
        let mut r = 1;
        let mut b = a;
        while e > 0 {
            if e & 1 == 1 {
                r = self.mul(r, b);
            }
            b = self.mul(b, b);
            e >>= 1;
        }
        r
    }
}

/// The twiddle factors of the NTT of size 2^logn modulo one prime, for the reduction `M`:
/// `zeta[k] = psi^rev(k)` and `izeta[k] = psi^-rev(k)` for 0 <= k < n, pre-scaled
/// by the strategy's factor^-1 (Montgomery: psi^rev(k) 2^32 mod p, the Montgomery form), in
/// the caller's buffer.
pub(crate) struct Twiddles<'a, M: SolverMul = Mont32> {
    /// Arithmetic modulo the prime for the callers (normal-form values, Montgomery inside).
    pub(crate) m: Modp,
    /// The NTT's multiplication (the reduction's, for this prime).
    mul: M,
    zeta: &'a [u32],
    izeta: &'a [u32],
    /// The strategy's factor^-1 mod p (for n^-1 at every size).
    finv: u32,
    logn: u32,
    /// The back end of the transforms: under Montgomery reduction ([`Mont32`]) the selected
    /// one (the x86-64 vector twins of `super::ntt_x86`), under the study's reductions the
    /// portable transforms of `pqlab-arith`.
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    backend: Backend,
}

/// The back end of the transforms and tables under the reduction `M`: the selected one under
/// Montgomery reduction ([`Mont32`], whose vector twins `super::ntt_x86` has), the portable
/// code of `pqlab-arith` under the study's reductions.
fn backend_for<M: SolverMul>() -> Backend {
    if M::HAS_SIMD_TWINS {
        pqlab_backend::selected()
    } else {
        Backend::Portable
    }
}

impl<'a, M: SolverMul> Twiddles<'a, M> {
    /// Computes the tables for prime `PRIMES[idx]` and size 2^logn into `buf` (2 n words).
    pub(crate) fn new(idx: usize, logn: u32, buf: &'a mut [u32]) -> Self {
        let sp = PRIMES[idx];
        let n = 1usize << logn;
        let (zeta, izeta) = buf[..2 * n].split_at_mut(n);
        #[cfg(target_arch = "x86_64")]
        let done = {
            let q = super::ntt_x86::Prime {
                p: sp.p,
                p0i: sp.m.p0i,
            };
            super::ntt_x86::tables(backend_for::<M>(), q, sp.roots_mont, logn, zeta, izeta)
        };
        #[cfg(not(target_arch = "x86_64"))]
        let done = false;
        if !done {
            M::for_prime(sp.p).tables_from_root(sp.g, logn, zeta, izeta);
        }
        Self::from_computed(idx, logn, buf)
    }

    /// The tables for prime `PRIMES[idx]` and size 2^logn already computed into `buf` by
    /// [`Self::new`] with the same prime, size and reduction.
    pub(crate) fn from_computed(idx: usize, logn: u32, buf: &'a [u32]) -> Self {
        let sp = PRIMES[idx];
        let mul = M::for_prime(sp.p);
        let n = 1usize << logn;
        let (zeta, izeta) = buf[..2 * n].split_at(n);
        let backend = backend_for::<M>();
        Twiddles {
            m: sp.m,
            mul,
            zeta,
            izeta,
            finv: mul.scale_inv(),
            logn,
            backend,
        }
    }

    /// Forward negacyclic NTT of a (length 2^logn, values in \[0, p)), in place.
    pub(crate) fn ntt(&self, a: &mut [u32]) {
        self.ntt_sized(a, self.logn);
    }

    /// Forward NTT of size 2^logn for any logn up to the tables' own: the tables of size n
    /// start with those of size n/2 (psi_(n/2) = psi_n^2, and rev over logn bits of k < n/2
    /// is twice its reversal over logn - 1 bits).
    pub(crate) fn ntt_sized(&self, a: &mut [u32], logn: u32) {
        debug_assert!(logn <= self.logn);
        let a = &mut a[..1 << logn];
        #[cfg(target_arch = "x86_64")]
        if super::ntt_x86::ntt(self.backend, self.prime(), a, self.zeta) {
            return;
        }
        self.mul.ntt(a, self.zeta);
    }

    /// Inverse of [`Self::ntt`], including the division by n.
    pub(crate) fn intt(&self, a: &mut [u32]) {
        self.intt_sized(a, self.logn);
    }

    /// Inverse of [`Self::ntt_sized`], including the division by 2^logn.
    pub(crate) fn intt_sized(&self, a: &mut [u32], logn: u32) {
        debug_assert!(logn <= self.logn);
        let ninv = falcon_solver::scaled_ninv(self.finv, logn, self.m.p);
        let a = &mut a[..1 << logn];
        #[cfg(target_arch = "x86_64")]
        if super::ntt_x86::intt(self.backend, self.prime(), a, self.izeta, ninv) {
            return;
        }
        self.mul.intt(a, self.izeta, ninv);
    }

    /// The prime's Montgomery constants for the vector transforms.
    #[cfg(target_arch = "x86_64")]
    fn prime(&self) -> super::ntt_x86::Prime {
        super::ntt_x86::Prime {
            p: self.m.p,
            p0i: self.m.p0i,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pqlab_arith::falcon_solver::{BarrettP, KRedSolver, RemP};

    #[test]
    fn primes_table() {
        assert_eq!(PRIMES[0].p, 2_147_473_409);
        for (i, sp) in PRIMES.iter().enumerate() {
            // The NTRU-solver primes and roots of pqlab-arith, whose strategies the NTTs use.
            assert_eq!(sp.p, falcon_solver::PRIMES[i]);
            assert_eq!(sp.g, falcon_solver::psi(sp.p));
            assert_eq!(sp.p % 2048, 1);
            assert!(sp.p > 2_132_646_000, "every prime exceeds 2^30.99");
            let m = Modp::new(sp.p);
            assert_eq!(m.pow(sp.g, 1024), sp.p - 1);
            // s * prod(previous) = 1.
            let mut prod = 1u32;
            for q in &PRIMES[..i] {
                prod = m.mul(prod, q.p % sp.p);
            }
            assert_eq!(m.mul(prod, sp.s), 1);
            if i > 0 {
                assert!(PRIMES[i - 1].p > sp.p);
            }
        }
    }

    #[test]
    fn modp_basics() {
        let m = Modp::new(PRIMES[3].p);
        let p = m.p;
        for &x in &[
            0i32,
            1,
            -1,
            12289,
            -12289,
            i32::MAX,
            i32::MIN,
            (p >> 1) as i32,
        ] {
            let want = (i64::from(x)).rem_euclid(i64::from(p)) as u32;
            assert_eq!(m.set(x), want, "set({x})");
            let c = m.norm(want);
            assert_eq!((i64::from(c) - i64::from(x)).rem_euclid(i64::from(p)), 0);
            assert!(i64::from(c).abs() <= i64::from(p) / 2);
        }
        for &w in &[0u32, 1, p - 1, p, p + 1, u32::MAX] {
            assert_eq!(m.reduce_word(w), w % p);
        }
        let (a, b) = (123_456_789u32, 2_000_000_000u32 % p);
        assert_eq!(
            m.mul(a, b),
            ((u64::from(a) * u64::from(b)) % u64::from(p)) as u32
        );
    }

    /// Runs `$f::<M>(name, ..)` for every reduction type of the study.
    macro_rules! for_every_reduction {
        ($f:ident ( $($arg:expr),* )) => {
            $f::<Mont32>("montgomery", $($arg),*);
            $f::<BarrettP>("barrett", $($arg),*);
            $f::<KRedSolver>("k-red", $($arg),*);
            $f::<RemP>("plain-%", $($arg),*);
        };
    }

    /// Under every reduction: NTT multiplication equals the schoolbook negacyclic product,
    /// and the NTT points pair up as the module documentation says.
    #[test]
    fn ntt_product_and_pairing() {
        for (idx, logn) in [(0usize, 1u32), (5, 3), (17, 6), (200, 10)] {
            for_every_reduction!(product_and_pairing(idx, logn));
        }
    }

    /// Every reduction computes the same transforms (the exact residues, same order) at every
    /// size, with the tables of the largest.
    #[test]
    fn strategies_agree() {
        for idx in [0usize, 1, 339] {
            for_every_reduction!(agree(idx));
        }
    }

    fn agree<M: SolverMul>(s: &str, idx: usize) {
        let mut bm = [0u32; 2048];
        let mont = Twiddles::<Mont32>::new(idx, 10, &mut bm);
        let p = mont.m.p;
        let a: [u32; 1024] = core::array::from_fn(|i| (i as u32).wrapping_mul(2_654_435_761) % p);
        let mut buf = [0u32; 2048];
        let tw = Twiddles::<M>::new(idx, 10, &mut buf);
        for logn in 0..=10 {
            let n = 1usize << logn;
            let (mut x, mut y) = (a, a);
            mont.ntt_sized(&mut x, logn);
            tw.ntt_sized(&mut y, logn);
            assert_eq!(&x[..n], &y[..n], "{s} prime {idx} logn {logn}: forward");
            mont.intt_sized(&mut x, logn);
            tw.intt_sized(&mut y, logn);
            assert_eq!(&y[..n], &a[..n], "{s} prime {idx} logn {logn}: inverse");
            assert_eq!(&x[..n], &a[..n]);
        }
    }

    fn product_and_pairing<M: SolverMul>(s: &str, idx: usize, logn: u32) {
        {
            let n = 1usize << logn;
            let mut buf = [0u32; 2048];
            let tw = Twiddles::<M>::new(idx, logn, &mut buf);
            let m = tw.m;
            let mut a = [0u32; 1024];
            let mut b = [0u32; 1024];
            let mut x = 0x1234_5678u32;
            for i in 0..n {
                x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
                a[i] = m.reduce_word(x);
                b[i] = m.set((x >> 20) as i32 - 2048);
            }
            let mut want = [0u32; 1024];
            for i in 0..n {
                for j in 0..n {
                    let t = m.mul(a[i], b[j]);
                    if i + j < n {
                        want[i + j] = m.add(want[i + j], t);
                    } else {
                        want[i + j - n] = m.sub(want[i + j - n], t);
                    }
                }
            }
            let (mut fa, mut fb) = (a, b);
            tw.ntt(&mut fa[..n]);
            tw.ntt(&mut fb[..n]);
            // Pairing: N(a)(x^2) = a(x) a(-x); the NTT of the half-size N(a) is the product of
            // the pairs (2v, 2v+1).
            if logn > 1 {
                let hn = n / 2;
                let mut na = [0u32; 512];
                {
                    // a(x) a(-x) = a0(x^2)^2 - x^2 a1(x^2)^2 with a = a0(x^2) + x a1(x^2).
                    for i in 0..hn {
                        for j in 0..hn {
                            let t0 = m.mul(a[2 * i], a[2 * j]);
                            let t1 = m.mul(a[2 * i + 1], a[2 * j + 1]);
                            let k = i + j;
                            if k < hn {
                                na[k] = m.add(na[k], t0);
                            } else {
                                na[k - hn] = m.sub(na[k - hn], t0);
                            }
                            let k = i + j + 1;
                            if k < hn {
                                na[k] = m.sub(na[k], t1);
                            } else {
                                na[k - hn] = m.add(na[k - hn], t1);
                            }
                        }
                    }
                }
                tw.ntt_sized(&mut na[..hn], logn - 1);
                for v in 0..hn {
                    assert_eq!(na[v], m.mul(fa[2 * v], fa[2 * v + 1]), "pair {v}");
                }
            }
            for i in 0..n {
                fa[i] = m.mul(fa[i], fb[i]);
            }
            tw.intt(&mut fa[..n]);
            assert_eq!(&fa[..n], &want[..n], "{s} prime {idx} logn {logn}");
            tw.ntt(&mut fb[..n]);
            let mut back = fb;
            tw.intt(&mut back[..n]);
            tw.intt(&mut back[..n]);
            assert_eq!(&back[..n], &b[..n]);
        }
    }
}
