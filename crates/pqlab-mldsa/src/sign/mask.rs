//! The masks of the rejection loop (FIPS 204, Algorithm 7 line 11: y = ExpandMask(rho'',
//! kappa), kappa += l at line 32) drawn in full Keccak batches: attempt number a takes streams
//! a l to a l + l - 1 of rho'' (Algorithm 34: stream kappa + r is SHAKE256(rho'' ||
//! IntegerToBytes(kappa + r, 2))), so the streams do not care which attempt they belong to. A
//! batch of the multi-lane Keccak costs the same with l lanes as with 8 (the 8-way AVX-512
//! permutation, or two 4-way AVX2 ones, from 5 lanes on), so each batch draws 8 consecutive
//! streams: the attempt's missing ones, and the first of the next attempts, kept packed here
//! until they are taken. ML-DSA-65 (l = 5) then runs 5 batches for 8 attempts instead of 8,
//! ML-DSA-87 (l = 7) 7 instead of 8; ML-DSA-44 (l = 4) keeps one 4-lane batch per attempt
//! ([`MaskPool::batch`]). The streams drawn ahead are secret (they are masks):
//! wiped on drop; whether there are any depends only on the attempt count, which the loop
//! reveals anyway.

use pqlab_backend::Backend;
use zeroize::Zeroize;

use crate::backend::Ops;
use crate::params::{LANES, ParameterSet};
use crate::sample::{expand_mask_packed, expand_mask_streams};

/// The streams one batch draws at most (the lanes of the multi-lane Keccak).
const BATCH: usize = 8;

/// The bytes kept for streams drawn ahead: at most `BATCH - 1` packed polynomials of 640 bytes
/// (32 c, c = 20 for gamma1 = 2^19); none under `small-memory`, whose streams run one at a time.
pub(super) const AHEAD: usize = if LANES == 1 { 0 } else { (BATCH - 1) * 640 };

/// The streams of y drawn ahead of their attempt, in `N` bytes: [`AHEAD`], or 0 where no
/// stream is drawn ahead (l <= 4: the signer picks the size, so that ML-DSA-44's signing
/// frame does not carry the 4,480 unused bytes).
pub(super) struct MaskPool<const N: usize> {
    /// Streams kappa, kappa + 1, ... of the next attempt (packed, 32 c bytes each): the first
    /// `have` of them.
    ahead: [u8; N],
    /// How many are there.
    have: usize,
}

impl<const N: usize> MaskPool<N> {
    pub(super) fn new() -> Self {
        Self {
            ahead: [0; N],
            have: 0,
        }
    }

    /// How many streams a batch draws on `B` for parameter set `P`: l alone on the portable
    /// back end (one scalar permutation per lane: streams drawn ahead would cost as much) and
    /// for l = 4 (ML-DSA-44: its 4 lanes run one 4-way permutation, 0.62 of the 8-way one on
    /// AVX-512, so 8 streams would save only 0.2 of a batch per attempt, and cost 0.6 of one
    /// when the first attempt is accepted), else 8, the lanes of the 8-way AVX-512 permutation
    /// or of two 4-way AVX2 ones; l alone too in an empty pool (N = 0).
    fn batch<P: ParameterSet, B: Ops>() -> usize {
        match B::BACKEND {
            _ if N == 0 => P::L,
            Backend::Portable => P::L,
            _ if P::L <= 4 => P::L,
            _ => BATCH,
        }
    }

    /// FIPS 204, Algorithm 7 line 11: y = ExpandMask(rho'', kappa) (Algorithm 34), packed into
    /// `out` (l 32 c bytes: the place of z in the signature): the streams drawn ahead first,
    /// then, if they are not enough, one batch from stream kappa + (streams taken) on, whose
    /// streams past this attempt's are kept for the next ones. `kappa` is that of the attempt
    /// (each call's is the previous one's + l: the loop's line 32).
    pub(super) fn take<P: ParameterSet, B: Ops>(
        &mut self,
        rho_pp: &[u8; 64],
        kappa: u16,
        out: &mut [u8],
    ) {
        if LANES == 1 {
            // One stream at a time, nothing ahead.
            expand_mask_packed::<P, B>(rho_pp, kappa, out);
            return;
        }
        let len = 32 * P::GAMMA1_BITS;
        let l = P::L;
        let have = self.have;
        if have >= l {
            // The whole attempt was drawn ahead.
            out[..l * len].copy_from_slice(&self.ahead[..l * len]);
            self.ahead.copy_within(l * len..have * len, 0);
            self.have = have - l;
            return;
        }
        let (drawn, fresh) = out[..l * len].split_at_mut(have * len);
        drawn.copy_from_slice(&self.ahead[..have * len]);
        // The missing streams (1 to l) and the next ones, to fill the batch.
        let next = Self::batch::<P, B>() - (l - have);
        expand_mask_streams::<P, B>(
            rho_pp,
            kappa.wrapping_add(have as u16),
            fresh,
            &mut self.ahead[..next * len],
        );
        self.have = next;
    }
}

impl<const N: usize> Drop for MaskPool<N> {
    fn drop(&mut self) {
        self.ahead.zeroize();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::dispatch;
    use crate::params::{MAX_L, MlDsa44, MlDsa65, MlDsa87};

    /// Attempt after attempt (kappa = 0, l, 2 l, ...), the pool gives every back end's y the
    /// bytes of ExpandMask alone (Algorithm 34, one stream at a time on the portable back end),
    /// whatever it drew ahead: over 24 attempts, every count of streams ahead (0 to 7) comes up
    /// for l = 5 and 7 on the SIMD back ends. Returns the attempts checked.
    fn pool_equals_expand_mask<P: ParameterSet, const N: usize>() -> usize {
        let len = 32 * P::GAMMA1_BITS;
        let mut checked = 0;
        for backend in pqlab_backend::available() {
            for seed in [0x11u8, 0xe7] {
                let rho_pp = [seed; 64];
                dispatch!(on backend, B => {
                    let mut pool = MaskPool::<N>::new();
                    let mut ahead_seen = [false; BATCH];
                    for a in 0..24u16 {
                        let kappa = a * P::L as u16;
                        ahead_seen[pool.have] = true;
                        let mut got = [0xa5u8; MAX_L * 640];
                        pool.take::<P, B>(&rho_pp, kappa, &mut got[..P::L * len]);
                        let mut want = [0u8; MAX_L * 640];
                        expand_mask_packed::<P, crate::backend::portable::Portable>(
                            &rho_pp, kappa, &mut want[..P::L * len]);
                        assert_eq!(&got[..P::L * len], &want[..P::L * len], "{} {backend:?} attempt {a}", P::NAME);
                        checked += 1;
                    }
                    // The counts ahead at the start of an attempt: every one below the batch
                    // (l = 5 and 7 are prime to 8), once batches are wider than l.
                    let batch = MaskPool::<N>::batch::<P, B>();
                    if LANES != 1 && batch > P::L {
                        for n in 0..batch {
                            assert!(ahead_seen[n], "{} {backend:?}: never {n} ahead", P::NAME);
                        }
                    }
                });
            }
        }
        checked
    }

    #[test]
    fn pool_gives_the_masks_of_expand_mask() {
        let n = pool_equals_expand_mask::<MlDsa44, AHEAD>()
            + pool_equals_expand_mask::<MlDsa65, AHEAD>()
            + pool_equals_expand_mask::<MlDsa87, AHEAD>();
        // 3 sets, 2 seeds, 24 attempts, at least the portable back end.
        assert!(n >= 3 * 2 * 24, "{n} attempts checked");
        // The empty pool (ML-DSA-44's in the signer) draws l streams per attempt.
        let n = pool_equals_expand_mask::<MlDsa44, 0>()
            + pool_equals_expand_mask::<MlDsa65, 0>()
            + pool_equals_expand_mask::<MlDsa87, 0>();
        assert!(n >= 3 * 2 * 24, "{n} attempts checked with an empty pool");
    }
}
