//! The C2SP CCTV "accumulated" test for ML-DSA (final FIPS 204), with the expected hashes from
//! `<vectors>/cctv/accumulated_hashes.json` (key `ML-DSA`).
//!
//! Procedure (as the JSON states it, and as Go's `crypto/mldsa` accumulated test runs it): the
//! random stream is one SHAKE-128 over the empty input; per iteration read a 32-byte seed,
//! KeyGen_internal(seed), absorb the public key into a second SHAKE-128, sign the empty message
//! with the empty context deterministically (ML-DSA.Sign, rnd = 0), absorb the signature and
//! check that it verifies; at the end read 32 bytes from the second SHAKE-128.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common;

use std::time::Instant;

use pqlab_keccak::Shake128;
use pqlab_mldsa::{ParameterSet, Signature, SigningKey, VerifyingKey};

/// Runs the accumulated test for `iterations` and returns the 32-byte result.
fn accumulate<P: ParameterSet>(iterations: usize) -> [u8; 32] {
    let mut rng = Shake128::new().finalize();
    let mut acc = Shake128::new();
    for i in 0..iterations {
        let mut seed = [0u8; 32];
        rng.squeeze(&mut seed);
        let sk = SigningKey::<P>::from_seed(&seed);
        let pk = sk.verifying_key().to_bytes();
        acc.absorb(pk.as_ref());
        let sig = sk
            .sign_deterministic(&[], &[])
            .unwrap_or_else(|e| panic!("{} iteration {i}: signing failed: {e}", P::NAME));
        acc.absorb(sig.as_bytes());
        // Verify with a key decoded from the public-key bytes, as an independent verifier would.
        let vk = VerifyingKey::<P>::from_bytes(pk.as_ref()).unwrap();
        let sig = Signature::<P>::from_bytes(sig.as_bytes()).unwrap();
        vk.verify(&[], &[], &sig).unwrap_or_else(|e| {
            panic!(
                "{} iteration {i} (seed {}): signature does not verify: {e}",
                P::NAME,
                common::to_hex(&seed)
            )
        });
    }
    let mut out = [0u8; 32];
    acc.finalize().squeeze(&mut out);
    out
}

/// Compares the accumulated hash for `level` ("ML-DSA-44", ...) after `iterations` with the JSON.
fn run(level: &str, iterations: usize) {
    let Some(dir) = common::vectors_dir() else {
        return;
    };
    let json = common::load_json(&dir, "cctv/accumulated_hashes.json");
    let want = json
        .get("ML-DSA")
        .and_then(|v| v.get(iterations.to_string()))
        .and_then(|v| v.get(level))
        .and_then(serde_json::Value::as_str)
        .unwrap_or_else(|| panic!("no ML-DSA hash for {level} x {iterations} in the JSON"));
    let start = Instant::now();
    let got = with_param_set!(level, accumulate(iterations));
    let got = common::to_hex(&got);
    let ok = got.eq_ignore_ascii_case(want);
    println!(
        "CCTV accumulated {level} x {iterations}: {} ({:.2?})",
        if ok { "1/1 passed" } else { "0/1 passed" },
        start.elapsed()
    );
    assert!(
        ok,
        "CCTV accumulated {level} x {iterations}: got {got}, expected {want}"
    );
}

#[test]
fn cctv_accumulated_mldsa_44_100() {
    run("ML-DSA-44", 100);
}

#[test]
fn cctv_accumulated_mldsa_65_100() {
    run("ML-DSA-65", 100);
}

#[test]
fn cctv_accumulated_mldsa_87_100() {
    run("ML-DSA-87", 100);
}

#[test]
fn cctv_accumulated_mldsa_44_10000() {
    run("ML-DSA-44", 10_000);
}

#[test]
fn cctv_accumulated_mldsa_65_10000() {
    run("ML-DSA-65", 10_000);
}

#[test]
fn cctv_accumulated_mldsa_87_10000() {
    run("ML-DSA-87", 10_000);
}
