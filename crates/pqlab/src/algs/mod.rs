//! The registry of algorithms the tool knows, and the interface each one implements.
//!
//! A command looks an algorithm up by name ([`find`]) or by the object identifier in a key file
//! ([`find_by_oid`]) and works through the [`Algorithm`] trait; signature schemes also
//! implement [`SignatureScheme`]. A new scheme (ML-KEM, Falcon) plugs in by implementing these
//! traits and adding one line to [`ALGORITHMS`].

mod mldsa;

use pqlab_mldsa::HashAlg;
use zeroize::Zeroizing;

/// What an algorithm does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A digital signature scheme.
    Signature,
    /// A key-encapsulation mechanism.
    #[allow(dead_code)] // for ML-KEM, which is not wired in yet
    Kem,
}

impl Kind {
    /// The word `pqlab list` prints.
    pub const fn as_str(self) -> &'static str {
        match self {
            Kind::Signature => "signature",
            Kind::Kem => "KEM",
        }
    }
}

/// The fixed facts about an algorithm: names, standard and encoded sizes in bytes.
#[derive(Clone, Copy, Debug)]
pub struct Info {
    /// The command-line name (`ml-dsa-65`).
    pub name: &'static str,
    /// The standard that defines it (`FIPS 204`).
    pub standard: &'static str,
    /// Signature scheme or KEM.
    pub kind: Kind,
    /// The object identifier of SubjectPublicKeyInfo and PKCS#8, dotted.
    pub oid: &'static str,
    /// Length of the raw public key.
    pub public_key_len: usize,
    /// Length of the raw (expanded) secret key.
    pub secret_key_len: usize,
    /// Length of the seed the key pair is derived from.
    pub seed_len: usize,
    /// Length of a signature (signature schemes only).
    pub signature_len: Option<usize>,
    /// Length of a ciphertext (KEMs only).
    pub ciphertext_len: Option<usize>,
}

/// A secret key as the tool holds it: always the expanded encoding, and the seed when the key
/// came from one (so that it can be written in seed form). Both are zeroized on drop.
pub struct SecretKey {
    /// The seed the key was derived from, if known.
    pub seed: Option<Zeroizing<Vec<u8>>>,
    /// The standard's expanded encoding of the secret key.
    pub expanded: Zeroizing<Vec<u8>>,
}

/// A freshly generated key pair.
pub struct KeyPair {
    /// The raw public key.
    pub public: Vec<u8>,
    /// The secret key (with its seed).
    pub secret: SecretKey,
}

/// How to sign or verify: context string and pre-hash (ML-DSA; other schemes may reject them).
#[derive(Clone, Copy, Debug)]
pub struct SignOptions<'a> {
    /// The context string (at most 255 bytes).
    pub context: &'a [u8],
    /// The pre-hash function of HashML-DSA, or `None` for pure signing.
    pub prehash: Option<HashAlg>,
}

/// An algorithm of the registry. Errors are short descriptions of the problem; the caller adds
/// which file or argument it was about.
pub trait Algorithm: Sync {
    /// Names, standard and sizes.
    fn info(&self) -> Info;

    /// Generates a key pair, from `seed` (exactly [`Info::seed_len`] bytes) or from OS
    /// randomness.
    fn keygen(&self, seed: Option<&[u8]>) -> Result<KeyPair, String>;

    /// Derives the secret key from its seed (exactly [`Info::seed_len`] bytes).
    fn secret_from_seed(&self, seed: &[u8]) -> Result<SecretKey, String>;

    /// Checks and imports an expanded secret key (exactly [`Info::secret_key_len`] bytes).
    fn secret_from_expanded(&self, expanded: &[u8]) -> Result<SecretKey, String>;

    /// The public key that belongs to `sk`.
    fn public_from_secret(&self, sk: &SecretKey) -> Result<Vec<u8>, String>;

    /// The signature operations, if this is a signature scheme.
    fn as_signature(&self) -> Option<&dyn SignatureScheme>;
}

/// The operations of a signature scheme.
pub trait SignatureScheme {
    /// Signs `msg`; hedged with OS randomness unless `deterministic`.
    fn sign(
        &self,
        sk: &SecretKey,
        msg: &[u8],
        opts: SignOptions<'_>,
        deterministic: bool,
    ) -> Result<Vec<u8>, String>;

    /// Verifies `sig` on `msg`: `Ok(true)` if it is valid, `Ok(false)` if not. The key and
    /// signature have the lengths of [`Info`] (the caller checks them first).
    fn verify(
        &self,
        pk: &[u8],
        msg: &[u8],
        opts: SignOptions<'_>,
        sig: &[u8],
    ) -> Result<bool, String>;
}

/// Every algorithm the tool implements, in the order `pqlab list` shows them.
pub static ALGORITHMS: &[&dyn Algorithm] =
    &[&mldsa::ML_DSA_44, &mldsa::ML_DSA_65, &mldsa::ML_DSA_87];

/// Looks an algorithm up by its command-line name, case-insensitively.
pub fn find(name: &str) -> Option<&'static dyn Algorithm> {
    ALGORITHMS
        .iter()
        .copied()
        .find(|a| a.info().name.eq_ignore_ascii_case(name))
}

/// Looks an algorithm up by the dotted object identifier of its keys.
pub fn find_by_oid(oid: &str) -> Option<&'static dyn Algorithm> {
    ALGORITHMS.iter().copied().find(|a| a.info().oid == oid)
}

/// The names of all algorithms, comma-separated (for error messages).
pub fn names() -> String {
    ALGORITHMS
        .iter()
        .map(|a| a.info().name)
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_oids_are_unique_and_found() {
        for a in ALGORITHMS {
            let info = a.info();
            assert_eq!(find(info.name).map(|b| b.info().name), Some(info.name));
            assert_eq!(
                find(&info.name.to_ascii_uppercase()).map(|b| b.info().name),
                Some(info.name)
            );
            assert_eq!(
                find_by_oid(info.oid).map(|b| b.info().name),
                Some(info.name)
            );
        }
        assert!(find("ml-dsa-99").is_none());
        assert!(find_by_oid("1.2.3").is_none());
    }

    #[test]
    fn ml_dsa_sizes_match_fips_204() {
        let sizes: Vec<_> = ALGORITHMS
            .iter()
            .map(|a| {
                let i = a.info();
                (i.name, i.public_key_len, i.secret_key_len, i.signature_len)
            })
            .collect();
        assert_eq!(
            sizes,
            [
                ("ml-dsa-44", 1312, 2560, Some(2420)),
                ("ml-dsa-65", 1952, 4032, Some(3309)),
                ("ml-dsa-87", 2592, 4896, Some(4627)),
            ]
        );
    }
}
