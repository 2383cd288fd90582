//! `pqlab`: the command-line tool of the pqlab workspace. It generates keys, signs and
//! verifies, encapsulates and decapsulates with the workspace's own implementations of the NIST
//! post-quantum standards.
//!
//! The binary is thin: [`cli`] holds the grammar, [`commands`] the subcommands, [`algs`] the
//! registry of algorithms, [`keyfile`] and [`pkcs`] the key formats and [`io`] the file
//! handling. Exit status: 0 success, 1 a signature that does not verify, 2 a usage or input
//! error (one line on standard error).

mod algs;
mod cli;
mod commands;
mod compare;
mod compare_m4;
mod error;
mod hw;
mod io;
mod keyfile;
mod pkcs;
mod tls;

use std::io::Write;
use std::process::ExitCode;

use commands::Outcome;

/// Counts heap use for `pqlab compare` (forwards everything to the system allocator).
#[global_allocator]
static ALLOCATOR: pqlab_lab::probe::CountingAlloc = pqlab_lab::probe::CountingAlloc;

fn main() -> ExitCode {
    let cli = match cli::parse() {
        Ok(cli) => cli,
        Err(code) => return code,
    };
    match commands::run(cli.command) {
        Ok(Outcome::Success) => ExitCode::SUCCESS,
        Ok(Outcome::InvalidSignature) => ExitCode::from(1),
        Err(e) => {
            // If standard error is closed there is nowhere left to report to.
            let _ = writeln!(std::io::stderr(), "pqlab: error: {e}");
            ExitCode::from(2)
        }
    }
}
