//! The report in its forms: JSON (DESIGN §4), CSV, terminal tables and HTML with SVG charts.

mod cctv;
mod charts;
pub mod csv;
pub mod handshake;
pub mod html;
mod html_tables;
pub mod json;
mod plot;
pub mod published;
pub mod reductions;
mod sections;
pub mod summary;
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

/// The implementation of a measurement as tables show it: `pqlab [expanded key]` for a variant.
pub(crate) fn impl_label(r: &crate::run::ResultRow) -> String {
    match &r.variant {
        Some(v) => format!("{} [{v}]", r.implementation),
        None => r.implementation.clone(),
    }
}
