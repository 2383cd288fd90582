//! Key files: reading them in either format (detected from the contents) with errors that name
//! the file and the problem, and encoding them in the format `keygen` was asked for.
//!
//! * raw: exactly the standard's encoding (public key; expanded secret key; for ML-KEM the
//!   encapsulation key ek and the expanded decapsulation key dk).
//!
//! Public keys are checked on reading ([`Algorithm::check_public`]: for ML-KEM the modulus
//! check of FIPS 203, Section 7.2), secret keys by the library's import (for ML-KEM the hash
//! check of Section 7.3).
//! * PEM: SubjectPublicKeyInfo (`PUBLIC KEY`) and PKCS#8 (`PRIVATE KEY`), see [`crate::pkcs`].
//!   Private keys are written in seed form when the seed is known (the expanded form
//!   otherwise); all three forms of the private-key CHOICE are read.

use std::path::Path;

use subtle::ConstantTimeEq;
use zeroize::Zeroizing;

use crate::algs::{self, Algorithm, SecretKey};
use crate::cli::Format;
use crate::error::{CliError, CliResult};
use crate::io;
use crate::pkcs::{self, PrivateKey};

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

/// Checks that a PEM key's OID is the algorithm's.
fn check_oid(alg: &dyn Algorithm, oid: &str) -> Result<(), String> {
    let info = alg.info();
    if oid == info.oid {
        return Ok(());
    }
    Err(match algs::find_by_oid(oid) {
        Some(other) => format!(
            "holds a key for {}, but {} was requested",
            other.info().name,
            info.name
        ),
        None => format!(
            "holds a key for an unknown algorithm (OID {oid}), but {} was requested",
            info.name
        ),
    })
}

/// Reads a public key file (raw or PEM) for `alg` and returns the raw public key, checked
/// (for ML-KEM: the modulus check).
pub fn read_public_key(alg: &dyn Algorithm, path: &Path) -> CliResult<Vec<u8>> {
    let what = alg.info().kind.public_key_file();
    let data = io::read_small(what, path)?;
    decode_public_key(alg, &data).map_err(|p| CliError::file(what, path, p))
}

/// Decodes a public key (raw or PEM) for `alg` and checks it.
fn decode_public_key(alg: &dyn Algorithm, data: &[u8]) -> Result<Vec<u8>, String> {
    let info = alg.info();
    let len = info.public_key_len;
    let key = if pkcs::is_pem(data) {
        let der = pkcs::pem_decode(data, pkcs::PUBLIC_KEY_LABEL)?;
        let spki = pkcs::decode_spki(&der)?;
        check_oid(alg, &spki.oid)?;
        if spki.key.len() != len {
            return Err(format!(
                "the {} inside has {} bytes, expected {len} for {}",
                info.kind.public_key(),
                spki.key.len(),
                info.name
            ));
        }
        spki.key
    } else {
        if data.len() != len {
            return Err(length_problem(alg, Part::Public, data));
        }
        data.to_vec()
    };
    alg.check_public(&key)?;
    Ok(key)
}

/// Reads a secret key file (raw or PEM) for `alg`.
pub fn read_secret_key(alg: &dyn Algorithm, path: &Path) -> CliResult<SecretKey> {
    let what = alg.info().kind.secret_key_file();
    let data = io::read_small(what, path)?;
    decode_secret_key(alg, &data).map_err(|p| CliError::file(what, path, p))
}

/// Decodes a secret key (raw or PEM) for `alg`.
fn decode_secret_key(alg: &dyn Algorithm, data: &[u8]) -> Result<SecretKey, String> {
    let info = alg.info();
    if !pkcs::is_pem(data) {
        if data.len() != info.secret_key_len {
            return Err(length_problem(alg, Part::Secret, data));
        }
        return alg.secret_from_expanded(data);
    }
    let der = pkcs::pem_decode(data, pkcs::PRIVATE_KEY_LABEL)?;
    let pkcs8 = pkcs::decode_pkcs8(&der)?;
    check_oid(alg, &pkcs8.oid)?;
    let check_seed = |seed: &[u8]| {
        if seed.len() == info.seed_len {
            Ok(())
        } else {
            Err(format!(
                "the seed inside has {} bytes, expected {}",
                seed.len(),
                info.seed_len
            ))
        }
    };
    let check_expanded = |expanded: &[u8]| {
        if expanded.len() == info.secret_key_len {
            Ok(())
        } else {
            Err(format!(
                "the expanded key inside has {} bytes, expected {} for {}",
                expanded.len(),
                info.secret_key_len,
                info.name
            ))
        }
    };
    let sk = match &pkcs8.key {
        PrivateKey::Seed(seed) => {
            check_seed(seed)?;
            alg.secret_from_seed(seed)?
        }
        PrivateKey::Expanded(expanded) => {
            check_expanded(expanded)?;
            alg.secret_from_expanded(expanded)?
        }
        PrivateKey::Both { seed, expanded } => {
            check_seed(seed)?;
            check_expanded(expanded)?;
            let sk = alg.secret_from_seed(seed)?;
            if !bool::from(sk.expanded.as_slice().ct_eq(expanded.as_slice())) {
                return Err("the seed and the expanded key inside do not match".into());
            }
            sk
        }
    };
    if let Some(pk) = &pkcs8.public_key
        && *pk != alg.public_from_secret(&sk)?
    {
        return Err(format!(
            "the {} inside does not match the private key",
            info.kind.public_key()
        ));
    }
    Ok(sk)
}

/// Encodes a public key in `format`.
pub fn encode_public_key(alg: &dyn Algorithm, pk: &[u8], format: Format) -> CliResult<Vec<u8>> {
    match format {
        Format::Raw => Ok(pk.to_vec()),
        Format::Pem => {
            let der = pkcs::encode_spki(alg.info().oid, pk).map_err(CliError::new)?;
            let pem = pkcs::pem_encode(pkcs::PUBLIC_KEY_LABEL, &der).map_err(CliError::new)?;
            Ok(pem.as_bytes().to_vec())
        }
    }
}

/// Encodes a secret key in `format` (PEM: the seed form when the seed is known).
pub fn encode_secret_key(
    alg: &dyn Algorithm,
    sk: &SecretKey,
    format: Format,
) -> CliResult<Zeroizing<Vec<u8>>> {
    match format {
        Format::Raw => Ok(Zeroizing::new(sk.expanded.to_vec())),
        Format::Pem => {
            let key = match &sk.seed {
                Some(seed) => PrivateKey::Seed(seed.clone()),
                None => PrivateKey::Expanded(sk.expanded.clone()),
            };
            let der = pkcs::encode_pkcs8(alg.info().oid, &key).map_err(CliError::new)?;
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

    fn pem_private(oid: &str, key: &PrivateKey) -> Vec<u8> {
        let der = pkcs::encode_pkcs8(oid, key).unwrap();
        pkcs::pem_encode(pkcs::PRIVATE_KEY_LABEL, &der)
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
    fn all_three_private_key_forms_give_the_same_key() {
        let a = alg("ml-dsa-44");
        let oid = a.info().oid;
        let seed = Zeroizing::new(vec![0x42u8; 32]);
        let sk = a.secret_from_seed(&seed).unwrap();
        let forms = [
            PrivateKey::Seed(seed.clone()),
            PrivateKey::Expanded(sk.expanded.clone()),
            PrivateKey::Both {
                seed: seed.clone(),
                expanded: sk.expanded.clone(),
            },
        ];
        for form in &forms {
            let got = decode_secret_key(a, &pem_private(oid, form)).unwrap();
            assert_eq!(got.expanded, sk.expanded);
        }
        // Raw: the expanded encoding.
        let raw = decode_secret_key(a, &sk.expanded).unwrap();
        assert_eq!(raw.expanded, sk.expanded);
        assert!(raw.seed.is_none());
    }

    #[test]
    fn inconsistent_both_form_is_rejected() {
        let a = alg("ml-dsa-65");
        let other = a.secret_from_seed(&[1u8; 32]).unwrap();
        let both = PrivateKey::Both {
            seed: Zeroizing::new(vec![2u8; 32]),
            expanded: other.expanded.clone(),
        };
        let e = err(decode_secret_key(a, &pem_private(a.info().oid, &both)));
        assert_eq!(e, "the seed and the expanded key inside do not match");
    }

    #[test]
    fn wrong_lengths_inside_pem_are_rejected() {
        let a = alg("ml-dsa-87");
        let oid = a.info().oid;
        let short_seed = PrivateKey::Seed(Zeroizing::new(vec![0u8; 31]));
        let e = err(decode_secret_key(a, &pem_private(oid, &short_seed)));
        assert_eq!(e, "the seed inside has 31 bytes, expected 32");
        let short = PrivateKey::Expanded(Zeroizing::new(vec![0u8; 100]));
        let e = err(decode_secret_key(a, &pem_private(oid, &short)));
        assert!(e.contains("expanded key inside has 100 bytes"), "{e}");
        let der = pkcs::encode_spki(oid, &[0u8; 2591]).unwrap();
        let pem = pkcs::pem_encode(pkcs::PUBLIC_KEY_LABEL, &der).unwrap();
        let e = err(decode_public_key(a, pem.as_bytes()));
        assert_eq!(
            e,
            "the public key inside has 2591 bytes, expected 2592 for ml-dsa-87"
        );
    }

    #[test]
    fn keys_of_another_parameter_set_are_rejected() {
        let a44 = alg("ml-dsa-44");
        let a65 = alg("ml-dsa-65");
        let pair = a44.keygen(Some(&[5u8; 32])).unwrap();
        let sk_pem = encode_secret_key(a44, &pair.secret, Format::Pem).unwrap();
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
        // An unknown OID.
        let der = pkcs::encode_spki("1.3.6.1.4.1.2.267.7.6.5", &pair.public).unwrap();
        let pem = pkcs::pem_encode(pkcs::PUBLIC_KEY_LABEL, &der).unwrap();
        let e = err(decode_public_key(a44, pem.as_bytes()));
        assert!(
            e.contains("unknown algorithm (OID 1.3.6.1.4.1.2.267.7.6.5)"),
            "{e}"
        );
    }

    #[test]
    fn version_2_public_key_is_checked() {
        use der::Encode;
        use der::asn1::{BitStringRef, OctetStringRef};

        let a = alg("ml-dsa-44");
        let pair = a.keygen(Some(&[9u8; 32])).unwrap();
        let choice = [&[0x80, 0x20][..], &[9u8; 32]].concat();
        let build = |pk: &[u8]| {
            let mut info = pkcs8::PrivateKeyInfoRef::new(
                spki::AlgorithmIdentifier {
                    oid: spki::ObjectIdentifier::new(a.info().oid).unwrap(),
                    parameters: None,
                },
                OctetStringRef::new(&choice).unwrap(),
            );
            info.public_key = Some(BitStringRef::from_bytes(pk).unwrap());
            let der = info.to_der().unwrap();
            pkcs::pem_encode(pkcs::PRIVATE_KEY_LABEL, &der)
                .unwrap()
                .as_bytes()
                .to_vec()
        };
        assert!(decode_secret_key(a, &build(&pair.public)).is_ok());
        let mut wrong = pair.public.clone();
        wrong[40] ^= 1;
        let e = err(decode_secret_key(a, &build(&wrong)));
        assert_eq!(e, "the public key inside does not match the private key");
    }

    #[test]
    fn ml_kem_keys_are_checked_on_reading() {
        let a = alg("ml-kem-512");
        let pair = a.keygen(Some(&[3u8; 64])).unwrap();
        assert_eq!(decode_public_key(a, &pair.public).unwrap(), pair.public);
        let mut ek = pair.public.clone();
        ek[0] = 0xff;
        ek[1] |= 0x0f;
        let e = err(decode_public_key(a, &ek));
        assert!(e.starts_with("coefficient >= q (modulus check"), "{e}");
        let mut dk = pair.secret.expanded.to_vec();
        dk[1632 - 64] ^= 1;
        let e = err(decode_secret_key(a, &dk));
        assert!(e.contains("hash check"), "{e}");
        let e = err(decode_public_key(alg("ml-kem-768"), &pair.public));
        assert_eq!(
            e,
            "expected 1184 bytes for ml-kem-768, found 800 \
             (which is the ml-kem-512 encapsulation key size)"
        );
        // The seed form in PEM round-trips.
        let pem = encode_secret_key(a, &pair.secret, Format::Pem).unwrap();
        let sk = decode_secret_key(a, &pem).unwrap();
        assert_eq!(sk.seed.as_deref().map(Vec::as_slice), Some(&[3u8; 64][..]));
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
        let a = alg("ml-dsa-44");
        let mut x: u32 = 1;
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
        }
    }
}
