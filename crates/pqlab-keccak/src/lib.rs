//! Keccak-f\[1600\], SHA-3 and SHAKE (FIPS 202), written for pqlab.
//!
//! * [`keccak_f1600`]: the permutation (FIPS 202, Algorithm 7).
//! * [`Sha3_224`], [`Sha3_256`], [`Sha3_384`], [`Sha3_512`]: fixed-output hashes (FIPS 202, Section 6.1),
//!   with incremental [`Sha3::update`].
//! * [`Shake128`], [`Shake256`]: extendable-output functions (FIPS 202, Section 6.2), with incremental
//!   [`Shake::absorb`] and, after [`Shake::finalize`], incremental [`ShakeReader::squeeze`].
//! * [`Shake128X`], [`Shake256X`] ([`ShakeX`]): up to eight SHAKE instances with inputs of equal
//!   length side by side, on the portable, AVX2 (4-way) or AVX-512 (8-way) permutation;
//!   [`ShakeMix`]: the same with SHAKE128 and SHAKE256 lanes mixed, for short inputs.
//!
//! `no_std`, no allocation; every state is zeroized on drop.
#![no_std]

#[cfg(test)]
extern crate std;

mod keccak;
mod multi;
mod sponge;

pub use keccak::{keccak_f1600, round_constants_bytes};
pub use multi::{Shake128X, Shake256X, ShakeMix, ShakeX, Xof, lane_batches};

use sponge::Sponge;
use zeroize::ZeroizeOnDrop;

/// Domain separation and first padding bit of SHA-3: the suffix 01, then pad10*1 (FIPS 202, 6.1).
const SHA3_DS: u8 = 0x06;
/// Domain separation and first padding bit of SHAKE: the suffix 1111, then pad10*1 (FIPS 202, 6.2).
const SHAKE_DS: u8 = 0x1F;

/// A SHA-3 hash function with rate `RATE` bytes and `OUT` bytes of output (FIPS 202, Section 6.1).
#[derive(Clone)]
pub struct Sha3<const RATE: usize, const OUT: usize> {
    sponge: Sponge<RATE>,
}

impl<const RATE: usize, const OUT: usize> Sha3<RATE, OUT> {
    /// Length of the digest in bytes.
    pub const OUTPUT_LEN: usize = OUT;

    /// A new hash computation.
    pub const fn new() -> Self {
        Self {
            sponge: Sponge::new(),
        }
    }

    /// Absorbs more input.
    pub fn update(&mut self, data: &[u8]) -> &mut Self {
        self.sponge.absorb(data);
        self
    }

    /// Ends the computation and returns the digest.
    pub fn finalize(mut self) -> [u8; OUT] {
        self.sponge.pad(SHA3_DS);
        let mut out = [0u8; OUT];
        self.sponge.squeeze(&mut out);
        out
    }

    /// The digest of `data` in one call.
    pub fn digest(data: &[u8]) -> [u8; OUT] {
        let mut h = Self::new();
        h.update(data);
        h.finalize()
    }
}

impl<const RATE: usize, const OUT: usize> Default for Sha3<RATE, OUT> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const RATE: usize, const OUT: usize> ZeroizeOnDrop for Sha3<RATE, OUT> {}

/// SHA3-224 (FIPS 202, Section 6.1).
pub type Sha3_224 = Sha3<144, 28>;
/// SHA3-256 (FIPS 202, Section 6.1).
pub type Sha3_256 = Sha3<136, 32>;
/// SHA3-384 (FIPS 202, Section 6.1).
pub type Sha3_384 = Sha3<104, 48>;
/// SHA3-512 (FIPS 202, Section 6.1).
pub type Sha3_512 = Sha3<72, 64>;

/// A SHAKE extendable-output function with rate `RATE` bytes, absorbing (FIPS 202, Section 6.2).
#[derive(Clone)]
pub struct Shake<const RATE: usize> {
    sponge: Sponge<RATE>,
}

impl<const RATE: usize> Shake<RATE> {
    /// The rate in bytes: the block size that [`ShakeReader::squeeze_block`] returns.
    pub const RATE: usize = RATE;

    /// A new, empty absorbing state.
    pub const fn new() -> Self {
        Self {
            sponge: Sponge::new(),
        }
    }

    /// Absorbs more input.
    pub fn absorb(&mut self, data: &[u8]) -> &mut Self {
        self.sponge.absorb(data);
        self
    }

    /// Ends absorbing and returns the reader that squeezes the output stream.
    pub fn finalize(mut self) -> ShakeReader<RATE> {
        self.sponge.pad(SHAKE_DS);
        ShakeReader {
            sponge: self.sponge.clone(),
        }
    }

    /// Absorbs every part of `input` in order and fills `out` (a one-shot XOF call).
    pub fn digest_parts(input: &[&[u8]], out: &mut [u8]) {
        Self::reader_of_parts(input).squeeze(out);
    }

    /// Absorbs every part of `input` in order and returns the reader of the output stream:
    /// [`Shake::new`], [`Shake::absorb`] and [`Shake::finalize`] in one call that holds one
    /// Keccak state, not two (the absorbing one and the reader's), for callers that count
    /// their stack.
    pub fn reader_of_parts(input: &[&[u8]]) -> ShakeReader<RATE> {
        let mut sponge = Sponge::new();
        for part in input {
            sponge.absorb(part);
        }
        sponge.pad(SHAKE_DS);
        ShakeReader { sponge }
    }
}

impl<const RATE: usize> Default for Shake<RATE> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const RATE: usize> ZeroizeOnDrop for Shake<RATE> {}

/// The squeezing phase of a SHAKE computation.
#[derive(Clone)]
pub struct ShakeReader<const RATE: usize> {
    sponge: Sponge<RATE>,
}

impl<const RATE: usize> ShakeReader<RATE> {
    /// Writes the next `out.len()` bytes of the output stream.
    pub fn squeeze(&mut self, out: &mut [u8]) {
        self.sponge.squeeze(out);
    }

    /// Returns the next `RATE` bytes of the output stream.
    pub fn squeeze_block(&mut self) -> [u8; RATE] {
        let mut out = [0u8; RATE];
        self.sponge.squeeze(&mut out);
        out
    }
}

impl<const RATE: usize> ZeroizeOnDrop for ShakeReader<RATE> {}

/// SHAKE128 (FIPS 202, Section 6.2).
pub type Shake128 = Shake<168>;
/// SHAKE256 (FIPS 202, Section 6.2).
pub type Shake256 = Shake<136>;
/// The reader of a finalized SHAKE128.
pub type Shake128Reader = ShakeReader<168>;
/// The reader of a finalized SHAKE256.
pub type Shake256Reader = ShakeReader<136>;
