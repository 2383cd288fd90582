//! The JSON report: the stable schema of DESIGN §4 (fields may be added, none renamed).
//!
//! Added here: `summary`, the answers the report gives first ([`super::summary::Summary`]):
//! `msg_len` (the message length of its sign and verify figures), `questions` (each with
//! `id`, `title`, a table as `head` and `rows` of strings, and `verdicts`, each a `text` with
//! the `evidence` it rests on: ids of the HTML report's tables and charts) and `peers` (null
//! without `--peers`; else `rows` of `alg`, `op`, `msg_len`, `pqlab_ns`, `peer` (the fastest),
//! `peer_ns`, `ratio` = pqlab / peer, and its `verdict`).

use crate::LabError;
use crate::run::Report;

/// The report with its summary, in the order of the schema (report fields first).
#[derive(serde::Serialize)]
struct WithSummary<'a> {
    #[serde(flatten)]
    report: &'a Report,
    summary: super::summary::Summary,
}

/// The report as pretty-printed JSON.
pub fn to_json(report: &Report) -> Result<String, LabError> {
    serde_json::to_string_pretty(&WithSummary {
        report,
        summary: super::summary::of(report),
    })
    .map_err(|e| LabError::Report(format!("JSON: {e}")))
}
