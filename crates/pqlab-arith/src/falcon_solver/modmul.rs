//! Modular multiplication modulo one 31-bit NTRU-solver prime p (chosen at run time), one type
//! per reduction strategy, behind [`ModMul`].

/// A modular multiplication modulo a run-time prime p < 2^31 (p = 1 mod 2048).
pub trait ModMul: Sized + Copy {
    /// A short name for reports.
    const NAME: &'static str;
    /// Whether it is constant time (only [`RemP`] is not).
    const CONSTANT_TIME: bool = true;
    /// Whether the production keygen has SIMD twins of its transforms and tables for this
    /// reduction (only [`Mont32`]: the study's other reductions run the portable code).
    const HAS_SIMD_TWINS: bool = false;
    /// The precomputed constants for p.
    fn new(p: u32) -> Self;
    /// The prime.
    fn p(&self) -> u32;
    /// The factor F of the strategy, in \[0, p): mul(a, b) = F a b mod p.
    fn factor(&self) -> u32;
    /// F^-1 mod p, the pre-scaling of the twiddles (by default by Fermat inversion of
    /// [`ModMul::factor`]; the strategies override it with a closed form).
    fn factor_inv(&self) -> u32 {
        super::inv_mod_p(self.factor(), self.p())
    }
    /// F * a * b mod p in \[0, p), for a, b in \[0, p).
    fn mul(&self, a: u32, b: u32) -> u32;
}

/// a mod p for a in \[0, 2p) (masked subtraction).
#[inline(always)]
pub(crate) fn sub_p(a: u32, p: u32) -> u32 {
    let d = a.wrapping_sub(p);
    d.wrapping_add(p & 0u32.wrapping_sub(d >> 31))
}

/// Montgomery multiplication with R = 2^32 (Montgomery 1985; the form of the Falcon reference's
/// `modp_montymul`, there with R = 2^31): z = a b, w = (z p0i mod 2^32) p with
/// p0i = -p^-1 mod 2^32, d = (z + w) / 2^32 < 1.5 p, one masked subtraction. Factor 2^-32.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mont32 {
    p: u32,
    p0i: u32,
}

impl ModMul for Mont32 {
    const NAME: &'static str = "montgomery";
    const HAS_SIMD_TWINS: bool = true;

    fn new(p: u32) -> Self {
        // p^-1 mod 2^32 by Newton iteration, negated.
        let mut inv = p;
        for _ in 0..5 {
            inv = inv.wrapping_mul(2u32.wrapping_sub(p.wrapping_mul(inv)));
        }
        Mont32 {
            p,
            p0i: inv.wrapping_neg(),
        }
    }

    fn p(&self) -> u32 {
        self.p
    }

    fn factor(&self) -> u32 {
        let r = ((1u64 << 32) % u64::from(self.p)) as u32;
        super::inv_mod_p(r, self.p)
    }

    /// 2^32 mod p.
    fn factor_inv(&self) -> u32 {
        ((1u64 << 32) % u64::from(self.p)) as u32
    }

    #[inline(always)]
    fn mul(&self, a: u32, b: u32) -> u32 {
        let z = u64::from(a) * u64::from(b);
        let w = u64::from((z as u32).wrapping_mul(self.p0i)) * u64::from(self.p);
        sub_p(((z + w) >> 32) as u32, self.p)
    }
}

/// Barrett reduction with v = floor(2^64 / p) (Barrett, CRYPTO '86): t = floor(c v / 2^64) is
/// floor(c / p) or one less, c - t p in \[0, 2p), one masked subtraction. Factor 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BarrettP {
    p: u32,
    v: u64,
}

impl ModMul for BarrettP {
    const NAME: &'static str = "barrett";

    fn new(p: u32) -> Self {
        BarrettP {
            p,
            v: u64::MAX / u64::from(p),
        }
    }

    fn p(&self) -> u32 {
        self.p
    }

    fn factor(&self) -> u32 {
        1
    }

    fn factor_inv(&self) -> u32 {
        1
    }

    #[inline(always)]
    fn mul(&self, a: u32, b: u32) -> u32 {
        let c = u64::from(a) * u64::from(b);
        let t = ((u128::from(c) * u128::from(self.v)) >> 64) as u64;
        sub_p((c - t * u64::from(self.p)) as u32, self.p)
    }
}

/// Generalised K-RED for p = k 2^`M` + l (after Longa and Naehrig, CANS 2016, generalised to
/// +- l as in the Falcon study): with c = c0 + 2^m c1, c0 centred in \[-2^(m-1), 2^(m-1)),
/// k c = k c0 - l c1 (mod p). The step is applied `STEPS` times (unrolled), then one masked
/// addition brings the result from (-p, p) into \[0, p). Factor k^STEPS. Two forms are used
/// (see [`super::kred_params`] for why not the study's m = 24, k = 127):
///
/// * [`KRedPm2`] = `KRedP<31, 2>`: p = 2^31 - l0 (k = 1, l = -l0), two steps: for p with
///   l0 small enough ([`KRedP::fits`]; of the list only PRIMES\[0\] = 2^31 - 10239);
/// * [`KRed11x3`] = `KRedP<11, 3>`: p = k 2^11 + 1 (l = 1, plain K-RED), three steps: every
///   prime p = 1 mod 2048 below 2^31.
///
/// The multiplication by k (M = 31) or by l (M = 11) is 1 and is compiled away. The
/// parameters depend on the public prime only.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KRedP<const M: u32, const STEPS: u32> {
    p: u32,
    k: i64,
    l: i64,
}

/// p = 2^31 - l0, two steps.
pub type KRedPm2 = KRedP<31, 2>;
/// p = k 2^11 + 1, three steps.
pub type KRed11x3 = KRedP<11, 3>;

impl<const M: u32, const STEPS: u32> KRedP<M, STEPS> {
    /// The parameters (k, m, l, steps).
    pub fn params(&self) -> (i64, u32, i64, u32) {
        (self.k, M, self.l, STEPS)
    }

    /// Whether this form reduces every product of two values in \[0, p) into (-p, p) in
    /// `STEPS` steps (and is of the form: k = 1 for M = 31, l = 1 for M = 11).
    pub const fn fits(p: u32) -> bool {
        let (k, l) = Self::kl(p);
        (M == 31 || M == 11) && p % 2048 == 1 && super::kred_steps(p, k, M, l) <= STEPS
    }

    const fn kl(p: u32) -> (i64, i64) {
        if M == 31 {
            (1, p as i64 - (1i64 << 31))
        } else {
            (((p - 1) >> M) as i64, 1)
        }
    }
}

impl<const M: u32, const STEPS: u32> ModMul for KRedP<M, STEPS> {
    const NAME: &'static str = "k-red-general";

    /// The constants for p; p must satisfy [`KRedP::fits`] (else the results are wrong).
    fn new(p: u32) -> Self {
        debug_assert!(Self::fits(p));
        let (k, l) = Self::kl(p);
        KRedP { p, k, l }
    }

    fn p(&self) -> u32 {
        self.p
    }

    fn factor(&self) -> u32 {
        super::pow_mod_p(self.k.rem_euclid(i64::from(self.p)) as u32, STEPS, self.p)
    }

    /// k^-STEPS: 1 for M = 31 (k = 1); for p = k 2^M + 1, k 2^M = -1, so k^-1 = -2^M.
    fn factor_inv(&self) -> u32 {
        if M == 31 {
            1
        } else {
            super::pow_mod_p(self.p - (1 << M), STEPS, self.p)
        }
    }

    #[inline(always)]
    fn mul(&self, a: u32, b: u32) -> u32 {
        let mut c = (u64::from(a) * u64::from(b)) as i64;
        let sh = 64 - M;
        for _ in 0..STEPS {
            let c0 = (c << sh) >> sh;
            let c1 = (c - c0) >> M;
            let kc0 = if M == 31 { c0 } else { self.k * c0 };
            let lc1 = if M == 31 { self.l * c1 } else { c1 };
            c = kc0 - lc1;
        }
        let r = c as i32;
        (r + (self.p as i32 & (r >> 31))) as u32
    }
}

/// The `%` operator: **benchmark-only** (a 64-bit division by a run-time divisor, variable time
/// on most CPUs; never on secret data). Factor 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RemP {
    p: u32,
}

impl ModMul for RemP {
    const NAME: &'static str = "plain-%";
    const CONSTANT_TIME: bool = false;

    fn new(p: u32) -> Self {
        RemP { p }
    }

    fn p(&self) -> u32 {
        self.p
    }

    fn factor(&self) -> u32 {
        1
    }

    fn factor_inv(&self) -> u32 {
        1
    }

    #[inline(always)]
    fn mul(&self, a: u32, b: u32) -> u32 {
        ((u64::from(a) * u64::from(b)) % u64::from(self.p)) as u32
    }
}
