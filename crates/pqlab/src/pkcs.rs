//! Key documents of the `pqlab` command: PEM armour, and SubjectPublicKeyInfo / PKCS#8 through
//! the scheme crates' `pkcs8` codecs (the one implementation of the formats, shared with
//! pqlab-tls): `pqlab_mldsa::pkcs8`, `pqlab_mlkem::pkcs8` and `pqlab_falcon::pkcs8` document
//! which forms are read and which canonical form is written. This module picks the codec by the
//! algorithm's name and turns its typed errors into messages; it uses nothing else of the
//! command (the fuzz targets include it).

use der::Decode;
use der::pem::LineEnding;
use pqlab_falcon::pkcs8 as falcon;
use pqlab_mldsa::pkcs8::{self as mldsa, KeyVariant};
use pqlab_mldsa::{MlDsa44, MlDsa65, MlDsa87};
use pqlab_mlkem::pkcs8 as mlkem;
use pqlab_mlkem::{MlKem512, MlKem768, MlKem1024};
use pqlab_pkcs8::{Pkcs8Error, Scheme};
use spki::ObjectIdentifier;
use zeroize::Zeroizing;

/// The PEM label of a SubjectPublicKeyInfo.
pub const PUBLIC_KEY_LABEL: &str = "PUBLIC KEY";
/// The PEM label of a PKCS#8 private key.
pub const PRIVATE_KEY_LABEL: &str = "PRIVATE KEY";
/// The PEM label of an encrypted PKCS#8 private key (recognized only to reject it clearly).
const ENCRYPTED_PRIVATE_KEY_LABEL: &str = "ENCRYPTED PRIVATE KEY";

/// A private key read from PKCS#8: the standard's encodings, and the variant its OID names.
pub struct PrivateKey {
    /// The seed, when the document held one (the seed form or `both`).
    pub seed: Option<Zeroizing<Vec<u8>>>,
    /// The expanded (standard) encoding of the secret key.
    pub expanded: Zeroizing<Vec<u8>>,
    /// The encoded public key.
    pub public: Vec<u8>,
    /// Pure ML-DSA, or HashML-DSA with SHA-512 (the HashML-DSA OIDs); `Pure` for the others.
    pub variant: KeyVariant,
}

/// The OIDs pqlab reads, with the names messages give them.
const OID_NAMES: [(&str, &str); 15] = [
    ("2.16.840.1.101.3.4.3.17", "ml-dsa-44"),
    ("2.16.840.1.101.3.4.3.18", "ml-dsa-65"),
    ("2.16.840.1.101.3.4.3.19", "ml-dsa-87"),
    (
        mldsa::OID_HASH_ML_DSA_44_SHA512,
        "ml-dsa-44 (HashML-DSA with SHA-512)",
    ),
    (
        mldsa::OID_HASH_ML_DSA_65_SHA512,
        "ml-dsa-65 (HashML-DSA with SHA-512)",
    ),
    (
        mldsa::OID_HASH_ML_DSA_87_SHA512,
        "ml-dsa-87 (HashML-DSA with SHA-512)",
    ),
    ("2.16.840.1.101.3.4.4.1", "ml-kem-512"),
    ("2.16.840.1.101.3.4.4.2", "ml-kem-768"),
    ("2.16.840.1.101.3.4.4.3", "ml-kem-1024"),
    (falcon::OID_FALCON_512, "falcon-512"),
    ("1.3.9999.3.6", "falcon-512"),
    ("1.3.9999.3.1", "falcon-512"),
    (falcon::OID_FALCON_1024, "falcon-1024"),
    ("1.3.9999.3.9", "falcon-1024"),
    ("1.3.9999.3.4", "falcon-1024"),
];

/// The dotted OID of a key document's algorithm, if it parses (only its canonical encoding:
/// `const-oid` prints 2.16.(840 + 2^32).1... as ML-DSA-44's OID; found by the pkcs_spki fuzz
/// target).
pub fn document_oid(der: &[u8], private: bool) -> Option<String> {
    let oid = if private {
        pkcs8::PrivateKeyInfoRef::from_der(der).ok()?.algorithm.oid
    } else {
        spki::SubjectPublicKeyInfoRef::from_der(der)
            .ok()?
            .algorithm
            .oid
    };
    let dotted = oid.to_string();
    let again = ObjectIdentifier::new(&dotted).ok()?;
    (again.as_bytes() == oid.as_bytes()).then_some(dotted)
}

/// "holds a key for X, but ALG was requested".
fn other_algorithm(alg: &str, der: &[u8], private: bool) -> String {
    match document_oid(der, private) {
        Some(oid) => match OID_NAMES.iter().find(|(o, _)| *o == oid) {
            Some((_, name)) => format!("holds a key for {name}, but {alg} was requested"),
            None => {
                format!("holds a key for an unknown algorithm (OID {oid}), but {alg} was requested")
            }
        },
        None => "the algorithm object identifier is not in DER form".into(),
    }
}

/// A typed codec error as a message: which algorithm a key of another one is for, and `alg`
/// after a length the codec expected.
fn message<K: Scheme>(alg: &str, der: &[u8], private: bool, e: &Pkcs8Error<K>) -> String {
    let alg = alg.to_ascii_lowercase();
    match e {
        Pkcs8Error::OtherAlgorithm => other_algorithm(&alg, der, private),
        Pkcs8Error::ExpandedLength { .. } | Pkcs8Error::PublicKeyLength { .. } => {
            format!("{e} for {alg}")
        }
        _ => e.to_string(),
    }
}

/// A buffer for the scheme crates' heap-free encoders.
fn encoded(
    max: usize,
    f: impl FnOnce(&mut [u8]) -> Result<usize, String>,
) -> Result<Zeroizing<Vec<u8>>, String> {
    let mut out = Zeroizing::new(vec![0u8; max]);
    let n = f(&mut out)?;
    out.truncate(n);
    Ok(out)
}

fn mldsa_private<P: pqlab_mldsa::ParameterSet>(der: &[u8]) -> Result<PrivateKey, String> {
    let (key, variant) =
        mldsa::decode_signing_key::<P>(der).map_err(|e| message(P::NAME, der, true, &e))?;
    Ok(PrivateKey {
        seed: key.seed().map(|s| Zeroizing::new(s.to_vec())),
        expanded: Zeroizing::new(key.to_expanded().as_ref().to_vec()),
        public: key.verifying_key().as_bytes().to_vec(),
        variant,
    })
}

fn mlkem_private<P: pqlab_mlkem::ParameterSet>(der: &[u8]) -> Result<PrivateKey, String> {
    let key =
        mlkem::decode_decapsulation_key::<P>(der).map_err(|e| message(P::NAME, der, true, &e))?;
    let mut expanded = key.to_expanded();
    let out = Zeroizing::new(expanded.as_ref().to_vec());
    zeroize::Zeroize::zeroize(expanded.as_mut());
    Ok(PrivateKey {
        seed: key.seed().map(|s| Zeroizing::new(s.to_vec())),
        expanded: out,
        public: key.encapsulation_key().as_bytes().to_vec(),
        variant: KeyVariant::Pure,
    })
}

fn falcon_private<const N: usize>(name: &str, der: &[u8]) -> Result<PrivateKey, String> {
    let key = falcon::decode_signing_key::<N>(der).map_err(|e| message(name, der, true, &e))?;
    let sk = encoded(pqlab_falcon::SigningKey::<N>::ENCODED_LEN, |b| {
        key.encode(b).map_err(|e| e.to_string())
    })?;
    let mut pk = vec![0u8; pqlab_falcon::VerifyingKey::<N>::ENCODED_LEN];
    key.verifying_key()
        .encode(&mut pk)
        .map_err(|e| e.to_string())?;
    Ok(PrivateKey {
        seed: None,
        expanded: sk,
        public: pk,
        variant: KeyVariant::Pure,
    })
}

/// Decodes a PKCS#8 private key for the algorithm named `alg` (`ml-dsa-65`), in every form
/// its scheme crate reads.
pub fn decode_private(alg: &str, der: &[u8]) -> Result<PrivateKey, String> {
    match alg {
        "ml-dsa-44" => mldsa_private::<MlDsa44>(der),
        "ml-dsa-65" => mldsa_private::<MlDsa65>(der),
        "ml-dsa-87" => mldsa_private::<MlDsa87>(der),
        "ml-kem-512" => mlkem_private::<MlKem512>(der),
        "ml-kem-768" => mlkem_private::<MlKem768>(der),
        "ml-kem-1024" => mlkem_private::<MlKem1024>(der),
        "falcon-512" => falcon_private::<512>(alg, der),
        "falcon-1024" => falcon_private::<1024>(alg, der),
        _ => Err(format!("{alg} keys have no PKCS#8 form")),
    }
}

fn mldsa_public<P: pqlab_mldsa::ParameterSet>(der: &[u8]) -> Result<(Vec<u8>, KeyVariant), String> {
    let (vk, variant) =
        mldsa::decode_verifying_key::<P>(der).map_err(|e| message(P::NAME, der, false, &e))?;
    Ok((vk.as_bytes().to_vec(), variant))
}

fn mlkem_public<P: pqlab_mlkem::ParameterSet>(der: &[u8]) -> Result<Vec<u8>, String> {
    let ek =
        mlkem::decode_encapsulation_key::<P>(der).map_err(|e| message(P::NAME, der, false, &e))?;
    Ok(ek.as_bytes().to_vec())
}

fn falcon_public<const N: usize>(name: &str, der: &[u8]) -> Result<Vec<u8>, String> {
    let vk = falcon::decode_verifying_key::<N>(der).map_err(|e| message(name, der, false, &e))?;
    let mut pk = vec![0u8; pqlab_falcon::VerifyingKey::<N>::ENCODED_LEN];
    vk.encode(&mut pk).map_err(|e| e.to_string())?;
    Ok(pk)
}

/// Decodes a SubjectPublicKeyInfo for the algorithm named `alg`: the raw public key and the
/// variant its OID names.
pub fn decode_public(alg: &str, der: &[u8]) -> Result<(Vec<u8>, KeyVariant), String> {
    let pure = |pk: Vec<u8>| (pk, KeyVariant::Pure);
    match alg {
        "ml-dsa-44" => mldsa_public::<MlDsa44>(der),
        "ml-dsa-65" => mldsa_public::<MlDsa65>(der),
        "ml-dsa-87" => mldsa_public::<MlDsa87>(der),
        "ml-kem-512" => mlkem_public::<MlKem512>(der).map(pure),
        "ml-kem-768" => mlkem_public::<MlKem768>(der).map(pure),
        "ml-kem-1024" => mlkem_public::<MlKem1024>(der).map(pure),
        "falcon-512" => falcon_public::<512>(alg, der).map(pure),
        "falcon-1024" => falcon_public::<1024>(alg, der).map(pure),
        _ => Err(format!("{alg} keys have no SubjectPublicKeyInfo form")),
    }
}

fn mldsa_encode<P: pqlab_mldsa::ParameterSet>(
    seed: Option<&[u8]>,
    expanded: &[u8],
    variant: KeyVariant,
) -> Result<Zeroizing<Vec<u8>>, String> {
    let key = match seed {
        Some(seed) => pqlab_mldsa::SigningKey::<P>::from_seed_slice(seed),
        None => pqlab_mldsa::SigningKey::<P>::from_expanded(expanded),
    }
    .map_err(|e| e.to_string())?;
    encoded(mldsa::MAX_PKCS8_LEN, |b| {
        mldsa::encode_signing_key(&key, variant, b).map_err(|e| e.to_string())
    })
}

fn mlkem_encode<P: pqlab_mlkem::ParameterSet>(
    seed: Option<&[u8]>,
    expanded: &[u8],
) -> Result<Zeroizing<Vec<u8>>, String> {
    let key = match seed {
        Some(seed) => pqlab_mlkem::DecapsulationKey::<P>::from_seed_bytes(seed),
        None => pqlab_mlkem::DecapsulationKey::<P>::from_expanded(expanded),
    }
    .map_err(|e| e.to_string())?;
    encoded(mlkem::MAX_PKCS8_LEN, |b| {
        mlkem::encode_decapsulation_key(&key, b).map_err(|e| e.to_string())
    })
}

fn falcon_encode<const N: usize>(
    expanded: &[u8],
    form: falcon::PrivateKeyForm,
) -> Result<Zeroizing<Vec<u8>>, String> {
    let key = pqlab_falcon::SigningKey::<N>::decode(expanded).map_err(|e| e.to_string())?;
    encoded(falcon::MAX_PKCS8_LEN, |b| {
        falcon::encode_signing_key_as(&key, form, b).map_err(|e| e.to_string())
    })
}

/// True for the Falcon algorithms (whose private keys have two PKCS#8 forms to write).
pub fn is_falcon(alg: &str) -> bool {
    matches!(alg, "falcon-512" | "falcon-1024")
}

/// Encodes a Falcon secret key (the round-3 encoding, `expanded`) as PKCS#8 in `form`:
/// oqs-provider's (canonical) or BouncyCastle's (see `pqlab_falcon::pkcs8::PrivateKeyForm`).
pub fn encode_falcon_private(
    alg: &str,
    expanded: &[u8],
    form: falcon::PrivateKeyForm,
) -> Result<Zeroizing<Vec<u8>>, String> {
    match alg {
        "falcon-512" => falcon_encode::<512>(expanded, form),
        "falcon-1024" => falcon_encode::<1024>(expanded, form),
        _ => Err(format!("{alg} is not a Falcon algorithm")),
    }
}

/// Encodes a private key in its algorithm's canonical PKCS#8 form: ML-DSA and ML-KEM the IETF
/// seed form (the expandedKey form when the seed is not known), Falcon oqs-provider's form
/// (BouncyCastle's: [`encode_falcon_private`]).
pub fn encode_private(
    alg: &str,
    seed: Option<&[u8]>,
    expanded: &[u8],
    variant: KeyVariant,
) -> Result<Zeroizing<Vec<u8>>, String> {
    match alg {
        "ml-dsa-44" => mldsa_encode::<MlDsa44>(seed, expanded, variant),
        "ml-dsa-65" => mldsa_encode::<MlDsa65>(seed, expanded, variant),
        "ml-dsa-87" => mldsa_encode::<MlDsa87>(seed, expanded, variant),
        "ml-kem-512" => mlkem_encode::<MlKem512>(seed, expanded),
        "ml-kem-768" => mlkem_encode::<MlKem768>(seed, expanded),
        "ml-kem-1024" => mlkem_encode::<MlKem1024>(seed, expanded),
        "falcon-512" | "falcon-1024" => {
            encode_falcon_private(alg, expanded, falcon::PrivateKeyForm::Oqs)
        }
        _ => Err(format!("{alg} keys have no PKCS#8 form")),
    }
}

/// Encodes a raw public key as a SubjectPublicKeyInfo.
pub fn encode_public(alg: &str, pk: &[u8], variant: KeyVariant) -> Result<Vec<u8>, String> {
    let e = |e: &dyn std::fmt::Display| e.to_string();
    let out = match alg {
        "ml-dsa-44" => encoded(mldsa::MAX_SPKI_LEN, |b| {
            let vk = pqlab_mldsa::VerifyingKey::<MlDsa44>::from_bytes(pk).map_err(|x| e(&x))?;
            mldsa::encode_verifying_key(&vk, variant, b).map_err(|x| e(&x))
        }),
        "ml-dsa-65" => encoded(mldsa::MAX_SPKI_LEN, |b| {
            let vk = pqlab_mldsa::VerifyingKey::<MlDsa65>::from_bytes(pk).map_err(|x| e(&x))?;
            mldsa::encode_verifying_key(&vk, variant, b).map_err(|x| e(&x))
        }),
        "ml-dsa-87" => encoded(mldsa::MAX_SPKI_LEN, |b| {
            let vk = pqlab_mldsa::VerifyingKey::<MlDsa87>::from_bytes(pk).map_err(|x| e(&x))?;
            mldsa::encode_verifying_key(&vk, variant, b).map_err(|x| e(&x))
        }),
        "ml-kem-512" => mlkem_spki::<MlKem512>(pk),
        "ml-kem-768" => mlkem_spki::<MlKem768>(pk),
        "ml-kem-1024" => mlkem_spki::<MlKem1024>(pk),
        "falcon-512" => falcon_spki::<512>(pk),
        "falcon-1024" => falcon_spki::<1024>(pk),
        _ => Err(format!("{alg} keys have no SubjectPublicKeyInfo form")),
    }?;
    Ok(out.to_vec())
}

fn mlkem_spki<P: pqlab_mlkem::ParameterSet>(pk: &[u8]) -> Result<Zeroizing<Vec<u8>>, String> {
    let ek = pqlab_mlkem::EncapsulationKey::<P>::from_bytes(pk).map_err(|e| e.to_string())?;
    encoded(mlkem::MAX_SPKI_LEN, |b| {
        mlkem::encode_encapsulation_key(&ek, b).map_err(|e| e.to_string())
    })
}

fn falcon_spki<const N: usize>(pk: &[u8]) -> Result<Zeroizing<Vec<u8>>, String> {
    let vk = pqlab_falcon::VerifyingKey::<N>::decode(pk).map_err(|e| e.to_string())?;
    encoded(falcon::MAX_SPKI_LEN, |b| {
        falcon::encode_verifying_key(&vk, b).map_err(|e| e.to_string())
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

/// True if `data` is one whole DER SEQUENCE (a PKCS#8 or SubjectPublicKeyInfo document written
/// as DER, as BouncyCastle's `getEncoded()` and `openssl pkey -outform DER` write them): its
/// first TLV is a SEQUENCE whose length covers the data exactly.
pub fn is_der(data: &[u8]) -> bool {
    der::asn1::AnyRef::from_der(data).is_ok_and(|any| der::Tagged::tag(&any) == der::Tag::Sequence)
}

/// A DER key document ([`is_der`]) where a private (PKCS#8) or public (SubjectPublicKeyInfo)
/// one is wanted: refused when it is the other kind, as [`pem_decode`] refuses the other label.
pub fn der_document(data: &[u8], private: bool) -> Result<Zeroizing<Vec<u8>>, String> {
    let is_private = pkcs8::PrivateKeyInfoRef::from_der(data).is_ok();
    let is_public = spki::SubjectPublicKeyInfoRef::from_der(data).is_ok();
    match (private, is_private, is_public) {
        (true, false, true) => {
            Err("expected a DER PKCS#8 private key, found a SubjectPublicKeyInfo public key".into())
        }
        (false, true, false) => {
            Err("expected a DER SubjectPublicKeyInfo public key, found a PKCS#8 private key".into())
        }
        _ => Ok(Zeroizing::new(data.to_vec())),
    }
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

    /// The reproducers of the decoders' fuzz findings (`fuzz/artifacts-known/`, fuzz/README.md)
    /// are refused now: an SPKI or PKCS#8 document whose algorithm OID is not in canonical DER
    /// (an arc over 32 bits that `const-oid` wraps onto ML-DSA-44's OID, an arc with a leading
    /// 0x80 octet) is refused for every algorithm the CLI names ([`OID_NAMES`]).
    #[test]
    fn known_fuzz_findings_are_refused() {
        // The names of the table without its HashML-DSA descriptions ("ml-dsa-44 (HashML-...").
        let mut algs: Vec<&str> = OID_NAMES
            .iter()
            .map(|&(_, name)| name)
            .filter(|name| !name.contains(' '))
            .collect();
        algs.sort_unstable();
        algs.dedup();
        assert_eq!(algs.len(), 8);
        let known = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/artifacts-known");
        let files = |target: &str| -> Vec<Vec<u8>> {
            let mut v: Vec<_> = std::fs::read_dir(known.join(target))
                .unwrap()
                .map(|e| std::fs::read(e.unwrap().path()).unwrap())
                .collect();
            v.sort();
            v
        };
        let spki = files("pkcs_spki");
        assert_eq!(spki.len(), 2);
        for der in &spki {
            assert_eq!(document_oid(der, false), None);
            for &alg in &algs {
                assert!(decode_public(alg, der).is_err(), "{alg} accepted a finding");
            }
        }
        // The PKCS#8 target's first byte picks its decoder (0: this module's).
        let pkcs8 = files("pkcs_pkcs8");
        assert_eq!(pkcs8.len(), 1);
        for data in &pkcs8 {
            let der = &data[1..];
            assert_eq!(document_oid(der, true), None);
            for &alg in &algs {
                assert!(
                    decode_private(alg, der).is_err(),
                    "{alg} accepted a finding"
                );
            }
        }
    }

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

    #[test]
    fn wycheproof_pkcs8_seed_form_round_trips() {
        let Some(dir) = wycheproof_dir() else { return };
        let mut checked = 0;
        for level in [44, 65, 87] {
            let alg = format!("ml-dsa-{level}");
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
                let key = decode_private(&alg, &der).unwrap();
                assert_eq!(key.seed.as_deref().map(Vec::as_slice), Some(&seed[..]));
                assert_eq!(key.variant, KeyVariant::Pure);
                let again =
                    encode_private(&alg, Some(&seed), &key.expanded, KeyVariant::Pure).unwrap();
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
        for level in [44, 65, 87] {
            let alg = format!("ml-dsa-{level}");
            let file = load(&dir, &format!("mldsa_{level}_verify_test.json"));
            for group in file["testGroups"].as_array().unwrap() {
                let der = unhex(&group["publicKeyDer"]);
                let pk = unhex(&group["publicKey"]);
                let want = match level {
                    44 => 1312,
                    65 => 1952,
                    _ => 2592,
                };
                if pk.len() != want {
                    // Wycheproof's keys of the wrong length: refused by the codec.
                    let e = decode_public(&alg, &der).unwrap_err();
                    assert!(e.contains("public key inside has"), "{e}");
                    continue;
                }
                assert_eq!(
                    decode_public(&alg, &der).unwrap(),
                    (pk.clone(), KeyVariant::Pure)
                );
                assert_eq!(encode_public(&alg, &pk, KeyVariant::Pure).unwrap(), der);
                checked += 1;
            }
        }
        assert!(checked > 60, "only {checked} public keys checked");
    }

    #[test]
    fn other_algorithms_are_named() {
        let pk = vec![5u8; 1312];
        let der = encode_public("ml-dsa-44", &pk, KeyVariant::HashSha512);
        let der = der.unwrap();
        assert_eq!(
            decode_public("ml-dsa-44", &der).unwrap(),
            (pk, KeyVariant::HashSha512)
        );
        assert_eq!(
            decode_public("ml-dsa-65", &der).unwrap_err(),
            "holds a key for ml-dsa-44 (HashML-DSA with SHA-512), but ml-dsa-65 was requested"
        );
        assert_eq!(
            decode_public("falcon-512", &der).unwrap_err(),
            "holds a key for ml-dsa-44 (HashML-DSA with SHA-512), but falcon-512 was requested"
        );
        let mut unknown = der.clone();
        unknown[16] = 0x7f; // the last arc of the OID
        assert!(
            decode_public("ml-dsa-44", &unknown)
                .unwrap_err()
                .contains("unknown algorithm (OID 2.16.840.1.101.3.4.3.127)")
        );
    }

    #[test]
    fn pem_round_trip_and_label_checks() {
        let der = encode_public("ml-dsa-44", &[3; 1312], KeyVariant::Pure).unwrap();
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
            assert!(
                decode_public("ml-dsa-44", &der).is_err(),
                "{oid:02x?} accepted"
            );
        }
    }
}
