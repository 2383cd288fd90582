//! The rejection loops of RejNTTPoly and RejBoundedPoly (FIPS 204, Algorithms 30 and 31), 16
//! candidates per step: the accepted lanes are compressed to the front of a register
//! (`vpcompressd`) and stored with a mask of as many lanes as were accepted, cut to the room
//! left in `out` (`pdep` keeps the first accepted lanes), so nothing is written past
//! `out.len()`; the input is read with masked loads that stop at `buf.len()`.

use core::arch::x86_64::*;

use crate::params::Q;

/// The first `room` set bits of `mask` (all of them when `room >= 16`).
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,avx2,bmi2,popcnt")]
fn first_ones(mask: u16, room: usize) -> u16 {
    if room >= 16 {
        mask
    } else {
        _pdep_u32((1u32 << room) - 1, u32::from(mask)) as u16
    }
}

/// Stores the lanes of `v` selected by `keep` contiguously at `out[at..]`; returns how many.
/// `keep` has at most `out.len() - at` set bits (see [`first_ones`]).
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,avx2,bmi2,popcnt")]
fn append(out: &mut [i32], at: usize, keep: u16, v: __m512i) -> usize {
    let n = keep.count_ones() as usize;
    let packed = _mm512_maskz_compress_epi32(keep, v);
    let tail = &mut out[at..];
    let lanes = ((1u32 << n) - 1) as u16;
    debug_assert!(n <= tail.len());
    // SAFETY: the mask enables the first n lanes, n <= tail.len() (the caller cut `keep` to
    // the room left), so only elements of `tail` are written; masked-off lanes do not fault.
    unsafe { _mm512_mask_storeu_epi32(tail.as_mut_ptr().cast(), lanes, packed) };
    n
}

/// FIPS 204, Algorithm 30 (RejNTTPoly) lines 5 to 11 on a buffer of SHAKE128 output: 48
/// bytes give 16 candidates (Algorithm 14, CoeffFromThreeBytes: a `vpermd` and a `vpshufb`
/// spread the 3-byte groups to 32-bit lanes, the top bit is cleared), the ones below q are
/// appended to `out` in order until it is full. Returns the number written. Public data (rho):
/// the branches and store addresses depend on it freely.
///
/// # Safety
/// The CPU must support AVX-512F/BW/VL/DQ and BMI2.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,avx2,bmi2,popcnt")]
pub(super) unsafe fn rej_uniform(buf: &[u8], out: &mut [i32]) -> usize {
    // 128-bit lane l gets the dwords 3l, 3l + 1, 3l + 2 (bytes 12 l .. 12 l + 11)...
    let spread = _mm512_setr_epi32(0, 1, 2, 0, 3, 4, 5, 0, 6, 7, 8, 0, 9, 10, 11, 0);
    // ... and byte shuffles make candidate t of the lane from bytes 3t, 3t + 1, 3t + 2.
    let bytes = _mm512_broadcast_i32x4(_mm_setr_epi8(
        0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8, -1, 9, 10, 11, -1,
    ));
    let low23 = _mm512_set1_epi32(0x7f_ffff);
    let q = _mm512_set1_epi32(Q);
    let mut ctr = 0;
    let mut pos = 0;
    while ctr < out.len() && buf.len() - pos >= 3 {
        let n = (buf.len() - pos).min(48);
        let raw = if buf.len() - pos >= 64 {
            let chunk = &buf[pos..pos + 64];
            // SAFETY: `chunk` is 64 readable bytes; the load needs no alignment.
            unsafe { _mm512_loadu_si512(chunk.as_ptr().cast()) }
        } else {
            let chunk = &buf[pos..pos + n];
            // SAFETY: the mask enables the first n = chunk.len() bytes only; masked-off bytes
            // are neither read nor able to fault.
            unsafe { _mm512_maskz_loadu_epi8((1u64 << n) - 1, chunk.as_ptr().cast()) }
        };
        let v = _mm512_shuffle_epi8(_mm512_permutexvar_epi32(spread, raw), bytes);
        let v = _mm512_and_si512(v, low23);
        let valid = ((1u32 << (n / 3)) - 1) as u16;
        let below_q = _mm512_mask_cmplt_epi32_mask(valid, v, q);
        let room = out.len() - ctr;
        if below_q == u16::MAX && room >= 16 {
            // Every candidate accepted (all but about 1.6 % of the full chunks): stored whole,
            // nothing to compress.
            let tail = &mut out[ctr..ctr + 16];
            // SAFETY: `tail` is 16 writable i32 (64 bytes); the store needs no alignment.
            unsafe { _mm512_storeu_si512(tail.as_mut_ptr().cast(), v) };
            ctr += 16;
        } else {
            ctr += append(out, ctr, first_ones(below_q, room), v);
        }
        pos += n;
    }
    ctr
}

/// FIPS 204, Algorithm 31 (RejBoundedPoly) lines 5 to 15 for eta = `ETA` (2 or 4) on a buffer
/// of SHAKE256 output: 8 bytes give 16 half-bytes, low first (Algorithm 15,
/// CoeffFromHalfByte), appended to `out` while it has room.
///
/// The stream is secret. Only the acceptance mask (which half-bytes are rejected, as visible
/// in the standard's own loop and in the reference implementation) steers anything: the
/// number of lanes stored and where the next store goes. The accepted values are computed for
/// every lane with branch-free compares and masked subtractions (b mod 5 for b < 15 without a
/// division), and never choose a branch or index memory.
///
/// # Safety
/// The CPU must support AVX-512F/BW/VL/DQ and BMI2.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,avx2,bmi2,popcnt")]
pub(super) unsafe fn rej_eta<const ETA: i32>(buf: &[u8], out: &mut [i32]) -> usize {
    let nibble_shift = _mm512_setr_epi32(0, 4, 0, 4, 0, 4, 0, 4, 0, 4, 0, 4, 0, 4, 0, 4);
    let fifteen = _mm512_set1_epi32(15);
    let five = _mm512_set1_epi32(5);
    let ten = _mm512_set1_epi32(10);
    let eta = _mm512_set1_epi32(ETA);
    let limit = _mm512_set1_epi32(if ETA == 2 { 15 } else { 9 });
    let mut ctr = 0;
    let mut pos = 0;
    while ctr < out.len() && pos < buf.len() {
        let n = (buf.len() - pos).min(8);
        let chunk = &buf[pos..pos + n];
        // SAFETY: the mask enables the first n = chunk.len() bytes only.
        let raw = unsafe { _mm_maskz_loadu_epi8(((1u32 << n) - 1) as u16, chunk.as_ptr().cast()) };
        // Byte j to lanes 2j and 2j + 1, then its low and high half-bytes.
        let v = _mm512_cvtepu8_epi32(_mm_unpacklo_epi8(raw, raw));
        let b = _mm512_and_si512(_mm512_srlv_epi32(v, nibble_shift), fifteen);
        let valid = ((1u32 << (2 * n)) - 1) as u16;
        let accept = _mm512_mask_cmplt_epi32_mask(valid, b, limit);
        let r = if ETA == 2 {
            // eta - (b mod 5): subtract 5 once for b >= 5 and again for b >= 10.
            let r = _mm512_mask_sub_epi32(b, _mm512_cmpge_epi32_mask(b, five), b, five);
            _mm512_mask_sub_epi32(r, _mm512_cmpge_epi32_mask(b, ten), r, five)
        } else {
            b
        };
        let vals = _mm512_sub_epi32(eta, r);
        ctr += append(out, ctr, first_ones(accept, out.len() - ctr), vals);
        pos += n;
    }
    ctr
}
