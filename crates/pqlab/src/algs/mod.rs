//! The registry of algorithms the tool knows, and the interface each one implements.
//!
//! A command looks an algorithm up by name ([`find`]) or by the object identifier in a key file
//! ([`find_by_oid`]) and works through the [`Algorithm`] trait; signature schemes also
//! implement [`SignatureScheme`], KEMs [`KemScheme`].
//!
//! A scheme plugs in by implementing [`Adapter`] for a type that names its parameter set
//! (its library's secret-key type implements [`LibraryKey`]); the key life cycle (generation,
//! seeds, expanded keys, public keys) is then the same generic code for every scheme. Add one
//! line to [`ALGORITHMS`] and the commands, key files and `pqlab list` know it.

mod falcon;
mod mldsa;
mod mlkem;

use pqlab_mldsa::HashAlg;
use zeroize::Zeroizing;

/// What an algorithm does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A digital signature scheme.
    Signature,
    /// A key-encapsulation mechanism.
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

    /// What an algorithm of this kind is called in messages.
    pub const fn noun(self) -> &'static str {
        match self {
            Kind::Signature => "signature scheme",
            Kind::Kem => "KEM",
        }
    }

    /// The commands for this kind (for hints in messages).
    pub const fn commands(self) -> &'static str {
        match self {
            Kind::Signature => "'pqlab sign' and 'pqlab verify'",
            Kind::Kem => "'pqlab encaps' and 'pqlab decaps'",
        }
    }

    /// The name of the public key ("encapsulation key" for a KEM, as FIPS 203 says).
    pub const fn public_key(self) -> &'static str {
        match self {
            Kind::Signature => "public key",
            Kind::Kem => "encapsulation key",
        }
    }

    /// The name of the secret key ("decapsulation key" for a KEM, as FIPS 203 says).
    pub const fn secret_key(self) -> &'static str {
        match self {
            Kind::Signature => "secret key",
            Kind::Kem => "decapsulation key",
        }
    }

    /// How messages name a public key file.
    pub const fn public_key_file(self) -> &'static str {
        match self {
            Kind::Signature => "public key file",
            Kind::Kem => "encapsulation key file",
        }
    }

    /// How messages name a secret key file.
    pub const fn secret_key_file(self) -> &'static str {
        match self {
            Kind::Signature => "secret key file",
            Kind::Kem => "decapsulation key file",
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
    /// Length of a signature (signature schemes only); the largest length where
    /// [`Info::signature_len_is_max`] says that signatures vary (Falcon).
    pub signature_len: Option<usize>,
    /// Whether signatures vary in length, [`Info::signature_len`] being the largest.
    pub signature_len_is_max: bool,
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
///
/// Implemented for every [`Adapter`]; schemes implement that.
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

    /// Checks a raw public key of [`Info::public_key_len`] bytes (for ML-KEM: the modulus
    /// check of FIPS 203, Section 7.2).
    fn check_public(&self, pk: &[u8]) -> Result<(), String>;

    /// The signature operations, if this is a signature scheme.
    fn as_signature(&self) -> Option<&dyn SignatureScheme>;

    /// The KEM operations, if this is a KEM.
    fn as_kem(&self) -> Option<&dyn KemScheme>;
}

/// A library's secret-key type, driven the same way for every scheme: made from OS randomness,
/// from a seed or from the expanded encoding, and exported as seed (when known), expanded
/// encoding and public key.
pub trait LibraryKey: Sized {
    /// A fresh key from OS randomness (the key keeps its seed).
    fn generate() -> Result<Self, String>;

    /// The key derived from `seed` (the caller checked its length).
    fn from_seed(seed: &[u8]) -> Result<Self, String>;

    /// The key in the standard's expanded encoding, after the standard's checks.
    fn from_expanded(expanded: &[u8]) -> Result<Self, String>;

    /// The seed the key was made from, if it was made from one.
    fn seed(&self) -> Option<&[u8]>;

    /// The standard's expanded encoding.
    fn expanded(&self) -> Zeroizing<Vec<u8>>;

    /// The encoded public key.
    fn public(&self) -> Vec<u8>;

    /// The key as the tool's [`SecretKey`].
    fn export(&self) -> SecretKey {
        SecretKey {
            seed: self.seed().map(|s| Zeroizing::new(s.to_vec())),
            expanded: self.expanded(),
        }
    }

    /// The library's key for the tool's [`SecretKey`] (from the seed when there is one).
    fn import(sk: &SecretKey) -> Result<Self, String> {
        match &sk.seed {
            Some(seed) => Self::from_seed(seed),
            None => Self::from_expanded(&sk.expanded),
        }
    }
}

/// What a scheme provides to be an [`Algorithm`]: its facts, its library key type and its
/// operations. Everything else is generic.
pub trait Adapter: Sync {
    /// The library's secret-key type of this parameter set.
    type Key: LibraryKey;

    /// Names, standard and sizes.
    fn info(&self) -> Info;

    /// See [`Algorithm::check_public`].
    fn check_public(&self, pk: &[u8]) -> Result<(), String>;

    /// The signature operations, if this is a signature scheme.
    fn as_signature(&self) -> Option<&dyn SignatureScheme> {
        None
    }

    /// The KEM operations, if this is a KEM.
    fn as_kem(&self) -> Option<&dyn KemScheme> {
        None
    }
}

impl<A: Adapter> Algorithm for A {
    fn info(&self) -> Info {
        Adapter::info(self)
    }

    fn keygen(&self, seed: Option<&[u8]>) -> Result<KeyPair, String> {
        let key = match seed {
            Some(seed) => A::Key::from_seed(seed),
            None => A::Key::generate(),
        }?;
        Ok(KeyPair {
            public: key.public(),
            secret: key.export(),
        })
    }

    fn secret_from_seed(&self, seed: &[u8]) -> Result<SecretKey, String> {
        Ok(A::Key::from_seed(seed)?.export())
    }

    fn secret_from_expanded(&self, expanded: &[u8]) -> Result<SecretKey, String> {
        // Checked, but kept as given (the library may re-encode in a canonical form).
        A::Key::from_expanded(expanded)?;
        Ok(SecretKey {
            seed: None,
            expanded: Zeroizing::new(expanded.to_vec()),
        })
    }

    fn public_from_secret(&self, sk: &SecretKey) -> Result<Vec<u8>, String> {
        Ok(A::Key::import(sk)?.public())
    }

    fn check_public(&self, pk: &[u8]) -> Result<(), String> {
        Adapter::check_public(self, pk)
    }

    fn as_signature(&self) -> Option<&dyn SignatureScheme> {
        Adapter::as_signature(self)
    }

    fn as_kem(&self) -> Option<&dyn KemScheme> {
        Adapter::as_kem(self)
    }
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

    /// Checks that `sig` is a well-formed signature encoding (for schemes whose signatures
    /// have a structure beyond their length, such as Falcon's compressed s2), so that a
    /// malformed signature file is an input error rather than an invalid signature.
    fn check_signature(&self, _sig: &[u8]) -> Result<(), String> {
        Ok(())
    }

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

/// The operations of a key-encapsulation mechanism.
pub trait KemScheme {
    /// Encapsulates to the encapsulation key `ek` (which passed [`Algorithm::check_public`])
    /// with OS randomness: the ciphertext and the shared secret.
    fn encapsulate(&self, ek: &[u8]) -> Result<(Vec<u8>, Zeroizing<Vec<u8>>), String>;

    /// Decapsulates `ct` (of [`Info::ciphertext_len`] bytes; the caller checks) with `sk`: the
    /// shared secret, or the implicit-rejection secret for a ciphertext that does not
    /// decrypt consistently (not an error).
    fn decapsulate(&self, sk: &SecretKey, ct: &[u8]) -> Result<Zeroizing<Vec<u8>>, String>;
}

/// Every algorithm the tool implements, in the order `pqlab list` shows them.
pub static ALGORITHMS: &[&dyn Algorithm] = &[
    &mldsa::ML_DSA_44,
    &mldsa::ML_DSA_65,
    &mldsa::ML_DSA_87,
    &falcon::FALCON_512,
    &falcon::FALCON_1024,
    &mlkem::ML_KEM_512,
    &mlkem::ML_KEM_768,
    &mlkem::ML_KEM_1024,
];

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
    fn sizes_match_fips_204_and_203_and_falcon_round_3() {
        let sizes: Vec<_> = ALGORITHMS
            .iter()
            .map(|a| {
                let i = a.info();
                (
                    i.name,
                    i.kind,
                    i.public_key_len,
                    i.secret_key_len,
                    i.seed_len,
                    i.signature_len,
                    i.ciphertext_len,
                )
            })
            .collect();
        let (sig, kem) = (Kind::Signature, Kind::Kem);
        assert_eq!(
            sizes,
            [
                ("ml-dsa-44", sig, 1312, 2560, 32, Some(2420), None),
                ("ml-dsa-65", sig, 1952, 4032, 32, Some(3309), None),
                ("ml-dsa-87", sig, 2592, 4896, 32, Some(4627), None),
                ("falcon-512", sig, 897, 1281, 48, Some(688), None),
                ("falcon-1024", sig, 1793, 2305, 48, Some(1328), None),
                ("ml-kem-512", kem, 800, 1632, 64, None, Some(768)),
                ("ml-kem-768", kem, 1184, 2400, 64, None, Some(1088)),
                ("ml-kem-1024", kem, 1568, 3168, 64, None, Some(1568)),
            ]
        );
    }

    #[test]
    fn each_algorithm_has_the_operations_of_its_kind() {
        for a in ALGORITHMS {
            let kind = a.info().kind;
            assert_eq!(a.as_signature().is_some(), kind == Kind::Signature);
            assert_eq!(a.as_kem().is_some(), kind == Kind::Kem);
        }
    }
}
