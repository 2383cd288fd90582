//! Falcon peers:
//!
//! * `pqcrypto`: `pqcrypto-falcon`, PQClean's Falcon round 3 (the scheme of the NIST KAT files,
//!   byte-compatible with ours: keys and the detached compressed signature).
//! * `fn-dsa`: Thomas Pornin's `fn-dsa` 0.4, FN-DSA as the draft stands (DESIGN §2 names it
//!   `fn-dsa-512` / `fn-dsa-1024`, provisional). Its keys use Falcon's encodings, but its
//!   signatures do not: the message is hashed with the hash of the verifying key and a domain
//!   context, and the signature is the padded fixed-length form (header 0x39 + ...). So the
//!   cross-check compares keys (ours parses its secret keys, derives the same public key and
//!   signs under it) and checks its signatures against itself; the report says so, and it is
//!   timed beside pqlab's Falcon of the same degree.

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

impl<const LOGN: u32> FnDsa<LOGN> {
    /// What can be checked against Falcon round 3 (pqlab's Falcon of degree `N` = 2^LOGN):
    /// an fn-dsa secret key holds a Falcon secret key (header, f, g, F; f and g packed
    /// little-endian) followed by the 64-byte hash of the verifying key, and its verifying key
    /// is h in the NTT domain (in its own order of the evaluation points), packed little-endian.
    /// So pqlab decodes fn-dsa's (f, g, F), recomputes h, whose NTT must hold the same n
    /// values as fn-dsa's public key; pqlab's round-3 signature under that key must verify;
    /// and fn-dsa must verify its own signature and reject a corrupted one and another message.
    /// FN-DSA signatures hash the message differently (the verifying key's hash, a domain
    /// context), so they are not verified across.
    fn check_against<const N: usize>(&self) -> Result<String, String> {
        let fail = |what: &str| format!("{}: {what}", self.0);
        let mut keys = KeyPair::default();
        self.keygen(&mut keys).map_err(|e| fail(&e.to_string()))?;
        let falcon_sk =
            falcon_secret_key(&keys.secret, N).ok_or_else(|| fail("short secret key"))?;
        let sk = pqlab_falcon::SigningKey::<N>::decode(&falcon_sk)
            .map_err(|e| fail(&format!("pqlab cannot decode its (f, g, F): {e}")))?;
        // fn-dsa 0.4 stores h in the NTT domain (its own order of the evaluation points):
        // compare the NTT of pqlab's h with it as a multiset of the n evaluations.
        let theirs = pqlab_falcon::VerifyingKey::<N>::decode(&repack_h(&keys.public))
            .map_err(|e| fail(&format!("pqlab cannot decode its public key: {e}")))?;
        let vk = sk.verifying_key();
        let mut ours_ntt = *vk.h();
        pqlab_arith::reduce::ntt_falcon::ntt(
            pqlab_arith::reduce::Strategy::Montgomery,
            &mut ours_ntt,
        );
        let mut theirs_ntt = *theirs.h();
        ours_ntt.sort_unstable();
        theirs_ntt.sort_unstable();
        if ours_ntt != theirs_ntt {
            return Err(fail(
                "the public key pqlab derives from its secret key differs from its own",
            ));
        }
        let msg = b"pqlab cross-check of fn-dsa";
        let mut sig = vec![0u8; pqlab_falcon::Signature::<N>::MAX_LEN];
        let l = sk
            .sign(msg)
            .and_then(|s| s.encode(&mut sig))
            .map_err(|e| fail(&e.to_string()))?;
        if vk.verify(msg, &sig[..l]).is_err() {
            return Err(fail("a round-3 signature under its key does not verify"));
        }
        let mut own = Vec::new();
        let signer = self
            .signer(&keys.secret)
            .map_err(|e| fail(&e.to_string()))?;
        signer
            .sign(msg, &mut own)
            .map_err(|e| fail(&e.to_string()))?;
        let verifier = self
            .verifier(&keys.public)
            .map_err(|e| fail(&e.to_string()))?;
        if !verifier.verify(msg, &own)
            || !crate::check::rejects_tampering(verifier.as_ref(), msg, &own)
        {
            return Err(fail(
                "it does not verify its own signature, or accepts a corrupted one",
            ));
        }
        Ok(format!(
            "fn-dsa keys are Falcon round-3 keys: pqlab decodes fn-dsa's (f, g, F) (repacked \
             big-endian) and signs under it; the NTT of the h pqlab derives equals fn-dsa's \
             public key (which holds h in the NTT domain) as a multiset of evaluations; fn-dsa \
             verifies its own FN-DSA signatures and rejects corrupted ones (FN-DSA signatures hash the message with the \
             key's hash and a context, so they are not verified across); timed as the FN-DSA \
             counterpart of {}",
            falcon_for(self.0).unwrap_or("Falcon")
        ))
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

    fn related_check(&self) -> Option<Result<String, String>> {
        Some(match LOGN {
            9 => self.check_against::<512>(),
            _ => self.check_against::<1024>(),
        })
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

/// Values of `nbits` bits packed little-endian (fn-dsa: the first value in the low bits of the
/// first byte), repacked big-endian as Falcon round 3 packs them (the first value in the high
/// bits). `src` holds a whole number of values.
fn repack_bits(src: &[u8], nbits: u32) -> Vec<u8> {
    let mask = (1u32 << nbits) - 1;
    let mut out = Vec::with_capacity(src.len());
    let (mut inp, mut in_len) = (0u32, 0u32);
    let (mut acc, mut bits) = (0u32, 0u32);
    for &byte in src {
        inp |= u32::from(byte) << in_len;
        in_len += 8;
        while in_len >= nbits {
            acc = (acc << nbits) | (inp & mask);
            inp >>= nbits;
            in_len -= nbits;
            bits += nbits;
            while bits >= 8 {
                bits -= 8;
                out.push((acc >> bits) as u8);
            }
        }
    }
    out
}

/// An `fn-dsa` public key (header, then h's 14-bit coefficients packed little-endian) in
/// Falcon's encoding (the same header, coefficients packed big-endian).
fn repack_h(pk: &[u8]) -> Vec<u8> {
    let mut out = pk[..1].to_vec();
    out.extend(repack_bits(&pk[1..], 14));
    out
}

/// The Falcon round-3 secret key of degree n inside an `fn-dsa` one: the header, f and g
/// (`fg_bits(n)` bits each, repacked big-endian), and F (8 bits, the same in both); fn-dsa's
/// trailing hash of the verifying key is dropped. `None` if `sk` is too short.
fn falcon_secret_key(sk: &[u8], n: usize) -> Option<Vec<u8>> {
    let nbits = pqlab_falcon::params::fg_bits(n);
    let fg = 2 * n * nbits / 8;
    let (head, rest) = sk.split_first()?;
    let (fg_bytes, rest) = rest.split_at_checked(fg)?;
    let big_f = rest.get(..n)?;
    let mut out = vec![*head];
    out.extend(repack_bits(fg_bytes, nbits as u32));
    out.extend_from_slice(big_f);
    Some(out)
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
