//! The key and signature types and the external interface of FIPS 204, Section 5.

use core::marker::PhantomData;

use zeroize::{Zeroize, ZeroizeOnDrop};

use crate::encode::sk_decode;
use crate::error::check_len;
use crate::params::{ByteArray, ParameterSet};
use crate::prehash::HashAlg;
use crate::{Error, keygen, mu, sign, verify};

/// An ML-DSA public key (FIPS 204: pk), kept both encoded and decoded.
#[derive(Clone)]
pub struct VerifyingKey<P: ParameterSet> {
    pub(crate) encoded: P::PkBytes,
    pub(crate) rho: [u8; 32],
    /// NTT(t1 * 2^d), the form verification uses (FIPS 204, Algorithm 8 line 10), computed once.
    pub(crate) t1_hat: P::VecK,
    /// tr = H(pk, 64), computed once.
    pub(crate) tr: [u8; 64],
}

/// An ML-DSA secret key (FIPS 204: sk): its expanded encoding skEncode(rho, K, tr, s1, s2, t0)
/// (Algorithm 24), in which the secret vectors stay packed (2.5 to 4.8 KiB rather than 12 to
/// 23 KiB decoded) and are unpacked one polynomial at a time where they are used, with rho, K
/// and tr also at hand, and the seed xi it was made from when it was made from one (so that it
/// can be exported in seed form). Zeroized on drop.
#[derive(Clone, Zeroize, ZeroizeOnDrop)]
pub struct SigningKey<P: ParameterSet> {
    pub(crate) rho: [u8; 32],
    pub(crate) key: [u8; 32],
    pub(crate) tr: [u8; 64],
    /// skEncode(rho, K, tr, s1, s2, t0).
    pub(crate) encoded: P::SkBytes,
    pub(crate) seed: Option<[u8; 32]>,
    #[zeroize(skip)]
    pub(crate) _params: PhantomData<P>,
}

/// An encoded ML-DSA signature (FIPS 204: sigEncode output) of the right length. Whether it is
/// well formed (hint order, z range) is checked by verification, which rejects it otherwise.
#[derive(Clone, Copy)]
pub struct Signature<P: ParameterSet> {
    pub(crate) encoded: P::SigBytes,
}

impl<P: ParameterSet> PartialEq for Signature<P> {
    fn eq(&self, other: &Self) -> bool {
        self.encoded == other.encoded
    }
}

impl<P: ParameterSet> Eq for Signature<P> {}

/// Reads 32 fresh bytes from the operating system.
#[cfg(feature = "getrandom")]
pub(crate) fn os_random_32() -> Result<[u8; 32], Error> {
    let mut b = [0u8; 32];
    getrandom::fill(&mut b).map_err(|_| Error::Randomness)?;
    Ok(b)
}

/// Reads 32 bytes from a caller's random number generator.
fn rng_32<R: rand_core::TryCryptoRng + ?Sized>(rng: &mut R) -> Result<[u8; 32], Error> {
    let mut b = [0u8; 32];
    rng.try_fill_bytes(&mut b).map_err(|_| Error::Randomness)?;
    Ok(b)
}

impl<P: ParameterSet> SigningKey<P> {
    /// A key with every field zero and no seed, to be filled in place by key generation.
    pub(crate) fn empty() -> Self {
        Self {
            rho: [0; 32],
            key: [0; 32],
            tr: [0; 64],
            encoded: P::SkBytes::zeroed(),
            seed: None,
            _params: PhantomData,
        }
    }

    /// FIPS 204, Algorithm 1: ML-DSA.KeyGen, with the seed xi from the operating system.
    #[cfg(feature = "getrandom")]
    pub fn generate() -> Result<Self, Error> {
        let mut xi = os_random_32()?;
        let sk = Self::from_seed(&xi);
        xi.zeroize();
        Ok(sk)
    }

    /// FIPS 204, Algorithm 1: ML-DSA.KeyGen, with the seed xi from the operating system,
    /// returning both keys (cheaper than [`SigningKey::generate`] followed by
    /// [`SigningKey::verifying_key`], which recomputes t).
    #[cfg(feature = "getrandom")]
    pub fn generate_key_pair() -> Result<(VerifyingKey<P>, Self), Error> {
        let mut xi = os_random_32()?;
        let keys = Self::key_pair_from_seed(&xi);
        xi.zeroize();
        Ok(keys)
    }

    /// FIPS 204, Algorithm 1: ML-DSA.KeyGen, with the seed xi from the operating system,
    /// returning the encoded public key pk and the signing key, as the algorithm outputs them:
    /// for a caller that stores or sends pk, this skips the NTT form a [`VerifyingKey`] keeps.
    #[cfg(feature = "getrandom")]
    pub fn generate_encoded() -> Result<(P::PkBytes, Self), Error> {
        let mut xi = os_random_32()?;
        let keys = Self::encoded_pair_from_seed(&xi);
        xi.zeroize();
        Ok(keys)
    }

    /// FIPS 204, Algorithm 6: ML-DSA.KeyGen_internal from the 32-byte seed xi, returning the
    /// encoded public key and the signing key (see [`SigningKey::generate_encoded`]).
    pub fn encoded_pair_from_seed(xi: &[u8; 32]) -> (P::PkBytes, Self) {
        keygen::key_gen_encoded::<P>(xi)
    }

    /// FIPS 204, Algorithm 1: ML-DSA.KeyGen, with the seed xi from `rng`.
    pub fn generate_with_rng<R: rand_core::TryCryptoRng + ?Sized>(
        rng: &mut R,
    ) -> Result<Self, Error> {
        let mut xi = rng_32(rng)?;
        let sk = Self::from_seed(&xi);
        xi.zeroize();
        Ok(sk)
    }

    /// FIPS 204, Algorithm 6: ML-DSA.KeyGen_internal from the 32-byte seed xi. The key keeps
    /// the seed.
    pub fn from_seed(xi: &[u8; 32]) -> Self {
        keygen::key_gen_internal::<P>(xi)
    }

    /// FIPS 204, Algorithm 6: ML-DSA.KeyGen_internal from the 32-byte seed xi, returning both
    /// keys (cheaper than [`SigningKey::from_seed`] followed by [`SigningKey::verifying_key`]).
    pub fn key_pair_from_seed(xi: &[u8; 32]) -> (VerifyingKey<P>, Self) {
        keygen::key_pair_internal::<P>(xi)
    }

    /// Like [`SigningKey::from_seed`], from a slice that must hold exactly 32 bytes.
    pub fn from_seed_slice(xi: &[u8]) -> Result<Self, Error> {
        let xi: &[u8; 32] = xi.try_into().map_err(|_| Error::InvalidLength {
            what: "seed",
            expected: 32,
            actual: xi.len(),
        })?;
        Ok(Self::from_seed(xi))
    }

    /// FIPS 204, Algorithm 25: skDecode, from the expanded encoding. Rejects a coefficient of
    /// s1 or s2 outside [-eta, eta] (which skEncode cannot produce). The key has no seed.
    pub fn from_expanded(bytes: &[u8]) -> Result<Self, Error> {
        check_len("secret key", bytes, P::SK_LEN)?;
        crate::backend::dispatch!(B => sk_decode::<P, B>(bytes))
    }

    /// The seed xi the key was made from, if it was made from one.
    pub fn seed(&self) -> Option<&[u8; 32]> {
        self.seed.as_ref()
    }

    /// FIPS 204, Algorithm 24: skEncode, the expanded encoding.
    pub fn to_expanded(&self) -> P::SkBytes {
        self.encoded
    }

    /// The packed s1 || s2 of the encoding (FIPS 204, Algorithm 24: (l + k) 32 bitlen(2 eta)
    /// bytes, BitPack(., eta, eta) each).
    pub(crate) fn s_packed(&self) -> &[u8] {
        &self.encoded.as_ref()[128..128 + (P::L + P::K) * 32 * P::ETA_BITS]
    }

    /// The packed t0 of the encoding (FIPS 204, Algorithm 24: k 32 d bytes,
    /// BitPack(., 2^(d - 1) - 1, 2^(d - 1)) each).
    pub(crate) fn t0_packed(&self) -> &[u8] {
        &self.encoded.as_ref()[128 + (P::L + P::K) * 32 * P::ETA_BITS..]
    }

    /// The matching public key: t = NTT^-1(A_hat * NTT(s1)) + s2, then Power2Round
    /// (FIPS 204, Algorithm 6, lines 5 to 8).
    pub fn verifying_key(&self) -> VerifyingKey<P> {
        keygen::verifying_key_from_secret::<P>(self)
    }

    /// FIPS 204, Algorithm 2: ML-DSA.Sign, hedged with 32 fresh bytes from the operating system.
    #[cfg(feature = "getrandom")]
    pub fn sign(&self, msg: &[u8], ctx: &[u8]) -> Result<Signature<P>, Error> {
        let rnd = os_random_32()?;
        self.sign_with_rnd(msg, ctx, &rnd)
    }

    /// [`sign`](Self::sign) that also returns how many times the rejection loop of
    /// FIPS 204, Algorithm 7 ran (see [`sign_mu_counted`](Self::sign_mu_counted)): for the
    /// measurement of the rejection-sampling distribution.
    #[cfg(feature = "getrandom")]
    pub fn sign_counted(&self, msg: &[u8], ctx: &[u8]) -> Result<(Signature<P>, u32), Error> {
        let rnd = os_random_32()?;
        let mu = mu::mu_pure(&self.tr, msg, ctx)?;
        self.sign_mu_counted(&mu, &rnd)
    }

    /// FIPS 204, Algorithm 2: ML-DSA.Sign, hedged with 32 bytes from `rng`.
    pub fn sign_with_rng<R: rand_core::TryCryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        msg: &[u8],
        ctx: &[u8],
    ) -> Result<Signature<P>, Error> {
        let rnd = rng_32(rng)?;
        self.sign_with_rnd(msg, ctx, &rnd)
    }

    /// FIPS 204, Algorithm 2: ML-DSA.Sign in its deterministic variant (rnd = 0^32).
    pub fn sign_deterministic(&self, msg: &[u8], ctx: &[u8]) -> Result<Signature<P>, Error> {
        self.sign_with_rnd(msg, ctx, &[0u8; 32])
    }

    /// FIPS 204, Algorithm 2: ML-DSA.Sign with a given rnd (a test interface: rnd must be fresh
    /// randomness, or zero for the deterministic variant).
    pub fn sign_with_rnd(
        &self,
        msg: &[u8],
        ctx: &[u8],
        rnd: &[u8; 32],
    ) -> Result<Signature<P>, Error> {
        let mu = mu::mu_pure(&self.tr, msg, ctx)?;
        self.sign_mu(&mu, rnd)
    }

    /// FIPS 204, Algorithm 4: HashML-DSA.Sign with pre-hash `hash`, hedged with OS randomness.
    #[cfg(feature = "getrandom")]
    pub fn sign_prehash(
        &self,
        msg: &[u8],
        ctx: &[u8],
        hash: HashAlg,
    ) -> Result<Signature<P>, Error> {
        let rnd = os_random_32()?;
        self.sign_prehash_with_rnd(msg, ctx, hash, &rnd)
    }

    /// FIPS 204, Algorithm 4: HashML-DSA.Sign with a given rnd (zero for deterministic).
    pub fn sign_prehash_with_rnd(
        &self,
        msg: &[u8],
        ctx: &[u8],
        hash: HashAlg,
        rnd: &[u8; 32],
    ) -> Result<Signature<P>, Error> {
        let mu = mu::mu_prehash(&self.tr, msg, ctx, hash)?;
        self.sign_mu(&mu, rnd)
    }

    /// FIPS 204, Algorithm 7: ML-DSA.Sign_internal on the formatted message M'.
    ///
    /// # Errors
    /// [`Error::SigningLimitReached`] when all [`SIGNING_ATTEMPTS`](crate::SIGNING_ATTEMPTS)
    /// attempts were rejected, which a key made by ML-DSA.KeyGen does with probability below
    /// 2^-256 (FIPS 204, Appendix C); so does every signing method below.
    pub fn sign_internal(&self, m_prime: &[u8], rnd: &[u8; 32]) -> Result<Signature<P>, Error> {
        let mu = mu::mu_internal(&self.tr, m_prime);
        self.sign_mu(&mu, rnd)
    }

    /// FIPS 204, Algorithm 7 from line 7 on: signs a precomputed mu = H(tr || M', 64)
    /// ("external mu", FIPS 204 Section 6.2 and its footnote).
    ///
    /// # Errors
    /// [`Error::SigningLimitReached`], see [`sign_internal`](Self::sign_internal).
    pub fn sign_mu(&self, mu: &[u8; 64], rnd: &[u8; 32]) -> Result<Signature<P>, Error> {
        sign::sign_mu::<P>(self, mu, rnd).map(|(sig, _)| sig)
    }

    /// [`sign_mu`](Self::sign_mu) that also returns how many times the rejection loop of
    /// FIPS 204, Algorithm 7 (lines 10 to 32) ran for this signature (1 when the first candidate
    /// was accepted). For measuring the rejection-sampling distribution; the count is the loop's
    /// own counter kappa / l, so this costs nothing extra.
    ///
    /// # Errors
    /// [`Error::SigningLimitReached`], see [`sign_internal`](Self::sign_internal).
    pub fn sign_mu_counted(
        &self,
        mu: &[u8; 64],
        rnd: &[u8; 32],
    ) -> Result<(Signature<P>, u32), Error> {
        sign::sign_mu::<P>(self, mu, rnd)
    }
}

impl<P: ParameterSet> VerifyingKey<P> {
    /// FIPS 204, Algorithm 23: pkDecode. Every byte string of the right length is a public key.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
        check_len("public key", bytes, P::PK_LEN)?;
        Ok(crate::backend::dispatch!(B => crate::encode::pk_decode::<P, B>(bytes)))
    }

    /// The encoded public key (pkEncode, FIPS 204 Algorithm 22).
    pub fn as_bytes(&self) -> &[u8] {
        self.encoded.as_ref()
    }

    /// The encoded public key as an owned array.
    pub fn to_bytes(&self) -> P::PkBytes {
        self.encoded
    }

    /// tr = H(pk, 64), the public-key hash that enters mu.
    pub fn tr(&self) -> &[u8; 64] {
        &self.tr
    }

    /// mu = H(tr || M', 64) for pure ML-DSA, where M' = 0 || |ctx| || ctx || M
    /// (FIPS 204, Algorithm 2 line 10 and Algorithm 7 line 6): the input of the external-mu
    /// interface.
    pub fn compute_mu(&self, msg: &[u8], ctx: &[u8]) -> Result<[u8; 64], Error> {
        mu::mu_pure(&self.tr, msg, ctx)
    }

    /// FIPS 204, Algorithm 3: ML-DSA.Verify.
    pub fn verify(&self, msg: &[u8], ctx: &[u8], sig: &Signature<P>) -> Result<(), Error> {
        let mu = mu::mu_pure(&self.tr, msg, ctx)?;
        self.verify_mu(&mu, sig)
    }

    /// FIPS 204, Algorithm 3: ML-DSA.Verify on the encoded signature `sig` (sigEncode,
    /// Algorithm 26, `P::SIG_LEN` bytes) as it lies, decoded where it is read: no
    /// [`Signature`] copy of it (up to 4.6 KB) on the stack.
    ///
    /// # Errors
    /// [`Error::InvalidLength`] for a signature of the wrong length, an error for a context
    /// longer than 255 bytes, [`Error::InvalidSignature`] when the signature does not verify.
    pub fn verify_bytes(&self, msg: &[u8], ctx: &[u8], sig: &[u8]) -> Result<(), Error> {
        check_len("signature", sig, P::SIG_LEN)?;
        let mu = mu::mu_pure(&self.tr, msg, ctx)?;
        self.verify_mu_bytes(&mu, sig)
    }

    /// FIPS 204, Algorithm 5: HashML-DSA.Verify with pre-hash `hash`.
    pub fn verify_prehash(
        &self,
        msg: &[u8],
        ctx: &[u8],
        hash: HashAlg,
        sig: &Signature<P>,
    ) -> Result<(), Error> {
        let mu = mu::mu_prehash(&self.tr, msg, ctx, hash)?;
        self.verify_mu(&mu, sig)
    }

    /// FIPS 204, Algorithm 8: ML-DSA.Verify_internal on the formatted message M'.
    pub fn verify_internal(&self, m_prime: &[u8], sig: &Signature<P>) -> Result<(), Error> {
        let mu = mu::mu_internal(&self.tr, m_prime);
        self.verify_mu(&mu, sig)
    }

    /// FIPS 204, Algorithm 8 from line 7 on, for a precomputed mu ("external mu").
    pub fn verify_mu(&self, mu: &[u8; 64], sig: &Signature<P>) -> Result<(), Error> {
        self.verify_mu_bytes(mu, sig.encoded.as_ref())
    }

    /// FIPS 204, Algorithm 8 from line 7 on, with the encoded signature `sig` of
    /// `P::SIG_LEN` bytes.
    fn verify_mu_bytes(&self, mu: &[u8; 64], sig: &[u8]) -> Result<(), Error> {
        if verify::verify_mu::<P>(self, mu, sig) {
            Ok(())
        } else {
            Err(Error::InvalidSignature)
        }
    }
}

impl<P: ParameterSet> PartialEq for VerifyingKey<P> {
    fn eq(&self, other: &Self) -> bool {
        self.encoded == other.encoded
    }
}

impl<P: ParameterSet> Eq for VerifyingKey<P> {}

impl<P: ParameterSet> core::fmt::Debug for VerifyingKey<P> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "VerifyingKey<{}>(", P::NAME)?;
        for b in &self.encoded.as_ref()[..8] {
            write!(f, "{b:02x}")?;
        }
        f.write_str("..)")
    }
}

impl<P: ParameterSet> core::fmt::Debug for SigningKey<P> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "SigningKey<{}>(..)", P::NAME)
    }
}

impl<P: ParameterSet> Signature<P> {
    /// Wraps an encoded signature; checks only the length.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
        check_len("signature", bytes, P::SIG_LEN)?;
        let mut encoded = P::SigBytes::zeroed();
        encoded.as_mut().copy_from_slice(bytes);
        Ok(Self { encoded })
    }

    /// The encoded signature.
    pub fn as_bytes(&self) -> &[u8] {
        self.encoded.as_ref()
    }

    /// The encoded signature as an owned array.
    pub fn to_bytes(&self) -> P::SigBytes {
        self.encoded
    }
}

impl<P: ParameterSet> core::fmt::Debug for Signature<P> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Signature<{}>(", P::NAME)?;
        for b in &self.encoded.as_ref()[..8] {
            write!(f, "{b:02x}")?;
        }
        f.write_str("..)")
    }
}

impl<P: ParameterSet> TryFrom<&[u8]> for Signature<P> {
    type Error = signature::Error;
    fn try_from(bytes: &[u8]) -> Result<Self, signature::Error> {
        Self::from_bytes(bytes).map_err(|_| signature::Error::new())
    }
}

/// The owned byte representation of a [`Signature`] (the `signature` crate's `Repr`).
#[derive(Clone, Copy, Debug)]
pub struct SignatureBytes<P: ParameterSet>(pub P::SigBytes);

impl<P: ParameterSet> AsRef<[u8]> for SignatureBytes<P> {
    fn as_ref(&self) -> &[u8] {
        self.0.as_ref()
    }
}

impl<P: ParameterSet> From<Signature<P>> for SignatureBytes<P> {
    fn from(sig: Signature<P>) -> Self {
        SignatureBytes(sig.encoded)
    }
}

impl<P: ParameterSet> signature::SignatureEncoding for Signature<P> {
    type Repr = SignatureBytes<P>;
}

/// Pure ML-DSA with the empty context, hedged with OS randomness (FIPS 204, Algorithm 2).
#[cfg(feature = "getrandom")]
impl<P: ParameterSet> signature::Signer<Signature<P>> for SigningKey<P> {
    fn try_sign(&self, msg: &[u8]) -> Result<Signature<P>, signature::Error> {
        self.sign(msg, &[]).map_err(|_| signature::Error::new())
    }
}

/// Pure ML-DSA with the empty context, hedged with `rng` (FIPS 204, Algorithm 2).
impl<P: ParameterSet> signature::RandomizedSigner<Signature<P>> for SigningKey<P> {
    fn try_sign_with_rng<R: rand_core::TryCryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        msg: &[u8],
    ) -> Result<Signature<P>, signature::Error> {
        self.sign_with_rng(rng, msg, &[])
            .map_err(|_| signature::Error::new())
    }
}

/// Pure ML-DSA with the empty context (FIPS 204, Algorithm 3).
impl<P: ParameterSet> signature::Verifier<Signature<P>> for VerifyingKey<P> {
    fn verify(&self, msg: &[u8], sig: &Signature<P>) -> Result<(), signature::Error> {
        VerifyingKey::verify(self, msg, &[], sig).map_err(|_| signature::Error::new())
    }
}

impl<P: ParameterSet> signature::Keypair for SigningKey<P> {
    type VerifyingKey = VerifyingKey<P>;
    fn verifying_key(&self) -> VerifyingKey<P> {
        SigningKey::verifying_key(self)
    }
}
