//! The M4 comparison's reports: the terminal table, the JSON (the common schema with a
//! top-level `target: "cortex-m4"` and an `m4` object) and the HTML page (the common page with
//! the M4 table added).

use std::fmt::Write as _;

use super::{M4Report, M4Row, model};
use crate::LabError;
use crate::registry::Op;

fn op_label(r: &M4Row) -> String {
    match &r.variant {
        Some(v) => format!("{} [{v}]", r.op.name()),
        None => r.op.name().to_string(),
    }
}

/// The cells of the M4 table for one row.
fn cells(r: &M4Row) -> Vec<String> {
    let opt = |v: Option<f64>, f: &dyn Fn(f64) -> String| v.map_or("-".into(), f);
    let s = r.instructions;
    vec![
        r.implementation.clone(),
        r.config.clone().unwrap_or_else(|| "default".into()),
        r.alg.clone(),
        op_label(r),
        opt(s.map(|s| s.median_ns), &|v| format!("{v:.0}")),
        opt(s.map(|s| s.cv * 100.0), &|v| format!("{v:.2}%")),
        opt(r.median_cycles, &|v| format!("{v:.0}")),
        opt(r.median_ms, &|v| format!("{v:.2}")),
        r.stack_bytes.map_or_else(|| "-".into(), |b| b.to_string()),
        r.footprint.flash.to_string(),
        r.footprint.ram.to_string(),
        opt(r.energy_j, &|v| format!("{:.1}", v * 1e6)),
        opt(r.ops_per_battery, &|v| format!("{v:.3e}")),
        r.does_not_fit.clone().unwrap_or_default(),
    ]
}

const HEAD: [&str; 14] = [
    "impl",
    "config",
    "alg",
    "op",
    "instructions",
    "cv",
    "est. cycles",
    "ms@168MHz",
    "stack B",
    "flash B",
    "data+bss B",
    "energy uJ",
    "ops/battery",
    "note",
];

/// The calibration lines: the counter against loops of known length, and the CPI model
/// against pqm4.
fn calibration_text(m: &M4Report, out: &mut String) {
    for (n, expected, measured) in &m.calibration_loops {
        let _ = writeln!(
            out,
            "calibration: loop of {n} iterations: {expected} instructions expected, {measured} \
             counted ({:+} = the loop function's call and return)",
            *measured as i64 - *expected as i64
        );
    }
    let _ = writeln!(
        out,
        "cycle model: cycles = instructions x CPI {:.3}, the median of pqm4's cycles / this \
         lab's instructions for PQClean's clean code:",
        model::CPI
    );
    for (alg, op, ratio, err) in model::calibration() {
        let _ = writeln!(
            out,
            "  {alg} {op}: pqm4 / instructions = {ratio:.3}, model error {:+.1}%",
            err * 100.0
        );
    }
}

/// The spread of the signing time over the calls (ML-DSA's rejection loop, Falcon's sampler),
/// with a text histogram, for every signing row measured 2 times or more.
fn distribution_text(m: &M4Report, out: &mut String) {
    for r in &m.rows {
        let Some(d) = r.distribution.as_ref().filter(|_| r.op == Op::Sign) else {
            continue;
        };
        let _ = writeln!(
            out,
            "signing time, {} {} {}{}: {} calls{}, median {:.3} ms, sd {:.3} ms, CV {:.2}%, \
             p05 {:.3}, p25 {:.3}, p75 {:.3}, p95 {:.3}, min {:.3}, max {:.3} ms",
            r.implementation,
            r.config.as_deref().unwrap_or("default"),
            r.alg,
            r.variant
                .as_ref()
                .map_or(String::new(), |v| format!(" [{v}]")),
            d.calls,
            if r.loops.is_empty() {
                ""
            } else {
                " (fresh messages, rnd = 0)"
            },
            d.median_ms,
            d.sd_ms,
            d.cv * 100.0,
            d.p05_ms,
            d.p25_ms,
            d.p75_ms,
            d.p95_ms,
            d.min_ms,
            d.max_ms
        );
        d.text(out);
    }
}

/// "implementation config alg [variant]" of a row.
fn row_label(r: &M4Row) -> String {
    format!(
        "{} {}{}",
        r.implementation,
        r.config.as_deref().unwrap_or("default"),
        r.variant
            .as_ref()
            .map_or(String::new(), |v| format!(" [{v}]"))
    )
}

/// ML-DSA's signing as the same work: the loop count of every call, and per row the median
/// instructions, the instructions per loop iteration and the fit's cost of one more iteration;
/// pqlab's default configuration against PQClean per iteration and per median.
fn loops_text(m: &M4Report, out: &mut String) {
    let signing = |r: &&M4Row| r.op == Op::Sign && !r.loops.is_empty();
    let mut algs: Vec<&str> = Vec::new();
    for r in m.rows.iter().filter(signing) {
        if !algs.contains(&r.alg.as_str()) {
            algs.push(&r.alg);
        }
    }
    if algs.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "signing as the same work: ML-DSA signs deterministically (rnd = 0, FIPS 204), call i \
         the same message under the same key in every image; the signatures were checked \
         identical, so every implementation ran the same rejection-loop iterations:"
    );
    for alg in algs {
        let rows: Vec<&M4Row> = m
            .rows
            .iter()
            .filter(signing)
            .filter(|r| r.alg == alg)
            .collect();
        let Some(first) = rows.first() else { continue };
        let list: Vec<String> = first.loops.iter().map(u32::to_string).collect();
        let mean = first.signing_loops.as_ref().map_or(0.0, |l| l.mean);
        let _ = writeln!(
            out,
            "  {alg}: {} calls, loop iterations per call {} (mean {mean:.2})",
            first.loops.len(),
            list.join(" ")
        );
        for r in &rows {
            let l = r.signing_loops.as_ref();
            let _ = writeln!(
                out,
                "    {:<34} median {:>10.0} instructions, {:>9.0} per loop iteration{}",
                row_label(r),
                r.instructions.map_or(0.0, |s| s.median_ns),
                r.instructions_per_loop.unwrap_or(0.0),
                match (l.and_then(|l| l.loop_ns), l.and_then(|l| l.fixed_ns)) {
                    (Some(a), Some(b)) => format!(" (fit: {a:.0} per iteration + {b:.0})"),
                    _ => String::new(),
                }
            );
        }
        let pick = |imp: &str| {
            rows.iter()
                .find(|r| r.implementation == imp && r.config.is_none() && r.variant.is_none())
        };
        if let (Some(a), Some(b)) = (pick("pqlab"), pick("pqclean")) {
            let ratio = |x: Option<f64>, y: Option<f64>| x.zip(y).map_or(0.0, |(x, y)| x / y);
            let fit = |r: &M4Row| r.signing_loops.as_ref().and_then(|l| l.loop_ns);
            let _ = writeln!(
                out,
                "    pqlab / pqclean: {:.3} per loop iteration, {:.3} of the medians{}",
                ratio(a.instructions_per_loop, b.instructions_per_loop),
                ratio(
                    a.instructions.map(|s| s.median_ns),
                    b.instructions.map(|s| s.median_ns)
                ),
                if fit(a).is_some() && fit(b).is_some() {
                    format!(", {:.3} per extra iteration (fit)", ratio(fit(a), fit(b)))
                } else {
                    String::new()
                }
            );
        }
    }
}

/// How the energy columns are made: from the M4 time of the cycle model, not from x86 times.
fn energy_text(out: &mut String) {
    let p = model::power();
    let _ = writeln!(
        out,
        "energy: uJ = {:.4} W (STM32F407 run current, 3.3 V x 32 mA at 168 MHz) x the M4 time \
         above (estimated cycles / 168 MHz); ops/battery = {} ({:.0} J) / that energy",
        p.watts, p.battery, p.battery_joules
    );
}

/// The known-answer checks of the verify and decaps calls.
fn cross_check_text(m: &M4Report, out: &mut String) {
    for c in &m.cross_checks {
        let what = match c.op {
            Op::Decaps => "of pqlab's fixture ciphertexts decapsulated to the known shared secret",
            Op::Sign => "deterministic signatures identical to pqlab's",
            Op::Keygen => "key pairs identical to pqlab's (the same seeds)",
            _ => "of pqlab's fixture signatures accepted",
        };
        let _ = writeln!(
            out,
            "known answers: {} {} {}: {} {what}{}",
            c.implementation,
            c.alg,
            c.op.name(),
            c.checked,
            if c.passed { "" } else { " FAILED" }
        );
    }
}

/// The terminal summary.
pub fn text(m: &M4Report) -> String {
    let mut t = crate::report::text::Table::new(&HEAD);
    for r in &m.rows {
        t.rows.push(cells(r));
    }
    let mut out = String::new();
    t.render(
        &format!(
            "Cortex-M4 (QEMU netduinoplus2, 128 KiB RAM), {} call(s) per operation; flash and \
             RAM of the scheme (the image less the harness: {} B flash, {} B data+bss)",
            m.report.config.iterations, m.baseline.flash, m.baseline.ram
        ),
        &mut out,
    );
    out.push('\n');
    loops_text(m, &mut out);
    distribution_text(m, &mut out);
    energy_text(&mut out);
    calibration_text(m, &mut out);
    cross_check_text(m, &mut out);
    for n in &m.report.notes {
        let _ = writeln!(out, "note: {n}");
    }
    out
}

/// The JSON report: the common schema, `target: "cortex-m4"` and the `m4` details.
pub fn json(m: &M4Report) -> Result<String, LabError> {
    let err = |e: serde_json::Error| LabError::Report(format!("JSON: {e}"));
    let mut v = serde_json::to_value(&m.report).map_err(err)?;
    let cal: Vec<serde_json::Value> = model::calibration()
        .into_iter()
        .map(|(alg, op, ratio, error)| {
            serde_json::json!({ "alg": alg, "op": op, "pqm4_cycles_per_instruction": ratio,
                                "model_error": error })
        })
        .collect();
    let extra = serde_json::json!({
        "clock_hz": model::CLOCK_HZ,
        "energy_model": {
            "watts": model::power().watts,
            "battery": model::power().battery,
            "battery_joules": model::power().battery_joules,
            "from": "the M4 time of the cycle model (estimated cycles / 168 MHz)",
        },
        "cpi": model::CPI,
        "cpi_calibration": cal,
        "counter_calibration": m.calibration_loops,
        "cross_checks": m.cross_checks,
        "harness": m.baseline,
        "rows": m.rows,
    });
    if let Some(o) = v.as_object_mut() {
        o.insert("target".into(), "cortex-m4".into());
        o.insert("m4".into(), extra);
    }
    serde_json::to_string_pretty(&v).map_err(err)
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The HTML report: the common page with the M4 table and the calibration before its end.
pub fn html(m: &M4Report) -> Result<String, LabError> {
    let page = crate::report::html::to_html(&m.report)?;
    let mut s = String::from("<h2>Cortex-M4</h2><table id=\"m4\"><tr>");
    for h in HEAD {
        let _ = write!(s, "<th>{}</th>", escape(h));
    }
    s.push_str("</tr>");
    for r in &m.rows {
        s.push_str("<tr>");
        for c in cells(r) {
            let _ = write!(s, "<td>{}</td>", escape(&c));
        }
        s.push_str("</tr>");
    }
    s.push_str("</table><pre id=\"m4-calibration\">");
    let mut cal = String::new();
    loops_text(m, &mut cal);
    distribution_text(m, &mut cal);
    energy_text(&mut cal);
    calibration_text(m, &mut cal);
    cross_check_text(m, &mut cal);
    s.push_str(&escape(&cal));
    s.push_str("</pre>");
    Ok(match page.rfind("</body>") {
        Some(at) => format!("{}{s}{}", &page[..at], &page[at..]),
        None => page + &s,
    })
}
