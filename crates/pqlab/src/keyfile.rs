//! Key files: reading them in any format (detected from the contents) with errors that name
//! the file and the problem, and encoding them in the format `keygen` was asked for.
//!
//! * raw: exactly the standard's encoding (public key; expanded secret key; for ML-KEM the
//!   encapsulation key ek and the expanded decapsulation key dk). A file of the raw length is
//!   always read as raw.
//! * DER (read only): a file of another length that is one whole DER SEQUENCE is read as the
//!   SubjectPublicKeyInfo or PKCS#8 document that PEM would armour.
//!
//! Public keys are checked on reading ([`Algorithm::check_public`]: for ML-KEM the modulus
//! check of FIPS 203, Section 7.2), secret keys by the library's import (for ML-KEM the hash
//! check of Section 7.3).
//! * PEM: SubjectPublicKeyInfo (`PUBLIC KEY`) and PKCS#8 (`PRIVATE KEY`) through the scheme
//!   crates' codecs ([`crate::pkcs`]): every form other implementations write is read, one
//!   canonical form per algorithm is written. A key with a HashML-DSA OID carries its pre-hash
//!   (SHA-512) to `sign` and `verify`.

use std::path::Path;

use pqlab_mldsa::HashAlg;
use pqlab_mldsa::pkcs8::KeyVariant;
use zeroize::Zeroizing;

use crate::algs::{self, Algorithm, SecretKey};
use crate::cli::{FalconForm, Format};
use crate::error::{CliError, CliResult};
use crate::io;
use crate::pkcs;

/// Which encoding a length belongs to (for hints about mixed-up files).
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Part {
    /// The public (encapsulation) key.
    Public,
    /// The secret (decapsulation) key, expanded.
    Secret,
    /// A KEM ciphertext.
    Ciphertext,
}

impl Part {
    /// The length of this part for `info`, if the algorithm has one.
    fn len(self, info: &algs::Info) -> Option<usize> {
        match self {
            Part::Public => Some(info.public_key_len),
            Part::Secret => Some(info.secret_key_len),
            Part::Ciphertext => info.ciphertext_len,
        }
    }

    /// What this part is called for an algorithm of `kind`.
    fn name(self, kind: algs::Kind) -> &'static str {
        match self {
            Part::Public => kind.public_key(),
            Part::Secret => kind.secret_key(),
            Part::Ciphertext => "ciphertext",
        }
    }
}

/// "expected N bytes for ALG, found M", with a hint when M is the size of another encoding.
pub fn length_problem(alg: &dyn Algorithm, part: Part, data: &[u8]) -> String {
    let info = alg.info();
    let found = data.len();
    let expected = part.len(&info).unwrap_or(0);
    let mut msg = format!("expected {expected} bytes for {}, found {found}", info.name);
    let other = algs::ALGORITHMS.iter().find_map(|a| {
        let i = a.info();
        [Part::Public, Part::Secret, Part::Ciphertext]
            .into_iter()
            .find(|&p| p.len(&i) == Some(found) && !(p == part && i.name == info.name))
            .map(|p| (i.name, p.name(i.kind)))
    });
    if let Some((name, what)) = other {
        msg.push_str(&format!(" (which is the {name} {what} size)"));
    } else if data.windows(10).any(|w| w == b"-----BEGIN") {
        msg.push_str(" (PEM must start with the -----BEGIN line)");
    }
    msg
}

/// The pre-hash a key's OID names: SHA-512 for the HashML-DSA OIDs.
fn prehash_of(variant: KeyVariant) -> Option<HashAlg> {
    match variant {
        KeyVariant::Pure => None,
        KeyVariant::HashSha512 => Some(HashAlg::Sha2_512),
    }
}

/// Reads a public key file (raw or PEM) for `alg` and returns the raw public key, checked
/// (for ML-KEM: the modulus check).
pub fn read_public_key(alg: &dyn Algorithm, path: &Path) -> CliResult<Vec<u8>> {
    read_verifying_key(alg, path).map(|(pk, _)| pk)
}

/// Reads a public key file (raw or PEM) for `alg`: the raw public key, and the pre-hash its OID
/// names (HashML-DSA with SHA-512), if any.
pub fn read_verifying_key(
    alg: &dyn Algorithm,
    path: &Path,
) -> CliResult<(Vec<u8>, Option<HashAlg>)> {
    let what = alg.info().kind.public_key_file();
    let data = io::read_small(what, path)?;
    decode_public_key(alg, &data).map_err(|p| CliError::file(what, path, p))
}

/// Decodes a public key (raw or PEM) for `alg` and checks it.
fn decode_public_key(
    alg: &dyn Algorithm,
    data: &[u8],
) -> Result<(Vec<u8>, Option<HashAlg>), String> {
    let info = alg.info();
    let len = info.public_key_len;
    let pem = pkcs::is_pem(data);
    let (key, variant) = if pem || (data.len() != len && pkcs::is_der(data)) {
        let der = if pem {
            pkcs::pem_decode(data, pkcs::PUBLIC_KEY_LABEL)?
        } else {
            pkcs::der_document(data, false)?
        };
        let (key, variant) = pkcs::decode_public(info.name, &der)?;
        if key.len() != len {
            return Err(format!(
                "the {} inside has {} bytes, expected {len} for {}",
                info.kind.public_key(),
                key.len(),
                info.name
            ));
        }
        (key, variant)
    } else {
        if data.len() != len {
            return Err(length_problem(alg, Part::Public, data));
        }
        (data.to_vec(), KeyVariant::Pure)
    };
    alg.check_public(&key)?;
    Ok((key, prehash_of(variant)))
}

/// Reads a secret key file (raw or PEM) for `alg`.
pub fn read_secret_key(alg: &dyn Algorithm, path: &Path) -> CliResult<SecretKey> {
    read_signing_key(alg, path).map(|(sk, _)| sk)
}

/// Reads a secret key file (raw or PEM) for `alg`, and the pre-hash its OID names
/// (HashML-DSA with SHA-512), if any.
pub fn read_signing_key(
    alg: &dyn Algorithm,
    path: &Path,
) -> CliResult<(SecretKey, Option<HashAlg>)> {
    let what = alg.info().kind.secret_key_file();
    let data = io::read_small(what, path)?;
    decode_secret_key(alg, &data).map_err(|p| CliError::file(what, path, p))
}

/// Decodes a secret key (raw or PEM) for `alg`.
fn decode_secret_key(
    alg: &dyn Algorithm,
    data: &[u8],
) -> Result<(SecretKey, Option<HashAlg>), String> {
    let info = alg.info();
    let der = if pkcs::is_pem(data) {
        pkcs::pem_decode(data, pkcs::PRIVATE_KEY_LABEL)?
    } else if data.len() != info.secret_key_len && pkcs::is_der(data) {
        pkcs::der_document(data, true)?
    } else {
        if data.len() != info.secret_key_len {
            return Err(length_problem(alg, Part::Secret, data));
        }
        return Ok((alg.secret_from_expanded(data)?, None));
    };
    let key = pkcs::decode_private(info.name, &der)?;
    let sk = match &key.seed {
        Some(seed) if seed.len() == info.seed_len => alg.secret_from_seed(seed)?,
        _ => alg.secret_from_expanded(&key.expanded)?,
    };
    // The codec checked the document; this checks the command's key against the codec's.
    if alg.public_from_secret(&sk)? != key.public {
        return Err(format!(
            "the {} inside does not match the private key",
            info.kind.public_key()
        ));
    }
    Ok((sk, prehash_of(key.variant)))
}

/// Checks that a document the codec wrote names the algorithm the registry has for `alg`
/// (the registry's OIDs and the scheme crates' must agree).
fn check_written(alg: &dyn Algorithm, der: &[u8], private: bool) -> CliResult<()> {
    let oid = pkcs::document_oid(der, private);
    let found = oid.as_deref().and_then(algs::find_by_oid);
    if found.map(|a| a.info().name) == Some(alg.info().name) {
        Ok(())
    } else {
        Err(CliError::new(format!(
            "internal error: the {} key document has OID {oid:?}, expected {}",
            alg.info().name,
            alg.info().oid
        )))
    }
}

/// Encodes a public key in `format`.
pub fn encode_public_key(alg: &dyn Algorithm, pk: &[u8], format: Format) -> CliResult<Vec<u8>> {
    match format {
        Format::Raw => Ok(pk.to_vec()),
        Format::Pem => {
            let der = pkcs::encode_public(alg.info().name, pk, KeyVariant::Pure)
                .map_err(CliError::new)?;
            check_written(alg, &der, false)?;
            let pem = pkcs::pem_encode(pkcs::PUBLIC_KEY_LABEL, &der).map_err(CliError::new)?;
            Ok(pem.as_bytes().to_vec())
        }
    }
}

/// Encodes a secret key in `format` (PEM: the algorithm's canonical PKCS#8 form, see
/// [`pkcs::encode_private`]; a Falcon key in `falcon_form`).
pub fn encode_secret_key(
    alg: &dyn Algorithm,
    sk: &SecretKey,
    format: Format,
    falcon_form: FalconForm,
) -> CliResult<Zeroizing<Vec<u8>>> {
    match format {
        Format::Raw => Ok(Zeroizing::new(sk.expanded.to_vec())),
        Format::Pem => {
            let name = alg.info().name;
            let der = if pkcs::is_falcon(name) {
                pkcs::encode_falcon_private(name, &sk.expanded, falcon_form.codec())
            } else {
                pkcs::encode_private(
                    name,
                    sk.seed.as_deref().map(Vec::as_slice),
                    &sk.expanded,
                    KeyVariant::Pure,
                )
            }
            .map_err(CliError::new)?;
            check_written(alg, &der, true)?;
            let pem = pkcs::pem_encode(pkcs::PRIVATE_KEY_LABEL, &der).map_err(CliError::new)?;
            Ok(Zeroizing::new(pem.as_bytes().to_vec()))
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

    use super::*;

    fn alg(name: &str) -> &'static dyn Algorithm {
        algs::find(name).unwrap()
    }

    use pqlab_pkcs8::test_support::{pkcs8_with, tlv};

    /// A PEM PKCS#8 document (version 1) with `oid` and the `privateKey` contents `contents`.
    fn pem_private(oid: &'static str, contents: &[u8]) -> Vec<u8> {
        pkcs::pem_encode(pkcs::PRIVATE_KEY_LABEL, &pkcs8_with(oid, contents))
            .unwrap()
            .as_bytes()
            .to_vec()
    }

    fn err<T>(r: Result<T, String>) -> String {
        match r {
            Ok(_) => panic!("expected an error"),
            Err(e) => e,
        }
    }

    #[test]
    fn every_private_key_form_gives_the_same_key() {
        let a = alg("ml-dsa-44");
        let oid = a.info().oid;
        let seed = [0x42u8; 32];
        let sk = a.secret_from_seed(&seed).unwrap();
        let forms = [
            tlv(0x80, &seed),
            tlv(0x04, &sk.expanded),
            tlv(0x30, &[tlv(0x04, &seed), tlv(0x04, &sk.expanded)].concat()),
            seed.to_vec(),
        ];
        for form in &forms {
            let (got, prehash) = decode_secret_key(a, &pem_private(oid, form)).unwrap();
            assert_eq!(got.expanded, sk.expanded);
            assert_eq!(prehash, None);
        }
        // HashML-DSA's OID: the same key, signing with SHA-512.
        let (got, prehash) =
            decode_secret_key(a, &pem_private("2.16.840.1.101.3.4.3.32", &forms[0])).unwrap();
        assert_eq!(got.expanded, sk.expanded);
        assert_eq!(prehash, Some(HashAlg::Sha2_512));
        // Raw: the expanded encoding.
        let (raw, _) = decode_secret_key(a, &sk.expanded).unwrap();
        assert_eq!(raw.expanded, sk.expanded);
        assert!(raw.seed.is_none());
    }

    #[test]
    fn der_documents_are_read_and_the_raw_length_wins() {
        for name in ["ml-dsa-44", "ml-kem-512", "falcon-512"] {
            let a = alg(name);
            let pair = a.keygen(None).unwrap();
            let pem = encode_secret_key(a, &pair.secret, Format::Pem, FalconForm::Oqs).unwrap();
            let der = pkcs::pem_decode(&pem, pkcs::PRIVATE_KEY_LABEL).unwrap();
            let (sk, _) = decode_secret_key(a, &der).unwrap();
            assert_eq!(sk.expanded, pair.secret.expanded);
            let pem = encode_public_key(a, &pair.public, Format::Pem).unwrap();
            let der = pkcs::pem_decode(&pem, pkcs::PUBLIC_KEY_LABEL).unwrap();
            assert_eq!(decode_public_key(a, &der).unwrap().0, pair.public);
            // Each where the other belongs is named.
            let e = err(decode_secret_key(a, &der));
            assert!(e.contains("found a SubjectPublicKeyInfo public key"), "{e}");
        }
        // A raw key that happens to start like DER (rho is any 32 bytes) is still raw: its
        // length decides.
        let a = alg("ml-dsa-44");
        let mut sk = a.secret_from_seed(&[9u8; 32]).unwrap().expanded.to_vec();
        sk[..4].copy_from_slice(&[0x30, 0x82, 0x09, 0xfc]);
        assert!(pkcs::is_der(&sk));
        let (got, _) = decode_secret_key(a, &sk).unwrap();
        assert_eq!(&got.expanded[..], &sk[..]);
    }

    #[test]
    fn inconsistent_both_form_is_rejected() {
        let a = alg("ml-dsa-65");
        let other = a.secret_from_seed(&[1u8; 32]).unwrap();
        let both = tlv(
            0x30,
            &[tlv(0x04, &[2u8; 32]), tlv(0x04, &other.expanded)].concat(),
        );
        let e = err(decode_secret_key(a, &pem_private(a.info().oid, &both)));
        assert_eq!(e, "the seed and the expanded key inside do not match");
    }

    #[test]
    fn wrong_lengths_inside_pem_are_rejected() {
        let a = alg("ml-dsa-87");
        let oid = a.info().oid;
        let e = err(decode_secret_key(
            a,
            &pem_private(oid, &tlv(0x80, &[0u8; 31])),
        ));
        assert_eq!(e, "the seed inside has 31 bytes, expected 32");
        let e = err(decode_secret_key(
            a,
            &pem_private(oid, &tlv(0x04, &[0u8; 100])),
        ));
        assert_eq!(
            e,
            "the expanded key inside has 100 bytes, expected 4896 for ml-dsa-87"
        );
    }

    #[test]
    fn keys_of_another_parameter_set_are_rejected() {
        let a44 = alg("ml-dsa-44");
        let a65 = alg("ml-dsa-65");
        let pair = a44.keygen(Some(&[5u8; 32])).unwrap();
        let sk_pem = encode_secret_key(a44, &pair.secret, Format::Pem, FalconForm::Oqs).unwrap();
        let pk_pem = encode_public_key(a44, &pair.public, Format::Pem).unwrap();
        let e = err(decode_secret_key(a65, &sk_pem));
        assert_eq!(e, "holds a key for ml-dsa-44, but ml-dsa-65 was requested");
        let e = err(decode_public_key(a65, &pk_pem));
        assert_eq!(e, "holds a key for ml-dsa-44, but ml-dsa-65 was requested");
        let e = err(decode_secret_key(a65, &pair.secret.expanded));
        assert_eq!(
            e,
            "expected 4032 bytes for ml-dsa-65, found 2560 (which is the ml-dsa-44 secret key size)"
        );
        let e = err(decode_public_key(a65, &pair.public));
        assert_eq!(
            e,
            "expected 1952 bytes for ml-dsa-65, found 1312 (which is the ml-dsa-44 public key size)"
        );
        // A public key where a secret key belongs, and the other way round.
        let e = err(decode_secret_key(a44, &pk_pem));
        assert_eq!(e, "expected PEM 'PRIVATE KEY', found 'PUBLIC KEY'");
        let e = err(decode_secret_key(a44, &pair.public));
        assert!(
            e.ends_with("(which is the ml-dsa-44 public key size)"),
            "{e}"
        );
    }

    #[test]
    fn falcon_forms_work_across_commands() {
        // keygen's PEM (the canonical oqs-provider form), the seed form of earlier pqlab
        // versions and BouncyCastle's SEQUENCE all give the same key.
        let a = alg("falcon-512");
        let seed = [7u8; 48];
        let pair = a.keygen(Some(&seed)).unwrap();
        let pem = encode_secret_key(a, &pair.secret, Format::Pem, FalconForm::Oqs).unwrap();
        let (sk, _) = decode_secret_key(a, &pem).unwrap();
        assert_eq!(sk.expanded, pair.secret.expanded);
        let (sk, _) = decode_secret_key(a, &pem_private(a.info().oid, &tlv(0x80, &seed))).unwrap();
        assert_eq!(sk.expanded, pair.secret.expanded);
        let x = &pair.secret.expanded;
        let bc = tlv(
            0x30,
            &[
                tlv(0x02, &[0]),
                tlv(0x04, &x[1..385]),
                tlv(0x04, &x[385..769]),
                tlv(0x04, &x[769..]),
            ]
            .concat(),
        );
        let (sk, _) = decode_secret_key(a, &pem_private("1.3.9999.3.6", &bc)).unwrap();
        assert_eq!(sk.expanded, pair.secret.expanded);
        let pk_pem = encode_public_key(a, &pair.public, Format::Pem).unwrap();
        assert_eq!(decode_public_key(a, &pk_pem).unwrap().0, pair.public);
    }

    #[test]
    fn ml_kem_keys_are_checked_on_reading() {
        let a = alg("ml-kem-512");
        let pair = a.keygen(Some(&[3u8; 64])).unwrap();
        assert_eq!(decode_public_key(a, &pair.public).unwrap().0, pair.public);
        let mut ek = pair.public.clone();
        ek[0] = 0xff;
        ek[1] |= 0x0f;
        let e = err(decode_public_key(a, &ek));
        assert!(e.starts_with("coefficient >= q (modulus check"), "{e}");
        let mut dk = pair.secret.expanded.to_vec();
        dk[1632 - 64] ^= 1;
        let e = err(decode_secret_key(a, &dk));
        assert!(e.contains("hash check"), "{e}");
        // The seed form in PEM round-trips, and so does the bare-seed draft form.
        let pem = encode_secret_key(a, &pair.secret, Format::Pem, FalconForm::Oqs).unwrap();
        let (sk, _) = decode_secret_key(a, &pem).unwrap();
        assert_eq!(sk.seed.as_deref().map(Vec::as_slice), Some(&[3u8; 64][..]));
        assert_eq!(sk.expanded, pair.secret.expanded);
        let (sk, _) = decode_secret_key(a, &pem_private(a.info().oid, &[3u8; 64])).unwrap();
        assert_eq!(sk.expanded, pair.secret.expanded);
    }

    #[test]
    fn malformed_expanded_key_is_rejected() {
        let a = alg("ml-dsa-44");
        let e = err(decode_secret_key(a, &[0xffu8; 2560]));
        assert!(e.starts_with("not a valid ML-DSA secret key"), "{e}");
    }

    #[test]
    fn garbage_never_panics() {
        let mut x: u32 = 1;
        for name in ["ml-dsa-44", "falcon-512", "ml-kem-768"] {
            let a = alg(name);
            for len in [0usize, 1, 31, 32, 100, 1312, 2560, 4000] {
                let data: Vec<u8> = (0..len)
                    .map(|_| {
                        x = x.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                        (x >> 16) as u8
                    })
                    .collect();
                let _ = decode_secret_key(a, &data);
                let _ = decode_public_key(a, &data);
                let mut pem = b"-----BEGIN PRIVATE KEY-----\n".to_vec();
                pem.extend_from_slice(&data);
                let _ = decode_secret_key(a, &pem);
                let _ = decode_secret_key(a, &pem_private(a.info().oid, &data));
            }
        }
    }
}
