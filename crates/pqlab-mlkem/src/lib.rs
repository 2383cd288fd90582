//! ML-KEM, the Module-Lattice-Based Key-Encapsulation Mechanism (FIPS 203), for pqlab.
//!
//! * Parameter sets are types: [`MlKem512`], [`MlKem768`], [`MlKem1024`]; one generic
//!   implementation serves all three.
//! * [`DecapsulationKey`]: key generation from OS randomness or from the seed (d, z)
//!   (Algorithms 19 and 16), import and export in seed form (64 bytes d || z) and in the expanded
//!   form of Algorithm 16 with the checks of Section 7.3, and decapsulation with implicit
//!   rejection (Algorithms 21 and 18).
//! * [`EncapsulationKey`]: import with the checks of Section 7.2 and encapsulation with fresh or
//!   given randomness (Algorithms 20 and 17).
//! * [`Ciphertext`] (length-checked) and [`SharedSecret`] (constant-time equality, zeroized).
//! * [`key_gen_encoded`], [`encapsulate_encoded`], [`decapsulate_encoded`]: the same algorithms
//!   on encoded keys into the caller's buffers, as PQClean's `crypto_kem_*` API (no decoded key
//!   returned by value).
//! * Feature `small-memory` (for microcontrollers): the same outputs in a few kilobytes of
//!   stack. Keys then hold no expanded matrix A_hat, and K-PKE multiplies each entry of A_hat
//!   into its product as it is sampled, samples each noise polynomial when it is needed and
//!   compares the re-encryption in decapsulation chunk by chunk; the `*_encoded` functions read
//!   s_hat and t_hat pair by pair from the keys' encodings. Cortex-M4 lab (`pqlab compare
//!   --target cortex-m4`, painted peak stack of the `*_encoded` calls, one run): keygen /
//!   encaps / decaps 2.2 / 2.8 / 2.9 KB for ML-KEM-512, 2.2 / 3.2 / 3.3 KB for ML-KEM-768 and
//!   2.2 / 3.5 / 3.6 KB for ML-KEM-1024, against 17.6 / 17.4 / 33.5 KB for ML-KEM-512 in the
//!   default configuration (PQClean's clean code: 6.3 / 8.9 / 9.7 KB); and fewer instructions
//!   than the default.
//! * `no_std`, no heap allocation, secrets zeroized on drop; no branch, memory index or division
//!   depends on secret data (Compress is a multiplication and a shift; the re-encryption check
//!   and the implicit-rejection choice are constant time).
#![no_std]

#[cfg(test)]
extern crate std;

mod backend;
mod compress;
mod encode;
mod encoded;
mod error;
mod hash;
mod kem;
mod keys;
mod kpke;
mod params;
#[cfg(feature = "pkcs8")]
pub mod pkcs8;
mod poly;
pub mod ring;
mod sample;
#[cfg(feature = "reduction-study")]
pub mod study;

pub use encoded::{decapsulate_encoded, encapsulate_encoded, key_gen_encoded};
pub use error::Error;
pub use keys::{Ciphertext, DecapsulationKey, EncapsulationKey, SharedSecret};
pub use params::{
    ByteArray, MlKem512, MlKem768, MlKem1024, ParameterSet, SEED_LEN, SHARED_SECRET_LEN,
};
