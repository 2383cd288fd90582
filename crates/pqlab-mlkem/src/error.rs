//! The typed errors of the ML-KEM library.

use core::fmt;

/// Everything that can go wrong in ML-KEM key handling, encapsulation and decapsulation.
///
/// Decapsulation itself never fails: a ciphertext of the right length that does not decrypt
/// consistently yields the implicit-rejection key (FIPS 203, Algorithm 18), not an error.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// An encoded key, seed or ciphertext had the wrong number of bytes (the type checks of
    /// FIPS 203, Sections 7.2 and 7.3).
    InvalidLength {
        /// What was being decoded ("encapsulation key", "ciphertext", ...).
        what: &'static str,
        /// The length the parameter set requires.
        expected: usize,
        /// The length that was given.
        actual: usize,
    },
    /// The encapsulation key failed the modulus check of FIPS 203, Section 7.2:
    /// ByteEncode12(ByteDecode12(ek)) != ek, i.e. some encoded coefficient is not below q.
    ModulusCheck,
    /// The decapsulation key failed the hash check of FIPS 203, Section 7.3: the H(ek) it stores
    /// is not the hash of the encapsulation key it embeds.
    HashCheck,
    /// The random number generator failed.
    Randomness,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::InvalidLength {
                what,
                expected,
                actual,
            } => write!(f, "{what} has {actual} bytes, expected {expected}"),
            Error::ModulusCheck => f.write_str(
                "encapsulation key fails the modulus check (a coefficient is not below q)",
            ),
            Error::HashCheck => f.write_str(
                "decapsulation key fails the hash check (stored H(ek) does not match ek)",
            ),
            Error::Randomness => f.write_str("the random number generator failed"),
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
