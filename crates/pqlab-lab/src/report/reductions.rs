//! The reduction-strategy table (`pqlab compare --reductions`) as terminal text and as an HTML
//! section: per module, the forward NTT, inverse NTT and whole operation in TSC ticks per
//! strategy, the change against Montgomery, the table bytes, and the comparison with the
//! Falcon study's figures.

use std::fmt::Write as _;

use crate::reductions::{ReductionRow, STUDY};
use crate::run::Report;

fn ticks(c: Option<f64>, ns: f64) -> String {
    match c {
        Some(c) => format!("{c:.0}"),
        None => format!("{ns:.0} ns"),
    }
}

fn pct(p: Option<f64>) -> String {
    p.map_or("-".into(), |p| format!("{p:+.1} %"))
}

/// A cell: the exact instruction count where there is one (the Cortex-M4 run), else TSC
/// ticks, else ns.
fn figure(instructions: Option<f64>, c: Option<f64>, ns: f64) -> String {
    match instructions {
        Some(i) => format!("{i:.0}"),
        None => ticks(c, ns),
    }
}

/// Whether the rows come from the Cortex-M4 (instruction counts).
fn on_m4(rows: &[ReductionRow]) -> bool {
    rows.iter().any(|x| x.ntt_instructions.is_some())
}

/// The cells of one row, in column order.
fn cells(x: &ReductionRow) -> Vec<String> {
    let op = match (x.op_cycles, x.op_ns) {
        (c, Some(ns)) => figure(x.op_instructions, c, ns),
        _ => "n/a".into(),
    };
    vec![
        x.module.clone(),
        x.strategy.clone(),
        figure(x.ntt_instructions, x.ntt_cycles, x.ntt_ns),
        pct(x.ntt_change_pct),
        figure(x.intt_instructions, x.intt_cycles, x.intt_ns),
        pct(x.intt_change_pct),
        format!("{} {op}", x.op),
        pct(x.op_change_pct),
        x.table_bytes.to_string(),
    ]
}

const HEAD: [&str; 9] = [
    "module", "strategy", "NTT", "vs mont", "iNTT", "vs mont", "whole op", "vs mont", "table B",
];

/// Whether this machine confirms the study, per study row: a sentence each.
pub fn verdicts(rows: &[ReductionRow]) -> Vec<String> {
    let who = if on_m4(rows) {
        "the Cortex-M4"
    } else {
        "this machine"
    };
    let mut out = Vec::new();
    for (module, s_ntt, s_intt, s_op) in STUDY {
        let Some(x) = rows
            .iter()
            .find(|x| x.module == module && x.strategy == "k2-red")
        else {
            continue;
        };
        let mut parts = Vec::new();
        let mut faster = 0;
        let mut total = 0;
        for (what, ours, study) in [
            ("NTT", x.ntt_change_pct, Some(s_ntt)),
            ("iNTT", x.intt_change_pct, Some(s_intt)),
            (x.op.as_str(), x.op_change_pct, Some(s_op)),
        ] {
            let study = study.unwrap_or(0.0);
            match ours {
                Some(o) => {
                    total += 1;
                    if o < 0.0 {
                        faster += 1;
                    }
                    let word = if o < 0.0 { "faster" } else { "slower" };
                    parts.push(format!("{what} {o:+.1} % ({word}; study {study:+.0} %)"));
                }
                None => parts.push(format!("{what} not measured (study {study:+.0} %)")),
            }
        }
        let verdict = if total > 0 && faster == total {
            "confirms the direction of the study's gains"
        } else if faster == 0 {
            "does NOT confirm the study's gains (K2-RED is slower here)"
        } else {
            "confirms the study's gains only in part"
        };
        out.push(format!(
            "{module}, K2-RED against Montgomery: {}; {who} {verdict}",
            parts.join(", ")
        ));
    }
    out
}

/// The table as terminal text.
pub fn text(r: &Report) -> String {
    let mut out = String::new();
    let m = &r.machine;
    if on_m4(&r.reductions) {
        let _ = writeln!(
            out,
            "target: cortex-m4 (QEMU netduinoplus2, STM32F405, -icount shift=0), run on {}",
            m.cpu
        );
        let _ = writeln!(
            out,
            "reduction strategies: median exact instruction counts, change against Montgomery \
             (negative = fewer), bytes of precomputed tables"
        );
    } else {
        let _ = writeln!(
            out,
            "machine: {} ({} cores), {}; TSC {}; {}",
            m.cpu,
            m.cores,
            m.os,
            m.tsc_hz
                .map_or("n/a".into(), |h| format!("{:.3} GHz", h / 1e9)),
            m.rustc
        );
        let _ = writeln!(
            out,
            "reduction strategies: median TSC ticks (fixed-rate counter, not core cycles), \
             change against Montgomery (negative = faster), bytes of precomputed tables"
        );
    }
    let mut table: Vec<Vec<String>> = vec![HEAD.iter().map(|s| s.to_string()).collect()];
    table.extend(r.reductions.iter().map(cells));
    let widths: Vec<usize> = (0..HEAD.len())
        .map(|c| table.iter().map(|row| row[c].len()).max().unwrap_or(0))
        .collect();
    for (i, row) in table.iter().enumerate() {
        let line: Vec<String> = row
            .iter()
            .zip(&widths)
            .enumerate()
            .map(|(c, (v, w))| {
                if c < 2 {
                    format!("{v:<w$}")
                } else {
                    format!("{v:>w$}")
                }
            })
            .collect();
        let _ = writeln!(out, "{}", line.join("  ").trim_end());
        if i == 0 {
            let _ = writeln!(out, "{}", "-".repeat(widths.iter().sum::<usize>() + 16));
        }
    }
    let _ = writeln!(out, "\nnotes:");
    let mut modules: Vec<&str> = Vec::new();
    for x in &r.reductions {
        if !modules.contains(&x.module.as_str()) {
            modules.push(&x.module);
        }
    }
    for m in modules {
        let rows: Vec<&ReductionRow> = r.reductions.iter().filter(|x| x.module == m).collect();
        if let Some(note) = rows.first().and_then(|x| x.note.as_ref()) {
            let _ = writeln!(out, "  {m}: {note}");
        }
        let what: Vec<String> = rows
            .iter()
            .map(|x| format!("{} = {}", x.strategy, x.reduction))
            .collect();
        let _ = writeln!(out, "    {}", what.join("; "));
    }
    let _ = writeln!(
        out,
        "  plain-% is variable time on most CPUs: a benchmark baseline, never for secrets"
    );
    for n in &r.notes {
        let _ = writeln!(out, "  {n}");
    }
    let _ = writeln!(out, "\nagainst the study (Falcon-1024, Celeron N4000):");
    for v in verdicts(&r.reductions) {
        let _ = writeln!(out, "  {v}");
    }
    out
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The table as an HTML section (empty when the report has no reduction table), with a bar
/// chart of the changes against Montgomery.
pub fn html(r: &Report) -> String {
    if r.reductions.is_empty() {
        return String::new();
    }
    let mut h = String::from(
        "<h2>Reduction strategies</h2><table id=\"reductions\"><tr><th>module</th>\
         <th>strategy</th><th>reduction</th><th>NTT UNIT</th><th>vs mont</th><th>iNTT UNIT</th>\
         <th>vs mont</th><th>whole op</th><th>vs mont</th><th>table B</th></tr>",
    )
    .replace(
        "UNIT",
        if on_m4(&r.reductions) {
            "M4 instructions"
        } else {
            "TSC"
        },
    );
    for x in &r.reductions {
        let c = cells(x);
        let _ = write!(
            h,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>\
             <td>{}</td><td>{}</td><td>{}</td></tr>",
            esc(&c[0]),
            esc(&c[1]),
            esc(&x.reduction),
            esc(&c[2]),
            esc(&c[3]),
            esc(&c[4]),
            esc(&c[5]),
            esc(&c[6]),
            esc(&c[7]),
            esc(&c[8]),
        );
    }
    h.push_str("</table><ul class=\"note\">");
    for v in verdicts(&r.reductions) {
        let _ = write!(h, "<li>{}</li>", esc(&v));
    }
    h.push_str("</ul>");
    h.push_str(&chart(&r.reductions));
    h
}

/// Horizontal bars of the % change against Montgomery (forward NTT, inverse NTT, whole op)
/// for every non-Montgomery row, as inline SVG; bars left of the axis are faster.
fn chart(rows: &[ReductionRow]) -> String {
    let bars: Vec<(String, f64)> = rows
        .iter()
        .filter(|x| x.strategy != "montgomery")
        .flat_map(|x| {
            [
                ("NTT", x.ntt_change_pct),
                ("iNTT", x.intt_change_pct),
                (x.op.as_str(), x.op_change_pct),
            ]
            .into_iter()
            .filter_map(move |(w, p)| p.map(|p| (format!("{} {} {w}", x.module, x.strategy), p)))
        })
        .collect();
    let max = bars
        .iter()
        .map(|b| b.1.abs())
        .fold(10.0f64, f64::max)
        .min(400.0);
    let (lw, bw, rh) = (330.0, 300.0, 16.0);
    let height = rh * bars.len() as f64 + 30.0;
    let mid = lw + bw;
    let mut s = format!(
        "<figure id=\"reductions-chart\"><figcaption>Change against Montgomery, % (left: \
         faster)</figcaption><svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" \
         height=\"{height}\" font-size=\"11\" font-family=\"sans-serif\">",
        lw + 2.0 * bw + 60.0
    );
    for (i, (label, p)) in bars.iter().enumerate() {
        let y = 10.0 + rh * i as f64;
        let len = p.abs().min(max) / max * bw;
        let x = if *p < 0.0 { mid - len } else { mid };
        let colour = if *p < 0.0 { "#3a7" } else { "#c54" };
        let _ = write!(
            s,
            "<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>\
             <rect x=\"{x:.1}\" y=\"{y:.1}\" width=\"{len:.1}\" height=\"{:.1}\" fill=\"{colour}\"/>\
             <text x=\"{:.1}\" y=\"{}\">{p:+.1}</text>",
            lw - 6.0,
            y + 11.0,
            esc(label),
            rh - 3.0,
            if *p < 0.0 { mid + 4.0 } else { x + len + 4.0 },
            y + 11.0,
        );
    }
    let _ = write!(
        s,
        "<line x1=\"{mid}\" y1=\"5\" x2=\"{mid}\" y2=\"{}\" stroke=\"#333\"/></svg></figure>",
        height - 10.0
    );
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(module: &str, strategy: &str, op: Option<f64>, change: Option<f64>) -> ReductionRow {
        ReductionRow {
            module: module.into(),
            op: "keygen".into(),
            strategy: strategy.into(),
            reduction: "r".into(),
            ntt_cycles: Some(100.0),
            intt_cycles: Some(110.0),
            op_cycles: op,
            ntt_ns: 40.0,
            intt_ns: 44.0,
            ntt_instructions: None,
            intt_instructions: None,
            op_instructions: None,
            op_ns: op.map(|c| c / 2.5),
            ntt_change_pct: change,
            intt_change_pct: change,
            op_change_pct: op.and(change),
            table_bytes: 8212,
            constant_time: true,
            note: None,
        }
    }

    /// The whole key generation has its cell and enters the verdict against the study.
    #[test]
    fn keygen_cells_and_verdict() {
        let rows = [
            row("falcon-1024 keygen", "montgomery", Some(6.0e7), Some(0.0)),
            row("falcon-1024 keygen", "k2-red", Some(6.1e7), Some(1.5)),
        ];
        let c = cells(&rows[1]);
        assert_eq!(c[6], "keygen 61000000");
        assert_eq!(c[7], "+1.5 %");
        let v = verdicts(&rows);
        assert_eq!(v.len(), 1);
        assert!(
            v[0].contains("keygen +1.5 % (slower; study -4 %)"),
            "{}",
            v[0]
        );
        assert!(v[0].contains("does NOT confirm"), "{}", v[0]);
        // A row without a whole operation says so.
        let na = row("falcon-512 keygen", "barrett", None, Some(-2.0));
        assert_eq!(cells(&na)[6], "keygen n/a");
        assert_eq!(cells(&na)[7], "-");
    }
}
