//! The arithmetic of eight [`Fpr`](crate::fpr::Fpr) lanes for the AVX-512 FFT kernels
//! (`avx512_fft.rs`, `avx512_tree.rs`): a + b, a - b and a b on eight binary64 values held as
//! their bits in one vector, with the floating-point back end of the build, so that the kernels
//! are written once for both:
//!
//! - native (the default): the `vaddpd` / `vsubpd` / `vmulpd` instructions;
//! - `fpr-emu`: the integer-only emulation of `fpr_emu.rs`, lane by lane the same sequence of
//!   integer operations as its scalar `add` and `mul` (top-aligned rounding, sticky bits from
//!   the trailing zeros, the limb product of `mant_mul_limbs`), so that every lane gives the
//!   bits of the scalar operation: masks instead of branches, `vplzcntq` (AVX-512CD) for the
//!   leading and trailing zeros, variable shifts; no floating-point instruction, no
//!   data-dependent branch or memory index.
//!
//! The equivalence with the scalar operations is tested below on random and edge operands.
#![allow(unsafe_code)]

#[cfg(not(feature = "fpr-emu"))]
mod lanes {
    use core::arch::x86_64::*;

    /// a + b lane by lane.
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,avx512cd")]
    #[inline]
    pub(crate) fn add(a: __m512d, b: __m512d) -> __m512d {
        _mm512_add_pd(a, b)
    }

    /// a - b lane by lane.
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,avx512cd")]
    #[inline]
    pub(crate) fn sub(a: __m512d, b: __m512d) -> __m512d {
        _mm512_sub_pd(a, b)
    }

    /// a b lane by lane.
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,avx512cd")]
    #[inline]
    pub(crate) fn mul(a: __m512d, b: __m512d) -> __m512d {
        _mm512_mul_pd(a, b)
    }
}

#[cfg(feature = "fpr-emu")]
mod lanes {
    use core::arch::x86_64::*;

    const MANT: i64 = 0x000F_FFFF_FFFF_FFFF;
    const IMPLICIT: i64 = 1 << 52;
    const SIGN: i64 = i64::MIN;
    const LOW32: i64 = 0xFFFF_FFFF;

    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,avx512cd")]
    #[inline]
    fn k(x: i64) -> __m512i {
        _mm512_set1_epi64(x)
    }

    /// The biased exponent fields.
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,avx512cd")]
    #[inline]
    fn exp_of(x: __m512i) -> __m512i {
        _mm512_and_si512(_mm512_srli_epi64::<52>(x), k(0x7FF))
    }

    /// `fpr_emu::pack_top` on eight lanes: (-1)^s z 2^(be - 1085) rounded to nearest even for
    /// z in \[2^62, 2^63), flushed to the signed zero `s` where be <= 0 or `bad` is set.
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,avx512cd")]
    #[inline]
    fn pack_top(s: __m512i, be: __m512i, bad: __mmask8, z: __m512i) -> __m512i {
        let last = _mm512_and_si512(_mm512_srli_epi64::<10>(z), k(1));
        let m = _mm512_srli_epi64::<10>(_mm512_add_epi64(z, _mm512_add_epi64(last, k(0x1FF))));
        let e = _mm512_sub_epi64(be, k(1));
        let ok = !(_mm512_cmplt_epi64_mask(e, _mm512_setzero_si512()) | bad);
        let v = _mm512_add_epi64(_mm512_slli_epi64::<52>(e), m);
        _mm512_or_si512(s, _mm512_maskz_mov_epi64(ok, v))
    }

    /// The number of leading zeros of each lane (64 for zero).
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,avx512cd")]
    #[inline]
    fn lzcnt(x: __m512i) -> __m512i {
        _mm512_lzcnt_epi64(x)
    }

    /// `Fpr::add` of `fpr_emu.rs` on eight lanes (see there for the reasoning of each step).
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,avx512cd")]
    #[inline]
    pub(crate) fn add_bits(x: __m512i, y: __m512i) -> __m512i {
        let zero = _mm512_setzero_si512();
        // |x| >= |y| (x the positive one on equal magnitudes).
        let abs = k(!SIGN);
        let (xa, ya) = (_mm512_and_si512(x, abs), _mm512_and_si512(y, abs));
        let swap = _mm512_cmplt_epu64_mask(xa, _mm512_add_epi64(ya, _mm512_srli_epi64::<63>(x)));
        let (x, y) = (
            _mm512_mask_blend_epi64(swap, x, y),
            _mm512_mask_blend_epi64(swap, y, x),
        );
        let (ex, ey) = (exp_of(x), exp_of(y));
        let mx = _mm512_slli_epi64::<3>(_mm512_or_si512(_mm512_and_si512(x, k(MANT)), k(IMPLICIT)));
        let ym = _mm512_and_si512(y, k(MANT));
        let y_nonzero = _mm512_cmpneq_epi64_mask(ey, zero);
        let fy = _mm512_or_si512(ym, _mm512_maskz_mov_epi64(y_nonzero, k(IMPLICIT)));
        // Alignment by d = min(ex - ey, 63) with the sticky bit: tz + 3 < d, tz the trailing
        // zeros of y's mantissa with the implicit bit (63 - lzcnt of its lowest set bit).
        let d = _mm512_min_epu64(_mm512_sub_epi64(ex, ey), k(63));
        let v = _mm512_or_si512(ym, k(IMPLICIT));
        let lowest = _mm512_and_si512(v, _mm512_sub_epi64(zero, v));
        let tz = _mm512_sub_epi64(k(66), lzcnt(lowest));
        let sticky = _mm512_maskz_mov_epi64(_mm512_cmplt_epu64_mask(tz, d), k(1));
        let my = _mm512_or_si512(_mm512_srlv_epi64(_mm512_slli_epi64::<3>(fy), d), sticky);
        // Add, or subtract when the signs differ.
        let neg = _mm512_sub_epi64(zero, _mm512_srli_epi64::<63>(_mm512_xor_si512(x, y)));
        let z = _mm512_sub_epi64(_mm512_add_epi64(mx, _mm512_xor_si512(my, neg)), neg);
        // Normalization to [2^62, 2^63); an exact zero sum (n = 64) flushed to x's sign.
        let n = lzcnt(z);
        let z = _mm512_sllv_epi64(z, _mm512_and_si512(_mm512_sub_epi64(n, k(1)), k(63)));
        let be = _mm512_sub_epi64(_mm512_add_epi64(ex, k(8)), n);
        let bad = _mm512_cmpeq_epi64_mask(n, k(64));
        pack_top(_mm512_and_si512(x, k(SIGN)), be, bad, z)
    }

    /// `Fpr::mul` of `fpr_emu.rs` on eight lanes, the mantissa product as `mant_mul_limbs`
    /// (four 32 x 32 -> 64 products, `vpmuludq`).
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,avx512cd")]
    #[inline]
    pub(crate) fn mul_bits(x: __m512i, y: __m512i) -> __m512i {
        let zero = _mm512_setzero_si512();
        let (ex, ey) = (exp_of(x), exp_of(y));
        let mx = _mm512_or_si512(_mm512_and_si512(x, k(MANT)), k(IMPLICIT));
        let my = _mm512_or_si512(_mm512_and_si512(y, k(MANT)), k(IMPLICIT));
        let (xh, yh) = (_mm512_srli_epi64::<32>(mx), _mm512_srli_epi64::<32>(my));
        let p0 = _mm512_mul_epu32(mx, my);
        let p1 = _mm512_add_epi64(
            _mm512_add_epi64(_mm512_mul_epu32(mx, yh), _mm512_mul_epu32(xh, my)),
            _mm512_srli_epi64::<32>(p0),
        );
        let p2 = _mm512_add_epi64(_mm512_mul_epu32(xh, yh), _mm512_srli_epi64::<32>(p1));
        let w1 = _mm512_and_si512(p1, k(LOW32));
        let lost = _mm512_or_si512(
            _mm512_and_si512(_mm512_slli_epi64::<21>(w1), k(LOW32)),
            _mm512_and_si512(p0, k(LOW32)),
        );
        let sticky = _mm512_maskz_mov_epi64(_mm512_cmpneq_epi64_mask(lost, zero), k(1));
        let z = _mm512_or_si512(
            _mm512_or_si512(_mm512_slli_epi64::<21>(p2), _mm512_srli_epi64::<11>(w1)),
            sticky,
        );
        // In [2^61, 2^63): doubled when below 2^62.
        let c = _mm512_srli_epi64::<62>(z);
        let low = _mm512_cmpeq_epi64_mask(c, zero);
        let z = _mm512_add_epi64(z, _mm512_maskz_mov_epi64(low, z));
        let be = _mm512_add_epi64(_mm512_sub_epi64(_mm512_add_epi64(ex, ey), k(1023)), c);
        let bad = _mm512_cmpeq_epi64_mask(ex, zero) | _mm512_cmpeq_epi64_mask(ey, zero);
        pack_top(
            _mm512_and_si512(_mm512_xor_si512(x, y), k(SIGN)),
            be,
            bad,
            z,
        )
    }

    /// `fpr_emu_inv::approx_quotient` on eight lanes: floor((2^106 - 1) / m) within one unit
    /// for mantissas m in \[2^52, 2^53) (the same integer steps: the quadratic seed, three
    /// Newton steps on 32-bit words, the last one with all of m). Every intermediate value of
    /// the scalar code that is an `i32` or `u32` fits in the low half of its lane here (the
    /// bounds are in `fpr_emu_inv.rs`), so the 32 x 32 products `vpmuludq` / `vpmuldq` and the
    /// 64-bit shifts give the same numbers.
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,avx512cd")]
    #[inline]
    fn approx_quotient(m: __m512i) -> __m512i {
        let d = _mm512_srli_epi64::<21>(m);
        let d14 = _mm512_srli_epi64::<17>(d);
        let cd = _mm512_srli_epi64::<14>(_mm512_mul_epu32(k(21180), d14));
        let u = _mm512_sub_epi64(k(95309), cd);
        let v = _mm512_srli_epi64::<14>(_mm512_mul_epu32(d14, u));
        let mut y = _mm512_slli_epi64::<14>(_mm512_sub_epi64(k(139_001), v));
        for _ in 0..3 {
            let p = _mm512_mul_epu32(d, y);
            let err = _mm512_sub_epi64(k(1 << 61), p);
            let eh = _mm512_srai_epi64::<30>(err);
            y = _mm512_add_epi64(y, _mm512_srai_epi64::<31>(_mm512_mul_epi32(y, eh)));
        }
        let r = _mm512_sub_epi64(_mm512_setzero_si512(), _mm512_mullo_epi64(m, y));
        let rh = _mm512_srai_epi64::<27>(r);
        let corr = _mm512_srai_epi64::<31>(_mm512_mul_epi32(y, rh));
        _mm512_add_epi64(_mm512_slli_epi64::<24>(y), corr)
    }

    /// `fpr_emu_inv::recip_bits` (the correctly rounded 1 / x of the emulation, `Fpr::inv`) on
    /// eight lanes of normal non-zero values: the quotient estimate, the exact remainder
    /// (wrapping 64-bit products) and the same two masked corrections.
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,avx512cd")]
    #[inline]
    pub(crate) fn recip(x: __m512d) -> __m512d {
        let b = _mm512_castpd_si512(x);
        let e = exp_of(b);
        let m = _mm512_or_si512(_mm512_and_si512(b, k(MANT)), k(IMPLICIT));
        let mut q = approx_quotient(m);
        let mut rem = _mm512_sub_epi64(k(-1), _mm512_mullo_epi64(q, m));
        // rem < 0: one less.
        let neg = _mm512_srai_epi64::<63>(rem);
        q = _mm512_add_epi64(q, neg);
        rem = _mm512_add_epi64(rem, _mm512_and_si512(m, neg));
        // rem >= m: one more.
        let lt = _mm512_srai_epi64::<63>(_mm512_sub_epi64(rem, m));
        q = _mm512_add_epi64(q, _mm512_andnot_si512(lt, k(1)));
        let mant = _mm512_srli_epi64::<1>(_mm512_add_epi64(q, k(1)));
        let r = _mm512_add_epi64(_mm512_slli_epi64::<52>(_mm512_sub_epi64(k(2044), e)), mant);
        let ok = _mm512_srai_epi64::<63>(_mm512_sub_epi64(r, k(IMPLICIT)));
        let out = _mm512_or_si512(_mm512_and_si512(b, k(SIGN)), _mm512_andnot_si512(ok, r));
        _mm512_castsi512_pd(out)
    }

    /// a + b lane by lane (the bits of the scalar emulated `Fpr::add`).
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,avx512cd")]
    #[inline]
    pub(crate) fn add(a: __m512d, b: __m512d) -> __m512d {
        _mm512_castsi512_pd(add_bits(_mm512_castpd_si512(a), _mm512_castpd_si512(b)))
    }

    /// a - b lane by lane: a + (-b), as the scalar `Fpr::sub`.
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,avx512cd")]
    #[inline]
    pub(crate) fn sub(a: __m512d, b: __m512d) -> __m512d {
        let nb = _mm512_xor_si512(_mm512_castpd_si512(b), k(SIGN));
        _mm512_castsi512_pd(add_bits(_mm512_castpd_si512(a), nb))
    }

    /// a b lane by lane (the bits of the scalar emulated `Fpr::mul`).
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,avx512cd")]
    #[inline]
    pub(crate) fn mul(a: __m512d, b: __m512d) -> __m512d {
        _mm512_castsi512_pd(mul_bits(_mm512_castpd_si512(a), _mm512_castpd_si512(b)))
    }
}

#[cfg(feature = "fpr-emu")]
pub(super) use lanes::recip;
pub(super) use lanes::{add, mul, sub};

#[cfg(test)]
mod tests {
    use core::arch::x86_64::*;

    use super::*;
    use crate::fpr::Fpr;

    /// Operation `op` (0: add, 1: sub, 2: mul) of this module on the eight lanes of `a`, `b`.
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,avx512cd")]
    fn on_lanes(a: &[u64; 8], b: &[u64; 8], op: usize) -> [u64; 8] {
        // SAFETY: `a` and `b` are 64 readable bytes each; the loads need no alignment.
        let (va, vb) = unsafe {
            (
                _mm512_loadu_pd(a.as_ptr().cast()),
                _mm512_loadu_pd(b.as_ptr().cast()),
            )
        };
        let r = match op {
            0 => add(va, vb),
            1 => sub(va, vb),
            _ => mul(va, vb),
        };
        let mut out = [0u64; 8];
        // SAFETY: `out` is 64 writable bytes; the store needs no alignment.
        unsafe { _mm512_storeu_pd(out.as_mut_ptr().cast(), r) };
        out
    }

    /// Operands: normal values over the whole exponent range and around 1, near-cancelling
    /// pairs, every exponent difference from 0 to 69 (a zero exponent field below), signed
    /// zeros, and products that leave the normal range.
    fn operands(rng: &mut u64, i: usize) -> (u64, u64) {
        let mut next = || {
            *rng ^= *rng << 13;
            *rng ^= *rng >> 7;
            *rng ^= *rng << 17;
            *rng
        };
        let (r1, r2) = (next(), next());
        let normal = |r: u64, lo: u64, hi: u64| {
            let e = lo + (r >> 52) % (hi - lo + 1);
            (r & 0x800F_FFFF_FFFF_FFFF) | (e << 52)
        };
        match i % 6 {
            0 => (normal(r1, 1, 2046), normal(r2, 1, 2046)),
            1 => (normal(r1, 900, 1100), normal(r2, 900, 1100)),
            2 => {
                let x = normal(r1, 1, 2046);
                (x, (x ^ (r2 & 0xFF)) ^ (1 << 63))
            }
            3 => {
                let x = normal(r1, 1000, 1100);
                let d = (i / 6) as u64 % 70;
                let ey = ((x >> 52) & 0x7FF).saturating_sub(d);
                (x, (r2 & 0x800F_FFFF_FFFF_FFFF) | (ey << 52))
            }
            4 => (r1 & (1 << 63), normal(r2, 1, 2046)),
            _ => (normal(r1, 1, 30), normal(r2, 1, 30)),
        }
    }

    #[test]
    fn lanes_give_the_bits_of_the_scalar_operations() {
        if !pqlab_backend::Backend::Avx512.is_available() {
            std::eprintln!("skipped: no AVX-512 on this machine");
            return;
        }
        let mut rng = 0x9E37_79B9_7F4A_7C15u64;
        let mut checked = 0;
        for round in 0..20_000 {
            let (mut a, mut b) = ([0u64; 8], [0u64; 8]);
            for l in 0..8 {
                (a[l], b[l]) = operands(&mut rng, round * 8 + l);
            }
            for op in 0..3 {
                // SAFETY: the AVX-512 back end (AVX-512F/BW/VL/DQ/CD) was detected above.
                let got = unsafe { on_lanes(&a, &b, op) };
                for l in 0..8 {
                    let (x, y) = (Fpr::from_bits(a[l]), Fpr::from_bits(b[l]));
                    let want = match op {
                        0 => x.add(y),
                        1 => x.sub(y),
                        _ => x.mul(y),
                    };
                    assert_eq!(got[l], want.to_bits(), "op {op}: {:#x}, {:#x}", a[l], b[l]);
                    checked += 1;
                }
            }
        }
        assert_eq!(checked, 20_000 * 8 * 3);
    }
}
