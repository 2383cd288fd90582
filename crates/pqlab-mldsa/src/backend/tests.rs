//! Every SIMD back end against the portable one, kernel by kernel, on random inputs (and the
//! edges of each contract). Outputs whose representative the contract fixes must be equal; the
//! others congruent mod q and within the contract's bound. A back end the CPU lacks is skipped
//! and said so; under `CI=true` a CPU with AVX2 must have run the AVX2 checks.

use std::{format, vec::Vec};

use rand::{Rng, SeedableRng, rngs::StdRng};

use super::portable::Portable;
use super::{Coeffs, Ops};
use crate::ball::BallMasks;
use crate::params::Q;

const CASES: usize = 200;
const G88: i32 = (Q - 1) / 88;
const G32: i32 = (Q - 1) / 32;

fn random(rng: &mut StdRng, lo: i32, hi: i32) -> Coeffs {
    core::array::from_fn(|_| rng.gen_range(lo..=hi))
}

fn congruent_within(got: &Coeffs, want: &Coeffs, bound: i64, what: &str) {
    for k in 0..256 {
        assert!(
            i64::from(got[k]).abs() < bound,
            "{what}: |{}| >= {bound} at {k}",
            got[k]
        );
        assert_eq!(
            (i64::from(got[k]) - i64::from(want[k])).rem_euclid(i64::from(Q)),
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
    let q = i64::from(Q);
    let mut rng = StdRng::seed_from_u64(0x6d6c_6473_6100 + B::BACKEND as u64);
    let mut cases = 0;
    for case in 0..CASES {
        // NTT: |in| < q, |out| < 9q.
        let f = match case {
            0 => [Q - 1; 256],
            1 => [-Q + 1; 256],
            _ => random(&mut rng, -Q + 1, Q - 1),
        };
        let (mut a, mut b) = (f, f);
        B::ntt(&mut a);
        Portable::ntt(&mut b);
        congruent_within(&a, &b, 9 * q, &format!("{name} ntt, case {case}"));

        // Inverse NTT: |in| < q, |out| < q.
        let f = match case {
            0 => [Q - 1; 256],
            1 => [-Q + 1; 256],
            _ => random(&mut rng, -Q + 1, Q - 1),
        };
        let (mut a, mut b) = (f, f);
        B::inv_ntt_to_mont(&mut a);
        Portable::inv_ntt_to_mont(&mut b);
        congruent_within(&a, &b, q, &format!("{name} inv_ntt, case {case}"));

        // Pointwise products and inner products of 1 to 7 terms, inputs below 9q and q.
        let xs: [Coeffs; 7] = core::array::from_fn(|_| random(&mut rng, -9 * Q + 1, 9 * Q - 1));
        let ys: [Coeffs; 7] = core::array::from_fn(|_| random(&mut rng, -Q + 1, Q - 1));
        let (mut a, mut b) = ([0; 256], [0; 256]);
        B::pointwise(&mut a, &xs[0], &ys[0]);
        Portable::pointwise(&mut b, &xs[0], &ys[0]);
        congruent_within(&a, &b, q, &format!("{name} pointwise, case {case}"));
        let terms = 1 + case % 7;
        let xr: [&Coeffs; 7] = core::array::from_fn(|i| &xs[i]);
        let yr: [&Coeffs; 7] = core::array::from_fn(|i| &ys[i]);
        B::inner_product(&mut a, &xr[..terms], &yr[..terms]);
        Portable::inner_product(&mut b, &xr[..terms], &yr[..terms]);
        congruent_within(
            &a,
            &b,
            terms as i64 * q,
            &format!("{name} inner {terms}, case {case}"),
        );

        // reduce32 (|out| <= 6283008) and caddq (fixed).
        let f = random(&mut rng, i32::MIN, i32::MAX - (1 << 22));
        let (mut a, mut b) = (f, f);
        B::reduce32(&mut a);
        Portable::reduce32(&mut b);
        congruent_within(&a, &b, 6_283_009, &format!("{name} reduce32, case {case}"));
        let f = random(&mut rng, -Q + 1, Q - 1);
        let (mut a, mut b) = (f, f);
        B::caddq(&mut a);
        Portable::caddq(&mut b);
        assert_eq!(a, b, "{name} caddq, case {case}");

        // add_short_centered (fixed): |s| < 3329, the edges of the centering in the first cases.
        let s: [i16; 256] = match case {
            0 => core::array::from_fn(|i| [1664, 1665, -1664, -1665, 3328, -3328, 0][i % 7]),
            _ => core::array::from_fn(|_| rng.gen_range(-3328..=3328)),
        };
        // Its norm check: sums of both signs on either side of each bound (z and r0 of the
        // three parameter sets, and one that nothing reaches).
        let f = random(&mut rng, -140_000, 140_000);
        for bound in [
            (Q - 1) / 88 - 78,
            (1 << 17) - 78,
            (Q - 1) / 32 - 196,
            (1 << 19) - 196,
        ] {
            for subtract in [false, true] {
                let (mut a, mut b) = (f, f);
                let over_a = B::add_short_centered(&mut a, &s, subtract, bound);
                let over_b = Portable::add_short_centered(&mut b, &s, subtract, bound);
                assert_eq!(a, b, "{name} add_short_centered {subtract}, case {case}");
                assert_eq!(
                    over_a, over_b,
                    "{name} add_short_centered {bound}, case {case}"
                );
                assert_eq!(over_b, Portable::norm_exceeds(&b, bound));
            }
        }
        // One coefficient just at the bound, the others below: exceeds; one less: does not.
        for (at, want) in [(1000, true), (999, false)] {
            let mut a = [0; 256];
            a[77] = at - 5;
            let mut s = [0i16; 256];
            s[77] = 5;
            assert_eq!(
                B::add_short_centered(&mut a, &s, false, 1000),
                want,
                "{name}"
            );
            let mut a = [0; 256];
            a[200] = -at + 5;
            assert!(!B::add_short_centered(&mut a, &s, true, 1000), "{name}");
            a[200] = -at - 5;
            s[200] = -5;
            assert_eq!(
                B::add_short_centered(&mut a, &s, true, 1000),
                want,
                "{name}"
            );
        }
        if case == 0 {
            let mut a = [0; 256];
            Portable::add_short_centered(&mut a, &s, false, 1);
            assert_eq!(&a[..7], &[1664, -1664, -1664, 1664, -1, 1, 0]);
        }

        // Rejection samplers: any buffer length, any output length.
        let len = 3 * rng.gen_range(0..=280);
        let mut buf: Vec<u8> = (0..len).map(|_| rng.r#gen()).collect();
        if case % 2 == 1 {
            // About half the candidates at or above q (uniform bytes reject 0.1 %), so that
            // vectors with rejected lanes are common.
            for triple in buf.chunks_exact_mut(3) {
                if rng.r#gen::<bool>() {
                    triple[1] = 0xff;
                    triple[2] = 0xff;
                }
            }
        }
        let want = rng.gen_range(0..=256);
        let (mut a, mut b) = ([0; 256], [0; 256]);
        let na = B::rej_uniform(&buf, &mut a[..want]);
        let nb = Portable::rej_uniform(&buf, &mut b[..want]);
        assert_eq!((na, a), (nb, b), "{name} rej_uniform, case {case}");
        for eta in [2u32, 4] {
            let buf: Vec<u8> = (0..rng.gen_range(0..=272)).map(|_| rng.r#gen()).collect();
            let (mut a, mut b) = ([0; 256], [0; 256]);
            let na = B::rej_eta(eta, &buf, &mut a[..want]);
            let nb = Portable::rej_eta(eta, &buf, &mut b[..want]);
            assert_eq!((na, a), (nb, b), "{name} rej_eta {eta}, case {case}");
        }

        // Rounding: Power2Round, Decompose, MakeHint, UseHint (all fixed).
        let w = match case {
            0 => [0; 256],
            1 => [Q - 1; 256],
            _ => random(&mut rng, 0, Q - 1),
        };
        let (mut a1, mut a0, mut b1, mut b0) = ([0; 256], [0; 256], [0; 256], [0; 256]);
        B::power2round(&w, &mut a1, &mut a0);
        Portable::power2round(&w, &mut b1, &mut b0);
        assert_eq!((a1, a0), (b1, b0), "{name} power2round, case {case}");
        // Decompose takes (-q, q): the cases above, and their negatives (q - 1 - w: every
        // value of [0, q) again once q is added back, -(q - 1) and 0 included).
        let w_neg = w.map(|x| x - (Q - 1));
        for gamma2 in [G88, G32] {
            for input in [&w, &w_neg] {
                (a0, b0) = (*input, *input);
                B::decompose(gamma2, &mut a0, &mut a1);
                Portable::decompose(gamma2, &mut b0, &mut b1);
                assert_eq!((a1, a0), (b1, b0), "{name} decompose {gamma2}, case {case}");
                // The same as Decompose of w mod q, coefficient by coefficient.
                for (j, &x) in input.iter().enumerate() {
                    let r = x.rem_euclid(Q);
                    let want = if gamma2 == G88 {
                        crate::rounding::decompose::<G88>(r)
                    } else {
                        crate::rounding::decompose::<G32>(r)
                    };
                    assert_eq!(
                        (b1[j], b0[j]),
                        want,
                        "{name} decompose {gamma2}, case {case}"
                    );
                }
            }
            let r0 = random(&mut rng, -gamma2 - 2, gamma2 + 2);
            let mut r1 = random(&mut rng, 0, (Q - 1) / (2 * gamma2) - 1);
            if case % 3 == 0 {
                r1[rng.gen_range(0..256)] = 0;
            }
            let (mut ha, mut hb) = ([!0; 4], [!0; 4]);
            let na = B::make_hint(gamma2, &r0, &r1, &mut ha);
            let nb = Portable::make_hint(gamma2, &r0, &r1, &mut hb);
            assert_eq!((na, ha), (nb, hb), "{name} make_hint {gamma2}, case {case}");
            let want: u32 = hb.iter().map(|w| w.count_ones()).sum();
            assert_eq!(nb, want as usize, "make_hint {gamma2}: count vs bits");
            let h = random(&mut rng, 0, 1);
            let (mut a, mut b) = (w, w);
            B::use_hint(gamma2, &h, &mut a);
            Portable::use_hint(gamma2, &h, &mut b);
            assert_eq!(a, b, "{name} use_hint {gamma2}, case {case}");
        }

        // The norm check, with one coefficient at, above or below the bound.
        for bound in [G88 - 78, G32 - 196, (1 << 17) - 78, (1 << 19) - 196, G32] {
            let mut f = random(&mut rng, -bound + 1, bound - 1);
            match case % 4 {
                0 => f[rng.gen_range(0..256)] = bound,
                1 => f[rng.gen_range(0..256)] = -bound,
                2 => f[rng.gen_range(0..256)] = bound - 1,
                _ => {}
            }
            assert_eq!(
                B::norm_exceeds(&f, bound),
                Portable::norm_exceeds(&f, bound),
                "{name} norm_exceeds {bound}, case {case}"
            );
        }

        // Packing: every (bits, b) the standard uses.
        for bits in [4usize, 6, 10] {
            let f = random(&mut rng, 0, (1 << bits) - 1);
            let (mut a, mut b) = ([0u8; 640], [0u8; 640]);
            B::simple_bit_pack(&f, bits, &mut a[..32 * bits]);
            Portable::simple_bit_pack(&f, bits, &mut b[..32 * bits]);
            assert_eq!(a, b, "{name} simple_bit_pack {bits}, case {case}");
            let bytes: Vec<u8> = (0..32 * bits).map(|_| rng.r#gen()).collect();
            let (mut a, mut b) = ([0; 256], [0; 256]);
            B::simple_bit_unpack(&bytes, bits, &mut a);
            Portable::simple_bit_unpack(&bytes, bits, &mut b);
            assert_eq!(a, b, "{name} simple_bit_unpack {bits}, case {case}");
        }
        for (bits, top) in [
            (3usize, 2),
            (4, 4),
            (13, 1 << 12),
            (18, 1 << 17),
            (20, 1 << 19),
        ] {
            let lo = if bits <= 4 {
                -top
            } else {
                top - (1 << bits) + 1
            };
            let f = random(&mut rng, lo, top);
            let (mut a, mut b) = ([0u8; 640], [0u8; 640]);
            B::bit_pack(&f, bits, top, &mut a[..32 * bits]);
            Portable::bit_pack(&f, bits, top, &mut b[..32 * bits]);
            assert_eq!(a, b, "{name} bit_pack {bits}, case {case}");
            let bytes: Vec<u8> = (0..32 * bits).map(|_| rng.r#gen()).collect();
            let (mut a, mut b) = ([0; 256], [0; 256]);
            B::bit_unpack(&bytes, bits, top, &mut a);
            Portable::bit_unpack(&bytes, bits, top, &mut b);
            assert_eq!(a, b, "{name} bit_unpack {bits}, case {case}");
        }
        // The coefficients of SampleInBall's c from its masks (negative within nonzero),
        // with every coefficient nonzero, every one negative, and random masks.
        let nonzero: [u64; 4] = match case {
            0 | 1 => [u64::MAX; 4],
            _ => core::array::from_fn(|_| rng.r#gen()),
        };
        let negative: [u64; 4] = match case {
            0 => [u64::MAX; 4],
            1 => [0; 4],
            _ => core::array::from_fn(|w| nonzero[w] & rng.r#gen::<u64>()),
        };
        let c = BallMasks { nonzero, negative };
        let (mut a, mut b) = ([7; 256], [7; 256]);
        B::ball_poly(&c, &mut a);
        Portable::ball_poly(&c, &mut b);
        assert_eq!(a, b, "{name} ball_poly, case {case}");
        assert!(
            a.iter().enumerate().all(|(k, &v)| v
                == ((nonzero[k / 64] >> (k % 64)) & 1) as i32
                    * (1 - 2 * ((negative[k / 64] >> (k % 64)) & 1) as i32)),
            "{name} ball_poly, case {case}"
        );
        cases += 1;
    }
    cases
}

#[test]
fn simd_back_ends_match_portable_kernel_by_kernel() {
    pqlab_testutil::backends::each_available(
        "ML-DSA kernels",
        CASES,
        |b| super::dispatch!(on b, B => check::<B>()),
    );
}
