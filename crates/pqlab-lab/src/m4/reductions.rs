//! `pqlab compare --reductions --target cortex-m4`: the reduction-strategy study of
//! [`crate::reductions`] on the emulated Cortex-M4, where the Falcon K-RED study expects its
//! gains. The firmware's `reductions` image (`embedded/m4-lab/src/reductions.rs`) runs the
//! same NTTs and whole operations under every strategy and reports each call's exact
//! instruction count; the rows carry those counts, the cycle estimate of [`model`] and its time
//! at 168 MHz, and their change against Montgomery (computed from the instruction counts).
//!
//! On this core the counts are close to cycles for most instructions (single-cycle multiplies
//! and ALU operations), with two caveats the notes state: loads take two cycles, and `plain-%`
//! uses SDIV/UDIV (2 to 12 cycles each, data dependent) or, for 64-bit operands, a library
//! routine.

use pqlab_arith::falcon_solver;
use pqlab_arith::reduce::{self, Modulus, Strategy};

use super::{model, parse, qemu};
use crate::LabError;
use crate::reductions::{self as study, ReductionRow};
use crate::run::{Config, ConfigRecord, Progress, Report};

/// A module of the study: the firmware's name, the report's (the x86 study's), the whole
/// operation (none: not run on the M4), what each strategy is, its table bytes, and a note.
struct Module {
    firmware: &'static str,
    name: &'static str,
    op: &'static str,
    whole: bool,
    reduction: fn(Strategy) -> String,
    table_bytes: fn(Strategy) -> usize,
    note: &'static str,
}

const KEYGEN_NOTE: &str = "NTTs modulo the NTRU-solver prime PRIMES[1]; the whole key generation \
     is not run on the M4 (hundreds of millions of instructions per call and strategy): see the \
     x86 study";

const MODULES: [Module; 6] = [
    Module {
        firmware: "falcon-512-verify",
        name: "falcon-512 verify",
        op: "verify",
        whole: true,
        reduction: study::falcon_q_reduction,
        table_bytes: |s| reduce::table_bytes(s, Modulus::Falcon),
        note: "verify = decode + HashToPoint + NTT + product + inverse NTT + norm of a fixture \
               signature (key decoded before the call)",
    },
    Module {
        firmware: "falcon-1024-verify",
        name: "falcon-1024 verify",
        op: "verify",
        whole: true,
        reduction: study::falcon_q_reduction,
        table_bytes: |s| reduce::table_bytes(s, Modulus::Falcon),
        note: "as falcon-512 verify",
    },
    Module {
        firmware: "falcon-512-keygen",
        name: "falcon-512 keygen",
        op: "keygen",
        whole: false,
        reduction: study::solver_reduction,
        table_bytes: |s| falcon_solver::table_bytes(s, 9),
        note: KEYGEN_NOTE,
    },
    Module {
        firmware: "falcon-1024-keygen",
        name: "falcon-1024 keygen",
        op: "keygen",
        whole: false,
        reduction: study::solver_reduction,
        table_bytes: |s| falcon_solver::table_bytes(s, 10),
        note: KEYGEN_NOTE,
    },
    Module {
        firmware: "ml-dsa-65",
        name: "ml-dsa-65",
        op: "verify",
        whole: true,
        reduction: study::mldsa_reduction,
        table_bytes: |s| reduce::table_bytes(s, Modulus::MlDsa),
        note: "verify of a fixture signature of a 32-byte message (key decoded before the call)",
    },
    Module {
        firmware: "ml-kem-768",
        name: "ml-kem-768",
        op: "decaps",
        whole: true,
        reduction: study::mlkem_reduction,
        table_bytes: |s| reduce::table_bytes(s, Modulus::MlKem),
        note: "decaps of a fixture ciphertext (includes the re-encryption of the FO transform)",
    },
];

/// The median instruction count of operation `op` in `run` (an error if it failed or is
/// missing: every operation of this image checks its own result).
fn median(run: &parse::ImageRun, op: &str) -> Result<f64, LabError> {
    let r = run
        .results
        .iter()
        .find(|r| r.op == op)
        .ok_or_else(|| LabError::Implementation(format!("M4 reductions: {op} not run")))?;
    if let Some(e) = r.errors.first() {
        return Err(LabError::Implementation(format!("M4 reductions: {e}")));
    }
    if let Some(f) = &r.fault {
        return Err(LabError::Implementation(format!(
            "M4 reductions: {}",
            f.line
        )));
    }
    let mut v: Vec<f64> = r.calls.iter().map(|c| c.0 as f64).collect();
    if v.is_empty() {
        return Err(LabError::Implementation(format!(
            "M4 reductions: {op}: no call"
        )));
    }
    v.sort_by(f64::total_cmp);
    let n = v.len();
    Ok(if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    })
}

/// The change of `x` against Montgomery's `base`, %.
fn change(x: Option<f64>, base: Option<f64>) -> Option<f64> {
    match (x, base) {
        (Some(x), Some(b)) if b > 0.0 => Some((x / b - 1.0) * 100.0),
        _ => None,
    }
}

/// The rows of the study from the firmware's output.
pub fn rows(run: &parse::ImageRun) -> Result<Vec<ReductionRow>, LabError> {
    let mut out = Vec::new();
    for m in &MODULES {
        let count = |kind: &str, s: Strategy| -> Result<Option<f64>, LabError> {
            if kind == "op" && !m.whole {
                return Ok(None);
            }
            median(run, &format!("{}.{kind}.{}", m.firmware, s.name())).map(Some)
        };
        let base = [
            count("ntt", Strategy::Montgomery)?,
            count("intt", Strategy::Montgomery)?,
            count("op", Strategy::Montgomery)?,
        ];
        for s in Strategy::ALL {
            let [ntt, intt, op] = [count("ntt", s)?, count("intt", s)?, count("op", s)?];
            out.push(ReductionRow {
                module: m.name.into(),
                op: m.op.into(),
                strategy: s.name().into(),
                reduction: (m.reduction)(s),
                ntt_cycles: ntt.map(model::cycles),
                intt_cycles: intt.map(model::cycles),
                op_cycles: op.map(model::cycles),
                ntt_ns: ntt.map_or(0.0, model::ns),
                intt_ns: intt.map_or(0.0, model::ns),
                op_ns: op.map(model::ns),
                ntt_instructions: ntt,
                intt_instructions: intt,
                op_instructions: op,
                ntt_change_pct: change(ntt, base[0]),
                intt_change_pct: change(intt, base[1]),
                op_change_pct: change(op, base[2]),
                table_bytes: (m.table_bytes)(s),
                constant_time: s != Strategy::PlainRem,
                note: Some(m.note.into()),
            });
        }
    }
    Ok(out)
}

/// Runs the study on the M4: builds (or finds, `PQLAB_M4_IMAGES`) the `reductions` image, runs
/// it with `config.iterations` calls per operation and returns the report (its `reductions`
/// rows; `notes` say what the figures are).
pub fn run(config: &Config, progress: Progress<'_>) -> Result<Report, LabError> {
    config.validate()?;
    let (dir, build) = qemu::images_dir();
    qemu::check_tools(build, false)?;
    progress(0, 3, "building the reductions image");
    let image = if build {
        std::fs::create_dir_all(&dir)
            .map_err(|e| LabError::Implementation(format!("{}: {e}", dir.display())))?;
        qemu::build_image(&dir, "pqlab", "reductions", "", qemu::Ram::Chip)?
    } else {
        dir.join(qemu::image_name("pqlab", "reductions", "", qemu::Ram::Chip))
    };
    progress(1, 3, "running it under QEMU");
    let calls = config.iterations.max(1);
    let text = qemu::run_image(&image, &format!("calls={calls}"), super::limit())?;
    let out = parse::parse(&text)?;
    if !out.completed {
        return Err(LabError::Implementation(
            "M4 reductions: the image did not finish".into(),
        ));
    }
    progress(2, 3, "tables");
    let reductions = rows(&out)?;
    progress(3, 3, "done");
    let record = ConfigRecord::study(
        calls,
        0,
        config.quick,
        "reduction strategies on the Cortex-M4 (QEMU netduinoplus2, STM32F405, \
                 -icount shift=0): each cell is the median of the exact instruction counts \
                 of its calls; cycles = instructions x the M4 model's CPI, ns at 168 MHz; \
                 changes against Montgomery from the instruction counts",
    );
    let notes = vec![
        "target: cortex-m4 (the machine above is the host that ran QEMU)".into(),
        "instructions, not cycles: Cortex-M4 loads take 2 cycles, and plain-% runs SDIV / \
         UDIV (2 to 12 cycles, data dependent) or, for 64-bit operands (ML-DSA, Barrett's \
         reciprocals), a library division routine; the cycle column applies one CPI to all"
            .into(),
    ];
    Ok(study::report(
        config,
        record,
        reductions,
        notes,
        crate::papers::Scope::CortexM4,
    ))
}

/// The JSON report of [`run`]: the host study's schema with `target: "cortex-m4"`.
pub fn json(report: &Report) -> Result<String, LabError> {
    let err = |e: serde_json::Error| LabError::Report(format!("JSON: {e}"));
    let mut v = serde_json::to_value(report).map_err(err)?;
    if let Some(o) = v.as_object_mut() {
        o.insert("target".into(), "cortex-m4".into());
    }
    serde_json::to_string_pretty(&v).map_err(err)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The firmware's output for every operation, each instruction count from `count`.
    fn output(count: impl Fn(&str, &str, Strategy) -> u64) -> String {
        let mut s = String::from("m4-lab impl=pqlab alg=reductions ops=x calls=1\n");
        for m in &MODULES {
            let kinds: &[&str] = if m.whole {
                &["ntt", "intt", "op"]
            } else {
                &["ntt", "intt"]
            };
            for kind in kinds {
                for st in Strategy::ALL {
                    let op = format!("{}.{kind}.{}", m.firmware, st.name());
                    s.push_str(&format!(
                        "start op={op} available=126000\ncall op={op} i=0 instructions={} \
                         stack=40\nend op={op}\n",
                        count(m.firmware, kind, st)
                    ));
                }
            }
        }
        s.push_str("done failures=0\n");
        s
    }

    #[test]
    fn rows_carry_counts_changes_and_the_model() {
        // Montgomery 1000 instructions everywhere, K2-RED 900 for the forward NTT (-10 %).
        let text = output(|_, kind, s| match (s, kind) {
            (Strategy::K2Red, "ntt") => 900,
            (Strategy::PlainRem, _) => 3000,
            _ => 1000,
        });
        let rows = rows(&parse::parse(&text).expect("parses")).expect("rows");
        assert_eq!(rows.len(), MODULES.len() * Strategy::ALL.len());
        let r = rows
            .iter()
            .find(|r| r.module == "falcon-1024 verify" && r.strategy == "k2-red")
            .expect("row");
        assert_eq!(r.ntt_instructions, Some(900.0));
        assert!((r.ntt_change_pct.expect("change") + 10.0).abs() < 1e-9);
        assert_eq!(r.intt_change_pct, Some(0.0));
        assert_eq!(r.ntt_cycles, Some(model::cycles(900.0)));
        assert!((r.ntt_ns - model::ns(900.0)).abs() < 1e-9);
        // Key generation has no whole operation on the M4; plain-% is not constant time.
        let kg = rows
            .iter()
            .find(|r| r.module == "falcon-512 keygen" && r.strategy == "plain-%")
            .expect("row");
        assert_eq!((kg.op_instructions, kg.op_change_pct), (None, None));
        assert!(!kg.constant_time);
        assert!((kg.ntt_change_pct.expect("change") - 200.0).abs() < 1e-9);
    }

    #[test]
    fn a_failed_or_missing_operation_is_an_error() {
        let text = output(|_, _, _| 1000).replace(
            "call op=ml-kem-768.op.barrett i=0 instructions=1000 stack=40",
            "error op=ml-kem-768.op.barrett i=0 the shared secret differs from the host's",
        );
        let e = rows(&parse::parse(&text).expect("parses")).expect_err("error");
        assert!(e.to_string().contains("shared secret"), "{e}");
        let text = output(|_, _, _| 1000).replace("ml-dsa-65.ntt.k2-red", "other");
        assert!(rows(&parse::parse(&text).expect("parses")).is_err());
    }
}
