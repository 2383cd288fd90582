//! Criterion benchmarks of ML-DSA key generation (from a seed), signing (hedged and
//! deterministic) and verification at each parameter set, for pqlab and, in the same run, for
//! the RustCrypto `ml-dsa` crate on the same message.
//!
//! Groups are named `ML-DSA-xx/pqlab` and `ML-DSA-xx/rustcrypto`; the functions are `keygen`,
//! `sign_hedged`, `sign_deterministic`, `verify` (and, for `ml-dsa`, whose verifying key caches
//! the expanded matrix A, `verify_from_bytes`, which decodes the key and signature first, as
//! pqlab's `verify` effectively does).
//!
//! Key generation uses a fresh seed per iteration and hedged signing fresh randomness, since
//! the rejection loops make both depend on their inputs; deterministic signing and verification
//! use one fixed key, message and signature.
#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used, clippy::panic)]
#![allow(deprecated)]

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use ml_dsa as rc;
use pqlab_mldsa::{MlDsa44, MlDsa65, MlDsa87, ParameterSet, SigningKey};
// A fast deterministic generator (splitmix64) for seeds and randomness: a benchmark fixture,
// not a cryptographic generator.
use pqlab_testutil::rng::TestRng;

/// The 32-byte message both implementations sign.
const MSG: [u8; 32] = *b"pqlab benchmark message, 32 B..!";

/// A fixed seed per parameter set, so that every run measures the same key.
fn fixed_seed<P: ParameterSet>() -> [u8; 32] {
    TestRng::new(P::SIG_LEN as u64).bytes()
}

fn bench_pqlab<P: ParameterSet>(c: &mut Criterion) {
    let mut g = c.benchmark_group(format!("{}/pqlab", P::NAME));
    let mut rng = TestRng::new(1);

    g.bench_function("keygen", |b| {
        b.iter_batched(
            || rng.bytes::<32>(),
            |seed| SigningKey::<P>::from_seed(black_box(&seed)),
            criterion::BatchSize::SmallInput,
        );
    });

    let sk = SigningKey::<P>::from_seed(&fixed_seed::<P>());
    let vk = sk.verifying_key();

    g.bench_function("sign_hedged", |b| {
        b.iter(|| sk.sign_with_rng(&mut rng, black_box(&MSG), &[]).unwrap());
    });
    g.bench_function("sign_deterministic", |b| {
        b.iter(|| sk.sign_deterministic(black_box(&MSG), &[]).unwrap());
    });

    let sig = sk.sign_deterministic(&MSG, &[]).unwrap();
    g.bench_function("verify", |b| {
        b.iter(|| vk.verify(black_box(&MSG), &[], black_box(&sig)).unwrap());
    });
    g.finish();
}

fn bench_rustcrypto<P: ParameterSet, Q: rc::MlDsaParams>(c: &mut Criterion) {
    let mut g = c.benchmark_group(format!("{}/rustcrypto", P::NAME));
    let mut rng = TestRng::new(1);

    g.bench_function("keygen", |b| {
        b.iter_batched(
            || rc::Seed::from(rng.bytes::<32>()),
            |seed| rc::SigningKey::<Q>::from_seed(black_box(&seed)),
            criterion::BatchSize::SmallInput,
        );
    });

    let esk = rc::ExpandedSigningKey::<Q>::from_seed(&rc::Seed::from(fixed_seed::<P>()));
    let vk = esk.verifying_key();

    g.bench_function("sign_hedged", |b| {
        b.iter(|| esk.sign_randomized(black_box(&MSG), &[], &mut rng).unwrap());
    });
    g.bench_function("sign_deterministic", |b| {
        b.iter(|| esk.sign_deterministic(black_box(&MSG), &[]).unwrap());
    });

    let sig = esk.sign_deterministic(&MSG, &[]).unwrap();
    g.bench_function("verify", |b| {
        b.iter(|| assert!(vk.verify_with_context(black_box(&MSG), &[], black_box(&sig))));
    });

    let pk_bytes = vk.encode();
    let sig_bytes = sig.encode();
    g.bench_function("verify_from_bytes", |b| {
        b.iter(|| {
            let vk = rc::VerifyingKey::<Q>::decode(black_box(&pk_bytes));
            let sig = rc::Signature::<Q>::decode(black_box(&sig_bytes)).unwrap();
            assert!(vk.verify_with_context(&MSG, &[], &sig));
        });
    });
    g.finish();
}

fn mldsa_44(c: &mut Criterion) {
    bench_pqlab::<MlDsa44>(c);
    bench_rustcrypto::<MlDsa44, rc::MlDsa44>(c);
}

fn mldsa_65(c: &mut Criterion) {
    bench_pqlab::<MlDsa65>(c);
    bench_rustcrypto::<MlDsa65, rc::MlDsa65>(c);
}

fn mldsa_87(c: &mut Criterion) {
    bench_pqlab::<MlDsa87>(c);
    bench_rustcrypto::<MlDsa87, rc::MlDsa87>(c);
}

criterion_group!(benches, mldsa_44, mldsa_65, mldsa_87);
criterion_main!(benches);
