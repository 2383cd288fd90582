//! Criterion benchmarks of Falcon-512 and Falcon-1024: key generation, key expansion, signing
//! with a plain secret key (expansion included) and with an expanded key, verification, and
//! the two HashToPoint variants, for pqlab and, in the same run, PQClean through
//! `pqcrypto-falcon` (keygen, sign and verify). `cargo bench -p pqlab-falcon --features
//! fpr-emu` measures the emulated floating point instead of native f64.
//!
//! Groups are named `Falcon-n/pqlab` and `Falcon-n/pqcrypto`. The measured keys come from
//! `pqcrypto-falcon` (any valid key costs the same to use); signing uses a fixed nonce and sampler seed per run (the
//! cost does not depend on them beyond the rare restart), verification one fixed signature.
#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use pqcrypto_traits::sign::{PublicKey as _, SecretKey as _};
use pqlab_falcon::{Signature, SigningKey, VerifyingKey, hash_to_point_ct, hash_to_point_vartime};
use pqlab_keccak::Shake256;

const MSG: [u8; 32] = *b"pqlab benchmark message, 32 B..!";

macro_rules! bench_set {
    ($fname:ident, $m:ident, $n:expr, $label:expr) => {
        fn $fname(c: &mut Criterion) {
            use pqcrypto_falcon::$m as theirs;
            let (pk, sk) = theirs::keypair();
            let vk = VerifyingKey::<$n>::decode(pk.as_bytes()).unwrap();
            let ours = SigningKey::<$n>::decode(sk.as_bytes()).unwrap();
            let ek = ours.expand();
            let nonce = [7u8; 40];
            let seed = [9u8; 48];
            let sig = ek.sign_with_seed(&MSG, &nonce, &seed);
            let mut enc = vec![0u8; Signature::<$n>::MAX_LEN];
            let len = sig.encode(&mut enc).unwrap();
            enc.truncate(len);

            let mut g = c.benchmark_group(format!("{}/pqlab", $label));
            let mut ctr = 0u8;
            g.bench_function("keygen", |b| {
                b.iter(|| {
                    // A different seed each time: the rejection count varies with the seed.
                    ctr = ctr.wrapping_add(1);
                    SigningKey::<$n>::generate_from_seed(black_box(&[ctr; 48]))
                })
            });
            g.bench_function("expand_key", |b| b.iter(|| black_box(&ours).expand()));
            g.bench_function("sign", |b| {
                b.iter(|| black_box(&ours).sign_with_seed(black_box(&MSG), &nonce, &seed))
            });
            g.bench_function("sign_expanded", |b| {
                b.iter(|| black_box(&ek).sign_with_seed(black_box(&MSG), &nonce, &seed))
            });
            g.bench_function("verify", |b| {
                b.iter(|| vk.verify(black_box(&MSG), black_box(&enc)).unwrap())
            });
            g.bench_function("hash_to_point_ct", |b| {
                b.iter(|| {
                    let mut rd = Shake256::new().absorb(black_box(&MSG)).clone().finalize();
                    let mut c = [0u16; $n];
                    hash_to_point_ct(&mut rd, &mut c);
                    c
                })
            });
            g.bench_function("hash_to_point_vartime", |b| {
                b.iter(|| {
                    let mut rd = Shake256::new().absorb(black_box(&MSG)).clone().finalize();
                    let mut c = [0u16; $n];
                    hash_to_point_vartime(&mut rd, &mut c);
                    c
                })
            });
            g.finish();

            let mut g = c.benchmark_group(format!("{}/pqcrypto", $label));
            g.bench_function("keygen", |b| b.iter(theirs::keypair));
            g.bench_function("sign", |b| {
                b.iter(|| theirs::detached_sign(black_box(&MSG), &sk))
            });
            let ts = theirs::detached_sign(&MSG, &sk);
            g.bench_function("verify", |b| {
                b.iter(|| theirs::verify_detached_signature(black_box(&ts), &MSG, &pk).unwrap())
            });
            g.finish();
        }
    };
}

bench_set!(bench_512, falcon512, 512, "Falcon-512");
bench_set!(bench_1024, falcon1024, 1024, "Falcon-1024");

criterion_group!(benches, bench_512, bench_1024);
criterion_main!(benches);
