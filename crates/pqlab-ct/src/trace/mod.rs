//! The trace check: constant-time control flow shown by the instruction trace, for every back
//! end the CPU has, AVX-512 included (valgrind 3.19 cannot run AVX-512, so memcheck's tainting
//! cannot check that back end).
//!
//! Each case runs one operation twice, in two forked children with the same public inputs and
//! different secrets, with the trap flag set, and records the address of every instruction
//! executed, with its depth of calls ([`tracer`]). A constant-time operation executes the same
//! instructions in the same order whatever its secrets, so the two traces must be equal. Where
//! they differ, the site is the last instruction both executed (the branch that went two ways);
//! it and the call sites of its callers (found in the trace) are mapped to source lines with
//! `addr2line` (inlined frames included) and sorted like a memcheck error's stack
//! ([`crate::findings::EXPECTED`], [`walk`]): a branch the standard makes public (an attempt's
//! rejection, a sampler's) ends the comparison there, or with `--resync` the comparison goes on
//! from the return of the function that holds the branch; any other site is a new finding and
//! fails the check.
//!
//! The pairs (secret inputs differ, public inputs equal):
//! * ML-KEM **Decaps**: dk with the same ek and H(ek), different s and z, on one ciphertext
//!   (valid for the first key, implicitly rejected by the second: the two paths must not
//!   differ); **Encaps** to one ek with two messages m; **KeyGen** from two seeds (compared up to
//!   SampleNTT's rejection on the public rho).
//! * ML-DSA **Sign** (plain and expanded key, the expansion traced too): keys with the same rho,
//!   K and tr and different s1, s2, t0, on one message with one rnd, so that y, w and c agree and
//!   only the secrets differ (compared up to the first attempt whose outcome differs);
//!   **KeyGen** from two seeds (the rejections of ExpandS and, on rho, ExpandA are public).
//! * Falcon **Sign** (plain key; expanded key with the expansion, the ffLDL tree, traced): two
//!   keys, one message, one nonce and sampler seed (the sampler's rejections are public). Key
//!   generation is not traced: NTRUSolve is an open finding.
//!
//! What it does not see: memory addresses (a table lookup at a secret index executes the same
//! instructions; memcheck sees those for the portable and AVX2 back ends) and operand-dependent
//! instruction timing (the instruction gate).

mod tracer;
mod walk;

use std::hint::black_box;
use std::process::ExitCode;
use std::sync::atomic::Ordering;

use pqlab_falcon::{NONCE_LEN, SigningKey as FnSk};
use pqlab_mldsa::{ExpandedSigningKey, MlDsa44, MlDsa65, MlDsa87};
use pqlab_mldsa::{ParameterSet as DsaParams, SigningKey as DsaSk};
use pqlab_mlkem::ParameterSet as KemParams;
use pqlab_mlkem::{Ciphertext, DecapsulationKey, MlKem512, MlKem768, MlKem1024};
use tracer::{CAP, EARLY_STOP, LIMIT, Shared};
use walk::{End, Outcome};

/// The public message and ML-DSA context.
const MSG: &[u8] = b"pqlab trace check";
const CTX: &[u8] = b"ct";

/// One operation to trace, run once per secret input.
type Op = Box<dyn Fn()>;

/// A traced pair: what it is, and the operation on the first and on the second secret input.
pub struct Pair {
    what: String,
    ops: [Op; 2],
}

/// A pair running the same code, `f`, on `a` and on `b` (two closures of one type, so that
/// only the data differs).
fn pair<T: 'static>(what: String, a: T, b: T, f: fn(&T)) -> Pair {
    let op = |x: T| -> Op { Box::new(move || f(&x)) };
    Pair {
        what,
        ops: [op(a), op(b)],
    }
}

/// Pseudo-random bytes from a counter (the check needs two different secrets, not good ones):
/// SHAKE-free, so that drawing them runs nothing of the libraries.
fn bytes<const L: usize>(tag: u8) -> [u8; L] {
    let mut x = 0x9e37_79b9_7f4a_7c15u64 ^ u64::from(tag);
    core::array::from_fn(|_| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x as u8
    })
}

/// FIPS 203: ML-KEM KeyGen, Encaps and Decaps pairs for one parameter set.
fn ml_kem<P: KemParams + 'static>(name: &str) -> Result<Vec<Pair>, String> {
    let dk_a = DecapsulationKey::<P>::from_seed(&bytes(1), &bytes(2));
    let other = DecapsulationKey::<P>::from_seed(&bytes(3), &bytes(4));
    // dk = ByteEncode12(s_hat) || ek || H(ek) || z: the second key keeps the first one's ek and
    // H(ek) and takes s and z from another key.
    let mut b = dk_a.to_expanded();
    let o = other.to_expanded();
    let len = b.as_ref().len();
    b.as_mut()[..384 * P::K].copy_from_slice(&o.as_ref()[..384 * P::K]);
    b.as_mut()[len - 32..].copy_from_slice(&o.as_ref()[len - 32..]);
    let dk_b = DecapsulationKey::<P>::from_expanded(b.as_ref()).map_err(|e| e.to_string())?;
    let ek = dk_a.encapsulation_key().clone();
    let (ct, _) = ek.encapsulate_deterministic(&bytes(5));
    let ct = Ciphertext::<P>::from_bytes(ct.as_bytes()).map_err(|e| e.to_string())?;
    Ok(vec![
        pair(
            format!("{name} keygen"),
            (bytes(6), bytes(7)),
            (bytes(8), bytes(9)),
            |(d, z)| {
                black_box(DecapsulationKey::<P>::from_seed(d, z));
            },
        ),
        pair(
            format!("{name} encaps"),
            (ek.clone(), bytes(10)),
            (ek, bytes(11)),
            |(ek, m)| {
                black_box(ek.encapsulate_deterministic(m));
            },
        ),
        pair(
            format!("{name} decaps (valid / implicitly rejected)"),
            (dk_a, ct),
            (dk_b, ct),
            |(dk, ct)| {
                black_box(dk.decapsulate(ct));
            },
        ),
    ])
}

/// FIPS 204: ML-DSA KeyGen and Sign (plain and expanded key) pairs for one parameter set.
fn ml_dsa<P: DsaParams + 'static>(name: &str) -> Result<Vec<Pair>, String> {
    let a = DsaSk::<P>::from_seed(&bytes(1)).to_expanded();
    let o = DsaSk::<P>::from_seed(&bytes(2)).to_expanded();
    // skEncode(rho, K, tr, s1, s2, t0): the second key keeps rho, K and tr (so that A, y, w and
    // c agree) and takes s1, s2 and t0 from another key.
    let mut b = a.as_ref().to_vec();
    b[128..].copy_from_slice(&o.as_ref()[128..]);
    let key = |bytes: &[u8]| DsaSk::<P>::from_expanded(bytes).map_err(|e| e.to_string());
    let mut pairs = vec![pair(format!("{name} keygen"), bytes(3), bytes(4), |xi| {
        black_box(DsaSk::<P>::from_seed(xi));
    })];
    for tag in [5u8, 6, 7] {
        pairs.push(pair(
            format!("{name} sign, plain key (rnd {tag})"),
            (key(a.as_ref())?, bytes(tag)),
            (key(&b)?, bytes(tag)),
            |(sk, rnd)| {
                let _ = black_box(sk.sign_with_rnd(MSG, CTX, rnd));
            },
        ));
    }
    pairs.push(pair(
        format!("{name} expand + sign, expanded key (rnd 7)"),
        (key(a.as_ref())?, bytes(7)),
        (key(&b)?, bytes(7)),
        |(sk, rnd)| {
            let e = ExpandedSigningKey::new(sk.clone());
            let _ = black_box(e.sign_with_rnd(MSG, CTX, rnd));
        },
    ));
    Ok(pairs)
}

/// Falcon: Sign with the plain key and expand + Sign with the expanded key, for one degree.
fn falcon<const N: usize>(name: &str) -> Result<Vec<Pair>, String> {
    let key = |tag: u8| FnSk::<N>::generate_from_seed(&bytes(tag));
    let (a, b) = (key(1), key(2));
    let (nonce, seed): ([u8; NONCE_LEN], _) = (bytes(20), bytes(21));
    Ok(vec![
        pair(
            format!("{name} sign, plain key"),
            (a.clone(), nonce, seed),
            (b.clone(), nonce, seed),
            |(sk, nonce, seed)| {
                black_box(sk.sign_with_seed(MSG, nonce, seed));
            },
        ),
        pair(
            format!("{name} expand + sign, expanded key"),
            (a, nonce, seed),
            (b, nonce, seed),
            |(sk, nonce, seed)| {
                black_box(sk.expand().sign_with_seed(MSG, nonce, seed));
            },
        ),
    ])
}

/// The check of the check: a branch-free operation on two secrets must trace equal, and one
/// whose loop count is secret must part (at a site in this harness, which no entry covers).
fn selftest() -> Result<Vec<Pair>, String> {
    Ok(vec![
        pair(
            "selftest: branch-free (must be equal)".into(),
            bytes::<64>(1),
            bytes::<64>(2),
            |s| {
                black_box(s.iter().fold(0u8, |a, &b| a ^ b.rotate_left(3)));
            },
        ),
        pair(
            "selftest: a secret loop count (must part)".into(),
            [1u8; 1],
            [5u8; 1],
            |s| {
                for _ in 0..black_box(s[0]) {
                    black_box(());
                }
            },
        ),
    ])
}

/// The traced cases, by name.
pub type Case = fn() -> Result<Vec<Pair>, String>;
pub const CASES: &[(&str, Case)] = &[
    ("selftest", selftest),
    ("ml-kem-512", || ml_kem::<MlKem512>("ml-kem-512")),
    ("ml-kem-768", || ml_kem::<MlKem768>("ml-kem-768")),
    ("ml-kem-1024", || ml_kem::<MlKem1024>("ml-kem-1024")),
    ("ml-dsa-44", || ml_dsa::<MlDsa44>("ml-dsa-44")),
    ("ml-dsa-65", || ml_dsa::<MlDsa65>("ml-dsa-65")),
    ("ml-dsa-87", || ml_dsa::<MlDsa87>("ml-dsa-87")),
    ("falcon-512", || falcon::<512>("falcon-512")),
    ("falcon-1024", || falcon::<1024>("falcon-1024")),
];

/// `quick`: the short run of CI (about 20 s of tracing): every ML-KEM-768 operation, ML-DSA-44
/// key generation and one signature, one Falcon-512 signature with the plain key.
const QUICK: &[&str] = &["selftest", "ml-kem-768", "ml-dsa-44:0,1", "falcon-512:0"];

/// `trace [--limit N] [--resync] all|quick|CASE[:I,J]...`: traces the named cases' pairs under
/// the back end `PQLAB_BACKEND` picks (or the best the CPU has); exit status 1 on a new
/// finding, 2 on a failed run or a failed self-test.
pub fn run(args: &[String]) -> ExitCode {
    let mut args = args;
    let mut resync = false;
    loop {
        match args {
            [flag, rest @ ..] if flag == "--resync" => {
                resync = true;
                EARLY_STOP.store(false, Ordering::Relaxed);
                args = rest;
            }
            [flag, n, rest @ ..] if flag == "--limit" => match n.parse::<usize>() {
                Ok(n) if (1..=CAP).contains(&n) => {
                    LIMIT.store(n, Ordering::Relaxed);
                    args = rest;
                }
                _ => {
                    println!("pqlab-ct: trace: --limit N, N from 1 to {CAP}");
                    return ExitCode::from(2);
                }
            },
            _ => break,
        }
    }
    let names: Vec<String> = args
        .iter()
        .flat_map(|n| match n.as_str() {
            "quick" => QUICK.iter().map(|q| q.to_string()).collect(),
            "all" => CASES.iter().map(|c| c.0.to_string()).collect(),
            _ => vec![n.clone()],
        })
        .collect();
    let known_case = |n: &String| {
        let case = n.split_once(':').map_or(n.as_str(), |(c, _)| c);
        CASES.iter().any(|c| c.0 == case)
    };
    if names.is_empty() || !names.iter().all(known_case) {
        let cases: Vec<&str> = CASES.iter().map(|c| c.0).collect();
        println!("pqlab-ct: trace: cases: {}, quick, all", cases.join(" "));
        return ExitCode::from(2);
    }
    let backend = match crate::backend("") {
        Ok(b) => b,
        Err(rc) => return rc,
    };
    let setup = std::env::current_exe()
        .map_err(|e| format!("the executable's path: {e}"))
        .and_then(|exe| walk::load_bias(&exe))
        .and_then(|bias| Ok((bias, Shared::new()?)));
    let (bias, map) = match setup {
        Ok(x) => x,
        Err(e) => {
            println!("pqlab-ct: {e}");
            return ExitCode::from(2);
        }
    };
    let (mut new, mut failed, mut total) = (0, 0, 0usize);
    let mut selftest_ok = true;
    for (name, case) in CASES {
        // NAME, or NAME:I,J,... (only the pairs of those indices).
        let Some(pick) = names.iter().find_map(|n| match n.split_once(':') {
            Some((c, list)) if c == *name => Some(Some(list)),
            None if n == name => Some(None),
            _ => None,
        }) else {
            continue;
        };
        let picked = |i: usize| pick.is_none_or(|l| l.split(',').any(|x| x == i.to_string()));
        let pairs = match case() {
            Ok(p) => p,
            Err(e) => {
                println!("pqlab-ct: trace {name}: setup FAILED: {e}");
                failed += 1;
                continue;
            }
        };
        for (i, pair) in pairs.iter().enumerate().filter(|(i, _)| picked(*i)) {
            let what = format!("{} ({backend})", pair.what);
            let outcome = tracer::run_pair(pair, &map)
                .and_then(|()| walk::walk(map.trace(0), map.trace(1), map.limited(), bias, resync));
            if *name == "selftest" {
                let ok = match (i, &outcome) {
                    (0, Ok(Outcome::Clean(n, k, End::Whole))) => *n > 0 && k.is_empty(),
                    (1, Ok(Outcome::New(n, _))) => *n > 0,
                    _ => false,
                };
                let verdict = if ok {
                    "as it must"
                } else {
                    "WRONG: the check is broken"
                };
                println!("pqlab-ct: trace {what}: {verdict}");
                selftest_ok &= ok;
                continue;
            }
            match outcome {
                Ok(Outcome::Clean(n, known, end)) => {
                    total += n;
                    report(&what, n, &known, &end);
                }
                Ok(Outcome::New(n, frames)) => {
                    new += 1;
                    println!(
                        "NEW FINDING: trace {what}: the traces part after {n} equal \
                         instructions, at:"
                    );
                    for f in frames {
                        let file = f.file.as_deref().unwrap_or("?");
                        println!("      {} ({file}:{})", f.function, f.line);
                    }
                }
                Err(e) => {
                    failed += 1;
                    println!("pqlab-ct: trace {what}: FAILED: {e}");
                }
            }
        }
    }
    println!("pqlab-ct: trace ({backend}): {total} instructions compared");
    if !selftest_ok {
        println!("pqlab-ct: trace: the self-test failed");
        return ExitCode::from(2);
    }
    if new > 0 {
        println!("pqlab-ct: trace: {new} new findings: FAILED");
        ExitCode::from(1)
    } else if failed > 0 {
        ExitCode::from(2)
    } else {
        ExitCode::SUCCESS
    }
}

/// One line for a pair whose partings were all at known sites.
fn report(what: &str, n: usize, known: &[walk::Known], end: &End) {
    let sites = |known: &[walk::Known]| {
        known
            .iter()
            .map(|k| {
                let x = k.entry;
                format!("{} x{} ({:?}: {})", k.site, k.count, x.kind, x.id)
            })
            .collect::<Vec<_>>()
            .join(", ")
    };
    let line = match (end, known) {
        (End::Whole, []) => format!("{n} instructions, equal"),
        (End::Limit, []) => format!("equal for the first {n} instructions (the limit)"),
        (End::FirstParting, [k]) => format!(
            "equal for {n} instructions, then part at {} (known, {:?}: {})",
            k.site, k.entry.kind, k.entry.id
        ),
        (End::Whole, _) => format!(
            "{n} equal instructions to the end, parting at {}",
            sites(known)
        ),
        (End::Limit, _) => format!(
            "{n} equal instructions to the limit, parting at {}",
            sites(known)
        ),
        (_, _) => format!(
            "{n} equal instructions, parting at {}; then one operation ends",
            sites(known)
        ),
    };
    println!("pqlab-ct: trace {what}: {line}");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::findings;

    #[test]
    fn parses_addr2line_and_finds_the_entry() {
        let text = "pqlab_mldsa::sign::sign_loop_with\n\
                    /work/main/crates/pqlab-mldsa/src/sign.rs:405 (discriminator 2)\n\
                    sign_loop<P, B>\n/work/main/crates/pqlab-mldsa/src/sign.rs:364\n";
        let frames = walk::parse_addr2line(text);
        assert_eq!(frames.len(), 2);
        assert_eq!(frames[0].file.as_deref(), Some("pqlab-mldsa/src/sign.rs"));
        assert_eq!(frames[0].line, 405);
        let x = findings::expected_at(&frames).map(|x| x.id);
        assert_eq!(x, Some("mldsa-sign-rejection"));
        // Another line of the same function is not covered.
        let other = walk::parse_addr2line(&text.replace(":405", ":406"));
        assert!(findings::expected_at(&other).is_none());
        assert!(walk::parse_addr2line("??\n??:0\n")[0].file.is_none());
    }

    #[test]
    fn quick_names_existing_cases() {
        for q in QUICK {
            let case = q.split_once(':').map_or(*q, |(c, _)| c);
            assert!(CASES.iter().any(|c| c.0 == case), "{q}");
        }
    }
}
