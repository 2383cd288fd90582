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
        #[cfg(not(feature = "fpr-emu"))]
        let cc256 = f64::from_bits(ccs.to_bits()) * 256.0;
        // x / ln 2 for the estimate, computed apart from x (not rounded as x is: the
        // estimate only needs 2^-10): dss / ln 2, 1 / (2 sigma0^2 ln 2).
        #[cfg(not(feature = "fpr-emu"))]
        let (dssl, c0l, rf) = (
            f64::from_bits(dss.to_bits()) * core::f64::consts::LOG2_E,
            f64::from_bits(Fpr::INV_2SQRSIGMA0.to_bits()) * core::f64::consts::LOG2_E,
            f64::from_bits(r.to_bits()),
        );
        // The estimate is ApproxExp's value only in its domain, ccs <= 1 (sigma >= sigma_min,
        // which every key from Algorithm 4 gives); outside it (a forged key) every trial takes
        // the exact path, so the signer still computes what the reference computes.
        #[cfg(not(feature = "fpr-emu"))]
        let estimate = cc256 <= 256.0;
        loop {
            let lo = self.prng.next_u64();
            let hi = self.prng.next_u8();
            let sign = self.prng.next_u8();
            let (z, z0, x) = trial(lo, hi, sign, r, dss);
            #[cfg(feature = "fpr-emu")]
            let _ = z0;
            // BerExp's first random byte (Algorithm 14, line 5).
            let w0 = self.prng.next_u8();
            #[cfg(not(feature = "fpr-emu"))]
            {
                let d = f64::from(z) - rf;
                let u = d * d * dssl - f64::from(z0 * z0) * c0l;
                let t0 = threshold_top_byte(u, cc256);
                // w0 - t0 modulo 256 outside {-1, 0, 1}: w0 differs from the exact top
                // byte (within one of t0), on the same side as from t0, and BerExp decides
                // on this byte alone, as the exact comparison does.
                if estimate && w0.wrapping_sub(t0).wrapping_add(1) & 0xFF > 2 {
                    if w0 < t0 {
                        return s + i64::from(z);
                    }
                    continue;
                }
            }
            if ber_compare(ber_threshold(x, ccs), w0, || self.prng.next_u8()) {
                return s + i64::from(z);
            }
        }
    }
}
