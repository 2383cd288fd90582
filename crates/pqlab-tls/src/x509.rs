//! Reading X.509 certificates (RFC 5280) with post-quantum keys and checking their signatures:
//! what `pqlab cert show` prints and `pqlab cert verify` checks. Signature algorithms: ML-DSA
//! (RFC 9881), HashML-DSA with SHA-512 (the NIST OIDs 2.16.840.1.101.3.4.3.32/33/34, empty
//! context), Falcon (the OQS OIDs of [`pqlab_falcon::pkcs8`], detached signature) and ECDSA
//! P-256 with SHA-256 (ring).
//!
//! [`verify_chain`] checks a chain against the certificates of a CA file: every certificate
//! signed by the next, the last by a certificate of the CA file (each one is tried) and so on
//! up to a self-signed one of the CA file; the issuer's name, the signature, the issuer's
//! basicConstraints (cA TRUE) and keyUsage (keyCertSign) when these extensions are present
//! (RFC 5280, Sections 4.2.1.9 and 4.2.1.3), and every certificate's validity period. Not
//! checked: pathLenConstraint, name constraints, policies, unknown critical extensions,
//! revocation.

use der::asn1::{AnyRef, BitStringRef, ObjectIdentifier};
use der::{Decode, Reader, SliceReader, Tag, TagNumber, Tagged};
use pqlab_falcon::pkcs8 as falcon;
use pqlab_mldsa::pkcs8::{self as mldsa};
use pqlab_mldsa::{HashAlg, MlDsa44, MlDsa65, MlDsa87, ParameterSet};
use spki::{AlgorithmIdentifier, SubjectPublicKeyInfoRef};

use crate::Error;

/// The names of the algorithm OIDs that certificates show.
const NAMES: [(&str, &str); 17] = [
    ("2.16.840.1.101.3.4.3.17", "ml-dsa-44"),
    ("2.16.840.1.101.3.4.3.18", "ml-dsa-65"),
    ("2.16.840.1.101.3.4.3.19", "ml-dsa-87"),
    (
        mldsa::OID_HASH_ML_DSA_44_SHA512,
        "hash-ml-dsa-44 with sha2-512",
    ),
    (
        mldsa::OID_HASH_ML_DSA_65_SHA512,
        "hash-ml-dsa-65 with sha2-512",
    ),
    (
        mldsa::OID_HASH_ML_DSA_87_SHA512,
        "hash-ml-dsa-87 with sha2-512",
    ),
    (falcon::OID_FALCON_512, "falcon-512"),
    ("1.3.9999.3.6", "falcon-512"),
    ("1.3.9999.3.1", "falcon-512"),
    (falcon::OID_FALCON_1024, "falcon-1024"),
    ("1.3.9999.3.9", "falcon-1024"),
    ("1.3.9999.3.4", "falcon-1024"),
    ("1.2.840.10045.2.1", "ecPublicKey"),
    ("1.2.840.10045.4.3.2", "ecdsa-with-sha256"),
    ("1.2.840.113549.1.1.1", "rsaEncryption"),
    ("1.2.840.113549.1.1.11", "sha256WithRSAEncryption"),
    ("1.3.101.112", "ed25519"),
];

/// The name of an algorithm OID, with the OID.
fn alg_name(oid: &ObjectIdentifier) -> String {
    let dotted = oid.to_string();
    match NAMES.iter().find(|(o, _)| *o == dotted) {
        Some((_, name)) => format!("{name} ({dotted})"),
        None => format!("unknown ({dotted})"),
    }
}

/// A parsed certificate: the parts `show` prints and `verify` checks.
pub struct Certificate<'a> {
    /// The DER of the whole certificate.
    pub der: &'a [u8],
    /// The DER of the TBSCertificate (what the issuer signed).
    tbs: &'a [u8],
    /// The signature algorithm (the outer one).
    sig_alg: AlgorithmIdentifier<AnyRef<'a>>,
    /// The signature value.
    signature: &'a [u8],
    /// The issuer and subject Names (DER).
    issuer: &'a [u8],
    subject: &'a [u8],
    /// notBefore and notAfter.
    not_before: der::DateTime,
    not_after: der::DateTime,
    /// The subject's public key.
    spki: SubjectPublicKeyInfoRef<'a>,
    /// basicConstraints and keyUsage, when present.
    ca_ext: CaExtensions,
}

/// What the extensions say about issuing certificates; `None`: the extension is absent.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct CaExtensions {
    /// basicConstraints' cA (RFC 5280, Section 4.2.1.9).
    ca: Option<bool>,
    /// keyUsage's keyCertSign bit (RFC 5280, Section 4.2.1.3).
    key_cert_sign: Option<bool>,
}

/// The OID of basicConstraints.
const OID_BASIC_CONSTRAINTS: &str = "2.5.29.19";
/// The OID of keyUsage.
const OID_KEY_USAGE: &str = "2.5.29.15";

/// Reads `Extensions ::= SEQUENCE OF Extension` (the contents of the TBSCertificate's `[3]`)
/// for basicConstraints and keyUsage; the other extensions are skipped.
fn ca_extensions(der: &[u8]) -> der::Result<CaExtensions> {
    let mut out = CaExtensions::default();
    let mut r = SliceReader::new(der)?;
    r.sequence(|exts| {
        while !exts.is_finished() {
            exts.sequence(|ext| {
                let oid: ObjectIdentifier = ext.decode()?;
                let mut value: AnyRef<'_> = ext.decode()?;
                if value.tag() == Tag::Boolean {
                    value = ext.decode()?; // critical
                }
                if value.tag() != Tag::OctetString {
                    return Err(Tag::OctetString.value_error().into());
                }
                match oid.to_string().as_str() {
                    OID_BASIC_CONSTRAINTS => out.ca = Some(basic_constraints_ca(value.value())?),
                    OID_KEY_USAGE => out.key_cert_sign = Some(key_cert_sign(value.value())?),
                    _ => {}
                }
                Ok::<_, der::Error>(())
            })?;
        }
        Ok::<_, der::Error>(())
    })?;
    r.finish()?;
    Ok(out)
}

/// `BasicConstraints ::= SEQUENCE { cA BOOLEAN DEFAULT FALSE, pathLenConstraint INTEGER
/// OPTIONAL }`: the value of cA.
fn basic_constraints_ca(der: &[u8]) -> der::Result<bool> {
    let seq = AnyRef::from_der(der)?;
    if seq.tag() != Tag::Sequence {
        return Err(Tag::Sequence.value_error().into());
    }
    let mut r = SliceReader::new(seq.value())?;
    if r.is_finished() {
        return Ok(false);
    }
    let first: AnyRef<'_> = r.decode()?;
    if first.tag() == Tag::Boolean {
        first.decode_as::<bool>()
    } else {
        Ok(false)
    }
}

/// `KeyUsage ::= BIT STRING`: whether keyCertSign (bit 5) is set.
fn key_cert_sign(der: &[u8]) -> der::Result<bool> {
    let bits = BitStringRef::from_der(der)?;
    Ok(bits
        .raw_bytes()
        .first()
        .is_some_and(|b| b & (0x80 >> 5) != 0))
}

fn der_err(e: der::Error) -> Error {
    Error::Cert(format!("malformed certificate: {e}"))
}

/// Reads a Time (UTCTime or GeneralizedTime).
fn time(reader: &mut SliceReader<'_>) -> der::Result<der::DateTime> {
    let any: AnyRef<'_> = reader.decode()?;
    match any.tag() {
        Tag::UtcTime => Ok(der::asn1::UtcTime::try_from(any)?.to_date_time()),
        _ => Ok(der::asn1::GeneralizedTime::try_from(any)?.to_date_time()),
    }
}

impl<'a> Certificate<'a> {
    /// Parses a DER certificate (RFC 5280, Section 4.1).
    pub fn from_der(der: &'a [u8]) -> Result<Self, Error> {
        Self::parse(der).map_err(der_err)
    }

    fn parse(der: &'a [u8]) -> der::Result<Self> {
        let outer = AnyRef::from_der(der)?;
        if outer.tag() != Tag::Sequence {
            return Err(Tag::Sequence.value_error().into());
        }
        let mut top = SliceReader::new(outer.value())?;
        let tbs_der = raw_tlv(&mut top, outer.value())?;
        let sig_alg: AlgorithmIdentifier<AnyRef<'a>> = top.decode()?;
        let bits: BitStringRef<'a> = top.decode()?;
        top.finish()?;
        let tbs_any = AnyRef::from_der(tbs_der)?;
        if tbs_any.tag() != Tag::Sequence {
            return Err(Tag::Sequence.value_error().into());
        }
        let mut r = SliceReader::new(tbs_any.value())?;
        let version_tag = Tag::ContextSpecific {
            constructed: true,
            number: TagNumber(0),
        };
        let first: AnyRef<'a> = r.decode()?;
        if first.tag() == version_tag {
            let _serial: AnyRef<'a> = r.decode()?;
        }
        let inner_alg: AlgorithmIdentifier<AnyRef<'a>> = r.decode()?;
        let issuer = raw_tlv(&mut r, tbs_any.value())?;
        let (not_before, not_after) = r.sequence(|v| Ok::<_, der::Error>((time(v)?, time(v)?)))?;
        let subject = raw_tlv(&mut r, tbs_any.value())?;
        let spki: SubjectPublicKeyInfoRef<'a> = r.decode()?;
        // issuerUniqueID [1], subjectUniqueID [2], extensions [3] EXPLICIT.
        let mut ca_ext = CaExtensions::default();
        while !r.is_finished() {
            let field: AnyRef<'a> = r.decode()?;
            let extensions = Tag::ContextSpecific {
                constructed: true,
                number: TagNumber(3),
            };
            if field.tag() == extensions {
                ca_ext = ca_extensions(field.value())?;
            }
        }
        if inner_alg != sig_alg {
            return Err(Tag::Sequence.value_error().into());
        }
        let signature = bits.as_bytes().ok_or(Tag::BitString.value_error())?;
        Ok(Self {
            der,
            tbs: tbs_der,
            sig_alg,
            signature,
            issuer,
            subject,
            not_before,
            not_after,
            spki,
            ca_ext,
        })
    }

    /// The lines `pqlab cert show` prints.
    pub fn describe(&self) -> Vec<(&'static str, String)> {
        vec![
            ("subject", name_text(self.subject)),
            ("issuer", name_text(self.issuer)),
            ("not before", self.not_before.to_string()),
            ("not after", self.not_after.to_string()),
            ("key algorithm", alg_name(&self.spki.algorithm.oid)),
            ("signature algorithm", alg_name(&self.sig_alg.oid)),
            (
                "self-signed",
                if self.issuer == self.subject {
                    "yes"
                } else {
                    "no"
                }
                .into(),
            ),
            (
                "CA",
                match self.ca_ext.ca {
                    Some(true) => "yes (basicConstraints cA TRUE)",
                    Some(false) => "no (basicConstraints cA FALSE)",
                    None => "not stated (no basicConstraints)",
                }
                .into(),
            ),
        ]
    }

    /// Whether this certificate may issue certificates: basicConstraints cA TRUE and keyUsage
    /// keyCertSign, each checked when the extension is present (RFC 5280, Sections 4.2.1.9
    /// and 4.2.1.3). `Err`: which check failed.
    pub fn check_may_issue(&self) -> Result<(), String> {
        if self.ca_ext.ca == Some(false) {
            return Err(format!(
                "basicConstraints: the issuer ({}) is not a CA (cA is FALSE)",
                name_text(self.subject)
            ));
        }
        if self.ca_ext.key_cert_sign == Some(false) {
            return Err(format!(
                "keyUsage: the issuer ({}) may not sign certificates (no keyCertSign)",
                name_text(self.subject)
            ));
        }
        Ok(())
    }

    /// The subject as text (`CN=...`).
    pub fn subject_text(&self) -> String {
        name_text(self.subject)
    }

    /// Whether issuer and subject are the same name.
    pub fn is_self_issued(&self) -> bool {
        self.issuer == self.subject
    }

    /// Checks that `issuer` issued this certificate: the names chain and the signature
    /// verifies with the issuer's key. `Ok(Err(reason))`: it does not (exit status 1);
    /// `Err`: the certificate cannot be checked (an unknown signature algorithm).
    pub fn check_issued_by(&self, issuer: &Certificate<'_>) -> Result<Result<(), String>, Error> {
        let verdict = verify(&self.sig_alg, &issuer.spki, self.tbs, self.signature)?;
        if verdict.is_ok() && self.issuer != issuer.subject {
            return Ok(Err(format!(
                "issuer name: its issuer ({}) is not the CA's subject ({})",
                name_text(self.issuer),
                name_text(issuer.subject)
            )));
        }
        Ok(verdict)
    }

    /// Checks that the CA `issuer` issued this certificate ([`Self::check_issued_by`]) and
    /// may issue certificates ([`Self::check_may_issue`]).
    pub fn check_issued_by_ca(
        &self,
        issuer: &Certificate<'_>,
    ) -> Result<Result<(), String>, Error> {
        Ok(self
            .check_issued_by(issuer)?
            .and_then(|()| issuer.check_may_issue()))
    }

    /// Whether the current time lies within the validity period (the message names the check).
    pub fn check_validity_now(&self) -> Result<(), String> {
        self.validity_now()
            .map_err(|reason| format!("validity: {reason}"))
    }

    fn validity_now(&self) -> Result<(), String> {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default();
        let (nb, na) = (
            self.not_before.unix_duration(),
            self.not_after.unix_duration(),
        );
        if now < nb {
            Err(format!("not valid before {}", self.not_before))
        } else if now > na {
            Err(format!("expired at {}", self.not_after))
        } else {
            Ok(())
        }
    }
}

/// Verifies `chain` (each certificate signed by the next) against the certificates of a CA
/// file `trusted`: the last one of the chain must be issued by one of them (each is tried),
/// that one by another, and so on up to a self-signed certificate of `trusted`, whose own
/// signature is checked. Without `trusted`, the chain must end at a self-signed certificate.
/// Every issuer is checked as a CA ([`Certificate::check_may_issue`]) and every certificate's
/// validity period. `Ok(Err(reason))`: it does not verify, the reason names the certificate
/// and the check that failed; `Err`: it cannot be checked (an unknown signature algorithm, a
/// chain without CA that does not end at a self-signed certificate).
pub fn verify_chain(
    chain: &[Certificate<'_>],
    trusted: &[Certificate<'_>],
) -> Result<Result<(), String>, Error> {
    let n = chain.len();
    let Some(top) = chain.last() else {
        return Err(Error::Cert("no certificate".into()));
    };
    for (i, cert) in chain.iter().enumerate() {
        let verdict = match chain.get(i + 1) {
            Some(issuer) => cert.check_issued_by_ca(issuer)?,
            None => Ok(()),
        };
        if let Err(reason) = verdict.and_then(|()| cert.check_validity_now()) {
            return Ok(Err(format!("certificate {} of {n}: {reason}", i + 1)));
        }
    }
    if trusted.is_empty() {
        if !top.is_self_issued() {
            return Err(Error::Cert(
                "the chain does not end at a self-signed certificate; give its CA with --ca".into(),
            ));
        }
        return Ok(top
            .check_issued_by(top)?
            .map_err(|reason| format!("certificate {n} of {n} (self-signed): {reason}")));
    }
    let mut cur = top;
    let mut cur_label = format!("certificate {n} of {n}");
    // Each step moves to another certificate of `trusted`; more steps than it has is a loop.
    for _ in 0..=trusted.len() {
        if cur.is_self_issued() && trusted.iter().any(|t| t.der == cur.der) {
            return Ok(cur
                .check_issued_by(cur)?
                .map_err(|reason| format!("{cur_label} (self-signed): {reason}")));
        }
        match issuer_in(cur, trusted)? {
            Ok(j) => {
                cur = &trusted[j];
                cur_label = format!("CA certificate {} of {}", j + 1, trusted.len());
            }
            Err(reason) => return Ok(Err(format!("{cur_label}: {reason}"))),
        }
    }
    Ok(Err(format!(
        "{cur_label}: the CA file's certificates issue each other in a loop"
    )))
}

/// The index of the certificate of `trusted` that issued `cert` (a CA, within its validity
/// period), or why none did: the failure of a candidate with the right name, else the names.
fn issuer_in(
    cert: &Certificate<'_>,
    trusted: &[Certificate<'_>],
) -> Result<Result<usize, String>, Error> {
    let mut named_failure = None;
    for (j, ca) in trusted.iter().enumerate() {
        if ca.der == cert.der {
            continue;
        }
        let verdict = cert.check_issued_by_ca(ca)?.and_then(|()| {
            ca.check_validity_now().map_err(|reason| {
                format!("CA certificate {} of {}: {reason}", j + 1, trusted.len())
            })
        });
        match verdict {
            Ok(()) => return Ok(Ok(j)),
            Err(reason) if ca.subject == cert.issuer => {
                named_failure.get_or_insert(reason);
            }
            Err(_) => {}
        }
    }
    Ok(Err(named_failure.unwrap_or_else(|| {
        let names: Vec<String> = trusted.iter().map(Certificate::subject_text).collect();
        format!(
            "issuer name: no certificate of the CA file issued it (its issuer is {}; the CA \
             file holds {})",
            name_text(cert.issuer),
            names.join("; ")
        )
    })))
}

/// The DER TLV of the next element of `r` (whose input is `all`).
fn raw_tlv<'a>(r: &mut SliceReader<'a>, all: &'a [u8]) -> der::Result<&'a [u8]> {
    let start = usize::try_from(r.position())?;
    let _: AnyRef<'a> = r.decode()?;
    let end = usize::try_from(r.position())?;
    all.get(start..end)
        .ok_or(Tag::Sequence.length_error().into())
}

/// A Name (RDNSequence) as text: `CN=pqlab CA, O=...`.
fn name_text(der: &[u8]) -> String {
    let parse = || -> der::Result<Vec<String>> {
        let mut parts = Vec::new();
        let mut r = SliceReader::new(der)?;
        r.sequence(|rdns| {
            while !rdns.is_finished() {
                rdns.set_of_any(&mut parts)?;
            }
            Ok::<_, der::Error>(())
        })?;
        Ok(parts)
    };
    parse().map_or_else(|_| "(unreadable name)".into(), |p| p.join(", "))
}

/// One RelativeDistinguishedName's attributes, appended to `out` as `CN=value`.
trait SetOfAny {
    fn set_of_any(&mut self, out: &mut Vec<String>) -> der::Result<()>;
}

impl SetOfAny for SliceReader<'_> {
    fn set_of_any(&mut self, out: &mut Vec<String>) -> der::Result<()> {
        let set: AnyRef<'_> = self.decode()?;
        let mut r = SliceReader::new(set.value())?;
        while !r.is_finished() {
            let (oid, value) = r.sequence(|a| {
                let oid: ObjectIdentifier = a.decode()?;
                let value: AnyRef<'_> = a.decode()?;
                Ok::<_, der::Error>((oid, value))
            })?;
            let key = match oid.to_string().as_str() {
                "2.5.4.3" => "CN".to_string(),
                "2.5.4.10" => "O".to_string(),
                "2.5.4.11" => "OU".to_string(),
                "2.5.4.6" => "C".to_string(),
                other => other.to_string(),
            };
            out.push(format!("{key}={}", String::from_utf8_lossy(value.value())));
        }
        Ok(())
    }
}

/// Verifies `signature` over `msg` by the key `spki` with the algorithm `sig_alg`.
fn verify(
    sig_alg: &AlgorithmIdentifier<AnyRef<'_>>,
    spki: &SubjectPublicKeyInfoRef<'_>,
    msg: &[u8],
    signature: &[u8],
) -> Result<Result<(), String>, Error> {
    let sig_oid = sig_alg.oid.to_string();
    let key_oid = spki.algorithm.oid.to_string();
    let key = spki.subject_public_key.as_bytes().unwrap_or_default();
    let wrong_key = || {
        Ok(Err(format!(
            "signature: signed with {}, but the issuer's key is {}",
            alg_name(&sig_alg.oid),
            alg_name(&spki.algorithm.oid)
        )))
    };
    let verdict = |ok: bool| {
        Ok(if ok {
            Ok(())
        } else {
            Err("signature: the signature does not verify".into())
        })
    };
    let level = |oid: &str| match oid {
        "2.16.840.1.101.3.4.3.17" | mldsa::OID_HASH_ML_DSA_44_SHA512 => Some(44),
        "2.16.840.1.101.3.4.3.18" | mldsa::OID_HASH_ML_DSA_65_SHA512 => Some(65),
        "2.16.840.1.101.3.4.3.19" | mldsa::OID_HASH_ML_DSA_87_SHA512 => Some(87),
        _ => None,
    };
    let falcon_degree = |oid: &str| {
        NAMES
            .iter()
            .find(|(o, n)| *o == oid && n.starts_with("falcon"))
            .map(|(_, n)| if n.ends_with("512") { 512 } else { 1024 })
    };
    if let Some(l) = level(&sig_oid) {
        if sig_alg.parameters.is_some() {
            return Err(Error::Cert(
                "ML-DSA signature algorithm with parameters".into(),
            ));
        }
        if level(&key_oid) != Some(l) {
            return wrong_key();
        }
        let prehash =
            sig_oid.ends_with(".32") || sig_oid.ends_with(".33") || sig_oid.ends_with(".34");
        return verdict(match l {
            44 => mldsa_ok::<MlDsa44>(key, msg, signature, prehash),
            65 => mldsa_ok::<MlDsa65>(key, msg, signature, prehash),
            _ => mldsa_ok::<MlDsa87>(key, msg, signature, prehash),
        });
    }
    if let Some(n) = falcon_degree(&sig_oid) {
        if falcon_degree(&key_oid) != Some(n) {
            return wrong_key();
        }
        return verdict(if n == 512 {
            pqlab_falcon::VerifyingKey::<512>::decode(key)
                .is_ok_and(|vk| vk.verify(msg, signature).is_ok())
        } else {
            pqlab_falcon::VerifyingKey::<1024>::decode(key)
                .is_ok_and(|vk| vk.verify(msg, signature).is_ok())
        });
    }
    if sig_oid == "1.2.840.10045.4.3.2" {
        if key_oid != "1.2.840.10045.2.1" {
            return wrong_key();
        }
        let pk =
            ring::signature::UnparsedPublicKey::new(&ring::signature::ECDSA_P256_SHA256_ASN1, key);
        return verdict(pk.verify(msg, signature).is_ok());
    }
    Err(Error::Cert(format!(
        "cannot check a signature of {}",
        alg_name(&sig_alg.oid)
    )))
}

/// ML-DSA (or HashML-DSA with SHA-512) verification with the empty context.
fn mldsa_ok<P: ParameterSet>(key: &[u8], msg: &[u8], sig: &[u8], prehash: bool) -> bool {
    let (Ok(vk), Ok(sig)) = (
        pqlab_mldsa::VerifyingKey::<P>::from_bytes(key),
        pqlab_mldsa::Signature::<P>::from_bytes(sig),
    ) else {
        return false;
    };
    if prehash {
        vk.verify_prehash(msg, &[], HashAlg::Sha2_512, &sig).is_ok()
    } else {
        vk.verify(msg, &[], &sig).is_ok()
    }
}

/// The certificates of a PEM text (`CERTIFICATE` blocks, in order) or of one DER certificate.
pub fn certificates(data: &[u8]) -> Result<Vec<Vec<u8>>, Error> {
    let text = String::from_utf8_lossy(data);
    if !text.contains("-----BEGIN") {
        return Ok(vec![data.to_vec()]);
    }
    let mut out = Vec::new();
    let mut rest = &text[..];
    while let Some(start) = rest.find("-----BEGIN") {
        let block = &rest[start..];
        let end_marker = block
            .find("-----END")
            .ok_or_else(|| Error::Cert("a PEM block has no END line".into()))?;
        let after = block[end_marker..]
            .find('\n')
            .map_or(block.len(), |i| end_marker + i + 1);
        let (label, der) = der::pem::decode_vec(block[..after].trim().as_bytes())
            .map_err(|e| Error::Cert(format!("malformed PEM: {e}")))?;
        if label == "CERTIFICATE" {
            out.push(der);
        }
        rest = &block[after..];
    }
    if out.is_empty() {
        return Err(Error::Cert("no CERTIFICATE in the PEM text".into()));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cert::{CertAlg, Keypair, cert_pem, generate_chain_with_keys, issue};

    #[test]
    fn chains_made_here_verify_and_tampered_ones_do_not() {
        for alg in [CertAlg::MlDsa44, CertAlg::Falcon512, CertAlg::EcdsaP256] {
            let ca = Keypair::generate(alg).unwrap();
            let leaf = Keypair::generate(alg).unwrap();
            let chain = generate_chain_with_keys(ca, leaf, &["localhost".into()]).unwrap();
            let ca_cert = Certificate::from_der(&chain.ca_cert).unwrap();
            let leaf_cert = Certificate::from_der(&chain.leaf_cert).unwrap();
            assert!(ca_cert.is_self_issued());
            assert_eq!(ca_cert.check_issued_by(&ca_cert).unwrap(), Ok(()));
            assert_eq!(leaf_cert.check_issued_by(&ca_cert).unwrap(), Ok(()));
            assert!(leaf_cert.check_validity_now().is_ok());
            assert!(leaf_cert.check_issued_by(&leaf_cert).unwrap().is_err());
            let fields = leaf_cert.describe();
            assert_eq!(fields[0], ("subject", "CN=localhost".to_string()));
            // A flipped bit of the signature value: does not verify.
            let mut bad = chain.leaf_cert.clone();
            let last = bad.len() - 3;
            bad[last] ^= 1;
            let bad = Certificate::from_der(&bad).unwrap();
            assert!(bad.check_issued_by(&ca_cert).unwrap().is_err());
            // PEM chains are read in order.
            let pem = [
                cert_pem(&chain.leaf_cert).unwrap(),
                cert_pem(&chain.ca_cert).unwrap(),
            ];
            let certs = certificates(pem.concat().as_bytes()).unwrap();
            assert_eq!(certs, [chain.leaf_cert.clone(), chain.ca_cert.clone()]);
        }
        assert!(Certificate::from_der(b"\x30\x03junk").is_err());
    }

    #[test]
    fn chains_through_an_intermediate_ca() {
        let alg = CertAlg::MlDsa44;
        let (root, int, leaf) = (
            Keypair::generate(alg).unwrap(),
            Keypair::generate(alg).unwrap(),
            Keypair::generate(alg).unwrap(),
        );
        let root_der = issue("root", &root.spki_der().unwrap(), "root", &root, true, &[]).unwrap();
        let int_der = issue("int", &int.spki_der().unwrap(), "root", &root, true, &[]).unwrap();
        let sans = ["localhost".to_string()];
        let leaf_der = issue("leaf", &leaf.spki_der().unwrap(), "int", &int, false, &sans).unwrap();
        // A leaf certificate (cA FALSE) of the intermediate's key and name, issued by the root.
        let fake_int_der =
            issue("int", &int.spki_der().unwrap(), "root", &root, false, &sans).unwrap();
        fn parse(d: &[u8]) -> Certificate<'_> {
            Certificate::from_der(d).unwrap()
        }
        assert_eq!(parse(&int_der).check_may_issue(), Ok(()));
        assert!(parse(&fake_int_der).check_may_issue().is_err());
        let leaf_only = [parse(&leaf_der)];
        // The intermediate and the root in the CA file, in either order; or the intermediate
        // in the chain.
        for trusted in [
            vec![parse(&int_der), parse(&root_der)],
            vec![parse(&root_der), parse(&int_der)],
        ] {
            assert_eq!(verify_chain(&leaf_only, &trusted).unwrap(), Ok(()));
        }
        let chain = [parse(&leaf_der), parse(&int_der)];
        assert_eq!(verify_chain(&chain, &[parse(&root_der)]).unwrap(), Ok(()));
        // Without the root, the intermediate does not end the path (it is not self-signed).
        let e = verify_chain(&leaf_only, &[parse(&int_der)])
            .unwrap()
            .unwrap_err();
        assert!(e.starts_with("CA certificate 1 of 1: issuer name:"), "{e}");
        // The intermediate's twin with cA FALSE: refused by basicConstraints.
        let e = verify_chain(&leaf_only, &[parse(&fake_int_der), parse(&root_der)])
            .unwrap()
            .unwrap_err();
        assert!(e.contains("basicConstraints"), "{e}");
        let e = verify_chain(
            &[parse(&leaf_der), parse(&fake_int_der)],
            &[parse(&root_der)],
        )
        .unwrap()
        .unwrap_err();
        assert!(e.starts_with("certificate 1 of 2: basicConstraints"), "{e}");

        assert!(certificates(b"-----BEGIN CERTIFICATE-----\nAAAA\n").is_err());
    }
}
