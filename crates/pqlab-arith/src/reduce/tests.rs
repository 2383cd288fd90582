//! Tests of the reduction strategies: exhaustive over the NTT product ranges of q = 3329 and
//! q = 12289, sampled edges and random values (checked against `i128` arithmetic) over the
//! whole stated input range for every strategy and modulus, and the generalised K-RED on
//! 31-bit primes k * 2^24 +- l with k = 127.

use super::*;
use rand::{Rng, SeedableRng};

/// Checks one value against exact `i128` arithmetic: congruence to FACTOR * c and the stated
/// output bound.
fn check<S: Reduction>(c: i64) {
    assert!(c.abs() <= S::IN_MAX);
    let r = S::reduce(c);
    let q = i128::from(S::Q);
    assert_eq!(
        (i128::from(r) - i128::from(S::FACTOR) * i128::from(c)).rem_euclid(q),
        0,
        "{} q={} c={c} r={r}",
        S::NAME,
        S::Q
    );
    if c.abs() <= I32_IN_MAX {
        assert_eq!(
            i64::from(S::reduce_i32(c as i32)),
            r,
            "{} i32 path c={c}",
            S::NAME
        );
    }
    let bound = S::RULE.out_bound(c.abs());
    assert!(
        r.abs() <= bound && r.abs() <= S::OUT_MAX,
        "{} q={} c={c} r={r} bound={bound}",
        S::NAME,
        S::Q
    );
}

/// Edges (0, +-1, +-2^k +- 1, +-IN_MAX, multiples of q) and random values of every bit length.
fn sampled<S: Reduction>(seed: u64) {
    let max = S::IN_MAX;
    let mut edges = [0i64, 1, -1, max, -max, max - 1, -max + 1, S::Q, -S::Q].to_vec();
    for k in 1..63 {
        let p = 1i64 << k;
        for d in [-1, 0, 1] {
            for v in [p + d, -(p + d), S::Q * (p >> 32).max(1) + d] {
                if v.abs() <= max {
                    edges.push(v);
                }
            }
        }
    }
    for c in edges {
        check::<S>(c);
    }
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    for _ in 0..200_000 {
        let c = rng.r#gen::<i64>() >> rng.gen_range(0..63);
        check::<S>(c.clamp(-max, max));
    }
}

/// Every c with |c| <= bound, checked with 64-bit arithmetic (fast enough for 2^27 values).
fn exhaustive<S: Reduction>(bound: i64) {
    assert!(bound <= S::IN_MAX && bound < 1 << 31);
    let q = S::Q;
    let out = S::RULE.out_bound(bound);
    for c in -bound..=bound {
        let r = S::reduce(c);
        assert_eq!(
            i64::from(S::reduce_i32(c as i32)),
            r,
            "{} i32 path c={c}",
            S::NAME
        );
        let want = (S::FACTOR * c.rem_euclid(q)) % q;
        assert_eq!((r - want).rem_euclid(q), 0, "{} q={q} c={c} r={r}", S::NAME);
        assert!(r.abs() <= out, "{} q={q} c={c} r={r}", S::NAME);
    }
}

#[test]
fn constants() {
    assert_eq!(Montgomery::<Q_MLKEM, 16>::QINV, -3327);
    assert_eq!(Montgomery::<Q_MLDSA, 32>::QINV, 58_728_449);
    assert_eq!(Montgomery::<Q_FALCON, 16>::QINV, -12287);
    assert_eq!((Q_FALCON * Montgomery::<Q_FALCON, 16>::QINV) & 0xffff, 1);
    // Factors: Montgomery 2^-r, K-RED k, K2-RED k^2, Barrett 1.
    assert_eq!(
        Montgomery::<Q_MLDSA, 32>::FACTOR * ((1 << 32) % Q_MLDSA) % Q_MLDSA,
        1
    );
    assert_eq!(Montgomery::<Q_MLKEM, 16>::FACTOR * 65536 % Q_MLKEM, 1);
    assert_eq!(KRed::<1023, 13>::Q, Q_MLDSA);
    assert_eq!(KRed::<13, 8>::Q, Q_MLKEM);
    assert_eq!(KRed::<3, 12>::Q, Q_FALCON);
    assert_eq!(KRed::<1023, 13>::FACTOR, 1023);
    assert_eq!(K2Red::<1023, 13>::FACTOR, 1023 * 1023 % Q_MLDSA);
    assert_eq!(K2Red::<3, 12>::FACTOR, 9);
    assert_eq!(Barrett::<Q_MLKEM>::FACTOR, 1);
    const { assert!(!PlainRem::<Q_MLKEM>::CONSTANT_TIME && Barrett::<Q_MLKEM>::CONSTANT_TIME) };
    // Pre-scaled twiddles undo the factor.
    assert_eq!(prescale::<Montgomery<Q_MLDSA, 32>>(1), 4_193_792 - Q_MLDSA);
    assert_eq!(
        (prescale::<K2Red<3, 12>>(5) * 9).rem_euclid(Q_FALCON),
        5,
        "k^-2 pre-scaling"
    );
    // The 31-bit primes of the generalised tests.
    assert_eq!(KRedGeneral::<127, 24, 1>::Q, 2_130_706_433);
    assert_eq!(KRedGeneral::<127, 24, 12289>::Q, 2_130_718_721);
    assert_eq!(KRedGeneral::<127, 24, -28671>::Q, 2_130_677_761);
    assert_eq!(KRedGeneral::<127, 24, 15>::Q, 2_130_706_447);
    assert_eq!(KRedGeneral::<127, 24, -51>::Q, 2_130_706_381);
}

#[test]
fn output_ranges_of_the_ntt_inputs() {
    // Montgomery: |out| < q for |c| < 2^(r-1) q.
    assert!(Montgomery::<Q_MLKEM, 16>::RULE.out_bound((1 << 15) * Q_MLKEM - 1) <= Q_MLKEM);
    assert!(Montgomery::<Q_MLDSA, 32>::RULE.out_bound((1 << 31) * Q_MLDSA - 1) <= Q_MLDSA);
    // Barrett: about q/2 for products of two reduced values.
    assert!(Barrett::<Q_MLDSA>::RULE.out_bound(Q_MLDSA * Q_MLDSA) <= Q_MLDSA / 2 + 64);
    // K2-RED on a Falcon product of a twiddle and a reduced value stays below q.
    assert!(K2Red::<3, 12>::RULE.out_bound(Q_FALCON * Q_FALCON) < Q_FALCON);
}

#[test]
fn exhaustive_q3329() {
    // Every product of a centred twiddle and an i16: |c| <= 1664 * 2^15.
    let b = 1664 * (1 << 15);
    exhaustive::<Montgomery<Q_MLKEM, 16>>(b);
    exhaustive::<Barrett<Q_MLKEM>>(b);
    exhaustive::<KRed<13, 8>>(b);
    exhaustive::<K2Red<13, 8>>(b);
    exhaustive::<PlainRem<Q_MLKEM>>(b);
    exhaustive::<KRedGeneral<13, 8, 1>>(b);
}

#[test]
fn exhaustive_q12289() {
    // Every product of a centred twiddle and a value below 2^14 in absolute value.
    let b = 6144 * (1 << 14);
    exhaustive::<Montgomery<Q_FALCON, 16>>(b);
    exhaustive::<Barrett<Q_FALCON>>(b);
    exhaustive::<KRed<3, 12>>(b);
    exhaustive::<K2Red<3, 12>>(b);
    exhaustive::<PlainRem<Q_FALCON>>(b);
}

#[test]
fn sampled_q3329() {
    sampled::<Montgomery<Q_MLKEM, 16>>(1);
    sampled::<Montgomery<Q_MLKEM, 32>>(2);
    sampled::<Barrett<Q_MLKEM>>(3);
    sampled::<KRed<13, 8>>(4);
    sampled::<K2Red<13, 8>>(5);
    sampled::<KRedGeneral<13, 8, 1>>(6);
    sampled::<PlainRem<Q_MLKEM>>(7);
}

#[test]
fn sampled_q8380417() {
    sampled::<Montgomery<Q_MLDSA, 32>>(11);
    sampled::<Barrett<Q_MLDSA>>(12);
    sampled::<KRed<1023, 13>>(13);
    sampled::<K2Red<1023, 13>>(14);
    sampled::<KRedGeneral<1023, 13, 1>>(15);
    // q = 2^23 - 8191: k = 1, l = -8191 (a pseudo-Mersenne form).
    sampled::<KRedGeneral<1, 23, -8191>>(16);
    sampled::<PlainRem<Q_MLDSA>>(17);
    // Every product of a centred twiddle and a coefficient below 2^27, sampled densely.
    let mut rng = rand::rngs::StdRng::seed_from_u64(18);
    for _ in 0..1_000_000 {
        let c = rng.gen_range(-(1i64 << 49)..=1 << 49);
        check::<Montgomery<Q_MLDSA, 32>>(c);
        check::<Barrett<Q_MLDSA>>(c);
        check::<K2Red<1023, 13>>(c);
    }
}

#[test]
fn sampled_q12289() {
    sampled::<Montgomery<Q_FALCON, 16>>(21);
    sampled::<Montgomery<Q_FALCON, 32>>(22);
    sampled::<Barrett<Q_FALCON>>(23);
    sampled::<KRed<3, 12>>(24);
    sampled::<K2Red<3, 12>>(25);
    sampled::<KRedGeneral<3, 12, 1>>(26);
    sampled::<PlainRem<Q_FALCON>>(27);
}

#[test]
fn generalised_kred_on_31_bit_primes() {
    // q = 127 * 2^24 + l for l = 1, 12289 (both = 1 mod 2048), 15, and
    // q = 127 * 2^24 - l for l = 28671 (= 1 mod 2048), 51; all prime (checked below).
    sampled::<KRedGeneral<127, 24, 1>>(31);
    sampled::<KRedGeneral<127, 24, 12289>>(32);
    sampled::<KRedGeneral<127, 24, 15>>(33);
    sampled::<KRedGeneral<127, 24, -28671>>(34);
    sampled::<KRedGeneral<127, 24, -51>>(35);
    for q in [
        KRedGeneral::<127, 24, 1>::Q,
        KRedGeneral::<127, 24, 12289>::Q,
        KRedGeneral::<127, 24, 15>::Q,
        KRedGeneral::<127, 24, -28671>::Q,
        KRedGeneral::<127, 24, -51>::Q,
    ] {
        // Miller-Rabin with the bases 2, 3, 5, 7 is exact below 3.2 * 10^9.
        let mut d = q - 1;
        let mut s = 0;
        while d % 2 == 0 {
            d /= 2;
            s += 1;
        }
        for a in [2, 3, 5, 7] {
            let mut x = pow_mod(a, d as u64, q);
            let mut ok = x == 1 || x == q - 1;
            for _ in 1..s {
                x = x * x % q;
                ok |= x == q - 1;
            }
            assert!(ok, "{q} is not prime");
        }
        // The Montgomery products of the NTRU solver (< 2^62) and Barrett also work there.
    }
    sampled::<Montgomery<2_130_718_721, 32>>(36);
    sampled::<Barrett<2_130_718_721>>(37);
}
