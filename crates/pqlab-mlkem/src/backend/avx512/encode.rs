//! ByteEncode_d / ByteDecode_d (FIPS 203, Algorithms 5 and 6) fused with Compress_d /
//! Decompress_d (equations 4.7 and 4.8) on AVX-512, 32 coefficients (4 d bytes) per vector.
//!
//! Packing d-bit values: `vpmaddwd` joins pairs into 2d-bit dwords, a dword shift and a qword
//! shift join pairs of those into 4d-bit qwords, `vpshufb` gathers the d bytes of each 128-bit
//! lane at byte offset (d L) mod 4 of lane L, and `vpermd` (two, ORed, where a dword of the
//! output straddles two lanes) moves the dwords to their place. Unpacking reverses it with one
//! `vpermd` (each lane fetches the four dwords holding its d bytes), `vpshufb` (the two bytes
//! holding each value; for d = 11 also the next two) and per-lane variable shifts.
//!
//! Compress is exact for every x in [0, q) with no division: an estimate of
//! floor((2^d x + (q-1)/2) / q) from one `vpmulhuw` by floor(2^27 / q), low by at most one, then
//! corrected once by comparing the remainder (computed modulo 2^16) with q.
#![allow(unsafe_code)]

use core::arch::x86_64::{
    __m512i, _mm_cvtsi32_si128, _mm512_add_epi16, _mm512_and_si512, _mm512_cmpgt_epi16_mask,
    _mm512_cmplt_epu16_mask, _mm512_loadu_epi16, _mm512_madd_epi16, _mm512_mask_add_epi16,
    _mm512_mask_storeu_epi8, _mm512_maskz_loadu_epi8, _mm512_maskz_mov_epi16,
    _mm512_maskz_permutexvar_epi32, _mm512_min_epu16, _mm512_mulhi_epu16, _mm512_mulhrs_epi16,
    _mm512_mullo_epi16, _mm512_or_si512, _mm512_permutexvar_epi32, _mm512_set1_epi16,
    _mm512_shuffle_epi8, _mm512_sll_epi16, _mm512_slli_epi16, _mm512_sllv_epi16, _mm512_sllv_epi32,
    _mm512_srl_epi16, _mm512_srlv_epi16, _mm512_srlv_epi64, _mm512_storeu_epi16, _mm512_sub_epi16,
};

use pqlab_arith::mlkem::Q;

use super::{Coeffs, ld8, ld16, ld32};

/// The constant tables of the packing of d-bit values.
struct PackTables {
    /// `vpmaddwd` multipliers (1, 2^d).
    madd: [i16; 32],
    /// Dword left shifts (32 - 2d, 0) and qword right shifts (32 - 2d, 28 - 2d for odd d).
    shl32: [i32; 16],
    shr64: [i32; 16],
    /// `vpshufb` controls: the low qword's bytes, and (odd d) the high qword's.
    shuf: [[i8; 64]; 2],
    /// `vpermd` indices: the lane holding each output dword's first byte, and the lane
    /// holding its last byte where that is another one (`second` lists those dwords).
    perm: [[i32; 16]; 2],
    second: u16,
}

const fn pack_tables(d: usize) -> PackTables {
    let mut t = PackTables {
        madd: [0; 32],
        shl32: [0; 16],
        shr64: [0; 16],
        shuf: [[-128; 64]; 2],
        perm: [[0; 16]; 2],
        second: 0,
    };
    let mut i = 0;
    while i < 16 {
        t.madd[2 * i] = 1;
        t.madd[2 * i + 1] = 1 << d;
        t.shl32[i] = if i % 2 == 0 { 32 - 2 * d as i32 } else { 0 };
        // Qwords: (32 - 2d) for the low one of a lane; 4 less for the high one when 4d bits
        // end mid-byte, which leaves it starting at bit 4 (joined below to the low qword's
        // last half byte by the OR of the two shuffles).
        let q = i / 2;
        t.shr64[i] = if i % 2 == 1 {
            0
        } else if q % 2 == 1 && d % 2 == 1 {
            28 - 2 * d as i32
        } else {
            32 - 2 * d as i32
        };
        i += 1;
    }
    let h = d / 2;
    let mut lane = 0;
    while lane < 4 {
        let o = (d * lane) % 4;
        let mut k = 0;
        while k < 16 {
            let b = 16 * lane + o + k;
            if d.is_multiple_of(2) {
                if k < h {
                    t.shuf[0][b] = k as i8;
                } else if k < d {
                    t.shuf[0][b] = (8 + k - h) as i8;
                }
            } else {
                if k <= h {
                    t.shuf[0][b] = k as i8;
                }
                if k >= h && k < d {
                    t.shuf[1][b] = (8 + k - h) as i8;
                }
            }
            k += 1;
            if o + k >= 16 {
                break;
            }
        }
        lane += 1;
    }
    let mut k = 0;
    while k < d {
        let first = 4 * k / d;
        let last = (4 * k + 3) / d;
        t.perm[0][k] = (4 * first + k - d * first / 4) as i32;
        if last != first && last < 4 {
            t.perm[1][k] = (4 * last + k - d * last / 4) as i32;
            t.second |= 1 << k;
        }
        k += 1;
    }
    t
}

/// The constant tables of the unpacking of d-bit values.
struct UnpackTables {
    /// `vpermd` indices: lane L gets the dwords from the one holding byte d L on.
    perm: [i32; 16],
    /// `vpshufb` controls: the two bytes starting with each value's first bit, and (d = 11)
    /// the two after the first.
    shuf: [[i8; 64]; 2],
    /// Right shifts of the first pair, left shifts of the second.
    shr: [i16; 32],
    shl: [i16; 32],
}

const fn unpack_tables(d: usize) -> UnpackTables {
    let mut t = UnpackTables {
        perm: [0; 16],
        shuf: [[0; 64]; 2],
        shr: [0; 32],
        shl: [0; 32],
    };
    let mut lane = 0;
    while lane < 4 {
        let mut m = 0;
        while m < 4 {
            t.perm[4 * lane + m] = (d * lane / 4 + m) as i32;
            m += 1;
        }
        let o = (d * lane) % 4;
        let mut j = 0;
        while j < 8 {
            let bit = 8 * o + d * j;
            let (byte, s) = (bit / 8, bit % 8);
            t.shuf[0][16 * lane + 2 * j] = byte as i8;
            t.shuf[0][16 * lane + 2 * j + 1] = (byte + 1) as i8;
            t.shuf[1][16 * lane + 2 * j] = (byte + 1) as i8;
            t.shuf[1][16 * lane + 2 * j + 1] = (byte + 2) as i8;
            t.shr[8 * lane + j] = s as i16;
            t.shl[8 * lane + j] = (8 - s) as i16;
            j += 1;
        }
        lane += 1;
    }
    t
}

/// ByteEncode_d of 32 values below 2^d (d in {4, 5, 10, 11, 12}): the 4 d bytes at the start of
/// the result (the rest is zero or garbage).
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq")]
fn pack<const D: usize>(y: __m512i) -> __m512i {
    let t: &PackTables = const { &pack_tables(D) };
    let v = _mm512_madd_epi16(y, ld16(&t.madd));
    let v = _mm512_srlv_epi64(_mm512_sllv_epi32(v, ld32(&t.shl32)), ld32(&t.shr64));
    let mut l = _mm512_shuffle_epi8(v, ld8(&t.shuf[0]));
    if D % 2 == 1 {
        l = _mm512_or_si512(l, _mm512_shuffle_epi8(v, ld8(&t.shuf[1])));
    }
    let out = _mm512_permutexvar_epi32(ld32(&t.perm[0]), l);
    if t.second == 0 {
        out
    } else {
        _mm512_or_si512(
            out,
            _mm512_maskz_permutexvar_epi32(t.second, ld32(&t.perm[1]), l),
        )
    }
}

/// ByteDecode_d of the 4 d bytes at the start of `bytes` (d in {4, 5, 10, 11, 12}): 32 values
/// in [0, 2^d).
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq")]
pub(super) fn unpack<const D: usize>(bytes: __m512i) -> __m512i {
    let t: &UnpackTables = const { &unpack_tables(D) };
    let l = _mm512_permutexvar_epi32(ld32(&t.perm), bytes);
    let mut w = _mm512_srlv_epi16(_mm512_shuffle_epi8(l, ld8(&t.shuf[0])), ld16(&t.shr));
    if D == 11 {
        // Values reaching a third byte (first bit at 6 or 7 of its byte).
        let w2 = _mm512_sllv_epi16(_mm512_shuffle_epi8(l, ld8(&t.shuf[1])), ld16(&t.shl));
        w = _mm512_or_si512(w, w2);
    }
    _mm512_and_si512(w, _mm512_set1_epi16(((1u32 << D) - 1) as i16))
}

/// Compress_d (equation 4.7) of 32 coefficients in [0, q), d in {4, 5, 10, 11}, exact: with
/// b = 15 - d, t = floor(16 x floor(2^27 / q) / 2^16) and c = floor((q-1)/2 2^b / q), the
/// estimate y = floor((t + c) / 2^b) is floor((2^d x + (q-1)/2) / q) or one less (the three
/// truncations lose less than 3 < 2^b units of 2^-b); one more where the remainder
/// 2^d x + (q-1)/2 - y q (exact modulo 2^16, it lies in [0, 2q)) is at least q.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq")]
fn compress<const D: usize>(x: __m512i) -> __m512i {
    const K: i32 = (1 << 27) / Q as i32;
    let b = 15 - D as i32;
    let c = ((i32::from(Q) - 1) / 2 * (1 << b) / i32::from(Q)) as i16;
    let t = _mm512_mulhi_epu16(_mm512_slli_epi16::<4>(x), _mm512_set1_epi16(K as i16));
    let y = _mm512_srl_epi16(
        _mm512_add_epi16(t, _mm512_set1_epi16(c)),
        _mm_cvtsi32_si128(b),
    );
    // r - (q-1)/2 = 2^d x - y q, in [-(q-1)/2, 2q - (q-1)/2): r >= q iff it exceeds (q-1)/2.
    let r = _mm512_sub_epi16(
        _mm512_sll_epi16(x, _mm_cvtsi32_si128(D as i32)),
        _mm512_mullo_epi16(y, _mm512_set1_epi16(Q)),
    );
    let low = _mm512_cmpgt_epi16_mask(r, _mm512_set1_epi16((Q - 1) / 2));
    let y = _mm512_mask_add_epi16(y, low, y, _mm512_set1_epi16(1));
    _mm512_and_si512(y, _mm512_set1_epi16(((1u32 << D) - 1) as i16))
}

/// ByteEncode_d(Compress_d(f)) (FIPS 203, Algorithm 5 and equation 4.7) for d in
/// {4, 5, 10, 11}; coefficients in [0, q).
///
/// # Safety
/// The CPU must support AVX-512 F, BW, VL and DQ, and `out` must hold 32 d bytes.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq")]
pub(super) unsafe fn compress_encode<const D: usize>(f: &Coeffs, out: &mut [u8]) {
    debug_assert_eq!(out.len(), 32 * D);
    let mask = (1u64 << (4 * D)) - 1;
    for (i, c) in f.chunks_exact(32).enumerate() {
        // SAFETY: `c` is 32 readable `i16`.
        let x = unsafe { _mm512_loadu_epi16(c.as_ptr()) };
        let p = pack::<D>(compress::<D>(x));
        // SAFETY: the 4 D bytes stored at 4 D i end at 32 D = out.len() at most.
        unsafe { _mm512_mask_storeu_epi8(out.as_mut_ptr().add(4 * D * i).cast(), mask, p) };
    }
}

/// ByteEncode_1(Compress_1(f)) (FIPS 203, Algorithm 5 and equation 4.7): Compress_1(x) = 1
/// exactly for x in [833, 2496] (x - 833 below 1664 unsigned); coefficients in [0, q).
///
/// # Safety
/// The CPU must support AVX-512 F, BW, VL and DQ, and `out` must hold 32 bytes.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq")]
pub(super) unsafe fn compress_encode1(f: &Coeffs, out: &mut [u8]) {
    for (c, o) in f.chunks_exact(32).zip(out.chunks_exact_mut(4)) {
        // SAFETY: `c` is 32 readable `i16`.
        let x = unsafe { _mm512_loadu_epi16(c.as_ptr()) };
        let x = _mm512_sub_epi16(x, _mm512_set1_epi16(833));
        let bits = _mm512_cmplt_epu16_mask(x, _mm512_set1_epi16(1664));
        o.copy_from_slice(&bits.to_le_bytes());
    }
}

/// Decompress_d(ByteDecode_d(b)) (FIPS 203, Algorithm 6 and equation 4.8) for d in
/// {4, 5, 10, 11}: round(q y / 2^d) = (y q + 2^(d-1)) >> d is `vpmulhrsw` of y 2^(15-d) by q.
///
/// # Safety
/// The CPU must support AVX-512 F, BW, VL and DQ, and `b` must hold 32 d bytes.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq")]
pub(super) unsafe fn decode_decompress<const D: usize>(b: &[u8], f: &mut Coeffs) {
    debug_assert_eq!(b.len(), 32 * D);
    let mask = (1u64 << (4 * D)) - 1;
    for (i, c) in f.chunks_exact_mut(32).enumerate() {
        // SAFETY: the masked load reads the 4 D bytes at 4 D i, within the 32 D of `b`.
        let bytes = unsafe { _mm512_maskz_loadu_epi8(mask, b.as_ptr().add(4 * D * i).cast()) };
        let y = _mm512_sll_epi16(unpack::<D>(bytes), _mm_cvtsi32_si128(15 - D as i32));
        let x = _mm512_mulhrs_epi16(y, _mm512_set1_epi16(Q));
        // SAFETY: `c` is 32 writable `i16`.
        unsafe { _mm512_storeu_epi16(c.as_mut_ptr(), x) };
    }
}

/// Decompress_1(ByteDecode_1(b)): (q + 1) / 2 where the bit is set.
///
/// # Safety
/// The CPU must support AVX-512 F, BW, VL and DQ, and `b` must hold 32 bytes.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq")]
pub(super) unsafe fn decode_decompress1(b: &[u8], f: &mut Coeffs) {
    for (c, w) in f.chunks_exact_mut(32).zip(b.chunks_exact(4)) {
        let bits = u32::from_le_bytes([w[0], w[1], w[2], w[3]]);
        let x = _mm512_maskz_mov_epi16(bits, _mm512_set1_epi16((Q + 1) / 2));
        // SAFETY: `c` is 32 writable `i16`.
        unsafe { _mm512_storeu_epi16(c.as_mut_ptr(), x) };
    }
}

/// FIPS 203, Algorithm 5: ByteEncode_12(f) for coefficients in [0, q).
///
/// # Safety
/// The CPU must support AVX-512 F, BW, VL and DQ, and `out` must hold 384 bytes.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq")]
pub(super) unsafe fn byte_encode12(f: &Coeffs, out: &mut [u8]) {
    debug_assert_eq!(out.len(), 384);
    for (i, c) in f.chunks_exact(32).enumerate() {
        // SAFETY: `c` is 32 readable `i16`.
        let x = unsafe { _mm512_loadu_epi16(c.as_ptr()) };
        let p = pack::<12>(x);
        // SAFETY: the 48 bytes stored at 48 i end at 384 = out.len() at most.
        unsafe { _mm512_mask_storeu_epi8(out.as_mut_ptr().add(48 * i).cast(), (1 << 48) - 1, p) };
    }
}

/// The 32 12-bit values of the 48 bytes at 48 i of `b` (ByteDecode_12 before reduction).
///
/// # Safety
/// `b` must hold 48 (i + 1) bytes.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq")]
unsafe fn decode12_chunk(b: &[u8], i: usize) -> __m512i {
    // SAFETY: the masked load reads the 48 bytes at 48 i, within `b` (the caller's contract).
    let bytes = unsafe { _mm512_maskz_loadu_epi8((1 << 48) - 1, b.as_ptr().add(48 * i).cast()) };
    unpack::<12>(bytes)
}

/// FIPS 203, Algorithm 6: ByteDecode_12(b), each value reduced mod q in constant time
/// (min(x, x - q) unsigned: x - q wraps above x exactly when x < q).
///
/// # Safety
/// The CPU must support AVX-512 F, BW, VL and DQ, and `b` must hold 384 bytes.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq")]
pub(super) unsafe fn byte_decode12(b: &[u8], f: &mut Coeffs) {
    debug_assert_eq!(b.len(), 384);
    for (i, c) in f.chunks_exact_mut(32).enumerate() {
        // SAFETY: 48 (i + 1) <= 384 bytes.
        let x = unsafe { decode12_chunk(b, i) };
        let x = _mm512_min_epu16(x, _mm512_sub_epi16(x, _mm512_set1_epi16(Q)));
        // SAFETY: `c` is 32 writable `i16`.
        unsafe { _mm512_storeu_epi16(c.as_mut_ptr(), x) };
    }
}

/// ByteDecode_12(b) without reduction, and whether every value is below q (FIPS 203,
/// Section 7.2, modulus check; public data).
///
/// # Safety
/// The CPU must support AVX-512 F, BW, VL and DQ, and `b` must hold 384 bytes.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq")]
pub(super) unsafe fn byte_decode12_checked(b: &[u8], f: &mut Coeffs) -> bool {
    debug_assert_eq!(b.len(), 384);
    let mut below_q = u32::MAX;
    for (i, c) in f.chunks_exact_mut(32).enumerate() {
        // SAFETY: 48 (i + 1) <= 384 bytes.
        let x = unsafe { decode12_chunk(b, i) };
        below_q &= _mm512_cmplt_epu16_mask(x, _mm512_set1_epi16(Q));
        // SAFETY: `c` is 32 writable `i16`.
        unsafe { _mm512_storeu_epi16(c.as_mut_ptr(), x) };
    }
    below_q == u32::MAX
}
