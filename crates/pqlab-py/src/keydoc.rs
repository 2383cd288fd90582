//! Key documents for Python: `load_pem_private_key`, `load_der_private_key`,
//! `load_pem_public_key` and `load_der_public_key` (in the style of pyca/cryptography's
//! `cryptography.hazmat.primitives.serialization`), and the helpers behind every key class's
//! `private_bytes_der()` / `private_bytes_pem()` / `public_bytes_der()` / `public_bytes_pem()`.
//!
//! The formats are the scheme crates' `pkcs8` codecs (the same ones the `pqlab` command and
//! pqlab-tls use; they document which forms are read and which canonical form is written): a
//! document is offered to each parameter set's decoder in turn, and the first one whose OID it
//! carries decodes it (or says what is wrong with it). The PEM armour is the `der` crate's
//! RFC 7468 codec (labels `PRIVATE KEY` and `PUBLIC KEY`).

use std::borrow::Cow;

use der::Decode;
use der::pem::LineEnding;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use zeroize::Zeroizing;

use crate::{falcon, mldsa, mlkem, value_error, with_secret};

/// The PEM label of a SubjectPublicKeyInfo.
const PUBLIC_KEY_LABEL: &str = "PUBLIC KEY";
/// The PEM label of a PKCS#8 private key.
const PRIVATE_KEY_LABEL: &str = "PRIVATE KEY";
/// The PEM label of an encrypted PKCS#8 private key (recognized only to refuse it clearly).
const ENCRYPTED_PRIVATE_KEY_LABEL: &str = "ENCRYPTED PRIVATE KEY";

/// The refusal of a password (encrypted PKCS#8 is not read).
fn encrypted_refused() -> PyErr {
    value_error(
        "encrypted private keys are not supported; decrypt it first \
         (e.g. openssl pkcs8 -in FILE -out PLAIN)",
    )
}

/// The DER inside PEM armour labelled `label` (wiped when dropped: it may be a private key).
fn pem_decode(data: &[u8], label: &str) -> PyResult<Zeroizing<Vec<u8>>> {
    let (found, der) = der::pem::decode_vec(data.trim_ascii())
        .map_err(|e| value_error(format!("malformed PEM: {e}")))?;
    let der = Zeroizing::new(der);
    if found == label {
        Ok(der)
    } else if found == ENCRYPTED_PRIVATE_KEY_LABEL {
        Err(encrypted_refused())
    } else {
        Err(value_error(format!(
            "expected PEM '{label}', found '{found}'"
        )))
    }
}

/// `der` in PEM armour labelled `label`, as `bytes` (the copy in Rust is wiped).
fn pem_bytes<'py>(py: Python<'py>, label: &str, der: &[u8]) -> PyResult<Bound<'py, PyBytes>> {
    let pem = der::pem::encode_string(label, LineEnding::LF, der)
        .map(Zeroizing::new)
        .map_err(|e| value_error(format!("cannot encode PEM: {e}")))?;
    Ok(PyBytes::new(py, pem.as_bytes()))
}

/// Runs a heap-free encoder into a buffer of `max` bytes and returns what it wrote as `bytes`
/// (the buffer is wiped), or, with `pem_label`, that in PEM armour.
pub(crate) fn encoded<'py, E: core::fmt::Display>(
    py: Python<'py>,
    max: usize,
    pem_label: Option<&str>,
    f: impl FnOnce(&mut [u8]) -> Result<usize, E>,
) -> PyResult<Bound<'py, PyBytes>> {
    let mut out = Zeroizing::new(vec![0u8; max]);
    let n = f(&mut out).map_err(value_error)?;
    match pem_label {
        Some(label) => pem_bytes(py, label, &out[..n]),
        None => Ok(PyBytes::new(py, &out[..n])),
    }
}

/// The PEM label of a private key (`pem`) or none (DER).
pub(crate) fn private_label(pem: bool) -> Option<&'static str> {
    pem.then_some(PRIVATE_KEY_LABEL)
}

/// The PEM label of a public key (`pem`) or none (DER).
pub(crate) fn public_label(pem: bool) -> Option<&'static str> {
    pem.then_some(PUBLIC_KEY_LABEL)
}

/// The message for a document no decoder took: its algorithm's OID (or why it has none).
fn unknown_algorithm(der: &[u8], private: bool) -> PyErr {
    let oid = if private {
        pkcs8::PrivateKeyInfoRef::from_der(der).map(|i| i.algorithm.oid)
    } else {
        spki::SubjectPublicKeyInfoRef::from_der(der).map(|i| i.algorithm.oid)
    };
    match oid {
        Ok(oid) => value_error(format!(
            "the key is for an algorithm pqlab does not offer (OID {oid})"
        )),
        Err(e) => value_error(format!("malformed DER: {e}")),
    }
}

/// A PKCS#8 private key of any parameter set, as its class.
fn private_from_der(py: Python<'_>, der: &[u8]) -> PyResult<Py<PyAny>> {
    if let Some(key) = mldsa::load_private(py, der)? {
        return Ok(key);
    }
    if let Some(key) = mlkem::load_private(py, der)? {
        return Ok(key);
    }
    if let Some(key) = falcon::load_private(py, der)? {
        return Ok(key);
    }
    Err(unknown_algorithm(der, true))
}

/// A SubjectPublicKeyInfo of any parameter set, as its class.
fn public_from_der(py: Python<'_>, der: &[u8]) -> PyResult<Py<PyAny>> {
    if let Some(key) = mldsa::load_public(py, der)? {
        return Ok(key);
    }
    if let Some(key) = mlkem::load_public(py, der)? {
        return Ok(key);
    }
    if let Some(key) = falcon::load_public(py, der)? {
        return Ok(key);
    }
    Err(unknown_algorithm(der, false))
}

/// Loads a PEM `PRIVATE KEY` (PKCS#8) of ML-DSA, ML-KEM or Falcon and returns the key class its
/// OID names (`MLDSA65PrivateKey`, ...). `password` must be `None` (encrypted keys are not
/// read). Raises `ValueError` with the reason when the key cannot be read.
#[pyfunction]
#[pyo3(signature = (data, password = None))]
fn load_pem_private_key(
    py: Python<'_>,
    data: Cow<'_, [u8]>,
    password: Option<Cow<'_, [u8]>>,
) -> PyResult<Py<PyAny>> {
    if password.is_some() {
        return Err(encrypted_refused());
    }
    let der = with_secret(data, |data| pem_decode(data, PRIVATE_KEY_LABEL))?;
    private_from_der(py, &der)
}

/// Loads a DER PKCS#8 private key of ML-DSA, ML-KEM or Falcon and returns the key class its
/// OID names. `password` must be `None`. Raises `ValueError` when the key cannot be read.
#[pyfunction]
#[pyo3(signature = (data, password = None))]
fn load_der_private_key(
    py: Python<'_>,
    data: Cow<'_, [u8]>,
    password: Option<Cow<'_, [u8]>>,
) -> PyResult<Py<PyAny>> {
    if password.is_some() {
        return Err(encrypted_refused());
    }
    with_secret(data, |der| private_from_der(py, der))
}

/// Loads a PEM `PUBLIC KEY` (SubjectPublicKeyInfo) of ML-DSA, ML-KEM or Falcon and returns the
/// key class its OID names (`MLDSA65PublicKey`, ...). Raises `ValueError` when it cannot be
/// read.
#[pyfunction]
fn load_pem_public_key(py: Python<'_>, data: Cow<'_, [u8]>) -> PyResult<Py<PyAny>> {
    let der = pem_decode(&data, PUBLIC_KEY_LABEL)?;
    public_from_der(py, &der)
}

/// Loads a DER SubjectPublicKeyInfo of ML-DSA, ML-KEM or Falcon and returns the key class its
/// OID names. Raises `ValueError` when it cannot be read.
#[pyfunction]
fn load_der_public_key(py: Python<'_>, data: Cow<'_, [u8]>) -> PyResult<Py<PyAny>> {
    public_from_der(py, &data)
}

/// Adds the functions to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(load_pem_private_key, m)?)?;
    m.add_function(wrap_pyfunction!(load_der_private_key, m)?)?;
    m.add_function(wrap_pyfunction!(load_pem_public_key, m)?)?;
    m.add_function(wrap_pyfunction!(load_der_public_key, m)?)?;
    Ok(())
}
