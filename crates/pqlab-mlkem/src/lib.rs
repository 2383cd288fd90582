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
//! * Feature `small-memory` (for microcontrollers): the same outputs in a few kilobytes of
//!   stack. Keys then hold no expanded matrix A_hat, and K-PKE multiplies each entry of A_hat
//!   into its product as it is sampled, samples each noise polynomial when it is needed and
//!   compares the re-encryption in decapsulation chunk by chunk (Cortex-M4 lab, painted peak
//!   stack of the call with its operands: ML-KEM-512 keygen / encaps / decaps 5.2 / 8.1 /
//!   13.5 KB against 12.6 / 17.2 / 28.9 KB by default; not yet the 4 KB goal); it is slower,
//!   most of all encapsulation, which no longer finds A_hat in the key.
//! * `no_std`, no heap allocation, secrets zeroized on drop; no branch, memory index or division
//!   depends on secret data (Compress is a multiplication and a shift; the re-encryption check
//!   and the implicit-rejection choice are constant time).
#![no_std]

#[cfg(test)]
extern crate std;

mod backend;
mod compress;
mod encode;
mod error;
mod hash;
mod kem;
mod keys;
mod kpke;
mod params;
mod poly;
mod sample;
#[cfg(feature = "reduction-study")]
pub mod study;

pub use error::Error;
pub use keys::{Ciphertext, DecapsulationKey, EncapsulationKey, SharedSecret};
pub use params::{
    ByteArray, MlKem512, MlKem768, MlKem1024, ParameterSet, SEED_LEN, SHARED_SECRET_LEN,
};
