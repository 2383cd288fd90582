//! The report in its forms: JSON (DESIGN §4), CSV, terminal tables and HTML with SVG charts.

mod charts;
pub mod csv;
pub mod html;
pub mod json;
pub mod reductions;
pub mod text;

/// Microseconds, from nanoseconds, for tables.
pub(crate) fn us(ns: f64) -> String {
    let v = ns / 1000.0;
    if v >= 100.0 {
        format!("{v:.0}")
    } else if v >= 10.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.2}")
    }
}
