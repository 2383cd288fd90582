//! PKCS#8 and SubjectPublicKeyInfo for the TLS keys, through the scheme crates' `pkcs8` codecs
//! (the one implementation, shared with the `pqlab` command): ML-DSA (RFC 9881: seed,
//! expandedKey, both and the bare-seed draft form; written in seed form) and Falcon (the OQS,
//! BouncyCastle and pqlab seed forms; written in oqs-provider's form), see
//! `pqlab_mldsa::pkcs8` and `pqlab_falcon::pkcs8`. Keys with the HashML-DSA OIDs are refused
//! here: TLS 1.3 has no HashML-DSA signature scheme. What remains here are the generic DER
//! helpers of the certificate builder.

use der::asn1::{AnyRef, BitStringRef, OctetStringRef};
use der::{Decode, Encode};
use pkcs8::PrivateKeyInfoRef;
use pqlab_falcon::pkcs8 as falcon;
use pqlab_mldsa::pkcs8::{self as mldsa, KeyVariant};
use pqlab_mldsa::{MlDsa44, MlDsa65, MlDsa87, ParameterSet, SigningKey};
use spki::{AlgorithmIdentifier, ObjectIdentifier, SubjectPublicKeyInfoRef};
use zeroize::Zeroizing;

use crate::Error;

/// A post-quantum private key read from PKCS#8.
pub enum PqPrivateKey {
    /// ML-DSA-44.
    MlDsa44(Box<SigningKey<MlDsa44>>),
    /// ML-DSA-65.
    MlDsa65(Box<SigningKey<MlDsa65>>),
    /// ML-DSA-87.
    MlDsa87(Box<SigningKey<MlDsa87>>),
    /// Falcon-512 (non-standard OID).
    Falcon512(Box<pqlab_falcon::SigningKey<512>>),
    /// Falcon-1024 (non-standard OID).
    Falcon1024(Box<pqlab_falcon::SigningKey<1024>>),
}

fn der_err(e: der::Error) -> Error {
    Error::Der(e.to_string())
}

fn oid(dotted: &str) -> Result<ObjectIdentifier, Error> {
    ObjectIdentifier::new(dotted).map_err(|e| Error::Der(format!("OID {dotted}: {e}")))
}

/// The dotted form of an algorithm OID read from DER, or `None` unless its encoding is the
/// canonical one of that dotted form (X.690 8.19: minimal arcs). `const-oid` also accepts an arc
/// with a leading 0x80 byte and 5-byte arcs above 2^32, whose dotted form names another OID
/// (2.16.(840 + 2^32).1... prints as ML-DSA-44's 2.16.840.1...; found by the pkcs_spki fuzz
/// target). Every decoder that matches OIDs by their dotted form goes through this.
pub fn dotted_oid(oid: &ObjectIdentifier) -> Option<String> {
    let dotted = oid.to_string();
    let again = ObjectIdentifier::new(&dotted).ok()?;
    (again.as_bytes() == oid.as_bytes()).then_some(dotted)
}

/// The AlgorithmIdentifier with `dotted` and absent parameters.
pub(crate) fn alg_id(dotted: &str) -> Result<AlgorithmIdentifier<AnyRef<'static>>, Error> {
    Ok(AlgorithmIdentifier {
        oid: oid(dotted)?,
        parameters: None,
    })
}

/// A SubjectPublicKeyInfo (DER) for the raw public key `pk` of algorithm `oid`.
pub fn encode_spki(oid: &str, pk: &[u8]) -> Result<Vec<u8>, Error> {
    SubjectPublicKeyInfoRef {
        algorithm: alg_id(oid)?,
        subject_public_key: BitStringRef::from_bytes(pk).map_err(der_err)?,
    }
    .to_der()
    .map_err(der_err)
}

/// A PKCS#8 private key (DER) of algorithm `oid` (parameters absent) whose `privateKey` OCTET
/// STRING holds `private_key` as it is.
pub fn encode_pkcs8(oid: &str, private_key: &[u8]) -> Result<Zeroizing<Vec<u8>>, Error> {
    PrivateKeyInfoRef::new(
        alg_id(oid)?,
        OctetStringRef::new(private_key).map_err(der_err)?,
    )
    .to_der()
    .map(Zeroizing::new)
    .map_err(der_err)
}

/// The canonical PKCS#8 (seed form) of the ML-DSA or ML-KEM key with OID `oid` made from
/// `seed` (the scheme crates' encoders).
pub fn encode_seed_pkcs8(oid: &str, seed: &[u8]) -> Result<Zeroizing<Vec<u8>>, Error> {
    fn dsa<P: ParameterSet>(seed: &[u8]) -> Result<Zeroizing<Vec<u8>>, Error> {
        let key = SigningKey::<P>::from_seed_slice(seed).map_err(|e| Error::Key(e.to_string()))?;
        mldsa_pkcs8(&key)
    }
    fn kem<P: pqlab_mlkem::ParameterSet>(seed: &[u8]) -> Result<Zeroizing<Vec<u8>>, Error> {
        let key = pqlab_mlkem::DecapsulationKey::<P>::from_seed_bytes(seed)
            .map_err(|e| Error::Key(e.to_string()))?;
        let mut out = Zeroizing::new(vec![0u8; pqlab_mlkem::pkcs8::MAX_PKCS8_LEN]);
        let n = pqlab_mlkem::pkcs8::encode_decapsulation_key(&key, &mut out)
            .map_err(|e| Error::Key(e.to_string()))?;
        out.truncate(n);
        Ok(out)
    }
    match oid {
        MlDsa44::OID => dsa::<MlDsa44>(seed),
        MlDsa65::OID => dsa::<MlDsa65>(seed),
        MlDsa87::OID => dsa::<MlDsa87>(seed),
        <pqlab_mlkem::MlKem512 as pqlab_mlkem::ParameterSet>::OID => {
            kem::<pqlab_mlkem::MlKem512>(seed)
        }
        <pqlab_mlkem::MlKem768 as pqlab_mlkem::ParameterSet>::OID => {
            kem::<pqlab_mlkem::MlKem768>(seed)
        }
        <pqlab_mlkem::MlKem1024 as pqlab_mlkem::ParameterSet>::OID => {
            kem::<pqlab_mlkem::MlKem1024>(seed)
        }
        other => Err(Error::UnknownAlgorithm(other.into())),
    }
}

/// The canonical PKCS#8 of an ML-DSA key (seed form).
pub(crate) fn mldsa_pkcs8<P: ParameterSet>(
    key: &SigningKey<P>,
) -> Result<Zeroizing<Vec<u8>>, Error> {
    let mut out = Zeroizing::new(vec![0u8; mldsa::MAX_PKCS8_LEN]);
    let n = mldsa::encode_signing_key(key, KeyVariant::Pure, &mut out)
        .map_err(|e| Error::Key(format!("{}: {e}", P::NAME)))?;
    out.truncate(n);
    Ok(out)
}

/// The SubjectPublicKeyInfo of an ML-DSA key.
pub(crate) fn mldsa_spki<P: ParameterSet>(
    vk: &pqlab_mldsa::VerifyingKey<P>,
) -> Result<Vec<u8>, Error> {
    mldsa_spki_as(vk, KeyVariant::Pure)
}

/// The SubjectPublicKeyInfo of an ML-DSA key for ML-DSA or HashML-DSA (`variant`'s OID).
pub(crate) fn mldsa_spki_as<P: ParameterSet>(
    vk: &pqlab_mldsa::VerifyingKey<P>,
    variant: KeyVariant,
) -> Result<Vec<u8>, Error> {
    let mut out = vec![0u8; mldsa::MAX_SPKI_LEN];
    let n = mldsa::encode_verifying_key(vk, variant, &mut out)
        .map_err(|e| Error::Key(format!("{}: {e}", P::NAME)))?;
    out.truncate(n);
    Ok(out)
}

/// The canonical (oqs-provider) PKCS#8 of a Falcon key.
pub(crate) fn falcon_pkcs8<const N: usize>(
    key: &pqlab_falcon::SigningKey<N>,
) -> Result<Zeroizing<Vec<u8>>, Error> {
    let mut out = Zeroizing::new(vec![0u8; falcon::MAX_PKCS8_LEN]);
    let n = falcon::encode_signing_key(key, &mut out)
        .map_err(|e| Error::Key(format!("falcon-{N}: {e}")))?;
    out.truncate(n);
    Ok(out)
}

/// The SubjectPublicKeyInfo of a Falcon key.
pub(crate) fn falcon_spki<const N: usize>(
    vk: &pqlab_falcon::VerifyingKey<N>,
) -> Result<Vec<u8>, Error> {
    let mut out = vec![0u8; falcon::MAX_SPKI_LEN];
    let n = falcon::encode_verifying_key(vk, &mut out)
        .map_err(|e| Error::Key(format!("falcon-{N}: {e}")))?;
    out.truncate(n);
    Ok(out)
}

/// An ML-DSA key of `P`, `None` when the document is for another algorithm.
fn try_mldsa<P: ParameterSet>(der: &[u8]) -> Result<Option<Box<SigningKey<P>>>, Error> {
    match mldsa::decode_signing_key::<P>(der) {
        Ok((key, KeyVariant::Pure)) => Ok(Some(Box::new(key))),
        Ok((_, KeyVariant::HashSha512)) => Err(Error::Key(format!(
            "{}: a HashML-DSA (SHA-512) key; TLS 1.3 signs with pure ML-DSA",
            P::NAME
        ))),
        Err(mldsa::Pkcs8Error::OtherAlgorithm) => Ok(None),
        Err(e) => Err(Error::Key(format!("{}: {e}", P::NAME))),
    }
}

/// A Falcon key of degree `N`, `None` when the document is for another algorithm.
fn try_falcon<const N: usize>(
    der: &[u8],
) -> Result<Option<Box<pqlab_falcon::SigningKey<N>>>, Error> {
    match falcon::decode_signing_key::<N>(der) {
        Ok(key) => Ok(Some(Box::new(key))),
        Err(falcon::Pkcs8Error::OtherAlgorithm) => Ok(None),
        Err(e) => Err(Error::Key(format!("falcon-{N}: {e}"))),
    }
}

/// Decodes a PKCS#8 key if its OID is a post-quantum signature algorithm; `Ok(None)` for any
/// other algorithm.
pub fn decode_pq_private_key(der: &[u8]) -> Result<Option<PqPrivateKey>, Error> {
    let info = PrivateKeyInfoRef::from_der(der).map_err(der_err)?;
    dotted_oid(&info.algorithm.oid)
        .ok_or_else(|| Error::Der("the algorithm object identifier is not in DER form".into()))?;
    if let Some(k) = try_mldsa::<MlDsa44>(der)? {
        return Ok(Some(PqPrivateKey::MlDsa44(k)));
    }
    if let Some(k) = try_mldsa::<MlDsa65>(der)? {
        return Ok(Some(PqPrivateKey::MlDsa65(k)));
    }
    if let Some(k) = try_mldsa::<MlDsa87>(der)? {
        return Ok(Some(PqPrivateKey::MlDsa87(k)));
    }
    if let Some(k) = try_falcon::<512>(der)? {
        return Ok(Some(PqPrivateKey::Falcon512(k)));
    }
    Ok(try_falcon::<1024>(der)?.map(PqPrivateKey::Falcon1024))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pkcs8_with_choice(oid: &str, choice: &[u8]) -> Vec<u8> {
        encode_pkcs8(oid, choice).unwrap().to_vec()
    }

    fn vk_of(key: &PqPrivateKey) -> Vec<u8> {
        match key {
            PqPrivateKey::MlDsa44(k) => k.verifying_key().as_bytes().to_vec(),
            PqPrivateKey::MlDsa65(k) => k.verifying_key().as_bytes().to_vec(),
            PqPrivateKey::MlDsa87(k) => k.verifying_key().as_bytes().to_vec(),
            PqPrivateKey::Falcon512(_) | PqPrivateKey::Falcon1024(_) => Vec::new(),
        }
    }

    #[test]
    fn seed_and_expanded_forms_give_the_same_key() {
        let xi = [5u8; 32];
        let key = SigningKey::<MlDsa65>::from_seed(&xi);
        let want = key.verifying_key().as_bytes().to_vec();
        let seed_der = encode_seed_pkcs8(MlDsa65::OID, &xi).unwrap();
        let got = decode_pq_private_key(&seed_der).unwrap().unwrap();
        assert!(matches!(got, PqPrivateKey::MlDsa65(_)));
        assert_eq!(vk_of(&got), want);
        let expanded = key.to_expanded();
        let choice = OctetStringRef::new(expanded.as_ref())
            .unwrap()
            .to_der()
            .unwrap();
        let got = decode_pq_private_key(&pkcs8_with_choice(MlDsa65::OID, &choice)).unwrap();
        assert_eq!(vk_of(&got.unwrap()), want);
        // The bare seed of earlier drafts.
        let got = decode_pq_private_key(&pkcs8_with_choice(MlDsa65::OID, &xi)).unwrap();
        assert_eq!(vk_of(&got.unwrap()), want);
        // HashML-DSA keys have no TLS signature scheme.
        let hash = pkcs8_with_choice(mldsa::OID_HASH_ML_DSA_65_SHA512, &xi);
        assert!(matches!(decode_pq_private_key(&hash), Err(Error::Key(_))));
    }

    #[test]
    fn other_algorithms_and_bad_keys() {
        // An ECDSA key is not ours: None, for the classical provider to load.
        let ec = pkcs8_with_choice("1.2.840.10045.2.1", &[0x04, 0x00]);
        assert!(decode_pq_private_key(&ec).unwrap().is_none());
        // A 31-byte seed, and garbage.
        let short = pkcs8_with_choice(
            MlDsa44::OID,
            &[
                0x80, 31, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
                1, 1, 1, 1, 1, 1, 1,
            ],
        );
        assert!(matches!(decode_pq_private_key(&short), Err(Error::Key(_))));
        assert!(matches!(
            decode_pq_private_key(b"\x30\x03junk"),
            Err(Error::Der(_))
        ));
    }
}
