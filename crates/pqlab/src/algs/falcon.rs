//! Falcon (round-3 specification v1.2, the scheme of the NIST KAT files) in the registry: one
//! generic adapter over the degree `N` of `pqlab-falcon`.
//!
//! * Raw files hold the round-3 encodings: public key (header 0x00 + logn, then h), secret key
//!   (header 0x50 + logn, then f, g, F), signature in the detached compressed format (header
//!   0x30 + logn, 40-byte nonce, compressed s2). Signatures vary in length, up to
//!   [`Signature::MAX_LEN`] bytes (688 for Falcon-512, 1328 for Falcon-1024: the
//!   bound of the round-3 NIST API).
//! * Key generation derives the key pair from a 48-byte seed (SHAKE256 over it, as the
//!   round-3 reference does), so that PEM files can hold the seed form.
//! * Falcon has no context string, no pre-hash variant and no deterministic signing: asking
//!   for one is an error rather than a silent change of meaning.
//! * Falcon has no NIST object identifier yet; PEM files use the experimental identifiers of
//!   the Open Quantum Safe project (`oqs-provider`): 1.3.9999.3.11 and 1.3.9999.3.14.

use pqlab_falcon::{Error, SEED_LEN, Signature, SigningKey, VerifyingKey};
use zeroize::Zeroizing;

use super::{Adapter, Info, Kind, LibraryKey, SecretKey, SignOptions, SignatureScheme};

/// Falcon of degree `N` (512 or 1024) under its command-line name and object identifier.
pub struct Falcon<const N: usize> {
    name: &'static str,
    oid: &'static str,
}

/// Falcon-512.
pub static FALCON_512: Falcon<512> = Falcon {
    name: "falcon-512",
    oid: "1.3.9999.3.11",
};
/// Falcon-1024.
pub static FALCON_1024: Falcon<1024> = Falcon {
    name: "falcon-1024",
    oid: "1.3.9999.3.14",
};

/// A library error as a message.
fn describe(e: &Error) -> String {
    match e {
        Error::NotInvertible => {
            "not a valid Falcon secret key (f is not invertible modulo q)".to_string()
        }
        Error::CoefficientOutOfRange { what: "secret key" } => {
            "not a valid Falcon secret key (a coefficient is out of range, or the recomputed G \
             is not short)"
                .to_string()
        }
        other => other.to_string(),
    }
}

/// A Falcon secret key with the seed it was generated from, when known.
pub struct FalconKey<const N: usize> {
    key: SigningKey<N>,
    seed: Option<Zeroizing<[u8; SEED_LEN]>>,
}

impl<const N: usize> LibraryKey for FalconKey<N> {
    fn generate() -> Result<Self, String> {
        let mut seed = Zeroizing::new([0u8; SEED_LEN]);
        getrandom::fill(seed.as_mut_slice()).map_err(|e| format!("OS randomness: {e}"))?;
        Self::from_seed(seed.as_slice())
    }

    fn from_seed(seed: &[u8]) -> Result<Self, String> {
        let seed: [u8; SEED_LEN] = seed
            .try_into()
            .map_err(|_| format!("expected a {SEED_LEN}-byte seed"))?;
        let seed = Zeroizing::new(seed);
        Ok(FalconKey {
            key: SigningKey::<N>::generate_from_seed(&seed),
            seed: Some(seed),
        })
    }

    fn from_expanded(expanded: &[u8]) -> Result<Self, String> {
        Ok(FalconKey {
            key: SigningKey::<N>::decode(expanded).map_err(|e| describe(&e))?,
            seed: None,
        })
    }

    fn seed(&self) -> Option<&[u8]> {
        self.seed.as_ref().map(|s| s.as_slice())
    }

    fn expanded(&self) -> Zeroizing<Vec<u8>> {
        let mut out = Zeroizing::new(vec![0u8; SigningKey::<N>::ENCODED_LEN]);
        // The buffer has the encoded length, so encoding cannot fail.
        let _ = self.key.encode(&mut out);
        out
    }

    fn public(&self) -> Vec<u8> {
        let mut out = vec![0u8; VerifyingKey::<N>::ENCODED_LEN];
        let _ = self.key.verifying_key().encode(&mut out);
        out
    }
}

impl<const N: usize> Adapter for Falcon<N> {
    type Key = FalconKey<N>;

    fn info(&self) -> Info {
        Info {
            name: self.name,
            standard: "Falcon round 3 (v1.2)",
            kind: Kind::Signature,
            oid: self.oid,
            public_key_len: VerifyingKey::<N>::ENCODED_LEN,
            secret_key_len: SigningKey::<N>::ENCODED_LEN,
            seed_len: SEED_LEN,
            signature_len: Some(Signature::<N>::MAX_LEN),
            signature_len_is_max: true,
            ciphertext_len: None,
        }
    }

    fn check_public(&self, pk: &[u8]) -> Result<(), String> {
        VerifyingKey::<N>::decode(pk)
            .map(|_| ())
            .map_err(|e| describe(&e))
    }

    fn as_signature(&self) -> Option<&dyn SignatureScheme> {
        Some(self)
    }
}

/// Rejects the ML-DSA options that Falcon does not have.
fn plain_only(name: &str, opts: SignOptions<'_>) -> Result<(), String> {
    if !opts.context.is_empty() {
        return Err(format!("{name} has no context string (--context)"));
    }
    if opts.prehash.is_some() {
        return Err(format!("{name} has no pre-hash variant (--prehash)"));
    }
    Ok(())
}

impl<const N: usize> SignatureScheme for Falcon<N> {
    fn sign(
        &self,
        sk: &SecretKey,
        msg: &[u8],
        opts: SignOptions<'_>,
        deterministic: bool,
    ) -> Result<Vec<u8>, String> {
        plain_only(self.name, opts)?;
        if deterministic {
            return Err(format!(
                "{} has no deterministic signing (--deterministic)",
                self.name
            ));
        }
        // The expanded encoding is always present and is what the key file held.
        let key = FalconKey::<N>::from_expanded(&sk.expanded)?;
        let sig = key.key.sign(msg).map_err(|e| describe(&e))?;
        let mut out = vec![0u8; Signature::<N>::MAX_LEN];
        let len = sig.encode(&mut out).map_err(|e| describe(&e))?;
        out.truncate(len);
        Ok(out)
    }

    /// Only what makes the file a signature of the other Falcon degree: its header byte
    /// (Falcon spec v1.2, Section 3.11: 0x30 + logn), two bits away from this degree's. Any
    /// other signature that does not decode (a flipped header bit, compressed s2 cut short,
    /// non-canonical, out of range, trailing bytes) does not verify (exit status 1).
    fn check_signature(&self, sig: &[u8]) -> Result<(), String> {
        let other: usize = if N == 512 { 1024 } else { 512 };
        match sig.first() {
            Some(&h) if h == 0x30 + other.trailing_zeros() as u8 => Err(format!(
                "a falcon-{other} signature, not {}: header byte {h:#04x}, expected {:#04x}",
                self.name,
                0x30 + N.trailing_zeros() as u8
            )),
            _ => Ok(()),
        }
    }

    fn verify(
        &self,
        pk: &[u8],
        msg: &[u8],
        opts: SignOptions<'_>,
        sig: &[u8],
    ) -> Result<bool, String> {
        plain_only(self.name, opts)?;
        let vk = VerifyingKey::<N>::decode(pk).map_err(|e| describe(&e))?;
        // A malformed encoding does not verify ([`Self::check_signature`]).
        let Ok(sig) = Signature::<N>::decode(sig) else {
            return Ok(false);
        };
        match vk.verify_signature(msg, &sig) {
            Ok(()) => Ok(true),
            Err(Error::InvalidSignature) => Ok(false),
            Err(e) => Err(describe(&e)),
        }
    }
}
