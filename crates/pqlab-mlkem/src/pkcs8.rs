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
//! expanded key passes the checks of FIPS 203, Section 7.3), the forms of earlier drafts whose
//! `privateKey` holds the bare 64-byte seed (BouncyCastle 1.80) or an OCTET STRING holding the
//! 64-byte seed (BouncyCastle 1.79), and a version-2 OneAsymmetricKey's public key (it must be
//! the key's). Encapsulation keys pass the modulus check of Section 7.2.
//!
//! **Written** (the canonical form): the seed form, version 1, no public key; a key that has
//! no seed (imported from its expanded encoding) is written in the expandedKey form.

use pqlab_pkcs8::{Choice, SEED_TAG};
use subtle::ConstantTimeEq;
use zeroize::{Zeroize, Zeroizing};

use crate::{ByteArray, DecapsulationKey, EncapsulationKey, ParameterSet, SEED_LEN};

/// The largest PKCS#8 document [`encode_decapsulation_key`] writes (ML-KEM-1024, expandedKey
/// form).
pub const MAX_PKCS8_LEN: usize = 3168 + 32;
/// The largest SubjectPublicKeyInfo [`encode_encapsulation_key`] writes (ML-KEM-1024).
pub const MAX_SPKI_LEN: usize = 1568 + 32;

/// Why a key document was refused.
pub type Pkcs8Error = pqlab_pkcs8::Pkcs8Error<crate::Error>;

impl pqlab_pkcs8::Scheme for crate::Error {
    const KEY: &'static str = "ML-KEM key";
    const PUBLIC_KEY: &'static str = "encapsulation key";
    const FORMS: &'static str = "a seed [0], an expandedKey OCTET STRING or a 'both' SEQUENCE";
}

/// An expanded key that is wiped when dropped.
struct Wiped<T: ByteArray>(T);

impl<T: ByteArray> Drop for Wiped<T> {
    fn drop(&mut self) {
        self.0.as_mut().zeroize();
    }
}

/// The key from the `privateKey` contents, in any of the forms of the module documentation.
fn key_from_private<P: ParameterSet>(contents: &[u8]) -> Result<DecapsulationKey<P>, Pkcs8Error> {
    // Earlier drafts: the bare seed. No DER form of the CHOICE is 64 bytes long.
    if contents.len() == SEED_LEN {
        return DecapsulationKey::<P>::from_seed_bytes(contents).map_err(Pkcs8Error::Key);
    }
    let from_seed = |seed: &[u8]| {
        DecapsulationKey::<P>::from_seed_bytes(seed).map_err(|_| Pkcs8Error::SeedLength {
            found: seed.len(),
            expected: SEED_LEN,
        })
    };
    let expanded_len = |expanded: &[u8]| {
        if expanded.len() == P::DK_LEN {
            Ok(())
        } else {
            Err(Pkcs8Error::ExpandedLength {
                found: expanded.len(),
                expected: P::DK_LEN,
            })
        }
    };
    match pqlab_pkcs8::choice(contents)? {
        Choice::Seed(seed) => from_seed(seed),
        // BouncyCastle 1.79: `OCTET STRING (SIZE (64))`, the seed (no expanded key is 64 bytes).
        Choice::OctetString(seed) if seed.len() == SEED_LEN => from_seed(seed),
        Choice::OctetString(expanded) => {
            expanded_len(expanded)?;
            DecapsulationKey::<P>::from_expanded(expanded).map_err(Pkcs8Error::Key)
        }
        Choice::Sequence(body) => {
            let (seed, expanded) = pqlab_pkcs8::both(body)?;
            let key = from_seed(seed)?;
            expanded_len(expanded)?;
            let own = Wiped(key.to_expanded());
            if !bool::from(own.0.as_ref().ct_eq(expanded)) {
                return Err(Pkcs8Error::SeedExpandedMismatch);
            }
            Ok(key)
        }
    }
}

/// Decodes a PKCS#8 (OneAsymmetricKey, version 1 or 2) ML-KEM decapsulation key of parameter
/// set `P` in any form the module documentation lists. [`Pkcs8Error::OtherAlgorithm`] when the
/// key is not for `P`.
pub fn decode_decapsulation_key<P: ParameterSet>(
    der: &[u8],
) -> Result<DecapsulationKey<P>, Pkcs8Error> {
    let info = pqlab_pkcs8::private_info(der, &[P::OID], P::EK_LEN)?;
    let key = key_from_private::<P>(info.private_key)?;
    if info
        .public_key
        .is_some_and(|ek| ek != key.encapsulation_key().as_bytes())
    {
        return Err(Pkcs8Error::PublicKeyMismatch);
    }
    Ok(key)
}

/// Decodes a SubjectPublicKeyInfo holding an ML-KEM encapsulation key of parameter set `P`
/// (after the modulus check).
pub fn decode_encapsulation_key<P: ParameterSet>(
    der: &[u8],
) -> Result<EncapsulationKey<P>, Pkcs8Error> {
    let (_, ek) = pqlab_pkcs8::public_info(der, &[P::OID], P::EK_LEN)?;
    if ek.len() != P::EK_LEN {
        return Err(Pkcs8Error::PublicKeyLength {
            found: ek.len(),
            expected: P::EK_LEN,
        });
    }
    EncapsulationKey::<P>::from_bytes(ek).map_err(Pkcs8Error::Key)
}

/// Writes the canonical PKCS#8 form of `key` (seed form; expandedKey form for a key without
/// seed) into `out` and returns its length ([`MAX_PKCS8_LEN`] bytes are always enough).
pub fn encode_decapsulation_key<P: ParameterSet>(
    key: &DecapsulationKey<P>,
    out: &mut [u8],
) -> Result<usize, Pkcs8Error> {
    let mut scratch = Zeroizing::new([0u8; MAX_PKCS8_LEN]);
    match key.seed() {
        Some(seed) => pqlab_pkcs8::encode_private(P::OID, SEED_TAG, seed, &mut scratch[..], out),
        None => {
            let expanded = Wiped(key.to_expanded());
            let tag = der::Tag::OctetString;
            pqlab_pkcs8::encode_private(P::OID, tag, expanded.0.as_ref(), &mut scratch[..], out)
        }
    }
}

/// Writes the SubjectPublicKeyInfo of `ek` into `out` and returns its length
/// ([`MAX_SPKI_LEN`] bytes are always enough).
pub fn encode_encapsulation_key<P: ParameterSet>(
    ek: &EncapsulationKey<P>,
    out: &mut [u8],
) -> Result<usize, Pkcs8Error> {
    pqlab_pkcs8::encode_public(P::OID, ek.as_bytes(), out)
}

#[cfg(test)]
mod tests;
