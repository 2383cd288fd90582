//! Mixed multi-lane SHAKE: up to eight instances side by side, each lane SHAKE128 or SHAKE256
//! (FIPS 202, Section 6.2) of its own short input, so that streams of both functions share one
//! permutation call (ML-KEM key generation runs SampleNTT's SHAKE128 and the PRF's SHAKE256 in
//! the same eight lanes).

use pqlab_backend::Backend;
use zeroize::{Zeroize, ZeroizeOnDrop};

use super::{Engine, Interleaved, permute};

/// The extendable-output function of one lane of a [`ShakeMix`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Xof {
    /// SHAKE128: rate 168 bytes.
    Shake128,
    /// SHAKE256: rate 136 bytes.
    Shake256,
}

impl Xof {
    /// The rate in bytes.
    pub const fn rate(self) -> usize {
        match self {
            Xof::Shake128 => 168,
            Xof::Shake256 => 136,
        }
    }
}

/// Up to 8 SHAKE128 or SHAKE256 instances of short inputs, run side by side.
///
/// Lane `l` computes `xofs[l]` of `inputs[l]` (FIPS 202, Section 6.2, through the sponge of
/// Algorithm 8); each input is shorter than its lane's rate, so it is absorbed in one block.
/// The output stream of each lane equals, byte for byte, that of [`Shake128`](crate::Shake128) or
/// [`Shake256`](crate::Shake256) of the same input. The states may hold secret inputs and are
/// zeroized on drop.
pub struct ShakeMix {
    state: Interleaved,
    /// Lanes in use, 0..=8; lanes from here on are zero.
    lanes: usize,
    /// The rate of each lane in bytes.
    rates: [usize; 8],
    engine: Engine,
}

impl ShakeMix {
    /// The most lanes one ShakeMix runs.
    pub const MAX_LANES: usize = 8;
    /// The largest rate, the size of the blocks of [`ShakeMix::squeeze_blocks`].
    pub const MAX_RATE: usize = 168;

    /// Absorbs `inputs[l]` into lane `l` with the XOF `xofs[l]` and pads it (FIPS 202,
    /// Algorithm 9: pad10*1 with the SHAKE suffix 1111), ready to squeeze; runs on `backend`
    /// if this machine has it, else on the portable code.
    ///
    /// Returns `None` if there are no inputs, more than 8, not one XOF per input, or an input
    /// not shorter than its lane's rate.
    pub fn new(backend: Backend, inputs: &[&[u8]], xofs: &[Xof]) -> Option<Self> {
        if inputs.is_empty() || inputs.len() > Self::MAX_LANES || inputs.len() != xofs.len() {
            return None;
        }
        if inputs.iter().zip(xofs).any(|(m, x)| m.len() >= x.rate()) {
            return None;
        }
        let mut x = Self {
            state: Interleaved::ZERO,
            lanes: inputs.len(),
            rates: [0; 8],
            engine: Engine::new(backend),
        };
        for (l, (m, xof)) in inputs.iter().zip(xofs).enumerate() {
            let rate = xof.rate();
            x.rates[l] = rate;
            x.state.absorb_final(l, m, rate);
        }
        Some(x)
    }

    /// The number of lanes in use.
    pub fn lanes(&self) -> usize {
        self.lanes
    }

    /// Stops every lane from `lanes` on (their states are zeroized), so that later permutations
    /// run on fewer lanes (a narrower, cheaper permutation once at most 4 are left).
    pub fn truncate(&mut self, lanes: usize) {
        if lanes < self.lanes {
            for row in self.state.0.iter_mut() {
                row[lanes..].zeroize();
            }
            self.lanes = lanes;
        }
    }

    /// Writes the next block of every lane's output stream into `out[l]`: its first `rate`
    /// bytes, the rate of lane `l` (the rest of `out[l]` is left alone). `out.len()` should
    /// equal [`ShakeMix::lanes`]; extra entries are left alone, missing ones skipped.
    ///
    /// FIPS 202, Algorithm 8, steps 7 to 10: the permutation, then the first `rate` bytes of
    /// each state.
    pub fn squeeze_blocks(&mut self, out: &mut [[u8; Self::MAX_RATE]]) {
        if self.lanes == 0 {
            return;
        }
        permute(self.engine, &mut self.state, self.lanes);
        for (l, block) in out.iter_mut().take(self.lanes).enumerate() {
            let rate = self.rates[l];
            for (row, bytes) in self.state.0.iter().zip(block[..rate].chunks_exact_mut(8)) {
                bytes.copy_from_slice(&crate::keccak::lane_out(row[l]).to_le_bytes());
            }
        }
    }
}

impl Drop for ShakeMix {
    fn drop(&mut self) {
        self.state.0.zeroize();
    }
}

impl ZeroizeOnDrop for ShakeMix {}
