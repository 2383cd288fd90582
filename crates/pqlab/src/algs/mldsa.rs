//! ML-DSA (FIPS 204) in the registry: one generic adapter over the parameter-set types of
//! `pqlab-mldsa`.

use core::marker::PhantomData;

use pqlab_mldsa::{
    Error, MlDsa44, MlDsa65, MlDsa87, ParameterSet, Signature, SigningKey, VerifyingKey,
};
use zeroize::{Zeroize, Zeroizing};

use super::{Adapter, Info, Kind, LibraryKey, SecretKey, SignOptions, SignatureScheme};

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

impl<P: ParameterSet> LibraryKey for SigningKey<P> {
    fn generate() -> Result<Self, String> {
        SigningKey::<P>::generate().map_err(|e| describe(&e))
    }

    fn from_seed(seed: &[u8]) -> Result<Self, String> {
        SigningKey::<P>::from_seed_slice(seed).map_err(|e| describe(&e))
    }

    fn from_expanded(expanded: &[u8]) -> Result<Self, String> {
        SigningKey::<P>::from_expanded(expanded).map_err(|e| describe(&e))
    }

    fn seed(&self) -> Option<&[u8]> {
        SigningKey::seed(self).map(|s| &s[..])
    }

    fn expanded(&self) -> Zeroizing<Vec<u8>> {
        let mut sk = self.to_expanded();
        let out = Zeroizing::new(sk.as_ref().to_vec());
        sk.as_mut().zeroize();
        out
    }

    fn public(&self) -> Vec<u8> {
        self.verifying_key().as_bytes().to_vec()
    }
}

impl<P: ParameterSet> Adapter for MlDsa<P> {
    type Key = SigningKey<P>;

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
            signature_len_is_max: false,
            ciphertext_len: None,
        }
    }

    fn check_public(&self, pk: &[u8]) -> Result<(), String> {
        // Every byte string of the right length is a pkEncode output.
        VerifyingKey::<P>::from_bytes(pk)
            .map(|_| ())
            .map_err(|e| describe(&e))
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
        let key = SigningKey::<P>::import(sk)?;
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
