//! pqlab's forward and inverse NTTs, for the NTT core of the hardware lab (`hw/pqlab_hw/cores/ntt.py`).
//!
//! Usage: `ntt SCHEME DIRECTION` with SCHEME `mldsa` (q = 8380417, n = 256), `mlkem`
//! (q = 3329, n = 256, the 7-layer incomplete NTT) or `falcon` (q = 12289, n = the line's length)
//! and DIRECTION `fwd` or `inv`. Standard input: one polynomial per line (n coefficients in
//! [0, q)); standard output: pqlab's transform of each, in pqlab's coefficient order and domain,
//! as the canonical representatives in [0, q):
//!
//! * `mldsa`: `pqlab_arith::mldsa::ntt` (FIPS 204, Algorithm 41) and `inv_ntt_to_mont`
//!   (Algorithm 42, times 2^32);
//! * `mlkem`: `pqlab_arith::mlkem::ntt` (FIPS 203, Algorithm 9) and `inv_ntt_to_mont`
//!   (Algorithm 10, times 2^16);
//! * `falcon`: `pqlab_arith::falcon::ntt` and `intt` (Falcon v1.2, Section 3.6; with n^-1).
//!
//! The library's lazy reductions leave some outputs outside [0, q) (ML-DSA's NTT below 9q in
//! absolute value, ML-KEM's centred); the same residue is printed in [0, q), which is what the
//! RTL produces (its reductions are complete).
use std::process::ExitCode;

fn canonical(v: i64, q: i64) -> i64 {
    v.rem_euclid(q)
}

fn transform(scheme: &str, inverse: bool, coeffs: &[i64]) -> Result<Vec<i64>, String> {
    match scheme {
        "mldsa" => {
            let q = i64::from(pqlab_arith::mldsa::Q);
            let mut a: [i32; 256] = to_array(coeffs)?;
            if inverse {
                pqlab_arith::mldsa::inv_ntt_to_mont(&mut a);
            } else {
                pqlab_arith::mldsa::ntt(&mut a);
            }
            Ok(a.iter().map(|&x| canonical(i64::from(x), q)).collect())
        }
        "mlkem" => {
            let q = i64::from(pqlab_arith::mlkem::Q);
            let mut a: [i16; 256] = to_array(coeffs)?;
            if inverse {
                pqlab_arith::mlkem::inv_ntt_to_mont(&mut a);
            } else {
                pqlab_arith::mlkem::ntt(&mut a);
            }
            Ok(a.iter().map(|&x| canonical(i64::from(x), q)).collect())
        }
        "falcon" => {
            let q = i64::from(pqlab_arith::falcon::Q);
            let n = coeffs.len();
            if !n.is_power_of_two() || !(2..=pqlab_arith::falcon::MAX_N).contains(&n) {
                return Err(format!(
                    "falcon: length {n} is not a power of two in 2..=1024"
                ));
            }
            let mut a = Vec::with_capacity(n);
            for &c in coeffs {
                a.push(u16::try_from(c).map_err(|_| format!("coefficient {c} out of range"))?);
            }
            if inverse {
                pqlab_arith::falcon::intt(&mut a);
            } else {
                pqlab_arith::falcon::ntt(&mut a);
            }
            Ok(a.iter().map(|&x| canonical(i64::from(x), q)).collect())
        }
        other => Err(format!("unknown scheme {other:?} (mldsa, mlkem, falcon)")),
    }
}

fn to_array<T: TryFrom<i64> + Copy + Default, const N: usize>(c: &[i64]) -> Result<[T; N], String> {
    if c.len() != N {
        return Err(format!("expected {N} coefficients, got {}", c.len()));
    }
    let mut a = [T::default(); N];
    for (x, &v) in a.iter_mut().zip(c) {
        *x = T::try_from(v).map_err(|_| format!("coefficient {v} out of range"))?;
    }
    Ok(a)
}

fn run() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [scheme, direction] = args.as_slice() else {
        return Err("usage: ntt mldsa|mlkem|falcon fwd|inv < polynomials".into());
    };
    let inverse = match direction.as_str() {
        "fwd" => false,
        "inv" => true,
        other => return Err(format!("unknown direction {other:?} (fwd, inv)")),
    };
    for line in pqlab_hwref::input_lines()? {
        let coeffs = line
            .split_whitespace()
            .map(|t| t.parse::<i64>().map_err(|e| format!("{t:?}: {e}")))
            .collect::<Result<Vec<_>, _>>()?;
        let out = transform(scheme, inverse, &coeffs)?;
        pqlab_hwref::output(&out)?;
    }
    Ok(())
}

fn main() -> ExitCode {
    pqlab_hwref::exit_status("ntt", run())
}
