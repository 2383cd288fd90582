//! The Cortex-M4 study's memory and correlation claims (c16 to c20 of
//! `m4-dilithium-falcon.json`), from an M4 run's footprints (flash, static RAM of each image)
//! and painted peak stacks.
//!
//! The study measured the schemes' reference C code; the like-for-like figure here is
//! PQClean's clean code of the same schemes on the same core (`pqclean` rows), which gives the
//! verdict; pqlab's own figures are printed beside it. Tolerances (in each reason): absolute
//! bytes within a factor of 1.5 (other compiler, other code revision, round 3 vs FIPS 204);
//! ratios between schemes as elsewhere (same side of 1, within a factor of 2); the Spearman
//! coefficient of the same sign as the published one and within 0.3 of it.

use serde_json::Value;

use super::{Outcome, combine, median, not_measurable, num, within};
use crate::papers::{Quantity, Verdict};
use crate::registry::Op;
use crate::run::Report;

const PQCLEAN: &str = "pqclean";

const BYTES: &str = "PQClean's clean code on the same core (the study ran the reference C \
                     code): within a factor of 1.5; pqlab's figure beside it";

/// Peak RAM of `imp`'s `alg` in its default configuration: the largest painted stack of its
/// operations plus the image's .data + .bss (the scheme's, harness subtracted).
fn ram_total(report: &Report, imp: &str, alg: &str) -> Option<u64> {
    let stack = report
        .results
        .iter()
        .filter(|r| r.implementation == imp && r.alg == alg && r.variant.is_none())
        .filter_map(|r| r.stack_bytes)
        .max()?;
    Some(stack as u64 + footprint(report, imp, alg)?.1)
}

/// (flash, static RAM) of `imp`'s `alg` in its default configuration.
fn footprint(report: &Report, imp: &str, alg: &str) -> Option<(u64, u64)> {
    report
        .footprints
        .iter()
        .find(|f| f.implementation == imp && f.alg == alg && f.config.is_none())
        .map(|f| (f.flash, f.ram))
}

/// An absolute figure of PQClean against the published one, pqlab's beside it.
fn bytes_check(what: &str, pqclean: Option<f64>, pqlab: Option<f64>, published: f64) -> Outcome {
    let Some(m) = pqclean else {
        return not_measurable(format!(
            "{what}: PQClean's image not measured in this run (needs arm-none-eabi-gcc)"
        ));
    };
    let ours = pqlab.map_or(String::new(), |x| format!(", pqlab {}", num(x)));
    Outcome {
        measured: Some(format!(
            "{what}: PQClean {} (published {}){ours}",
            num(m),
            num(published)
        )),
        verdict: if m > 0.0 && (m / published).max(published / m) <= 1.5 {
            Verdict::Confirms
        } else {
            Verdict::Contradicts
        },
        reason: BYTES.into(),
    }
}

fn values(q: &Quantity) -> Vec<(String, f64)> {
    q.values
        .as_ref()
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .filter_map(|(k, v)| Some((k.clone(), v.as_f64()?)))
        .collect()
}

fn kb(x: u64) -> f64 {
    x as f64 / 1000.0
}

/// c16 `ram_total_bytes`, c17 `ram_total_ratio`, c18 `flash_bytes` (KB), c19
/// `ram_plus_flash_kb` (and which scheme is the most economical), c20
/// `spearman_pk_size_vs_verify_time`; `None` for another metric.
pub(super) fn claim(report: &Report, q: &Quantity) -> Option<Outcome> {
    let ram = |imp: &str, alg: &str| ram_total(report, imp, alg).map(|x| x as f64);
    let flash_kb = |imp: &str, alg: &str| footprint(report, imp, alg).map(|f| kb(f.0));
    let total_kb = |imp: &str, alg: &str| {
        Some(kb(ram_total(report, imp, alg)?) + kb(footprint(report, imp, alg)?.0))
    };
    Some(match q.metric.as_str() {
        "ram_total_bytes" => per_alg(q, "peak RAM (stack + static) B", &ram),
        "flash_bytes" => per_alg(q, "flash KB", &flash_kb),
        "ram_plus_flash_kb" => ram_plus_flash(q, &total_kb),
        "ram_total_ratio" => {
            let (Some(a), Some(b), Some(p)) = (
                q.a.as_deref(),
                q.b.as_ref().and_then(Value::as_str),
                q.number(),
            ) else {
                return Some(not_measurable("malformed claim"));
            };
            let r = |imp: &str| Some(ram(imp, a)? / ram(imp, b)?);
            let Some(m) = r(PQCLEAN) else {
                return Some(not_measurable(
                    "PQClean's images not measured in this run (needs arm-none-eabi-gcc)",
                ));
            };
            let ours =
                r(crate::ours::PQLAB).map_or(String::new(), |x| format!("; pqlab {}", num(x)));
            Outcome {
                measured: Some(format!("{a}/{b} peak RAM: PQClean {}{ours}", num(m))),
                verdict: if within(m, p, 2.0) {
                    Verdict::Confirms
                } else {
                    Verdict::Contradicts
                },
                reason: "PQClean's ratio (the study's code is the reference C): same side of 1 \
                         and within a factor of 2"
                    .into(),
            }
        }
        "spearman_pk_size_vs_verify_time" => spearman_claim(report, q),
        _ => return None,
    })
}

/// Every published per-algorithm figure against `figure(implementation, alg)`.
fn per_alg(q: &Quantity, what: &str, figure: &dyn Fn(&str, &str) -> Option<f64>) -> Outcome {
    let checks = values(q)
        .into_iter()
        .map(|(alg, p)| {
            bytes_check(
                &format!("{alg} {what}"),
                figure(PQCLEAN, &alg),
                figure(crate::ours::PQLAB, &alg),
                p,
            )
        })
        .collect();
    combine(checks, "")
}

/// c19: every published total within a factor of 1.5 (PQClean), and the published most
/// economical scheme is PQClean's smallest total among those measured.
fn ram_plus_flash(q: &Quantity, total_kb: &dyn Fn(&str, &str) -> Option<f64>) -> Outcome {
    let published = values(q);
    let mut checks = vec![per_alg(q, "RAM + flash KB", total_kb)];
    let smallest = |imp: &str| {
        published
            .iter()
            .filter_map(|(alg, _)| Some((alg.clone(), total_kb(imp, alg)?)))
            .min_by(|x, y| x.1.total_cmp(&y.1))
    };
    let study = published.iter().min_by(|x, y| x.1.total_cmp(&y.1));
    if let (Some((alg, _)), Some((want, _))) = (smallest(PQCLEAN), study) {
        let ours =
            smallest(crate::ours::PQLAB).map_or(String::new(), |(a, _)| format!(" (pqlab: {a})"));
        checks.push(Outcome {
            measured: Some(format!("most economical: {alg}{ours}")),
            verdict: if &alg == want {
                Verdict::Confirms
            } else {
                Verdict::Contradicts
            },
            reason: BYTES.into(),
        });
    }
    combine(checks, "")
}

/// c20: Spearman's rho between public-key size and verification time over the signature
/// schemes measured (PQClean's times where measured, else pqlab's), at least three.
fn spearman_claim(report: &Report, q: &Quantity) -> Outcome {
    let Some(p) = q.number() else {
        return not_measurable("malformed claim");
    };
    let pick = |imp: &str| -> (Vec<String>, Vec<f64>, Vec<f64>) {
        let mut names = Vec::new();
        let (mut xs, mut ys) = (Vec::new(), Vec::new());
        for s in report.sizes.iter().filter(|s| s.signature.is_some()) {
            if names.contains(&s.alg) {
                continue;
            }
            if let Some(t) = median(report, imp, &s.alg, Op::Verify) {
                names.push(s.alg.clone());
                xs.push(s.public_key as f64);
                ys.push(t);
            }
        }
        (names, xs, ys)
    };
    let mut imp = PQCLEAN;
    let mut sample = pick(imp);
    if sample.0.len() < 3 {
        imp = crate::ours::PQLAB;
        sample = pick(imp);
    }
    let (names, xs, ys) = sample;
    let Some(rho) = crate::stats::spearman(&xs, &ys).map(|t| t.statistic) else {
        return not_measurable(format!(
            "fewer than three signature parameter sets measured ({})",
            names.join(", ")
        ));
    };
    Outcome {
        measured: Some(format!(
            "rho = {} over {} ({imp}'s verification times)",
            num(rho),
            names.join(", ")
        )),
        verdict: if rho.signum() == p.signum() && (rho - p).abs() <= 0.3 {
            Verdict::Confirms
        } else {
            Verdict::Contradicts
        },
        reason: "same sign and within 0.3 of the published coefficient (the study's own \
                 Tables 1-2 give 0.6 over its four pairs)"
            .into(),
    }
}
