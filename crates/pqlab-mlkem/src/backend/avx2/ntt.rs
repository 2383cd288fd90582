//! The NTT of FIPS 203 (Algorithms 9 and 10) in the standard's coefficient order, the
//! NTT-domain products (Algorithms 11 and 12) and the coefficient-wise reductions, on AVX2.
//!
//! Layers with butterfly distance 16 or more pair whole vectors. The last three layers of the
//! forward transform (distances 8, 4, 2) and the first three of the inverse work on two
//! vectors (32 coefficients a, b) rearranged in registers so that the butterfly partners sit
//! in the same lanes of two vectors:
//!
//! * distance 8: x = \[a0..7 | b0..7\], y = \[a8..15 | b8..15\] (`permute2x128`);
//! * distance 4: x = \[a0..3 a8..11 | b0..3 b8..11\], y = \[a4..7 a12..15 | ...\]
//!   (`unpacklo/hi_epi64`);
//! * distance 2: x = \[a0 a1 a4 a5 a8 a9 a12 a13 | ...\], y = \[a2 a3 a6 a7 ... | ...\]
//!   (32-bit blends and shifts);
//!
//! and put back in order before they are stored, so the NTT domain keeps the standard order.

use core::arch::x86_64::*;

use pqlab_arith::mlkem::{GAMMAS, MONT, MONT2, Q, QINV, ZETAS, fqmul};

use super::super::Coeffs;

/// The final factor of the inverse: 2^16 * 2^16 / 128 mod q (FIPS 203, Algorithm 10 line 14,
/// times the Montgomery factor, divided by the one of the Montgomery multiplication).
const F: i16 = 1441;
const _: () = assert!((F as i64) == (1i64 << 25) % (Q as i64));

/// `z * q^-1 mod 2^16`: the second factor of a Montgomery multiplication by `z`.
const fn qinv_times(z: i16) -> i16 {
    z.wrapping_mul(QINV)
}

/// A twiddle vector and its q^-1 multiple.
#[derive(Clone, Copy)]
struct Twiddle {
    z: [i16; 16],
    zq: [i16; 16],
}

impl Twiddle {
    const ZERO: Self = Self {
        z: [0; 16],
        zq: [0; 16],
    };

    /// `zetas[first + k / rep]` in lane k.
    const fn from_run(table: &[i16; 128], first: usize, rep: usize, reverse: bool) -> Self {
        let mut t = Self::ZERO;
        let mut k = 0;
        while k < 16 {
            let z = if reverse {
                table[first - k / rep]
            } else {
                table[first + k / rep]
            };
            t.z[k] = z;
            t.zq[k] = qinv_times(z);
            k += 1;
        }
        t
    }
}

/// Forward twiddles of the last three layers, per pair of vectors i (FIPS 203, Algorithm 9:
/// zeta^BitRev7(k) with k = 16 + 2i.., 32 + 4i.., 64 + 8i..).
const FWD_TAIL: [[Twiddle; 3]; 8] = {
    let mut t = [[Twiddle::ZERO; 3]; 8];
    let mut i = 0;
    while i < 8 {
        t[i][0] = Twiddle::from_run(&ZETAS, 16 + 2 * i, 8, false);
        t[i][1] = Twiddle::from_run(&ZETAS, 32 + 4 * i, 4, false);
        t[i][2] = Twiddle::from_run(&ZETAS, 64 + 8 * i, 2, false);
        i += 1;
    }
    t
};

/// Inverse twiddles of the first three layers, per pair of vectors i (FIPS 203,
/// Algorithm 10: zetas read downwards from 127, as in the portable code).
const INV_HEAD: [[Twiddle; 3]; 8] = {
    let mut t = [[Twiddle::ZERO; 3]; 8];
    let mut i = 0;
    while i < 8 {
        t[i][0] = Twiddle::from_run(&ZETAS, 127 - 8 * i, 2, true);
        t[i][1] = Twiddle::from_run(&ZETAS, 63 - 4 * i, 4, true);
        t[i][2] = Twiddle::from_run(&ZETAS, 31 - 2 * i, 8, true);
        i += 1;
    }
    t
};

/// The moduli of the base-case products (FIPS 203, Algorithm 11): lane 2k+1 of vector v holds
/// gamma_{8v+k}; the even lanes hold 2^16 mod q, the Montgomery form of 1.
const GAMMA_VEC: [Twiddle; 16] = {
    let mut t = [Twiddle::ZERO; 16];
    let mut v = 0;
    while v < 16 {
        let mut k = 0;
        while k < 8 {
            let g = GAMMAS[8 * v + k];
            t[v].z[2 * k] = MONT;
            t[v].zq[2 * k] = qinv_times(MONT);
            t[v].z[2 * k + 1] = g;
            t[v].zq[2 * k + 1] = qinv_times(g);
            k += 1;
        }
        v += 1;
    }
    t
};

/// zeta_1 * F in the Montgomery domain: the twiddle of the inverse's last layer with the
/// final factor folded in.
const ZETA1_F: i16 = fqmul(ZETAS[1], F);

/// Coefficients 16 i to 16 i + 15 of `f` (the slice is bounds-checked; the checks fold away
/// on the unrolled constant indices).
#[target_feature(enable = "avx2")]
#[inline]
pub(super) fn load(f: &[i16], i: usize) -> __m256i {
    let c = &f[16 * i..16 * i + 16];
    // SAFETY: `c` holds 16 `i16`, the 32 bytes read.
    unsafe { _mm256_loadu_si256(c.as_ptr().cast()) }
}

/// Stores `v` into coefficients 16 i to 16 i + 15 of `f` (bounds-checked slice).
#[target_feature(enable = "avx2")]
#[inline]
pub(super) fn store(f: &mut [i16], i: usize, v: __m256i) {
    let c = &mut f[16 * i..16 * i + 16];
    // SAFETY: `c` holds 16 `i16`, the 32 bytes written.
    unsafe { _mm256_storeu_si256(c.as_mut_ptr().cast(), v) }
}

#[target_feature(enable = "avx2")]
#[inline]
fn load_tw(t: &[i16; 16]) -> __m256i {
    load(t, 0)
}

/// a * b * 2^-16 mod q per lane, with bq = b q^-1 mod 2^16; |result| < |a b| / 2^16 + q / 2 + 1.
#[target_feature(enable = "avx2")]
#[inline]
fn fqmul_v(a: __m256i, b: __m256i, bq: __m256i) -> __m256i {
    let q = _mm256_set1_epi16(Q);
    let t = _mm256_mullo_epi16(a, bq);
    let hi = _mm256_mulhi_epi16(a, b);
    _mm256_sub_epi16(hi, _mm256_mulhi_epi16(t, q))
}

/// Barrett reduction of every lane to \[-(q-1)/2, (q-1)/2\], exactly as
/// `pqlab_arith::mlkem::barrett_reduce`: t = floor((floor(20159 a / 2^16) + 2^9) / 2^10), which
/// equals floor((20159 a + 2^25) / 2^26).
#[target_feature(enable = "avx2")]
#[inline]
fn barrett(a: __m256i) -> __m256i {
    let v = _mm256_set1_epi16(20159);
    let t = _mm256_mulhi_epi16(a, v);
    // mulhrs(t, 32) = (32 t + 2^14) >> 15 = (t + 2^9) >> 10.
    let t = _mm256_mulhrs_epi16(t, _mm256_set1_epi16(32));
    _mm256_sub_epi16(a, _mm256_mullo_epi16(t, _mm256_set1_epi16(Q)))
}

/// Cooley-Tukey butterfly (FIPS 203, Algorithm 9 lines 8 to 10): (a + z b, a - z b).
#[target_feature(enable = "avx2")]
#[inline]
fn ct(a: &mut __m256i, b: &mut __m256i, z: __m256i, zq: __m256i) {
    let t = fqmul_v(*b, z, zq);
    *b = _mm256_sub_epi16(*a, t);
    *a = _mm256_add_epi16(*a, t);
}

/// Gentleman-Sande butterfly (FIPS 203, Algorithm 10 lines 8 to 10): (a + b, z (b - a)).
#[target_feature(enable = "avx2")]
#[inline]
fn gs(a: &mut __m256i, b: &mut __m256i, z: __m256i, zq: __m256i) {
    let t = *a;
    *a = _mm256_add_epi16(t, *b);
    *b = fqmul_v(_mm256_sub_epi16(*b, t), z, zq);
}

#[target_feature(enable = "avx2")]
#[inline]
fn splat(z: i16) -> (__m256i, __m256i) {
    (_mm256_set1_epi16(z), _mm256_set1_epi16(qinv_times(z)))
}

/// Distance 16 (standard order, vectors a and b) to distance 8: (\[a0..7|b0..7\],
/// \[a8..15|b8..15\]). The same permutation undoes itself.
#[target_feature(enable = "avx2")]
#[inline]
fn swap128(a: __m256i, b: __m256i) -> (__m256i, __m256i) {
    (
        _mm256_permute2x128_si256::<0x20>(a, b),
        _mm256_permute2x128_si256::<0x31>(a, b),
    )
}

/// Exchanges the 64-bit halves between the lanes of x and y: distance 8 layout to distance 4
/// and back.
#[target_feature(enable = "avx2")]
#[inline]
fn swap64(x: __m256i, y: __m256i) -> (__m256i, __m256i) {
    (_mm256_unpacklo_epi64(x, y), _mm256_unpackhi_epi64(x, y))
}

/// Exchanges 32-bit elements between x and y: (\[x0 y0 x2 y2\], \[x1 y1 x3 y3\]) per lane;
/// distance 4 layout to distance 2 and back.
#[target_feature(enable = "avx2")]
#[inline]
fn swap32(x: __m256i, y: __m256i) -> (__m256i, __m256i) {
    let lo = _mm256_blend_epi32::<0xAA>(x, _mm256_slli_epi64::<32>(y));
    let hi = _mm256_blend_epi32::<0xAA>(_mm256_srli_epi64::<32>(x), y);
    (lo, hi)
}

/// FIPS 203, Algorithm 9: NTT(f), in place, in the standard order, Barrett-reduced.
///
/// Input coefficients below 2q in absolute value; each layer adds less than 2425 (a
/// Montgomery product by a twiddle of at most (q-1)/2), so all seven stay below 2^15 before
/// the final reduction.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn ntt(f: &mut Coeffs) {
    // Layer 1 (distance 128): vector j with vector j + 8.
    let (z, zq) = splat(ZETAS[1]);
    for j in 0..8 {
        let (mut a, mut b) = (load(f, j), load(f, j + 8));
        ct(&mut a, &mut b, z, zq);
        store(f, j, a);
        store(f, j + 8, b);
    }
    // Layers 2 to 7 on each half, in registers.
    for h in 0..2 {
        let mut v = [_mm256_setzero_si256(); 8];
        for (j, x) in v.iter_mut().enumerate() {
            *x = load(f, 8 * h + j);
        }
        // Layer 2 (distance 64).
        let (z, zq) = splat(ZETAS[2 + h]);
        for j in 0..4 {
            let (mut a, mut b) = (v[j], v[j + 4]);
            ct(&mut a, &mut b, z, zq);
            (v[j], v[j + 4]) = (a, b);
        }
        // Layer 3 (distance 32).
        for g in 0..2 {
            let (z, zq) = splat(ZETAS[4 + 2 * h + g]);
            for j in 0..2 {
                let (mut a, mut b) = (v[4 * g + j], v[4 * g + j + 2]);
                ct(&mut a, &mut b, z, zq);
                (v[4 * g + j], v[4 * g + j + 2]) = (a, b);
            }
        }
        // Layer 4 (distance 16), then 5 to 7 in the rearranged layouts.
        for p in 0..4 {
            let (z, zq) = splat(ZETAS[8 + 4 * h + p]);
            let (mut a, mut b) = (v[2 * p], v[2 * p + 1]);
            ct(&mut a, &mut b, z, zq);
            let tw = &FWD_TAIL[4 * h + p];
            let (mut x, mut y) = swap128(a, b);
            ct(&mut x, &mut y, load_tw(&tw[0].z), load_tw(&tw[0].zq));
            let (mut x, mut y) = swap64(x, y);
            ct(&mut x, &mut y, load_tw(&tw[1].z), load_tw(&tw[1].zq));
            let (mut x, mut y) = swap32(x, y);
            ct(&mut x, &mut y, load_tw(&tw[2].z), load_tw(&tw[2].zq));
            // Back to the standard order: [a0..7 | b0..7], [a8..15 | b8..15], then a, b.
            let (x, y) = (_mm256_unpacklo_epi32(x, y), _mm256_unpackhi_epi32(x, y));
            let (x, y) = (barrett(x), barrett(y));
            let (a, b) = swap128(x, y);
            store(f, 8 * h + 2 * p, a);
            store(f, 8 * h + 2 * p + 1, b);
        }
    }
}

/// FIPS 203, Algorithm 10: NTT^-1(f), in place, times 2^16 (the factor 128^-1 and the
/// Montgomery factor folded into the last layer).
///
/// Input coefficients below 2^14 in absolute value. The sums are Barrett-reduced after the
/// first and the fourth layer: every value stays below 2^15, and the outputs (Montgomery
/// products by F or zeta_1 F of values below 2^15) below q.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn inv_ntt_to_mont(f: &mut Coeffs) {
    for h in 0..2 {
        let mut v = [_mm256_setzero_si256(); 8];
        for (j, x) in v.iter_mut().enumerate() {
            *x = load(f, 8 * h + j);
        }
        for p in 0..4 {
            let tw = &INV_HEAD[4 * h + p];
            let (x, y) = swap128(v[2 * p], v[2 * p + 1]);
            // Distance 2 layout: the even and odd 32-bit elements of x, y.
            let (mut x, mut y) = (
                _mm256_castps_si256(_mm256_shuffle_ps::<0x88>(
                    _mm256_castsi256_ps(x),
                    _mm256_castsi256_ps(y),
                )),
                _mm256_castps_si256(_mm256_shuffle_ps::<0xDD>(
                    _mm256_castsi256_ps(x),
                    _mm256_castsi256_ps(y),
                )),
            );
            // Layer 1 (distance 2).
            gs(&mut x, &mut y, load_tw(&tw[0].z), load_tw(&tw[0].zq));
            x = barrett(x);
            // Layer 2 (distance 4).
            let (mut x, mut y) = swap32(x, y);
            gs(&mut x, &mut y, load_tw(&tw[1].z), load_tw(&tw[1].zq));
            // Layer 3 (distance 8).
            let (mut x, mut y) = swap64(x, y);
            gs(&mut x, &mut y, load_tw(&tw[2].z), load_tw(&tw[2].zq));
            let (mut a, mut b) = swap128(x, y);
            // Layer 4 (distance 16).
            let (z, zq) = splat(ZETAS[15 - 4 * h - p]);
            gs(&mut a, &mut b, z, zq);
            (v[2 * p], v[2 * p + 1]) = (barrett(a), b);
        }
        // Layer 5 (distance 32).
        for g in 0..2 {
            let (z, zq) = splat(ZETAS[7 - 2 * h - g]);
            for j in 0..2 {
                let (mut a, mut b) = (v[4 * g + j], v[4 * g + j + 2]);
                gs(&mut a, &mut b, z, zq);
                (v[4 * g + j], v[4 * g + j + 2]) = (a, b);
            }
        }
        // Layer 6 (distance 64).
        let (z, zq) = splat(ZETAS[3 - h]);
        for j in 0..4 {
            let (mut a, mut b) = (v[j], v[j + 4]);
            gs(&mut a, &mut b, z, zq);
            (v[j], v[j + 4]) = (a, b);
        }
        for (j, x) in v.iter().enumerate() {
            store(f, 8 * h + j, *x);
        }
    }
    // Layer 7 (distance 128) with the final factor F: (F (a + b), F zeta_1 (b - a)).
    let (fz, fzq) = splat(F);
    let (z, zq) = splat(ZETA1_F);
    for j in 0..8 {
        let (a, b) = (load(f, j), load(f, j + 8));
        let s = fqmul_v(_mm256_add_epi16(a, b), fz, fzq);
        let d = fqmul_v(_mm256_sub_epi16(b, a), z, zq);
        store(f, j, s);
        store(f, j + 8, d);
    }
}

/// FIPS 203, Algorithm 11 (with Algorithm 12) summed over the pairs (a\[j\], b\[j\]):
/// out = sum_j a\[j\] x_T b\[j\] * 2^-16, |out| <= q. Inputs at most q in absolute value;
/// 1 to 4 pairs (the caller checks).
///
/// In each 32-bit lane (the pair a0 + a1 X of one modulus X^2 - gamma), `madd` forms
/// c0 = a0 b0' + a1 b1' with (b0', b1') = (b0, b1 gamma) (one Montgomery multiplication of b by
/// (2^16, gamma 2^16)), and c1 = a0 b1 + a1 b0 from b with its halves swapped. The 32-bit sums
/// (below 4 * 2 q^2 < 2^31) get one Montgomery reduction each.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn inner_product(out: &mut Coeffs, a: &[&Coeffs], b: &[&Coeffs]) {
    let swap = _mm256_setr_epi8(
        2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13, 2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9,
        14, 15, 12, 13,
    );
    let q = _mm256_set1_epi16(Q);
    let qinv = _mm256_set1_epi16(QINV);
    for i in 0..16 {
        let g = &GAMMA_VEC[i];
        let (gz, gzq) = (load_tw(&g.z), load_tw(&g.zq));
        let mut c0 = _mm256_setzero_si256();
        let mut c1 = _mm256_setzero_si256();
        for (x, y) in a.iter().zip(b) {
            let (x, y) = (load(&x[..], i), load(&y[..], i));
            let yg = fqmul_v(y, gz, gzq);
            c0 = _mm256_add_epi32(c0, _mm256_madd_epi16(x, yg));
            c1 = _mm256_add_epi32(c1, _mm256_madd_epi16(x, _mm256_shuffle_epi8(y, swap)));
        }
        // Montgomery reduction of each 32-bit sum c: hi16(c) - hi16(lo16(c) q^-1 q).
        let m0 = _mm256_mulhi_epi16(_mm256_mullo_epi16(c0, qinv), q);
        let r0 = _mm256_sub_epi16(_mm256_srli_epi32::<16>(c0), m0);
        let m1 = _mm256_mulhi_epi16(_mm256_mullo_epi16(c1, qinv), q);
        let r1 = _mm256_sub_epi16(c1, _mm256_slli_epi32::<16>(m1));
        store(out, i, _mm256_blend_epi16::<0xAA>(r0, r1));
    }
}

/// f * 2^16 mod q for every coefficient, |out| <= q (a Montgomery multiplication by 2^32).
#[target_feature(enable = "avx2")]
pub(super) unsafe fn to_mont(f: &mut Coeffs) {
    let (z, zq) = splat(MONT2);
    for i in 0..16 {
        let x = fqmul_v(load(f, i), z, zq);
        store(f, i, x);
    }
}

/// The standard representative in [0, q) of every coefficient: Barrett reduction, then q
/// added to the negative ones (a mask, no branch).
#[target_feature(enable = "avx2")]
pub(super) unsafe fn freeze(f: &mut Coeffs) {
    let q = _mm256_set1_epi16(Q);
    for i in 0..16 {
        let r = barrett(load(f, i));
        store(
            f,
            i,
            _mm256_add_epi16(r, _mm256_and_si256(_mm256_srai_epi16::<15>(r), q)),
        );
    }
}
