//! `pqlab compare`: the command-line face of the measurement lab (`pqlab-lab`). It turns the
//! arguments into a [`Config`], shows progress, prints the terminal summary and writes the
//! requested report files (each atomically, or none on error).

use std::io::IsTerminal;
use std::path::Path;

use indicatif::{ProgressBar, ProgressStyle};
use pqlab_lab::energy::{PROFILES, PowerModel};
use pqlab_lab::registry::Op;
use pqlab_lab::report::{csv, handshake, html, json, published, reductions, text};
use pqlab_lab::run::{self, Config};

use crate::cli::CompareArgs;
use crate::error::{CliError, CliResult};
use crate::io;

/// The configuration the arguments ask for.
pub(crate) fn config(args: &CompareArgs) -> CliResult<Config> {
    let mut c = if args.quick {
        Config::quick()
    } else {
        Config::standard()
    };
    c.algs = args
        .algs
        .iter()
        .map(|a| a.trim().to_ascii_lowercase())
        .collect();
    for name in &args.ops {
        let op = Op::from_name(name.trim()).ok_or_else(|| {
            CliError::new(format!(
                "unknown operation '{name}' (known: keygen, sign, verify, encaps, decaps)"
            ))
        })?;
        c.ops.push(op);
    }
    if let Some(n) = args.iterations {
        c.iterations = n;
        c.warmup = c.warmup.min(n);
    }
    if !args.msg_sizes.is_empty() {
        c.msg_sizes = args.msg_sizes.clone();
    }
    // On the M4, the peer (PQClean's C code) is built into the firmware, not into pqlab.
    if args.peers && !cfg!(feature = "peers") && args.target.is_none() {
        return Err(CliError::new(
            "this pqlab was built without peers; rebuild with `cargo run --release --features \
             peers -- compare --peers`",
        ));
    }
    c.peers = args.peers;
    c.papers = args.papers.clone();
    c.power = match (&args.power_watts, &args.power_profile) {
        (Some(w), _) if !(w.is_finite() && *w > 0.0) => {
            return Err(CliError::new(format!(
                "--power-watts must be positive, not {w}"
            )));
        }
        (Some(w), _) => Some(PowerModel::watts(*w)),
        (None, Some(name)) => Some(PowerModel::profile(name).ok_or_else(|| {
            let known: Vec<&str> = PROFILES.iter().map(|p| p.0).collect();
            CliError::new(format!(
                "unknown power profile '{name}' (known: {})",
                known.join(", ")
            ))
        })?),
        (None, None) => None,
    };
    c.validate().map_err(|e| CliError::new(e.to_string()))?;
    Ok(c)
}

/// Applies `--backend` (or checks `PQLAB_BACKEND`): an unknown name or a back end this CPU
/// cannot run is a usage error.
fn select_backend(args: &CompareArgs) -> CliResult<()> {
    let env =
        pqlab_backend::from_env().map_err(|e| CliError::new(format!("PQLAB_BACKEND: {e}")))?;
    let wanted = match &args.backend {
        Some(name) => Some(pqlab_backend::Backend::from_name(name).ok_or_else(|| {
            CliError::new(format!(
                "unknown back end '{name}' (known: portable, avx2, avx512)"
            ))
        })?),
        None => env,
    };
    if let Some(b) = wanted {
        pqlab_backend::force(Some(b)).map_err(|e| CliError::new(format!("--backend: {e}")))?;
    }
    Ok(())
}

/// Runs `pqlab compare`.
pub fn run(args: &CompareArgs) -> CliResult<()> {
    match args.target.as_deref() {
        None | Some("host") => {}
        Some("cortex-m4") => return crate::compare_m4::run(args),
        Some(t) => {
            return Err(CliError::new(format!(
                "unknown target '{t}' (known: host, cortex-m4)"
            )));
        }
    }
    let config = config(args)?;
    select_backend(args)?;
    // Check where the reports go before spending minutes measuring.
    for path in [&args.json, &args.csv, &args.html].into_iter().flatten() {
        check_writable(path)?;
    }
    let bar = if std::io::stderr().is_terminal() {
        let b = ProgressBar::new(1);
        if let Ok(style) = ProgressStyle::with_template("{bar:40} {pos}/{len} {msg} [{elapsed}]") {
            b.set_style(style);
        }
        b
    } else {
        ProgressBar::hidden()
    };
    let mut progress = |done: usize, total: usize, what: &str| {
        bar.set_length(total as u64);
        bar.set_position(done as u64);
        bar.set_message(what.to_string());
    };
    // A bad handshake file fails before the measurements start.
    let mut handshakes = match &args.handshake {
        Some(path) => Some(crate::tls::read_handshake_json(path)?),
        None => None,
    };
    let report = if args.reductions {
        pqlab_lab::reductions::run(&config, &mut progress)
    } else if args.backends {
        pqlab_lab::backends::run(&config, &mut progress)
    } else {
        run::run(&config, &mut progress)
    }
    .map_err(|e| CliError::new(e.to_string()))?;
    bar.finish_and_clear();
    if args.tls {
        handshakes = Some(crate::tls::short_handshake_bench()?);
    }

    let mut staged = Vec::new();
    if let Some(path) = &args.json {
        let data = json::to_json(&report).map_err(|e| CliError::new(e.to_string()))?;
        staged.push(io::stage("JSON report", path, data.as_bytes(), false)?);
    }
    if let Some(path) = &args.csv {
        staged.push(io::stage(
            "CSV report",
            path,
            csv::to_csv(&report).as_bytes(),
            false,
        )?);
    }
    if let Some(path) = &args.html {
        let mut data = html::to_html(&report).map_err(|e| CliError::new(e.to_string()))?;
        if let Some(rows) = &handshakes {
            data = handshake::add_to_html(&data, rows).map_err(|e| CliError::new(e.to_string()))?;
        }
        staged.push(io::stage("HTML report", path, data.as_bytes(), false)?);
    }
    for s in staged {
        s.commit()?;
    }
    if args.reductions {
        print!("{}", reductions::text(&report));
    } else if args.backends {
        print!("{}", text::summary(&report));
        print!("{}", pqlab_lab::backends::text(&report.backends));
    } else if args.verbose {
        print!("{}", text::summary(&report));
    } else {
        print!("{}", text::brief(&report));
        for (what, path) in [
            ("JSON", &args.json),
            ("CSV", &args.csv),
            ("HTML", &args.html),
        ] {
            if let Some(p) = path {
                println!("{what} report: {}", p.display());
            }
        }
    }
    if let Some(rows) = &handshakes {
        print!("\n{}", handshake::table(rows));
    }
    // The studies' claims: every measurable one with --verbose (and the studies' own runs,
    // --reductions), else their count on the one screen.
    let show = if args.verbose || args.reductions {
        published::text
    } else {
        published::brief
    };
    print!("{}", report.published.as_ref().map_or(String::new(), show));
    Ok(())
}

/// Fails early if `path`'s directory does not exist.
pub(crate) fn check_writable(path: &Path) -> CliResult<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    if dir.is_dir() {
        Ok(())
    } else {
        Err(CliError::file(
            "report file",
            path,
            "its directory does not exist",
        ))
    }
}
