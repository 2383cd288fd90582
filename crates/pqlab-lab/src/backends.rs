//! The back-end study of `pqlab compare --backends`: every operation of pqlab's ML-DSA and
//! ML-KEM under each back end this machine can run (portable, AVX2, AVX-512), with the
//! speed-up against the portable code, measured in one run (the back ends one after another,
//! each a whole comparison of pqlab's own entries; the first one's report carries the rest).

use pqlab_backend::Backend;

use crate::LabError;
use crate::registry::Op;
use crate::run::{self, Config, Progress, Report};

/// One operation under one back end.
#[derive(Clone, Debug, serde::Serialize)]
pub struct BackendRow {
    /// The algorithm (`ml-dsa-65`, ...).
    pub alg: String,
    /// The operation.
    pub op: Op,
    /// The back end (`portable`, `avx2`, `avx512`).
    pub backend: String,
    /// Median nanoseconds.
    pub median_ns: f64,
    /// Median time-stamp-counter ticks, where there is a TSC.
    pub median_cycles: Option<f64>,
    /// Portable's median divided by this one (above 1: faster than portable).
    pub speedup_vs_portable: Option<f64>,
}

/// Whether the back-end study measures `alg` (the schemes with SIMD back ends).
pub fn has_backends(alg: &str) -> bool {
    alg.starts_with("ml-dsa-") || alg.starts_with("ml-kem-")
}

/// Runs pqlab's ML-DSA and ML-KEM entries (of `config.algs`, or all of them) under every
/// available back end. The report is the first back end's (portable), with `backends` filled
/// in; the back end selected before the study is restored afterwards.
pub fn run(config: &Config, progress: Progress<'_>) -> Result<Report, LabError> {
    let mut cfg = config.clone();
    cfg.peers = false;
    if cfg.algs.is_empty() {
        cfg.algs = [
            "ml-dsa-44",
            "ml-dsa-65",
            "ml-dsa-87",
            "ml-kem-512",
            "ml-kem-768",
            "ml-kem-1024",
        ]
        .map(String::from)
        .to_vec();
    }
    cfg.algs.retain(|a| has_backends(a));
    if cfg.algs.is_empty() {
        return Err(LabError::Config(
            "--backends measures ML-DSA and ML-KEM only (Falcon has no SIMD back end yet)".into(),
        ));
    }
    let before = pqlab_backend::selected();
    let mut first: Option<Report> = None;
    let mut rows = Vec::new();
    for b in pqlab_backend::available() {
        let r = pqlab_backend::with_forced(b, || run::run(&cfg, &mut *progress))
            .map_err(|e| LabError::Config(e.to_string()))?;
        let r = r?;
        rows.extend(rows_of(&r, b));
        if first.is_none() {
            first = Some(r);
        }
    }
    let _ = pqlab_backend::force(Some(before));
    let mut report = first.ok_or_else(|| LabError::Config("no back end ran".into()))?;
    fill_speedups(&mut rows);
    report.backends = rows;
    report.machine.backend = "all available (back-end study)".into();
    Ok(report)
}

/// pqlab's rows of one back end's report (signing and verification at the shortest message).
fn rows_of(r: &Report, b: Backend) -> Vec<BackendRow> {
    let shortest = r.config.msg_sizes.iter().copied().min();
    r.results
        .iter()
        .filter(|x| x.implementation == crate::ours::PQLAB && x.variant.is_none())
        .filter(|x| x.msg_len.is_none() || x.msg_len == shortest)
        .map(|x| BackendRow {
            alg: x.alg.clone(),
            op: x.op,
            backend: b.name().to_string(),
            median_ns: x.summary.median_ns,
            median_cycles: x.summary.median_cycles,
            speedup_vs_portable: None,
        })
        .collect()
}

fn fill_speedups(rows: &mut [BackendRow]) {
    let base: Vec<(String, Op, f64)> = rows
        .iter()
        .filter(|r| r.backend == Backend::Portable.name())
        .map(|r| (r.alg.clone(), r.op, r.median_ns))
        .collect();
    for r in rows.iter_mut() {
        r.speedup_vs_portable = base
            .iter()
            .find(|(a, o, _)| *a == r.alg && *o == r.op)
            .map(|(_, _, p)| p / r.median_ns);
    }
}

/// The study as a terminal table: one line per algorithm and operation, a column per back end
/// (median µs and the speed-up against portable).
pub fn text(rows: &[BackendRow]) -> String {
    use std::fmt::Write as _;
    let mut backends: Vec<&str> = Vec::new();
    for r in rows {
        if !backends.contains(&r.backend.as_str()) {
            backends.push(&r.backend);
        }
    }
    let mut out = String::from("\nBack ends: median latency (us) and speed-up against portable\n");
    let _ = write!(out, "{:<12} {:<7}", "algorithm", "op");
    for b in &backends {
        let _ = write!(out, " {:>18}", b);
    }
    out.push('\n');
    let mut keys: Vec<(&str, Op)> = Vec::new();
    for r in rows {
        if !keys.contains(&(r.alg.as_str(), r.op)) {
            keys.push((&r.alg, r.op));
        }
    }
    for (alg, op) in keys {
        let _ = write!(out, "{:<12} {:<7}", alg, op.name());
        for b in &backends {
            match rows
                .iter()
                .find(|r| r.alg == alg && r.op == op && r.backend == *b)
            {
                Some(r) => {
                    let s = r
                        .speedup_vs_portable
                        .map_or(String::new(), |x| format!("{x:.2}x"));
                    let _ = write!(out, " {:>10.2} {:>7}", r.median_ns / 1e3, s);
                }
                None => {
                    let _ = write!(out, " {:>18}", "-");
                }
            }
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(alg: &str, op: Op, backend: &str, ns: f64) -> BackendRow {
        BackendRow {
            alg: alg.into(),
            op,
            backend: backend.into(),
            median_ns: ns,
            median_cycles: None,
            speedup_vs_portable: None,
        }
    }

    #[test]
    fn speedups_are_portable_over_backend() {
        let mut rows = vec![
            row("ml-kem-768", Op::Keygen, "portable", 30_000.0),
            row("ml-kem-768", Op::Keygen, "avx2", 10_000.0),
            row("ml-kem-768", Op::Encaps, "avx2", 5_000.0),
        ];
        fill_speedups(&mut rows);
        assert_eq!(rows[0].speedup_vs_portable, Some(1.0));
        assert_eq!(rows[1].speedup_vs_portable, Some(3.0));
        assert_eq!(rows[2].speedup_vs_portable, None);
        let t = text(&rows);
        assert!(t.contains("3.00x"), "{t}");
        assert!(t.contains("avx2"));
    }
}
