//! The hash functions and pseudorandom function of FIPS 203, Section 4.1: H, J, G, PRF and the
//! XOF (SHAKE128, used by SampleNTT in `sample.rs`).

use pqlab_keccak::{Sha3_256, Sha3_512, Shake256};

/// H(s) = SHA3-256(s) (FIPS 203, equation 4.4).
pub(crate) fn h(s: &[u8]) -> [u8; 32] {
    Sha3_256::digest(s)
}

/// J(s) = SHAKE256(s, 8 * 32) (FIPS 203, equation 4.4), over the concatenation of `parts`.
pub(crate) fn j(parts: &[&[u8]]) -> [u8; 32] {
    let mut out = [0u8; 32];
    Shake256::digest_parts(parts, &mut out);
    out
}

/// G(c) = SHA3-512(c), split into two 32-byte halves (FIPS 203, equation 4.5), over the
/// concatenation of `parts`.
pub(crate) fn g(parts: &[&[u8]]) -> ([u8; 32], [u8; 32]) {
    let mut hasher = Sha3_512::new();
    for p in parts {
        hasher.update(p);
    }
    let mut digest = hasher.finalize();
    let mut a = [0u8; 32];
    let mut b = [0u8; 32];
    a.copy_from_slice(&digest[..32]);
    b.copy_from_slice(&digest[32..]);
    zeroize::Zeroize::zeroize(&mut digest);
    (a, b)
}

/// PRF_eta(s, b) = SHAKE256(s || b, 8 * 64 * eta) (FIPS 203, equation 4.3), written into `out`,
/// which must hold 64 eta bytes.
#[cfg(test)]
pub(crate) fn prf(s: &[u8; 32], b: u8, out: &mut [u8]) {
    Shake256::digest_parts(&[s, &[b]], out);
}
