//! Criterion benchmarks of the Keccak permutation, SHAKE and SHA3-256.
#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used)]

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use pqlab_keccak::{Sha3_256, Shake128, Shake256, keccak_f1600};

const LEN: usize = 1024;

fn permutation(c: &mut Criterion) {
    let mut state = [0u64; 25];
    for (i, w) in state.iter_mut().enumerate() {
        *w = (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
    let mut g = c.benchmark_group("keccak");
    g.throughput(Throughput::Bytes(200));
    g.bench_function("keccak_f1600", |b| {
        b.iter(|| keccak_f1600(black_box(&mut state)));
    });
    g.finish();
}

fn hashes(c: &mut Criterion) {
    let input: Vec<u8> = (0..LEN).map(|i| (i * 7 + 3) as u8).collect();
    let mut out = [0u8; LEN];
    let mut g = c.benchmark_group("sha3");
    g.throughput(Throughput::Bytes(LEN as u64));
    g.bench_function("shake128_absorb_1KiB_squeeze_1KiB", |b| {
        b.iter(|| {
            let mut h = Shake128::new();
            h.absorb(black_box(&input));
            h.finalize().squeeze(&mut out);
            black_box(&out);
        });
    });
    g.bench_function("shake256_absorb_1KiB_squeeze_1KiB", |b| {
        b.iter(|| {
            let mut h = Shake256::new();
            h.absorb(black_box(&input));
            h.finalize().squeeze(&mut out);
            black_box(&out);
        });
    });
    g.bench_function("sha3_256_1KiB", |b| {
        b.iter(|| black_box(Sha3_256::digest(black_box(&input))));
    });
    g.finish();
}

criterion_group!(benches, permutation, hashes);
criterion_main!(benches);
