#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::vec::Vec;

use der::asn1::{BitStringRef, OctetStringRef};
use der::{Encode, Tag};
use pkcs8::PrivateKeyInfoRef;
use pqlab_pkcs8::test_support::{pkcs8_with, tlv};
use spki::{AlgorithmIdentifier, ObjectIdentifier};

use super::*;
use crate::{MlDsa44, MlDsa65, MlDsa87};

fn encode<P: ParameterSet>(key: &SigningKey<P>, v: KeyVariant) -> Vec<u8> {
    let mut out = [0u8; MAX_PKCS8_LEN];
    let n = encode_signing_key(key, v, &mut out).unwrap();
    out[..n].to_vec()
}

#[test]
fn seed_form_is_the_rfc_bytes_and_round_trips() {
    let key = SigningKey::<MlDsa44>::from_seed(&[0x2a; 32]);
    let der = encode(&key, KeyVariant::Pure);
    let mut want = Vec::from(&b"\x30\x34\x02\x01\x00\x30\x0b\x06\x09\x60\x86\x48\x01\x65\x03\x04\x03\x11\x04\x22\x80\x20"[..]);
    want.extend_from_slice(&[0x2a; 32]);
    assert_eq!(der, want);
    let (back, v) = decode_signing_key::<MlDsa44>(&der).unwrap();
    assert_eq!(v, KeyVariant::Pure);
    assert_eq!(back.seed(), Some(&[0x2a; 32]));
    assert_eq!(
        decode_signing_key::<MlDsa65>(&der).map(|_| ()),
        Err(Pkcs8Error::OtherAlgorithm)
    );
}

fn all_forms<P: ParameterSet>() {
    let xi = [7u8; 32];
    let key = SigningKey::<P>::from_seed(&xi);
    let expanded = key.to_expanded();
    let vk = key.verifying_key();
    let both = tlv(
        0x30,
        &[tlv(0x04, &xi), tlv(0x04, expanded.as_ref())].concat(),
    );
    for contents in [
        tlv(0x80, &xi),
        tlv(0x04, expanded.as_ref()),
        both,
        xi.to_vec(), // the bare seed of earlier drafts
    ] {
        for variant in [KeyVariant::Pure, KeyVariant::HashSha512] {
            let der = pkcs8_with(oid::<P>(variant), &contents);
            let (got, v) = decode_signing_key::<P>(&der).unwrap();
            assert_eq!(v, variant);
            assert_eq!(got.to_expanded().as_ref(), expanded.as_ref());
            assert_eq!(got.verifying_key().as_bytes(), vk.as_bytes());
        }
    }
    // The expanded form is written for a key without seed, and read back.
    let no_seed = SigningKey::<P>::from_expanded(expanded.as_ref()).unwrap();
    let der = encode(&no_seed, KeyVariant::HashSha512);
    let (got, v) = decode_signing_key::<P>(&der).unwrap();
    assert_eq!((got.seed(), v), (None, KeyVariant::HashSha512));
    // Public keys.
    for variant in [KeyVariant::Pure, KeyVariant::HashSha512] {
        let mut out = [0u8; MAX_SPKI_LEN];
        let n = encode_verifying_key(&vk, variant, &mut out).unwrap();
        let (got, v) = decode_verifying_key::<P>(&out[..n]).unwrap();
        assert_eq!((got.as_bytes(), v), (vk.as_bytes(), variant));
    }
}

#[test]
fn every_form_and_variant_is_read() {
    all_forms::<MlDsa44>();
    all_forms::<MlDsa65>();
    all_forms::<MlDsa87>();
}

#[test]
fn inconsistent_and_malformed_keys_are_typed_errors() {
    let key = SigningKey::<MlDsa65>::from_seed(&[1u8; 32]);
    let expanded = key.to_expanded();
    let both = tlv(
        0x30,
        &[tlv(0x04, &[2u8; 32]), tlv(0x04, expanded.as_ref())].concat(),
    );
    let der = pkcs8_with(MlDsa65::OID, &both);
    let err = decode_signing_key::<MlDsa65>(&der).map(|_| ()).unwrap_err();
    assert_eq!(err, Pkcs8Error::SeedExpandedMismatch);
    let der = pkcs8_with(MlDsa65::OID, &tlv(0x80, &[0u8; 31]));
    let err = decode_signing_key::<MlDsa65>(&der).map(|_| ()).unwrap_err();
    assert_eq!(
        err,
        Pkcs8Error::SeedLength {
            found: 31,
            expected: 32
        }
    );
    let der = pkcs8_with(MlDsa65::OID, &tlv(0x04, &[0u8; 100]));
    let err = decode_signing_key::<MlDsa65>(&der).map(|_| ()).unwrap_err();
    assert_eq!(
        err,
        Pkcs8Error::ExpandedLength {
            found: 100,
            expected: 4032
        }
    );
    let der = pkcs8_with(MlDsa65::OID, &tlv(0x02, &[1]));
    let err = decode_signing_key::<MlDsa65>(&der).map(|_| ()).unwrap_err();
    assert_eq!(err, Pkcs8Error::UnknownForm(Tag::Integer));
    let good = encode(&key, KeyVariant::Pure);
    for n in 0..good.len() {
        assert!(decode_signing_key::<MlDsa65>(&good[..n]).is_err());
    }
    for i in 0..good.len() {
        let mut bad = good.clone();
        bad[i] ^= 0x40;
        let _ = decode_signing_key::<MlDsa65>(&bad);
    }
}

#[test]
fn version_2_public_key_must_match() {
    let key = SigningKey::<MlDsa44>::from_seed(&[9u8; 32]);
    let build = |pk: &[u8]| {
        let choice = tlv(0x80, &[9u8; 32]);
        let mut info = PrivateKeyInfoRef::new(
            AlgorithmIdentifier {
                oid: ObjectIdentifier::new(MlDsa44::OID).unwrap(),
                parameters: None,
            },
            OctetStringRef::new(&choice).unwrap(),
        );
        info.public_key = Some(BitStringRef::from_bytes(pk).unwrap());
        let mut out = [0u8; MAX_PKCS8_LEN];
        info.encode_to_slice(&mut out).unwrap().to_vec()
    };
    let pk = key.verifying_key().to_bytes();
    assert!(decode_signing_key::<MlDsa44>(&build(pk.as_ref())).is_ok());
    let mut wrong = pk;
    wrong.as_mut()[40] ^= 1;
    let err = decode_signing_key::<MlDsa44>(&build(wrong.as_ref())).map(|_| ());
    assert_eq!(err, Err(Pkcs8Error::PublicKeyMismatch));
}
