//! ML-KEM never touches the heap: a counting global allocator shows zero allocations (and zero
//! reallocations) during key generation (seed, RNG, OS randomness), key import and export in
//! every form, encapsulation (given m, RNG, OS randomness), decapsulation (valid and implicitly
//! rejected ciphertexts), every input-check failure and dropping, at all three parameter sets.
//!
//! Only allocations made by the current thread while a measurement is running are counted (a
//! thread-local flag), so the test harness's own allocations on other threads, and this file's
//! setup code, do not disturb the result. The allocator, the measurement and the RNG fixtures
//! are `pqlab-testutil`'s.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use pqlab_mlkem::{
    Ciphertext, DecapsulationKey, EncapsulationKey, Error, MlKem512, MlKem768, MlKem1024,
    ParameterSet,
};
use pqlab_testutil::alloc::{CountingAlloc, no_alloc, self_check};
use pqlab_testutil::rng::{FailingRng, TestRng};

#[global_allocator]
static GLOBAL: CountingAlloc = CountingAlloc;

// ---------------------------------------------------------------------------------------------
// The checks
// ---------------------------------------------------------------------------------------------

fn every_operation_is_heap_free<P: ParameterSet>() {
    let name = P::NAME;
    let mut rng = TestRng::new(0x0123_4567_89AB_CDEF ^ P::EK_LEN as u64);
    let mut seed = [0u8; 64];
    rand_core::TryRng::try_fill_bytes(&mut rng, &mut seed).unwrap();
    let (d, z): ([u8; 32], [u8; 32]) = (
        seed[..32].try_into().unwrap(),
        seed[32..].try_into().unwrap(),
    );
    let m = [0x42u8; 32];
    // The back end is selected once per process, on the first call; with PQLAB_BACKEND set,
    // reading the variable allocates that once. Make that first call here, unmeasured.
    let _ = DecapsulationKey::<P>::from_seed(&d, &z);

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
    // The instrument works: a measured allocation is seen, an empty section counts zero.
    self_check();
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
