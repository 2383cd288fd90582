//! Forward and inverse NTT per reduction strategy and modulus (q = 8380417 and q = 3329), and
//! the bytes of precomputed tables per strategy (printed once at start).
//!
//! `cargo bench -p pqlab-arith --bench reduction`; each measurement includes copying the
//! 256-coefficient input (the same for every strategy).
#![allow(missing_docs)]

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use pqlab_arith::reduce::{Modulus, Strategy, ntt_mldsa, ntt_mlkem, table_bytes};

fn mldsa(c: &mut Criterion) {
    let a: [i32; 256] = core::array::from_fn(|i| ((i as i32) * 1_234_567) % 8_380_417 - 4_190_208);
    let mut g = c.benchmark_group("ntt-q8380417");
    for s in Strategy::ALL {
        g.bench_function(format!("forward/{}", s.name()), |b| {
            b.iter(|| {
                let mut x = black_box(a);
                ntt_mldsa::ntt(black_box(s), &mut x);
                x
            })
        });
        g.bench_function(format!("inverse/{}", s.name()), |b| {
            b.iter(|| {
                let mut x = black_box(a);
                ntt_mldsa::inv_ntt_to_mont(black_box(s), &mut x);
                x
            })
        });
    }
    g.finish();
}

fn mlkem(c: &mut Criterion) {
    let a: [i16; 256] = core::array::from_fn(|i| (((i as i32) * 1237) % 3329 - 1664) as i16);
    let mut g = c.benchmark_group("ntt-q3329");
    for s in Strategy::ALL {
        g.bench_function(format!("forward/{}", s.name()), |b| {
            b.iter(|| {
                let mut x = black_box(a);
                ntt_mlkem::ntt(black_box(s), &mut x);
                x
            })
        });
        g.bench_function(format!("inverse/{}", s.name()), |b| {
            b.iter(|| {
                let mut x = black_box(a);
                ntt_mlkem::inv_ntt_to_mont(black_box(s), &mut x);
                x
            })
        });
    }
    g.finish();
}

fn tables(_c: &mut Criterion) {
    for m in [Modulus::MlDsa, Modulus::MlKem] {
        for s in Strategy::ALL {
            println!("table_bytes {m:?} {}: {}", s.name(), table_bytes(s, m));
        }
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(std::time::Duration::from_millis(500))
        .measurement_time(std::time::Duration::from_secs(2));
    targets = tables, mldsa, mlkem
}
criterion_main!(benches);
