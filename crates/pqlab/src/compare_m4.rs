//! `pqlab compare --target cortex-m4`: the M4 lab (`pqlab_lab::m4`) with the report files of
//! the host comparison (terminal table, JSON with `target: "cortex-m4"`, CSV, HTML).

use pqlab_lab::m4;
use pqlab_lab::report::{csv, html, published, reductions as red};
use pqlab_lab::run::{Config, Progress};

use crate::cli::CompareArgs;
use crate::compare::{check_writable, config};
use crate::error::{CliError, CliResult};
use crate::io;

/// Runs the comparison on the emulated Cortex-M4.
pub fn run(args: &CompareArgs) -> CliResult<()> {
    let mut config = config(args)?;
    // Calls per operation: each is an exact count, so a few suffice (ML-DSA signing and
    // Falcon vary with their rejection loops).
    config.iterations = args.iterations.unwrap_or(if args.quick { 1 } else { 5 });
    // PQClean's clean C code is measured beside pqlab by default (it is built into the
    // firmware, not into pqlab); without its cross compiler, pqlab alone unless --peers
    // asked for it (then the missing compiler is an error).
    let gcc = m4::qemu::has_cross_gcc();
    config.peers = args.peers || gcc;
    if !config.peers {
        eprintln!("note: arm-none-eabi-gcc not found: PQClean is not measured (pqlab only)");
    }
    for path in [&args.json, &args.csv, &args.html].into_iter().flatten() {
        check_writable(path)?;
    }
    let mut progress = |done: usize, total: usize, what: &str| {
        eprintln!("[{done}/{total}] {what}");
    };
    if args.reductions {
        return reductions(args, &config, &mut progress);
    }
    let mut r = m4::run(&config, &mut progress).map_err(|e| CliError::new(e.to_string()))?;
    if !config.peers {
        r.report.notes.push(
            "PQClean not measured: arm-none-eabi-gcc (its cross compiler) was not found".into(),
        );
    }
    let mut staged = Vec::new();
    if let Some(path) = &args.json {
        let data = m4::report::json(&r).map_err(|e| CliError::new(e.to_string()))?;
        staged.push(io::stage("JSON report", path, data.as_bytes(), false)?);
    }
    if let Some(path) = &args.csv {
        let data = csv::to_csv(&r.report);
        staged.push(io::stage("CSV report", path, data.as_bytes(), false)?);
    }
    if let Some(path) = &args.html {
        let data = m4::report::html(&r).map_err(|e| CliError::new(e.to_string()))?;
        staged.push(io::stage("HTML report", path, data.as_bytes(), false)?);
    }
    for s in staged {
        s.commit()?;
    }
    print!("{}", m4::report::text(&r));
    print!(
        "{}",
        r.report
            .published
            .as_ref()
            .map_or(String::new(), published::text)
    );
    Ok(())
}

/// `--reductions --target cortex-m4`: the reduction-strategy study on the M4, with the report
/// files of the host study (JSON with `target: "cortex-m4"`).
fn reductions(args: &CompareArgs, config: &Config, progress: Progress<'_>) -> CliResult<()> {
    let err = |e: pqlab_lab::LabError| CliError::new(e.to_string());
    let report = m4::reductions::run(config, progress).map_err(err)?;
    let mut staged = Vec::new();
    if let Some(path) = &args.json {
        let data = m4::reductions::json(&report).map_err(err)?;
        staged.push(io::stage("JSON report", path, data.as_bytes(), false)?);
    }
    if let Some(path) = &args.csv {
        let data = csv::to_csv(&report);
        staged.push(io::stage("CSV report", path, data.as_bytes(), false)?);
    }
    if let Some(path) = &args.html {
        let data = html::to_html(&report).map_err(err)?;
        staged.push(io::stage("HTML report", path, data.as_bytes(), false)?);
    }
    for s in staged {
        s.commit()?;
    }
    print!("{}", red::text(&report));
    print!(
        "{}",
        report
            .published
            .as_ref()
            .map_or(String::new(), published::text)
    );
    Ok(())
}
