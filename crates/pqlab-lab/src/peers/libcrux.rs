//! Cryspen's `libcrux-ml-dsa` and `libcrux-ml-kem` 0.0.11 (formally verified; portable, AVX2
//! and NEON back ends chosen at run time). Keys in the standard's encodings (the expanded
//! secret key), so that the cross-check exchanges them with pqlab directly.

use super::{bad, seed};
use crate::LabError;
use crate::registry::{
    Decapsulator, Encapsulator, Entry, ImplInfo, KemImpl, KeyPair, Kind, SignatureImpl, Signer,
    Verifier,
};

const IMP: &str = "libcrux";

/// A libcrux key of either kind.
struct Key<K>(K);

macro_rules! dsa {
    ($ty:ident, $m:ident, $alg:literal, $pk:literal, $sk:literal, $sig:literal) => {
        struct $ty;

        impl SignatureImpl for $ty {
            fn info(&self) -> ImplInfo {
                ImplInfo {
                    implementation: IMP,
                    alg: $alg,
                    kind: Kind::Signature,
                    standard: "FIPS 204",
                    public_key: $pk,
                    secret_key: $sk,
                    signature: Some($sig),
                    ciphertext: None,
                }
            }

            fn keygen(&self, out: &mut KeyPair) -> Result<(), LabError> {
                let kp = libcrux_ml_dsa::$m::generate_key_pair(seed()?);
                out.set(kp.verification_key.as_slice(), kp.signing_key.as_slice());
                Ok(())
            }

            fn signer(&self, secret: &[u8]) -> Result<Box<dyn Signer>, LabError> {
                let sk: [u8; $sk] = secret.try_into().map_err(|_| bad("secret key"))?;
                Ok(Box::new(Key(libcrux_ml_dsa::MLDSASigningKey::new(sk))))
            }

            fn verifier(&self, public: &[u8]) -> Result<Box<dyn Verifier>, LabError> {
                let pk: [u8; $pk] = public.try_into().map_err(|_| bad("public key"))?;
                Ok(Box::new(Key(libcrux_ml_dsa::MLDSAVerificationKey::new(pk))))
            }
        }

        impl Signer for Key<libcrux_ml_dsa::MLDSASigningKey<$sk>> {
            fn sign(&self, msg: &[u8], out: &mut Vec<u8>) -> Result<(), LabError> {
                let sig = libcrux_ml_dsa::$m::sign(&self.0, msg, &[], seed()?)
                    .map_err(|e| LabError::Implementation(format!("libcrux: {e:?}")))?;
                out.clear();
                out.extend_from_slice(sig.as_slice());
                Ok(())
            }
        }

        impl Verifier for Key<libcrux_ml_dsa::MLDSAVerificationKey<$pk>> {
            fn verify(&self, msg: &[u8], sig: &[u8]) -> bool {
                <[u8; $sig]>::try_from(sig).is_ok_and(|s| {
                    let s = libcrux_ml_dsa::MLDSASignature::new(s);
                    libcrux_ml_dsa::$m::verify(&self.0, msg, &[], &s).is_ok()
                })
            }
        }
    };
}

macro_rules! kem {
    ($ty:ident, $m:ident, $alg:literal, $pk:literal, $sk:literal, $ct:literal) => {
        struct $ty;

        impl KemImpl for $ty {
            fn info(&self) -> ImplInfo {
                ImplInfo {
                    implementation: IMP,
                    alg: $alg,
                    kind: Kind::Kem,
                    standard: "FIPS 203",
                    public_key: $pk,
                    secret_key: $sk,
                    signature: None,
                    ciphertext: Some($ct),
                }
            }

            fn keygen(&self, out: &mut KeyPair) -> Result<(), LabError> {
                let kp = libcrux_ml_kem::$m::generate_key_pair(seed()?);
                out.set(kp.public_key().as_slice(), kp.private_key().as_slice());
                Ok(())
            }

            fn encapsulator(&self, public: &[u8]) -> Result<Box<dyn Encapsulator>, LabError> {
                let pk: [u8; $pk] = public.try_into().map_err(|_| bad("encapsulation key"))?;
                Ok(Box::new(Key(libcrux_ml_kem::MlKemPublicKey::from(pk))))
            }

            fn decapsulator(&self, secret: &[u8]) -> Result<Box<dyn Decapsulator>, LabError> {
                let sk: [u8; $sk] = secret.try_into().map_err(|_| bad("decapsulation key"))?;
                Ok(Box::new(Key(libcrux_ml_kem::MlKemPrivateKey::from(sk))))
            }
        }

        impl Encapsulator for Key<libcrux_ml_kem::MlKemPublicKey<$pk>> {
            fn encaps(&self, ct: &mut Vec<u8>, ss: &mut [u8; 32]) -> Result<(), LabError> {
                let (c, k) = libcrux_ml_kem::$m::encapsulate(&self.0, seed()?);
                ct.clear();
                ct.extend_from_slice(c.as_slice());
                ss.copy_from_slice(&k);
                Ok(())
            }
        }

        impl Decapsulator for Key<libcrux_ml_kem::MlKemPrivateKey<$sk>> {
            fn decaps(&self, ct: &[u8], ss: &mut [u8; 32]) -> Result<(), LabError> {
                let c: [u8; $ct] = ct.try_into().map_err(|_| bad("ciphertext"))?;
                let c = libcrux_ml_kem::MlKemCiphertext::from(c);
                ss.copy_from_slice(&libcrux_ml_kem::$m::decapsulate(&self.0, &c));
                Ok(())
            }
        }
    };
}

dsa!(Dsa44, ml_dsa_44, "ml-dsa-44", 1312, 2560, 2420);
dsa!(Dsa65, ml_dsa_65, "ml-dsa-65", 1952, 4032, 3309);
dsa!(Dsa87, ml_dsa_87, "ml-dsa-87", 2592, 4896, 4627);
kem!(Kem512, mlkem512, "ml-kem-512", 800, 1632, 768);
kem!(Kem768, mlkem768, "ml-kem-768", 1184, 2400, 1088);
kem!(Kem1024, mlkem1024, "ml-kem-1024", 1568, 3168, 1568);

/// The libcrux peers, in report order.
pub(crate) fn entries() -> Vec<Entry> {
    vec![
        Entry::Signature(&Dsa44),
        Entry::Signature(&Dsa65),
        Entry::Signature(&Dsa87),
        Entry::Kem(&Kem512),
        Entry::Kem(&Kem768),
        Entry::Kem(&Kem1024),
    ]
}
