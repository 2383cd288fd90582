//! Rejection sampling on AVX2 (FIPS 204, Section 7.3): the coefficient loops of RejNTTPoly
//! (Algorithm 30, with Algorithm 14: CoeffFromThreeBytes) and RejBoundedPoly (Algorithm 31,
//! with Algorithm 15: CoeffFromHalfByte), eight candidates per vector, compacted with the
//! shuffle-table technique of the Dilithium AVX2 code.

use core::arch::x86_64::*;

use pqlab_arith::mldsa::Q;

use super::super::Ops;
use super::super::portable::Portable;

/// For every 8-bit mask m, the lanes whose bit is set in m, in order (then zeros): the
/// `vpermd` control that moves the accepted candidates to the front.
const REJ_IDX: [[u8; 8]; 256] = {
    let mut t = [[0u8; 8]; 256];
    let mut m = 0;
    while m < 256 {
        let mut n = 0;
        let mut j = 0;
        while j < 8 {
            if m & (1 << j) != 0 {
                t[m][n] = j as u8;
                n += 1;
            }
            j += 1;
        }
        m += 1;
    }
    t
};

/// Appends the lanes of `v` selected by the 8-bit mask `good` to `out` from index `j`, at
/// most `out.len() - j` of them; returns the new length. A full vector (the lanes past the
/// accepted ones blended with the old contents) is stored when eight lanes remain in `out`,
/// else the accepted lanes are copied from a local buffer.
#[target_feature(enable = "avx2,popcnt")]
#[inline]
fn emit(out: &mut [i32], j: usize, v: __m256i, good: usize) -> usize {
    let idx = &REJ_IDX[good & 0xff];
    // SAFETY: `idx` holds 8 bytes, the 8 bytes read.
    let perm = _mm256_cvtepu8_epi32(unsafe { _mm_loadl_epi64(idx.as_ptr().cast()) });
    let packed = _mm256_permutevar8x32_epi32(v, perm);
    let n = (good & 0xff).count_ones() as usize;
    let room = out.len() - j;
    if room >= 8 {
        // Lanes n..8 keep what `out` held: nothing past the returned count is written.
        let slot = &mut out[j..j + 8];
        let iota = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
        let keep = _mm256_cmpgt_epi32(_mm256_set1_epi32(n as i32), iota);
        let old = super::ntt::load(slot, 0);
        super::ntt::store(slot, 0, _mm256_blendv_epi8(old, packed, keep));
        j + n
    } else {
        let mut tmp = [0i32; 8];
        super::ntt::store(&mut tmp, 0, packed);
        let n = n.min(room);
        out[j..j + n].copy_from_slice(&tmp[..n]);
        j + n
    }
}

/// FIPS 204, Algorithm 30 (RejNTTPoly) lines 5 to 11 on a buffer of SHAKE128 output (public
/// data): 24 bytes give eight candidates (Algorithm 14: CoeffFromThreeBytes, top bit cleared),
/// those below q are kept in order. The vector loop reads only 24-byte groups inside `buf`;
/// the last bytes (fewer than 24) go through the portable code. The table is indexed by the
/// acceptance mask of public candidates.
#[target_feature(enable = "avx2,bmi2,popcnt")]
pub(super) unsafe fn rej_uniform(buf: &[u8], out: &mut [i32]) -> usize {
    let q = _mm256_set1_epi32(Q);
    let low23 = _mm256_set1_epi32(0x7f_ffff);
    // Lane k of the half [b0..15 | b8..23] takes bytes 3k..3k+3 of its 12 (offset 4 above).
    let control = _mm256_setr_epi8(
        0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8, -1, 9, 10, 11, -1, 4, 5, 6, -1, 7, 8, 9, -1, 10, 11, 12,
        -1, 13, 14, 15, -1,
    );
    let mut pos = 0;
    let mut j = 0;
    while pos + 24 <= buf.len() && j < out.len() {
        let b = &buf[pos..pos + 24];
        // SAFETY: `b` holds 24 bytes; the two 16-byte loads read bytes 0..16 and 8..24.
        let v = unsafe { _mm256_loadu2_m128i(b.as_ptr().add(8).cast(), b.as_ptr().cast()) };
        let v = _mm256_and_si256(_mm256_shuffle_epi8(v, control), low23);
        let good = _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpgt_epi32(q, v))) as usize;
        j = emit(out, j, v, good);
        pos += 24;
    }
    j + Portable::rej_uniform(&buf[pos..], &mut out[j..])
}

/// FIPS 204, Algorithm 31 (RejBoundedPoly) lines 5 to 15 for `eta` in {2, 4} (the caller
/// checks) on a buffer of SHAKE256 output: 8 bytes give 16 half-bytes, low first
/// (Algorithm 15: CoeffFromHalfByte); accepted values eta - (b mod 5) or 4 - b are kept in
/// order. The vector loop reads only 8-byte groups inside `buf`; the rest goes through the
/// portable code.
///
/// The data is secret. The values are computed without branches or table look-ups (b mod 5 by
/// multiply-and-shift); the compaction table is indexed only by the acceptance mask, i.e. by
/// which half-bytes are rejected, which the standard's rejection loop reveals anyway (as in
/// the reference and PQClean code). Accepted values are never used as an index.
#[target_feature(enable = "avx2,bmi2,popcnt")]
pub(super) unsafe fn rej_eta(eta: u32, buf: &[u8], out: &mut [i32]) -> usize {
    let shifts = _mm256_setr_epi32(0, 4, 0, 4, 0, 4, 0, 4);
    let fifteen = _mm256_set1_epi32(15);
    let (bound, eta_v) = if eta == 2 {
        (_mm256_set1_epi32(15), _mm256_set1_epi32(2))
    } else {
        (_mm256_set1_epi32(9), _mm256_set1_epi32(4))
    };
    let m205 = _mm256_set1_epi32(205);
    let mut pos = 0;
    let mut j = 0;
    while pos + 8 <= buf.len() && j < out.len() {
        let b = &buf[pos..pos + 8];
        // SAFETY: `b` holds 8 bytes, the 8 bytes read.
        let x = unsafe { _mm_loadl_epi64(b.as_ptr().cast()) };
        // [b0 b0 b1 b1 .. b7 b7]: lane 2i takes the low half-byte of b_i, lane 2i+1 the high.
        let x = _mm_unpacklo_epi8(x, x);
        for half in [x, _mm_srli_si128::<8>(x)] {
            let v = _mm256_cvtepu8_epi32(half);
            let v = _mm256_and_si256(_mm256_srlv_epi32(v, shifts), fifteen);
            let good = _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpgt_epi32(bound, v)));
            let r = if eta == 2 {
                // b mod 5 = b - 5 floor(205 b / 2^10) for b < 16 (16-bit products suffice).
                let t = _mm256_srli_epi32::<10>(_mm256_mullo_epi16(v, m205));
                _mm256_sub_epi32(v, _mm256_add_epi32(_mm256_slli_epi32::<2>(t), t))
            } else {
                v
            };
            j = emit(out, j, _mm256_sub_epi32(eta_v, r), good as usize);
            if j == out.len() {
                return j;
            }
        }
        pos += 8;
    }
    j + Portable::rej_eta(eta, &buf[pos..], &mut out[j..])
}
