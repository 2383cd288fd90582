//! The typed errors of the ML-DSA library.

use core::fmt;

/// Everything that can go wrong in ML-DSA key handling, signing and verification.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// An encoded key, signature, seed or mu had the wrong number of bytes.
    InvalidLength {
        /// What was being decoded ("public key", "secret key", "signature", ...).
        what: &'static str,
        /// The length the parameter set requires.
        expected: usize,
        /// The length that was given.
        actual: usize,
    },
    /// The context string is longer than 255 bytes (FIPS 204, Algorithms 2 to 5).
    ContextTooLong {
        /// The length that was given.
        len: usize,
    },
    /// An expanded secret key holds a coefficient of s1 or s2 outside [-eta, eta], or its
    /// tr does not match, so it is not the output of skEncode.
    MalformedSecretKey,
    /// The signature is not a valid sigEncode output (z out of range, malformed hint), or it
    /// does not verify. Verification reports both the same way, as the standard does.
    InvalidSignature,
    /// A hash-function name that HashML-DSA does not know.
    UnknownHash,
    /// The random number generator failed.
    Randomness,
    /// Signing gave up after [`SIGNING_ATTEMPTS`](crate::SIGNING_ATTEMPTS) rejected attempts
    /// (FIPS 204, Appendix C allows such a bound, at least 814; a key made by ML-DSA.KeyGen
    /// reaches it with probability below 2^-256, so it means a faulty key or machine).
    SigningLimitReached,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::InvalidLength {
                what,
                expected,
                actual,
            } => {
                write!(f, "{what} has {actual} bytes, expected {expected}")
            }
            Error::ContextTooLong { len } => {
                write!(f, "context string has {len} bytes, at most 255 are allowed")
            }
            Error::MalformedSecretKey => f.write_str("malformed secret key"),
            Error::InvalidSignature => f.write_str("signature does not verify"),
            Error::UnknownHash => f.write_str("unknown pre-hash function"),
            Error::Randomness => f.write_str("the random number generator failed"),
            Error::SigningLimitReached => write!(
                f,
                "signing gave up after {} rejected attempts (FIPS 204, Appendix C): a faulty \
                 secret key or machine",
                crate::SIGNING_ATTEMPTS
            ),
        }
    }
}

impl core::error::Error for Error {}

/// Checks that `bytes` has exactly `expected` bytes.
pub(crate) fn check_len(what: &'static str, bytes: &[u8], expected: usize) -> Result<(), Error> {
    if bytes.len() == expected {
        Ok(())
    } else {
        Err(Error::InvalidLength {
            what,
            expected,
            actual: bytes.len(),
        })
    }
}
