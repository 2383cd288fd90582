//! The instruments: an instruction counter and the painted stack.
//!
//! Instructions: QEMU runs with `-icount shift=0`, so its virtual clock advances exactly one
//! nanosecond per executed instruction; TIM2 of QEMU's STM32F405 model is a 32-bit counter
//! clocked from that virtual clock at 1 GHz (prescaler 0), so the difference of two reads of
//! TIM2_CNT is the number of instructions executed between them. The fixed cost of the two
//! reads themselves is measured at start (an empty call) and subtracted; [`calibrate`] checks
//! the method against a loop of known length. (QEMU 7.2 models neither the DWT cycle counter
//! nor real cycle timing: these are instructions, not cycles.)
//!
//! Stack: before each measured call, the free process stack below the caller's frame is
//! painted with a pattern; after it, the deepest overwritten word gives the call's peak
//! (`rt::paint`, `rt::used`).

use core::hint::black_box;

const TIM2: usize = 0x4000_0000;
const CR1: usize = 0x00;
const EGR: usize = 0x14;
const CNT: usize = 0x24;
const PSC: usize = 0x28;
const ARR: usize = 0x2C;

fn tim2(reg: usize) -> *mut u32 {
    (TIM2 + reg) as *mut u32
}

/// Starts TIM2 counting up from 0 at the full timer clock, over the whole 32-bit range.
pub fn start_counter() {
    // SAFETY: TIM2's registers (STM32F405 reference manual, section 18.4), word-aligned.
    unsafe {
        // RCC_APB1ENR.TIM2EN (real hardware needs it; QEMU ignores it).
        let apb1enr = 0x4002_3840 as *mut u32;
        apb1enr.write_volatile(apb1enr.read_volatile() | 1);
        tim2(PSC).write_volatile(0);
        tim2(ARR).write_volatile(u32::MAX);
        tim2(EGR).write_volatile(1);
        tim2(CR1).write_volatile(1);
    }
}

/// TIM2_CNT: instructions executed (modulo 2^32) under `-icount shift=0`.
#[inline(always)]
fn count() -> u32 {
    core::sync::atomic::compiler_fence(core::sync::atomic::Ordering::SeqCst);
    // SAFETY: TIM2_CNT, a word-aligned device register; reading has no side effect.
    let c = unsafe { tim2(CNT).read_volatile() };
    core::sync::atomic::compiler_fence(core::sync::atomic::Ordering::SeqCst);
    c
}

/// One measurement: instructions and peak stack of a call, and for ML-DSA signing and every key
/// generation what the call made (set by the scheme after the measured call).
#[derive(Clone, Copy)]
pub struct Measured {
    /// Instructions executed by the call (the reads' own cost subtracted).
    pub instructions: u32,
    /// Peak stack of the call, bytes.
    pub stack: usize,
    /// Iterations of ML-DSA's rejection loop, where the implementation counts them (pqlab).
    pub loops: Option<u32>,
    /// The [`digest`] of the signature made (ML-DSA signing), for the host to check that the
    /// implementations made the same signatures.
    pub sig: Option<u64>,
    /// The [`digest`] of the encoded public key made (key generation), for the host to check
    /// that the implementations made the same key pair from the same seed.
    pub pk: Option<u64>,
}

impl Measured {
    /// The measurement with the signature made (its [`digest`]) and, if known, the loop count.
    #[cfg_attr(
        not(any(feature = "ml-dsa-44", feature = "ml-dsa-65", feature = "ml-dsa-87")),
        allow(dead_code)
    )]
    pub fn signed(self, sig: &[u8], loops: Option<u32>) -> Measured {
        Measured {
            loops,
            sig: Some(digest(sig)),
            ..self
        }
    }

    /// The measurement with the encoded public key made (its [`digest`]).
    #[cfg_attr(any(feature = "baseline", feature = "reductions"), allow(dead_code))]
    pub fn made_key(self, pk: &[u8]) -> Measured {
        Measured {
            pk: Some(digest(pk)),
            ..self
        }
    }
}

/// FNV-1a, 64 bits: a digest of a signature or public key for comparing implementations (not
/// cryptographic: it tells apart the outputs of two honest implementations, nothing more).
/// Outside the measured call.
#[cfg_attr(any(feature = "baseline", feature = "reductions"), allow(dead_code))]
pub fn digest(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xCBF2_9CE4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01B3)
    })
}

/// The cost of the two counter reads around an empty call, set by [`calibrate`].
static mut OVERHEAD: u32 = 0;

/// Calls `f`: a frame of its own below the painted window's top, so that whatever of `f` the
/// compiler inlines here is counted as the call's stack.
#[inline(never)]
fn call<R>(f: impl FnOnce() -> R) -> R {
    f()
}

/// Runs `f` once and measures it; returns the measurement and `f`'s result.
#[inline(never)]
pub fn measure<R>(f: impl FnOnce() -> R) -> (Measured, R) {
    let top = crate::rt::paint();
    let t0 = count();
    let r = black_box(call(f));
    let t1 = count();
    // SAFETY: single-threaded firmware; OVERHEAD is written only by `calibrate`, before.
    let overhead = unsafe { OVERHEAD };
    let m = Measured {
        instructions: t1.wrapping_sub(t0).wrapping_sub(overhead),
        stack: crate::rt::used(top),
        loops: None,
        sig: None,
        pk: None,
    };
    (m, r)
}

/// `n` iterations of a two-instruction loop (`subs`, `bne`): 2n instructions.
#[inline(never)]
fn known_loop(n: u32) {
    // SAFETY: register-only arithmetic and a local branch.
    unsafe {
        core::arch::asm!("2:", "subs {n}, #1", "bne 2b", n = inout(reg) n => _,
            options(nomem, nostack));
    }
}

/// Measures the counter reads' overhead (the median of 5 empty calls), then loops of known
/// length; returns (iterations, expected instructions, measured instructions) per loop. The
/// expected count is 2n for the loop plus the call's fixed cost (`bl`, `bx lr`, and the
/// argument move), which the difference of two loop lengths cancels.
pub fn calibrate() -> [(u32, u64, u64); 3] {
    let mut empty = [0u32; 5];
    for e in &mut empty {
        *e = measure(|| ()).0.instructions;
    }
    empty.sort_unstable();
    // SAFETY: single-threaded; see OVERHEAD.
    unsafe { OVERHEAD = empty[2] };
    let mut out = [(0, 0, 0); 3];
    for (o, n) in out.iter_mut().zip([1_000u32, 100_000, 10_000_000]) {
        let n = black_box(n);
        let (m, ()) = measure(|| known_loop(n));
        *o = (n, 2 * u64::from(n), u64::from(m.instructions));
    }
    out
}

/// splitmix64 (Steele, Lea and Flood, 2014): the deterministic generator of the inputs, seeded
/// per call; not a cryptographic generator (the lab measures, it protects nothing).
#[cfg_attr(feature = "baseline", allow(dead_code))]
#[derive(Clone)]
pub struct Rng(u64);

#[cfg_attr(feature = "baseline", allow(dead_code))]
impl Rng {
    /// The generator for call `call` of operation number `op`.
    pub fn new(op: u32, call: u32) -> Rng {
        Rng(0x9E37_79B9_7F4A_7C15 ^ (u64::from(op) << 32 | u64::from(call)))
    }

    /// The generator whose state starts at `seed` (PQClean's `randombytes` stream).
    #[cfg_attr(not(feature = "pqclean"), allow(dead_code))]
    pub const fn from_seed(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Fills `out` with the next bytes.
    #[cfg_attr(feature = "reductions", allow(dead_code))]
    pub fn fill(&mut self, out: &mut [u8]) {
        for chunk in out.chunks_mut(8) {
            let v = self.next_u64().to_le_bytes();
            chunk.copy_from_slice(&v[..chunk.len()]);
        }
    }

    /// The next `N` bytes (pqlab's inputs; PQClean's KEM images draw only through `fill`).
    #[cfg_attr(any(feature = "pqclean", feature = "reductions"), allow(dead_code))]
    pub fn bytes<const N: usize>(&mut self) -> [u8; N] {
        let mut b = [0u8; N];
        self.fill(&mut b);
        b
    }
}
