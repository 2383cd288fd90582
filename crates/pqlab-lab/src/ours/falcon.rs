//! Falcon-512 and Falcon-1024 of `pqlab-falcon` in the registry: one generic adapter over the
//! degree `N`, measured twice for signing: with a plain secret key (the key is expanded into
//! the FFT basis and the Falcon tree on every call, Algorithm 8 then 10) and with an
//! [`ExpandedKey`] made once (Algorithm 10 alone), the `expanded key` variant.
//!
//! Key generation is `pqlab-falcon`'s NTRUGen with OS randomness.

use pqlab_falcon::{ExpandedKey, Signature, SigningKey, VerifyingKey};

use super::{PQLAB, lib_err};
use crate::LabError;
use crate::registry::{ImplInfo, KeyPair, Kind, Op, SignatureImpl, Signer, Verifier};

/// The standard the report names for Falcon.
pub(crate) const STANDARD: &str = "Falcon round 3 (v1.2)";

/// Falcon of degree `N` under its command-line name; `expanded` selects the expanded-key
/// signing variant.
pub struct Falcon<const N: usize> {
    alg: &'static str,
    expanded: bool,
}

impl<const N: usize> Falcon<N> {
    /// The entry for the plain key (keygen, sign, verify).
    pub(crate) const fn plain(alg: &'static str) -> Self {
        Falcon {
            alg,
            expanded: false,
        }
    }

    /// The entry for signing with an expanded key.
    pub(crate) const fn expanded(alg: &'static str) -> Self {
        Falcon {
            alg,
            expanded: true,
        }
    }
}

/// The name of the expanded-key signing variant in reports.
pub const EXPANDED_VARIANT: &str = "expanded key";

impl<const N: usize> Falcon<N> {
    /// A key pair from `pqlab-falcon`'s key generation, written straight into the key pair's
    /// buffers as PQClean's crypto_sign_keypair writes them (no key returned by value and
    /// copied on the stack, no encodings on the stack).
    fn generate(out: &mut KeyPair) -> Result<(), LabError> {
        out.secret.resize(SigningKey::<N>::ENCODED_LEN, 0);
        out.public.resize(VerifyingKey::<N>::ENCODED_LEN, 0);
        let (sl, pl) =
            SigningKey::<N>::generate_encoded(&mut out.secret, &mut out.public).map_err(lib_err)?;
        out.secret.truncate(sl);
        out.public.truncate(pl);
        Ok(())
    }
}

impl<const N: usize> SignatureImpl for Falcon<N> {
    fn info(&self) -> ImplInfo {
        ImplInfo {
            implementation: PQLAB,
            alg: self.alg,
            kind: Kind::Signature,
            standard: STANDARD,
            public_key: VerifyingKey::<N>::ENCODED_LEN,
            secret_key: SigningKey::<N>::ENCODED_LEN,
            signature: Some(Signature::<N>::MAX_LEN),
            ciphertext: None,
        }
    }

    fn variant(&self) -> Option<&'static str> {
        self.expanded.then_some(EXPANDED_VARIANT)
    }

    fn signature_varies(&self) -> bool {
        true
    }

    fn measures(&self, op: Op) -> bool {
        !self.expanded || op == Op::Sign
    }

    fn keygen(&self, out: &mut KeyPair) -> Result<(), LabError> {
        Self::generate(out)
    }

    fn signer(&self, secret: &[u8]) -> Result<Box<dyn Signer>, LabError> {
        let sk = SigningKey::<N>::decode(secret).map_err(lib_err)?;
        if self.expanded {
            Ok(Box::new(Box::new(sk.expand())))
        } else {
            Ok(Box::new(FalconSigner(sk)))
        }
    }

    fn verifier(&self, public: &[u8]) -> Result<Box<dyn Verifier>, LabError> {
        Ok(Box::new(
            VerifyingKey::<N>::decode(public).map_err(lib_err)?,
        ))
    }
}

/// A plain Falcon secret key as a [`Signer`].
struct FalconSigner<const N: usize>(SigningKey<N>);

/// Writes `sig` encoded into `out` (whose capacity is reused: no allocation once it holds
/// [`Signature::MAX_LEN`] bytes).
fn put<const N: usize>(sig: &Signature<N>, out: &mut Vec<u8>) -> Result<(), LabError> {
    out.clear();
    out.resize(Signature::<N>::MAX_LEN, 0);
    let len = sig.encode(out).map_err(lib_err)?;
    out.truncate(len);
    Ok(())
}

impl<const N: usize> Signer for FalconSigner<N> {
    fn sign(&self, msg: &[u8], out: &mut Vec<u8>) -> Result<(), LabError> {
        // The signature read where sign returned it: map_err or `?` would each move it (1 or
        // 2 KB of stack) once more.
        let signed = self.0.sign(msg);
        match &signed {
            Ok(sig) => put(sig, out),
            Err(e) => Err(lib_err(e)),
        }
    }
}

impl<const N: usize> Signer for Box<ExpandedKey<N>> {
    fn sign(&self, msg: &[u8], out: &mut Vec<u8>) -> Result<(), LabError> {
        let signed = ExpandedKey::sign(self, msg);
        match &signed {
            Ok(sig) => put(sig, out),
            Err(e) => Err(lib_err(e)),
        }
    }
}

impl<const N: usize> Verifier for VerifyingKey<N> {
    fn verify(&self, msg: &[u8], sig: &[u8]) -> bool {
        VerifyingKey::verify(self, msg, sig).is_ok()
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use super::*;

    /// The first key pair of a round-3 KAT file, if the vectors are there.
    fn kat_keys(n: usize) -> Option<KeyPair> {
        let dir = pqlab_testutil::vectors::vectors_dir()?;
        let text =
            std::fs::read_to_string(dir.join(format!("falcon-kat/falcon{n}-KAT.rsp"))).unwrap();
        let field = |name: &str| {
            let prefix = format!("{name} = ");
            let line = text.lines().find(|l| l.starts_with(&prefix)).unwrap();
            hex::decode(&line[prefix.len()..]).unwrap()
        };
        let mut keys = KeyPair::default();
        keys.set(&field("pk"), &field("sk"));
        Some(keys)
    }

    fn round_trip<const N: usize>(alg: &'static str) {
        let Some(keys) = kat_keys(N) else {
            return;
        };
        let verifier = Falcon::<N>::plain(alg).verifier(&keys.public).unwrap();
        for entry in [Falcon::<N>::plain(alg), Falcon::<N>::expanded(alg)] {
            let signer = entry.signer(&keys.secret).unwrap();
            let mut sig = Vec::with_capacity(Signature::<N>::MAX_LEN);
            for msg in [&b""[..], b"message", &[0xa5; 3000]] {
                signer.sign(msg, &mut sig).unwrap();
                assert!(sig.len() <= Signature::<N>::MAX_LEN);
                assert!(verifier.verify(msg, &sig), "{alg} {:?}", entry.variant());
                assert!(!verifier.verify(b"other", &sig));
            }
        }
    }

    #[test]
    fn plain_and_expanded_signers_make_signatures_that_verify() {
        round_trip::<512>("falcon-512");
        round_trip::<1024>("falcon-1024");
    }

    #[test]
    fn the_expanded_variant_measures_signing_only() {
        let (plain, expanded) = (
            Falcon::<512>::plain("falcon-512"),
            Falcon::<512>::expanded("falcon-512"),
        );
        assert_eq!(plain.variant(), None);
        assert_eq!(expanded.variant(), Some(EXPANDED_VARIANT));
        assert!(plain.signature_varies() && expanded.signature_varies());
        for op in [Op::Keygen, Op::Sign, Op::Verify] {
            assert!(plain.measures(op));
            assert_eq!(expanded.measures(op), op == Op::Sign);
        }
        // Every operation is measured.
        assert!(plain.unavailable(Op::Keygen).is_none());
    }
}
