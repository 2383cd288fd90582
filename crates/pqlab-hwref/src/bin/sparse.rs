//! ML-DSA's c * s1 computed by pqlab, for the sparse multiplier of the hardware lab
//! (`hw/pqlab_hw/cores/sparse.py`).
//!
//! Standard input: pairs of lines, first the challenge c as 256 coefficients in {-1, 0, 1}
//! (tau nonzero: SampleInBall's output shape), then the dense polynomial s as 256 coefficients
//! in [0, q). Standard output, per pair: c * s in Z_q\[X\]/(X^256 + 1), coefficients in [0, q).
//!
//! The product is the one pqlab-mldsa's default signer computes for c * s1 (FIPS 204,
//! Algorithm 7, line 17 with the NTTs of Algorithms 41, 42 and MultiplyNTT, Algorithm 45), from
//! pqlab-arith's public kernels: NTT(c) o NTT(s), then the inverse NTT. pqlab-mldsa's own sparse
//! product (`sparse::SparseC::mul`, the small-memory build) and its SampleInBall are
//! crate-private, so they cannot be called from here; pqlab-mldsa's unit test
//! `sparse_product_equals_ntt_product` asserts that the two products are equal.
use pqlab_arith::mldsa::{Q, inv_ntt_to_mont, ntt, pointwise_montgomery};
use std::process::ExitCode;

fn parse(line: &str, lo: i64, hi: i64) -> Result<[i32; 256], String> {
    let mut a = [0i32; 256];
    let mut n = 0;
    for t in line.split_whitespace() {
        let v: i64 = t.parse().map_err(|e| format!("{t:?}: {e}"))?;
        if !(lo..=hi).contains(&v) || n == 256 {
            return Err(format!(
                "coefficient {v} out of range or more than 256 coefficients"
            ));
        }
        a[n] = v as i32;
        n += 1;
    }
    if n != 256 {
        return Err(format!("expected 256 coefficients, got {n}"));
    }
    Ok(a)
}

fn run() -> Result<(), String> {
    let lines = pqlab_hwref::input_lines()?;
    if !lines.len().is_multiple_of(2) {
        return Err("expected pairs of lines (c, then s)".into());
    }
    for pair in lines.chunks_exact(2) {
        let mut c = parse(&pair[0], -1, 1)?;
        let mut s = parse(&pair[1], 0, i64::from(Q) - 1)?;
        // Centre s so that |s| < q/2 < q, the NTT's input bound.
        for x in s.iter_mut() {
            if *x > Q / 2 {
                *x -= Q;
            }
        }
        ntt(&mut c);
        ntt(&mut s);
        let mut p = [0i32; 256];
        pointwise_montgomery(&mut p, &c, &s);
        inv_ntt_to_mont(&mut p);
        let out: Vec<i64> = p
            .iter()
            .map(|&x| i64::from(x).rem_euclid(i64::from(Q)))
            .collect();
        pqlab_hwref::output(&out)?;
    }
    Ok(())
}

fn main() -> ExitCode {
    pqlab_hwref::exit_status("sparse", run())
}
