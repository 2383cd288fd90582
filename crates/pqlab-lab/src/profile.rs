//! The per-kernel profile (the `profile` feature): the share of each operation's time spent in
//! Keccak, the NTT and its inverse, sampling, encoding, and for Falcon the FFT, ffSampling and
//! NTRUSolve, from the counters of `pqlab-profile` that the algorithm crates feed. Without the
//! feature the hooks compile to nothing and the report has no profile.

use pqlab_profile::Kernel;

use crate::LabError;
use crate::run::ResultRow;

/// The share of one kernel in an operation's time.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct KernelShare {
    /// The kernel (`keccak`, `ntt`, `intt`, `sampling`, `encoding`, `fft`, `ffsampling`,
    /// `ntrusolve`).
    pub kernel: &'static str,
    /// Percent of the operation's time-stamp-counter ticks.
    pub percent: f64,
}

/// The profile of one measurement of pqlab's code.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct ProfileRow {
    /// Algorithm.
    pub alg: String,
    /// Operation.
    pub op: crate::registry::Op,
    /// Message length (sign and verify).
    pub msg_len: Option<usize>,
    /// Variant (Falcon: `expanded key`).
    pub variant: Option<String>,
    /// Calls profiled.
    pub calls: usize,
    /// The kernels' shares, in percent, in report order (kernels that were not seen at all are
    /// left out).
    pub shares: Vec<KernelShare>,
    /// The rest of the time: glue code outside the marked kernels (100 minus the sum).
    pub other_percent: f64,
}

/// Whether this build profiles kernels.
pub const ENABLED: bool = pqlab_profile::ENABLED;

/// Runs `call` `calls` times with the kernel counters reset and returns each kernel's share of
/// the total ticks; `None` without the feature or without a time-stamp counter.
pub fn shares(
    calls: usize,
    mut call: impl FnMut(usize) -> Result<(), LabError>,
) -> Result<Option<Vec<KernelShare>>, LabError> {
    if !ENABLED {
        return Ok(None);
    }
    pqlab_profile::reset();
    let t0 = pqlab_profile::now();
    for i in 0..calls {
        call(i)?;
    }
    let total = pqlab_profile::now().wrapping_sub(t0);
    let ticks = pqlab_profile::ticks();
    if total == 0 {
        return Ok(None);
    }
    Ok(Some(
        Kernel::ALL
            .iter()
            .zip(ticks)
            .filter(|(_, t)| *t > 0)
            .map(|(k, t)| KernelShare {
                kernel: k.name(),
                percent: (100.0 * t as f64 / total as f64).min(100.0),
            })
            .collect(),
    ))
}

/// The profile table of a run (pqlab's measurements that carry shares); `None` without the
/// feature.
pub fn table(results: &[ResultRow]) -> Option<Vec<ProfileRow>> {
    if !ENABLED {
        return None;
    }
    Some(
        results
            .iter()
            .filter_map(|r| {
                let (calls, shares) = r.kernel_profile.clone()?;
                let sum: f64 = shares.iter().map(|s| s.percent).sum();
                Some(ProfileRow {
                    alg: r.alg.clone(),
                    op: r.op,
                    msg_len: r.msg_len,
                    variant: r.variant.clone(),
                    calls,
                    shares,
                    other_percent: (100.0 - sum).max(0.0),
                })
            })
            .collect(),
    )
}
