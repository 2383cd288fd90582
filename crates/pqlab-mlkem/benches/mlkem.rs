//! Criterion benchmarks of ML-KEM key generation, encapsulation and decapsulation at each
//! parameter set, for pqlab and, in the same run, for the RustCrypto `ml-kem` crate.
//!
//! Groups are named `ML-KEM-xxx/pqlab` and `ML-KEM-xxx/rustcrypto`; the functions are
//! * `keygen`: a decapsulation key from a fresh 64-byte seed d || z per iteration
//!   (ML-KEM.KeyGen_internal, including the encapsulation key);
//! * `encaps`: encapsulation under a parsed key with fresh randomness (ML-KEM.Encaps);
//! * `decaps`: decapsulation of a fixed valid ciphertext under a parsed key (ML-KEM.Decaps);
//! * `encaps_from_bytes` and `decaps_from_expanded`: the same, including the import of the key
//!   from its encoding with the input checks of FIPS 203, Sections 7.2 and 7.3.
//!
//! pqlab's keys hold the matrix A_hat expanded once (as Go's crypto/mlkem does), while `ml-kem`
//! samples A_hat in every encryption; the `*_from_bytes` / `*_from_expanded` rows compare the
//! two with that difference included.
#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used, clippy::panic)]
#![allow(deprecated)] // ml-kem marks its expanded-key import deprecated.

use std::hint::black_box;
use std::time::Duration;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use ml_kem as rc;
use ml_kem::{Decapsulate as _, Encapsulate as _, ExpandedKeyEncoding as _, KeyExport as _};
use pqlab_mlkem::{
    Ciphertext, DecapsulationKey, EncapsulationKey, MlKem512, MlKem768, MlKem1024, ParameterSet,
};
// A fast deterministic generator (splitmix64) for seeds and randomness: a benchmark fixture,
// not a cryptographic generator.
use pqlab_testutil::rng::TestRng;

/// A fixed seed per parameter set, so that every run measures the same key.
fn fixed_seed<P: ParameterSet>() -> [u8; 64] {
    TestRng::new(P::CT_LEN as u64).bytes()
}

fn configure(g: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>) {
    g.warm_up_time(Duration::from_secs(1));
    g.measurement_time(Duration::from_secs(3));
}

fn bench_pqlab<P: ParameterSet>(c: &mut Criterion) {
    let mut g = c.benchmark_group(format!("{}/pqlab", P::NAME));
    configure(&mut g);
    let mut rng = TestRng::new(1);

    g.bench_function("keygen", |b| {
        b.iter_batched(
            || rng.bytes::<64>(),
            |seed| DecapsulationKey::<P>::from_seed_bytes(black_box(&seed)).unwrap(),
            BatchSize::SmallInput,
        );
    });

    let dk = DecapsulationKey::<P>::from_seed_bytes(&fixed_seed::<P>()).unwrap();
    let ek = dk.encapsulation_key().clone();
    let ek_bytes = ek.to_bytes();
    let dk_bytes = dk.to_expanded();

    g.bench_function("encaps", |b| {
        b.iter(|| black_box(&ek).encapsulate_with_rng(&mut rng).unwrap());
    });
    g.bench_function("encaps_from_bytes", |b| {
        b.iter(|| {
            let ek = EncapsulationKey::<P>::from_bytes(black_box(ek_bytes.as_ref())).unwrap();
            ek.encapsulate_with_rng(&mut rng).unwrap()
        });
    });

    let (ct, k) = ek.encapsulate_with_rng(&mut rng).unwrap();
    assert!(dk.decapsulate(&ct) == k);
    g.bench_function("decaps", |b| {
        b.iter(|| black_box(&dk).decapsulate(black_box(&ct)));
    });
    let ct_bytes = ct.to_bytes();
    g.bench_function("decaps_from_expanded", |b| {
        b.iter(|| {
            let dk = DecapsulationKey::<P>::from_expanded(black_box(dk_bytes.as_ref())).unwrap();
            let ct = Ciphertext::<P>::from_bytes(black_box(ct_bytes.as_ref())).unwrap();
            dk.decapsulate(&ct)
        });
    });
    g.finish();
}

/// The same measurements for `ml-kem`'s parameter set `$q` (a macro: its types are easiest to
/// name concretely).
macro_rules! bench_rustcrypto {
    ($c:expr, $p:ty, $q:ty) => {{
        type P = $p;
        type Q = $q;
        let mut g = $c.benchmark_group(format!("{}/rustcrypto", P::NAME));
        configure(&mut g);
        let mut rng = TestRng::new(1);

        g.bench_function("keygen", |b| {
            b.iter_batched(
                || rc::Seed::from(rng.bytes::<64>()),
                |seed| rc::DecapsulationKey::<Q>::from_seed(black_box(seed)),
                BatchSize::SmallInput,
            );
        });

        let dk = rc::DecapsulationKey::<Q>::from_seed(rc::Seed::from(fixed_seed::<P>()));
        let ek = dk.encapsulation_key().clone();
        let ek_bytes = ek.to_bytes();
        let dk_bytes = dk.to_expanded_bytes();

        g.bench_function("encaps", |b| {
            b.iter(|| black_box(&ek).encapsulate_with_rng(&mut rng));
        });
        g.bench_function("encaps_from_bytes", |b| {
            b.iter(|| {
                let ek = rc::EncapsulationKey::<Q>::new(black_box(&ek_bytes)).unwrap();
                ek.encapsulate_with_rng(&mut rng)
            });
        });

        let (ct, k) = ek.encapsulate_with_rng(&mut rng);
        assert_eq!(dk.decapsulate(&ct), k);
        g.bench_function("decaps", |b| {
            b.iter(|| black_box(&dk).decapsulate(black_box(&ct)));
        });
        g.bench_function("decaps_from_expanded", |b| {
            b.iter(|| {
                let dk =
                    rc::DecapsulationKey::<Q>::from_expanded_bytes(black_box(&dk_bytes)).unwrap();
                dk.decapsulate(black_box(&ct))
            });
        });
        g.finish();
    }};
}

fn mlkem_512(c: &mut Criterion) {
    bench_pqlab::<MlKem512>(c);
    bench_rustcrypto!(c, MlKem512, rc::MlKem512);
}

fn mlkem_768(c: &mut Criterion) {
    bench_pqlab::<MlKem768>(c);
    bench_rustcrypto!(c, MlKem768, rc::MlKem768);
}

fn mlkem_1024(c: &mut Criterion) {
    bench_pqlab::<MlKem1024>(c);
    bench_rustcrypto!(c, MlKem1024, rc::MlKem1024);
}

criterion_group!(benches, mlkem_512, mlkem_768, mlkem_1024);
criterion_main!(benches);
