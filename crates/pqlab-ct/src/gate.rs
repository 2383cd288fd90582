//! The variable-time instruction gate.
//!
//! Memcheck sees branches and memory indices, not instructions whose *duration* depends on
//! their operands. On x86-64 these are integer division (`div`, `idiv`: the latency depends on
//! the operands' sizes on every current core) and floating-point division and square root
//! (`divsd`, `sqrtsd` and their packed, single-precision, VEX/EVEX and x87 forms: slower on
//! subnormal inputs, and operand-dependent on older cores).
//!
//! The gate reads `objdump -d -l -C --no-show-raw-insn` of the release binary of this crate
//! (which links every library code path the taint suite runs, after LTO and inlining), finds
//! each such instruction and places it at the source line the line table gives it (inlined
//! code keeps its own file and line, and objdump names the innermost inlined function). It
//! counts an instruction that lies in a library crate's file, or in a function of a library
//! crate (a `core` helper such as `div_ceil` inlined there); each must be covered by
//! [`ALLOWED`] (the function works on public data only: the reason says why) or [`KNOWN`]
//! (an open finding). Anything else fails the gate.
//!
//! What makes it fail: a `/` or `%` whose divisor is not a compile-time constant (the
//! compiler turns a division by a constant into a multiplication, which is constant-time and
//! not flagged; on targets without that, such as a Cortex-M4 `udiv`, the gate does not look),
//! an `f64` division or `sqrt`, in any function that is not allowlisted. A new division inside
//! an allowlisted function is not caught: keep those functions small.

use std::collections::BTreeMap;
use std::process::ExitCode;

/// One allowlisted (or known) function.
#[derive(Debug)]
pub struct Entry {
    /// The source file, from `crates/` on (e.g. `pqlab-arith/src/falcon_solver/mod.rs`).
    pub file: &'static str,
    /// A substring of the (innermost, demangled) function name or of the enclosing symbol (for
    /// a `core` helper inlined into a library function: `file` is then `/rustc/`).
    pub function: &'static str,
    /// Why its operands are public (or, for [`KNOWN`], what the finding is).
    pub reason: &'static str,
}

/// Functions shown to divide only public data.
pub const ALLOWED: &[Entry] = &[
    Entry {
        file: "pqlab-arith/src/falcon_solver/mod.rs",
        function: "pow_mod_u64",
        reason: "modular exponentiation modulo the solver's small primes (Miller-Rabin of the \
                 public prime list, generators, roots of unity): base, exponent and modulus \
                 are public constants of the prime table",
    },
    Entry {
        file: "pqlab-arith/src/falcon_solver/mod.rs",
        function: "mulmod",
        reason: "a * b mod p for the twiddle factors of a public prime p (twiddles_from_root, \
                 the inverse of n): public constants",
    },
    Entry {
        file: "pqlab-arith/src/falcon_solver/modmul.rs",
        function: "factor_inv",
        reason: "2^32 mod p, the Montgomery constant of a public prime",
    },
    Entry {
        file: "pqlab-falcon/src/backend/avx",
        function: "ntt",
        reason: "`8 / ht`: the loop bound of an NTT stage from its public half-size (the \
                 degree n), in the AVX2 and AVX-512 NTT and inverse NTT mod q",
    },
    Entry {
        file: "pqlab-mldsa/src/sample.rs",
        function: "sample_batch",
        reason: "`(first + t) / l`, `% l`: the (row, column) of the matrix entry a lane of the \
                 batched ExpandA samples, from the public loop counter",
    },
    Entry {
        file: "pqlab-mlkem/src/sample.rs",
        function: "sample_matrix",
        reason: "`(first + t) / k`, `% k`: the (row, column) of a lane's matrix entry, from the \
                 public loop counter",
    },
    Entry {
        file: "pqlab-mlkem/src/sample.rs",
        function: "sample_key_gen",
        reason: "`m % k`: the column index in the seed of a lane's matrix entry, from the \
                 public loop counter",
    },
    Entry {
        file: "/rustc/",
        function: "pqlab_mlkem::sample::sample_",
        reason: "`div_ceil` inlined in ML-KEM's batched samplers (sample_matrix, \
                 sample_key_gen, sample_poly_cbd_prf): the number of SHAKE blocks or lanes from \
                 public lengths and counts",
    },
    Entry {
        file: "/rustc/",
        function: "pqlab_falcon::keygen::ntt_x86::ntt_avx2",
        reason: "a slice iterator's chunk count in NTRUSolve's AVX2 NTT: the public degree",
    },
    Entry {
        file: "/rustc/",
        function: "pqlab_falcon::keygen::ntt_x86::intt_avx2",
        reason: "a slice iterator's chunk count in NTRUSolve's AVX2 inverse NTT: the public \
                 degree",
    },
    Entry {
        file: "pqlab-falcon/src/keygen/ntt_x86.rs",
        function: "pqlab_falcon::keygen::ntt_x86::tables_avx2",
        reason: "2^32 mod p and w 2^32 mod p for the twiddle tables: the solver's public small \
                 primes and their public roots of unity",
    },
    Entry {
        file: "/rustc/",
        function: "pqlab_arith::reduce::ntt_falcon::ntt_with",
        reason: "a slice iterator's chunk count (`len / chunk`) in the NTT mod q: the public \
                 degree and stage size",
    },
];

/// Open findings: variable-time instructions on secrets, tolerated while they are open.
pub const KNOWN: &[Entry] = &[Entry {
    file: "/rustc/",
    function: "pqlab_falcon::keygen::zint::mod_small_batch_with",
    reason: "a slice iterator's `len / chunk` in NTRUSolve's big-integer reduction; the \
             big-integer lengths of this solver depend on the secret f, g (memcheck finding \
             falcon-keygen-ntru-solve), so the divisor may be secret-dependent",
}];

/// Whether a path (from `crates/` on) is a file of a library crate.
fn library_file(rel: &str) -> bool {
    [
        "pqlab-mldsa/",
        "pqlab-mlkem/",
        "pqlab-falcon/",
        "pqlab-keccak/",
        "pqlab-arith/",
    ]
    .iter()
    .chain(&["pqlab-backend/"])
    .any(|c| rel.starts_with(c))
}

/// Whether a demangled symbol is a function of a library crate.
fn library_symbol(sym: &str) -> bool {
    let s = sym.trim_start_matches('<');
    [
        "pqlab_mldsa::",
        "pqlab_mlkem::",
        "pqlab_falcon::",
        "pqlab_keccak::",
        "pqlab_arith::",
        "pqlab_backend::",
    ]
    .iter()
    .any(|c| s.starts_with(c))
}

/// The mnemonic of a variable-time instruction, if `line` is one.
fn variable_time(line: &str) -> Option<&str> {
    // `   ec7cd:\tdiv    rcx`
    let (addr, rest) = line.split_once(':')?;
    if !line.starts_with(' ') || !addr.trim().chars().all(|c| c.is_ascii_hexdigit()) {
        return None;
    }
    let m = rest.split_whitespace().next()?;
    let base = m.strip_prefix('v').unwrap_or(m);
    let hit = matches!(base, "div" | "idiv")
        || matches!(
            base,
            "divss" | "divsd" | "divps" | "divpd" | "sqrtss" | "sqrtsd" | "sqrtps" | "sqrtpd"
        )
        || m.starts_with("fdiv")
        || m.starts_with("fidiv")
        || m == "fsqrt";
    hit.then_some(m)
}

/// One flagged instruction: (file, line, function, mnemonic), with the enclosing symbol.
#[derive(Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Hit {
    file: String,
    line: u32,
    function: String,
    mnemonic: String,
    symbol: String,
}

/// The flagged instructions of an `objdump -d -l -C` listing.
fn scan(text: &str) -> Vec<Hit> {
    let mut hits = Vec::new();
    let (mut symbol, mut function, mut file, mut line) =
        (String::new(), String::new(), String::new(), 0u32);
    for l in text.lines() {
        if let Some(sym) = l.split_once(" <").and_then(|(_, r)| r.strip_suffix(">:")) {
            symbol = sym.to_string();
            function = sym.to_string();
            file.clear();
            line = 0;
            continue;
        }
        if l.starts_with('/') {
            // `/path/file.rs:229` or `/path/file.rs:229 (discriminator 3)`
            let loc = l.split(" (discriminator").next().unwrap_or(l);
            if let Some((f, n)) = loc.rsplit_once(':') {
                file = f.split_once("crates/").map_or(f, |(_, r)| r).to_string();
                line = n.trim().parse().unwrap_or(0);
            }
            continue;
        }
        if !l.starts_with(' ') && l.ends_with(':') {
            function = l.trim_end_matches(':').trim_end_matches("()").to_string();
            continue;
        }
        if let Some(m) = variable_time(l)
            && (library_file(&file) || library_symbol(&symbol) || library_symbol(&function))
        {
            hits.push(Hit {
                file: file.clone(),
                line,
                function: function.clone(),
                mnemonic: m.to_string(),
                symbol: symbol.clone(),
            });
        }
    }
    hits
}

/// The entry of `list` that covers a hit.
fn covered<'a>(list: &'a [Entry], h: &Hit) -> Option<&'a Entry> {
    list.iter().find(|e| {
        h.file.starts_with(e.file)
            && (h.function.contains(e.function) || h.symbol.contains(e.function))
    })
}

/// `gate DISASSEMBLY`: exit status 1 if a variable-time instruction of a library crate is
/// neither allowlisted nor known.
pub fn gate(path: &str) -> ExitCode {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => {
            println!("pqlab-ct gate: cannot read {path}: {e}");
            return ExitCode::from(2);
        }
    };
    if !text
        .lines()
        .any(|l| l.starts_with('/') && l.contains(".rs:"))
    {
        println!("pqlab-ct gate: {path} has no line information (objdump -l, debug line tables)");
        return ExitCode::from(2);
    }
    let hits = scan(&text);
    let mut groups: BTreeMap<(String, String, String, &str), Vec<u32>> = BTreeMap::new();
    let mut new = 0;
    for h in &hits {
        let status = if covered(ALLOWED, h).is_some() {
            "allowed"
        } else if covered(KNOWN, h).is_some() {
            "KNOWN"
        } else {
            new += 1;
            "NEW"
        };
        let function = if library_file(&h.file) {
            h.function.clone()
        } else {
            format!("{} (inlined in {})", h.function, h.symbol)
        };
        let lines = groups
            .entry((h.file.clone(), function, h.mnemonic.clone(), status))
            .or_default();
        if !lines.contains(&h.line) {
            lines.push(h.line);
        }
    }
    println!(
        "variable-time instructions in library code ({} in all):",
        hits.len()
    );
    for ((file, function, mnemonic, status), lines) in &groups {
        let lines: Vec<String> = lines.iter().map(u32::to_string).collect();
        println!(
            "  {status:<7} {mnemonic:<7} {file}:{} in {function}",
            lines.join(",")
        );
    }
    if new > 0 {
        println!("pqlab-ct gate: {new} variable-time instructions not allowlisted: FAILED");
        return ExitCode::from(1);
    }
    println!("pqlab-ct gate: no new variable-time instructions");
    ExitCode::SUCCESS
}

#[cfg(test)]
mod tests {
    use super::*;

    const DIS: &str = "0000000000012340 <pqlab_mldsa::sample::sample_batch>:\n\
        pqlab_mldsa::sample::sample_batch():\n\
        /work/x/crates/pqlab-mldsa/src/sample.rs:163\n\
        \x20  12340:\tdiv    rcx\n\
        /rustc/abc/library/core/src/num/mod.rs:10 (discriminator 2)\n\
        \x20  12343:\tvsqrtsd xmm0,xmm0,xmm1\n\
        0000000000012400 <std::fmt::write>:\n\
        /rustc/abc/library/core/src/fmt/mod.rs:1\n\
        \x20  12400:\tdiv    rcx\n\
        0000000000012500 <pqlab_ct::main>:\n\
        pqlab_falcon::fft::secret_thing:\n\
        /work/x/crates/pqlab-falcon/src/fft.rs:7\n\
        \x20  12500:\tdivsd  xmm0,xmm1\n";

    #[test]
    fn finds_library_instructions_only() {
        let hits = scan(DIS);
        assert_eq!(hits.len(), 3, "{hits:?}");
        assert_eq!(hits[0].file, "pqlab-mldsa/src/sample.rs");
        assert_eq!(hits[0].line, 163);
        assert_eq!(hits[0].mnemonic, "div");
        // A core helper inlined into a library function is counted.
        assert_eq!(hits[1].mnemonic, "vsqrtsd");
        // Library code inlined into the harness keeps its file and function.
        assert_eq!(hits[2].file, "pqlab-falcon/src/fft.rs");
        assert_eq!(hits[2].function, "pqlab_falcon::fft::secret_thing");
    }

    #[test]
    fn allowlist_covers_only_its_functions() {
        let hits = scan(DIS);
        assert!(covered(ALLOWED, &hits[0]).is_some());
        assert!(covered(ALLOWED, &hits[2]).is_none());
    }
}
