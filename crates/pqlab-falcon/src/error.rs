//! The typed errors of the Falcon library.

use core::fmt;

/// Everything that can go wrong in Falcon key handling, signing and verification.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// An encoded key or signature had the wrong number of bytes.
    InvalidLength {
        /// What was being decoded ("public key", "secret key", "signature").
        what: &'static str,
        /// The length the parameter set requires (for a signature: the largest allowed).
        expected: usize,
        /// The length that was given.
        actual: usize,
    },
    /// The header byte of an encoding does not name this parameter set and format
    /// (Falcon spec v1.2, Section 3.11).
    InvalidHeader {
        /// What was being decoded.
        what: &'static str,
        /// The header byte the parameter set requires.
        expected: u8,
        /// The header byte that was found.
        actual: u8,
    },
    /// A decoded coefficient is outside its allowed range (h not below q, a secret-key value
    /// equal to -2^(bits-1), |s2\[i\]| above 2047, or a recomputed G outside \[-127, 127\]).
    CoefficientOutOfRange {
        /// What was being decoded.
        what: &'static str,
    },
    /// An encoding is not the canonical one (Falcon spec v1.2, Section 3.11.2): "-0" in the
    /// compressed signature, or non-zero unused bits in the last byte.
    NonCanonical {
        /// What was being decoded.
        what: &'static str,
    },
    /// The encoded compressed s2 ends before all n coefficients were read.
    Truncated {
        /// What was being decoded.
        what: &'static str,
    },
    /// Bytes follow the last coefficient of the compressed s2.
    TrailingBytes {
        /// What was being decoded.
        what: &'static str,
    },
    /// The secret key's f is not invertible modulo q, so G cannot be recomputed.
    NotInvertible,
    /// The signature is well formed but (s1, s2) is not short enough: it does not verify.
    InvalidSignature,
    /// An output buffer is too small.
    BufferTooSmall {
        /// The bytes needed.
        needed: usize,
        /// The bytes given.
        actual: usize,
    },
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
            Error::InvalidHeader {
                what,
                expected,
                actual,
            } => write!(
                f,
                "{what} has header byte 0x{actual:02x}, expected 0x{expected:02x}"
            ),
            Error::CoefficientOutOfRange { what } => {
                write!(f, "{what} has a coefficient out of range")
            }
            Error::NonCanonical { what } => write!(f, "{what} is not canonically encoded"),
            Error::Truncated { what } => write!(f, "{what} is truncated"),
            Error::TrailingBytes { what } => write!(f, "{what} has trailing bytes"),
            Error::NotInvertible => f.write_str("secret key: f is not invertible modulo q"),
            Error::InvalidSignature => f.write_str("signature does not verify"),
            Error::BufferTooSmall { needed, actual } => {
                write!(f, "output buffer has {actual} bytes, needs {needed}")
            }
            Error::Randomness => f.write_str("random number generator failed"),
        }
    }
}

impl core::error::Error for Error {}
