//! The kernels of the AVX-512 back end that build and walk the Falcon tree: splitfft over a
//! whole depth of the tree (`crate::ffldl_levels`, [`crate::fft::split_level`], Falcon spec
//! v1.2, Algorithm 1; one polynomial is one node), mergefft (Algorithm 2), and the leaf
//! normalization sqrt(x) / sigma (Algorithm 8, step 6) with the constant-time correctly rounded
//! square root of [`crate::fpr::Fpr::sqrt`], eight `f64` lanes at a time (the integer steps
//! need AVX-512 DQ's 64-bit `vpmullq`, `vcvtqq2pd` and `vcvttpd2qq`).
//!
//! Every lane performs the operations of the scalar kernel in the same order (separate
//! multiplications and additions, no fused multiply-add, IEEE-754 binary64 lane by lane), so
//! the results are the same bits as the portable kernels'; the equivalence tests of
//! `backend::tests` compare them. With `fpr-emu`, splitfft and mergefft run on the emulated
//! lanes of `avx512_fpr.rs` (the same bits as the scalar emulation); the square root keeps
//! the portable kernel there.
#![allow(unsafe_code)]

use core::arch::x86_64::*;

use super::avx512_fft::{GM_TAB, cmul, load, load_gm, store};
use super::avx512_fpr::{add, mul, sub};
#[cfg(not(feature = "fpr-emu"))]
use super::avx512_ldl::splat;
use crate::fpr::Fpr;

/// The even-indexed and the odd-indexed lanes of the 16 values (lo, hi).
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,avx512cd")]
#[inline]
fn deinterleave(lo: __m512d, hi: __m512d) -> (__m512d, __m512d) {
    let even = _mm512_setr_epi64(0, 2, 4, 6, 8, 10, 12, 14);
    let odd = _mm512_setr_epi64(1, 3, 5, 7, 9, 11, 13, 15);
    (
        _mm512_permutex2var_pd(lo, even, hi),
        _mm512_permutex2var_pd(lo, odd, hi),
    )
}

/// The twiddles of outputs k to k + 8 of [`split_level`] (node place u = k mod qm): gm(u + hm)
/// and its negated imaginary part. Below eight per node the pattern repeats in every group of
/// eight.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,avx512cd")]
#[inline]
fn twiddles(k: usize, qm: usize, hm: usize) -> (__m512d, __m512d) {
    if qm >= 8 {
        let i = (k & (qm - 1)) + hm;
        let (w_re, w_im) = deinterleave(load_gm(2 * i), load_gm(2 * i + 8));
        (w_re, _mm512_xor_pd(w_im, _mm512_set1_pd(-0.0)))
    } else {
        let mut w = [Fpr::ZERO; 16];
        for j in 0..8 {
            let i = (j & (qm - 1)) + hm;
            w[j] = Fpr::from_bits(GM_TAB[2 * i]);
            w[8 + j] = Fpr::from_bits(GM_TAB[2 * i + 1]).neg();
        }
        (load(&w, 0), load(&w, 8))
    }
}

/// [`crate::fft::split_level`] eight outputs at a time (the portable kernel when a half holds
/// fewer than eight or not a multiple of eight values).
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,avx512cd")]
pub(super) fn split_level(f: &[Fpr], hm: usize, f0: [&mut [Fpr]; 2], f1: [&mut [Fpr]; 2]) {
    let h = f.len() >> 1;
    let q = h >> 1;
    if !q.is_multiple_of(8) {
        if SMALL && (1..=4).contains(&q) && hm >= 2 {
            split_small(f, hm, f0, f1);
        } else {
            crate::fft::split_level(f, hm, f0, f1);
        }
        return;
    }
    let (re, im) = f.split_at(h);
    let [f0_re, f0_im] = f0;
    let [f1_re, f1_im] = f1;
    let qm = hm >> 1;
    let half = _mm512_set1_pd(0.5);
    let fixed = twiddles(0, qm, hm);
    for k in (0..q).step_by(8) {
        let (w_re, w_im) = if qm < 8 { fixed } else { twiddles(k, qm, hm) };
        let (a_re, b_re) = deinterleave(load(re, 2 * k), load(re, 2 * k + 8));
        let (a_im, b_im) = deinterleave(load(im, 2 * k), load(im, 2 * k + 8));
        store(f0_re, k, mul(add(a_re, b_re), half));
        store(f0_im, k, mul(add(a_im, b_im), half));
        let (x_re, x_im) = (sub(a_re, b_re), sub(a_im, b_im));
        let t_re = sub(mul(x_re, w_re), mul(x_im, w_im));
        let t_im = add(mul(x_re, w_im), mul(x_im, w_re));
        store(f1_re, k, mul(t_re, half));
        store(f1_im, k, mul(t_im, half));
    }
}

/// [`crate::fft::poly_merge_fft`] (Falcon spec v1.2, Algorithm 2: mergefft) eight outputs at a
/// time for n >= 32, the portable kernel below.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,avx512cd")]
pub(super) fn merge_fft(f: &mut [Fpr], f0: &[Fpr], f1: &[Fpr]) {
    let n = f.len();
    if n < 32 {
        if SMALL && n >= 4 {
            merge_small(f, f0, f1);
        } else {
            crate::fft::poly_merge_fft(f, f0, f1);
        }
        return;
    }
    let hn = n >> 1;
    let qn = hn >> 1;
    let lo = _mm512_setr_epi64(0, 8, 1, 9, 2, 10, 3, 11);
    let hi = _mm512_setr_epi64(4, 12, 5, 13, 6, 14, 7, 15);
    for u in (0..qn).step_by(8) {
        let (a_re, a_im) = (load(f0, u), load(f0, u + qn));
        let (c_re, c_im) = (load(f1, u), load(f1, u + qn));
        let i = u + hn;
        let (w_re, w_im) = deinterleave(load_gm(2 * i), load_gm(2 * i + 8));
        let b_re = sub(mul(c_re, w_re), mul(c_im, w_im));
        let b_im = add(mul(c_re, w_im), mul(c_im, w_re));
        for (x, y, at) in [(a_re, b_re, 2 * u), (a_im, b_im, hn + 2 * u)] {
            let (s, d) = (add(x, y), sub(x, y));
            store(f, at, _mm512_permutex2var_pd(s, lo, d));
            store(f, at + 8, _mm512_permutex2var_pd(s, hi, d));
        }
    }
}

/// [`crate::fft::poly_diff_mul_add_fft`]: acc += (t1 - z1) l10, eight complex values at a time
/// (the portable kernel when n / 2 is not a multiple of eight).
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,avx512cd")]
pub(super) fn diff_mul_add_fft(acc: &mut [Fpr], t1: &[Fpr], z1: &[Fpr], l10: &[Fpr]) {
    let hn = acc.len() >> 1;
    if !hn.is_multiple_of(8) {
        if SMALL && hn <= 4 {
            diff_mul_add_small(acc, t1, z1, l10);
        } else {
            crate::fft::poly_diff_mul_add_fft(acc, t1, z1, l10);
        }
        return;
    }
    for u in (0..hn).step_by(8) {
        let d_re = sub(load(t1, u), load(z1, u));
        let d_im = sub(load(t1, u + hn), load(z1, u + hn));
        let (l_re, l_im) = (load(l10, u), load(l10, u + hn));
        let p_re = sub(mul(d_re, l_re), mul(d_im, l_im));
        let p_im = add(mul(d_re, l_im), mul(d_im, l_re));
        store(acc, u, add(load(acc, u), p_re));
        store(acc, u + hn, add(load(acc, u + hn), p_im));
    }
}

/// [`crate::fft::poly_mul_fft`]: a *= b, eight complex values at a time (the portable kernel
/// when n / 2 is not a multiple of eight).
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,avx512cd")]
pub(super) fn mul_fft(a: &mut [Fpr], b: &[Fpr]) {
    let hn = a.len() >> 1;
    if !hn.is_multiple_of(8) || b.len() != a.len() {
        crate::fft::poly_mul_fft(a, b);
        return;
    }
    for u in (0..hn).step_by(8) {
        let (re, im) = cmul(load(a, u), load(a, u + hn), load(b, u), load(b, u + hn));
        store(a, u, re);
        store(a, u + hn, im);
    }
}

/// [`crate::fft::poly_add`]: a += b, eight values at a time (the portable kernel when the
/// length is not a multiple of eight).
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,avx512cd")]
pub(super) fn add_assign(a: &mut [Fpr], b: &[Fpr]) {
    if !a.len().is_multiple_of(8) || b.len() != a.len() {
        crate::fft::poly_add(a, b);
        return;
    }
    for u in (0..a.len()).step_by(8) {
        store(a, u, add(load(a, u), load(b, u)));
    }
}

/// [`crate::fft::poly_mulconst`]: a *= x, eight values at a time (the portable kernel when the
/// length is not a multiple of eight).
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,avx512cd")]
pub(super) fn mulconst(a: &mut [Fpr], x: Fpr) {
    if !a.len().is_multiple_of(8) {
        crate::fft::poly_mulconst(a, x);
        return;
    }
    let xs = load(&[x; 8], 0);
    for u in (0..a.len()).step_by(8) {
        store(a, u, mul(load(a, u), xs));
    }
}

/// Whether the small nodes (n <= 16) run on packed vectors ([`split_small`], [`merge_small`],
/// [`diff_mul_add_small`]): with `fpr-emu`, where one lane operation costs about two scalar
/// emulated ones and replaces up to eight (Falcon-512 signing 701 -> 676 us with a plain key);
/// not with native floating point, where the packing costs more than the few `vaddpd` it saves
/// (Falcon-512 signing 114 -> 139 us measured with them).
const SMALL: bool = cfg!(feature = "fpr-emu");

/// Up to four complex values in one vector, "packed": real parts in lanes 0 to 3, imaginary
/// parts in lanes 4 to 7 (the small nodes of the tree, n <= 16, where a whole vector per part
/// would leave most lanes idle). `re[j]`, `im[j]` go to lanes j and 4 + j (m = re.len() <= 4
/// values; the other lanes are zero and their results are not stored).
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,avx512cd")]
#[inline]
fn load_packed(re: impl Iterator<Item = Fpr>, im: impl Iterator<Item = Fpr>) -> __m512d {
    let mut v = [Fpr::ZERO; 8];
    for (d, x) in v[..4].iter_mut().zip(re) {
        *d = x;
    }
    for (d, x) in v[4..].iter_mut().zip(im) {
        *d = x;
    }
    load(&v, 0)
}

/// The values of a packed vector ([`load_packed`]): (real parts, imaginary parts).
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,avx512cd")]
#[inline]
fn unpack_packed(x: __m512d) -> [Fpr; 8] {
    let mut v = [Fpr::ZERO; 8];
    store(&mut v, 0, x);
    v
}

/// The complex product of two packed vectors, with the operations of [`crate::fft::cmul`] in
/// the same order: lanes 0 to 3 get x_re w_re + (-(x_im w_im)) (= x_re w_re - x_im w_im, the
/// same bits: a - b is a + (-b) in IEEE-754 and in the emulation), lanes 4 to 7 get
/// x_re w_im + x_im w_re.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,avx512cd")]
#[inline]
fn cmul_packed(x: __m512d, w: __m512d) -> __m512d {
    // [x_re | x_re], [x_im | x_im], [w_im | w_re].
    let x_re = _mm512_shuffle_f64x2::<0b01_00_01_00>(x, x);
    let x_im = _mm512_shuffle_f64x2::<0b11_10_11_10>(x, x);
    let w_sw = _mm512_shuffle_f64x2::<0b01_00_11_10>(w, w);
    let a = mul(x_re, w);
    let b = mul(x_im, w_sw);
    let neg_lo = _mm512_setr_pd(-0.0, -0.0, -0.0, -0.0, 0.0, 0.0, 0.0, 0.0);
    add(a, _mm512_xor_pd(b, neg_lo))
}

/// [`crate::fft::split_level`] for 1 to 4 outputs per half in all (one node of n = 4, 8 or 16,
/// or a few tiny nodes), packed: the same operations as the scalar kernel, lane by lane.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,avx512cd")]
fn split_small(f: &[Fpr], hm: usize, f0: [&mut [Fpr]; 2], f1: [&mut [Fpr]; 2]) {
    let h = f.len() >> 1;
    let q = h >> 1;
    let (re, im) = f.split_at(h);
    let qm = hm >> 1;
    let a = load_packed(re.iter().step_by(2).copied(), im.iter().step_by(2).copied());
    let b = load_packed(
        re.iter().skip(1).step_by(2).copied(),
        im.iter().skip(1).step_by(2).copied(),
    );
    let place = |k: usize| ((k & (qm - 1)) + hm) << 1;
    let w = load_packed(
        (0..q).map(|k| Fpr::from_bits(GM_TAB[place(k)])),
        (0..q).map(|k| Fpr::from_bits(GM_TAB[place(k) + 1]).neg()),
    );
    let half = _mm512_set1_pd(0.5);
    let s = unpack_packed(mul(add(a, b), half));
    let t = unpack_packed(mul(cmul_packed(sub(a, b), w), half));
    let [f0_re, f0_im] = f0;
    let [f1_re, f1_im] = f1;
    f0_re[..q].copy_from_slice(&s[..q]);
    f0_im[..q].copy_from_slice(&s[4..4 + q]);
    f1_re[..q].copy_from_slice(&t[..q]);
    f1_im[..q].copy_from_slice(&t[4..4 + q]);
}

/// [`crate::fft::poly_merge_fft`] for n = 4, 8 or 16, packed: the same operations as the
/// scalar kernel, lane by lane.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,avx512cd")]
fn merge_small(f: &mut [Fpr], f0: &[Fpr], f1: &[Fpr]) {
    let hn = f.len() >> 1;
    let qn = hn >> 1;
    let a = load_packed(f0[..qn].iter().copied(), f0[qn..2 * qn].iter().copied());
    let c = load_packed(f1[..qn].iter().copied(), f1[qn..2 * qn].iter().copied());
    let w = load_packed(
        (0..qn).map(|u| Fpr::from_bits(GM_TAB[(u + hn) << 1])),
        (0..qn).map(|u| Fpr::from_bits(GM_TAB[((u + hn) << 1) + 1])),
    );
    let b = cmul_packed(c, w);
    let s = unpack_packed(add(a, b));
    let d = unpack_packed(sub(a, b));
    for u in 0..qn {
        f[u << 1] = s[u];
        f[(u << 1) + hn] = s[4 + u];
        f[(u << 1) + 1] = d[u];
        f[(u << 1) + 1 + hn] = d[4 + u];
    }
}

/// [`crate::fft::poly_diff_mul_add_fft`] for n / 2 <= 4 complex values, packed: the same
/// operations as the scalar kernel, lane by lane.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,avx512cd")]
fn diff_mul_add_small(acc: &mut [Fpr], t1: &[Fpr], z1: &[Fpr], l10: &[Fpr]) {
    let hn = acc.len() >> 1;
    let packed = |v: &[Fpr]| load_packed(v[..hn].iter().copied(), v[hn..2 * hn].iter().copied());
    let d = sub(packed(t1), packed(z1));
    let r = unpack_packed(add(packed(acc), cmul_packed(d, packed(l10))));
    acc[..hn].copy_from_slice(&r[..hn]);
    acc[hn..2 * hn].copy_from_slice(&r[4..4 + hn]);
}

/// `crate::fpr::backend::sqrt_bits` (the constant-time correctly rounded square root) on eight
/// lanes, step for step: the same seed and Newton iterations in `f64`, the same exact
/// remainders in 64-bit integers and the same masked corrections.
#[cfg(not(feature = "fpr-emu"))]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,avx512cd")]
#[inline]
fn sqrt(x: __m512d) -> __m512d {
    const FRAC: u64 = (1 << 52) - 1;
    const ONE: u64 = 0x3FF0_0000_0000_0000;
    const SQRT2: u64 = 0x3FF6_A09E_667F_3BCD;
    const INV_SQRT2: u64 = 0x3FE6_A09E_667F_3BCD;
    const MAGIC: f64 = 6755399441055744.0;
    let pd = _mm512_set1_pd;
    let b = _mm512_castpd_si512(x);
    let e = _mm512_and_si512(_mm512_srli_epi64::<52>(b), splat(0x7ff));
    let p = _mm512_and_si512(_mm512_add_epi64(e, splat(1)), splat(1));
    let odd = _mm512_sub_epi64(_mm512_setzero_si512(), p);
    let frac = _mm512_and_si512(b, splat(FRAC));
    let m = _mm512_or_si512(frac, splat(1 << 52));
    let md = _mm512_castsi512_pd(_mm512_or_si512(frac, splat(ONE)));
    let mut y = _mm512_add_pd(
        _mm512_mul_pd(
            _mm512_sub_pd(
                _mm512_mul_pd(pd(0.144_964_748_552_869_75), md),
                pd(0.722_236_566_244_751_2),
            ),
            md,
        ),
        pd(1.573_680_746_050_896_1),
    );
    for _ in 0..3 {
        let t = _mm512_mul_pd(_mm512_mul_pd(_mm512_mul_pd(pd(0.5), md), y), y);
        y = _mm512_mul_pd(y, _mm512_sub_pd(pd(1.5), t));
    }
    let k = _mm512_castsi512_pd(_mm512_xor_si512(
        splat(ONE),
        _mm512_and_si512(splat(ONE ^ SQRT2), odd),
    ));
    let kinv = _mm512_castsi512_pd(_mm512_xor_si512(
        splat(ONE),
        _mm512_and_si512(splat(ONE ^ INV_SQRT2), odd),
    ));
    let s = _mm512_mul_pd(_mm512_mul_pd(md, y), k);
    let r0 = _mm512_cvttpd_epi64(_mm512_mul_pd(s, pd((1u64 << 52) as f64)));
    let m_low = _mm512_sllv_epi64(m, _mm512_add_epi64(p, splat(52)));
    let d = _mm512_sub_epi64(m_low, _mm512_mullo_epi64(r0, r0));
    let t = _mm512_add_pd(
        _mm512_mul_pd(
            _mm512_mul_pd(_mm512_cvtepi64_pd(d), _mm512_mul_pd(y, kinv)),
            pd(1.0 / (1u64 << 53) as f64),
        ),
        pd(MAGIC),
    );
    let c = _mm512_sub_epi64(_mm512_castpd_si512(t), splat(MAGIC.to_bits()));
    // round_root(m_low, r0 + c).
    let mut r = _mm512_add_epi64(r0, c);
    let mut d = _mm512_sub_epi64(m_low, _mm512_mullo_epi64(r, r));
    let up = _mm512_srai_epi64::<63>(_mm512_sub_epi64(r, d));
    let two_r1 = _mm512_add_epi64(_mm512_add_epi64(r, r), splat(1));
    d = _mm512_sub_epi64(d, _mm512_and_si512(two_r1, up));
    r = _mm512_sub_epi64(r, up);
    let down = _mm512_srai_epi64::<63>(_mm512_sub_epi64(_mm512_add_epi64(d, r), splat(1)));
    r = _mm512_add_epi64(r, down);
    let exp = _mm512_slli_epi64::<52>(_mm512_srli_epi64::<1>(_mm512_sub_epi64(
        _mm512_add_epi64(e, splat(1021)),
        p,
    )));
    let out = _mm512_add_epi64(exp, r);
    // Zero (and subnormal) inputs give +0.
    let nonzero = _mm512_cmpneq_epi64_mask(e, _mm512_setzero_si512());
    _mm512_castsi512_pd(_mm512_maskz_mov_epi64(nonzero, out))
}

/// Each x of `v` replaced by sqrt(x) s, eight at a time (the portable kernel for the rest).
#[cfg(not(feature = "fpr-emu"))]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,avx512cd")]
pub(super) fn sqrt_scale(v: &mut [Fpr], s: Fpr) {
    let whole = v.len() & !7;
    let sv = _mm512_set1_pd(f64::from_bits(s.to_bits()));
    for i in (0..whole).step_by(8) {
        let x = load(v, i);
        store(v, i, _mm512_mul_pd(sqrt(x), sv));
    }
    for x in v[whole..].iter_mut() {
        *x = x.sqrt().mul(s);
    }
}
