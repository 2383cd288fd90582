//! The tracer: an operation run in a forked child with the trap flag set, every instruction
//! address recorded by the SIGTRAP handler into memory shared with the parent; two children
//! (the two secrets of a pair) at once, each comparing its trace with the other's as far as
//! that one has got, so that both stop tracing soon after the traces part.
#![allow(unsafe_code)]

use std::io::Write as _;
use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicU64, AtomicUsize, Ordering};

use super::{Op, Pair};

/// The most instructions one traced operation may record (2^25).
pub const CAP: usize = 1 << 25;
/// The header words of [`Shared`]: the two counts, the index at which the traces were seen to
/// part (`u64::MAX` while not), and whether a side reached the limit.
const HEAD: usize = 4;
/// The size of [`Shared`] in words: the header and two buffers of CAP addresses.
const WORDS: usize = HEAD + 2 * CAP;

/// The most instructions compared per pair (`--limit`; at most CAP).
pub static LIMIT: AtomicUsize = AtomicUsize::new(CAP);
/// Whether a side stops tracing once the traces are seen to part (off for `--resync`, which
/// compares past known partings).
pub static EARLY_STOP: AtomicBool = AtomicBool::new(true);

/// This process's side (0 or 1) and the shared mapping, for [`on_trap`] (set in the child).
static SIDE: AtomicUsize = AtomicUsize::new(0);
static MAP: AtomicPtr<u64> = AtomicPtr::new(core::ptr::null_mut());
/// The stack pointer at the first trap of this process (0 until then).
static BASE: AtomicU64 = AtomicU64::new(0);

/// The bits of a recorded word that hold the instruction address (user space: below 2^47);
/// the bits above hold the stack depth, (first rsp - rsp) / 8 modulo 2^17, so that two
/// traces are equal only where both run the same code at the same depth of calls.
pub const ADDRESS: u64 = (1 << 47) - 1;

/// The trap flag of RFLAGS: the CPU raises a debug exception (SIGTRAP) after every
/// instruction while it is set.
const TF: i64 = 0x100;

/// Word `i` of the shared mapping at `map` as an atomic.
///
/// # Safety
/// `map` must be a live [`Shared`] mapping and `i < WORDS`.
unsafe fn word<'a>(map: *mut u64, i: usize) -> &'a AtomicU64 {
    // SAFETY: in bounds by the caller's contract; the mapping is 8-byte aligned (page aligned)
    // and only ever accessed atomically while both children run.
    unsafe { AtomicU64::from_ptr(map.add(i)) }
}

/// The SIGTRAP handler: records the address of the next instruction (with the stack depth,
/// [`ADDRESS`]) in this side's buffer and
/// compares it with the other side's, where that one has got as far; once the traces are seen
/// to part (or the buffer is full) it clears the trap flag, and the operation runs on untraced.
extern "C" fn on_trap(_: libc::c_int, _: *mut libc::siginfo_t, ctx: *mut libc::c_void) {
    // SAFETY: the kernel passes the interrupted context as the third argument of an
    // SA_SIGINFO handler; it is a live ucontext_t for the duration of the handler.
    let uc = unsafe { &mut *ctx.cast::<libc::ucontext_t>() };
    let regs = &mut uc.uc_mcontext.gregs;
    let rsp = regs[libc::REG_RSP as usize] as u64;
    let base = match BASE.load(Ordering::Relaxed) {
        0 => {
            BASE.store(rsp, Ordering::Relaxed);
            rsp
        }
        b => b,
    };
    let depth = (base.wrapping_sub(rsp) >> 3) & 0x1_ffff;
    let rip = (regs[libc::REG_RIP as usize] as u64 & ADDRESS) | depth << 47;
    let (me, map) = (SIDE.load(Ordering::Relaxed), MAP.load(Ordering::Relaxed));
    let other = 1 - me;
    // SAFETY: `map` is the live shared mapping (set before the trap flag); every index is
    // below WORDS (n < CAP).
    let stop = unsafe {
        let n = word(map, me).load(Ordering::Relaxed) as usize;
        if n >= LIMIT.load(Ordering::Relaxed) {
            word(map, 3).store(1, Ordering::Relaxed);
            true
        } else {
            word(map, HEAD + me * CAP + n).store(rip, Ordering::Relaxed);
            word(map, me).store(n as u64 + 1, Ordering::Release);
            let parted = word(map, 2);
            if EARLY_STOP.load(Ordering::Relaxed)
                && word(map, other).load(Ordering::Acquire) > n as u64
                && word(map, HEAD + other * CAP + n).load(Ordering::Relaxed) != rip
            {
                parted.fetch_min(n as u64, Ordering::AcqRel);
            }
            parted.load(Ordering::Acquire) <= n as u64
        }
    };
    if stop {
        regs[libc::REG_EFL as usize] &= !TF;
    }
}

/// A shared anonymous mapping of [`WORDS`] words, written by the two forked children.
pub struct Shared(*mut u64);

impl Shared {
    pub fn new() -> Result<Self, String> {
        // SAFETY: a fresh anonymous shared mapping; no existing memory is touched.
        let p = unsafe {
            libc::mmap(
                core::ptr::null_mut(),
                WORDS * 8,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_SHARED | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
                -1,
                0,
            )
        };
        if p == libc::MAP_FAILED {
            return Err(format!("mmap: {}", std::io::Error::last_os_error()));
        }
        Ok(Self(p.cast()))
    }

    /// Resets the header before a pair is traced.
    fn reset(&self) {
        // SAFETY: header words of the live mapping; no child runs.
        unsafe {
            word(self.0, 0).store(0, Ordering::Relaxed);
            word(self.0, 1).store(0, Ordering::Relaxed);
            word(self.0, 2).store(u64::MAX, Ordering::Relaxed);
            word(self.0, 3).store(0, Ordering::Relaxed);
        }
    }

    /// The addresses side `side` recorded.
    pub fn trace(&self, side: usize) -> &[u64] {
        // SAFETY: the header of the live mapping; both children have exited.
        let n = unsafe { word(self.0, side).load(Ordering::Acquire) as usize };
        // SAFETY: n <= CAP words of this side's buffer were written by the exited child.
        unsafe { core::slice::from_raw_parts(self.0.add(HEAD + side * CAP), n.min(CAP)) }
    }

    /// Whether a side stopped at the limit.
    pub fn limited(&self) -> bool {
        // SAFETY: the header of the live mapping; both children have exited.
        unsafe { word(self.0, 3).load(Ordering::Acquire) != 0 }
    }
}

impl Drop for Shared {
    fn drop(&mut self) {
        // SAFETY: unmaps the mapping `new` made, not used after this.
        unsafe { libc::munmap(self.0.cast(), WORDS * 8) };
    }
}

/// Runs `op` in a forked child with the trap flag set, recording as side `side` of `map`;
/// returns the child's pid.
fn start(op: &Op, map: &Shared, side: usize) -> Result<libc::pid_t, String> {
    std::io::stdout().flush().ok();
    // SAFETY: this process is single-threaded (the harness starts no thread), so the child may
    // run arbitrary code after fork; it leaves with `_exit` (no atexit handlers, no flush of
    // the parent's buffers).
    let pid = unsafe { libc::fork() };
    if pid < 0 {
        return Err(format!("fork: {}", std::io::Error::last_os_error()));
    }
    if pid != 0 {
        return Ok(pid);
    }
    SIDE.store(side, Ordering::Relaxed);
    BASE.store(0, Ordering::Relaxed);
    MAP.store(map.0, Ordering::Relaxed);
    // SAFETY: installs `on_trap` (an SA_SIGINFO handler of the right signature) for SIGTRAP in
    // this child; `sa` is a zeroed, then filled, sigaction.
    let ok = unsafe {
        let mut sa: libc::sigaction = core::mem::zeroed();
        sa.sa_sigaction = on_trap as *const () as usize;
        sa.sa_flags = libc::SA_SIGINFO;
        libc::sigemptyset(&mut sa.sa_mask);
        libc::sigaction(libc::SIGTRAP, &sa, core::ptr::null_mut()) == 0
    };
    if !ok {
        // SAFETY: ends the child at once.
        unsafe { libc::_exit(3) }
    }
    // SAFETY: sets and, after `op`, clears the trap flag through the stack (pushfq / popfq:
    // no other register or memory of ours changes); between them every instruction raises
    // SIGTRAP, which `on_trap` handles and returns from.
    unsafe { core::arch::asm!("pushfq", "or qword ptr [rsp], 0x100", "popfq") };
    // A panic must not unwind into the parent's code (this is a forked copy of it).
    let ok = std::panic::catch_unwind(std::panic::AssertUnwindSafe(op)).is_ok();
    // SAFETY: as above; then the child ends at once.
    unsafe {
        core::arch::asm!("pushfq", "and qword ptr [rsp], -0x101", "popfq");
        libc::_exit(if ok { 0 } else { 101 })
    }
}

/// Waits for child `pid` and checks that it exited with status 0.
fn reap(pid: libc::pid_t) -> Result<(), String> {
    let mut status = 0;
    // SAFETY: waits for our own child; `status` is a live i32.
    if unsafe { libc::waitpid(pid, &mut status, 0) } != pid {
        return Err(format!("waitpid: {}", std::io::Error::last_os_error()));
    }
    if libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0 {
        Ok(())
    } else {
        Err(format!(
            "the traced operation failed (wait status {status:#x})"
        ))
    }
}

/// Runs both operations of `pair` (in two children at once), recording their traces in `map`
/// ([`Shared::trace`]).
pub fn run_pair(pair: &Pair, map: &Shared) -> Result<(), String> {
    map.reset();
    let a = start(&pair.ops[0], map, 0)?;
    let b = start(&pair.ops[1], map, 1);
    let ra = reap(a);
    reap(b?)?;
    ra
}
