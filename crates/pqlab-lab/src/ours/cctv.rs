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

mod length;

pub use length::{LENGTHS, MU_VARIANT, ONE_LOOP_VARIANT};

/// The variant name of the rows ("cctv benchmark").
pub const VARIANT: &str = "cctv benchmark";

/// The variant name of a peer's rows that sign the set with its own randomness (its loop
/// counts are not pqlab's, so it has no time per loop iteration).
pub const RANDOMIZED_VARIANT: &str = "cctv benchmark, randomized";

/// Signs a message with the empty context: the signature into the vector.
pub type SignFn = Box<dyn FnMut(&[u8], &mut Vec<u8>) -> Result<(), LabError>>;

/// Computes mu = H(tr || M', 64) of a message (empty context) and drops it.
pub type MuFn = Box<dyn FnMut(&[u8]) -> Result<(), LabError>>;

/// An implementation that signs the CCTV set with a given key: a peer (`peers` feature).
pub struct SetSigner {
    /// The implementation's name (`libcrux`, ...).
    pub implementation: &'static str,
    /// The algorithm (`ml-dsa-44`, ...).
    pub alg: &'static str,
    /// Signs with rnd = 0 (FIPS 204, Algorithm 2, deterministic variant): its signatures must
    /// equal pqlab's byte for byte. Otherwise it signs with its own randomness.
    pub deterministic: bool,
    /// The signing call that is timed.
    pub sign: SignFn,
    /// mu alone, where the implementation exposes it.
    pub mu: Option<MuFn>,
}

/// Whether a signature (second) of a message (first) verifies under a fixed key.
pub type VerifyFn = Box<dyn Fn(&[u8], &[u8]) -> bool>;

/// Makes the peers' signers of an algorithm with the key from seed `xi` (FIPS 204,
/// Algorithm 6), whose expanded secret key (skEncode) is `sk`: the signers and, for each peer
/// that cannot take part, a note saying why.
pub type MakeSigners<'a> = &'a dyn Fn(&str, &[u8; 32], &[u8]) -> (Vec<SetSigner>, Vec<String>);

/// pqlab's signatures of a message set (key from a seed, rnd = 0, empty context), the loop
/// count of each, and pqlab's verification with the same key.
pub struct Reference {
    /// The signatures, in message order.
    pub sigs: Vec<Vec<u8>>,
    /// Signing-loop iterations of each.
    pub loops: Vec<u32>,
    /// Whether a signature verifies under the key (FIPS 204, Algorithm 3: ML-DSA.Verify).
    pub verify: VerifyFn,
}

/// pqlab's [`Reference`] for `msgs` with the key from seed `xi`.
pub fn reference<P: ParameterSet + 'static>(
    xi: &[u8; 32],
    msgs: &[Vec<u8>],
) -> Result<Reference, LabError> {
    let sk = SigningKey::<P>::from_seed(xi);
    let vk = sk.verifying_key();
    let mut sigs = Vec::with_capacity(msgs.len());
    let mut loops = Vec::with_capacity(msgs.len());
    for m in msgs {
        let mu = vk.compute_mu(m, &[]).map_err(lib_err)?;
        let (sig, n) = sk.sign_mu_counted(&mu, &[0u8; 32]).map_err(lib_err)?;
        sigs.push(sig.as_bytes().to_vec());
        loops.push(n);
    }
    let verify = Box::new(move |m: &[u8], s: &[u8]| {
        pqlab_mldsa::Signature::<P>::from_bytes(s).is_ok_and(|s| vk.verify(m, &[], &s).is_ok())
    });
    Ok(Reference {
        sigs,
        loops,
        verify,
    })
}

/// Whether a peer's signature equals pqlab's byte for byte; else where it differs.
pub fn same_signature(ours: &[u8], theirs: &[u8]) -> Result<(), String> {
    if ours.len() != theirs.len() {
        return Err(format!("is {} bytes, pqlab's {}", theirs.len(), ours.len()));
    }
    match ours.iter().zip(theirs).position(|(a, b)| a != b) {
        Some(j) => Err(format!("differs from pqlab's at byte {j}")),
        None => Ok(()),
    }
}

/// Signs every message of `msgs` once with `s` (untimed) and checks each signature: equal to
/// pqlab's where `s` is deterministic (the same signature means the same loop iterations),
/// valid under pqlab's key otherwise.
pub fn check_signer(
    s: &mut SetSigner,
    msgs: &[Vec<u8>],
    reference: &Reference,
) -> Result<(), LabError> {
    let mut out = Vec::new();
    for (i, m) in msgs.iter().enumerate() {
        (s.sign)(m, &mut out)?;
        let verdict = if s.deterministic {
            same_signature(&reference.sigs[i], &out)
        } else if (reference.verify)(m, &out) {
            Ok(())
        } else {
            Err("does not verify under pqlab's key".to_string())
        };
        verdict.map_err(|e| {
            LabError::Implementation(format!(
                "{} {} message {i}: the signature {e}",
                s.implementation, s.alg
            ))
        })?;
    }
    Ok(())
}

/// Whether rows `a` and `b` measure the same thing, as far as this module's variants go:
/// rows of the CCTV set and of the message-length study only compare with rows of the same
/// variant (other rows are left to the caller).
pub fn comparable(a: &ResultRow, b: &ResultRow) -> bool {
    let own = |r: &ResultRow| {
        matches!(
            r.variant.as_deref(),
            Some(VARIANT | RANDOMIZED_VARIANT | ONE_LOOP_VARIANT | MU_VARIANT)
        )
    };
    if own(a) || own(b) {
        a.variant == b.variant
    } else {
        true
    }
}

/// A row of this module: `sample` is one value per message (or per call).
fn row(
    config: &Config,
    implementation: &str,
    alg: &str,
    msg_len: Option<usize>,
    sample: measure::Sample,
    signing_loops: Option<Rejection>,
    variant: &str,
) -> ResultRow {
    let summary = Summary::of(&sample);
    ResultRow {
        implementation: implementation.to_string(),
        alg: alg.to_string(),
        op: Op::Sign,
        msg_len,
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
        signing_loops,
        variant: Some(variant.to_string()),
        signature_lengths: None,
        kernel_profile: None,
        sample_ns: sample.ns,
    }
}

/// The rounds over a set of `n` messages: at least the configured number of signatures,
/// whole rounds, and at least three, so that each message's median time is robust to
/// preemption.
fn rounds(config: &Config, n: usize) -> usize {
    config.iterations.div_ceil(n).max(3)
}

/// The length of every message of `msgs`, if they all have one.
fn common_len(msgs: &[Vec<u8>]) -> Option<usize> {
    let len = msgs.first()?.len();
    msgs.iter().all(|m| m.len() == len).then_some(len)
}

/// A peer's row on the set, after [`check_signer`]: timed as pqlab's (rounds over the set,
/// each message's median). A deterministic peer signs with pqlab's loop counts, so its time
/// per loop iteration is its set time over pqlab's loop total; a randomized one has none.
pub fn peer_row(
    config: &Config,
    msgs: &[Vec<u8>],
    reference: &Reference,
    s: &mut SetSigner,
) -> Result<ResultRow, LabError> {
    check_signer(s, msgs, reference)?;
    let n = msgs.len();
    let mut out = Vec::new();
    let sign = &mut s.sign;
    let all = measure::time(
        0,
        rounds(config, n) * n,
        |i| Ok(i % n),
        |k| sign(&msgs[k], &mut out),
    )?;
    let sample = per_message_medians(&all, n);
    let (loops, variant) = if s.deterministic {
        let l = &reference.loops;
        (Rejection::with_times(l, l, &sample.ns), VARIANT)
    } else {
        (None, RANDOMIZED_VARIANT)
    };
    Ok(row(
        config,
        s.implementation,
        s.alg,
        common_len(msgs),
        sample,
        loops,
        variant,
    ))
}

/// Every row of `alg` on the set and of its message-length study: pqlab's, then each peer's
/// from `make` (`None` without peers); a peer that fails its check is left out with a note.
pub fn rows(
    config: &Config,
    vectors: &Path,
    alg: &str,
    make: Option<MakeSigners<'_>>,
    notes: &mut Vec<String>,
) -> Vec<ResultRow> {
    let mut out = Vec::new();
    match measure_row(config, vectors, alg) {
        Ok(r) => out.extend(r),
        Err(e) => notes.push(format!("pqlab {alg} sign [{VARIANT}]: not measured: {e}")),
    }
    let xi = [0u8; 32];
    let peers = make.map(|make| {
        let sk = expanded(alg, &xi);
        make(alg, &xi, &sk)
    });
    if let (Some((mut signers, why)), Ok(msgs)) = (peers, messages(vectors, alg)) {
        notes.extend(why);
        let reference = match alg {
            "ml-dsa-44" => reference::<MlDsa44>(&xi, &msgs),
            "ml-dsa-65" => reference::<MlDsa65>(&xi, &msgs),
            _ => reference::<MlDsa87>(&xi, &msgs),
        };
        for s in &mut signers {
            match reference
                .as_ref()
                .map_err(|e| LabError::Implementation(e.to_string()))
                .and_then(|r| peer_row(config, &msgs, r, s))
            {
                Ok(r) => out.push(r),
                Err(e) => notes.push(format!(
                    "{} {alg} sign [{VARIANT}]: not measured: {e}",
                    s.implementation
                )),
            }
        }
    }
    if config.peers || !config.quick {
        match length::rows(config, alg, make) {
            Ok((r, n)) => {
                out.extend(r);
                notes.extend(n);
            }
            Err(e) => notes.push(format!("{alg} message-length study: not measured: {e}")),
        }
    }
    out
}

/// pqlab's expanded secret key (skEncode) of `alg` from seed `xi`; empty for another algorithm.
pub fn expanded(alg: &str, xi: &[u8; 32]) -> Vec<u8> {
    match alg {
        "ml-dsa-44" => SigningKey::<MlDsa44>::from_seed(xi)
            .to_expanded()
            .as_ref()
            .to_vec(),
        "ml-dsa-65" => SigningKey::<MlDsa65>::from_seed(xi)
            .to_expanded()
            .as_ref()
            .to_vec(),
        "ml-dsa-87" => SigningKey::<MlDsa87>::from_seed(xi)
            .to_expanded()
            .as_ref()
            .to_vec(),
        _ => Vec::new(),
    }
}

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

/// For tests: the vectors folder when it holds the CCTV benchmark set; None (with a
/// "skipped" line) when it does not, except under CI (`CI=true`), where that fails.
#[doc(hidden)]
pub fn benchmark_dir_for_tests() -> Option<PathBuf> {
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
            let (sig, count) = sk.sign_mu_counted(&mu, &[0u8; 32]).map_err(lib_err)?;
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
    let (all, loops) = timer(&msgs, rounds(config, msgs.len()))?;
    let sample = per_message_medians(&all, msgs.len());
    let loops = Rejection::with_times(&loops, &loops, &sample.ns);
    Ok(Some(row(
        config,
        PQLAB,
        alg,
        common_len(&msgs),
        sample,
        loops,
        VARIANT,
    )))
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
                let (sig, n) = sk.sign_mu_counted(&mu, &[0u8; 32]).map_err(lib_err)?;
                Ok((sig.as_bytes().to_vec(), n))
            })
            .collect()
    }

    /// FIPS 204, Table 1: expected repetitions of the signing loop.
    const EXPECTED: [(&str, f64); 3] =
        [("ml-dsa-44", 4.25), ("ml-dsa-65", 5.1), ("ml-dsa-87", 3.85)];

    #[test]
    fn the_set_signs_like_ml_dsa_sign_deterministic_and_has_the_expected_loop_mean() {
        let Some(d) = benchmark_dir_for_tests() else {
            return;
        };
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

    /// A peer stand-in that returns pqlab's signature of each of `msgs` (deterministic) or a
    /// fresh randomized one, with one byte flipped on message `bad`.
    fn stand_in(msgs: &[Vec<u8>], deterministic: bool, bad: Option<usize>) -> SetSigner {
        let sk = SigningKey::<MlDsa44>::from_seed(&[0; 32]);
        let msgs = msgs.to_vec();
        let mut rnd = [0u8; 32];
        SetSigner {
            implementation: "stand-in",
            alg: "ml-dsa-44",
            deterministic,
            sign: Box::new(move |m, out| {
                if !deterministic {
                    rnd[0] = rnd[0].wrapping_add(1);
                }
                let sig = sk.sign_with_rnd(m, &[], &rnd).map_err(lib_err)?;
                out.clear();
                out.extend_from_slice(sig.as_bytes());
                if bad.is_some_and(|b| msgs[b] == m) {
                    out[100] ^= 1;
                }
                Ok(())
            }),
            mu: None,
        }
    }

    fn few() -> Vec<Vec<u8>> {
        (0..6u8).map(|i| vec![i; 10]).collect()
    }

    #[test]
    fn same_signature_finds_a_flipped_byte() {
        let sig: Vec<u8> = (0..=255).collect();
        assert_eq!(same_signature(&sig, &sig), Ok(()));
        let mut flipped = sig.clone();
        flipped[17] ^= 0x80;
        let e = same_signature(&sig, &flipped).unwrap_err();
        assert!(e.contains("byte 17"), "{e}");
        assert!(same_signature(&sig, &sig[..255]).is_err());
    }

    #[test]
    fn the_check_fails_on_a_signature_that_is_not_pqlabs() {
        let msgs = few();
        let r = reference::<MlDsa44>(&[0; 32], &msgs).unwrap();
        assert!(check_signer(&mut stand_in(&msgs, true, None), &msgs, &r).is_ok());
        let e = check_signer(&mut stand_in(&msgs, true, Some(3)), &msgs, &r).unwrap_err();
        assert!(e.to_string().contains("message 3"), "{e}");
        assert!(e.to_string().contains("byte 100"), "{e}");
        // A randomized signature is not pqlab's but verifies; flipped, it does not.
        let mut random = stand_in(&msgs, false, None);
        assert!(check_signer(&mut random, &msgs, &r).is_ok());
        random.deterministic = true;
        assert!(check_signer(&mut random, &msgs, &r).is_err());
        let e = check_signer(&mut stand_in(&msgs, false, Some(4)), &msgs, &r).unwrap_err();
        assert!(e.to_string().contains("does not verify"), "{e}");
    }

    #[test]
    fn a_peer_row_has_pqlabs_loops_or_none_if_randomized() {
        let msgs = few();
        let r = reference::<MlDsa44>(&[0; 32], &msgs).unwrap();
        let config = Config::quick();
        let row = peer_row(&config, &msgs, &r, &mut stand_in(&msgs, true, None)).unwrap();
        assert_eq!(row.variant.as_deref(), Some(VARIANT));
        assert_eq!(row.implementation, "stand-in");
        assert_eq!(row.msg_len, Some(10));
        assert_eq!(row.sample_ns.len(), msgs.len());
        let l = row.signing_loops.as_ref().unwrap();
        assert_eq!(l.signatures, 6);
        let want = r.loops.iter().map(|&n| f64::from(n)).sum::<f64>() / 6.0;
        assert!((l.mean - want).abs() < 1e-12);
        assert!(l.ns_per_loop.is_some());
        let row = peer_row(&config, &msgs, &r, &mut stand_in(&msgs, false, None)).unwrap();
        assert_eq!(row.variant.as_deref(), Some(RANDOMIZED_VARIANT));
        assert!(row.signing_loops.is_none());
        // A mismatch leaves no row.
        assert!(peer_row(&config, &msgs, &r, &mut stand_in(&msgs, true, Some(0))).is_err());
        // The study's rows compare only with rows of their own variant.
        let mut plain = row.clone();
        plain.variant = None;
        assert!(!comparable(&plain, &row));
        assert!(comparable(&row, &row.clone()));
        assert!(comparable(&plain, &plain.clone()));
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
        let Some(d) = benchmark_dir_for_tests() else {
            return;
        };
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
