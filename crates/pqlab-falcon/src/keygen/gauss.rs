//! Sampling f and g (Falcon spec v1.2, Algorithm 5, NTRUGen steps 1-2), drawn exactly as the
//! round-3 reference `keygen.c` does so that known-answer keys reproduce: each coefficient is
//! the sum of 2^(10 - logn) samples of a discrete Gaussian of standard deviation
//! 1.17 sqrt(q / 2048) taken from a cumulative table; 64-bit little-endian words from the
//! SHAKE256 stream.

use pqlab_keccak::Shake256Reader;

/// Element 0: P(x = 0); element k > 0: P(x >= k + 1 | x > 0); all scaled by 2^63. (The
/// reference's `gauss_1024_12289`, the distribution for sigma = 1.17 sqrt(12289 / 2048).)
const GAUSS_1024_12289: [u64; 27] = [
    1_283_868_770_400_643_928,
    6_416_574_995_475_331_444,
    4_078_260_278_032_692_663,
    2_353_523_259_288_686_585,
    1_227_179_971_273_316_331,
    575_931_623_374_121_527,
    242_543_240_509_105_209,
    91_437_049_221_049_666,
    30_799_446_349_977_173,
    9_255_276_791_179_340,
    2_478_152_334_826_140,
    590_642_893_610_164,
    125_206_034_929_641,
    23_590_435_911_403,
    3_948_334_035_941,
    586_753_615_614,
    77_391_054_539,
    9_056_793_210,
    940_121_950,
    86_539_696,
    7_062_824,
    510_971,
    32_764,
    1_862,
    94,
    4,
    0,
];

/// The keygen SHAKE256 stream read as 64-bit little-endian words, one rate block (17 words)
/// squeezed at a time: the same words in the same order as squeezing 8 bytes per word (the
/// stream is read by nothing else during key generation). Zeroized on drop.
pub(crate) struct WordStream<'a> {
    rng: &'a mut Shake256Reader,
    buf: [u8; 136],
    pos: usize,
}

impl<'a> WordStream<'a> {
    pub(crate) fn new(rng: &'a mut Shake256Reader) -> Self {
        WordStream {
            rng,
            buf: [0; 136],
            pos: 136,
        }
    }

    /// The next 64-bit word of the stream (little-endian).
    fn next_u64(&mut self) -> u64 {
        if self.pos == self.buf.len() {
            self.rng.squeeze(&mut self.buf);
            self.pos = 0;
        }
        let mut b = [0u8; 8];
        b.copy_from_slice(&self.buf[self.pos..self.pos + 8]);
        self.pos += 8;
        u64::from_le_bytes(b)
    }
}

impl Drop for WordStream<'_> {
    fn drop(&mut self) {
        use zeroize::Zeroize;
        self.buf.zeroize();
    }
}

/// One coefficient: the sum of 2^(10 - logn) table samples. The table is read whole for
/// every sample (no secret-dependent index or branch).
fn mkgauss(rng: &mut WordStream<'_>, logn: u32) -> i32 {
    let mut val = 0i32;
    for _ in 0..1u32 << (10 - logn) {
        // First word: the sign, and whether the value is zero.
        let r = rng.next_u64();
        let neg = (r >> 63) as u32;
        let r = r & !(1u64 << 63);
        let mut f = (r.wrapping_sub(GAUSS_1024_12289[0]) >> 63) as u32;
        // Second word: the magnitude, the first index k whose entry is not above r.
        let r = rng.next_u64() & !(1u64 << 63);
        let mut v = 0u32;
        for (k, &t) in GAUSS_1024_12289.iter().enumerate().skip(1) {
            let t = ((r.wrapping_sub(t) >> 63) as u32) ^ 1;
            v |= (k as u32) & 0u32.wrapping_sub(t & (f ^ 1));
            f |= t;
        }
        let v = (v ^ 0u32.wrapping_sub(neg)).wrapping_add(neg);
        val = val.wrapping_add(v as i32);
    }
    val
}

/// A polynomial of n = 2^logn such coefficients, each in \[-127, 127\], with an odd sum of
/// coefficients (so that its resultant with x^n + 1 is odd, as NTRUSolve's binary GCD
/// needs); out-of-range values and an even final parity are redrawn, as in the reference.
pub(crate) fn poly_small_mkgauss(rng: &mut WordStream<'_>, f: &mut [i8], logn: u32) {
    let n = 1usize << logn;
    let mut parity = 0u32;
    let mut u = 0;
    while u < n {
        let s = mkgauss(rng, logn);
        if !(-127..=127).contains(&s) {
            continue;
        }
        if u == n - 1 {
            if parity ^ (s as u32 & 1) == 0 {
                continue;
            }
        } else {
            parity ^= s as u32 & 1;
        }
        f[u] = s as i8;
        u += 1;
    }
}
