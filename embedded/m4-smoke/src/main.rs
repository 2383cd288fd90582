//! Bare-metal smoke test for Cortex-M4: hashes known-answer inputs with `pqlab-keccak`, verifies
//! the first Falcon-512 and Falcon-1024 round-3 KAT signatures with `pqlab-falcon` (and rejects
//! a corrupted copy), measures the stack each verification uses (painted stack), and reports
//! through ARM semihosting. Exit status 0 when every check passes, 1 otherwise.
//!
//! Run it (from this folder) with `cargo run --release`: the runner in `.cargo/config.toml`
//! starts `qemu-system-arm -M netduinoplus2` (an STM32F405). The runtime (reset, faults,
//! semihosting, the painted stack) is the M4 lab's, `../m4-rt/rt.rs`.
#![no_std]
#![no_main]

#[path = "../../m4-rt/rt.rs"]
mod rt;

use core::fmt::Write;

use pqlab_falcon::VerifyingKey;
use pqlab_keccak::{Sha3_256, Shake128};
use rt::Console;

// FALCON512, FALCON1024: (public key, message, detached signature) of KAT record 0, from
// build.rs.
include!(concat!(env!("OUT_DIR"), "/falcon_kat.rs"));

/// A hash with a 32-byte output.
type Hash = fn(&[u8]) -> [u8; 32];

fn sha3_256(input: &[u8]) -> [u8; 32] {
    Sha3_256::digest(input)
}

fn shake128_32(input: &[u8]) -> [u8; 32] {
    let mut out = [0u8; 32];
    Shake128::digest_parts(&[input], &mut out);
    out
}

/// Known answers (FIPS 202 examples): label, function, input, expected output.
const CASES: [(&str, Hash, &[u8], [u8; 32]); 4] = [
    (
        "sha3-256(\"\")",
        sha3_256,
        b"",
        hex32("a7ffc6f8bf1ed76651c14756a061d662f580ff4de43b49fa82d80a4b80f8434a"),
    ),
    (
        "sha3-256(\"abc\")",
        sha3_256,
        b"abc",
        hex32("3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532"),
    ),
    (
        "sha3-256(0xa3 x 200)",
        sha3_256,
        &[0xa3; 200],
        hex32("79f38adec5c20307a98ef76e8324afbfd46cfd81b22e3973c65fa1bd9de31787"),
    ),
    (
        "shake128(\"\", 32)",
        shake128_32,
        b"",
        hex32("7f9c2ba4e88f827d616045507605853ed73b8093f6efbc88eb1a6eacfa66ef26"),
    ),
];

/// Entered from `rt::reset` on the process stack.
pub extern "C" fn main() -> ! {
    let mut out = Console::new();
    let mut failures = 0u32;
    for (label, hash, input, expected) in CASES {
        let digest = hash(input);
        let ok = digest == expected;
        failures += u32::from(!ok);
        let _ = write!(out, "{label} = ");
        for b in digest {
            let _ = write!(out, "{b:02x}");
        }
        let _ = writeln!(out, "  {}", if ok { "ok" } else { "MISMATCH" });
    }
    failures += falcon_verify::<512>("falcon-512", FALCON512, &mut out);
    failures += falcon_verify::<1024>("falcon-1024", FALCON1024, &mut out);
    let _ = writeln!(out, "m4-smoke: {failures} failure(s)");
    drop(out);
    rt::exit(failures == 0)
}

/// Verifies a KAT signature (it must verify) and a copy with one bit flipped (it must not),
/// reporting the peak stack of the verification; returns the number of failures.
fn falcon_verify<const N: usize>(
    name: &str,
    kat: Option<(&[u8], &[u8], &[u8])>,
    out: &mut Console,
) -> u32 {
    let Some((pk, msg, sig)) = kat else {
        let _ = writeln!(out, "{name}: no KAT vectors at build time, not checked");
        return 0;
    };
    let top = rt::paint();
    let ok = VerifyingKey::<N>::decode(pk).is_ok_and(|vk| vk.verify(msg, sig).is_ok());
    let used = rt::used(top);
    let mut bad = [0u8; 1400];
    let bad = &mut bad[..sig.len()];
    bad.copy_from_slice(sig);
    bad[sig.len() / 2] ^= 0x01;
    let rejected = VerifyingKey::<N>::decode(pk).is_ok_and(|vk| vk.verify(msg, bad).is_err());
    let _ = writeln!(
        out,
        "{name} verify KAT #0: {}, corrupted signature: {}, stack {used} bytes",
        if ok { "ok" } else { "FAILED" },
        if rejected { "rejected" } else { "ACCEPTED" }
    );
    u32::from(!ok) + u32::from(!rejected)
}

/// A 32-byte value from 64 hex digits, at compile time.
const fn hex32(s: &str) -> [u8; 32] {
    const fn nibble(c: u8) -> u8 {
        match c {
            b'0'..=b'9' => c - b'0',
            b'a'..=b'f' => c - b'a' + 10,
            _ => panic!("not a lowercase hex digit"),
        }
    }
    let s = s.as_bytes();
    assert!(s.len() == 64);
    let mut out = [0u8; 32];
    let mut i = 0;
    while i < 32 {
        out[i] = (nibble(s[2 * i]) << 4) | nibble(s[2 * i + 1]);
        i += 1;
    }
    out
}
