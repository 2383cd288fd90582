//! ML-KEM (FIPS 203) for Python: `MLKEM512PrivateKey`, `MLKEM512PublicKey` and the same for
//! ML-KEM-768 and ML-KEM-1024. The generic functions do the work; the classes (one pair per
//! parameter set, since a Python class cannot be generic) only name the parameter set.

use std::borrow::Cow;

use pqlab_mlkem::pkcs8;
use pqlab_mlkem::{
    Ciphertext, DecapsulationKey, EncapsulationKey, Error, MlKem512, MlKem768, MlKem1024,
    ParameterSet,
};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::keydoc::{encoded, private_label, public_label};
use crate::{randomness_error, value_error, with_secret};

/// Maps a library error: a failed random number generator to `OSError`, everything else
/// (lengths, the key checks of FIPS 203, Sections 7.2 and 7.3) to `ValueError`.
fn to_py(e: Error) -> PyErr {
    match e {
        Error::Randomness => randomness_error(),
        other => value_error(other),
    }
}

/// FIPS 203, Algorithm 19: ML-KEM.KeyGen, with d and z from the operating system.
fn generate<P: ParameterSet>() -> PyResult<Box<DecapsulationKey<P>>> {
    DecapsulationKey::<P>::generate()
        .map(Box::new)
        .map_err(to_py)
}

/// FIPS 203, Algorithm 16: ML-KEM.KeyGen_internal from the 64-byte seed d || z (wiped after
/// use).
fn from_seed<P: ParameterSet>(seed: Cow<'_, [u8]>) -> PyResult<Box<DecapsulationKey<P>>> {
    with_secret(seed, DecapsulationKey::<P>::from_seed_bytes)
        .map(Box::new)
        .map_err(to_py)
}

/// The decapsulation key dk of FIPS 203, Algorithm 16, with the checks of Section 7.3 (wiped
/// after use).
fn from_expanded<P: ParameterSet>(dk: Cow<'_, [u8]>) -> PyResult<Box<DecapsulationKey<P>>> {
    with_secret(dk, DecapsulationKey::<P>::from_expanded)
        .map(Box::new)
        .map_err(to_py)
}

/// The expanded decapsulation key dk (FIPS 203, Algorithm 16).
fn expanded_bytes<'py, P: ParameterSet>(
    py: Python<'py>,
    dk: &DecapsulationKey<P>,
) -> Bound<'py, PyBytes> {
    PyBytes::new(py, dk.to_expanded().as_ref())
}

/// The encapsulation key ek of a decapsulation key.
fn public_key<P: ParameterSet>(dk: &DecapsulationKey<P>) -> Box<EncapsulationKey<P>> {
    Box::new(dk.encapsulation_key().clone())
}

/// The 64-byte seed d || z (the private key in the form pyca/cryptography and the IETF use).
fn seed_bytes<'py, P: ParameterSet>(
    py: Python<'py>,
    dk: &DecapsulationKey<P>,
) -> PyResult<Bound<'py, PyBytes>> {
    match dk.seed() {
        Some(seed) => Ok(PyBytes::new(py, seed)),
        None => Err(value_error(
            "this key was loaded from its expanded form and has no seed; \
             use private_bytes_expanded()",
        )),
    }
}

/// FIPS 203, Algorithm 21: ML-KEM.Decaps. A ciphertext of the wrong length is a `ValueError`;
/// one of the right length that does not decrypt consistently gives the implicit-rejection key.
fn decapsulate<'py, P: ParameterSet>(
    py: Python<'py>,
    dk: &DecapsulationKey<P>,
    ciphertext: &[u8],
) -> PyResult<Bound<'py, PyBytes>> {
    let c = Ciphertext::<P>::from_bytes(ciphertext).map_err(to_py)?;
    let k = dk.decapsulate(&c);
    Ok(PyBytes::new(py, k.as_bytes()))
}

/// FIPS 203, Algorithm 20: ML-KEM.Encaps; returns (shared secret, ciphertext) as
/// pyca/cryptography does.
fn encapsulate<'py, P: ParameterSet>(
    py: Python<'py>,
    ek: &EncapsulationKey<P>,
) -> PyResult<(Bound<'py, PyBytes>, Bound<'py, PyBytes>)> {
    let (c, k) = ek.encapsulate().map_err(to_py)?;
    Ok((
        PyBytes::new(py, k.as_bytes()),
        PyBytes::new(py, c.as_bytes()),
    ))
}

/// An encapsulation key, with the modulus check of FIPS 203, Section 7.2.
fn public_from_bytes<P: ParameterSet>(ek: &[u8]) -> PyResult<Box<EncapsulationKey<P>>> {
    EncapsulationKey::<P>::from_bytes(ek)
        .map(Box::new)
        .map_err(to_py)
}

/// A PKCS#8 document decoded as a key of `P` (`None`: it is for another algorithm).
fn private_of<P: ParameterSet>(der: &[u8]) -> PyResult<Option<Box<DecapsulationKey<P>>>> {
    match pkcs8::decode_decapsulation_key::<P>(der) {
        Err(pkcs8::Pkcs8Error::OtherAlgorithm) => Ok(None),
        Err(e) => Err(value_error(e)),
        Ok(key) => Ok(Some(Box::new(key))),
    }
}

/// A SubjectPublicKeyInfo decoded as a key of `P` (`None`: it is for another algorithm).
fn public_of<P: ParameterSet>(der: &[u8]) -> PyResult<Option<Box<EncapsulationKey<P>>>> {
    match pkcs8::decode_encapsulation_key::<P>(der) {
        Err(pkcs8::Pkcs8Error::OtherAlgorithm) => Ok(None),
        Err(e) => Err(value_error(e)),
        Ok(key) => Ok(Some(Box::new(key))),
    }
}

/// The ML-KEM private-key class of a PKCS#8 document (`None`: not an ML-KEM key).
pub(crate) fn load_private(py: Python<'_>, der: &[u8]) -> PyResult<Option<Py<PyAny>>> {
    if let Some(key) = private_of::<MlKem512>(der)? {
        return Ok(Some(Py::new(py, MlKem512PrivateKey(key))?.into_any()));
    }
    if let Some(key) = private_of::<MlKem768>(der)? {
        return Ok(Some(Py::new(py, MlKem768PrivateKey(key))?.into_any()));
    }
    if let Some(key) = private_of::<MlKem1024>(der)? {
        return Ok(Some(Py::new(py, MlKem1024PrivateKey(key))?.into_any()));
    }
    Ok(None)
}

/// The ML-KEM public-key class of a SubjectPublicKeyInfo (`None`: not an ML-KEM key).
pub(crate) fn load_public(py: Python<'_>, der: &[u8]) -> PyResult<Option<Py<PyAny>>> {
    if let Some(key) = public_of::<MlKem512>(der)? {
        return Ok(Some(Py::new(py, MlKem512PublicKey(key))?.into_any()));
    }
    if let Some(key) = public_of::<MlKem768>(der)? {
        return Ok(Some(Py::new(py, MlKem768PublicKey(key))?.into_any()));
    }
    if let Some(key) = public_of::<MlKem1024>(der)? {
        return Ok(Some(Py::new(py, MlKem1024PublicKey(key))?.into_any()));
    }
    Ok(None)
}

/// The canonical PKCS#8 document of `dk` (the IETF seed form; the expandedKey form for a key
/// without seed), in DER or PEM.
fn private_document<'py, P: ParameterSet>(
    py: Python<'py>,
    dk: &DecapsulationKey<P>,
    pem: bool,
) -> PyResult<Bound<'py, PyBytes>> {
    encoded(py, pkcs8::MAX_PKCS8_LEN, private_label(pem), |out| {
        pkcs8::encode_decapsulation_key(dk, out)
    })
}

/// The SubjectPublicKeyInfo of `ek`, in DER or PEM.
fn public_document<'py, P: ParameterSet>(
    py: Python<'py>,
    ek: &EncapsulationKey<P>,
    pem: bool,
) -> PyResult<Bound<'py, PyBytes>> {
    encoded(py, pkcs8::MAX_SPKI_LEN, public_label(pem), |out| {
        pkcs8::encode_encapsulation_key(ek, out)
    })
}

/// Adds the classes to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<MlKem512PrivateKey>()?;
    m.add_class::<MlKem512PublicKey>()?;
    m.add_class::<MlKem768PrivateKey>()?;
    m.add_class::<MlKem768PublicKey>()?;
    m.add_class::<MlKem1024PrivateKey>()?;
    m.add_class::<MlKem1024PublicKey>()?;
    Ok(())
}

/// An ML-KEM-512 private (decapsulation) key (FIPS 203), zeroized when Python frees it.
#[pyclass(module = "pqlab", name = "MLKEM512PrivateKey", frozen)]
pub struct MlKem512PrivateKey(Box<DecapsulationKey<MlKem512>>);

#[pymethods]
impl MlKem512PrivateKey {
    /// A new key from fresh d and z (FIPS 203, Algorithm 19: ML-KEM.KeyGen).
    #[staticmethod]
    fn generate() -> PyResult<Self> {
        generate().map(Self)
    }

    /// The key of a 64-byte seed d || z (FIPS 203, Algorithm 16: ML-KEM.KeyGen_internal).
    #[staticmethod]
    fn from_seed_bytes(data: Cow<'_, [u8]>) -> PyResult<Self> {
        from_seed(data).map(Self)
    }

    /// The key of an expanded decapsulation key dk (checked as FIPS 203, Section 7.3 says);
    /// it has no seed.
    #[staticmethod]
    fn from_expanded_bytes(data: Cow<'_, [u8]>) -> PyResult<Self> {
        from_expanded(data).map(Self)
    }

    /// The 64-byte seed d || z.
    fn private_bytes_raw<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        seed_bytes(py, &self.0)
    }

    /// The expanded decapsulation key dk (FIPS 203, Algorithm 16).
    fn private_bytes_expanded<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        expanded_bytes(py, &self.0)
    }

    /// The matching public (encapsulation) key.
    fn public_key(&self) -> MlKem512PublicKey {
        MlKem512PublicKey(public_key(&self.0))
    }

    /// The 32-byte shared secret of `ciphertext` (FIPS 203, Algorithm 21: ML-KEM.Decaps).
    fn decapsulate<'py>(
        &self,
        py: Python<'py>,
        ciphertext: Cow<'_, [u8]>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        decapsulate(py, &self.0, &ciphertext)
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
        "<pqlab.MLKEM512PrivateKey>"
    }
}

/// An ML-KEM-512 public (encapsulation) key (FIPS 203).
#[pyclass(module = "pqlab", name = "MLKEM512PublicKey", frozen, eq)]
#[derive(PartialEq)]
pub struct MlKem512PublicKey(Box<EncapsulationKey<MlKem512>>);

#[pymethods]
impl MlKem512PublicKey {
    /// The key of an encoded encapsulation key ek (modulus check of FIPS 203, Section 7.2).
    #[staticmethod]
    fn from_public_bytes(data: Cow<'_, [u8]>) -> PyResult<Self> {
        public_from_bytes(&data).map(Self)
    }

    /// The encoded encapsulation key ek.
    fn public_bytes_raw<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, self.0.as_bytes())
    }

    /// A fresh shared secret and its ciphertext, as `(shared_secret, ciphertext)`
    /// (FIPS 203, Algorithm 20: ML-KEM.Encaps).
    fn encapsulate<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyBytes>, Bound<'py, PyBytes>)> {
        encapsulate(py, &self.0)
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
        "<pqlab.MLKEM512PublicKey>"
    }
}

/// An ML-KEM-768 private (decapsulation) key (FIPS 203), zeroized when Python frees it.
#[pyclass(module = "pqlab", name = "MLKEM768PrivateKey", frozen)]
pub struct MlKem768PrivateKey(Box<DecapsulationKey<MlKem768>>);

#[pymethods]
impl MlKem768PrivateKey {
    /// A new key from fresh d and z (FIPS 203, Algorithm 19: ML-KEM.KeyGen).
    #[staticmethod]
    fn generate() -> PyResult<Self> {
        generate().map(Self)
    }

    /// The key of a 64-byte seed d || z (FIPS 203, Algorithm 16: ML-KEM.KeyGen_internal).
    #[staticmethod]
    fn from_seed_bytes(data: Cow<'_, [u8]>) -> PyResult<Self> {
        from_seed(data).map(Self)
    }

    /// The key of an expanded decapsulation key dk (checked as FIPS 203, Section 7.3 says);
    /// it has no seed.
    #[staticmethod]
    fn from_expanded_bytes(data: Cow<'_, [u8]>) -> PyResult<Self> {
        from_expanded(data).map(Self)
    }

    /// The 64-byte seed d || z.
    fn private_bytes_raw<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        seed_bytes(py, &self.0)
    }

    /// The expanded decapsulation key dk (FIPS 203, Algorithm 16).
    fn private_bytes_expanded<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        expanded_bytes(py, &self.0)
    }

    /// The matching public (encapsulation) key.
    fn public_key(&self) -> MlKem768PublicKey {
        MlKem768PublicKey(public_key(&self.0))
    }

    /// The 32-byte shared secret of `ciphertext` (FIPS 203, Algorithm 21: ML-KEM.Decaps).
    fn decapsulate<'py>(
        &self,
        py: Python<'py>,
        ciphertext: Cow<'_, [u8]>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        decapsulate(py, &self.0, &ciphertext)
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
        "<pqlab.MLKEM768PrivateKey>"
    }
}

/// An ML-KEM-768 public (encapsulation) key (FIPS 203).
#[pyclass(module = "pqlab", name = "MLKEM768PublicKey", frozen, eq)]
#[derive(PartialEq)]
pub struct MlKem768PublicKey(Box<EncapsulationKey<MlKem768>>);

#[pymethods]
impl MlKem768PublicKey {
    /// The key of an encoded encapsulation key ek (modulus check of FIPS 203, Section 7.2).
    #[staticmethod]
    fn from_public_bytes(data: Cow<'_, [u8]>) -> PyResult<Self> {
        public_from_bytes(&data).map(Self)
    }

    /// The encoded encapsulation key ek.
    fn public_bytes_raw<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, self.0.as_bytes())
    }

    /// A fresh shared secret and its ciphertext, as `(shared_secret, ciphertext)`
    /// (FIPS 203, Algorithm 20: ML-KEM.Encaps).
    fn encapsulate<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyBytes>, Bound<'py, PyBytes>)> {
        encapsulate(py, &self.0)
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
        "<pqlab.MLKEM768PublicKey>"
    }
}

/// An ML-KEM-1024 private (decapsulation) key (FIPS 203), zeroized when Python frees it.
#[pyclass(module = "pqlab", name = "MLKEM1024PrivateKey", frozen)]
pub struct MlKem1024PrivateKey(Box<DecapsulationKey<MlKem1024>>);

#[pymethods]
impl MlKem1024PrivateKey {
    /// A new key from fresh d and z (FIPS 203, Algorithm 19: ML-KEM.KeyGen).
    #[staticmethod]
    fn generate() -> PyResult<Self> {
        generate().map(Self)
    }

    /// The key of a 64-byte seed d || z (FIPS 203, Algorithm 16: ML-KEM.KeyGen_internal).
    #[staticmethod]
    fn from_seed_bytes(data: Cow<'_, [u8]>) -> PyResult<Self> {
        from_seed(data).map(Self)
    }

    /// The key of an expanded decapsulation key dk (checked as FIPS 203, Section 7.3 says);
    /// it has no seed.
    #[staticmethod]
    fn from_expanded_bytes(data: Cow<'_, [u8]>) -> PyResult<Self> {
        from_expanded(data).map(Self)
    }

    /// The 64-byte seed d || z.
    fn private_bytes_raw<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        seed_bytes(py, &self.0)
    }

    /// The expanded decapsulation key dk (FIPS 203, Algorithm 16).
    fn private_bytes_expanded<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        expanded_bytes(py, &self.0)
    }

    /// The matching public (encapsulation) key.
    fn public_key(&self) -> MlKem1024PublicKey {
        MlKem1024PublicKey(public_key(&self.0))
    }

    /// The 32-byte shared secret of `ciphertext` (FIPS 203, Algorithm 21: ML-KEM.Decaps).
    fn decapsulate<'py>(
        &self,
        py: Python<'py>,
        ciphertext: Cow<'_, [u8]>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        decapsulate(py, &self.0, &ciphertext)
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
        "<pqlab.MLKEM1024PrivateKey>"
    }
}

/// An ML-KEM-1024 public (encapsulation) key (FIPS 203).
#[pyclass(module = "pqlab", name = "MLKEM1024PublicKey", frozen, eq)]
#[derive(PartialEq)]
pub struct MlKem1024PublicKey(Box<EncapsulationKey<MlKem1024>>);

#[pymethods]
impl MlKem1024PublicKey {
    /// The key of an encoded encapsulation key ek (modulus check of FIPS 203, Section 7.2).
    #[staticmethod]
    fn from_public_bytes(data: Cow<'_, [u8]>) -> PyResult<Self> {
        public_from_bytes(&data).map(Self)
    }

    /// The encoded encapsulation key ek.
    fn public_bytes_raw<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, self.0.as_bytes())
    }

    /// A fresh shared secret and its ciphertext, as `(shared_secret, ciphertext)`
    /// (FIPS 203, Algorithm 20: ML-KEM.Encaps).
    fn encapsulate<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyBytes>, Bound<'py, PyBytes>)> {
        encapsulate(py, &self.0)
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
        "<pqlab.MLKEM1024PublicKey>"
    }
}
