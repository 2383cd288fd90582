//! Reference answers for the Keccak-f\[1600\] core (`hw/pqlab_hw/cores/keccak.py`).
//!
//! Reads states from standard input, one a line: 25 lanes `A[x + 5y]` as 64-bit numbers
//! (decimal, or hexadecimal with `0x`). Prints, one a line, the 25 lanes of
//! Keccak-f\[1600\] of each state (FIPS 202, Algorithm 7), computed by `pqlab_keccak`.

use std::process::ExitCode;

fn parse_u64(token: &str) -> Option<u64> {
    match token.strip_prefix("0x") {
        Some(hex) => u64::from_str_radix(hex, 16).ok(),
        None => token.parse().ok(),
    }
}

fn run() -> Result<(), String> {
    for (n, line) in pqlab_hwref::input_lines()?.iter().enumerate() {
        let lanes: Option<Vec<u64>> = line.split_whitespace().map(parse_u64).collect();
        let Some(mut a) = lanes.and_then(|v| <[u64; 25]>::try_from(v).ok()) else {
            return Err(format!(
                "line {}: expected 25 lanes (64-bit numbers)",
                n + 1
            ));
        };
        pqlab_keccak::keccak_f1600(&mut a);
        pqlab_hwref::output(&a)?;
    }
    Ok(())
}

fn main() -> ExitCode {
    pqlab_hwref::exit_status("keccak", run())
}
