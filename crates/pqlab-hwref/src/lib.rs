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

/// [`print_line`] with the error as text, for the binaries' `Result<(), String>` bodies.
///
/// # Errors
/// Says that standard output failed.
pub fn output<T: core::fmt::Display>(values: &[T]) -> Result<(), String> {
    print_line(values).map_err(|e| format!("standard output: {e}"))
}

/// The non-empty lines of standard input.
///
/// # Errors
/// Says that standard input could not be read.
pub fn input_lines() -> Result<Vec<String>, String> {
    use std::io::BufRead;
    let mut lines = Vec::new();
    for line in std::io::stdin().lock().lines() {
        let line = line.map_err(|e| format!("standard input: {e}"))?;
        if !line.trim().is_empty() {
            lines.push(line);
        }
    }
    Ok(lines)
}

/// The exit status of binary `name` whose body returned `result`: success, or the error on
/// standard error as one line `name: error` and status 2.
pub fn exit_status(name: &str, result: Result<(), String>) -> std::process::ExitCode {
    match result {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{name}: {e}");
            std::process::ExitCode::from(2)
        }
    }
}
