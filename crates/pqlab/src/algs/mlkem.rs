//! ML-KEM (FIPS 203) in the registry: one generic adapter over the parameter-set types of
//! `pqlab-mlkem`.

use core::marker::PhantomData;

use pqlab_mlkem::{
    Ciphertext, DecapsulationKey, EncapsulationKey, Error, MlKem512, MlKem768, MlKem1024,
    ParameterSet, SEED_LEN,
};
use zeroize::{Zeroize, Zeroizing};

use super::{Adapter, Info, KemScheme, Kind, LibraryKey, SecretKey};

/// The ML-KEM parameter set `P` under its command-line name.
pub struct MlKem<P> {
    name: &'static str,
    _params: PhantomData<P>,
}

impl<P> MlKem<P> {
    const fn new(name: &'static str) -> Self {
        MlKem {
            name,
            _params: PhantomData,
        }
    }
}

/// ML-KEM-512.
pub static ML_KEM_512: MlKem<MlKem512> = MlKem::new("ml-kem-512");
/// ML-KEM-768.
pub static ML_KEM_768: MlKem<MlKem768> = MlKem::new("ml-kem-768");
/// ML-KEM-1024.
pub static ML_KEM_1024: MlKem<MlKem1024> = MlKem::new("ml-kem-1024");

/// The message for a failed modulus check of an encapsulation key.
const MODULUS: &str = "coefficient >= q (modulus check of FIPS 203, section 7.2 failed)";

/// A library error about an encapsulation key as a message.
fn describe_ek(e: &Error) -> String {
    match e {
        Error::ModulusCheck => MODULUS.to_string(),
        other => other.to_string(),
    }
}

/// A library error about a decapsulation key as a message.
fn describe_dk(e: &Error) -> String {
    match e {
        Error::HashCheck => "the stored H(ek) does not match the embedded encapsulation key \
                             (hash check of FIPS 203, section 7.3 failed)"
            .to_string(),
        Error::ModulusCheck => format!("the embedded encapsulation key has a {MODULUS}"),
        other => other.to_string(),
    }
}

impl<P: ParameterSet> LibraryKey for DecapsulationKey<P> {
    fn generate() -> Result<Self, String> {
        DecapsulationKey::<P>::generate().map_err(|e| describe_dk(&e))
    }

    fn from_seed(seed: &[u8]) -> Result<Self, String> {
        DecapsulationKey::<P>::from_seed_bytes(seed).map_err(|e| describe_dk(&e))
    }

    fn from_expanded(expanded: &[u8]) -> Result<Self, String> {
        DecapsulationKey::<P>::from_expanded(expanded).map_err(|e| describe_dk(&e))
    }

    fn seed(&self) -> Option<&[u8]> {
        DecapsulationKey::<P>::seed(self).map(|s| &s[..])
    }

    fn expanded(&self) -> Zeroizing<Vec<u8>> {
        let mut dk = self.to_expanded();
        let out = Zeroizing::new(dk.as_ref().to_vec());
        dk.as_mut().zeroize();
        out
    }

    fn public(&self) -> Vec<u8> {
        self.encapsulation_key().as_bytes().to_vec()
    }
}

impl<P: ParameterSet> Adapter for MlKem<P> {
    type Key = DecapsulationKey<P>;

    fn info(&self) -> Info {
        Info {
            name: self.name,
            standard: "FIPS 203",
            kind: Kind::Kem,
            oid: P::OID,
            public_key_len: P::EK_LEN,
            secret_key_len: P::DK_LEN,
            seed_len: SEED_LEN,
            signature_len: None,
            signature_len_is_max: false,
            ciphertext_len: Some(P::CT_LEN),
        }
    }

    fn check_public(&self, pk: &[u8]) -> Result<(), String> {
        EncapsulationKey::<P>::from_bytes(pk)
            .map(|_| ())
            .map_err(|e| describe_ek(&e))
    }

    fn as_kem(&self) -> Option<&dyn KemScheme> {
        Some(self)
    }
}

impl<P: ParameterSet> KemScheme for MlKem<P> {
    fn encapsulate(&self, ek: &[u8]) -> Result<(Vec<u8>, Zeroizing<Vec<u8>>), String> {
        let ek = EncapsulationKey::<P>::from_bytes(ek).map_err(|e| describe_ek(&e))?;
        let (ct, ss) = ek.encapsulate().map_err(|e| describe_ek(&e))?;
        Ok((
            ct.as_bytes().to_vec(),
            Zeroizing::new(ss.as_bytes().to_vec()),
        ))
    }

    fn decapsulate(&self, sk: &SecretKey, ct: &[u8]) -> Result<Zeroizing<Vec<u8>>, String> {
        let dk = DecapsulationKey::<P>::import(sk)?;
        let ct = Ciphertext::<P>::from_bytes(ct).map_err(|e| e.to_string())?;
        let ss = dk.decapsulate(&ct);
        Ok(Zeroizing::new(ss.as_bytes().to_vec()))
    }
}
