//! Differential floating point: pqlab-falcon's emulated binary64 (`fpr-emu`, Falcon spec v1.2,
//! Section 3.8 and the reference's `fpr` emulation) against the CPU's IEEE-754 f64 (round to
//! nearest even), over the domain the emulation documents: normal or zero operands (subnormal
//! operands read as zero), results flushed to signed zero below the normal range, no infinities
//! or NaNs. Checked: add, sub, mul, div, neg, half, double, sqr, inv (2^-1022 <= |a| < 2^1021),
//! sqrt (a >= 0), of (i64), rint (|a| < 2^51), floor and trunc (|a| < 2^63), lt.
//! (The native and emulated Falcon cannot be linked into one binary: the feature swaps the
//! type, so the whole-signer comparison is the KAT tests run under each.)
#![no_main]

use libfuzzer_sys::fuzz_target;
use pqlab_falcon::fpr::Fpr;

/// Subnormals read as (signed) zero, as the emulation reads them.
fn flush_in(x: f64) -> f64 {
    if x != 0.0 && x.abs() < f64::MIN_POSITIVE {
        0.0f64.copysign(x)
    } else {
        x
    }
}

/// The emulation's expected result for the exact IEEE result `r`: below the normal range,
/// signed zero; None when the result is out of the emulation's domain (overflow).
fn expect(r: f64) -> Option<u64> {
    if !r.is_finite() {
        return None;
    }
    Some(flush_in(r).to_bits())
}

/// An operand from 8 bytes: finite, subnormals read as zero; the exponent byte is folded so
/// that most values stay far from overflow.
fn operand(bits: u64) -> f64 {
    let x = f64::from_bits(bits);
    if !x.is_finite() {
        return f64::from_bits(bits & !(0x7FFu64 << 52) | (1023u64 << 52));
    }
    flush_in(x)
}

fn same(op: &str, a: f64, b: f64, got: Fpr, want: f64) {
    if let Some(w) = expect(want) {
        // At the bottom of the normal range the emulation flushes by the exact result, IEEE
        // rounds first: an exact result just below 2^-1022 that rounds up to 2^-1022 may come
        // out as signed zero (documented: "results below the normal range are flushed").
        let boundary =
            want.abs() == f64::MIN_POSITIVE && got.to_bits() == 0f64.copysign(want).to_bits();
        assert!(
            got.to_bits() == w || boundary,
            "{op}({a:e} [{:#x}], {b:e} [{:#x}]): got {:e} [{:#x}], want {want:e} [{w:#x}]",
            a.to_bits(),
            b.to_bits(),
            f64::from_bits(got.to_bits()),
            got.to_bits()
        );
    }
}

fuzz_target!(|data: &[u8]| {
    if data.len() < 17 {
        return;
    }
    let op = data[0];
    let a = operand(u64::from_le_bytes(data[1..9].try_into().unwrap()));
    let b = operand(u64::from_le_bytes(data[9..17].try_into().unwrap()));
    let (fa, fb) = (Fpr::from_bits(a.to_bits()), Fpr::from_bits(b.to_bits()));
    match op % 14 {
        0 => same("add", a, b, fa.add(fb), a + b),
        1 => same("sub", a, b, fa.sub(fb), a - b),
        2 => same("mul", a, b, fa.mul(fb), a * b),
        3 => {
            if b != 0.0 {
                same("div", a, b, fa.div(fb), a / b)
            }
        }
        4 => same("neg", a, b, fa.neg(), -a),
        5 => same("half", a, b, fa.half(), a / 2.0),
        6 => same("double", a, b, fa.double(), a * 2.0),
        7 => same("sqr", a, b, fa.sqr(), a * a),
        8 => {
            if a.abs() >= f64::MIN_POSITIVE && a.abs() < 2f64.powi(1021) {
                same("inv", a, b, fa.inv(), 1.0 / a)
            }
        }
        9 => {
            let a = a.abs();
            same("sqrt", a, b, Fpr::from_bits(a.to_bits()).sqrt(), a.sqrt())
        }
        10 => {
            let i = u64::from_le_bytes(data[1..9].try_into().unwrap()) as i64;
            let got = Fpr::of(i);
            assert_eq!(got.to_bits(), (i as f64).to_bits(), "of({i})");
        }
        11 => {
            if a.abs() < 2f64.powi(51) {
                assert_eq!(fa.rint(), a.round_ties_even() as i64, "rint({a:e})");
            }
        }
        12 => {
            if a.abs() < 2f64.powi(63) {
                assert_eq!(fa.floor(), a.floor() as i64, "floor({a:e})");
                assert_eq!(fa.trunc(), a.trunc() as i64, "trunc({a:e})");
            }
        }
        _ => assert_eq!(fa.lt(fb), a < b, "lt({a:e}, {b:e})"),
    }
});
