//! An unbiased ML-DSA signing time: C2SP CCTV's benchmark message set
//! (`../shared/vectors/cctv/ML-DSA/benchmark/ML-DSA-{44,65,87}.json`). Signed
//! deterministically (FIPS 204, Algorithm 2: ML-DSA.Sign with rnd = 0^32, empty context)
//! with the key from the all-zero seed (Algorithm 6: ML-DSA.KeyGen_internal), those messages
//! need a representative distribution of rejection-loop iterations, so the mean time over the
//! whole set is the average signing time without the luck of a random sample.

use std::path::{Path, PathBuf};

use pqlab_mldsa::{MlDsa44, MlDsa65, MlDsa87, ParameterSet, SigningKey};

use super::{PQLAB, lib_err};
use crate::LabError;
use crate::measure::{self, Summary};
use crate::registry::Op;
use crate::run::{Config, Rejection, ResultRow};

/// The variant name of the rows ("cctv benchmark").
pub const VARIANT: &str = "cctv benchmark";

/// The folder of test vectors: `$PQLAB_VECTORS`, else `<workspace>/../shared/vectors`, else
/// `../shared/vectors` from the current directory.
pub fn vectors_dir() -> PathBuf {
    if let Some(p) = std::env::var_os("PQLAB_VECTORS").filter(|p| !p.is_empty()) {
        return PathBuf::from(p);
    }
    let beside = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/vectors");
    let cwd = Path::new("../shared/vectors").to_path_buf();
    if !beside.is_dir() && cwd.is_dir() {
        cwd
    } else {
        beside
    }
}

/// The benchmark messages for `alg` (`ml-dsa-44`, ...) from `vectors`.
pub fn messages(vectors: &Path, alg: &str) -> Result<Vec<Vec<u8>>, LabError> {
    let name = alg.to_ascii_uppercase();
    let path = vectors
        .join("cctv/ML-DSA/benchmark")
        .join(format!("{name}.json"));
    let text = std::fs::read_to_string(&path)
        .map_err(|e| LabError::Config(format!("{}: {e}", path.display())))?;
    let list: Vec<String> = serde_json::from_str(&text)
        .map_err(|e| LabError::Config(format!("{}: {e}", path.display())))?;
    Ok(list.into_iter().map(String::into_bytes).collect())
}

/// Signs every message `rounds` times after one untimed round, each call timed: the sample
/// (rounds x messages calls, in order) and the loop count of each message.
pub fn time_set<P: ParameterSet>(
    msgs: &[Vec<u8>],
    rounds: usize,
) -> Result<(measure::Sample, Vec<u32>), LabError> {
    let sk = SigningKey::<P>::from_seed(&[0u8; 32]);
    // mu = H(tr || M', 64) with the public key's tr (the signing key's own): part of the
    // timed call, as in ML-DSA.Sign.
    let vk = sk.verifying_key();
    let n = msgs.len();
    let mut loops = vec![0u32; n];
    let sample = measure::time(
        n,
        rounds * n,
        |i| Ok(i % n),
        |k| {
            let mu = vk.compute_mu(&msgs[k], &[]).map_err(lib_err)?;
            let (sig, count) = sk.sign_mu_counted(&mu, &[0u8; 32]);
            std::hint::black_box(sig);
            loops[k] = count;
            Ok(())
        },
    )?;
    Ok((sample, loops))
}

/// Each message's median over the rounds of `all` (calls in order, `n` messages per round):
/// one value per message.
fn per_message_medians(all: &measure::Sample, n: usize) -> measure::Sample {
    let median = |xs: &[f64], k: usize| {
        let mut v: Vec<f64> = xs.iter().skip(k).step_by(n).copied().collect();
        v.sort_by(f64::total_cmp);
        measure::quantile(&v, 0.5)
    };
    measure::Sample {
        ns: (0..n).map(|k| median(&all.ns, k)).collect(),
        cycles: if all.cycles.len() == all.ns.len() {
            (0..n).map(|k| median(&all.cycles, k)).collect()
        } else {
            Vec::new()
        },
    }
}

/// The "cctv benchmark" row of `alg`: one value per message of the set (its median time over
/// the rounds), so that `mean_ns` is the representative average signing time and the spread
/// is the loop counts', not the scheduler's; `None` for an algorithm that is not ML-DSA.
pub fn measure_row(
    config: &Config,
    vectors: &Path,
    alg: &str,
) -> Result<Option<ResultRow>, LabError> {
    type Timer = fn(&[Vec<u8>], usize) -> Result<(measure::Sample, Vec<u32>), LabError>;
    let timer: Timer = match alg {
        "ml-dsa-44" => time_set::<MlDsa44>,
        "ml-dsa-65" => time_set::<MlDsa65>,
        "ml-dsa-87" => time_set::<MlDsa87>,
        _ => return Ok(None),
    };
    let msgs = messages(vectors, alg)?;
    if msgs.is_empty() {
        return Err(LabError::Config(format!(
            "{alg}: the CCTV benchmark set is empty"
        )));
    }
    // At least the configured number of signatures, whole rounds over the set, and at least
    // three rounds, so that each message's median time is robust to preemption.
    let rounds = config.iterations.div_ceil(msgs.len()).max(3);
    let (all, loops) = timer(&msgs, rounds)?;
    let sample = per_message_medians(&all, msgs.len());
    let len = msgs[0].len();
    let same_len = msgs.iter().all(|m| m.len() == len);
    let summary = Summary::of(&sample);
    Ok(Some(ResultRow {
        implementation: PQLAB.to_string(),
        alg: alg.to_string(),
        op: Op::Sign,
        msg_len: same_len.then_some(len),
        summary,
        stack_bytes: None,
        heap_bytes: None,
        alloc_count: None,
        energy_j: config.power.as_ref().map(|m| m.joules(summary.mean_ns)),
        ops_per_battery: config
            .power
            .as_ref()
            .map(|m| m.ops_per_battery(summary.mean_ns)),
        shapiro_wilk: None,
        signing_loops: Rejection::with_times(&loops, &loops, &sample.ns),
        variant: Some(VARIANT.to_string()),
        signature_lengths: None,
        kernel_profile: None,
        sample_ns: sample.ns,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One pass over the set: the signatures and the loop counts, untimed (for checks).
    fn sign_all<P: ParameterSet>(msgs: &[Vec<u8>]) -> Result<Vec<(Vec<u8>, u32)>, LabError> {
        let sk = SigningKey::<P>::from_seed(&[0u8; 32]);
        let vk = sk.verifying_key();
        msgs.iter()
            .map(|m| {
                let mu = vk.compute_mu(m, &[]).map_err(lib_err)?;
                let (sig, n) = sk.sign_mu_counted(&mu, &[0u8; 32]);
                Ok((sig.as_bytes().to_vec(), n))
            })
            .collect()
    }

    /// FIPS 204, Table 1: expected repetitions of the signing loop.
    const EXPECTED: [(&str, f64); 3] =
        [("ml-dsa-44", 4.25), ("ml-dsa-65", 5.1), ("ml-dsa-87", 3.85)];

    fn dir() -> Option<PathBuf> {
        let d = vectors_dir();
        if d.join("cctv/ML-DSA/benchmark").is_dir() {
            return Some(d);
        }
        let ci = std::env::var("CI").is_ok_and(|v| v.eq_ignore_ascii_case("true") || v == "1");
        assert!(
            !ci,
            "CCTV benchmark set not found at {} (CI=true)",
            d.display()
        );
        println!("skipped: CCTV benchmark set not found at {}", d.display());
        None
    }

    #[test]
    fn the_set_signs_like_ml_dsa_sign_deterministic_and_has_the_expected_loop_mean() {
        let Some(d) = dir() else { return };
        let check = |alg: &str,
                     count: usize,
                     pairs: Vec<(Vec<u8>, u32)>,
                     det: &dyn Fn(usize) -> Vec<u8>| {
            assert_eq!(pairs.len(), count, "{alg}: messages signed");
            for (i, (sig, _)) in pairs.iter().enumerate().step_by(17) {
                assert_eq!(sig, &det(i), "{alg} message {i}: sign_deterministic");
            }
            let mean = pairs.iter().map(|p| f64::from(p.1)).sum::<f64>() / count as f64;
            let want = EXPECTED.iter().find(|e| e.0 == alg).unwrap().1;
            assert!(
                (mean / want - 1.0).abs() < 0.1,
                "{alg}: mean loops {mean} vs {want}"
            );
        };
        let m44 = messages(&d, "ml-dsa-44").unwrap();
        let sk44 = SigningKey::<MlDsa44>::from_seed(&[0; 32]);
        let det44 = |i: usize| {
            sk44.sign_deterministic(&m44[i], &[])
                .unwrap()
                .as_bytes()
                .to_vec()
        };
        check("ml-dsa-44", 188, sign_all::<MlDsa44>(&m44).unwrap(), &det44);
        let m65 = messages(&d, "ml-dsa-65").unwrap();
        let sk65 = SigningKey::<MlDsa65>::from_seed(&[0; 32]);
        let det65 = |i: usize| {
            sk65.sign_deterministic(&m65[i], &[])
                .unwrap()
                .as_bytes()
                .to_vec()
        };
        check("ml-dsa-65", 147, sign_all::<MlDsa65>(&m65).unwrap(), &det65);
        let m87 = messages(&d, "ml-dsa-87").unwrap();
        let sk87 = SigningKey::<MlDsa87>::from_seed(&[0; 32]);
        let det87 = |i: usize| {
            sk87.sign_deterministic(&m87[i], &[])
                .unwrap()
                .as_bytes()
                .to_vec()
        };
        check("ml-dsa-87", 114, sign_all::<MlDsa87>(&m87).unwrap(), &det87);
    }

    #[test]
    fn time_per_loop_is_total_time_over_total_loops() {
        // Calls of 1, 2, 4 loops at 100 + 50 per loop ns.
        let timed = [1u32, 2, 4, 2];
        let ns: Vec<f64> = timed.iter().map(|&k| 100.0 + 50.0 * f64::from(k)).collect();
        let r = Rejection::with_times(&[1, 1, 2, 4, 2, 9], &timed, &ns).unwrap();
        assert_eq!(r.signatures, 6);
        assert_eq!(r.ns_per_loop, Some(ns.iter().sum::<f64>() / 9.0));
        assert!((r.loop_ns.unwrap() - 50.0).abs() < 1e-9);
        assert!((r.fixed_ns.unwrap() - 100.0).abs() < 1e-9);
        // Every call the same count: no fit; mismatched lengths: no times.
        let same = Rejection::with_times(&[3, 3], &[3, 3], &[30.0, 32.0]).unwrap();
        assert_eq!((same.ns_per_loop, same.loop_ns), (Some(62.0 / 6.0), None));
        // A preempted call does not move the figures: each count weighs with its median.
        let timed = [1u32, 1, 1, 2, 2, 2];
        let ns = [150.0, 150.0, 90_000.0, 200.0, 200.0, 200.0];
        let r = Rejection::with_times(&timed, &timed, &ns).unwrap();
        assert_eq!(r.ns_per_loop, Some((3.0 * 150.0 + 3.0 * 200.0) / 9.0));
        assert!((r.loop_ns.unwrap() - 50.0).abs() < 1e-9);
        assert!((r.fixed_ns.unwrap() - 100.0).abs() < 1e-9);
        assert_eq!(
            Rejection::with_times(&[3], &[3], &[]).unwrap().ns_per_loop,
            None
        );
    }

    #[test]
    fn each_message_gets_its_median_over_the_rounds() {
        // 2 messages, 3 rounds: message 0 takes 10, 11, 500 (preempted); message 1 20, 21, 22.
        let all = measure::Sample {
            ns: vec![10.0, 20.0, 11.0, 21.0, 500.0, 22.0],
            cycles: Vec::new(),
        };
        let m = per_message_medians(&all, 2);
        assert_eq!(m.ns, vec![11.0, 21.0]);
        assert!(m.cycles.is_empty());
    }

    #[test]
    fn the_row_signs_the_whole_set_in_rounds() {
        let Some(d) = dir() else { return };
        let mut config = Config::quick();
        config.iterations = 200;
        let row = measure_row(&config, &d, "ml-dsa-87").unwrap().unwrap();
        // One value per message of the set (each the median of 3 rounds).
        assert_eq!(row.summary.iterations, 114);
        assert_eq!(row.sample_ns.len(), 114);
        assert_eq!(row.variant.as_deref(), Some(VARIANT));
        assert_eq!(row.msg_len, Some(26));
        let l = row.signing_loops.as_ref().unwrap();
        assert_eq!(l.signatures, 114);
        // The mean is the set's time / its size (one value per message); the per-loop figures
        // are there (their arithmetic is tested on exact data above: timings under a
        // parallel test run are too noisy to assert on).
        let total_ns: f64 = row.sample_ns.iter().sum();
        assert!((row.summary.mean_ns / (total_ns / 114.0) - 1.0).abs() < 1e-9);
        assert!(l.ns_per_loop.unwrap() > 0.0);
        assert!(l.loop_ns.is_some() && l.fixed_ns.is_some());
        assert!(measure_row(&config, &d, "falcon-512").unwrap().is_none());
    }
}
