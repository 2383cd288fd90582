//! The same known answers in every configuration of the crate: the default build and the
//! `small-memory` one (`cargo test -p pqlab-mldsa --test configurations --features
//! small-memory`) must reproduce the digests below, which were computed with the default build.
//! They cover key generation (pk, skEncode, the public key recomputed from the secret key),
//! signing (hedged and deterministic, with the number of rejection-loop iterations, through
//! the key and through its expanded form) and verification (valid and altered signatures).
//! Run it under each back end too (PQLAB_BACKEND=portable, avx2, avx512).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, missing_docs)]

use pqlab_mldsa::*;
use sha2::{Digest, Sha256};

/// SHA-256 of everything one parameter set produces for three seeds: per seed, pk || skEncode
/// || pk of the recomputed public key, then per message the hedged signature, its iteration
/// count (4 bytes little-endian), the deterministic signature and the one of the expanded key.
fn digest<P: ParameterSet>() -> String {
    let mut h = Sha256::new();
    for seed in 0..3u8 {
        let xi = [seed.wrapping_mul(37).wrapping_add(1); 32];
        let (pk, sk) = SigningKey::<P>::encoded_pair_from_seed(&xi);
        h.update(pk.as_ref());
        h.update(sk.to_expanded().as_ref());
        let vk = sk.verifying_key();
        assert_eq!(vk.as_bytes(), pk.as_ref(), "{} seed {seed}", P::NAME);
        h.update(vk.as_bytes());
        let expanded = ExpandedSigningKey::new(SigningKey::<P>::from_seed(&xi));
        for m in 0..4u8 {
            let msg = [m; 33];
            let rnd = [m ^ seed ^ 0x5a; 32];
            let mu = vk.compute_mu(&msg, b"cfg").unwrap();
            let (sig, count) = sk.sign_mu_counted(&mu, &rnd).unwrap();
            h.update(sig.as_bytes());
            h.update(count.to_le_bytes());
            let det = sk.sign_deterministic(&msg, b"cfg").unwrap();
            h.update(det.as_bytes());
            let det2 = expanded.sign_deterministic(&msg, b"cfg").unwrap();
            assert_eq!(det2, det, "{} seed {seed} message {m}", P::NAME);

            // Verification: the signatures verify, and fail once altered (a byte of c_tilde,
            // of z, of the hints) or under another message.
            assert!(vk.verify(&msg, b"cfg", &sig).is_ok());
            assert!(vk.verify(&msg, b"cfg", &det).is_ok());
            assert!(vk.verify(&[m ^ 1; 33], b"cfg", &det).is_err());
            let bytes = det.as_bytes();
            for at in [0, bytes.len() / 2, bytes.len() - 1] {
                let mut bad = bytes.to_vec();
                bad[at] ^= 1;
                let rejected = match Signature::<P>::from_bytes(&bad) {
                    Ok(s) => vk.verify(&msg, b"cfg", &s).is_err(),
                    Err(_) => true,
                };
                assert!(rejected, "{} seed {seed} message {m} byte {at}", P::NAME);
            }
        }
    }
    hex::encode(h.finalize())
}

#[test]
fn ml_dsa_44_known_answers() {
    assert_eq!(
        digest::<MlDsa44>(),
        "61eec1f13d691805735b57ae918ee4731336b19254fc6c89b90e7935d8120106"
    );
}

#[test]
fn ml_dsa_65_known_answers() {
    assert_eq!(
        digest::<MlDsa65>(),
        "c954f99cb010aed93e7757f4dd975f8c3c56e74f5a3499d130cd14c0955bdb14"
    );
}

#[test]
fn ml_dsa_87_known_answers() {
    assert_eq!(
        digest::<MlDsa87>(),
        "2783a5f28d372cccc21de99d67fcccc11128b3611d02c350633e5ebd48a1f9b1"
    );
}
