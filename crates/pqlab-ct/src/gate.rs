//! gate
use std::process::ExitCode;
pub fn gate(_f: &str) -> ExitCode { ExitCode::SUCCESS }
