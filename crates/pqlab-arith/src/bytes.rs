//! Fixed-size byte strings: the encodings of keys, signatures and ciphertexts.

use core::fmt::Debug;

/// An owned, fixed-size byte string: the encoding of a key, signature or ciphertext of one
/// parameter set.
///
/// Implemented for `[u8; N]`, so that every encoding has its exact size in the type without
/// heap allocation. Shared by the schemes (re-exported as `pqlab_mldsa::ByteArray` and
/// `pqlab_mlkem::ByteArray`).
pub trait ByteArray: AsRef<[u8]> + AsMut<[u8]> + Copy + Debug + Send + Sync + Eq + 'static {
    /// The all-zero value.
    fn zeroed() -> Self;
}

impl<const N: usize> ByteArray for [u8; N] {
    fn zeroed() -> Self {
        [0u8; N]
    }
}
