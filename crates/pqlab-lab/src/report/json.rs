//! The JSON report: the stable schema of DESIGN §4 (fields may be added, none renamed).

use crate::LabError;
use crate::run::Report;

/// The report as pretty-printed JSON.
pub fn to_json(report: &Report) -> Result<String, LabError> {
    serde_json::to_string_pretty(report).map_err(|e| LabError::Report(format!("JSON: {e}")))
}
