//! Criterion benchmarks of multi-lane SHAKE128: `Shake128X::new` on 34-byte inputs (a seed and
//! two index bytes, as in ML-KEM's and ML-DSA's matrix expansion) plus 5 squeezed blocks, with 8
//! and 4 lanes under each back end this machine has, against as many one-lane `Shake128` of the
//! same work.
#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used)]

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use pqlab_keccak::{Shake128, Shake128X};

const BLOCKS: usize = 5;
const RATE: usize = 168;

fn inputs() -> [[u8; 34]; 8] {
    let mut v = [[0u8; 34]; 8];
    for (l, m) in v.iter_mut().enumerate() {
        for (i, b) in m.iter_mut().enumerate() {
            *b = (i * 7 + 3) as u8;
        }
        m[32] = l as u8;
        m[33] = (l * 3) as u8;
    }
    v
}

fn multi(c: &mut Criterion) {
    let inputs = inputs();
    let mut out = [[0u8; RATE]; 8];
    let mut g = c.benchmark_group("shake128x");
    for lanes in [8usize, 4] {
        let refs: Vec<&[u8]> = inputs[..lanes].iter().map(|m| &m[..]).collect();
        g.throughput(Throughput::Bytes((lanes * BLOCKS * RATE) as u64));
        for backend in pqlab_backend::available() {
            g.bench_function(format!("x{lanes}_new_5_blocks/{backend}"), |b| {
                b.iter(|| {
                    let mut x = Shake128X::new(backend, black_box(&refs));
                    for _ in 0..BLOCKS {
                        x.squeeze_blocks(&mut out[..lanes]);
                        black_box(&out);
                    }
                });
            });
        }
        g.bench_function(format!("x{lanes}_new_5_blocks/scalar_shake128"), |b| {
            b.iter(|| {
                for (m, o) in black_box(&refs).iter().zip(out.iter_mut()) {
                    let mut h = Shake128::new();
                    h.absorb(m);
                    let mut r = h.finalize();
                    for _ in 0..BLOCKS {
                        *o = r.squeeze_block();
                        black_box(&*o);
                    }
                }
            });
        });
    }
    g.finish();
}

criterion_group!(benches, multi);
criterion_main!(benches);
