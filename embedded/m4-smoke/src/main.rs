//! Bare-metal smoke test for Cortex-M4: hashes known-answer inputs with `pqlab-keccak`, verifies
//! the first Falcon-512 and Falcon-1024 round-3 KAT signatures with `pqlab-falcon` (and rejects
//! a corrupted copy), measures the stack each verification uses (painted stack), and reports
//! through ARM semihosting. Exit status 0 when every check passes, 1 otherwise.
//!
//! Run it (from this folder) with `cargo run --release`: the runner in `.cargo/config.toml`
//! starts `qemu-system-arm -M netduinoplus2` (an STM32F405).
#![no_std]
#![no_main]

use core::fmt::Write;
use core::panic::PanicInfo;

use pqlab_falcon::VerifyingKey;
use pqlab_keccak::{Sha3_256, Shake128};

// FALCON512, FALCON1024: (public key, message, detached signature) of KAT record 0, from
// build.rs.
include!(concat!(env!("OUT_DIR"), "/falcon_kat.rs"));

/// The vector table after the initial stack pointer (which `link.x` writes): reset, then the
/// fourteen system exceptions of ARMv7-M, all of which end the run as a failure.
#[used]
#[unsafe(no_mangle)]
#[unsafe(link_section = ".vector_table")]
pub static VECTOR_TABLE: [extern "C" fn() -> !; 15] = [
    reset, fault, fault, fault, fault, fault, fault, fault, fault, fault, fault, fault, fault,
    fault, fault,
];

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

extern "C" fn reset() -> ! {
    enable_fpu();
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
    exit(failures == 0)
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
    let top = stack_paint();
    let ok = VerifyingKey::<N>::decode(pk).is_ok_and(|vk| vk.verify(msg, sig).is_ok());
    let used = stack_used(top);
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

/// The painted window below the caller's frame: 48 KiB (RAM is 128 KiB and this program keeps
/// no static data, so the area below the stack pointer is free).
const PAINT: usize = 48 * 1024;
const PATTERN: u32 = 0x5A5A_A5A5;

/// Fills the PAINT bytes below (the current stack pointer - 256) with PATTERN and returns
/// that upper end.
#[inline(never)]
fn stack_paint() -> usize {
    let marker = 0u32;
    let top = (core::ptr::addr_of!(marker) as usize - 256) & !3;
    let mut a = top - PAINT;
    while a < top {
        // SAFETY: RAM below the live stack frames, unused (see PAINT), word-aligned.
        unsafe { (a as *mut u32).write_volatile(PATTERN) };
        a += 4;
    }
    top
}

/// Bytes of the painted window that were written since `stack_paint` returned `top`.
fn stack_used(top: usize) -> usize {
    let mut a = top - PAINT;
    // SAFETY: as in stack_paint; only reads.
    while a < top && unsafe { (a as *const u32).read_volatile() } == PATTERN {
        a += 4;
    }
    top - a
}

extern "C" fn fault() -> ! {
    let _ = writeln!(Console::new(), "m4-smoke: processor fault");
    exit(false)
}

#[panic_handler]
fn panic(info: &PanicInfo<'_>) -> ! {
    let _ = writeln!(Console::new(), "m4-smoke: {info}");
    exit(false)
}

/// Grants full access to coprocessors 10 and 11 (the FPU): the hard-float ABI may use it.
fn enable_fpu() {
    const CPACR: *mut u32 = 0xE000_ED88 as *mut u32;
    // SAFETY: CPACR is an always-present, word-aligned ARMv7-M system register.
    unsafe {
        CPACR.write_volatile(CPACR.read_volatile() | (0xF << 20));
        core::arch::asm!("dsb", "isb", options(nostack, preserves_flags));
    }
}

/// One ARM semihosting call (`BKPT 0xAB` on M-profile).
fn semihosting(op: u32, arg: usize) -> usize {
    let ret: usize;
    // SAFETY: the debugger (QEMU) services the breakpoint; `arg` points to memory valid for `op`.
    unsafe {
        core::arch::asm!("bkpt #0xab", inout("r0") op as usize => ret, in("r1") arg,
            options(nostack, preserves_flags));
    }
    ret
}

/// `SYS_EXIT` with `ADP_Stopped_ApplicationExit` (QEMU exits 0) or `RunTimeErrorUnknown` (1).
fn exit(success: bool) -> ! {
    semihosting(0x18, if success { 0x2_0026 } else { 0x2_0023 });
    loop {
        core::hint::spin_loop();
    }
}

/// Line-buffered output through `SYS_WRITE0` (a NUL-terminated string).
struct Console {
    buf: [u8; 96],
    len: usize,
}

impl Console {
    fn new() -> Self {
        Self {
            buf: [0; 96],
            len: 0,
        }
    }

    fn flush(&mut self) {
        if self.len > 0 {
            self.buf[self.len] = 0;
            semihosting(0x04, self.buf.as_ptr() as usize);
            self.len = 0;
        }
    }
}

impl Write for Console {
    fn write_str(&mut self, s: &str) -> core::fmt::Result {
        for &b in s.as_bytes() {
            if self.len == self.buf.len() - 1 {
                self.flush();
            }
            self.buf[self.len] = if b == 0 { b'?' } else { b };
            self.len += 1;
            if b == b'\n' {
                self.flush();
            }
        }
        Ok(())
    }
}

impl Drop for Console {
    fn drop(&mut self) {
        self.flush();
    }
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
