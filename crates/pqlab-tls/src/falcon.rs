//! Falcon-512 and Falcon-1024 (Falcon round-3 specification v1.2, pqlab's `pqlab-falcon`) as
//! TLS 1.3 signature schemes. **Non-standard**: neither the IETF nor IANA has assigned Falcon
//! (or FN-DSA) a TLS code point or an X.509 OID; pqlab uses the experimental values of the
//! Open Quantum Safe provider (oqs-provider `ALGORITHMS.md`, liboqs 0.12+ generation), so that
//! pqlab can talk to OpenSSL with oqs-provider:
//!
//! | scheme | TLS `SignatureScheme` | X.509 / PKCS#8 OID |
//! | --- | --- | --- |
//! | Falcon-512 | 0xFED7 (`falcon512`) | 1.3.9999.3.11 |
//! | Falcon-1024 | 0xFEDA (`falcon1024`) | 1.3.9999.3.14 |
//!
//! # Formats
//!
//! * **Signature** (CertificateVerify and X.509 `signatureValue`): the Falcon *detached*
//!   signature of the specification, Section 3.11.3, as [`pqlab_falcon::Signature::encode`]
//!   writes it and liboqs's `OQS_SIG_falcon_512_sign` produces: one header byte `0x30 + logn`
//!   (0x39 for Falcon-512, 0x3A for Falcon-1024), the 40-byte nonce r, then the compressed s2
//!   (variable length; the whole signature is at most 688 / 1328 bytes, the round-3 NIST API
//!   bound that liboqs and the reference signer use, about 655 / 1270 bytes on average). It
//!   is *not* the padded variant (oqs-provider's `falconpadded512`, fixed 666 / 1280 bytes)
//!   nor the KAT files' signed-message layout (length field, nonce, message, header 0x2X).
//!   The message signed is the TLS 1.3 signed content (RFC 8446, Section 4.4.3) or the DER
//!   TBSCertificate, as is; Falcon hashes it with the nonce itself (HashToPoint), no pre-hash.
//! * **Public key** (SubjectPublicKeyInfo `subjectPublicKey`): the encoded h of Section 3.11.4
//!   (header `0x00 + logn`, 897 / 1793 bytes), algorithm parameters absent.
//! * **Private key** (PKCS#8 `privateKey`): written as oqs-provider writes it, a DER OCTET
//!   STRING holding the encoded secret key of Section 3.11.5 (header `0x50 + logn`) followed by
//!   the encoded public key; BouncyCastle's and pqlab's seed forms are read too
//!   (`pqlab_falcon::pkcs8`, the codec shared with the `pqlab` command).
//!
//! The server signs with fresh randomness (nonce and sampler seed from the OS through ring),
//! using the expanded key (the FFT basis and tree of Algorithm 8) computed once per key.

use core::fmt;
use std::sync::Arc;

use pqlab_falcon::{ExpandedKey, Signature, SigningKey, VerifyingKey};
use ring::rand::{SecureRandom, SystemRandom};
use rustls::pki_types::{
    AlgorithmIdentifier, InvalidSignature, SignatureVerificationAlgorithm, SubjectPublicKeyInfoDer,
};
use rustls::sign::{Signer, SigningKey as RustlsSigningKey};
use rustls::{SignatureAlgorithm, SignatureScheme};

use crate::Error;
use crate::pkcs8::falcon_spki;

pub use pqlab_falcon::pkcs8::{OID_FALCON_512, OID_FALCON_1024};
/// The Falcon-512 TLS code point of oqs-provider (non-standard).
pub const FALCON_512_SCHEME: SignatureScheme = SignatureScheme::Unknown(0xFED7);
/// The Falcon-1024 TLS code point of oqs-provider (non-standard).
pub const FALCON_1024_SCHEME: SignatureScheme = SignatureScheme::Unknown(0xFEDA);

/// A Falcon degree with its names and identifiers (implemented for 512 and 1024).
pub trait FalconParams {
    /// The pqlab name (`falcon-512`).
    const NAME: &'static str;
    /// The OID, dotted.
    const OID: &'static str;
    /// The TLS code point.
    const SCHEME: SignatureScheme;
}

/// Marker for Falcon-512.
#[derive(Debug, Clone, Copy)]
pub struct Falcon512;
/// Marker for Falcon-1024.
#[derive(Debug, Clone, Copy)]
pub struct Falcon1024;

impl FalconParams for Falcon512 {
    const NAME: &'static str = "falcon-512";
    const OID: &'static str = OID_FALCON_512;
    const SCHEME: SignatureScheme = FALCON_512_SCHEME;
}

impl FalconParams for Falcon1024 {
    const NAME: &'static str = "falcon-1024";
    const OID: &'static str = OID_FALCON_1024;
    const SCHEME: SignatureScheme = FALCON_1024_SCHEME;
}

/// Falcon verification of the detached signature format (see the module documentation).
pub struct FalconVerify<const N: usize> {
    alg_id: AlgorithmIdentifier,
}

impl<const N: usize> fmt::Debug for FalconVerify<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "pqlab falcon-{N}")
    }
}

impl<const N: usize> SignatureVerificationAlgorithm for FalconVerify<N> {
    fn verify_signature(
        &self,
        public_key: &[u8],
        message: &[u8],
        signature: &[u8],
    ) -> Result<(), InvalidSignature> {
        let vk = VerifyingKey::<N>::decode(public_key).map_err(|_| InvalidSignature)?;
        vk.verify(message, signature).map_err(|_| InvalidSignature)
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

/// The AlgorithmIdentifier contents (the OID TLV, parameters absent) of 1.3.9999.3.11.
const ALG_ID_FALCON_512: &[u8] = &[0x06, 0x05, 0x2b, 0xce, 0x0f, 0x03, 0x0b];
/// The AlgorithmIdentifier contents (the OID TLV, parameters absent) of 1.3.9999.3.14.
const ALG_ID_FALCON_1024: &[u8] = &[0x06, 0x05, 0x2b, 0xce, 0x0f, 0x03, 0x0e];

/// Falcon-512 verification (pqlab; oqs-provider's OID).
pub static FALCON_512: &dyn SignatureVerificationAlgorithm = &FalconVerify::<512> {
    alg_id: AlgorithmIdentifier::from_slice(ALG_ID_FALCON_512),
};
/// Falcon-1024 verification (pqlab; oqs-provider's OID).
pub static FALCON_1024: &dyn SignatureVerificationAlgorithm = &FalconVerify::<1024> {
    alg_id: AlgorithmIdentifier::from_slice(ALG_ID_FALCON_1024),
};

/// Maps a Falcon library error to ours.
pub(crate) fn falcon_err(what: &str) -> impl Fn(pqlab_falcon::Error) -> Error + '_ {
    move |e| Error::Key(format!("{what}: {e}"))
}

/// Signs `msg` with fresh OS randomness and returns the encoded detached signature.
pub(crate) fn sign_detached<const N: usize>(
    key: &ExpandedKey<N>,
    msg: &[u8],
) -> Result<Vec<u8>, Error> {
    let rng = SystemRandom::new();
    let sig = key
        .sign_with_rng(msg, |b| rng.fill(b).is_ok())
        .map_err(|_| Error::Randomness)?;
    encode_signature(&sig)
}

/// The detached encoding of a signature.
fn encode_signature<const N: usize>(sig: &Signature<N>) -> Result<Vec<u8>, Error> {
    let mut out = vec![0u8; Signature::<N>::MAX_LEN];
    let len = sig
        .encode(&mut out)
        .map_err(falcon_err("Falcon signature encoding"))?;
    out.truncate(len);
    Ok(out)
}

/// A Falcon signing key for rustls (server certificates). `P` names the parameter set whose
/// degree is `N` (`FalconSigningKey<Falcon512, 512>`).
pub struct FalconSigningKey<P: FalconParams, const N: usize> {
    key: Arc<ExpandedKey<N>>,
    spki: Vec<u8>,
    _params: core::marker::PhantomData<P>,
}

impl<P: FalconParams, const N: usize> FalconSigningKey<P, N> {
    /// Wraps a Falcon secret key (expanding it once for signing).
    pub fn new(key: &SigningKey<N>) -> Result<Self, Error> {
        Ok(Self {
            key: Arc::new(key.expand()),
            spki: falcon_spki(&key.verifying_key())?,
            _params: core::marker::PhantomData,
        })
    }
}

impl<P: FalconParams, const N: usize> fmt::Debug for FalconSigningKey<P, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "FalconSigningKey({})", P::NAME)
    }
}

impl<P: FalconParams + Send + Sync + 'static, const N: usize> RustlsSigningKey
    for FalconSigningKey<P, N>
{
    fn choose_scheme(&self, offered: &[SignatureScheme]) -> Option<Box<dyn Signer>> {
        offered.contains(&P::SCHEME).then(|| {
            Box::new(FalconSigner::<P, N> {
                key: Arc::clone(&self.key),
                _params: core::marker::PhantomData,
            }) as Box<dyn Signer>
        })
    }

    fn public_key(&self) -> Option<SubjectPublicKeyInfoDer<'_>> {
        Some(SubjectPublicKeyInfoDer::from(&self.spki[..]))
    }

    fn algorithm(&self) -> SignatureAlgorithm {
        // TLS 1.2's SignatureAlgorithm has no Falcon value; it only matters for TLS 1.2.
        SignatureAlgorithm::Unknown(0)
    }
}

/// One handshake's Falcon signer.
struct FalconSigner<P: FalconParams, const N: usize> {
    key: Arc<ExpandedKey<N>>,
    _params: core::marker::PhantomData<P>,
}

impl<P: FalconParams, const N: usize> fmt::Debug for FalconSigner<P, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "FalconSigner({})", P::NAME)
    }
}

impl<P: FalconParams + Send + Sync, const N: usize> Signer for FalconSigner<P, N> {
    fn sign(&self, message: &[u8]) -> Result<Vec<u8>, rustls::Error> {
        sign_detached(&self.key, message)
            .map_err(|e| rustls::Error::General(format!("{} signing failed: {e}", P::NAME)))
    }

    fn scheme(&self) -> SignatureScheme {
        P::SCHEME
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn alg_ids_are_the_oids() {
        for (dotted, bytes) in [
            (OID_FALCON_512, ALG_ID_FALCON_512),
            (OID_FALCON_1024, ALG_ID_FALCON_1024),
        ] {
            let oid = der::asn1::ObjectIdentifier::new(dotted).unwrap();
            assert_eq!(der::Encode::to_der(&oid).unwrap(), bytes);
        }
    }
}
