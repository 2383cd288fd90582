//! Tests of the emulated back end against the hardware's binary64 arithmetic, bit for bit
//! (signed zeros included; results below the normal range are expected flushed to zero).

extern crate std;

use super::inv::approx_quotient;
use super::{Fpr, mant_mul_limbs, mant_mul_wide};

/// A xorshift generator (deterministic, no dependency).
fn next(s: &mut u64) -> u64 {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    *s
}

fn f(x: f64) -> Fpr {
    Fpr::from_bits(x.to_bits())
}

/// The expected bits for the hardware result `w`: itself, or its signed zero when `w` is
/// subnormal (flushed). None when `w` is infinite or NaN (not handled by the emulation).
fn expected(w: f64) -> Option<u64> {
    if !w.is_finite() {
        None
    } else if w != 0.0 && !w.is_normal() {
        Some(w.to_bits() & (1 << 63))
    } else {
        Some(w.to_bits())
    }
}

/// Checks every binary operation on (a, b) and the unary ones on a; returns how many ran.
fn check_pair(a: f64, b: f64) -> u32 {
    let (x, y) = (f(a), f(b));
    let mut n = 0;
    let mut chk = |got: Fpr, want: f64, op: &str| {
        if let Some(w) = expected(want) {
            // The smallest normal rounded up from below the normal range may be flushed.
            let g = got.to_bits();
            let flushed = want.abs() == f64::MIN_POSITIVE && g == w & (1 << 63);
            assert!(
                g == w || flushed,
                "{op}: {a:e} ({:#x}) {b:e} ({:#x}): {g:#x}, want {w:#x}",
                a.to_bits(),
                b.to_bits()
            );
            n += 1;
        }
    };
    chk(x.add(y), a + b, "add");
    chk(x.sub(y), a - b, "sub");
    chk(y.add(x), b + a, "add (swapped)");
    chk(x.mul(y), a * b, "mul");
    chk(x.sqr(), a * a, "sqr");
    chk(x.half(), a * 0.5, "half");
    chk(x.double(), a + a, "double");
    if b != 0.0 {
        chk(x.div(y), a / b, "div");
    }
    if a != 0.0 {
        chk(x.inv(), 1.0 / a, "inv");
    }
    if a.is_sign_positive() {
        chk(x.sqrt(), a.sqrt(), "sqrt");
    }
    n
}

/// A random normal value with biased exponent in [lo, hi], random sign.
fn rnd_exp(s: &mut u64, lo: u64, hi: u64) -> f64 {
    let r = next(s);
    let e = lo + (next(s) % (hi - lo + 1));
    f64::from_bits((r & (1 << 63)) | (e << 52) | (r & ((1 << 52) - 1)))
}

#[test]
fn random_operands_match_native() {
    let mut s = 0x9E37_79B9_7F4A_7C15u64;
    let mut n = 0u32;
    for i in 0..400_000 {
        let (a, b) = match i % 4 {
            // Moderate exponents (the values of Falcon).
            0 => (rnd_exp(&mut s, 983, 1063), rnd_exp(&mut s, 983, 1063)),
            // Any exponent: alignment shifts beyond 64 bits, under- and overflow.
            1 => (rnd_exp(&mut s, 1, 2046), rnd_exp(&mut s, 1, 2046)),
            // Exponents near the bottom (products and quotients flushed to zero or just above).
            2 => (rnd_exp(&mut s, 1, 600), rnd_exp(&mut s, 400, 1100)),
            // Close exponents: cancellation in add and sub.
            _ => {
                let a = rnd_exp(&mut s, 1000, 1040);
                let e = ((a.to_bits() >> 52) & 0x7FF) - (next(&mut s) % 3);
                (a, rnd_exp(&mut s, e, e))
            }
        };
        n += check_pair(a, b);
    }
    assert!(n > 3_000_000, "{n}");
}

#[test]
fn edge_operands_match_native() {
    let mut s = 0x0DDB_A11C_AFE5_F00Du64;
    let mut n = 0u32;
    // Zeros of both signs, with zeros and with values.
    for a in [
        0.0f64,
        -0.0,
        1.0,
        -1.0,
        1.5e-300,
        -3.25e300,
        f64::MIN_POSITIVE,
    ] {
        for b in [
            0.0f64,
            -0.0,
            2.0,
            -7.5,
            f64::MIN_POSITIVE,
            -f64::MIN_POSITIVE,
        ] {
            n += check_pair(a, b);
        }
    }
    for _ in 0..100_000 {
        let a = rnd_exp(&mut s, 900, 1200);
        let ab = a.to_bits();
        // Exact and near cancellation: b = -a, -a +- a few ulps, -a / 2 and -2 a nearby.
        let k = next(&mut s) % 8;
        for bb in [ab, ab + k, ab - k, ab - (1 << 52) + k, ab + (1 << 52) - k] {
            n += check_pair(a, -f64::from_bits(bb));
            n += check_pair(a, f64::from_bits(bb));
        }
        // Ties: an integer of 53 bits (ulp 1) or 54 bits (ulp 2) plus a half-ulp multiple.
        let m = ((next(&mut s) >> 11) | (1 << 52)) as f64;
        let h = (next(&mut s) % 64) as f64 + 0.5;
        for (a, b) in [
            (m, h),
            (m, -h),
            (-m, h),
            (2.0 * m, 2.0 * h),
            (2.0 * m + 2.0, -1.0),
        ] {
            n += check_pair(a, b);
        }
        // Mantissas all ones and the carry of rounding into the exponent.
        let e = 1 + next(&mut s) % 2045;
        let ones = f64::from_bits((e << 52) | ((1 << 52) - 1));
        let one = f64::from_bits(e << 52);
        for b in [ones, one, 1.0 + f64::EPSILON, 1.0 - f64::EPSILON / 2.0, 3.0] {
            n += check_pair(ones, b);
            n += check_pair(one, b);
        }
    }
    assert!(n > 2_000_000, "{n}");
}

#[test]
fn reciprocal_edges_match_native() {
    let mut s = 0x5EED_0000_1234_5678u64;
    let mut n = 0u32;
    for e in [1u64, 2, 500, 1022, 1023, 1024, 1500, 2043, 2044, 2045, 2046] {
        for fr in (0..256).chain(((1 << 52) - 256)..(1 << 52)) {
            for sign in [0, 1u64 << 63] {
                let x = f64::from_bits(sign | (e << 52) | fr);
                assert_eq!(
                    f(x).inv().to_bits(),
                    expected(1.0 / x).unwrap(),
                    "1 / {x:e}"
                );
                n += 1;
            }
        }
    }
    // Mantissas whose reciprocal is close to a rounding boundary: m near 2^105 / k for odd k.
    for _ in 0..300_000 {
        let k = (next(&mut s) >> 11) | (1 << 52) | 1;
        let m = ((1u128 << 105) / u128::from(k)) as u64;
        for d in [0u64, 1, 2] {
            let m = (m + d).clamp(1 << 52, (1 << 53) - 1);
            let x = f64::from_bits((1023 << 52) | (m & ((1 << 52) - 1)));
            assert_eq!(f(x).inv().to_bits(), (1.0 / x).to_bits(), "1 / {x:e}");
            n += 1;
        }
    }
    assert!(n > 900_000);
}

/// The quotient estimate of the reciprocal is within the one unit its two corrections fix.
#[test]
fn reciprocal_estimate_is_within_one() {
    let mut s = 0xFEED_FACE_DEAD_BEEFu64;
    let check = |m: u64| {
        let q = (((1u128 << 106) - 1) / u128::from(m)) as i64;
        let d = approx_quotient(m) - q;
        assert!((-1..=1).contains(&d), "m = {m:#x}: {d}");
    };
    for k in 0..65536u64 {
        check((1 << 52) + k);
        check((1 << 53) - 1 - k);
        check((1 << 52) + (k << 36));
    }
    for _ in 0..2_000_000 {
        check((next(&mut s) >> 12) | (1 << 52));
    }
}

/// The two mantissa products (one 128-bit product, four 32-bit ones) agree, and equal the
/// high half of the exact product with the sticky bit.
#[test]
fn mantissa_products_agree() {
    let mut s = 0xABCD_EF01_2345_6789u64;
    let check = |a: u64, b: u64| {
        let p = u128::from(a) * u128::from(b);
        let want = ((p >> 43) as u64) | u64::from(p & ((1 << 43) - 1) != 0);
        assert_eq!(mant_mul_wide(a, b), want, "{a:#x} {b:#x}");
        assert_eq!(mant_mul_limbs(a, b), want, "{a:#x} {b:#x}");
    };
    let xs = [
        1u64 << 52,
        (1 << 52) + 1,
        (1 << 53) - 1,
        0x1F_FFFF_0000_0000,
    ];
    let ys = [
        1u64 << 52,
        (1 << 52) + (1 << 21),
        (1 << 53) - 2,
        0x1F_FFFF_FFFF_F800,
    ];
    for &a in &xs {
        for &b in &ys {
            check(a, b);
        }
    }
    for _ in 0..1_000_000 {
        // Random mantissas, and with runs of low zero bits (products whose low 43 bits are
        // zero: the sticky bit).
        let a = (next(&mut s) >> 11) | (1 << 52);
        let b = (next(&mut s) >> 11) | (1 << 52);
        check(a, b);
        let k = next(&mut s) % 53;
        check(
            a >> k << k | (1 << 52),
            b >> (43 - k.min(43)) << (43 - k.min(43)) | (1 << 52),
        );
    }
}

#[test]
fn conversions_match_native() {
    let mut s = 0x1357_9BDF_2468_ACE0u64;
    for _ in 0..500_000 {
        let r = next(&mut s);
        // Integers of every size (exact below 2^53, rounded above).
        let i = (r as i64) >> (next(&mut s) % 64);
        assert_eq!(Fpr::of(i).to_bits(), (i as f64).to_bits(), "of {i}");
        // Values below 2^62 in magnitude, with fractions, halves and integers.
        let a = match r % 4 {
            0 => rnd_exp(&mut s, 900, 1023 + 62),
            3 => rnd_exp(&mut s, 1015, 1030),
            1 => ((next(&mut s) % 20001) as f64 - 10000.0) * 0.5,
            _ => rnd_exp(&mut s, 1, 1023 + 61),
        };
        assert_eq!(f(a).trunc(), a as i64, "trunc {a:e}");
        assert_eq!(f(a).floor(), a.floor() as i64, "floor {a:e}");
        assert_eq!(f(a).rint(), a.round_ties_even() as i64, "rint {a:e}");
    }
    for (a, r, fl) in [
        (2.5f64, 2, 2),
        (-2.5, -2, -3),
        (-0.5, 0, -1),
        (0.5, 0, 0),
        (3.5, 4, 3),
    ] {
        assert_eq!(f(a).rint(), r, "rint {a}");
        assert_eq!(f(a).floor(), fl, "floor {a}");
    }
    for a in [
        0.0f64,
        -0.0,
        4503599627370497.0,
        -4503599627370497.5,
        1e-310,
        -1e-310,
        0.5,
        -0.5,
        0.49999999999999994,
        -0.49999999999999994,
        0.5000000000000001,
        1.5,
        -1.5,
        f64::MIN_POSITIVE,
        -f64::MIN_POSITIVE,
        4611686018427387904.0,
        -9223372036854774784.0,
        9223372036854774784.0,
    ] {
        assert_eq!(f(a).trunc(), a as i64);
        assert_eq!(f(a).floor(), a.floor() as i64);
        assert_eq!(f(a).rint(), a.round_ties_even() as i64);
    }
}

/// Sums with a zero (the sticky bit a zero y may get) and with the smallest and largest
/// alignment shifts, for every exponent, both signs.
#[test]
fn sums_with_zeros_and_every_shift_match_native() {
    let mut s = 0x0F0F_1E1E_2D2D_3C3Cu64;
    let mut n = 0u32;
    for e in 1..2047u64 {
        for _ in 0..8 {
            let a = f64::from_bits((next(&mut s) & ((1 << 63) | ((1 << 52) - 1))) | (e << 52));
            n += check_pair(a, 0.0) + check_pair(a, -0.0) + check_pair(0.0, a);
            // b = a 2^-k for k up to 70 (shifts 0 to 70), with a random mantissa.
            let k = next(&mut s) % 71;
            if e > k + 1 {
                let b = f64::from_bits(
                    (next(&mut s) & ((1 << 63) | ((1 << 52) - 1))) | ((e - k) << 52),
                );
                n += check_pair(a, b) + check_pair(b, a);
            }
        }
    }
    assert!(n > 400_000, "{n}");
}
