//! The sampler's table scan ([`super::gauss::samples_from_words`]) compiled for the x86-64
//! back ends: the same Rust body, built with AVX2 or AVX-512 enabled so that the compiler
//! vectorizes the four samples of a step into one vector (the same operations lane by lane,
//! hence the same samples; the tests compare every available back end with the reference's
//! scan). Constant-time as the portable code: no secret-dependent index or branch.
#![allow(unsafe_code)]

use pqlab_backend::Backend;

use super::gauss::{BUF_BYTES, SAMPLES, samples_from_words_body};

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

#[target_feature(enable = "avx2")]
fn samples_avx2(buf: &[u8; BUF_BYTES], out: &mut [i32; SAMPLES]) {
    samples_from_words_body(buf, out);
}

#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq")]
fn samples_avx512(buf: &[u8; BUF_BYTES], out: &mut [i32; SAMPLES]) {
    samples_from_words_body(buf, out);
}
