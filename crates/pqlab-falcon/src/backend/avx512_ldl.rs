//! The floating-point kernel of the AVX-512 back end for signing: the LDL step of the Falcon
//! tree ([`crate::fft::poly_ldlmv_fft`], Falcon spec v1.2, Algorithm 9 ffLDL*, line 2) on eight
//! `f64` lanes, with the constant-time correctly rounded reciprocal of
//! [`crate::fpr::Fpr::inv`] (the integer steps need AVX-512 DQ's 64-bit `vpmullq` and
//! `vcvtqq2pd`).
//!
//! Every lane performs the operations of the scalar kernel in the same order (separate
//! multiplications and additions, no fused multiply-add, IEEE-754 binary64 lane by lane) and the
//! reciprocal is exact, so the results are the same bits as the portable kernel's; the
//! equivalence test of `backend::tests` compares them. With `fpr-emu`, the arithmetic and the
//! reciprocal are those of the emulated lanes of `avx512_fpr.rs` (the same bits as the scalar
//! emulation; no floating-point instruction).
#![allow(unsafe_code)]

use core::arch::x86_64::*;

use super::avx512_fft::{load, store};
#[cfg(feature = "fpr-emu")]
use super::avx512_fpr::recip;
use super::avx512_fpr::{add, mul, sub};
use crate::fpr::Fpr;

#[cfg(not(feature = "fpr-emu"))]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,avx512cd")]
#[inline]
pub(super) fn splat(x: u64) -> __m512i {
    _mm512_set1_epi64(x as i64)
}

#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,avx512cd")]
#[inline]
fn splat_pd(x: f64) -> __m512d {
    _mm512_set1_pd(x)
}

/// `crate::fpr::backend::recip_bits` (the constant-time correctly rounded 1 / x for a normal x
/// with 2^-1022 <= |x| < 2^1021) on eight lanes: its estimate of 1/md from another seed (see
/// below), then the same exact remainder in 64-bit integers and the same two masked
/// corrections, which make the result the correctly rounded quotient whatever the estimate
/// within 2^-49 (the test below compares the two on the mantissas at the ends of [1, 2) and
/// random ones).
#[cfg(not(feature = "fpr-emu"))]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,avx512cd")]
#[inline]
fn recip(x: __m512d) -> __m512d {
    const FRAC: u64 = (1 << 52) - 1;
    let b = _mm512_castpd_si512(x);
    let sign = _mm512_and_si512(b, splat(1 << 63));
    let e = _mm512_and_si512(_mm512_srli_epi64::<52>(b), splat(0x7ff));
    let f = _mm512_and_si512(b, splat(FRAC));
    let m = _mm512_or_si512(f, splat(1 << 52));
    let md = _mm512_castsi512_pd(_mm512_or_si512(f, splat(1023 << 52)));
    // The seed: `vrcp14pd` (relative error below 2^-14, a table lookup of fixed latency), then
    // two Newton steps (error below 2^-50, the few ulps of f64 rounding included) where the
    // scalar code takes its quadratic seed and three: any y within 2^-49 of 1/md gives the
    // same correctly rounded quotient after the exact correction below.
    let mut y = _mm512_rcp14_pd(md);
    for _ in 0..2 {
        y = _mm512_mul_pd(y, _mm512_sub_pd(splat_pd(2.0), _mm512_mul_pd(md, y)));
    }
    let yb = _mm512_castpd_si512(y);
    let shift = _mm512_sub_epi64(_mm512_srli_epi64::<52>(yb), splat(1021));
    let ym = _mm512_or_si512(_mm512_and_si512(yb, splat(FRAC)), splat(1 << 52));
    let r0 = _mm512_sub_epi64(_mm512_sllv_epi64(ym, shift), splat(64));
    let rem = _mm512_sub_epi64(splat(u64::MAX), _mm512_mullo_epi64(r0, m));
    const MAGIC: f64 = (1u64 << 52) as f64;
    let t = _mm512_add_pd(
        _mm512_mul_pd(
            _mm512_mul_pd(_mm512_cvtepi64_pd(rem), y),
            splat_pd(1.0 / (1u64 << 52) as f64),
        ),
        splat_pd(MAGIC),
    );
    let c = _mm512_sub_epi64(_mm512_castpd_si512(t), splat(MAGIC.to_bits() + 2));
    let mut q = _mm512_add_epi64(r0, c);
    let mut rem = _mm512_sub_epi64(rem, _mm512_mullo_epi64(c, m));
    for _ in 0..2 {
        // All ones when rem >= m.
        let lt = _mm512_srai_epi64::<63>(_mm512_sub_epi64(rem, m));
        q = _mm512_add_epi64(q, _mm512_andnot_si512(lt, splat(1)));
        rem = _mm512_sub_epi64(rem, _mm512_andnot_si512(lt, m));
    }
    let mant = _mm512_srli_epi64::<1>(_mm512_add_epi64(q, splat(1)));
    let exp = _mm512_slli_epi64::<52>(_mm512_sub_epi64(splat(2044), e));
    _mm512_castsi512_pd(_mm512_or_si512(sign, _mm512_add_epi64(exp, mant)))
}

/// [`crate::fft::poly_ldlmv_fft`]: d11 = g11 - |g01|^2 / g00 and l10 = adj(g01 / g00), eight
/// complex values at a time (the portable kernel when n / 2 is not a multiple of eight).
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,avx512cd")]
pub(super) fn poly_ldlmv_fft(
    d11: &mut [Fpr],
    l10: &mut [Fpr],
    g00: &[Fpr],
    g01: &[Fpr],
    g11: &[Fpr],
) {
    let hn = g00.len() >> 1;
    if !hn.is_multiple_of(8) {
        crate::fft::poly_ldlmv_fft(d11, l10, g00, g01, g11);
        return;
    }
    let neg = splat_pd(-0.0);
    for u in (0..hn).step_by(8) {
        let (a_re, a_im) = (load(g01, u), load(g01, u + hn));
        let (b_re, b_im) = (load(g00, u), load(g00, u + hn));
        // cdiv: a * (conj(b) / |b|^2).
        let inv = recip(add(mul(b_re, b_re), mul(b_im, b_im)));
        let c_re = mul(b_re, inv);
        let c_im = mul(_mm512_xor_pd(b_im, neg), inv);
        let mu_re = sub(mul(a_re, c_re), mul(a_im, c_im));
        let mu_im = add(mul(a_re, c_im), mul(a_im, c_re));
        // p = mu conj(g01).
        let na_im = _mm512_xor_pd(a_im, neg);
        let p_re = sub(mul(mu_re, a_re), mul(mu_im, na_im));
        let p_im = add(mul(mu_re, na_im), mul(mu_im, a_re));
        store(d11, u, sub(load(g11, u), p_re));
        store(d11, u + hn, sub(load(g11, u + hn), p_im));
        store(l10, u, mu_re);
        store(l10, u + hn, _mm512_xor_pd(mu_im, neg));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The 8-lane reciprocal equals the scalar one ([`Fpr::inv`]) bit for bit: every mantissa
    /// within 64 ulps of 1 and of 2 (where a seed's error is largest relative to the
    /// correction's margin) and 100,000 random ones, with exponents and signs of every kind
    /// the signer meets.
    #[test]
    fn reciprocal_lanes_equal_the_scalar_reciprocal() {
        if !pqlab_backend::Backend::Avx512.is_available() {
            std::eprintln!("no AVX-512: the 8-lane reciprocal is not tested");
            return;
        }
        let mut s = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        };
        const FRAC: u64 = (1 << 52) - 1;
        let mut mantissas: std::vec::Vec<u64> = (0..64).chain((0..64).map(|k| FRAC - k)).collect();
        mantissas.extend((0..100_000).map(|_| next() & FRAC));
        let mut checked = 0;
        for chunk in mantissas.chunks(8) {
            let mut x = [Fpr::ONE; 8];
            for (v, &m) in x.iter_mut().zip(chunk) {
                let e = 1023 - 600 + next() % 1200;
                *v = Fpr::from_bits((next() & (1 << 63)) | (e << 52) | m);
            }
            let mut got = [Fpr::ZERO; 8];
            // SAFETY: the AVX-512 back end (F, BW, VL, DQ and CD) was detected above.
            unsafe { store(&mut got, 0, recip(load(&x, 0))) };
            for (g, v) in got.iter().zip(&x) {
                assert_eq!(g.to_bits(), v.inv().to_bits(), "1 / {:#x}", v.to_bits());
                checked += 1;
            }
        }
        assert_eq!(checked, 100_128);
    }
}
