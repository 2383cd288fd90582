//! The sampler's table scan ([`super::gauss::samples_from_words`]) for the x86-64 back ends:
//! the portable body's operations, lane by lane, on vectors of samples (four under AVX2,
//! eight under AVX-512), hence the same samples (the tests compare every available back end
//! with the reference's scan). Constant-time as the portable code: no secret-dependent index
//! or branch.
#![allow(unsafe_code)]

use core::arch::x86_64::{
    __m256i, __m512i, _mm_storeu_si128, _mm256_add_epi64, _mm256_and_si256, _mm256_castsi256_si128,
    _mm256_loadu_si256, _mm256_permutevar8x32_epi32, _mm256_set1_epi64x, _mm256_setr_epi32,
    _mm256_srli_epi64, _mm256_storeu_si256, _mm256_sub_epi64, _mm256_unpackhi_epi64,
    _mm256_unpacklo_epi64, _mm256_xor_si256, _mm512_add_epi64, _mm512_and_si512,
    _mm512_cvtepi64_epi32, _mm512_loadu_si512, _mm512_permutex2var_epi64, _mm512_set1_epi64,
    _mm512_setr_epi64, _mm512_srli_epi64, _mm512_sub_epi64, _mm512_xor_si512,
};

use pqlab_backend::Backend;

use super::gauss::{BUF_BYTES, GAUSS_1024_12289, SAMPLES, samples_from_words_body};

/// The low 63 bits of a word.
const LOW63: u64 = !(1u64 << 63);

/// The samples of `buf` on `backend` (AVX2 or AVX-512; any other runs the portable code).
/// `backend` comes from `pqlab_backend::selected()`, which only answers a back end whose CPU
/// features were detected.
pub(super) fn samples_from_words(
    backend: Backend,
    buf: &[u8; BUF_BYTES],
    out: &mut [i32; SAMPLES],
) {
    match backend {
        // SAFETY: AVX-512 (F, BW, VL, DQ) was detected before `selected()` answered it.
        Backend::Avx512 => unsafe { samples_avx512(buf, out) },
        // SAFETY: AVX2 was detected before `selected()` answered it.
        Backend::Avx2 => unsafe { samples_avx2(buf, out) },
        Backend::Portable => samples_from_words_body(buf, out),
    }
}

/// Four samples per step: the first words (a) and second words (b) of samples 0, 2, 1, 3 (the
/// order of the 64-bit unpacks), the magnitude 1 + #{k in 1..=25: b < table\[k]} (b and the
/// entries are below 2^63: the sign of b - table\[k] is the comparison), then zero and sign
/// from a, as the portable body.
#[target_feature(enable = "avx2")]
fn samples_avx2(buf: &[u8; BUF_BYTES], out: &mut [i32; SAMPLES]) {
    let low63 = _mm256_set1_epi64x(LOW63 as i64);
    let one = _mm256_set1_epi64x(1);
    let t0 = _mm256_set1_epi64x(GAUSS_1024_12289[0] as i64);
    // Dwords 0, 4, 2, 6: the low halves of samples 0, 1, 2, 3.
    let pick = _mm256_setr_epi32(0, 4, 2, 6, 0, 4, 2, 6);
    for (o, c) in out.chunks_exact_mut(4).zip(buf.chunks_exact(64)) {
        // SAFETY: `c` is 64 readable bytes; unaligned loads are allowed.
        let (w0, w1): (__m256i, __m256i) = unsafe {
            (
                _mm256_loadu_si256(c.as_ptr().cast()),
                _mm256_loadu_si256(c.as_ptr().add(32).cast()),
            )
        };
        let a = _mm256_unpacklo_epi64(w0, w1);
        let b = _mm256_and_si256(_mm256_unpackhi_epi64(w0, w1), low63);
        let mut mag = one;
        for &t in &GAUSS_1024_12289[1..26] {
            let d = _mm256_sub_epi64(b, _mm256_set1_epi64x(t as i64));
            mag = _mm256_add_epi64(mag, _mm256_srli_epi64::<63>(d));
        }
        let neg = _mm256_srli_epi64::<63>(a);
        let zero = _mm256_srli_epi64::<63>(_mm256_sub_epi64(_mm256_and_si256(a, low63), t0));
        let v = _mm256_and_si256(mag, _mm256_sub_epi64(zero, one));
        let m = _mm256_sub_epi64(_mm256_set1_epi64x(0), neg);
        let v = _mm256_add_epi64(_mm256_xor_si256(v, m), neg);
        let v = _mm256_permutevar8x32_epi32(v, pick);
        // SAFETY: `o` is four writable i32 (16 bytes); unaligned stores are allowed.
        unsafe { _mm_storeu_si128(o.as_mut_ptr().cast(), _mm256_castsi256_si128(v)) };
    }
}

/// Eight samples per step, in order (two-source permutations split a and b), as
/// [`samples_avx2`].
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq")]
fn samples_avx512(buf: &[u8; BUF_BYTES], out: &mut [i32; SAMPLES]) {
    let low63 = _mm512_set1_epi64(LOW63 as i64);
    let one = _mm512_set1_epi64(1);
    let zero_v = _mm512_set1_epi64(0);
    let t0 = _mm512_set1_epi64(GAUSS_1024_12289[0] as i64);
    let even = _mm512_setr_epi64(0, 2, 4, 6, 8, 10, 12, 14);
    let odd = _mm512_setr_epi64(1, 3, 5, 7, 9, 11, 13, 15);
    for (o, c) in out.chunks_exact_mut(8).zip(buf.chunks_exact(128)) {
        // SAFETY: `c` is 128 readable bytes; unaligned loads are allowed.
        let (w0, w1): (__m512i, __m512i) = unsafe {
            (
                _mm512_loadu_si512(c.as_ptr().cast()),
                _mm512_loadu_si512(c.as_ptr().add(64).cast()),
            )
        };
        let a = _mm512_permutex2var_epi64(w0, even, w1);
        let b = _mm512_and_si512(_mm512_permutex2var_epi64(w0, odd, w1), low63);
        let mut mag = one;
        for &t in &GAUSS_1024_12289[1..26] {
            let d = _mm512_sub_epi64(b, _mm512_set1_epi64(t as i64));
            mag = _mm512_add_epi64(mag, _mm512_srli_epi64::<63>(d));
        }
        let neg = _mm512_srli_epi64::<63>(a);
        let zero = _mm512_srli_epi64::<63>(_mm512_sub_epi64(_mm512_and_si512(a, low63), t0));
        let v = _mm512_and_si512(mag, _mm512_sub_epi64(zero, one));
        let m = _mm512_sub_epi64(zero_v, neg);
        let v = _mm512_add_epi64(_mm512_xor_si512(v, m), neg);
        // SAFETY: `o` is eight writable i32 (32 bytes); unaligned stores are allowed.
        unsafe { _mm256_storeu_si256(o.as_mut_ptr().cast(), _mm512_cvtepi64_epi32(v)) };
    }
}
