//! `pqlab compare --target cortex-m4`: pqlab and PQClean's clean C code (`Config::peers`) on
//! an emulated Cortex-M4 (QEMU's netduinoplus2, an STM32F405 with 1 MiB flash and 128 KiB
//! RAM), DESIGN §6.
//!
//! * [`qemu`]: the toolchain check, building the firmware images of `embedded/m4-lab` (one per
//!   implementation and parameter set, plus the bare harness, `baseline`) and running them;
//! * [`parse`]: the firmware's output;
//! * [`model`]: cycles (instructions x a CPI calibrated against pqm4), ms at 168 MHz, energy;
//! * [`dist`]: the spread of an operation's time over its calls, with a histogram;
//! * [`signing`]: ML-DSA's signing as the same work for every implementation (rnd = 0, the same
//!   messages and keys): the signatures checked identical, the rejection loop's iterations;
//! * [`elf`]: flash (.text + .rodata) and RAM (.data + .bss) of an image;
//! * [`report`]: the M4 tables (terminal, HTML) and the JSON additions;
//! * [`reductions`]: the reduction-strategy study on the M4 (`--reductions --target cortex-m4`).
//!
//! Each (image, operation) runs in its own QEMU process (several at once), so that an
//! operation that overflows the 124 KiB process stack is reported as not fitting and the
//! others are still measured; such an operation is then run again on an image built with the
//! firmware's `emulator-ram` feature (QEMU maps 192 KiB of SRAM where the chip has 128 KiB),
//! which says how much stack it needs and gives its instruction count.

pub mod dist;
pub mod elf;
pub mod model;
pub mod parse;
pub mod qemu;
pub mod reductions;
pub mod report;
mod rows;
use rows::{firmware_op, lab_op, label, measured_run, result_row, row};
pub mod signing;

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::LabError;
use crate::machine::Machine;
use crate::measure::Summary;
use crate::registry::{self, Op};
use crate::run::{Config, ConfigRecord, Progress, Rejection, Report, ResultRow, SizeRow};

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

/// An image to measure.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Image {
    /// `pqlab`, `pqclean` (or `baseline`, the harness alone).
    pub implementation: &'static str,
    /// The parameter set.
    pub alg: &'static str,
    /// pqlab's configuration: "" for the library's default, else the firmware feature of
    /// another ([`qemu::CONFIGS`]).
    pub config: &'static str,
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
    /// pqlab's configuration where not the default (`small-memory`, `fpr-emu`).
    pub config: Option<String>,
    /// Calls measured (0 where it does not fit).
    pub calls: usize,
    /// Instructions per call: median, mean, sd, cv, p05, p95, min, max (`*_ns` fields hold
    /// instructions here).
    pub instructions: Option<Summary>,
    /// The spread of the time over the calls, with its histogram (2 calls or more).
    pub distribution: Option<dist::Distribution>,
    /// ML-DSA signing: the rejection loop's iterations of each call, in call order (pqlab
    /// counts them; PQClean's are pqlab's of the same call, which made the same signature, see
    /// [`signing`]); empty elsewhere.
    pub loops: Vec<u32>,
    /// The distribution of `loops`, with the instructions per iteration (its `*_ns` fields hold
    /// instructions here, as `instructions` does).
    pub signing_loops: Option<Rejection>,
    /// Instructions per iteration of the rejection loop: the calls' total instructions / their
    /// total iterations (ML-DSA signing).
    pub instructions_per_loop: Option<f64>,
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
    /// The known-answer checks the measured calls made (a failed one ends the run).
    pub cross_checks: Vec<CrossCheck>,
}

/// A known-answer check made on the M4: each verify call checks one of pqlab's fixture
/// signatures (made on the host), each decaps call recovers a fixture's shared secret from
/// pqlab's ciphertext; for PQClean these check the two implementations against each other.
/// For ML-DSA `sign` (PQClean's rows): its deterministic signatures were identical to pqlab's;
/// for `keygen` (PQClean's rows): its key pairs, made from the same seeds, were ([`signing`]).
#[derive(Clone, Debug, serde::Serialize)]
pub struct CrossCheck {
    /// Implementation that ran the check.
    #[serde(rename = "impl")]
    pub implementation: String,
    /// Algorithm.
    pub alg: String,
    /// `verify`, `decaps`, `sign` or `keygen` (the last two: outputs identical to pqlab's).
    pub op: Op,
    /// Calls, each checking one fixture.
    pub checked: usize,
    /// Whether every call gave the known answer.
    pub passed: bool,
}

/// The known-answer check of a measured verify or decaps row.
fn cross_check(r: &M4Row) -> Option<CrossCheck> {
    (matches!(r.op, Op::Verify | Op::Decaps) && r.calls > 0).then(|| CrossCheck {
        implementation: r.implementation.clone(),
        alg: r.alg.clone(),
        op: r.op,
        checked: r.calls,
        passed: true,
    })
}

/// Runs each (image, firmware operation) of `runs` in its own QEMU process, as many at once as
/// the host has cores; `started(k)` is told before each batch (k: its first run).
fn run_all(
    runs: &[(PathBuf, String)],
    calls: usize,
    started: &mut dyn FnMut(usize),
) -> Vec<Result<String, LabError>> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut outputs = Vec::with_capacity(runs.len());
    for (c, chunk) in runs.chunks(threads).enumerate() {
        started(c * threads);
        let results: Vec<Result<String, LabError>> = std::thread::scope(|s| {
            let handles: Vec<_> = chunk
                .iter()
                .map(|(path, op)| {
                    let args = format!("ops={op} calls={calls}");
                    s.spawn(move || qemu::run_image(path, &args, limit()))
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
        outputs.extend(results);
    }
    outputs
}

/// A measurement job: one firmware operation of an image.
struct Job {
    /// The image.
    image: Image,
    /// Its footprint.
    fp: elf::Footprint,
    /// Its file.
    path: PathBuf,
    /// The firmware's name of the operation.
    op: String,
}

/// The operations that overflowed the chip's RAM, run again on an `emulator-ram` image of
/// the same implementation and parameter set (QEMU's 192 KiB): what they need. One entry per
/// job (None where it fitted, or no such image could be had: then a note says why).
fn measure_overflows(
    dir: &Path,
    build: bool,
    jobs: &[Job],
    parsed: &[Option<parse::OpRun>],
    calls: usize,
    notes: &mut Vec<String>,
    progress: Progress<'_>,
) -> Vec<Option<parse::OpRun>> {
    let mut big = vec![None; jobs.len()];
    let over: Vec<usize> = (0..jobs.len())
        .filter(|&k| {
            parsed[k]
                .as_ref()
                .and_then(|r| r.fault.as_ref())
                .is_some_and(|f| f.overflow)
        })
        .collect();
    let mut images: Vec<(Image, Option<PathBuf>)> = Vec::new();
    let mut runs = Vec::new();
    let mut which = Vec::new();
    for &k in &over {
        let key = jobs[k].image;
        if !images.iter().any(|(i, _)| *i == key) {
            progress(
                k,
                jobs.len(),
                &format!(
                    "{} {} does not fit: building its emulator-ram image (192 KiB)",
                    label(key),
                    jobs[k].op
                ),
            );
            let built = image(dir, build, key, qemu::Ram::Emulator);
            if let Err(e) = &built {
                notes.push(format!(
                    "{}: no emulator-ram image to measure what does not fit: {e}",
                    label(key)
                ));
            }
            images.push((key, built.ok()));
        }
        let Some(path) = images
            .iter()
            .find(|(i, _)| *i == key)
            .and_then(|(_, p)| p.clone())
        else {
            continue;
        };
        runs.push((path, jobs[k].op.clone()));
        which.push(k);
    }
    for (k, out) in which.into_iter().zip(run_all(&runs, calls, &mut |_| {})) {
        let (what, op) = (label(jobs[k].image), &jobs[k].op);
        match out.and_then(|t| parse::parse(&t)) {
            Ok(run) => match run.results.into_iter().find(|r| &r.op == op) {
                Some(r) if !r.errors.is_empty() => notes.push(format!(
                    "{what} {op}: failed its check with QEMU's 192 KiB: {}",
                    r.errors[0]
                )),
                r => big[k] = r,
            },
            Err(e) => notes.push(format!(
                "{what} {op}: not measured with QEMU's 192 KiB: {e}"
            )),
        }
    }
    big
}

/// Whether the run measures pqlab's other configurations ([`qemu::CONFIGS`]) too: not in the
/// quick run (`PQLAB_M4_CONFIGS=1` asks for them there, `0` leaves them out of a full one).
fn with_configs(config: &Config) -> bool {
    match std::env::var("PQLAB_M4_CONFIGS").as_deref() {
        Ok("1") => true,
        Ok("0") => false,
        _ => !config.quick,
    }
}

/// Images to measure: pqlab's (each parameter set in its default configuration, then in the
/// others that apply to it, see [`with_configs`]), then PQClean's.
fn images(config: &Config) -> Vec<Image> {
    let mut v = Vec::new();
    for implementation in ["pqlab", "pqclean"] {
        if implementation == "pqclean" && !config.peers {
            continue;
        }
        for alg in ALGS {
            if !config.algs.is_empty() && !config.algs.iter().any(|a| a == alg) {
                continue;
            }
            v.push(Image {
                implementation,
                alg,
                config: "",
            });
            if implementation == "pqlab" && with_configs(config) {
                for (feature, prefix) in qemu::CONFIGS {
                    if alg.starts_with(prefix) {
                        v.push(Image {
                            implementation,
                            alg,
                            config: feature,
                        });
                    }
                }
            }
        }
    }
    v
}

/// Builds (or finds) one image.
fn image(dir: &Path, build: bool, i: Image, ram: qemu::Ram) -> Result<PathBuf, LabError> {
    if build {
        return qemu::build_image(dir, i.implementation, i.alg, i.config, ram);
    }
    let p = dir.join(qemu::image_name(i.implementation, i.alg, i.config, ram));
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
    let harness = Image {
        implementation: "baseline",
        alg: "none",
        config: "",
    };
    let baseline = read_fp(&image(&dir, build, harness, qemu::Ram::Chip)?)?;
    // The harness built for size, subtracted from the images built for size.
    let size_profile = |i: &Image| qemu::profile_and_features(i.config).0 != "release";
    let baseline_size = if wanted.iter().any(size_profile) {
        let harness = Image {
            config: qemu::OPT_SIZE,
            ..harness
        };
        read_fp(&image(&dir, build, harness, qemu::Ram::Chip)?)?
    } else {
        baseline
    };
    let mut built = Vec::new();
    for (k, &i) in wanted.iter().enumerate() {
        progress(k + 1, total, &format!("building the M4 image {}", label(i)));
        let path = image(&dir, build, i, qemu::Ram::Chip)?;
        built.push((i, read_fp(&path)?, path));
    }
    // One QEMU run per image lists its operations and gives the calibration loops; then one
    // per (image, operation), several at once.
    let calls = config.iterations;
    let mut jobs: Vec<Job> = Vec::new();
    let mut calibration_loops = Vec::new();
    for (i, fp, path) in &built {
        let head = parse::parse(&qemu::run_image(path, "ops=none calls=0", limit())?)?;
        if calibration_loops.is_empty() {
            calibration_loops = head.calibration.clone();
        }
        for name in &head.ops {
            let Some((op, expanded)) = lab_op(name) else {
                continue;
            };
            if config.ops.is_empty() || config.ops.contains(&op) {
                jobs.push(Job {
                    image: *i,
                    fp: *fp,
                    path: path.clone(),
                    op: firmware_op(op, expanded),
                });
            }
        }
    }
    let runs: Vec<(PathBuf, String)> = jobs
        .iter()
        .map(|j| (j.path.clone(), j.op.clone()))
        .collect();
    let outputs = run_all(&runs, calls, &mut |k| {
        let j = &jobs[k];
        progress(
            total,
            total,
            &format!("running on QEMU: {} {} ...", label(j.image), j.op),
        );
    });
    // Parse; an operation's failed check ends the comparison (a wrong result is no result).
    let mut notes = Vec::new();
    let mut parsed: Vec<Option<parse::OpRun>> = Vec::new();
    for (job, out) in jobs.iter().zip(outputs) {
        let (what, op) = (label(job.image), &job.op);
        parsed.push(match out.and_then(|t| parse::parse(&t)) {
            Ok(run) => match run.results.into_iter().find(|r| &r.op == op) {
                Some(r) => {
                    if let Some(e) = r.errors.first() {
                        return Err(LabError::Implementation(format!("{what} on the M4: {e}")));
                    }
                    Some(r)
                }
                None => {
                    notes.push(format!("{what} {op}: the firmware did not run it"));
                    None
                }
            },
            Err(e) => {
                notes.push(format!("{what} {op}: not measured: {e}"));
                None
            }
        });
    }
    let big = measure_overflows(&dir, build, &jobs, &parsed, calls, &mut notes, progress);
    // ML-DSA's signatures and every key pair compared across the images (the same work: a
    // difference ends the comparison), and the loop counts of every signing run.
    let measured: Vec<(Image, Option<&parse::OpRun>)> = jobs
        .iter()
        .zip(&parsed)
        .zip(&big)
        .map(|((j, p), b)| (j.image, p.as_ref().map(|p| measured_run(p, b.as_ref()))))
        .collect();
    let signed = signing::check(&measured)?;
    let mut rows = Vec::new();
    let mut results = Vec::new();
    let mut cross_checks = Vec::new();
    for (((job, run), big), loops) in jobs.iter().zip(&parsed).zip(&big).zip(signed.loops) {
        let Some(op_run) = run else { continue };
        let harness = if size_profile(&job.image) {
            baseline_size
        } else {
            baseline
        };
        let Some(mut r) = row(job.image, op_run, (job.fp, harness), big.as_ref()) else {
            continue;
        };
        if let Some(l) = loops {
            let instr: Vec<f64> = measured_run(op_run, big.as_ref())
                .calls
                .iter()
                .map(|c| c.0 as f64)
                .collect();
            r.set_loops(l, &instr);
        }
        if let Some(why) = &r.does_not_fit {
            notes.push(format!("{} {}: {why}", label(job.image), job.op));
        }
        if let Some(c) = cross_check(&r) {
            cross_checks.push(c);
        }
        if let Some(rr) = result_row(&r, measured_run(op_run, big.as_ref())) {
            results.push(rr);
        }
        rows.push(r);
    }
    cross_checks.extend(signed.checks);
    notes.push(format!(
        "cortex-m4: instructions counted exactly by QEMU (-icount shift=0, TIM2 at 1 GHz of \
         virtual time); cycles = instructions x {:.3} (CPI calibrated against pqm4's cycle \
         counts of PQClean's clean code; see the M4 table), ms at 168 MHz",
        model::CPI
    ));
    let mut report = common_report(config, results, notes, &wanted);
    for r in &rows {
        let seen = report.footprints.iter().any(|f| {
            f.implementation == r.implementation && f.alg == r.alg && f.config == r.config
        });
        if !seen && r.footprint.flash > 0 {
            report.footprints.push(crate::run::FootprintRow {
                implementation: r.implementation.clone(),
                alg: r.alg.clone(),
                config: r.config.clone(),
                flash: r.footprint.flash,
                ram: r.footprint.ram,
            });
        }
    }
    report.published = Some(config.published(&report, crate::papers::Scope::CortexM4));
    Ok(M4Report {
        report,
        rows,
        calibration_loops,
        baseline,
        cross_checks,
    })
}

/// The report of the common shape around the M4 results.
fn common_report(
    config: &Config,
    results: Vec<ResultRow>,
    notes: Vec<String>,
    wanted: &[Image],
) -> Report {
    let mut machine = Machine::detect();
    machine.cpu = "ARM Cortex-M4F (STM32F405, QEMU netduinoplus2), 168 MHz model".into();
    machine.cores = 1;
    machine.tsc_hz = None;
    machine.features = vec!["thumbv7em".into(), "fpv4-sp-d16".into()];
    machine.os = "bare metal under qemu-system-arm".into();
    machine.backend = "portable".into();
    machine.backends_available = vec!["portable".into()];
    let mut algs: Vec<String> = Vec::new();
    for w in wanted {
        if !algs.iter().any(|a| a == w.alg) {
            algs.push(w.alg.to_string());
        }
    }
    let sizes = wanted
        .iter()
        .filter(|w| w.config.is_empty())
        .filter_map(
            |&Image {
                 implementation: imp,
                 alg,
                 ..
             }| {
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
            },
        )
        .collect();
    let config = ConfigRecord {
        iterations: config.iterations,
        warmup: 0,
        msg_sizes: vec![32],
        algs,
        ops: Op::ALL
            .into_iter()
            .filter(|o| config.ops.is_empty() || config.ops.contains(o))
            .collect(),
        peers: config.peers,
        quick: config.quick,
        power_model: Some(model::power()),
        method: "Cortex-M4 under QEMU (netduinoplus2, -icount shift=0): exact instruction \
                 counts per call from TIM2 at 1 GHz of virtual time (one tick per \
                 instruction), fresh inputs per call from a per-call splitmix64 seed (ML-DSA \
                 signs deterministically, rnd = 0, the same messages under the same keys in \
                 every image: the same signatures, checked, and rejection-loop iterations); \
                 cycles and times from the model (instructions x CPI, 168 MHz); painted \
                 process stack; flash and RAM from the ELF",
    };
    let mut report = Report::empty(machine, config);
    report.sizes = sizes;
    report.results = results;
    report.notes = notes;
    report
}

#[cfg(test)]
mod tests;
