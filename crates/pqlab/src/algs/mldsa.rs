//! ML-DSA (FIPS 204) in the registry: one generic adapter over the parameter-set types of
//! `pqlab-mldsa`.

use core::marker::PhantomData;

use pqlab_mldsa::{
    Error, MlDsa44, MlDsa65, MlDsa87, ParameterSet, Signature, SigningKey, VerifyingKey,
};
use zeroize::Zeroizing;

use super::{Algorithm, Info, KeyPair, Kind, SecretKey, SignOptions, SignatureScheme};

/// The ML-DSA parameter set `P` under its command-line name.
pub struct MlDsa<P> {
    name: &'static str,
    _params: PhantomData<P>,
}

impl<P> MlDsa<P> {
    const fn new(name: &'static str) -> Self {
        MlDsa {
            name,
            _params: PhantomData,
        }
    }
}

/// ML-DSA-44.
pub static ML_DSA_44: MlDsa<MlDsa44> = MlDsa::new("ml-dsa-44");
/// ML-DSA-65.
pub static ML_DSA_65: MlDsa<MlDsa65> = MlDsa::new("ml-dsa-65");
/// ML-DSA-87.
pub static ML_DSA_87: MlDsa<MlDsa87> = MlDsa::new("ml-dsa-87");

/// The library's key as the tool's [`SecretKey`].
fn export<P: ParameterSet>(key: &SigningKey<P>) -> SecretKey {
    SecretKey {
        seed: key.seed().map(|s| Zeroizing::new(s.to_vec())),
        expanded: Zeroizing::new(key.to_expanded().as_ref().to_vec()),
    }
}

/// The library's key for the tool's [`SecretKey`] (from the seed when there is one).
fn import<P: ParameterSet>(sk: &SecretKey) -> Result<SigningKey<P>, String> {
    match &sk.seed {
        Some(seed) => SigningKey::<P>::from_seed_slice(seed),
        None => SigningKey::<P>::from_expanded(&sk.expanded),
    }
    .map_err(|e| describe(&e))
}

/// A library error as a message.
fn describe(e: &Error) -> String {
    match e {
        Error::MalformedSecretKey => {
            "not a valid ML-DSA secret key (a coefficient of s1 or s2 is out of range, \
             or tr does not match)"
                .to_string()
        }
        other => other.to_string(),
    }
}

impl<P: ParameterSet> Algorithm for MlDsa<P> {
    fn info(&self) -> Info {
        Info {
            name: self.name,
            standard: "FIPS 204",
            kind: Kind::Signature,
            oid: P::OID,
            public_key_len: P::PK_LEN,
            secret_key_len: P::SK_LEN,
            seed_len: 32,
            signature_len: Some(P::SIG_LEN),
            ciphertext_len: None,
        }
    }

    fn keygen(&self, seed: Option<&[u8]>) -> Result<KeyPair, String> {
        let key = match seed {
            Some(seed) => SigningKey::<P>::from_seed_slice(seed),
            None => SigningKey::<P>::generate(),
        }
        .map_err(|e| describe(&e))?;
        Ok(KeyPair {
            public: key.verifying_key().as_bytes().to_vec(),
            secret: export(&key),
        })
    }

    fn secret_from_seed(&self, seed: &[u8]) -> Result<SecretKey, String> {
        let key = SigningKey::<P>::from_seed_slice(seed).map_err(|e| describe(&e))?;
        Ok(export(&key))
    }

    fn secret_from_expanded(&self, expanded: &[u8]) -> Result<SecretKey, String> {
        SigningKey::<P>::from_expanded(expanded).map_err(|e| describe(&e))?;
        Ok(SecretKey {
            seed: None,
            expanded: Zeroizing::new(expanded.to_vec()),
        })
    }

    fn public_from_secret(&self, sk: &SecretKey) -> Result<Vec<u8>, String> {
        Ok(import::<P>(sk)?.verifying_key().as_bytes().to_vec())
    }

    fn as_signature(&self) -> Option<&dyn SignatureScheme> {
        Some(self)
    }
}

impl<P: ParameterSet> SignatureScheme for MlDsa<P> {
    fn sign(
        &self,
        sk: &SecretKey,
        msg: &[u8],
        opts: SignOptions<'_>,
        deterministic: bool,
    ) -> Result<Vec<u8>, String> {
        let key = import::<P>(sk)?;
        let sig = match (opts.prehash, deterministic) {
            (None, false) => key.sign(msg, opts.context),
            (None, true) => key.sign_deterministic(msg, opts.context),
            (Some(h), false) => key.sign_prehash(msg, opts.context, h),
            (Some(h), true) => key.sign_prehash_with_rnd(msg, opts.context, h, &[0u8; 32]),
        }
        .map_err(|e| describe(&e))?;
        Ok(sig.as_bytes().to_vec())
    }

    fn verify(
        &self,
        pk: &[u8],
        msg: &[u8],
        opts: SignOptions<'_>,
        sig: &[u8],
    ) -> Result<bool, String> {
        let vk = VerifyingKey::<P>::from_bytes(pk).map_err(|e| describe(&e))?;
        let sig = Signature::<P>::from_bytes(sig).map_err(|e| describe(&e))?;
        let verdict = match opts.prehash {
            None => vk.verify(msg, opts.context, &sig),
            Some(h) => vk.verify_prehash(msg, opts.context, h, &sig),
        };
        match verdict {
            Ok(()) => Ok(true),
            Err(Error::InvalidSignature) => Ok(false),
            Err(e) => Err(describe(&e)),
        }
    }
}
