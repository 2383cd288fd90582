//! `pqlab compare --target cortex-m4`: pqlab (and, with `--peers`, PQClean's clean C code) on
//! an emulated Cortex-M4 (QEMU's netduinoplus2, an STM32F405 with 1 MiB flash and 128 KiB
//! RAM), DESIGN §6.
//!
//! * [`qemu`]: the toolchain check, building the firmware images of `embedded/m4-lab` (one per
//!   implementation and parameter set, plus the bare harness, `baseline`) and running them;
//! * [`parse`]: the firmware's output;
//! * [`model`]: cycles (instructions x a CPI calibrated against pqm4), ms at 168 MHz, energy;
//! * [`elf`]: flash (.text + .rodata) and RAM (.data + .bss) of an image;
//! * [`report`]: the M4 tables (terminal, HTML) and the JSON additions.
//!
//! Each (image, operation) runs in its own QEMU process (several at once), so that an
//! operation that overflows the 124 KiB process stack is reported as not fitting and the
//! others are still measured.

pub mod elf;
pub mod model;
pub mod parse;
pub mod qemu;
pub mod report;

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::LabError;
use crate::machine::Machine;
use crate::measure::{Sample, Summary};
use crate::registry::{self, Op};
use crate::run::{Config, ConfigRecord, Progress, Report, ResultRow, SizeRow, Statistics};

/// The parameter sets the firmware has.
pub const ALGS: [&str; 8] = [
    "ml-dsa-44",
    "ml-dsa-65",
    "ml-dsa-87",
    "falcon-512",
    "falcon-1024",
    "ml-kem-512",
    "ml-kem-768",
    "ml-kem-1024",
];

/// The longest a QEMU run of one operation may take: `PQLAB_M4_TIMEOUT` seconds, else 600.
fn limit() -> Duration {
    let s = std::env::var("PQLAB_M4_TIMEOUT")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(600);
    Duration::from_secs(s)
}

/// Instructions of one measurement, summarised like a latency sample.
#[derive(Clone, Debug, serde::Serialize)]
pub struct M4Row {
    /// Implementation (`pqlab`, `pqclean`).
    #[serde(rename = "impl")]
    pub implementation: String,
    /// Algorithm.
    pub alg: String,
    /// Operation.
    pub op: Op,
    /// `expanded key` for signing with an expanded key.
    pub variant: Option<String>,
    /// Calls measured (0 where it does not fit).
    pub calls: usize,
    /// Instructions per call: median, mean, sd, cv, p05, p95, min, max (`*_ns` fields hold
    /// instructions here).
    pub instructions: Option<Summary>,
    /// Estimated cycles (median instructions x CPI).
    pub median_cycles: Option<f64>,
    /// Milliseconds at 168 MHz (model).
    pub median_ms: Option<f64>,
    /// Peak stack of one call, bytes.
    pub stack_bytes: Option<u64>,
    /// The process stack the call had, bytes.
    pub stack_available: u64,
    /// Whether it ran within the RAM; if not, why.
    pub does_not_fit: Option<String>,
    /// Flash and .data + .bss of the scheme (the image less the harness).
    pub footprint: elf::Footprint,
    /// The whole image's flash and .data + .bss.
    pub image: elf::Footprint,
    /// Energy per call (model), joules, and calls per battery.
    pub energy_j: Option<f64>,
    /// Calls per battery of the power model.
    pub ops_per_battery: Option<f64>,
}

/// The M4 comparison: the common report (results with `median_ns` and `median_cycles` from
/// the model) and the M4 details.
#[derive(Clone, Debug)]
pub struct M4Report {
    /// The report in the x86 lab's shape.
    pub report: Report,
    /// One row per (implementation, algorithm, operation, variant).
    pub rows: Vec<M4Row>,
    /// The calibration loops of the first image: (iterations, expected, measured).
    pub calibration_loops: Vec<(u64, u64, u64)>,
    /// The harness's own footprint.
    pub baseline: elf::Footprint,
}

/// The firmware's name of `op` with `variant`.
fn firmware_op(op: Op, expanded: bool) -> String {
    if expanded {
        format!("{}-expanded", op.name())
    } else {
        op.name().to_string()
    }
}

/// (operation, expanded) of a firmware operation name.
fn lab_op(name: &str) -> Option<(Op, bool)> {
    match name.strip_suffix("-expanded") {
        Some(base) => Op::from_name(base).map(|o| (o, true)),
        None => Op::from_name(name).map(|o| (o, false)),
    }
}

/// The row of one operation from its run.
fn row(
    implementation: &str,
    alg: &str,
    run: &parse::OpRun,
    fp: (elf::Footprint, elf::Footprint),
) -> Option<M4Row> {
    let (op, expanded) = lab_op(&run.op)?;
    let power = model::power();
    let instr: Vec<f64> = run.calls.iter().map(|c| c.0 as f64).collect();
    let summary = (!instr.is_empty()).then(|| {
        Summary::of(&Sample {
            ns: instr.clone(),
            cycles: Vec::new(),
        })
    });
    let does_not_fit = run.fault.as_ref().map(|f| {
        if f.overflow {
            format!(
                "does not fit: needs more than the {} bytes of stack it had (128 KiB RAM){}",
                if f.window > 0 {
                    f.window
                } else {
                    run.available
                },
                if f.window == 0 {
                    "; already while preparing its inputs"
                } else {
                    ""
                }
            )
        } else {
            format!("processor fault: {}", f.line)
        }
    });
    let median = summary.map(|s| s.median_ns);
    Some(M4Row {
        implementation: implementation.to_string(),
        alg: alg.to_string(),
        op,
        variant: expanded.then(|| crate::ours::falcon::EXPANDED_VARIANT.to_string()),
        calls: run.calls.len(),
        instructions: summary,
        median_cycles: median.map(model::cycles),
        median_ms: median.map(|m| model::ns(m) / 1e6),
        stack_bytes: run.calls.iter().map(|c| c.1).max(),
        stack_available: run.available,
        does_not_fit,
        footprint: fp.0.less(fp.1),
        image: fp.0,
        energy_j: median.map(|m| power.joules(model::ns(m))),
        ops_per_battery: median.map(|m| power.ops_per_battery(model::ns(m))),
    })
}

/// The result row of the common report (times from the model) of a measured M4 row.
fn result_row(r: &M4Row, run: &parse::OpRun) -> Option<ResultRow> {
    r.instructions?;
    let sample = Sample {
        ns: run.calls.iter().map(|c| model::ns(c.0 as f64)).collect(),
        cycles: run
            .calls
            .iter()
            .map(|c| model::cycles(c.0 as f64))
            .collect(),
    };
    let summary = Summary::of(&sample);
    Some(ResultRow {
        implementation: r.implementation.clone(),
        alg: r.alg.clone(),
        op: r.op,
        msg_len: r.op.takes_message().then_some(32),
        summary,
        stack_bytes: r.stack_bytes.map(|s| s as usize),
        heap_bytes: Some(0),
        alloc_count: Some(0),
        energy_j: r.energy_j,
        ops_per_battery: r.ops_per_battery,
        shapiro_wilk: None,
        signing_loops: None,
        variant: r.variant.clone(),
        signature_lengths: None,
        kernel_profile: None,
        sample_ns: sample.ns,
    })
}

/// Images to measure: (implementation, algorithm).
fn images(config: &Config) -> Vec<(&'static str, &'static str)> {
    let mut v = Vec::new();
    for imp in ["pqlab", "pqclean"] {
        if imp == "pqclean" && !config.peers {
            continue;
        }
        for alg in ALGS {
            if config.algs.is_empty() || config.algs.iter().any(|a| a == alg) {
                v.push((imp, alg));
            }
        }
    }
    v
}

/// Builds (or finds) one image.
fn image(dir: &Path, build: bool, imp: &str, alg: &str) -> Result<PathBuf, LabError> {
    if build {
        return qemu::build_image(dir, imp, alg);
    }
    let p = dir.join(qemu::image_name(imp, alg));
    if p.is_file() {
        Ok(p)
    } else {
        Err(LabError::Config(format!(
            "--target cortex-m4: no prebuilt image {} (PQLAB_M4_IMAGES)",
            p.display()
        )))
    }
}

/// Runs the M4 comparison.
pub fn run(config: &Config, progress: Progress<'_>) -> Result<M4Report, LabError> {
    config.validate()?;
    let (dir, build) = qemu::images_dir();
    qemu::check_tools(build, config.peers)?;
    std::fs::create_dir_all(&dir)
        .map_err(|e| LabError::Config(format!("{}: {e}", dir.display())))?;
    let wanted = images(config);
    let total = wanted.len() + 1;
    progress(0, total, "building the M4 harness (baseline)");
    let read_fp = |p: &Path| {
        std::fs::read(p)
            .map_err(|e| LabError::Implementation(format!("{}: {e}", p.display())))
            .and_then(|b| elf::footprint(&b))
    };
    let baseline = read_fp(&image(&dir, build, "baseline", "none")?)?;
    let mut built = Vec::new();
    for (i, &(imp, alg)) in wanted.iter().enumerate() {
        progress(i + 1, total, &format!("building the M4 image {imp} {alg}"));
        let path = image(&dir, build, imp, alg)?;
        built.push((imp, alg, read_fp(&path)?, path));
    }
    // One QEMU run per image lists its operations and gives the calibration loops; then one
    // per (image, operation), several at once.
    let calls = config.iterations;
    let mut jobs = Vec::new();
    let mut calibration_loops = Vec::new();
    for (imp, alg, fp, path) in &built {
        let head = parse::parse(&qemu::run_image(path, "ops=none calls=0", limit())?)?;
        if calibration_loops.is_empty() {
            calibration_loops = head.calibration.clone();
        }
        for name in &head.ops {
            let Some((op, expanded)) = lab_op(name) else {
                continue;
            };
            if config.ops.is_empty() || config.ops.contains(&op) {
                jobs.push((*imp, *alg, *fp, path.clone(), firmware_op(op, expanded)));
            }
        }
    }
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut outputs: Vec<Option<Result<String, LabError>>> = vec![None; jobs.len()];
    for (c, chunk) in jobs.chunks(threads).enumerate() {
        let first = &jobs[c * threads];
        progress(
            total,
            total,
            &format!("running on QEMU: {} {} {} ...", first.0, first.1, first.4),
        );
        let results: Vec<Result<String, LabError>> = std::thread::scope(|s| {
            let handles: Vec<_> = chunk
                .iter()
                .map(|j| {
                    let args = format!("ops={} calls={calls}", j.4);
                    s.spawn(move || qemu::run_image(&j.3, &args, limit()))
                })
                .collect();
            handles
                .into_iter()
                .map(|h| {
                    h.join()
                        .unwrap_or_else(|_| Err(LabError::Implementation("panic".into())))
                })
                .collect()
        });
        for (k, r) in results.into_iter().enumerate() {
            outputs[c * threads + k] = Some(r);
        }
    }
    let mut rows = Vec::new();
    let mut results = Vec::new();
    let mut notes = Vec::new();
    for (job, out) in jobs.iter().zip(outputs) {
        let (imp, alg, fp, _, op) = job;
        let text = match out.unwrap_or_else(|| Err(LabError::Report("no run".into()))) {
            Ok(t) => t,
            Err(e) => {
                notes.push(format!("{imp} {alg} {op}: not measured: {e}"));
                continue;
            }
        };
        let run = parse::parse(&text)?;
        let Some(op_run) = run.results.iter().find(|r| &r.op == op) else {
            notes.push(format!("{imp} {alg} {op}: the firmware did not run it"));
            continue;
        };
        if let Some(e) = op_run.errors.first() {
            return Err(LabError::Implementation(format!(
                "{imp} {alg} on the M4: {e}"
            )));
        }
        let Some(r) = row(imp, alg, op_run, (*fp, baseline)) else {
            continue;
        };
        if let Some(why) = &r.does_not_fit {
            notes.push(format!("{imp} {alg} {op}: {why}"));
        }
        if let Some(rr) = result_row(&r, op_run) {
            results.push(rr);
        }
        rows.push(r);
    }
    notes.push(format!(
        "cortex-m4: instructions counted exactly by QEMU (-icount shift=0, TIM2 at 1 GHz of \
         virtual time); cycles = instructions x {:.3} (CPI calibrated against pqm4's cycle \
         counts of PQClean's clean code; see the M4 table), ms at 168 MHz",
        model::CPI
    ));
    let report = common_report(config, results, notes, &wanted);
    Ok(M4Report {
        report,
        rows,
        calibration_loops,
        baseline,
    })
}

/// The report of the common shape around the M4 results.
fn common_report(
    config: &Config,
    results: Vec<ResultRow>,
    notes: Vec<String>,
    wanted: &[(&str, &str)],
) -> Report {
    let mut machine = Machine::detect();
    machine.cpu = "ARM Cortex-M4F (STM32F405, QEMU netduinoplus2), 168 MHz model".into();
    machine.cores = 1;
    machine.tsc_hz = None;
    machine.features = vec!["thumbv7em".into(), "fpv4-sp-d16".into()];
    machine.os = "bare metal under qemu-system-arm".into();
    machine.backend = "portable".into();
    machine.backends_available = vec!["portable".into()];
    let sizes = wanted
        .iter()
        .filter_map(|&(imp, alg)| {
            let e = registry::ours()
                .into_iter()
                .find(|e| e.info().alg == alg && e.variant().is_none())?;
            let i = e.info();
            Some(SizeRow {
                implementation: imp.to_string(),
                alg: alg.to_string(),
                public_key: i.public_key,
                secret_key: i.secret_key,
                signature: i.signature,
                ciphertext: i.ciphertext,
                public_plus_output: i.public_key + i.signature.or(i.ciphertext).unwrap_or(0),
                signature_varies: e.signature_varies(),
                signature_mean: None,
                signature_bound: e.signature_varies().then_some(i.signature).flatten(),
            })
        })
        .collect();
    Report {
        machine,
        config: ConfigRecord {
            iterations: config.iterations,
            warmup: 0,
            msg_sizes: vec![32],
            algs: wanted.iter().map(|w| w.1.to_string()).collect(),
            ops: Op::ALL
                .into_iter()
                .filter(|o| config.ops.is_empty() || config.ops.contains(o))
                .collect(),
            peers: config.peers,
            quick: config.quick,
            power_model: Some(model::power()),
            method: "Cortex-M4 under QEMU (netduinoplus2, -icount shift=0): exact instruction \
                     counts per call from TIM2 at 1 GHz of virtual time (one tick per \
                     instruction), fresh inputs per call from a per-call splitmix64 seed; \
                     cycles and times from the model (instructions x CPI, 168 MHz); painted \
                     process stack; flash and RAM from the ELF",
        },
        sizes,
        results,
        peer_checks: Vec::new(),
        statistics: Statistics::default(),
        notes,
        static_tables: Vec::new(),
        profile: None,
        reductions: Vec::new(),
        backends: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_carry_the_model_and_the_does_not_fit_reason() {
        let out = "m4-lab impl=pqlab alg=falcon-512 ops=keygen,sign,sign-expanded,verify\n\
                   start op=sign-expanded available=126000\n\
                   call op=sign-expanded i=0 instructions=1000 stack=500\n\
                   call op=sign-expanded i=1 instructions=3000 stack=700\n\
                   call op=sign-expanded i=2 instructions=2000 stack=600\n\
                   start op=keygen available=126000\n\
                   fault overflow=1 window=125900 psp=0x1ffffff0 cfsr=0x9200 bfar=0x1ffffff0\n";
        let run = parse::parse(out).unwrap();
        let fp = elf::Footprint {
            flash: 5000,
            ram: 40,
        };
        let base = elf::Footprint {
            flash: 1000,
            ram: 8,
        };
        let r = row("pqlab", "falcon-512", &run.results[0], (fp, base)).unwrap();
        assert_eq!(
            (r.op, r.variant.as_deref()),
            (Op::Sign, Some("expanded key"))
        );
        assert_eq!(r.instructions.unwrap().median_ns, 2000.0);
        assert_eq!(r.median_cycles, Some(2000.0 * model::CPI));
        let ms = 2000.0 * model::CPI / 168e6 * 1e3;
        assert!((r.median_ms.unwrap() - ms).abs() < 1e-12);
        assert_eq!(r.stack_bytes, Some(700));
        assert_eq!(
            r.footprint,
            elf::Footprint {
                flash: 4000,
                ram: 32
            }
        );
        let rr = result_row(&r, &run.results[0]).unwrap();
        assert!((rr.summary.median_ns - ms * 1e6).abs() < 1e-6);
        assert_eq!(rr.summary.median_cycles, Some(2000.0 * model::CPI));
        let k = row("pqlab", "falcon-512", &run.results[1], (fp, base)).unwrap();
        assert!(k.does_not_fit.as_deref().unwrap().contains("125900 bytes"));
        assert!(k.instructions.is_none() && result_row(&k, &run.results[1]).is_none());
        assert_eq!(lab_op("sign-expanded"), Some((Op::Sign, true)));
        assert_eq!(firmware_op(Op::Sign, true), "sign-expanded");
        assert_eq!(lab_op("nope"), None);
    }
}
