//! A small certificate authority: a self-signed CA certificate and a TLS server certificate
//! signed by it, for ML-DSA-44/65/87 (RFC 9881), Falcon-512/1024 (non-standard: the OIDs of
//! the Open Quantum Safe provider, see [`crate::falcon`]) or ECDSA P-256 (the classical
//! baseline). The keys are fresh, or existing PKCS#8 keys ([`Keypair::from_pkcs8_der`],
//! [`generate_chain_with_keys`]).
//!
//! The X.509 v3 structures (RFC 5280) are assembled with `der`: the CA has basicConstraints
//! cA=TRUE and keyUsage keyCertSign; the leaf has basicConstraints cA=FALSE, keyUsage
//! digitalSignature, extKeyUsage serverAuth and a subjectAltName with the given DNS names or IP
//! addresses. Validity: from one hour ago for 365 days. Serial numbers: 16 random bytes.
//! Private keys are PKCS#8 (ML-DSA in the seed form, as `pqlab keygen --format pem` writes;
//! Falcon as oqs-provider writes it). An existing ML-DSA key with a HashML-DSA OID
//! (2.16.840.1.101.3.4.3.32/33/34) signs certificates with HashML-DSA and SHA-512 (empty
//! context) under that OID, and its SubjectPublicKeyInfo carries it (no TLS use: TLS 1.3 has
//! no HashML-DSA signature scheme).

use std::net::IpAddr;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use der::asn1::{AnyRef, BitStringRef, OctetStringRef, UtcTime};
use der::pem::LineEnding;
use der::{Encode, Tag, TagNumber};
use pqlab_mldsa::pkcs8::KeyVariant;
use pqlab_mldsa::{HashAlg, MlDsa44, MlDsa65, MlDsa87, ParameterSet, SigningKey};
use ring::rand::{SecureRandom, SystemRandom};
use ring::signature::{ECDSA_P256_SHA256_ASN1_SIGNING, EcdsaKeyPair, KeyPair};
use zeroize::Zeroizing;

use crate::Error;
use crate::falcon::{self, Falcon512, Falcon1024, FalconParams};
use crate::pkcs8::{self, PqPrivateKey, alg_id};

/// A Falcon secret key of degree `N`.
type FalconKey<const N: usize> = pqlab_falcon::SigningKey<N>;

/// id-ecPublicKey.
const OID_EC_PUBLIC_KEY: &str = "1.2.840.10045.2.1";
/// prime256v1 (secp256r1).
const OID_P256: &str = "1.2.840.10045.3.1.7";
/// ecdsa-with-SHA256.
const OID_ECDSA_SHA256: &str = "1.2.840.10045.4.3.2";
/// id-at-commonName.
const OID_CN: &str = "2.5.4.3";

/// The signature algorithms `pqlab cert` issues certificates for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CertAlg {
    /// ML-DSA-44.
    MlDsa44,
    /// ML-DSA-65.
    MlDsa65,
    /// ML-DSA-87.
    MlDsa87,
    /// Falcon-512 (non-standard OID and TLS code point).
    Falcon512,
    /// Falcon-1024 (non-standard OID and TLS code point).
    Falcon1024,
    /// ECDSA P-256 with SHA-256.
    EcdsaP256,
}

impl CertAlg {
    /// Every algorithm, with its name.
    pub const ALL: [(&'static str, CertAlg); 6] = [
        ("ml-dsa-44", CertAlg::MlDsa44),
        ("ml-dsa-65", CertAlg::MlDsa65),
        ("ml-dsa-87", CertAlg::MlDsa87),
        ("falcon-512", CertAlg::Falcon512),
        ("falcon-1024", CertAlg::Falcon1024),
        ("ecdsa-p256", CertAlg::EcdsaP256),
    ];

    /// The names of [`Self::ALL`], comma-separated (for error messages and help).
    pub fn names() -> String {
        Self::ALL.map(|(n, _)| n).join(", ")
    }

    /// Whether the algorithm's OID and TLS code point are experimental (Falcon).
    pub fn non_standard(self) -> bool {
        matches!(self, CertAlg::Falcon512 | CertAlg::Falcon1024)
    }

    /// The algorithm with this name (`ml-dsa-65`, `falcon-512`, `ecdsa-p256`).
    pub fn from_name(name: &str) -> Result<Self, Error> {
        Self::ALL
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, a)| *a)
            .ok_or_else(|| Error::UnknownAlgorithm(name.into()))
    }

    /// The algorithm's name.
    pub fn name(self) -> &'static str {
        Self::ALL
            .iter()
            .find(|(_, a)| *a == self)
            .map_or("?", |(n, _)| n)
    }
}

enum Inner {
    MlDsa44(Box<SigningKey<MlDsa44>>),
    MlDsa65(Box<SigningKey<MlDsa65>>),
    MlDsa87(Box<SigningKey<MlDsa87>>),
    Falcon512(Box<FalconKey<512>>),
    Falcon1024(Box<FalconKey<1024>>),
    Ecdsa(Box<EcdsaKeyPair>),
}

/// A key pair that can sign certificates.
pub struct Keypair {
    alg: CertAlg,
    inner: Inner,
    pkcs8: Zeroizing<Vec<u8>>,
    /// ML-DSA, or HashML-DSA with SHA-512 (a key read with a HashML-DSA OID).
    variant: KeyVariant,
}

/// An ML-DSA key of `P` with a HashML-DSA OID; `None` for any other document.
fn hash_mldsa<P: ParameterSet>(der: &[u8]) -> Option<Box<SigningKey<P>>> {
    match pqlab_mldsa::pkcs8::decode_signing_key::<P>(der) {
        Ok((key, KeyVariant::HashSha512)) => Some(Box::new(key)),
        _ => None,
    }
}

fn der_err(e: impl core::fmt::Display) -> Error {
    Error::Der(e.to_string())
}

fn random<const N: usize>(rng: &SystemRandom) -> Result<Zeroizing<[u8; N]>, Error> {
    let mut b = Zeroizing::new([0u8; N]);
    rng.fill(&mut b[..]).map_err(|_| Error::Randomness)?;
    Ok(b)
}

/// A boxed key and its PKCS#8 encoding.
type KeyAndPkcs8<K> = (Box<K>, Zeroizing<Vec<u8>>);

fn mldsa<P: ParameterSet>(xi: &[u8; 32]) -> Result<KeyAndPkcs8<SigningKey<P>>, Error> {
    let key = SigningKey::<P>::from_seed(xi);
    let pkcs8 = pkcs8::mldsa_pkcs8(&key)?;
    Ok((Box::new(key), pkcs8))
}

/// A fresh Falcon key from OS randomness, with its PKCS#8.
fn falcon_key<const N: usize>(rng: &SystemRandom) -> Result<KeyAndPkcs8<FalconKey<N>>, Error> {
    let key = FalconKey::<N>::generate_with_rng(|b| rng.fill(b).is_ok())
        .map_err(|_| Error::Randomness)?;
    let pkcs8 = pkcs8::falcon_pkcs8(&key)?;
    Ok((Box::new(key), pkcs8))
}

impl Keypair {
    /// A key pair from its PKCS#8 encoding (DER): ML-DSA (any form of RFC 9881), Falcon (the
    /// form of [`crate::falcon`]) or ECDSA P-256.
    pub fn from_pkcs8_der(der: &[u8]) -> Result<Self, Error> {
        let pkcs8 = Zeroizing::new(der.to_vec());
        let hash = if let Some(k) = hash_mldsa::<MlDsa44>(der) {
            Some((CertAlg::MlDsa44, Inner::MlDsa44(k)))
        } else if let Some(k) = hash_mldsa::<MlDsa65>(der) {
            Some((CertAlg::MlDsa65, Inner::MlDsa65(k)))
        } else {
            hash_mldsa::<MlDsa87>(der).map(|k| (CertAlg::MlDsa87, Inner::MlDsa87(k)))
        };
        if let Some((alg, inner)) = hash {
            let variant = KeyVariant::HashSha512;
            return Ok(Self {
                alg,
                inner,
                pkcs8,
                variant,
            });
        }
        let (alg, inner) = match pkcs8::decode_pq_private_key(der)? {
            Some(PqPrivateKey::MlDsa44(k)) => (CertAlg::MlDsa44, Inner::MlDsa44(k)),
            Some(PqPrivateKey::MlDsa65(k)) => (CertAlg::MlDsa65, Inner::MlDsa65(k)),
            Some(PqPrivateKey::MlDsa87(k)) => (CertAlg::MlDsa87, Inner::MlDsa87(k)),
            Some(PqPrivateKey::Falcon512(k)) => (CertAlg::Falcon512, Inner::Falcon512(k)),
            Some(PqPrivateKey::Falcon1024(k)) => (CertAlg::Falcon1024, Inner::Falcon1024(k)),
            None => {
                let kp = EcdsaKeyPair::from_pkcs8(
                    &ECDSA_P256_SHA256_ASN1_SIGNING,
                    der,
                    &SystemRandom::new(),
                )
                .map_err(|e| {
                    Error::Key(format!(
                        "neither ML-DSA, Falcon nor an ECDSA P-256 key ({e})"
                    ))
                })?;
                (CertAlg::EcdsaP256, Inner::Ecdsa(Box::new(kp)))
            }
        };
        let variant = KeyVariant::Pure;
        Ok(Self {
            alg,
            inner,
            pkcs8,
            variant,
        })
    }

    /// A key pair from a PKCS#8 PEM (`PRIVATE KEY`) text.
    pub fn from_pkcs8_pem(pem: &str) -> Result<Self, Error> {
        let (label, der) = der::pem::decode_vec(pem.as_bytes()).map_err(der_err)?;
        let der = Zeroizing::new(der);
        if label != "PRIVATE KEY" {
            return Err(Error::Key(format!(
                "a PEM '{label}', not a PKCS#8 'PRIVATE KEY'"
            )));
        }
        Self::from_pkcs8_der(&der)
    }

    /// A fresh key pair from OS randomness.
    pub fn generate(alg: CertAlg) -> Result<Self, Error> {
        let rng = SystemRandom::new();
        let xi = random::<32>(&rng)?;
        let (inner, pkcs8) = match alg {
            CertAlg::MlDsa44 => mldsa::<MlDsa44>(&xi).map(|(k, p)| (Inner::MlDsa44(k), p))?,
            CertAlg::MlDsa65 => mldsa::<MlDsa65>(&xi).map(|(k, p)| (Inner::MlDsa65(k), p))?,
            CertAlg::MlDsa87 => mldsa::<MlDsa87>(&xi).map(|(k, p)| (Inner::MlDsa87(k), p))?,
            CertAlg::Falcon512 => falcon_key::<512>(&rng).map(|(k, p)| (Inner::Falcon512(k), p))?,
            CertAlg::Falcon1024 => {
                falcon_key::<1024>(&rng).map(|(k, p)| (Inner::Falcon1024(k), p))?
            }
            CertAlg::EcdsaP256 => {
                let doc = EcdsaKeyPair::generate_pkcs8(&ECDSA_P256_SHA256_ASN1_SIGNING, &rng)
                    .map_err(|_| Error::Randomness)?;
                let pkcs8 = Zeroizing::new(doc.as_ref().to_vec());
                let kp = EcdsaKeyPair::from_pkcs8(&ECDSA_P256_SHA256_ASN1_SIGNING, &pkcs8, &rng)
                    .map_err(|e| Error::Key(format!("ECDSA P-256: {e}")))?;
                (Inner::Ecdsa(Box::new(kp)), pkcs8)
            }
        };
        let variant = KeyVariant::Pure;
        Ok(Self {
            alg,
            inner,
            pkcs8,
            variant,
        })
    }

    /// The algorithm.
    pub fn alg(&self) -> CertAlg {
        self.alg
    }

    /// Whether the key signs with HashML-DSA and SHA-512 (it was read with a HashML-DSA OID).
    pub fn is_hash_ml_dsa(&self) -> bool {
        self.variant == KeyVariant::HashSha512
    }

    /// The algorithm's name, `hash-ml-dsa-65` for a HashML-DSA key.
    pub fn name(&self) -> String {
        if self.is_hash_ml_dsa() {
            format!("hash-{}", self.alg.name())
        } else {
            self.alg.name().into()
        }
    }

    /// The private key as PKCS#8 DER.
    pub fn pkcs8_der(&self) -> &[u8] {
        &self.pkcs8
    }

    /// The private key as PKCS#8 PEM (`PRIVATE KEY`).
    pub fn pkcs8_pem(&self) -> Result<Zeroizing<String>, Error> {
        der::pem::encode_string("PRIVATE KEY", LineEnding::LF, &self.pkcs8)
            .map(Zeroizing::new)
            .map_err(der_err)
    }

    /// The public key as SubjectPublicKeyInfo DER.
    pub fn spki_der(&self) -> Result<Vec<u8>, Error> {
        match &self.inner {
            Inner::MlDsa44(k) => pkcs8::mldsa_spki_as(&k.verifying_key(), self.variant),
            Inner::MlDsa65(k) => pkcs8::mldsa_spki_as(&k.verifying_key(), self.variant),
            Inner::MlDsa87(k) => pkcs8::mldsa_spki_as(&k.verifying_key(), self.variant),
            Inner::Falcon512(k) => pkcs8::falcon_spki(&k.verifying_key()),
            Inner::Falcon1024(k) => pkcs8::falcon_spki(&k.verifying_key()),
            Inner::Ecdsa(k) => {
                let params = der::asn1::ObjectIdentifier::new(OID_P256).map_err(der_err)?;
                let params_der = params.to_der().map_err(der_err)?;
                let alg = seq(&[
                    &alg_id(OID_EC_PUBLIC_KEY)?.oid.to_der().map_err(der_err)?,
                    &params_der,
                ])?;
                let bits = BitStringRef::from_bytes(k.public_key().as_ref())
                    .and_then(|b| b.to_der())
                    .map_err(der_err)?;
                seq(&[&alg, &bits])
            }
        }
    }

    /// The signature AlgorithmIdentifier (DER) of the certificates this key signs.
    fn signature_alg_der(&self) -> Result<Vec<u8>, Error> {
        let v = self.variant;
        let oid = match self.alg {
            CertAlg::MlDsa44 => pqlab_mldsa::pkcs8::oid::<MlDsa44>(v),
            CertAlg::MlDsa65 => pqlab_mldsa::pkcs8::oid::<MlDsa65>(v),
            CertAlg::MlDsa87 => pqlab_mldsa::pkcs8::oid::<MlDsa87>(v),
            CertAlg::Falcon512 => Falcon512::OID,
            CertAlg::Falcon1024 => Falcon1024::OID,
            CertAlg::EcdsaP256 => OID_ECDSA_SHA256,
        };
        alg_id(oid)?.to_der().map_err(der_err)
    }

    /// Signs `msg` (ML-DSA, or HashML-DSA with SHA-512, with the empty context, Falcon's
    /// detached signature, or ECDSA P-256 with SHA-256).
    fn sign(&self, msg: &[u8]) -> Result<Vec<u8>, Error> {
        let hash = self.is_hash_ml_dsa();
        match &self.inner {
            Inner::MlDsa44(k) => mldsa_sign(k, msg, hash),
            Inner::MlDsa65(k) => mldsa_sign(k, msg, hash),
            Inner::MlDsa87(k) => mldsa_sign(k, msg, hash),
            Inner::Falcon512(k) => falcon::sign_detached(&k.expand(), msg),
            Inner::Falcon1024(k) => falcon::sign_detached(&k.expand(), msg),
            Inner::Ecdsa(k) => k
                .sign(&SystemRandom::new(), msg)
                .map(|s| s.as_ref().to_vec())
                .map_err(|_| Error::Key("ECDSA signing failed".into())),
        }
    }
}

/// FIPS 204, Algorithm 2: ML-DSA.Sign, or with `hash` Algorithm 4: HashML-DSA.Sign with
/// SHA-512; the empty context.
fn mldsa_sign<P: ParameterSet>(
    key: &SigningKey<P>,
    msg: &[u8],
    hash: bool,
) -> Result<Vec<u8>, Error> {
    let sig = if hash {
        key.sign_prehash(msg, &[], HashAlg::Sha2_512)
    } else {
        key.sign(msg, &[])
    };
    sig.map(|s| s.as_bytes().to_vec())
        .map_err(|e| Error::Key(format!("ML-DSA signing: {e}")))
}

/// A constructed TLV with `tag` around the concatenation of `parts`.
fn constructed(tag: Tag, parts: &[&[u8]]) -> Result<Vec<u8>, Error> {
    let content = parts.concat();
    AnyRef::new(tag, &content)
        .and_then(|a| a.to_der())
        .map_err(der_err)
}

fn seq(parts: &[&[u8]]) -> Result<Vec<u8>, Error> {
    constructed(Tag::Sequence, parts)
}

fn context(number: u32, constructed_: bool, content: &[u8]) -> Result<Vec<u8>, Error> {
    let tag = Tag::ContextSpecific {
        constructed: constructed_,
        number: TagNumber(number),
    };
    AnyRef::new(tag, content)
        .and_then(|a| a.to_der())
        .map_err(der_err)
}

fn oid_der(dotted: &str) -> Result<Vec<u8>, Error> {
    alg_id(dotted)?.oid.to_der().map_err(der_err)
}

/// Name ::= SEQUENCE { SET { SEQUENCE { commonName, UTF8String } } }.
fn name(cn: &str) -> Result<Vec<u8>, Error> {
    let value = der::asn1::Utf8StringRef::new(cn)
        .and_then(|s| s.to_der())
        .map_err(der_err)?;
    let atv = seq(&[&oid_der(OID_CN)?, &value])?;
    seq(&[&constructed(Tag::Set, &[&atv])?])
}

/// Extension ::= SEQUENCE { extnID, critical BOOLEAN DEFAULT FALSE, extnValue OCTET STRING }.
fn extension(oid: &str, critical: bool, value: &[u8]) -> Result<Vec<u8>, Error> {
    let octets = OctetStringRef::new(value)
        .and_then(|o| o.to_der())
        .map_err(der_err)?;
    let crit = if critical {
        &[0x01, 0x01, 0xff][..]
    } else {
        &[]
    };
    seq(&[&oid_der(oid)?, crit, &octets])
}

/// KeyUsage with the single bit `bit` set (digitalSignature = 0, keyCertSign = 5).
fn key_usage(bit: u8) -> Result<Vec<u8>, Error> {
    let byte = 0x80u8 >> bit;
    let unused = 7 - bit;
    BitStringRef::new(unused, &[byte])
        .and_then(|b| b.to_der())
        .map_err(der_err)
}

fn utc(t: SystemTime) -> Result<Vec<u8>, Error> {
    let since = t
        .duration_since(UNIX_EPOCH)
        .map_err(|_| Error::Cert("the system clock is before 1970".into()))?;
    UtcTime::from_unix_duration(since)
        .and_then(|u| u.to_der())
        .map_err(der_err)
}

/// Issues a certificate for `subject_spki` signed by `issuer`. `sans` are the leaf's DNS names or
/// IP addresses; `is_ca` makes a CA certificate (no SANs).
pub(crate) fn issue(
    subject_cn: &str,
    subject_spki: &[u8],
    issuer_cn: &str,
    issuer: &Keypair,
    is_ca: bool,
    sans: &[String],
) -> Result<Vec<u8>, Error> {
    let rng = SystemRandom::new();
    let mut serial = random::<16>(&rng)?;
    serial[0] = (serial[0] & 0x7f) | 0x40; // positive and minimally encoded
    let serial = AnyRef::new(Tag::Integer, &serial[..])
        .and_then(|a| a.to_der())
        .map_err(der_err)?;
    let version = context(0, true, &[0x02, 0x01, 0x02])?; // v3
    let now = SystemTime::now();
    let validity = seq(&[
        &utc(now - Duration::from_secs(3600))?,
        &utc(now + Duration::from_secs(365 * 24 * 3600))?,
    ])?;
    let mut exts = Vec::new();
    if is_ca {
        exts.push(extension("2.5.29.19", true, &seq(&[&[0x01, 0x01, 0xff]])?)?);
        exts.push(extension("2.5.29.15", true, &key_usage(5)?)?);
    } else {
        exts.push(extension("2.5.29.19", true, &seq(&[])?)?);
        exts.push(extension("2.5.29.15", true, &key_usage(0)?)?);
        let server_auth = oid_der("1.3.6.1.5.5.7.3.1")?;
        exts.push(extension("2.5.29.37", false, &seq(&[&server_auth])?)?);
        let mut names = Vec::new();
        for san in sans {
            let general_name = match san.parse::<IpAddr>() {
                Ok(IpAddr::V4(ip)) => context(7, false, &ip.octets())?,
                Ok(IpAddr::V6(ip)) => context(7, false, &ip.octets())?,
                Err(_) => context(2, false, san.as_bytes())?,
            };
            names.push(general_name);
        }
        let refs: Vec<&[u8]> = names.iter().map(Vec::as_slice).collect();
        exts.push(extension("2.5.29.17", false, &seq(&refs)?)?);
    }
    let ext_refs: Vec<&[u8]> = exts.iter().map(Vec::as_slice).collect();
    let extensions = context(3, true, &seq(&ext_refs)?)?;
    let sig_alg = issuer.signature_alg_der()?;
    let tbs = seq(&[
        &version,
        &serial,
        &sig_alg,
        &name(issuer_cn)?,
        &validity,
        &name(subject_cn)?,
        subject_spki,
        &extensions,
    ])?;
    let signature = issuer.sign(&tbs)?;
    let sig_bits = BitStringRef::from_bytes(&signature)
        .and_then(|b| b.to_der())
        .map_err(der_err)?;
    seq(&[&tbs, &sig_alg, &sig_bits])
}

/// A CA and a server certificate it issued, with both keys.
pub struct CertChain {
    /// The CA certificate (DER), self-signed.
    pub ca_cert: Vec<u8>,
    /// The CA's key.
    pub ca_key: Keypair,
    /// The server certificate (DER), signed by the CA.
    pub leaf_cert: Vec<u8>,
    /// The server's key.
    pub leaf_key: Keypair,
}

/// Makes a CA and a server certificate for `sans`, both with algorithm `alg` and fresh keys.
pub fn generate_chain(alg: CertAlg, sans: &[String]) -> Result<CertChain, Error> {
    check_sans(sans)?;
    generate_chain_with_keys(Keypair::generate(alg)?, Keypair::generate(alg)?, sans)
}

fn check_sans(sans: &[String]) -> Result<(), Error> {
    if sans.is_empty() {
        return Err(Error::Cert(
            "at least one subject alternative name is needed".into(),
        ));
    }
    Ok(())
}

/// Makes a CA certificate for `ca_key` and a server certificate for `leaf_key` and `sans`
/// signed by it (the keys may have different algorithms).
pub fn generate_chain_with_keys(
    ca_key: Keypair,
    leaf_key: Keypair,
    sans: &[String],
) -> Result<CertChain, Error> {
    check_sans(sans)?;
    let ca_cn = format!("pqlab test CA ({})", ca_key.name());
    let ca_cert = issue(&ca_cn, &ca_key.spki_der()?, &ca_cn, &ca_key, true, &[])?;
    let leaf_cert = issue(
        &sans[0],
        &leaf_key.spki_der()?,
        &ca_cn,
        &ca_key,
        false,
        sans,
    )?;
    Ok(CertChain {
        ca_cert,
        ca_key,
        leaf_cert,
        leaf_key,
    })
}

/// A certificate as PEM (`CERTIFICATE`).
pub fn cert_pem(der: &[u8]) -> Result<String, Error> {
    der::pem::encode_string("CERTIFICATE", LineEnding::LF, der).map_err(der_err)
}
