//! Per-kernel time accounting for `pqlab compare --features profile`.
//!
//! The algorithm crates mark their kernels with one line at the top of each kernel function:
//!
//! ```
//! fn ntt(a: &mut [i32; 256]) {
//!     let _k = pqlab_profile::enter(pqlab_profile::Kernel::Ntt);
//!     // ...
//! }
//! ```
//!
//! Without the `on` feature, [`enter`] returns a zero-sized guard with an empty `Drop`: the
//! line compiles to nothing. With it, time-stamp-counter ticks are charged to the innermost
//! kernel that is running (self time: a SHAKE call inside rejection sampling counts as Keccak,
//! not twice), so that the shares of one operation add up to at most 100 %.
//!
//! The counters are global: the lab runs one measured operation at a time, on one thread.
//! Calls on other threads at the same time would mix into the same counters (never unsafely).
//! The hooks cost two TSC reads and a few atomic operations per kernel call, so a profile
//! build is slower than a normal one; its timings are for the shares, not for comparison.
//! The `on` feature needs 64-bit atomics and counts only on x86-64 (the time-stamp counter);
//! without it the crate is empty code on every target, microcontrollers included.
#![no_std]

/// The kernels the profile distinguishes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Kernel {
    /// Keccak-f\[1600\] (SHA-3, SHAKE and every XOF built on it).
    Keccak = 0,
    /// Forward number-theoretic transform.
    Ntt = 1,
    /// Inverse number-theoretic transform.
    InvNtt = 2,
    /// Sampling: rejection sampling from an XOF, centred binomial, SampleInBall, Falcon's
    /// discrete Gaussian SamplerZ.
    Sample = 3,
    /// Encoding and decoding of keys, signatures and ciphertexts (bit packing, compression).
    Encode = 4,
    /// Falcon's fast Fourier transform and its inverse.
    Fft = 5,
    /// Falcon's ffSampling (the tree traversal; its SamplerZ calls count as sampling).
    FfSampling = 6,
    /// Falcon's NTRUSolve (key generation).
    NtruSolve = 7,
}

/// The number of kernels.
pub const KERNELS: usize = 8;

impl Kernel {
    /// Every kernel, in report order.
    pub const ALL: [Kernel; KERNELS] = [
        Kernel::Keccak,
        Kernel::Ntt,
        Kernel::InvNtt,
        Kernel::Sample,
        Kernel::Encode,
        Kernel::Fft,
        Kernel::FfSampling,
        Kernel::NtruSolve,
    ];

    /// The name in reports.
    pub const fn name(self) -> &'static str {
        match self {
            Kernel::Keccak => "keccak",
            Kernel::Ntt => "ntt",
            Kernel::InvNtt => "intt",
            Kernel::Sample => "sampling",
            Kernel::Encode => "encoding",
            Kernel::Fft => "fft",
            Kernel::FfSampling => "ffsampling",
            Kernel::NtruSolve => "ntrusolve",
        }
    }
}

/// Whether this build counts (the `on` feature).
pub const ENABLED: bool = cfg!(feature = "on");

/// Marks a running kernel until dropped.
#[must_use = "the kernel ends when the guard is dropped"]
pub struct Guard {
    _private: (),
}

/// Starts charging time to `kernel`, until the returned guard is dropped.
#[inline(always)]
pub fn enter(kernel: Kernel) -> Guard {
    #[cfg(feature = "on")]
    imp::enter(kernel);
    #[cfg(not(feature = "on"))]
    let _ = kernel;
    Guard { _private: () }
}

impl Drop for Guard {
    #[inline(always)]
    fn drop(&mut self) {
        #[cfg(feature = "on")]
        imp::leave();
    }
}

/// Zeroes the counters.
pub fn reset() {
    #[cfg(feature = "on")]
    imp::reset();
}

/// The ticks charged to each kernel since the last [`reset`], in [`Kernel::ALL`] order (all
/// zero without the `on` feature or without a time-stamp counter).
pub fn ticks() -> [u64; KERNELS] {
    #[cfg(feature = "on")]
    {
        imp::ticks()
    }
    #[cfg(not(feature = "on"))]
    {
        [0; KERNELS]
    }
}

/// The time-stamp counter (0 where there is none).
#[inline(always)]
pub fn now() -> u64 {
    #[cfg(target_arch = "x86_64")]
    {
        // SAFETY: `rdtsc` exists on every x86-64 processor and touches no memory.
        #[allow(unsafe_code, unused_unsafe)]
        unsafe {
            core::arch::x86_64::_rdtsc()
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        0
    }
}

#[cfg(feature = "on")]
mod imp {
    use core::sync::atomic::{AtomicU8, AtomicU64, AtomicUsize, Ordering::Relaxed};

    use super::{KERNELS, now};

    /// Deepest nesting of kernels tracked; deeper calls are charged to the one at the limit.
    const DEPTH: usize = 32;

    static TICKS: [AtomicU64; KERNELS] = [const { AtomicU64::new(0) }; KERNELS];
    static STACK: [AtomicU8; DEPTH] = [const { AtomicU8::new(0) }; DEPTH];
    static DEPTH_NOW: AtomicUsize = AtomicUsize::new(0);
    static LAST: AtomicU64 = AtomicU64::new(0);

    /// Charges the ticks since the last transition to the innermost running kernel.
    fn charge(t: u64) {
        let d = DEPTH_NOW.load(Relaxed);
        if d > 0 {
            let top = usize::from(STACK[(d - 1).min(DEPTH - 1)].load(Relaxed));
            let dt = t.wrapping_sub(LAST.load(Relaxed));
            TICKS[top % KERNELS].fetch_add(dt, Relaxed);
        }
        LAST.store(t, Relaxed);
    }

    pub(super) fn enter(k: super::Kernel) {
        charge(now());
        let d = DEPTH_NOW.load(Relaxed);
        STACK[d.min(DEPTH - 1)].store(k as u8, Relaxed);
        DEPTH_NOW.store(d + 1, Relaxed);
    }

    pub(super) fn leave() {
        charge(now());
        let d = DEPTH_NOW.load(Relaxed);
        DEPTH_NOW.store(d.saturating_sub(1), Relaxed);
    }

    pub(super) fn reset() {
        for t in &TICKS {
            t.store(0, Relaxed);
        }
    }

    pub(super) fn ticks() -> [u64; KERNELS] {
        core::array::from_fn(|i| TICKS[i].load(Relaxed))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nested_kernels_are_charged_self_time() {
        reset();
        {
            let _a = enter(Kernel::Sample);
            let mut x = 0u64;
            for i in 0..10_000u64 {
                x = x.wrapping_add(core::hint::black_box(i));
            }
            let _b = enter(Kernel::Keccak);
            core::hint::black_box(x);
        }
        let t = ticks();
        if ENABLED && cfg!(target_arch = "x86_64") {
            assert!(t[Kernel::Sample as usize] > 0);
        } else {
            assert_eq!(t, [0; KERNELS]);
        }
    }
}
