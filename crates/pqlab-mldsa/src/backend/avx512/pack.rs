//! Bit packing (FIPS 204, Section 7.1: Algorithms 16 to 19), the same little-endian bit
//! layout as `crate::encode`: coefficient i occupies bits \[i bits, (i + 1) bits).
//!
//! Unpacking takes 16 coefficients (2 bits bytes) per step: a masked load, a `vpermd` that
//! gives each 128-bit lane the dwords its four coefficients lie in, a `vpshufb` that gives
//! each lane the 4 bytes starting at its coefficient's first byte, a variable shift and a
//! mask. Packing takes 32 coefficients (bits dwords) per step: each output dword ORs the
//! (at most 31 / bits + 2) coefficients overlapping it, each fetched with a `vpermt2d` and
//! shifted into place; 4 bits (w1Encode of ML-DSA-65/87, the eta = 4 keys) pairs nibbles
//! within qwords and truncates them to bytes with `vpmovqb`. All index and shift vectors are
//! computed at compile time from `bits`. Nothing depends on the coefficient values but the
//! values themselves (secret keys are packed here).

use core::arch::x86_64::*;

use super::{Coeffs, load, load_row, store};

/// At most 31 / 3 + 2 coefficients overlap one output dword (bits = 3).
const MAX_TERMS: usize = 12;

/// The constants of unpacking `bits`-bit coefficients, 16 per vector.
struct Unpack {
    /// Lane 4 l + t gets dword d_l + t of the 2 bits input bytes.
    perm: [i32; 16],
    /// Lane-relative bytes of each coefficient's 4-byte window.
    shuf: [i8; 64],
    /// (bits i) mod 8: the coefficient's first bit in its window.
    shift: [i32; 16],
}

const fn unpack_tables(bits: usize) -> Unpack {
    let mut t = Unpack {
        perm: [0; 16],
        shuf: [0; 64],
        shift: [0; 16],
    };
    let mut l = 0;
    while l < 4 {
        let d = (bits * 4 * l / 8) / 4;
        let mut j = 0;
        while j < 4 {
            t.perm[4 * l + j] = (d + j) as i32;
            let i = 4 * l + j;
            let o = bits * i / 8 - 4 * d;
            assert!(o + 3 < 16 && d + 3 < 16 && (bits * i) % 8 + bits <= 32);
            let mut u = 0;
            while u < 4 {
                t.shuf[16 * l + 4 * j + u] = (o + u) as i8;
                u += 1;
            }
            t.shift[i] = ((bits * i) % 8) as i32;
            j += 1;
        }
        l += 1;
    }
    t
}

/// The constants of packing 32 `bits`-bit coefficients (two vectors) into `bits` dwords:
/// for output vector o (dwords 16 o ..) and term r, per lane the coefficient to fetch and its
/// right and left shift (a shift by 32 empties lanes with fewer terms).
struct Pack {
    terms: usize,
    idx: [[[i32; 16]; MAX_TERMS]; 2],
    shr: [[[i32; 16]; MAX_TERMS]; 2],
    shl: [[[i32; 16]; MAX_TERMS]; 2],
}

const fn pack_tables(bits: usize) -> Pack {
    let terms = 31 / bits + 2;
    assert!(terms <= MAX_TERMS && bits <= 32);
    let mut t = Pack {
        terms,
        idx: [[[0; 16]; MAX_TERMS]; 2],
        shr: [[[0; 16]; MAX_TERMS]; 2],
        shl: [[[32; 16]; MAX_TERMS]; 2],
    };
    let mut w = 0;
    while w < bits {
        let (o, lane) = (w / 16, w % 16);
        let first = 32 * w / bits;
        let mut r = 0;
        while r < terms {
            let i = first + r;
            if i < 32 && bits * i < 32 * w + 32 {
                t.idx[o][r][lane] = i as i32;
                let p = (bits * i) as i64 - 32 * w as i64;
                if p >= 0 {
                    t.shl[o][r][lane] = p as i32;
                } else {
                    t.shl[o][r][lane] = 0;
                    t.shr[o][r][lane] = -p as i32;
                }
            }
            r += 1;
        }
        w += 1;
    }
    t
}

/// Loads up to 64 bytes of `v` from `off` (fewer, zero-filled, at its end).
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq")]
fn load_bytes(v: &[u8], off: usize, n: usize) -> __m512i {
    match v.get(off..) {
        Some(tail) if !tail.is_empty() => {
            let n = n.min(tail.len()).min(64);
            // SAFETY: the mask enables the first n <= tail.len() bytes only.
            unsafe { _mm512_maskz_loadu_epi8(u64::MAX >> (64 - n), tail.as_ptr().cast()) }
        }
        _ => _mm512_setzero_si512(),
    }
}

/// Stores the first `n` (<= 64) bytes of `x` at `out[off..]`, cut at the end of `out`.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq")]
fn store_bytes(out: &mut [u8], off: usize, n: usize, x: __m512i) {
    if let Some(tail) = out.get_mut(off..) {
        let n = n.min(tail.len()).min(64);
        if n > 0 {
            // SAFETY: the mask enables the first n <= tail.len() bytes only.
            unsafe { _mm512_mask_storeu_epi8(tail.as_mut_ptr().cast(), u64::MAX >> (64 - n), x) }
        }
    }
}

/// FIPS 204, Algorithms 18 and 19: SimpleBitUnpack (`b` = None) or BitUnpack (w_i = b - x_i)
/// of 256 `BITS`-bit coefficients from `v` (32 BITS bytes; missing bytes read as zero, as in
/// `crate::encode`).
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq")]
fn unpack<const BITS: usize>(v: &[u8], b: Option<i32>, a: &mut Coeffs) {
    let t: &Unpack = const { &unpack_tables(BITS) };
    let perm = load_row(&t.perm);
    // SAFETY: `t.shuf` is 64 readable bytes; the load has no alignment requirement.
    let shuf = unsafe { _mm512_loadu_si512(t.shuf.as_ptr().cast()) };
    let shift = load_row(&t.shift);
    let mask = _mm512_set1_epi32((1 << BITS) - 1);
    let top = _mm512_set1_epi32(b.unwrap_or(0));
    for i in 0..16 {
        let raw = load_bytes(v, 2 * BITS * i, 2 * BITS);
        let x = _mm512_shuffle_epi8(_mm512_permutexvar_epi32(perm, raw), shuf);
        let x = _mm512_and_si512(_mm512_srlv_epi32(x, shift), mask);
        store(
            a,
            i,
            if b.is_some() {
                _mm512_sub_epi32(top, x)
            } else {
                x
            },
        );
    }
}

/// FIPS 204, Algorithms 16 and 17: SimpleBitPack (`b` = None) or BitPack (packs b - w_i) of
/// 256 `BITS`-bit values into `out` (32 BITS bytes).
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq")]
fn pack<const BITS: usize>(a: &Coeffs, b: Option<i32>, out: &mut [u8]) {
    let t: &Pack = const { &pack_tables(BITS) };
    let top = _mm512_set1_epi32(b.unwrap_or(0));
    let value = |i| {
        let x = load(a, i);
        if b.is_some() {
            _mm512_sub_epi32(top, x)
        } else {
            x
        }
    };
    for u in 0..8 {
        let (x0, x1) = (value(2 * u), value(2 * u + 1));
        for o in 0..BITS.div_ceil(16) {
            let mut acc = _mm512_setzero_si512();
            for r in 0..t.terms {
                let c = _mm512_permutex2var_epi32(x0, load_row(&t.idx[o][r]), x1);
                let c = _mm512_srlv_epi32(c, load_row(&t.shr[o][r]));
                let c = _mm512_sllv_epi32(c, load_row(&t.shl[o][r]));
                acc = _mm512_or_si512(acc, c);
            }
            let dwords = (BITS - 16 * o).min(16);
            store_bytes(out, 4 * BITS * u + 64 * o, 4 * dwords, acc);
        }
    }
}

/// 4-bit packing: in each qword the odd coefficient moves next to the even one (x | x >> 28
/// puts c_2j + 16 c_2j+1 in its low byte) and `vpmovqb` keeps those 8 bytes per vector.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq")]
fn pack4(a: &Coeffs, b: Option<i32>, out: &mut [u8]) {
    let top = _mm512_set1_epi32(b.unwrap_or(0));
    for i in 0..16 {
        let x = load(a, i);
        let x = if b.is_some() {
            _mm512_sub_epi32(top, x)
        } else {
            x
        };
        let x = _mm512_or_si512(x, _mm512_srli_epi64::<28>(x));
        let bytes = _mm512_castsi128_si512(_mm512_cvtepi64_epi8(x));
        store_bytes(out, 8 * i, 8, bytes);
    }
}

/// FIPS 204, Algorithms 16 and 17 for bits in {3, 4, 6, 10, 13, 18, 20} (`b` = None:
/// SimpleBitPack; Some(b): BitPack as b - w_i); other widths go to the portable code.
///
/// # Safety
/// The CPU must support AVX-512F/BW/VL/DQ.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq")]
pub(super) unsafe fn bit_pack(a: &Coeffs, bits: usize, b: Option<i32>, out: &mut [u8]) {
    match bits {
        3 => pack::<3>(a, b, out),
        4 => pack4(a, b, out),
        6 => pack::<6>(a, b, out),
        10 => pack::<10>(a, b, out),
        13 => pack::<13>(a, b, out),
        18 => pack::<18>(a, b, out),
        20 => pack::<20>(a, b, out),
        _ => match b {
            Some(b) => crate::encode::bit_pack(a, bits, b, out),
            None => crate::encode::simple_bit_pack(a, bits, out),
        },
    }
}

/// FIPS 204, Algorithms 18 and 19 for bits in {3, 4, 6, 10, 13, 18, 20} (`b` = None:
/// SimpleBitUnpack; Some(b): BitUnpack as b - x_i); other widths go to the portable code.
///
/// # Safety
/// The CPU must support AVX-512F/BW/VL/DQ.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq")]
pub(super) unsafe fn bit_unpack(v: &[u8], bits: usize, b: Option<i32>, a: &mut Coeffs) {
    match bits {
        3 => unpack::<3>(v, b, a),
        4 => unpack::<4>(v, b, a),
        6 => unpack::<6>(v, b, a),
        10 => unpack::<10>(v, b, a),
        13 => unpack::<13>(v, b, a),
        18 => unpack::<18>(v, b, a),
        20 => unpack::<20>(v, b, a),
        _ => match b {
            Some(b) => crate::encode::bit_unpack(v, bits, b, a),
            None => crate::encode::simple_bit_unpack(v, bits, a),
        },
    }
}
