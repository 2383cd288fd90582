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
//! **Read**: all three (for `both`, the expanded key must be the one the seed gives), the forms
//! of earlier drafts whose `privateKey` holds the bare 32-byte seed (BouncyCastle 1.80) or an
//! OCTET STRING holding the 32-byte seed (BouncyCastle 1.79), and a version-2
//! OneAsymmetricKey's public key (it must be the key's). Keys with the HashML-DSA OIDs
//! (2.16.840.1.101.3.4.3.32/33/34: ML-DSA-44/65/87 with SHA-512 pre-hash, FIPS 204 Section
//! 5.4) are read as [`KeyVariant::HashSha512`]: such a key signs and verifies with HashML-DSA
//! and SHA-512.
//!
//! **Written** (the canonical form): the seed form, version 1, no public key; a key that has
//! no seed (imported from its expanded encoding) is written in the expandedKey form.

use pqlab_pkcs8::{Choice, SEED_TAG};
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

/// Which signature scheme a key is for: pure ML-DSA, or HashML-DSA with SHA-512.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyVariant {
    /// ML-DSA (the OIDs 2.16.840.1.101.3.4.3.17/18/19).
    Pure,
    /// HashML-DSA with SHA-512 (the OIDs 2.16.840.1.101.3.4.3.32/33/34).
    HashSha512,
}

/// Why a key document was refused.
pub type Pkcs8Error = pqlab_pkcs8::Pkcs8Error<crate::Error>;

impl pqlab_pkcs8::Scheme for crate::Error {
    const KEY: &'static str = "ML-DSA secret key";
    const PUBLIC_KEY: &'static str = "public key";
    const FORMS: &'static str = "a seed [0], an expandedKey OCTET STRING or a 'both' SEQUENCE";
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

/// The variants in the order of [`oids`].
const VARIANTS: [KeyVariant; 2] = [KeyVariant::Pure, KeyVariant::HashSha512];

/// `P`'s OIDs: ML-DSA's, then HashML-DSA's.
fn oids<P: ParameterSet>() -> [&'static str; 2] {
    VARIANTS.map(oid::<P>)
}

/// The key from the `privateKey` contents, in any of the forms of the module documentation.
fn key_from_private<P: ParameterSet>(contents: &[u8]) -> Result<SigningKey<P>, Pkcs8Error> {
    // Earlier drafts: the bare seed. No DER form of the CHOICE is 32 bytes long.
    if contents.len() == 32 {
        return SigningKey::<P>::from_seed_slice(contents).map_err(Pkcs8Error::Key);
    }
    let from_seed = |seed: &[u8]| {
        SigningKey::<P>::from_seed_slice(seed).map_err(|_| Pkcs8Error::SeedLength {
            found: seed.len(),
            expected: 32,
        })
    };
    let expanded_len = |expanded: &[u8]| {
        if expanded.len() == P::SK_LEN {
            Ok(())
        } else {
            Err(Pkcs8Error::ExpandedLength {
                found: expanded.len(),
                expected: P::SK_LEN,
            })
        }
    };
    match pqlab_pkcs8::choice(contents)? {
        Choice::Seed(seed) => from_seed(seed),
        // BouncyCastle 1.79: `OCTET STRING (SIZE (32))`, the seed (no expanded key is 32 bytes).
        Choice::OctetString(seed) if seed.len() == 32 => from_seed(seed),
        Choice::OctetString(expanded) => {
            expanded_len(expanded)?;
            SigningKey::<P>::from_expanded(expanded).map_err(Pkcs8Error::Key)
        }
        Choice::Sequence(body) => {
            let (seed, expanded) = pqlab_pkcs8::both(body)?;
            let key = from_seed(seed)?;
            expanded_len(expanded)?;
            let own = Zeroizing::new(key.to_expanded());
            if !bool::from(own.as_ref().ct_eq(expanded)) {
                return Err(Pkcs8Error::SeedExpandedMismatch);
            }
            Ok(key)
        }
    }
}

/// Decodes a PKCS#8 (OneAsymmetricKey, version 1 or 2) ML-DSA private key of parameter set `P`
/// in any form the module documentation lists; returns the key and its variant.
/// [`Pkcs8Error::OtherAlgorithm`] when the key is not for `P`.
pub fn decode_signing_key<P: ParameterSet>(
    der: &[u8],
) -> Result<(SigningKey<P>, KeyVariant), Pkcs8Error> {
    let info = pqlab_pkcs8::private_info(der, &oids::<P>(), P::PK_LEN)?;
    let key = key_from_private::<P>(info.private_key)?;
    if info
        .public_key
        .is_some_and(|pk| pk != key.verifying_key().as_bytes())
    {
        return Err(Pkcs8Error::PublicKeyMismatch);
    }
    Ok((key, VARIANTS[info.oid]))
}

/// Decodes a SubjectPublicKeyInfo holding an ML-DSA public key of parameter set `P`.
pub fn decode_verifying_key<P: ParameterSet>(
    der: &[u8],
) -> Result<(VerifyingKey<P>, KeyVariant), Pkcs8Error> {
    let (i, pk) = pqlab_pkcs8::public_info(der, &oids::<P>(), P::PK_LEN)?;
    let vk = VerifyingKey::<P>::from_bytes(pk).map_err(|_| Pkcs8Error::PublicKeyLength {
        found: pk.len(),
        expected: P::PK_LEN,
    })?;
    Ok((vk, VARIANTS[i]))
}

/// Writes the canonical PKCS#8 form of `key` (seed form; expandedKey form for a key without
/// seed) into `out` and returns its length ([`MAX_PKCS8_LEN`] bytes are always enough).
pub fn encode_signing_key<P: ParameterSet>(
    key: &SigningKey<P>,
    variant: KeyVariant,
    out: &mut [u8],
) -> Result<usize, Pkcs8Error> {
    let mut scratch = Zeroizing::new([0u8; MAX_PKCS8_LEN]);
    let oid = oid::<P>(variant);
    match key.seed() {
        Some(seed) => pqlab_pkcs8::encode_private(oid, SEED_TAG, seed, &mut scratch[..], out),
        None => {
            let expanded = Zeroizing::new(key.to_expanded());
            let tag = der::Tag::OctetString;
            pqlab_pkcs8::encode_private(oid, tag, expanded.as_ref(), &mut scratch[..], out)
        }
    }
}

/// Writes the SubjectPublicKeyInfo of `vk` into `out` and returns its length
/// ([`MAX_SPKI_LEN`] bytes are always enough).
pub fn encode_verifying_key<P: ParameterSet>(
    vk: &VerifyingKey<P>,
    variant: KeyVariant,
    out: &mut [u8],
) -> Result<usize, Pkcs8Error> {
    pqlab_pkcs8::encode_public(oid::<P>(variant), vk.as_bytes(), out)
}

#[cfg(test)]
mod tests;
