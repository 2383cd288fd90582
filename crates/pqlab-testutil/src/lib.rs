//! Test scaffolding shared by the tests and benchmarks of the pqlab crates. A dev-dependency
//! only: never published, and free to use `std`.
//!
//! * [`vectors`]: locating the test-vector folder (with the `CI=true` rule that a missing folder
//!   is a failure), reading JSON, text, gzip and hex, and tallying the cases of a vector file.
//! * [`alloc`]: a counting global allocator ([`alloc::CountingAlloc`]) that a test binary
//!   installs with `#[global_allocator]`, the thread-local measurement around it
//!   ([`alloc::count_allocs`], [`alloc::no_alloc`]) and its self-check.
//! * [`drbg`]: NIST's AES-256 CTR_DRBG `randombytes` ([`drbg::NistDrbg`]), to replay the
//!   randomness of the NIST KAT files.
//! * [`rng`]: a deterministic rand_core 0.10 generator ([`rng::TestRng`], splitmix64) and one
//!   that always fails ([`rng::FailingRng`]). Fixtures, not cryptographic generators.

// Test scaffolding reports a broken fixture by panicking, like the tests that use it.
#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

pub mod alloc;
pub mod backends;
pub mod drbg;
pub mod rng;
pub mod vectors;
