//! The detailed tables of the HTML report (after the answers and the charts): sizes, median
//! latency per implementation, memory, every measurement, the precomputed tables and the
//! per-kernel profile. All sortable and filterable (the page's script).

use std::fmt::Write as _;

use super::html::{esc, table};
use super::{impl_label, us};
use crate::registry::Op;
use crate::run::Report;

fn s(v: &str) -> String {
    v.to_string()
}

fn sizes(r: &Report, h: &mut String) {
    let head = [
        "algorithm",
        "impl",
        "public key",
        "secret key",
        "signature / ciphertext",
        "pk + sig/ct",
    ]
    .map(s);
    let rows: Vec<Vec<String>> = r
        .sizes
        .iter()
        .map(|z| {
            vec![
                z.alg.clone(),
                z.implementation.clone(),
                z.public_key.to_string(),
                z.secret_key.to_string(),
                match (z.signature.or(z.ciphertext), z.signature_mean) {
                    (Some(max), Some(mean)) => format!("{max} (mean {mean:.0})"),
                    (v, _) => v.map_or("-".into(), |v| v.to_string()),
                },
                z.public_plus_output.to_string(),
            ]
        })
        .collect();
    h.push_str("<h3>Sizes (bytes; where signatures vary: the longest made, and the mean)</h3>");
    h.push_str(&table("t-sizes", &head, &rows));
}

fn latency(r: &Report, h: &mut String) {
    let first = r.config.msg_sizes.first().copied();
    let mut head = vec![s("algorithm"), s("impl")];
    head.extend(Op::ALL.map(|o| format!("{} us", o.name())));
    head.extend([s("sign TSC"), s("verify TSC")]);
    let mut rows: Vec<Vec<String>> = Vec::new();
    let mut keys: Vec<(String, String)> = Vec::new();
    for x in &r.results {
        let k = (x.alg.clone(), impl_label(x));
        if !keys.contains(&k) {
            keys.push(k);
        }
    }
    for (alg, imp) in keys {
        let find = |op: Op| {
            r.results.iter().find(|x| {
                x.alg == alg
                    && impl_label(x) == imp
                    && x.op == op
                    && (x.msg_len.is_none() || x.msg_len == first)
            })
        };
        let mut row = vec![alg.clone(), imp.clone()];
        for op in Op::ALL {
            row.push(find(op).map_or("-".into(), |x| us(x.summary.median_ns)));
        }
        for op in [Op::Sign, Op::Verify] {
            row.push(
                find(op)
                    .and_then(|x| x.summary.median_cycles)
                    .map_or("-".into(), |c| format!("{c:.0}")),
            );
        }
        rows.push(row);
    }
    let _ = write!(
        h,
        "<h3>Median latency per implementation (us{}; TSC ticks at a fixed rate)</h3>",
        first.map_or(String::new(), |l| format!(", {l}-byte messages"))
    );
    h.push_str(&table("t-latency", &head, &rows));
}

fn memory(r: &Report, h: &mut String) {
    let first = r.config.msg_sizes.first().copied();
    let head = [
        "algorithm",
        "impl",
        "op",
        "stack B",
        "heap B",
        "allocations",
    ]
    .map(s);
    let rows: Vec<Vec<String>> = r
        .results
        .iter()
        .filter(|x| x.msg_len.is_none() || x.msg_len == first)
        .map(|x| {
            vec![
                x.alg.clone(),
                impl_label(x),
                x.op.name().to_string(),
                x.stack_bytes.map_or("-".into(), |v| v.to_string()),
                x.heap_bytes.map_or("-".into(), |v| v.to_string()),
                x.alloc_count.map_or("-".into(), |v| v.to_string()),
            ]
        })
        .collect();
    h.push_str("<h3>Memory per call (peak stack: painted stack; heap: counting allocator)</h3>");
    h.push_str(&table("t-memory", &head, &rows));
}

fn results(r: &Report, h: &mut String) {
    let head = [
        "impl",
        "algorithm",
        "op",
        "msg bytes",
        "median us",
        "p05",
        "p95",
        "CV",
        "median TSC",
        "stack B",
        "heap B",
        "uJ (model)",
        "Shapiro-Wilk p",
    ]
    .map(s);
    let rows: Vec<Vec<String>> = r
        .results
        .iter()
        .map(|x| {
            let m = &x.summary;
            vec![
                impl_label(x),
                x.alg.clone(),
                x.op.name().to_string(),
                x.msg_len.map_or("-".into(), |v| v.to_string()),
                us(m.median_ns),
                us(m.p05_ns),
                us(m.p95_ns),
                format!("{:.3}", m.cv),
                m.median_cycles.map_or("-".into(), |c| format!("{c:.0}")),
                x.stack_bytes.map_or("-".into(), |v| v.to_string()),
                x.heap_bytes.map_or("-".into(), |v| v.to_string()),
                x.energy_j.map_or("-".into(), |j| format!("{:.2}", j * 1e6)),
                x.shapiro_wilk
                    .map_or("-".into(), |t| format!("{:.3}", t.p_value)),
            ]
        })
        .collect();
    h.push_str("<h3>Every measurement</h3>");
    h.push_str(&table("results", &head, &rows));
}

/// The precomputed tables and, in a profile build, the per-kernel profile.
fn tables_and_profile(r: &Report, h: &mut String) {
    let mut rows = Vec::new();
    for a in &r.static_tables {
        for t in &a.tables {
            rows.push(vec![
                a.alg.clone(),
                t.name.to_string(),
                t.krate.to_string(),
                t.bytes.to_string(),
            ]);
        }
        rows.push(vec![
            a.alg.clone(),
            "total".into(),
            String::new(),
            a.total_bytes.to_string(),
        ]);
    }
    h.push_str("<h3>Precomputed tables (read-only data, bytes)</h3>");
    h.push_str(&table(
        "static-tables",
        &["algorithm", "table", "crate", "bytes"].map(s),
        &rows,
    ));
    let Some(prof) = &r.profile else {
        return;
    };
    let kernels = pqlab_profile::Kernel::ALL.map(|k| k.name());
    let mut head = vec![s("algorithm"), s("op")];
    head.extend(kernels.iter().map(|k| s(k)));
    head.push(s("other"));
    let rows: Vec<Vec<String>> = prof
        .iter()
        .map(|p| super::sections::profile_row(p, &kernels))
        .collect();
    h.push_str(
        "<h3>Profile</h3><p class=\"note\">Share of each operation's time-stamp-counter ticks \
         spent in each kernel (self time), percent; a profile build, so the hooks' own cost is \
         included.</p>",
    );
    h.push_str(&table("profile", &head, &rows));
}

/// Every detailed table, in page order, and the notes.
pub(super) fn all(r: &Report, h: &mut String) {
    sizes(r, h);
    latency(r, h);
    memory(r, h);
    super::cctv::html(r, h);
    results(r, h);
    tables_and_profile(r, h);
    if !r.notes.is_empty() {
        h.push_str("<h3>Notes</h3><ul>");
        for n in &r.notes {
            let _ = write!(h, "<li>{}</li>", esc(n));
        }
        h.push_str("</ul>");
    }
}
