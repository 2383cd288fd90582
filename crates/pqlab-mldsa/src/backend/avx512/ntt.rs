//! The NTT of FIPS 204 (Algorithms 41 and 42), MultiplyNTT (Algorithm 45) and the inner
//! product of MatrixVectorNTT (Algorithm 48) on 16-lane vectors, with signed Montgomery
//! multiplication (R = 2^32) as the reference implementation.
//!
//! A polynomial is 16 vectors, all held in registers through a transform. The layers whose
//! butterflies are 16 coefficients or more apart (len = 128, 64, 32, 16) pair whole vectors
//! with one broadcast twiddle. The four others work on the two vectors of each 32-coefficient
//! block: before each layer one `vpermt2d` pair moves the block into a layout where the
//! partners of every butterfly sit in the same lane of the two vectors (layout s: lane i of
//! the first vector holds coefficient `lane_coeff(s, i)`, the second one that plus 2^s), with
//! lane-wise twiddles precomputed at compile time from [`ZETAS`]. The block goes back to the
//! natural order at the end (the standard's order in and out).
//!
//! The Montgomery product of a and z computes m = lo32(a * (z q^-1 mod 2^32)) and returns
//! hi32(a z) - hi32(m q) on the even and odd lanes with `vpmuldq`; q^-1 multiples of every
//! twiddle are precomputed. Bounds as the reference: the forward transform grows by q per
//! layer (|out| < 9q), the inverse doubles its sums (below 256 q < 2^31 at the last layer)
//! and reduces every difference; the factor 2^64 / 256 of the inverse is folded into its last
//! layer.
//!
//! These kernels deliberately leave AVX-512DQ off: with it, LLVM turns the `vpmuldq` whose
//! product only feeds the low 32 bits of the next one (the Montgomery quotient) into a
//! `vpmullq` (3 uops, 15 cycles) instead of keeping a 1-uop 32 x 32 multiply.

use core::arch::x86_64::*;

use pqlab_arith::mldsa::{MONT, Q, QINV, ZETAS, montgomery_reduce};

use super::{Coeffs, load, load_row, store};

/// The final factor of the inverse transform: 2^64 / 256 mod q (the reference's 41978).
const F: i32 = {
    // 256^-1 = q - (q - 1) / 256 since 256 divides q - 1.
    let inv256 = (Q - (Q - 1) / 256) as i64;
    ((MONT as i64 * MONT as i64 % Q as i64) * inv256 % Q as i64) as i32
};
const _: () = assert!(F == 41978);
/// F times the last twiddle of the inverse (-zetas\[1\]), times 2^-32: the factor of its
/// last layer's differences.
const FZ: i32 = montgomery_reduce(F as i64 * -(ZETAS[1] as i64));

/// Twiddle times q^-1 mod 2^32 (the Montgomery quotient factor).
const fn zq(z: i32) -> i32 {
    z.wrapping_mul(QINV)
}

/// Per k: zetas\[k\], its quotient factor, -zetas\[k\] and its quotient factor (broadcast
/// from memory, which costs no shuffle port).
static BCAST: [[i32; 4]; 256] = {
    let mut t = [[0; 4]; 256];
    let mut k = 0;
    while k < 256 {
        t[k] = [ZETAS[k], zq(ZETAS[k]), -ZETAS[k], zq(-ZETAS[k])];
        k += 1;
    }
    t
};

/// The coefficient (within its 32-coefficient block) held by lane i of the first vector in
/// layout s: i with a zero bit inserted at position s. Layout 4 is the natural order.
const fn lane_coeff(s: usize, i: usize) -> usize {
    ((i >> s) << (s + 1)) | (i & ((1 << s) - 1))
}

/// The two `vpermt2d` index vectors that take a block from layout `from` to layout `to`.
const fn perm(from: usize, to: usize) -> [[i32; 16]; 2] {
    let mut out = [[0; 16]; 2];
    let mut half = 0;
    while half < 2 {
        let mut i = 0;
        while i < 16 {
            let c = lane_coeff(to, i) + half * (1 << to);
            let mut j = 0;
            while j < 16 {
                if lane_coeff(from, j) == c {
                    out[half][i] = j as i32;
                }
                if lane_coeff(from, j) + (1 << from) == c {
                    out[half][i] = 16 + j as i32;
                }
                j += 1;
            }
            i += 1;
        }
        half += 1;
    }
    out
}

/// PERM\[s\]: layout s + 1 to layout s (forward); PERM\[4\]: layout 0 back to natural.
const FWD_PERM: [[[i32; 16]; 2]; 5] = [perm(1, 0), perm(2, 1), perm(3, 2), perm(4, 3), perm(0, 4)];
/// INV_PERM\[s\]: layout s - 1 to layout s (inverse); INV_PERM\[0\]: natural to layout 0.
const INV_PERM: [[[i32; 16]; 2]; 5] = [perm(4, 0), perm(0, 1), perm(1, 2), perm(2, 3), perm(3, 4)];

/// Lane-wise twiddles of the layers len = 2^s < 16, per 32-coefficient block b: entry
/// \[4 b + s\] holds z, z q^-1, and both again with the odd lanes moved to the even ones
/// (the operands of `vpmuldq` for the odd lanes). `inverse` selects the twiddles of
/// Algorithm 42 (-zetas\[k\] in the reference's order) instead of Algorithm 41's.
const fn lane_twiddles(inverse: bool) -> [[[i32; 16]; 4]; 32] {
    let mut t = [[[0; 16]; 4]; 32];
    let mut b = 0;
    while b < 8 {
        let mut s = 0;
        while s < 4 {
            let len = 1 << s;
            let mut i = 0;
            while i < 16 {
                let g = 32 * b + lane_coeff(s, i);
                let z = if inverse {
                    -ZETAS[256 / len - 1 - g / (2 * len)]
                } else {
                    ZETAS[128 / len + g / (2 * len)]
                };
                t[4 * b + s][0][i] = z;
                t[4 * b + s][1][i] = zq(z);
                i += 1;
            }
            let mut i = 0;
            while i < 16 {
                t[4 * b + s][2][i] = t[4 * b + s][0][i | 1];
                t[4 * b + s][3][i] = t[4 * b + s][1][i | 1];
                i += 1;
            }
            s += 1;
        }
        b += 1;
    }
    t
}

static FWD_TW: [[[i32; 16]; 4]; 32] = lane_twiddles(false);
static INV_TW: [[[i32; 16]; 4]; 32] = lane_twiddles(true);

/// Montgomery product a z 2^-32 with the quotient factors zq = z q^-1 precomputed; `zo`,
/// `zqo` hold the odd lanes' factors in the even lanes (equal to z, zq when z is broadcast).
/// |result| < q for |a z| < 2^31 q.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl")]
fn mont_mul(a: __m512i, z: __m512i, zq: __m512i, zo: __m512i, zqo: __m512i) -> __m512i {
    let q = _mm512_set1_epi32(Q);
    let ao = _mm512_srli_epi64::<32>(a);
    let me = _mm512_mul_epi32(a, zq);
    let mo = _mm512_mul_epi32(ao, zqo);
    let pe = _mm512_mul_epi32(a, z);
    let po = _mm512_mul_epi32(ao, zo);
    let de = _mm512_sub_epi32(pe, _mm512_mul_epi32(me, q));
    let d_o = _mm512_sub_epi32(po, _mm512_mul_epi32(mo, q));
    // The high halves: even lanes' results sit in the odd positions, shifted down.
    _mm512_mask_blend_epi32(0xAAAA, _mm512_srli_epi64::<32>(de), d_o)
}

/// Montgomery reduction of 64-bit values: `pe` holds the even lanes' values, `po` the odd
/// lanes' (in the qword of their pair); returns x 2^-32 mod q, below (|x| / 2^32 + q / 2).
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl")]
fn mont_reduce(pe: __m512i, po: __m512i) -> __m512i {
    let q = _mm512_set1_epi32(Q);
    let qinv = _mm512_set1_epi32(QINV);
    let me = _mm512_mul_epi32(pe, qinv);
    let mo = _mm512_mul_epi32(po, qinv);
    let de = _mm512_sub_epi32(pe, _mm512_mul_epi32(me, q));
    let d_o = _mm512_sub_epi32(po, _mm512_mul_epi32(mo, q));
    _mm512_mask_blend_epi32(0xAAAA, _mm512_srli_epi64::<32>(de), d_o)
}

/// The twiddle `ZETAS[k]` (or its negative) broadcast, with its quotient factor.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl")]
fn bcast(z: i32) -> (__m512i, __m512i) {
    (_mm512_set1_epi32(z), _mm512_set1_epi32(zq(z)))
}

/// Moves a block between layouts with the two index vectors of `p`.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl")]
fn permute(x: __m512i, y: __m512i, p: &[[i32; 16]; 2]) -> (__m512i, __m512i) {
    let i0 = load_row(&p[0]);
    let i1 = load_row(&p[1]);
    (
        _mm512_permutex2var_epi32(x, i0, y),
        _mm512_permutex2var_epi32(x, i1, y),
    )
}

/// Forward (Cooley-Tukey) butterfly with the broadcast twiddle zetas\[k\]: (x + z y, x - z y).
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl")]
fn ct(x: __m512i, y: __m512i, k: usize) -> (__m512i, __m512i) {
    let (z, zqv) = (
        _mm512_set1_epi32(BCAST[k][0]),
        _mm512_set1_epi32(BCAST[k][1]),
    );
    let t = mont_mul(y, z, zqv, z, zqv);
    (_mm512_add_epi32(x, t), _mm512_sub_epi32(x, t))
}

/// Inverse (Gentleman-Sande) butterfly with the broadcast twiddle -zetas\[k\]:
/// (x + y, -z (x - y)).
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl")]
fn gs(x: __m512i, y: __m512i, k: usize) -> (__m512i, __m512i) {
    let (z, zqv) = (
        _mm512_set1_epi32(BCAST[k][2]),
        _mm512_set1_epi32(BCAST[k][3]),
    );
    let d = _mm512_sub_epi32(x, y);
    (_mm512_add_epi32(x, y), mont_mul(d, z, zqv, z, zqv))
}

/// One forward layer with butterflies `D` vectors apart (len = 16 D): twiddle
/// zetas\[8 / D + block\].
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl")]
fn fwd_layer<const D: usize>(v: &mut [__m512i; 16]) {
    for blk in 0..8 / D {
        for j in 0..D {
            let i = 2 * D * blk + j;
            (v[i], v[i + D]) = ct(v[i], v[i + D], 8 / D + blk);
        }
    }
}

/// One inverse layer with butterflies `D` vectors apart (len = 16 D < 128): twiddle
/// -zetas\[16 / D - 1 - block\].
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl")]
fn inv_layer<const D: usize>(v: &mut [__m512i; 16]) {
    for blk in 0..8 / D {
        for j in 0..D {
            let i = 2 * D * blk + j;
            (v[i], v[i + D]) = gs(v[i], v[i + D], 16 / D - 1 - blk);
        }
    }
}

/// The lane-wise twiddle vectors of one layer of one block.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl")]
fn lane_mul(a: __m512i, tw: &[[i32; 16]; 4]) -> __m512i {
    let (z, zqv) = (load_row(&tw[0]), load_row(&tw[1]));
    mont_mul(a, z, zqv, load_row(&tw[2]), load_row(&tw[3]))
}

/// The forward layers len = 8, 4, 2, 1 of the 32-coefficient block `b` (vectors x, y).
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl")]
fn fwd_block(x: __m512i, y: __m512i, b: usize) -> (__m512i, __m512i) {
    let (mut x, mut y) = (x, y);
    for s in (0..4).rev() {
        (x, y) = permute(x, y, &FWD_PERM[s]);
        let t = lane_mul(y, &FWD_TW[4 * b + s]);
        y = _mm512_sub_epi32(x, t);
        x = _mm512_add_epi32(x, t);
    }
    permute(x, y, &FWD_PERM[4])
}

/// The inverse layers len = 1, 2, 4, 8 of the 32-coefficient block `b`.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl")]
fn inv_block(x: __m512i, y: __m512i, b: usize) -> (__m512i, __m512i) {
    let (mut x, mut y) = (x, y);
    for s in 0..4 {
        (x, y) = permute(x, y, &INV_PERM[s]);
        let d = _mm512_sub_epi32(x, y);
        x = _mm512_add_epi32(x, y);
        y = lane_mul(d, &INV_TW[4 * b + s]);
    }
    permute(x, y, &INV_PERM[4])
}

/// FIPS 204, Algorithm 41: NTT(w), in place, standard order in and out; |in| < q gives
/// |out| < 9q (no reduction: each layer adds below q). The 16 vectors stay in registers.
///
/// # Safety
/// The CPU must support AVX-512F/BW/VL.
#[target_feature(enable = "avx512f,avx512bw,avx512vl")]
pub(super) unsafe fn ntt(a: &mut Coeffs) {
    let mut v: [__m512i; 16] = core::array::from_fn(|i| load(a, i));
    // len = 128, 64, 32, 16: vectors d apart, twiddles zetas[8 / d + block].
    fwd_layer::<8>(&mut v);
    fwd_layer::<4>(&mut v);
    fwd_layer::<2>(&mut v);
    fwd_layer::<1>(&mut v);
    // len = 8, 4, 2, 1 inside each 32-coefficient block (written out so that `v` stays in
    // registers).
    (v[0], v[1]) = fwd_block(v[0], v[1], 0);
    (v[2], v[3]) = fwd_block(v[2], v[3], 1);
    (v[4], v[5]) = fwd_block(v[4], v[5], 2);
    (v[6], v[7]) = fwd_block(v[6], v[7], 3);
    (v[8], v[9]) = fwd_block(v[8], v[9], 4);
    (v[10], v[11]) = fwd_block(v[10], v[11], 5);
    (v[12], v[13]) = fwd_block(v[12], v[13], 6);
    (v[14], v[15]) = fwd_block(v[14], v[15], 7);
    for (i, &x) in v.iter().enumerate() {
        store(a, i, x);
    }
}

/// FIPS 204, Algorithm 42: NTT^-1(w_hat) times 2^32, in place, standard order in and out;
/// |in| < q gives |out| < q. The 16 vectors stay in registers.
///
/// # Safety
/// The CPU must support AVX-512F/BW/VL.
#[target_feature(enable = "avx512f,avx512bw,avx512vl")]
pub(super) unsafe fn inv_ntt_to_mont(a: &mut Coeffs) {
    let mut v: [__m512i; 16] = core::array::from_fn(|i| load(a, i));
    // len = 1, 2, 4, 8 inside each 32-coefficient block (Gentleman-Sande butterflies).
    (v[0], v[1]) = inv_block(v[0], v[1], 0);
    (v[2], v[3]) = inv_block(v[2], v[3], 1);
    (v[4], v[5]) = inv_block(v[4], v[5], 2);
    (v[6], v[7]) = inv_block(v[6], v[7], 3);
    (v[8], v[9]) = inv_block(v[8], v[9], 4);
    (v[10], v[11]) = inv_block(v[10], v[11], 5);
    (v[12], v[13]) = inv_block(v[12], v[13], 6);
    (v[14], v[15]) = inv_block(v[14], v[15], 7);
    // len = 16, 32, 64: vectors d apart, twiddles -zetas[16 / d - 1 - block].
    inv_layer::<1>(&mut v);
    inv_layer::<2>(&mut v);
    inv_layer::<4>(&mut v);
    // len = 128 with the factor F folded in: a[j] = F (t + u), a[j + 128] = F z (t - u).
    let (f, fq) = bcast(F);
    let (fz, fzq) = bcast(FZ);
    for i in 0..8 {
        let diff = _mm512_sub_epi32(v[i], v[i + 8]);
        let sum = _mm512_add_epi32(v[i], v[i + 8]);
        v[i] = mont_mul(sum, f, fq, f, fq);
        v[i + 8] = mont_mul(diff, fz, fzq, fz, fzq);
    }
    for (i, &x) in v.iter().enumerate() {
        store(a, i, x);
    }
}

/// FIPS 204, Algorithm 45: MultiplyNTT with Montgomery reduction, c = a o b 2^-32.
///
/// # Safety
/// The CPU must support AVX-512F/BW/VL.
#[target_feature(enable = "avx512f,avx512bw,avx512vl")]
pub(super) unsafe fn pointwise(c: &mut Coeffs, a: &Coeffs, b: &Coeffs) {
    for i in 0..16 {
        let (x, y) = (load(a, i), load(b, i));
        let pe = _mm512_mul_epi32(x, y);
        let po = _mm512_mul_epi32(_mm512_srli_epi64::<32>(x), _mm512_srli_epi64::<32>(y));
        store(c, i, mont_reduce(pe, po));
    }
}

/// One row of Algorithm 48 (MatrixVectorNTT): out = sum_j a\[j\] o b\[j\] 2^-32. The exact
/// products are summed in 64-bit lanes (at most 7 * 2^31 q < 2^58) and reduced once, so
/// |out| < (terms + 1) q / 2 <= terms * q.
///
/// # Safety
/// The CPU must support AVX-512F/BW/VL.
#[target_feature(enable = "avx512f,avx512bw,avx512vl")]
pub(super) unsafe fn inner_product(out: &mut Coeffs, a: &[&Coeffs], b: &[&Coeffs]) {
    let terms = a.len().min(b.len());
    if terms == 0 {
        *out = [0; 256];
        return;
    }
    for i in 0..16 {
        let mut pe = _mm512_setzero_si512();
        let mut po = _mm512_setzero_si512();
        for (x, y) in a.iter().zip(b) {
            let (x, y) = (load(x, i), load(y, i));
            pe = _mm512_add_epi64(pe, _mm512_mul_epi32(x, y));
            let (xo, yo) = (_mm512_srli_epi64::<32>(x), _mm512_srli_epi64::<32>(y));
            po = _mm512_add_epi64(po, _mm512_mul_epi32(xo, yo));
        }
        store(out, i, mont_reduce(pe, po));
    }
}

/// r = a mod q with |r| <= 6283008 for a <= 2^31 - 2^22 - 1 (the reference's reduce32).
///
/// # Safety
/// The CPU must support AVX-512F/BW/VL.
#[target_feature(enable = "avx512f,avx512bw,avx512vl")]
pub(super) unsafe fn reduce32(a: &mut Coeffs) {
    let q = _mm512_set1_epi32(Q);
    let half = _mm512_set1_epi32(1 << 22);
    for i in 0..16 {
        let x = load(a, i);
        let t = _mm512_srai_epi32::<23>(_mm512_add_epi32(x, half));
        store(a, i, _mm512_sub_epi32(x, _mm512_mullo_epi32(t, q)));
    }
}

/// Adds q to every negative coefficient (a mask from the sign, no branch).
///
/// # Safety
/// The CPU must support AVX-512F/BW/VL.
#[target_feature(enable = "avx512f,avx512bw,avx512vl")]
pub(super) unsafe fn caddq(a: &mut Coeffs) {
    let q = _mm512_set1_epi32(Q);
    for i in 0..16 {
        let x = load(a, i);
        let neg = _mm512_cmplt_epi32_mask(x, _mm512_setzero_si512());
        store(a, i, _mm512_mask_add_epi32(x, neg, x, q));
    }
}

/// a\[i\] += centered(s\[i\]) (or -= with `subtract`), centered(x) the representative of x
/// modulo 3329 in \[-1664, 1664\] for |x| < 3329 (the contract of `Ops::add_short_centered`):
/// q = 3329 subtracted or added under compare masks, no branch on the values. Returns whether
/// then some |a_i| >= `bound` (the compare masks of the sums ORed over every coefficient).
///
/// # Safety
/// The CPU must support AVX-512F/BW/VL.
#[cfg_attr(feature = "small-memory", allow(dead_code))]
#[target_feature(enable = "avx512f,avx512bw,avx512vl")]
pub(super) unsafe fn add_short_centered(
    a: &mut Coeffs,
    s: &[i16; 256],
    subtract: bool,
    bound: i32,
) -> bool {
    let q = _mm512_set1_epi32(3329);
    let hi = _mm512_set1_epi32(1664);
    let lo = _mm512_set1_epi32(-1664);
    let b = _mm512_set1_epi32(bound);
    let mut over: u16 = 0;
    for i in 0..16 {
        let chunk = &s[16 * i..16 * i + 16];
        // SAFETY: `chunk` is 16 readable i16 (32 bytes); the load has no alignment requirement.
        let v = _mm512_cvtepi16_epi32(unsafe { _mm256_loadu_si256(chunk.as_ptr().cast()) });
        let v = _mm512_mask_sub_epi32(v, _mm512_cmpgt_epi32_mask(v, hi), v, q);
        let v = _mm512_mask_add_epi32(v, _mm512_cmplt_epi32_mask(v, lo), v, q);
        let x = load(a, i);
        let x = if subtract {
            _mm512_sub_epi32(x, v)
        } else {
            _mm512_add_epi32(x, v)
        };
        store(a, i, x);
        over |= _mm512_cmpge_epi32_mask(_mm512_abs_epi32(x), b);
    }
    over != 0
}
