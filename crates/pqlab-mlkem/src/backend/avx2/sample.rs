//! Sampling on AVX2 (FIPS 203, Section 4.2.2): rejection sampling of SampleNTT (Algorithm 7)
//! with the shuffle-table technique of the Kyber AVX2 code, and SamplePolyCBD (Algorithm 8).

use core::arch::x86_64::*;

use pqlab_arith::mlkem::Q;

use super::super::Coeffs;
use super::ntt::store;

/// For every 8-bit mask m, the `pshufb` control that moves the 16-bit lanes whose bit is set
/// in m to the front, in order (the rest zeroed): the compaction step of rejection sampling.
const REJ_IDX: [[u8; 16]; 256] = {
    let mut t = [[0x80u8; 16]; 256];
    let mut m = 0;
    while m < 256 {
        let mut n = 0;
        let mut j = 0;
        while j < 8 {
            if m & (1 << j) != 0 {
                t[m][2 * n] = 2 * j as u8;
                t[m][2 * n + 1] = 2 * j as u8 + 1;
                n += 1;
            }
            j += 1;
        }
        m += 1;
    }
    t
};

/// The bytes of 24-byte group loaded as \[b0..15 | b8..23\], and the `pshufb` control that
/// puts each 12-bit value's two bytes into a 16-bit lane: lanes 2k and 2k+1 take bytes
/// (3k, 3k+1) and (3k+1, 3k+2) of their half (bytes 0..12 and 12..24).
#[target_feature(enable = "avx2")]
#[inline]
fn unpack12_control() -> __m256i {
    _mm256_setr_epi8(
        0, 1, 1, 2, 3, 4, 4, 5, 6, 7, 7, 8, 9, 10, 10, 11, 4, 5, 5, 6, 7, 8, 8, 9, 10, 11, 11, 12,
        13, 14, 14, 15,
    )
}

/// Loads the 24 bytes `b[0..24]` as \[b0..15 | b8..23\] (exactly those bytes are read).
#[target_feature(enable = "avx2")]
#[inline]
pub(super) fn load24(b: &[u8]) -> __m256i {
    let b = &b[..24];
    // SAFETY: `b` holds 24 bytes; the two 16-byte loads read bytes 0..16 and 8..24.
    unsafe {
        let lo = _mm_loadu_si128(b.as_ptr().cast());
        let hi = _mm_loadu_si128(b.as_ptr().add(8).cast());
        _mm256_set_m128i(hi, lo)
    }
}

/// The sixteen 12-bit values of ByteDecode_12 on 24 bytes (FIPS 203, Algorithm 6 with d = 12;
/// also the candidates d1, d2 of Algorithm 7), in order.
#[target_feature(enable = "avx2")]
#[inline]
pub(super) fn unpack12(b: &[u8]) -> __m256i {
    let f = _mm256_shuffle_epi8(load24(b), unpack12_control());
    let f = _mm256_blend_epi16::<0xAA>(f, _mm256_srli_epi16::<4>(f));
    _mm256_and_si256(f, _mm256_set1_epi16(0x0fff))
}

/// Writes the lanes of `v` selected by `mask` to `out[..]`, in order; returns how many. Writes
/// eight lanes (the tail is overwritten later or lies in `out` anyway): `out` must hold 8.
#[target_feature(enable = "avx2,popcnt")]
#[inline]
fn compact8(v: __m128i, mask: u32, out: &mut [i16]) -> usize {
    let out = &mut out[..8];
    let idx = &REJ_IDX[(mask & 0xff) as usize];
    // SAFETY: `idx` holds 16 bytes and `out` 8 `i16` (16 bytes).
    unsafe {
        let c = _mm_loadu_si128(idx.as_ptr().cast());
        _mm_storeu_si128(out.as_mut_ptr().cast(), _mm_shuffle_epi8(v, c));
    }
    (mask & 0xff).count_ones() as usize
}

/// FIPS 203, Algorithm 7, lines 5 to 15 on a buffer of XOF output: the candidates below q,
/// in order, until `out` is full; returns how many were written. Public data only: the table
/// lookups are indexed by which candidates were accepted.
///
/// Sixteen candidates (24 bytes) per step while 16 slots remain in `out`; the rest scalar.
#[target_feature(enable = "avx2,bmi2,popcnt")]
pub(super) unsafe fn rej_uniform(buf: &[u8], out: &mut [i16]) -> usize {
    let bound = _mm256_set1_epi16(Q);
    let mut ctr = 0;
    let mut pos = 0;
    while pos + 24 <= buf.len() && out.len() - ctr >= 16 {
        let f = unpack12(&buf[pos..]);
        pos += 24;
        let good = _mm256_cmpgt_epi16(bound, f);
        // One bit per lane: bits 0..8 for lanes 0..8, bits 16..24 for lanes 8..16.
        let mask = _mm256_movemask_epi8(_mm256_packs_epi16(good, _mm256_setzero_si256())) as u32;
        ctr += compact8(_mm256_castsi256_si128(f), mask, &mut out[ctr..]);
        ctr += compact8(
            _mm256_extracti128_si256::<1>(f),
            mask >> 16,
            &mut out[ctr..],
        );
    }
    // The rest of the buffer (a multiple of 3 bytes) one group of three at a time.
    for c in buf[pos..].chunks_exact(3) {
        if ctr == out.len() {
            break;
        }
        let d1 = i16::from(c[0]) | (i16::from(c[1] & 0x0f) << 8);
        let d2 = i16::from(c[1] >> 4) | (i16::from(c[2]) << 4);
        if d1 < Q {
            out[ctr] = d1;
            ctr += 1;
        }
        if d2 < Q && ctr < out.len() {
            out[ctr] = d2;
            ctr += 1;
        }
    }
    ctr
}

/// FIPS 203, Algorithm 8 for eta = 2 (the first 128 bytes of `buf`): each coefficient x - y
/// with x, y sums of two bits, computed on nibbles of 32 bytes at a time. Branch-free.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn cbd2(buf: &[u8], f: &mut Coeffs) {
    let m55 = _mm256_set1_epi8(0x55);
    let m33 = _mm256_set1_epi8(0x33);
    let m0f = _mm256_set1_epi8(0x0f);
    let m03 = _mm256_set1_epi8(0x03);
    for (i, b) in buf[..128].chunks_exact(32).enumerate() {
        // SAFETY: `b` holds 32 bytes.
        let f0 = unsafe { _mm256_loadu_si256(b.as_ptr().cast()) };
        // Two-bit sums of adjacent bits.
        let f1 = _mm256_and_si256(_mm256_srli_epi16::<1>(f0), m55);
        let f0 = _mm256_add_epi8(_mm256_and_si256(f0, m55), f1);
        // Per nibble: x + 3 - y in [1, 5].
        let f1 = _mm256_and_si256(_mm256_srli_epi16::<2>(f0), m33);
        let f0 = _mm256_sub_epi8(_mm256_add_epi8(_mm256_and_si256(f0, m33), m33), f1);
        // Byte j: coefficient 2j (low nibble) and 2j + 1 (high nibble), minus 3.
        let f1 = _mm256_sub_epi8(_mm256_and_si256(_mm256_srli_epi16::<4>(f0), m0f), m03);
        let f0 = _mm256_sub_epi8(_mm256_and_si256(f0, m0f), m03);
        let lo = _mm256_unpacklo_epi8(f0, f1);
        let hi = _mm256_unpackhi_epi8(f0, f1);
        store(f, 4 * i, _mm256_cvtepi8_epi16(_mm256_castsi256_si128(lo)));
        store(
            f,
            4 * i + 1,
            _mm256_cvtepi8_epi16(_mm256_castsi256_si128(hi)),
        );
        store(
            f,
            4 * i + 2,
            _mm256_cvtepi8_epi16(_mm256_extracti128_si256::<1>(lo)),
        );
        store(
            f,
            4 * i + 3,
            _mm256_cvtepi8_epi16(_mm256_extracti128_si256::<1>(hi)),
        );
    }
}

/// FIPS 203, Algorithm 8 for eta = 3 (the first 192 bytes of `buf`): each coefficient x - y
/// with x, y sums of three bits; 24 bytes (sixteen coefficients) at a time, three bytes per
/// 32-bit lane. Branch-free.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn cbd3(buf: &[u8], f: &mut Coeffs) {
    let m249 = _mm256_set1_epi32(0x0024_9249);
    let m6db = _mm256_set1_epi32(0x006d_b6db);
    let m07 = _mm256_set1_epi32(7);
    let m70 = _mm256_set1_epi32(7 << 16);
    let m3 = _mm256_set1_epi16(3);
    let spread = _mm256_setr_epi8(
        0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8, -1, 9, 10, 11, -1, 4, 5, 6, -1, 7, 8, 9, -1, 10, 11, 12,
        -1, 13, 14, 15, -1,
    );
    for (i, b) in buf[..192].chunks_exact(24).enumerate() {
        let t = _mm256_shuffle_epi8(load24(b), spread);
        // Three-bit sums d; then per pair of 3-bit fields: x + 3 - y.
        let d = _mm256_add_epi32(
            _mm256_add_epi32(
                _mm256_and_si256(t, m249),
                _mm256_and_si256(_mm256_srli_epi32::<1>(t), m249),
            ),
            _mm256_and_si256(_mm256_srli_epi32::<2>(t), m249),
        );
        let d = _mm256_sub_epi32(_mm256_add_epi32(d, m6db), _mm256_srli_epi32::<3>(d));
        // Coefficients 0, 1 of the lane (fields 0 and 2) and 2, 3 (fields 4 and 6).
        let c01 = _mm256_add_epi16(
            _mm256_and_si256(d, m07),
            _mm256_and_si256(_mm256_slli_epi32::<10>(d), m70),
        );
        let c23 = _mm256_add_epi16(
            _mm256_and_si256(_mm256_srli_epi32::<12>(d), m07),
            _mm256_and_si256(_mm256_srli_epi32::<2>(d), m70),
        );
        let c01 = _mm256_sub_epi16(c01, m3);
        let c23 = _mm256_sub_epi16(c23, m3);
        let lo = _mm256_unpacklo_epi32(c01, c23);
        let hi = _mm256_unpackhi_epi32(c01, c23);
        store(f, 2 * i, _mm256_permute2x128_si256::<0x20>(lo, hi));
        store(f, 2 * i + 1, _mm256_permute2x128_si256::<0x31>(lo, hi));
    }
}
