//! The HTML report: one self-contained page (inline SVG charts, no scripts, no external
//! resources) with the tables of the terminal summary, the statistics and the machine.

use std::fmt::Write as _;

use super::{charts, text, us};
use crate::LabError;
use crate::run::Report;

/// Escapes text for HTML.
fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

const STYLE: &str = "body{font-family:sans-serif;max-width:1100px;margin:2em auto;color:#222}\
table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:3px 8px;\
text-align:right}td:first-child,th:first-child,td:nth-child(2){text-align:left}\
figure{margin:1.5em 0}figcaption{font-weight:bold;margin-bottom:.3em}pre{background:#f6f6f6;\
padding:1em;overflow-x:auto}.note{color:#555}";

/// The report as one HTML page.
pub fn to_html(r: &Report) -> Result<String, LabError> {
    let charts = charts::all(r)?;
    let mut h = String::new();
    let _ = write!(
        h,
        "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">\
         <title>pqlab compare</title><style>{STYLE}</style></head><body>\
         <h1>pqlab compare</h1>"
    );
    let m = &r.machine;
    let _ = write!(
        h,
        "<h2>Machine</h2><table id=\"machine\"><tr><th>cpu</th><td>{}</td></tr>\
         <tr><th>cores</th><td>{}</td></tr><tr><th>TSC</th><td>{}</td></tr>\
         <tr><th>features</th><td>{}</td></tr><tr><th>compiler</th><td>{}</td></tr>\
         <tr><th>system</th><td>{}</td></tr></table>\
         <p class=\"note\">{} timed calls per measurement after {} warm-up calls. {}.</p>",
        esc(&m.cpu),
        m.cores,
        m.tsc_hz
            .map_or("n/a".into(), |v| format!("{:.3} GHz", v / 1e9)),
        esc(&m.features.join(" ")),
        esc(&m.rustc),
        esc(&m.os),
        r.config.iterations,
        r.config.warmup,
        esc(r.config.method)
    );
    let _ = write!(
        h,
        "<h2>How to read it</h2><p>Every figure is a median over fresh inputs. Smaller is better \
         for every size and time; the ratio chart is below 1 where pqlab is faster than the peer. \
         Energy figures, where shown, are estimates from a power model, not measurements.</p>"
    );
    let _ = write!(
        h,
        "<h2>Measurements</h2><table id=\"results\"><tr><th>impl</th><th>algorithm</th>\
         <th>op</th><th>msg bytes</th><th>median us</th><th>p05</th><th>p95</th><th>CV</th>\
         <th>median TSC</th><th>stack B</th><th>heap B</th><th>Shapiro-Wilk p</th></tr>"
    );
    for x in &r.results {
        let s = &x.summary;
        let _ = write!(
            h,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>\
             <td>{:.3}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            esc(&super::impl_label(x)),
            esc(&x.alg),
            x.op.name(),
            x.msg_len.map_or("-".into(), |v| v.to_string()),
            us(s.median_ns),
            us(s.p05_ns),
            us(s.p95_ns),
            s.cv,
            s.median_cycles.map_or("-".into(), |c| format!("{c:.0}")),
            x.stack_bytes.map_or("-".into(), |v| v.to_string()),
            x.heap_bytes.map_or("-".into(), |v| v.to_string()),
            x.shapiro_wilk
                .map_or("-".into(), |t| format!("{:.3}", t.p_value)),
        );
    }
    h.push_str("</table>");
    tables_and_profile(r, &mut h);
    h.push_str(&super::reductions::html(r));
    h.push_str("<h2>Charts</h2>");
    for c in &charts {
        let _ = write!(
            h,
            "<figure id=\"{}\"><figcaption>{}</figcaption>{}</figure>",
            c.id,
            esc(&c.title),
            c.svg
        );
    }
    h.push_str(
        &r.published
            .as_ref()
            .map_or(String::new(), super::published::html),
    );
    let _ = write!(
        h,
        "<h2>Summary and statistics</h2><pre id=\"summary\">{}</pre></body></html>",
        esc(&text::summary(r))
    );
    Ok(h)
}

/// The ids of the charts a report's page holds (for tests).
pub fn chart_ids(r: &Report) -> Result<Vec<String>, LabError> {
    Ok(charts::all(r)?.into_iter().map(|c| c.id).collect())
}

/// The precomputed tables and, in a profile build, the per-kernel profile.
fn tables_and_profile(r: &Report, h: &mut String) {
    h.push_str(
        "<h2>Precomputed tables</h2><table id=\"static-tables\"><tr><th>algorithm</th>\
         <th>table</th><th>crate</th><th>bytes</th></tr>",
    );
    for a in &r.static_tables {
        for t in &a.tables {
            let _ = write!(
                h,
                "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                esc(&a.alg),
                esc(t.name),
                esc(t.krate),
                t.bytes
            );
        }
        let _ = write!(
            h,
            "<tr><td>{}</td><td>total</td><td></td><td>{}</td></tr>",
            esc(&a.alg),
            a.total_bytes
        );
    }
    h.push_str("</table>");
    let Some(rows) = &r.profile else {
        return;
    };
    let kernels = pqlab_profile::Kernel::ALL.map(|k| k.name());
    h.push_str(
        "<h2>Profile</h2><p class=\"note\">Share of each operation's time-stamp-counter ticks \
         spent in each kernel (self time), percent; a profile build, so the hooks' own cost is \
         included.</p><table id=\"profile\"><tr><th>algorithm</th><th>op</th>",
    );
    for k in kernels {
        let _ = write!(h, "<th>{k}</th>");
    }
    h.push_str("<th>other</th></tr>");
    for p in rows {
        let mut op = p.op.name().to_string();
        if let Some(l) = p.msg_len {
            op.push_str(&format!(" {l} B"));
        }
        if let Some(v) = &p.variant {
            op.push_str(&format!(" [{v}]"));
        }
        let _ = write!(h, "<tr><td>{}</td><td>{}</td>", esc(&p.alg), esc(&op));
        for k in kernels {
            let cell = p
                .shares
                .iter()
                .find(|s| s.kernel == k)
                .map_or("-".into(), |s| format!("{:.1}", s.percent));
            let _ = write!(h, "<td>{cell}</td>");
        }
        let _ = write!(h, "<td>{:.1}</td></tr>", p.other_percent);
    }
    h.push_str("</table>");
}
