//! Every SIMD back end against the portable one, kernel by kernel, on random inputs (and the
//! edges of each contract). Outputs whose representative the contract fixes must be equal;
//! the others congruent mod q and within the contract's bound. A back end the CPU lacks is
//! skipped and said so; under `CI=true` a CPU with AVX2 must have run the AVX2 checks.

use std::{format, vec::Vec};

use rand::{Rng, SeedableRng, rngs::StdRng};

use super::portable::Portable;
use super::{Coeffs, Ops};
use crate::params::Q;

const CASES: usize = 300;
const QI: i32 = Q as i32;

fn random(rng: &mut StdRng, lo: i16, hi: i16) -> Coeffs {
    core::array::from_fn(|_| rng.gen_range(lo..=hi))
}

fn congruent_within(got: &Coeffs, want: &Coeffs, bound: i16, what: &str) {
    for k in 0..256 {
        assert!(
            got[k].abs() <= bound,
            "{what}: |{}| > {bound} at {k}",
            got[k]
        );
        assert_eq!(
            (i32::from(got[k]) - i32::from(want[k])).rem_euclid(QI),
            0,
            "{what}: coefficient {k}: {} vs {}",
            got[k],
            want[k]
        );
    }
}

/// Checks every kernel of `B` against [`Portable`]; returns the number of cases run.
fn check<B: Ops>() -> usize {
    let name = B::BACKEND.name();
    let mut rng = StdRng::seed_from_u64(0x6d6c_6b65_6d00 + B::BACKEND as u64);
    let mut cases = 0;
    for case in 0..CASES {
        // NTT: |in| < 2q, output fixed (Barrett-reduced).
        let mut f = random(&mut rng, -2 * Q + 1, 2 * Q - 1);
        if case == 0 {
            f = [2 * Q - 1; 256];
        } else if case == 1 {
            f = [-2 * Q + 1; 256];
        }
        let (mut a, mut b) = (f, f);
        B::ntt(&mut a);
        Portable::ntt(&mut b);
        assert_eq!(a, b, "{name} ntt, case {case}");

        // Inverse NTT: |in| < 2^14, |out| < q.
        let mut f = random(&mut rng, -(1 << 14) + 1, (1 << 14) - 1);
        if case == 0 {
            f = [(1 << 14) - 1; 256];
        }
        let (mut a, mut b) = (f, f);
        B::inv_ntt_to_mont(&mut a);
        Portable::inv_ntt_to_mont(&mut b);
        congruent_within(&a, &b, Q - 1, &format!("{name} inv_ntt, case {case}"));

        // Inner products of 1 to 4 terms, |in| <= q.
        let terms = 1 + case % 4;
        let xs: [Coeffs; 4] = core::array::from_fn(|_| random(&mut rng, -Q, Q));
        let ys: [Coeffs; 4] = if case < 4 {
            [[Q; 256]; 4]
        } else {
            core::array::from_fn(|_| random(&mut rng, -Q, Q))
        };
        let xr: [&Coeffs; 4] = core::array::from_fn(|i| &xs[i]);
        let yr: [&Coeffs; 4] = core::array::from_fn(|i| &ys[i]);
        let (mut a, mut b) = ([0; 256], [0; 256]);
        B::inner_product_ntt(&mut a, &xr[..terms], &yr[..terms]);
        Portable::inner_product_ntt(&mut b, &xr[..terms], &yr[..terms]);
        congruent_within(
            &a,
            &b,
            Q,
            &format!("{name} inner_product {terms}, case {case}"),
        );

        // To Montgomery (|out| <= q) and freeze (fixed), on any i16.
        let f = random(&mut rng, i16::MIN, i16::MAX);
        let (mut a, mut b) = (f, f);
        B::to_mont(&mut a);
        Portable::to_mont(&mut b);
        congruent_within(&a, &b, Q, &format!("{name} to_mont, case {case}"));
        let (mut a, mut b) = (f, f);
        B::freeze(&mut a);
        Portable::freeze(&mut b);
        assert_eq!(a, b, "{name} freeze, case {case}");

        // Rejection sampling: buffers of 0 to 3 blocks' worth, outputs of any length.
        let len = 3 * rng.gen_range(0..=168);
        let buf: Vec<u8> = (0..len).map(|_| rng.r#gen()).collect();
        let want_len = rng.gen_range(0..=256);
        let (mut a, mut b) = ([0i16; 256], [0i16; 256]);
        let na = B::rej_uniform(&buf, &mut a[..want_len]);
        let nb = Portable::rej_uniform(&buf, &mut b[..want_len]);
        assert_eq!((na, a), (nb, b), "{name} rej_uniform, case {case}");

        // CBD for eta = 2 and 3.
        for eta in [2usize, 3] {
            let buf: Vec<u8> = (0..64 * eta).map(|_| rng.r#gen()).collect();
            let (mut a, mut b) = ([0; 256], [0; 256]);
            B::sample_poly_cbd(eta, &buf, &mut a);
            Portable::sample_poly_cbd(eta, &buf, &mut b);
            assert_eq!(a, b, "{name} cbd{eta}, case {case}");
        }

        // Compression and decompression with every d of FIPS 203.
        for d in [1u32, 4, 5, 10, 11] {
            let f = random(&mut rng, 0, Q - 1);
            let n = 32 * d as usize;
            let (mut a, mut b) = ([0u8; 352], [0u8; 352]);
            B::compress_encode(d, &f, &mut a[..n]);
            Portable::compress_encode(d, &f, &mut b[..n]);
            assert_eq!(a, b, "{name} compress_encode {d}, case {case}");
            let bytes: Vec<u8> = (0..n).map(|_| rng.r#gen()).collect();
            let (mut a, mut b) = ([0; 256], [0; 256]);
            B::decode_decompress(d, &bytes, &mut a);
            Portable::decode_decompress(d, &bytes, &mut b);
            assert_eq!(a, b, "{name} decode_decompress {d}, case {case}");
        }

        // ByteEncode12 / ByteDecode12, reduced and checked, with values up to 4095.
        let f = random(&mut rng, 0, Q - 1);
        let (mut a, mut b) = ([0u8; 384], [0u8; 384]);
        B::byte_encode12(&f, &mut a);
        Portable::byte_encode12(&f, &mut b);
        assert_eq!(a, b, "{name} byte_encode12, case {case}");
        let mut bytes = [0u8; 384];
        rng.fill(&mut bytes[..]);
        if case % 2 == 0 {
            // Mostly valid keys: values below q except perhaps one.
            let mut g = random(&mut rng, 0, Q - 1);
            if case % 4 == 0 {
                g[rng.gen_range(0..256)] = rng.gen_range(Q..4096);
            }
            Portable::byte_encode12(&g, &mut bytes);
        }
        let (mut a, mut b) = ([0; 256], [0; 256]);
        B::byte_decode12(&bytes, &mut a);
        Portable::byte_decode12(&bytes, &mut b);
        assert_eq!(a, b, "{name} byte_decode12, case {case}");
        let (mut a, mut b) = ([0; 256], [0; 256]);
        let oka = B::byte_decode12_checked(&bytes, &mut a);
        let okb = Portable::byte_decode12_checked(&bytes, &mut b);
        assert_eq!(
            (oka, a),
            (okb, b),
            "{name} byte_decode12_checked, case {case}"
        );
        cases += 1;
    }
    cases
}

#[test]
fn simd_back_ends_match_portable_kernel_by_kernel() {
    pqlab_testutil::backends::each_available(
        "ML-KEM kernels",
        CASES,
        |b| super::dispatch!(on b, B => check::<B>()),
    );
}

/// The two AVX-512 rejection samplers (with and without VBMI2) against [`Portable`]: the
/// back-end check above runs only the one this CPU picks. A twin the CPU cannot run is said to
/// be skipped; under `CI=true` an AVX-512 CPU must have run the plain one.
#[cfg(target_arch = "x86_64")]
#[test]
fn avx512_rej_uniform_twins_match_portable() {
    let mut rng = StdRng::seed_from_u64(0x7e1);
    let (mut plain_cases, mut vbmi2_cases) = (0, 0);
    for case in 0..2000 {
        // 0 to 3 blocks' worth (any length, not only multiples of 3), outputs of any length.
        let len = rng.gen_range(0..=504);
        let buf: Vec<u8> = (0..len).map(|_| rng.r#gen()).collect();
        let want_len = rng.gen_range(0..=256);
        let mut want = [0i16; 256];
        let nw = Portable::rej_uniform(&buf, &mut want[..want_len]);
        let (mut a, mut b) = ([0i16; 256], [0i16; 256]);
        let Some((na, nb)) =
            super::avx512::rej_uniform_twins(&buf, &mut a[..want_len], &mut b[..want_len])
        else {
            break;
        };
        assert_eq!((na, a), (nw, want), "avx512 rej_uniform, case {case}");
        plain_cases += 1;
        if let Some(nb) = nb {
            assert_eq!((nb, b), (nw, want), "avx512 rej_uniform_vbmi2, case {case}");
            vbmi2_cases += 1;
        }
    }
    if plain_cases == 0 {
        assert!(
            std::env::var("CI").is_err() || !std::is_x86_feature_detected!("avx512f"),
            "an AVX-512 CPU under CI must run the AVX-512 rejection samplers"
        );
        std::eprintln!("skipped: no AVX-512 back end on this CPU");
        return;
    }
    assert_eq!(plain_cases, 2000);
    if vbmi2_cases == 0 {
        std::eprintln!("skipped: the VBMI2 twin (no AVX-512 VBMI2 on this CPU)");
    } else {
        assert_eq!(vbmi2_cases, 2000);
    }
}
