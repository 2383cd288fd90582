//! ML-DSA signing on the encoded secret key into the caller's signature buffer, in the manner
//! of PQClean's `crypto_sign_signature`: no key is decoded or copied (the secret vectors stay
//! packed in `sk` and are read one polynomial at a time where they are used) and no signature
//! is returned by value, so that under `small-memory` the working memory is a few polynomials
//! and Keccak states. The same signatures as [`SigningKey::sign_with_rnd`] and its companions,
//! bit for bit.
//!
//! [`SigningKey::sign_with_rnd`]: crate::SigningKey::sign_with_rnd

use zeroize::Zeroize;

use crate::Error;
use crate::backend::dispatch;
use crate::encode::bit_unpack_i16;
use crate::error::check_len;
use crate::params::ParameterSet;
use crate::sign::{KeyParts, sign_mu_into};

/// Whether every coefficient of s1 and s2 in `s_packed` (their (l + k) 32 bitlen(2 eta) bytes of
/// skEncode) lies in [-eta, eta], as FIPS 204, Algorithm 25 (skDecode) requires of a key and
/// [`SigningKey::from_expanded`](crate::SigningKey::from_expanded) checks: one polynomial at a
/// time, in 16-bit coefficients, without early exit (in a frame of its own).
#[inline(never)]
fn secrets_in_range<P: ParameterSet>(s_packed: &[u8]) -> bool {
    let eta = P::ETA as i32;
    let mut out_of_range = 0i32;
    let mut p = [0i16; 256];
    for chunk in s_packed.chunks_exact(32 * P::ETA_BITS) {
        bit_unpack_i16(chunk, P::ETA_BITS, eta, &mut p);
        for &c in p.iter() {
            // c = eta - x is at most eta; it is below -eta exactly when c + eta is negative.
            out_of_range |= (i32::from(c) + eta) >> 31;
        }
    }
    p.zeroize();
    out_of_range == 0
}

/// FIPS 204, Algorithm 2: ML-DSA.Sign(sk, M, ctx) with the given `rnd` (fresh randomness, or
/// zero for the deterministic variant) on the encoded secret key `sk` (skEncode, Algorithm 24),
/// the signature sigEncode(c_tilde, z, h) (Algorithm 26) written into `sig`: mu = H(tr || M', 64)
/// with M' = 0 || |ctx| || ctx || M and tr read from `sk`, then Algorithm 7 from line 7 on
/// ([`sign_mu_encoded`]). Returns the length written, `P::SIG_LEN`.
///
/// # Errors
/// [`Error::InvalidLength`] for a key or signature buffer of the wrong length, an error for a
/// context longer than 255 bytes, [`Error::MalformedSecretKey`] for a key with an s1 or s2
/// coefficient outside [-eta, eta] (which skEncode cannot produce),
/// [`Error::SigningLimitReached`] (`sig` wiped) for a key that decodes but whose every attempt
/// was rejected (FIPS 204, Appendix C; not a key made by ML-DSA.KeyGen).
pub fn sign_encoded<P: ParameterSet>(
    sk: &[u8],
    msg: &[u8],
    ctx: &[u8],
    rnd: &[u8; 32],
    sig: &mut [u8],
) -> Result<usize, Error> {
    sign_encoded_counted::<P>(sk, msg, ctx, rnd, sig).map(|_| P::SIG_LEN)
}

/// [`sign_encoded`] that returns how many times the rejection loop of FIPS 204, Algorithm 7
/// (lines 10 to 32) ran instead of the length written (1 when the first candidate was
/// accepted): the same code, the count being the loop's own counter kappa / l. For measuring
/// the rejection sampling (signing's cost is proportional to it).
///
/// # Errors
/// As [`sign_encoded`].
pub fn sign_encoded_counted<P: ParameterSet>(
    sk: &[u8],
    msg: &[u8],
    ctx: &[u8],
    rnd: &[u8; 32],
    sig: &mut [u8],
) -> Result<u32, Error> {
    check_len("secret key", sk, P::SK_LEN)?;
    let tr: &[u8; 64] = sk[64..128]
        .try_into()
        .map_err(|_| Error::MalformedSecretKey)?;
    let mu = crate::mu::mu_pure(tr, msg, ctx)?;
    sign_mu_encoded_counted::<P>(sk, &mu, rnd, sig)
}

/// FIPS 204, Algorithm 7 (ML-DSA.Sign_internal) from line 7 on, for a precomputed
/// mu = H(tr || M', 64) ("external mu", FIPS 204 Section 6.2), on the encoded secret key `sk`,
/// the signature written into `sig`. Returns the length written, `P::SIG_LEN`.
///
/// # Errors
/// [`Error::InvalidLength`] for a key or signature buffer of the wrong length,
/// [`Error::MalformedSecretKey`] for a key with an s1 or s2 coefficient outside [-eta, eta],
/// [`Error::SigningLimitReached`] (`sig` wiped) when every attempt was rejected.
pub fn sign_mu_encoded<P: ParameterSet>(
    sk: &[u8],
    mu: &[u8; 64],
    rnd: &[u8; 32],
    sig: &mut [u8],
) -> Result<usize, Error> {
    sign_mu_encoded_counted::<P>(sk, mu, rnd, sig).map(|_| P::SIG_LEN)
}

/// [`sign_mu_encoded`] that returns how many times the rejection loop ran (see
/// [`sign_encoded_counted`]) instead of the length written.
///
/// # Errors
/// As [`sign_mu_encoded`].
pub fn sign_mu_encoded_counted<P: ParameterSet>(
    sk: &[u8],
    mu: &[u8; 64],
    rnd: &[u8; 32],
    sig: &mut [u8],
) -> Result<u32, Error> {
    check_len("secret key", sk, P::SK_LEN)?;
    check_len("signature", sig, P::SIG_LEN)?;
    let parts = KeyParts::of_encoding::<P>(sk);
    if !secrets_in_range::<P>(parts.s()) {
        return Err(Error::MalformedSecretKey);
    }
    dispatch!(B => sign_mu_into::<P, B>(&parts, mu, rnd, sig))
}
