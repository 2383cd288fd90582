//! The report's charts: what each shows, from a [`Report`]; the drawing is in `plot.rs`.
//!
//! Grouped bars put the parameter set on the x axis and each implementation in its own colour,
//! with a legend beside the plot; where one chart would hold too many lines (latency against
//! message length, pqlab's ratio to its peers) there is one small chart per scheme or per
//! operation instead (small multiples).

use super::plot::{self, Bars};
use super::summary::pretty;
use crate::LabError;
use crate::registry::Op;
use crate::run::{Report, ResultRow};

/// A chart: an identifier for the page, a title and one SVG or several small ones.
pub struct Chart {
    /// The element id (`chart-...`).
    pub id: String,
    /// The caption.
    pub title: String,
    /// The SVG document, or several side by side (small multiples).
    pub svg: String,
}

const WIDE: (u32, u32) = (900, 320);
const SMALL: (u32, u32) = (440, 280);

/// The parameter set a measurement belongs to on the x axis: FN-DSA's peer rows sit with
/// Falcon of the same degree.
fn group_of(alg: &str) -> String {
    match alg.strip_prefix("fn-dsa-") {
        Some(n) => format!("falcon-{n}"),
        None => alg.to_string(),
    }
}

/// The series name of a measurement: the implementation, with its variant.
fn series_of(x: &ResultRow) -> String {
    super::impl_label(x)
}

/// pqlab's algorithms of one kind (signature or KEM), in report order.
fn algs(r: &Report, signature: bool) -> Vec<String> {
    r.sizes
        .iter()
        .filter(|s| s.implementation == crate::ours::PQLAB && s.signature.is_some() == signature)
        .map(|s| s.alg.clone())
        .collect()
}

/// Sizes: grouped bars per parameter set, one chart for signatures and one for KEMs.
fn sizes(r: &Report) -> Result<Option<Chart>, LabError> {
    let mut svgs = Vec::new();
    for (signature, title, out) in [
        (true, "Signatures", "signature"),
        (false, "KEMs", "ciphertext"),
    ] {
        let groups = algs(r, signature);
        if groups.is_empty() {
            continue;
        }
        let rows: Vec<_> = groups
            .iter()
            .filter_map(|a| {
                r.sizes
                    .iter()
                    .find(|s| s.implementation == crate::ours::PQLAB && &s.alg == a)
            })
            .collect();
        let series = vec![
            (
                "public key".to_string(),
                rows.iter().map(|s| Some(s.public_key as f64)).collect(),
            ),
            (
                out.to_string(),
                rows.iter()
                    .map(|s| s.signature.or(s.ciphertext).map(|v| v as f64))
                    .collect(),
            ),
            (
                "secret key".to_string(),
                rows.iter().map(|s| Some(s.secret_key as f64)).collect(),
            ),
        ];
        let labels: Vec<String> = groups.iter().map(|a| pretty(a)).collect();
        svgs.push(
            Bars {
                title,
                y_desc: "bytes",
                groups: &labels,
                series: &series,
                log: false,
                reference: None,
                size: (620, 300),
                by_name: false,
            }
            .draw()?,
        );
    }
    Ok((!svgs.is_empty()).then(|| Chart {
        id: "chart-sizes".into(),
        title: "Sizes per parameter set (bytes; pqlab, the standards' encodings)".into(),
        svg: svgs.concat(),
    }))
}

/// Latency of one operation: parameter sets on the x axis, implementations as series.
fn latency(r: &Report, op: Op, first: Option<usize>) -> Result<Option<Chart>, LabError> {
    let rows: Vec<&ResultRow> = r
        .results
        .iter()
        .filter(|x| x.op == op && (x.msg_len.is_none() || x.msg_len == first))
        .collect();
    if rows.is_empty() {
        return Ok(None);
    }
    let mut groups: Vec<String> = Vec::new();
    let mut names: Vec<String> = Vec::new();
    for x in &rows {
        let g = group_of(&x.alg);
        if !groups.contains(&g) {
            groups.push(g);
        }
        let s = series_of(x);
        if !names.contains(&s) {
            names.push(s);
        }
    }
    let series: Vec<(String, Vec<Option<f64>>)> = names
        .iter()
        .map(|n| {
            let vals = groups
                .iter()
                .map(|g| {
                    rows.iter()
                        .find(|x| &series_of(x) == n && &group_of(&x.alg) == g)
                        .map(|x| x.summary.median_ns / 1000.0)
                })
                .collect();
            (n.clone(), vals)
        })
        .collect();
    let labels: Vec<String> = groups.iter().map(|g| pretty(g)).collect();
    let msg = if op.takes_message() {
        first.map_or(String::new(), |l| format!(", {l}-byte messages"))
    } else {
        String::new()
    };
    Ok(Some(Chart {
        id: format!("chart-latency-{}", op.name()),
        title: format!(
            "{} latency per parameter set and implementation (median us, log scale{msg}; \
             FN-DSA's fn-dsa crate sits with Falcon)",
            op.name()
        ),
        svg: Bars {
            title: "",
            y_desc: "median us",
            groups: &labels,
            series: &series,
            log: true,
            reference: None,
            size: WIDE,
            by_name: true,
        }
        .draw()?,
    }))
}

/// One signing-time histogram per signature scheme (pqlab), with its signing-loop counts.
fn histograms(r: &Report, first: Option<usize>) -> Result<Vec<Chart>, LabError> {
    let mut charts = Vec::new();
    for x in r.results.iter().filter(|x| {
        x.op == Op::Sign
            && x.implementation == crate::ours::PQLAB
            && x.msg_len == first
            && !x.sample_ns.is_empty()
    }) {
        let us: Vec<f64> = x.sample_ns.iter().map(|v| v / 1000.0).collect();
        let variant = x
            .variant
            .as_ref()
            .map_or(String::new(), |v| format!("-{}", v.replace(' ', "-")));
        let loops = x.signing_loops.as_ref();
        let loop_text = loops.map_or(String::new(), |l| {
            format!(
                "; mean {:.2} signing-loop iterations (rejection sampling)",
                l.mean
            )
        });
        let size = if loops.is_some() {
            (720, 250)
        } else {
            (440, 250)
        };
        charts.push(Chart {
            id: format!("chart-sign-histogram-{}{variant}", x.alg),
            title: format!(
                "{}{} signing time ({} signatures{loop_text})",
                pretty(&x.alg),
                x.variant
                    .as_ref()
                    .map_or(String::new(), |v| format!(" [{v}]")),
                us.len()
            ),
            svg: plot::histogram(
                &us,
                30.min(us.len().max(1)),
                loops.map(|l| l.histogram.as_slice()),
                size,
            )?,
        });
    }
    Ok(charts)
}

/// Latency against message length: one small chart per scheme.
fn by_length(r: &Report) -> Result<Option<Chart>, LabError> {
    if r.config.msg_sizes.len() < 2 {
        return Ok(None);
    }
    let mut groups: Vec<String> = Vec::new();
    for x in r.results.iter().filter(|x| x.msg_len.is_some()) {
        let g = group_of(&x.alg);
        if !groups.contains(&g) {
            groups.push(g);
        }
    }
    let mut svgs = Vec::new();
    for g in &groups {
        let mut lines: Vec<plot::Line> = Vec::new();
        for x in r
            .results
            .iter()
            .filter(|x| x.msg_len.is_some() && &group_of(&x.alg) == g)
        {
            let (name, op) = (series_of(x), x.op.name());
            let point = (
                x.msg_len.unwrap_or(1).max(1) as f64,
                x.summary.median_ns / 1000.0,
            );
            match lines.iter_mut().find(|(n, o, _)| *n == name && *o == op) {
                Some((_, _, p)) => p.push(point),
                None => lines.push((name, op, vec![point])),
            }
        }
        svgs.push(plot::lines(
            &pretty(g),
            "message bytes",
            "median us",
            &lines,
            (520, 300),
        )?);
    }
    Ok((!svgs.is_empty()).then(|| Chart {
        id: "chart-message-length".into(),
        title: "Latency vs message length (median, log-log; one chart per scheme)".into(),
        svg: svgs.concat(),
    }))
}

/// pqlab's median over each peer's: one small chart per operation.
fn peer_ratio(r: &Report, first: Option<usize>) -> Result<Option<Chart>, LabError> {
    let mut svgs = Vec::new();
    for op in Op::ALL {
        let mut groups: Vec<String> = Vec::new();
        let mut peers: Vec<String> = Vec::new();
        let mut points: Vec<(String, String, f64)> = Vec::new();
        for x in r.results.iter().filter(|x| {
            x.implementation != crate::ours::PQLAB
                && x.op == op
                && (x.msg_len.is_none() || x.msg_len == first)
        }) {
            let g = group_of(&x.alg);
            let Some(o) = r.results.iter().find(|o| {
                o.implementation == crate::ours::PQLAB
                    && o.variant.is_none()
                    && o.alg == g
                    && o.op == op
                    && o.msg_len == x.msg_len
            }) else {
                continue;
            };
            if !groups.contains(&g) {
                groups.push(g.clone());
            }
            if !peers.contains(&x.implementation) {
                peers.push(x.implementation.clone());
            }
            points.push((
                g,
                x.implementation.clone(),
                o.summary.median_ns / x.summary.median_ns,
            ));
        }
        if points.is_empty() {
            continue;
        }
        let series: Vec<(String, Vec<Option<f64>>)> = peers
            .iter()
            .map(|p| {
                let vals = groups
                    .iter()
                    .map(|g| {
                        points
                            .iter()
                            .find(|(pg, pp, _)| pg == g && pp == p)
                            .map(|q| q.2)
                    })
                    .collect();
                (p.clone(), vals)
            })
            .collect();
        let labels: Vec<String> = groups.iter().map(|g| pretty(g)).collect();
        svgs.push(
            Bars {
                title: op.name(),
                y_desc: "pqlab / peer",
                groups: &labels,
                series: &series,
                log: true,
                reference: Some(1.0),
                size: SMALL,
                by_name: true,
            }
            .draw()?,
        );
    }
    Ok((!svgs.is_empty()).then(|| Chart {
        id: "chart-peer-ratio".into(),
        title: "pqlab's median over each peer's, per operation (below the dashed line at 1: \
                pqlab is faster; log scale)"
            .into(),
        svg: svgs.concat(),
    }))
}

/// Every chart of the report, in page order.
pub fn all(r: &Report) -> Result<Vec<Chart>, LabError> {
    let first = r.config.msg_sizes.first().copied();
    let mut charts = Vec::new();
    charts.extend(sizes(r)?);
    for op in Op::ALL {
        charts.extend(latency(r, op, first)?);
    }
    charts.extend(peer_ratio(r, first)?);
    charts.extend(by_length(r)?);
    charts.extend(histograms(r, first)?);
    Ok(charts)
}
