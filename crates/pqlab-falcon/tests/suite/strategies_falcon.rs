//! The Falcon round-3 KAT files (falcon512-KAT.rsp, falcon1024-KAT.rsp: every signature, and
//! the key generation from every record's seed) under every reduction strategy of
//! `pqlab_arith::reduce`, through the study's instantiation (`pqlab_falcon::study`, feature
//! `reduction-study`): verification's NTTs modulo q = 12289 and the key generation's NTTs
//! modulo the NTRU-solver primes under the strategy. Production code has no strategy switch.
//!
//! Key generation: every strategy must reproduce the KAT key pairs byte for byte.
//! `PQLAB_KAT_LIMIT` limits the records per file (default: all 100; about 2 s per strategy in
//! release on two cores).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common;

use pqlab_falcon::study::{self, Strategy};
use pqlab_falcon::{Error, Signature, SigningKey, VerifyingKey};
use pqlab_testutil::vectors::vectors_dir;

/// How many of the first `limit` records of `file` our key generation reproduces from the
/// record's seed (sk and pk, as `kat_keygen.rs` checks them).
fn keygen_matches<const N: usize>(
    dir: &std::path::Path,
    file: &str,
    limit: usize,
    s: Strategy,
) -> usize {
    let kats = common::load(dir, file);
    kats.iter()
        .take(limit)
        .filter(|k| {
            let sk = study::generate_from_seed::<N>(&common::record_seed(k), s);
            common::encode_pair(&sk) == (k.sk.clone(), k.pk.clone())
        })
        .count()
}

/// Every KAT record of `file`: the public key decodes and re-encodes, h = g / f from the secret
/// key (an NTT, a pointwise division and an inverse NTT), the signature verifies in both
/// forms, and a changed message is rejected.
fn verify_all<const N: usize>(dir: &std::path::Path, file: &str, logn: u8, st: Strategy) -> usize {
    let kats = common::load(dir, file);
    assert_eq!(kats.len(), 100, "{file}: expected 100 records");
    for k in &kats {
        let s = st.name();
        let vk = VerifyingKey::<N>::decode(&k.pk).unwrap_or_else(|e| panic!("#{}: {e}", k.count));
        let sk = SigningKey::<N>::decode(&k.sk).unwrap_or_else(|e| panic!("#{}: {e}", k.count));
        assert_eq!(sk.verifying_key(), vk, "{s} #{}: h = g/f", k.count);
        let (nonce, msg, hdr, comp) = k.split_sm();
        assert_eq!(hdr, 0x20 + logn);
        let sig = Signature::<N>::from_compressed(&nonce, comp).unwrap();
        assert_eq!(vk.verify_signature(msg, &sig), Ok(()), "{s} #{}", k.count);
        let det = k.detached_sig(logn);
        assert_eq!(vk.verify(msg, &det), Ok(()), "{s} #{}", k.count);
        assert_eq!(
            study::verify(&vk, msg, &det, st),
            Ok(()),
            "{s} #{}",
            k.count
        );
        let mut other = msg.to_vec();
        other.push(0);
        assert_eq!(
            study::verify(&vk, &other, &det, st),
            Err(Error::InvalidSignature),
            "{s} #{}",
            k.count
        );
    }
    kats.len()
}

#[test]
fn kat_verify_under_every_reduction_strategy() {
    let Some(dir) = vectors_dir() else { return };
    let limit: usize = std::env::var("PQLAB_KAT_LIMIT")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100)
        .min(100);
    let (f512, f1024) = (
        "falcon-kat/falcon512-KAT.rsp",
        "falcon-kat/falcon1024-KAT.rsp",
    );
    for s in Strategy::ALL {
        let a = verify_all::<512>(&dir, f512, 9, s);
        let b = verify_all::<1024>(&dir, f1024, 10, s);
        let m512 = keygen_matches::<512>(&dir, f512, limit, s);
        let m1024 = keygen_matches::<1024>(&dir, f1024, limit, s);
        println!(
            "== reduction strategy {}: {a} + {b} KAT signatures verified; \
             key generation: {m512} + {m1024} of {limit} + {limit} KAT key pairs reproduced",
            s.name(),
        );
        assert_eq!(
            (m512, m1024),
            (limit, limit),
            "{}: key generation",
            s.name()
        );
    }
    println!(
        "all Falcon KAT signatures verified and key pairs reproduced under {} strategies",
        Strategy::ALL.len()
    );
}
