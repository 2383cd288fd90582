//! pqlab's own schemes in the registry: one generic adapter per scheme over the parameter-set
//! types of its crate (Falcon in [`falcon`]).

pub mod cctv;
pub mod falcon;

use core::marker::PhantomData;

use pqlab_mldsa::{ExpandedSigningKey, MlDsa44, MlDsa65, MlDsa87, SigningKey, VerifyingKey};
use pqlab_mlkem::{Ciphertext, DecapsulationKey, EncapsulationKey, MlKem512, MlKem768, MlKem1024};

use crate::LabError;
use crate::registry::{
    Decapsulator, Encapsulator, Entry, ImplInfo, KemImpl, KeyPair, Kind, Op, SignatureImpl, Signer,
    Verifier,
};

/// The implementation name of pqlab's own code in reports.
pub const PQLAB: &str = "pqlab";

/// ML-DSA parameter set `P` of `pqlab-mldsa` under its command-line name; when the flag is
/// set, the `expanded key` variant (signing only, with an [`ExpandedSigningKey`]).
pub struct MlDsa<P>(&'static str, bool, PhantomData<P>);
/// ML-KEM parameter set `P` of `pqlab-mlkem` under its command-line name.
pub struct MlKem<P>(&'static str, PhantomData<P>);

static ML_DSA_44: MlDsa<MlDsa44> = MlDsa("ml-dsa-44", false, PhantomData);
static ML_DSA_44_EXPANDED: MlDsa<MlDsa44> = MlDsa("ml-dsa-44", true, PhantomData);
static ML_DSA_65: MlDsa<MlDsa65> = MlDsa("ml-dsa-65", false, PhantomData);
static ML_DSA_65_EXPANDED: MlDsa<MlDsa65> = MlDsa("ml-dsa-65", true, PhantomData);
static ML_DSA_87: MlDsa<MlDsa87> = MlDsa("ml-dsa-87", false, PhantomData);
static ML_DSA_87_EXPANDED: MlDsa<MlDsa87> = MlDsa("ml-dsa-87", true, PhantomData);
static FALCON_512: falcon::Falcon<512> = falcon::Falcon::plain("falcon-512");
static FALCON_512_EXPANDED: falcon::Falcon<512> = falcon::Falcon::expanded("falcon-512");
static FALCON_1024: falcon::Falcon<1024> = falcon::Falcon::plain("falcon-1024");
static FALCON_1024_EXPANDED: falcon::Falcon<1024> = falcon::Falcon::expanded("falcon-1024");
static ML_KEM_512: MlKem<MlKem512> = MlKem("ml-kem-512", PhantomData);
static ML_KEM_768: MlKem<MlKem768> = MlKem("ml-kem-768", PhantomData);
static ML_KEM_1024: MlKem<MlKem1024> = MlKem("ml-kem-1024", PhantomData);

/// pqlab's entries, in report order (a variant after its plain entry).
pub(crate) static ENTRIES: &[Entry] = &[
    Entry::Signature(&ML_DSA_44),
    Entry::Signature(&ML_DSA_44_EXPANDED),
    Entry::Signature(&ML_DSA_65),
    Entry::Signature(&ML_DSA_65_EXPANDED),
    Entry::Signature(&ML_DSA_87),
    Entry::Signature(&ML_DSA_87_EXPANDED),
    Entry::Signature(&FALCON_512),
    Entry::Signature(&FALCON_512_EXPANDED),
    Entry::Signature(&FALCON_1024),
    Entry::Signature(&FALCON_1024_EXPANDED),
    Entry::Kem(&ML_KEM_512),
    Entry::Kem(&ML_KEM_768),
    Entry::Kem(&ML_KEM_1024),
];

pub(crate) fn lib_err(e: impl core::fmt::Display) -> LabError {
    LabError::Implementation(e.to_string())
}

impl<P: pqlab_mldsa::ParameterSet + Sync + Send> SignatureImpl for MlDsa<P> {
    fn info(&self) -> ImplInfo {
        ImplInfo {
            implementation: PQLAB,
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
        // FIPS 204, Algorithm 1: ML-DSA.KeyGen (xi from the OS, as SigningKey::generate draws
        // it) through the encoded-key API: pk and sk encoded into the caller's buffers, as the
        // peers' keygen outputs them (a VerifyingKey would add the NTT of t1, which only
        // verification needs; keys returned by value would add their size in stack per move).
        let mut xi = [0u8; 32];
        getrandom::fill(&mut xi)
            .map_err(|e| LabError::Implementation(format!("OS randomness: {e}")))?;
        out.public.resize(P::PK_LEN, 0);
        out.secret.resize(P::SK_LEN, 0);
        let r = pqlab_mldsa::key_gen_encoded::<P>(&xi, &mut out.public, &mut out.secret);
        pqlab_arith::wipe::wipe(&mut xi);
        r.map_err(lib_err)
    }

    fn signer(&self, secret: &[u8]) -> Result<Box<dyn Signer>, LabError> {
        let sk = SigningKey::<P>::from_expanded(secret).map_err(lib_err)?;
        if self.1 {
            Ok(Box::new(ExpandedSigningKey::new(sk)))
        } else {
            Ok(Box::new(sk))
        }
    }

    fn variant(&self) -> Option<&'static str> {
        self.1.then_some(falcon::EXPANDED_VARIANT)
    }

    fn measures(&self, op: Op) -> bool {
        !self.1 || op == Op::Sign
    }

    fn verifier(&self, public: &[u8]) -> Result<Box<dyn Verifier>, LabError> {
        Ok(Box::new(
            VerifyingKey::<P>::from_bytes(public).map_err(lib_err)?,
        ))
    }
}

impl<P: pqlab_mldsa::ParameterSet> Signer for SigningKey<P> {
    fn sign(&self, msg: &[u8], out: &mut Vec<u8>) -> Result<(), LabError> {
        self.sign_counting(msg, out).map(|_| ())
    }

    fn sign_counting(&self, msg: &[u8], out: &mut Vec<u8>) -> Result<Option<u32>, LabError> {
        // The signature read where sign_counted returned it: map_err, `?` or a destructuring
        // `let` would each move it (kilobytes of stack) once more.
        let signed = SigningKey::sign_counted(self, msg, &[]);
        match &signed {
            Ok((sig, loops)) => {
                out.clear();
                out.extend_from_slice(sig.as_bytes());
                Ok(Some(*loops))
            }
            Err(e) => Err(lib_err(e)),
        }
    }
}

impl<P: pqlab_mldsa::ParameterSet> Signer for ExpandedSigningKey<P> {
    fn sign(&self, msg: &[u8], out: &mut Vec<u8>) -> Result<(), LabError> {
        self.sign_counting(msg, out).map(|_| ())
    }

    fn sign_counting(&self, msg: &[u8], out: &mut Vec<u8>) -> Result<Option<u32>, LabError> {
        let (sig, loops) = ExpandedSigningKey::sign_counted(self, msg, &[]).map_err(lib_err)?;
        out.clear();
        out.extend_from_slice(sig.as_bytes());
        Ok(Some(loops))
    }
}

impl<P: pqlab_mldsa::ParameterSet> Verifier for VerifyingKey<P> {
    fn verify(&self, msg: &[u8], sig: &[u8]) -> bool {
        // FIPS 204, Algorithm 3 on the signature's bytes where they lie (a Signature would
        // copy them onto the stack; the peers' verify reads the caller's buffer too).
        self.verify_bytes(msg, &[], sig).is_ok()
    }
}

impl<P: pqlab_mlkem::ParameterSet + Sync + Send> KemImpl for MlKem<P> {
    fn info(&self) -> ImplInfo {
        ImplInfo {
            implementation: PQLAB,
            alg: self.0,
            kind: Kind::Kem,
            standard: "FIPS 203",
            public_key: P::EK_LEN,
            secret_key: P::DK_LEN,
            signature: None,
            ciphertext: Some(P::CT_LEN),
        }
    }

    fn keygen(&self, out: &mut KeyPair) -> Result<(), LabError> {
        // FIPS 203, Algorithm 19: ML-KEM.KeyGen (d || z from the OS, as
        // DecapsulationKey::generate draws them) through the encoded-key API, which writes ek
        // and the expanded dk into the caller's buffers as the peers' keygen does; a decoded
        // key returned by value (with A_hat, up to 14 KB) would add its size in stack per move.
        let mut seed = [0u8; 64];
        getrandom::fill(&mut seed)
            .map_err(|e| LabError::Implementation(format!("OS randomness: {e}")))?;
        let (mut d, mut z) = ([0u8; 32], [0u8; 32]);
        d.copy_from_slice(&seed[..32]);
        z.copy_from_slice(&seed[32..]);
        pqlab_arith::wipe::wipe(&mut seed);
        out.public.resize(P::EK_LEN, 0);
        out.secret.resize(P::DK_LEN, 0);
        let r = pqlab_mlkem::key_gen_encoded::<P>(&d, &z, &mut out.public, &mut out.secret);
        pqlab_arith::wipe::wipe(&mut d);
        pqlab_arith::wipe::wipe(&mut z);
        r.map_err(lib_err)
    }

    fn encapsulator(&self, public: &[u8]) -> Result<Box<dyn Encapsulator>, LabError> {
        Ok(Box::new(
            EncapsulationKey::<P>::from_bytes(public).map_err(lib_err)?,
        ))
    }

    fn decapsulator(&self, secret: &[u8]) -> Result<Box<dyn Decapsulator>, LabError> {
        Ok(Box::new(
            DecapsulationKey::<P>::from_expanded(secret).map_err(lib_err)?,
        ))
    }
}

impl<P: pqlab_mlkem::ParameterSet> Encapsulator for EncapsulationKey<P> {
    fn encaps(&self, ct: &mut Vec<u8>, ss: &mut [u8; 32]) -> Result<(), LabError> {
        let (c, k) = EncapsulationKey::encapsulate(self).map_err(lib_err)?;
        ct.clear();
        ct.extend_from_slice(c.as_bytes());
        ss.copy_from_slice(k.as_bytes());
        Ok(())
    }
}

impl<P: pqlab_mlkem::ParameterSet> Decapsulator for DecapsulationKey<P> {
    fn decaps(&self, ct: &[u8], ss: &mut [u8; 32]) -> Result<(), LabError> {
        let c = Ciphertext::<P>::from_bytes(ct).map_err(lib_err)?;
        ss.copy_from_slice(DecapsulationKey::decapsulate(self, &c).as_bytes());
        Ok(())
    }
}
