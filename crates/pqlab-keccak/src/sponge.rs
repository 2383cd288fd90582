//! The sponge construction over Keccak-f[1600] (FIPS 202, Section 4 and Algorithm 8), with
//! incremental absorb and squeeze.

use zeroize::Zeroize;

use crate::keccak::{keccak_f1600_state, lane_in, lane_out};

/// A Keccak sponge of rate `RATE` bytes, in its absorbing or squeezing phase.
///
/// The state may hold secret material (it does when ML-DSA expands a secret seed), so it is
/// zeroized on drop.
#[derive(Clone)]
pub(crate) struct Sponge<const RATE: usize> {
    /// The lanes in the permutation's form ([`lane_in`]: bit-interleaved on 32-bit targets),
    /// converted as bytes go in and out.
    state: [u64; 25],
    /// Byte offset in the current rate block.
    pos: usize,
}

impl<const RATE: usize> Sponge<RATE> {
    pub(crate) const fn new() -> Self {
        // The rate of every FIPS 202 function is a whole number of lanes below 200 bytes.
        const { assert!(RATE.is_multiple_of(8) && RATE < 200) };
        Self {
            state: [0; 25],
            pos: 0,
        }
    }

    #[inline]
    fn xor_byte(&mut self, i: usize, b: u8) {
        self.state[i / 8] ^= lane_in(u64::from(b) << (8 * (i % 8)));
    }

    /// XORs `data` into the rate at byte offset `pos` (`pos + data.len() <= RATE`): bytes up
    /// to a lane boundary, then whole lanes, then the last bytes.
    #[inline]
    fn xor_in(&mut self, mut pos: usize, mut data: &[u8]) {
        while !pos.is_multiple_of(8) && !data.is_empty() {
            self.xor_byte(pos, data[0]);
            pos += 1;
            data = &data[1..];
        }
        let lanes = data.chunks_exact(8);
        let tail = lanes.remainder();
        for bytes in lanes {
            let mut w = [0u8; 8];
            w.copy_from_slice(bytes);
            self.state[pos / 8] ^= lane_in(u64::from_le_bytes(w));
            pos += 8;
        }
        for &b in tail {
            self.xor_byte(pos, b);
            pos += 1;
        }
    }

    /// Absorbs `data`; may be called any number of times before [`Sponge::pad`]. Each piece
    /// that fits in the current block goes in lane by lane wherever it is lane aligned (as
    /// after a 32-byte prefix), so that splitting an input into parts costs nothing.
    pub(crate) fn absorb(&mut self, mut data: &[u8]) {
        while !data.is_empty() {
            let n = core::cmp::min(RATE - self.pos, data.len());
            let (now, rest) = data.split_at(n);
            self.xor_in(self.pos, now);
            self.pos += n;
            if self.pos == RATE {
                keccak_f1600_state(&mut self.state);
                self.pos = 0;
            }
            data = rest;
        }
    }

    /// Appends the domain-separation bits `ds` (with the first bit of pad10*1 already merged,
    /// e.g. 0x06 for SHA-3 and 0x1F for SHAKE), completes pad10*1 and switches to squeezing.
    pub(crate) fn pad(&mut self, ds: u8) {
        self.xor_byte(self.pos, ds);
        self.xor_byte(RATE - 1, 0x80);
        keccak_f1600_state(&mut self.state);
        self.pos = 0;
    }

    /// Squeezes `out.len()` bytes; may be called any number of times after [`Sponge::pad`].
    pub(crate) fn squeeze(&mut self, mut out: &mut [u8]) {
        while !out.is_empty() {
            if self.pos == RATE {
                keccak_f1600_state(&mut self.state);
                self.pos = 0;
            }
            if self.pos.is_multiple_of(8) && out.len() >= 8 {
                // Whole lanes.
                let lanes = core::cmp::min(out.len() / 8, (RATE - self.pos) / 8);
                let (head, tail) = out.split_at_mut(lanes * 8);
                for (i, chunk) in head.chunks_exact_mut(8).enumerate() {
                    chunk.copy_from_slice(&lane_out(self.state[self.pos / 8 + i]).to_le_bytes());
                }
                self.pos += lanes * 8;
                out = tail;
            } else {
                // Bytes of one lane, up to its end: the lane converted once.
                let at = self.pos % 8;
                let n = core::cmp::min(8 - at, out.len());
                let bytes = lane_out(self.state[self.pos / 8]).to_le_bytes();
                let (head, tail) = out.split_at_mut(n);
                head.copy_from_slice(&bytes[at..at + n]);
                self.pos += n;
                out = tail;
            }
        }
    }
}

impl<const RATE: usize> Drop for Sponge<RATE> {
    fn drop(&mut self) {
        self.state.zeroize();
        self.pos = 0;
    }
}
