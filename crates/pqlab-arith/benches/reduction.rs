//! Forward and inverse NTT per reduction strategy and modulus (q = 8380417, q = 3329 and Falcon's
//! q = 12289 at n = 1024), and
//! the bytes of precomputed tables per strategy (printed once at start).
//!
//! `cargo bench -p pqlab-arith --bench reduction`; each measurement includes copying the
//! 256-coefficient input (the same for every strategy). The `legacy` rows are the Montgomery
//! transforms as written before the strategies (specialised to `i32` / `i16` arithmetic, no
//! dispatch), to show what the generic code and the run-time selector cost the default.
#![allow(missing_docs)]

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use pqlab_arith::reduce::{Modulus, Strategy, ntt_falcon, ntt_mldsa, ntt_mlkem, table_bytes};
use pqlab_arith::{falcon as fq, mldsa as dsa, mlkem as kem};

/// The Falcon forward NTT as written before the strategies (Barrett `mul` of `falcon`).
fn legacy_falcon_ntt(a: &mut [u16; 1024]) {
    let (mut t, mut m) = (1024, 1);
    while m < 1024 {
        t >>= 1;
        for i in 0..m {
            let s = u32::from(fq::PSI_POWERS[m + i]);
            let (lo, hi) = a[2 * i * t..2 * i * t + 2 * t].split_at_mut(t);
            for (x, y) in lo.iter_mut().zip(hi.iter_mut()) {
                let u = u32::from(*x);
                let v = fq::mul(u32::from(*y), s);
                *x = fq::add(u, v) as u16;
                *y = fq::sub(u, v) as u16;
            }
        }
        m <<= 1;
    }
}

fn legacy_mldsa_ntt(a: &mut [i32; 256]) {
    let mut k = 0;
    let mut len = 128;
    while len > 0 {
        let mut start = 0;
        while start < 256 {
            k += 1;
            let zeta = i64::from(dsa::ZETAS[k]);
            for j in start..start + len {
                let t = dsa::montgomery_reduce(zeta * i64::from(a[j + len]));
                a[j + len] = a[j] - t;
                a[j] += t;
            }
            start += 2 * len;
        }
        len >>= 1;
    }
}

fn legacy_mldsa_inv(a: &mut [i32; 256]) {
    let mut k = 256;
    let mut len = 1;
    while len < 256 {
        let mut start = 0;
        while start < 256 {
            k -= 1;
            let zeta = -i64::from(dsa::ZETAS[k]);
            for j in start..start + len {
                let t = a[j];
                a[j] = t + a[j + len];
                a[j + len] = dsa::montgomery_reduce(zeta * i64::from(t - a[j + len]));
            }
            start += 2 * len;
        }
        len <<= 1;
    }
    for x in a.iter_mut() {
        *x = dsa::montgomery_reduce(41_978 * i64::from(*x));
    }
}

fn legacy_mlkem_ntt(f: &mut [i16; 256]) {
    let mut i = 1;
    let mut len = 128;
    while len >= 2 {
        for block in f.chunks_exact_mut(2 * len) {
            let zeta = kem::ZETAS[i];
            i += 1;
            let (lo, hi) = block.split_at_mut(len);
            for (a, b) in lo.iter_mut().zip(hi.iter_mut()) {
                let t = kem::fqmul(zeta, *b);
                *b = *a - t;
                *a += t;
            }
        }
        len >>= 1;
    }
    kem::poly_reduce(f);
}

fn legacy_mlkem_inv(f: &mut [i16; 256]) {
    let mut i = 127;
    let mut len = 2;
    while len <= 128 {
        for block in f.chunks_exact_mut(2 * len) {
            let zeta = kem::ZETAS[i];
            i -= 1;
            let (lo, hi) = block.split_at_mut(len);
            for (a, b) in lo.iter_mut().zip(hi.iter_mut()) {
                let t = *a;
                *a = kem::barrett_reduce(t + *b);
                *b = kem::fqmul(zeta, *b - t);
            }
        }
        len <<= 1;
    }
    for x in f.iter_mut() {
        *x = kem::fqmul(*x, 1441);
    }
}

fn mldsa(c: &mut Criterion) {
    let a: [i32; 256] = core::array::from_fn(|i| ((i as i32) * 1_234_567) % 8_380_417 - 4_190_208);
    let mut g = c.benchmark_group("ntt-q8380417");
    g.bench_function("forward/legacy", |b| {
        b.iter(|| {
            let mut x = black_box(a);
            legacy_mldsa_ntt(&mut x);
            x
        })
    });
    g.bench_function("inverse/legacy", |b| {
        b.iter(|| {
            let mut x = black_box(a);
            legacy_mldsa_inv(&mut x);
            x
        })
    });
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
    g.bench_function("forward/legacy", |b| {
        b.iter(|| {
            let mut x = black_box(a);
            legacy_mlkem_ntt(&mut x);
            x
        })
    });
    g.bench_function("inverse/legacy", |b| {
        b.iter(|| {
            let mut x = black_box(a);
            legacy_mlkem_inv(&mut x);
            x
        })
    });
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

fn falcon(c: &mut Criterion) {
    let a: [u16; 1024] = core::array::from_fn(|i| ((i * 7919) % 12289) as u16);
    let mut g = c.benchmark_group("ntt-q12289-n1024");
    g.bench_function("forward/legacy", |b| {
        b.iter(|| {
            let mut x = black_box(a);
            legacy_falcon_ntt(&mut x);
            x
        })
    });
    for s in Strategy::ALL {
        g.bench_function(format!("forward/{}", s.name()), |b| {
            b.iter(|| {
                let mut x = black_box(a);
                ntt_falcon::ntt(black_box(s), &mut x);
                x
            })
        });
        g.bench_function(format!("inverse/{}", s.name()), |b| {
            b.iter(|| {
                let mut x = black_box(a);
                ntt_falcon::intt(black_box(s), &mut x);
                x
            })
        });
    }
    g.finish();
}

fn tables(_c: &mut Criterion) {
    for m in [Modulus::MlDsa, Modulus::MlKem, Modulus::Falcon] {
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
    targets = tables, mldsa, mlkem, falcon
}
criterion_main!(benches);
