//! Deterministic random number generators for rand_core 0.10: test and benchmark fixtures, not
//! cryptographic generators.

use core::convert::Infallible;

/// A fast deterministic generator (splitmix64). Cloning it replays the same stream, so that two
/// implementations can draw the same randomness.
#[derive(Clone, Debug)]
pub struct TestRng(u64);

impl TestRng {
    /// The generator whose stream starts from `seed`.
    pub const fn new(seed: u64) -> Self {
        Self(seed)
    }

    /// The next 64-bit output of splitmix64.
    fn step(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// The next 64-bit output (for tests that draw numbers rather than bytes).
    pub fn next_u64(&mut self) -> u64 {
        self.step()
    }

    /// The next `N` bytes of the stream (a seed, a message, randomness).
    pub fn bytes<const N: usize>(&mut self) -> [u8; N] {
        let mut b = [0u8; N];
        let Ok(()) = rand_core::TryRng::try_fill_bytes(self, &mut b);
        b
    }
}

impl rand_core::TryRng for TestRng {
    type Error = Infallible;

    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        Ok((self.step() >> 32) as u32)
    }

    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        Ok(self.step())
    }

    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Infallible> {
        for chunk in dst.chunks_mut(8) {
            let w = self.step().to_le_bytes();
            chunk.copy_from_slice(&w[..chunk.len()]);
        }
        Ok(())
    }
}

impl rand_core::TryCryptoRng for TestRng {}

/// A generator that always fails, to exercise the error paths of randomized operations.
#[derive(Clone, Copy, Debug, Default)]
pub struct FailingRng;

/// The error of [`FailingRng`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RngFailure;

impl core::fmt::Display for RngFailure {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("rng failure")
    }
}

impl core::error::Error for RngFailure {}

impl rand_core::TryRng for FailingRng {
    type Error = RngFailure;

    fn try_next_u32(&mut self) -> Result<u32, RngFailure> {
        Err(RngFailure)
    }

    fn try_next_u64(&mut self) -> Result<u64, RngFailure> {
        Err(RngFailure)
    }

    fn try_fill_bytes(&mut self, _dst: &mut [u8]) -> Result<(), RngFailure> {
        Err(RngFailure)
    }
}

impl rand_core::TryCryptoRng for FailingRng {}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_core::TryRng as _;

    /// The first outputs of splitmix64 from seed 0 (the reference values of the algorithm), so
    /// that the fixtures' streams, and so the tests and benchmarks built on them, stay fixed.
    #[test]
    fn splitmix64_reference_stream() {
        let mut rng = TestRng::new(0);
        let got: [u64; 3] = core::array::from_fn(|_| rng.try_next_u64().unwrap());
        assert_eq!(
            got,
            [
                0xE220_A839_7B1D_CDAF,
                0x6E78_9E6A_A1B9_65F4,
                0x06C4_5D18_8009_454F
            ]
        );
    }

    /// Bytes are the little-endian words in order; a partial last word uses its low bytes.
    #[test]
    fn bytes_are_little_endian_words() {
        let mut a = TestRng::new(7);
        let b: [u8; 12] = a.clone().bytes();
        let w0 = a.try_next_u64().unwrap().to_le_bytes();
        let w1 = a.try_next_u64().unwrap().to_le_bytes();
        assert_eq!(b[..8], w0);
        assert_eq!(b[8..], w1[..4]);
    }

    #[test]
    fn failing_rng_fails() {
        assert_eq!(FailingRng.try_next_u32(), Err(RngFailure));
        assert_eq!(FailingRng.try_fill_bytes(&mut [0u8; 4]), Err(RngFailure));
    }
}
