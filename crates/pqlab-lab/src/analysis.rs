//! The statistics across the measurements of a run.

use crate::registry::{self, Entry, Kind, Op};
use crate::run::{Comparison, ResultRow, Statistics};
use crate::stats;

fn label(r: &ResultRow) -> String {
    let imp = crate::report::impl_label(r);
    match r.msg_len {
        Some(l) => format!("{imp} {} {} {l}B", r.alg, r.op.name()),
        None => format!("{imp} {} {}", r.alg, r.op.name()),
    }
}

/// Whether a peer's algorithm `peer` is compared with pqlab's `ours`: the same, or FN-DSA
/// beside Falcon of the same degree.
fn comparable(ours: &str, peer: &str) -> bool {
    if ours == peer {
        return true;
    }
    match (ours.strip_prefix("falcon-"), peer.strip_prefix("fn-dsa-")) {
        (Some(a), Some(b)) => a == b,
        _ => false,
    }
}

fn compare(a: &ResultRow, b: &ResultRow) -> Option<Comparison> {
    stats::welch(&a.sample_ns, &b.sample_ns).map(|t| Comparison {
        a: label(a),
        b: label(b),
        median_ratio: a.summary.median_ns / b.summary.median_ns,
        welch: t,
    })
}

/// The statistics of a run: Welch tests of pqlab against each peer (same algorithm, operation
/// and message length), between the smallest parameter sets of different signature families
/// (e.g. ML-DSA-44 vs Falcon-512 signing), and Spearman between public-key size and
/// verification time across pqlab's signature schemes.
pub(crate) fn statistics(results: &[ResultRow]) -> Statistics {
    let mut out = Statistics::default();
    let ours = |r: &&ResultRow| r.implementation == crate::ours::PQLAB;
    for a in results.iter().filter(ours) {
        for b in results.iter().filter(|b| {
            b.implementation != a.implementation
                && comparable(&a.alg, &b.alg)
                && b.op == a.op
                && b.msg_len == a.msg_len
                && crate::ours::cctv::comparable(a, b)
        }) {
            out.welch.extend(compare(a, b));
        }
    }
    // Falcon: signing with a plain key against signing with an expanded key.
    for x in results.iter().filter(ours).filter(|x| x.variant.is_some()) {
        if let Some(p) = results.iter().filter(ours).find(|p| {
            p.variant.is_none()
                && p.alg == x.alg
                && p.op == x.op
                && p.msg_len == x.msg_len
                && crate::ours::cctv::comparable(p, x)
        }) {
            out.welch.extend(compare(p, x));
        }
    }
    // Across families: the first parameter set of each signature family, sign and verify.
    let firsts: Vec<&ResultRow> = results
        .iter()
        .filter(ours)
        .filter(|r| r.variant.is_none())
        .filter(|r| matches!(r.alg.as_str(), "ml-dsa-44" | "falcon-512" | "fn-dsa-512"))
        .collect();
    for (i, a) in firsts.iter().enumerate() {
        for b in &firsts[i + 1..] {
            if a.alg != b.alg && a.op == b.op && a.msg_len == b.msg_len && a.op != Op::Keygen {
                out.welch.extend(compare(a, b));
            }
        }
    }
    let min_len = results.iter().filter_map(|r| r.msg_len).min();
    let verify: Vec<&ResultRow> = results
        .iter()
        .filter(ours)
        .filter(|r| r.op == Op::Verify && r.msg_len == min_len && r.variant.is_none())
        .collect();
    let pk = |alg: &str| {
        registry::ours()
            .iter()
            .map(Entry::info)
            .find(|i| i.alg == alg && i.kind == Kind::Signature)
            .map(|i| i.public_key as f64)
    };
    let (x, y): (Vec<f64>, Vec<f64>) = verify
        .iter()
        .filter_map(|r| Some((pk(&r.alg)?, r.summary.median_ns)))
        .unzip();
    out.spearman_pk_size_vs_verify = stats::spearman(&x, &y);
    out
}
