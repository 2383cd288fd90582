//! Valgrind client requests (memcheck's `VALGRIND_MAKE_MEM_UNDEFINED` / `_DEFINED` and the core's
//! `RUNNING_ON_VALGRIND`), emitted with the documented magic instruction sequence of
//! `valgrind.h` for amd64. Outside valgrind the sequence is a no-op (four rotations of `rdi`
//! by 128 bits in all, and `xchg rbx, rbx`) and every request returns its default, 0.
//!
//! Memcheck tracks the definedness of every bit: a byte marked undefined ("secret") stays
//! undefined through arithmetic, and memcheck reports a conditional jump, a memory address or
//! a system call that depends on it. That is the ctgrind / TIMECOP method.
#![allow(unsafe_code)]

/// `VG_USERREQ_TOOL_BASE('M', 'C')`: memcheck's first request.
const MC_BASE: u64 = (b'M' as u64) << 24 | (b'C' as u64) << 16;
/// `VG_USERREQ__MAKE_MEM_UNDEFINED`.
const MAKE_MEM_UNDEFINED: u64 = MC_BASE + 1;
/// `VG_USERREQ__MAKE_MEM_DEFINED`.
const MAKE_MEM_DEFINED: u64 = MC_BASE + 2;
/// `VG_USERREQ__RUNNING_ON_VALGRIND`.
const RUNNING_ON_VALGRIND: u64 = 0x1001;
/// `VG_USERREQ__COUNT_ERRORS`.
const COUNT_ERRORS: u64 = 0x1201;

/// One client request with up to two arguments; `default` is the result outside valgrind.
#[cfg(target_arch = "x86_64")]
fn request(default: u64, req: u64, a1: u64, a2: u64) -> u64 {
    let args: [u64; 6] = [req, a1, a2, 0, 0, 0];
    let mut result = default;
    // SAFETY: the sequence is valgrind.h's __SPECIAL_INSTRUCTION_PREAMBLE and client-request
    // instruction for amd64: rotations of rdi that add up to 128 bits (rdi unchanged, declared
    // clobbered all the same) and `xchg rbx, rbx` (rbx unchanged). Under valgrind it reads the
    // six-word argument block at rax (a live local array) and writes the result to rdx; it
    // touches no other memory of ours beyond what a request names (memcheck only changes its
    // shadow state, never the bytes). Natively it changes nothing but the flags.
    unsafe {
        core::arch::asm!(
            "rol rdi, 3",
            "rol rdi, 13",
            "rol rdi, 61",
            "rol rdi, 51",
            "xchg rbx, rbx",
            in("rax") args.as_ptr(),
            inout("rdx") result,
            out("rdi") _,
            options(nostack),
        );
    }
    core::hint::black_box(&args);
    result
}

/// Elsewhere: no client requests (the suite is x86-64 only); every request returns its default.
#[cfg(not(target_arch = "x86_64"))]
fn request(default: u64, _req: u64, _a1: u64, _a2: u64) -> u64 {
    default
}

/// Whether this process runs under valgrind.
pub fn running_on_valgrind() -> bool {
    request(0, RUNNING_ON_VALGRIND, 0, 0) != 0
}

/// The number of errors valgrind has reported so far (0 outside valgrind).
pub fn error_count() -> u64 {
    request(0, COUNT_ERRORS, 0, 0)
}

/// Marks `bytes` secret: memcheck treats them as undefined from now on.
pub fn secret(bytes: &[u8]) {
    request(
        0,
        MAKE_MEM_UNDEFINED,
        bytes.as_ptr() as u64,
        bytes.len() as u64,
    );
}

/// Declassifies the bytes of `value` (see [`public`]).
pub fn public_val<T: ?Sized>(value: &T) {
    let addr = core::ptr::from_ref(value).cast::<u8>() as u64;
    request(0, MAKE_MEM_DEFINED, addr, size_of_val(value) as u64);
}

/// Declassifies `bytes` (makes them public): memcheck treats them as defined from now on. Call
/// only at the public points the harness documents.
pub fn public(bytes: &[u8]) {
    request(
        0,
        MAKE_MEM_DEFINED,
        bytes.as_ptr() as u64,
        bytes.len() as u64,
    );
}
