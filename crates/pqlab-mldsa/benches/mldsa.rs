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

use std::convert::Infallible;
use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use ml_dsa as rc;
use pqlab_mldsa::{MlDsa44, MlDsa65, MlDsa87, ParameterSet, SigningKey};

/// The 32-byte message both implementations sign.
const MSG: [u8; 32] = *b"pqlab benchmark message, 32 B..!";

/// A fast deterministic rand_core 0.10 generator (splitmix64) for seeds and rnd. A benchmark
/// fixture, not a cryptographic generator.
struct BenchRng(u64);

impl BenchRng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn seed(&mut self) -> [u8; 32] {
        let mut s = [0u8; 32];
        rand_core::TryRng::try_fill_bytes(self, &mut s).unwrap();
        s
    }
}

impl rand_core::TryRng for BenchRng {
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

impl rand_core::TryCryptoRng for BenchRng {}

/// A fixed seed per parameter set, so that every run measures the same key.
fn fixed_seed<P: ParameterSet>() -> [u8; 32] {
    BenchRng(P::SIG_LEN as u64).seed()
}

fn bench_pqlab<P: ParameterSet>(c: &mut Criterion) {
    let mut g = c.benchmark_group(format!("{}/pqlab", P::NAME));
    let mut rng = BenchRng(1);

    g.bench_function("keygen", |b| {
        b.iter_batched(
            || rng.seed(),
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
    let mut rng = BenchRng(1);

    g.bench_function("keygen", |b| {
        b.iter_batched(
            || rc::Seed::from(rng.seed()),
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
