//! The integration tests of ML-KEM in one test binary: each test binary compiles the scheme's
//! generic code again (about 12 s of CI's release build apiece). The modules are the former
//! binaries (`cargo test -p pqlab-mlkem --test suite acvp_mlkem::` runs one of them); `no_heap`
//! (a counting global allocator) stays a binary of its own.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[macro_use]
#[path = "../common/mod.rs"]
mod common;

mod acvp_mlkem;
mod api;
mod bouncycastle;
mod cctv_mlkem;
mod interop;
mod strategies_mlkem;
mod wycheproof_mlkem;
