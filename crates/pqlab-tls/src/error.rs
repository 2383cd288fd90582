//! The crate's error type.

use core::fmt;

/// What can go wrong in pqlab-tls.
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// A key-exchange group name that is not known.
    UnknownGroup(String),
    /// A signature algorithm name that is not known.
    UnknownAlgorithm(String),
    /// A malformed DER structure.
    Der(String),
    /// A key that cannot be used.
    Key(String),
    /// A certificate or PEM file that cannot be used.
    Cert(String),
    /// Randomness could not be obtained.
    Randomness,
    /// A TLS error.
    Tls(rustls::Error),
    /// An I/O error, with what was being done.
    Io(String, std::io::Error),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::UnknownGroup(n) => write!(
                f,
                "unknown key-exchange group '{n}' (known: {})",
                crate::kx::KX_GROUP_NAMES
                    .iter()
                    .map(|(n, _)| *n)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            Self::UnknownAlgorithm(n) => write!(f, "unknown signature algorithm '{n}'"),
            Self::Der(e) => write!(f, "malformed DER: {e}"),
            Self::Key(e) => write!(f, "unusable key: {e}"),
            Self::Cert(e) => write!(f, "{e}"),
            Self::Randomness => write!(f, "the operating system's random generator failed"),
            Self::Tls(e) => write!(f, "TLS: {e}"),
            Self::Io(what, e) => write!(f, "{what}: {e}"),
        }
    }
}

impl std::error::Error for Error {}

impl From<rustls::Error> for Error {
    fn from(e: rustls::Error) -> Self {
        Self::Tls(e)
    }
}
