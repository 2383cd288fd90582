#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::vec::Vec;

use der::Tag;
use pqlab_pkcs8::test_support::{pkcs8_with, tlv};

use super::*;

struct Fixture {
    seed: [u8; 48],
    sk: Vec<u8>,
    pk: Vec<u8>,
}

fn fixture<const N: usize>() -> Fixture {
    let seed = [N as u8 ^ 0x5a; 48];
    let key = SigningKey::<N>::generate_from_seed(&seed);
    let mut sk = std::vec![0u8; SigningKey::<N>::ENCODED_LEN];
    key.encode(&mut sk).unwrap();
    let mut pk = std::vec![0u8; VerifyingKey::<N>::ENCODED_LEN];
    key.verifying_key().encode(&mut pk).unwrap();
    Fixture { seed, sk, pk }
}

/// BouncyCastle's FalconPrivateKey SEQUENCE, with `public` appended to its contents.
fn bouncycastle<const N: usize>(fx: &Fixture, version: u8, public: &[u8]) -> Vec<u8> {
    let l = params::fg_bits(N) * N / 8;
    let body = [
        tlv(0x02, &[version]),
        tlv(0x04, &fx.sk[1..1 + l]),
        tlv(0x04, &fx.sk[1 + l..1 + 2 * l]),
        tlv(0x04, &fx.sk[1 + 2 * l..]),
        public.to_vec(),
    ]
    .concat();
    tlv(0x30, &body)
}

/// The encoded secret key (SigningKey has no equality).
fn sk_of<const N: usize>(key: &SigningKey<N>) -> Vec<u8> {
    let mut sk = std::vec![0u8; SigningKey::<N>::ENCODED_LEN];
    key.encode(&mut sk).unwrap();
    sk
}

fn every_form<const N: usize>() {
    let fx = fixture::<N>();
    let sk_pk = [fx.sk.clone(), fx.pk.clone()].concat();
    let h_seq = tlv(0x30, &tlv(0x04, &fx.pk[1..]));
    let forms = [
        tlv(0x04, &sk_pk),
        tlv(0x04, &fx.sk),
        sk_pk.clone(),
        fx.sk.clone(),
        tlv(0x80, &fx.seed),
        bouncycastle::<N>(&fx, 0, &[]),
        bouncycastle::<N>(&fx, 1, &h_seq),
        bouncycastle::<N>(&fx, 1, &tlv(0xa0, &h_seq)),
        bouncycastle::<N>(&fx, 1, &tlv(0xa0, &tlv(0x04, &fx.pk))),
    ];
    for oid in oids(N) {
        for (i, contents) in forms.iter().enumerate() {
            let key = decode_signing_key::<N>(&pkcs8_with(oid, contents))
                .unwrap_or_else(|e| panic!("form {i}, {oid}: {e}"));
            let mut sk = std::vec![0u8; SigningKey::<N>::ENCODED_LEN];
            key.encode(&mut sk).unwrap();
            assert_eq!(sk, fx.sk, "form {i}");
        }
    }
    // Written form: oqs-provider's, and read back.
    let key = SigningKey::<N>::decode(&fx.sk).unwrap();
    let mut out = [0u8; MAX_PKCS8_LEN];
    let n = encode_signing_key(&key, &mut out).unwrap();
    assert_eq!(&out[..n], &pkcs8_with(oid(N), &forms[0])[..]);
    assert!(decode_signing_key::<N>(&out[..n]).is_ok());
    // BouncyCastle's form on request: version 0, the untagged public-key SEQUENCE; read back.
    let n = encode_signing_key_as(&key, PrivateKeyForm::BouncyCastle, &mut out).unwrap();
    let bc = pkcs8_with(oid(N), &bouncycastle::<N>(&fx, 0, &h_seq));
    assert_eq!(&out[..n], &bc[..]);
    assert_eq!(sk_of(&decode_signing_key::<N>(&out[..n]).unwrap()), fx.sk);
    let n = encode_signing_key_as(&key, PrivateKeyForm::Oqs, &mut out).unwrap();
    assert_eq!(&out[..n], &pkcs8_with(oid(N), &forms[0])[..]);
    // Public keys: the encoded key, and BouncyCastle's older SEQUENCE.
    let mut out = [0u8; MAX_SPKI_LEN];
    let n = encode_verifying_key(&key.verifying_key(), &mut out).unwrap();
    assert_eq!(
        decode_verifying_key::<N>(&out[..n]).unwrap(),
        key.verifying_key()
    );
    let mut buf = [0u8; 4096];
    let n = pqlab_pkcs8::encode_public::<()>(oids(N)[1], &h_seq, &mut buf).unwrap();
    let der = &buf[..n];
    assert_eq!(decode_verifying_key::<N>(der).unwrap(), key.verifying_key());
}

#[test]
fn every_form_is_read_512() {
    every_form::<512>();
}

#[test]
fn every_form_is_read_1024() {
    every_form::<1024>();
}

#[test]
fn bouncycastle_form_round_trips_and_fits() {
    for i in 0..4u8 {
        let key = SigningKey::<1024>::generate_from_seed(&[i; 48]);
        let mut out = [0u8; MAX_PKCS8_LEN];
        for form in [PrivateKeyForm::BouncyCastle, PrivateKeyForm::Oqs] {
            let n = encode_signing_key_as(&key, form, &mut out).unwrap();
            assert!(n <= MAX_PKCS8_LEN);
            assert_eq!(
                sk_of(&decode_signing_key::<1024>(&out[..n]).unwrap()),
                sk_of(&key)
            );
            assert!(decode_signing_key::<512>(&out[..n]).is_err());
        }
        let key = SigningKey::<512>::generate_from_seed(&[i; 48]);
        let n = encode_signing_key_as(&key, PrivateKeyForm::BouncyCastle, &mut out).unwrap();
        assert_eq!(
            sk_of(&decode_signing_key::<512>(&out[..n]).unwrap()),
            sk_of(&key)
        );
        // A buffer one byte short is a typed error, not a panic.
        let err = encode_signing_key_as(&key, PrivateKeyForm::BouncyCastle, &mut out[..n - 1]);
        assert!(matches!(err, Err(Pkcs8Error::Der(_))));
    }
}

#[test]
fn wrong_keys_are_typed_errors() {
    let fx = fixture::<512>();
    let mut pk = fx.pk.clone();
    pk[100] ^= 1;
    let bad = pkcs8_with(
        OID_FALCON_512,
        &tlv(0x04, &[fx.sk.clone(), pk.clone()].concat()),
    );
    let err = decode_signing_key::<512>(&bad).map(|_| ());
    assert_eq!(err, Err(Pkcs8Error::PublicKeyMismatch));
    let bc = bouncycastle::<512>(&fx, 0, &tlv(0x30, &tlv(0x04, &pk[1..])));
    let err = decode_signing_key::<512>(&pkcs8_with(OID_FALCON_512, &bc)).map(|_| ());
    assert_eq!(err, Err(Pkcs8Error::PublicKeyMismatch));
    let err = decode_signing_key::<1024>(&pkcs8_with(OID_FALCON_512, &tlv(0x04, &fx.sk)));
    assert_eq!(err.map(|_| ()), Err(Pkcs8Error::OtherAlgorithm));
    let err = decode_signing_key::<512>(&pkcs8_with(OID_FALCON_512, &tlv(0x04, &fx.sk[..100])));
    assert_eq!(err.map(|_| ()), Err(Pkcs8Error::SecretKeyLength(100)));
    let err = decode_signing_key::<512>(&pkcs8_with(OID_FALCON_512, &tlv(0x80, &[0; 32])));
    assert_eq!(
        err.map(|_| ()),
        Err(Pkcs8Error::SeedLength {
            found: 32,
            expected: 48
        })
    );
    let err = decode_signing_key::<512>(&pkcs8_with(OID_FALCON_512, &tlv(0x02, &[1])));
    assert_eq!(err.map(|_| ()), Err(Pkcs8Error::UnknownForm(Tag::Integer)));
    let good = pkcs8_with(OID_FALCON_512, &bouncycastle::<512>(&fx, 0, &[]));
    for n in 0..good.len() {
        assert!(decode_signing_key::<512>(&good[..n]).is_err());
    }
}
