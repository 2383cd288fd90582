//! Timing loops (DESIGN §6): a warm-up, then one timed call per iteration with the wall clock
//! and the time-stamp counter, and the summary of the sample.

use std::time::Instant;

use crate::LabError;
use crate::probe::tsc;

/// A latency sample: one entry per timed call.
#[derive(Clone, Debug, Default)]
pub struct Sample {
    /// Nanoseconds per call.
    pub ns: Vec<f64>,
    /// Time-stamp-counter ticks per call (empty where there is no TSC).
    pub cycles: Vec<f64>,
}

/// Times `iterations` calls of `op` after `warmup` untimed calls. `prepare(i)` runs before
/// call `i`, untimed (fresh inputs), and hands its result to `op`.
pub fn time<I, P, O>(
    warmup: usize,
    iterations: usize,
    mut prepare: P,
    mut op: O,
) -> Result<Sample, LabError>
where
    P: FnMut(usize) -> Result<I, LabError>,
    O: FnMut(I) -> Result<(), LabError>,
{
    for i in 0..warmup {
        op(prepare(i)?)?;
    }
    let mut s = Sample {
        ns: Vec::with_capacity(iterations),
        cycles: Vec::with_capacity(iterations),
    };
    for i in 0..iterations {
        let input = prepare(warmup + i)?;
        let c0 = tsc();
        let t0 = Instant::now();
        op(input)?;
        let dt = t0.elapsed();
        if let (Some(c0), Some(c1)) = (c0, tsc()) {
            s.cycles.push(c1.wrapping_sub(c0) as f64);
        }
        s.ns.push(dt.as_nanos() as f64);
    }
    Ok(s)
}

/// The summary of a sample that the JSON report carries (DESIGN §4).
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize)]
pub struct Summary {
    /// Number of timed calls.
    pub iterations: usize,
    /// Median, ns.
    pub median_ns: f64,
    /// Mean, ns.
    pub mean_ns: f64,
    /// Sample standard deviation, ns.
    pub sd_ns: f64,
    /// Coefficient of variation, sd / mean.
    pub cv: f64,
    /// 5th percentile, ns.
    pub p05_ns: f64,
    /// 95th percentile, ns.
    pub p95_ns: f64,
    /// Minimum, ns.
    pub min_ns: f64,
    /// Maximum, ns.
    pub max_ns: f64,
    /// Median TSC ticks, where there is a TSC.
    pub median_cycles: Option<f64>,
}

/// The `p`-quantile (0..=1) of sorted data, interpolating linearly between order statistics
/// (type 7 of Hyndman and Fan, as R and numpy do by default).
pub fn quantile(sorted: &[f64], p: f64) -> f64 {
    match sorted.len() {
        0 => f64::NAN,
        1 => sorted[0],
        n => {
            let h = (n - 1) as f64 * p.clamp(0.0, 1.0);
            let lo = h.floor() as usize;
            let hi = (lo + 1).min(n - 1);
            sorted[lo] + (h - lo as f64) * (sorted[hi] - sorted[lo])
        }
    }
}

/// `xs` sorted ascending (NaNs last).
pub fn sorted(xs: &[f64]) -> Vec<f64> {
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    v
}

/// Mean and sample standard deviation (n - 1 in the denominator).
pub fn mean_sd(xs: &[f64]) -> (f64, f64) {
    let n = xs.len() as f64;
    if xs.is_empty() {
        return (f64::NAN, f64::NAN);
    }
    let mean = xs.iter().sum::<f64>() / n;
    if xs.len() < 2 {
        return (mean, 0.0);
    }
    let var = xs.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n - 1.0);
    (mean, var.sqrt())
}

impl Summary {
    /// Summarises a sample.
    pub fn of(s: &Sample) -> Summary {
        let v = sorted(&s.ns);
        let (mean, sd) = mean_sd(&v);
        Summary {
            iterations: v.len(),
            median_ns: quantile(&v, 0.5),
            mean_ns: mean,
            sd_ns: sd,
            cv: if mean > 0.0 { sd / mean } else { 0.0 },
            p05_ns: quantile(&v, 0.05),
            p95_ns: quantile(&v, 0.95),
            min_ns: v.first().copied().unwrap_or(f64::NAN),
            max_ns: v.last().copied().unwrap_or(f64::NAN),
            median_cycles: (!s.cycles.is_empty()).then(|| quantile(&sorted(&s.cycles), 0.5)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_interpolate_like_r_type_7() {
        let v = [1.0, 2.0, 3.0, 4.0, 10.0];
        assert_eq!(quantile(&v, 0.5), 3.0);
        assert_eq!(quantile(&v, 0.0), 1.0);
        assert_eq!(quantile(&v, 1.0), 10.0);
        // R: quantile(c(1,2,3,4,10), 0.95) = 8.8; 0.05 -> 1.2
        assert!((quantile(&v, 0.95) - 8.8).abs() < 1e-12);
        assert!((quantile(&v, 0.05) - 1.2).abs() < 1e-12);
    }

    #[test]
    fn summary_of_a_known_sample() {
        let s = Sample {
            ns: vec![4.0, 2.0, 6.0, 8.0],
            cycles: vec![40.0, 20.0, 60.0, 80.0],
        };
        let m = Summary::of(&s);
        assert_eq!(m.iterations, 4);
        assert_eq!(m.median_ns, 5.0);
        assert_eq!(m.mean_ns, 5.0);
        // sd = sqrt(20/3)
        assert!((m.sd_ns - (20.0f64 / 3.0).sqrt()).abs() < 1e-12);
        assert_eq!((m.min_ns, m.max_ns), (2.0, 8.0));
        assert_eq!(m.median_cycles, Some(50.0));
    }

    #[test]
    fn time_runs_prepare_untimed_and_counts_iterations() {
        let mut calls = 0;
        let s = time(3, 10, Ok, |_| {
            calls += 1;
            Ok(())
        })
        .unwrap();
        assert_eq!(calls, 13);
        assert_eq!(s.ns.len(), 10);
    }
}
