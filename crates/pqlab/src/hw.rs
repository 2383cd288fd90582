//! `pqlab hw`: the hardware lab (issue 19). Runs `python3 hw/lab.py` of the checkout, which
//! simulates the RTL cores of `hw/` against pqlab, synthesizes them with Yosys and prints the
//! FPGA study's table; this file only finds the script and checks the tools first.

use std::path::{Path, PathBuf};
use std::process::Command;

use clap::Args;

use crate::commands::Outcome;
use crate::error::{CliError, CliResult};

/// Arguments of `pqlab hw`.
#[derive(Debug, Args)]
pub struct HwArgs {
    /// One configuration (baseline) of each core; iCE40 place and route of the sparse
    /// multiplier only.
    #[arg(long)]
    pub quick: bool,
    /// The JSON report [default: hw/results.json].
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Also write a self-contained HTML table.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    /// Cores to run, comma-separated (e.g. keccak,expanda) [default: all].
    #[arg(long, value_name = "LIST", value_delimiter = ',')]
    pub cores: Vec<String>,
    /// Configurations, comma-separated: baseline, unrolled, pipelined [default: all].
    #[arg(long, value_name = "LIST", value_delimiter = ',')]
    pub configs: Vec<String>,
    /// Skip the iCE40 place and route (nextpnr-ice40).
    #[arg(long)]
    pub no_pnr: bool,
    /// Also route the designs that fill more than 60 % of the iCE40 (long runs: 10 minutes
    /// or more each).
    #[arg(long)]
    pub pnr_full: bool,
}

/// The lab script: `hw/lab.py` under the current folder, else in the checkout this binary was
/// built from.
fn lab_script() -> Option<PathBuf> {
    let here = Path::new("hw/lab.py");
    if here.is_file() {
        return Some(here.to_path_buf());
    }
    let built = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../hw/lab.py");
    built.is_file().then_some(built)
}

/// Whether `program args` runs and exits with status 0 (output discarded).
fn runs(program: &str, args: &[&str]) -> bool {
    Command::new(program)
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// `pqlab hw`: checks python3, amaranth and yosys, then runs the lab script.
pub fn run(args: &HwArgs) -> CliResult<Outcome> {
    let python = std::env::var("PQLAB_PYTHON").unwrap_or_else(|_| "python3".into());
    let script = lab_script()
        .ok_or_else(|| CliError::new("hw: hw/lab.py not found (run from the pqlab checkout)"))?;
    if !runs(&python, &["--version"]) {
        return Err(CliError::new(format!(
            "hw: {python} not found (install Python 3)"
        )));
    }
    if !runs(&python, &["-c", "import amaranth"]) {
        return Err(CliError::new(
            "hw: the amaranth package is missing (pip install -r hw/requirements.txt)",
        ));
    }
    if !runs("yosys", &["-V"]) {
        return Err(CliError::new("hw: yosys not found (apt-get install yosys)"));
    }
    let mut cmd = Command::new(&python);
    cmd.arg(&script);
    if args.quick {
        cmd.arg("--quick");
    }
    if args.no_pnr {
        cmd.arg("--no-pnr");
    }
    if args.pnr_full {
        cmd.arg("--pnr-full");
    }
    if let Some(json) = &args.json {
        cmd.arg("--json").arg(json);
    }
    if let Some(html) = &args.html {
        cmd.arg("--html").arg(html);
    }
    if !args.cores.is_empty() {
        cmd.arg("--cores").arg(args.cores.join(","));
    }
    if !args.configs.is_empty() {
        cmd.arg("--configs").arg(args.configs.join(","));
    }
    let status = cmd
        .status()
        .map_err(|e| CliError::new(format!("hw: cannot run {python}: {e}")))?;
    match status.code() {
        Some(0) => Ok(Outcome::Success),
        Some(1) => Err(CliError::new(
            "hw: a core failed its simulation against pqlab or its synthesis (see above)",
        )),
        _ => Err(CliError::new(
            "hw: the lab script stopped with an error (see above)",
        )),
    }
}
