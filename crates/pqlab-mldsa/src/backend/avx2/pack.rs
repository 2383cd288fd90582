//! Bit packing on AVX2 (FIPS 204, Section 7.1: Algorithms 16 to 19), eight coefficients (one
//! vector, `BITS` bytes) at a time, for the widths of the standard (3, 4, 6, 10, 13, 18, 20).
//!
//! Coefficient i of a group of eight occupies bits \[i BITS, (i + 1) BITS) of its `BITS` bytes,
//! little-endian, as BitsToBytes (Algorithm 12) lays them out. Unpacking gathers, per 32-bit
//! lane, the four bytes that hold its coefficient (`pshufb` within each 128-bit half: the low
//! half reads from the group's first byte, the high half from byte 4 BITS / 8), then shifts and
//! masks. Packing merges pairs of lanes into 64-bit lanes, then pairs of those, so that each
//! 128-bit half holds the 4 BITS bits of its four coefficients from its first byte on.

use core::arch::x86_64::*;

use super::super::Coeffs;
use super::ntt::load;

/// The `pshufb` control and the per-lane right shifts that unpack a group of eight `bits`-bit
/// values loaded as \[bytes 0..16 | bytes 4 bits / 8 .. + 16\].
const fn unpack_plan(bits: usize) -> ([i8; 32], [i32; 8]) {
    let mut control = [0i8; 32];
    let mut shifts = [0i32; 8];
    let mut i = 0;
    while i < 8 {
        let half = i / 4;
        let rel = i * bits - half * 8 * (4 * bits / 8);
        let mut t = 0;
        while t < 4 {
            let byte = rel / 8 + t;
            assert!(byte < 16);
            control[16 * half + 4 * (i % 4) + t] = byte as i8;
            t += 1;
        }
        shifts[i] = (rel % 8) as i32;
        assert!(rel % 8 + bits <= 32);
        i += 1;
    }
    (control, shifts)
}

/// Loads bytes \[at, at + 16) and \[at + hi, at + hi + 16) of `v` as the two halves of a vector;
/// where that would read past `v`, the group's `bits` bytes are copied into a zero-padded
/// buffer first (only the group's own bytes reach the output).
#[target_feature(enable = "avx2")]
#[inline]
fn load_group(v: &[u8], at: usize, hi: usize, bits: usize) -> __m256i {
    if at + hi + 16 <= v.len() {
        let b = &v[at..at + hi + 16];
        // SAFETY: `b` holds hi + 16 bytes; the loads read bytes 0..16 and hi..hi + 16.
        unsafe { _mm256_loadu2_m128i(b.as_ptr().add(hi).cast(), b.as_ptr().cast()) }
    } else {
        let mut tmp = [0u8; 48];
        tmp[..bits].copy_from_slice(&v[at..at + bits]);
        // SAFETY: hi < 16, so both 16-byte loads lie inside the 48 bytes of `tmp`.
        unsafe { _mm256_loadu2_m128i(tmp.as_ptr().add(hi).cast(), tmp.as_ptr().cast()) }
    }
}

/// FIPS 204, Algorithm 18 (SimpleBitUnpack) for `NEG` false, Algorithm 19 (BitUnpack,
/// w_i = b - x_i) for `NEG` true, on `BITS`-bit values; `v` holds at least 32 BITS bytes (the
/// caller checks), only those are read.
#[target_feature(enable = "avx2,bmi2,popcnt")]
pub(super) unsafe fn unpack<const BITS: usize, const NEG: bool>(v: &[u8], b: i32, w: &mut Coeffs) {
    let (control, shifts) = const { unpack_plan(BITS) };
    // SAFETY: `control` holds 32 bytes and `shifts` 8 `i32`, the 32 bytes read from each.
    let (control, shifts) = unsafe {
        (
            _mm256_loadu_si256(control.as_ptr().cast()),
            _mm256_loadu_si256(shifts.as_ptr().cast()),
        )
    };
    let mask = _mm256_set1_epi32((1 << BITS) - 1);
    let bv = _mm256_set1_epi32(b);
    let hi = 4 * BITS / 8;
    for (c, out) in w.chunks_exact_mut(8).enumerate() {
        let x = load_group(v, c * BITS, hi, BITS);
        let x = _mm256_shuffle_epi8(x, control);
        let x = _mm256_and_si256(_mm256_srlv_epi32(x, shifts), mask);
        let x = if NEG { _mm256_sub_epi32(bv, x) } else { x };
        super::ntt::store(out, 0, x);
    }
}

/// Eight `BITS`-bit values (lanes of `x`) merged so that each 128-bit half holds the 4 BITS
/// bits of its four values from bit 0 on (the bits above are not cleared where BITS <= 16).
#[target_feature(enable = "avx2")]
#[inline]
fn merge<const BITS: usize>(x: __m256i) -> __m256i {
    let b = BITS as i32;
    // Lane pairs: x0 2^(32 - B) + x1 2^32 shifted right by 32 - B is x0 + x1 2^B.
    let pre = _mm256_setr_epi32(32 - b, 0, 32 - b, 0, 32 - b, 0, 32 - b, 0);
    let p = _mm256_srlv_epi64(
        _mm256_sllv_epi32(x, pre),
        _mm256_set1_epi64x(i64::from(32 - b)),
    );
    // 64-bit pairs: p0 + p1 2^(2B), across the 64-bit boundary when 4B > 64.
    let up = _mm256_setr_epi64x(0, i64::from(2 * b), 0, i64::from(2 * b));
    let t = _mm256_sllv_epi64(p, up);
    let lo = _mm256_or_si256(t, _mm256_bsrli_epi128::<8>(t));
    if 4 * BITS <= 64 {
        lo
    } else {
        let down = _mm256_setr_epi64x(64, i64::from(64 - 2 * b), 64, i64::from(64 - 2 * b));
        _mm256_blend_epi32::<0xCC>(lo, _mm256_srlv_epi64(p, down))
    }
}

/// Stores the low half of `m` at byte 0 of `o`, then the high half at byte `half` (in this
/// order: the second store overwrites the bytes of the first past `half`).
#[target_feature(enable = "avx2")]
#[inline]
fn store_halves(o: &mut [u8], half: usize, m: __m256i) {
    let o = &mut o[..half + 16];
    // SAFETY: `o` holds half + 16 bytes; the stores write bytes 0..16 and half..half + 16.
    unsafe {
        _mm_storeu_si128(o.as_mut_ptr().cast(), _mm256_castsi256_si128(m));
        _mm_storeu_si128(
            o.as_mut_ptr().add(half).cast(),
            _mm256_extracti128_si256::<1>(m),
        );
    }
}

/// FIPS 204, Algorithm 16 (SimpleBitPack) for `NEG` false, Algorithm 17 (BitPack, b - w_i) for
/// `NEG` true, on `BITS`-bit values; writes exactly the first 32 BITS bytes of `out` (the caller
/// checks its length).
///
/// For even BITS each half holds whole bytes: the two halves are stored with 16-byte stores at
/// the group's bytes 0 and BITS / 2, the bytes past the group being overwritten by the next
/// group; the last groups, where 16 bytes would pass the end, go through a local buffer. For
/// odd BITS (3, 13: 8 BITS <= 104) the two halves are joined in a `u128`.
#[target_feature(enable = "avx2,bmi2,popcnt")]
pub(super) unsafe fn pack<const BITS: usize, const NEG: bool>(a: &Coeffs, b: i32, out: &mut [u8]) {
    let bv = _mm256_set1_epi32(b);
    let half = 4 * BITS / 8;
    for c in 0..32 {
        let x = load(a, c);
        let x = if NEG { _mm256_sub_epi32(bv, x) } else { x };
        let m = merge::<BITS>(x);
        let at = c * BITS;
        if BITS % 2 == 1 {
            let mut lanes = [0u64; 4];
            // SAFETY: `lanes` holds 32 bytes, the 32 bytes written.
            unsafe { _mm256_storeu_si256(lanes.as_mut_ptr().cast(), m) };
            let low = (1u64 << (4 * BITS)) - 1;
            let all = u128::from(lanes[0] & low) | (u128::from(lanes[2] & low) << (4 * BITS));
            out[at..at + BITS].copy_from_slice(&all.to_le_bytes()[..BITS]);
        } else if at + half + 16 <= out.len() {
            store_halves(&mut out[at..at + half + 16], half, m);
        } else {
            let mut tmp = [0u8; 48];
            store_halves(&mut tmp[..half + 16], half, m);
            out[at..at + BITS].copy_from_slice(&tmp[..BITS]);
        }
    }
}
