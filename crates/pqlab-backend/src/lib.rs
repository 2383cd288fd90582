//! The back ends of pqlab's arithmetic and Keccak kernels, and which one runs.
//!
//! Every scheme of pqlab is written once, generic over a per-scheme trait of vector kernels
//! (NTT, reductions, sampling, rounding, packing), with three implementations in twin files:
//! [`Backend::Portable`] (plain Rust, every target), [`Backend::Avx2`] and [`Backend::Avx512`]
//! (x86-64). This crate decides which one a public call uses:
//!
//! * [`selected`]: the back end of the next public call, chosen **once per call**. It is the
//!   back end forced with [`force`] if any, else the one named by the environment variable
//!   `PQLAB_BACKEND` (`portable`, `avx2` or `avx512`, read once), else the best one the CPU has
//!   ([`best_available`]). The answer is cached in an atomic: one relaxed load per call.
//! * [`Backend::is_available`]: whether this CPU (and OS) can run a back end; detection runs
//!   once and is cached.
//!
//! Without the `std` feature (the `no_std` builds, e.g. thumbv7em for the Cortex-M4) nothing is
//! detected and only the portable back end exists. The choice of back end is public
//! information; it never depends on a secret.
#![no_std]

#[cfg(feature = "std")]
extern crate std;

use core::fmt;
#[cfg(feature = "std")]
use core::sync::atomic::{AtomicU8, Ordering};

/// One implementation of the vector kernels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Backend {
    /// Plain Rust, for every target (and the reference the others are tested against).
    Portable = 0,
    /// x86-64 AVX2 (with BMI1, BMI2, LZCNT and POPCNT): 256-bit vectors, 4-way Keccak.
    Avx2 = 1,
    /// x86-64 AVX-512 (F, BW, VL, DQ and CD): 512-bit vectors, 8-way Keccak.
    Avx512 = 2,
}

impl Backend {
    /// Every back end, portable first.
    pub const ALL: [Backend; 3] = [Backend::Portable, Backend::Avx2, Backend::Avx512];

    /// The name used by `PQLAB_BACKEND`, `pqlab compare --backend` and the reports.
    pub const fn name(self) -> &'static str {
        match self {
            Backend::Portable => "portable",
            Backend::Avx2 => "avx2",
            Backend::Avx512 => "avx512",
        }
    }

    /// The back end of a name (as [`Backend::name`] writes it, ASCII case ignored).
    pub fn from_name(name: &str) -> Option<Backend> {
        Backend::ALL
            .into_iter()
            .find(|b| b.name().eq_ignore_ascii_case(name.trim()))
    }

    /// Whether this machine can run the back end (CPU features, detected once and cached).
    pub fn is_available(self) -> bool {
        available_mask() & (1 << self as u8) != 0
    }

    #[cfg(feature = "std")]
    const fn from_u8(v: u8) -> Backend {
        match v {
            1 => Backend::Avx2,
            2 => Backend::Avx512,
            _ => Backend::Portable,
        }
    }
}

impl fmt::Display for Backend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why a back end cannot be selected.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BackendError {
    /// The name is none of `portable`, `avx2`, `avx512`.
    UnknownName,
    /// This CPU (or this build: no `std`, not x86-64) cannot run the back end.
    Unavailable(Backend),
}

impl fmt::Display for BackendError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BackendError::UnknownName => {
                f.write_str("unknown back end (expected portable, avx2 or avx512)")
            }
            BackendError::Unavailable(b) => {
                write!(f, "the {b} back end is not available on this machine")
            }
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for BackendError {}

/// Bit i set: back end i available. 0: not detected yet (portable is always available).
/// Only with `std`: a `no_std` build has no state at all (no `.data` or `.bss`, which bare-metal
/// firmware without a runtime cannot initialise).
#[cfg(feature = "std")]
static AVAILABLE: AtomicU8 = AtomicU8::new(0);
/// The selected back end, or [`UNSET`].
#[cfg(feature = "std")]
static SELECTED: AtomicU8 = AtomicU8::new(UNSET);
#[cfg(feature = "std")]
const UNSET: u8 = 0xff;

/// Without `std`: only the portable back end.
#[cfg(not(feature = "std"))]
fn available_mask() -> u8 {
    1
}

#[cfg(feature = "std")]
fn available_mask() -> u8 {
    let m = AVAILABLE.load(Ordering::Relaxed);
    if m != 0 {
        return m;
    }
    let m = detect();
    AVAILABLE.store(m, Ordering::Relaxed);
    m
}

#[cfg(all(feature = "std", target_arch = "x86_64"))]
fn detect() -> u8 {
    let mut m = 1;
    if std::is_x86_feature_detected!("avx2")
        && std::is_x86_feature_detected!("bmi1")
        && std::is_x86_feature_detected!("bmi2")
        && std::is_x86_feature_detected!("lzcnt")
        && std::is_x86_feature_detected!("popcnt")
    {
        m |= 1 << Backend::Avx2 as u8;
        if std::is_x86_feature_detected!("avx512f")
            && std::is_x86_feature_detected!("avx512bw")
            && std::is_x86_feature_detected!("avx512vl")
            && std::is_x86_feature_detected!("avx512dq")
            && std::is_x86_feature_detected!("avx512cd")
        {
            m |= 1 << Backend::Avx512 as u8;
        }
    }
    m
}

#[cfg(all(feature = "std", not(target_arch = "x86_64")))]
fn detect() -> u8 {
    1
}

/// Whether the CPU has AVX-512 VBMI2 (`vpcompressw` / `vpexpandw` on 16-bit lanes), which a
/// few kernels of the [`Backend::Avx512`] back end use when it is there (with a twin without it
/// for AVX-512 cores that lack it, such as Skylake-SP). Detected by `std` once and cached
/// there; `false` without `std` or off x86-64. Public information, like the back end.
#[inline]
pub fn has_avx512_vbmi2() -> bool {
    #[cfg(all(feature = "std", target_arch = "x86_64"))]
    {
        std::is_x86_feature_detected!("avx512vbmi2")
    }
    #[cfg(not(all(feature = "std", target_arch = "x86_64")))]
    {
        false
    }
}

/// The back ends this machine can run, portable first.
pub fn available() -> impl Iterator<Item = Backend> {
    Backend::ALL.into_iter().filter(|b| b.is_available())
}

/// The fastest back end this machine can run.
pub fn best_available() -> Backend {
    available().last().unwrap_or(Backend::Portable)
}

/// The back end named by `PQLAB_BACKEND`, if the variable is set (and not empty).
#[cfg(feature = "std")]
pub fn from_env() -> Result<Option<Backend>, BackendError> {
    match std::env::var("PQLAB_BACKEND") {
        Ok(v) if !v.trim().is_empty() => {
            let b = Backend::from_name(&v).ok_or(BackendError::UnknownName)?;
            if b.is_available() {
                Ok(Some(b))
            } else {
                Err(BackendError::Unavailable(b))
            }
        }
        _ => Ok(None),
    }
}

/// Without `std` there is no environment: never set.
#[cfg(not(feature = "std"))]
pub fn from_env() -> Result<Option<Backend>, BackendError> {
    Ok(None)
}

/// The back end of the next public call: the one forced with [`force`], else `PQLAB_BACKEND`
/// (an unknown or unavailable name is ignored here; [`from_env`] reports it), else
/// [`best_available`]. Cached: one atomic load. The first call of a process reads the
/// environment (which allocates when `PQLAB_BACKEND` is set); every later call is a load.
#[cfg(feature = "std")]
#[inline]
pub fn selected() -> Backend {
    let v = SELECTED.load(Ordering::Relaxed);
    if v != UNSET {
        return Backend::from_u8(v);
    }
    let b = match from_env() {
        Ok(Some(b)) => b,
        _ => best_available(),
    };
    SELECTED.store(b as u8, Ordering::Relaxed);
    b
}

/// Without `std`: always the portable back end (nothing is detected or stored).
#[cfg(not(feature = "std"))]
#[inline]
pub fn selected() -> Backend {
    Backend::Portable
}

/// Forces the back end of every later public call, process-wide (`None`: back to the
/// automatic choice of [`selected`]). For tests and benchmarks; results never depend on the
/// back end, only speed does. Without `std` only the portable back end can be forced (it is
/// the only one).
#[cfg(feature = "std")]
pub fn force(backend: Option<Backend>) -> Result<(), BackendError> {
    match backend {
        Some(b) if !b.is_available() => Err(BackendError::Unavailable(b)),
        Some(b) => {
            SELECTED.store(b as u8, Ordering::Relaxed);
            Ok(())
        }
        None => {
            SELECTED.store(UNSET, Ordering::Relaxed);
            Ok(())
        }
    }
}

/// [`force`] without `std`: accepts the portable back end (or `None`), which is always the one.
#[cfg(not(feature = "std"))]
pub fn force(backend: Option<Backend>) -> Result<(), BackendError> {
    match backend {
        Some(b) if !b.is_available() => Err(BackendError::Unavailable(b)),
        _ => Ok(()),
    }
}

/// [`with_forced`] without `std`: runs `f` if `backend` is the portable one.
#[cfg(not(feature = "std"))]
pub fn with_forced<R>(backend: Backend, f: impl FnOnce() -> R) -> Result<R, BackendError> {
    force(Some(backend))?;
    Ok(f())
}

/// Runs `f` with `backend` forced, then restores the previous choice (also when `f` returns
/// early with an error). Process-wide, like [`force`].
#[cfg(feature = "std")]
pub fn with_forced<R>(backend: Backend, f: impl FnOnce() -> R) -> Result<R, BackendError> {
    let before = SELECTED.load(Ordering::Relaxed);
    force(Some(backend))?;
    let r = f();
    SELECTED.store(before, Ordering::Relaxed);
    Ok(r)
}

/// Runs `$body` with the type `$B` naming the kernels of one back end: those of the back end
/// selected for this call ([`selected`], read once), or of a given one (`on backend, ...`, a
/// back end chosen earlier by [`selected`], e.g. the one a precomputed key was made with).
/// `kernels: [P, A2, A5]` names the scheme's portable, AVX2 and AVX-512 kernel types; the two
/// x86 arms exist only on x86-64 (elsewhere every back end runs the portable kernels, and
/// [`selected`] only ever answers [`Backend::Portable`] there).
///
/// The one dispatch rule of every scheme; each scheme wraps it in a local `dispatch!` that
/// supplies its kernel types.
#[macro_export]
macro_rules! dispatch {
    (kernels: [$p:ty, $a2:ty, $a5:ty], $B:ident => $body:expr) => {
        $crate::dispatch!(kernels: [$p, $a2, $a5], on $crate::selected(), $B => $body)
    };
    (kernels: [$p:ty, $a2:ty, $a5:ty], on $backend:expr, $B:ident => $body:expr) => {{
        match $backend {
            #[cfg(target_arch = "x86_64")]
            $crate::Backend::Avx512 => {
                type $B = $a5;
                $body
            }
            #[cfg(target_arch = "x86_64")]
            $crate::Backend::Avx2 => {
                type $B = $a2;
                $body
            }
            _ => {
                type $B = $p;
                $body
            }
        }
    }};
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for b in Backend::ALL {
            assert_eq!(Backend::from_name(b.name()), Some(b));
        }
        assert_eq!(Backend::from_name(" AVX2 "), Some(Backend::Avx2));
        assert_eq!(Backend::from_name("sse2"), None);
    }

    #[test]
    fn portable_is_always_available_and_forcing_works() {
        assert!(Backend::Portable.is_available());
        assert!(best_available().is_available());
        force(Some(Backend::Portable)).unwrap();
        assert_eq!(selected(), Backend::Portable);
        let inner = with_forced(best_available(), selected).unwrap();
        assert_eq!(inner, best_available());
        assert_eq!(selected(), Backend::Portable);
        force(None).unwrap();
        assert!(selected().is_available());
        for b in Backend::ALL {
            if !b.is_available() {
                assert_eq!(force(Some(b)), Err(BackendError::Unavailable(b)));
            }
        }
    }
}
