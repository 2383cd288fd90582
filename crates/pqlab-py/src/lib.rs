//! `pqlab` for Python: ML-DSA (FIPS 204), ML-KEM (FIPS 203) and Falcon (round-3 specification
//! v1.2) from the pqlab crates, with PyO3, in the style of pyca/cryptography's
//! `cryptography.hazmat.primitives.asymmetric.mldsa` and `.mlkem` modules.
//!
//! Every parameter set has a private-key and a public-key class (`MLDSA65PrivateKey`,
//! `MLDSA65PublicKey`, `MLKEM768PrivateKey`, `Falcon512PrivateKey`, ...). Keys are raw bytes
//! (the standards' encodings and seeds) or PKCS#8 / SubjectPublicKeyInfo documents in DER or
//! PEM through the scheme crates' `pkcs8` codecs (`load_pem_private_key` and the other
//! loaders pick the class by the document's OID; `private_bytes_pem()` and the like write).
//!
//! Errors are Python exceptions, never a panic: `ValueError` for an input of the wrong length
//! or a malformed key, `pqlab.InvalidSignature` for a signature that does not verify (also a
//! truncated, over-long or non-canonical one), `OSError` when the operating system's random
//! number generator fails.
//!
//! This crate is its own workspace, outside the repository's one: PyO3 needs a Python
//! interpreter to build and an extension module cannot be linked into a Rust test binary, so it
//! is built and tested by maturin and pytest (`.ci/python`), not by `cargo test`.

use pyo3::exceptions::{PyException, PyOSError, PyValueError};
use pyo3::prelude::*;

mod falcon;
mod keydoc;
mod mldsa;
mod mlkem;

pyo3::create_exception!(
    pqlab,
    InvalidSignature,
    PyException,
    "The signature does not verify (or is not a well-formed signature of this parameter set)."
);

/// A `ValueError` with the library error's message.
fn value_error(e: impl core::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// The error for a failed operating-system random number generator.
fn randomness_error() -> PyErr {
    PyOSError::new_err("the operating system's random number generator failed")
}

/// The error for a signature that does not verify.
fn invalid_signature() -> PyErr {
    InvalidSignature::new_err("signature does not verify")
}

/// Runs `f` on a secret input, then wipes the copy that PyO3 made of it from a `bytearray` or
/// `memoryview` (a `bytes` argument is borrowed, not copied).
fn with_secret<T>(data: std::borrow::Cow<'_, [u8]>, f: impl FnOnce(&[u8]) -> T) -> T {
    let out = f(&data);
    if let std::borrow::Cow::Owned(mut copy) = data {
        zeroize::Zeroize::zeroize(&mut copy);
    }
    out
}

/// The Python module `pqlab`.
#[pymodule]
fn pqlab(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("InvalidSignature", m.py().get_type::<InvalidSignature>())?;
    mldsa::register(m)?;
    mlkem::register(m)?;
    falcon::register(m)?;
    keydoc::register(m)?;
    Ok(())
}
