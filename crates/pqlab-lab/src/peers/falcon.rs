//! Falcon peers:
//!
//! * `pqcrypto`: `pqcrypto-falcon`, PQClean's Falcon round 3 (the scheme of the NIST KAT files,
//!   byte-compatible with ours: keys and the detached compressed signature). Also the key
//!   source for pqlab's own Falcon measurements while `pqlab-falcon` has no key generation.
//! * `fn-dsa`: Thomas Pornin's `fn-dsa` 0.4, FN-DSA as the draft stands (DESIGN §2 names it
//!   `fn-dsa-512` / `fn-dsa-1024`, provisional). Its keys use Falcon's encodings, but its
//!   signatures do not: the message is hashed with the hash of the verifying key and a domain
//!   context, and the signature is the padded fixed-length form (header 0x39 + ...). So the
//!   cross-check compares keys only (ours parses its keys and derives the same public key) and
//!   checks its signatures against itself; the report says so.

use std::sync::Mutex;

use fn_dsa::{DOMAIN_NONE, HASH_ID_RAW, KeyPairGenerator as _, SigningKey as _, VerifyingKey as _};
use pqcrypto_falcon::{falcon512, falcon1024};
use pqcrypto_traits::sign::{DetachedSignature as _, PublicKey as _, SecretKey as _};

use super::bad;
use crate::LabError;
use crate::registry::{Entry, ImplInfo, KeyPair, Kind, SignatureImpl, Signer, Verifier};

/// A pqcrypto key.
struct PqcKey<K>(K);

macro_rules! pqc_falcon {
    ($name:ident, $alg:literal, $m:ident) => {
        struct $name;

        impl SignatureImpl for $name {
            fn info(&self) -> ImplInfo {
                ImplInfo {
                    implementation: "pqcrypto",
                    alg: $alg,
                    kind: Kind::Signature,
                    standard: crate::ours::falcon::STANDARD,
                    public_key: $m::public_key_bytes(),
                    secret_key: $m::secret_key_bytes(),
                    signature: Some($m::signature_bytes()),
                    ciphertext: None,
                }
            }

            fn signature_varies(&self) -> bool {
                true
            }

            fn keygen(&self, out: &mut KeyPair) -> Result<(), LabError> {
                let (pk, sk) = $m::keypair();
                out.set(pk.as_bytes(), sk.as_bytes());
                Ok(())
            }

            fn signer(&self, secret: &[u8]) -> Result<Box<dyn Signer>, LabError> {
                let sk = $m::SecretKey::from_bytes(secret).map_err(|_| bad("secret key"))?;
                Ok(Box::new(PqcKey(sk)))
            }

            fn verifier(&self, public: &[u8]) -> Result<Box<dyn Verifier>, LabError> {
                let pk = $m::PublicKey::from_bytes(public).map_err(|_| bad("public key"))?;
                Ok(Box::new(PqcKey(pk)))
            }
        }

        impl Signer for PqcKey<$m::SecretKey> {
            fn sign(&self, msg: &[u8], out: &mut Vec<u8>) -> Result<(), LabError> {
                let sig = $m::detached_sign(msg, &self.0);
                out.clear();
                out.extend_from_slice(sig.as_bytes());
                Ok(())
            }
        }

        impl Verifier for PqcKey<$m::PublicKey> {
            fn verify(&self, msg: &[u8], sig: &[u8]) -> bool {
                $m::DetachedSignature::from_bytes(sig)
                    .is_ok_and(|s| $m::verify_detached_signature(&s, msg, &self.0).is_ok())
            }
        }
    };
}

pqc_falcon!(PqcFalcon512, "falcon-512", falcon512);
pqc_falcon!(PqcFalcon1024, "falcon-1024", falcon1024);

// --- fn-dsa --------------------------------------------------------------------------------

/// The operating system's generator in the `rand_core` 0.6 interface that `fn-dsa` takes.
struct OsRng06;

impl fn_dsa::RngCore for OsRng06 {
    fn next_u32(&mut self) -> u32 {
        let mut b = [0u8; 4];
        self.fill_bytes(&mut b);
        u32::from_le_bytes(b)
    }

    fn next_u64(&mut self) -> u64 {
        let mut b = [0u8; 8];
        self.fill_bytes(&mut b);
        u64::from_le_bytes(b)
    }

    fn fill_bytes(&mut self, dest: &mut [u8]) {
        // fn-dsa's interface has no way to report a failure of the OS generator.
        #[allow(clippy::expect_used)]
        getrandom::fill(dest).expect("OS randomness");
    }

    fn try_fill_bytes(&mut self, dest: &mut [u8]) -> Result<(), fn_dsa::RngError> {
        self.fill_bytes(dest);
        Ok(())
    }
}

impl fn_dsa::CryptoRng for OsRng06 {}

/// `fn-dsa` at degree 2^`LOGN` under the FN-DSA name (`fn-dsa-512`, `fn-dsa-1024`).
struct FnDsa<const LOGN: u32>(&'static str);

/// The algorithm of pqlab that an FN-DSA parameter set is compared with.
pub(crate) fn falcon_for(alg: &str) -> Option<&'static str> {
    match alg {
        "fn-dsa-512" => Some("falcon-512"),
        "fn-dsa-1024" => Some("falcon-1024"),
        _ => None,
    }
}

impl<const LOGN: u32> SignatureImpl for FnDsa<LOGN> {
    fn info(&self) -> ImplInfo {
        ImplInfo {
            implementation: "fn-dsa",
            alg: self.0,
            kind: Kind::Signature,
            standard: "FN-DSA (draft FIPS 206; fn-dsa 0.4, provisional)",
            public_key: fn_dsa::vrfy_key_size(LOGN),
            secret_key: fn_dsa::sign_key_size(LOGN),
            signature: Some(fn_dsa::signature_size(LOGN)),
            ciphertext: None,
        }
    }

    fn incompatibility(&self) -> Option<String> {
        let mut keys = KeyPair::default();
        if let Err(e) = self.keygen(&mut keys) {
            return Some(e.to_string());
        }
        let repacked = repack_h(&keys.public);
        let h_ok = match LOGN {
            9 => pqlab_falcon::VerifyingKey::<512>::decode(&repacked).is_ok(),
            _ => pqlab_falcon::VerifyingKey::<1024>::decode(&repacked).is_ok(),
        };
        Some(format!(
            "fn-dsa 0.4 is not byte-compatible with Falcon round 3: its public key packs the \
             14-bit coefficients of h little-endian (after repacking, pqlab {} it), its secret \
             key has {} bytes (Falcon: {}), and its signatures are padded to {} bytes and hash \
             the verifying key into the message; pqlab has no FN-DSA yet, so nothing can be \
             cross-checked and fn-dsa is not timed",
            if h_ok { "decodes" } else { "still rejects" },
            keys.secret.len(),
            if LOGN == 9 { 1281 } else { 2305 },
            fn_dsa::signature_size(LOGN),
        ))
    }

    fn keygen(&self, out: &mut KeyPair) -> Result<(), LabError> {
        let mut kg = fn_dsa::KeyPairGeneratorStandard::default();
        let mut sk = vec![0u8; fn_dsa::sign_key_size(LOGN)];
        let mut pk = vec![0u8; fn_dsa::vrfy_key_size(LOGN)];
        kg.keygen(LOGN, &mut OsRng06, &mut sk, &mut pk);
        out.set(&pk, &sk);
        Ok(())
    }

    fn signer(&self, secret: &[u8]) -> Result<Box<dyn Signer>, LabError> {
        let sk = fn_dsa::SigningKeyStandard::decode(secret).ok_or_else(|| bad("secret key"))?;
        Ok(Box::new(FnDsaSigner::<LOGN>(Mutex::new(Box::new(sk)))))
    }

    fn verifier(&self, public: &[u8]) -> Result<Box<dyn Verifier>, LabError> {
        let vk = fn_dsa::VerifyingKeyStandard::decode(public).ok_or_else(|| bad("public key"))?;
        Ok(Box::new(FnDsaVerifier(Box::new(vk))))
    }
}

/// An `fn-dsa` public key (header, then 14-bit coefficients packed little-endian, 4 per 7
/// bytes) in Falcon's encoding (the same header, coefficients packed big-endian).
fn repack_h(pk: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(pk.len());
    out.extend_from_slice(&pk[..1]);
    let (mut acc, mut bits) = (0u32, 0u32);
    for chunk in pk[1..].chunks_exact(7) {
        let mut b = [0u8; 8];
        b[..7].copy_from_slice(chunk);
        let x = u64::from_le_bytes(b);
        for k in 0..4 {
            acc = (acc << 14) | ((x >> (14 * k)) & 0x3fff) as u32;
            bits += 14;
            while bits >= 8 {
                bits -= 8;
                out.push((acc >> bits) as u8);
            }
        }
    }
    out
}

/// An `fn-dsa` signing key (its signing method takes `&mut self`, hence the lock).
struct FnDsaSigner<const LOGN: u32>(Mutex<Box<fn_dsa::SigningKeyStandard>>);
/// An `fn-dsa` verifying key.
struct FnDsaVerifier(Box<fn_dsa::VerifyingKeyStandard>);

impl<const LOGN: u32> Signer for FnDsaSigner<LOGN> {
    fn sign(&self, msg: &[u8], out: &mut Vec<u8>) -> Result<(), LabError> {
        let mut sk = self
            .0
            .lock()
            .map_err(|_| LabError::Implementation("fn-dsa: poisoned key".into()))?;
        out.clear();
        out.resize(fn_dsa::signature_size(LOGN), 0);
        sk.sign(&mut OsRng06, &DOMAIN_NONE, &HASH_ID_RAW, msg, out)
            .ok_or_else(|| LabError::Implementation("fn-dsa: signing failed".into()))
    }
}

impl Verifier for FnDsaVerifier {
    fn verify(&self, msg: &[u8], sig: &[u8]) -> bool {
        self.0.verify(sig, &DOMAIN_NONE, &HASH_ID_RAW, msg)
    }
}

static FN_DSA_512: FnDsa<{ fn_dsa::FN_DSA_LOGN_512 }> = FnDsa("fn-dsa-512");
static FN_DSA_1024: FnDsa<{ fn_dsa::FN_DSA_LOGN_1024 }> = FnDsa("fn-dsa-1024");

/// The Falcon and FN-DSA peers, in report order.
pub(crate) fn entries() -> Vec<Entry> {
    vec![
        Entry::Signature(&PqcFalcon512),
        Entry::Signature(&FN_DSA_512),
        Entry::Signature(&PqcFalcon1024),
        Entry::Signature(&FN_DSA_1024),
    ]
}
