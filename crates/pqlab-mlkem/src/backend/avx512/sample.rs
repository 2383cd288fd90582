//! Sampling on AVX-512: the rejection step of SampleNTT (FIPS 203, Algorithm 7) and
//! SamplePolyCBD_eta (Algorithm 8) for eta = 2 and 3.
#![allow(unsafe_code)]

use core::arch::x86_64::{
    __m256i, __m512i, _mm_loadu_si128, _mm256_mask_storeu_epi16, _mm512_castsi512_si256,
    _mm512_cmplt_epu16_mask, _mm512_cvtepi32_epi16, _mm512_cvtepu8_epi32, _mm512_cvtepu16_epi32,
    _mm512_extracti64x4_epi64, _mm512_mask_storeu_epi16, _mm512_maskz_compress_epi16,
    _mm512_maskz_compress_epi32, _mm512_maskz_loadu_epi8, _mm512_permutex2var_epi16,
    _mm512_permutexvar_epi32, _mm512_set1_epi16, _mm512_set1_epi32, _mm512_shuffle_epi8,
    _mm512_slli_epi32, _mm512_srlv_epi16, _mm512_storeu_epi16, _mm512_sub_epi16,
    _mm512_ternarylogic_epi32,
};

use pqlab_arith::mlkem::Q;

use super::encode::unpack;
use super::{Coeffs, bytes_x4, ld8, ld16, ld32};

/// Appends the values of `v` selected by `keep` (in order) to `out` at `n`, never past
/// `out.len()`; returns the new length. `vpcompressd` on the values widened to 32 bits, then
/// narrowed back and stored under a mask of min(count, room) words.
///
/// # Safety
/// `n <= out.len()`.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,popcnt")]
unsafe fn append(v: __m256i, keep: u16, out: &mut [i16], n: usize) -> usize {
    let packed = _mm512_cvtepi32_epi16(_mm512_maskz_compress_epi32(keep, _mm512_cvtepu16_epi32(v)));
    let k = (keep.count_ones() as usize).min(out.len() - n);
    let mask = ((1u32 << k) - 1) as u16;
    // SAFETY: n <= out.len() (so the pointer is in bounds or one past the end), and the mask
    // lets through k <= out.len() - n words: masked-off words are neither read nor written.
    unsafe { _mm256_mask_storeu_epi16(out.as_mut_ptr().add(n), mask, packed) };
    n + k
}

/// The 32 candidates (ByteDecode_12) of the `len` <= 48 bytes at `p`, and the mask of those
/// below q among the 2 floor(len / 3) that exist.
///
/// # Safety
/// `p` must point to `len` readable bytes.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq")]
unsafe fn candidates(p: *const u8, len: usize) -> (__m512i, u32) {
    // SAFETY: the masked load reads the `len` bytes at `p` only.
    let bytes = unsafe { _mm512_maskz_loadu_epi8((1u64 << len) - 1, p.cast()) };
    let cand = unpack::<12>(bytes);
    let valid = if len >= 48 {
        u32::MAX
    } else {
        (1u32 << (2 * (len / 3))) - 1
    };
    (
        cand,
        _mm512_cmplt_epu16_mask(cand, _mm512_set1_epi16(Q)) & valid,
    )
}

/// FIPS 203, Algorithm 7, lines 5 to 15 on a buffer of XOF output: 48 bytes (32 candidates of
/// 12 bits, decoded as ByteDecode_12) per step, the candidates below q kept in order until
/// `out` is full. Loads are masked to the bytes left in `buf`, stores to the room left in
/// `out`; while 32 places are left the store masks depend on the candidates only (a short
/// dependency chain through `n`). Branches depend on public data only.
///
/// # Safety
/// The CPU must support AVX-512 F, BW, VL and DQ, and POPCNT.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,popcnt")]
pub(super) unsafe fn rej_uniform(buf: &[u8], out: &mut [i16]) -> usize {
    let mut n = 0;
    let mut pos = 0;
    while pos + 48 <= buf.len() && n + 32 <= out.len() {
        // SAFETY: bytes pos .. pos + 48 of `buf` exist (loop condition).
        let (cand, keep) = unsafe { candidates(buf.as_ptr().add(pos), 48) };
        let halves = [
            _mm512_castsi512_si256(cand),
            _mm512_extracti64x4_epi64::<1>(cand),
        ];
        for (v, k) in halves.into_iter().zip([keep as u16, (keep >> 16) as u16]) {
            let packed =
                _mm512_cvtepi32_epi16(_mm512_maskz_compress_epi32(k, _mm512_cvtepu16_epi32(v)));
            let c = k.count_ones();
            // SAFETY: n + 16 <= out.len() here (32 places were left before both halves), and
            // the store writes the first c <= 16 words at n.
            unsafe {
                _mm256_mask_storeu_epi16(out.as_mut_ptr().add(n), ((1u32 << c) - 1) as u16, packed);
            }
            n += c as usize;
        }
        pos += 48;
    }
    while pos < buf.len() && n < out.len() {
        let len = (buf.len() - pos).min(48);
        // SAFETY: bytes pos .. pos + len of `buf` exist.
        let (cand, keep) = unsafe { candidates(buf.as_ptr().add(pos), len) };
        // SAFETY: n <= out.len() throughout (`append` never goes past it).
        unsafe {
            n = append(_mm512_castsi512_si256(cand), keep as u16, out, n);
            n = append(
                _mm512_extracti64x4_epi64::<1>(cand),
                (keep >> 16) as u16,
                out,
                n,
            );
        }
        pos += len;
    }
    n
}

/// FIPS 203, Algorithm 7, lines 5 to 15 on a buffer of XOF output, with AVX-512 VBMI2: the
/// same steps of 48 bytes (32 candidates) as [`rej_uniform`], each kept candidate moved into
/// place by one `vpcompressw` on the 16-bit candidates (no widening to 32 bits and back), then
/// stored under a mask of min(count, room) words; the last step's loads are masked to the
/// bytes left in `buf`. Same output as [`rej_uniform`]. Branches depend on public data only.
///
/// # Safety
/// The CPU must support AVX-512 F, BW, VL, DQ and VBMI2, and POPCNT.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,avx512vbmi2,popcnt")]
pub(super) unsafe fn rej_uniform_vbmi2(buf: &[u8], out: &mut [i16]) -> usize {
    let mut n = 0;
    let mut pos = 0;
    while pos < buf.len() && n < out.len() {
        let len = (buf.len() - pos).min(48);
        // SAFETY: bytes pos .. pos + len of `buf` exist.
        let (cand, keep) = unsafe { candidates(buf.as_ptr().add(pos), len) };
        let packed = _mm512_maskz_compress_epi16(keep, cand);
        let k = (keep.count_ones() as usize).min(out.len() - n);
        // SAFETY: n < out.len(), so the pointer is in bounds, and the mask lets through
        // k <= out.len() - n words (k <= 32): masked-off words are neither read nor written.
        unsafe {
            _mm512_mask_storeu_epi16(out.as_mut_ptr().add(n), ((1u64 << k) - 1) as u32, packed);
        }
        n += k;
        pos += len;
    }
    n
}

/// cbd2: coefficient x - y of a 4-bit field (x, y the sums of its bit pairs), plus 2, in
/// every byte lane (`vpshufb` table).
const CBD2_TABLE: [i8; 64] = {
    let mut t = [0i8; 16];
    let mut n = 0;
    while n < 16 {
        let x = (n & 1) + ((n >> 1) & 1);
        let y = ((n >> 2) & 1) + ((n >> 3) & 1);
        t[n] = (x + 2 - y) as i8;
        n += 1;
    }
    bytes_x4(t)
};

/// FIPS 203, Algorithm 8 for eta = 2 (B has 128 bytes): coefficient i from the 4 bits of
/// nibble i. Per 32 coefficients, 16 bytes are widened to dwords, each dword's two nibbles
/// spread to its two words ((t | t << 12) & 0x000F000F), and a `vpshufb` table gives
/// x - y + 2 in each word's low byte and 2 in its high byte (nibble 0): subtracting 0x0202
/// leaves x - y.
///
/// # Safety
/// The CPU must support AVX-512 F, BW, VL and DQ, and `b` must hold 128 bytes.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq")]
pub(super) unsafe fn cbd2(b: &[u8], f: &mut Coeffs) {
    let table = ld8(&CBD2_TABLE);
    for (c, w) in f.chunks_exact_mut(32).zip(b.chunks_exact(16)) {
        // SAFETY: `w` is 16 readable bytes.
        let t = _mm512_cvtepu8_epi32(unsafe { _mm_loadu_si128(w.as_ptr().cast()) });
        // (a | b) & c.
        let nib = _mm512_ternarylogic_epi32::<0xA8>(
            t,
            _mm512_slli_epi32::<12>(t),
            _mm512_set1_epi32(0x000F_000F),
        );
        let x = _mm512_sub_epi16(_mm512_shuffle_epi8(table, nib), _mm512_set1_epi16(0x0202));
        // SAFETY: `c` is 32 writable `i16`.
        unsafe { _mm512_storeu_epi16(c.as_mut_ptr(), x) };
    }
}

/// cbd3: lane L of the 24 bytes of 32 coefficients fetches the dwords holding bytes
/// 6 L .. 6 L + 5 (`vpermd`); its byte offset there is 0, 2, 0, 2.
const CBD3_PERM: [i32; 16] = [0, 1, 0, 0, 1, 2, 0, 0, 3, 4, 0, 0, 4, 5, 0, 0];
/// cbd3: the two bytes holding each 6-bit field (coefficient k of a lane starts at bit 6 k).
const CBD3_SHUF: [i8; 64] = {
    let mut t = [0i8; 64];
    let start = [0, 0, 1, 2, 3, 3, 4, 5];
    let mut lane = 0;
    while lane < 4 {
        let o = if lane % 2 == 1 { 2 } else { 0 };
        let mut k = 0;
        while k < 8 {
            t[16 * lane + 2 * k] = (o + start[k]) as i8;
            t[16 * lane + 2 * k + 1] = (o + start[k] + 1) as i8;
            k += 1;
        }
        lane += 1;
    }
    t
};
/// cbd3: the bit offset of each field in its two bytes.
const CBD3_SHIFT: [i16; 32] = {
    let mut t = [0i16; 32];
    let mut i = 0;
    while i < 32 {
        t[i] = [0, 6, 4, 2][i % 4];
        i += 1;
    }
    t
};
/// cbd3: x - y for each 6-bit field (x, y the sums of its low and high three bits), in two
/// halves for `vpermt2w`.
const CBD3_TABLE: [[i16; 32]; 2] = {
    let mut t = [[0i16; 32]; 2];
    let mut n = 0;
    while n < 64 {
        let x = (n & 1) + ((n >> 1) & 1) + ((n >> 2) & 1);
        let y = ((n >> 3) & 1) + ((n >> 4) & 1) + ((n >> 5) & 1);
        t[n / 32][n % 32] = x as i16 - y as i16;
        n += 1;
    }
    t
};

/// FIPS 203, Algorithm 8 for eta = 3 (B has 192 bytes): coefficient i from bits 6 i .. 6 i + 5.
/// Per 32 coefficients (24 bytes): `vpermd` and `vpshufb` put each field's two bytes in its
/// word, `vpsrlvw` aligns it, and `vpermt2w` (which reads the low 6 bits of each index) looks
/// x - y up in a 64-entry table.
///
/// # Safety
/// The CPU must support AVX-512 F, BW, VL and DQ, and `b` must hold 192 bytes.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq")]
pub(super) unsafe fn cbd3(b: &[u8], f: &mut Coeffs) {
    let (perm, shuf, shift) = (ld32(&CBD3_PERM), ld8(&CBD3_SHUF), ld16(&CBD3_SHIFT));
    let (t0, t1) = (ld16(&CBD3_TABLE[0]), ld16(&CBD3_TABLE[1]));
    for (c, w) in f.chunks_exact_mut(32).zip(b.chunks_exact(24)) {
        // SAFETY: the masked load reads the 24 bytes of `w` only.
        let bytes = unsafe { _mm512_maskz_loadu_epi8((1 << 24) - 1, w.as_ptr().cast()) };
        let fields = _mm512_shuffle_epi8(_mm512_permutexvar_epi32(perm, bytes), shuf);
        let fields = _mm512_srlv_epi16(fields, shift);
        let x = _mm512_permutex2var_epi16(t0, fields, t1);
        // SAFETY: `c` is 32 writable `i16`.
        unsafe { _mm512_storeu_epi16(c.as_mut_ptr(), x) };
    }
}
