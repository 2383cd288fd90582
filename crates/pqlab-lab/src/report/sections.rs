//! The sections of the terminal summary that go beyond the classic tables: Falcon's plain and
//! expanded-key signing, the precomputed tables, the per-kernel profile and what was left out.

use std::fmt::Write as _;

use super::text::Table;
use super::us;
use crate::run::Report;

/// Signing with a plain key against signing with an expanded key (Falcon).
fn variants(r: &Report, out: &mut String) {
    let mut t = Table::new(&[
        "algorithm",
        "msg bytes",
        "plain key",
        "expanded key",
        "ratio",
    ]);
    for x in r.results.iter().filter(|x| x.variant.is_some()) {
        let plain = r.results.iter().find(|p| {
            p.variant.is_none()
                && crate::ours::cctv::comparable(p, x)
                && p.implementation == x.implementation
                && p.alg == x.alg
                && p.op == x.op
                && p.msg_len == x.msg_len
        });
        if let Some(p) = plain {
            t.rows.push(vec![
                x.alg.clone(),
                x.msg_len.map_or("-".into(), |l| l.to_string()),
                us(p.summary.median_ns),
                us(x.summary.median_ns),
                format!("{:.2}", p.summary.median_ns / x.summary.median_ns),
            ]);
        }
    }
    t.render(
        "Falcon signing: plain key (expanded on every call) vs expanded key, median us",
        out,
    );
}

/// The bytes of the precomputed tables per algorithm.
fn tables(r: &Report, out: &mut String) {
    let mut t = Table::new(&["algorithm", "table", "crate", "bytes"]);
    for a in &r.static_tables {
        for x in &a.tables {
            t.rows.push(vec![
                a.alg.clone(),
                x.name.to_string(),
                x.krate.to_string(),
                x.bytes.to_string(),
            ]);
        }
        t.rows.push(vec![
            a.alg.clone(),
            "total".into(),
            String::new(),
            a.total_bytes.to_string(),
        ]);
    }
    t.render(
        "Precomputed tables (read-only data, bytes, size_of_val of the constants)",
        out,
    );
}

/// One row of the per-kernel profile: algorithm, operation (with its message length and
/// variant), each kernel's share of the time in percent ("-" where it has none), the rest.
pub(super) fn profile_row(p: &crate::profile::ProfileRow, kernels: &[&str]) -> Vec<String> {
    let mut op = p.op.name().to_string();
    if let Some(l) = p.msg_len {
        op.push_str(&format!(" {l} B"));
    }
    if let Some(v) = &p.variant {
        op.push_str(&format!(" [{v}]"));
    }
    let mut row = vec![p.alg.clone(), op];
    for k in kernels {
        row.push(
            p.shares
                .iter()
                .find(|x| x.kernel == *k)
                .map_or("-".into(), |x| format!("{:.1}", x.percent)),
        );
    }
    row.push(format!("{:.1}", p.other_percent));
    row
}

/// The per-kernel profile (builds with the `profile` feature).
fn profile(r: &Report, out: &mut String) {
    let Some(rows) = &r.profile else {
        return;
    };
    let kernels = pqlab_profile::Kernel::ALL.map(|k| k.name());
    let mut head = vec!["algorithm", "op"];
    head.extend(kernels);
    head.push("other");
    let mut t = Table::new(&head);
    for p in rows {
        t.rows.push(profile_row(p, &kernels));
    }
    t.render(
        "Profile: share of each operation's time per kernel, % of TSC ticks (profile build; \
         self time, hooks included)",
        out,
    );
}

/// Everything of the summary beyond the classic tables.
pub(super) fn all(r: &Report, out: &mut String) {
    variants(r, out);
    super::cctv::text(r, out);
    tables(r, out);
    profile(r, out);
    for n in &r.notes {
        let _ = writeln!(out, "note: {n}");
    }
}
