//! The integer Gaussian sampler (Falcon spec v1.2, Section 3.9.3: Algorithm 12 BaseSampler,
//! Algorithm 13 ApproxExp, Algorithm 14 BerExp, Algorithm 15 SamplerZ), fed by the ChaCha20-based
//! PRNG of the round-3 reference implementation (seeded with 56 bytes from SHAKE256), which is
//! what the NIST KAT files were produced with.
//!
//! The PRNG ([`Prng`], in `chacha`) computes its eight ChaCha20 blocks per refill in parallel
//! lanes, with an AVX2 twin (`chacha_avx2`); SamplerZ reads the same bytes at the same
//! positions as the reference, so the signatures are those of the KAT files.
//!
//! Constant time: the base sampler scans its whole table with arithmetic comparisons; BerExp and
//! SamplerZ branch only on the rejection outcome (whose probability is made independent of the
//! secret centre and standard deviation by the scaling with sigma_min, Section 3.9.3) and on the
//! byte-wise lazy comparison in BerExp, as in the reference.

use crate::fpr::Fpr;

mod chacha;
#[cfg(target_arch = "x86_64")]
mod chacha_avx2;
#[cfg(test)]
mod tests;

pub(crate) use chacha::Prng;

/// The reverse cumulative distribution table of the half-Gaussian of sigma0 = 1.8205 on 72 bits
/// (Falcon spec v1.2, Table 3.1), as three 24-bit limbs, most significant first.
pub(crate) const RCDT: [[u32; 3]; 18] = [
    [10745844, 3068844, 3741698],
    [5559083, 1580863, 8248194],
    [2260429, 13669192, 2736639],
    [708981, 4421575, 10046180],
    [169348, 7122675, 4136815],
    [30538, 13063405, 7650655],
    [4132, 14505003, 7826148],
    [417, 16768101, 11363290],
    [31, 8444042, 8086568],
    [1, 12844466, 265321],
    [0, 1232676, 13644283],
    [0, 38047, 9111839],
    [0, 870, 6138264],
    [0, 14, 12545723],
    [0, 0, 3104126],
    [0, 0, 28824],
    [0, 0, 198],
    [0, 0, 1],
];

/// The number of entries [`base_sampler`] scans: [`RCDT`] padded with zeros (which no value is
/// below) to a multiple of four, so that its loop runs on whole 128-bit vectors.
const RCDT_LANES: usize = 20;

/// [`RCDT`] transposed: row k holds limb k (most significant first) of every entry, the padding
/// entries zero (derived at compile time).
const RCDT_ROWS: [[u32; RCDT_LANES]; 3] = {
    let mut t = [[0u32; RCDT_LANES]; 3];
    let mut i = 0;
    while i < RCDT.len() {
        let mut k = 0;
        while k < 3 {
            t[k][i] = RCDT[i][k];
            k += 1;
        }
        i += 1;
    }
    t
};

/// Falcon spec v1.2, Algorithm 12: BaseSampler. The number of table entries above the
/// uniform 72-bit value lo + 2^64 hi (hi < 2^8), computed over the whole table with borrow
/// arithmetic on three 24-bit limbs (constant time). The table is stored by limb, so that the
/// compiler runs the entries in vector lanes.
#[inline(always)]
fn base_sampler(lo: u64, hi: u32) -> i32 {
    let v0 = (lo as u32) & 0xFF_FFFF;
    let v1 = ((lo >> 24) as u32) & 0xFF_FFFF;
    let v2 = ((lo >> 48) as u32) | (hi << 16);
    let mut z = 0u32;
    for i in 0..RCDT_LANES {
        let mut cc = v0.wrapping_sub(RCDT_ROWS[2][i]) >> 31;
        cc = v1.wrapping_sub(RCDT_ROWS[1][i]).wrapping_sub(cc) >> 31;
        cc = v2.wrapping_sub(RCDT_ROWS[0][i]).wrapping_sub(cc) >> 31;
        z += cc;
    }
    z as i32
}

/// Falcon spec v1.2, Algorithm 14: BerExp, lines 1 to 3: for x >= 0, the 64-bit threshold
/// (2 ApproxExp(r, ccs) - 1) >> s, about 2^64 ccs exp(-x), that BerExp compares a uniform
/// 64-bit value with (x = s ln 2 + r); ApproxExp (Algorithm 13) is [`Fpr::expm_p63`].
#[inline(always)]
fn ber_threshold(x: Fpr, ccs: Fpr) -> u64 {
    // x = s ln 2 + r with 0 <= r < ln 2; s saturated at 63.
    let s = x.mul(Fpr::INV_LOG2).trunc() as i32;
    let r = x.sub(Fpr::of(i64::from(s)).mul(Fpr::LOG2));
    let mut sw = s as u32;
    sw ^= (sw ^ 63) & 0u32.wrapping_sub(63u32.wrapping_sub(sw) >> 31);
    ((r.expm_p63(ccs) << 1).wrapping_sub(1)) >> sw
}

/// Falcon spec v1.2, Algorithm 14: BerExp, lines 4 to 8: the lazy byte-wise comparison of a
/// uniform 64-bit value, drawn one byte at a time (most significant first; the first byte `w0`
/// already drawn, the others from `next`), with the threshold `t`: whether the value is below
/// `t`. It draws no further byte, unless the first bytes equal those of `t`.
#[inline(always)]
fn ber_compare(t: u64, w0: u32, mut next: impl FnMut() -> u32) -> bool {
    let mut i = 56;
    let mut w = w0.wrapping_sub(((t >> i) as u32) & 0xFF);
    while w == 0 && i > 0 {
        i -= 8;
        w = next().wrapping_sub(((t >> i) as u32) & 0xFF);
    }
    (w >> 31) != 0
}

/// The top byte of BerExp's threshold (`ber_threshold(x, ccs) >> 56`, Algorithm 14), to
/// within one: floor(256 ccs exp(-x)) clamped to [0, 255], from `u` = x / ln 2, with
/// exp(-x) = 2^-u = 2^-k 2^-f (k = u rounded to nearest, |f| <= 1/2) and 2^-f by its degree-4
/// Taylor polynomial (relative error below 2^-14, against the 2^-8 this needs), evaluated
/// in Estrin's order. It has a short dependency chain, where the exact threshold's
/// fixed-point polynomial (ApproxExp, Algorithm 13) is 13 dependent 64-bit multiplications:
/// SamplerZ decides with it whenever the first random byte is at least two away from it
/// (modulo 256), and falls back to the exact threshold otherwise (probability 3/256 whatever
/// the estimate, so the fallback reveals nothing of it). `cc256` = 256 ccs. Native binary64
/// only (under `fpr-emu` every trial takes the exact path).
#[cfg(not(feature = "fpr-emu"))]
#[inline(always)]
fn threshold_top_byte(u: f64, cc256: f64) -> u32 {
    // 2^-f = exp(-f ln 2) ~ sum (-ln 2)^j f^j / j!, j = 0..4.
    const C: [f64; 5] = [
        1.0,
        -core::f64::consts::LN_2,
        0.240_226_506_959_100_7,
        -0.055_504_108_664_821_58,
        0.009_618_129_107_628_477,
    ];
    const MAGIC: f64 = 6_755_399_441_055_744.0; // 1.5 * 2^52: adding it rounds to an integer
    let big = u + MAGIC;
    let kf = big - MAGIC;
    // k in the low bits of big's mantissa; clamped so that 2^-k stays a normal number (u is
    // below 300 for every trial: the clamp only keeps the function total).
    let k = (big.to_bits() as u32 as i32).clamp(-64, 1000);
    let scale = f64::from_bits(((1023 - k) as u64) << 52) * cc256;
    let f = u - kf;
    let f2 = f * f;
    let p = (C[0] + C[1] * f) + f2 * ((C[2] + C[3] * f) + f2 * C[4]);
    let e = p * scale;
    // e >= 0; `as` saturates, and the clamp keeps 255 for a value at or above 256.
    (e as u32).min(255)
}

/// Falcon spec v1.2, Algorithm 15: SamplerZ, lines 3 to 5 (one trial before its BerExp):
/// from the base sampler's 72-bit value lo + 2^64 hi and the sign byte, the candidate z and
/// BerExp's argument x = (z - r)^2 / (2 sigma^2) - z0^2 / (2 sigma0^2).
#[inline(always)]
fn trial(lo: u64, hi: u32, sign: u32, r: Fpr, dss: Fpr) -> (i32, i32, Fpr) {
    let z0 = base_sampler(lo, hi);
    let b = (sign & 1) as i32;
    let z = b + ((b << 1) - 1) * z0;
    let x = Fpr::of(i64::from(z)).sub(r).sqr().mul(dss);
    let x = x.sub(Fpr::of(i64::from(z0 * z0)).mul(Fpr::INV_2SQRSIGMA0));
    (z, z0, x)
}

/// The sampler's context: the PRNG, and sigma_min and 1/sigma of the parameter set.
pub(crate) struct Sampler {
    pub(crate) prng: Prng,
    pub(crate) sigma_min: Fpr,
    /// 1/sigma, which the tree leaves are normalized with (Algorithm 8, step 6).
    pub(crate) inv_sigma: Fpr,
}

impl Sampler {
    /// Falcon spec v1.2, Algorithm 15: SamplerZ(mu, sigma), given isigma = 1/sigma (the tree
    /// leaves store 1/sigma). Returns an integer drawn from the discrete Gaussian of centre mu and
    /// standard deviation sigma (sigma_min <= sigma <= sigma_max).
    pub(crate) fn sample(&mut self, mu: Fpr, isigma: Fpr) -> i64 {
        let s = mu.floor();
        let r = mu.sub(Fpr::of(s));
        let dss = isigma.sqr().half();
        let ccs = isigma.mul(self.sigma_min);
        // The estimate is ApproxExp's value only in its domain, ccs <= 1 (sigma >= sigma_min,
        // which every key from Algorithm 4 gives); outside it (a forged key) every trial takes
        // the exact path, so the signer still computes what the reference computes. (ccs > 0:
        // the bit patterns order as the values.)
        #[cfg(not(feature = "fpr-emu"))]
        if ccs.to_bits() <= Fpr::ONE.to_bits() {
            return s + i64::from(self.sample_estimated(r, dss, ccs));
        }
        s + i64::from(self.sample_exact(r, dss, ccs))
    }

    /// Algorithm 15's loop as the reference runs it, for the centre's fraction r: each trial
    /// BerExp (Algorithm 14) on the exact threshold.
    fn sample_exact(&mut self, r: Fpr, dss: Fpr, ccs: Fpr) -> i32 {
        loop {
            let lo = self.prng.next_u64();
            let hi = self.prng.next_u8();
            let sign = self.prng.next_u8();
            let (z, _, x) = trial(lo, hi, sign, r, dss);
            // BerExp's first random byte (Algorithm 14, line 5).
            let w0 = self.prng.next_u8();
            if ber_compare(ber_threshold(x, ccs), w0, || self.prng.next_u8()) {
                return z;
            }
        }
    }

    /// Algorithm 15's loop with BerExp deciding on the estimated top byte
    /// ([`threshold_top_byte`]) where it can, the exact threshold otherwise: the same result
    /// and the same bytes read as [`Sampler::sample_exact`]. While two trials' bytes lie in
    /// the buffer without a refill, they are computed together (the second at the bytes it
    /// reads if the first is rejected on its first BerExp byte), so that a rejection does not
    /// wait for a second dependency chain; the second is dropped when unused.
    #[cfg(not(feature = "fpr-emu"))]
    fn sample_estimated(&mut self, r: Fpr, dss: Fpr, ccs: Fpr) -> i32 {
        let e = Estimator::new(r, dss, ccs);
        loop {
            let p = self.prng.ptr;
            let (a, b) = if p <= PAIR_LAST {
                let a = e.trial(&self.prng.buf, p);
                let b = e.trial(&self.prng.buf, p + TRIAL_BYTES);
                self.prng.ptr = p + TRIAL_BYTES;
                (a, Some(b))
            } else {
                let lo = self.prng.next_u64();
                let hi = self.prng.next_u8();
                let sign = self.prng.next_u8();
                let w0 = self.prng.next_u8();
                (e.trial_of(lo, hi, sign, w0), None)
            };
            match a.decide() {
                Some(true) => return a.z,
                None => {
                    if self.exact(&a, ccs) {
                        return a.z;
                    }
                    continue;
                }
                Some(false) => {}
            }
            if let Some(b) = b {
                self.prng.ptr = p + 2 * TRIAL_BYTES;
                match b.decide() {
                    Some(true) => return b.z,
                    None if self.exact(&b, ccs) => return b.z,
                    _ => {}
                }
            }
        }
    }

    /// BerExp on the exact threshold for trial `t`, whose first byte has been read.
    #[cfg(not(feature = "fpr-emu"))]
    fn exact(&mut self, t: &Trial, ccs: Fpr) -> bool {
        ber_compare(ber_threshold(t.x, ccs), t.w0, || self.prng.next_u8())
    }
}

/// The bytes one trial reads when BerExp decides on its first byte: 8 + 1 (base sampler),
/// 1 (sign), 1 (BerExp).
#[cfg(not(feature = "fpr-emu"))]
const TRIAL_BYTES: usize = 11;

/// The last read position from which two trials read their bytes without a refill: the
/// second one's 64-bit read starts before BUF_LEN - 9 (where `prng_get_u64` refills) and its
/// last byte is not the buffer's last (whose read refills).
#[cfg(not(feature = "fpr-emu"))]
const PAIR_LAST: usize = chacha::BUF_LEN - 1 - 2 * TRIAL_BYTES;

#[cfg(not(feature = "fpr-emu"))]
const _: () = assert!(PAIR_LAST + TRIAL_BYTES < chacha::BUF_LEN - 9);

/// One trial of Algorithm 15 with its BerExp's first byte and the estimate of the threshold's
/// top byte.
#[cfg(not(feature = "fpr-emu"))]
struct Trial {
    z: i32,
    x: Fpr,
    w0: u32,
    t0: u32,
}

#[cfg(not(feature = "fpr-emu"))]
impl Trial {
    /// BerExp's outcome when the first byte decides it against the estimate: w0 - t0 modulo
    /// 256 outside {-1, 0, 1} means w0 differs from the exact top byte (within one of t0)
    /// and lies on the same side of it as of t0. None: the exact threshold must decide.
    #[inline(always)]
    fn decide(&self) -> Option<bool> {
        (self.w0.wrapping_sub(self.t0).wrapping_add(1) & 0xFF > 2).then_some(self.w0 < self.t0)
    }
}

/// The per-call constants of the estimate: x / ln 2 is computed apart from x (not rounded as
/// x is: the estimate only needs 2^-10), with dss / ln 2 and 1 / (2 sigma0^2 ln 2).
#[cfg(not(feature = "fpr-emu"))]
struct Estimator {
    r: Fpr,
    dss: Fpr,
    rf: f64,
    dssl: f64,
    c0l: f64,
    cc256: f64,
}

#[cfg(not(feature = "fpr-emu"))]
impl Estimator {
    fn new(r: Fpr, dss: Fpr, ccs: Fpr) -> Self {
        let f = |v: Fpr| f64::from_bits(v.to_bits());
        Estimator {
            r,
            dss,
            rf: f(r),
            dssl: f(dss) * core::f64::consts::LOG2_E,
            c0l: f(Fpr::INV_2SQRSIGMA0) * core::f64::consts::LOG2_E,
            cc256: f(ccs) * 256.0,
        }
    }

    /// The trial reading its 11 bytes at `p` (no refill in between).
    #[inline(always)]
    fn trial(&self, buf: &[u8; chacha::BUF_LEN], p: usize) -> Trial {
        let mut lo = [0u8; 8];
        lo.copy_from_slice(&buf[p..p + 8]);
        let rest = &buf[p + 8..p + TRIAL_BYTES];
        let (hi, sign, w0) = (rest[0], rest[1], rest[2]);
        self.trial_of(
            u64::from_le_bytes(lo),
            u32::from(hi),
            u32::from(sign),
            u32::from(w0),
        )
    }

    /// The trial of the given bytes.
    #[inline(always)]
    fn trial_of(&self, lo: u64, hi: u32, sign: u32, w0: u32) -> Trial {
        let (z, z0, x) = trial(lo, hi, sign, self.r, self.dss);
        let d = f64::from(z) - self.rf;
        let u = d * d * self.dssl - f64::from(z0 * z0) * self.c0l;
        Trial {
            z,
            x,
            w0,
            t0: threshold_top_byte(u, self.cc256),
        }
    }
}
