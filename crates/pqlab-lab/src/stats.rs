//! The statistics of the report, each with its p-value:
//!
//! * [`shapiro_wilk`]: normality of a latency sample (Royston's approximation, AS R94;
//!   4 <= n <= 5000);
//! * [`welch`]: Welch's unequal-variance t-test between two samples;
//! * [`spearman`]: Spearman's rank correlation (with ties averaged) and its t-approximation
//!   p-value.

use statrs::distribution::{ContinuousCDF, Normal, StudentsT};

use crate::measure::{mean_sd, sorted};

/// A test statistic and its p-value.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Test {
    /// The statistic (W, t or rho).
    pub statistic: f64,
    /// The p-value.
    pub p_value: f64,
}

fn std_normal() -> Option<Normal> {
    Normal::new(0.0, 1.0).ok()
}

fn poly(c: &[f64], x: f64) -> f64 {
    c.iter().rev().fold(0.0, |acc, &k| acc * x + k)
}

/// The Shapiro–Wilk W statistic and its p-value, by Royston's 1992/1995 approximation (the
/// algorithm of R's `shapiro.test` and scipy's `shapiro`). `None` for fewer than 4 or more than
/// 5000 values, or a sample with no spread.
pub fn shapiro_wilk(xs: &[f64]) -> Option<Test> {
    let n = xs.len();
    if !(4..=5000).contains(&n) {
        return None;
    }
    let x = sorted(xs);
    let norm = std_normal()?;
    let nf = n as f64;
    let m: Vec<f64> = (1..=n)
        .map(|i| norm.inverse_cdf((i as f64 - 0.375) / (nf + 0.25)))
        .collect();
    let mm: f64 = m.iter().map(|v| v * v).sum();
    let u = 1.0 / nf.sqrt();
    let an = -m[0] / mm.sqrt()
        + poly(
            &[0.0, 0.221157, -0.147981, -2.071190, 4.434685, -2.706056],
            u,
        );
    let mut a = vec![0.0; n];
    let (phi, first) = if n > 5 {
        let an1 = -m[1] / mm.sqrt()
            + poly(
                &[0.0, 0.042981, -0.293762, -1.752461, 5.682633, -3.582633],
                u,
            );
        let phi =
            (mm - 2.0 * m[0] * m[0] - 2.0 * m[1] * m[1]) / (1.0 - 2.0 * an * an - 2.0 * an1 * an1);
        a[0] = -an;
        a[1] = -an1;
        a[n - 1] = an;
        a[n - 2] = an1;
        (phi, 2)
    } else {
        let phi = (mm - 2.0 * m[0] * m[0]) / (1.0 - 2.0 * an * an);
        a[0] = -an;
        a[n - 1] = an;
        (phi, 1)
    };
    for i in first..n - first {
        a[i] = m[i] / phi.sqrt();
    }
    let (mean, _) = mean_sd(&x);
    let ss: f64 = x.iter().map(|v| (v - mean) * (v - mean)).sum();
    if ss <= 0.0 {
        return None;
    }
    let num: f64 = a.iter().zip(&x).map(|(ai, xi)| ai * xi).sum();
    let w = (num * num / ss).min(1.0);
    let (y, mu, sigma) = if n <= 11 {
        let gamma = -2.273 + 0.459 * nf;
        let y = -(gamma - (1.0 - w).ln()).ln();
        let mu = poly(&[0.5440, -0.39978, 0.025054, -6.714e-4], nf);
        let sigma = poly(&[1.3822, -0.77857, 0.062767, -0.0020322], nf).exp();
        (y, mu, sigma)
    } else {
        let ln = nf.ln();
        let mu = poly(&[-1.5861, -0.31082, -0.083751, 0.0038915], ln);
        let sigma = poly(&[-0.4803, -0.082676, 0.0030302], ln).exp();
        ((1.0 - w).ln(), mu, sigma)
    };
    let p = 1.0 - norm.cdf((y - mu) / sigma);
    Some(Test {
        statistic: w,
        p_value: p,
    })
}

/// Welch's t-test of equal means: t and the two-sided p-value with the Welch–Satterthwaite
/// degrees of freedom. `None` for fewer than 2 values in a sample or no spread in both.
pub fn welch(a: &[f64], b: &[f64]) -> Option<Test> {
    if a.len() < 2 || b.len() < 2 {
        return None;
    }
    let (ma, sa) = mean_sd(a);
    let (mb, sb) = mean_sd(b);
    let (va, vb) = (sa * sa / a.len() as f64, sb * sb / b.len() as f64);
    if va + vb <= 0.0 {
        return None;
    }
    let t = (ma - mb) / (va + vb).sqrt();
    let df =
        (va + vb).powi(2) / (va * va / (a.len() as f64 - 1.0) + vb * vb / (b.len() as f64 - 1.0));
    let dist = StudentsT::new(0.0, 1.0, df).ok()?;
    Some(Test {
        statistic: t,
        p_value: (2.0 * (1.0 - dist.cdf(t.abs()))).min(1.0),
    })
}

/// Ranks 1..=n, ties given their average rank.
fn ranks(xs: &[f64]) -> Vec<f64> {
    let mut idx: Vec<usize> = (0..xs.len()).collect();
    idx.sort_by(|&i, &j| xs[i].total_cmp(&xs[j]));
    let mut r = vec![0.0; xs.len()];
    let mut i = 0;
    while i < idx.len() {
        let mut j = i;
        while j + 1 < idx.len() && xs[idx[j + 1]] == xs[idx[i]] {
            j += 1;
        }
        let avg = (i + j) as f64 / 2.0 + 1.0;
        for &k in &idx[i..=j] {
            r[k] = avg;
        }
        i = j + 1;
    }
    r
}

/// Spearman's rank correlation rho of paired data and the two-sided p-value of the
/// t-approximation (n - 2 degrees of freedom). `None` for fewer than 3 pairs, unequal lengths
/// or a constant variable.
pub fn spearman(x: &[f64], y: &[f64]) -> Option<Test> {
    let n = x.len();
    if n < 3 || y.len() != n {
        return None;
    }
    let (rx, ry) = (ranks(x), ranks(y));
    let (mx, _) = mean_sd(&rx);
    let (my, _) = mean_sd(&ry);
    let sxy: f64 = rx.iter().zip(&ry).map(|(a, b)| (a - mx) * (b - my)).sum();
    let sxx: f64 = rx.iter().map(|a| (a - mx) * (a - mx)).sum();
    let syy: f64 = ry.iter().map(|b| (b - my) * (b - my)).sum();
    if sxx <= 0.0 || syy <= 0.0 {
        return None;
    }
    let rho = (sxy / (sxx * syy).sqrt()).clamp(-1.0, 1.0);
    let df = (n - 2) as f64;
    let p = if rho.abs() >= 1.0 {
        0.0
    } else {
        let t = rho * (df / (1.0 - rho * rho)).sqrt();
        let dist = StudentsT::new(0.0, 1.0, df).ok()?;
        (2.0 * (1.0 - dist.cdf(t.abs()))).min(1.0)
    };
    Some(Test {
        statistic: rho,
        p_value: p,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    // Reference values from scipy 1.x (`stats.shapiro`, `stats.ttest_ind(equal_var=False)`,
    // `stats.spearmanr`), which implement the same algorithms.
    #[test]
    fn shapiro_wilk_matches_scipy() {
        let cases: [(&[f64], f64, f64); 4] = [
            (
                &[
                    148.0, 154.0, 158.0, 160.0, 161.0, 162.0, 166.0, 170.0, 182.0, 195.0, 236.0,
                ],
                0.788_814_694_863_171_6,
                0.006_703_814_061_898_823,
            ),
            (
                &[
                    2.1, 3.4, 1.9, 5.6, 4.4, 3.3, 2.8, 4.1, 3.9, 2.2, 6.1, 3.0, 2.7, 3.6, 4.8, 5.0,
                    1.5, 2.9, 3.1, 4.0,
                ],
                0.977_133_002_472_965_3,
                0.891_970_410_379_115_2,
            ),
            (
                &[1.0, 2.0, 3.5, 4.0, 9.0],
                0.880_577_895_001_751_8,
                0.311_937_948_029_829_3,
            ),
            (
                &(1..=100).map(|i| f64::from(i * i)).collect::<Vec<_>>(),
                0.896_180_054_411_746_4,
                9.390_245_788_563_606e-7,
            ),
        ];
        for (xs, w, p) in cases {
            let t = shapiro_wilk(xs).unwrap();
            assert!(close(t.statistic, w, 1e-4), "W {} vs {w}", t.statistic);
            assert!(
                close(t.p_value, p, 1e-3 * p.max(1e-3)),
                "p {} vs {p}",
                t.p_value
            );
        }
        assert!(shapiro_wilk(&[1.0, 2.0, 3.0]).is_none());
        assert!(shapiro_wilk(&[2.0; 10]).is_none());
    }

    #[test]
    fn welch_matches_scipy() {
        let x = [19.1, 20.2, 18.7, 21.0, 19.9, 20.5];
        let y = [22.3, 21.9, 23.0, 22.5, 21.7, 24.1, 22.8];
        let t = welch(&x, &y).unwrap();
        assert!(close(t.statistic, -5.836_170_676_225_376, 1e-9));
        assert!(close(t.p_value, 0.000_142_312_147_585_234_14, 1e-8));
    }

    #[test]
    fn spearman_matches_scipy() {
        let t = spearman(
            &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0],
            &[2.0, 1.0, 4.0, 3.0, 7.0, 5.0, 6.0],
        )
        .unwrap();
        assert!(close(t.statistic, 0.821_428_571_428_571_5, 1e-12));
        assert!(close(t.p_value, 0.023_448_808_345_691_5, 1e-9));
        let t = spearman(
            &[1312.0, 1952.0, 2592.0, 800.0, 1184.0, 1568.0],
            &[96.1, 176.6, 247.9, 24.0, 36.4, 41.0],
        )
        .unwrap();
        assert!(close(t.statistic, 0.942_857_142_857_143, 1e-12));
        assert!(close(t.p_value, 0.004_804_664_723_032_055, 1e-9));
    }

    #[test]
    fn ranks_average_ties() {
        assert_eq!(ranks(&[10.0, 20.0, 20.0, 5.0]), vec![2.0, 3.5, 3.5, 1.0]);
    }
}
