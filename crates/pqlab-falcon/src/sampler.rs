//! The integer Gaussian sampler (Falcon spec v1.2, Section 3.9.3: Algorithm 12 BaseSampler,
//! Algorithm 13 ApproxExp, Algorithm 14 BerExp, Algorithm 15 SamplerZ), fed by the ChaCha20-based
//! PRNG of the round-3 reference implementation (seeded with 56 bytes from SHAKE256), which is
//! what the NIST KAT files were produced with.
//!
//! Constant time: the base sampler scans its whole table with arithmetic comparisons; BerExp and
//! SamplerZ branch only on the rejection outcome (whose probability is made independent of the
//! secret centre and standard deviation by the scaling with sigma_min, Section 3.9.3) and on the
//! byte-wise lazy comparison in BerExp, as in the reference.

use pqlab_keccak::Shake256Reader;
use zeroize::{Zeroize, ZeroizeOnDrop};

use crate::fpr::Fpr;

/// The ChaCha20 constants "expand 32-byte k".
const CW: [u32; 4] = [0x61707865, 0x3320646e, 0x79622d32, 0x6b206574];

/// The sampler's PRNG: eight ChaCha20 blocks per refill, interleaved word by word as in the
/// reference (`prng_refill`), over a state of 48 bytes of key and IV and a 64-bit counter.
#[derive(Zeroize, ZeroizeOnDrop)]
pub(crate) struct Prng {
    buf: [u8; 512],
    ptr: usize,
    state: [u32; 12],
    counter: u64,
}

impl Prng {
    /// `prng_init`: 56 bytes from SHAKE256; words 0..12 little-endian, then the counter as
    /// two little-endian words (low, high).
    pub(crate) fn new(src: &mut Shake256Reader) -> Prng {
        let mut tmp = [0u8; 56];
        src.squeeze(&mut tmp);
        let mut state = [0u32; 12];
        for (i, w) in state.iter_mut().enumerate() {
            *w = u32::from_le_bytes([tmp[4 * i], tmp[4 * i + 1], tmp[4 * i + 2], tmp[4 * i + 3]]);
        }
        let lo = u32::from_le_bytes([tmp[48], tmp[49], tmp[50], tmp[51]]);
        let hi = u32::from_le_bytes([tmp[52], tmp[53], tmp[54], tmp[55]]);
        tmp.zeroize();
        let mut p = Prng {
            buf: [0; 512],
            ptr: 0,
            state,
            counter: u64::from(lo) | (u64::from(hi) << 32),
        };
        p.refill();
        p
    }

    /// `prng_refill`: eight ChaCha20 blocks with counters cc..cc+8 xored into words 14, 15.
    fn refill(&mut self) {
        let mut cc = self.counter;
        for u in 0..8 {
            let mut st = [0u32; 16];
            st[..4].copy_from_slice(&CW);
            st[4..].copy_from_slice(&self.state);
            st[14] ^= cc as u32;
            st[15] ^= (cc >> 32) as u32;
            for _ in 0..10 {
                qround(&mut st, 0, 4, 8, 12);
                qround(&mut st, 1, 5, 9, 13);
                qround(&mut st, 2, 6, 10, 14);
                qround(&mut st, 3, 7, 11, 15);
                qround(&mut st, 0, 5, 10, 15);
                qround(&mut st, 1, 6, 11, 12);
                qround(&mut st, 2, 7, 8, 13);
                qround(&mut st, 3, 4, 9, 14);
            }
            for v in 0..4 {
                st[v] = st[v].wrapping_add(CW[v]);
            }
            for v in 4..14 {
                st[v] = st[v].wrapping_add(self.state[v - 4]);
            }
            st[14] = st[14].wrapping_add(self.state[10] ^ cc as u32);
            st[15] = st[15].wrapping_add(self.state[11] ^ (cc >> 32) as u32);
            cc = cc.wrapping_add(1);
            for (v, w) in st.iter().enumerate() {
                let o = (u << 2) + (v << 5);
                self.buf[o..o + 4].copy_from_slice(&w.to_le_bytes());
            }
            st.zeroize();
        }
        self.counter = cc;
        self.ptr = 0;
    }

    /// `prng_get_u64`: 8 bytes little-endian; refills first when fewer than 9 bytes remain.
    #[inline]
    fn next_u64(&mut self) -> u64 {
        if self.ptr >= self.buf.len() - 9 {
            self.refill();
        }
        let u = self.ptr;
        self.ptr = u + 8;
        let mut b = [0u8; 8];
        b.copy_from_slice(&self.buf[u..u + 8]);
        u64::from_le_bytes(b)
    }

    /// `prng_get_u8`: one byte; refills when the buffer is used up.
    #[inline]
    fn next_u8(&mut self) -> u32 {
        let v = self.buf[self.ptr];
        self.ptr += 1;
        if self.ptr == self.buf.len() {
            self.refill();
        }
        u32::from(v)
    }
}

#[inline(always)]
fn qround(s: &mut [u32; 16], a: usize, b: usize, c: usize, d: usize) {
    s[a] = s[a].wrapping_add(s[b]);
    s[d] = (s[d] ^ s[a]).rotate_left(16);
    s[c] = s[c].wrapping_add(s[d]);
    s[b] = (s[b] ^ s[c]).rotate_left(12);
    s[a] = s[a].wrapping_add(s[b]);
    s[d] = (s[d] ^ s[a]).rotate_left(8);
    s[c] = s[c].wrapping_add(s[d]);
    s[b] = (s[b] ^ s[c]).rotate_left(7);
}

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

/// Falcon spec v1.2, Algorithm 12: BaseSampler. The number of table entries above a uniform
/// 72-bit value, computed over the whole table with borrow arithmetic (constant time).
fn base_sampler(p: &mut Prng) -> i32 {
    let lo = p.next_u64();
    let hi = p.next_u8();
    let v0 = (lo as u32) & 0xFF_FFFF;
    let v1 = ((lo >> 24) as u32) & 0xFF_FFFF;
    let v2 = ((lo >> 48) as u32) | (hi << 16);
    let mut z = 0;
    for w in RCDT.iter() {
        let mut cc = v0.wrapping_sub(w[2]) >> 31;
        cc = v1.wrapping_sub(w[1]).wrapping_sub(cc) >> 31;
        cc = v2.wrapping_sub(w[0]).wrapping_sub(cc) >> 31;
        z += cc as i32;
    }
    z
}

/// Falcon spec v1.2, Algorithm 14: BerExp. A bit that is 1 with probability ccs exp(-x), for
/// x >= 0; ApproxExp (Algorithm 13) is [`Fpr::expm_p63`].
fn ber_exp(p: &mut Prng, x: Fpr, ccs: Fpr) -> bool {
    // x = s ln 2 + r with 0 <= r < ln 2; s saturated at 63.
    let s = x.mul(Fpr::INV_LOG2).trunc() as i32;
    let r = x.sub(Fpr::of(i64::from(s)).mul(Fpr::LOG2));
    let mut sw = s as u32;
    sw ^= (sw ^ 63) & 0u32.wrapping_sub(63u32.wrapping_sub(sw) >> 31);
    let z = ((r.expm_p63(ccs) << 1).wrapping_sub(1)) >> sw;
    // Lazy byte-wise comparison of a uniform 64-bit value with z.
    let mut i = 64;
    let mut w;
    loop {
        i -= 8;
        w = p.next_u8().wrapping_sub(((z >> i) as u32) & 0xFF);
        if w != 0 || i == 0 {
            break;
        }
    }
    (w >> 31) != 0
}

/// The sampler's context: the PRNG and sigma_min of the parameter set.
pub(crate) struct Sampler {
    pub(crate) prng: Prng,
    pub(crate) sigma_min: Fpr,
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
        loop {
            let z0 = base_sampler(&mut self.prng);
            let b = (self.prng.next_u8() & 1) as i32;
            let z = b + ((b << 1) - 1) * z0;
            let mut x = Fpr::of(i64::from(z)).sub(r).sqr().mul(dss);
            x = x.sub(Fpr::of(i64::from(z0 * z0)).mul(Fpr::INV_2SQRSIGMA0));
            if ber_exp(&mut self.prng, x, ccs) {
                return s + i64::from(z);
            }
        }
    }
}
