//! TLS 1.3 handshake results in the compare report: the rows of `pqlab handshake-bench --json`
//! (or of a short bench that `pqlab compare --tls` runs), as a terminal table, three SVG charts
//! (handshakes per second, the server/client CPU split, the bytes on the wire; one bar per
//! signature scheme × key-exchange group) and an HTML section added to the report page.
//!
//! The lab does not run handshakes itself (it does not depend on the TLS stack); the `pqlab`
//! binary hands it the rows.

use std::fmt::Write as _;

use plotters::coord::ranged1d::SegmentValue;
use plotters::prelude::*;
use plotters::style::FontTransform;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use serde::Deserialize;

use super::charts::Chart;
use crate::LabError;

/// One signature scheme × group of a handshake benchmark (the field names of
/// `pqlab handshake-bench --json`).
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct HandshakeRow {
    /// The signature scheme of the server certificate (`ml-dsa-65`, `falcon-512`, ...).
    pub sig: String,
    /// The key-exchange group (`X25519MLKEM768`, ...).
    pub group: String,
    /// Median server CPU time per handshake, microseconds.
    pub server_us_median: f64,
    /// Median client CPU time per handshake, microseconds.
    pub client_us_median: f64,
    /// Bytes the server sends during a handshake.
    pub server_bytes: u64,
    /// Bytes the client sends during a handshake.
    pub client_bytes: u64,
    /// Full handshakes per second over loopback, if measured.
    #[serde(default)]
    pub handshakes_per_s: Option<f64>,
}

#[derive(Deserialize)]
struct HandshakeFile {
    results: Vec<HandshakeRow>,
}

/// Parses a `pqlab handshake-bench --json` document; every figure must be finite and
/// non-negative, and there must be at least one row.
pub fn parse_json(text: &str) -> Result<Vec<HandshakeRow>, LabError> {
    let file: HandshakeFile = serde_json::from_str(text)
        .map_err(|e| LabError::Config(format!("not a handshake-bench JSON report: {e}")))?;
    if file.results.is_empty() {
        return Err(LabError::Config(
            "the handshake-bench JSON report has no results".into(),
        ));
    }
    for r in &file.results {
        let figures = [
            r.server_us_median,
            r.client_us_median,
            r.handshakes_per_s.unwrap_or(0.0),
        ];
        if figures.iter().any(|v| !v.is_finite() || *v < 0.0) {
            return Err(LabError::Config(format!(
                "the handshake-bench JSON report has a negative or non-finite figure for {} {}",
                r.sig, r.group
            )));
        }
    }
    Ok(file.results)
}

/// The rows as a terminal table.
pub fn table(rows: &[HandshakeRow]) -> String {
    let mut out = String::from("TLS 1.3 handshakes (server certificate signature × group)\n");
    let _ = writeln!(
        out,
        "{:<12} {:<15} {:>12} {:>10} {:>10} {:>9} {:>9}",
        "sig", "group", "handshakes/s", "server µs", "client µs", "server B", "client B"
    );
    for r in rows {
        let hps = r
            .handshakes_per_s
            .map_or_else(|| "-".to_string(), |h| format!("{h:.0}"));
        let _ = writeln!(
            out,
            "{:<12} {:<15} {:>12} {:>10.0} {:>10.0} {:>9} {:>9}",
            r.sig,
            r.group,
            hps,
            r.server_us_median,
            r.client_us_median,
            r.server_bytes,
            r.client_bytes
        );
    }
    out
}

const W: u32 = 1000;
const H: u32 = 480;
const COLORS: [RGBColor; 2] = [RGBColor(31, 119, 180), RGBColor(255, 127, 14)];

fn err<E: std::fmt::Display>(e: E) -> LabError {
    LabError::Report(format!("chart: {e}"))
}

/// Bars with vertical labels (one per sig × group), stacked when there are two parts.
fn stacked(
    title: &str,
    y_desc: &str,
    labels: &[String],
    parts: &[(&str, Vec<f64>)],
) -> Result<String, LabError> {
    let mut s = String::new();
    {
        let root = SVGBackend::with_string(&mut s, (W, H)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let totals = (0..labels.len()).map(|i| parts.iter().map(|(_, v)| v[i]).sum::<f64>());
        let max = totals.fold(1.0f64, f64::max) * 1.15;
        let n = labels.len().max(1) as i32 - 1;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 18))
            .margin(10)
            .x_label_area_size(170)
            .y_label_area_size(70)
            .build_cartesian_2d((0..n).into_segmented(), 0.0..max)
            .map_err(err)?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(labels.len().max(1))
            .x_label_formatter(&|_| String::new())
            .y_desc(y_desc)
            .draw()
            .map_err(err)?;
        // The mesh centres rotated labels on the tick; draw them from the axis down instead.
        let style = ("sans-serif", 11)
            .into_font()
            .transform(FontTransform::Rotate90)
            .color(&BLACK)
            .pos(Pos::new(HPos::Left, VPos::Center));
        for (i, label) in labels.iter().enumerate() {
            let (x, y) = chart.backend_coord(&(SegmentValue::CenterOf(i as i32), 0.0));
            root.draw(&Text::new(label.as_str(), (x, y + 8), style.clone()))
                .map_err(err)?;
        }
        for (k, (name, values)) in parts.iter().enumerate() {
            let color = COLORS[k % COLORS.len()];
            let rects = values.iter().enumerate().map(|(i, v)| {
                let below: f64 = parts[..k].iter().map(|(_, p)| p[i]).sum();
                let mut bar = Rectangle::new(
                    [
                        (SegmentValue::Exact(i as i32), below),
                        (SegmentValue::Exact(i as i32 + 1), below + v),
                    ],
                    color.filled(),
                );
                bar.set_margin(0, 0, 3, 3);
                bar
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
        root.present().map_err(err)?;
    }
    Ok(s)
}

/// The three handshake charts (handshakes per second only when the rows have it).
pub fn charts(rows: &[HandshakeRow]) -> Result<Vec<Chart>, LabError> {
    let labels: Vec<String> = rows
        .iter()
        .map(|r| format!("{} · {}", r.sig, r.group))
        .collect();
    let mut out = Vec::new();
    if rows.iter().all(|r| r.handshakes_per_s.is_some()) {
        let hps = rows
            .iter()
            .map(|r| r.handshakes_per_s.unwrap_or(0.0))
            .collect();
        out.push(Chart {
            id: "chart-tls-handshakes-per-s".into(),
            title: "TLS 1.3 full handshakes per second over loopback, per signature × group \
                    (higher is better)"
                .into(),
            svg: stacked(
                "Handshakes per second",
                "handshakes/s",
                &labels,
                &[("handshakes/s", hps)],
            )?,
        });
    }
    let server = rows.iter().map(|r| r.server_us_median).collect();
    let client = rows.iter().map(|r| r.client_us_median).collect();
    out.push(Chart {
        id: "chart-tls-cpu-split".into(),
        title: "CPU time per handshake, server and client (median, us, in memory)".into(),
        svg: stacked(
            "Server / client CPU per handshake (us)",
            "us",
            &labels,
            &[("server", server), ("client", client)],
        )?,
    });
    let s2c = rows.iter().map(|r| r.server_bytes as f64).collect();
    let c2s = rows.iter().map(|r| r.client_bytes as f64).collect();
    out.push(Chart {
        id: "chart-tls-bytes".into(),
        title: "Bytes on the wire per handshake (TLS records each way)".into(),
        svg: stacked(
            "Handshake bytes",
            "bytes",
            &labels,
            &[("server → client", s2c), ("client → server", c2s)],
        )?,
    });
    Ok(out)
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The HTML section: a table and the charts.
pub fn html_section(rows: &[HandshakeRow]) -> Result<String, LabError> {
    let mut h = String::from(
        "<h2 id=\"tls\">TLS 1.3 handshakes</h2><p class=\"note\">pqlab-tls (rustls) client and \
         server; times are the median CPU time of each side in memory, bytes the TLS records \
         each side sends, handshakes per second over loopback TCP. Falcon uses non-standard \
         code points (those of the Open Quantum Safe provider).</p><table id=\"tls-results\">\
         <tr><th>sig</th><th>group</th><th>handshakes/s</th><th>server us</th>\
         <th>client us</th><th>server B</th><th>client B</th></tr>",
    );
    for r in rows {
        let _ = write!(
            h,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{:.0}</td><td>{:.0}</td><td>{}</td>\
             <td>{}</td></tr>",
            esc(&r.sig),
            esc(&r.group),
            r.handshakes_per_s
                .map_or_else(|| "-".to_string(), |v| format!("{v:.0}")),
            r.server_us_median,
            r.client_us_median,
            r.server_bytes,
            r.client_bytes
        );
    }
    h.push_str("</table>");
    for c in charts(rows)? {
        let _ = write!(
            h,
            "<figure id=\"{}\"><figcaption>{}</figcaption>{}</figure>",
            c.id,
            esc(&c.title),
            c.svg
        );
    }
    Ok(h)
}

/// Adds the handshake section to a report page from [`super::html::to_html`]: before the
/// summary, or at the end of the body.
pub fn add_to_html(page: &str, rows: &[HandshakeRow]) -> Result<String, LabError> {
    let section = html_section(rows)?;
    let at = page
        .find("<h2>Summary and statistics</h2>")
        .or_else(|| page.rfind("</body>"))
        .unwrap_or(page.len());
    Ok(format!("{}{section}{}", &page[..at], &page[at..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    const JSON: &str = r#"{ "config": { "iterations": 2 }, "results": [
        { "sig": "falcon-512", "group": "X25519MLKEM768", "iterations": 2,
          "server_us_median": 420.5, "client_us_median": 180.25, "server_bytes": 3000,
          "client_bytes": 1400, "handshakes_per_s": 900.0, "clients": 1 },
        { "sig": "ecdsa-p256", "group": "X25519", "iterations": 2,
          "server_us_median": 100.0, "client_us_median": 120.0, "server_bytes": 900,
          "client_bytes": 200, "handshakes_per_s": null, "clients": 0 } ] }"#;

    #[test]
    fn parses_tabulates_and_draws() {
        let rows = parse_json(JSON).unwrap();
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0].sig, "falcon-512");
        assert_eq!(rows[1].handshakes_per_s, None);
        let t = table(&rows);
        assert!(
            t.contains("falcon-512   X25519MLKEM768           900"),
            "{t}"
        );
        // Without handshakes per second for every row, that chart is left out.
        let ids: Vec<String> = charts(&rows).unwrap().into_iter().map(|c| c.id).collect();
        assert_eq!(ids, ["chart-tls-cpu-split", "chart-tls-bytes"]);
        let ids: Vec<String> = charts(&rows[..1])
            .unwrap()
            .into_iter()
            .map(|c| c.id)
            .collect();
        assert_eq!(ids.len(), 3);
        let page = "<html><body><h1>x</h1><h2>Summary and statistics</h2></body></html>";
        let out = add_to_html(page, &rows).unwrap();
        let tls = out.find("id=\"tls\"").unwrap();
        assert!(tls < out.find("Summary and statistics").unwrap());
        assert!(out.contains("<svg") && out.contains("falcon-512 · X25519MLKEM768"));
    }

    #[test]
    fn rejects_bad_documents() {
        for bad in [
            "",
            "[]",
            r#"{"results": []}"#,
            r#"{"results": [{"sig": "a"}]}"#,
            r#"{"results": [{"sig": "a", "group": "b", "server_us_median": -1,
                "client_us_median": 1, "server_bytes": 1, "client_bytes": 1}]}"#,
        ] {
            assert!(matches!(parse_json(bad), Err(LabError::Config(_))), "{bad}");
        }
    }
}
