//! The Falcon round-3 KAT files (falcon512-KAT.rsp, falcon1024-KAT.rsp: every public key,
//! every signature, and the key generation from every record's seed) under every reduction
//! strategy of `pqlab_arith::reduce`: verification's NTT modulo q = 12289 and the key
//! generation's NTTs modulo the NTRU-solver primes dispatch on the process-wide selector, so
//! this binary holds a single test that switches it sequentially (no other test here can race
//! with it).
//!
//! Key generation: every strategy must reproduce the KAT key pairs byte for byte.
//! `PQLAB_KAT_LIMIT` limits the records per file (default: all 100; about 2 s per strategy in
//! release on two cores).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use pqlab_arith::reduce::{Strategy, set_strategy, strategy};
use pqlab_falcon::{Error, Signature, SigningKey, VerifyingKey};
use pqlab_testutil::vectors::vectors_dir;

/// How many of the first `limit` records of `file` our key generation reproduces from the
/// record's seed (sk and pk, as `kat_keygen.rs` checks them).
fn keygen_matches<const N: usize>(dir: &std::path::Path, file: &str, limit: usize) -> usize {
    let kats = common::load(dir, file);
    kats.iter()
        .take(limit)
        .filter(|k| common::keygen_from_record::<N>(k) == (k.sk.clone(), k.pk.clone()))
        .count()
}

/// Every KAT record of `file`: the public key decodes and re-encodes, h = g / f from the secret
/// key (an NTT, a pointwise division and an inverse NTT), the signature verifies in both
/// forms, and a changed message is rejected.
fn verify_all<const N: usize>(dir: &std::path::Path, file: &str, logn: u8) -> usize {
    let kats = common::load(dir, file);
    assert_eq!(kats.len(), 100, "{file}: expected 100 records");
    for k in &kats {
        let s = strategy().name();
        let vk = VerifyingKey::<N>::decode(&k.pk).unwrap_or_else(|e| panic!("#{}: {e}", k.count));
        let sk = SigningKey::<N>::decode(&k.sk).unwrap_or_else(|e| panic!("#{}: {e}", k.count));
        assert_eq!(sk.verifying_key(), vk, "{s} #{}: h = g/f", k.count);
        let (nonce, msg, hdr, comp) = k.split_sm();
        assert_eq!(hdr, 0x20 + logn);
        let sig = Signature::<N>::from_compressed(&nonce, comp).unwrap();
        assert_eq!(vk.verify_signature(msg, &sig), Ok(()), "{s} #{}", k.count);
        let det = k.detached_sig(logn);
        assert_eq!(vk.verify(msg, &det), Ok(()), "{s} #{}", k.count);
        let mut other = msg.to_vec();
        other.push(0);
        assert_eq!(
            vk.verify(&other, &det),
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
        set_strategy(s);
        assert_eq!(strategy(), s);
        let a = verify_all::<512>(&dir, f512, 9);
        let b = verify_all::<1024>(&dir, f1024, 10);
        let m512 = keygen_matches::<512>(&dir, f512, limit);
        let m1024 = keygen_matches::<1024>(&dir, f1024, limit);
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
    set_strategy(Strategy::Montgomery);
    println!(
        "all Falcon KAT signatures verified and key pairs reproduced under {} strategies",
        Strategy::ALL.len()
    );
}
