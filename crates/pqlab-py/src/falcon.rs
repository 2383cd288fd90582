//! Falcon-512 and Falcon-1024 (Falcon round-3 specification v1.2) for Python:
//! `Falcon512PrivateKey`, `Falcon512PublicKey` and the same for Falcon-1024. Raw bytes are the
//! specification's encodings: public key (header 0x00 + logn, then h), secret key (header
//! 0x50 + logn, then f, g, F) and the detached compressed signature (header 0x30 + logn, the
//! 40-byte nonce, compressed s2). The generic functions do the work; the classes (one pair per
//! parameter set, since a Python class cannot be generic) only name the degree.

use std::borrow::Cow;

use pqlab_falcon::pkcs8;
use pqlab_falcon::{Error, ExpandedKey, SEED_LEN, Signature, SigningKey, VerifyingKey};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::keydoc::{encoded, private_label, public_label};
use crate::{invalid_signature, randomness_error, value_error, with_secret};

/// Maps a library error of key handling or signing: a failed random number generator to
/// `OSError`, everything else (lengths, headers, coefficient ranges) to `ValueError`.
fn to_py(e: Error) -> PyErr {
    match e {
        Error::Randomness => randomness_error(),
        other => value_error(other),
    }
}

/// A secret key and its expanded form (Falcon spec v1.2, Algorithm 8: the FFT basis and the
/// Falcon tree), made once so that each signature costs only Algorithm 10 and signing needs
/// about 34 KiB (n = 512) or 63 KiB (n = 1024) of stack instead of about 46 or 84 KiB, and
/// is about a third faster.
struct Keys<const N: usize> {
    sk: Box<SigningKey<N>>,
    expanded: Box<ExpandedKey<N>>,
}

impl<const N: usize> Keys<N> {
    fn new(sk: SigningKey<N>) -> Self {
        let expanded = Box::new(sk.expand());
        Keys {
            sk: Box::new(sk),
            expanded,
        }
    }
}

/// Falcon spec v1.2, Algorithm 4: NTRUGen, seeded with 48 bytes from the operating system.
/// Runs without the GIL (milliseconds).
fn generate<const N: usize>(py: Python<'_>) -> PyResult<Keys<N>> {
    py.detach(SigningKey::<N>::generate)
        .map(Keys::new)
        .map_err(to_py)
}

/// Falcon spec v1.2, Algorithm 4: NTRUGen seeded as the round-3 reference `nist.c` does
/// (SHAKE256 over the 48-byte seed), which reproduces the NIST KAT key pairs.
/// The seed is wiped after use.
fn from_seed<const N: usize>(py: Python<'_>, seed: Cow<'_, [u8]>) -> PyResult<Keys<N>> {
    with_secret(seed, |seed| {
        let seed: &[u8; SEED_LEN] = seed.try_into().map_err(|_| {
            value_error(format!(
                "seed has {} bytes, expected {SEED_LEN}",
                seed.len()
            ))
        })?;
        Ok(Keys::new(
            py.detach(|| SigningKey::<N>::generate_from_seed(seed)),
        ))
    })
}

/// Falcon spec v1.2, Section 3.11.5: the encoded secret key (G is recomputed and checked;
/// the input is wiped after use).
fn from_private_bytes<const N: usize>(sk: Cow<'_, [u8]>) -> PyResult<Keys<N>> {
    with_secret(sk, SigningKey::<N>::decode)
        .map(Keys::new)
        .map_err(to_py)
}

/// The public key h = g / f mod q of a secret key.
fn public_key<const N: usize>(keys: &Keys<N>) -> Box<VerifyingKey<N>> {
    Box::new(keys.sk.verifying_key())
}

/// Falcon spec v1.2, Section 3.11.5: the encoded secret key.
fn private_bytes<'py, const N: usize>(
    py: Python<'py>,
    keys: &Keys<N>,
) -> PyResult<Bound<'py, PyBytes>> {
    let mut out = zeroize::Zeroizing::new(vec![0u8; SigningKey::<N>::ENCODED_LEN]);
    let len = keys.sk.encode(&mut out).map_err(to_py)?;
    Ok(PyBytes::new(py, &out[..len]))
}

/// Falcon spec v1.2, Algorithm 10: Sign, with a fresh nonce and sampler seed from the
/// operating system; the detached compressed signature.
fn sign<'py, const N: usize>(
    py: Python<'py>,
    keys: &Keys<N>,
    data: &[u8],
) -> PyResult<Bound<'py, PyBytes>> {
    let sig = keys.expanded.sign(data).map_err(to_py)?;
    let mut out = vec![0u8; Signature::<N>::MAX_LEN];
    let len = sig.encode(&mut out).map_err(to_py)?;
    Ok(PyBytes::new(py, &out[..len]))
}

/// Falcon spec v1.2, Section 3.11.4: the encoded public key.
fn public_from_bytes<const N: usize>(pk: &[u8]) -> PyResult<Box<VerifyingKey<N>>> {
    VerifyingKey::<N>::decode(pk).map(Box::new).map_err(to_py)
}

/// Falcon spec v1.2, Section 3.11.4: the encoded public key.
fn public_bytes<'py, const N: usize>(
    py: Python<'py>,
    vk: &VerifyingKey<N>,
) -> PyResult<Bound<'py, PyBytes>> {
    let mut out = vec![0u8; VerifyingKey::<N>::ENCODED_LEN];
    let len = vk.encode(&mut out).map_err(to_py)?;
    Ok(PyBytes::new(py, &out[..len]))
}

/// Falcon spec v1.2, Algorithm 16: Verify. Any signature that is not a valid one of this key,
/// malformed (wrong header, truncated, trailing bytes, non-canonical) or too long, raises
/// `InvalidSignature`.
fn verify<const N: usize>(vk: &VerifyingKey<N>, signature: &[u8], data: &[u8]) -> PyResult<()> {
    vk.verify(data, signature).map_err(|_| invalid_signature())
}

/// A PKCS#8 document decoded as a key of degree `N` (`None`: it is for another algorithm).
fn private_of<const N: usize>(der: &[u8]) -> PyResult<Option<Keys<N>>> {
    match pkcs8::decode_signing_key::<N>(der) {
        Err(pkcs8::Pkcs8Error::OtherAlgorithm) => Ok(None),
        Err(e) => Err(value_error(e)),
        Ok(key) => Ok(Some(Keys::new(key))),
    }
}

/// A SubjectPublicKeyInfo decoded as a key of degree `N` (`None`: another algorithm).
fn public_of<const N: usize>(der: &[u8]) -> PyResult<Option<Box<VerifyingKey<N>>>> {
    match pkcs8::decode_verifying_key::<N>(der) {
        Err(pkcs8::Pkcs8Error::OtherAlgorithm) => Ok(None),
        Err(e) => Err(value_error(e)),
        Ok(key) => Ok(Some(Box::new(key))),
    }
}

/// The Falcon private-key class of a PKCS#8 document (`None`: not a Falcon key).
pub(crate) fn load_private(py: Python<'_>, der: &[u8]) -> PyResult<Option<Py<PyAny>>> {
    if let Some(keys) = private_of::<512>(der)? {
        return Ok(Some(Py::new(py, Falcon512PrivateKey(keys))?.into_any()));
    }
    if let Some(keys) = private_of::<1024>(der)? {
        return Ok(Some(Py::new(py, Falcon1024PrivateKey(keys))?.into_any()));
    }
    Ok(None)
}

/// The Falcon public-key class of a SubjectPublicKeyInfo (`None`: not a Falcon key).
pub(crate) fn load_public(py: Python<'_>, der: &[u8]) -> PyResult<Option<Py<PyAny>>> {
    if let Some(key) = public_of::<512>(der)? {
        return Ok(Some(Py::new(py, Falcon512PublicKey(key))?.into_any()));
    }
    if let Some(key) = public_of::<1024>(der)? {
        return Ok(Some(Py::new(py, Falcon1024PublicKey(key))?.into_any()));
    }
    Ok(None)
}

/// The canonical (oqs-provider: secret key then public key) PKCS#8 document of a key, in DER
/// or PEM.
fn private_document<'py, const N: usize>(
    py: Python<'py>,
    keys: &Keys<N>,
    pem: bool,
) -> PyResult<Bound<'py, PyBytes>> {
    encoded(py, pkcs8::MAX_PKCS8_LEN, private_label(pem), |out| {
        pkcs8::encode_signing_key(&keys.sk, out)
    })
}

/// The SubjectPublicKeyInfo of `vk`, in DER or PEM.
fn public_document<'py, const N: usize>(
    py: Python<'py>,
    vk: &VerifyingKey<N>,
    pem: bool,
) -> PyResult<Bound<'py, PyBytes>> {
    encoded(py, pkcs8::MAX_SPKI_LEN, public_label(pem), |out| {
        pkcs8::encode_verifying_key(vk, out)
    })
}

/// Adds the classes to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Falcon512PrivateKey>()?;
    m.add_class::<Falcon512PublicKey>()?;
    m.add_class::<Falcon1024PrivateKey>()?;
    m.add_class::<Falcon1024PublicKey>()?;
    Ok(())
}

/// A Falcon-512 private key, with its expanded form for signing; zeroized when Python frees it.
#[pyclass(module = "pqlab", name = "Falcon512PrivateKey", frozen)]
pub struct Falcon512PrivateKey(Keys<512>);

#[pymethods]
impl Falcon512PrivateKey {
    /// A new key pair (Falcon spec v1.2, Algorithm 4: NTRUGen) from a fresh 48-byte seed.
    #[staticmethod]
    fn generate(py: Python<'_>) -> PyResult<Self> {
        generate(py).map(Self)
    }

    /// The key pair of a 48-byte seed, as the round-3 reference derives it (SHAKE256 over the
    /// seed drives NTRUGen; the NIST KAT key pairs come out of their DRBG's first 48 bytes).
    #[staticmethod]
    fn from_seed_bytes(py: Python<'_>, data: Cow<'_, [u8]>) -> PyResult<Self> {
        from_seed(py, data).map(Self)
    }

    /// The key of an encoded secret key (Falcon spec v1.2, Section 3.11.5, header 0x59).
    #[staticmethod]
    fn from_private_bytes(data: Cow<'_, [u8]>) -> PyResult<Self> {
        from_private_bytes(data).map(Self)
    }

    /// The encoded secret key (Falcon spec v1.2, Section 3.11.5; 1281 bytes).
    fn private_bytes_raw<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        private_bytes(py, &self.0)
    }

    /// The matching public key h = g / f mod q.
    fn public_key(&self) -> Falcon512PublicKey {
        Falcon512PublicKey(public_key(&self.0))
    }

    /// Signs `data` (Falcon spec v1.2, Algorithm 10: Sign): the detached compressed signature
    /// (header 0x39, 40-byte nonce, compressed s2; at most 688 bytes).
    fn sign<'py>(&self, py: Python<'py>, data: Cow<'_, [u8]>) -> PyResult<Bound<'py, PyBytes>> {
        sign(py, &self.0, &data)
    }

    /// The key as PKCS#8 DER (the canonical form of the `pkcs8` codec).
    fn private_bytes_der<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        private_document(py, &self.0, false)
    }

    /// The key as PKCS#8 in PEM armour (`-----BEGIN PRIVATE KEY-----`).
    fn private_bytes_pem<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        private_document(py, &self.0, true)
    }

    fn __repr__(&self) -> &'static str {
        "<pqlab.Falcon512PrivateKey>"
    }
}

/// A Falcon-512 public key.
#[pyclass(module = "pqlab", name = "Falcon512PublicKey", frozen, eq)]
#[derive(PartialEq)]
pub struct Falcon512PublicKey(Box<VerifyingKey<512>>);

#[pymethods]
impl Falcon512PublicKey {
    /// The key of an encoded public key (Falcon spec v1.2, Section 3.11.4, header 0x09).
    #[staticmethod]
    fn from_public_bytes(data: Cow<'_, [u8]>) -> PyResult<Self> {
        public_from_bytes(&data).map(Self)
    }

    /// The encoded public key (Falcon spec v1.2, Section 3.11.4; 897 bytes).
    fn public_bytes_raw<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        public_bytes(py, &self.0)
    }

    /// Verifies the detached signature `signature` of `data` (Falcon spec v1.2, Algorithm 16:
    /// Verify); raises `InvalidSignature` if it does not verify or is malformed.
    fn verify(&self, signature: Cow<'_, [u8]>, data: Cow<'_, [u8]>) -> PyResult<()> {
        verify(&self.0, &signature, &data)
    }

    /// The key as a SubjectPublicKeyInfo in DER.
    fn public_bytes_der<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        public_document(py, &self.0, false)
    }

    /// The key as a SubjectPublicKeyInfo in PEM armour (`-----BEGIN PUBLIC KEY-----`).
    fn public_bytes_pem<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        public_document(py, &self.0, true)
    }

    fn __repr__(&self) -> &'static str {
        "<pqlab.Falcon512PublicKey>"
    }
}

/// A Falcon-1024 private key, with its expanded form for signing; zeroized when Python frees it.
#[pyclass(module = "pqlab", name = "Falcon1024PrivateKey", frozen)]
pub struct Falcon1024PrivateKey(Keys<1024>);

#[pymethods]
impl Falcon1024PrivateKey {
    /// A new key pair (Falcon spec v1.2, Algorithm 4: NTRUGen) from a fresh 48-byte seed.
    #[staticmethod]
    fn generate(py: Python<'_>) -> PyResult<Self> {
        generate(py).map(Self)
    }

    /// The key pair of a 48-byte seed, as the round-3 reference derives it (SHAKE256 over the
    /// seed drives NTRUGen; the NIST KAT key pairs come out of their DRBG's first 48 bytes).
    #[staticmethod]
    fn from_seed_bytes(py: Python<'_>, data: Cow<'_, [u8]>) -> PyResult<Self> {
        from_seed(py, data).map(Self)
    }

    /// The key of an encoded secret key (Falcon spec v1.2, Section 3.11.5, header 0x5A).
    #[staticmethod]
    fn from_private_bytes(data: Cow<'_, [u8]>) -> PyResult<Self> {
        from_private_bytes(data).map(Self)
    }

    /// The encoded secret key (Falcon spec v1.2, Section 3.11.5; 2305 bytes).
    fn private_bytes_raw<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        private_bytes(py, &self.0)
    }

    /// The matching public key h = g / f mod q.
    fn public_key(&self) -> Falcon1024PublicKey {
        Falcon1024PublicKey(public_key(&self.0))
    }

    /// Signs `data` (Falcon spec v1.2, Algorithm 10: Sign): the detached compressed signature
    /// (header 0x3A, 40-byte nonce, compressed s2; at most 1328 bytes).
    fn sign<'py>(&self, py: Python<'py>, data: Cow<'_, [u8]>) -> PyResult<Bound<'py, PyBytes>> {
        sign(py, &self.0, &data)
    }

    /// The key as PKCS#8 DER (the canonical form of the `pkcs8` codec).
    fn private_bytes_der<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        private_document(py, &self.0, false)
    }

    /// The key as PKCS#8 in PEM armour (`-----BEGIN PRIVATE KEY-----`).
    fn private_bytes_pem<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        private_document(py, &self.0, true)
    }

    fn __repr__(&self) -> &'static str {
        "<pqlab.Falcon1024PrivateKey>"
    }
}

/// A Falcon-1024 public key.
#[pyclass(module = "pqlab", name = "Falcon1024PublicKey", frozen, eq)]
#[derive(PartialEq)]
pub struct Falcon1024PublicKey(Box<VerifyingKey<1024>>);

#[pymethods]
impl Falcon1024PublicKey {
    /// The key of an encoded public key (Falcon spec v1.2, Section 3.11.4, header 0x0A).
    #[staticmethod]
    fn from_public_bytes(data: Cow<'_, [u8]>) -> PyResult<Self> {
        public_from_bytes(&data).map(Self)
    }

    /// The encoded public key (Falcon spec v1.2, Section 3.11.4; 1793 bytes).
    fn public_bytes_raw<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        public_bytes(py, &self.0)
    }

    /// Verifies the detached signature `signature` of `data` (Falcon spec v1.2, Algorithm 16:
    /// Verify); raises `InvalidSignature` if it does not verify or is malformed.
    fn verify(&self, signature: Cow<'_, [u8]>, data: Cow<'_, [u8]>) -> PyResult<()> {
        verify(&self.0, &signature, &data)
    }

    /// The key as a SubjectPublicKeyInfo in DER.
    fn public_bytes_der<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        public_document(py, &self.0, false)
    }

    /// The key as a SubjectPublicKeyInfo in PEM armour (`-----BEGIN PUBLIC KEY-----`).
    fn public_bytes_pem<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        public_document(py, &self.0, true)
    }

    fn __repr__(&self) -> &'static str {
        "<pqlab.Falcon1024PublicKey>"
    }
}
