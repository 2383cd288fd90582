//! The CSV report: one row per measurement, with a header line (the last column, `variant`, is
//! `expanded-key` for Falcon signing with an expanded key and empty otherwise).

use crate::run::Report;

const HEADER: &str = "impl,alg,op,msg_len,iterations,median_ns,mean_ns,sd_ns,cv,p05_ns,p95_ns,\
                      min_ns,max_ns,median_cycles,stack_bytes,heap_bytes,alloc_count,energy_j,variant";

fn opt<T: ToString>(v: Option<T>) -> String {
    v.map(|v| v.to_string()).unwrap_or_default()
}

/// The report's measurements as CSV (no field needs quoting: names are plain identifiers).
pub fn to_csv(report: &Report) -> String {
    let mut out = String::from(HEADER);
    out.push('\n');
    for r in &report.results {
        let s = &r.summary;
        let row = [
            r.implementation.clone(),
            r.alg.clone(),
            r.op.name().to_string(),
            opt(r.msg_len),
            s.iterations.to_string(),
            s.median_ns.to_string(),
            s.mean_ns.to_string(),
            s.sd_ns.to_string(),
            s.cv.to_string(),
            s.p05_ns.to_string(),
            s.p95_ns.to_string(),
            s.min_ns.to_string(),
            s.max_ns.to_string(),
            opt(s.median_cycles),
            opt(r.stack_bytes),
            opt(r.heap_bytes),
            opt(r.alloc_count),
            opt(r.energy_j),
            r.variant.clone().unwrap_or_default().replace(' ', "-"),
        ];
        out.push_str(&row.join(","));
        out.push('\n');
    }
    out
}
