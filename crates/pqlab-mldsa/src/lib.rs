//! ML-DSA, the Module-Lattice-Based Digital Signature Algorithm (FIPS 204), for pqlab.
//!
//! * Parameter sets are types: [`MlDsa44`], [`MlDsa65`], [`MlDsa87`]; one generic implementation
//!   serves all three.
//! * [`SigningKey`]: key generation from OS randomness or from the 32-byte seed xi
//!   (Algorithms 1 and 6), import of the expanded encoding (Algorithm 25), hedged or
//!   deterministic signing with a context (Algorithm 2), HashML-DSA (Algorithm 4), the internal
//!   interface (Algorithm 7) and external mu.
//! * [`ExpandedSigningKey`]: a signing key with the per-key part of signing (ExpandA and the
//!   NTTs of the secrets) done once, for signers of many messages.
//! * [`VerifyingKey`]: verification (Algorithms 3, 5 and 8) and external mu; `verify_bytes`
//!   reads the encoded signature where it lies.
//! * Signing gives up with [`Error::SigningLimitReached`] after [`SIGNING_ATTEMPTS`] rejected
//!   attempts (FIPS 204, Appendix C).
//! * [`sign_encoded`], [`sign_mu_encoded`] (and their `_counted` variants, which return the
//!   rejection loop's iterations) and [`verify_encoded`]: signing and verification on the
//!   encoded keys, into and from the caller's buffers (PQClean's API), decoding nothing whole.
//! * `no_std`, no heap allocation, secrets zeroized on drop; no branch, memory index or
//!   division depends on secret data outside the rejection loops the standard prescribes. In
//!   signing, whether an attempt is accepted is public; the challenge of a rejected attempt is
//!   not revealed (constant-time SampleInBall), nor whether its z or its r0 check rejected it
//!   (both always computed). One residue: the hint stage (`<<c t0>>`, at most omega hints) runs
//!   only where both passed, so its rare rejections (0.3 to 0.8 % of signatures) show.
//! * `<<c s1>>` and `<<c s2>>` are computed exactly on ML-KEM's 16-bit NTT modulo 3329
//!   (`pqlab_mlkem::ring`), as the products of short polynomials they are.
#![no_std]

#[cfg(test)]
extern crate std;

mod backend;
mod ball;
mod encode;
mod encoded;
mod error;
mod expanded;
mod keygen;
mod keys;
mod mu;
mod params;
#[cfg(feature = "pkcs8")]
pub mod pkcs8;
mod poly;
mod prehash;
mod rounding;
mod sample;
mod sign;
mod sign_encoded;
#[cfg(any(feature = "small-memory", test))]
mod sparse;
#[cfg(feature = "reduction-study")]
pub mod study;
mod verify;
#[cfg(feature = "small-memory")]
mod verify_small;

pub use encoded::{key_gen_encoded, verify_encoded};
pub use error::Error;
pub use expanded::ExpandedSigningKey;
pub use keys::{Signature, SignatureBytes, SigningKey, VerifyingKey};
pub use params::{ByteArray, MlDsa44, MlDsa65, MlDsa87, ParameterSet};
pub use prehash::{HashAlg, MAX_DIGEST_LEN};
pub use sign_encoded::{
    sign_encoded, sign_encoded_counted, sign_mu_encoded, sign_mu_encoded_counted,
};

/// The longest context string that FIPS 204 allows, in bytes.
pub const MAX_CONTEXT_LEN: usize = 255;

/// How many attempts of the rejection loop (FIPS 204, Algorithm 7 lines 10 to 32) signing makes
/// before it gives up with [`Error::SigningLimitReached`]: FIPS 204, Appendix C (Table 3) allows
/// a bound and requires it to be at least 814 for every parameter set, for which a key made by
/// ML-DSA.KeyGen reaches it with probability below 2^-256 (the expected number is 4.25 for
/// ML-DSA-44, 5.1 for ML-DSA-65, 3.85 for ML-DSA-87). Unbounded, the loop would never end on
/// a fault that rejects every attempt, and its counter kappa (2 bytes in ExpandMask,
/// Algorithm 34) would wrap after 65536 / l attempts and repeat masks.
pub const SIGNING_ATTEMPTS: u32 = 814;
