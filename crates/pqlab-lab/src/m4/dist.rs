//! The distribution of an operation's time over its calls on the M4: ML-DSA's signing time
//! varies with the iterations of its rejection loop (FIPS 204, Algorithm 7, ML-DSA.Sign_internal),
//! Falcon's with its sampler's rejections, so one median hides the spread. Times are the
//! model's (`model::ns` of each call's exact instruction count).

use std::fmt::Write as _;

use crate::measure::{mean_sd, quantile, sorted};

use super::model;

/// Bins of the histogram.
pub const BUCKETS: usize = 10;

/// The spread of one operation's time over N calls with fresh inputs, milliseconds at
/// 168 MHz (the cycle model's).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Distribution {
    /// Calls.
    pub calls: usize,
    /// Median, ms.
    pub median_ms: f64,
    /// Mean, ms.
    pub mean_ms: f64,
    /// Sample standard deviation, ms.
    pub sd_ms: f64,
    /// Coefficient of variation, sd / mean.
    pub cv: f64,
    /// Percentiles 5, 25, 75, 95, ms.
    pub p05_ms: f64,
    /// 25th percentile, ms.
    pub p25_ms: f64,
    /// 75th percentile, ms.
    pub p75_ms: f64,
    /// 95th percentile, ms.
    pub p95_ms: f64,
    /// Minimum, ms.
    pub min_ms: f64,
    /// Maximum, ms.
    pub max_ms: f64,
    /// Width of a histogram bin, ms; bin k holds [min + k width, min + (k + 1) width), the
    /// last one also the maximum.
    pub bucket_ms: f64,
    /// Calls per bin ([`BUCKETS`] bins from the minimum).
    pub counts: Vec<usize>,
}

impl Distribution {
    /// The distribution of calls with these instruction counts; `None` under 2 calls.
    pub fn of(instructions: &[f64]) -> Option<Distribution> {
        if instructions.len() < 2 {
            return None;
        }
        let ms: Vec<f64> = instructions.iter().map(|&i| model::ns(i) / 1e6).collect();
        let s = sorted(&ms);
        let (mean, sd) = mean_sd(&ms);
        let (min, max) = (s[0], s[s.len() - 1]);
        let width = if max > min {
            (max - min) / BUCKETS as f64
        } else {
            // All calls alike: one bin holds them.
            1e-6
        };
        let mut counts = vec![0usize; BUCKETS];
        for v in &ms {
            counts[(((v - min) / width) as usize).min(BUCKETS - 1)] += 1;
        }
        Some(Distribution {
            calls: ms.len(),
            median_ms: quantile(&s, 0.5),
            mean_ms: mean,
            sd_ms: sd,
            cv: sd / mean,
            p05_ms: quantile(&s, 0.05),
            p25_ms: quantile(&s, 0.25),
            p75_ms: quantile(&s, 0.75),
            p95_ms: quantile(&s, 0.95),
            min_ms: min,
            max_ms: max,
            bucket_ms: width,
            counts,
        })
    }

    /// A small text histogram: one line per bin, its range in ms, a bar and the count.
    pub fn text(&self, out: &mut String) {
        let top = self.counts.iter().copied().max().unwrap_or(1).max(1);
        for (k, &c) in self.counts.iter().enumerate() {
            let lo = self.min_ms + k as f64 * self.bucket_ms;
            let bar = "#".repeat((c * 40).div_ceil(top));
            let _ = writeln!(
                out,
                "    {lo:9.3} .. {:9.3} ms | {bar:<40} {c}",
                lo + self.bucket_ms
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statistics_and_bins_of_known_calls() {
        assert!(Distribution::of(&[1e6]).is_none());
        // Instructions whose model times are 1, 2, ..., 10 ms (and 10 again).
        let per_ms = 168e3 / model::CPI;
        let calls: Vec<f64> = (1..=10)
            .chain([10])
            .map(|k| f64::from(k) * per_ms)
            .collect();
        let d = Distribution::of(&calls).unwrap();
        assert_eq!(d.calls, 11);
        assert!((d.median_ms - 6.0).abs() < 1e-9);
        assert!((d.min_ms - 1.0).abs() < 1e-9 && (d.max_ms - 10.0).abs() < 1e-9);
        assert!((d.p25_ms - 3.5).abs() < 1e-9 && (d.p75_ms - 8.5).abs() < 1e-9);
        assert!((d.bucket_ms - 0.9).abs() < 1e-9);
        // 1 ms in the first bin, ..., 10 ms twice in the last (the maximum belongs to it).
        assert_eq!(d.counts, vec![1, 1, 1, 1, 1, 1, 1, 1, 1, 2]);
        assert_eq!(d.counts.iter().sum::<usize>(), d.calls);
        assert!((d.cv - d.sd_ms / d.mean_ms).abs() < 1e-12);
        let mut t = String::new();
        d.text(&mut t);
        assert_eq!(t.lines().count(), BUCKETS);
        assert!(
            t.lines()
                .last()
                .unwrap()
                .ends_with(&format!("{} 2", "#".repeat(40)))
        );
        // Equal calls: all in the first bin.
        let same = Distribution::of(&[per_ms, per_ms, per_ms]).unwrap();
        assert_eq!((same.counts[0], same.sd_ms), (3, 0.0));
    }
}
