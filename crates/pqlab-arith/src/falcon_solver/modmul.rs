//! Modular multiplication modulo one 31-bit NTRU-solver prime p (chosen at run time), one type
//! per reduction strategy, behind [`ModMul`].

use super::kred_params;

/// A modular multiplication modulo a run-time prime p < 2^31 (p = 1 mod 2048).
pub trait ModMul: Sized + Copy {
    /// A short name for reports.
    const NAME: &'static str;
    /// Whether it is constant time (only [`RemP`] is not).
    const CONSTANT_TIME: bool = true;
    /// The precomputed constants for p.
    fn new(p: u32) -> Self;
    /// The prime.
    fn p(&self) -> u32;
    /// The factor F of the strategy, in \[0, p): mul(a, b) = F a b mod p.
    fn factor(&self) -> u32;
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

    #[inline(always)]
    fn mul(&self, a: u32, b: u32) -> u32 {
        let c = u64::from(a) * u64::from(b);
        let t = ((u128::from(c) * u128::from(self.v)) >> 64) as u64;
        sub_p((c - t * u64::from(self.p)) as u32, self.p)
    }
}

/// Generalised K-RED for p = k 2^m + l (after Longa and Naehrig, CANS 2016, generalised to
/// +- l as in the Falcon study): with c = c0 + 2^m c1, c0 centred in \[-2^(m-1), 2^(m-1)),
/// k c = k c0 - l c1 (mod p). The step is applied `steps` times (the count [`kred_params`]
/// derives for p, so that the result lies in (-p, p)), then one masked addition. Factor
/// k^steps. The parameters are public (they depend on p only), so the loop count is too.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KRedP {
    p: u32,
    k: i64,
    m: u32,
    l: i64,
    steps: u32,
}

impl KRedP {
    /// The parameters (k, m, l, steps).
    pub fn params(&self) -> (i64, u32, i64, u32) {
        (self.k, self.m, self.l, self.steps)
    }
}

impl ModMul for KRedP {
    const NAME: &'static str = "k-red-general";

    fn new(p: u32) -> Self {
        let (k, m, l, steps) = kred_params(p);
        KRedP { p, k, m, l, steps }
    }

    fn p(&self) -> u32 {
        self.p
    }

    fn factor(&self) -> u32 {
        super::pow_mod_p((self.k % i64::from(self.p)) as u32, self.steps, self.p)
    }

    #[inline(always)]
    fn mul(&self, a: u32, b: u32) -> u32 {
        let mut c = (u64::from(a) * u64::from(b)) as i64;
        let sh = 64 - self.m;
        for _ in 0..self.steps {
            let c0 = (c << sh) >> sh;
            let c1 = (c - c0) >> self.m;
            c = self.k * c0 - self.l * c1;
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

    #[inline(always)]
    fn mul(&self, a: u32, b: u32) -> u32 {
        ((u64::from(a) * u64::from(b)) % u64::from(self.p)) as u32
    }
}
