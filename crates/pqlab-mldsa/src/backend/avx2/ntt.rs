//! The NTT of FIPS 204 (Algorithms 41 and 42) in the standard's coefficient order, the
//! NTT-domain products (Algorithms 45 and 48) and the coefficient-wise reductions, on AVX2
//! vectors of eight `i32`.
//!
//! Montgomery multiplication is the signed one of the Dilithium AVX2 code: `vpmuldq` forms the
//! 64-bit products of the even lanes, and of the odd lanes shifted down; with zq = z q^-1 mod
//! 2^32 precomputed, a z 2^-32 = hi(a z) - hi(lo(a zq) q), the two high halves blended back.
//!
//! Layers with butterfly distance 8 or more pair whole vectors. The last three layers of the
//! forward transform (distances 4, 2, 1) and the first three of the inverse work on two vectors
//! (16 coefficients c0..15) rearranged in registers so that the partners share lanes:
//!
//! * distance 4: x = \[c0..3 | c8..11\], y = \[c4..7 | c12..15\] (`permute2x128`);
//! * distance 2: x = \[c0 c1 c4 c5 | c8 c9 c12 c13\], y = \[c2 c3 c6 c7 | ...\] (`unpack*_epi64`);
//! * distance 1: x = \[c0 c2 c4 c6 | c8 c10 c12 c14\], y = the odd ones (32-bit blends, shifts);
//!
//! and put back in order before they are stored.

use core::arch::x86_64::*;

use pqlab_arith::mldsa::{Q, QINV, ZETAS, montgomery_reduce};

use super::super::Coeffs;

/// z q^-1 mod 2^32: the second factor of a Montgomery multiplication by z.
const fn qinv_times(z: i32) -> i32 {
    z.wrapping_mul(QINV)
}

const fn mod_q(x: i64) -> i64 {
    x.rem_euclid(Q as i64)
}

/// zetas\[k\] q^-1 mod 2^32 for every twiddle.
const ZETAS_QINV: [i32; 256] = {
    let mut t = [0; 256];
    let mut k = 0;
    while k < 256 {
        t[k] = qinv_times(ZETAS[k]);
        k += 1;
    }
    t
};

/// The final factor of the inverse: 2^64 / 256 mod q, centred (FIPS 204, Algorithm 42 line 21,
/// times 2^32 for the output and 2^32 for the Montgomery multiplication that applies it).
const F: i32 = {
    let mont = mod_q(1 << 32);
    let inv256 = Q as i64 - (Q as i64 - 1) / 256;
    let f = mod_q(mod_q(mont * mont) * inv256);
    (if f > Q as i64 / 2 { f - Q as i64 } else { f }) as i32
};
const _: () = assert!(mod_q(F as i64 * 256) == mod_q(mod_q(1 << 32) * mod_q(1 << 32)));

/// zeta_1 F 2^-32: the twiddle of the inverse's last layer with the final factor folded in.
const ZETA1_F: i32 = montgomery_reduce(ZETAS[1] as i64 * F as i64);

/// A twiddle vector: z (lanes 0..8), z of the odd lanes moved to the even ones, and the q^-1
/// multiples of both.
#[derive(Clone, Copy)]
struct Twiddle {
    z: [i32; 8],
    z_odd: [i32; 8],
    zq: [i32; 8],
    zq_odd: [i32; 8],
}

/// The index `first + k / rep` (or `first - k / rep`) of lane k of a twiddle run.
const fn run_at(first: usize, rep: usize, reverse: bool, k: usize) -> usize {
    if reverse {
        first - k / rep
    } else {
        first + k / rep
    }
}

impl Twiddle {
    const ZERO: Self = Self {
        z: [0; 8],
        z_odd: [0; 8],
        zq: [0; 8],
        zq_odd: [0; 8],
    };

    /// `ZETAS[first + k / rep]` (or `first - k / rep`) in lane k.
    const fn from_run(first: usize, rep: usize, reverse: bool) -> Self {
        let mut t = Self::ZERO;
        let mut k = 0;
        while k < 8 {
            let (z, zo) = (
                ZETAS[run_at(first, rep, reverse, k)],
                ZETAS[run_at(first, rep, reverse, k | 1)],
            );
            t.z[k] = z;
            t.zq[k] = qinv_times(z);
            t.z_odd[k] = zo;
            t.zq_odd[k] = qinv_times(zo);
            k += 1;
        }
        t
    }
}

/// Forward twiddles of the last three layers (distances 4, 2, 1) per pair of vectors p
/// (FIPS 204, Algorithm 41: zetas\[k\] with k = 32 + 2p.., 64 + 4p.., 128 + 8p..).
const FWD_TAIL: [[Twiddle; 3]; 16] = {
    let mut t = [[Twiddle::ZERO; 3]; 16];
    let mut p = 0;
    while p < 16 {
        t[p][0] = Twiddle::from_run(32 + 2 * p, 4, false);
        t[p][1] = Twiddle::from_run(64 + 4 * p, 2, false);
        t[p][2] = Twiddle::from_run(128 + 8 * p, 1, false);
        p += 1;
    }
    t
};

/// Inverse twiddles of the first three layers (distances 1, 2, 4) per pair of vectors p
/// (FIPS 204, Algorithm 42: zetas read downwards from 255).
const INV_HEAD: [[Twiddle; 3]; 16] = {
    let mut t = [[Twiddle::ZERO; 3]; 16];
    let mut p = 0;
    while p < 16 {
        t[p][0] = Twiddle::from_run(255 - 8 * p, 1, true);
        t[p][1] = Twiddle::from_run(127 - 4 * p, 2, true);
        t[p][2] = Twiddle::from_run(63 - 2 * p, 4, true);
        p += 1;
    }
    t
};

/// Coefficients 8 i to 8 i + 7 of `f` (the slice is bounds-checked; the checks fold away on
/// the unrolled constant indices).
#[target_feature(enable = "avx2")]
#[inline]
pub(super) fn load(f: &[i32], i: usize) -> __m256i {
    let c = &f[8 * i..8 * i + 8];
    // SAFETY: `c` holds 8 `i32`, the 32 bytes read.
    unsafe { _mm256_loadu_si256(c.as_ptr().cast()) }
}

/// Stores `v` into coefficients 8 i to 8 i + 7 of `f` (bounds-checked slice).
#[target_feature(enable = "avx2")]
#[inline]
pub(super) fn store(f: &mut [i32], i: usize, v: __m256i) {
    let c = &mut f[8 * i..8 * i + 8];
    // SAFETY: `c` holds 8 `i32`, the 32 bytes written.
    unsafe { _mm256_storeu_si256(c.as_mut_ptr().cast(), v) }
}

/// The odd lanes of `a` copied into the even ones (`vmovshdup`: a shuffle-port operation,
/// leaving the multiply ports to the products).
#[target_feature(enable = "avx2")]
#[inline]
fn odd_down(a: __m256i) -> __m256i {
    _mm256_castps_si256(_mm256_movehdup_ps(_mm256_castsi256_ps(a)))
}

/// The high 32 bits of the 64-bit lanes of `even` (products of the even lanes) and of `odd`
/// (products of the odd lanes), back in lane order.
#[target_feature(enable = "avx2")]
#[inline]
fn merge_hi(even: __m256i, odd: __m256i) -> __m256i {
    _mm256_blend_epi32::<0xAA>(odd_down(even), odd)
}

/// a z 2^-32 mod q per lane (Montgomery), for a twiddle vector (z, z_odd, zq, zq_odd) as in
/// [`Twiddle`]; |result| < q for |a z| < 2^31 q.
#[target_feature(enable = "avx2")]
#[inline]
fn montmul(a: __m256i, z: __m256i, z_odd: __m256i, zq: __m256i, zq_odd: __m256i) -> __m256i {
    let q = _mm256_set1_epi32(Q);
    let a_odd = odd_down(a);
    let pe = _mm256_mul_epi32(a, z);
    let po = _mm256_mul_epi32(a_odd, z_odd);
    let me = _mm256_mul_epi32(_mm256_mul_epi32(a, zq), q);
    let mo = _mm256_mul_epi32(_mm256_mul_epi32(a_odd, zq_odd), q);
    // The low halves of p and m q agree: the high halves subtract without a borrow.
    merge_hi(_mm256_sub_epi32(pe, me), _mm256_sub_epi32(po, mo))
}

/// A twiddle broadcast to every lane: (z, zq).
#[derive(Clone, Copy)]
struct Splat(__m256i, __m256i);

/// The twiddle `ZETAS[k]`, broadcast.
#[target_feature(enable = "avx2")]
#[inline]
fn splat(k: usize) -> Splat {
    Splat(
        _mm256_set1_epi32(ZETAS[k]),
        _mm256_set1_epi32(ZETAS_QINV[k]),
    )
}

#[target_feature(enable = "avx2")]
#[inline]
fn montmul_splat(a: __m256i, s: Splat) -> __m256i {
    montmul(a, s.0, s.0, s.1, s.1)
}

#[target_feature(enable = "avx2")]
#[inline]
fn montmul_tw(a: __m256i, t: &Twiddle) -> __m256i {
    let z = load(&t.z, 0);
    let zq = load(&t.zq, 0);
    let z_odd = load(&t.z_odd, 0);
    let zq_odd = load(&t.zq_odd, 0);
    montmul(a, z, z_odd, zq, zq_odd)
}

/// Cooley-Tukey butterfly (FIPS 204, Algorithm 41 lines 8 to 10): (a + z b, a - z b), t = z b.
#[target_feature(enable = "avx2")]
#[inline]
fn ct(a: &mut __m256i, b: &mut __m256i, t: __m256i) {
    *b = _mm256_sub_epi32(*a, t);
    *a = _mm256_add_epi32(*a, t);
}

/// Gentleman-Sande butterfly (FIPS 204, Algorithm 42 lines 8 to 11), without the product:
/// returns (a + b, b - a); the caller multiplies the second by the twiddle.
#[target_feature(enable = "avx2")]
#[inline]
fn gs(a: __m256i, b: __m256i) -> (__m256i, __m256i) {
    (_mm256_add_epi32(a, b), _mm256_sub_epi32(b, a))
}

/// Distance 8 (standard order, vectors a, b) to distance 4 and back: (\[a0..3|b0..3\],
/// \[a4..7|b4..7\]).
#[target_feature(enable = "avx2")]
#[inline]
fn swap128(a: __m256i, b: __m256i) -> (__m256i, __m256i) {
    (
        _mm256_permute2x128_si256::<0x20>(a, b),
        _mm256_permute2x128_si256::<0x31>(a, b),
    )
}

/// Distance 4 layout to distance 2 and back (exchanges 64-bit halves of the 128-bit lanes).
#[target_feature(enable = "avx2")]
#[inline]
fn swap64(x: __m256i, y: __m256i) -> (__m256i, __m256i) {
    (_mm256_unpacklo_epi64(x, y), _mm256_unpackhi_epi64(x, y))
}

/// Distance 2 layout to distance 1 and back: (\[x0 y0 x2 y2\], \[x1 y1 x3 y3\]) per 128-bit lane.
#[target_feature(enable = "avx2")]
#[inline]
fn swap32(x: __m256i, y: __m256i) -> (__m256i, __m256i) {
    (
        _mm256_blend_epi32::<0xAA>(x, _mm256_slli_epi64::<32>(y)),
        _mm256_blend_epi32::<0xAA>(_mm256_srli_epi64::<32>(x), y),
    )
}

/// Cooley-Tukey butterfly of two whole vectors with the broadcast twiddle `s`.
#[target_feature(enable = "avx2")]
#[inline]
fn ct_splat(a: &mut __m256i, b: &mut __m256i, s: Splat) {
    let t = montmul_splat(*b, s);
    ct(a, b, t);
}

/// Gentleman-Sande butterfly of two whole vectors with the broadcast twiddle `s`:
/// (a + b, z (b - a)).
#[target_feature(enable = "avx2")]
#[inline]
fn gs_splat(a: &mut __m256i, b: &mut __m256i, s: Splat) {
    let (x, y) = gs(*a, *b);
    *a = x;
    *b = montmul_splat(y, s);
}

/// The last three forward layers (distances 4, 2, 1) on the 16 coefficients of the vectors a
/// and b, with the twiddles of pair p, in place and back in the standard order.
#[target_feature(enable = "avx2")]
#[inline]
fn ct_tail(a: &mut __m256i, b: &mut __m256i, p: usize) {
    let tw = &FWD_TAIL[p];
    let (mut x, mut y) = swap128(*a, *b);
    let t = montmul_tw(y, &tw[0]);
    ct(&mut x, &mut y, t);
    let (mut x, mut y) = swap64(x, y);
    let t = montmul_tw(y, &tw[1]);
    ct(&mut x, &mut y, t);
    let (mut x, mut y) = swap32(x, y);
    let t = montmul_tw(y, &tw[2]);
    ct(&mut x, &mut y, t);
    // Back to the standard order: [c0..3 | c8..11], [c4..7 | c12..15], then swap128.
    let (x, y) = (_mm256_unpacklo_epi32(x, y), _mm256_unpackhi_epi32(x, y));
    (*a, *b) = swap128(x, y);
}

/// The first three inverse layers (distances 1, 2, 4) on the 16 coefficients of the vectors
/// a and b, with the twiddles of pair p, in place and back in the standard order.
#[target_feature(enable = "avx2")]
#[inline]
fn gs_head(a: &mut __m256i, b: &mut __m256i, p: usize) {
    let tw = &INV_HEAD[p];
    let (x, y) = swap128(*a, *b);
    let (x, y) = swap64(x, y);
    let (x, y) = swap32(x, y);
    // Layer 1 (distance 1).
    let (x, y) = gs(x, y);
    let y = montmul_tw(y, &tw[0]);
    // Layer 2 (distance 2).
    let (x, y) = swap32(x, y);
    let (x, y) = gs(x, y);
    let y = montmul_tw(y, &tw[1]);
    // Layer 3 (distance 4).
    let (x, y) = swap64(x, y);
    let (x, y) = gs(x, y);
    let y = montmul_tw(y, &tw[2]);
    (*a, *b) = swap128(x, y);
}

/// FIPS 204, Algorithm 41: NTT(w), in place, in the standard order. Input coefficients below q
/// in absolute value; each layer adds less than q (a Montgomery product), so the outputs stay
/// below 9q, as in the portable code.
#[target_feature(enable = "avx2,bmi2,popcnt")]
pub(super) unsafe fn ntt(f: &mut Coeffs) {
    let (z1, z2, z3) = (splat(1), splat(2), splat(3));
    let (z4, z5, z6, z7) = (splat(4), splat(5), splat(6), splat(7));
    // Layers 1 to 3 (distances 128, 64, 32): vectors i, i + 4, ..., i + 28.
    for i in 0..4 {
        let [
            mut v0,
            mut v1,
            mut v2,
            mut v3,
            mut v4,
            mut v5,
            mut v6,
            mut v7,
        ] = core::array::from_fn(|j| load(f, i + 4 * j));
        ct_splat(&mut v0, &mut v4, z1);
        ct_splat(&mut v1, &mut v5, z1);
        ct_splat(&mut v2, &mut v6, z1);
        ct_splat(&mut v3, &mut v7, z1);
        ct_splat(&mut v0, &mut v2, z2);
        ct_splat(&mut v1, &mut v3, z2);
        ct_splat(&mut v4, &mut v6, z3);
        ct_splat(&mut v5, &mut v7, z3);
        ct_splat(&mut v0, &mut v1, z4);
        ct_splat(&mut v2, &mut v3, z5);
        ct_splat(&mut v4, &mut v5, z6);
        ct_splat(&mut v6, &mut v7, z7);
        for (j, x) in [v0, v1, v2, v3, v4, v5, v6, v7].into_iter().enumerate() {
            store(f, i + 4 * j, x);
        }
    }
    // Layers 4 and 5 (distances 16, 8) on each group g of 32 coefficients, then 6 to 8 in
    // registers on each pair of vectors.
    for g in 0..8 {
        let [mut v0, mut v1, mut v2, mut v3] = core::array::from_fn(|j| load(f, 4 * g + j));
        let z = splat(8 + g);
        ct_splat(&mut v0, &mut v2, z);
        ct_splat(&mut v1, &mut v3, z);
        ct_splat(&mut v0, &mut v1, splat(16 + 2 * g));
        ct_splat(&mut v2, &mut v3, splat(17 + 2 * g));
        ct_tail(&mut v0, &mut v1, 2 * g);
        ct_tail(&mut v2, &mut v3, 2 * g + 1);
        for (j, x) in [v0, v1, v2, v3].into_iter().enumerate() {
            store(f, 4 * g + j, x);
        }
    }
}

/// FIPS 204, Algorithm 42: NTT^-1(w_hat), in place, times 2^32 (the factor 256^-1 and the
/// Montgomery factor folded into the last layer, F = 2^64 / 256 mod q).
///
/// Input coefficients below q in absolute value; the sums double each layer and stay below
/// 256 (q - 1) < 2^31, the differences get a Montgomery product (below q); the last layer's
/// Montgomery products by F and zeta_1 F bring every output below q.
#[target_feature(enable = "avx2,bmi2,popcnt")]
pub(super) unsafe fn inv_ntt_to_mont(f: &mut Coeffs) {
    // Layers 1 to 3 in registers on each pair of vectors, then 4 and 5 (distances 8, 16) on
    // each group g of 32 coefficients.
    for g in 0..8 {
        let [mut v0, mut v1, mut v2, mut v3] = core::array::from_fn(|j| load(f, 4 * g + j));
        gs_head(&mut v0, &mut v1, 2 * g);
        gs_head(&mut v2, &mut v3, 2 * g + 1);
        gs_splat(&mut v0, &mut v1, splat(31 - 2 * g));
        gs_splat(&mut v2, &mut v3, splat(30 - 2 * g));
        let z = splat(15 - g);
        gs_splat(&mut v0, &mut v2, z);
        gs_splat(&mut v1, &mut v3, z);
        for (j, x) in [v0, v1, v2, v3].into_iter().enumerate() {
            store(f, 4 * g + j, x);
        }
    }
    // Layers 6 to 8 (distances 32, 64, 128): vectors i, i + 4, ..., i + 28; the last one
    // returns (F (a + b), zeta_1 F (b - a)).
    let (z7, z6, z5, z4) = (splat(7), splat(6), splat(5), splat(4));
    let (z3, z2) = (splat(3), splat(2));
    let sf = Splat(_mm256_set1_epi32(F), _mm256_set1_epi32(qinv_times(F)));
    let sz = Splat(
        _mm256_set1_epi32(ZETA1_F),
        _mm256_set1_epi32(qinv_times(ZETA1_F)),
    );
    for i in 0..4 {
        let [
            mut v0,
            mut v1,
            mut v2,
            mut v3,
            mut v4,
            mut v5,
            mut v6,
            mut v7,
        ] = core::array::from_fn(|j| load(f, i + 4 * j));
        gs_splat(&mut v0, &mut v1, z7);
        gs_splat(&mut v2, &mut v3, z6);
        gs_splat(&mut v4, &mut v5, z5);
        gs_splat(&mut v6, &mut v7, z4);
        gs_splat(&mut v0, &mut v2, z3);
        gs_splat(&mut v1, &mut v3, z3);
        gs_splat(&mut v4, &mut v6, z2);
        gs_splat(&mut v5, &mut v7, z2);
        for (j, (a, b)) in [(v0, v4), (v1, v5), (v2, v6), (v3, v7)]
            .into_iter()
            .enumerate()
        {
            let (s, d) = gs(a, b);
            store(f, i + 4 * j, montmul_splat(s, sf));
            store(f, i + 4 * j + 16, montmul_splat(d, sz));
        }
    }
}

/// Montgomery reduction of the 64-bit sums of the even lanes (`even`) and of the odd lanes
/// (`odd`): for |sum| < 2^31 q, results below q, in lane order.
#[target_feature(enable = "avx2")]
#[inline]
fn reduce64(even: __m256i, odd: __m256i) -> __m256i {
    let q = _mm256_set1_epi32(Q);
    let qinv = _mm256_set1_epi32(QINV);
    let me = _mm256_mul_epi32(_mm256_mul_epi32(even, qinv), q);
    let mo = _mm256_mul_epi32(_mm256_mul_epi32(odd, qinv), q);
    merge_hi(_mm256_sub_epi32(even, me), _mm256_sub_epi32(odd, mo))
}

/// FIPS 204, Algorithm 45: MultiplyNTT with Montgomery reduction, c = a o b 2^-32, for
/// |a_i b_i| < 2^31 q; outputs below q.
#[target_feature(enable = "avx2,bmi2,popcnt")]
pub(super) unsafe fn pointwise(c: &mut Coeffs, a: &Coeffs, b: &Coeffs) {
    for i in 0..32 {
        let (x, y) = (load(a, i), load(b, i));
        let pe = _mm256_mul_epi32(x, y);
        let po = _mm256_mul_epi32(odd_down(x), odd_down(y));
        store(c, i, reduce64(pe, po));
    }
}

/// One row of FIPS 204, Algorithm 48 (MatrixVectorNTT): out = sum_j a\[j\] o b\[j\] 2^-32.
///
/// The products are summed exactly in 64 bits and reduced once: with |a| < 9q, |b| < q and at
/// most 7 pairs the sums stay below 63 q^2 < 2^31 q, so |out| < q.
#[target_feature(enable = "avx2,bmi2,popcnt")]
pub(super) unsafe fn inner_product(out: &mut Coeffs, a: &[&Coeffs], b: &[&Coeffs]) {
    for i in 0..32 {
        let mut se = _mm256_setzero_si256();
        let mut so = _mm256_setzero_si256();
        for (x, y) in a.iter().zip(b) {
            let (x, y) = (load(&x[..], i), load(&y[..], i));
            se = _mm256_add_epi64(se, _mm256_mul_epi32(x, y));
            let (xo, yo) = (odd_down(x), odd_down(y));
            so = _mm256_add_epi64(so, _mm256_mul_epi32(xo, yo));
        }
        store(out, i, reduce64(se, so));
    }
}

/// r = a mod q with |r| <= 6283008 for a <= 2^31 - 2^22 - 1, exactly as
/// `pqlab_arith::mldsa::reduce32`: a - ((a + 2^22) >> 23) q.
#[target_feature(enable = "avx2,bmi2,popcnt")]
pub(super) unsafe fn reduce32(f: &mut Coeffs) {
    let q = _mm256_set1_epi32(Q);
    let half = _mm256_set1_epi32(1 << 22);
    for i in 0..32 {
        let a = load(f, i);
        let t = _mm256_srai_epi32::<23>(_mm256_add_epi32(a, half));
        store(f, i, _mm256_sub_epi32(a, _mm256_mullo_epi32(t, q)));
    }
}

/// Adds q to every negative coefficient (a mask from the sign, no branch).
#[target_feature(enable = "avx2,bmi2,popcnt")]
pub(super) unsafe fn caddq(f: &mut Coeffs) {
    let q = _mm256_set1_epi32(Q);
    for i in 0..32 {
        let a = load(f, i);
        store(
            f,
            i,
            _mm256_add_epi32(a, _mm256_and_si256(_mm256_srai_epi32::<31>(a), q)),
        );
    }
}

/// a\[i\] += centered(s\[i\]) (or -= with `subtract`), centered(x) the representative of x
/// modulo 3329 in \[-1664, 1664\] for |x| < 3329 (the contract of `Ops::add_short_centered`):
/// q = 3329 subtracted or added under compare masks, no branch on the values. Returns whether
/// then some |a_i| >= `bound` (the sums' magnitudes compared as they are stored, the masks
/// ORed over every coefficient).
#[cfg_attr(feature = "small-memory", allow(dead_code))]
#[target_feature(enable = "avx2,bmi2,popcnt")]
pub(super) unsafe fn add_short_centered(
    a: &mut Coeffs,
    s: &[i16; 256],
    subtract: bool,
    bound: i32,
) -> bool {
    let q = _mm256_set1_epi32(3329);
    let hi = _mm256_set1_epi32(1664);
    let lo = _mm256_set1_epi32(-1664);
    // |x| >= bound as |x| > bound - 1.
    let b = _mm256_set1_epi32(bound - 1);
    let mut over = _mm256_setzero_si256();
    for i in 0..32 {
        let chunk = &s[8 * i..8 * i + 8];
        // SAFETY: `chunk` is 8 readable i16 (16 bytes); the load has no alignment requirement.
        let v = _mm256_cvtepi16_epi32(unsafe { _mm_loadu_si128(chunk.as_ptr().cast()) });
        let v = _mm256_sub_epi32(v, _mm256_and_si256(_mm256_cmpgt_epi32(v, hi), q));
        let v = _mm256_add_epi32(v, _mm256_and_si256(_mm256_cmpgt_epi32(lo, v), q));
        let x = load(a, i);
        let x = if subtract {
            _mm256_sub_epi32(x, v)
        } else {
            _mm256_add_epi32(x, v)
        };
        store(a, i, x);
        over = _mm256_or_si256(over, _mm256_cmpgt_epi32(_mm256_abs_epi32(x), b));
    }
    _mm256_testz_si256(over, over) == 0
}
