//! AWS-LC through `aws-lc-rs` (its stable ML-DSA and ML-KEM interfaces, no `unstable`
//! feature): AWS-LC's C code, with the AVX2 assembly it selects at run time. Built by
//! `aws-lc-sys` with the C compiler alone (its `cc` builder: no cmake, nasm or bindgen on
//! x86-64 Linux). Keys in the standard's encodings: the expanded ML-DSA secret key
//! (`as_raw_bytes`, read back with `from_raw_private_key`) and the ML-KEM decapsulation key, so
//! that the cross-check exchanges them with pqlab directly. ML-DSA signs hedged (fresh
//! randomness) with the empty context, as pqlab's `sign`.

use aws_lc_rs::encoding::AsRawBytes as _;
use aws_lc_rs::kem;
use aws_lc_rs::signature::{self as sig, KeyPair as _};

use super::bad;
use crate::LabError;
use crate::registry::{
    Decapsulator, Encapsulator, Entry, ImplInfo, KemImpl, KeyPair, SignatureImpl, Signer, Verifier,
};

const IMP: &str = "aws-lc-rs";

fn aws_error<E: core::fmt::Debug>(what: &'static str) -> impl Fn(E) -> LabError {
    move |e| LabError::Implementation(format!("aws-lc-rs {what}: {e:?}"))
}

// --- ML-DSA --------------------------------------------------------------------------------

/// AWS-LC's ML-DSA parameter set registered as `alg`.
struct AwsDsa {
    alg: &'static str,
    signing: &'static sig::PqdsaSigningAlgorithm,
    verifying: &'static sig::PqdsaVerificationAlgorithm,
    /// Public key, expanded secret key and signature, in bytes.
    sizes: [usize; 3],
}

impl SignatureImpl for AwsDsa {
    fn info(&self) -> ImplInfo {
        ImplInfo::signature(IMP, self.alg, "FIPS 204", self.sizes)
    }

    fn keygen(&self, out: &mut KeyPair) -> Result<(), LabError> {
        let kp = sig::PqdsaKeyPair::generate(self.signing).map_err(aws_error("keygen"))?;
        let sk = kp
            .private_key()
            .as_raw_bytes()
            .map_err(aws_error("secret key"))?;
        out.set(kp.public_key().as_ref(), sk.as_ref());
        Ok(())
    }

    fn signer(&self, secret: &[u8]) -> Result<Box<dyn Signer>, LabError> {
        let kp = sig::PqdsaKeyPair::from_raw_private_key(self.signing, secret)
            .map_err(|_| bad("secret key"))?;
        Ok(Box::new(AwsDsaSigner(kp)))
    }

    fn verifier(&self, public: &[u8]) -> Result<Box<dyn Verifier>, LabError> {
        if public.len() != self.sizes[0] {
            return Err(bad("public key"));
        }
        let pk =
            sig::ParsedPublicKey::new(self.verifying, public).map_err(|_| bad("public key"))?;
        Ok(Box::new(AwsDsaVerifier(pk)))
    }
}

struct AwsDsaSigner(sig::PqdsaKeyPair);
struct AwsDsaVerifier(sig::ParsedPublicKey);

impl Signer for AwsDsaSigner {
    fn sign(&self, msg: &[u8], out: &mut Vec<u8>) -> Result<(), LabError> {
        out.clear();
        out.resize(self.0.algorithm().signature_len(), 0);
        let n = self.0.sign(msg, out).map_err(aws_error("sign"))?;
        out.truncate(n);
        Ok(())
    }
}

impl Verifier for AwsDsaVerifier {
    fn verify(&self, msg: &[u8], sig: &[u8]) -> bool {
        self.0.verify_sig(msg, sig).is_ok()
    }
}

// --- ML-KEM --------------------------------------------------------------------------------

/// AWS-LC's ML-KEM parameter set registered as `alg`.
struct AwsKem {
    alg: &'static str,
    kem: &'static kem::Algorithm,
    /// Encapsulation key, decapsulation key and ciphertext, in bytes.
    sizes: [usize; 3],
}

impl KemImpl for AwsKem {
    fn info(&self) -> ImplInfo {
        ImplInfo::kem(IMP, self.alg, "FIPS 203", self.sizes)
    }

    fn keygen(&self, out: &mut KeyPair) -> Result<(), LabError> {
        let dk = kem::DecapsulationKey::generate(self.kem).map_err(aws_error("keygen"))?;
        let ek = dk
            .encapsulation_key()
            .and_then(|ek| ek.key_bytes())
            .map_err(aws_error("encapsulation key"))?;
        let sk = dk.key_bytes().map_err(aws_error("decapsulation key"))?;
        out.set(ek.as_ref(), sk.as_ref());
        Ok(())
    }

    fn encapsulator(&self, public: &[u8]) -> Result<Box<dyn Encapsulator>, LabError> {
        let ek =
            kem::EncapsulationKey::new(self.kem, public).map_err(|_| bad("encapsulation key"))?;
        Ok(Box::new(AwsEncaps(ek)))
    }

    fn decapsulator(&self, secret: &[u8]) -> Result<Box<dyn Decapsulator>, LabError> {
        let dk =
            kem::DecapsulationKey::new(self.kem, secret).map_err(|_| bad("decapsulation key"))?;
        Ok(Box::new(AwsDecaps(dk, self.sizes[2])))
    }
}

struct AwsEncaps(kem::EncapsulationKey);
/// A decapsulation key and the ciphertext length it takes.
struct AwsDecaps(kem::DecapsulationKey, usize);

/// Copies a 32-byte shared secret out of AWS-LC's buffer.
fn copy_secret(from: &[u8], ss: &mut [u8; 32]) -> Result<(), LabError> {
    *ss = from.try_into().map_err(|_| bad("shared secret"))?;
    Ok(())
}

impl Encapsulator for AwsEncaps {
    fn encaps(&self, ct: &mut Vec<u8>, ss: &mut [u8; 32]) -> Result<(), LabError> {
        let (c, k) = self.0.encapsulate().map_err(aws_error("encaps"))?;
        ct.clear();
        ct.extend_from_slice(c.as_ref());
        copy_secret(k.as_ref(), ss)
    }
}

impl Decapsulator for AwsDecaps {
    fn decaps(&self, ct: &[u8], ss: &mut [u8; 32]) -> Result<(), LabError> {
        if ct.len() != self.1 {
            return Err(bad("ciphertext"));
        }
        let k = self
            .0
            .decapsulate(kem::Ciphertext::from(ct))
            .map_err(aws_error("decaps"))?;
        copy_secret(k.as_ref(), ss)
    }
}

// --- the entries ---------------------------------------------------------------------------

static DSA_44: AwsDsa = AwsDsa {
    alg: "ml-dsa-44",
    signing: &sig::ML_DSA_44_SIGNING,
    verifying: &sig::ML_DSA_44,
    sizes: [1312, 2560, 2420],
};
static DSA_65: AwsDsa = AwsDsa {
    alg: "ml-dsa-65",
    signing: &sig::ML_DSA_65_SIGNING,
    verifying: &sig::ML_DSA_65,
    sizes: [1952, 4032, 3309],
};
static DSA_87: AwsDsa = AwsDsa {
    alg: "ml-dsa-87",
    signing: &sig::ML_DSA_87_SIGNING,
    verifying: &sig::ML_DSA_87,
    sizes: [2592, 4896, 4627],
};
static KEM_512: AwsKem = AwsKem {
    alg: "ml-kem-512",
    kem: &kem::ML_KEM_512,
    sizes: [800, 1632, 768],
};
static KEM_768: AwsKem = AwsKem {
    alg: "ml-kem-768",
    kem: &kem::ML_KEM_768,
    sizes: [1184, 2400, 1088],
};
static KEM_1024: AwsKem = AwsKem {
    alg: "ml-kem-1024",
    kem: &kem::ML_KEM_1024,
    sizes: [1568, 3168, 1568],
};

/// The aws-lc-rs peers, in report order.
pub(crate) fn entries() -> Vec<Entry> {
    vec![
        Entry::Signature(&DSA_44),
        Entry::Signature(&DSA_65),
        Entry::Signature(&DSA_87),
        Entry::Kem(&KEM_512),
        Entry::Kem(&KEM_768),
        Entry::Kem(&KEM_1024),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::cross_check;
    use crate::registry;

    /// Each aws-lc-rs entry agrees with pqlab: ML-DSA signatures verify both ways, ML-KEM
    /// secrets agree both ways.
    #[test]
    fn every_aws_lc_rs_entry_passes_the_cross_check() {
        for peer in entries() {
            let alg = peer.info().alg;
            let ours = registry::ours()
                .into_iter()
                .find(|e| e.info().alg == alg && e.variant().is_none())
                .unwrap();
            let what = cross_check(&ours, &peer).unwrap_or_else(|e| panic!("aws-lc-rs {alg}: {e}"));
            assert!(what.contains("aws-lc-rs"), "{what}");
        }
    }

    /// The sizes the registry states are AWS-LC's own.
    #[test]
    fn the_stated_sizes_are_aws_lc_sizes() {
        for s in [&DSA_44, &DSA_65, &DSA_87] {
            let mut keys = KeyPair::default();
            s.keygen(&mut keys).unwrap();
            let mut sig = Vec::new();
            s.signer(&keys.secret)
                .unwrap()
                .sign(b"m", &mut sig)
                .unwrap();
            assert_eq!(
                [keys.public.len(), keys.secret.len(), sig.len()],
                s.sizes,
                "{}",
                s.alg
            );
        }
        for k in [&KEM_512, &KEM_768, &KEM_1024] {
            let mut keys = KeyPair::default();
            k.keygen(&mut keys).unwrap();
            let (mut ct, mut ss) = (Vec::new(), [0u8; 32]);
            k.encapsulator(&keys.public)
                .unwrap()
                .encaps(&mut ct, &mut ss)
                .unwrap();
            assert_eq!(
                [keys.public.len(), keys.secret.len(), ct.len()],
                k.sizes,
                "{}",
                k.alg
            );
        }
    }
}
