//! Multi-lane SHAKE: up to eight SHAKE128 or SHAKE256 instances (FIPS 202, Section 6.2) with
//! inputs of equal length, absorbed and squeezed side by side.
//!
//! The eight Keccak states are stored interleaved ([`Interleaved`]): lane `i` (FIPS 202, Section
//! 3.1.2) of instance `l` is `s[i][l]`, so that lane `i` of four or eight instances is one 256-bit
//! or 512-bit vector. The permutation has one twin file per back end, each with the same
//! function set ([`portable`], `avx2`, `avx512`):
//!
//! * `keccak_f1600_x4(state, upper)`: Keccak-f\[1600\] on instances 0..4 (or 4..8 if `upper`);
//! * `keccak_f1600_x8(state)`: Keccak-f\[1600\] on all eight instances.
//!
//! Which one runs is decided per permutation call from the back end stored in [`ShakeX`] (checked
//! available when it was made) and the number of lanes; the back end is public, never secret.

#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(target_arch = "x86_64")]
mod avx512;
mod mix;
pub(crate) mod portable;

pub use mix::{ShakeMix, Xof};

use pqlab_backend::Backend;
use zeroize::{Zeroize, ZeroizeOnDrop};

use crate::SHAKE_DS;
use crate::keccak::{lane_in, lane_out};

/// Eight interleaved Keccak-f\[1600\] states: `self.0[i][l]` is lane `A[i]` (`i = x + 5y`,
/// FIPS 202, Section 3.1.2) of instance `l`, in the form of `keccak::lane_in` (on 32-bit
/// targets each lane is itself bit-interleaved). Aligned to a cache line so that each row of
/// eight lanes is one 512-bit vector.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(64))]
pub(crate) struct Interleaved(pub(crate) [[u64; 8]; 25]);

impl Interleaved {
    /// All eight states zero.
    pub(crate) const ZERO: Self = Self([[0; 8]; 25]);

    /// XORs the last, partial block `tail` (shorter than `rate` bytes) of lane `l`'s SHAKE input
    /// into its state, then the padding (FIPS 202, Algorithm 9: pad10*1, with the SHAKE suffix
    /// 1111 merged into its first byte).
    pub(crate) fn absorb_final(&mut self, l: usize, tail: &[u8], rate: usize) {
        let whole = tail.chunks_exact(8);
        let bytes = whole.remainder();
        for (row, word) in self.0.iter_mut().zip(whole) {
            row[l] ^= lane_in(load64(word));
        }
        let mut last = 0u64;
        for (k, &b) in bytes.iter().enumerate() {
            last |= u64::from(b) << (8 * k);
        }
        last |= u64::from(SHAKE_DS) << (8 * (tail.len() % 8));
        self.0[tail.len() / 8][l] ^= lane_in(last);
        self.0[rate / 8 - 1][l] ^= lane_in(0x80 << 56);
    }
}

/// Up to 8 SHAKE instances with inputs of equal length, run side by side.
///
/// Each lane `i` computes SHAKE with rate `RATE` bytes (FIPS 202, Section 6.2, through the sponge
/// of Algorithm 8) of `inputs[i]`; its output stream equals, byte for byte, that of the one-lane
/// [`Shake`](crate::Shake) of the same rate. The states hold the (often secret) inputs and are
/// zeroized on drop.
pub struct ShakeX<const RATE: usize> {
    state: Interleaved,
    /// Number of lanes in use, 0..=8 (0 only after a caller's error).
    lanes: usize,
    /// The permutation's back end, available on this machine.
    engine: Engine,
}

/// The back end of a [`ShakeX`], with the proof that the CPU has it.
#[derive(Clone, Copy, Debug)]
enum Engine {
    Portable,
    #[cfg(target_arch = "x86_64")]
    Avx2(avx2::Avx2),
    #[cfg(target_arch = "x86_64")]
    Avx512(avx512::Avx512),
}

impl Engine {
    /// The engine of `backend` if this machine has it, else the portable one.
    fn new(backend: Backend) -> Self {
        match backend {
            Backend::Portable => Engine::Portable,
            #[cfg(target_arch = "x86_64")]
            Backend::Avx2 => avx2::Avx2::detect().map_or(Engine::Portable, Engine::Avx2),
            #[cfg(target_arch = "x86_64")]
            Backend::Avx512 => avx512::Avx512::detect().map_or(Engine::Portable, Engine::Avx512),
            #[cfg(not(target_arch = "x86_64"))]
            _ => Engine::Portable,
        }
    }
}

/// Eight lanes of SHAKE128 (FIPS 202, Section 6.2), side by side.
pub type Shake128X = ShakeX<168>;
/// Eight lanes of SHAKE256 (FIPS 202, Section 6.2), side by side.
pub type Shake256X = ShakeX<136>;

/// The little-endian 64-bit word of an 8-byte chunk.
#[inline(always)]
fn load64(bytes: &[u8]) -> u64 {
    let mut w = [0u8; 8];
    w.copy_from_slice(bytes);
    u64::from_le_bytes(w)
}

/// The first `out.len()` bytes (at most 200) of instance `lane` of `state`, little-endian
/// lanes in order: whole words first, then the bytes of a last partial one.
#[inline(always)]
fn read_lane(state: &Interleaved, lane: usize, out: &mut [u8]) {
    let whole = (out.len() / 8).min(25);
    let (head, tail) = out.split_at_mut(8 * whole);
    for (row, bytes) in state.0.iter().zip(head.chunks_exact_mut(8)) {
        bytes.copy_from_slice(&lane_out(row[lane]).to_le_bytes());
    }
    if let (Some(row), false) = (state.0.get(whole), tail.is_empty()) {
        let n = tail.len().min(8);
        tail[..n].copy_from_slice(&lane_out(row[lane]).to_le_bytes()[..n]);
    }
}

/// How `total` independent SHAKE streams are best split into [`ShakeX`] batches on `backend`:
/// at most 8 lanes per batch with AVX-512 (its 8-way permutation), else 4, and the batches as
/// even as possible (9 streams on 8 lanes: 5 and 4; 30 streams: 8, 8, 8, 6). Yields
/// (first stream, number of streams).
pub fn lane_batches(backend: Backend, total: usize) -> impl Iterator<Item = (usize, usize)> {
    let lanes = if backend == Backend::Avx512 { 8 } else { 4 };
    let groups = total.div_ceil(lanes);
    let per = if groups == 0 {
        0
    } else {
        total.div_ceil(groups)
    };
    (0..groups).map(move |g| (g * per, per.min(total - g * per)))
}

impl<const RATE: usize> ShakeX<RATE> {
    /// The most lanes one ShakeX runs.
    pub const MAX_LANES: usize = 8;

    /// Absorbs inputs\[i\] into lane i (1 to 8 inputs, all of the same length, any length), pads
    /// with the SHAKE suffix and gets ready to squeeze. Runs on `backend` if it is available
    /// ([`Backend::is_available`]), else on the portable code.
    ///
    /// FIPS 202, Algorithm 8: SPONGE\[KECCAK-p\[1600, 24\], pad10*1, 1600 - 2*RATE*8\] on
    /// `M || 1111` (Section 6.2), up to its last absorbed block; the permutation after the last
    /// block runs in the first [`ShakeX::squeeze_blocks`].
    ///
    /// An input count of 0 or more than 8, or inputs of unequal lengths, are a programming error
    /// of the caller: debug builds assert; release builds use the first 8 inputs and the shortest
    /// length (0 inputs: a ShakeX with no lanes), and never panic.
    pub fn new(backend: Backend, inputs: &[&[u8]]) -> Self {
        const { assert!(RATE.is_multiple_of(8) && RATE > 0 && RATE < 200) };
        debug_assert!(
            (1..=Self::MAX_LANES).contains(&inputs.len()),
            "ShakeX::new takes 1 to 8 inputs"
        );
        debug_assert!(
            inputs.windows(2).all(|w| w[0].len() == w[1].len()),
            "ShakeX::new takes inputs of equal length"
        );
        let inputs = &inputs[..inputs.len().min(Self::MAX_LANES)];
        let len = inputs.iter().map(|m| m.len()).min().unwrap_or(0);
        let mut x = Self {
            state: Interleaved::ZERO,
            lanes: inputs.len(),
            engine: Engine::new(backend),
        };

        // Whole blocks: XOR in, permute.
        let mut off = 0;
        while len - off >= RATE {
            for (l, m) in inputs.iter().enumerate() {
                for (row, word) in x.state.0.iter_mut().zip(m[off..off + RATE].chunks_exact(8)) {
                    row[l] ^= lane_in(load64(word));
                }
            }
            x.permute();
            off += RATE;
        }

        // The last, partial block (possibly empty), then the padding (FIPS 202, Algorithm 9:
        // pad10*1, with the SHAKE suffix 1111 merged into its first byte).
        for (l, m) in inputs.iter().enumerate() {
            x.state.absorb_final(l, &m[off..len], RATE);
        }
        x
    }

    /// The number of lanes.
    pub fn lanes(&self) -> usize {
        self.lanes
    }

    /// The back end that runs the permutations: the one asked for in [`ShakeX::new`] if this
    /// machine has it, else [`Backend::Portable`].
    pub fn backend(&self) -> Backend {
        match self.engine {
            Engine::Portable => Backend::Portable,
            #[cfg(target_arch = "x86_64")]
            Engine::Avx2(_) => Backend::Avx2,
            #[cfg(target_arch = "x86_64")]
            Engine::Avx512(_) => Backend::Avx512,
        }
    }

    /// Writes the next RATE bytes of every lane's output stream: out\[i\] for lane i
    /// (out.len() should equal lanes(); extra entries are left alone, missing ones skipped).
    ///
    /// FIPS 202, Algorithm 8, steps 7 to 10: the permutation, then the first RATE bytes of each
    /// state.
    pub fn squeeze_blocks(&mut self, out: &mut [[u8; RATE]]) {
        if self.lanes == 0 {
            return;
        }
        self.permute();
        for (l, block) in out.iter_mut().take(self.lanes).enumerate() {
            for (row, bytes) in self.state.0.iter().zip(block.chunks_exact_mut(8)) {
                bytes.copy_from_slice(&lane_out(row[l]).to_le_bytes());
            }
        }
    }

    /// Moves every lane on to its next output block, to be read with [`ShakeX::read_block`]
    /// (FIPS 202, Algorithm 8, step 10: the permutation): [`ShakeX::squeeze_blocks`] in two
    /// halves, so that a caller can take each lane's block straight where it is used instead of
    /// into one buffer per lane.
    pub fn next_blocks(&mut self) {
        if self.lanes != 0 {
            self.permute();
        }
    }

    /// Writes the first `out.len()` bytes (at most RATE) of lane `lane`'s current output block,
    /// the one of the last [`ShakeX::next_blocks`] (FIPS 202, Algorithm 8, step 8: the first
    /// bytes of the state). A lane not in use, or bytes past RATE, are left alone.
    pub fn read_block(&self, lane: usize, out: &mut [u8]) {
        if lane >= self.lanes {
            return;
        }
        let len = out.len().min(RATE);
        read_lane(&self.state, lane, &mut out[..len]);
    }

    /// FIPS 202, Algorithm 7: KECCAK-p\[1600, 24\] on the states of every lane in use ([`permute`]).
    fn permute(&mut self) {
        permute(self.engine, &mut self.state, self.lanes);
    }
}

/// FIPS 202, Algorithm 7: KECCAK-p\[1600, 24\] on the first `lanes` states, on `engine`:
/// AVX-512 with 5 to 8 lanes runs the 8-way permutation on zmm registers; AVX-512 or AVX2 with 2
/// to 4 lanes one 4-way permutation on ymm; AVX2 with 5 to 8 lanes two 4-way permutations; one
/// lane the scalar permutation ([`keccak_f1600`](crate::keccak_f1600), its BMI2 build under a
/// SIMD back end: as fast as the AVX-512 4-way one, twice as fast as the AVX2 one); portable
/// the scalar permutation per lane.
fn permute(engine: Engine, state: &mut Interleaved, lanes: usize) {
    match (engine, lanes) {
        // With `INTERLEAVED` (32-bit targets, where the engine is always portable, or the
        // `bit-interleaved` feature) the states are bit-interleaved, which only the portable
        // back end takes.
        (_, 0) | (Engine::Portable, _) => portable::keccak_f1600_lanes(state, lanes),
        #[cfg(target_arch = "x86_64")]
        _ if crate::keccak::INTERLEAVED => portable::keccak_f1600_lanes(state, lanes),
        #[cfg(target_arch = "x86_64")]
        (_, 1) => {
            let mut a: [u64; 25] = core::array::from_fn(|i| state.0[i][0]);
            crate::keccak::keccak_f1600(&mut a);
            for (row, w) in state.0.iter_mut().zip(a) {
                row[0] = w;
            }
            a.zeroize();
        }
        #[cfg(target_arch = "x86_64")]
        (Engine::Avx512(cpu), 5..) => cpu.keccak_f1600_x8(state),
        #[cfg(target_arch = "x86_64")]
        (Engine::Avx512(cpu), _) => cpu.keccak_f1600_x4(state, false),
        #[cfg(target_arch = "x86_64")]
        (Engine::Avx2(cpu), 5..) => cpu.keccak_f1600_x8(state),
        #[cfg(target_arch = "x86_64")]
        (Engine::Avx2(cpu), _) => cpu.keccak_f1600_x4(state, false),
    }
}

impl<const RATE: usize> Drop for ShakeX<RATE> {
    fn drop(&mut self) {
        self.state.0.zeroize();
    }
}

impl<const RATE: usize> ZeroizeOnDrop for ShakeX<RATE> {}

#[cfg(test)]
mod tests;
