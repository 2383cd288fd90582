//! The registry of implementations the lab measures: one entry per implementation and
//! parameter set, behind two small object-safe traits ([`SignatureImpl`], [`KemImpl`]).
//!
//! Every implementation exchanges keys, signatures and ciphertexts as the standard's byte
//! encodings, so that one implementation's output can be checked by another before anything is
//! timed. Keys are parsed once (as a server holding a key would) into a [`Signer`],
//! [`Verifier`], [`Encapsulator`] or [`Decapsulator`]; the timed operations run on those.
//!
//! A new scheme or peer is one more entry in `all`: implement the trait for a type that names
//! it (see `ours.rs` for pqlab's own schemes and `peers.rs` for the others).

use crate::LabError;

/// What an algorithm is: a signature scheme or a KEM.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// A digital signature scheme (keygen, sign, verify).
    Signature,
    /// A key-encapsulation mechanism (keygen, encaps, decaps).
    Kem,
}

/// An operation the lab times.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Op {
    /// Key generation from fresh OS randomness.
    Keygen,
    /// Signing a fresh random message (hedged signing where the scheme has it).
    Sign,
    /// Verifying a valid signature.
    Verify,
    /// Encapsulation with fresh randomness.
    Encaps,
    /// Decapsulation of a valid ciphertext.
    Decaps,
}

impl Op {
    /// Every operation, in report order.
    pub const ALL: [Op; 5] = [Op::Keygen, Op::Sign, Op::Verify, Op::Encaps, Op::Decaps];

    /// The name used on the command line and in the JSON report.
    pub const fn name(self) -> &'static str {
        match self {
            Op::Keygen => "keygen",
            Op::Sign => "sign",
            Op::Verify => "verify",
            Op::Encaps => "encaps",
            Op::Decaps => "decaps",
        }
    }

    /// The operation called `name`, if there is one.
    pub fn from_name(name: &str) -> Option<Op> {
        Op::ALL.into_iter().find(|op| op.name() == name)
    }

    /// Whether an algorithm of `kind` has this operation.
    pub const fn applies_to(self, kind: Kind) -> bool {
        match self {
            Op::Keygen => true,
            Op::Sign | Op::Verify => matches!(kind, Kind::Signature),
            Op::Encaps | Op::Decaps => matches!(kind, Kind::Kem),
        }
    }

    /// Whether the operation depends on the message length.
    pub const fn takes_message(self) -> bool {
        matches!(self, Op::Sign | Op::Verify)
    }
}

/// The fixed facts about one implementation of one parameter set.
#[derive(Clone, Copy, Debug)]
pub struct ImplInfo {
    /// The implementation: `pqlab` for ours, else the crate or library (`rustcrypto`,
    /// `pqcrypto`, ...).
    pub implementation: &'static str,
    /// The algorithm's name (DESIGN §2: `ml-dsa-65`, `ml-kem-768`, `falcon-512`, ...).
    pub alg: &'static str,
    /// Signature scheme or KEM.
    pub kind: Kind,
    /// The standard or specification.
    pub standard: &'static str,
    /// Bytes of the public (encapsulation) key.
    pub public_key: usize,
    /// Bytes of the secret (decapsulation) key in the implementation's usual encoding.
    pub secret_key: usize,
    /// Bytes of a signature (signature schemes).
    pub signature: Option<usize>,
    /// Bytes of a ciphertext (KEMs).
    pub ciphertext: Option<usize>,
}

impl ImplInfo {
    /// A signature scheme's facts: `sizes` = public key, secret key and (largest) signature, in
    /// bytes.
    pub const fn signature(
        implementation: &'static str,
        alg: &'static str,
        standard: &'static str,
        sizes: [usize; 3],
    ) -> ImplInfo {
        ImplInfo {
            implementation,
            alg,
            kind: Kind::Signature,
            standard,
            public_key: sizes[0],
            secret_key: sizes[1],
            signature: Some(sizes[2]),
            ciphertext: None,
        }
    }

    /// A KEM's facts: `sizes` = encapsulation key, decapsulation key and ciphertext, in bytes.
    pub const fn kem(
        implementation: &'static str,
        alg: &'static str,
        standard: &'static str,
        sizes: [usize; 3],
    ) -> ImplInfo {
        ImplInfo {
            implementation,
            alg,
            kind: Kind::Kem,
            standard,
            public_key: sizes[0],
            secret_key: sizes[1],
            signature: None,
            ciphertext: Some(sizes[2]),
        }
    }
}

/// A key pair in the standard's encodings. Key generation writes into one (clearing it first
/// and reusing its capacity), so that the lab's buffers cost the measured call no allocation.
#[derive(Clone, Debug, Default)]
pub struct KeyPair {
    /// The public (encapsulation) key.
    pub public: Vec<u8>,
    /// The secret (decapsulation) key.
    pub secret: Vec<u8>,
}

/// A parsed signing key.
pub trait Signer: Send + Sync {
    /// Signs `msg` with fresh randomness, writing the encoded signature to `out` (cleared
    /// first; its capacity is reused, so that the lab's own buffer costs no allocation).
    fn sign(&self, msg: &[u8], out: &mut Vec<u8>) -> Result<(), LabError>;

    /// Signs like [`Signer::sign`] and returns the number of iterations of the signing loop
    /// (rejection sampling), where the implementation reports it.
    fn sign_counting(&self, msg: &[u8], out: &mut Vec<u8>) -> Result<Option<u32>, LabError> {
        self.sign(msg, out).map(|()| None)
    }
}

/// A parsed verifying key.
pub trait Verifier: Send + Sync {
    /// Whether `sig` is a valid signature on `msg`.
    fn verify(&self, msg: &[u8], sig: &[u8]) -> bool;
}

/// A parsed encapsulation key.
pub trait Encapsulator: Send + Sync {
    /// Encapsulates with fresh randomness: the ciphertext goes to `ct` (cleared first), the
    /// 32-byte shared secret to `ss`.
    fn encaps(&self, ct: &mut Vec<u8>, ss: &mut [u8; 32]) -> Result<(), LabError>;
}

/// A parsed decapsulation key.
pub trait Decapsulator: Send + Sync {
    /// Decapsulates `ct` into `ss` (the implicit-rejection secret for a bad ciphertext).
    fn decaps(&self, ct: &[u8], ss: &mut [u8; 32]) -> Result<(), LabError>;
}

/// One implementation of one signature parameter set.
pub trait SignatureImpl: Sync {
    /// Names and sizes.
    fn info(&self) -> ImplInfo;
    /// A fresh key pair from OS randomness, written into `out`.
    fn keygen(&self, out: &mut KeyPair) -> Result<(), LabError>;
    /// Parses a secret key made by this implementation's [`SignatureImpl::keygen`].
    fn signer(&self, secret: &[u8]) -> Result<Box<dyn Signer>, LabError>;
    /// Parses a public key in the standard's encoding (from any implementation).
    fn verifier(&self, public: &[u8]) -> Result<Box<dyn Verifier>, LabError>;

    /// The variant of the implementation that this entry measures, if it is not the plain
    /// one (Falcon: signing with an `expanded key`).
    fn variant(&self) -> Option<&'static str> {
        None
    }

    /// Whether signatures vary in length ([`ImplInfo::signature`] is then the largest).
    fn signature_varies(&self) -> bool {
        false
    }

    /// Whether this entry measures `op` at all, of the signature operations (a variant may
    /// measure only signing).
    fn measures(&self, op: Op) -> bool {
        op.applies_to(Kind::Signature)
    }

    /// Why `op` cannot be measured in this build, if it cannot (it is then left out, and the
    /// report says why).
    fn unavailable(&self, _op: Op) -> Option<String> {
        None
    }
    /// For a peer of a related algorithm that is not byte-compatible with pqlab's (FN-DSA
    /// beside Falcon): the check that can still be made (`Ok`: what was checked, and the peer
    /// is timed; `Err`: what failed, and it is not). `None` for every other implementation.
    fn related_check(&self) -> Option<Result<String, String>> {
        None
    }
}

/// One implementation of one KEM parameter set.
pub trait KemImpl: Sync {
    /// Names and sizes.
    fn info(&self) -> ImplInfo;
    /// A fresh key pair from OS randomness, written into `out`.
    fn keygen(&self, out: &mut KeyPair) -> Result<(), LabError>;
    /// Parses an encapsulation key in the standard's encoding (from any implementation).
    fn encapsulator(&self, public: &[u8]) -> Result<Box<dyn Encapsulator>, LabError>;
    /// Parses a decapsulation key made by this implementation's [`KemImpl::keygen`].
    fn decapsulator(&self, secret: &[u8]) -> Result<Box<dyn Decapsulator>, LabError>;
}

/// A registry entry.
#[derive(Clone, Copy)]
pub enum Entry {
    /// A signature scheme.
    Signature(&'static dyn SignatureImpl),
    /// A KEM.
    Kem(&'static dyn KemImpl),
}

impl Entry {
    /// Names and sizes.
    pub fn info(&self) -> ImplInfo {
        match self {
            Entry::Signature(s) => s.info(),
            Entry::Kem(k) => k.info(),
        }
    }

    /// The variant measured, if not the plain implementation.
    pub fn variant(&self) -> Option<&'static str> {
        match self {
            Entry::Signature(s) => s.variant(),
            Entry::Kem(_) => None,
        }
    }

    /// Whether signatures vary in length.
    pub fn signature_varies(&self) -> bool {
        matches!(self, Entry::Signature(s) if s.signature_varies())
    }

    /// Whether this entry measures `op`.
    pub fn measures(&self, op: Op) -> bool {
        match self {
            Entry::Signature(s) => op.applies_to(Kind::Signature) && s.measures(op),
            Entry::Kem(_) => op.applies_to(Kind::Kem),
        }
    }

    /// Why `op` cannot be measured in this build, if it cannot.
    pub fn unavailable(&self, op: Op) -> Option<String> {
        match self {
            Entry::Signature(s) => s.unavailable(op),
            Entry::Kem(_) => None,
        }
    }
}

/// pqlab's own implementations, in report order.
pub fn ours() -> Vec<Entry> {
    crate::ours::ENTRIES.to_vec()
}

/// Other implementations (empty unless the `peers` feature is on).
pub fn peers() -> Vec<Entry> {
    #[cfg(feature = "peers")]
    {
        crate::peers::entries()
    }
    #[cfg(not(feature = "peers"))]
    {
        Vec::new()
    }
}

/// The names of the algorithms pqlab implements (for `--algs` and its error message).
pub fn algorithm_names() -> Vec<&'static str> {
    let mut names: Vec<&'static str> = ours().iter().map(|e| e.info().alg).collect();
    names.dedup();
    names
}

impl KeyPair {
    /// Replaces the contents with copies of `public` and `secret`.
    pub fn set(&mut self, public: &[u8], secret: &[u8]) {
        self.public.clear();
        self.public.extend_from_slice(public);
        self.secret.clear();
        self.secret.extend_from_slice(secret);
    }
}
