//! Signing and key generation on the M4 as the same work for every implementation.
//!
//! Signing: each image signs call i's message (drawn from the generator of `sign`) under
//! fixture i mod 4 with rnd = 0 (FIPS 204's deterministic variant), so every implementation and
//! configuration must make the same ML-DSA signature, and then runs the same iterations of the
//! rejection loop (FIPS 204, Algorithm 7). The firmware reports each signature's digest (`sig=`)
//! and, for pqlab, the loop count (`loops=`).
//!
//! Key generation: call i of every image draws its seed from the same generator (PQClean's
//! `randombytes` continues it), so every implementation must make the same key pair (Falcon
//! from the same rejected (f, g), so its instruction counts compare the same work); the
//! firmware reports the digest of the encoded public key (`pk=`).
//!
//! This module checks the digests against each other (a difference is an error: two
//! implementations of the standard disagree) and gives every signing run the loop counts of its
//! calls, PQClean's taken from pqlab's calls of the same index.

use super::{CrossCheck, Image, lab_op, label, parse::OpRun};
use crate::LabError;
use crate::registry::Op;

/// The loop counts and checks of the signing and key generation runs.
#[derive(Debug, Default)]
pub struct Signed {
    /// Per run given to [`check`]: the loop count of each of its calls, in call order, where
    /// it is a signing run with digests whose every call's count is known.
    pub loops: Vec<Option<Vec<u32>>>,
    /// One check per (implementation, algorithm, operation) whose outputs were compared with
    /// pqlab's default configuration: its calls' signatures or key pairs were identical to
    /// pqlab's.
    pub checks: Vec<CrossCheck>,
}

/// A signing or key generation run that reported a digest for every call, with its operation.
fn digests(run: &OpRun) -> Option<(Op, Vec<u64>)> {
    let (op, _) = lab_op(&run.op)?;
    if !matches!(op, Op::Sign | Op::Keygen) || run.made.is_empty() {
        return None;
    }
    Some((op, run.made.iter().copied().collect::<Option<_>>()?))
}

/// Checks that the signing runs (`runs`: each job's image and measured run, if any) made the
/// same signatures call by call, and the key generation runs the same key pairs, algorithm by
/// algorithm, and gives each signing run its loop counts.
///
/// # Errors
/// [`LabError::Implementation`] where two runs' signatures of the same call differ (they sign
/// the same message under the same key with rnd = 0), or two loop counts of the same call do,
/// or two runs' public keys of the same call differ (made from the same seed).
pub fn check(runs: &[(Image, Option<&OpRun>)]) -> Result<Signed, LabError> {
    let mut out = Signed {
        loops: vec![None; runs.len()],
        checks: Vec::new(),
    };
    let made: Vec<(usize, Op, Vec<u64>)> = runs
        .iter()
        .enumerate()
        .filter_map(|(k, (_, r))| {
            let (op, d) = digests((*r)?)?;
            Some((k, op, d))
        })
        .collect();
    let mut groups: Vec<(&str, Op)> = Vec::new();
    for (k, op, _) in &made {
        if !groups.contains(&(runs[*k].0.alg, *op)) {
            groups.push((runs[*k].0.alg, *op));
        }
    }
    for (alg, op) in groups {
        let group: Vec<(usize, &Vec<u64>)> = made
            .iter()
            .filter(|(k, o, _)| runs[*k].0.alg == alg && *o == op)
            .map(|(k, _, d)| (*k, d))
            .collect();
        // The reference: the first run in job order (pqlab's default configuration, `keygen`
        // or `sign`).
        let Some(&(first, reference)) = group.first() else {
            continue;
        };
        // Call i's loop count, from the runs that counted it (which must agree).
        let calls = group.iter().map(|(_, d)| d.len()).max().unwrap_or(0);
        let mut counts: Vec<Option<u32>> = vec![None; calls];
        for &(k, outs) in &group {
            let run = runs[k].1.map_or(&[][..], |r| &r.loops[..]);
            for (i, d) in outs.iter().enumerate() {
                if let Some(&want) = reference.get(i).filter(|&&w| w != *d) {
                    let (a, b) = (label(runs[k].0), label(runs[first].0));
                    return Err(LabError::Implementation(if op == Op::Keygen {
                        format!(
                            "{alg} on the M4: key generation call {i} made different public \
                             keys (digest {d:016x} from {a}, {want:016x} from {b}), though every \
                             image makes that call's key pair from the same seed"
                        )
                    } else {
                        format!(
                            "{alg} on the M4: signing call {i} made different signatures \
                             (digest {d:016x} from {a}, {want:016x} from {b}), though every \
                             image signs the same message under the same key with rnd = 0 \
                             (FIPS 204's deterministic variant)"
                        )
                    }));
                }
                match (counts[i], run.get(i).copied().flatten()) {
                    (Some(a), Some(b)) if a != b => {
                        return Err(LabError::Implementation(format!(
                            "{alg} on the M4: signing call {i}: {} counted {b} loop \
                             iterations, another run {a}, for the same signature",
                            label(runs[k].0)
                        )));
                    }
                    (None, b) => counts[i] = b,
                    _ => {}
                }
            }
        }
        for &(k, outs) in &group {
            out.loops[k] = counts[..outs.len()].iter().copied().collect();
            let image = runs[k].0;
            if image.implementation != runs[first].0.implementation
                && !out
                    .checks
                    .iter()
                    .any(|c| c.implementation == image.implementation && c.alg == alg && c.op == op)
            {
                out.checks.push(CrossCheck {
                    implementation: image.implementation.to_string(),
                    alg: alg.to_string(),
                    op,
                    checked: outs.len().min(reference.len()),
                    passed: true,
                });
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(op: &str, sigs: &[u64], loops: &[Option<u32>]) -> OpRun {
        OpRun {
            op: op.into(),
            calls: sigs.iter().map(|_| (1000, 10)).collect(),
            loops: loops.to_vec(),
            made: sigs.iter().map(|&s| Some(s)).collect(),
            ..OpRun::default()
        }
    }

    fn image(implementation: &'static str, config: &'static str) -> Image {
        Image {
            implementation,
            alg: "ml-dsa-44",
            config,
        }
    }

    #[test]
    fn pqclean_takes_pqlab_loops_and_different_signatures_fail() {
        let ours = run("sign", &[1, 2, 3], &[Some(3), Some(1), Some(4)]);
        let expanded = run("sign-expanded", &[1, 2, 3], &[Some(3), Some(1), Some(4)]);
        let theirs = run("sign", &[1, 2, 3], &[None, None, None]);
        let keygen = run("keygen", &[9, 8], &[None, None]);
        let their_keygen = run("keygen", &[9, 8], &[None, None]);
        let runs = [
            (image("pqlab", ""), Some(&ours)),
            (image("pqlab", ""), Some(&expanded)),
            (image("pqlab", ""), Some(&keygen)),
            (image("pqlab", "small-memory"), None),
            (image("pqclean", ""), Some(&theirs)),
            (image("pqclean", ""), Some(&their_keygen)),
        ];
        let s = check(&runs).unwrap();
        assert_eq!(s.loops[0].as_deref(), Some(&[3, 1, 4][..]));
        assert_eq!(s.loops[1], s.loops[0]);
        assert_eq!((s.loops[2].as_ref(), s.loops[3].as_ref()), (None, None));
        assert_eq!(s.loops[4], s.loops[0]);
        assert_eq!(s.loops[5], None);
        assert_eq!(s.checks.len(), 2);
        let c = &s.checks[0];
        assert_eq!(
            (c.implementation.as_str(), c.op, c.checked, c.passed),
            ("pqclean", Op::Sign, 3, true)
        );
        let c = &s.checks[1];
        assert_eq!(
            (c.implementation.as_str(), c.op, c.checked, c.passed),
            ("pqclean", Op::Keygen, 2, true)
        );
        // PQClean's second key pair differs from pqlab's: an error naming the call.
        let other_key = run("keygen", &[9, 7], &[None, None]);
        let runs = [
            (image("pqlab", ""), Some(&keygen)),
            (image("pqclean", ""), Some(&other_key)),
        ];
        let e = check(&runs).unwrap_err().to_string();
        assert!(
            e.contains("key generation call 1 made different public keys"),
            "{e}"
        );
        // PQClean's second call made another signature: an error naming both.
        let bad = run("sign", &[1, 7, 3], &[None, None, None]);
        let runs = [
            (image("pqlab", ""), Some(&ours)),
            (image("pqclean", ""), Some(&bad)),
        ];
        let e = check(&runs).unwrap_err().to_string();
        assert!(
            e.contains("signing call 1 made different signatures"),
            "{e}"
        );
        assert!(
            e.contains("pqclean ml-dsa-44") && e.contains("pqlab ml-dsa-44"),
            "{e}"
        );
        // Two counts of one signature that differ.
        let odd = run("sign-expanded", &[1, 2, 3], &[Some(3), Some(2), Some(4)]);
        let runs = [
            (image("pqlab", ""), Some(&ours)),
            (image("pqlab", ""), Some(&odd)),
        ];
        assert!(check(&runs).is_err());
        // A run without digests (Falcon) is left alone.
        let falcon = OpRun {
            op: "sign".into(),
            calls: vec![(5, 5)],
            loops: vec![None],
            made: vec![None],
            ..OpRun::default()
        };
        let s = check(&[(image("pqclean", ""), Some(&falcon))]).unwrap();
        assert!(s.loops[0].is_none() && s.checks.is_empty());
    }
}
