//! `pqlab-lab`: the measurement engine behind `pqlab compare` (DESIGN §4 and §6).
//!
//! * [`registry`]: the implementations measured, one entry per implementation and parameter
//!   set ([`registry::SignatureImpl`], [`registry::KemImpl`]); pqlab's own schemes always, the
//!   other implementations with the `peers` feature.
//! * [`probe`]: the instruments: the fenced time-stamp counter, the painted-stack probe and the
//!   counting allocator that the `pqlab` binary installs.
//! * [`measure`]: timing loops and the summary of a latency sample.
//! * [`stats`]: Shapiro–Wilk, Welch's t-test and Spearman's rank correlation.
//! * [`backends`]: the back-end study (`pqlab compare --backends`): every ML-DSA and ML-KEM
//!   operation under portable, AVX2 and AVX-512, with the speed-up against portable.
//! * [`reductions`]: the reduction-strategy study (`pqlab compare --reductions`): NTTs and whole
//!   operations per modular-reduction strategy, against Montgomery.
//! * [`run`]: a whole comparison, from a [`run::Config`] to a [`run::Report`].
//! * [`m4`]: the Cortex-M4 lab (`pqlab compare --target cortex-m4`): firmware images run
//!   under QEMU, exact instruction counts, a calibrated cycle model, stack, flash and RAM.
//! * [`report`]: the report as JSON (the stable schema of DESIGN §4), CSV, terminal tables and
//!   a self-contained HTML page with SVG charts.

mod analysis;
mod ours;
/// For the tests: the vectors folder when it holds C2SP CCTV's ML-DSA benchmark set.
#[doc(hidden)]
pub use ours::cctv::benchmark_dir_for_tests as cctv_benchmark_dir_for_tests;
#[cfg(feature = "peers")]
mod peers;
mod task;

pub mod backends;
pub mod check;
pub mod energy;
pub mod m4;
pub mod machine;
pub mod measure;
pub mod papers;
pub mod probe;
pub mod profile;
pub mod reductions;
pub mod registry;
pub mod report;
pub mod run;
pub mod stats;
pub mod tables;

use std::fmt;

/// What can go wrong in a measurement run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LabError {
    /// An implementation failed an operation (a key did not parse, randomness failed, ...).
    Implementation(String),
    /// The configuration asks for something that does not exist or makes no sense.
    Config(String),
    /// Writing a report failed.
    Report(String),
}

impl fmt::Display for LabError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LabError::Implementation(m) => write!(f, "implementation error: {m}"),
            LabError::Config(m) | LabError::Report(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for LabError {}
