//! PKCS#8 and SubjectPublicKeyInfo for ML-KEM keys (feature `pkcs8`; heap-free).
//!
//! The formats are those of draft-ietf-lamps-kyber-certificates: the algorithm identifier is
//! the NIST OID with the parameters absent, the encapsulation key ek is in the BIT STRING, and
//! the PKCS#8 `privateKey` OCTET STRING holds
//!
//! ```text
//! ML-KEM-PrivateKey ::= CHOICE {
//!     seed        [0] IMPLICIT OCTET STRING (SIZE (64)),     -- d || z
//!     expandedKey OCTET STRING,                               -- dk (FIPS 203, Algorithm 16)
//!     both        SEQUENCE { seed OCTET STRING, expandedKey OCTET STRING } }
//! ```
//!
//! **Read**: all three (for `both`, the expanded key must be the one the seed gives; an
//! expanded key passes the checks of FIPS 203, Section 7.3), the form of earlier drafts whose
//! `privateKey` holds the bare 64-byte seed, and a version-2 OneAsymmetricKey's public key (it
//! must be the key's). Encapsulation keys pass the modulus check of Section 7.2.
//!
//! **Written** (the canonical form): the seed form, version 1, no public key; a key that has
//! no seed (imported from its expanded encoding) is written in the expandedKey form.

use core::fmt;

use der::asn1::{AnyRef, BitStringRef, OctetStringRef};
use der::{Decode, Encode, Reader, SliceReader, Tag, TagNumber, Tagged};
use pkcs8::PrivateKeyInfoRef;
use spki::{AlgorithmIdentifier, ObjectIdentifier, SubjectPublicKeyInfoRef};
use subtle::ConstantTimeEq;
use zeroize::{Zeroize, Zeroizing};

use crate::{ByteArray, DecapsulationKey, EncapsulationKey, ParameterSet, SEED_LEN};

/// The largest PKCS#8 document [`encode_decapsulation_key`] writes (ML-KEM-1024, expandedKey
/// form).
pub const MAX_PKCS8_LEN: usize = 3168 + 32;
/// The largest SubjectPublicKeyInfo [`encode_encapsulation_key`] writes (ML-KEM-1024).
pub const MAX_SPKI_LEN: usize = 1568 + 32;

/// The tag of the `seed` alternative: `[0]` IMPLICIT, primitive.
const SEED_TAG: Tag = Tag::ContextSpecific {
    constructed: false,
    number: TagNumber(0),
};

/// An expanded key that is wiped when dropped.
struct Wiped<T: ByteArray>(T);

impl<T: ByteArray> Drop for Wiped<T> {
    fn drop(&mut self) {
        self.0.as_mut().zeroize();
    }
}

/// Why a key document was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Pkcs8Error {
    /// The DER is malformed (or an output buffer is too small).
    Der(der::Error),
    /// The algorithm OID is not this parameter set's.
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
    /// The library refused the key (modulus check, hash check).
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
            Self::SeedLength(n) => write!(f, "the seed inside has {n} bytes, expected 64"),
            Self::ExpandedLength(n) => write!(f, "the expanded key inside has {n} bytes"),
            Self::PublicKeyLength(n) => write!(f, "the encapsulation key inside has {n} bytes"),
            Self::SeedExpandedMismatch => {
                f.write_str("the seed and the expanded key inside do not match")
            }
            Self::PublicKeyMismatch => {
                f.write_str("the encapsulation key inside does not match the private key")
            }
            Self::Key(e) => write!(f, "not a valid ML-KEM key: {e}"),
        }
    }
}

impl From<der::Error> for Pkcs8Error {
    fn from(e: der::Error) -> Self {
        Self::Der(e)
    }
}

/// Checks that an algorithm identifier is `P`'s (the OID compared as encoded bytes, so that a
/// non-canonical encoding is another OID), parameters absent.
fn check_alg<P: ParameterSet>(alg: &AlgorithmIdentifier<AnyRef<'_>>) -> Result<(), Pkcs8Error> {
    if !ObjectIdentifier::new(P::OID).is_ok_and(|o| o == alg.oid) {
        return Err(Pkcs8Error::OtherAlgorithm);
    }
    if alg.parameters.is_some() {
        return Err(Pkcs8Error::Parameters);
    }
    Ok(())
}

/// The key from the `privateKey` contents, in any of the forms of the module documentation.
fn key_from_private<P: ParameterSet>(contents: &[u8]) -> Result<DecapsulationKey<P>, Pkcs8Error> {
    // Earlier drafts: the bare seed. No DER form of the CHOICE is 64 bytes long.
    if contents.len() == SEED_LEN {
        return DecapsulationKey::<P>::from_seed_bytes(contents).map_err(Pkcs8Error::Key);
    }
    let any = AnyRef::from_der(contents)?;
    let from_seed = |seed: &[u8]| {
        DecapsulationKey::<P>::from_seed_bytes(seed).map_err(|_| Pkcs8Error::SeedLength(seed.len()))
    };
    let from_expanded = |expanded: &[u8]| {
        if expanded.len() != P::DK_LEN {
            return Err(Pkcs8Error::ExpandedLength(expanded.len()));
        }
        DecapsulationKey::<P>::from_expanded(expanded).map_err(Pkcs8Error::Key)
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
            if expanded.as_bytes().len() != P::DK_LEN {
                return Err(Pkcs8Error::ExpandedLength(expanded.as_bytes().len()));
            }
            let own = Wiped(key.to_expanded());
            if !bool::from(own.0.as_ref().ct_eq(expanded.as_bytes())) {
                return Err(Pkcs8Error::SeedExpandedMismatch);
            }
            Ok(key)
        }
        other => Err(Pkcs8Error::UnknownForm(other)),
    }
}

/// Decodes a PKCS#8 (OneAsymmetricKey, version 1 or 2) ML-KEM decapsulation key of parameter
/// set `P` in any form the module documentation lists. [`Pkcs8Error::OtherAlgorithm`] when the
/// key is not for `P`.
pub fn decode_decapsulation_key<P: ParameterSet>(
    der: &[u8],
) -> Result<DecapsulationKey<P>, Pkcs8Error> {
    let info = PrivateKeyInfoRef::from_der(der)?;
    check_alg::<P>(&info.algorithm)?;
    let key = key_from_private::<P>(info.private_key.as_bytes())?;
    if let Some(bits) = info.public_key {
        let ek = bits.as_bytes().ok_or(Pkcs8Error::PublicKeyLength(0))?;
        if ek != key.encapsulation_key().as_bytes() {
            return Err(Pkcs8Error::PublicKeyMismatch);
        }
    }
    Ok(key)
}

/// Decodes a SubjectPublicKeyInfo holding an ML-KEM encapsulation key of parameter set `P`
/// (after the modulus check).
pub fn decode_encapsulation_key<P: ParameterSet>(
    der: &[u8],
) -> Result<EncapsulationKey<P>, Pkcs8Error> {
    let spki = SubjectPublicKeyInfoRef::from_der(der)?;
    check_alg::<P>(&spki.algorithm)?;
    let ek = spki
        .subject_public_key
        .as_bytes()
        .ok_or(Pkcs8Error::PublicKeyLength(0))?;
    if ek.len() != P::EK_LEN {
        return Err(Pkcs8Error::PublicKeyLength(ek.len()));
    }
    EncapsulationKey::<P>::from_bytes(ek).map_err(Pkcs8Error::Key)
}

/// The AlgorithmIdentifier of `P`, parameters absent.
fn alg_id<P: ParameterSet>() -> Result<AlgorithmIdentifier<AnyRef<'static>>, Pkcs8Error> {
    Ok(AlgorithmIdentifier {
        oid: ObjectIdentifier::new(P::OID).map_err(|_| Pkcs8Error::OtherAlgorithm)?,
        parameters: None,
    })
}

/// Writes the canonical PKCS#8 form of `key` (seed form; expandedKey form for a key without
/// seed) into `out` and returns its length ([`MAX_PKCS8_LEN`] bytes are always enough).
pub fn encode_decapsulation_key<P: ParameterSet>(
    key: &DecapsulationKey<P>,
    out: &mut [u8],
) -> Result<usize, Pkcs8Error> {
    let mut choice = Zeroizing::new([0u8; MAX_PKCS8_LEN]);
    let expanded;
    let any = match key.seed() {
        Some(seed) => AnyRef::new(SEED_TAG, seed)?,
        None => {
            expanded = Wiped(key.to_expanded());
            AnyRef::new(Tag::OctetString, expanded.0.as_ref())?
        }
    };
    let choice = any.encode_to_slice(choice.as_mut_slice())?;
    let info = PrivateKeyInfoRef::new(alg_id::<P>()?, OctetStringRef::new(choice)?);
    Ok(info.encode_to_slice(out)?.len())
}

/// Writes the SubjectPublicKeyInfo of `ek` into `out` and returns its length
/// ([`MAX_SPKI_LEN`] bytes are always enough).
pub fn encode_encapsulation_key<P: ParameterSet>(
    ek: &EncapsulationKey<P>,
    out: &mut [u8],
) -> Result<usize, Pkcs8Error> {
    let spki = SubjectPublicKeyInfoRef {
        algorithm: alg_id::<P>()?,
        subject_public_key: BitStringRef::from_bytes(ek.as_bytes())?,
    };
    Ok(spki.encode_to_slice(out)?.len())
}

#[cfg(test)]
mod tests;
