//! ML-DSA (FIPS 204) for Python: `MLDSA44PrivateKey`, `MLDSA44PublicKey` and the same for
//! ML-DSA-65 and ML-DSA-87. The generic functions do the work; the classes (one pair per
//! parameter set, since a Python class cannot be generic) only name the parameter set.

use std::borrow::Cow;

use pqlab_mldsa::pkcs8::{self, KeyVariant};
use pqlab_mldsa::{
    Error, MlDsa44, MlDsa65, MlDsa87, ParameterSet, Signature, SigningKey, VerifyingKey,
};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::keydoc::{encoded, private_label, public_label};
use crate::{invalid_signature, randomness_error, value_error, with_secret};

/// Maps a library error: a bad signature to `InvalidSignature`, a failed random number
/// generator to `OSError`, everything else (lengths, context, malformed key) to `ValueError`.
fn to_py(e: Error) -> PyErr {
    match e {
        Error::InvalidSignature => invalid_signature(),
        Error::Randomness => randomness_error(),
        other => value_error(other),
    }
}

/// FIPS 204, Algorithm 1: ML-DSA.KeyGen, with the seed xi from the operating system.
fn generate<P: ParameterSet>() -> PyResult<Box<SigningKey<P>>> {
    SigningKey::<P>::generate().map(Box::new).map_err(to_py)
}

/// FIPS 204, Algorithm 6: ML-DSA.KeyGen_internal from the 32-byte seed xi (wiped after use).
fn from_seed<P: ParameterSet>(seed: Cow<'_, [u8]>) -> PyResult<Box<SigningKey<P>>> {
    with_secret(seed, SigningKey::<P>::from_seed_slice)
        .map(Box::new)
        .map_err(to_py)
}

/// FIPS 204, Algorithm 25: skDecode, from the expanded secret key (wiped after use).
fn from_expanded<P: ParameterSet>(sk: Cow<'_, [u8]>) -> PyResult<Box<SigningKey<P>>> {
    with_secret(sk, SigningKey::<P>::from_expanded)
        .map(Box::new)
        .map_err(to_py)
}

/// The 32-byte seed xi (the private key in the form pyca/cryptography and the IETF use).
fn seed_bytes<'py, P: ParameterSet>(
    py: Python<'py>,
    sk: &SigningKey<P>,
) -> PyResult<Bound<'py, PyBytes>> {
    match sk.seed() {
        Some(xi) => Ok(PyBytes::new(py, xi)),
        None => Err(value_error(
            "this key was loaded from its expanded form and has no seed; \
             use private_bytes_expanded()",
        )),
    }
}

/// FIPS 204, Algorithm 24: skEncode, the expanded secret key.
fn expanded_bytes<'py, P: ParameterSet>(
    py: Python<'py>,
    sk: &SigningKey<P>,
) -> Bound<'py, PyBytes> {
    PyBytes::new(py, sk.to_expanded().as_ref())
}

/// FIPS 204, Algorithm 2: ML-DSA.Sign, hedged (fresh rnd from the operating system) or, with
/// `deterministic`, its deterministic variant (rnd = 0^32).
fn sign<'py, P: ParameterSet>(
    py: Python<'py>,
    sk: &SigningKey<P>,
    data: &[u8],
    context: Option<&[u8]>,
    deterministic: bool,
) -> PyResult<Bound<'py, PyBytes>> {
    let ctx = context.unwrap_or_default();
    let sig = if deterministic {
        sk.sign_deterministic(data, ctx)
    } else {
        sk.sign(data, ctx)
    }
    .map_err(to_py)?;
    Ok(PyBytes::new(py, sig.as_bytes()))
}

/// FIPS 204, Algorithm 23: pkDecode.
fn public_from_bytes<P: ParameterSet>(pk: &[u8]) -> PyResult<Box<VerifyingKey<P>>> {
    VerifyingKey::<P>::from_bytes(pk)
        .map(Box::new)
        .map_err(to_py)
}

/// FIPS 204, Algorithm 3: ML-DSA.Verify. A signature of the wrong length does not verify
/// (`InvalidSignature`, as pyca/cryptography); a context over 255 bytes is a `ValueError`.
fn verify<P: ParameterSet>(
    vk: &VerifyingKey<P>,
    signature: &[u8],
    data: &[u8],
    context: Option<&[u8]>,
) -> PyResult<()> {
    let ctx = context.unwrap_or_default();
    if ctx.len() > pqlab_mldsa::MAX_CONTEXT_LEN {
        return Err(to_py(Error::ContextTooLong { len: ctx.len() }));
    }
    let sig = Signature::<P>::from_bytes(signature).map_err(|_| invalid_signature())?;
    vk.verify(data, ctx, &sig).map_err(to_py)
}

/// The refusal of a key with a HashML-DSA OID (the classes offer ML-DSA only).
fn hash_ml_dsa_refused<P: ParameterSet>() -> PyErr {
    value_error(format!(
        "the key is for HashML-DSA with SHA-512 (OID {}), which pqlab for Python does not \
         offer; only ML-DSA keys (OID {}) are read",
        pkcs8::hash_oid::<P>(),
        P::OID
    ))
}

/// A PKCS#8 document decoded as a key of `P` (`None`: it is for another algorithm).
fn private_of<P: ParameterSet>(der: &[u8]) -> PyResult<Option<Box<SigningKey<P>>>> {
    match pkcs8::decode_signing_key::<P>(der) {
        Err(pkcs8::Pkcs8Error::OtherAlgorithm) => Ok(None),
        Err(e) => Err(value_error(e)),
        Ok((_, KeyVariant::HashSha512)) => Err(hash_ml_dsa_refused::<P>()),
        Ok((key, KeyVariant::Pure)) => Ok(Some(Box::new(key))),
    }
}

/// A SubjectPublicKeyInfo decoded as a key of `P` (`None`: it is for another algorithm).
fn public_of<P: ParameterSet>(der: &[u8]) -> PyResult<Option<Box<VerifyingKey<P>>>> {
    match pkcs8::decode_verifying_key::<P>(der) {
        Err(pkcs8::Pkcs8Error::OtherAlgorithm) => Ok(None),
        Err(e) => Err(value_error(e)),
        Ok((_, KeyVariant::HashSha512)) => Err(hash_ml_dsa_refused::<P>()),
        Ok((key, KeyVariant::Pure)) => Ok(Some(Box::new(key))),
    }
}

/// The ML-DSA private-key class of a PKCS#8 document (`None`: not an ML-DSA key).
pub(crate) fn load_private(py: Python<'_>, der: &[u8]) -> PyResult<Option<Py<PyAny>>> {
    if let Some(key) = private_of::<MlDsa44>(der)? {
        return Ok(Some(Py::new(py, MlDsa44PrivateKey(key))?.into_any()));
    }
    if let Some(key) = private_of::<MlDsa65>(der)? {
        return Ok(Some(Py::new(py, MlDsa65PrivateKey(key))?.into_any()));
    }
    if let Some(key) = private_of::<MlDsa87>(der)? {
        return Ok(Some(Py::new(py, MlDsa87PrivateKey(key))?.into_any()));
    }
    Ok(None)
}

/// The ML-DSA public-key class of a SubjectPublicKeyInfo (`None`: not an ML-DSA key).
pub(crate) fn load_public(py: Python<'_>, der: &[u8]) -> PyResult<Option<Py<PyAny>>> {
    if let Some(key) = public_of::<MlDsa44>(der)? {
        return Ok(Some(Py::new(py, MlDsa44PublicKey(key))?.into_any()));
    }
    if let Some(key) = public_of::<MlDsa65>(der)? {
        return Ok(Some(Py::new(py, MlDsa65PublicKey(key))?.into_any()));
    }
    if let Some(key) = public_of::<MlDsa87>(der)? {
        return Ok(Some(Py::new(py, MlDsa87PublicKey(key))?.into_any()));
    }
    Ok(None)
}

/// The canonical PKCS#8 document of `sk` (the IETF seed form; the expandedKey form for a key
/// without seed), in DER or PEM.
fn private_document<'py, P: ParameterSet>(
    py: Python<'py>,
    sk: &SigningKey<P>,
    pem: bool,
) -> PyResult<Bound<'py, PyBytes>> {
    encoded(py, pkcs8::MAX_PKCS8_LEN, private_label(pem), |out| {
        pkcs8::encode_signing_key(sk, KeyVariant::Pure, out)
    })
}

/// The SubjectPublicKeyInfo of `vk`, in DER or PEM.
fn public_document<'py, P: ParameterSet>(
    py: Python<'py>,
    vk: &VerifyingKey<P>,
    pem: bool,
) -> PyResult<Bound<'py, PyBytes>> {
    encoded(py, pkcs8::MAX_SPKI_LEN, public_label(pem), |out| {
        pkcs8::encode_verifying_key(vk, KeyVariant::Pure, out)
    })
}

/// Adds the classes to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<MlDsa44PrivateKey>()?;
    m.add_class::<MlDsa44PublicKey>()?;
    m.add_class::<MlDsa65PrivateKey>()?;
    m.add_class::<MlDsa65PublicKey>()?;
    m.add_class::<MlDsa87PrivateKey>()?;
    m.add_class::<MlDsa87PublicKey>()?;
    Ok(())
}

/// An ML-DSA-44 private key (FIPS 204), zeroized when Python frees it.
#[pyclass(module = "pqlab", name = "MLDSA44PrivateKey", frozen)]
pub struct MlDsa44PrivateKey(Box<SigningKey<MlDsa44>>);

#[pymethods]
impl MlDsa44PrivateKey {
    /// A new key from a fresh seed (FIPS 204, Algorithm 1: ML-DSA.KeyGen).
    #[staticmethod]
    fn generate() -> PyResult<Self> {
        generate().map(Self)
    }

    /// The key of a 32-byte seed xi (FIPS 204, Algorithm 6: ML-DSA.KeyGen_internal).
    #[staticmethod]
    fn from_seed_bytes(data: Cow<'_, [u8]>) -> PyResult<Self> {
        from_seed(data).map(Self)
    }

    /// The key of an expanded secret key (FIPS 204, Algorithm 25: skDecode); it has no seed.
    #[staticmethod]
    fn from_expanded_bytes(data: Cow<'_, [u8]>) -> PyResult<Self> {
        from_expanded(data).map(Self)
    }

    /// The 32-byte seed xi.
    fn private_bytes_raw<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        seed_bytes(py, &self.0)
    }

    /// The expanded secret key (FIPS 204, Algorithm 24: skEncode).
    fn private_bytes_expanded<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        expanded_bytes(py, &self.0)
    }

    /// The matching public key.
    fn public_key(&self) -> MlDsa44PublicKey {
        MlDsa44PublicKey(Box::new(self.0.verifying_key()))
    }

    /// Signs `data` with the context string `context` (FIPS 204, Algorithm 2: ML-DSA.Sign),
    /// hedged, or deterministic (rnd = 0^32) with `deterministic=True`.
    #[pyo3(signature = (data, context = None, deterministic = false))]
    fn sign<'py>(
        &self,
        py: Python<'py>,
        data: Cow<'_, [u8]>,
        context: Option<Cow<'_, [u8]>>,
        deterministic: bool,
    ) -> PyResult<Bound<'py, PyBytes>> {
        sign(py, &self.0, &data, context.as_deref(), deterministic)
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
        "<pqlab.MLDSA44PrivateKey>"
    }
}

/// An ML-DSA-44 public key (FIPS 204).
#[pyclass(module = "pqlab", name = "MLDSA44PublicKey", frozen, eq)]
#[derive(PartialEq)]
pub struct MlDsa44PublicKey(Box<VerifyingKey<MlDsa44>>);

#[pymethods]
impl MlDsa44PublicKey {
    /// The key of an encoded public key (FIPS 204, Algorithm 23: pkDecode).
    #[staticmethod]
    fn from_public_bytes(data: Cow<'_, [u8]>) -> PyResult<Self> {
        public_from_bytes(&data).map(Self)
    }

    /// The encoded public key (FIPS 204, Algorithm 22: pkEncode).
    fn public_bytes_raw<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, self.0.as_bytes())
    }

    /// Verifies `signature` of `data` with `context` (FIPS 204, Algorithm 3: ML-DSA.Verify);
    /// raises `InvalidSignature` if it does not verify.
    #[pyo3(signature = (signature, data, context = None))]
    fn verify(
        &self,
        signature: Cow<'_, [u8]>,
        data: Cow<'_, [u8]>,
        context: Option<Cow<'_, [u8]>>,
    ) -> PyResult<()> {
        verify(&self.0, &signature, &data, context.as_deref())
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
        "<pqlab.MLDSA44PublicKey>"
    }
}

/// An ML-DSA-65 private key (FIPS 204), zeroized when Python frees it.
#[pyclass(module = "pqlab", name = "MLDSA65PrivateKey", frozen)]
pub struct MlDsa65PrivateKey(Box<SigningKey<MlDsa65>>);

#[pymethods]
impl MlDsa65PrivateKey {
    /// A new key from a fresh seed (FIPS 204, Algorithm 1: ML-DSA.KeyGen).
    #[staticmethod]
    fn generate() -> PyResult<Self> {
        generate().map(Self)
    }

    /// The key of a 32-byte seed xi (FIPS 204, Algorithm 6: ML-DSA.KeyGen_internal).
    #[staticmethod]
    fn from_seed_bytes(data: Cow<'_, [u8]>) -> PyResult<Self> {
        from_seed(data).map(Self)
    }

    /// The key of an expanded secret key (FIPS 204, Algorithm 25: skDecode); it has no seed.
    #[staticmethod]
    fn from_expanded_bytes(data: Cow<'_, [u8]>) -> PyResult<Self> {
        from_expanded(data).map(Self)
    }

    /// The 32-byte seed xi.
    fn private_bytes_raw<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        seed_bytes(py, &self.0)
    }

    /// The expanded secret key (FIPS 204, Algorithm 24: skEncode).
    fn private_bytes_expanded<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        expanded_bytes(py, &self.0)
    }

    /// The matching public key.
    fn public_key(&self) -> MlDsa65PublicKey {
        MlDsa65PublicKey(Box::new(self.0.verifying_key()))
    }

    /// Signs `data` with the context string `context` (FIPS 204, Algorithm 2: ML-DSA.Sign),
    /// hedged, or deterministic (rnd = 0^32) with `deterministic=True`.
    #[pyo3(signature = (data, context = None, deterministic = false))]
    fn sign<'py>(
        &self,
        py: Python<'py>,
        data: Cow<'_, [u8]>,
        context: Option<Cow<'_, [u8]>>,
        deterministic: bool,
    ) -> PyResult<Bound<'py, PyBytes>> {
        sign(py, &self.0, &data, context.as_deref(), deterministic)
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
        "<pqlab.MLDSA65PrivateKey>"
    }
}

/// An ML-DSA-65 public key (FIPS 204).
#[pyclass(module = "pqlab", name = "MLDSA65PublicKey", frozen, eq)]
#[derive(PartialEq)]
pub struct MlDsa65PublicKey(Box<VerifyingKey<MlDsa65>>);

#[pymethods]
impl MlDsa65PublicKey {
    /// The key of an encoded public key (FIPS 204, Algorithm 23: pkDecode).
    #[staticmethod]
    fn from_public_bytes(data: Cow<'_, [u8]>) -> PyResult<Self> {
        public_from_bytes(&data).map(Self)
    }

    /// The encoded public key (FIPS 204, Algorithm 22: pkEncode).
    fn public_bytes_raw<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, self.0.as_bytes())
    }

    /// Verifies `signature` of `data` with `context` (FIPS 204, Algorithm 3: ML-DSA.Verify);
    /// raises `InvalidSignature` if it does not verify.
    #[pyo3(signature = (signature, data, context = None))]
    fn verify(
        &self,
        signature: Cow<'_, [u8]>,
        data: Cow<'_, [u8]>,
        context: Option<Cow<'_, [u8]>>,
    ) -> PyResult<()> {
        verify(&self.0, &signature, &data, context.as_deref())
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
        "<pqlab.MLDSA65PublicKey>"
    }
}

/// An ML-DSA-87 private key (FIPS 204), zeroized when Python frees it.
#[pyclass(module = "pqlab", name = "MLDSA87PrivateKey", frozen)]
pub struct MlDsa87PrivateKey(Box<SigningKey<MlDsa87>>);

#[pymethods]
impl MlDsa87PrivateKey {
    /// A new key from a fresh seed (FIPS 204, Algorithm 1: ML-DSA.KeyGen).
    #[staticmethod]
    fn generate() -> PyResult<Self> {
        generate().map(Self)
    }

    /// The key of a 32-byte seed xi (FIPS 204, Algorithm 6: ML-DSA.KeyGen_internal).
    #[staticmethod]
    fn from_seed_bytes(data: Cow<'_, [u8]>) -> PyResult<Self> {
        from_seed(data).map(Self)
    }

    /// The key of an expanded secret key (FIPS 204, Algorithm 25: skDecode); it has no seed.
    #[staticmethod]
    fn from_expanded_bytes(data: Cow<'_, [u8]>) -> PyResult<Self> {
        from_expanded(data).map(Self)
    }

    /// The 32-byte seed xi.
    fn private_bytes_raw<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        seed_bytes(py, &self.0)
    }

    /// The expanded secret key (FIPS 204, Algorithm 24: skEncode).
    fn private_bytes_expanded<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        expanded_bytes(py, &self.0)
    }

    /// The matching public key.
    fn public_key(&self) -> MlDsa87PublicKey {
        MlDsa87PublicKey(Box::new(self.0.verifying_key()))
    }

    /// Signs `data` with the context string `context` (FIPS 204, Algorithm 2: ML-DSA.Sign),
    /// hedged, or deterministic (rnd = 0^32) with `deterministic=True`.
    #[pyo3(signature = (data, context = None, deterministic = false))]
    fn sign<'py>(
        &self,
        py: Python<'py>,
        data: Cow<'_, [u8]>,
        context: Option<Cow<'_, [u8]>>,
        deterministic: bool,
    ) -> PyResult<Bound<'py, PyBytes>> {
        sign(py, &self.0, &data, context.as_deref(), deterministic)
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
        "<pqlab.MLDSA87PrivateKey>"
    }
}

/// An ML-DSA-87 public key (FIPS 204).
#[pyclass(module = "pqlab", name = "MLDSA87PublicKey", frozen, eq)]
#[derive(PartialEq)]
pub struct MlDsa87PublicKey(Box<VerifyingKey<MlDsa87>>);

#[pymethods]
impl MlDsa87PublicKey {
    /// The key of an encoded public key (FIPS 204, Algorithm 23: pkDecode).
    #[staticmethod]
    fn from_public_bytes(data: Cow<'_, [u8]>) -> PyResult<Self> {
        public_from_bytes(&data).map(Self)
    }

    /// The encoded public key (FIPS 204, Algorithm 22: pkEncode).
    fn public_bytes_raw<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, self.0.as_bytes())
    }

    /// Verifies `signature` of `data` with `context` (FIPS 204, Algorithm 3: ML-DSA.Verify);
    /// raises `InvalidSignature` if it does not verify.
    #[pyo3(signature = (signature, data, context = None))]
    fn verify(
        &self,
        signature: Cow<'_, [u8]>,
        data: Cow<'_, [u8]>,
        context: Option<Cow<'_, [u8]>>,
    ) -> PyResult<()> {
        verify(&self.0, &signature, &data, context.as_deref())
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
        "<pqlab.MLDSA87PublicKey>"
    }
}
