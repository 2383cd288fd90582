//! Compression fused with ByteEncode, and ByteDecode fused with decompression (FIPS 203,
//! Section 4.2.1: equations 4.7 and 4.8, Algorithms 5 and 6), and ByteEncode_12 /
//! ByteDecode_12, on AVX2.
//!
//! Compress_d(x) = round(2^d x / q) mod 2^d takes no division: for d = 4 and 5 it is
//! round(floor(20159 x / 2^16) / 2^(10 - d)) (`mulhi`, `mulhrs`); for d = 10 and 11 the
//! product 8 x 20159 is formed on 32 bits from `mullo` and `mulhi` with the borrow corrected,
//! as in the Kyber AVX2 code. Both are exact for every x in [0, q) (the back-end test checks
//! them against the portable code; the formulas were checked exhaustively when written).
//! Decompress_d(y) = round(q y / 2^d) is `mulhrs(y 2^(15-d), q)`, exact.

use core::arch::x86_64::*;

use pqlab_arith::mlkem::Q;

use super::super::Coeffs;
use super::ntt::{load, store};
use super::sample::unpack12;

/// 20159 = round(2^26 / q), the reciprocal of Barrett reduction and compression.
const V: i16 = 20159;

/// The 16 bytes `b[pos..pos + 16]` (bounds-checked).
#[target_feature(enable = "avx2")]
#[inline]
fn load16(b: &[u8], pos: usize) -> __m128i {
    let s = &b[pos..pos + 16];
    // SAFETY: `s` holds 16 bytes.
    unsafe { _mm_loadu_si128(s.as_ptr().cast()) }
}

/// The 8 bytes `b[pos..pos + 8]` as a little-endian integer (bounds-checked).
#[inline(always)]
fn load8(b: &[u8], pos: usize) -> i64 {
    let mut w = [0u8; 8];
    w.copy_from_slice(&b[pos..pos + 8]);
    i64::from_le_bytes(w)
}

/// Stores the 16 bytes of `v` at `out[pos..pos + 16]` (bounds-checked).
#[target_feature(enable = "avx2")]
#[inline]
fn store16(out: &mut [u8], pos: usize, v: __m128i) {
    let s = &mut out[pos..pos + 16];
    // SAFETY: `s` holds 16 bytes.
    unsafe { _mm_storeu_si128(s.as_mut_ptr().cast(), v) }
}

/// Compress_4 or Compress_5 of every lane (x in [0, q)), before masking.
#[target_feature(enable = "avx2")]
#[inline]
fn compress_4_5<const D: i32>(x: __m256i) -> __m256i {
    let t = _mm256_mulhi_epi16(x, _mm256_set1_epi16(V));
    // mulhrs(t, 2^(5 + D)) = round(t / 2^(10 - D)).
    let t = _mm256_mulhrs_epi16(t, _mm256_set1_epi16(1 << (5 + D)));
    _mm256_and_si256(t, _mm256_set1_epi16((1 << D) - 1))
}

/// Compress_10 or Compress_11 of every lane (x in [0, q)): floor(8 x V / 2^16) from `mulhi`,
/// lowered by one where the low half of 8 x V is below x + OFF (the borrow of the exact
/// rounding), then rounded by `mulhrs` to D bits.
#[target_feature(enable = "avx2")]
#[inline]
fn compress_10_11<const D: i32>(x: __m256i) -> __m256i {
    let off = _mm256_set1_epi16(if D == 10 { 15 } else { 36 });
    let v = _mm256_set1_epi16(V);
    let v8 = _mm256_set1_epi16(V.wrapping_mul(8));
    let lo = _mm256_mullo_epi16(x, v8);
    let hi = _mm256_mulhi_epi16(_mm256_slli_epi16::<3>(x), v);
    let t = _mm256_sub_epi16(lo, _mm256_add_epi16(x, off));
    let borrow = _mm256_srli_epi16::<15>(_mm256_andnot_si256(lo, t));
    let t = _mm256_sub_epi16(hi, borrow);
    let t = _mm256_mulhrs_epi16(t, _mm256_set1_epi16(1 << (D + 2)));
    _mm256_and_si256(t, _mm256_set1_epi16((1 << D) - 1))
}

/// ByteEncode_d(Compress_d(f)) for d in {1, 4, 5, 10, 11} (FIPS 203, Algorithm 5 and
/// equation 4.7); coefficients of `f` in [0, q); writes exactly `out[..32 d]` (the caller
/// checked that `out` holds it).
#[target_feature(enable = "avx2")]
pub(super) unsafe fn compress_encode(d: u32, f: &Coeffs, out: &mut [u8]) {
    match d {
        1 => {
            // Compress_1(x) = 1 iff 833 <= x <= 2496, i.e. |1664 - x| (one's complement) < 832.
            let hq = _mm256_set1_epi16((Q - 1) / 2);
            let hhq = _mm256_set1_epi16((Q - 1) / 4);
            for (i, o) in out[..32].chunks_exact_mut(4).enumerate() {
                let mut v = [_mm256_setzero_si256(); 2];
                for (k, x) in v.iter_mut().enumerate() {
                    let t = _mm256_sub_epi16(hq, load(f, 2 * i + k));
                    let t = _mm256_xor_si256(t, _mm256_srai_epi16::<15>(t));
                    *x = _mm256_sub_epi16(t, hhq);
                }
                let p = _mm256_permute4x64_epi64::<0xD8>(_mm256_packs_epi16(v[0], v[1]));
                o.copy_from_slice(&(_mm256_movemask_epi8(p) as u32).to_le_bytes());
            }
        }
        4 => {
            let nib = _mm256_set1_epi16((16 << 8) + 1);
            let perm = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
            for (i, o) in out[..128].chunks_exact_mut(32).enumerate() {
                let c: [__m256i; 4] = [
                    compress_4_5::<4>(load(f, 4 * i)),
                    compress_4_5::<4>(load(f, 4 * i + 1)),
                    compress_4_5::<4>(load(f, 4 * i + 2)),
                    compress_4_5::<4>(load(f, 4 * i + 3)),
                ];
                let a = _mm256_maddubs_epi16(_mm256_packus_epi16(c[0], c[1]), nib);
                let b = _mm256_maddubs_epi16(_mm256_packus_epi16(c[2], c[3]), nib);
                let r = _mm256_permutevar8x32_epi32(_mm256_packus_epi16(a, b), perm);
                // SAFETY: `o` holds 32 bytes.
                unsafe { _mm256_storeu_si256(o.as_mut_ptr().cast(), r) };
            }
        }
        5 => {
            let pairs = _mm256_set1_epi16((32 << 8) + 1);
            let quads = _mm256_set1_epi32((1024 << 16) + 1);
            let s12 = _mm256_set1_epi64x(12);
            let shuf = _mm256_set_epi8(
                8, -1, -1, -1, -1, -1, 4, 3, 2, 1, 0, -1, 12, 11, 10, 9, -1, 12, 11, 10, 9, 8, -1,
                -1, -1, -1, -1, 4, 3, 2, 1, 0,
            );
            for (i, o) in out[..160].chunks_exact_mut(20).enumerate() {
                let c0 = compress_4_5::<5>(load(f, 2 * i));
                let c1 = compress_4_5::<5>(load(f, 2 * i + 1));
                // Bytes [c0..7, c16..23 | c8..15, c24..31], then 10, 20 and 40-bit groups.
                let t = _mm256_maddubs_epi16(_mm256_packus_epi16(c0, c1), pairs);
                let t = _mm256_madd_epi16(t, quads);
                let t = _mm256_srlv_epi64(_mm256_sllv_epi32(t, s12), s12);
                let t = _mm256_shuffle_epi8(t, shuf);
                let hi = _mm256_extracti128_si256::<1>(t);
                let lo =
                    _mm_blendv_epi8(_mm256_castsi256_si128(t), hi, _mm256_castsi256_si128(shuf));
                store16(o, 0, lo);
                o[16..].copy_from_slice(&(_mm_cvtsi128_si32(hi) as u32).to_le_bytes());
            }
        }
        10 => {
            let pairs = _mm256_set1_epi32((1024 << 16) + 1);
            let s12 = _mm256_set1_epi64x(12);
            let shuf = _mm256_set_epi8(
                8, 4, 3, 2, 1, 0, -1, -1, -1, -1, -1, -1, 12, 11, 10, 9, -1, -1, -1, -1, -1, -1,
                12, 11, 10, 9, 8, 4, 3, 2, 1, 0,
            );
            for (i, o) in out[..320].chunks_exact_mut(20).enumerate() {
                let c = compress_10_11::<10>(load(f, i));
                // 20-bit pairs, 40-bit quadruples, then the bytes in order.
                let t = _mm256_madd_epi16(c, pairs);
                let t = _mm256_srli_epi64::<12>(_mm256_sllv_epi32(t, s12));
                let t = _mm256_shuffle_epi8(t, shuf);
                let hi = _mm256_extracti128_si256::<1>(t);
                let lo =
                    _mm_blendv_epi8(_mm256_castsi256_si128(t), hi, _mm256_castsi256_si128(shuf));
                store16(o, 0, lo);
                o[16..].copy_from_slice(&(_mm_cvtsi128_si32(hi) as u32).to_le_bytes());
            }
        }
        _ => {
            // d = 11.
            let pairs = _mm256_set1_epi32((2048 << 16) + 1);
            let s10 = _mm256_set1_epi64x(10);
            let srl = _mm256_set_epi64x(30, 10, 30, 10);
            let shuf = _mm256_set_epi8(
                4, 3, 2, 1, 0, 0, -1, -1, -1, -1, 10, 9, 8, 7, 6, 5, -1, -1, -1, -1, -1, 10, 9, 8,
                7, 6, 5, 4, 3, 2, 1, 0,
            );
            for (i, o) in out[..352].chunks_exact_mut(22).enumerate() {
                let c = compress_10_11::<11>(load(f, i));
                // 22-bit pairs; each 128-bit lane then holds 88 bits: 64 in its low half.
                let t = _mm256_sllv_epi32(_mm256_madd_epi16(c, pairs), s10);
                let u = _mm256_slli_epi64::<34>(_mm256_bsrli_epi128::<8>(t));
                let t = _mm256_add_epi64(_mm256_srlv_epi64(t, srl), u);
                let t = _mm256_shuffle_epi8(t, shuf);
                let hi = _mm256_extracti128_si256::<1>(t);
                let lo =
                    _mm_blendv_epi8(_mm256_castsi256_si128(t), hi, _mm256_castsi256_si128(shuf));
                store16(o, 0, lo);
                o[16..].copy_from_slice(&(_mm_cvtsi128_si64(hi) as u64).to_le_bytes()[..6]);
            }
        }
    }
}

/// Decompress_d of d-bit values sitting at bits \[15 - d, 15) of each lane:
/// mulhrs(y 2^(15-d), q) = (q y + 2^(d-1)) >> d.
#[target_feature(enable = "avx2")]
#[inline]
fn decompress_top(y: __m256i) -> __m256i {
    _mm256_mulhrs_epi16(y, _mm256_set1_epi16(Q))
}

/// Decompress_d(ByteDecode_d(b)) for d in {1, 4, 5, 10, 11} (FIPS 203, Algorithm 6 and
/// equation 4.8); reads only `b[..32 d]` (the caller checked that `b` holds it).
#[target_feature(enable = "avx2")]
pub(super) unsafe fn decode_decompress(d: u32, b: &[u8], f: &mut Coeffs) {
    match d {
        1 => {
            // Lane j of vector i: bit j of bytes 2i, 2i+1; Decompress_1(1) = 1665.
            let bits = _mm256_setr_epi16(
                1,
                2,
                4,
                8,
                16,
                32,
                64,
                128,
                256,
                512,
                1024,
                2048,
                4096,
                8192,
                16384,
                i16::MIN,
            );
            let half = _mm256_set1_epi16((Q + 1) / 2);
            for (i, w) in b[..32].chunks_exact(2).enumerate() {
                let v = _mm256_set1_epi16(i16::from_le_bytes([w[0], w[1]]));
                let m = _mm256_cmpeq_epi16(_mm256_and_si256(v, bits), bits);
                store(f, i, _mm256_and_si256(m, half));
            }
        }
        4 => {
            // Byte k of the group into lanes 2k and 2k+1; a multiplication by 2^11 (2^7) puts
            // its low (high) nibble at bits 11..15.
            let spread = _mm256_setr_epi8(
                0, -1, 0, -1, 1, -1, 1, -1, 2, -1, 2, -1, 3, -1, 3, -1, 4, -1, 4, -1, 5, -1, 5, -1,
                6, -1, 6, -1, 7, -1, 7, -1,
            );
            let shift = _mm256_set1_epi32((128 << 16) + 2048);
            let mask = _mm256_set1_epi16(0x7800);
            for i in 0..16 {
                let v = _mm256_shuffle_epi8(_mm256_set1_epi64x(load8(b, 8 * i)), spread);
                let v = _mm256_and_si256(_mm256_mullo_epi16(v, shift), mask);
                store(f, i, decompress_top(v));
            }
        }
        5 => {
            // Lane j (of each half of eight coefficients): the 16-bit window at byte
            // floor(5 j / 8), multiplied by 2^(11 - (5 j mod 8)) to put the value at the top,
            // then halved and masked. The ten bytes of a group: 0..8 in the low lane, 2..10
            // in the high one (the first of its own bytes is 5, lane byte 3).
            let ctl = _mm256_setr_epi8(
                0, 1, 0, 1, 1, 2, 1, 2, 2, 3, 3, 4, 3, 4, 4, 5, 3, 4, 3, 4, 4, 5, 4, 5, 5, 6, 6, 7,
                6, 7, 7, -1,
            );
            let mul = _mm256_setr_epi16(
                2048, 64, 512, 16, 128, 1024, 32, 256, 2048, 64, 512, 16, 128, 1024, 32, 256,
            );
            let mask = _mm256_set1_epi16(31 << 10);
            for i in 0..16 {
                let raw = _mm256_set_epi64x(0, load8(b, 10 * i + 2), 0, load8(b, 10 * i));
                let v = _mm256_mullo_epi16(_mm256_shuffle_epi8(raw, ctl), mul);
                let v = _mm256_and_si256(_mm256_srli_epi16::<1>(v), mask);
                store(f, i, decompress_top(v));
            }
        }
        10 => {
            // As for d = 5, with windows at byte floor(10 j / 8), multipliers
            // 2^(6 - (10 j mod 8)); twenty bytes: 0..16 low lane, 4..20 high lane.
            let ctl = _mm256_setr_epi8(
                0, 1, 1, 2, 2, 3, 3, 4, 5, 6, 6, 7, 7, 8, 8, 9, 6, 7, 7, 8, 8, 9, 9, 10, 11, 12,
                12, 13, 13, 14, 14, 15,
            );
            let mul = _mm256_setr_epi16(64, 16, 4, 1, 64, 16, 4, 1, 64, 16, 4, 1, 64, 16, 4, 1);
            let mask = _mm256_set1_epi16(1023 << 5);
            for i in 0..16 {
                let raw = _mm256_set_m128i(load16(b, 20 * i + 4), load16(b, 20 * i));
                let v = _mm256_mullo_epi16(_mm256_shuffle_epi8(raw, ctl), mul);
                let v = _mm256_and_si256(_mm256_srli_epi16::<1>(v), mask);
                store(f, i, decompress_top(v));
            }
        }
        _ => {
            // d = 11: 24-bit windows in 32-bit lanes, coefficients 0..3 and 4..7 of each
            // half of eight, shifted right by (11 j mod 8) and masked; packed back in order.
            // Twenty-two bytes: 0..16 in the low lane, 6..22 in the high one (its own bytes
            // start at lane byte 5; the third byte of its last window is not needed).
            let ctl_a = _mm256_setr_epi8(
                0, 1, 2, -1, 1, 2, 3, -1, 2, 3, 4, -1, 4, 5, 6, -1, 5, 6, 7, -1, 6, 7, 8, -1, 7, 8,
                9, -1, 9, 10, 11, -1,
            );
            let ctl_b = _mm256_setr_epi8(
                5, 6, 7, -1, 6, 7, 8, -1, 8, 9, 10, -1, 9, 10, 11, -1, 10, 11, 12, -1, 11, 12, 13,
                -1, 13, 14, 15, -1, 14, 15, -1, -1,
            );
            let sh_a = _mm256_setr_epi32(0, 3, 6, 1, 0, 3, 6, 1);
            let sh_b = _mm256_setr_epi32(4, 7, 2, 5, 4, 7, 2, 5);
            let mask = _mm256_set1_epi32(0x7ff);
            for i in 0..16 {
                let raw = _mm256_set_m128i(load16(b, 22 * i + 6), load16(b, 22 * i));
                let a = _mm256_srlv_epi32(_mm256_shuffle_epi8(raw, ctl_a), sh_a);
                let c = _mm256_srlv_epi32(_mm256_shuffle_epi8(raw, ctl_b), sh_b);
                let v = _mm256_packus_epi32(_mm256_and_si256(a, mask), _mm256_and_si256(c, mask));
                store(f, i, decompress_top(_mm256_slli_epi16::<4>(v)));
            }
        }
    }
}

/// FIPS 203, Algorithm 5: ByteEncode_12(f) for coefficients in [0, q): pairs joined into
/// 24-bit lanes, compacted to 24 bytes per sixteen coefficients. Writes exactly `out[..384]`.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn byte_encode12(f: &Coeffs, out: &mut [u8]) {
    let pairs = _mm256_set1_epi32((4096 << 16) + 1);
    let shuf = _mm256_setr_epi8(
        0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1, 0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13,
        14, -1, -1, -1, -1,
    );
    let perm = _mm256_setr_epi32(0, 1, 2, 4, 5, 6, 3, 7);
    for (i, o) in out[..384].chunks_exact_mut(24).enumerate() {
        let t = _mm256_madd_epi16(load(f, i), pairs);
        let t = _mm256_permutevar8x32_epi32(_mm256_shuffle_epi8(t, shuf), perm);
        store16(o, 0, _mm256_castsi256_si128(t));
        let hi = _mm256_extracti128_si256::<1>(t);
        o[16..].copy_from_slice(&(_mm_cvtsi128_si64(hi) as u64).to_le_bytes());
    }
}

/// FIPS 203, Algorithm 6: ByteDecode_12(b) from `b[..384]`. With `CHECKED = false` every value
/// is reduced into [0, q) (a subtraction and a masked addition, constant time: used on s_hat)
/// and `true` is returned; with `CHECKED = true` the values are kept and the result says
/// whether all are below q (the modulus check of FIPS 203, Section 7.2, on public keys).
#[target_feature(enable = "avx2")]
pub(super) unsafe fn byte_decode12<const CHECKED: bool>(b: &[u8], f: &mut Coeffs) -> bool {
    let q = _mm256_set1_epi16(Q);
    let mut ok = _mm256_set1_epi16(-1);
    for (i, g) in b[..384].chunks_exact(24).enumerate() {
        let x = unpack12(g);
        if CHECKED {
            ok = _mm256_and_si256(ok, _mm256_cmpgt_epi16(q, x));
            store(f, i, x);
        } else {
            let t = _mm256_sub_epi16(x, q);
            store(
                f,
                i,
                _mm256_add_epi16(t, _mm256_and_si256(_mm256_srai_epi16::<15>(t), q)),
            );
        }
    }
    _mm256_movemask_epi8(ok) == -1
}
