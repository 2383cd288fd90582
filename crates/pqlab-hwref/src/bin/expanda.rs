//! Reference answers for the ExpandA sampler (`hw/pqlab_hw/cores/expanda.py`).
//!
//! Reads requests from standard input, one a line: the 32 bytes of rho, then i (row) and j
//! (column). Prints, one a line, the 256 coefficients of A_hat\[i\]\[j\] = RejNTTPoly(rho || j || i)
//! (FIPS 204, Algorithm 32, line 4), then a line with the number of SHAKE128 blocks squeezed.

use std::process::ExitCode;

use pqlab_keccak::Shake128;

/// The ML-DSA modulus q.
const Q: u32 = 8_380_417;

/// FIPS 204, Algorithm 30: RejNTTPoly(rho) for the 34-byte seed, from SHAKE128 of
/// `pqlab_keccak`: 3-byte little-endian candidates, the top bit cleared (Algorithm 14,
/// CoeffFromThreeBytes), kept when below q, until 256 coefficients. Returns the polynomial and
/// the number of 168-byte blocks squeezed.
fn rej_ntt_poly(seed: &[u8; 34]) -> ([u32; 256], usize) {
    let mut h = Shake128::new();
    h.absorb(seed);
    let mut reader = h.finalize();
    let mut a = [0u32; 256];
    let mut j = 0;
    let mut blocks = 0;
    while j < 256 {
        let block = reader.squeeze_block();
        blocks += 1;
        for c in block.chunks_exact(3) {
            let z = (u32::from(c[0]) | u32::from(c[1]) << 8 | u32::from(c[2]) << 16) & 0x7f_ffff;
            if z < Q && j < 256 {
                a[j] = z;
                j += 1;
            }
        }
    }
    (a, blocks)
}

fn run() -> Result<(), String> {
    for (n, line) in pqlab_hwref::input_lines()?.iter().enumerate() {
        let bytes: Option<Vec<u8>> = line.split_whitespace().map(|t| t.parse().ok()).collect();
        let Some(bytes) = bytes.filter(|b| b.len() == 34) else {
            return Err(format!("line {}: expected 34 bytes (rho, i, j)", n + 1));
        };
        let mut seed = [0u8; 34];
        seed[..32].copy_from_slice(&bytes[..32]);
        // rho || IntegerToBytes(s, 1) || IntegerToBytes(r, 1) for the entry A_hat[r][s].
        seed[32] = bytes[33];
        seed[33] = bytes[32];
        let (a, blocks) = rej_ntt_poly(&seed);
        pqlab_hwref::output(&a)?;
        pqlab_hwref::output(&[blocks])?;
    }
    Ok(())
}

fn main() -> ExitCode {
    pqlab_hwref::exit_status("expanda", run())
}
