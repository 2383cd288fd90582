//! The integration tests of Falcon in one test binary: each test binary compiles the scheme's
//! generic code again. The modules are the former binaries (`cargo test -p pqlab-falcon --test
//! suite kat_sign::` runs one of them; CI runs `kat_verify::`, `kat_sign::` and `interop::`
//! again under every back end, and `kat_keygen::` and `kat_sign::` with `fpr-emu`);
//! `bouncycastle` needs the `pkcs8` feature. `no_heap` (a counting global allocator) stays a
//! binary of its own.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "../common/mod.rs"]
mod common;

mod bouncycastle;
mod interop;
mod kat_keygen;
mod kat_sign;
mod kat_verify;
mod keygen_encoded;
mod strategies_falcon;
