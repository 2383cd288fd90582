//! SubjectPublicKeyInfo and PKCS#8 for the lattice schemes, and their PEM armour.
//!
//! The formats are those of the IETF LAMPS drafts (draft-ietf-lamps-dilithium-certificates for
//! ML-DSA; draft-ietf-lamps-kyber-certificates gives ML-KEM the same shape): the algorithm
//! identifier is the NIST OID with the parameters absent; the public key is the raw encoding in
//! the BIT STRING; the PKCS#8 `privateKey` OCTET STRING holds
//!
//! ```text
//! PrivateKey ::= CHOICE {
//!     seed        [0] IMPLICIT OCTET STRING,      -- 80 len || seed
//!     expandedKey OCTET STRING,
//!     both        SEQUENCE { seed OCTET STRING, expandedKey OCTET STRING } }
//! ```
//!
//! The seed is 32 bytes (xi) for ML-DSA and 64 bytes (d || z) for ML-KEM; the expanded key is
//! skEncode for ML-DSA and the decapsulation key dk of FIPS 203, Algorithm 16 for ML-KEM.
//!
//! This module only deals with bytes and OIDs; which algorithm an OID means, and whether the
//! lengths and the two halves of `both` agree, is checked by the caller.

use der::asn1::{AnyRef, BitStringRef, OctetStringRef};
use der::pem::LineEnding;
use der::{Decode, Encode, Reader, SliceReader, Tag, TagNumber, Tagged};
use pkcs8::PrivateKeyInfoRef;
use spki::{AlgorithmIdentifier, ObjectIdentifier, SubjectPublicKeyInfoRef};
use zeroize::Zeroizing;

/// The PEM label of a SubjectPublicKeyInfo.
pub const PUBLIC_KEY_LABEL: &str = "PUBLIC KEY";
/// The PEM label of a PKCS#8 private key.
pub const PRIVATE_KEY_LABEL: &str = "PRIVATE KEY";
/// The PEM label of an encrypted PKCS#8 private key (recognized only to reject it clearly).
const ENCRYPTED_PRIVATE_KEY_LABEL: &str = "ENCRYPTED PRIVATE KEY";

/// The tag of the `seed` alternative: `[0]` IMPLICIT, primitive.
const SEED_TAG: Tag = Tag::ContextSpecific {
    constructed: false,
    number: TagNumber(0),
};

/// A decoded SubjectPublicKeyInfo.
#[derive(Debug, PartialEq, Eq)]
pub struct PublicKeyInfo {
    /// The algorithm OID, dotted.
    pub oid: String,
    /// The raw public key (the BIT STRING's bytes).
    pub key: Vec<u8>,
}

/// The `privateKey` CHOICE of the LAMPS drafts.
pub enum PrivateKey {
    /// `seed [0] IMPLICIT OCTET STRING`.
    Seed(Zeroizing<Vec<u8>>),
    /// `expandedKey OCTET STRING`.
    Expanded(Zeroizing<Vec<u8>>),
    /// `both SEQUENCE { seed, expandedKey }`.
    Both {
        /// The seed.
        seed: Zeroizing<Vec<u8>>,
        /// The expanded key.
        expanded: Zeroizing<Vec<u8>>,
    },
}

/// A decoded PKCS#8 (OneAsymmetricKey) private key.
pub struct PrivateKeyInfo {
    /// The algorithm OID, dotted.
    pub oid: String,
    /// The private key in one of its three forms.
    pub key: PrivateKey,
    /// The public key of a version-2 OneAsymmetricKey, if present.
    pub public_key: Option<Vec<u8>>,
}

/// A DER error as a message.
fn der_err(e: der::Error) -> String {
    format!("malformed DER: {e}")
}

/// Parses a dotted OID.
/// The dotted form of an algorithm OID read from DER ([`pqlab_tls::pkcs8::dotted_oid`]: only
/// its canonical encoding).
fn dotted_oid(oid: &ObjectIdentifier) -> Result<String, String> {
    pqlab_tls::pkcs8::dotted_oid(oid)
        .ok_or_else(|| "the algorithm object identifier is not in DER form".into())
}

fn parse_oid(oid: &str) -> Result<ObjectIdentifier, String> {
    ObjectIdentifier::new(oid).map_err(|e| format!("invalid object identifier {oid}: {e}"))
}

/// Encodes a SubjectPublicKeyInfo (DER) for the raw public key `pk`.
pub fn encode_spki(oid: &str, pk: &[u8]) -> Result<Vec<u8>, String> {
    let spki = SubjectPublicKeyInfoRef {
        algorithm: AlgorithmIdentifier {
            oid: parse_oid(oid)?,
            parameters: None,
        },
        subject_public_key: BitStringRef::from_bytes(pk).map_err(der_err)?,
    };
    spki.to_der().map_err(der_err)
}

/// Decodes a SubjectPublicKeyInfo (DER). The parameters must be absent and the BIT STRING a
/// whole number of bytes.
pub fn decode_spki(der: &[u8]) -> Result<PublicKeyInfo, String> {
    let spki = SubjectPublicKeyInfoRef::from_der(der).map_err(der_err)?;
    if spki.algorithm.parameters.is_some() {
        return Err("the algorithm identifier has parameters; they must be absent".into());
    }
    let key = spki
        .subject_public_key
        .as_bytes()
        .ok_or("the public key BIT STRING is not a whole number of bytes")?;
    Ok(PublicKeyInfo {
        oid: dotted_oid(&spki.algorithm.oid)?,
        key: key.to_vec(),
    })
}

/// Encodes the `privateKey` CHOICE.
fn encode_choice(key: &PrivateKey) -> Result<Zeroizing<Vec<u8>>, String> {
    let out = match key {
        PrivateKey::Seed(seed) => AnyRef::new(SEED_TAG, seed).and_then(|a| a.to_der()),
        PrivateKey::Expanded(expanded) => OctetStringRef::new(expanded).and_then(|o| o.to_der()),
        PrivateKey::Both { seed, expanded } => {
            let mut inner = Zeroizing::new(Vec::new());
            OctetStringRef::new(seed)
                .and_then(|o| o.encode_to_vec(&mut inner))
                .map_err(der_err)?;
            OctetStringRef::new(expanded)
                .and_then(|o| o.encode_to_vec(&mut inner))
                .map_err(der_err)?;
            AnyRef::new(Tag::Sequence, &inner).and_then(|a| a.to_der())
        }
    };
    out.map(Zeroizing::new).map_err(der_err)
}

/// Decodes the `privateKey` CHOICE.
fn decode_choice(der: &[u8]) -> Result<PrivateKey, String> {
    let any = AnyRef::from_der(der).map_err(|e| format!("malformed private key: {e}"))?;
    let copy = |b: &[u8]| Zeroizing::new(b.to_vec());
    match any.tag() {
        SEED_TAG => Ok(PrivateKey::Seed(copy(any.value()))),
        Tag::OctetString => Ok(PrivateKey::Expanded(copy(any.value()))),
        Tag::Sequence => {
            let both = |value: &[u8]| -> der::Result<PrivateKey> {
                let mut reader = SliceReader::new(value)?;
                let seed: &OctetStringRef = reader.decode()?;
                let expanded: &OctetStringRef = reader.decode()?;
                reader.finish()?;
                Ok(PrivateKey::Both {
                    seed: copy(seed.as_bytes()),
                    expanded: copy(expanded.as_bytes()),
                })
            };
            both(any.value()).map_err(|e| {
                format!("malformed private key (the 'both' form must hold two OCTET STRINGs): {e}")
            })
        }
        other => Err(format!(
            "malformed private key: expected a seed [0], an expandedKey OCTET STRING or a \
             'both' SEQUENCE, found {other}"
        )),
    }
}

/// Encodes a PKCS#8 private key (DER, version 1, no public key) holding `key`.
pub fn encode_pkcs8(oid: &str, key: &PrivateKey) -> Result<Zeroizing<Vec<u8>>, String> {
    let choice = encode_choice(key)?;
    let info = PrivateKeyInfoRef::new(
        AlgorithmIdentifier {
            oid: parse_oid(oid)?,
            parameters: None,
        },
        OctetStringRef::new(&choice).map_err(der_err)?,
    );
    info.to_der().map(Zeroizing::new).map_err(der_err)
}

/// Decodes a PKCS#8 private key (DER, version 1 or 2). The parameters must be absent.
pub fn decode_pkcs8(der: &[u8]) -> Result<PrivateKeyInfo, String> {
    let info = PrivateKeyInfoRef::from_der(der).map_err(der_err)?;
    if info.algorithm.parameters.is_some() {
        return Err("the algorithm identifier has parameters; they must be absent".into());
    }
    let public_key = match info.public_key {
        None => None,
        Some(bits) => Some(
            bits.as_bytes()
                .ok_or("the public key BIT STRING is not a whole number of bytes")?
                .to_vec(),
        ),
    };
    Ok(PrivateKeyInfo {
        oid: dotted_oid(&info.algorithm.oid)?,
        key: decode_choice(info.private_key.as_bytes())?,
        public_key,
    })
}

/// Wraps DER in PEM armour with `label` (LF line endings).
pub fn pem_encode(label: &str, der: &[u8]) -> Result<Zeroizing<String>, String> {
    der::pem::encode_string(label, LineEnding::LF, der)
        .map(Zeroizing::new)
        .map_err(|e| format!("cannot encode PEM: {e}"))
}

/// True if `data` looks like PEM: an encapsulation boundary `-----BEGIN` at its start (after white
/// space) or at the start of a later line.
pub fn is_pem(data: &[u8]) -> bool {
    // RFC 7468, Section 5.2: explanatory text may precede the encapsulation boundary (as
    // `pem_decode` accepts); found by the fuzz target pkcs_pem.
    let data = data.trim_ascii_start();
    data.starts_with(b"-----BEGIN") || data.windows(11).any(|w| w == b"\n-----BEGIN")
}

/// Removes the PEM armour, checking that the label is `label`.
pub fn pem_decode(data: &[u8], label: &str) -> Result<Zeroizing<Vec<u8>>, String> {
    let data = data.trim_ascii();
    let (found, der) = der::pem::decode_vec(data).map_err(|e| format!("malformed PEM: {e}"))?;
    let der = Zeroizing::new(der);
    if found == label {
        Ok(der)
    } else if found == ENCRYPTED_PRIVATE_KEY_LABEL {
        Err(
            "encrypted private keys are not supported; decrypt it first \
             (e.g. openssl pkcs8 -in FILE -out PLAIN)"
                .into(),
        )
    } else {
        Err(format!("expected PEM '{label}', found '{found}'"))
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

    use super::*;
    use std::path::PathBuf;

    const OID_44: &str = "2.16.840.1.101.3.4.3.17";

    /// The Wycheproof folder, or `None` (with a message) when the vectors are absent outside CI.
    fn wycheproof_dir() -> Option<PathBuf> {
        let base = std::env::var_os("PQLAB_VECTORS").map_or_else(
            || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/vectors"),
            PathBuf::from,
        );
        let dir = base.join("wycheproof/testvectors_v1");
        if dir.is_dir() {
            return Some(dir);
        }
        if std::env::var("CI").is_ok_and(|v| v == "true") {
            panic!("test vectors missing at {} (CI=true)", dir.display());
        }
        eprintln!("skipped: test vectors missing at {}", dir.display());
        None
    }

    fn load(dir: &std::path::Path, name: &str) -> serde_json::Value {
        let text = std::fs::read_to_string(dir.join(name)).unwrap();
        serde_json::from_str(&text).unwrap()
    }

    fn unhex(v: &serde_json::Value) -> Vec<u8> {
        hex::decode(v.as_str().unwrap()).unwrap()
    }

    fn seed_of(info: &PrivateKeyInfo) -> &[u8] {
        match &info.key {
            PrivateKey::Seed(s) => s,
            _ => panic!("not the seed form"),
        }
    }

    #[test]
    fn wycheproof_pkcs8_seed_form_round_trips() {
        let Some(dir) = wycheproof_dir() else { return };
        let mut checked = 0;
        for (level, oid) in [(44, "17"), (65, "18"), (87, "19")] {
            let oid = format!("2.16.840.1.101.3.4.3.{oid}");
            let file = load(&dir, &format!("mldsa_{level}_sign_seed_test.json"));
            for group in file["testGroups"].as_array().unwrap() {
                let Some(pkcs8) = group.get("privateKeyPkcs8") else {
                    continue;
                };
                let der = unhex(pkcs8);
                let seed = unhex(&group["privateSeed"]);
                if der.is_empty() {
                    continue;
                }
                let info = decode_pkcs8(&der).unwrap();
                assert_eq!(info.oid, oid);
                assert_eq!(seed_of(&info), &seed[..]);
                assert!(info.public_key.is_none());
                let again = encode_pkcs8(&oid, &PrivateKey::Seed(Zeroizing::new(seed))).unwrap();
                assert_eq!(&again[..], &der[..]);
                checked += 1;
            }
        }
        assert!(checked > 30, "only {checked} PKCS#8 keys checked");
    }

    #[test]
    fn wycheproof_spki_round_trips() {
        let Some(dir) = wycheproof_dir() else { return };
        let mut checked = 0;
        for (level, oid) in [(44, "17"), (65, "18"), (87, "19")] {
            let oid = format!("2.16.840.1.101.3.4.3.{oid}");
            let file = load(&dir, &format!("mldsa_{level}_verify_test.json"));
            for group in file["testGroups"].as_array().unwrap() {
                let der = unhex(&group["publicKeyDer"]);
                let pk = unhex(&group["publicKey"]);
                let info = decode_spki(&der).unwrap();
                assert_eq!(
                    info,
                    PublicKeyInfo {
                        oid: oid.clone(),
                        key: pk.clone()
                    }
                );
                assert_eq!(encode_spki(&oid, &pk).unwrap(), der);
                checked += 1;
            }
        }
        assert!(checked > 60, "only {checked} public keys checked");
    }

    #[test]
    fn expanded_and_both_forms_decode() {
        let seed = Zeroizing::new(vec![7u8; 32]);
        let expanded = Zeroizing::new(vec![9u8; 2560]);

        let der = encode_pkcs8(OID_44, &PrivateKey::Expanded(expanded.clone())).unwrap();
        // privateKey OCTET STRING (04 82 0a 04) holding an OCTET STRING (04 82 0a 00).
        assert_eq!(
            der[20..28],
            [0x04, 0x82, 0x0a, 0x04, 0x04, 0x82, 0x0a, 0x00]
        );
        match decode_pkcs8(&der).unwrap().key {
            PrivateKey::Expanded(e) => assert_eq!(e, expanded),
            _ => panic!("wrong form"),
        }

        let both = PrivateKey::Both {
            seed: seed.clone(),
            expanded: expanded.clone(),
        };
        let der = encode_pkcs8(OID_44, &both).unwrap();
        // privateKey OCTET STRING holding SEQUENCE { 04 20 seed, 04 82 0a 00 expanded }.
        assert_eq!(
            der[20..30],
            [0x04, 0x82, 0x0a, 0x2a, 0x30, 0x82, 0x0a, 0x26, 0x04, 0x20]
        );
        match decode_pkcs8(&der).unwrap().key {
            PrivateKey::Both {
                seed: s,
                expanded: e,
            } => {
                assert_eq!(s, seed);
                assert_eq!(e, expanded);
            }
            _ => panic!("wrong form"),
        }
    }

    #[test]
    fn seed_form_matches_the_draft_bytes() {
        let der = encode_pkcs8(OID_44, &PrivateKey::Seed(Zeroizing::new(vec![0x2a; 32]))).unwrap();
        let expected = hex::decode(
            "3034020100300b0609608648016503040311042280202a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a\
             2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a",
        )
        .unwrap();
        assert_eq!(&der[..], &expected[..]);
    }

    #[test]
    fn ml_kem_seed_form_matches_the_draft_bytes() {
        // draft-ietf-lamps-kyber-certificates, ML-KEM-768 seed form: [0] with 64 bytes d || z.
        let seed: Vec<u8> = (0u8..64).collect();
        let der = encode_pkcs8(
            "2.16.840.1.101.3.4.4.2",
            &PrivateKey::Seed(Zeroizing::new(seed.clone())),
        )
        .unwrap();
        let mut expected = hex::decode("3054020100300b060960864801650304040204428040").unwrap();
        expected.extend_from_slice(&seed);
        assert_eq!(&der[..], &expected[..]);
        let info = decode_pkcs8(&der).unwrap();
        assert_eq!(info.oid, "2.16.840.1.101.3.4.4.2");
        assert_eq!(seed_of(&info), &seed[..]);
    }

    #[test]
    fn malformed_inputs_are_errors() {
        let good = encode_pkcs8(OID_44, &PrivateKey::Seed(Zeroizing::new(vec![1; 32]))).unwrap();
        // Every truncation and every single-byte change must be handled without a panic.
        for n in 0..good.len() {
            assert!(decode_pkcs8(&good[..n]).is_err());
        }
        for i in 0..good.len() {
            let mut bad = good.to_vec();
            bad[i] ^= 0xff;
            let _ = decode_pkcs8(&bad);
        }
        let mut trailing = good.to_vec();
        trailing.push(0);
        assert!(decode_pkcs8(&trailing).is_err());

        // A private key holding some other type (an INTEGER).
        let mut other = good.to_vec();
        other[20] = 0x02;
        let err = decode_pkcs8(&other).map(|_| ()).unwrap_err();
        assert!(err.contains("malformed private key"), "{err}");

        // Parameters present (NULL) in a public key.
        let spki = encode_spki(OID_44, &[5; 1312]).unwrap();
        let mut with_null = hex::decode("30820534300d06096086480165030403110500").unwrap();
        with_null.extend_from_slice(&spki[17..]);
        assert!(decode_spki(&with_null).unwrap_err().contains("parameters"));
        for n in 0..40 {
            assert!(decode_spki(&spki[..n]).is_err());
        }
    }

    #[test]
    fn pem_round_trip_and_label_checks() {
        let der = encode_spki(OID_44, &[3; 1312]).unwrap();
        let pem = pem_encode(PUBLIC_KEY_LABEL, &der).unwrap();
        assert!(pem.starts_with("-----BEGIN PUBLIC KEY-----\n"));
        assert!(is_pem(pem.as_bytes()));
        assert_eq!(
            &pem_decode(pem.as_bytes(), PUBLIC_KEY_LABEL).unwrap()[..],
            &der[..]
        );
        let padded = format!("\n\n{}\n\n", &*pem);
        assert_eq!(
            &pem_decode(padded.as_bytes(), PUBLIC_KEY_LABEL).unwrap()[..],
            &der[..]
        );
        let err = pem_decode(pem.as_bytes(), PRIVATE_KEY_LABEL).unwrap_err();
        assert_eq!(err, "expected PEM 'PRIVATE KEY', found 'PUBLIC KEY'");
        let broken = pem.replace("-----END PUBLIC KEY-----", "");
        assert!(pem_decode(broken.as_bytes(), PUBLIC_KEY_LABEL).is_err());
        assert!(!is_pem(&der));
    }

    #[test]
    fn pem_with_text_before_the_boundary_is_pem() {
        let pem = "Subject: test\n-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n";
        assert!(is_pem(pem.as_bytes()));
        assert!(!is_pem(&[0x30, 0x82, 0x01, 0x00]));
    }

    #[test]
    fn non_canonical_object_identifiers_are_refused() {
        // 2.16.(840 + 2^32).1.101.3.4.3.17 in five-byte arcs: const-oid prints it as
        // ML-DSA-44's OID (the fuzz target pkcs_spki found it); and an arc with a leading 0x80.
        let wraps = [
            0x60, 0x90, 0x80, 0x80, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x03, 0x11,
        ];
        let leading = [0x60, 0x80, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x03, 0x11];
        for oid in [&wraps[..], &leading[..]] {
            let mut alg = vec![0x06, oid.len() as u8];
            alg.extend_from_slice(oid);
            let mut alg_id = vec![0x30, alg.len() as u8];
            alg_id.extend_from_slice(&alg);
            let key = [0u8; 4];
            let mut bits = vec![0x03, key.len() as u8 + 1, 0x00];
            bits.extend_from_slice(&key);
            let body = [alg_id, bits].concat();
            let der = [vec![0x30, body.len() as u8], body].concat();
            // Refused (by this check or by the DER parser), never read as ML-DSA-44.
            assert!(decode_spki(&der).is_err(), "{oid:02x?} accepted");
        }
    }
}
