//! ML-KEM never touches the heap: a counting global allocator shows zero allocations (and zero
//! reallocations) during key generation (seed, RNG, OS randomness), key import and export in
//! every form, encapsulation (given m, RNG, OS randomness), decapsulation (valid and implicitly
//! rejected ciphertexts), every input-check failure and dropping, at all three parameter sets.
//!
//! Only allocations made by the current thread while a measurement is running are counted (a
//! thread-local flag), so the test harness's own allocations on other threads, and this file's
//! setup code, do not disturb the result.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
// A global allocator is an `unsafe impl`; this file holds the only unsafe code of the tests.
#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::convert::Infallible;
use std::hint::black_box;
use std::sync::atomic::{AtomicUsize, Ordering};

use pqlab_mlkem::{
    Ciphertext, DecapsulationKey, EncapsulationKey, Error, MlKem512, MlKem768, MlKem1024,
    ParameterSet,
};

// ---------------------------------------------------------------------------------------------
// Counting allocator
// ---------------------------------------------------------------------------------------------

/// Allocations (alloc, alloc_zeroed, realloc) made by measured sections, over all threads.
static TOTAL: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    /// Whether this thread is inside a measured section.
    static ACTIVE: Cell<bool> = const { Cell::new(false) };
    /// Allocations this thread made inside measured sections.
    static COUNT: Cell<usize> = const { Cell::new(0) };
}

struct Counting;

impl Counting {
    fn note() {
        // `try_with`: during thread teardown the thread-locals may be gone; then nothing is
        // being measured. Const-initialized `Cell` thread-locals never allocate.
        let active = ACTIVE.try_with(Cell::get).unwrap_or(false);
        if active {
            let _ = COUNT.try_with(|c| c.set(c.get() + 1));
            TOTAL.fetch_add(1, Ordering::Relaxed);
        }
    }
}

// SAFETY: every method forwards to `System` with the caller's arguments unchanged, so the
// `GlobalAlloc` contract holds exactly as it does for `System`; counting touches no memory that
// the allocator hands out.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        Self::note();
        // SAFETY: same contract as our caller's.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        Self::note();
        // SAFETY: same contract as our caller's.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        Self::note();
        // SAFETY: same contract as our caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as our caller's.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Runs `f` on this thread and returns its result with the number of heap allocations it made.
fn count_allocs<T>(f: impl FnOnce() -> T) -> (T, usize) {
    COUNT.with(|c| c.set(0));
    ACTIVE.with(|a| a.set(true));
    let out = black_box(f());
    ACTIVE.with(|a| a.set(false));
    (out, COUNT.with(Cell::get))
}

/// Runs `f`, asserts that it allocated nothing, and returns its result.
#[track_caller]
fn no_alloc<T>(what: &str, name: &str, f: impl FnOnce() -> T) -> T {
    let (out, n) = count_allocs(f);
    assert_eq!(n, 0, "{name}: {what} made {n} heap allocation(s)");
    out
}

// ---------------------------------------------------------------------------------------------
// A tiny deterministic RNG for rand_core 0.10 (splitmix64; a test fixture, not a CSPRNG)
// ---------------------------------------------------------------------------------------------

struct TestRng(u64);

impl TestRng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

impl rand_core::TryRng for TestRng {
    type Error = Infallible;

    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        Ok((self.next() >> 32) as u32)
    }

    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        Ok(self.next())
    }

    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Infallible> {
        for chunk in dst.chunks_mut(8) {
            let w = self.next().to_le_bytes();
            chunk.copy_from_slice(&w[..chunk.len()]);
        }
        Ok(())
    }
}

impl rand_core::TryCryptoRng for TestRng {}

/// An RNG that always fails, to check that the error path does not allocate either.
struct FailingRng;

#[derive(Debug)]
struct RngFailure;

impl core::fmt::Display for RngFailure {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("rng failure")
    }
}

impl core::error::Error for RngFailure {}

impl rand_core::TryRng for FailingRng {
    type Error = RngFailure;

    fn try_next_u32(&mut self) -> Result<u32, RngFailure> {
        Err(RngFailure)
    }

    fn try_next_u64(&mut self) -> Result<u64, RngFailure> {
        Err(RngFailure)
    }

    fn try_fill_bytes(&mut self, _dst: &mut [u8]) -> Result<(), RngFailure> {
        Err(RngFailure)
    }
}

impl rand_core::TryCryptoRng for FailingRng {}

// ---------------------------------------------------------------------------------------------
// The checks
// ---------------------------------------------------------------------------------------------

fn every_operation_is_heap_free<P: ParameterSet>() {
    let name = P::NAME;
    let mut rng = TestRng(0x0123_4567_89AB_CDEF ^ P::EK_LEN as u64);
    let mut seed = [0u8; 64];
    rand_core::TryRng::try_fill_bytes(&mut rng, &mut seed).unwrap();
    let (d, z): ([u8; 32], [u8; 32]) = (
        seed[..32].try_into().unwrap(),
        seed[32..].try_into().unwrap(),
    );
    let m = [0x42u8; 32];

    // Key generation (FIPS 203, Algorithms 16 and 19).
    let dk = no_alloc("DecapsulationKey::from_seed", name, || {
        DecapsulationKey::<P>::from_seed(&d, &z)
    });
    let _ = no_alloc("DecapsulationKey::from_seed_bytes", name, || {
        DecapsulationKey::<P>::from_seed_bytes(&seed).unwrap()
    });
    let _ = no_alloc("DecapsulationKey::generate_with_rng", name, || {
        DecapsulationKey::<P>::generate_with_rng(&mut rng).unwrap()
    });
    let r = no_alloc(
        "DecapsulationKey::generate_with_rng (failing rng)",
        name,
        || DecapsulationKey::<P>::generate_with_rng(&mut FailingRng).map(|_| ()),
    );
    assert_eq!(r, Err(Error::Randomness));
    #[cfg(feature = "getrandom")]
    let _ = no_alloc("DecapsulationKey::generate (OS randomness)", name, || {
        DecapsulationKey::<P>::generate().unwrap()
    });

    // Export and import, with the input checks of Sections 7.2 and 7.3.
    let ek = no_alloc("DecapsulationKey::encapsulation_key", name, || {
        dk.encapsulation_key().clone()
    });
    let ek_bytes = no_alloc("EncapsulationKey::to_bytes", name, || ek.to_bytes());
    let ek2 = no_alloc("EncapsulationKey::from_bytes", name, || {
        EncapsulationKey::<P>::from_bytes(ek_bytes.as_ref()).unwrap()
    });
    assert!(ek2 == ek);
    let r = no_alloc("EncapsulationKey::from_bytes (wrong length)", name, || {
        EncapsulationKey::<P>::from_bytes(&ek_bytes.as_ref()[1..]).map(|_| ())
    });
    assert!(matches!(r, Err(Error::InvalidLength { .. })));
    let mut unreduced = ek_bytes;
    unreduced.as_mut()[0] = 0xff;
    unreduced.as_mut()[1] |= 0x0f;
    let r = no_alloc("EncapsulationKey::from_bytes (modulus check)", name, || {
        EncapsulationKey::<P>::from_bytes(unreduced.as_ref()).map(|_| ())
    });
    assert_eq!(r, Err(Error::ModulusCheck));
    let dk_bytes = no_alloc("DecapsulationKey::to_expanded", name, || dk.to_expanded());
    let dk2 = no_alloc("DecapsulationKey::from_expanded", name, || {
        DecapsulationKey::<P>::from_expanded(dk_bytes.as_ref()).unwrap()
    });
    let r = no_alloc(
        "DecapsulationKey::from_expanded (wrong length)",
        name,
        || DecapsulationKey::<P>::from_expanded(&dk_bytes.as_ref()[1..]).map(|_| ()),
    );
    assert!(matches!(r, Err(Error::InvalidLength { .. })));
    let mut bad_hash = dk_bytes;
    bad_hash.as_mut()[P::DK_LEN - 40] ^= 1;
    let r = no_alloc("DecapsulationKey::from_expanded (hash check)", name, || {
        DecapsulationKey::<P>::from_expanded(bad_hash.as_ref()).map(|_| ())
    });
    assert_eq!(r, Err(Error::HashCheck));
    let r = no_alloc(
        "DecapsulationKey::from_seed_bytes (wrong length)",
        name,
        || DecapsulationKey::<P>::from_seed_bytes(&seed[1..]).map(|_| ()),
    );
    assert!(matches!(r, Err(Error::InvalidLength { .. })));
    let _ = no_alloc("DecapsulationKey::seed", name, || dk.seed().copied());
    let _ = no_alloc("DecapsulationKey::clone", name, || dk2.clone());

    // Encapsulation (Algorithms 17 and 20) and decapsulation (Algorithms 18 and 21).
    let (c, k) = no_alloc("EncapsulationKey::encapsulate_deterministic", name, || {
        ek.encapsulate_deterministic(&m)
    });
    let k2 = no_alloc("DecapsulationKey::decapsulate", name, || dk.decapsulate(&c));
    assert!(k2 == k);
    let k3 = no_alloc("DecapsulationKey::decapsulate (expanded key)", name, || {
        dk2.decapsulate(&c)
    });
    assert!(k3 == k);
    let (c_rng, k_rng) = no_alloc("EncapsulationKey::encapsulate_with_rng", name, || {
        ek.encapsulate_with_rng(&mut rng).unwrap()
    });
    assert!(dk.decapsulate(&c_rng) == k_rng);
    let r = no_alloc(
        "EncapsulationKey::encapsulate_with_rng (failing rng)",
        name,
        || ek.encapsulate_with_rng(&mut FailingRng).map(|_| ()),
    );
    assert_eq!(r, Err(Error::Randomness));
    #[cfg(feature = "getrandom")]
    {
        let (c_os, k_os) = no_alloc(
            "EncapsulationKey::encapsulate (OS randomness)",
            name,
            || ek.encapsulate().unwrap(),
        );
        assert!(dk.decapsulate(&c_os) == k_os);
    }

    // Ciphertext encoding and implicit rejection.
    let c_bytes = no_alloc("Ciphertext::to_bytes", name, || c.to_bytes());
    let mut bad = c_bytes;
    bad.as_mut()[P::CT_LEN / 2] ^= 0x10;
    let bad = no_alloc("Ciphertext::from_bytes", name, || {
        Ciphertext::<P>::from_bytes(bad.as_ref()).unwrap()
    });
    let k_bar = no_alloc(
        "DecapsulationKey::decapsulate (implicit rejection)",
        name,
        || dk.decapsulate(&bad),
    );
    assert!(k_bar != k);
    let r = no_alloc("Ciphertext::from_bytes (wrong length)", name, || {
        Ciphertext::<P>::from_bytes(&c_bytes.as_ref()[1..]).map(|_| ())
    });
    assert!(matches!(r, Err(Error::InvalidLength { .. })));

    // Dropping (and so zeroizing) keys and secrets is heap-free.
    no_alloc("drop(SharedSecret)", name, || drop(k2));
    no_alloc("drop(DecapsulationKey)", name, || drop(dk2));
    no_alloc("drop(DecapsulationKey)", name, || drop(dk));
}

#[test]
fn allocator_counts_this_thread() {
    // The instrument works: a measured allocation is seen.
    let (v, n) = count_allocs(|| Vec::<u8>::with_capacity(100));
    drop(v);
    assert_eq!(n, 1);
    let ((), n) = count_allocs(|| ());
    assert_eq!(n, 0);
    assert!(TOTAL.load(Ordering::Relaxed) >= 1);
}

#[test]
fn ml_kem_512_is_heap_free() {
    every_operation_is_heap_free::<MlKem512>();
}

#[test]
fn ml_kem_768_is_heap_free() {
    every_operation_is_heap_free::<MlKem768>();
}

#[test]
fn ml_kem_1024_is_heap_free() {
    every_operation_is_heap_free::<MlKem1024>();
}
