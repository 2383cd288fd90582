//! Other implementations, measured beside pqlab's with the `peers` feature:
//!
//! * `rustcrypto`: RustCrypto's `ml-dsa` and `ml-kem` crates (pure Rust);
//! * `pqcrypto`: `pqcrypto-mldsa`, `pqcrypto-mlkem` and `pqcrypto-falcon`, PQClean's C code
//!   (the portable `clean` variants, or AVX2 where the crate picks it);
//! * `libcrux`: Cryspen's formally verified `libcrux-ml-dsa` and `libcrux-ml-kem`
//!   ([`libcrux`]);
//! * `fn-dsa`: Thomas Pornin's `fn-dsa` crate, FN-DSA as the draft stands ([`falcon`]);
//! * `liboqs`: Open Quantum Safe's liboqs (C, AVX2 picked at run time) through the `oqs` crate:
//!   ML-DSA, ML-KEM and Falcon round 3 ([`oqs`]; its build needs cmake and libclang, see
//!   `.ci/peers-deps`);
//! * `aws-lc-rs`: AWS-LC's ML-DSA and ML-KEM (C and assembly) through `aws-lc-rs` ([`awslc`]).
//!
//! Each peer goes through the same cross-check as any other before it is timed (`check.rs`).
//! Secret keys stay in each peer's own form (RustCrypto: the seed); only public keys,
//! signatures and ciphertexts cross between implementations.

mod awslc;
pub(crate) mod cctv;
pub(crate) mod falcon;
mod libcrux;
mod oqs;

use getrandom::SysRng;
use ml_dsa as rcdsa;
use ml_kem as rckem;
use pqcrypto_traits::kem::{Ciphertext as _, PublicKey as _, SecretKey as _, SharedSecret as _};
use pqcrypto_traits::sign::{DetachedSignature as _, PublicKey as _, SecretKey as _};
use rand_core::UnwrapErr;

use crate::LabError;
use crate::registry::{
    Decapsulator, Encapsulator, Entry, ImplInfo, KemImpl, KeyPair, Kind, SignatureImpl, Signer,
    Verifier,
};

pub(crate) fn bad(what: &str) -> LabError {
    LabError::Implementation(format!("malformed {what}"))
}

pub(crate) fn seed<const N: usize>() -> Result<[u8; N], LabError> {
    let mut s = [0u8; N];
    getrandom::fill(&mut s).map_err(|e| LabError::Implementation(format!("OS randomness: {e}")))?;
    Ok(s)
}

/// The operating system's generator for the peers' randomized operations (it panics if the OS
/// cannot supply randomness, which the peers' infallible interfaces leave no other way to say).
fn os_rng() -> UnwrapErr<SysRng> {
    UnwrapErr(SysRng)
}

// --- RustCrypto ml-dsa ---------------------------------------------------------------------

/// RustCrypto `ml-dsa` at parameter set `Q`, sizes taken from pqlab's `P`.
struct RcDsa<Q, P>(&'static str, core::marker::PhantomData<(Q, P)>);

impl<Q, P> SignatureImpl for RcDsa<Q, P>
where
    Q: rcdsa::MlDsaParams + Send + Sync + 'static,
    P: pqlab_mldsa::ParameterSet + Send + Sync,
{
    fn info(&self) -> ImplInfo {
        ImplInfo {
            implementation: "rustcrypto",
            alg: self.0,
            kind: Kind::Signature,
            standard: "FIPS 204",
            public_key: P::PK_LEN,
            secret_key: P::SK_LEN,
            signature: Some(P::SIG_LEN),
            ciphertext: None,
        }
    }

    fn keygen(&self, out: &mut KeyPair) -> Result<(), LabError> {
        let xi = seed::<32>()?;
        let sk = rcdsa::SigningKey::<Q>::from_seed(&rcdsa::Seed::from(xi));
        let vk = rcdsa::Keypair::verifying_key(&sk).encode();
        out.set(vk.as_slice(), &xi);
        Ok(())
    }

    fn signer(&self, secret: &[u8]) -> Result<Box<dyn Signer>, LabError> {
        let xi: [u8; 32] = secret.try_into().map_err(|_| bad("ml-dsa seed"))?;
        Ok(Box::new(RcDsaSigner(
            rcdsa::ExpandedSigningKey::<Q>::from_seed(&rcdsa::Seed::from(xi)),
        )))
    }

    fn verifier(&self, public: &[u8]) -> Result<Box<dyn Verifier>, LabError> {
        let enc =
            rcdsa::EncodedVerifyingKey::<Q>::try_from(public).map_err(|_| bad("public key"))?;
        Ok(Box::new(RcDsaVerifier(rcdsa::VerifyingKey::<Q>::decode(
            &enc,
        ))))
    }
}

struct RcDsaSigner<Q: rcdsa::MlDsaParams>(rcdsa::ExpandedSigningKey<Q>);
struct RcDsaVerifier<Q: rcdsa::MlDsaParams>(rcdsa::VerifyingKey<Q>);

impl<Q: rcdsa::MlDsaParams + Send + Sync> Signer for RcDsaSigner<Q> {
    fn sign(&self, msg: &[u8], out: &mut Vec<u8>) -> Result<(), LabError> {
        let sig = self
            .0
            .sign_randomized(msg, &[], &mut os_rng())
            .map_err(|e| LabError::Implementation(format!("ml-dsa: {e}")))?;
        out.clear();
        out.extend_from_slice(sig.encode().as_slice());
        Ok(())
    }
}

impl<Q: rcdsa::MlDsaParams + Send + Sync> Verifier for RcDsaVerifier<Q> {
    fn verify(&self, msg: &[u8], sig: &[u8]) -> bool {
        rcdsa::Signature::<Q>::try_from(sig).is_ok_and(|s| self.0.verify_with_context(msg, &[], &s))
    }
}

// --- RustCrypto ml-kem (concrete types: its generic bounds are long to spell) ---------------

macro_rules! rc_kem {
    ($name:ident, $alg:literal, $q:ty, $p:ty) => {
        struct $name;

        impl KemImpl for $name {
            fn info(&self) -> ImplInfo {
                use pqlab_mlkem::ParameterSet as _;
                ImplInfo {
                    implementation: "rustcrypto",
                    alg: $alg,
                    kind: Kind::Kem,
                    standard: "FIPS 203",
                    public_key: <$p>::EK_LEN,
                    secret_key: <$p>::DK_LEN,
                    signature: None,
                    ciphertext: Some(<$p>::CT_LEN),
                }
            }

            fn keygen(&self, out: &mut KeyPair) -> Result<(), LabError> {
                use rckem::KeyExport as _;
                let s = seed::<64>()?;
                let dk = rckem::DecapsulationKey::<$q>::from_seed(s.into());
                out.set(dk.encapsulation_key().to_bytes().as_slice(), &s);
                Ok(())
            }

            fn encapsulator(&self, public: &[u8]) -> Result<Box<dyn Encapsulator>, LabError> {
                let key = rckem::Key::<rckem::EncapsulationKey<$q>>::try_from(public)
                    .map_err(|_| bad("encapsulation key"))?;
                let ek = rckem::EncapsulationKey::<$q>::new(&key)
                    .map_err(|_| bad("encapsulation key"))?;
                Ok(Box::new(RcKemEnc(ek)))
            }

            fn decapsulator(&self, secret: &[u8]) -> Result<Box<dyn Decapsulator>, LabError> {
                let s: [u8; 64] = secret.try_into().map_err(|_| bad("ml-kem seed"))?;
                Ok(Box::new(RcKemDec(
                    rckem::DecapsulationKey::<$q>::from_seed(s.into()),
                )))
            }
        }

        impl Encapsulator for RcKemEnc<rckem::EncapsulationKey<$q>> {
            fn encaps(&self, ct: &mut Vec<u8>, ss: &mut [u8; 32]) -> Result<(), LabError> {
                use rckem::Encapsulate as _;
                let (c, k) = self.0.encapsulate_with_rng(&mut os_rng());
                ct.clear();
                ct.extend_from_slice(c.as_slice());
                ss.copy_from_slice(k.as_slice());
                Ok(())
            }
        }

        impl Decapsulator for RcKemDec<rckem::DecapsulationKey<$q>> {
            fn decaps(&self, ct: &[u8], ss: &mut [u8; 32]) -> Result<(), LabError> {
                use rckem::Decapsulate as _;
                let c = rckem::Ciphertext::<$q>::try_from(ct).map_err(|_| bad("ciphertext"))?;
                ss.copy_from_slice(self.0.decapsulate(&c).as_slice());
                Ok(())
            }
        }
    };
}

struct RcKemEnc<K>(K);
struct RcKemDec<K>(K);

rc_kem!(
    RcKem512,
    "ml-kem-512",
    rckem::MlKem512,
    pqlab_mlkem::MlKem512
);
rc_kem!(
    RcKem768,
    "ml-kem-768",
    rckem::MlKem768,
    pqlab_mlkem::MlKem768
);
rc_kem!(
    RcKem1024,
    "ml-kem-1024",
    rckem::MlKem1024,
    pqlab_mlkem::MlKem1024
);

// --- pqcrypto (PQClean C) ------------------------------------------------------------------

/// A pqcrypto key of either kind.
struct PqcKey<K>(K);

macro_rules! pqc_sig {
    ($name:ident, $alg:literal, $c:ident :: $m:ident) => {
        struct $name;

        impl SignatureImpl for $name {
            fn info(&self) -> ImplInfo {
                ImplInfo {
                    implementation: "pqcrypto",
                    alg: $alg,
                    kind: Kind::Signature,
                    standard: "FIPS 204",
                    public_key: $c::$m::public_key_bytes(),
                    secret_key: $c::$m::secret_key_bytes(),
                    signature: Some($c::$m::signature_bytes()),
                    ciphertext: None,
                }
            }

            fn keygen(&self, out: &mut KeyPair) -> Result<(), LabError> {
                let (pk, sk) = $c::$m::keypair();
                out.set(pk.as_bytes(), sk.as_bytes());
                Ok(())
            }

            fn signer(&self, secret: &[u8]) -> Result<Box<dyn Signer>, LabError> {
                let sk = $c::$m::SecretKey::from_bytes(secret).map_err(|_| bad("secret key"))?;
                Ok(Box::new(PqcKey(sk)))
            }

            fn verifier(&self, public: &[u8]) -> Result<Box<dyn Verifier>, LabError> {
                let pk = $c::$m::PublicKey::from_bytes(public).map_err(|_| bad("public key"))?;
                Ok(Box::new(PqcKey(pk)))
            }
        }

        impl Signer for PqcKey<$c::$m::SecretKey> {
            fn sign(&self, msg: &[u8], out: &mut Vec<u8>) -> Result<(), LabError> {
                let sig = $c::$m::detached_sign(msg, &self.0);
                out.clear();
                out.extend_from_slice(sig.as_bytes());
                Ok(())
            }
        }

        impl Verifier for PqcKey<$c::$m::PublicKey> {
            fn verify(&self, msg: &[u8], sig: &[u8]) -> bool {
                $c::$m::DetachedSignature::from_bytes(sig)
                    .is_ok_and(|s| $c::$m::verify_detached_signature(&s, msg, &self.0).is_ok())
            }
        }
    };
}

macro_rules! pqc_kem {
    ($name:ident, $alg:literal, $c:ident :: $m:ident) => {
        struct $name;

        impl KemImpl for $name {
            fn info(&self) -> ImplInfo {
                ImplInfo {
                    implementation: "pqcrypto",
                    alg: $alg,
                    kind: Kind::Kem,
                    standard: "FIPS 203",
                    public_key: $c::$m::public_key_bytes(),
                    secret_key: $c::$m::secret_key_bytes(),
                    signature: None,
                    ciphertext: Some($c::$m::ciphertext_bytes()),
                }
            }

            fn keygen(&self, out: &mut KeyPair) -> Result<(), LabError> {
                let (pk, sk) = $c::$m::keypair();
                out.set(pk.as_bytes(), sk.as_bytes());
                Ok(())
            }

            fn encapsulator(&self, public: &[u8]) -> Result<Box<dyn Encapsulator>, LabError> {
                let pk = $c::$m::PublicKey::from_bytes(public).map_err(|_| bad("public key"))?;
                Ok(Box::new(PqcKey(pk)))
            }

            fn decapsulator(&self, secret: &[u8]) -> Result<Box<dyn Decapsulator>, LabError> {
                let sk = $c::$m::SecretKey::from_bytes(secret).map_err(|_| bad("secret key"))?;
                Ok(Box::new(PqcKey(sk)))
            }
        }

        impl Encapsulator for PqcKey<$c::$m::PublicKey> {
            fn encaps(&self, ct: &mut Vec<u8>, ss: &mut [u8; 32]) -> Result<(), LabError> {
                let (k, c) = $c::$m::encapsulate(&self.0);
                ct.clear();
                ct.extend_from_slice(c.as_bytes());
                ss.copy_from_slice(k.as_bytes());
                Ok(())
            }
        }

        impl Decapsulator for PqcKey<$c::$m::SecretKey> {
            fn decaps(&self, ct: &[u8], ss: &mut [u8; 32]) -> Result<(), LabError> {
                let c = $c::$m::Ciphertext::from_bytes(ct).map_err(|_| bad("ciphertext"))?;
                ss.copy_from_slice($c::$m::decapsulate(&c, &self.0).as_bytes());
                Ok(())
            }
        }
    };
}

pqc_sig!(PqcDsa44, "ml-dsa-44", pqcrypto_mldsa::mldsa44);
pqc_sig!(PqcDsa65, "ml-dsa-65", pqcrypto_mldsa::mldsa65);
pqc_sig!(PqcDsa87, "ml-dsa-87", pqcrypto_mldsa::mldsa87);
pqc_kem!(PqcKem512, "ml-kem-512", pqcrypto_mlkem::mlkem512);
pqc_kem!(PqcKem768, "ml-kem-768", pqcrypto_mlkem::mlkem768);
pqc_kem!(PqcKem1024, "ml-kem-1024", pqcrypto_mlkem::mlkem1024);

static RC_DSA_44: RcDsa<rcdsa::MlDsa44, pqlab_mldsa::MlDsa44> =
    RcDsa("ml-dsa-44", core::marker::PhantomData);
static RC_DSA_65: RcDsa<rcdsa::MlDsa65, pqlab_mldsa::MlDsa65> =
    RcDsa("ml-dsa-65", core::marker::PhantomData);
static RC_DSA_87: RcDsa<rcdsa::MlDsa87, pqlab_mldsa::MlDsa87> =
    RcDsa("ml-dsa-87", core::marker::PhantomData);

/// The peers, in report order.
pub(crate) fn entries() -> Vec<Entry> {
    vec![
        Entry::Signature(&RC_DSA_44),
        Entry::Signature(&PqcDsa44),
        Entry::Signature(&RC_DSA_65),
        Entry::Signature(&PqcDsa65),
        Entry::Signature(&RC_DSA_87),
        Entry::Signature(&PqcDsa87),
        Entry::Kem(&RcKem512),
        Entry::Kem(&PqcKem512),
        Entry::Kem(&RcKem768),
        Entry::Kem(&PqcKem768),
        Entry::Kem(&RcKem1024),
        Entry::Kem(&PqcKem1024),
    ]
    .into_iter()
    .chain(falcon::entries())
    .chain(libcrux::entries())
    .chain(oqs::entries())
    .chain(awslc::entries())
    .collect()
}

#[cfg(test)]
mod tests {
    use crate::registry::{self, Kind};

    /// liboqs and aws-lc-rs are registered for each of their algorithms, with the sizes of
    /// pqlab's entry of the same algorithm (Falcon: the public key).
    #[test]
    fn the_registry_lists_liboqs_and_aws_lc_rs() {
        let peers = registry::peers();
        let ours = registry::ours();
        let mldsa_mlkem = [
            "ml-dsa-44",
            "ml-dsa-65",
            "ml-dsa-87",
            "ml-kem-512",
            "ml-kem-768",
            "ml-kem-1024",
        ];
        for (imp, algs) in [
            (
                "liboqs",
                &[&mldsa_mlkem[..], &["falcon-512", "falcon-1024"]].concat(),
            ),
            ("aws-lc-rs", &mldsa_mlkem.to_vec()),
        ] {
            let listed: Vec<&str> = peers
                .iter()
                .map(|e| e.info())
                .filter(|i| i.implementation == imp)
                .map(|i| i.alg)
                .collect();
            assert_eq!(listed.len(), algs.len(), "{imp}: {listed:?}");
            for alg in algs {
                assert!(listed.contains(alg), "{imp} does not list {alg}");
                let peer = peers
                    .iter()
                    .map(|e| e.info())
                    .find(|i| i.implementation == imp && i.alg == *alg)
                    .unwrap();
                let our = ours
                    .iter()
                    .map(|e| e.info())
                    .find(|i| i.alg == *alg && i.implementation == "pqlab")
                    .unwrap();
                assert_eq!(peer.kind, our.kind, "{imp} {alg}");
                assert_eq!(peer.public_key, our.public_key, "{imp} {alg}");
                // Falcon's signatures vary in length, and the maximum each states differs
                // (liboqs: PQClean's 752 / 1462 bytes).
                if !alg.starts_with("falcon") {
                    assert_eq!(peer.signature, our.signature, "{imp} {alg}");
                }
                assert_eq!(peer.ciphertext, our.ciphertext, "{imp} {alg}");
                assert_eq!(peer.kind == Kind::Kem, alg.starts_with("ml-kem"));
            }
        }
    }
}
