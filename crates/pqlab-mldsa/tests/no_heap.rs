//! ML-DSA never touches the heap: a counting global allocator shows zero allocations (and zero
//! reallocations) during key generation, import, export, every signing variant and every
//! verification variant, at all three parameter sets.
//!
//! Only allocations made by the current thread while a measurement is running are counted (a
//! thread-local flag), so the test harness's own allocations on other threads, and this file's
//! setup code, do not disturb the result. The allocator, the measurement and the RNG fixtures
//! are `pqlab-testutil`'s.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use pqlab_mldsa::{
    Error, HashAlg, MAX_CONTEXT_LEN, MlDsa44, MlDsa65, MlDsa87, ParameterSet, Signature,
    SigningKey, VerifyingKey,
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
    let mut rng = TestRng::new(0x0123_4567_89AB_CDEF ^ P::PK_LEN as u64);
    let mut seed = [0u8; 32];
    rand_core::TryRng::try_fill_bytes(&mut rng, &mut seed).unwrap();
    let msg: Vec<u8> = (0..1000u32).map(|i| (i * 31 + 7) as u8).collect();
    let ctx: Vec<u8> = (0..MAX_CONTEXT_LEN as u32)
        .map(|i| (i ^ 0x5A) as u8)
        .collect();
    let rnd = [0x42u8; 32];
    let long_ctx = [0u8; MAX_CONTEXT_LEN + 1];
    // The back end is selected once per process, on the first call; with PQLAB_BACKEND set,
    // reading the variable allocates that once. Make that first call here, unmeasured.
    let _ = SigningKey::<P>::from_seed(&seed);

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
        sk.sign_internal(&msg, &rnd).unwrap()
    });
    no_alloc("VerifyingKey::verify_internal", name, || {
        vk.verify_internal(&msg, &s).unwrap();
    });

    let mu = no_alloc("VerifyingKey::compute_mu", name, || {
        vk.compute_mu(&msg, &ctx).unwrap()
    });
    let s = no_alloc("SigningKey::sign_mu", name, || {
        sk.sign_mu(&mu, &rnd).unwrap()
    });
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
    // The instrument works: a measured allocation is seen, an empty section counts zero.
    self_check();
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
