//! TLS 1.3 signatures with pqlab's ML-DSA (FIPS 204), per draft-ietf-tls-mldsa, and Falcon
//! (non-standard code points and OIDs of the Open Quantum Safe provider; see [`crate::falcon`]).
//!
//! `ML-DSA-44/65/87` are the signature schemes 0x0904/0x0905/0x0906: pure ML-DSA (not
//! HashML-DSA) with the empty context string over the TLS 1.3 signed content (CertificateVerify)
//! or over the TBSCertificate (X.509, RFC 9881: the OIDs 2.16.840.1.101.3.4.3.17-19, parameters
//! absent). The server signs with fresh randomness (the hedged variant).
//!
//! # Extension point: more signature schemes
//!
//! [`PQ_SIG_SCHEMES`] is the one table of post-quantum signature schemes. A new scheme (as
//! Falcon-512/1024 with the OQS code points 0xFED7/0xFEDA, in [`crate::falcon`]) needs:
//! 1. a `SignatureVerificationAlgorithm` static (like [`ML_DSA_65`]) and a row in
//!    [`PQ_SIG_SCHEMES`] with its `SignatureScheme`, name and OID; [`SUPPORTED_SIG_ALGS`] must
//!    list the static in `all` and `mapping` (it is a `static`, so it is spelled out by hand);
//! 2. a `rustls::sign::SigningKey` (like [`MlDsaSigningKey`]) and a branch in
//!    [`load_pq_private_key`] for its PKCS#8 OID;
//! 3. a branch in `cert::Keypair` so that `pqlab cert` can issue certificates with it.

use core::fmt;
use std::sync::Arc;

use pqlab_mldsa::{MlDsa44, MlDsa65, MlDsa87, ParameterSet, Signature, VerifyingKey};
use rustls::crypto::{KeyProvider, WebPkiSupportedAlgorithms};
use rustls::pki_types::{
    AlgorithmIdentifier, InvalidSignature, PrivateKeyDer, SignatureVerificationAlgorithm,
    SubjectPublicKeyInfoDer, alg_id,
};
use rustls::sign::{Signer, SigningKey};
use rustls::{SignatureAlgorithm, SignatureScheme};
use webpki::ring as ring_algs;

use crate::Error;
use crate::falcon::{self, Falcon512, Falcon1024, FalconSigningKey};
use crate::pkcs8::{self, PqPrivateKey};

/// One post-quantum signature scheme: its TLS code point, the name the command line uses, the
/// X.509 OID and the verification algorithm.
#[derive(Debug, Clone, Copy)]
pub struct PqSigScheme {
    /// The TLS `SignatureScheme`.
    pub scheme: SignatureScheme,
    /// The pqlab name (`ml-dsa-65`).
    pub name: &'static str,
    /// The X.509 / PKCS#8 OID, dotted.
    pub oid: &'static str,
    /// The verification algorithm (certificates and CertificateVerify).
    pub verify: &'static dyn SignatureVerificationAlgorithm,
    /// Whether the code point and OID are experimental ones that no standard assigns
    /// (Falcon: the Open Quantum Safe provider's values).
    pub non_standard: bool,
}

/// The post-quantum signature schemes (see the module documentation to add one).
pub static PQ_SIG_SCHEMES: &[PqSigScheme] = &[
    PqSigScheme {
        scheme: SignatureScheme::ML_DSA_44,
        name: "ml-dsa-44",
        oid: MlDsa44::OID,
        verify: ML_DSA_44,
        non_standard: false,
    },
    PqSigScheme {
        scheme: SignatureScheme::ML_DSA_65,
        name: "ml-dsa-65",
        oid: MlDsa65::OID,
        verify: ML_DSA_65,
        non_standard: false,
    },
    PqSigScheme {
        scheme: SignatureScheme::ML_DSA_87,
        name: "ml-dsa-87",
        oid: MlDsa87::OID,
        verify: ML_DSA_87,
        non_standard: false,
    },
    PqSigScheme {
        scheme: falcon::FALCON_512_SCHEME,
        name: "falcon-512",
        oid: falcon::OID_FALCON_512,
        verify: falcon::FALCON_512,
        non_standard: true,
    },
    PqSigScheme {
        scheme: falcon::FALCON_1024_SCHEME,
        name: "falcon-1024",
        oid: falcon::OID_FALCON_1024,
        verify: falcon::FALCON_1024,
        non_standard: true,
    },
];

/// A readable name for a signature scheme: the pqlab name of a post-quantum one, else rustls's.
/// A non-standard scheme says so: `falcon-512 (non-standard: OQS code point 0xFED7)`.
pub fn sig_scheme_name(scheme: SignatureScheme) -> String {
    PQ_SIG_SCHEMES
        .iter()
        .find(|s| s.scheme == scheme)
        .map_or_else(
            || format!("{scheme:?}"),
            |s| {
                if s.non_standard {
                    format!(
                        "{} (non-standard: OQS code point 0x{:04X})",
                        s.name,
                        u16::from(s.scheme)
                    )
                } else {
                    s.name.to_string()
                }
            },
        )
}

/// Pure ML-DSA verification with the empty context.
pub struct MlDsaVerify<P: ParameterSet> {
    alg_id: AlgorithmIdentifier,
    _params: core::marker::PhantomData<P>,
}

impl<P: ParameterSet> MlDsaVerify<P> {
    const fn new(alg_id: AlgorithmIdentifier) -> Self {
        Self {
            alg_id,
            _params: core::marker::PhantomData,
        }
    }
}

impl<P: ParameterSet> fmt::Debug for MlDsaVerify<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "pqlab {}", P::NAME)
    }
}

impl<P: ParameterSet> SignatureVerificationAlgorithm for MlDsaVerify<P> {
    fn verify_signature(
        &self,
        public_key: &[u8],
        message: &[u8],
        signature: &[u8],
    ) -> Result<(), InvalidSignature> {
        let vk = VerifyingKey::<P>::from_bytes(public_key).map_err(|_| InvalidSignature)?;
        let sig = Signature::<P>::from_bytes(signature).map_err(|_| InvalidSignature)?;
        vk.verify(message, &[], &sig).map_err(|_| InvalidSignature)
    }

    fn public_key_alg_id(&self) -> AlgorithmIdentifier {
        self.alg_id
    }

    fn signature_alg_id(&self) -> AlgorithmIdentifier {
        self.alg_id
    }

    fn fips(&self) -> bool {
        false
    }
}

/// ML-DSA-44 verification (pqlab).
pub static ML_DSA_44: &dyn SignatureVerificationAlgorithm =
    &MlDsaVerify::<MlDsa44>::new(alg_id::ML_DSA_44);
/// ML-DSA-65 verification (pqlab).
pub static ML_DSA_65: &dyn SignatureVerificationAlgorithm =
    &MlDsaVerify::<MlDsa65>::new(alg_id::ML_DSA_65);
/// ML-DSA-87 verification (pqlab).
pub static ML_DSA_87: &dyn SignatureVerificationAlgorithm =
    &MlDsaVerify::<MlDsa87>::new(alg_id::ML_DSA_87);

/// The verification algorithms of the provider: ML-DSA, Falcon, then the base provider's
/// classical ones.
pub static SUPPORTED_SIG_ALGS: WebPkiSupportedAlgorithms = WebPkiSupportedAlgorithms {
    all: &[
        ML_DSA_44,
        ML_DSA_65,
        ML_DSA_87,
        falcon::FALCON_512,
        falcon::FALCON_1024,
        ring_algs::ECDSA_P256_SHA256,
        ring_algs::ECDSA_P256_SHA384,
        ring_algs::ECDSA_P384_SHA256,
        ring_algs::ECDSA_P384_SHA384,
        ring_algs::ED25519,
        ring_algs::RSA_PSS_2048_8192_SHA256_LEGACY_KEY,
        ring_algs::RSA_PSS_2048_8192_SHA384_LEGACY_KEY,
        ring_algs::RSA_PSS_2048_8192_SHA512_LEGACY_KEY,
        ring_algs::RSA_PKCS1_2048_8192_SHA256,
        ring_algs::RSA_PKCS1_2048_8192_SHA384,
        ring_algs::RSA_PKCS1_2048_8192_SHA512,
    ],
    mapping: &[
        (SignatureScheme::ML_DSA_65, &[ML_DSA_65]),
        (SignatureScheme::ML_DSA_87, &[ML_DSA_87]),
        (SignatureScheme::ML_DSA_44, &[ML_DSA_44]),
        (falcon::FALCON_512_SCHEME, &[falcon::FALCON_512]),
        (falcon::FALCON_1024_SCHEME, &[falcon::FALCON_1024]),
        (
            SignatureScheme::ECDSA_NISTP384_SHA384,
            &[ring_algs::ECDSA_P384_SHA384, ring_algs::ECDSA_P256_SHA384],
        ),
        (
            SignatureScheme::ECDSA_NISTP256_SHA256,
            &[ring_algs::ECDSA_P256_SHA256, ring_algs::ECDSA_P384_SHA256],
        ),
        (SignatureScheme::ED25519, &[ring_algs::ED25519]),
        (
            SignatureScheme::RSA_PSS_SHA512,
            &[ring_algs::RSA_PSS_2048_8192_SHA512_LEGACY_KEY],
        ),
        (
            SignatureScheme::RSA_PSS_SHA384,
            &[ring_algs::RSA_PSS_2048_8192_SHA384_LEGACY_KEY],
        ),
        (
            SignatureScheme::RSA_PSS_SHA256,
            &[ring_algs::RSA_PSS_2048_8192_SHA256_LEGACY_KEY],
        ),
        (
            SignatureScheme::RSA_PKCS1_SHA512,
            &[ring_algs::RSA_PKCS1_2048_8192_SHA512],
        ),
        (
            SignatureScheme::RSA_PKCS1_SHA384,
            &[ring_algs::RSA_PKCS1_2048_8192_SHA384],
        ),
        (
            SignatureScheme::RSA_PKCS1_SHA256,
            &[ring_algs::RSA_PKCS1_2048_8192_SHA256],
        ),
    ],
};

/// An ML-DSA signing key for rustls (server certificates).
pub struct MlDsaSigningKey<P: ParameterSet> {
    key: Arc<pqlab_mldsa::SigningKey<P>>,
    scheme: SignatureScheme,
    spki: Vec<u8>,
}

impl<P: ParameterSet> MlDsaSigningKey<P> {
    /// Wraps an ML-DSA key; `scheme` is its TLS code point.
    pub fn new(key: pqlab_mldsa::SigningKey<P>, scheme: SignatureScheme) -> Result<Self, Error> {
        let spki = pkcs8::mldsa_spki(&key.verifying_key())?;
        Ok(Self {
            key: Arc::new(key),
            scheme,
            spki,
        })
    }
}

impl<P: ParameterSet> fmt::Debug for MlDsaSigningKey<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "MlDsaSigningKey({})", P::NAME)
    }
}

impl<P: ParameterSet> SigningKey for MlDsaSigningKey<P> {
    fn choose_scheme(&self, offered: &[SignatureScheme]) -> Option<Box<dyn Signer>> {
        offered.contains(&self.scheme).then(|| {
            Box::new(MlDsaSigner {
                key: Arc::clone(&self.key),
                scheme: self.scheme,
            }) as Box<dyn Signer>
        })
    }

    fn public_key(&self) -> Option<SubjectPublicKeyInfoDer<'_>> {
        Some(SubjectPublicKeyInfoDer::from(&self.spki[..]))
    }

    fn algorithm(&self) -> SignatureAlgorithm {
        // TLS 1.2's SignatureAlgorithm has no ML-DSA value; it only matters for TLS 1.2.
        SignatureAlgorithm::Unknown(0)
    }
}

/// One handshake's ML-DSA signer.
struct MlDsaSigner<P: ParameterSet> {
    key: Arc<pqlab_mldsa::SigningKey<P>>,
    scheme: SignatureScheme,
}

impl<P: ParameterSet> fmt::Debug for MlDsaSigner<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "MlDsaSigner({})", P::NAME)
    }
}

impl<P: ParameterSet> Signer for MlDsaSigner<P> {
    fn sign(&self, message: &[u8]) -> Result<Vec<u8>, rustls::Error> {
        self.key
            .sign(message, &[])
            .map(|sig| sig.as_bytes().to_vec())
            .map_err(|e| rustls::Error::General(format!("ML-DSA signing failed: {e}")))
    }

    fn scheme(&self) -> SignatureScheme {
        self.scheme
    }
}

/// Loads a post-quantum PKCS#8 private key as a rustls signing key; `Ok(None)` when the key's
/// algorithm is not a post-quantum one (the caller then tries the classical provider).
pub fn load_pq_private_key(pkcs8_der: &[u8]) -> Result<Option<Arc<dyn SigningKey>>, Error> {
    let Some(key) = pkcs8::decode_pq_private_key(pkcs8_der)? else {
        return Ok(None);
    };
    let signing: Arc<dyn SigningKey> = match key {
        PqPrivateKey::MlDsa44(k) => Arc::new(MlDsaSigningKey::new(*k, SignatureScheme::ML_DSA_44)?),
        PqPrivateKey::MlDsa65(k) => Arc::new(MlDsaSigningKey::new(*k, SignatureScheme::ML_DSA_65)?),
        PqPrivateKey::MlDsa87(k) => Arc::new(MlDsaSigningKey::new(*k, SignatureScheme::ML_DSA_87)?),
        PqPrivateKey::Falcon512(k) => Arc::new(FalconSigningKey::<Falcon512, 512>::new(&k)?),
        PqPrivateKey::Falcon1024(k) => Arc::new(FalconSigningKey::<Falcon1024, 1024>::new(&k)?),
    };
    Ok(Some(signing))
}

/// The provider's key loader: ML-DSA and Falcon PKCS#8 keys here, everything else to ring.
#[derive(Debug)]
pub struct PqKeyProvider;

impl KeyProvider for PqKeyProvider {
    fn load_private_key(
        &self,
        key_der: PrivateKeyDer<'static>,
    ) -> Result<Arc<dyn SigningKey>, rustls::Error> {
        if let PrivateKeyDer::Pkcs8(pkcs8) = &key_der {
            match load_pq_private_key(pkcs8.secret_pkcs8_der()) {
                Ok(Some(key)) => return Ok(key),
                Ok(None) => {}
                Err(e) => return Err(rustls::Error::General(e.to_string())),
            }
        }
        rustls::crypto::ring::sign::any_supported_type(&key_der)
    }
}
