//! Reference answers for the hardware lab (`hw/`).
//!
//! Each binary in `src/bin/` computes, with pqlab's own library code, the answers an RTL core of
//! `hw/` must reproduce in simulation, and prints them as text the Python test benches parse
//! (one value per token, decimal or lower-case hex). The test benches never carry their own copy
//! of the arithmetic they check, except where no pqlab code exists (the MQDSS map).

use std::io::Write;

/// Writes `values` as one line of space-separated decimal numbers to standard output.
///
/// # Errors
/// Returns the I/O error of standard output.
pub fn print_line<T: core::fmt::Display>(values: &[T]) -> std::io::Result<()> {
    let mut out = std::io::stdout().lock();
    for (i, v) in values.iter().enumerate() {
        if i > 0 {
            out.write_all(b" ")?;
        }
        write!(out, "{v}")?;
    }
    out.write_all(b"\n")
}
