//! `pqlab-ct`: the constant-time check of pqlab, by a tool.
//!
//! Three checks, all run by `.ci/ct` (which builds this crate in release mode, twice: with
//! native floating point and with Falcon's `fpr-emu`):
//!
//! 1. **Secret tainting under valgrind memcheck** (the ctgrind / TIMECOP method). `pqlab-ct
//!    taint CASE...` runs key generation, signing, encapsulation and decapsulation of every
//!    parameter set of ML-DSA, ML-KEM and Falcon (plain and expanded key) with every secret
//!    input (operating-system randomness and the secret fields of the keys) marked undefined
//!    with valgrind client requests ([`valgrind`]), and makes public only the standard's
//!    public outputs ([`taint`] lists these declassification points). Under
//!    `valgrind --tool=memcheck`, any conditional jump, memory address or system call that
//!    depends on a secret is reported. The back end is the one `PQLAB_BACKEND` forces
//!    (`portable`, `avx2`; valgrind 3.19 has no AVX-512, so that back end cannot be checked
//!    this way). `pqlab-ct classify LOG...` reads the memcheck logs and sorts every error: a
//!    known one ([`findings::EXPECTED`]: a branch on a value the standard makes public, or an
//!    open finding, each with its reason) or a new one, which fails the check.
//! 2. **A variable-time instruction gate**. Memcheck does not see an instruction whose
//!    *timing* depends on its operands (integer division, floating-point division and square
//!    root). `pqlab-ct gate DISASSEMBLY` reads `objdump -d -l -C --no-show-raw-insn` of the
//!    release binary, attributes each such instruction to the source line of a library crate
//!    it came from (inlined code keeps its own file and line) and fails on any that is not in
//!    [`gate::ALLOWED`] (shown to work on public data) or [`gate::KNOWN`] (open findings).
//!
//! 3. **The trace check** ([`trace`]), for the back end valgrind cannot run (AVX-512) and any
//!    other: `pqlab-ct trace CASE...` runs each operation twice, with different secrets and the
//!    same public inputs, in two forked children with the trap flag set, records every
//!    instruction address, and requires the two traces to be equal up to a branch the standard
//!    makes public ([`findings::EXPECTED`] again). A self-test shows it sees a secret branch.
//!
//! Exit status: 0 clean (only known entries), 1 a new finding, 2 usage or input error, 3 the
//! back end asked for cannot run here (not checked).

mod findings;
mod gate;
mod taint;
#[cfg(all(target_os = "linux", target_arch = "x86_64"))]
mod trace;
mod valgrind;

use std::process::ExitCode;

fn usage() -> ExitCode {
    eprintln!(
        "usage: pqlab-ct taint all|CASE...   (under valgrind; PQLAB_BACKEND picks the back end)\n\
         \x20      pqlab-ct trace [--limit N] all|quick|CASE[:I,J]... (secret pairs' traces)\n\
         \x20      pqlab-ct classify LOG...     (memcheck logs of `taint`)\n\
         \x20      pqlab-ct gate DISASSEMBLY     (objdump -d -l -C --no-show-raw-insn output)\n\
         \x20      pqlab-ct list                 (the known findings and the allowlist, with reasons)\n\
         cases: {}",
        taint::CASES
            .iter()
            .map(|c| c.0)
            .collect::<Vec<_>>()
            .join(" ")
    );
    ExitCode::from(2)
}

/// The back end `PQLAB_BACKEND` forces, or the best the CPU has; where the forced one cannot
/// run here, a NOT CHECKED line (with `why`) and exit status 3.
fn backend(why: &str) -> Result<pqlab_backend::Backend, ExitCode> {
    match pqlab_backend::from_env() {
        Ok(Some(b)) => Ok(b),
        Ok(None) => Ok(pqlab_backend::selected()),
        Err(e) => {
            println!("pqlab-ct: NOT CHECKED: {e}{why}");
            Err(ExitCode::from(3))
        }
    }
}

/// `taint`: runs the named cases (or all) and reports how many memcheck errors each added.
fn run_taint(names: &[String]) -> ExitCode {
    let backend = match backend(" (valgrind hides CPU features it cannot run)") {
        Ok(b) => b,
        Err(rc) => return rc,
    };
    if !valgrind::running_on_valgrind() {
        println!("pqlab-ct: not under valgrind: the cases run, but nothing is checked");
    }
    let all = names.iter().any(|n| n == "all");
    let mut rc = ExitCode::SUCCESS;
    for (name, run) in taint::CASES {
        if !all && !names.iter().any(|n| n == name) {
            continue;
        }
        let before = valgrind::error_count();
        let result = run();
        let errors = valgrind::error_count() - before;
        match result {
            Ok(()) => println!("pqlab-ct: {name} ({backend}): done, {errors} memcheck errors"),
            Err(e) => {
                println!("pqlab-ct: {name} ({backend}): FAILED: {e}");
                rc = ExitCode::from(2);
            }
        }
    }
    rc
}

/// `list`: every known memcheck finding and every gate entry, with its reason.
fn list() -> ExitCode {
    println!("memcheck: known findings");
    for x in findings::EXPECTED {
        println!(
            "  {} ({:?}): {} [{}]\n      {}",
            x.id, x.kind, x.file, x.function, x.reason
        );
    }
    for (name, entries) in [("allowed", gate::ALLOWED), ("known", gate::KNOWN)] {
        println!("instruction gate: {name}");
        for e in entries {
            println!("  {} [{}]\n      {}", e.file, e.function, e.reason);
        }
    }
    ExitCode::SUCCESS
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.split_first() {
        Some((cmd, rest)) if cmd == "taint" && !rest.is_empty() => run_taint(rest),
        #[cfg(all(target_os = "linux", target_arch = "x86_64"))]
        Some((cmd, rest)) if cmd == "trace" && !rest.is_empty() => trace::run(rest),
        #[cfg(not(all(target_os = "linux", target_arch = "x86_64")))]
        Some((cmd, _)) if cmd == "trace" => {
            println!("pqlab-ct: NOT CHECKED: the trace check runs on x86-64 Linux only");
            ExitCode::from(3)
        }
        Some((cmd, rest)) if cmd == "classify" && !rest.is_empty() => findings::classify(rest),
        Some((cmd, [file])) if cmd == "gate" => gate::gate(file),
        Some((cmd, [])) if cmd == "list" => list(),
        _ => usage(),
    }
}
