//! The floating-point kernel of the AVX2 back end for signing: the LDL step of the Falcon tree
//! ([`crate::fft::poly_ldlmv_fft`], Falcon spec v1.2, Algorithm 9 ffLDL*, line 2) on four `f64`
//! lanes, with the constant-time correctly rounded reciprocal of [`crate::fpr::Fpr::inv`]
//! (no division instruction, whose latency may depend on the operands).
//!
//! Every lane performs the operations of the scalar kernel in the same order (separate
//! `vmulpd`, `vaddpd` and `vsubpd`, no fused multiply-add, IEEE-754 binary64 lane by lane) and
//! the reciprocal is the scalar one step for step, so the results are the same bits as the
//! portable kernel's; the equivalence test of `backend::tests` compares them. AVX2 has no
//! 64-bit `vpmullq` nor `vcvtqq2pd`: the wrapping 64-bit products are built from three
//! `vpmuludq`, and the one integer-to-`f64` conversion from two exact 32-bit halves and one
//! rounded addition (the rounding of `cvtsi2sd`). Native floating point only: with `fpr-emu`
//! the AVX2 back end keeps the portable kernel.
#![allow(unsafe_code)]

use core::arch::x86_64::*;

use super::avx2_fft::{cmul, load, store};
use crate::fpr::Fpr;

#[target_feature(enable = "avx2")]
#[inline]
fn splat(x: u64) -> __m256i {
    _mm256_set1_epi64x(x as i64)
}

#[target_feature(enable = "avx2")]
#[inline]
fn splat_pd(x: f64) -> __m256d {
    _mm256_set1_pd(x)
}

/// The low 64 bits of a b lane by lane (the wrapping product, signed or unsigned):
/// lo(a) lo(b) + (lo(a) hi(b) + hi(a) lo(b)) 2^32 mod 2^64.
#[target_feature(enable = "avx2")]
#[inline]
fn mullo64(a: __m256i, b: __m256i) -> __m256i {
    let ll = _mm256_mul_epu32(a, b);
    let lh = _mm256_mul_epu32(a, _mm256_srli_epi64::<32>(b));
    let hl = _mm256_mul_epu32(_mm256_srli_epi64::<32>(a), b);
    _mm256_add_epi64(ll, _mm256_slli_epi64::<32>(_mm256_add_epi64(lh, hl)))
}

/// Each lane x, an integer in \[0, 2^63), as the nearest `f64` (ties to even: the `x as f64`
/// of the scalar code). With x = h 2^32 + l: (2^84 + h 2^32) - (2^84 + 2^52) = h 2^32 - 2^52
/// exactly (both terms are `f64` values from their bits, the difference has at most 31
/// significant bits), then + (2^52 + l) rounds once to the nearest of x.
#[target_feature(enable = "avx2")]
#[inline]
fn u63_to_f64(x: __m256i) -> __m256d {
    const HI: u64 = 0x4530_0000_0000_0000; // 2^84
    const LO: u64 = 0x4330_0000_0000_0000; // 2^52
    let h = _mm256_castsi256_pd(_mm256_or_si256(_mm256_srli_epi64::<32>(x), splat(HI)));
    let l = _mm256_castsi256_pd(_mm256_blend_epi32::<0b1010_1010>(x, splat(LO)));
    let bias = splat_pd(f64::from_bits(HI) + f64::from_bits(LO));
    _mm256_add_pd(_mm256_sub_pd(h, bias), l)
}

/// `crate::fpr::backend::recip_bits` (the constant-time correctly rounded 1 / x for a normal x
/// with 2^-1022 <= |x| < 2^1021) on four lanes, step for step: the same quadratic seed and
/// three Newton steps in `f64`, the same exact remainder in 64-bit integers (wrapping
/// products), the same rounded quotient estimate and the same two masked corrections, so every
/// intermediate value is the scalar one (the test below compares the two).
#[target_feature(enable = "avx2")]
#[inline]
fn recip(x: __m256d) -> __m256d {
    const FRAC: u64 = (1 << 52) - 1;
    let b = _mm256_castpd_si256(x);
    let sign = _mm256_and_si256(b, splat(1 << 63));
    let e = _mm256_and_si256(_mm256_srli_epi64::<52>(b), splat(0x7ff));
    let f = _mm256_and_si256(b, splat(FRAC));
    let m = _mm256_or_si256(f, splat(1 << 52));
    let md = _mm256_castsi256_pd(_mm256_or_si256(f, splat(1023 << 52)));
    // y = ((32/99) md - 144/99) md + 210/99, then three steps y (2 - md y).
    let mut y = _mm256_add_pd(
        _mm256_mul_pd(
            _mm256_sub_pd(
                _mm256_mul_pd(splat_pd(32.0 / 99.0), md),
                splat_pd(144.0 / 99.0),
            ),
            md,
        ),
        splat_pd(210.0 / 99.0),
    );
    for _ in 0..3 {
        y = _mm256_mul_pd(y, _mm256_sub_pd(splat_pd(2.0), _mm256_mul_pd(md, y)));
    }
    // r0 = 2^54 y - 64 from the bits of y in (1/2, 1]; rem = (2^106 - 1) - r0 m mod 2^64.
    let yb = _mm256_castpd_si256(y);
    let shift = _mm256_sub_epi64(_mm256_srli_epi64::<52>(yb), splat(1021));
    let ym = _mm256_or_si256(_mm256_and_si256(yb, splat(FRAC)), splat(1 << 52));
    let r0 = _mm256_sub_epi64(_mm256_sllv_epi64(ym, shift), splat(64));
    let rem = _mm256_sub_epi64(splat(u64::MAX), mullo64(r0, m));
    // c = rint(rem y / 2^52) - 2 (rem in [0, 2^60): non-negative).
    const MAGIC: f64 = (1u64 << 52) as f64;
    let t = _mm256_add_pd(
        _mm256_mul_pd(
            _mm256_mul_pd(u63_to_f64(rem), y),
            splat_pd(1.0 / (1u64 << 52) as f64),
        ),
        splat_pd(MAGIC),
    );
    let c = _mm256_sub_epi64(_mm256_castpd_si256(t), splat(MAGIC.to_bits() + 2));
    let mut q = _mm256_add_epi64(r0, c);
    let mut rem = _mm256_sub_epi64(rem, mullo64(c, m));
    for _ in 0..2 {
        // All ones when rem < m (both below 2^62: the signed comparison is exact).
        let lt = _mm256_cmpgt_epi64(m, rem);
        q = _mm256_add_epi64(q, _mm256_andnot_si256(lt, splat(1)));
        rem = _mm256_sub_epi64(rem, _mm256_andnot_si256(lt, m));
    }
    let mant = _mm256_srli_epi64::<1>(_mm256_add_epi64(q, splat(1)));
    let exp = _mm256_slli_epi64::<52>(_mm256_sub_epi64(splat(2044), e));
    _mm256_castsi256_pd(_mm256_or_si256(sign, _mm256_add_epi64(exp, mant)))
}

/// [`crate::fft::poly_ldlmv_fft`] (Falcon spec v1.2, Algorithm 9, line 2):
/// d11 = g11 - |g01|^2 / g00 and l10 = adj(g01 / g00), four complex values at a time (the
/// portable kernel when n / 2 is not a multiple of four).
#[target_feature(enable = "avx2")]
pub(super) fn poly_ldlmv_fft(
    d11: &mut [Fpr],
    l10: &mut [Fpr],
    g00: &[Fpr],
    g01: &[Fpr],
    g11: &[Fpr],
) {
    let hn = g00.len() >> 1;
    if hn == 0 || !hn.is_multiple_of(4) {
        crate::fft::poly_ldlmv_fft(d11, l10, g00, g01, g11);
        return;
    }
    let neg = splat_pd(-0.0);
    for u in (0..hn).step_by(4) {
        let (a_re, a_im) = (load(g01, u), load(g01, u + hn));
        let (b_re, b_im) = (load(g00, u), load(g00, u + hn));
        // cdiv: a * (conj(b) / |b|^2).
        let inv = recip(_mm256_add_pd(
            _mm256_mul_pd(b_re, b_re),
            _mm256_mul_pd(b_im, b_im),
        ));
        let c_re = _mm256_mul_pd(b_re, inv);
        let c_im = _mm256_mul_pd(_mm256_xor_pd(b_im, neg), inv);
        let (mu_re, mu_im) = cmul(a_re, a_im, c_re, c_im);
        // p = mu conj(g01).
        let (p_re, p_im) = cmul(mu_re, mu_im, a_re, _mm256_xor_pd(a_im, neg));
        store(d11, u, _mm256_sub_pd(load(g11, u), p_re));
        store(d11, u + hn, _mm256_sub_pd(load(g11, u + hn), p_im));
        store(l10, u, mu_re);
        store(l10, u + hn, _mm256_xor_pd(mu_im, neg));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The 4-lane reciprocal equals the scalar one ([`Fpr::inv`]) bit for bit: every mantissa
    /// within 64 ulps of 1 and of 2, mantissas whose reciprocal lies next to a rounding
    /// boundary, and 100,000 random ones, with exponents and signs of every kind the signer
    /// meets.
    #[test]
    fn reciprocal_lanes_equal_the_scalar_reciprocal() {
        if !pqlab_backend::Backend::Avx2.is_available() {
            std::eprintln!("no AVX2: the 4-lane reciprocal is not tested");
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
        // m near 2^105 / k for odd 53-bit k: 1 / m close to a midpoint.
        for _ in 0..20_000 {
            let k = (next() >> 11) | (1 << 52) | 1;
            let m = ((1u128 << 105) / u128::from(k)) as u64;
            mantissas.push(m.clamp(1 << 52, (1 << 53) - 1) & FRAC);
        }
        mantissas.extend((0..100_000).map(|_| next() & FRAC));
        let mut checked = 0;
        for chunk in mantissas.chunks(4) {
            let mut x = [Fpr::ONE; 4];
            for (v, &m) in x.iter_mut().zip(chunk) {
                let e = 1 + next() % 2044;
                *v = Fpr::from_bits((next() & (1 << 63)) | (e << 52) | m);
            }
            let mut got = [Fpr::ZERO; 4];
            // SAFETY: AVX2 was detected above.
            unsafe { store(&mut got, 0, recip(load(&x, 0))) };
            for (g, v) in got.iter().zip(&x) {
                assert_eq!(g.to_bits(), v.inv().to_bits(), "1 / {:#x}", v.to_bits());
                checked += 1;
            }
        }
        assert_eq!(checked, 120_128);
    }

    /// The integer-to-`f64` conversion rounds as `as f64` on \[0, 2^63), and the 64-bit
    /// product wraps as `wrapping_mul`.
    #[test]
    fn conversion_and_product_lanes_equal_the_scalar_ones() {
        if !pqlab_backend::Backend::Avx2.is_available() {
            std::eprintln!("no AVX2: the 4-lane conversion is not tested");
            return;
        }
        let mut s = 0x2545_F491_4F6C_DD1Du64;
        let mut next = || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        };
        let mut checked = 0;
        for round in 0..50_000u64 {
            let mut a = [0u64; 4];
            let mut b = [0u64; 4];
            for l in 0..4 {
                // Every magnitude below 2^63, and values just around 2^53 (the first rounding).
                a[l] = match round % 3 {
                    0 => next() >> (1 + next() % 63),
                    1 => (1 << 53) + (next() % 64) - 32,
                    _ => next() >> 1,
                };
                b[l] = next();
            }
            let (mut conv, mut prod) = ([0f64; 4], [0u64; 4]);
            // SAFETY: AVX2 was detected above; the arrays hold the 32 bytes read or written.
            unsafe {
                let va = _mm256_loadu_si256(a.as_ptr().cast());
                let vb = _mm256_loadu_si256(b.as_ptr().cast());
                _mm256_storeu_pd(conv.as_mut_ptr(), u63_to_f64(va));
                _mm256_storeu_si256(prod.as_mut_ptr().cast(), mullo64(va, vb));
            }
            for l in 0..4 {
                assert_eq!(conv[l].to_bits(), (a[l] as f64).to_bits(), "{:#x}", a[l]);
                assert_eq!(prod[l], a[l].wrapping_mul(b[l]), "{:#x} {:#x}", a[l], b[l]);
                checked += 1;
            }
        }
        assert_eq!(checked, 200_000);
    }
}
