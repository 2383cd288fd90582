//! FIPS 204, Algorithm 29: SampleInBall, in constant time, for the signer.
//!
//! The signer runs SampleInBall on the challenge of every attempt, and the challenges of
//! rejected attempts are secret: published key-recovery attacks on Dilithium work from exactly
//! those (a rejected c with the knowledge of why it was rejected). The textbook form
//! ([`crate::sample::sample_in_ball`], kept for verification, where c is public) leaks c
//! through its rejection loop (how many bytes each position took) and through the memory index
//! j of line 9. Here c is held as two 256-bit masks (which coefficients are nonzero, which are
//! negative) in four 64-bit words each, and every byte of the stream is processed the same way:
//! whether it is accepted, where it goes and which sign it sets are masks and shift amounts
//! (variable shifts are constant-time on x86-64 and on the Cortex-M4), never branches or memory
//! indices.
//!
//! One fact is declassified: whether the first `tau + 24` bytes after the sign bits held tau
//! accepted positions. They fail to with probability below 2^-20 for every parameter set (more
//! than 24 bytes would have to be rejected; the expected number is 3 to 8); the stream is then
//! read on, byte by byte in the same constant-time way, from the rest of the first block and
//! further blocks.

use pqlab_keccak::Shake256;
use zeroize::Zeroize;

use crate::backend::Ops;
use crate::params::ParameterSet;
#[cfg(any(test, not(feature = "small-memory")))]
use crate::poly::Poly;

/// Bytes of the first SHAKE256 block after the eight sign bytes.
const FIRST_BLOCK: usize = 136 - 8;

/// Accepted-position bytes read before the declassified "done?" check: tau plus this many
/// rejections.
const SLACK: usize = 24;

/// c in mask form: bit k % 64 of word k / 64 of `nonzero` says c_k != 0, the same bit of
/// `negative` says c_k = -1. Secret (for an attempt that may still be rejected); wiped on drop.
pub(crate) struct BallMasks {
    pub(crate) nonzero: [u64; 4],
    pub(crate) negative: [u64; 4],
}

impl Drop for BallMasks {
    fn drop(&mut self) {
        self.nonzero.zeroize();
        self.negative.zeroize();
    }
}

/// The running state of Algorithm 29 over the byte stream: c, the 64 sign bits, the position
/// `i` being filled (256 - tau + the number of accepted bytes; 256 when done) and tau. Read and
/// written by the back ends' [`Ops::ball_bytes`], each in one of two forms of c: the masks `c`
/// (the portable form), or the positions `pos` (the SIMD back ends': `pos[t]` is where the t-th
/// +-1 placed, of sign bit t of `signs`, lies now; 0xFF before it is placed), turned into the
/// masks by [`Ops::ball_finish`] once every position is filled.
pub(crate) struct BallState {
    pub(crate) c: BallMasks,
    pub(crate) pos: [u8; 64],
    pub(crate) signs: u64,
    pub(crate) i: u64,
    pub(crate) tau: u64,
}

/// FIPS 204, Algorithm 29 line 7 in constant time: all ones if the sampling at position `i`
/// is not done (i < 256) and the stream byte `j` is accepted (j <= i), else zero (both
/// differences are taken of values below 2^9). Shared by every back end's kernel.
#[inline(always)]
pub(crate) fn accept_mask(i: u64, j: u64) -> u64 {
    let active = (i.wrapping_sub(256) >> 63).wrapping_neg();
    active & ((i.wrapping_sub(j) >> 63) ^ 1).wrapping_neg()
}

/// [`Ops::ball_bytes`] in portable Rust: [`BallState::byte`] on each byte.
pub(crate) fn ball_bytes_portable(st: &mut BallState, bytes: &[u8]) {
    for &b in bytes {
        st.byte(b);
    }
}

/// [`Ops::ball_poly`] in portable Rust: c as a polynomial (coefficients in {-1, 0, 1}) from
/// its masks, without branches.
// Unused under `small-memory` outside the tests (its signer takes the positions instead).
#[cfg_attr(all(feature = "small-memory", not(test)), allow(dead_code))]
pub(crate) fn ball_poly_portable(c: &BallMasks, out: &mut [i32; 256]) {
    for (k, coeff) in out.iter_mut().enumerate() {
        let nz = (c.nonzero[k / 64] >> (k % 64)) & 1;
        let neg = (c.negative[k / 64] >> (k % 64)) & 1;
        *coeff = (nz as i32) * (1 - 2 * neg as i32);
    }
}

impl BallState {
    /// FIPS 204, Algorithm 29, lines 6 to 10 for one stream byte `b`, in constant time: if
    /// the sampling is not done and b <= i (line 7 accepts j = b), c_i = c_j (line 9; c_i is
    /// still zero), c_j = (-1)^h\[i + tau - 256\] (line 10), i + 1; else nothing changes.
    #[inline(always)]
    fn byte(&mut self, b: u8) {
        let j = u64::from(b);
        let i = self.i;
        let accept = accept_mask(i, j);
        let (jb, ib) = (j & 63, i & 63);
        // One-hot word selectors: bit w of `at_j` is set if c_j lies in word w.
        let (at_j, at_i) = (1u64 << (j >> 6), 1u64 << ((i >> 6) & 3));
        let word = |at: u64, w: usize| ((at >> w) & 1).wrapping_neg();
        let (mut nz_j, mut neg_j) = (0u64, 0u64);
        for w in 0..4 {
            let m = word(at_j, w);
            nz_j |= self.c.nonzero[w] & m;
            neg_j |= self.c.negative[w] & m;
        }
        let k = i.wrapping_sub(256 - self.tau) & 63;
        let sign = (self.signs >> k) & 1;
        // Line 9 (bit i is zero before): c_i = c_j; line 10 after it (so that j = i ends with
        // the sign): c_j = +-1.
        let (nz_i, neg_i) = (((nz_j >> jb) & 1) << ib, ((neg_j >> jb) & 1) << ib);
        let (bit_j, sign_j) = ((1u64 << jb) & accept, (sign << jb) & accept);
        let (nz_i, neg_i) = (nz_i & accept, neg_i & accept);
        for w in 0..4 {
            let (mi, mj) = (word(at_i, w), word(at_j, w));
            self.c.nonzero[w] |= (nz_i & mi) | (bit_j & mj);
            self.c.negative[w] =
                ((self.c.negative[w] | (neg_i & mi)) & !(bit_j & mj)) | (sign_j & mj);
        }
        self.i += accept & 1;
    }

    /// Whether every position is filled (declassified: see the module documentation).
    fn done(&self) -> bool {
        self.i == 256
    }
}

/// FIPS 204, Algorithm 29: SampleInBall(rho) for rho = c_tilde, in constant time (module
/// documentation), as masks. `slack` is the number of rejections allowed before the
/// declassified check ([`SLACK`]; the tests lower it to reach the rest of the stream).
fn sample_masks<P: ParameterSet, B: Ops>(c_tilde: &[u8], slack: usize) -> BallMasks {
    let _k = pqlab_profile::enter(pqlab_profile::Kernel::Sample);
    let mut h = Shake256::new();
    h.absorb(c_tilde);
    let mut reader = h.finalize();
    let mut first = [0u8; 136];
    reader.squeeze(&mut first);
    let (sign_bytes, rest) = first.split_at(8);
    let mut s = BallState {
        c: BallMasks {
            nonzero: [0; 4],
            negative: [0; 4],
        },
        pos: [0xFF; 64],
        signs: u64::from_le_bytes(sign_bytes.try_into().unwrap_or([0; 8])),
        i: (256 - P::TAU) as u64,
        tau: P::TAU as u64,
    };
    let budget = (P::TAU + slack).min(FIRST_BLOCK);
    B::ball_bytes(&mut s, &rest[..budget]);
    if !s.done() {
        B::ball_bytes(&mut s, &rest[budget..]);
        while !s.done() {
            let mut block = reader.squeeze_block();
            B::ball_bytes(&mut s, &block);
            block.zeroize();
        }
    }
    B::ball_finish(&mut s);
    first.zeroize();
    s.pos.zeroize();
    s.signs = 0;
    s.c
}

impl BallMasks {
    /// FIPS 204, Algorithm 29: SampleInBall(c_tilde) in constant time (module documentation).
    pub(crate) fn sample<P: ParameterSet, B: Ops>(c_tilde: &[u8]) -> Self {
        sample_masks::<P, B>(c_tilde, SLACK)
    }

    /// c as a polynomial (coefficients in {-1, 0, 1}), without branches, on the kernels of
    /// `B` ([`Ops::ball_poly`]; the default signer; `small-memory` uses
    /// [`BallMasks::positions`]).
    #[cfg(any(test, not(feature = "small-memory")))]
    pub(crate) fn to_poly<B: Ops>(&self) -> Poly {
        let mut c = Poly::ZERO;
        B::ball_poly(self, &mut c.0);
        c
    }

    /// Calls `f(k, sign)` for each of the tau nonzero coefficients c_k = sign, in increasing k,
    /// without branches on c: `slots` receives (k, sign) at index "number of nonzero
    /// coefficients before k" for every k (an entry is overwritten until its coefficient is
    /// nonzero), so the writes go to a secret index inside one small array (the `small-memory`
    /// signer's form: on the Cortex-M4, which has no data cache, that is constant-time).
    #[cfg(any(test, feature = "small-memory"))]
    pub(crate) fn positions(&self, pos: &mut [u8], sign: &mut [i32]) -> usize {
        let mut n = 0usize;
        for k in 0..256 {
            let nz = ((self.nonzero[k / 64] >> (k % 64)) & 1) as usize;
            let neg = ((self.negative[k / 64] >> (k % 64)) & 1) as i32;
            let slot = n.min(pos.len() - 1);
            pos[slot] = k as u8;
            sign[slot] = 1 - 2 * neg;
            n += nz;
        }
        n
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::{MlDsa44, MlDsa65, MlDsa87};
    use crate::sample::sample_in_ball;

    /// The constant-time form equals the textbook one on many challenges, with the usual
    /// slack and with none (every byte after tau goes through the rest-of-stream path).
    fn equals_textbook<P: ParameterSet, B: Ops>() -> usize {
        let mut x = 0x243F_6A88_85A3_08D3u64;
        let mut cases = 0;
        for _ in 0..2000 {
            let c_tilde: [u8; 64] = core::array::from_fn(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x as u8
            });
            let c_tilde = &c_tilde[..P::C_TILDE_LEN];
            let want = sample_in_ball::<P>(c_tilde);
            for slack in [SLACK, 0] {
                let got = sample_masks::<P, B>(c_tilde, slack).to_poly::<B>();
                assert_eq!(got, want, "slack {slack}");
                cases += 1;
            }
            let ones = want.0.iter().filter(|&&v| v != 0).count();
            assert_eq!(ones, P::TAU);
        }
        cases
    }

    fn all_sets<B: Ops>() -> usize {
        equals_textbook::<MlDsa44, B>()
            + equals_textbook::<MlDsa65, B>()
            + equals_textbook::<MlDsa87, B>()
    }

    /// Under every back end the CPU has (the SIMD ones run their own `ball_bytes`).
    #[test]
    fn constant_time_sample_in_ball_equals_algorithm_29() {
        let mut ran = 0;
        for backend in pqlab_backend::Backend::ALL {
            if !backend.is_available() {
                std::eprintln!("{}: not available, skipped", backend.name());
                continue;
            }
            let cases = crate::backend::dispatch!(on backend, B => all_sets::<B>());
            assert_eq!(cases, 3 * 2000 * 2, "{}", backend.name());
            ran += 1;
        }
        assert!(ran >= 1);
    }

    #[test]
    fn a_stream_of_rejections_reads_on() {
        // A sampler fed bytes above every position rejects them all and stays where it is;
        // an accepted byte then fills position 256 - tau.
        let mut s = BallState {
            c: BallMasks {
                nonzero: [0; 4],
                negative: [0; 4],
            },
            pos: [0xFF; 64],
            signs: 1,
            i: 256 - 39,
            tau: 39,
        };
        for _ in 0..300 {
            s.byte(255);
        }
        assert_eq!(s.i, 256 - 39);
        s.byte(3);
        assert_eq!(s.i, 256 - 39 + 1);
        let c = s.c.to_poly::<crate::backend::portable::Portable>();
        assert_eq!(c.0[3], -1);
        assert_eq!(c.0.iter().filter(|&&v| v != 0).count(), 1);
    }
}
