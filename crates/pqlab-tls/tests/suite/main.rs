//! The integration tests of the TLS stack in one test binary: each test binary links rustls,
//! tokio and every scheme, and built alone each took about 28 s of CI's release build. The
//! modules are the former binaries (`cargo test -p pqlab-tls --test suite interop::` runs one
//! of them). `emfile` (which lowers the process's file-descriptor limit) and `load` (which
//! counts the process's threads and RSS) stay binaries of their own.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "../common/mod.rs"]
mod common;

mod bench;
mod falcon;
mod go_client;
mod handshake;
mod interop;
mod network;
