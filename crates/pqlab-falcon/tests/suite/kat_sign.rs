//! Signing reproduces the NIST KAT files byte for byte: NIST's CTR_DRBG is seeded with each
//! record's `seed`; as the reference `PQCgenKAT_sign` / `nist.c`, key generation draws 48 bytes
//! first (its SHAKE256 seed; discarded here, the key comes from the record's `sk`), then signing
//! draws the 40-byte nonce and the 48-byte seed of the sampler's SHAKE256.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common;

use pqlab_falcon::{ExpandedKey, Signature, SigningKey, VerifyingKey};
use pqlab_testutil::drbg::NistDrbg;
use pqlab_testutil::vectors::vectors_dir;

fn run_sign<const N: usize>(file: &str, logn: u8) {
    let Some(dir) = vectors_dir() else { return };
    let kats = common::load(&dir, file);
    assert_eq!(kats.len(), 100, "{file}: expected 100 records");
    let mut reproduced = 0;
    for k in &kats {
        let mut drbg = NistDrbg::new(&k.seed.as_slice().try_into().unwrap());
        let mut keygen_seed = [0u8; 48];
        drbg.fill(&mut keygen_seed);
        let mut nonce = [0u8; 40];
        drbg.fill(&mut nonce);
        let mut seed = [0u8; 48];
        drbg.fill(&mut seed);

        let (kat_nonce, msg, hdr, comp) = k.split_sm();
        assert_eq!(nonce, kat_nonce, "#{}: DRBG nonce", k.count);
        assert_eq!(hdr, 0x20 + logn);
        let sk = SigningKey::<N>::decode(&k.sk).unwrap();
        let sig = sk.sign_with_seed(msg, &nonce, &seed);
        let mut out = vec![0u8; Signature::<N>::MAX_LEN];
        let len = sig.encode_compressed(&mut out).unwrap();
        assert_eq!(&out[..len], comp, "#{}: compressed s2", k.count);
        // The whole detached signature and its verification.
        let det = k.detached_sig(logn);
        let len = sig.encode(&mut out).unwrap();
        assert_eq!(&out[..len], &det[..], "#{}", k.count);
        let vk = VerifyingKey::<N>::decode(&k.pk).unwrap();
        assert_eq!(vk.verify(msg, &det), Ok(()));
        // The expanded key gives the same signature.
        let ek = ExpandedKey::new(&sk);
        assert_eq!(
            ek.sign_with_seed(msg, &nonce, &seed),
            sig,
            "#{}: expanded",
            k.count
        );
        // And so does the key expanded in place.
        assert_eq!(
            sk.with_expanded(|ek| ek.sign_with_seed(msg, &nonce, &seed)),
            sig,
            "#{}: expanded in place",
            k.count
        );
        reproduced += 1;
    }
    assert_eq!(reproduced, 100);
    println!(
        "{file}: {reproduced} signatures reproduced (plain, expanded and expanded-in-place key)"
    );
}

#[test]
fn kat_512_sign() {
    run_sign::<512>("falcon-kat/falcon512-KAT.rsp", 9);
}

#[test]
fn kat_1024_sign() {
    run_sign::<1024>("falcon-kat/falcon1024-KAT.rsp", 10);
}

/// Random signatures with OS randomness verify, and differ from one another.
#[cfg(feature = "getrandom")]
#[test]
fn sign_verify_random() {
    let Some(dir) = vectors_dir() else { return };
    let kats = common::load(&dir, "falcon-kat/falcon512-KAT.rsp");
    let sk = SigningKey::<512>::decode(&kats[3].sk).unwrap();
    let vk = sk.verifying_key();
    let ek = sk.expand();
    let mut out = [0u8; 700];
    let mut prev = Vec::new();
    for i in 0..10u8 {
        let msg = [i; 33];
        let sig = if i % 2 == 0 {
            sk.sign(&msg)
        } else {
            ek.sign(&msg)
        }
        .unwrap();
        let len = sig.encode(&mut out).unwrap();
        assert_eq!(vk.verify(&msg, &out[..len]), Ok(()));
        assert_ne!(prev, out[..len].to_vec());
        prev = out[..len].to_vec();
    }
}
