//! The NTT (FIPS 203, Algorithms 9 and 10), the base-case products (Algorithms 11 and 12) and
//! the coefficient-wise conversions of ML-KEM on AVX-512.
//!
//! A polynomial is eight vectors v\[0..8\] of 32 coefficients, in the standard order. The
//! layers of distance 128, 64 and 32 pair whole vectors. For the layers of distance 16, 8, 4 and 2
//! each block of 64 coefficients (v\[2j\], v\[2j + 1\]) is transposed in registers so that one
//! vector holds the first operand of every butterfly and the other the second: with b5..b0 the
//! bits of a coefficient's index in its block and l4..l0 the bits of its lane, the layouts are
//!
//! | layout | vector | l4 | l3 | l2 | l1 | l0 | reached by                                   |
//! |--------|--------|----|----|----|----|----|----------------------------------------------|
//! | std    | b5     | b4 | b3 | b2 | b1 | b0 |                                              |
//! | S16    | b4     | b5 | b3 | b2 | b1 | b0 | `vshufi64x2` 0x44 / 0xEE from std            |
//! | S8     | b3     | b4 | b5 | b2 | b1 | b0 | `vshufi64x2` 0x88 / 0xDD from S16            |
//! | S4     | b2     | b4 | b5 | b3 | b1 | b0 | `vpunpck{l,h}qdq` from S8 (and back)         |
//! | S2     | b1     | b4 | b5 | b3 | b2 | b0 | `vpermt2d` from S4 (and back); std <-> S2    |
//! | S16I   | b4     | b3 | b5 | b2 | b1 | b0 | `vshufi64x2` 0x44 / 0xEE from S8; 0x88 / 0xDD |
//! |        |        |    |    |    |    |    | from S16I gives std                          |
//!
//! The forward transform runs std, S16, S8, S4, S2, std; the inverse std, S2, S4, S8, S16I,
//! std. The twiddles of each layout are tables computed at compile time from that map, with
//! their products by q^-1 mod 2^16 for the signed Montgomery multiplication
//! (`vpmulhw` / `vpmullw`).
#![allow(unsafe_code)]

use core::arch::x86_64::{
    __m512i, _mm512_add_epi16, _mm512_add_epi32, _mm512_loadu_epi16, _mm512_madd_epi16,
    _mm512_mask_add_epi16, _mm512_mask_blend_epi16, _mm512_movepi16_mask, _mm512_mulhi_epi16,
    _mm512_mulhrs_epi16, _mm512_mullo_epi16, _mm512_permutex2var_epi32, _mm512_rol_epi32,
    _mm512_set1_epi16, _mm512_setzero_si512, _mm512_shuffle_i64x2, _mm512_slli_epi32,
    _mm512_srli_epi32, _mm512_storeu_epi16, _mm512_sub_epi16, _mm512_unpackhi_epi64,
    _mm512_unpacklo_epi64,
};

use pqlab_arith::mlkem::{GAMMAS, MONT2, Q, QINV, ZETAS};

use super::{Coeffs, ld16, ld32};

/// The in-register layouts (module doc).
const S16: usize = 0;
const S8: usize = 1;
const S4: usize = 2;
const S2: usize = 3;
const S16I: usize = 4;

/// The index in its 64-coefficient block of the coefficient in lane `l` of the first vector
/// of layout `s` (the second vector holds its butterfly partner, `distance(s)` further).
const fn block_index(s: usize, l: usize) -> usize {
    let (l4, l3, l2, l1, l0) = (
        (l >> 4) & 1,
        (l >> 3) & 1,
        (l >> 2) & 1,
        (l >> 1) & 1,
        l & 1,
    );
    match s {
        S16 => (l4 << 5) | (l & 15),
        S8 => (l3 << 5) | (l4 << 4) | (l & 7),
        S4 => (l3 << 5) | (l4 << 4) | (l2 << 3) | (l & 3),
        S2 => (l3 << 5) | (l4 << 4) | (l2 << 3) | (l1 << 2) | l0,
        _ => (l3 << 5) | (l4 << 3) | (l & 7),
    }
}

/// The butterfly distance of layout `s`.
const fn distance(s: usize) -> usize {
    match s {
        S16 | S16I => 16,
        S8 => 8,
        S4 => 4,
        _ => 2,
    }
}

/// Twiddle vectors for the in-register layers: `z[4 j + t]` for block j and the t-th layer,
/// and `zq` = `z` * q^-1 mod 2^16.
struct Twiddles {
    z: [[i16; 32]; 16],
    zq: [[i16; 32]; 16],
}

/// The twiddles of the layouts `order`, forward (zeta index 128/len + i/(2 len), Algorithm 9,
/// line 5) or inverse (256/len - 1 - i/(2 len), Algorithm 10, line 5), from the table
/// `ZETAS` (Montgomery form).
const fn twiddles(order: [usize; 4], inverse: bool) -> Twiddles {
    let mut t = Twiddles {
        z: [[0; 32]; 16],
        zq: [[0; 32]; 16],
    };
    let mut j = 0;
    while j < 4 {
        let mut k = 0;
        while k < 4 {
            let s = order[k];
            let len = distance(s);
            let mut l = 0;
            while l < 32 {
                let i = 64 * j + block_index(s, l);
                let z = if inverse {
                    ZETAS[256 / len - 1 - i / (2 * len)]
                } else {
                    ZETAS[128 / len + i / (2 * len)]
                };
                t.z[4 * j + k][l] = z;
                t.zq[4 * j + k][l] = z.wrapping_mul(QINV);
                l += 1;
            }
            k += 1;
        }
        j += 1;
    }
    t
}

static FORWARD: Twiddles = twiddles([S16, S8, S4, S2], false);
static INVERSE: Twiddles = twiddles([S2, S4, S8, S16I], true);

/// `vpermt2d` indices between S4 and S2 (an exchange of the vector bit with l1; its own
/// inverse): `[first, second]` output vector.
const EXCHANGE: [[i32; 16]; 2] = {
    let mut t = [[0i32; 16]; 2];
    let mut p = 0;
    while p < 16 {
        let from = if p & 1 == 1 { 16 } else { 0 };
        t[0][p] = from + (p & !1) as i32;
        t[1][p] = from + (p | 1) as i32;
        p += 1;
    }
    t
};

/// `vpermt2d` indices from S2 to std (forward) and from std to S2 (inverse).
const S2_TO_STD: [[i32; 16]; 2] = {
    let mut t = [[0i32; 16]; 2];
    let mut v = 0;
    while v < 2 {
        let mut p = 0;
        while p < 16 {
            // Output dword p holds b4 b3 b2 b1 of block b5 = v; it sits in vector b1 of S2 at
            // dword (l4 l3 l2 l1) = (b4 b5 b3 b2).
            let (b4, b3, b2, b1) = ((p >> 3) & 1, (p >> 2) & 1, (p >> 1) & 1, p & 1);
            t[v][p] = (16 * b1 + ((b4 << 3) | (v << 2) | (b3 << 1) | b2)) as i32;
            p += 1;
        }
        v += 1;
    }
    t
};
const STD_TO_S2: [[i32; 16]; 2] = {
    let mut t = [[0i32; 16]; 2];
    let mut v = 0;
    while v < 2 {
        let mut p = 0;
        while p < 16 {
            // Dword (l4 l3 l2 l1) of vector b1 = v in S2 is (b4 b5 b3 b2): std vector b5, dword
            // b4 b3 b2 b1.
            let (l4, l3, l2, l1) = ((p >> 3) & 1, (p >> 2) & 1, (p >> 1) & 1, p & 1);
            t[v][p] = (16 * l3 + ((l4 << 3) | (l2 << 2) | (l1 << 1) | v)) as i32;
            p += 1;
        }
        v += 1;
    }
    t
};

/// x * 2^e mod q for e >= 0 (compile time).
const fn mul_pow2_mod_q(x: i32, e: u32) -> i16 {
    let q = Q as i64;
    let mut v = (x as i64).rem_euclid(q);
    let mut k = 0;
    while k < e {
        v = 2 * v % q;
        k += 1;
    }
    if v > q / 2 { (v - q) as i16 } else { v as i16 }
}

/// The factor of Algorithm 10, line 14, with the 2^16 of the contract, for the Montgomery
/// product: 128^-1 * 2^32 = 2^25 mod q.
const F: i16 = mul_pow2_mod_q(1, 25);
/// F times the last twiddle (zeta^64, `ZETAS[1]` = zeta^64 2^16 mod q): ZETAS\[1\] * 2^9.
const F_ZETA1: i16 = mul_pow2_mod_q(ZETAS[1] as i32, 9);

/// The odd lanes of the base-case products' chunk c hold gamma_{16 c + i} (Algorithm 11,
/// Montgomery form), the even lanes 0.
const GAMMA_ODD: [[i16; 32]; 8] = {
    let mut t = [[0i16; 32]; 8];
    let mut c = 0;
    while c < 8 {
        let mut i = 0;
        while i < 16 {
            t[c][2 * i + 1] = GAMMAS[16 * c + i];
            i += 1;
        }
        c += 1;
    }
    t
};

/// The odd `i16` lanes.
const ODD: u32 = 0xAAAA_AAAA;

/// A broadcast twiddle and its product by q^-1.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq")]
fn konst(z: i16) -> (__m512i, __m512i) {
    (
        _mm512_set1_epi16(z),
        _mm512_set1_epi16(z.wrapping_mul(QINV)),
    )
}

/// Signed Montgomery multiplication b * z * 2^-16 mod q with `zq` = z q^-1 mod 2^16: the high
/// half of b z minus that of q (b zq mod 2^16), exact since both products agree in the low
/// half. |out| <= |b z| / 2^16 + q/2 + 1 (below q when |z| <= q/2).
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq")]
fn fqmul(b: __m512i, z: __m512i, zq: __m512i) -> __m512i {
    let hi = _mm512_mulhi_epi16(b, z);
    let m = _mm512_mullo_epi16(b, zq);
    _mm512_sub_epi16(hi, _mm512_mulhi_epi16(m, _mm512_set1_epi16(Q)))
}

/// Cooley-Tukey butterfly (Algorithm 9, lines 8 to 10): (a + z b, a - z b).
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq")]
fn ct(a: __m512i, b: __m512i, z: __m512i, zq: __m512i) -> (__m512i, __m512i) {
    let t = fqmul(b, z, zq);
    (_mm512_add_epi16(a, t), _mm512_sub_epi16(a, t))
}

/// Gentleman-Sande butterfly (Algorithm 10, lines 8 to 10): (a + b, z (b - a)).
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq")]
fn gs(a: __m512i, b: __m512i, z: __m512i, zq: __m512i) -> (__m512i, __m512i) {
    let d = _mm512_sub_epi16(b, a);
    (_mm512_add_epi16(a, b), fqmul(d, z, zq))
}

/// Barrett reduction exactly as `pqlab_arith::mlkem::barrett_reduce` (every `i16` input):
/// t = floor((v a + 2^25) / 2^26) = round(floor(v a / 2^16) / 2^10) (`vpmulhw`, then
/// `vpmulhrsw` by 2^5), and a - t q.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq")]
fn barrett(a: __m512i) -> __m512i {
    const V: i16 = (((1 << 26) + Q as i32 / 2) / Q as i32) as i16;
    let t = _mm512_mulhi_epi16(a, _mm512_set1_epi16(V));
    let t = _mm512_mulhrs_epi16(t, _mm512_set1_epi16(1 << 5));
    _mm512_sub_epi16(a, _mm512_mullo_epi16(t, _mm512_set1_epi16(Q)))
}

/// The eight vectors of `f`.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq")]
fn load(f: &Coeffs) -> [__m512i; 8] {
    let mut v = [_mm512_setzero_si512(); 8];
    for (x, c) in v.iter_mut().zip(f.chunks_exact(32)) {
        // SAFETY: `c` is 32 readable `i16`.
        *x = unsafe { _mm512_loadu_epi16(c.as_ptr()) };
    }
    v
}

/// Stores eight vectors into `f`.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq")]
fn store(f: &mut Coeffs, v: &[__m512i; 8]) {
    for (x, c) in v.iter().zip(f.chunks_exact_mut(32)) {
        // SAFETY: `c` is 32 writable `i16`.
        unsafe { _mm512_storeu_epi16(c.as_mut_ptr(), *x) };
    }
}

/// FIPS 203, Algorithm 9: NTT(f), in place, followed by the Barrett reduction of
/// `pqlab_arith::mlkem::ntt` (same output, coefficient for coefficient). From |in| < 2q each
/// layer adds less than q, so no reduction is needed before the last (|x| < 9q < 2^15).
///
/// # Safety
/// The CPU must support AVX-512 F, BW, VL and DQ.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq")]
pub(super) unsafe fn ntt(f: &mut Coeffs) {
    let mut v = load(f);
    // len = 128, 64, 32: whole vectors.
    let (z, zq) = konst(ZETAS[1]);
    for i in 0..4 {
        (v[i], v[i + 4]) = ct(v[i], v[i + 4], z, zq);
    }
    for (base, k) in [(0, 2), (4, 3)] {
        let (z, zq) = konst(ZETAS[k]);
        for i in base..base + 2 {
            (v[i], v[i + 2]) = ct(v[i], v[i + 2], z, zq);
        }
    }
    for j in 0..4 {
        let (z, zq) = konst(ZETAS[4 + j]);
        (v[2 * j], v[2 * j + 1]) = ct(v[2 * j], v[2 * j + 1], z, zq);
    }
    // len = 16, 8, 4, 2 in registers, block by block.
    let tw = &FORWARD;
    for j in 0..4 {
        let t = |k: usize| (ld16(&tw.z[4 * j + k]), ld16(&tw.zq[4 * j + k]));
        let (a, b) = (v[2 * j], v[2 * j + 1]);
        let (x, y) = (
            _mm512_shuffle_i64x2::<0x44>(a, b),
            _mm512_shuffle_i64x2::<0xEE>(a, b),
        );
        let (z, zq) = t(0);
        let (x, y) = ct(x, y, z, zq);
        let (a, b) = (
            _mm512_shuffle_i64x2::<0x88>(x, y),
            _mm512_shuffle_i64x2::<0xDD>(x, y),
        );
        let (z, zq) = t(1);
        let (a, b) = ct(a, b, z, zq);
        let (x, y) = (_mm512_unpacklo_epi64(a, b), _mm512_unpackhi_epi64(a, b));
        let (z, zq) = t(2);
        let (x, y) = ct(x, y, z, zq);
        let (e0, e1) = (ld32(&EXCHANGE[0]), ld32(&EXCHANGE[1]));
        let (a, b) = (
            _mm512_permutex2var_epi32(x, e0, y),
            _mm512_permutex2var_epi32(x, e1, y),
        );
        let (z, zq) = t(3);
        let (a, b) = ct(a, b, z, zq);
        let (o0, o1) = (ld32(&S2_TO_STD[0]), ld32(&S2_TO_STD[1]));
        v[2 * j] = barrett(_mm512_permutex2var_epi32(a, o0, b));
        v[2 * j + 1] = barrett(_mm512_permutex2var_epi32(a, o1, b));
    }
    store(f, &v);
}

/// FIPS 203, Algorithm 10: NTT^-1(f), in place, times 2^16 (the contract of
/// `pqlab_arith::mlkem::inv_ntt_to_mont`; the representatives may differ from the portable
/// ones). From |in| < 2^14: the sums of the first layer and of the fourth are Barrett-reduced
/// (bounds 2497, 4994, 9988 | 2172, 4344, 8688, 17376 < 2^15 after each layer), and the last
/// layer multiplies by 128^-1 2^16 inside its Montgomery products, so |out| < q.
///
/// # Safety
/// The CPU must support AVX-512 F, BW, VL and DQ.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq")]
pub(super) unsafe fn inv_ntt_to_mont(f: &mut Coeffs) {
    let mut v = load(f);
    let tw = &INVERSE;
    for j in 0..4 {
        let t = |k: usize| (ld16(&tw.z[4 * j + k]), ld16(&tw.zq[4 * j + k]));
        let (a, b) = (v[2 * j], v[2 * j + 1]);
        // len = 2, 4, 8, 16 in registers, then 32 between the block's two vectors.
        let (i0, i1) = (ld32(&STD_TO_S2[0]), ld32(&STD_TO_S2[1]));
        let (x, y) = (
            _mm512_permutex2var_epi32(a, i0, b),
            _mm512_permutex2var_epi32(a, i1, b),
        );
        let (z, zq) = t(0);
        let (x, y) = gs(x, y, z, zq);
        let x = barrett(x);
        let (e0, e1) = (ld32(&EXCHANGE[0]), ld32(&EXCHANGE[1]));
        let (a, b) = (
            _mm512_permutex2var_epi32(x, e0, y),
            _mm512_permutex2var_epi32(x, e1, y),
        );
        let (z, zq) = t(1);
        let (a, b) = gs(a, b, z, zq);
        let (x, y) = (_mm512_unpacklo_epi64(a, b), _mm512_unpackhi_epi64(a, b));
        let (z, zq) = t(2);
        let (x, y) = gs(x, y, z, zq);
        let (a, b) = (
            _mm512_shuffle_i64x2::<0x44>(x, y),
            _mm512_shuffle_i64x2::<0xEE>(x, y),
        );
        let (z, zq) = t(3);
        let (a, b) = gs(a, b, z, zq);
        let a = barrett(a);
        let (x, y) = (
            _mm512_shuffle_i64x2::<0x88>(a, b),
            _mm512_shuffle_i64x2::<0xDD>(a, b),
        );
        let (z, zq) = konst(ZETAS[7 - j]);
        (v[2 * j], v[2 * j + 1]) = gs(x, y, z, zq);
    }
    // len = 64, then 128 with the final factor.
    for (base, k) in [(0, 3), (4, 2)] {
        let (z, zq) = konst(ZETAS[k]);
        for i in base..base + 2 {
            (v[i], v[i + 2]) = gs(v[i], v[i + 2], z, zq);
        }
    }
    let (fz, fzq) = konst(F);
    let (gz, gzq) = konst(F_ZETA1);
    for i in 0..4 {
        let d = _mm512_sub_epi16(v[i + 4], v[i]);
        v[i] = fqmul(_mm512_add_epi16(v[i], v[i + 4]), fz, fzq);
        v[i + 4] = fqmul(d, gz, gzq);
    }
    store(f, &v);
}

/// Montgomery product of two vectors, lane by lane (|out| <= q for |a b| <= 2^15 q).
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq")]
fn fqmul_vv(a: __m512i, b: __m512i) -> __m512i {
    let lo = _mm512_mullo_epi16(a, b);
    let hi = _mm512_mulhi_epi16(a, b);
    let m = _mm512_mullo_epi16(lo, _mm512_set1_epi16(QINV));
    _mm512_sub_epi16(hi, _mm512_mulhi_epi16(m, _mm512_set1_epi16(Q)))
}

/// FIPS 203, Algorithm 11 (with Algorithm 12) summed over the pairs of `a` and `b`:
/// out = sum_j a\[j\] x_T b\[j\] * 2^-16. Per pair of coefficients, `vpmaddwd` forms
/// c0 = a0 b0 + (a1 b1 2^-16) gamma and c1 = a0 b1 + a1 b0 in 32-bit lanes (as
/// `pqlab_arith::mlkem::base_case_multiply`); the sums (at most 4 terms: |sum| <= 8 q^2) get one
/// Montgomery reduction each, the same value as `reduce_acc`.
///
/// # Safety
/// The CPU must support AVX-512 F, BW, VL and DQ.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq")]
pub(super) unsafe fn inner_product(out: &mut Coeffs, a: &[&Coeffs], b: &[&Coeffs]) {
    for (c, o) in out.chunks_exact_mut(32).enumerate() {
        let g = ld16(&GAMMA_ODD[c]);
        let mut acc0 = _mm512_setzero_si512();
        let mut acc1 = _mm512_setzero_si512();
        for (x, y) in a.iter().zip(b) {
            // SAFETY: 32 `i16` at 32 c < 256 of each array.
            let (xa, yb) = unsafe {
                (
                    _mm512_loadu_epi16(x.as_ptr().add(32 * c)),
                    _mm512_loadu_epi16(y.as_ptr().add(32 * c)),
                )
            };
            let m = fqmul_vv(xa, yb);
            let xx = _mm512_mask_blend_epi16(ODD, xa, m);
            let yy = _mm512_mask_blend_epi16(ODD, yb, g);
            acc0 = _mm512_add_epi32(acc0, _mm512_madd_epi16(xx, yy));
            acc1 = _mm512_add_epi32(acc1, _mm512_madd_epi16(xa, _mm512_rol_epi32::<16>(yb)));
        }
        // Montgomery reduction of the 32-bit sums: low halves (c0 even, c1 odd lanes) and high
        // halves; (acc - m q) / 2^16 = hi(acc) - hi(m q) exactly.
        let lo = _mm512_mask_blend_epi16(ODD, acc0, _mm512_slli_epi32::<16>(acc1));
        let hi = _mm512_mask_blend_epi16(ODD, _mm512_srli_epi32::<16>(acc0), acc1);
        let m = _mm512_mullo_epi16(lo, _mm512_set1_epi16(QINV));
        let r = _mm512_sub_epi16(hi, _mm512_mulhi_epi16(m, _mm512_set1_epi16(Q)));
        // SAFETY: `o` is 32 writable `i16`.
        unsafe { _mm512_storeu_epi16(o.as_mut_ptr(), r) };
    }
}

/// f * 2^16 mod q for every coefficient (a Montgomery product by 2^32 mod q); |out| <= q.
///
/// # Safety
/// The CPU must support AVX-512 F, BW, VL and DQ.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq")]
pub(super) unsafe fn to_mont(f: &mut Coeffs) {
    let (z, zq) = konst(MONT2);
    let mut v = load(f);
    for x in v.iter_mut() {
        *x = fqmul(*x, z, zq);
    }
    store(f, &v);
}

/// The standard representative in [0, q) of every coefficient: the Barrett reduction, then q
/// added where negative (`pqlab_arith::mlkem::freeze`, bit for bit).
///
/// # Safety
/// The CPU must support AVX-512 F, BW, VL and DQ.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq")]
pub(super) unsafe fn freeze(f: &mut Coeffs) {
    let mut v = load(f);
    for x in v.iter_mut() {
        let r = barrett(*x);
        *x = _mm512_mask_add_epi16(r, _mm512_movepi16_mask(r), r, _mm512_set1_epi16(Q));
    }
    store(f, &v);
}
