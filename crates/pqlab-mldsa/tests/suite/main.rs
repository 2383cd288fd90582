//! Integration tests of ML-DSA in one test binary: each test binary compiles the scheme's
//! generic code again (about 15 s of CI's release build apiece). The modules are former
//! binaries (`cargo test -p pqlab-mldsa --test suite interop::` runs one of them). Binaries of
//! their own: the conformance suites that CI runs again under the `small-memory` configuration
//! (`acvp_mldsa`, `pqc_kat_mldsa`, `wycheproof_mldsa`, `configurations`) and `no_heap` (a
//! counting global allocator).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[macro_use]
#[path = "../common/mod.rs"]
mod common;

mod bouncycastle;
mod cctv_mldsa;
mod interop;
mod sanity;
mod sign_encoded;
mod strategies_mldsa;
