//! The rows of the M4 report: one [`M4Row`] per (image, operation) from its QEMU runs (why an
//! operation does not fit, the instruction counts and what the model derives from them), and
//! the common report's [`ResultRow`] of each measured one.

use super::{Image, M4Row, dist, elf, model, parse};
use crate::measure::{Sample, Summary};
use crate::registry::Op;
use crate::run::{Rejection, ResultRow};

/// "implementation alg" and the configuration where not the default, for notes.
pub(super) fn label(i: Image) -> String {
    if i.config.is_empty() {
        format!("{} {}", i.implementation, i.alg)
    } else {
        format!("{} {} ({})", i.implementation, i.alg, i.config)
    }
}

/// The firmware's name of `op` with `variant`.
pub(super) fn firmware_op(op: Op, expanded: bool) -> String {
    if expanded {
        format!("{}-expanded", op.name())
    } else {
        op.name().to_string()
    }
}

/// (operation, expanded) of a firmware operation name.
pub(super) fn lab_op(name: &str) -> Option<(Op, bool)> {
    match name.strip_suffix("-expanded") {
        Some(base) => Op::from_name(base).map(|o| (o, true)),
        None => Op::from_name(name).map(|o| (o, false)),
    }
}

/// The stack a run's inputs took before its measured call (the expanded key of signing with
/// an expanded key, for one), as words for a reason; empty where they were small.
pub(super) fn inputs(run: &parse::OpRun, f: &parse::Fault) -> String {
    let taken = run.available.saturating_sub(f.window);
    if f.window > 0 && taken > 4096 {
        format!(" left beside its inputs (which take {taken})")
    } else {
        String::new()
    }
}

/// Why an operation that faulted does not fit, from its run on the chip's RAM and, where
/// there was one, its run on QEMU's larger RAM (`big`).
pub(super) fn does_not_fit(
    run: &parse::OpRun,
    f: &parse::Fault,
    big: Option<&parse::OpRun>,
) -> String {
    if !f.overflow {
        return format!("processor fault: {}", f.line);
    }
    // The fault came outside the measured call (window 0): while the harness prepared the
    // inputs or checked the output.
    let outside = f.window == 0;
    let had = if outside { run.available } else { f.window };
    let beside = inputs(run, f);
    match big {
        Some(b) if b.fault.is_none() && !b.calls.is_empty() => {
            let need = b.calls.iter().map(|c| c.1).max().unwrap_or(0);
            if outside {
                format!(
                    "does not fit with its inputs (the call needs {need} bytes of stack; the \
                     harness overflowed the {had} bytes outside the measured call: its inputs \
                     such as an expanded key, or the output's check; measured with QEMU's \
                     192 KiB)"
                )
            } else {
                format!(
                    "does not fit (needs {need} bytes of stack, has {had} of the 128 KiB \
                     RAM{beside}; measured with QEMU's 192 KiB)"
                )
            }
        }
        Some(b) => {
            let (more, beside) = match &b.fault {
                Some(bf) if bf.window > 0 => (bf.window, inputs(b, bf)),
                _ => (b.available, " (outside the measured call)".to_string()),
            };
            format!(
                "does not fit (needs more than the {more} bytes of stack it has{beside} in \
                 QEMU's 192 KiB too)"
            )
        }
        None => format!(
            "does not fit (needs more than the {had} bytes of stack it has of the 128 KiB \
             RAM{}{beside})",
            if outside {
                "; the harness overflowed outside the measured call (preparing its inputs or \
                 checking its output)"
            } else {
                ""
            }
        ),
    }
}

/// The row of one operation from its run on the chip's RAM and, for one that overflowed it,
/// its run on QEMU's larger RAM (`big`), which then gives the measurements.
pub(super) fn row(
    image: Image,
    run: &parse::OpRun,
    fp: (elf::Footprint, elf::Footprint),
    big: Option<&parse::OpRun>,
) -> Option<M4Row> {
    let (op, expanded) = lab_op(&run.op)?;
    let power = model::power();
    let measured = measured_run(run, big);
    let instr: Vec<f64> = measured.calls.iter().map(|c| c.0 as f64).collect();
    let summary = (!instr.is_empty()).then(|| {
        Summary::of(&Sample {
            ns: instr.clone(),
            cycles: Vec::new(),
        })
    });
    let does_not_fit = run.fault.as_ref().map(|f| does_not_fit(run, f, big));
    let median = summary.map(|s| s.median_ns);
    Some(M4Row {
        implementation: image.implementation.to_string(),
        alg: image.alg.to_string(),
        op,
        variant: expanded.then(|| crate::ours::falcon::EXPANDED_VARIANT.to_string()),
        config: (!image.config.is_empty()).then(|| image.config.to_string()),
        calls: measured.calls.len(),
        instructions: summary,
        distribution: dist::Distribution::of(&instr),
        loops: Vec::new(),
        signing_loops: None,
        instructions_per_loop: None,
        median_cycles: median.map(model::cycles),
        median_ms: median.map(|m| model::ns(m) / 1e6),
        stack_bytes: measured.calls.iter().map(|c| c.1).max(),
        stack_available: run.available,
        does_not_fit,
        footprint: fp.0.less(fp.1),
        image: fp.0,
        energy_j: median.map(|m| power.joules(model::ns(m))),
        ops_per_battery: median.map(|m| power.ops_per_battery(model::ns(m))),
    })
}

impl M4Row {
    /// Sets the rejection loop's iterations of the row's calls (`loops`, in call order, one per
    /// call) and what follows from them.
    pub(super) fn set_loops(&mut self, loops: Vec<u32>, instructions: &[f64]) {
        if loops.is_empty() || loops.len() != instructions.len() {
            return;
        }
        let total: u64 = loops.iter().map(|&n| u64::from(n)).sum();
        self.instructions_per_loop =
            (total > 0).then(|| instructions.iter().sum::<f64>() / total as f64);
        self.signing_loops = Rejection::with_times(&loops, &loops, instructions);
        self.loops = loops;
    }
}

/// The run whose calls an operation's row reports: the chip's, or QEMU's larger RAM's where
/// the operation overflowed the chip's and completed there.
pub(super) fn measured_run<'a>(
    run: &'a parse::OpRun,
    big: Option<&'a parse::OpRun>,
) -> &'a parse::OpRun {
    match big {
        Some(b) if run.fault.is_some() && b.fault.is_none() => b,
        _ => run,
    }
}

/// The result row of the common report (times from the model) of a measured M4 row.
pub(super) fn result_row(r: &M4Row, run: &parse::OpRun) -> Option<ResultRow> {
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
        signing_loops: (!r.loops.is_empty())
            .then(|| Rejection::with_times(&r.loops, &r.loops, &sample.ns))
            .flatten(),
        variant: common_variant(r),
        signature_lengths: None,
        kernel_profile: None,
        sample_ns: sample.ns,
    })
}

/// The common report's variant of an M4 row: the expanded key and the configuration.
pub(super) fn common_variant(r: &M4Row) -> Option<String> {
    match (&r.variant, &r.config) {
        (Some(v), Some(c)) => Some(format!("{v}, {c}")),
        (v, c) => v.clone().or_else(|| c.clone()),
    }
}
