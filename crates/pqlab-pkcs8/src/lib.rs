//! The DER framing that the `pkcs8` modules of `pqlab-mldsa`, `pqlab-mlkem` and `pqlab-falcon`
//! share (RFC 5958 OneAsymmetricKey, RFC 5280 SubjectPublicKeyInfo): one error type, the
//! algorithm-identifier check, the private key's CHOICE of the IETF drafts
//! (`seed [0] IMPLICIT OCTET STRING`, an OCTET STRING, a SEQUENCE) and the two encoders. What
//! the bytes inside mean (a seed, an expanded key, Falcon's f, g, F) stays with each scheme.
//! `no_std`, no heap: encoders write into the caller's buffers.
#![no_std]

use core::fmt;

use der::asn1::{AnyRef, BitStringRef, OctetStringRef};
use der::{Decode, Encode, Reader, SliceReader, Tag, TagNumber, Tagged};
use pkcs8::PrivateKeyInfoRef;
use spki::{AlgorithmIdentifier, ObjectIdentifier, SubjectPublicKeyInfoRef};

/// The tag of the `seed` alternative: `[0]` IMPLICIT, primitive.
pub const SEED_TAG: Tag = Tag::ContextSpecific {
    constructed: false,
    number: TagNumber(0),
};

/// What a scheme's key documents are called in messages; implemented by the scheme crate's
/// own error type (the `K` of [`Pkcs8Error`]).
pub trait Scheme: Copy + fmt::Debug + fmt::Display {
    /// The key a refused secret key is not, e.g. "ML-DSA secret key".
    const KEY: &'static str;
    /// The public key's name, e.g. "encapsulation key".
    const PUBLIC_KEY: &'static str;
    /// The private-key forms read, for [`Pkcs8Error::UnknownForm`].
    const FORMS: &'static str;
}

/// Why a key document was refused (`K`: the scheme crate's error, for a key the library
/// refused).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Pkcs8Error<K> {
    /// The DER is malformed (or an output buffer is too small).
    Der(der::Error),
    /// The algorithm OID is not one of this parameter set's.
    OtherAlgorithm,
    /// The algorithm identifier has parameters; they must be absent.
    Parameters,
    /// The private key is none of the scheme's forms (the tag that was found).
    UnknownForm(Tag),
    /// The seed has the wrong length.
    SeedLength {
        /// Bytes found.
        found: usize,
        /// Bytes of the scheme's seed.
        expected: usize,
    },
    /// The expanded key has the wrong length.
    ExpandedLength {
        /// Bytes found.
        found: usize,
        /// Bytes of this parameter set's expanded key.
        expected: usize,
    },
    /// The public key has the wrong length (0: a BIT STRING with unused bits).
    PublicKeyLength {
        /// Bytes found.
        found: usize,
        /// Bytes of this parameter set's public key.
        expected: usize,
    },
    /// A secret key of a form without a seed (Falcon's OQS form) has the wrong length.
    SecretKeyLength(usize),
    /// A polynomial inside (BouncyCastle's Falcon f, g or F) has the wrong length.
    PolynomialLength(usize),
    /// The `both` form's seed and expanded key are not the same key.
    SeedExpandedMismatch,
    /// The public key stored with the private key is not its public key.
    PublicKeyMismatch,
    /// The library refused the key.
    Key(K),
}

impl<K: Scheme> fmt::Display for Pkcs8Error<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Der(e) => write!(f, "malformed DER: {e}"),
            Self::OtherAlgorithm => f.write_str("the key is for another algorithm"),
            Self::Parameters => {
                f.write_str("the algorithm identifier has parameters; they must be absent")
            }
            Self::UnknownForm(tag) => {
                write!(
                    f,
                    "malformed private key: expected {}, found {tag}",
                    K::FORMS
                )
            }
            Self::SeedLength { found, expected } => {
                write!(f, "the seed inside has {found} bytes, expected {expected}")
            }
            Self::ExpandedLength { found, expected } => {
                write!(
                    f,
                    "the expanded key inside has {found} bytes, expected {expected}"
                )
            }
            Self::PublicKeyLength { found, expected } => write!(
                f,
                "the {} inside has {found} bytes, expected {expected}",
                K::PUBLIC_KEY
            ),
            Self::SecretKeyLength(n) => write!(
                f,
                "the secret key inside has {n} bytes (expected the secret key, optionally \
                 followed by the public key)"
            ),
            Self::PolynomialLength(n) => {
                write!(f, "a polynomial (f, g or F) inside has {n} bytes")
            }
            Self::SeedExpandedMismatch => {
                f.write_str("the seed and the expanded key inside do not match")
            }
            Self::PublicKeyMismatch => write!(
                f,
                "the {} inside does not match the private key",
                K::PUBLIC_KEY
            ),
            Self::Key(e) => write!(f, "not a valid {}: {e}", K::KEY),
        }
    }
}

impl<K> From<der::Error> for Pkcs8Error<K> {
    fn from(e: der::Error) -> Self {
        Self::Der(e)
    }
}

/// Which of `oids` an algorithm identifier names (compared as encoded bytes, so that a
/// non-canonical encoding is another OID), its parameters absent.
pub fn algorithm<K>(
    alg: &AlgorithmIdentifier<AnyRef<'_>>,
    oids: &[&str],
) -> Result<usize, Pkcs8Error<K>> {
    let i = oids
        .iter()
        .position(|o| ObjectIdentifier::new(o).is_ok_and(|o| o == alg.oid))
        .ok_or(Pkcs8Error::OtherAlgorithm)?;
    if alg.parameters.is_some() {
        return Err(Pkcs8Error::Parameters);
    }
    Ok(i)
}

/// The AlgorithmIdentifier of `oid`, parameters absent.
fn identifier<K>(oid: &'static str) -> Result<AlgorithmIdentifier<AnyRef<'static>>, Pkcs8Error<K>> {
    Ok(AlgorithmIdentifier {
        oid: ObjectIdentifier::new(oid).map_err(|_| Pkcs8Error::OtherAlgorithm)?,
        parameters: None,
    })
}

/// A PKCS#8 document (version 1 or 2) of one of `oids`.
pub struct PrivateInfo<'a> {
    /// The index of the document's OID in `oids`.
    pub oid: usize,
    /// The `privateKey` OCTET STRING's contents.
    pub private_key: &'a [u8],
    /// The version-2 public key, if any.
    pub public_key: Option<&'a [u8]>,
}

/// Reads a PKCS#8 document whose algorithm is one of `oids` (`pk_len`: the public key's
/// length, for the error of a BIT STRING with unused bits).
pub fn private_info<'a, K>(
    der: &'a [u8],
    oids: &[&str],
    pk_len: usize,
) -> Result<PrivateInfo<'a>, Pkcs8Error<K>> {
    let info = PrivateKeyInfoRef::from_der(der)?;
    let oid = algorithm(&info.algorithm, oids)?;
    let public_key = match info.public_key {
        Some(bits) => Some(bits.as_bytes().ok_or(Pkcs8Error::PublicKeyLength {
            found: 0,
            expected: pk_len,
        })?),
        None => None,
    };
    Ok(PrivateInfo {
        oid,
        private_key: info.private_key.as_bytes(),
        public_key,
    })
}

/// Reads a SubjectPublicKeyInfo whose algorithm is one of `oids`: the index of its OID and the
/// key's bytes (`pk_len` as for [`private_info`]).
pub fn public_info<'a, K>(
    der: &'a [u8],
    oids: &[&str],
    pk_len: usize,
) -> Result<(usize, &'a [u8]), Pkcs8Error<K>> {
    let spki = SubjectPublicKeyInfoRef::from_der(der)?;
    let oid = algorithm(&spki.algorithm, oids)?;
    let key = spki
        .subject_public_key
        .as_bytes()
        .ok_or(Pkcs8Error::PublicKeyLength {
            found: 0,
            expected: pk_len,
        })?;
    Ok((oid, key))
}

/// The alternative of the private key's CHOICE: its contents by tag.
pub enum Choice<'a> {
    /// `seed [0] IMPLICIT OCTET STRING`.
    Seed(&'a [u8]),
    /// An OCTET STRING (the expanded key; Falcon: the OQS form).
    OctetString(&'a [u8]),
    /// A SEQUENCE's contents (`both`; Falcon: BouncyCastle's form).
    Sequence(&'a [u8]),
}

/// The alternative that the `privateKey` contents hold ([`Pkcs8Error::UnknownForm`] for
/// another tag).
pub fn choice<K>(contents: &[u8]) -> Result<Choice<'_>, Pkcs8Error<K>> {
    let any = AnyRef::from_der(contents)?;
    match any.tag() {
        SEED_TAG => Ok(Choice::Seed(any.value())),
        Tag::OctetString => Ok(Choice::OctetString(any.value())),
        Tag::Sequence => Ok(Choice::Sequence(any.value())),
        other => Err(Pkcs8Error::UnknownForm(other)),
    }
}

/// The `both SEQUENCE { seed OCTET STRING, expandedKey OCTET STRING }` contents: (seed,
/// expanded key).
pub fn both<K>(body: &[u8]) -> Result<(&[u8], &[u8]), Pkcs8Error<K>> {
    let mut reader = SliceReader::new(body)?;
    let seed: &OctetStringRef = reader.decode()?;
    let expanded: &OctetStringRef = reader.decode()?;
    reader.finish()?;
    Ok((seed.as_bytes(), expanded.as_bytes()))
}

/// Writes a version-1 PKCS#8 document of `oid` whose `privateKey` holds `value` under `tag`
/// ([`SEED_TAG`] or an OCTET STRING) into `out`, through `scratch` (at least the length of
/// `value` plus its header; the caller wipes it), and returns its length.
pub fn encode_private<K>(
    oid: &'static str,
    tag: Tag,
    value: &[u8],
    scratch: &mut [u8],
    out: &mut [u8],
) -> Result<usize, Pkcs8Error<K>> {
    let inner = AnyRef::new(tag, value)?.encode_to_slice(scratch)?;
    encode_private_contents(oid, inner, out)
}

/// Writes a version-1 PKCS#8 document of `oid` whose `privateKey` OCTET STRING holds
/// `contents` as they are into `out`, and returns its length.
pub fn encode_private_contents<K>(
    oid: &'static str,
    contents: &[u8],
    out: &mut [u8],
) -> Result<usize, Pkcs8Error<K>> {
    let info = PrivateKeyInfoRef::new(identifier(oid)?, OctetStringRef::new(contents)?);
    Ok(info.encode_to_slice(out)?.len())
}

/// Writes the SubjectPublicKeyInfo of `oid` holding `key` into `out` and returns its length.
pub fn encode_public<K>(
    oid: &'static str,
    key: &[u8],
    out: &mut [u8],
) -> Result<usize, Pkcs8Error<K>> {
    let spki = SubjectPublicKeyInfoRef {
        algorithm: identifier(oid)?,
        subject_public_key: BitStringRef::from_bytes(key)?,
    };
    Ok(spki.encode_to_slice(out)?.len())
}

/// DER builders for the scheme crates' codec tests (feature `test-support`).
#[cfg(feature = "test-support")]
#[allow(clippy::panic)] // Test support only (a dev-dependency): a test's own malformed input.
pub mod test_support {
    extern crate std;
    use std::vec::Vec;

    /// A PKCS#8 document with `oid` whose `privateKey` contents are `contents`.
    ///
    /// # Panics
    /// If the document does not fit 8 KiB (a test's own input).
    pub fn pkcs8_with(oid: &'static str, contents: &[u8]) -> Vec<u8> {
        let mut out = [0u8; 8192];
        let n = super::encode_private_contents::<()>(oid, contents, &mut out)
            .unwrap_or_else(|e| panic!("test document: {e:?}"));
        out[..n].to_vec()
    }

    /// The DER TLV of `tag` (one byte) and `body` (shorter than 64 KiB).
    pub fn tlv(tag: u8, body: &[u8]) -> Vec<u8> {
        let mut out = Vec::from([tag]);
        match body.len() {
            n if n < 128 => out.push(n as u8),
            n if n < 256 => out.extend_from_slice(&[0x81, n as u8]),
            n => out.extend_from_slice(&[0x82, (n >> 8) as u8, n as u8]),
        }
        out.extend_from_slice(body);
        out
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use std::string::ToString;

    use super::*;

    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    struct E;
    impl fmt::Display for E {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("bad")
        }
    }
    impl Scheme for E {
        const KEY: &'static str = "test key";
        const PUBLIC_KEY: &'static str = "public key";
        const FORMS: &'static str = "a seed";
    }
    type Error = Pkcs8Error<E>;

    const OID: &str = "2.16.840.1.101.3.4.3.17";
    const OTHER: &str = "2.16.840.1.101.3.4.3.18";

    #[test]
    fn documents_round_trip_and_other_oids_are_refused() {
        let (mut scratch, mut out) = ([0u8; 64], [0u8; 128]);
        let n = encode_private::<E>(OID, SEED_TAG, &[7; 32], &mut scratch, &mut out).unwrap();
        let info = private_info::<E>(&out[..n], &[OTHER, OID], 0).unwrap();
        assert_eq!((info.oid, info.public_key), (1, None));
        assert!(matches!(choice::<E>(info.private_key), Ok(Choice::Seed(s)) if s == [7; 32]));
        assert_eq!(
            private_info::<E>(&out[..n], &[OTHER], 0).err(),
            Some(Error::OtherAlgorithm)
        );
        let n = encode_public::<E>(OID, &[1, 2, 3], &mut out).unwrap();
        assert_eq!(
            public_info::<E>(&out[..n], &[OID], 3).unwrap(),
            (0, &[1u8, 2, 3][..])
        );
        // An INTEGER is none of the CHOICE's forms.
        assert_eq!(
            choice::<E>(&[2, 1, 5]).err(),
            Some(Error::UnknownForm(Tag::Integer))
        );
        // both: two OCTET STRINGs, nothing after them.
        let body = [4, 1, 9, 4, 2, 8, 8];
        assert_eq!(both::<E>(&body).unwrap(), (&[9u8][..], &[8u8, 8][..]));
        assert!(both::<E>(&[4, 1, 9]).is_err());
        assert!(both::<E>(&[4, 1, 9, 4, 1, 8, 5]).is_err());
    }

    #[test]
    fn messages_name_the_scheme_and_the_lengths() {
        let e = Error::ExpandedLength {
            found: 100,
            expected: 4896,
        };
        assert_eq!(
            e.to_string(),
            "the expanded key inside has 100 bytes, expected 4896"
        );
        assert_eq!(Error::Key(E).to_string(), "not a valid test key: bad");
        assert_eq!(
            Error::PublicKeyMismatch.to_string(),
            "the public key inside does not match the private key"
        );
    }
}
