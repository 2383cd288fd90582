//! The message-length effect on ML-DSA signing, free of rejection-loop noise: at each length
//! one message whose signature (key from a fixed seed, rnd = 0, empty context) takes exactly
//! one iteration of the signing loop (FIPS 204, Algorithm 7: ML-DSA.Sign_internal), so that
//! every call does the same work apart from hashing the message into
//! mu = H(tr || M', 64) (FIPS 204, Algorithm 2: ML-DSA.Sign, and Algorithm 7, line 6). Timed
//! for pqlab and each deterministic peer (its signature checked equal to pqlab's, hence the
//! same single iteration), and mu alone where the implementation exposes it.

use pqlab_mldsa::{MlDsa44, MlDsa65, MlDsa87, ParameterSet, SigningKey, VerifyingKey};

use super::{MakeSigners, PQLAB, expanded, lib_err, row, same_signature};
use crate::LabError;
use crate::measure;
use crate::run::{Config, ResultRow};

/// The variant of the rows that sign with exactly one loop iteration.
pub const ONE_LOOP_VARIANT: &str = "one signing loop";

/// The variant of the rows that time mu = H(tr || M', 64) alone.
pub const MU_VARIANT: &str = "mu only";

/// The message lengths of the study, bytes.
pub const LENGTHS: [usize; 5] = [0, 32, 1024, 64 * 1024, 1024 * 1024];

/// Candidates tried for a key or a message with one loop iteration (each is accepted with
/// probability about 1/4, FIPS 204, Table 1).
const TRIES: u64 = 4096;

/// The rows of the study of `alg` and the notes on peers left out (`make`: the peers).
pub(super) fn rows(
    config: &Config,
    alg: &str,
    make: Option<MakeSigners<'_>>,
) -> Result<(Vec<ResultRow>, Vec<String>), LabError> {
    match alg {
        "ml-dsa-44" => study::<MlDsa44>(config, alg, make),
        "ml-dsa-65" => study::<MlDsa65>(config, alg, make),
        "ml-dsa-87" => study::<MlDsa87>(config, alg, make),
        _ => Ok((Vec::new(), Vec::new())),
    }
}

/// Signing-loop iterations of `msg` (rnd = 0, empty context).
fn loops<P: ParameterSet>(
    sk: &SigningKey<P>,
    vk: &VerifyingKey<P>,
    msg: &[u8],
) -> Result<u32, LabError> {
    let mu = vk.compute_mu(msg, &[]).map_err(lib_err)?;
    Ok(sk.sign_mu_counted(&mu, &[0u8; 32]).map_err(lib_err)?.1)
}

/// The first seed [s; 32] whose key signs the empty message with one loop iteration (the empty
/// message is the only one of length 0, so the key is chosen for it).
pub fn one_loop_seed<P: ParameterSet>() -> Result<[u8; 32], LabError> {
    for s in 0..=u8::MAX {
        let xi = [s; 32];
        let sk = SigningKey::<P>::from_seed(&xi);
        if loops(&sk, &sk.verifying_key(), &[])? == 1 {
            return Ok(xi);
        }
    }
    Err(LabError::Implementation(
        "no seed signs the empty message with one loop iteration".into(),
    ))
}

/// A message of `len` bytes (0x5a, its first bytes a counter) that signs with one loop
/// iteration under `sk`.
pub fn one_loop_message<P: ParameterSet>(
    sk: &SigningKey<P>,
    len: usize,
) -> Result<Vec<u8>, LabError> {
    let vk = sk.verifying_key();
    let mut m = vec![0x5a; len];
    let k = len.min(8);
    for c in 0..TRIES {
        m[..k].copy_from_slice(&c.to_le_bytes()[..k]);
        if loops(sk, &vk, &m)? == 1 {
            return Ok(m);
        }
        if k == 0 {
            break;
        }
    }
    Err(LabError::Implementation(format!(
        "no {len}-byte message signs with one loop iteration"
    )))
}

/// Timed calls at message length `len`: the configured count, at most 50 from 1 MiB on.
fn iterations(config: &Config, len: usize) -> (usize, usize) {
    let n = if len >= 1 << 20 {
        config.iterations.min(50)
    } else {
        config.iterations
    };
    (config.warmup.clamp(1, n), n)
}

fn study<P: ParameterSet + 'static>(
    config: &Config,
    alg: &str,
    make: Option<MakeSigners<'_>>,
) -> Result<(Vec<ResultRow>, Vec<String>), LabError> {
    let xi = one_loop_seed::<P>()?;
    let sk = SigningKey::<P>::from_seed(&xi);
    let vk = sk.verifying_key();
    let (mut peers, _) = make.map_or((Vec::new(), Vec::new()), |f| {
        f(alg, &xi, &expanded(alg, &xi))
    });
    let mut notes = Vec::new();
    let mut live = vec![true; peers.len()];
    for (p, ok) in peers.iter().zip(live.iter_mut()) {
        if !p.deterministic {
            *ok = false;
            notes.push(format!(
                "{} {alg}: not in the message-length study (it signs with its own randomness, \
                 so its loop count per message is not fixed)",
                p.implementation
            ));
        }
    }
    let mut rows = Vec::new();
    let mut out = Vec::new();
    for len in LENGTHS {
        let m = one_loop_message(&sk, len)?;
        let (warm, n) = iterations(config, len);
        let ours = sk.sign_deterministic(&m, &[]).map_err(lib_err)?;
        // One row: `f` timed `n` times after `warm`, at this length.
        let mut timed = |imp: &str,
                         variant: &str,
                         f: &mut dyn FnMut() -> Result<(), LabError>|
         -> Result<(), LabError> {
            let s = measure::time(warm, n, |_| Ok(()), |()| f())?;
            rows.push(row(config, imp, alg, Some(len), s, None, variant));
            Ok(())
        };
        timed(PQLAB, ONE_LOOP_VARIANT, &mut || {
            std::hint::black_box(sk.sign_deterministic(&m, &[]).map_err(lib_err)?);
            Ok(())
        })?;
        timed(PQLAB, MU_VARIANT, &mut || {
            std::hint::black_box(vk.compute_mu(&m, &[]).map_err(lib_err)?);
            Ok(())
        })?;
        for (p, ok) in peers.iter_mut().zip(live.iter_mut()) {
            if !*ok {
                continue;
            }
            let checked = (p.sign)(&m, &mut out).and_then(|()| {
                same_signature(ours.as_bytes(), &out).map_err(LabError::Implementation)
            });
            if let Err(e) = checked {
                *ok = false;
                notes.push(format!(
                    "{} {alg}: left out of the message-length study ({len} bytes: the signature \
                     {e})",
                    p.implementation
                ));
                continue;
            }
            let sign = &mut p.sign;
            timed(p.implementation, ONE_LOOP_VARIANT, &mut || {
                sign(&m, &mut out)
            })?;
            if let Some(mu) = p.mu.as_mut() {
                timed(p.implementation, MU_VARIANT, &mut || mu(&m))?;
            }
        }
    }
    Ok((rows, notes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_study_messages_sign_with_one_loop_iteration() {
        let xi = one_loop_seed::<MlDsa44>().unwrap();
        let sk = SigningKey::<MlDsa44>::from_seed(&xi);
        let vk = sk.verifying_key();
        for len in [0, 32, 1024] {
            let m = one_loop_message(&sk, len).unwrap();
            assert_eq!(m.len(), len);
            assert_eq!(loops(&sk, &vk, &m).unwrap(), 1, "{len} bytes");
        }
    }
}
