//! Parsing of the Falcon round-3 NIST KAT files (`falcon-kat/falcon{512,1024}-KAT.rsp`).
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::Path;

use pqlab_falcon::SigningKey;
use pqlab_testutil::drbg::NistDrbg;
use pqlab_testutil::vectors::{load_text, unhex};

/// One KAT record.
pub struct Kat {
    pub count: usize,
    pub seed: Vec<u8>,
    pub msg: Vec<u8>,
    pub pk: Vec<u8>,
    pub sk: Vec<u8>,
    pub sm: Vec<u8>,
}

impl Kat {
    /// The nonce, the message and the compressed signature (after the 0x20 + logn header)
    /// taken from `sm` = sig_len (2 bytes, big-endian) || nonce || msg || header || comp.
    pub fn split_sm(&self) -> ([u8; 40], &[u8], u8, &[u8]) {
        let sig_len = usize::from(self.sm[0]) << 8 | usize::from(self.sm[1]);
        let nonce: [u8; 40] = self.sm[2..42].try_into().unwrap();
        let mlen = self.sm.len() - 42 - sig_len;
        let msg = &self.sm[42..42 + mlen];
        let hdr = self.sm[42 + mlen];
        let comp = &self.sm[43 + mlen..];
        (nonce, msg, hdr, comp)
    }

    /// The detached signature (header 0x30 + logn, nonce, compressed s2) of this record.
    pub fn detached_sig(&self, logn: u8) -> Vec<u8> {
        let (nonce, _, _, comp) = self.split_sm();
        let mut v = vec![0x30 + logn];
        v.extend_from_slice(&nonce);
        v.extend_from_slice(comp);
        v
    }
}

/// The 48-byte keygen seed of a record, as the reference `nist.c` derives it: NIST's
/// CTR_DRBG seeded with the record's `seed`, its first 48 bytes.
pub fn record_seed(k: &Kat) -> [u8; 48] {
    let mut drbg = NistDrbg::new(&k.seed.as_slice().try_into().unwrap());
    let mut seed = [0u8; 48];
    drbg.fill(&mut seed);
    seed
}

/// The (sk, pk) encodings of a key pair.
pub fn encode_pair<const N: usize>(sk: &SigningKey<N>) -> (Vec<u8>, Vec<u8>) {
    let mut out = vec![0u8; SigningKey::<N>::ENCODED_LEN];
    sk.encode(&mut out).unwrap();
    let mut pk = vec![0u8; pqlab_falcon::VerifyingKey::<N>::ENCODED_LEN];
    sk.verifying_key().encode(&mut pk).unwrap();
    (out, pk)
}

/// The key pair (sk, pk encodings) our key generation makes from a record's seed (the
/// keygen SHAKE256 seeded with [`record_seed`]).
pub fn keygen_from_record<const N: usize>(k: &Kat) -> (Vec<u8>, Vec<u8>) {
    encode_pair(&SigningKey::<N>::generate_from_seed(&record_seed(k)))
}

/// Parses a KAT file below the vector folder.
pub fn load(dir: &Path, rel: &str) -> Vec<Kat> {
    let text = load_text(dir, rel);
    let mut out = Vec::new();
    let mut cur: Option<Kat> = None;
    for line in text.lines() {
        let Some((k, v)) = line.split_once(" = ") else {
            continue;
        };
        let v = v.trim();
        match k.trim() {
            "count" => {
                if let Some(c) = cur.take() {
                    out.push(c);
                }
                cur = Some(Kat {
                    count: v.parse().unwrap(),
                    seed: vec![],
                    msg: vec![],
                    pk: vec![],
                    sk: vec![],
                    sm: vec![],
                });
            }
            "seed" => cur.as_mut().unwrap().seed = unhex(v),
            "msg" => cur.as_mut().unwrap().msg = unhex(v),
            "pk" => cur.as_mut().unwrap().pk = unhex(v),
            "sk" => cur.as_mut().unwrap().sk = unhex(v),
            "sm" => cur.as_mut().unwrap().sm = unhex(v),
            _ => {}
        }
    }
    if let Some(c) = cur.take() {
        out.push(c);
    }
    out
}
