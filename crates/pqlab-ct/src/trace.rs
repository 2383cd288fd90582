//! The trace check: constant-time control flow shown by the instruction trace, for every back
//! end the CPU has, AVX-512 included (valgrind 3.19 cannot run AVX-512, so memcheck's tainting
//! cannot check that back end).
//!
//! Each case runs one operation twice, in two forked children under `ptrace` single-stepping,
//! with the same public inputs and different secrets, and records the address of every
//! instruction executed. A constant-time operation executes the same instructions in the same
//! order whatever its secrets, so the two traces must be equal. Where they differ, the site is
//! the last instruction both executed (the branch that went two ways); it is mapped to its
//! source line with `addr2line` (inlined frames included) and sorted like a memcheck error
//! ([`crate::findings::EXPECTED`]): a branch the standard makes public (an attempt's rejection,
//! a sampler's) ends the comparison there, with the instructions compared so far reported; any
//! other site is a new finding and fails the check.
//!
//! The pairs (secret inputs differ, public inputs equal):
//! * ML-KEM **Decaps**: dk with the same ek and H(ek), different s and z, on one ciphertext
//!   (valid for the first key, implicitly rejected by the second: the two paths must not
//!   differ); **Encaps** to one ek with two messages m; **KeyGen** from two seeds (compared up to
//!   SampleNTT's rejection on the public rho).
//! * ML-DSA **Sign** (plain and expanded key, the expansion traced too): keys with the same rho,
//!   K and tr and different s1, s2, t0, on one message with one rnd, so that y, w and c agree and
//!   only the secrets differ (compared up to the first attempt whose outcome differs);
//!   **KeyGen** from two seeds (up to ExpandA's rejection on rho).
//! * Falcon **Sign** (plain key; expanded key with the expansion, the ffLDL tree, traced): two
//!   keys, one message, one nonce and sampler seed (compared up to the first rejection of the
//!   sampler that differs). Key generation is not traced: NTRUSolve is an open finding.
//!
//! What it does not see: memory addresses (a table lookup at a secret index executes the same
//! instructions; memcheck sees those for the portable and AVX2 back ends) and operand-dependent
//! instruction timing (the instruction gate).
#![allow(unsafe_code)]

use std::hint::black_box;
use std::io::Write as _;
use std::process::{Command, ExitCode};
use std::sync::atomic::{AtomicPtr, AtomicU64, AtomicUsize, Ordering};

use crate::findings::{self, Frame, Kind};
use pqlab_falcon::{NONCE_LEN, SigningKey as FnSk};
use pqlab_mldsa::{ExpandedSigningKey, MlDsa44, MlDsa65, MlDsa87};
use pqlab_mldsa::{ParameterSet as DsaParams, SigningKey as DsaSk};
use pqlab_mlkem::ParameterSet as KemParams;
use pqlab_mlkem::{Ciphertext, DecapsulationKey, MlKem512, MlKem768, MlKem1024};

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

/// The most instructions one traced operation may record (2^25).
const CAP: usize = 1 << 25;
/// The header words of [`Shared`]: the two counts, the index at which the traces were seen to
/// part (`u64::MAX` while not), and whether a side reached the limit.
const HEAD: usize = 4;
/// The size of [`Shared`] in words: the header and two buffers of CAP addresses.
const WORDS: usize = HEAD + 2 * CAP;

/// The most instructions compared per pair (`--limit`; at most CAP).
static LIMIT: AtomicUsize = AtomicUsize::new(CAP);

/// This process's side (0 or 1) and the shared mapping, for [`on_trap`] (set in the child).
static SIDE: AtomicUsize = AtomicUsize::new(0);
static MAP: AtomicPtr<u64> = AtomicPtr::new(core::ptr::null_mut());

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

/// The SIGTRAP handler: records the address of the next instruction in this side's buffer and
/// compares it with the other side's, where that one has got as far; once the traces are seen
/// to part (or the buffer is full) it clears the trap flag, and the operation runs on untraced.
extern "C" fn on_trap(_: libc::c_int, _: *mut libc::siginfo_t, ctx: *mut libc::c_void) {
    // SAFETY: the kernel passes the interrupted context as the third argument of an
    // SA_SIGINFO handler; it is a live ucontext_t for the duration of the handler.
    let uc = unsafe { &mut *ctx.cast::<libc::ucontext_t>() };
    let regs = &mut uc.uc_mcontext.gregs;
    let rip = regs[libc::REG_RIP as usize] as u64;
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
            if word(map, other).load(Ordering::Acquire) > n as u64
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
struct Shared(*mut u64);

impl Shared {
    fn new() -> Result<Self, String> {
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
    fn trace(&self, side: usize) -> &[u64] {
        // SAFETY: the header of the live mapping; both children have exited.
        let n = unsafe { word(self.0, side).load(Ordering::Acquire) as usize };
        // SAFETY: n <= CAP words of this side's buffer were written by the exited child.
        unsafe { core::slice::from_raw_parts(self.0.add(HEAD + side * CAP), n.min(CAP)) }
    }

    /// Whether a side stopped at the limit.
    fn limited(&self) -> bool {
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

/// `quick`: the short run of CI (about 20 s of tracing): every ML-KEM-768 operation, ML-DSA-44
/// key generation and one signature, one Falcon-512 signature with the plain key.
const QUICK: &[&str] = &["selftest", "ml-kem-768", "ml-dsa-44:0,1", "falcon-512:0"];

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
    op();
    // SAFETY: as above; then the child ends at once.
    unsafe {
        core::arch::asm!("pushfq", "and qword ptr [rsp], -0x101", "popfq");
        libc::_exit(0)
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

/// How two traces compare.
enum Parting {
    /// Equal, of this many instructions.
    Never(usize),
    /// Equal for the first this many instructions, the limit.
    NotBefore(usize),
    /// Equal for this many instructions, then they part after the one at this address (the
    /// branch that went two ways).
    After(usize, u64),
}

/// Traces both operations of `pair` (in two children at once) and compares the traces.
fn trace_pair(pair: &Pair, map: &Shared) -> Result<Parting, String> {
    map.reset();
    let a = start(&pair.ops[0], map, 0)?;
    let b = start(&pair.ops[1], map, 1);
    let ra = reap(a);
    reap(b?)?;
    ra?;
    let (ta, tb) = (map.trace(0), map.trace(1));
    let limit = LIMIT.load(Ordering::Relaxed);
    match ta.iter().zip(tb).position(|(x, y)| x != y) {
        None if ta.len() == limit && tb.len() == limit && map.limited() => {
            Ok(Parting::NotBefore(limit))
        }
        None if ta.len() == tb.len() && !map.limited() => Ok(Parting::Never(ta.len())),
        None => Err("one operation exits while the other runs on".into()),
        Some(0) => Err("the traces differ at their first instruction".into()),
        Some(i) => Ok(Parting::After(i, ta[i - 1])),
    }
}

/// The load address of this executable (0 if it is not position-independent), to turn a
/// run-time address into the one `addr2line` reads.
fn load_bias(exe: &std::path::Path) -> Result<u64, String> {
    let elf = std::fs::read(exe).map_err(|e| format!("{}: {e}", exe.display()))?;
    // e_type at offset 16: 3 is ET_DYN (position-independent), 2 ET_EXEC.
    if elf.get(16..18) != Some(&[3, 0]) {
        return Ok(0);
    }
    let maps = std::fs::read_to_string("/proc/self/maps").map_err(|e| e.to_string())?;
    let exe = exe.to_string_lossy();
    maps.lines()
        .find(|l| l.ends_with(&*exe) && l.split_whitespace().nth(2) == Some("00000000"))
        .and_then(|l| l.split('-').next())
        .and_then(|a| u64::from_str_radix(a, 16).ok())
        .ok_or_else(|| "the executable's mapping is not in /proc/self/maps".into())
}

/// The source frames of the instruction at `addr`, innermost first (`addr2line -f -i -C`,
/// [`parse_addr2line`]). The running image is read through /proc, so that a rebuild of the
/// file on disk does not matter.
fn frames_at(addr: u64) -> Result<Vec<Frame>, String> {
    let out = Command::new("addr2line")
        .arg("-e")
        .arg(format!("/proc/{}/exe", std::process::id()))
        .args(["-f", "-i", "-C"])
        .arg(format!("{addr:#x}"))
        .output()
        .map_err(|e| format!("addr2line (binutils): {e}"))?;
    let frames = parse_addr2line(&String::from_utf8_lossy(&out.stdout));
    if frames.is_empty() {
        return Err(format!("addr2line found nothing at {addr:#x}"));
    }
    Ok(frames)
}

/// The frames of `addr2line -f -i` output (a function line, then a FILE:LINE line, per frame),
/// with files as memcheck prints them under `--fullpath-after=crates/`.
fn parse_addr2line(text: &str) -> Vec<Frame> {
    let lines: Vec<&str> = text.lines().collect();
    lines
        .chunks_exact(2)
        .map(|fl| {
            let loc = fl[1].split(" (discriminator").next().unwrap_or(fl[1]);
            let (file, line) = loc.rsplit_once(':').unwrap_or((loc, "0"));
            let file = file.split_once("crates/").map_or(file, |(_, f)| f);
            Frame {
                function: fl[0].to_string(),
                file: (file != "??").then(|| file.to_string()),
                line: line.parse().unwrap_or(0),
            }
        })
        .collect()
}

/// The outcome of one pair.
enum Outcome {
    /// The traces are equal, of this many instructions.
    Equal(usize),
    /// The traces are equal for the first this many instructions, the limit.
    Limited(usize),
    /// They part at a known site after this many equal instructions.
    Known(usize, &'static str, Kind, String),
    /// They part at a site no entry covers.
    New(usize, Vec<Frame>),
}

/// Traces both operations of `pair` and sorts where they part, if they do.
fn compare(bias: u64, pair: &Pair, map: &Shared) -> Result<Outcome, String> {
    let (at, branch) = match trace_pair(pair, map)? {
        Parting::Never(n) => return Ok(Outcome::Equal(n)),
        Parting::NotBefore(n) => return Ok(Outcome::Limited(n)),
        Parting::After(n, ip) => (n, ip),
    };
    let frames = frames_at(branch - bias)?;
    Ok(match findings::expected_at(&frames) {
        Some(x) => {
            let site = findings::site_of(&frames)
                .map(|f| format!("{}:{}", f.file.as_deref().unwrap_or("?"), f.line))
                .unwrap_or_default();
            Outcome::Known(at, x.id, x.kind, site)
        }
        None => Outcome::New(at, frames),
    })
}

/// `trace all|CASE...`: traces the named cases' pairs under the back end `PQLAB_BACKEND` picks
/// (or the best the CPU has); exit status 1 on a new finding, 2 on a failed run.
pub fn run(args: &[String]) -> ExitCode {
    let names = match args {
        [flag, n, rest @ ..] if flag == "--limit" => match n.parse::<usize>() {
            Ok(n) if (1..=CAP).contains(&n) && !rest.is_empty() => {
                LIMIT.store(n, Ordering::Relaxed);
                rest
            }
            _ => {
                println!("pqlab-ct: trace: --limit N (1 to {CAP}) and at least one case");
                return ExitCode::from(2);
            }
        },
        _ => args,
    };
    let backend = match pqlab_backend::from_env() {
        Ok(Some(b)) => b,
        Ok(None) => pqlab_backend::selected(),
        Err(e) => {
            println!("pqlab-ct: NOT CHECKED: {e}");
            return ExitCode::from(3);
        }
    };
    let exe = match std::env::current_exe() {
        Ok(p) => p,
        Err(e) => {
            println!("pqlab-ct: the executable's path: {e}");
            return ExitCode::from(2);
        }
    };
    let bias = match load_bias(&exe) {
        Ok(b) => b,
        Err(e) => {
            println!("pqlab-ct: {e}");
            return ExitCode::from(2);
        }
    };
    let map = match Shared::new() {
        Ok(m) => m,
        Err(e) => {
            println!("pqlab-ct: {e}");
            return ExitCode::from(2);
        }
    };
    let names: Vec<String> = names
        .iter()
        .flat_map(|n| match n.as_str() {
            "quick" => QUICK.iter().map(|q| q.to_string()).collect(),
            "all" => CASES.iter().map(|c| c.0.to_string()).collect(),
            _ => vec![n.clone()],
        })
        .collect();
    if let Some(n) = names.iter().find(|n| {
        let case = n.split_once(':').map_or(n.as_str(), |(c, _)| c);
        !CASES.iter().any(|c| c.0 == case)
    }) {
        let known: Vec<&str> = CASES.iter().map(|c| c.0).collect();
        println!(
            "pqlab-ct: trace: no case {n} (cases: {}, quick, all)",
            known.join(" ")
        );
        return ExitCode::from(2);
    }
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
            let what = &pair.what;
            let outcome = compare(bias, pair, &map);
            if *name == "selftest" {
                let ok = match (i, &outcome) {
                    (0, Ok(Outcome::Equal(n))) | (1, Ok(Outcome::New(n, _))) => *n > 0,
                    _ => false,
                };
                let verdict = if ok {
                    "as it must"
                } else {
                    "WRONG: the trace check is broken"
                };
                println!("pqlab-ct: trace {what}: {verdict}");
                selftest_ok &= ok;
                continue;
            }
            match outcome {
                Ok(Outcome::Equal(n)) => {
                    total += n;
                    println!("pqlab-ct: trace {what} ({backend}): {n} instructions, equal");
                }
                Ok(Outcome::Limited(n)) => {
                    total += n;
                    println!(
                        "pqlab-ct: trace {what} ({backend}): equal for the first {n} \
                         instructions (the limit)"
                    );
                }
                Ok(Outcome::Known(n, id, kind, site)) => {
                    total += n;
                    println!(
                        "pqlab-ct: trace {what} ({backend}): equal for {n} instructions, then \
                         part at {site} (known, {kind:?}: {id})"
                    );
                }
                Ok(Outcome::New(n, frames)) => {
                    new += 1;
                    println!(
                        "NEW FINDING: trace {what} ({backend}): the traces part after {n} \
                         equal instructions, at:"
                    );
                    for f in frames {
                        let file = f.file.as_deref().unwrap_or("?");
                        println!("      {} ({file}:{})", f.function, f.line);
                    }
                }
                Err(e) => {
                    failed += 1;
                    println!("pqlab-ct: trace {what} ({backend}): FAILED: {e}");
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_addr2line_and_finds_the_entry() {
        let text = "pqlab_mldsa::sign::sign_loop_with\n\
                    /work/main/crates/pqlab-mldsa/src/sign.rs:405 (discriminator 2)\n\
                    sign_loop<P, B>\n/work/main/crates/pqlab-mldsa/src/sign.rs:364\n";
        let frames = parse_addr2line(text);
        assert_eq!(frames.len(), 2);
        assert_eq!(frames[0].file.as_deref(), Some("pqlab-mldsa/src/sign.rs"));
        assert_eq!(frames[0].line, 405);
        let x = findings::expected_at(&frames).map(|x| x.id);
        assert_eq!(x, Some("mldsa-sign-rejection"));
        // Another line of the same function is not covered.
        let other = parse_addr2line(&text.replace(":405", ":406"));
        assert!(findings::expected_at(&other).is_none());
        assert!(parse_addr2line("??\n??:0\n")[0].file.is_none());
    }

    #[test]
    fn quick_names_existing_cases() {
        for q in QUICK {
            let case = q.split_once(':').map_or(*q, |(c, _)| c);
            assert!(CASES.iter().any(|c| c.0 == case), "{q}");
        }
    }
}
