//! Drawing primitives of the report's charts (plotters, SVG): grouped bars with a legend beside
//! the plot, lines on log-log axes, and a histogram beside the rejection-loop counts. Log axes
//! get plain tick labels (1, 10, 100, not 1e1), and every legend sits outside the plot so that
//! it covers no data.

use std::ops::Range;

use plotters::coord::Shift;
use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint, Ranged};
use plotters::prelude::*;

use crate::LabError;

/// Colours of the series (colour-blind-safe Okabe-Ito order, then grey).
pub(super) const PALETTE: [RGBColor; 8] = [
    RGBColor(0, 114, 178),
    RGBColor(230, 159, 0),
    RGBColor(0, 158, 115),
    RGBColor(204, 121, 167),
    RGBColor(86, 180, 233),
    RGBColor(213, 94, 0),
    RGBColor(240, 228, 66),
    RGBColor(110, 110, 110),
];

const FONT: &str = "sans-serif";

/// Implementations in a fixed colour order, so that each keeps its colour in every chart.
const KNOWN: [&str; 8] = [
    "pqlab",
    "pqcrypto",
    "libcrux",
    "rustcrypto",
    "fn-dsa",
    "liboqs",
    "aws-lc-rs",
    "pqlab [expanded key]",
];

/// The colour of series `k` named `name`: by name for a known implementation, else by place.
fn colour(name: &str, k: usize, by_name: bool) -> RGBColor {
    let i = if by_name {
        KNOWN.iter().position(|n| *n == name).unwrap_or_else(|| {
            name.bytes().fold(0usize, |h, b| {
                h.wrapping_mul(31).wrapping_add(usize::from(b))
            })
        })
    } else {
        k
    };
    PALETTE[i % PALETTE.len()]
}

pub(super) fn err<E: std::fmt::Display>(e: E) -> LabError {
    LabError::Report(format!("chart: {e}"))
}

/// Draws with `f` on a fresh SVG canvas of `size`.
pub(super) fn svg(
    size: (u32, u32),
    f: impl FnOnce(&DrawingArea<SVGBackend<'_>, Shift>) -> Result<(), LabError>,
) -> Result<String, LabError> {
    let mut s = String::new();
    {
        let root = SVGBackend::with_string(&mut s, size).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        f(&root)?;
        root.present().map_err(err)?;
    }
    Ok(s)
}

/// An x axis of `n` groups, each one unit wide, with a tick (and label) at each group's centre.
struct Groups(usize);

impl Ranged for Groups {
    type FormatOption = DefaultFormatting;
    type ValueType = f64;

    fn map(&self, v: &f64, limit: (i32, i32)) -> i32 {
        let span = f64::from(limit.1 - limit.0);
        limit.0 + (v / self.0.max(1) as f64 * span).round() as i32
    }

    fn key_points<H: KeyPointHint>(&self, _hint: H) -> Vec<f64> {
        (0..self.0).map(|i| i as f64 + 0.5).collect()
    }

    fn range(&self) -> Range<f64> {
        0.0..self.0.max(1) as f64
    }
}

/// A number as a tick label: `1`, `20`, `500`, `2000`, `0.5`, `0.02`.
pub(super) fn plain(v: f64) -> String {
    if v >= 1.0 || v == 0.0 {
        format!("{v:.0}")
    } else {
        let s = format!("{v:.3}");
        s.trim_end_matches('0').to_string()
    }
}

/// Tick values of a log axis from `lo` to `hi`: 1, 2, 5 x 10^k, thinned to powers of ten when
/// that would be more than `max` ticks.
pub(super) fn log_ticks(lo: f64, hi: f64, max: usize) -> Vec<f64> {
    let mut all = Vec::new();
    let mut tens = Vec::new();
    let mut p = 10f64.powf(lo.log10().floor());
    while p <= hi * 1.0001 {
        for m in [1.0, 2.0, 5.0] {
            let v = p * m;
            if v >= lo * 0.9999 && v <= hi * 1.0001 {
                all.push(v);
                if m == 1.0 {
                    tens.push(v);
                }
            }
        }
        p *= 10.0;
    }
    if all.len() <= max {
        all
    } else if tens.len() <= max {
        tens
    } else {
        tens.into_iter().step_by(2).collect()
    }
}

/// A log range around the positive values `vs` (with some head room).
fn log_range(vs: impl Iterator<Item = f64>) -> (f64, f64) {
    let (lo, hi) = vs
        .filter(|v| *v > 0.0 && v.is_finite())
        .fold((f64::INFINITY, 0.0f64), |(a, b), v| (a.min(v), b.max(v)));
    if lo.is_finite() && hi > 0.0 {
        (lo / 1.6, hi * 1.6)
    } else {
        (0.1, 10.0)
    }
}

/// The width of the legend strip for `names` at 12 px.
fn legend_width(names: &[String]) -> u32 {
    let longest = names.iter().map(|n| n.chars().count()).max().unwrap_or(0) as u32;
    (longest * 8 + 34).clamp(60, 240)
}

/// Draws a legend (colour swatch, name) in `area`, one entry per line.
fn legend(
    area: &DrawingArea<SVGBackend<'_>, Shift>,
    names: &[String],
    line: bool,
    by_name: bool,
) -> Result<(), LabError> {
    for (k, name) in names.iter().enumerate() {
        let color = colour(name, k, by_name);
        let y = 36 + 18 * k as i32;
        if line {
            area.draw(&PathElement::new(
                vec![(6, y), (22, y)],
                color.stroke_width(3),
            ))
            .map_err(err)?;
        } else {
            area.draw(&Rectangle::new([(6, y - 6), (18, y + 6)], color.filled()))
                .map_err(err)?;
        }
        area.draw(&Text::new(name.clone(), (26, y - 7), (FONT, 13)))
            .map_err(err)?;
    }
    Ok(())
}

/// Grouped bars: one group per `groups` entry on the x axis, one coloured bar per series in
/// each group, a legend beside the plot. `log` draws the value axis on a log scale with plain
/// tick labels; `reference` draws a dashed horizontal line (e.g. 1 for ratios).
pub(super) struct Bars<'a> {
    pub title: &'a str,
    pub y_desc: &'a str,
    pub groups: &'a [String],
    pub series: &'a [(String, Vec<Option<f64>>)],
    pub log: bool,
    pub reference: Option<f64>,
    pub size: (u32, u32),
    /// Colour the series by implementation name (the same colour in every chart).
    pub by_name: bool,
}

impl Bars<'_> {
    pub(super) fn draw(&self) -> Result<String, LabError> {
        let names: Vec<String> = self.series.iter().map(|s| s.0.clone()).collect();
        let lw = if names.len() > 1 {
            legend_width(&names)
        } else {
            0
        };
        // Room for every group's label: about 100 px per group.
        let width = self.size.0.max(self.groups.len() as u32 * 100 + 80 + lw);
        svg((width, self.size.1), |root| {
            let (plot, side) = root.split_horizontally(width - lw);
            let n = self.groups.len().max(1);
            let values = self
                .series
                .iter()
                .flat_map(|s| s.1.iter().flatten().copied());
            let groups = self.groups;
            let label = |v: &f64| {
                let i = (*v - 0.5).round();
                if (v - 0.5 - i).abs() < 1e-6 && i >= 0.0 {
                    groups.get(i as usize).cloned().unwrap_or_default()
                } else {
                    String::new()
                }
            };
            let mut b = ChartBuilder::on(&plot);
            b.margin(8).x_label_area_size(28).y_label_area_size(64);
            if !self.title.is_empty() {
                b.caption(self.title, (FONT, 15));
            }
            let x = Groups(n);
            let ns = self.series.len().max(1) as f64;
            let bar = 0.8 / ns;
            macro_rules! finish {
                ($chart:expr, $base:expr, $ylabel:expr) => {{
                    let mut chart = $chart;
                    chart
                        .configure_mesh()
                        .disable_x_mesh()
                        .x_label_formatter(&label)
                        .x_label_style((FONT, 12))
                        .y_label_formatter(&$ylabel)
                        .y_label_style((FONT, 11))
                        .y_labels(7)
                        .y_desc(self.y_desc)
                        .draw()
                        .map_err(err)?;
                    for (k, (name, vals)) in self.series.iter().enumerate() {
                        let color = colour(name, k, self.by_name);
                        chart
                            .draw_series(vals.iter().enumerate().filter_map(|(i, v)| {
                                let v = (*v)?;
                                let x0 = i as f64 + 0.1 + k as f64 * bar;
                                Some(Rectangle::new(
                                    [(x0, $base), (x0 + bar * 0.92, v)],
                                    color.filled(),
                                ))
                            }))
                            .map_err(err)?;
                    }
                    if let Some(r) = self.reference {
                        chart
                            .draw_series(DashedLineSeries::new(
                                vec![(0.0, r), (n as f64, r)],
                                6,
                                4,
                                BLACK.stroke_width(1),
                            ))
                            .map_err(err)?;
                    }
                }};
            }
            if self.log {
                let (lo, hi) = log_range(values.chain(self.reference));
                let ticks = log_ticks(lo, hi, 7);
                let chart = b
                    .build_cartesian_2d(x, (lo..hi).log_scale().with_key_points(ticks))
                    .map_err(err)?;
                finish!(chart, lo, |v: &f64| plain(*v));
            } else {
                let hi = values.fold(1.0f64, f64::max) * 1.12;
                let chart = b.build_cartesian_2d(x, 0.0..hi).map_err(err)?;
                finish!(chart, 0.0, |v: &f64| plain(*v));
            }
            if lw > 0 {
                legend(&side, &names, false, self.by_name)?;
            }
            Ok(())
        })
    }
}

/// One line: the implementation (its colour), the operation (its dash) and the points.
pub(super) type Line = (String, &'static str, Vec<(f64, f64)>);

/// Lines on log-log axes (median latency against message length): the colour names the
/// implementation (as in the bar charts), a solid line the first operation and a dashed line
/// the second; the legend beside the plot says both.
pub(super) fn lines(
    title: &str,
    x_desc: &str,
    y_desc: &str,
    series: &[Line],
    size: (u32, u32),
) -> Result<String, LabError> {
    let mut ops: Vec<&str> = Vec::new();
    let mut names: Vec<String> = Vec::new();
    for (name, op, _) in series {
        if !ops.contains(op) {
            ops.push(op);
        }
        if !names.contains(name) {
            names.push(name.clone());
        }
    }
    svg(size, |root| {
        let styles: Vec<String> = ops
            .iter()
            .enumerate()
            .map(|(k, op)| format!("{op}: {}", if k == 0 { "solid" } else { "dashed" }))
            .collect();
        let lw = legend_width(&names).max(legend_width(&styles));
        let (plot, side) = root.split_horizontally(size.0 - lw);
        let (x0, x1) = log_range(series.iter().flat_map(|s| s.2.iter().map(|p| p.0)));
        let (y0, y1) = log_range(series.iter().flat_map(|s| s.2.iter().map(|p| p.1)));
        let mut chart = ChartBuilder::on(&plot)
            .caption(title, (FONT, 15))
            .margin(8)
            .x_label_area_size(36)
            .y_label_area_size(64)
            .build_cartesian_2d(
                (x0..x1).log_scale().with_key_points(log_ticks(x0, x1, 5)),
                (y0..y1).log_scale().with_key_points(log_ticks(y0, y1, 6)),
            )
            .map_err(err)?;
        chart
            .configure_mesh()
            .x_label_formatter(&|v| plain(*v))
            .y_label_formatter(&|v| plain(*v))
            .x_label_style((FONT, 11))
            .y_label_style((FONT, 11))
            .x_desc(x_desc)
            .y_desc(y_desc)
            .draw()
            .map_err(err)?;
        for (name, op, points) in series {
            let color = colour(name, 0, true);
            if ops.first() == Some(op) {
                chart
                    .draw_series(LineSeries::new(
                        points.iter().copied(),
                        color.stroke_width(2),
                    ))
                    .map_err(err)?;
            } else {
                chart
                    .draw_series(DashedLineSeries::new(
                        points.iter().copied(),
                        6,
                        4,
                        color.stroke_width(2),
                    ))
                    .map_err(err)?;
            }
            chart
                .draw_series(points.iter().map(|&p| Circle::new(p, 3, color.filled())))
                .map_err(err)?;
        }
        legend(&side, &names, true, true)?;
        let below = 36 + 18 * names.len() as i32 + 8;
        for (k, st) in styles.iter().enumerate() {
            let y = below + 18 * k as i32;
            let style = BLACK.stroke_width(2);
            if k == 0 {
                side.draw(&PathElement::new(vec![(6, y), (22, y)], style))
                    .map_err(err)?;
            } else {
                side.draw(&PathElement::new(vec![(6, y), (10, y)], style))
                    .map_err(err)?;
                side.draw(&PathElement::new(vec![(16, y), (22, y)], style))
                    .map_err(err)?;
            }
            side.draw(&Text::new(st.clone(), (26, y - 7), (FONT, 13)))
                .map_err(err)?;
        }
        Ok(())
    })
}

/// A histogram of `values` (microseconds) in `buckets` bins and, beside it where given, the
/// distribution of signing-loop iterations (iterations, signatures).
pub(super) fn histogram(
    values: &[f64],
    buckets: usize,
    loops: Option<&[(u32, usize)]>,
    size: (u32, u32),
) -> Result<String, LabError> {
    svg(size, |root| {
        let (left, right) = match loops {
            Some(_) => root.split_horizontally(size.0 * 3 / 5),
            None => root.split_horizontally(size.0),
        };
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
        let top = f64::from(counts.iter().copied().max().unwrap_or(1)) * 1.15;
        let mut chart = ChartBuilder::on(&left)
            .caption("signing time", (FONT, 14))
            .margin(8)
            .x_label_area_size(36)
            .y_label_area_size(48)
            .build_cartesian_2d(lo..hi, 0.0..top)
            .map_err(err)?;
        chart
            .configure_mesh()
            .x_labels(5)
            .y_labels(5)
            .x_label_formatter(&|v| plain(*v))
            .y_label_formatter(&|v| plain(*v))
            .x_label_style((FONT, 11))
            .y_label_style((FONT, 11))
            .x_desc("us")
            .y_desc("signatures")
            .draw()
            .map_err(err)?;
        chart
            .draw_series(counts.iter().enumerate().map(|(i, &c)| {
                let x0 = lo + i as f64 * width;
                Rectangle::new([(x0, 0.0), (x0 + width, f64::from(c))], PALETTE[0].filled())
            }))
            .map_err(err)?;
        let Some(loops) = loops else {
            return Ok(());
        };
        // Iterations 1..=9 each, then "10+".
        let cap = 10u32;
        let max_it = loops.iter().map(|l| l.0).max().unwrap_or(1).min(cap);
        let mut bins = vec![0usize; max_it as usize];
        for &(it, c) in loops {
            bins[(it.clamp(1, cap) - 1) as usize] += c;
        }
        let top = bins.iter().copied().max().unwrap_or(1) as f64 * 1.15;
        let n = bins.len();
        let mut chart = ChartBuilder::on(&right)
            .caption("signing-loop iterations", (FONT, 14))
            .margin(8)
            .x_label_area_size(36)
            .y_label_area_size(40)
            .build_cartesian_2d(Groups(n), 0.0..top)
            .map_err(err)?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .y_labels(5)
            .x_label_formatter(&|v| {
                let i = (v - 0.5).round() as u32 + 1;
                if i >= cap {
                    format!("{cap}+")
                } else {
                    i.to_string()
                }
            })
            .y_label_formatter(&|v| plain(*v))
            .x_label_style((FONT, 11))
            .y_label_style((FONT, 11))
            .x_desc("iterations")
            .draw()
            .map_err(err)?;
        chart
            .draw_series(bins.iter().enumerate().map(|(i, &c)| {
                Rectangle::new(
                    [(i as f64 + 0.15, 0.0), (i as f64 + 0.85, c as f64)],
                    PALETTE[1].filled(),
                )
            }))
            .map_err(err)?;
        Ok(())
    })
}
