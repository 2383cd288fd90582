//! Open Quantum Safe's liboqs (0.13) through the `oqs` crate: ML-DSA, ML-KEM and Falcon
//! round 3. liboqs is built from source (cmake) with only these algorithms, as a distributable
//! build: it carries the portable and the AVX2 code and picks AVX2 at run time where the CPU
//! has it (`OQS_DIST_BUILD`). Keys in the standard's encodings (ML-DSA and ML-KEM: the expanded
//! secret key; Falcon: the round-3 encodings and the detached compressed signature, header
//! 0x30 + logn, as PQClean's), so that the cross-check exchanges them with pqlab directly.

use std::sync::OnceLock;

use oqs::{kem, sig};

use super::bad;
use crate::LabError;
use crate::registry::{
    Decapsulator, Encapsulator, Entry, ImplInfo, KemImpl, KeyPair, SignatureImpl, Signer, Verifier,
};

const IMP: &str = "liboqs";

fn oqs_error(e: oqs::Error) -> LabError {
    LabError::Implementation(format!("liboqs: {e:?}"))
}

/// liboqs' signature scheme `which` (initialising the library once).
fn new_sig(which: sig::Algorithm) -> Result<sig::Sig, LabError> {
    oqs::init();
    sig::Sig::new(which).map_err(oqs_error)
}

/// liboqs' KEM `which` (initialising the library once).
fn new_kem(which: kem::Algorithm) -> Result<kem::Kem, LabError> {
    oqs::init();
    kem::Kem::new(which).map_err(oqs_error)
}

// --- signatures ----------------------------------------------------------------------------

/// A liboqs signature scheme registered as `alg`.
struct OqsSig {
    alg: &'static str,
    which: sig::Algorithm,
    standard: &'static str,
    /// Public key, secret key and (largest) signature, in bytes.
    sizes: [usize; 3],
    /// Falcon's compressed signatures vary in length.
    varies: bool,
    /// The scheme that key generation uses (made once, outside the timed call).
    scheme: OnceLock<Option<sig::Sig>>,
}

impl OqsSig {
    const fn new(
        alg: &'static str,
        which: sig::Algorithm,
        standard: &'static str,
        sizes: [usize; 3],
        varies: bool,
    ) -> Self {
        Self {
            alg,
            which,
            standard,
            sizes,
            varies,
            scheme: OnceLock::new(),
        }
    }

    fn scheme(&self) -> Result<&sig::Sig, LabError> {
        self.scheme
            .get_or_init(|| new_sig(self.which).ok())
            .as_ref()
            .ok_or_else(|| LabError::Implementation(format!("liboqs: {} is disabled", self.alg)))
    }
}

impl SignatureImpl for OqsSig {
    fn info(&self) -> ImplInfo {
        ImplInfo::signature(IMP, self.alg, self.standard, self.sizes)
    }

    fn signature_varies(&self) -> bool {
        self.varies
    }

    fn keygen(&self, out: &mut KeyPair) -> Result<(), LabError> {
        let (pk, sk) = self.scheme()?.keypair().map_err(oqs_error)?;
        out.set(pk.as_ref(), sk.as_ref());
        Ok(())
    }

    fn signer(&self, secret: &[u8]) -> Result<Box<dyn Signer>, LabError> {
        let scheme = new_sig(self.which)?;
        if scheme.secret_key_from_bytes(secret).is_none() {
            return Err(bad("secret key"));
        }
        Ok(Box::new(OqsSigner {
            scheme,
            secret: secret.to_vec(),
        }))
    }

    fn verifier(&self, public: &[u8]) -> Result<Box<dyn Verifier>, LabError> {
        let scheme = new_sig(self.which)?;
        if scheme.public_key_from_bytes(public).is_none() {
            return Err(bad("public key"));
        }
        Ok(Box::new(OqsVerifier {
            scheme,
            public: public.to_vec(),
        }))
    }
}

/// A liboqs secret key (its length checked when parsed).
struct OqsSigner {
    scheme: sig::Sig,
    secret: Vec<u8>,
}

/// A liboqs public key (its length checked when parsed).
struct OqsVerifier {
    scheme: sig::Sig,
    public: Vec<u8>,
}

impl Signer for OqsSigner {
    fn sign(&self, msg: &[u8], out: &mut Vec<u8>) -> Result<(), LabError> {
        let sk = self
            .scheme
            .secret_key_from_bytes(&self.secret)
            .ok_or_else(|| bad("secret key"))?;
        let sig = self.scheme.sign(msg, sk).map_err(oqs_error)?;
        out.clear();
        out.extend_from_slice(sig.as_ref());
        Ok(())
    }
}

impl Verifier for OqsVerifier {
    fn verify(&self, msg: &[u8], sig: &[u8]) -> bool {
        match (
            self.scheme.signature_from_bytes(sig),
            self.scheme.public_key_from_bytes(&self.public),
        ) {
            (Some(s), Some(pk)) => self.scheme.verify(msg, s, pk).is_ok(),
            _ => false,
        }
    }
}

// --- KEMs ----------------------------------------------------------------------------------

/// A liboqs KEM registered as `alg`.
struct OqsKem {
    alg: &'static str,
    which: kem::Algorithm,
    /// Encapsulation key, decapsulation key and ciphertext, in bytes.
    sizes: [usize; 3],
    /// The KEM that key generation uses (made once, outside the timed call).
    scheme: OnceLock<Option<kem::Kem>>,
}

impl OqsKem {
    const fn new(alg: &'static str, which: kem::Algorithm, sizes: [usize; 3]) -> Self {
        Self {
            alg,
            which,
            sizes,
            scheme: OnceLock::new(),
        }
    }

    fn scheme(&self) -> Result<&kem::Kem, LabError> {
        self.scheme
            .get_or_init(|| new_kem(self.which).ok())
            .as_ref()
            .ok_or_else(|| LabError::Implementation(format!("liboqs: {} is disabled", self.alg)))
    }
}

impl KemImpl for OqsKem {
    fn info(&self) -> ImplInfo {
        ImplInfo::kem(IMP, self.alg, "FIPS 203", self.sizes)
    }

    fn keygen(&self, out: &mut KeyPair) -> Result<(), LabError> {
        let (pk, sk) = self.scheme()?.keypair().map_err(oqs_error)?;
        out.set(pk.as_ref(), sk.as_ref());
        Ok(())
    }

    fn encapsulator(&self, public: &[u8]) -> Result<Box<dyn Encapsulator>, LabError> {
        let scheme = new_kem(self.which)?;
        if scheme.public_key_from_bytes(public).is_none() {
            return Err(bad("encapsulation key"));
        }
        Ok(Box::new(OqsEncaps {
            scheme,
            public: public.to_vec(),
        }))
    }

    fn decapsulator(&self, secret: &[u8]) -> Result<Box<dyn Decapsulator>, LabError> {
        let scheme = new_kem(self.which)?;
        if scheme.secret_key_from_bytes(secret).is_none() {
            return Err(bad("decapsulation key"));
        }
        Ok(Box::new(OqsDecaps {
            scheme,
            secret: secret.to_vec(),
        }))
    }
}

/// A liboqs encapsulation key (its length checked when parsed).
struct OqsEncaps {
    scheme: kem::Kem,
    public: Vec<u8>,
}

/// A liboqs decapsulation key (its length checked when parsed).
struct OqsDecaps {
    scheme: kem::Kem,
    secret: Vec<u8>,
}

/// Copies a 32-byte shared secret out of liboqs' buffer.
fn copy_secret(from: &[u8], ss: &mut [u8; 32]) -> Result<(), LabError> {
    *ss = from.try_into().map_err(|_| bad("shared secret"))?;
    Ok(())
}

impl Encapsulator for OqsEncaps {
    fn encaps(&self, ct: &mut Vec<u8>, ss: &mut [u8; 32]) -> Result<(), LabError> {
        let pk = self
            .scheme
            .public_key_from_bytes(&self.public)
            .ok_or_else(|| bad("encapsulation key"))?;
        let (c, k) = self.scheme.encapsulate(pk).map_err(oqs_error)?;
        ct.clear();
        ct.extend_from_slice(c.as_ref());
        copy_secret(k.as_ref(), ss)
    }
}

impl Decapsulator for OqsDecaps {
    fn decaps(&self, ct: &[u8], ss: &mut [u8; 32]) -> Result<(), LabError> {
        let sk = self
            .scheme
            .secret_key_from_bytes(&self.secret)
            .ok_or_else(|| bad("decapsulation key"))?;
        let c = self
            .scheme
            .ciphertext_from_bytes(ct)
            .ok_or_else(|| bad("ciphertext"))?;
        let k = self.scheme.decapsulate(sk, c).map_err(oqs_error)?;
        copy_secret(k.as_ref(), ss)
    }
}

// --- the entries ---------------------------------------------------------------------------

const FALCON: &str = crate::ours::falcon::STANDARD;

static DSA_44: OqsSig = OqsSig::new(
    "ml-dsa-44",
    sig::Algorithm::MlDsa44,
    "FIPS 204",
    [1312, 2560, 2420],
    false,
);
static DSA_65: OqsSig = OqsSig::new(
    "ml-dsa-65",
    sig::Algorithm::MlDsa65,
    "FIPS 204",
    [1952, 4032, 3309],
    false,
);
static DSA_87: OqsSig = OqsSig::new(
    "ml-dsa-87",
    sig::Algorithm::MlDsa87,
    "FIPS 204",
    [2592, 4896, 4627],
    false,
);
static FALCON_512: OqsSig = OqsSig::new(
    "falcon-512",
    sig::Algorithm::Falcon512,
    FALCON,
    [897, 1281, 752],
    true,
);
static FALCON_1024: OqsSig = OqsSig::new(
    "falcon-1024",
    sig::Algorithm::Falcon1024,
    FALCON,
    [1793, 2305, 1462],
    true,
);
static KEM_512: OqsKem = OqsKem::new("ml-kem-512", kem::Algorithm::MlKem512, [800, 1632, 768]);
static KEM_768: OqsKem = OqsKem::new("ml-kem-768", kem::Algorithm::MlKem768, [1184, 2400, 1088]);
static KEM_1024: OqsKem = OqsKem::new("ml-kem-1024", kem::Algorithm::MlKem1024, [1568, 3168, 1568]);

/// The liboqs peers, in report order.
pub(crate) fn entries() -> Vec<Entry> {
    vec![
        Entry::Signature(&DSA_44),
        Entry::Signature(&DSA_65),
        Entry::Signature(&DSA_87),
        Entry::Kem(&KEM_512),
        Entry::Kem(&KEM_768),
        Entry::Kem(&KEM_1024),
        Entry::Signature(&FALCON_512),
        Entry::Signature(&FALCON_1024),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::cross_check;
    use crate::registry;

    fn ours_for(alg: &str) -> Entry {
        registry::ours()
            .into_iter()
            .find(|e| e.info().alg == alg && e.variant().is_none())
            .unwrap()
    }

    /// Each liboqs entry agrees with pqlab: signatures verify both ways, KEM secrets agree both
    /// ways (Falcon included: liboqs' detached signature is the round-3 format).
    #[test]
    fn every_liboqs_entry_passes_the_cross_check() {
        for peer in entries() {
            let alg = peer.info().alg;
            let what =
                cross_check(&ours_for(alg), &peer).unwrap_or_else(|e| panic!("liboqs {alg}: {e}"));
            assert!(what.contains("liboqs"), "{what}");
        }
    }

    /// liboqs' ML-DSA-44 with one bit of every signature flipped.
    struct Corrupt;
    struct CorruptSigner(Box<dyn Signer>);

    impl Signer for CorruptSigner {
        fn sign(&self, msg: &[u8], out: &mut Vec<u8>) -> Result<(), LabError> {
            self.0.sign(msg, out)?;
            let mid = out.len() / 3;
            out[mid] ^= 0x10;
            Ok(())
        }
    }

    impl SignatureImpl for Corrupt {
        fn info(&self) -> ImplInfo {
            DSA_44.info()
        }
        fn keygen(&self, out: &mut KeyPair) -> Result<(), LabError> {
            DSA_44.keygen(out)
        }
        fn signer(&self, secret: &[u8]) -> Result<Box<dyn Signer>, LabError> {
            Ok(Box::new(CorruptSigner(DSA_44.signer(secret)?)))
        }
        fn verifier(&self, public: &[u8]) -> Result<Box<dyn Verifier>, LabError> {
            DSA_44.verifier(public)
        }
    }

    /// liboqs' ML-KEM-512 decapsulating to a wrong secret.
    struct WrongSecret;
    struct WrongDecaps(Box<dyn Decapsulator>);

    impl Decapsulator for WrongDecaps {
        fn decaps(&self, ct: &[u8], ss: &mut [u8; 32]) -> Result<(), LabError> {
            self.0.decaps(ct, ss)?;
            ss[7] ^= 1;
            Ok(())
        }
    }

    impl KemImpl for WrongSecret {
        fn info(&self) -> ImplInfo {
            KEM_512.info()
        }
        fn keygen(&self, out: &mut KeyPair) -> Result<(), LabError> {
            KEM_512.keygen(out)
        }
        fn encapsulator(&self, public: &[u8]) -> Result<Box<dyn Encapsulator>, LabError> {
            KEM_512.encapsulator(public)
        }
        fn decapsulator(&self, secret: &[u8]) -> Result<Box<dyn Decapsulator>, LabError> {
            Ok(Box::new(WrongDecaps(KEM_512.decapsulator(secret)?)))
        }
    }

    /// The check refuses a peer that does not agree (so that the run does not time it).
    #[test]
    fn a_disagreeing_peer_fails_the_cross_check() {
        let err = cross_check(&ours_for("ml-dsa-44"), &Entry::Signature(&Corrupt)).unwrap_err();
        assert!(
            err.to_string().contains("does not verify under pqlab"),
            "{err}"
        );
        let err = cross_check(&ours_for("ml-kem-512"), &Entry::Kem(&WrongSecret)).unwrap_err();
        assert!(err.to_string().contains("different secret"), "{err}");
    }

    /// The sizes the registry states are liboqs' own.
    #[test]
    fn the_stated_sizes_are_liboqs_sizes() {
        for s in [&DSA_44, &DSA_65, &DSA_87, &FALCON_512, &FALCON_1024] {
            let scheme = s.scheme().unwrap();
            let got = [
                scheme.length_public_key(),
                scheme.length_secret_key(),
                scheme.length_signature(),
            ];
            assert_eq!(got, s.sizes, "{}", s.alg);
        }
        for k in [&KEM_512, &KEM_768, &KEM_1024] {
            let scheme = k.scheme().unwrap();
            let got = [
                scheme.length_public_key(),
                scheme.length_secret_key(),
                scheme.length_ciphertext(),
            ];
            assert_eq!(got, k.sizes, "{}", k.alg);
            assert_eq!(scheme.length_shared_secret(), 32);
        }
    }
}
