#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::vec::Vec;

use pqlab_pkcs8::test_support::{pkcs8_with, tlv};

use super::*;
use crate::{MlKem512, MlKem768, MlKem1024};

#[test]
fn seed_form_is_the_draft_bytes_and_round_trips() {
    let seed: Vec<u8> = (0u8..64).collect();
    let key = DecapsulationKey::<MlKem768>::from_seed_bytes(&seed).unwrap();
    let mut out = [0u8; MAX_PKCS8_LEN];
    let n = encode_decapsulation_key(&key, &mut out).unwrap();
    let mut want = Vec::from(&b"\x30\x54\x02\x01\x00\x30\x0b\x06\x09\x60\x86\x48\x01\x65\x03\x04\x04\x02\x04\x42\x80\x40"[..]);
    want.extend_from_slice(&seed);
    assert_eq!(&out[..n], &want[..]);
    let back = decode_decapsulation_key::<MlKem768>(&out[..n]).unwrap();
    assert_eq!(back.seed().map(|s| &s[..]), Some(&seed[..]));
    let err = decode_decapsulation_key::<MlKem512>(&out[..n]).map(|_| ());
    assert_eq!(err, Err(Pkcs8Error::OtherAlgorithm));
}

fn all_forms<P: ParameterSet>() {
    let seed = [3u8; 64];
    let key = DecapsulationKey::<P>::from_seed_bytes(&seed).unwrap();
    let expanded = key.to_expanded();
    let both = tlv(
        0x30,
        &[tlv(0x04, &seed), tlv(0x04, expanded.as_ref())].concat(),
    );
    for contents in [
        tlv(0x80, &seed),
        tlv(0x04, expanded.as_ref()),
        both,
        seed.to_vec(), // the bare seed of earlier drafts
    ] {
        let got = decode_decapsulation_key::<P>(&pkcs8_with(P::OID, &contents)).unwrap();
        assert_eq!(got.to_expanded().as_ref(), expanded.as_ref());
    }
    let no_seed = DecapsulationKey::<P>::from_expanded(expanded.as_ref()).unwrap();
    let mut out = [0u8; MAX_PKCS8_LEN];
    let n = encode_decapsulation_key(&no_seed, &mut out).unwrap();
    let got = decode_decapsulation_key::<P>(&out[..n]).unwrap();
    assert!(got.seed().is_none());
    assert_eq!(got.to_expanded().as_ref(), expanded.as_ref());
    let mut out = [0u8; MAX_SPKI_LEN];
    let n = encode_encapsulation_key(key.encapsulation_key(), &mut out).unwrap();
    let ek = decode_encapsulation_key::<P>(&out[..n]).unwrap();
    assert_eq!(&ek, key.encapsulation_key());
}

#[test]
fn every_form_is_read() {
    all_forms::<MlKem512>();
    all_forms::<MlKem768>();
    all_forms::<MlKem1024>();
}

#[test]
fn inconsistent_and_malformed_keys_are_typed_errors() {
    let key = DecapsulationKey::<MlKem512>::from_seed_bytes(&[1u8; 64]).unwrap();
    let expanded = key.to_expanded();
    let both = tlv(
        0x30,
        &[tlv(0x04, &[2u8; 64]), tlv(0x04, expanded.as_ref())].concat(),
    );
    let err = decode_decapsulation_key::<MlKem512>(&pkcs8_with(MlKem512::OID, &both));
    assert_eq!(err.map(|_| ()), Err(Pkcs8Error::SeedExpandedMismatch));
    let short = pkcs8_with(MlKem512::OID, &tlv(0x80, &[0u8; 32]));
    let err = decode_decapsulation_key::<MlKem512>(&short).map(|_| ());
    assert_eq!(
        err,
        Err(Pkcs8Error::SeedLength {
            found: 32,
            expected: 64
        })
    );
    let mut bad = expanded;
    bad.as_mut()[1632 - 64] ^= 1;
    let hash = pkcs8_with(MlKem512::OID, &tlv(0x04, bad.as_ref()));
    let err = decode_decapsulation_key::<MlKem512>(&hash).map(|_| ());
    assert_eq!(err, Err(Pkcs8Error::Key(crate::Error::HashCheck)));
    let mut out = [0u8; MAX_PKCS8_LEN];
    let n = encode_decapsulation_key(&key, &mut out).unwrap();
    for len in 0..n {
        assert!(decode_decapsulation_key::<MlKem512>(&out[..len]).is_err());
    }
}
