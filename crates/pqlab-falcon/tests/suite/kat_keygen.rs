//! Key generation reproduces the NIST KAT key pairs byte for byte: NIST's CTR_DRBG is seeded
//! with each record's `seed`, and its first 48 bytes seed the keygen SHAKE256 (as the
//! reference `nist.c` does); the generated sk and pk must equal the record's, for all 100
//! records of each file.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common;

use pqlab_testutil::vectors::vectors_dir;

fn run_keygen<const N: usize>(file: &str) {
    let Some(dir) = vectors_dir() else { return };
    let kats = common::load(&dir, file);
    assert_eq!(kats.len(), 100, "{file}: expected 100 records");
    let limit: usize = std::env::var("PQLAB_KAT_LIMIT")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100);
    let mut reproduced = 0;
    let mut bad = Vec::new();
    for k in kats.iter().take(limit) {
        let (out, pk) = common::keygen_from_record::<N>(k);
        if out == k.sk && pk == k.pk {
            reproduced += 1;
        } else {
            bad.push(k.count);
        }
    }
    assert_eq!(
        bad,
        Vec::<usize>::new(),
        "{file}: records that differ from the KAT"
    );
    assert_eq!(reproduced + bad.len(), limit);
    println!("{file}: {reproduced} key pairs reproduced");
}

#[test]
fn kat_512_keygen() {
    run_keygen::<512>("falcon-kat/falcon512-KAT.rsp");
}

#[test]
fn kat_1024_keygen() {
    run_keygen::<1024>("falcon-kat/falcon1024-KAT.rsp");
}
