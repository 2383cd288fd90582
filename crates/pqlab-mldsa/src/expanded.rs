//! A signing key with the per-key part of signing done once: [`ExpandedSigningKey`].

use pqlab_backend::Backend;

use crate::backend::dispatch;
use crate::keys::{Signature, SigningKey};
use crate::params::ParameterSet;
use crate::sign::{Prepared, sign_prepared};
use crate::{Error, mu};

/// An ML-DSA signing key with FIPS 204, Algorithm 7 lines 2 to 5 done once: the NTT forms of
/// s1, s2 and t0 and the matrix A_hat = ExpandA(rho) are kept, so that each signature starts at
/// line 7. For a signer that signs many messages with one key (a server): it saves ExpandA and
/// k + l + k NTTs per signature, in exchange for k l + k polynomials and l + k half-size ones
/// (24 KiB for ML-DSA-44, 71.5 KiB for ML-DSA-87) more memory than a [`SigningKey`] (A_hat is public; the NTT-domain secrets are zeroized on drop, as the key is).
///
/// Signatures are the same as the plain key's, bit for bit (same rnd, same message). The
/// precomputation is made on the back end selected when the key is expanded
/// (`pqlab_backend::selected()`), and signing always runs on that back end.
pub struct ExpandedSigningKey<P: ParameterSet> {
    key: SigningKey<P>,
    prepared: Prepared<P>,
    backend: Backend,
}

impl<P: ParameterSet> ExpandedSigningKey<P> {
    /// Expands `key` (FIPS 204, Algorithm 7 lines 2 to 5).
    pub fn new(key: SigningKey<P>) -> Self {
        let backend = pqlab_backend::selected();
        let prepared = dispatch!(on backend, B => Prepared::new::<B>(&key));
        Self {
            key,
            prepared,
            backend,
        }
    }

    /// The plain key.
    pub fn signing_key(&self) -> &SigningKey<P> {
        &self.key
    }

    /// FIPS 204, Algorithm 2: ML-DSA.Sign, hedged with 32 fresh bytes from the operating system.
    #[cfg(feature = "getrandom")]
    pub fn sign(&self, msg: &[u8], ctx: &[u8]) -> Result<Signature<P>, Error> {
        self.sign_counted(msg, ctx).map(|(sig, _)| sig)
    }

    /// [`sign`](Self::sign) that also returns how many times the rejection loop of
    /// FIPS 204, Algorithm 7 ran.
    #[cfg(feature = "getrandom")]
    pub fn sign_counted(&self, msg: &[u8], ctx: &[u8]) -> Result<(Signature<P>, u32), Error> {
        let rnd = crate::keys::os_random_32()?;
        let mu = mu::mu_pure(&self.key.tr, msg, ctx)?;
        self.sign_mu_counted(&mu, &rnd)
    }

    /// FIPS 204, Algorithm 2: ML-DSA.Sign with a given rnd (fresh randomness, or zero for the
    /// deterministic variant).
    pub fn sign_with_rnd(
        &self,
        msg: &[u8],
        ctx: &[u8],
        rnd: &[u8; 32],
    ) -> Result<Signature<P>, Error> {
        self.sign_with_rnd_counted(msg, ctx, rnd)
            .map(|(sig, _)| sig)
    }

    /// [`sign_with_rnd`](Self::sign_with_rnd) that also returns how many times the rejection
    /// loop of FIPS 204, Algorithm 7 ran (the same code; for measurements that need the count
    /// of a given rnd, e.g. zero).
    pub fn sign_with_rnd_counted(
        &self,
        msg: &[u8],
        ctx: &[u8],
        rnd: &[u8; 32],
    ) -> Result<(Signature<P>, u32), Error> {
        let mu = mu::mu_pure(&self.key.tr, msg, ctx)?;
        self.sign_mu_counted(&mu, rnd)
    }

    /// FIPS 204, Algorithm 2: ML-DSA.Sign in its deterministic variant (rnd = 0^32).
    pub fn sign_deterministic(&self, msg: &[u8], ctx: &[u8]) -> Result<Signature<P>, Error> {
        self.sign_with_rnd(msg, ctx, &[0u8; 32])
    }

    /// FIPS 204, Algorithm 7 from line 7 on, for a precomputed mu ("external mu"), also
    /// returning how many times the rejection loop ran.
    ///
    /// # Errors
    /// [`Error::SigningLimitReached`] (see [`SigningKey::sign_internal`]).
    pub fn sign_mu_counted(
        &self,
        mu: &[u8; 64],
        rnd: &[u8; 32],
    ) -> Result<(Signature<P>, u32), Error> {
        dispatch!(on self.backend, B => sign_prepared::<P, B>(&self.key, &self.prepared, mu, rnd))
    }
}

impl<P: ParameterSet> From<SigningKey<P>> for ExpandedSigningKey<P> {
    fn from(key: SigningKey<P>) -> Self {
        Self::new(key)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{MlDsa44, MlDsa65, MlDsa87};

    /// Signatures of the expanded key equal the plain key's, under every back end this machine
    /// has, for deterministic and hedged rnd and for messages that need several loop passes.
    fn same_signatures<P: ParameterSet>() {
        let mut cases = 0;
        for backend in pqlab_backend::available() {
            pqlab_backend::with_forced(backend, || {
                let key = SigningKey::<P>::from_seed(&[backend as u8 + 3; 32]);
                let expanded = ExpandedSigningKey::new(key.clone());
                assert_eq!(expanded.backend, backend);
                for i in 0..24u8 {
                    let msg = [i; 40];
                    let rnd = [i.wrapping_mul(7); 32];
                    let a = key.sign_with_rnd(&msg, b"ctx", &rnd).unwrap();
                    let b = expanded.sign_with_rnd(&msg, b"ctx", &rnd).unwrap();
                    assert_eq!(a.as_bytes(), b.as_bytes(), "{backend:?} message {i}");
                    cases += 1;
                }
            })
            .unwrap();
        }
        assert!(cases >= 24, "ran {cases} cases");
    }

    #[test]
    fn expanded_key_signs_as_the_plain_key() {
        same_signatures::<MlDsa44>();
        same_signatures::<MlDsa65>();
        same_signatures::<MlDsa87>();
    }
}
