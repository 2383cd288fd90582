//! Sampling f and g (Falcon spec v1.2, Algorithm 5, NTRUGen steps 1-2), drawn exactly as the
//! round-3 reference `keygen.c` does so that known-answer keys reproduce: each coefficient is
//! the sum of 2^(10 - logn) samples of a discrete Gaussian of standard deviation
//! 1.17 sqrt(q / 2048) taken from a cumulative table; 64-bit little-endian words from the
//! SHAKE256 stream ([`SampleSource`]: the reference's single stream for seeded, known-answer
//! keys, or eight streams squeezed side by side for keys from fresh randomness).

use pqlab_backend::Backend;
use pqlab_keccak::{Shake256Reader, Shake256X};
use zeroize::Zeroize;

use crate::params::SEED_LEN;

/// Element 0: P(x = 0); element k > 0: P(x >= k + 1 | x > 0); all scaled by 2^63. (The
/// reference's `gauss_1024_12289`, the distribution for sigma = 1.17 sqrt(12289 / 2048).)
pub(super) const GAUSS_1024_12289: [u64; 27] = [
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

/// The table is non-increasing from element 1 on, ending in 0: the first k >= 1 whose entry
/// is not above r (r < 2^63) is 1 plus the number of entries k in 1..=25 above r.
const _: () = {
    let mut k = 1;
    while k < 26 {
        assert!(GAUSS_1024_12289[k] >= GAUSS_1024_12289[k + 1]);
        k += 1;
    }
    assert!(GAUSS_1024_12289[26] == 0);
};

/// SHAKE256 rate blocks squeezed per refill of a [`SampleStream`].
const BLOCKS: usize = 16;
/// Bytes per refill.
pub(super) const BUF_BYTES: usize = 136 * BLOCKS;
/// Table samples per refill (two 64-bit words each; `BLOCKS` is even, so no sample straddles
/// two refills; a multiple of 8, the samples of one AVX-512 step).
pub(super) const SAMPLES: usize = BUF_BYTES / 16;
const _: () = assert!(BUF_BYTES.is_multiple_of(128));

/// The keygen SHAKE256 stream turned into samples of the table distribution: the stream is
/// read as 64-bit little-endian words, two per sample, in order (the stream is read by
/// nothing else during key generation), `BLOCKS` rate blocks at a time, and the samples of a
/// refill are computed together ([`samples_from_words`]). Only the samples are kept (the
/// stream bytes of a refill live in [`Self::refill`]'s frame, so that they do not add to the
/// stack of the whole key generation). Zeroized on drop.
pub(crate) struct SampleStream<'a> {
    rng: &'a mut dyn SampleSource,
    samples: [i32; SAMPLES],
    pos: usize,
    backend: Backend,
}

impl<'a> SampleStream<'a> {
    pub(crate) fn new(rng: &'a mut dyn SampleSource) -> Self {
        SampleStream {
            rng,
            samples: [0; SAMPLES],
            pos: SAMPLES,
            backend: pqlab_backend::selected(),
        }
    }

    /// The next sample.
    #[inline]
    fn next_sample(&mut self) -> i32 {
        if self.pos == SAMPLES {
            self.refill();
        }
        let s = self.samples[self.pos];
        self.pos += 1;
        s
    }

    /// The next `SAMPLES` samples, from the next `BUF_BYTES` bytes of the stream (wiped
    /// after use).
    #[inline(never)]
    fn refill(&mut self) {
        let mut buf = [0u8; BUF_BYTES];
        self.rng.fill(&mut buf);
        samples_from_words(self.backend, &buf, &mut self.samples);
        // Ordinary (vectorised) stores kept live, not a volatile store per byte.
        pqlab_arith::wipe::wipe(&mut buf);
        self.pos = 0;
    }
}

impl Drop for SampleStream<'_> {
    fn drop(&mut self) {
        pqlab_arith::wipe::wipe(&mut self.samples);
    }
}

/// Where a [`SampleStream`] takes its bytes.
pub(crate) trait SampleSource {
    /// The next `BUF_BYTES` bytes of the stream.
    fn fill(&mut self, buf: &mut [u8; BUF_BYTES]);
}

/// The round-3 reference's source: its one SHAKE256 stream over the seed, read in order
/// (the known-answer keys come out of it).
impl SampleSource for Shake256Reader {
    fn fill(&mut self, buf: &mut [u8; BUF_BYTES]) {
        self.squeeze(buf);
    }
}

/// Eight SHAKE256 streams, lane i over `seed || i`, squeezed side by side (the eight-lane
/// Keccak of the selected back end: on AVX-512 one 8-way permutation yields eight blocks, 4.2
/// times the bytes per second of the one-lane stream here). A refill takes two blocks of every
/// lane, the lanes in order. The source of keys from fresh randomness: the same distribution
/// of f and g from a seed that is never shown, but not the reference's keys for that seed (so
/// not for the known-answer tests, which use [`Shake256Reader`]). The states are zeroized on
/// drop ([`Shake256X`]).
pub(crate) struct Shake256x8(Shake256X);

impl Shake256x8 {
    /// The eight streams of `seed`.
    pub(crate) fn new(seed: &[u8; SEED_LEN]) -> Self {
        let mut inputs = [[0u8; SEED_LEN + 1]; 8];
        for (i, m) in inputs.iter_mut().enumerate() {
            m[..SEED_LEN].copy_from_slice(seed);
            m[SEED_LEN] = i as u8;
        }
        let refs: [&[u8]; 8] = [
            &inputs[0], &inputs[1], &inputs[2], &inputs[3], &inputs[4], &inputs[5], &inputs[6],
            &inputs[7],
        ];
        let streams = Shake256x8(Shake256X::new(pqlab_backend::selected(), &refs));
        inputs.zeroize();
        streams
    }
}

impl SampleSource for Shake256x8 {
    fn fill(&mut self, buf: &mut [u8; BUF_BYTES]) {
        for round in buf.chunks_exact_mut(8 * 136) {
            self.0.next_blocks();
            for (lane, block) in round.chunks_exact_mut(136).enumerate() {
                self.0.read_block(lane, block);
            }
        }
    }
}

const _: () = assert!(BUF_BYTES.is_multiple_of(8 * 136));

/// The samples of the reference's `mkgauss` inner loop, one per pair of 64-bit
/// little-endian words of `buf`: the first word gives the sign (bit 63) and whether the value
/// is zero (its low 63 bits below element 0); the second (low 63 bits r) the magnitude, the
/// first k >= 1 whose entry is not above r, i.e. 1 plus the number of entries 1..=25 above r.
/// Every sample reads the whole table with the same operations (no secret-dependent index or
/// branch); four samples at a time (the x86-64 back ends do the same operations on vectors
/// of four or eight samples, [`super::gauss_x86`]).
pub(super) fn samples_from_words(
    backend: Backend,
    buf: &[u8; BUF_BYTES],
    out: &mut [i32; SAMPLES],
) {
    #[cfg(target_arch = "x86_64")]
    if backend != Backend::Portable {
        super::gauss_x86::samples_from_words(backend, buf, out);
        return;
    }
    let _ = backend;
    samples_from_words_body(buf, out);
}

/// The body of [`samples_from_words`], compiled once per back end.
#[inline(always)]
pub(super) fn samples_from_words_body(buf: &[u8; BUF_BYTES], out: &mut [i32; SAMPLES]) {
    const LOW63: u64 = !(1u64 << 63);
    for (o, c) in out.chunks_exact_mut(4).zip(buf.chunks_exact(64)) {
        let mut a = [0u64; 4];
        let mut b = [0u64; 4];
        for (j, w) in c.chunks_exact(16).enumerate() {
            let mut w0 = [0u8; 8];
            let mut w1 = [0u8; 8];
            w0.copy_from_slice(&w[..8]);
            w1.copy_from_slice(&w[8..]);
            a[j] = u64::from_le_bytes(w0);
            b[j] = u64::from_le_bytes(w1) & LOW63;
        }
        let mut mag = [1u64; 4];
        for &t in &GAUSS_1024_12289[1..26] {
            for (m, &bj) in mag.iter_mut().zip(&b) {
                *m += bj.wrapping_sub(t) >> 63;
            }
        }
        for j in 0..4 {
            let neg = a[j] >> 63;
            // 1 when the value is zero.
            let zero = ((a[j] & LOW63).wrapping_sub(GAUSS_1024_12289[0])) >> 63;
            let v = mag[j] & zero.wrapping_sub(1);
            let v = (v ^ 0u64.wrapping_sub(neg)).wrapping_add(neg);
            o[j] = v as i32;
        }
    }
}

/// One coefficient: the sum of 2^(10 - logn) samples (the reference's `mkgauss`).
fn mkgauss(rng: &mut SampleStream<'_>, logn: u32) -> i32 {
    let mut val = 0i32;
    for _ in 0..1u32 << (10 - logn) {
        val = val.wrapping_add(rng.next_sample());
    }
    val
}

/// A polynomial of n = 2^logn such coefficients, each in \[-127, 127\], with an odd sum of
/// coefficients (so that its resultant with x^n + 1 is odd, as NTRUSolve's binary GCD
/// needs); out-of-range values and an even final parity are redrawn, as in the reference.
/// Out of line: a frame of its own, which the constant-time check's known finding on the
/// redraws (`falcon-keygen-gauss-parity`) names: a redraw reveals only that a draw was
/// discarded, and the count of parity redraws has the same law whichever parity the last
/// coefficient needs (to within the sampled distribution's parity bias, below 2^-56).
#[inline(never)]
pub(crate) fn poly_small_mkgauss(rng: &mut SampleStream<'_>, f: &mut [i8], logn: u32) {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The eight-stream source yields, refill after refill, two blocks of each of eight
    /// SHAKE256 streams over `seed || i`, lane after lane.
    #[test]
    fn eight_streams_read_lane_by_lane() {
        let seed: [u8; SEED_LEN] = core::array::from_fn(|i| (i * 29 + 5) as u8);
        let mut src = Shake256x8::new(&seed);
        let mut refs: [Shake256Reader; 8] = core::array::from_fn(|i| {
            let mut sh = pqlab_keccak::Shake256::new();
            sh.absorb(&seed);
            sh.absorb(&[i as u8]);
            sh.finalize()
        });
        let mut buf = [0u8; BUF_BYTES];
        let mut blocks = 0;
        for _ in 0..3 {
            src.fill(&mut buf);
            for round in buf.chunks_exact(8 * 136) {
                for (lane, block) in round.chunks_exact(136).enumerate() {
                    let mut want = [0u8; 136];
                    refs[lane].squeeze(&mut want);
                    assert_eq!(block, &want[..], "lane {lane}");
                    blocks += 1;
                }
            }
        }
        assert_eq!(blocks, 3 * 16);
    }

    /// The reference's `mkgauss` inner loop for one sample, as written there (the running
    /// flag and the first k whose entry is not above r).
    fn sample_as_reference(w0: u64, w1: u64) -> i32 {
        let neg = (w0 >> 63) as u32;
        let r = w0 & !(1u64 << 63);
        let mut f = (r.wrapping_sub(GAUSS_1024_12289[0]) >> 63) as u32;
        let r = w1 & !(1u64 << 63);
        let mut v = 0u32;
        for (k, &t) in GAUSS_1024_12289.iter().enumerate().skip(1) {
            let t = ((r.wrapping_sub(t) >> 63) as u32) ^ 1;
            v |= (k as u32) & 0u32.wrapping_sub(t & (f ^ 1));
            f |= t;
        }
        (v ^ 0u32.wrapping_sub(neg)).wrapping_add(neg) as i32
    }

    #[test]
    fn batch_samples_match_reference_scan() {
        // Words around every table entry (both sides, both signs, zero flag set or not),
        // then pseudo-random words.
        let mut words = [0u64; BUF_BYTES / 8];
        let mut x = 0x0123_4567_89AB_CDEFu64;
        let mut seen = [0u32; 27];
        let mut backends_run = [false; 3];
        for round in 0..200 {
            for (i, w) in words.iter_mut().enumerate() {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let k = (i + round) % 27;
                *w = match (i + round) % 4 {
                    0 => GAUSS_1024_12289[k] | (x & (1 << 63)),
                    1 => GAUSS_1024_12289[k].wrapping_sub(1) | (x & (1 << 63)),
                    _ => x,
                };
            }
            let mut buf = [0u8; BUF_BYTES];
            for (b, w) in buf.chunks_exact_mut(8).zip(&words) {
                b.copy_from_slice(&w.to_le_bytes());
            }
            for backend in pqlab_backend::available() {
                let mut out = [0i32; SAMPLES];
                samples_from_words(backend, &buf, &mut out);
                for (j, &o) in out.iter().enumerate() {
                    let want = sample_as_reference(words[2 * j], words[2 * j + 1]);
                    assert_eq!(o, want, "sample {j} of round {round} on {backend:?}");
                    seen[want.unsigned_abs() as usize] += 1;
                }
                backends_run[backend as usize] = true;
            }
        }
        // Every back end this CPU has ran.
        for b in Backend::ALL {
            assert_eq!(backends_run[b as usize], b.is_available(), "{b:?}");
        }
        // Every magnitude 0..=26 occurred.
        assert!(seen.iter().all(|&c| c > 0), "{seen:?}");
    }
}
