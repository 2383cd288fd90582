//! Key generation (Falcon spec v1.2, Section 3.8.2; Algorithms 4 to 9: NTRUGen and NTRUSolve).
//!
//! Work in progress: the public entry points are in [`crate::keys`].

use crate::keys::SigningKey;
use pqlab_keccak::Shake256Reader;

/// NTRUGen: f, g from the keygen SHAKE256 stream, then (F, G) by NTRUSolve.
pub(crate) fn ntru_gen<const N: usize>(_rng: &mut Shake256Reader) -> SigningKey<N> {
    todo!("Falcon key generation lands in this session")
}
