//! Integration tests of the command line in one test binary: each test binary links the whole
//! of pqlab again (about 9 s of CI's release build apiece). The modules are the former binaries
//! (`cargo test -p pqlab --test suite cli_kem::` runs one of them); `compare` (which CI runs
//! again with the peers) stays a binary of its own.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "../common/mod.rs"]
mod common;

mod cli;
mod cli_bouncycastle;
mod cli_cert;
mod cli_codec;
mod cli_errors;
mod cli_falcon;
mod cli_kem;
mod cli_kem_errors;
mod cli_tls;
mod compare_reductions;
mod compare_tls;
