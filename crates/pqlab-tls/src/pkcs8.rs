//! PKCS#8 and SubjectPublicKeyInfo for ML-DSA keys (RFC 9881), the same forms that
//! `pqlab keygen --format pem` writes: the NIST OID with absent parameters; the private key is
//! the CHOICE `seed [0] IMPLICIT OCTET STRING` (32 bytes xi), `expandedKey OCTET STRING` or
//! `both SEQUENCE { seed, expandedKey }`. Falcon keys (non-standard OIDs) have the form that
//! [`crate::falcon`] describes.

use der::asn1::{AnyRef, BitStringRef, OctetStringRef};
use der::{Decode, Encode, Reader, SliceReader, Tag, TagNumber, Tagged};
use pkcs8::PrivateKeyInfoRef;
use pqlab_mldsa::{MlDsa44, MlDsa65, MlDsa87, ParameterSet, SigningKey};
use spki::{AlgorithmIdentifier, ObjectIdentifier, SubjectPublicKeyInfoRef};
use zeroize::Zeroizing;

use crate::Error;
use crate::falcon::{
    Falcon512, Falcon1024, OID_FALCON_512, OID_FALCON_1024, decode_falcon_private,
};

/// The tag of the `seed` alternative: `[0]` IMPLICIT, primitive.
const SEED_TAG: Tag = Tag::ContextSpecific {
    constructed: false,
    number: TagNumber(0),
};

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

/// A PKCS#8 private key (DER) in seed form.
pub fn encode_seed_pkcs8(oid: &str, seed: &[u8]) -> Result<Zeroizing<Vec<u8>>, Error> {
    let choice = Zeroizing::new(
        AnyRef::new(SEED_TAG, seed)
            .and_then(|a| a.to_der())
            .map_err(der_err)?,
    );
    encode_pkcs8(oid, &choice)
}

/// A PKCS#8 private key (DER) of algorithm `oid` (parameters absent) whose `privateKey` OCTET
/// STRING holds `private_key`.
pub fn encode_pkcs8(oid: &str, private_key: &[u8]) -> Result<Zeroizing<Vec<u8>>, Error> {
    PrivateKeyInfoRef::new(
        alg_id(oid)?,
        OctetStringRef::new(private_key).map_err(der_err)?,
    )
    .to_der()
    .map(Zeroizing::new)
    .map_err(der_err)
}

/// Builds the key from the `privateKey` CHOICE; the `both` form must be consistent.
fn key_from_choice<P: ParameterSet>(choice: &[u8]) -> Result<Box<SigningKey<P>>, Error> {
    let bad = |what: &str| Error::Key(format!("{}: {what}", P::NAME));
    let any = AnyRef::from_der(choice).map_err(der_err)?;
    match any.tag() {
        SEED_TAG => SigningKey::<P>::from_seed_slice(any.value())
            .map(Box::new)
            .map_err(|e| bad(&e.to_string())),
        Tag::OctetString => SigningKey::<P>::from_expanded(any.value())
            .map(Box::new)
            .map_err(|e| bad(&e.to_string())),
        Tag::Sequence => {
            let mut reader = SliceReader::new(any.value()).map_err(der_err)?;
            let seed: &OctetStringRef = reader.decode().map_err(der_err)?;
            let expanded: &OctetStringRef = reader.decode().map_err(der_err)?;
            reader.finish().map_err(der_err)?;
            let key = SigningKey::<P>::from_seed_slice(seed.as_bytes())
                .map_err(|e| bad(&e.to_string()))?;
            if key.to_expanded().as_ref() != expanded.as_bytes() {
                return Err(bad(
                    "the seed and the expanded key of the 'both' form differ",
                ));
            }
            Ok(Box::new(key))
        }
        other => Err(bad(&format!("unexpected private key form {other}"))),
    }
}

/// Decodes a PKCS#8 key if its OID is a post-quantum signature algorithm; `Ok(None)` for any
/// other algorithm.
pub fn decode_pq_private_key(der: &[u8]) -> Result<Option<PqPrivateKey>, Error> {
    let info = PrivateKeyInfoRef::from_der(der).map_err(der_err)?;
    let dotted = dotted_oid(&info.algorithm.oid)
        .ok_or_else(|| Error::Der("the algorithm object identifier is not in DER form".into()))?;
    let choice = info.private_key.as_bytes();
    let key = match dotted.as_str() {
        MlDsa44::OID => PqPrivateKey::MlDsa44(key_from_choice(choice)?),
        MlDsa65::OID => PqPrivateKey::MlDsa65(key_from_choice(choice)?),
        MlDsa87::OID => PqPrivateKey::MlDsa87(key_from_choice(choice)?),
        OID_FALCON_512 => PqPrivateKey::Falcon512(decode_falcon_private::<Falcon512, 512>(choice)?),
        OID_FALCON_1024 => {
            PqPrivateKey::Falcon1024(decode_falcon_private::<Falcon1024, 1024>(choice)?)
        }
        _ => return Ok(None),
    };
    if info.algorithm.parameters.is_some() {
        return Err(Error::Key(format!("{dotted}: parameters must be absent")));
    }
    Ok(Some(key))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pkcs8_with_choice(oid: &str, choice: &[u8]) -> Vec<u8> {
        PrivateKeyInfoRef::new(alg_id(oid).unwrap(), OctetStringRef::new(choice).unwrap())
            .to_der()
            .unwrap()
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
    fn seed_expanded_and_both_forms_give_the_same_key() {
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

        let both = |seed: &[u8]| {
            let mut inner = OctetStringRef::new(seed).unwrap().to_der().unwrap();
            inner.extend(
                OctetStringRef::new(expanded.as_ref())
                    .unwrap()
                    .to_der()
                    .unwrap(),
            );
            let choice = AnyRef::new(Tag::Sequence, &inner)
                .unwrap()
                .to_der()
                .unwrap();
            decode_pq_private_key(&pkcs8_with_choice(MlDsa65::OID, &choice))
        };
        assert_eq!(vk_of(&both(&xi).unwrap().unwrap()), want);
        assert!(matches!(both(&[6u8; 32]), Err(Error::Key(_))));
    }

    #[test]
    fn other_algorithms_and_bad_keys() {
        // An ECDSA key is not ours: None, for the classical provider to load.
        let ec = pkcs8_with_choice("1.2.840.10045.2.1", &[0x04, 0x00]);
        assert!(decode_pq_private_key(&ec).unwrap().is_none());
        // A 31-byte seed, and garbage.
        let short = encode_seed_pkcs8(MlDsa44::OID, &[1u8; 31]).unwrap();
        assert!(matches!(decode_pq_private_key(&short), Err(Error::Key(_))));
        assert!(matches!(
            decode_pq_private_key(b"\x30\x03junk"),
            Err(Error::Der(_))
        ));
    }
}
