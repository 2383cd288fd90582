//! PKCS#8 and SubjectPublicKeyInfo for ML-DSA keys (feature `pkcs8`; heap-free).
//!
//! The formats are those of RFC 9881 (draft-ietf-lamps-dilithium-certificates): the algorithm
//! identifier is the NIST OID with the parameters absent, the public key is pkEncode in the
//! BIT STRING, and the PKCS#8 `privateKey` OCTET STRING holds
//!
//! ```text
//! ML-DSA-PrivateKey ::= CHOICE {
//!     seed        [0] IMPLICIT OCTET STRING (SIZE (32)),     -- xi
//!     expandedKey OCTET STRING,                               -- skEncode
//!     both        SEQUENCE { seed OCTET STRING, expandedKey OCTET STRING } }
//! ```
//!
//! **Read**: all three (for `both`, the expanded key must be the one the seed gives), the form
//! of earlier drafts whose `privateKey` holds the bare 32-byte seed, and a version-2
//! OneAsymmetricKey's public key (it must be the key's). Keys with the HashML-DSA OIDs
//! (2.16.840.1.101.3.4.3.32/33/34: ML-DSA-44/65/87 with SHA-512 pre-hash, FIPS 204 Section
//! 5.4) are read as [`KeyVariant::HashSha512`]: such a key signs and verifies with HashML-DSA
//! and SHA-512.
//!
//! **Written** (the canonical form): the seed form, version 1, no public key; a key that has
//! no seed (imported from its expanded encoding) is written in the expandedKey form.

use core::fmt;

use der::asn1::{AnyRef, BitStringRef, OctetStringRef};
use der::{Decode, Encode, Reader, SliceReader, Tag, TagNumber, Tagged};
use pkcs8::PrivateKeyInfoRef;
use spki::{AlgorithmIdentifier, ObjectIdentifier, SubjectPublicKeyInfoRef};
use subtle::ConstantTimeEq;
use zeroize::Zeroizing;

use crate::{ParameterSet, SigningKey, VerifyingKey};

/// HashML-DSA-44 with SHA-512 (NIST CSOR).
pub const OID_HASH_ML_DSA_44_SHA512: &str = "2.16.840.1.101.3.4.3.32";
/// HashML-DSA-65 with SHA-512 (NIST CSOR).
pub const OID_HASH_ML_DSA_65_SHA512: &str = "2.16.840.1.101.3.4.3.33";
/// HashML-DSA-87 with SHA-512 (NIST CSOR).
pub const OID_HASH_ML_DSA_87_SHA512: &str = "2.16.840.1.101.3.4.3.34";

/// The largest PKCS#8 document [`encode_signing_key`] writes (ML-DSA-87, expandedKey form).
pub const MAX_PKCS8_LEN: usize = 4896 + 32;
/// The largest SubjectPublicKeyInfo [`encode_verifying_key`] writes (ML-DSA-87).
pub const MAX_SPKI_LEN: usize = 2592 + 32;

/// The tag of the `seed` alternative: `[0]` IMPLICIT, primitive.
const SEED_TAG: Tag = Tag::ContextSpecific {
    constructed: false,
    number: TagNumber(0),
};

/// Which signature scheme a key is for: pure ML-DSA, or HashML-DSA with SHA-512.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyVariant {
    /// ML-DSA (the OIDs 2.16.840.1.101.3.4.3.17/18/19).
    Pure,
    /// HashML-DSA with SHA-512 (the OIDs 2.16.840.1.101.3.4.3.32/33/34).
    HashSha512,
}

/// Why a key document was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Pkcs8Error {
    /// The DER is malformed (or an output buffer is too small).
    Der(der::Error),
    /// The algorithm OID is not one of this parameter set's (ML-DSA or HashML-DSA).
    OtherAlgorithm,
    /// The algorithm identifier has parameters; they must be absent.
    Parameters,
    /// The private key is none of the forms above (the tag that was found).
    UnknownForm(Tag),
    /// The seed has the wrong length.
    SeedLength(usize),
    /// The expanded key has the wrong length.
    ExpandedLength(usize),
    /// The public key has the wrong length.
    PublicKeyLength(usize),
    /// The `both` form's seed and expanded key are not the same key.
    SeedExpandedMismatch,
    /// The public key stored with the private key is not its public key.
    PublicKeyMismatch,
    /// The library refused the key (a malformed expanded key).
    Key(crate::Error),
}

impl fmt::Display for Pkcs8Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Der(e) => write!(f, "malformed DER: {e}"),
            Self::OtherAlgorithm => f.write_str("the key is for another algorithm"),
            Self::Parameters => {
                f.write_str("the algorithm identifier has parameters; they must be absent")
            }
            Self::UnknownForm(tag) => write!(
                f,
                "malformed private key: expected a seed [0], an expandedKey OCTET STRING or a \
                 'both' SEQUENCE, found {tag}"
            ),
            Self::SeedLength(n) => write!(f, "the seed inside has {n} bytes, expected 32"),
            Self::ExpandedLength(n) => write!(f, "the expanded key inside has {n} bytes"),
            Self::PublicKeyLength(n) => write!(f, "the public key inside has {n} bytes"),
            Self::SeedExpandedMismatch => {
                f.write_str("the seed and the expanded key inside do not match")
            }
            Self::PublicKeyMismatch => {
                f.write_str("the public key inside does not match the private key")
            }
            Self::Key(e) => write!(f, "not a valid ML-DSA secret key: {e}"),
        }
    }
}

impl From<der::Error> for Pkcs8Error {
    fn from(e: der::Error) -> Self {
        Self::Der(e)
    }
}

/// The HashML-DSA (SHA-512) OID of the parameter set `P`.
pub fn hash_oid<P: ParameterSet>() -> &'static str {
    match P::K {
        4 => OID_HASH_ML_DSA_44_SHA512,
        6 => OID_HASH_ML_DSA_65_SHA512,
        _ => OID_HASH_ML_DSA_87_SHA512,
    }
}

/// The OID for `P` and `variant`.
pub fn oid<P: ParameterSet>(variant: KeyVariant) -> &'static str {
    match variant {
        KeyVariant::Pure => P::OID,
        KeyVariant::HashSha512 => hash_oid::<P>(),
    }
}

/// The variant an algorithm identifier names for `P`: the OID must be one of `P`'s (compared
/// as encoded bytes, so that a non-canonical encoding is another OID) and the parameters absent.
fn variant_of<P: ParameterSet>(
    alg: &AlgorithmIdentifier<AnyRef<'_>>,
) -> Result<KeyVariant, Pkcs8Error> {
    let variant = [KeyVariant::Pure, KeyVariant::HashSha512]
        .into_iter()
        .find(|&v| ObjectIdentifier::new(oid::<P>(v)).is_ok_and(|o| o == alg.oid))
        .ok_or(Pkcs8Error::OtherAlgorithm)?;
    if alg.parameters.is_some() {
        return Err(Pkcs8Error::Parameters);
    }
    Ok(variant)
}

/// The key from the `privateKey` contents, in any of the forms of the module documentation.
fn key_from_private<P: ParameterSet>(contents: &[u8]) -> Result<SigningKey<P>, Pkcs8Error> {
    // Earlier drafts: the bare seed. No DER form of the CHOICE is 32 bytes long.
    if contents.len() == 32 {
        return SigningKey::<P>::from_seed_slice(contents).map_err(Pkcs8Error::Key);
    }
    let any = AnyRef::from_der(contents)?;
    let from_seed = |seed: &[u8]| {
        SigningKey::<P>::from_seed_slice(seed).map_err(|_| Pkcs8Error::SeedLength(seed.len()))
    };
    let from_expanded = |expanded: &[u8]| {
        if expanded.len() != P::SK_LEN {
            return Err(Pkcs8Error::ExpandedLength(expanded.len()));
        }
        SigningKey::<P>::from_expanded(expanded).map_err(Pkcs8Error::Key)
    };
    match any.tag() {
        SEED_TAG => from_seed(any.value()),
        Tag::OctetString => from_expanded(any.value()),
        Tag::Sequence => {
            let mut reader = SliceReader::new(any.value())?;
            let seed: &OctetStringRef = reader.decode()?;
            let expanded: &OctetStringRef = reader.decode()?;
            reader.finish()?;
            let key = from_seed(seed.as_bytes())?;
            if expanded.as_bytes().len() != P::SK_LEN {
                return Err(Pkcs8Error::ExpandedLength(expanded.as_bytes().len()));
            }
            let own = Zeroizing::new(key.to_expanded());
            if !bool::from(own.as_ref().ct_eq(expanded.as_bytes())) {
                return Err(Pkcs8Error::SeedExpandedMismatch);
            }
            Ok(key)
        }
        other => Err(Pkcs8Error::UnknownForm(other)),
    }
}

/// Decodes a PKCS#8 (OneAsymmetricKey, version 1 or 2) ML-DSA private key of parameter set `P`
/// in any form the module documentation lists; returns the key and its variant.
/// [`Pkcs8Error::OtherAlgorithm`] when the key is not for `P`.
pub fn decode_signing_key<P: ParameterSet>(
    der: &[u8],
) -> Result<(SigningKey<P>, KeyVariant), Pkcs8Error> {
    let info = PrivateKeyInfoRef::from_der(der)?;
    let variant = variant_of::<P>(&info.algorithm)?;
    let key = key_from_private::<P>(info.private_key.as_bytes())?;
    if let Some(bits) = info.public_key {
        let pk = bits.as_bytes().ok_or(Pkcs8Error::PublicKeyLength(0))?;
        if pk != key.verifying_key().as_bytes() {
            return Err(Pkcs8Error::PublicKeyMismatch);
        }
    }
    Ok((key, variant))
}

/// Decodes a SubjectPublicKeyInfo holding an ML-DSA public key of parameter set `P`.
pub fn decode_verifying_key<P: ParameterSet>(
    der: &[u8],
) -> Result<(VerifyingKey<P>, KeyVariant), Pkcs8Error> {
    let spki = SubjectPublicKeyInfoRef::from_der(der)?;
    let variant = variant_of::<P>(&spki.algorithm)?;
    let pk = spki
        .subject_public_key
        .as_bytes()
        .ok_or(Pkcs8Error::PublicKeyLength(0))?;
    let vk =
        VerifyingKey::<P>::from_bytes(pk).map_err(|_| Pkcs8Error::PublicKeyLength(pk.len()))?;
    Ok((vk, variant))
}

/// The AlgorithmIdentifier of `P` and `variant`, parameters absent.
fn alg_id<P: ParameterSet>(
    variant: KeyVariant,
) -> Result<AlgorithmIdentifier<AnyRef<'static>>, Pkcs8Error> {
    Ok(AlgorithmIdentifier {
        oid: ObjectIdentifier::new(oid::<P>(variant)).map_err(|_| Pkcs8Error::OtherAlgorithm)?,
        parameters: None,
    })
}

/// Writes the canonical PKCS#8 form of `key` (seed form; expandedKey form for a key without
/// seed) into `out` and returns its length ([`MAX_PKCS8_LEN`] bytes are always enough).
pub fn encode_signing_key<P: ParameterSet>(
    key: &SigningKey<P>,
    variant: KeyVariant,
    out: &mut [u8],
) -> Result<usize, Pkcs8Error> {
    let mut choice = Zeroizing::new([0u8; MAX_PKCS8_LEN]);
    let expanded;
    let any = match key.seed() {
        Some(seed) => AnyRef::new(SEED_TAG, seed)?,
        None => {
            expanded = Zeroizing::new(key.to_expanded());
            AnyRef::new(Tag::OctetString, expanded.as_ref())?
        }
    };
    let choice = any.encode_to_slice(choice.as_mut_slice())?;
    let info = PrivateKeyInfoRef::new(alg_id::<P>(variant)?, OctetStringRef::new(choice)?);
    Ok(info.encode_to_slice(out)?.len())
}

/// Writes the SubjectPublicKeyInfo of `vk` into `out` and returns its length
/// ([`MAX_SPKI_LEN`] bytes are always enough).
pub fn encode_verifying_key<P: ParameterSet>(
    vk: &VerifyingKey<P>,
    variant: KeyVariant,
    out: &mut [u8],
) -> Result<usize, Pkcs8Error> {
    let spki = SubjectPublicKeyInfoRef {
        algorithm: alg_id::<P>(variant)?,
        subject_public_key: BitStringRef::from_bytes(vk.as_bytes())?,
    };
    Ok(spki.encode_to_slice(out)?.len())
}

#[cfg(test)]
mod tests;
