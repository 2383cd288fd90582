//! The terminal summary, grouped as the literature tabulates: sizes; keygen / sign / verify
//! (or keygen / encaps / decaps) per parameter set; message length; ratios to peers; memory;
//! energy; statistics. [`brief`] is the one screen printed by default: the answers of
//! [`super::summary`] first; [`summary`] prints every table (`pqlab compare --verbose`).

use std::fmt::Write as _;

use super::us;
use crate::registry::Op;
use crate::run::{Report, ResultRow};

/// A plain text table with right-aligned columns after the first two.
pub(crate) struct Table {
    pub(crate) head: Vec<String>,
    pub(crate) rows: Vec<Vec<String>>,
}

impl Table {
    pub(crate) fn new(head: &[&str]) -> Table {
        Table {
            head: head.iter().map(|s| s.to_string()).collect(),
            rows: Vec::new(),
        }
    }

    pub(crate) fn render(&self, title: &str, out: &mut String) {
        if self.rows.is_empty() {
            return;
        }
        let cols = self.head.len();
        let width: Vec<usize> = (0..cols)
            .map(|c| {
                self.rows
                    .iter()
                    .map(|r| r.get(c).map_or(0, String::len))
                    .chain([self.head[c].len()])
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        let _ = writeln!(out, "\n{title}");
        for row in std::iter::once(&self.head).chain(&self.rows) {
            let mut line = String::new();
            for (c, w) in width.iter().enumerate() {
                let cell = row.get(c).map_or("", String::as_str);
                if c < 2 {
                    let _ = write!(line, "{cell:<w$}  ");
                } else {
                    let _ = write!(line, "{cell:>w$}  ");
                }
            }
            let _ = writeln!(out, "{}", line.trim_end());
        }
    }
}

/// The measurement of `alg` by `implementation` for `op` at `msg_len`.
fn find<'a>(
    r: &'a Report,
    implementation: &str,
    alg: &str,
    op: Op,
    msg_len: Option<usize>,
) -> Option<&'a ResultRow> {
    r.results.iter().find(|x| {
        x.implementation == implementation
            && x.alg == alg
            && x.op == op
            && x.msg_len == msg_len
            && x.variant.is_none()
    })
}

fn cell(row: Option<&ResultRow>) -> String {
    row.map_or_else(|| "-".to_string(), |r| us(r.summary.median_ns))
}

/// The (implementation, algorithm) pairs measured, in report order.
fn pairs(r: &Report) -> Vec<(String, String)> {
    let mut v: Vec<(String, String)> = Vec::new();
    for x in r.results.iter().filter(|x| x.variant.is_none()) {
        let p = (x.implementation.clone(), x.alg.clone());
        if !v.contains(&p) {
            v.push(p);
        }
    }
    // Group each algorithm's implementations together, pqlab first.
    v.sort_by_key(|(i, a)| {
        let pos = r
            .sizes
            .iter()
            .position(|s| &s.alg == a)
            .unwrap_or(usize::MAX);
        (pos, i != "pqlab")
    });
    v
}

/// The terminal summary of a report.
pub fn summary(r: &Report) -> String {
    let mut out = String::new();
    let m = &r.machine;
    let _ = writeln!(
        out,
        "machine: {} ({} cores), {}; TSC {}; {}; pqlab back end: {} (available: {})",
        m.cpu,
        m.cores,
        m.os,
        m.tsc_hz
            .map_or("n/a".into(), |h| format!("{:.3} GHz", h / 1e9)),
        m.rustc,
        m.backend,
        m.backends_available.join(", ")
    );
    let _ = writeln!(
        out,
        "{} timed calls per measurement after {} warm-up calls; medians in microseconds",
        r.config.iterations, r.config.warmup
    );

    let mut sizes = Table::new(&[
        "algorithm",
        "impl",
        "public key",
        "secret key",
        "sig / ct",
        "pk + sig/ct",
    ]);
    let mut seen = Vec::new();
    for s in &r.sizes {
        if seen.contains(&s.alg) {
            continue;
        }
        seen.push(s.alg.clone());
        sizes.rows.push(vec![
            s.alg.clone(),
            s.implementation.clone(),
            s.public_key.to_string(),
            s.secret_key.to_string(),
            match (s.signature.or(s.ciphertext), s.signature_mean) {
                (Some(max), Some(mean)) => format!("{max} (mean {mean:.0})"),
                (v, _) => v.map_or("-".into(), |v| v.to_string()),
            },
            s.public_plus_output.to_string(),
        ]);
    }
    sizes.render(
        "Sizes (bytes); where signatures vary in length: the longest made, and the mean",
        &mut out,
    );

    let first = r.config.msg_sizes.first().copied();
    let mut sig = Table::new(&[
        "algorithm",
        "impl",
        "keygen",
        "sign",
        "verify",
        "sign cycles",
        "verify cycles",
    ]);
    let mut kem = Table::new(&[
        "algorithm",
        "impl",
        "keygen",
        "encaps",
        "decaps",
        "encaps cycles",
        "decaps cycles",
    ]);
    let cycles = |row: Option<&ResultRow>| {
        row.and_then(|x| x.summary.median_cycles)
            .map_or("-".into(), |c| format!("{c:.0}"))
    };
    for (imp, alg) in pairs(r) {
        let is_sig = r
            .results
            .iter()
            .any(|x| x.alg == alg && matches!(x.op, Op::Sign | Op::Verify));
        let is_kem = r
            .results
            .iter()
            .any(|x| x.alg == alg && matches!(x.op, Op::Encaps | Op::Decaps));
        // A keygen-only run has no sign or encaps rows: the sizes say which kind it is.
        let sized_sig = r
            .sizes
            .iter()
            .any(|z| z.alg == alg && z.signature.is_some());
        let kg = find(r, &imp, &alg, Op::Keygen, None);
        if is_sig || (!is_kem && sized_sig) {
            let s = find(r, &imp, &alg, Op::Sign, first);
            let v = find(r, &imp, &alg, Op::Verify, first);
            sig.rows.push(vec![
                alg.clone(),
                imp.clone(),
                cell(kg),
                cell(s),
                cell(v),
                cycles(s),
                cycles(v),
            ]);
        } else {
            let e = find(r, &imp, &alg, Op::Encaps, None);
            let d = find(r, &imp, &alg, Op::Decaps, None);
            kem.rows.push(vec![
                alg.clone(),
                imp.clone(),
                cell(kg),
                cell(e),
                cell(d),
                cycles(e),
                cycles(d),
            ]);
        }
    }
    let msg = first.map_or(String::new(), |l| format!(", {l}-byte messages"));
    sig.render(&format!("Signatures: median latency (us{msg})"), &mut out);
    kem.render("KEMs: median latency (us)", &mut out);

    if r.config.msg_sizes.len() > 1 {
        let mut head = vec!["algorithm".to_string(), "impl".to_string()];
        for l in &r.config.msg_sizes {
            head.push(format!("sign {l} B"));
        }
        for l in &r.config.msg_sizes {
            head.push(format!("verify {l} B"));
        }
        let mut t = Table {
            head,
            rows: Vec::new(),
        };
        for (imp, alg) in pairs(r) {
            let mut row = vec![alg.clone(), imp.clone()];
            for op in [Op::Sign, Op::Verify] {
                for &l in &r.config.msg_sizes {
                    row.push(cell(find(r, &imp, &alg, op, Some(l))));
                }
            }
            if row[2..].iter().any(|c| c != "-") {
                t.rows.push(row);
            }
        }
        t.render("Message length: median latency (us)", &mut out);
    }

    let mut ratios = Table::new(&["algorithm", "op", "peer", "pqlab / peer"]);
    for x in r.results.iter().filter(|x| x.implementation != "pqlab") {
        if let Some(o) = find(r, "pqlab", &x.alg, x.op, x.msg_len) {
            let op = match x.msg_len {
                Some(l) => format!("{} {l} B", x.op.name()),
                None => x.op.name().to_string(),
            };
            ratios.rows.push(vec![
                x.alg.clone(),
                op,
                x.implementation.clone(),
                format!("{:.2}", o.summary.median_ns / x.summary.median_ns),
            ]);
        }
    }
    ratios.render(
        "Ratio of medians to peers (below 1: pqlab is faster)",
        &mut out,
    );

    let mut rej = Table::new(&[
        "algorithm",
        "msg bytes",
        "signatures",
        "mean loops",
        "1",
        "2",
        "3",
        "4",
        "5",
        "6+",
    ]);
    for x in r.results.iter().filter(|x| x.implementation == "pqlab") {
        if let Some(d) = &x.signing_loops {
            let mut row = vec![
                x.alg.clone(),
                x.msg_len.map_or("-".into(), |l| l.to_string()),
                d.signatures.to_string(),
                format!("{:.2}", d.mean),
            ];
            for k in 1..=6u32 {
                let n: usize = d
                    .histogram
                    .iter()
                    .filter(|(i, _)| if k == 6 { *i >= 6 } else { *i == k })
                    .map(|(_, c)| c)
                    .sum();
                row.push(n.to_string());
            }
            rej.rows.push(row);
        }
    }
    rej.render(
        "ML-DSA signing: iterations of the rejection loop per signature (count of signatures)",
        &mut out,
    );

    let mut mem = Table::new(&[
        "algorithm",
        "impl",
        "op",
        "stack bytes",
        "heap bytes",
        "allocations",
    ]);
    for x in &r.results {
        if x.msg_len.is_some() && x.msg_len != first {
            continue;
        }
        mem.rows.push(vec![
            x.alg.clone(),
            super::impl_label(x),
            x.op.name().to_string(),
            x.stack_bytes.map_or("-".into(), |v| v.to_string()),
            x.heap_bytes.map_or("-".into(), |v| v.to_string()),
            x.alloc_count.map_or("-".into(), |v| v.to_string()),
        ]);
    }
    mem.render(
        "Memory per call (peak stack: painted stack; heap: counting allocator)",
        &mut out,
    );

    if let Some(model) = &r.config.power_model {
        let mut t = Table::new(&["algorithm", "impl", "op", "uJ / op", "ops per battery"]);
        for x in r
            .results
            .iter()
            .filter(|x| x.msg_len.is_none() || x.msg_len == first)
        {
            if let (Some(j), Some(n)) = (x.energy_j, x.ops_per_battery) {
                t.rows.push(vec![
                    x.alg.clone(),
                    super::impl_label(x),
                    x.op.name().to_string(),
                    format!("{:.2}", j * 1e6),
                    format!("{n:.3e}"),
                ]);
            }
        }
        t.render(
            &format!(
                "Energy ESTIMATE from a power model, not a measurement: {} W ({}); battery: {}",
                model.watts, model.source, model.battery
            ),
            &mut out,
        );
    }

    super::sections::all(r, &mut out);

    let mut st = Table::new(&["a", "b", "median a/b", "Welch t", "p"]);
    for c in &r.statistics.welch {
        st.rows.push(vec![
            c.a.clone(),
            c.b.clone(),
            format!("{:.3}", c.median_ratio),
            format!("{:.2}", c.welch.statistic),
            format!("{:.2e}", c.welch.p_value),
        ]);
    }
    st.render("Statistics: Welch's t-test between pairs", &mut out);
    if let Some(s) = r.statistics.spearman_pk_size_vs_verify {
        let _ = writeln!(
            out,
            "Spearman rank correlation, public-key size vs verification time (pqlab signatures): \
             rho = {:.3}, p = {:.3}",
            s.statistic, s.p_value
        );
    }
    let sw: Vec<_> = r.results.iter().filter_map(|x| x.shapiro_wilk).collect();
    if !sw.is_empty() {
        let normal = sw.iter().filter(|t| t.p_value >= 0.05).count();
        let _ = writeln!(
            out,
            "Shapiro-Wilk: {normal} of {} latency samples look normal at the 5% level (latencies \
             are usually skewed; hence medians)",
            sw.len()
        );
    }
    for c in &r.peer_checks {
        let _ = writeln!(
            out,
            "peer check {} {}: {} ({})",
            c.implementation,
            c.alg,
            if c.passed {
                "passed"
            } else {
                "FAILED, not timed"
            },
            c.detail
        );
    }
    out
}

/// Wraps `text` at `width` columns, each line after the first indented by `indent` spaces.
fn wrap(text: &str, width: usize, indent: usize, out: &mut String) {
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && line.len() + 1 + word.len() > width {
            let _ = writeln!(out, "{line}");
            line = " ".repeat(indent);
        } else if !line.is_empty() && !line.ends_with(' ') {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.trim().is_empty() {
        let _ = writeln!(out, "{line}");
    }
}

/// The one screen printed by default: the machine in a line, each question's table and
/// verdicts, pqlab against the fastest peers, and the peer checks in a line.
pub fn brief(r: &Report) -> String {
    let mut out = String::new();
    let m = &r.machine;
    let _ = writeln!(
        out,
        "pqlab compare: {} ({} cores), back end {}; {} timed calls per measurement{}",
        m.cpu,
        m.cores,
        m.backend,
        r.config.iterations,
        if r.config.quick { " (quick run)" } else { "" }
    );
    let s = super::summary::of(r);
    for q in &s.questions {
        let mut t = Table::new(&[]);
        t.head = q.head.clone();
        t.rows = q.rows.clone();
        if q.id == "q-battery" {
            // One screen: this table is in the HTML report and under --verbose.
            let _ = writeln!(out, "\n{}", q.title);
        } else {
            t.render(&q.title, &mut out);
        }
        for v in &q.verdicts {
            wrap(&format!("* {}", v.text), 110, 2, &mut out);
        }
    }
    if let Some(p) = &s.peers {
        let _ = writeln!(out, "\npqlab against the fastest peer of each operation");
        wrap(&format!("* {}", p.verdict.text), 110, 2, &mut out);
    }
    if !r.peer_checks.is_empty() {
        let failed: Vec<String> = r
            .peer_checks
            .iter()
            .filter(|c| !c.passed)
            .map(|c| format!("{} {}", c.implementation, c.alg))
            .collect();
        let _ = writeln!(
            out,
            "peer checks: {} of {} passed before timing{}",
            r.peer_checks.len() - failed.len(),
            r.peer_checks.len(),
            if failed.is_empty() {
                String::new()
            } else {
                format!("; FAILED, not timed: {}", failed.join(", "))
            }
        );
    }
    let _ = writeln!(
        out,
        "\n--verbose prints every table ({} measurements, memory, statistics, {} notes)",
        r.results.len(),
        r.notes.len()
    );
    out
}
