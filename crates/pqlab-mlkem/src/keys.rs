//! The key, ciphertext and shared-secret types and the external interface of FIPS 203,
//! Section 7 (Algorithms 19, 20 and 21) with its input checks.

use pqlab_arith::array::FixedArray;
use subtle::ConstantTimeEq;
use zeroize::{Zeroize, ZeroizeOnDrop};

use crate::error::check_len;
use crate::kpke::PkeEncryptionKey;
use crate::params::{ByteArray, ParameterSet, SEED_LEN, SHARED_SECRET_LEN};
use crate::{Error, kem};

/// An ML-KEM encapsulation key (FIPS 203: ek), checked and decoded: its encoding, H(ek) and the
/// decoded t_hat with the matrix A_hat expanded from rho (public data).
#[derive(Clone)]
pub struct EncapsulationKey<P: ParameterSet> {
    pub(crate) encoded: P::EkBytes,
    /// H(ek), computed once.
    pub(crate) h: [u8; 32],
    pub(crate) pke: PkeEncryptionKey<P>,
}

/// An ML-KEM decapsulation key (FIPS 203: dk), decoded, with its encapsulation key. It keeps the
/// seed d || z when it was made from one (so that it can be exported in seed form, the preferred
/// format), and is always exportable in the expanded form of Algorithm 16. Zeroized on drop.
#[derive(Clone, Zeroize, ZeroizeOnDrop)]
pub struct DecapsulationKey<P: ParameterSet> {
    /// s_hat, coefficients in [0, q).
    pub(crate) s_hat: P::VecK,
    /// The embedded encapsulation key (public, so not zeroized).
    #[zeroize(skip)]
    pub(crate) ek: EncapsulationKey<P>,
    /// d || z; d is all zero when `has_seed` is false (a key imported in expanded form).
    pub(crate) seed: [u8; SEED_LEN],
    pub(crate) has_seed: bool,
}

/// An ML-KEM ciphertext (FIPS 203: c) of the right length for its parameter set. Every byte
/// string of that length is a ciphertext: decapsulation rejects bad ones implicitly.
#[derive(Clone, Copy)]
pub struct Ciphertext<P: ParameterSet> {
    pub(crate) encoded: P::CtBytes,
}

/// A 32-byte shared secret key K. Compared in constant time; zeroized on drop.
#[derive(Clone, Zeroize, ZeroizeOnDrop)]
pub struct SharedSecret(pub(crate) [u8; SHARED_SECRET_LEN]);

/// Reads `N` fresh bytes from the operating system.
#[cfg(feature = "getrandom")]
fn os_random<const N: usize>() -> Result<[u8; N], Error> {
    let mut b = [0u8; N];
    getrandom::fill(&mut b).map_err(|_| Error::Randomness)?;
    Ok(b)
}

/// Reads 32 bytes from a caller's random number generator.
fn rng_32<R: rand_core::TryCryptoRng + ?Sized>(rng: &mut R) -> Result<[u8; 32], Error> {
    let mut b = [0u8; 32];
    rng.try_fill_bytes(&mut b).map_err(|_| Error::Randomness)?;
    Ok(b)
}

impl<P: ParameterSet> EncapsulationKey<P> {
    /// A key with every field zero, to be filled in place by the key generation and import.
    pub(crate) fn empty() -> Self {
        Self {
            encoded: P::EkBytes::zeroed(),
            h: [0; 32],
            pke: PkeEncryptionKey::EMPTY,
        }
    }

    /// Imports an encoded encapsulation key after the checks of FIPS 203, Section 7.2 (the input
    /// check of Algorithm 20): the length must be 384 k + 32 ([`Error::InvalidLength`]) and
    /// ByteEncode12(ByteDecode12(ek)) must equal ek, i.e. every coefficient is below q
    /// ([`Error::ModulusCheck`]).
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
        kem::check_encapsulation_key::<P>(bytes, None)
    }

    /// The encoded encapsulation key.
    pub fn as_bytes(&self) -> &[u8] {
        self.encoded.as_ref()
    }

    /// The encoded encapsulation key as an owned array.
    pub fn to_bytes(&self) -> P::EkBytes {
        self.encoded
    }

    /// H(ek) = SHA3-256(ek), the hash that the decapsulation key stores and that enters G.
    pub fn hash(&self) -> &[u8; 32] {
        &self.h
    }

    /// FIPS 203, Algorithm 20: ML-KEM.Encaps(ek), with the 32-byte m from the operating system.
    #[cfg(feature = "getrandom")]
    pub fn encapsulate(&self) -> Result<(Ciphertext<P>, SharedSecret), Error> {
        let mut m = os_random::<32>()?;
        let out = self.encapsulate_deterministic(&m);
        m.zeroize();
        Ok(out)
    }

    /// FIPS 203, Algorithm 20: ML-KEM.Encaps(ek), with the 32-byte m from `rng`.
    pub fn encapsulate_with_rng<R: rand_core::TryCryptoRng + ?Sized>(
        &self,
        rng: &mut R,
    ) -> Result<(Ciphertext<P>, SharedSecret), Error> {
        let mut m = rng_32(rng)?;
        let out = self.encapsulate_deterministic(&m);
        m.zeroize();
        Ok(out)
    }

    /// FIPS 203, Algorithm 17: ML-KEM.Encaps_internal(ek, m), for a given m (a test interface:
    /// m must be 32 fresh random bytes, never reused).
    pub fn encapsulate_deterministic(&self, m: &[u8; 32]) -> (Ciphertext<P>, SharedSecret) {
        let mut out = (
            Ciphertext {
                encoded: P::CtBytes::zeroed(),
            },
            SharedSecret([0; SHARED_SECRET_LEN]),
        );
        kem::encaps_internal::<P>(self, m, &mut out);
        out
    }
}

impl<P: ParameterSet> PartialEq for EncapsulationKey<P> {
    fn eq(&self, other: &Self) -> bool {
        self.encoded == other.encoded
    }
}

impl<P: ParameterSet> Eq for EncapsulationKey<P> {}

impl<P: ParameterSet> core::fmt::Debug for EncapsulationKey<P> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "EncapsulationKey<{}>(", P::NAME)?;
        for b in &self.encoded.as_ref()[..8] {
            write!(f, "{b:02x}")?;
        }
        f.write_str("..)")
    }
}

impl<P: ParameterSet> DecapsulationKey<P> {
    /// A key with every field zero and no seed, to be filled in place by the key generation.
    pub(crate) fn empty() -> Self {
        Self {
            s_hat: P::VecK::ZERO,
            ek: EncapsulationKey::empty(),
            seed: [0; SEED_LEN],
            has_seed: false,
        }
    }

    /// FIPS 203, Algorithm 19: ML-KEM.KeyGen, with d and z from the operating system.
    #[cfg(feature = "getrandom")]
    /// One read of 64 bytes (d || z) rather than two: the system call is a tenth of a key
    /// generation.
    pub fn generate() -> Result<Self, Error> {
        let mut seed = os_random::<64>()?;
        let mut dk = Self::empty();
        kem::key_gen_internal::<P>(&seed[..32], &seed[32..], &mut dk);
        seed.zeroize();
        Ok(dk)
    }

    /// FIPS 203, Algorithm 19: ML-KEM.KeyGen, with d and then z (32 bytes each) from `rng`.
    pub fn generate_with_rng<R: rand_core::TryCryptoRng + ?Sized>(
        rng: &mut R,
    ) -> Result<Self, Error> {
        let mut d = rng_32(rng)?;
        let mut z = rng_32(rng)?;
        let mut dk = Self::empty();
        kem::key_gen_internal::<P>(&d, &z, &mut dk);
        d.zeroize();
        z.zeroize();
        Ok(dk)
    }

    /// FIPS 203, Algorithm 16: ML-KEM.KeyGen_internal(d, z). The key keeps the seed d || z.
    pub fn from_seed(d: &[u8; 32], z: &[u8; 32]) -> Self {
        let mut dk = Self::empty();
        kem::key_gen_internal::<P>(d, z, &mut dk);
        dk
    }

    /// Like [`DecapsulationKey::from_seed`], from the 64-byte seed-form key d || z (the seed
    /// format of FIPS 203, Section 7.1 and of the IETF private-key formats).
    pub fn from_seed_bytes(seed: &[u8]) -> Result<Self, Error> {
        check_len("decapsulation key seed", seed, SEED_LEN)?;
        let mut dk = Self::empty();
        kem::key_gen_internal::<P>(&seed[..32], &seed[32..], &mut dk);
        Ok(dk)
    }

    /// Imports an expanded decapsulation key dk = dk_PKE || ek || H(ek) || z (the output of
    /// Algorithm 16) after the checks of FIPS 203, Section 7.3: the length must be 768 k + 96
    /// ([`Error::InvalidLength`]) and the stored H(ek) must be the hash of the embedded ek
    /// ([`Error::HashCheck`]). The embedded ek must also pass the modulus check of Section 7.2
    /// ([`Error::ModulusCheck`]), as every generated key does. Coefficients of dk_PKE are read
    /// mod q, as ByteDecode12 prescribes. The key has no seed.
    pub fn from_expanded(bytes: &[u8]) -> Result<Self, Error> {
        kem::check_decapsulation_key::<P>(bytes)
    }

    /// The expanded encoding dk = ByteEncode12(s_hat) || ek || H(ek) || z (FIPS 203,
    /// Algorithm 16 line 3). For a key imported from expanded bytes whose dk_PKE held values
    /// not below q, this is the canonical (reduced) form of that key.
    pub fn to_expanded(&self) -> P::DkBytes {
        let mut out = P::DkBytes::zeroed();
        kem::encode_decapsulation_key::<P>(self, out.as_mut());
        out
    }

    /// The seed-form key d || z the key was made from, if it was made from one.
    pub fn seed(&self) -> Option<&[u8; SEED_LEN]> {
        self.has_seed.then_some(&self.seed)
    }

    /// The implicit-rejection value z.
    pub(crate) fn z(&self) -> &[u8] {
        &self.seed[32..]
    }

    /// The matching encapsulation key.
    pub fn encapsulation_key(&self) -> &EncapsulationKey<P> {
        &self.ek
    }

    /// FIPS 203, Algorithm 21: ML-KEM.Decaps(dk, c) (Algorithm 18: ML-KEM.Decaps_internal). The
    /// ciphertext type check of Section 7.3 is done by [`Ciphertext::from_bytes`]; a ciphertext
    /// that fails re-encryption gives the implicit-rejection key J(z || c), never an error.
    pub fn decapsulate(&self, c: &Ciphertext<P>) -> SharedSecret {
        kem::decaps_internal::<P>(self, c)
    }
}

impl<P: ParameterSet> core::fmt::Debug for DecapsulationKey<P> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "DecapsulationKey<{}>(..)", P::NAME)
    }
}

impl<P: ParameterSet> Ciphertext<P> {
    /// Wraps an encoded ciphertext after the ciphertext type check of FIPS 203, Section 7.3:
    /// the length must be 32 (du k + dv).
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
        check_len("ciphertext", bytes, P::CT_LEN)?;
        let mut encoded = P::CtBytes::zeroed();
        encoded.as_mut().copy_from_slice(bytes);
        Ok(Self { encoded })
    }

    /// The encoded ciphertext.
    pub fn as_bytes(&self) -> &[u8] {
        self.encoded.as_ref()
    }

    /// The encoded ciphertext as an owned array.
    pub fn to_bytes(&self) -> P::CtBytes {
        self.encoded
    }
}

impl<P: ParameterSet> PartialEq for Ciphertext<P> {
    fn eq(&self, other: &Self) -> bool {
        self.encoded == other.encoded
    }
}

impl<P: ParameterSet> Eq for Ciphertext<P> {}

impl<P: ParameterSet> core::fmt::Debug for Ciphertext<P> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Ciphertext<{}>(", P::NAME)?;
        for b in &self.encoded.as_ref()[..8] {
            write!(f, "{b:02x}")?;
        }
        f.write_str("..)")
    }
}

impl<P: ParameterSet> TryFrom<&[u8]> for Ciphertext<P> {
    type Error = Error;
    fn try_from(bytes: &[u8]) -> Result<Self, Error> {
        Self::from_bytes(bytes)
    }
}

impl<P: ParameterSet> TryFrom<&[u8]> for EncapsulationKey<P> {
    type Error = Error;
    fn try_from(bytes: &[u8]) -> Result<Self, Error> {
        Self::from_bytes(bytes)
    }
}

impl SharedSecret {
    /// The 32 bytes of the shared secret key.
    pub fn as_bytes(&self) -> &[u8; SHARED_SECRET_LEN] {
        &self.0
    }
}

impl AsRef<[u8]> for SharedSecret {
    fn as_ref(&self) -> &[u8] {
        &self.0
    }
}

impl ConstantTimeEq for SharedSecret {
    fn ct_eq(&self, other: &Self) -> subtle::Choice {
        self.0.ct_eq(&other.0)
    }
}

/// Constant-time equality.
impl PartialEq for SharedSecret {
    fn eq(&self, other: &Self) -> bool {
        self.ct_eq(other).into()
    }
}

impl Eq for SharedSecret {}

impl core::fmt::Debug for SharedSecret {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("SharedSecret(..)")
    }
}
