//! ML-DSA never touches the heap: a counting global allocator shows zero allocations (and zero
//! reallocations) during key generation, import, export, every signing variant and every
//! verification variant, at all three parameter sets.
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

use pqlab_mldsa::{
    Error, HashAlg, MAX_CONTEXT_LEN, MlDsa44, MlDsa65, MlDsa87, ParameterSet, Signature,
    SigningKey, VerifyingKey,
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
    let mut rng = TestRng(0x0123_4567_89AB_CDEF ^ P::PK_LEN as u64);
    let mut seed = [0u8; 32];
    rand_core::TryRng::try_fill_bytes(&mut rng, &mut seed).unwrap();
    let msg: Vec<u8> = (0..1000u32).map(|i| (i * 31 + 7) as u8).collect();
    let ctx: Vec<u8> = (0..MAX_CONTEXT_LEN as u32)
        .map(|i| (i ^ 0x5A) as u8)
        .collect();
    let rnd = [0x42u8; 32];
    let long_ctx = [0u8; MAX_CONTEXT_LEN + 1];

    // Key generation.
    let sk = no_alloc("SigningKey::from_seed", name, || {
        SigningKey::<P>::from_seed(&seed)
    });
    let _ = no_alloc("SigningKey::from_seed_slice", name, || {
        SigningKey::<P>::from_seed_slice(&seed).unwrap()
    });
    let _ = no_alloc("SigningKey::generate_with_rng", name, || {
        SigningKey::<P>::generate_with_rng(&mut rng).unwrap()
    });
    let r = no_alloc("SigningKey::generate_with_rng (failing rng)", name, || {
        SigningKey::<P>::generate_with_rng(&mut FailingRng).map(|_| ())
    });
    assert_eq!(r, Err(Error::Randomness));
    #[cfg(feature = "getrandom")]
    let _ = no_alloc("SigningKey::generate (OS randomness)", name, || {
        SigningKey::<P>::generate().unwrap()
    });

    // Public key, export, import.
    let vk = no_alloc("SigningKey::verifying_key", name, || sk.verifying_key());
    let _ = no_alloc("Keypair::verifying_key", name, || {
        signature::Keypair::verifying_key(&sk)
    });
    let sk_bytes = no_alloc("SigningKey::to_expanded", name, || sk.to_expanded());
    let sk2 = no_alloc("SigningKey::from_expanded", name, || {
        SigningKey::<P>::from_expanded(sk_bytes.as_ref()).unwrap()
    });
    let r = no_alloc("SigningKey::from_expanded (wrong length)", name, || {
        SigningKey::<P>::from_expanded(&sk_bytes.as_ref()[1..]).map(|_| ())
    });
    assert!(r.is_err());
    let _ = no_alloc("SigningKey::seed", name, || sk.seed().copied());
    let vk_bytes = no_alloc("VerifyingKey::to_bytes", name, || vk.to_bytes());
    let vk2 = no_alloc("VerifyingKey::from_bytes", name, || {
        VerifyingKey::<P>::from_bytes(vk_bytes.as_ref()).unwrap()
    });
    assert!(vk2 == vk);
    let _ = no_alloc("SigningKey::clone", name, || sk2.clone());

    // Signing, every variant, and the matching verification.
    let sig = no_alloc("SigningKey::sign_with_rnd", name, || {
        sk.sign_with_rnd(&msg, &ctx, &rnd).unwrap()
    });
    no_alloc("VerifyingKey::verify", name, || {
        vk.verify(&msg, &ctx, &sig).unwrap();
    });
    let _ = no_alloc(
        "SigningKey::sign_with_rnd (empty message and context)",
        name,
        || sk.sign_with_rnd(&[], &[], &rnd).unwrap(),
    );
    let sig_det = no_alloc("SigningKey::sign_deterministic", name, || {
        sk.sign_deterministic(&msg, &ctx).unwrap()
    });
    no_alloc("VerifyingKey::verify (deterministic)", name, || {
        vk.verify(&msg, &ctx, &sig_det).unwrap();
    });
    let sig_rng = no_alloc("SigningKey::sign_with_rng", name, || {
        sk.sign_with_rng(&mut rng, &msg, &ctx).unwrap()
    });
    no_alloc("VerifyingKey::verify (sign_with_rng)", name, || {
        vk.verify(&msg, &ctx, &sig_rng).unwrap();
    });
    let r = no_alloc("SigningKey::sign_with_rng (failing rng)", name, || {
        sk.sign_with_rng(&mut FailingRng, &msg, &ctx).map(|_| ())
    });
    assert_eq!(r, Err(Error::Randomness));
    #[cfg(feature = "getrandom")]
    {
        let s = no_alloc("SigningKey::sign (OS randomness)", name, || {
            sk.sign(&msg, &ctx).unwrap()
        });
        vk.verify(&msg, &ctx, &s).unwrap();
        let s = no_alloc("Signer::try_sign", name, || {
            signature::Signer::try_sign(&sk, &msg).unwrap()
        });
        no_alloc("Verifier::verify", name, || {
            signature::Verifier::verify(&vk, &msg, &s).unwrap();
        });
    }
    let s = no_alloc("RandomizedSigner::try_sign_with_rng", name, || {
        signature::RandomizedSigner::try_sign_with_rng(&sk, &mut rng, &msg).unwrap()
    });
    vk.verify(&msg, &[], &s).unwrap();
    let s2 = no_alloc("SigningKey::sign_with_rnd (imported key)", name, || {
        sk2.sign_with_rnd(&msg, &ctx, &rnd).unwrap()
    });
    assert_eq!(s2, sig);

    for hash in HashAlg::ALL {
        let what = hash.name();
        let s = no_alloc("SigningKey::sign_prehash_with_rnd", what, || {
            sk.sign_prehash_with_rnd(&msg, &ctx, hash, &rnd).unwrap()
        });
        no_alloc("VerifyingKey::verify_prehash", what, || {
            vk.verify_prehash(&msg, &ctx, hash, &s).unwrap();
        });
        #[cfg(feature = "getrandom")]
        {
            let s = no_alloc("SigningKey::sign_prehash (OS randomness)", what, || {
                sk.sign_prehash(&msg, &ctx, hash).unwrap()
            });
            vk.verify_prehash(&msg, &ctx, hash, &s).unwrap();
        }
    }

    let s = no_alloc("SigningKey::sign_internal", name, || {
        sk.sign_internal(&msg, &rnd)
    });
    no_alloc("VerifyingKey::verify_internal", name, || {
        vk.verify_internal(&msg, &s).unwrap();
    });

    let mu = no_alloc("VerifyingKey::compute_mu", name, || {
        vk.compute_mu(&msg, &ctx).unwrap()
    });
    let s = no_alloc("SigningKey::sign_mu", name, || sk.sign_mu(&mu, &rnd));
    assert_eq!(s, sig, "{name}: external mu and pure signing differ");
    no_alloc("VerifyingKey::verify_mu", name, || {
        vk.verify_mu(&mu, &s).unwrap();
    });

    // Signature encoding.
    let sig_bytes = no_alloc("Signature::to_bytes", name, || sig.to_bytes());
    let sig2 = no_alloc("Signature::from_bytes", name, || {
        Signature::<P>::from_bytes(sig_bytes.as_ref()).unwrap()
    });
    assert_eq!(sig2, sig);

    // Rejections must be heap-free too.
    let mut bad = sig_bytes;
    bad.as_mut()[P::SIG_LEN / 2] ^= 0x10;
    let bad = Signature::<P>::from_bytes(bad.as_ref()).unwrap();
    let r = no_alloc("VerifyingKey::verify (corrupted signature)", name, || {
        vk.verify(&msg, &ctx, &bad)
    });
    assert_eq!(r, Err(Error::InvalidSignature));
    let r = no_alloc("VerifyingKey::verify (other message)", name, || {
        vk.verify(&msg[1..], &ctx, &sig)
    });
    assert_eq!(r, Err(Error::InvalidSignature));
    let r = no_alloc(
        "VerifyingKey::verify_mu (corrupted signature)",
        name,
        || vk.verify_mu(&mu, &bad),
    );
    assert_eq!(r, Err(Error::InvalidSignature));
    let r = no_alloc("SigningKey::sign_with_rnd (context too long)", name, || {
        sk.sign_with_rnd(&msg, &long_ctx, &rnd).map(|_| ())
    });
    assert!(matches!(r, Err(Error::ContextTooLong { .. })));
    let r = no_alloc("VerifyingKey::verify (context too long)", name, || {
        vk.verify(&msg, &long_ctx, &sig)
    });
    assert!(r.is_err());
    let r = no_alloc("Signature::from_bytes (wrong length)", name, || {
        Signature::<P>::from_bytes(&sig_bytes.as_ref()[1..]).map(|_| ())
    });
    assert!(r.is_err());

    // Dropping (and so zeroizing) keys is heap-free.
    no_alloc("drop(SigningKey)", name, || drop(sk2));
    no_alloc("drop(SigningKey)", name, || drop(sk));
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
fn ml_dsa_44_is_heap_free() {
    every_operation_is_heap_free::<MlDsa44>();
}

#[test]
fn ml_dsa_65_is_heap_free() {
    every_operation_is_heap_free::<MlDsa65>();
}

#[test]
fn ml_dsa_87_is_heap_free() {
    every_operation_is_heap_free::<MlDsa87>();
}
