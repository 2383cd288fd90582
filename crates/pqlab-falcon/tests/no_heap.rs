//! Falcon never touches the heap: a counting global allocator shows zero allocations while
//! decoding keys and signatures (valid and malformed), expanding a key, signing (plain,
//! expanded, given seed, OS randomness), encoding and verifying (valid and invalid), at both
//! parameter sets. Keys come from the KAT files (read before measuring).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use pqlab_falcon::{ExpandedKey, Signature, SigningKey, VerifyingKey};
use pqlab_testutil::alloc::{CountingAlloc, no_alloc, self_check};
use pqlab_testutil::vectors::vectors_dir;

#[global_allocator]
static GLOBAL: CountingAlloc = CountingAlloc;

fn heap_free<const N: usize>(file: &str, name: &str) {
    let Some(dir) = vectors_dir() else { return };
    let kats = common::load(&dir, file);
    let k = &kats[1];
    let (pk, skb, msg) = (k.pk.clone(), k.sk.clone(), k.msg.clone());
    let mut out = vec![0u8; Signature::<N>::MAX_LEN + SigningKey::<N>::ENCODED_LEN];
    let det = k.detached_sig(if N == 512 { 9 } else { 10 });
    // The back end of verification is selected once per process, on the first call; with
    // PQLAB_BACKEND set, reading the variable allocates that once. Make that call here,
    // unmeasured.
    let _ = VerifyingKey::<N>::decode(&pk);
    let vk = no_alloc("VerifyingKey::decode", name, || {
        VerifyingKey::<N>::decode(&pk).unwrap()
    });
    let sk = no_alloc("SigningKey::decode", name, || {
        SigningKey::<N>::decode(&skb).unwrap()
    });
    no_alloc("SigningKey::decode (malformed)", name, || {
        SigningKey::<N>::decode(&skb[1..]).unwrap_err()
    });
    no_alloc("encode keys", name, || {
        vk.encode(&mut out).unwrap();
        sk.encode(&mut out).unwrap();
        sk.verifying_key()
    });
    let ek = no_alloc("ExpandedKey::new", name, || ExpandedKey::new(&sk));
    let sig = no_alloc("SigningKey::sign_with_seed", name, || {
        sk.sign_with_seed(&msg, &[1; 40], &[2; 48])
    });
    no_alloc("ExpandedKey::sign_with_seed", name, || {
        ek.sign_with_seed(&msg, &[1; 40], &[2; 48])
    });
    no_alloc("sign (OS randomness)", name, || {
        sk.sign(&msg).unwrap();
        ek.sign(&msg).unwrap()
    });
    no_alloc("Signature::encode and verify", name, || {
        let l = sig.encode(&mut out).unwrap();
        vk.verify(&msg, &out[..l]).unwrap();
        vk.verify(&msg, &det).unwrap();
        vk.verify(b"other", &det).unwrap_err();
        vk.verify(&msg, &det[..det.len() - 1]).unwrap_err();
        Signature::<N>::decode(&det).unwrap()
    });
}

#[test]
fn falcon_is_heap_free() {
    self_check();
    heap_free::<512>("falcon-kat/falcon512-KAT.rsp", "Falcon-512");
    heap_free::<1024>("falcon-kat/falcon1024-KAT.rsp", "Falcon-1024");
}
