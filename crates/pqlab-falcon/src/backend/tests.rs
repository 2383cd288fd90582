//! The portable kernels against the plain arithmetic of `pqlab_arith::falcon` (the transform's
//! values and order, the negacyclic product), then every SIMD back end against the portable
//! one, kernel by kernel, on random inputs and the edges of each contract: all back ends must
//! return the same bits. A back end the CPU lacks is skipped and said so; a CPU with the
//! features of a back end must have run its checks.

use std::{format, vec, vec::Vec};

use pqlab_arith::falcon as fq;
use rand::{Rng, SeedableRng, rngs::StdRng};

use super::portable::{Portable, transpose_blocks};
use super::{Ops, Q};

const CASES: usize = 100;

fn random<const N: usize>(rng: &mut StdRng, lo: i16, hi: i16) -> [i16; N] {
    core::array::from_fn(|_| rng.gen_range(lo..=hi))
}

fn modq(x: i64) -> i64 {
    x.rem_euclid(i64::from(Q))
}

/// The negacyclic product a b mod (x^n + 1, q), schoolbook.
fn schoolbook(a: &[i16], b: &[i16]) -> Vec<i64> {
    let n = a.len();
    let mut r = vec![0i64; n];
    for i in 0..n {
        for j in 0..n {
            let p = i64::from(a[i]) * i64::from(b[j]);
            if i + j < n {
                r[i + j] += p;
            } else {
                r[i + j - n] -= p;
            }
        }
    }
    r.into_iter().map(modq).collect()
}

fn portable_is_the_transform<const N: usize>() {
    let mut rng = StdRng::seed_from_u64(0xfa1c_0000 + N as u64);
    for case in 0..4 {
        let a: [i16; N] = match case {
            0 => [Q; N],
            1 => [-Q; N],
            _ => random(&mut rng, -Q, Q),
        };
        let b: [i16; N] = random(&mut rng, 0, Q - 1);
        // The NTT: the values of mq_NTT (pqlab_arith::falcon::ntt), in this module's order.
        let mut x = a;
        Portable::ntt(&mut x);
        assert!(x.iter().all(|&v| (0..Q).contains(&v)), "n = {N}: range");
        let mut want: Vec<u16> = a.iter().map(|&v| modq(i64::from(v)) as u16).collect();
        fq::ntt(&mut want);
        let mut got = x;
        transpose_blocks(&mut got);
        for k in 0..N {
            assert_eq!(i32::from(got[k]), i32::from(want[k]), "n = {N}, ntt {k}");
        }
        // The product through the NTT domain.
        let mut y = b;
        Portable::ntt(&mut y);
        Portable::pointwise(&mut x, &y);
        assert!(x.iter().all(|&v| v.abs() < Q));
        Portable::intt_mont(&mut x);
        assert!(x.iter().all(|&v| v.abs() < Q));
        let want = schoolbook(&a, &b);
        for k in 0..N {
            assert_eq!(modq(i64::from(x[k])), want[k], "n = {N}, product {k}");
        }
    }
}

#[test]
fn portable_ntt_matches_the_reference_transform_and_multiplies() {
    portable_is_the_transform::<512>();
    portable_is_the_transform::<1024>();
}

/// The squared norm with exact integers, saturated as the contract says.
fn norm_exact(c: &[u16], t: &[i16], s2: &[i16]) -> u32 {
    let q = i64::from(Q);
    let mut s = 0i64;
    for i in 0..c.len() {
        let mut d = modq(i64::from(c[i]) - i64::from(t[i]));
        if d > (q - 1) / 2 {
            d -= q;
        }
        s += d * d + i64::from(s2[i]) * i64::from(s2[i]);
    }
    if s >= 1 << 31 { u32::MAX } else { s as u32 }
}

fn check_n<B: Ops, const N: usize>(rng: &mut StdRng, case: usize) {
    let name = format!("{:?} n = {N} case {case}", B::BACKEND);
    // Forward: |a_i| <= q, extremes first.
    let f: [i16; N] = match case {
        0 => [Q; N],
        1 => [-Q; N],
        2 => core::array::from_fn(|i| if i % 3 == 0 { Q } else { -Q }),
        _ => random(rng, -Q, Q),
    };
    let (mut a, mut b) = (f, f);
    B::ntt(&mut a);
    Portable::ntt(&mut b);
    assert_eq!(a, b, "{name}: ntt");
    // Pointwise: inputs in [0, q).
    let g: [i16; N] = match case {
        0 => [Q - 1; N],
        _ => random(rng, 0, Q - 1),
    };
    let (mut x, mut y) = (b, b);
    B::pointwise(&mut x, &g);
    Portable::pointwise(&mut y, &g);
    assert_eq!(x, y, "{name}: pointwise");
    // Inverse: |a_i| < q.
    let f: [i16; N] = match case {
        0 => [Q - 1; N],
        1 => [-Q + 1; N],
        2 => core::array::from_fn(|i| if i % 5 == 0 { Q - 1 } else { 1 - Q }),
        _ => random(rng, -Q + 1, Q - 1),
    };
    let (mut a, mut b) = (f, f);
    B::intt_mont(&mut a);
    Portable::intt_mont(&mut b);
    assert_eq!(a, b, "{name}: intt_mont");
    // Norm: c in [0, q), |t| < q, |s2| < q; small s2 (real signatures) or any, saturating.
    let c: [u16; N] = core::array::from_fn(|_| rng.gen_range(0..Q as u16));
    let t: [i16; N] = random(rng, -Q + 1, Q - 1);
    let s2: [i16; N] = match case % 3 {
        0 => random(rng, -Q + 1, Q - 1),
        1 => random(rng, -2047, 2047),
        _ => random(rng, -200, 200),
    };
    // Make t close to c for some cases so that s1 is short and the sum stays below 2^31.
    let t = if case.is_multiple_of(2) {
        core::array::from_fn(|i| {
            let d: i16 = rng.gen_range(-300..=300);
            let v = c[i] as i16 - d;
            if v >= Q { v - Q } else { v }
        })
    } else {
        t
    };
    let want = norm_exact(&c, &t, &s2);
    assert_eq!(Portable::norm(&c, &t, &s2), want, "{name}: portable norm");
    assert_eq!(B::norm(&c, &t, &s2), want, "{name}: norm");
}

/// Checks every kernel of `B` against [`Portable`]; returns the number of cases run. Fails
/// unless the floating-point kernels were compared at every degree of the Falcon tree (bit
/// logn of each mask: n = 2^logn), whatever the number of cases.
fn check<B: Ops>() -> usize {
    let mut rng = StdRng::seed_from_u64(0xfa1c_0100 + B::BACKEND as u64);
    let mut cases = 0;
    // FFT, LDL step, target update, mergefft / splitfft of one polynomial, splitfft by depth,
    // product / sum / scaling.
    let mut sizes = [0u32; 6];
    for case in 0..CASES {
        check_n::<B, 512>(&mut rng, case);
        check_n::<B, 1024>(&mut rng, case);
        check_decompress::<B>(&mut rng, case);
        sizes[1] |= 1 << check_ldlmv::<B>(&mut rng, case);
        sizes[2] |= 1 << check_diff_mul_add::<B>(&mut rng, case);
        check_hash_block::<B>(&mut rng, case);
        sizes[0] |= 1 << check_fft::<B>(&mut rng, case);
        sizes[4] |= 1 << check_tree_kernels::<B>(&mut rng, case);
        sizes[3] |= 1 << check_merge_split::<B>(&mut rng, case);
        sizes[5] |= 1 << check_mul_add_scale::<B>(&mut rng, case);
        cases += 1;
    }
    // n = 2 to 1024; splitfft by depth from n = 4.
    let all = 0b111_1111_1110;
    assert_eq!(
        sizes,
        [all, all, all, all, all & !2, all],
        "{:?}: degrees of the floating-point kernels compared",
        B::BACKEND
    );
    cases
}

/// The LDL step of `B` against the portable one, bit for bit, for every size of the tree
/// (n = 2 to 1024) on Gram-like inputs: g00 with positive real parts of every magnitude the
/// signer sees and small imaginary parts, random g01 and g11.
fn check_ldlmv<B: Ops>(rng: &mut StdRng, case: usize) -> usize {
    use crate::fpr::Fpr;
    let logn = 1 + case % 10;
    let n = 1usize << logn;
    let hn = n / 2;
    let scale = 2f64.powi(rng.gen_range(-20..40));
    let mut g = [[Fpr::ZERO; 1024]; 3];
    for u in 0..hn {
        g[0][u] = Fpr::from_bits((scale * rng.gen_range(0.001..1.0f64)).to_bits());
        g[0][u + hn] = Fpr::from_bits((scale * rng.gen_range(-1e-9..1e-9f64)).to_bits());
        for k in 1..3 {
            for v in [u, u + hn] {
                g[k][v] = Fpr::from_bits((scale * rng.gen_range(-1.0..1.0f64)).to_bits());
            }
        }
    }
    let [g00, g01, g11] = &g;
    let (mut d_a, mut l_a) = ([Fpr::ZERO; 1024], [Fpr::ZERO; 1024]);
    let (mut d_b, mut l_b) = (d_a, l_a);
    B::ldlmv(
        &mut d_a[..n],
        &mut l_a[..n],
        &g00[..n],
        &g01[..n],
        &g11[..n],
    );
    Portable::ldlmv(
        &mut d_b[..n],
        &mut l_b[..n],
        &g00[..n],
        &g01[..n],
        &g11[..n],
    );
    let bits = |x: &[Fpr]| x.iter().map(|v| v.to_bits()).collect::<Vec<u64>>();
    assert_eq!(bits(&d_a), bits(&d_b), "{:?} n = {n}: d11", B::BACKEND);
    assert_eq!(bits(&l_a), bits(&l_b), "{:?} n = {n}: l10", B::BACKEND);
    logn
}

/// The target update of ffSampling (acc += (t1 - z1) l10) of `B` against the portable one, bit
/// for bit, for every size n = 2 to 1024, on values of mixed magnitudes and signs (near
/// cancellations in t1 - z1 included).
fn check_diff_mul_add<B: Ops>(rng: &mut StdRng, case: usize) -> usize {
    use crate::fpr::Fpr;
    let logn = 1 + case % 10;
    let n = 1usize << logn;
    let mut v = [[Fpr::ZERO; 1024]; 4];
    for p in v.iter_mut() {
        for x in p[..n].iter_mut() {
            let scale = 2f64.powi(rng.gen_range(-30..30));
            *x = Fpr::from_bits((scale * rng.gen_range(-1.0..1.0f64)).to_bits());
        }
    }
    for u in (0..n).step_by(3) {
        // t1 and z1 close: the difference loses most of its bits.
        v[2][u] = Fpr::from_bits(
            f64::from_bits(v[1][u].to_bits())
                .mul_add(1.0, 1e-12)
                .to_bits(),
        );
    }
    let [acc, t1, z1, l10] = &v;
    let (mut a, mut b) = (*acc, *acc);
    B::diff_mul_add_fft(&mut a[..n], &t1[..n], &z1[..n], &l10[..n]);
    Portable::diff_mul_add_fft(&mut b[..n], &t1[..n], &z1[..n], &l10[..n]);
    let bits = |x: &[Fpr]| x.iter().map(|v| v.to_bits()).collect::<Vec<u64>>();
    assert_eq!(
        bits(&a),
        bits(&b),
        "{:?} n = {n}: diff_mul_add_fft",
        B::BACKEND
    );
    logn
}

/// The depth-by-depth tree kernels of `B` against the portable ones, bit for bit: splitfft over
/// a depth of n = 4 to 1024 values with every node size, and the leaf normalization sqrt(x) s on
/// leaves of every magnitude (with zeros and subnormals, which give +0), every length 1 to 64.
fn check_tree_kernels<B: Ops>(rng: &mut StdRng, case: usize) -> u32 {
    use crate::fpr::Fpr;
    let bits = |x: &[Fpr]| x.iter().map(|v| v.to_bits()).collect::<Vec<u64>>();
    let logn = 2 + (case % 9) as u32;
    let n = 1usize << logn;
    let hm = 2usize << rng.gen_range(0..logn - 1);
    let scale = 2f64.powi(rng.gen_range(-30..40));
    let mut f = [Fpr::ZERO; 1024];
    for x in f[..n].iter_mut() {
        *x = Fpr::from_bits((scale * rng.gen_range(-1.0..1.0f64)).to_bits());
    }
    let q = n / 4;
    let mut out_a = [[Fpr::ZERO; 256]; 4];
    let mut out_b = out_a;
    {
        let [a, b, c, d] = &mut out_a;
        B::split_level(
            &f[..n],
            hm,
            [&mut a[..q], &mut b[..q]],
            [&mut c[..q], &mut d[..q]],
        );
        let [a, b, c, d] = &mut out_b;
        Portable::split_level(
            &f[..n],
            hm,
            [&mut a[..q], &mut b[..q]],
            [&mut c[..q], &mut d[..q]],
        );
    }
    for (a, b) in out_a.iter().zip(&out_b) {
        assert_eq!(
            bits(a),
            bits(b),
            "{:?} n = {n}, hm = {hm}: split_level",
            B::BACKEND
        );
    }

    let len = 1 + case % 64;
    let mut v = [Fpr::ZERO; 64];
    for x in v[..len].iter_mut() {
        *x = match rng.gen_range(0..16) {
            0 => Fpr::ZERO,
            1 => Fpr::from_bits(rng.gen_range(1..1u64 << 52)),
            _ => Fpr::from_bits(rng.gen_range(1u64..0x7fe) << 52 | rng.gen_range(0..1u64 << 52)),
        };
    }
    let s = Fpr::inv_sigma(9 + (case % 2) as u32);
    let mut w = v;
    B::sqrt_scale(&mut v[..len], s);
    Portable::sqrt_scale(&mut w[..len], s);
    assert_eq!(bits(&v), bits(&w), "{:?}: sqrt_scale of {len}", B::BACKEND);
    logn
}

/// The value-by-value kernels of `B` (complex product, sum, product by a constant) against the
/// portable ones, bit for bit, for every degree n = 2 to 1024 on values of mixed magnitudes.
fn check_mul_add_scale<B: Ops>(rng: &mut StdRng, case: usize) -> u32 {
    use crate::fpr::Fpr;
    let bits = |x: &[Fpr]| x.iter().map(|v| v.to_bits()).collect::<Vec<u64>>();
    let logn = 1 + (case % 10) as u32;
    let n = 1usize << logn;
    let mut v = [[Fpr::ZERO; 1024]; 2];
    for p in v.iter_mut() {
        for x in p[..n].iter_mut() {
            let scale = 2f64.powi(rng.gen_range(-30..40));
            *x = Fpr::from_bits((scale * rng.gen_range(-1.0..1.0f64)).to_bits());
        }
    }
    let [a, b] = &v;
    let x = Fpr::from_bits(rng.gen_range(-1e6..1e6f64).to_bits());
    let (mut p, mut q) = (*a, *a);
    B::mul_fft(&mut p[..n], &b[..n]);
    Portable::mul_fft(&mut q[..n], &b[..n]);
    assert_eq!(bits(&p), bits(&q), "{:?} n = {n}: mul_fft", B::BACKEND);
    B::add(&mut p[..n], &b[..n]);
    Portable::add(&mut q[..n], &b[..n]);
    assert_eq!(bits(&p), bits(&q), "{:?} n = {n}: add", B::BACKEND);
    B::mulconst(&mut p[..n], x);
    Portable::mulconst(&mut q[..n], x);
    assert_eq!(bits(&p), bits(&q), "{:?} n = {n}: mulconst", B::BACKEND);
    logn
}

/// mergefft and splitfft of one polynomial of `B` against the portable ones, bit for bit, for
/// every degree n = 2 to 1024: the merge of two random halves of mixed magnitudes, and the
/// split of a random polynomial.
fn check_merge_split<B: Ops>(rng: &mut StdRng, case: usize) -> u32 {
    use crate::fpr::Fpr;
    let bits = |x: &[Fpr]| x.iter().map(|v| v.to_bits()).collect::<Vec<u64>>();
    let logn = 1 + (case % 10) as u32;
    let n = 1usize << logn;
    let mut v = [[Fpr::ZERO; 1024]; 3];
    for p in v.iter_mut() {
        for x in p[..n].iter_mut() {
            let scale = 2f64.powi(rng.gen_range(-30..40));
            *x = Fpr::from_bits((scale * rng.gen_range(-1.0..1.0f64)).to_bits());
        }
    }
    let [f, f0, f1] = &v;
    let h = n / 2;
    let (mut a, mut b) = ([Fpr::ZERO; 1024], [Fpr::ZERO; 1024]);
    B::merge_fft(&mut a[..n], &f0[..h], &f1[..h]);
    Portable::merge_fft(&mut b[..n], &f0[..h], &f1[..h]);
    assert_eq!(bits(&a), bits(&b), "{:?} n = {n}: merge_fft", B::BACKEND);
    let mut out_a = [[Fpr::ZERO; 512]; 2];
    let mut out_b = out_a;
    {
        let [x, y] = &mut out_a;
        B::split_fft(&mut x[..h], &mut y[..h], &f[..n]);
        let [x, y] = &mut out_b;
        Portable::split_fft(&mut x[..h], &mut y[..h], &f[..n]);
    }
    for (x, y) in out_a.iter().zip(&out_b) {
        assert_eq!(bits(x), bits(y), "{:?} n = {n}: split_fft", B::BACKEND);
    }
    logn
}

/// The FFT and inverse FFT of `B` against the portable ones, bit for bit, for every degree 2
/// to 1024, on values of every magnitude the signer and key generation see.
fn check_fft<B: Ops>(rng: &mut StdRng, case: usize) -> u32 {
    use crate::fpr::Fpr;
    let logn = 1 + (case % 10) as u32;
    let n = 1usize << logn;
    let scale = 2f64.powi(rng.gen_range(-30..60));
    let mut a = [Fpr::ZERO; 1024];
    for x in a[..n].iter_mut() {
        *x = Fpr::from_bits((scale * rng.gen_range(-1.0..1.0f64)).to_bits());
    }
    let bits = |x: &[Fpr]| x.iter().map(|v| v.to_bits()).collect::<Vec<u64>>();
    let mut b = a;
    B::fft(&mut a[..n], logn);
    crate::fft::fft(&mut b[..n], logn);
    assert_eq!(bits(&a), bits(&b), "{:?} n = {n}: fft", B::BACKEND);
    B::ifft(&mut a[..n], logn);
    crate::fft::ifft(&mut b[..n], logn);
    assert_eq!(bits(&a), bits(&b), "{:?} n = {n}: ifft", B::BACKEND);
    logn
}

/// HashToPoint's block step of `B` against the portable one: the next free place and the
/// accepted words, on blocks of uniform bytes and on blocks of words drawn around the edges
/// (0, q, 2q, 4q, 5q, 2^16 - 1, so that anything from no word to every word is rejected),
/// written from every start place near the end of `c`.
fn check_hash_block<B: Ops>(rng: &mut StdRng, case: usize) {
    use crate::hash::BLOCK_BYTES;
    let q = i32::from(Q);
    let mut block = [0u8; BLOCK_BYTES];
    if case.is_multiple_of(2) {
        rng.fill(&mut block[..]);
    } else {
        let reject_share = rng.gen_range(0..=10);
        for w in block.chunks_exact_mut(2) {
            let v = if rng.gen_range(0..10) < reject_share {
                rng.gen_range(5 * q..=65535)
            } else {
                let edge = [0, q, 2 * q, 3 * q, 4 * q, 5 * q][rng.gen_range(0..6)];
                (edge + rng.gen_range(-2..=2)).clamp(0, 5 * q - 1)
            };
            w.copy_from_slice(&(v as u16).to_be_bytes());
        }
    }
    let len = 1024;
    let i = len - BLOCK_BYTES / 2 - rng.gen_range(0..=40);
    let (mut a, mut b) = ([0u16; 1024], [0u16; 1024]);
    let (ra, rb) = (
        B::hash_block(&block, &mut a, i),
        Portable::hash_block(&block, &mut b, i),
    );
    assert_eq!(ra, rb, "{:?} case {case}: next free place", B::BACKEND);
    assert_eq!(
        a[..ra],
        b[..rb],
        "{:?} case {case}: accepted words",
        B::BACKEND
    );
    let want: Vec<u16> = block
        .chunks_exact(2)
        .map(|w| i32::from(u16::from_be_bytes([w[0], w[1]])))
        .filter(|&w| w < 5 * q)
        .map(|w| (w % q) as u16)
        .collect();
    assert_eq!(b[i..rb], want[..], "case {case}: portable block step");
}

/// Decompress of `B` against the portable one: the coefficients or the error, on valid
/// encodings of random Gaussian-like polynomials, on the same with a byte flipped or cut, and on
/// random bytes.
fn check_decompress<B: Ops>(rng: &mut StdRng, case: usize) {
    let mut s = [0i16; 1024];
    for x in s.iter_mut() {
        let v: i16 = rng.gen_range(-200..=200);
        *x = if rng.gen_range(0..50) == 0 { v * 10 } else { v };
    }
    let mut data = [0u8; 3000];
    let len = crate::codec::compress(&s, &mut data).expect("fits");
    match case % 4 {
        0 => {}
        1 => data[rng.gen_range(0..len)] ^= 1 << rng.gen_range(0..8),
        2 => rng.fill(&mut data[..len]),
        _ => {}
    }
    let len = if case % 4 == 3 {
        rng.gen_range(0..len)
    } else {
        len
    };
    let (mut a, mut b) = ([0i16; 1024], [0i16; 1024]);
    let (ra, rb) = (
        B::decompress(&data[..len], &mut a),
        Portable::decompress(&data[..len], &mut b),
    );
    assert_eq!(ra, rb, "{:?} case {case}: decompress result", B::BACKEND);
    assert_eq!(
        a,
        b,
        "{:?} case {case}: decompressed coefficients",
        B::BACKEND
    );
    if case.is_multiple_of(4) {
        assert_eq!((ra, a), (Ok(()), s), "case {case}: round trip");
    }
}

#[test]
fn norm_saturates_and_is_exact_below_2_pow_31() {
    // Every coefficient of s1 and s2 at its largest: the sum passes 2^31.
    let c = [6144u16; 1024];
    let t = [0i16; 1024];
    let s2 = [Q - 1; 1024];
    assert_eq!(Portable::norm(&c, &t, &s2), u32::MAX);
    // Just below 2^31: 56 coefficients 6144 and 3 * 1024 * 4 from s2 = 2.
    let c: [u16; 1024] = core::array::from_fn(|i| if i < 56 { 6144 } else { 0 });
    assert_eq!(Portable::norm(&c, &t, &[2; 1024]), 56 * 6144 * 6144 + 4096);
    // (56 * 6144^2 + 4096 < 2^31 < 57 * 6144^2.)
    let c: [u16; 1024] = core::array::from_fn(|i| if i < 57 { 6144 } else { 0 });
    assert_eq!(Portable::norm(&c, &t, &[0; 1024]), u32::MAX);
    // 6145 is centred to -6144, 12288 to -1; t is subtracted.
    let c: [u16; 512] = core::array::from_fn(|i| if i < 30 { [6145, 12288, 5][i % 3] } else { 0 });
    let t: [i16; 512] = core::array::from_fn(|i| if i < 30 { [0, 0, -3][i % 3] } else { 0 });
    let want = 10 * 6144 * 6144 + 10 + 10 * 64 + 512;
    assert_eq!(Portable::norm(&c, &t, &[1; 512]), want);
}

#[test]
fn simd_back_ends_match_portable_kernel_by_kernel() {
    pqlab_testutil::backends::each_available(
        "Falcon kernels (NTT: n = 512 and 1024; FFT and tree: n = 2 to 1024)",
        CASES,
        |b| super::dispatch!(on b, B => check::<B>()),
    );
}
