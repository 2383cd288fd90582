//! The HTML report: one self-contained page (inline SVG charts, a small inline script that
//! sorts and filters the tables, no external resources). The answers come first (the
//! questions of [`super::summary`], each verdict linked to the tables and charts it rests
//! on), then the charts, then the detailed tables, the machine and the terminal summary.

use std::fmt::Write as _;

use super::summary::{self, Summary, Verdict};
use super::{charts, html_tables, text};
use crate::LabError;
use crate::run::Report;

/// Escapes text for HTML.
pub(super) fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

const STYLE: &str = "body{font-family:sans-serif;max-width:1400px;margin:1.5em auto;padding:0 1em;\
color:#222}table{border-collapse:collapse;margin:.6em 0}td,th{border:1px solid #ccc;\
padding:3px 8px;text-align:right}td:first-child,th:first-child,td:nth-child(2){text-align:left}\
table.sortable th{cursor:pointer;background:#f0f0f0}table.sortable th:after{content:' \\2195';\
color:#999;font-size:80%}input.filter{margin:.6em 0 0;padding:3px 6px;width:18em}\
figure{margin:1.2em 0}figcaption{font-weight:bold;margin-bottom:.3em}figure svg{margin:0 8px 8px 0;\
vertical-align:top}pre{background:#f6f6f6;padding:1em;overflow-x:auto}.note{color:#555}\
ul.verdicts li{margin:.35em 0;line-height:1.4}ul.verdicts a{font-size:85%;color:#06c}\
section.q{border-left:4px solid #0072b2;padding-left:1em;margin:1.2em 0}\
.charts figure.half{display:inline-block;margin-right:1em}";

/// Sorting (click a column head) and filtering (type in the box above) of `table.sortable`.
const SCRIPT: &str = "document.querySelectorAll('table.sortable').forEach(function(t){\
var f=document.createElement('input');f.className='filter';f.placeholder='filter rows';\
t.parentNode.insertBefore(f,t);f.addEventListener('input',function(){var q=f.value.toLowerCase();\
Array.prototype.forEach.call(t.tBodies[0].rows,function(r){r.style.display=\
r.textContent.toLowerCase().indexOf(q)>=0?'':'none';});});\
Array.prototype.forEach.call(t.tHead.rows[0].cells,function(th,i){th.addEventListener('click',\
function(){var b=t.tBodies[0],rows=Array.prototype.slice.call(b.rows),up=th.dataset.up!=='1';\
th.dataset.up=up?'1':'0';rows.sort(function(x,y){var a=x.cells[i].textContent,c=y.cells[i]\
.textContent,na=parseFloat(a),nc=parseFloat(c),r=(!isNaN(na)&&!isNaN(nc))?na-nc:\
a.localeCompare(c);return up?r:-r;});rows.forEach(function(r){b.appendChild(r);});});});});";

/// A sortable, filterable table.
pub(super) fn table(id: &str, head: &[String], rows: &[Vec<String>]) -> String {
    let mut h = format!("<table id=\"{id}\" class=\"sortable\"><thead><tr>");
    for c in head {
        let _ = write!(h, "<th>{}</th>", esc(c));
    }
    h.push_str("</tr></thead><tbody>");
    for r in rows {
        h.push_str("<tr>");
        for c in r {
            let _ = write!(h, "<td>{}</td>", esc(c));
        }
        h.push_str("</tr>");
    }
    h.push_str("</tbody></table>");
    h
}

/// What an anchor shows, for the links after a verdict.
fn evidence_name(id: &str) -> String {
    match id {
        "t-sizes" => "sizes table".into(),
        "t-latency" => "latency table".into(),
        "t-memory" => "memory table".into(),
        "t-peers" => "peer table".into(),
        "chart-sizes" => "sizes chart".into(),
        "chart-peer-ratio" => "peer-ratio charts".into(),
        _ => match id.strip_prefix("chart-latency-") {
            Some(op) => format!("{op} chart"),
            None => id.to_string(),
        },
    }
}

fn verdicts(vs: &[&Verdict], ids: &[String], h: &mut String) {
    h.push_str("<ul class=\"verdicts\">");
    for v in vs {
        let links: Vec<String> = v
            .evidence
            .iter()
            .filter(|e| ids.contains(e))
            .map(|e| format!("<a href=\"#{e}\">{}</a>", evidence_name(e)))
            .collect();
        let _ = write!(h, "<li>{}", esc(&v.text));
        if !links.is_empty() {
            let _ = write!(h, " <span class=\"note\">[{}]</span>", links.join(" · "));
        }
        h.push_str("</li>");
    }
    h.push_str("</ul>");
}

/// The answers: each question's table and verdicts, and pqlab against the fastest peers.
fn answers(s: &Summary, ids: &[String], h: &mut String) {
    h.push_str(
        "<h2 id=\"answers\">The answers</h2><p class=\"note\">Computed from this run's \
         medians; the verdicts compare pqlab's implementations of the schemes (the choice of \
         scheme), the last table pqlab against the fastest other implementation.</p>",
    );
    for q in &s.questions {
        let _ = write!(
            h,
            "<section class=\"q\" id=\"{}\"><h3>{}</h3>",
            q.id,
            esc(&q.title)
        );
        h.push_str(&table(&format!("{}-table", q.id), &q.head, &q.rows));
        verdicts(&q.verdicts.iter().collect::<Vec<_>>(), ids, h);
        h.push_str("</section>");
    }
    if let Some(p) = &s.peers {
        h.push_str(
            "<section class=\"q\" id=\"q-peers\"><h3>How does pqlab stand against the fastest \
             peer? (pqlab / fastest peer; below 1: pqlab is faster)</h3>",
        );
        let head = [
            "scheme",
            "op",
            "pqlab us",
            "fastest peer",
            "peer us",
            "pqlab / peer",
        ]
        .map(String::from);
        let rows: Vec<Vec<String>> = p
            .rows
            .iter()
            .map(|r| {
                vec![
                    summary::pretty(&r.alg),
                    r.op.name().to_string(),
                    super::us(r.pqlab_ns),
                    r.peer.clone(),
                    super::us(r.peer_ns),
                    format!("{:.2}", r.ratio),
                ]
            })
            .collect();
        h.push_str(&table("t-peers", &head, &rows));
        verdicts(&[&p.verdict], ids, h);
        h.push_str("</section>");
    }
}

/// The report as one HTML page.
pub fn to_html(r: &Report) -> Result<String, LabError> {
    let charts = charts::all(r)?;
    let mut ids: Vec<String> = charts.iter().map(|c| c.id.clone()).collect();
    ids.extend(["t-sizes", "t-latency", "t-memory", "t-peers"].map(String::from));
    let mut h = String::new();
    let m = &r.machine;
    let _ = write!(
        h,
        "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">\
         <title>pqlab compare</title><style>{STYLE}</style></head><body>\
         <h1>pqlab compare</h1><p class=\"note\">{} ({} cores), back end {}; {} timed calls per \
         measurement after {} warm-up calls{}. Every figure is a median over fresh inputs; \
         smaller is better for every size and time. <a href=\"#machine\">Machine</a> · \
         <a href=\"#charts\">Charts</a> · <a href=\"#tables\">Tables</a></p>",
        esc(&m.cpu),
        m.cores,
        esc(&m.backend),
        r.config.iterations,
        r.config.warmup,
        if r.config.quick {
            " (a quick run: few iterations, expect noise)"
        } else {
            ""
        }
    );
    answers(&summary::of(r), &ids, &mut h);
    h.push_str("<h2 id=\"charts\">Charts</h2><div class=\"charts\">");
    for c in &charts {
        let _ = write!(
            h,
            "<figure id=\"{}\"><figcaption>{}</figcaption>{}</figure>",
            c.id,
            esc(&c.title),
            c.svg
        );
    }
    h.push_str("</div>");
    // The studies' claims beside this run's figures, before the detailed tables.
    h.push_str(
        &r.published
            .as_ref()
            .map_or(String::new(), super::published::html),
    );
    h.push_str("<h2 id=\"tables\">Tables</h2>");
    html_tables::all(r, &mut h);
    h.push_str(&super::reductions::html(r));
    let _ = write!(
        h,
        "<h2>Machine</h2><table id=\"machine\"><tr><th>cpu</th><td>{}</td></tr>\
         <tr><th>cores</th><td>{}</td></tr><tr><th>TSC</th><td>{}</td></tr>\
         <tr><th>features</th><td>{}</td></tr><tr><th>compiler</th><td>{}</td></tr>\
         <tr><th>system</th><td>{}</td></tr></table><p class=\"note\">{}. Energy figures, where \
         shown, are estimates from a power model, not measurements.</p>",
        esc(&m.cpu),
        m.cores,
        m.tsc_hz
            .map_or("n/a".into(), |v| format!("{:.3} GHz", v / 1e9)),
        esc(&m.features.join(" ")),
        esc(&m.rustc),
        esc(&m.os),
        esc(r.config.method)
    );
    let _ = write!(
        h,
        "<h2>Summary and statistics</h2><pre id=\"summary\">{}</pre>\
         <script>{SCRIPT}</script></body></html>",
        esc(&text::summary(r))
    );
    Ok(h)
}

/// The ids of the charts a report's page holds (for tests).
pub fn chart_ids(r: &Report) -> Result<Vec<String>, LabError> {
    Ok(charts::all(r)?.into_iter().map(|c| c.id).collect())
}
