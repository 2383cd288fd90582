//! The report's charts, drawn with `plotters` into SVG strings.

use plotters::coord::Shift;
use plotters::coord::ranged1d::SegmentValue;
use plotters::prelude::*;

use crate::LabError;
use crate::registry::Op;
use crate::run::{Report, ResultRow};

/// A chart: an identifier for the page, a title and the SVG.
pub struct Chart {
    /// The element id (`chart-...`).
    pub id: String,
    /// The caption.
    pub title: String,
    /// The SVG document.
    pub svg: String,
}

const W: u32 = 760;
const H: u32 = 380;
const PALETTE: [RGBColor; 6] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
];

fn err<E: std::fmt::Display>(e: E) -> LabError {
    LabError::Report(format!("chart: {e}"))
}

/// Draws with `f` on a fresh SVG canvas.
fn svg(
    f: impl FnOnce(&DrawingArea<SVGBackend<'_>, Shift>) -> Result<(), LabError>,
) -> Result<String, LabError> {
    let mut s = String::new();
    {
        let root = SVGBackend::with_string(&mut s, (W, H)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        f(&root)?;
        root.present().map_err(err)?;
    }
    Ok(s)
}

/// A bar chart of labelled values; stacked when a bar has two parts. `log` draws the value
/// axis on a log scale.
fn bars(
    title: &str,
    y_desc: &str,
    labels: &[String],
    parts: &[(&str, Vec<f64>)],
    log: bool,
) -> Result<String, LabError> {
    svg(|root| {
        let n = labels.len().max(1) as i32 - 1;
        let totals: Vec<f64> = (0..labels.len())
            .map(|i| {
                parts
                    .iter()
                    .map(|(_, v)| v.get(i).copied().unwrap_or(0.0))
                    .sum()
            })
            .collect();
        let max = totals.iter().copied().fold(1.0f64, f64::max) * 1.15;
        let min_pos = totals
            .iter()
            .copied()
            .filter(|v| *v > 0.0)
            .fold(f64::INFINITY, f64::min);
        let min = if min_pos.is_finite() {
            min_pos / 2.0
        } else {
            0.1
        };
        let label_of = |v: &SegmentValue<i32>| match v {
            SegmentValue::CenterOf(i) => labels.get(*i as usize).cloned().unwrap_or_default(),
            _ => String::new(),
        };
        let mut builder = ChartBuilder::on(root);
        builder
            .caption(title, ("sans-serif", 18))
            .margin(10)
            .x_label_area_size(60)
            .y_label_area_size(70);
        macro_rules! draw {
            ($chart:expr, $base:expr) => {{
                let mut chart = $chart;
                chart
                    .configure_mesh()
                    .disable_x_mesh()
                    .x_labels(labels.len().max(1))
                    .x_label_formatter(&label_of)
                    .x_label_style(("sans-serif", 11))
                    .y_desc(y_desc)
                    .draw()
                    .map_err(err)?;
                for (k, (name, values)) in parts.iter().enumerate() {
                    let color = PALETTE[k % PALETTE.len()];
                    let rects =
                        values
                            .iter()
                            .enumerate()
                            .filter(|(_, v)| **v > 0.0)
                            .map(|(i, v)| {
                                let below: f64 = parts[..k]
                                    .iter()
                                    .map(|(_, p)| p.get(i).copied().unwrap_or(0.0))
                                    .sum();
                                let lo = if below > 0.0 { below } else { $base };
                                Rectangle::new(
                                    [
                                        (SegmentValue::Exact(i as i32), lo),
                                        (SegmentValue::Exact(i as i32 + 1), below + v),
                                    ],
                                    color.filled(),
                                )
                            });
                    chart
                        .draw_series(rects)
                        .map_err(err)?
                        .label(*name)
                        .legend(move |(x, y)| {
                            Rectangle::new([(x, y - 5), (x + 10, y + 5)], color.filled())
                        });
                }
                if parts.len() > 1 {
                    chart
                        .configure_series_labels()
                        .background_style(WHITE.mix(0.8))
                        .border_style(BLACK)
                        .draw()
                        .map_err(err)?;
                }
            }};
        }
        if log {
            draw!(
                builder
                    .build_cartesian_2d((0..n).into_segmented(), (min..max).log_scale())
                    .map_err(err)?,
                min
            );
        } else {
            draw!(
                builder
                    .build_cartesian_2d((0..n).into_segmented(), 0.0..max)
                    .map_err(err)?,
                0.0
            );
        }
        Ok(())
    })
}

/// A histogram of `values` (microseconds) in `buckets` equal bins.
fn histogram(title: &str, values: &[f64], buckets: usize) -> Result<String, LabError> {
    svg(|root| {
        let lo = values.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let (lo, hi) = if lo.is_finite() && hi > lo {
            (lo, hi)
        } else {
            (0.0, 1.0)
        };
        let width = (hi - lo) / buckets as f64;
        let mut counts = vec![0u32; buckets];
        for v in values {
            let b = (((v - lo) / width) as usize).min(buckets - 1);
            counts[b] += 1;
        }
        let top = f64::from(counts.iter().copied().max().unwrap_or(1)) * 1.1;
        let mut chart = ChartBuilder::on(root)
            .caption(title, ("sans-serif", 18))
            .margin(10)
            .x_label_area_size(40)
            .y_label_area_size(60)
            .build_cartesian_2d(lo..hi, 0.0..top)
            .map_err(err)?;
        chart
            .configure_mesh()
            .x_desc("signing time (us)")
            .y_desc("signatures")
            .draw()
            .map_err(err)?;
        chart
            .draw_series(counts.iter().enumerate().map(|(i, &c)| {
                let x0 = lo + i as f64 * width;
                Rectangle::new([(x0, 0.0), (x0 + width, f64::from(c))], PALETTE[0].filled())
            }))
            .map_err(err)?;
        Ok(())
    })
}

/// Lines of median latency against message length, one per (implementation, algorithm, op).
fn by_length(title: &str, lines: &[(String, Vec<(f64, f64)>)]) -> Result<String, LabError> {
    svg(|root| {
        let xs = lines.iter().flat_map(|(_, p)| p.iter().map(|q| q.0));
        let ys = lines.iter().flat_map(|(_, p)| p.iter().map(|q| q.1));
        let (x0, x1) = xs.fold((f64::INFINITY, 1.0f64), |(a, b), x| (a.min(x), b.max(x)));
        let (y0, y1) = ys.fold((f64::INFINITY, 1.0f64), |(a, b), y| (a.min(y), b.max(y)));
        let x0 = if x0.is_finite() {
            x0.max(1.0) / 2.0
        } else {
            1.0
        };
        let y0 = if y0.is_finite() { y0 / 2.0 } else { 0.1 };
        let mut chart = ChartBuilder::on(root)
            .caption(title, ("sans-serif", 18))
            .margin(10)
            .x_label_area_size(40)
            .y_label_area_size(60)
            .build_cartesian_2d((x0..x1 * 2.0).log_scale(), (y0..y1 * 2.0).log_scale())
            .map_err(err)?;
        chart
            .configure_mesh()
            .x_desc("message length (bytes)")
            .y_desc("median (us)")
            .draw()
            .map_err(err)?;
        for (k, (name, points)) in lines.iter().enumerate() {
            let color = PALETTE[k % PALETTE.len()];
            chart
                .draw_series(LineSeries::new(
                    points.iter().copied(),
                    color.stroke_width(2),
                ))
                .map_err(err)?
                .label(name.as_str())
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 14, y)], color));
        }
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .draw()
            .map_err(err)?;
        Ok(())
    })
}

fn name(r: &ResultRow) -> String {
    match (r.implementation.as_str(), &r.variant) {
        ("pqlab", None) => r.alg.clone(),
        ("pqlab", Some(v)) => format!("{} ({v})", r.alg),
        (imp, _) => format!("{} ({imp})", r.alg),
    }
}

/// Every chart of the report, in page order.
pub fn all(r: &Report) -> Result<Vec<Chart>, LabError> {
    let mut charts = Vec::new();
    let first = r.config.msg_sizes.first().copied();

    let ours: Vec<_> = r
        .sizes
        .iter()
        .filter(|s| s.implementation == "pqlab")
        .collect();
    let labels: Vec<String> = ours.iter().map(|s| s.alg.clone()).collect();
    let pk: Vec<f64> = ours.iter().map(|s| s.public_key as f64).collect();
    let out: Vec<f64> = ours
        .iter()
        .map(|s| s.signature.or(s.ciphertext).unwrap_or(0) as f64)
        .collect();
    charts.push(Chart {
        id: "chart-sizes".into(),
        title: "Sizes per parameter set (bytes): public key + signature or ciphertext".into(),
        svg: bars(
            "Sizes (bytes)",
            "bytes",
            &labels,
            &[("public key", pk), ("signature / ciphertext", out)],
            false,
        )?,
    });

    for op in Op::ALL {
        let rows: Vec<&ResultRow> = r
            .results
            .iter()
            .filter(|x| x.op == op && (x.msg_len.is_none() || x.msg_len == first))
            .collect();
        if rows.is_empty() {
            continue;
        }
        let labels: Vec<String> = rows.iter().map(|x| name(x)).collect();
        let values: Vec<f64> = rows.iter().map(|x| x.summary.median_ns / 1000.0).collect();
        charts.push(Chart {
            id: format!("chart-latency-{}", op.name()),
            title: format!(
                "{} latency per parameter set (median, us, log scale)",
                op.name()
            ),
            svg: bars(
                &format!("{} (median us)", op.name()),
                "us",
                &labels,
                &[("median", values)],
                true,
            )?,
        });
    }

    for x in r.results.iter().filter(|x| {
        x.op == Op::Sign
            && x.implementation == "pqlab"
            && x.msg_len == first
            && !x.sample_ns.is_empty()
    }) {
        let us: Vec<f64> = x.sample_ns.iter().map(|v| v / 1000.0).collect();
        let variant = x
            .variant
            .as_ref()
            .map_or(String::new(), |v| format!("-{}", v.replace(' ', "-")));
        charts.push(Chart {
            id: format!("chart-sign-histogram-{}{variant}", x.alg),
            title: format!(
                "{} signing-time histogram ({} signatures; rejection sampling makes it multimodal)",
                x.alg,
                us.len()
            ),
            svg: histogram(&format!("{} signing time", x.alg), &us, 40)?,
        });
    }

    if r.config.msg_sizes.len() > 1 {
        let mut lines: Vec<(String, Vec<(f64, f64)>)> = Vec::new();
        for x in r.results.iter().filter(|x| x.msg_len.is_some()) {
            let key = format!("{} {}", name(x), x.op.name());
            let point = (
                x.msg_len.unwrap_or(1).max(1) as f64,
                x.summary.median_ns / 1000.0,
            );
            match lines.iter_mut().find(|(k, _)| *k == key) {
                Some((_, p)) => p.push(point),
                None => lines.push((key, vec![point])),
            }
        }
        if !lines.is_empty() {
            charts.push(Chart {
                id: "chart-message-length".into(),
                title: "Latency vs message length (median, log-log)".into(),
                svg: by_length("Latency vs message length", &lines)?,
            });
        }
    }

    let mut labels = Vec::new();
    let mut ratios = Vec::new();
    for x in r.results.iter().filter(|x| x.implementation != "pqlab") {
        let ours = r.results.iter().find(|o| {
            o.implementation == "pqlab"
                && o.variant.is_none()
                && o.alg == x.alg
                && o.op == x.op
                && o.msg_len == x.msg_len
        });
        if let Some(o) = ours
            && (x.msg_len.is_none() || x.msg_len == first)
        {
            labels.push(format!("{} {} / {}", x.alg, x.op.name(), x.implementation));
            ratios.push(o.summary.median_ns / x.summary.median_ns);
        }
    }
    if !labels.is_empty() {
        charts.push(Chart {
            id: "chart-peer-ratio".into(),
            title: "Ratio of pqlab's median to each peer's (below 1: pqlab is faster)".into(),
            svg: bars(
                "pqlab / peer (median)",
                "ratio",
                &labels,
                &[("ratio", ratios)],
                false,
            )?,
        });
    }
    Ok(charts)
}
