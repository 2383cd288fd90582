//! Sorting memcheck's errors into known and new.
//!
//! Each error of a memcheck log is placed at its *site*: the innermost frame of its stack that
//! lies in a pqlab library crate (inlined frames included, so that a branch of `core` inlined
//! into a library function is placed in that function). An error is known when an entry of
//! [`EXPECTED`] matches it: the site's file starts with the entry's `file`, its line is one of
//! the entry's `lines` (if it names any), and a frame at or outside the site has a function
//! name containing the entry's `function` (valgrind names some inlined frames
//! `UnknownInlinedFun`, so the name is looked for along the stack). Every other error is new and fails the check, as
//! does an error placed in the harness itself or in no pqlab crate at all.

use std::collections::BTreeMap;
use std::process::ExitCode;

/// Why an entry of [`EXPECTED`] is tolerated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// The branch is on a value the standard makes public (or that is discarded, independent
    /// of the secret kept): a declassification point that only the library could mark.
    Public,
    /// Memcheck is stricter than the hardware here (e.g. a shift by a secret amount, which
    /// x86-64 executes in constant time).
    NotALeak,
    /// An open finding: a branch or memory index on a secret that should be fixed in the
    /// library. Tolerated only so that CI passes while it is open.
    Open,
}

/// One known memcheck finding.
#[derive(Debug)]
pub struct Expected {
    /// The name the report uses.
    pub id: &'static str,
    /// The start of the site's source file, as valgrind prints it with
    /// `--fullpath-after=crates/` (a file, or a folder such as `pqlab-falcon/src/keygen/`).
    pub file: &'static str,
    /// A substring of the function name of a frame at or outside the site.
    pub function: &'static str,
    /// The site's lines, if the entry covers only some (empty: any line).
    pub lines: &'static [u32],
    /// Tolerated why.
    pub kind: Kind,
    /// What the secret is and why this is tolerated (or what the fix is).
    pub reason: &'static str,
}

/// The known findings, most specific first (the first entry that matches an error covers it).
pub const EXPECTED: &[Expected] = &[
    // ---- ML-DSA (FIPS 204) ----
    Expected {
        id: "mldsa-ball-shift",
        file: "pqlab-mldsa/src/ball.rs",
        function: "byte",
        lines: &[102, 111, 114, 115],
        kind: Kind::NotALeak,
        reason: "the constant-time SampleInBall (FIPS 204, Alg. 29) reads and sets bits of its \
                 masks at the secret positions i and j with register shifts and `bt reg, reg` \
                 (size 8), which x86-64 executes in constant time; no branch, no memory index.",
    },
    Expected {
        id: "mldsa-ball-budget",
        file: "pqlab-mldsa/src/ball.rs",
        function: "sample_masks",
        lines: &[155, 157],
        kind: Kind::Public,
        reason: "declassified by design: whether tau + 24 stream bytes held tau accepted \
                 positions (false with probability below 2^-20; see ball.rs).",
    },
    Expected {
        id: "mldsa-sign-hint-stage",
        file: "pqlab-mldsa/src/sign/kept.rs",
        function: "respond",
        lines: &[115],
        kind: Kind::Open,
        reason: "the <<c t0>> and hint rows run only where the r0 and z checks (always both \
                 computed, combined without a branch) passed, so an attempt rejected at the hint \
                 stage reveals that r0 and z passed. Measured: 162, 65 and 145 such attempts in \
                 20,000 signatures of ML-DSA-44, 65 and 87 (0.8, 0.3 and 0.7 % of signatures), \
                 and never with c (constant-time SampleInBall). Closing it means the hint rows \
                 on every attempt: +17 to +31 % per attempt (one run of `pqlab compare`), over \
                 issue 16's 5 % budget. For comparison, the reference code and mldsa-native \
                 reveal each check's outcome (z, r0, ct0, hints) separately, citing the round-3 \
                 Dilithium specification, Section 5.5; pqlab reveals this one bit.",
    },
    Expected {
        id: "mldsa-sign-rejection",
        file: "pqlab-mldsa/src/sign.rs",
        function: "sign_loop_with",
        lines: &[405],
        kind: Kind::Public,
        reason: "`if !accepted` (FIPS 204, Alg. 7, line 23/28 outcome): whether an attempt is \
                 rejected is public in ML-DSA's security argument (the attempt count).",
    },
    Expected {
        id: "mldsa-hint-pack",
        file: "pqlab-mldsa/src/encode.rs",
        function: "hint_bit_pack",
        lines: &[],
        kind: Kind::Public,
        reason: "HintBitPack (Alg. 20) of the accepted attempt: the hint is part of the \
                 published signature.",
    },
    Expected {
        id: "mldsa-expand-s-rejection",
        file: "pqlab-mldsa/src/",
        function: "expand_s",
        lines: &[],
        kind: Kind::Public,
        reason: "ExpandS / RejBoundedPoly (Alg. 33/31) on the secret rho': the branch on each \
                 nibble (< 15 or < 9) and, in AVX2, the shuffle-table index of the accepted \
                 lanes reveal which nibbles were rejected; nibbles are independent and uniform, \
                 so this is independent of the accepted coefficients of s1, s2 (as in the \
                 reference implementations). A leak of the rejection pattern only.",
    },
    Expected {
        id: "mldsa-expand-a-rho",
        file: "pqlab-mldsa/src/",
        function: "expand_a",
        lines: &[],
        kind: Kind::Public,
        reason: "ExpandA / RejNTTPoly on rho, derived from the secret xi in KeyGen but \
                 published in pk.",
    },
    Expected {
        id: "mldsa-expand-a-batch",
        file: "pqlab-mldsa/src/",
        function: "sample_batch",
        lines: &[],
        kind: Kind::Public,
        reason: "ExpandA's RejNTTPoly (Alg. 30/32) in Keccak batches on rho, as \
                 `mldsa-expand-a-rho` (the trace check's stack names the batch function).",
    },
    Expected {
        id: "mldsa-skdecode-range",
        file: "pqlab-mldsa/src/keys.rs",
        function: "from_expanded",
        lines: &[],
        kind: Kind::Public,
        reason: "skDecode's range check of s1, s2 returns an error for an invalid key: a valid \
                 key always takes the same path.",
    },
    // ---- ML-KEM (FIPS 203) ----
    Expected {
        id: "mlkem-sample-ntt-rho",
        file: "pqlab-mlkem/src/backend/",
        function: "rej_uniform",
        lines: &[],
        kind: Kind::Public,
        reason: "SampleNTT (Alg. 7) rejection on rho, derived from the secret d in KeyGen but \
                 published in ek.",
    },
    Expected {
        id: "mlkem-sample-ntt-rho-inlined",
        file: "pqlab-mlkem/src/backend/portable.rs",
        function: "sample_key_gen",
        lines: &[53, 57],
        kind: Kind::Public,
        reason: "the same, where valgrind names the inlined rej_uniform `UnknownInlinedFun` \
                 (the two lines of its acceptance tests).",
    },
    Expected {
        id: "mlkem-keygen-lanes",
        file: "pqlab-mlkem/src/sample.rs",
        function: "sample_key_gen",
        lines: &[],
        kind: Kind::Public,
        reason: "the lane bookkeeping of KeyGen's batched SampleNTT: the number of coefficients \
                 each lane has accepted, a function of rho (public).",
    },
    // ---- Falcon (spec v1.2) ----
    Expected {
        id: "falcon-fpr-recip-shift",
        file: "pqlab-falcon/src/fpr_native.rs",
        function: "recip_bits",
        lines: &[],
        kind: Kind::NotALeak,
        reason: "recip_bits shifts by the exponent of the secret operand (`<< (e - 1021)`); \
                 memcheck reports any shift count that depends on a secret, x86-64 shifts in \
                 constant time. (Checked for what it is: a shift, size 1.)",
    },
    Expected {
        id: "falcon-keygen-ntru-solve",
        file: "pqlab-",
        function: "solve_ntru",
        lines: &[],
        kind: Kind::Open,
        reason: "NTRUSolve (Alg. 6) of key generation on the secret f, g: branches and memory \
                 indices on secret big-integer lengths and values (zint, xgcd, Babai reduction, \
                 field norms, lift, the mod-p NTTs of pqlab-arith, the float conversions). \
                 Fix: the fixed-length, constant-time algorithms of the reference (Pornin-Prest).",
    },
    Expected {
        id: "falcon-keygen-gauss-parity",
        file: "pqlab-falcon/src/keygen/gauss.rs",
        function: "poly_small_mkgauss",
        lines: &[],
        kind: Kind::Public,
        reason: "f and g sampling (as the reference): a value outside [-127, 127] is redrawn, \
                 and so is the last coefficient until the sum is odd. The branch declassifies \
                 only whether a draw is kept; a redrawn value is discarded and independent of \
                 the key, and the redraw count is geometric with P(draw has the wanted \
                 parity), which is 1/2 whichever parity is wanted, to within the parity bias \
                 of the sampled distribution: |P(even) - P(odd)| ~ 2 exp(-pi^2 sigma^2 / 2) \
                 = 2^-57.6 for one sample of the table (sigma 2.87, n = 1024), plus the \
                 table's 63-bit rounding, below 2^-56; its square, below 2^-112, for the sum \
                 of two (n = 512). So the count carries no usable information on the key.",
    },
    Expected {
        id: "falcon-keygen-rejection",
        file: "pqlab-falcon/src/keygen/mod.rs",
        function: "ntru_gen",
        lines: &[],
        kind: Kind::Public,
        reason: "NTRUGen (Alg. 5) rejects a candidate (f, g) (coefficient bound, norm, \
                 Gram-Schmidt norm, invertibility, NTRUSolve failure): a rejected candidate is \
                 discarded and independent of the accepted key.",
    },
    Expected {
        id: "falcon-keygen-gs-estimate",
        file: "pqlab-falcon/src/fpr.rs",
        function: "gram_schmidt_norm_ok",
        lines: &[74],
        kind: Kind::Public,
        reason: "NTRUGen's Gram-Schmidt norm test of a candidate (f, g) (Alg. 5): the Parseval \
                 estimate is compared with the bound's margins (a rejected candidate is \
                 discarded; of the accepted key it reveals only whether its norm lies within \
                 2^-20 of the bound, where the reference's computation decides).",
    },
    Expected {
        id: "falcon-keygen-invertible",
        file: "pqlab-falcon/src/keys.rs",
        function: "ntru_gen",
        lines: &[],
        kind: Kind::Public,
        reason: "NTRUGen's invertibility test of a candidate f (has_zero): a rejected \
                 candidate is discarded.",
    },
    Expected {
        id: "falcon-sk-decode",
        file: "pqlab-falcon/src/",
        function: "decode<",
        lines: &[],
        kind: Kind::Public,
        reason: "secret-key decoding (spec 3.11.5) rejects a forbidden code (-2^(bits-1)), a \
                 non-invertible f or an out-of-range G: a valid key always takes the same path.",
    },
    Expected {
        id: "falcon-sampler-rejection",
        file: "pqlab-falcon/src/sampler/",
        function: "sample",
        lines: &[],
        kind: Kind::Public,
        reason: "SamplerZ (Alg. 15) and BerExp (Alg. 14): the accept/reject outcome and \
                 BerExp's byte-wise early exit, as in the reference; the isochrony argument of \
                 Howe et al. (2020) makes the number of trials independent of the secret \
                 centre and sigma. The exact-threshold fallback (first random byte within one \
                 of the estimated top byte, modulo 256) has probability 3/256 whatever the \
                 estimate, as the early exit has 1/256.",
    },
    Expected {
        id: "falcon-sign-norm-check",
        file: "pqlab-falcon/src/sign.rs",
        function: "short_vector",
        lines: &[],
        kind: Kind::Public,
        reason: "the accepted norm check (Alg. 10, step 9): whether an attempt is rejected is \
                 public (a rejected (s1, s2) is discarded).",
    },
    Expected {
        id: "falcon-sign-compress-check",
        file: "pqlab-falcon/src/",
        function: "sign_loop",
        lines: &[],
        kind: Kind::Public,
        reason: "Compress of s2 in the signing loop (Alg. 10, step 10): s2 of the accepted \
                 attempt is the published signature; a too-long one is discarded.",
    },
];

/// One frame of a stack: function name, file (None: no line information) and line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Frame {
    pub function: String,
    pub file: Option<String>,
    pub line: u32,
}

/// One memcheck error: what it is and its stack, innermost frame first.
#[derive(Debug)]
struct Error {
    what: String,
    frames: Vec<Frame>,
}

/// Parses `at 0x1234: FUNC (FILE:LINE)` or `by 0x1234: FUNC (in OBJECT)`.
fn parse_frame(line: &str) -> Option<Frame> {
    let rest = line.trim_start();
    let rest = rest
        .strip_prefix("at 0x")
        .or_else(|| rest.strip_prefix("by 0x"))?;
    let (_, rest) = rest.split_once(": ")?;
    let (function, loc) = match rest.rsplit_once(" (") {
        Some((f, l)) => (f, l.strip_suffix(')').unwrap_or(l)),
        None => (rest, ""),
    };
    let (file, line) = match loc.rsplit_once(':') {
        Some((file, line)) if !loc.starts_with("in ") => {
            (Some(file.to_string()), line.parse().unwrap_or(0))
        }
        _ => (None, 0),
    };
    Some(Frame {
        function: function.to_string(),
        file,
        line,
    })
}

/// The errors of one memcheck log, and the error-context count of its summary line.
fn parse_log(text: &str) -> (Vec<Error>, Option<usize>) {
    let mut errors = Vec::new();
    let mut block: Vec<&str> = Vec::new();
    let mut contexts = None;
    for raw in text.lines().chain(core::iter::once("")) {
        // Strip the `==PID== ` prefix.
        let line = match raw.strip_prefix("==") {
            Some(r) => r.split_once("== ").map_or("", |(_, l)| l),
            None => raw,
        };
        if let Some(s) = line.strip_prefix("ERROR SUMMARY: ") {
            contexts = s
                .split_once(" errors from ")
                .and_then(|(_, r)| r.split_whitespace().next())
                .and_then(|n| n.parse().ok());
        }
        if !line.trim().is_empty() {
            block.push(line);
            continue;
        }
        // An error: its description, then `at 0x...` (a notice such as "More than 100 errors
        // detected" may come first in the same block).
        if let Some(i) = block
            .iter()
            .position(|l| l.trim_start().starts_with("at 0x"))
            && i > 0
        {
            errors.push(Error {
                what: block[i - 1].trim().to_string(),
                frames: block[i..].iter().filter_map(|l| parse_frame(l)).collect(),
            });
        }
        block.clear();
    }
    (errors, contexts)
}

/// Whether a file is one of pqlab's library crates (not the harness).
fn is_library(file: &str) -> bool {
    file.starts_with("pqlab-") && !file.starts_with("pqlab-ct/")
}

/// The index of the frame a stack (innermost first) is placed at: the innermost frame in a
/// pqlab crate, if that is a library crate.
fn site_index(frames: &[Frame]) -> Option<usize> {
    frames
        .iter()
        .position(|f| {
            f.file
                .as_deref()
                .is_some_and(|file| file.starts_with("pqlab-"))
        })
        .filter(|&i| frames[i].file.as_deref().is_some_and(is_library))
}

/// The frame a stack is placed at (see [`site_index`]).
pub fn site_of(frames: &[Frame]) -> Option<&Frame> {
    site_index(frames).map(|i| &frames[i])
}

/// The index of the frame an error is placed at.
fn site(e: &Error) -> Option<usize> {
    site_index(&e.frames)
}

/// The entry of [`EXPECTED`] that covers a stack (innermost frame first), if any.
pub fn expected_at(frames: &[Frame]) -> Option<&'static Expected> {
    let at = site_index(frames)?;
    let file = frames[at].file.as_deref()?;
    let line = frames[at].line;
    EXPECTED.iter().find(|x| {
        file.starts_with(x.file)
            && (x.lines.is_empty() || x.lines.contains(&line))
            && frames[at..].iter().any(|f| f.function.contains(x.function))
    })
}

/// The entry of [`EXPECTED`] that covers an error, if any.
fn expected_for(e: &Error) -> Option<&'static Expected> {
    expected_at(&e.frames)
}

/// Prints an error's stack (the frames up to and a little past its site).
fn print_error(e: &Error) {
    println!("  {}", e.what);
    let end = site(e).map_or(12, |i| i + 6).min(e.frames.len());
    for f in &e.frames[..end] {
        let func: String = f.function.chars().take(110).collect();
        match &f.file {
            Some(file) => println!("      {func} ({file}:{})", f.line),
            None => println!("      {func}"),
        }
    }
}

/// `classify LOG...`: reads memcheck logs, lists known findings with their counts, prints
/// every new one in full; exit status 1 if any error is new or a log is unreadable or
/// incomplete.
pub fn classify(logs: &[String]) -> ExitCode {
    let mut known: BTreeMap<&'static str, (usize, Vec<String>)> = BTreeMap::new();
    let mut new = 0usize;
    let mut bad_log = false;
    for path in logs {
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) => {
                println!("pqlab-ct: cannot read {path}: {e}");
                bad_log = true;
                continue;
            }
        };
        let (errors, contexts) = parse_log(&text);
        if contexts != Some(errors.len()) {
            println!(
                "pqlab-ct: {path}: {} errors parsed, summary says {contexts:?} \
                 (valgrind failed, or the log format changed)",
                errors.len()
            );
            bad_log = true;
        }
        for e in &errors {
            match expected_for(e) {
                Some(x) => {
                    let entry = known.entry(x.id).or_default();
                    entry.0 += 1;
                    if let Some(f) = site(e).map(|i| &e.frames[i]) {
                        let loc = format!("{}:{}", f.file.as_deref().unwrap_or("?"), f.line);
                        if !entry.1.contains(&loc) {
                            entry.1.push(loc);
                        }
                    }
                }
                None => {
                    new += 1;
                    println!("NEW FINDING in {path}:");
                    print_error(e);
                }
            }
        }
    }
    println!("known findings (contexts; sites):");
    for x in EXPECTED {
        let (n, sites) = known.get(x.id).cloned().unwrap_or_default();
        let kind = match x.kind {
            Kind::Public => "public",
            Kind::NotALeak => "no-leak",
            Kind::Open => "OPEN",
        };
        println!("  {:<6} {:<34} {n:>4}  {}", kind, x.id, sites.join(" "));
    }
    if new > 0 || bad_log {
        println!("pqlab-ct: {new} new memcheck findings: FAILED");
        return ExitCode::from(1);
    }
    println!("pqlab-ct: no new memcheck findings");
    ExitCode::SUCCESS
}

#[cfg(test)]
mod tests {
    use super::*;

    const LOG: &str = "==1== Memcheck, a memory error detector\n==1== \n\
        ==1== Conditional jump or move depends on uninitialised value(s)\n\
        ==1==    at 0x1: UnknownInlinedFun (/rustc/x/library/core/src/num/mod.rs:3)\n\
        ==1==    by 0x2: sample_in_ball<P> (pqlab-mldsa/src/sample.rs:47)\n\
        ==1==    by 0x3: pqlab_ct::taint::ml_dsa (pqlab-ct/src/taint.rs:9)\n\
        ==1==    by 0x4: main (in /tmp/x)\n==1== \n\
        ==1== More than 100 errors detected.  Subsequent errors\n\
        ==1== will still be recorded, but in less detail than before.\n\
        ==1== Use of uninitialised value of size 8\n\
        ==1==    at 0x5: f (pqlab-falcon/src/sign.rs:352)\n==1== \n\
        ==1== ERROR SUMMARY: 5 errors from 2 contexts (suppressed: 0 from 0)\n";

    #[test]
    fn parses_errors_and_sites() {
        let (errors, contexts) = parse_log(LOG);
        assert_eq!(contexts, Some(2));
        assert_eq!(errors.len(), 2);
        assert_eq!(errors[1].what, "Use of uninitialised value of size 8");
        let e = &errors[0];
        assert_eq!(e.frames.len(), 4);
        assert_eq!(site(e), Some(1));
        assert_eq!(e.frames[1].line, 47);
        assert_eq!(e.frames[3].file, None);
    }

    #[test]
    fn an_error_in_the_harness_has_no_site() {
        let (errors, _) = parse_log(&LOG.replace("pqlab-mldsa/src/sample.rs:47", "x.rs:1"));
        assert_eq!(site(&errors[0]), None);
        assert!(expected_for(&errors[0]).is_none());
    }
}
