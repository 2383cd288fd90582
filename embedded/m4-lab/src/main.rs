//! The Cortex-M4 lab of `pqlab compare --target cortex-m4`: one image per implementation
//! (pqlab, or PQClean's clean C code with the `pqclean` feature) and parameter set (one cargo
//! feature, e.g. `ml-dsa-44`), or the reduction-strategy image (feature `reductions`,
//! `src/reductions.rs`), run under QEMU's netduinoplus2 (STM32F405) with `-icount shift=0`. For each operation asked for, it makes N calls on fresh inputs and reports
//! each call's exact instruction count and peak stack over ARM semihosting (see [`meter`]).
//!
//! The command line (`qemu ... -append "ops=keygen,sign calls=5"`): `ops=` a comma-separated
//! list (default: all the image has), `calls=` the calls per operation (default 3). Output,
//! one record per line (parsed by `pqlab-lab`'s `m4` module):
//!
//! ```text
//! m4-lab impl=pqlab alg=ml-dsa-44 ops=keygen,sign,sign-expanded,verify calls=3
//! calibration loops=1000 expected=2000 measured=2000
//! start op=keygen available=126000
//! call op=keygen i=0 instructions=1234567 stack=9876
//! end op=keygen
//! start op=sign available=126000
//! call op=sign i=0 instructions=7654321 stack=54321 loops=3 sig=0123456789abcdef
//! end op=sign
//! done failures=0
//! ```
//!
//! ML-DSA's signing calls add `sig=`, a 64-bit digest of the signature made
//! ([`meter::digest`]), and pqlab's `loops=`, the iterations of the rejection loop (PQClean
//! does not count them: the host takes them from pqlab's call of the same index, which made
//! the same signature). Key generation calls add `pk=`, the digest of the encoded public key
//! made.
//!
//! A call that runs out of stack ends the run with `fault overflow=1 ...` after its `start`
//! line; the host then reports that operation as not fitting and goes on with the next one.
//!
//! Inputs: keygen takes its seed from a splitmix64 generator seeded per (operation, call) (in
//! PQClean's image, `randombytes` continues that generator, so its crypto_*_keypair draws the
//! same seed: Falcon's 48 bytes, ML-DSA's xi, ML-KEM's d and z; both implementations then make
//! the same key pair, Falcon from the same rejected (f, g), and the host checks the `pk=`
//! digests call by call);
//! sign signs a fresh 32-byte message from that generator under one of the build-time key pairs
//! (`build.rs`, made by pqlab on the host), call i under key pair i mod 4; every signing
//! operation of every image draws from the generator of `sign`, so that call i signs the same
//! message under the same key everywhere. ML-DSA signs deterministically (FIPS 204's rnd = 0,
//! for PQClean through `randombytes`): both implementations then make the same signature, with
//! the same rejection-loop iterations, so their instruction counts compare the same work.
//! Falcon signs with fresh randomness (nonce and sampler seed). Verify checks the build-time
//! signatures; encaps uses fresh randomness, decaps the build-time ciphertexts.
//! Every measured call starts from encoded keys (bytes), as PQClean's API does: decoding a key
//! (and, for ML-KEM, expanding A_hat) is part of the operation for both implementations.
#![no_std]
#![no_main]

mod meter;
#[path = "../../m4-rt/rt.rs"]
mod rt;
#[cfg_attr(feature = "pqclean", path = "pqclean.rs")]
#[cfg_attr(feature = "reductions", path = "reductions.rs")]
#[cfg_attr(
    not(any(feature = "pqclean", feature = "reductions")),
    path = "ours.rs"
)]
mod scheme;

use core::fmt::Write;

use rt::Console;

/// Calls per operation unless the command line says otherwise.
const DEFAULT_CALLS: u32 = 3;

/// The value of `key=` in the command line, if any.
fn arg<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    line.split_ascii_whitespace()
        .find_map(|w| w.strip_prefix(key)?.strip_prefix('='))
}

/// Entered from `rt::reset` on the process stack.
pub extern "C" fn main() -> ! {
    meter::start_counter();
    let mut buf = [0u8; 256];
    let line = core::str::from_utf8(rt::cmdline(&mut buf)).unwrap_or("");
    let calls: u32 = arg(line, "calls")
        .and_then(|v| v.parse().ok())
        .unwrap_or(DEFAULT_CALLS);
    let ops = arg(line, "ops");
    let mut out = Console::new();
    let _ = write!(out, "m4-lab impl={} alg={} ops=", scheme::IMPL, scheme::ALG);
    for (k, op) in scheme::OPS.iter().enumerate() {
        let _ = write!(out, "{}{op}", if k > 0 { "," } else { "" });
    }
    let _ = writeln!(out, " calls={calls}");
    for (n, expected, measured) in meter::calibrate() {
        let _ = writeln!(
            out,
            "calibration loops={n} expected={expected} measured={measured}"
        );
    }
    let mut failures = 0u32;
    for (k, &op) in scheme::OPS.iter().enumerate() {
        if ops.is_some_and(|list| !list.split(',').any(|o| o == op)) {
            continue;
        }
        let _ = writeln!(out, "start op={op} available={}", rt::available());
        // Every signing operation (`sign`, `sign-expanded`) draws its inputs from the
        // generator of `sign`: all sign the same messages, in every image.
        let seed_op = if op.starts_with("sign") {
            scheme::OPS.iter().position(|&o| o == "sign").unwrap_or(k)
        } else {
            k
        };
        for i in 0..calls {
            match scheme::call(op, seed_op as u32, i) {
                Ok(m) => {
                    let _ = write!(
                        out,
                        "call op={op} i={i} instructions={} stack={}",
                        m.instructions, m.stack
                    );
                    if let Some(n) = m.loops {
                        let _ = write!(out, " loops={n}");
                    }
                    if let Some(d) = m.sig {
                        let _ = write!(out, " sig={d:016x}");
                    }
                    if let Some(d) = m.pk {
                        let _ = write!(out, " pk={d:016x}");
                    }
                    let _ = writeln!(out);
                }
                Err(why) => {
                    failures += 1;
                    let _ = writeln!(out, "error op={op} i={i} {why}");
                }
            }
        }
        let _ = writeln!(out, "end op={op}");
    }
    let _ = writeln!(out, "done failures={failures}");
    drop(out);
    rt::exit(failures == 0)
}
