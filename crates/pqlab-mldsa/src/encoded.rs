//! ML-DSA key generation and verification on encodings, in the manner of PQClean's
//! `crypto_sign_keypair` and `crypto_sign_verify`. Key generation writes the encoded keys
//! straight into the caller's buffers (no key value returned, no vector of t held). In
//! verification nothing is decoded whole (t1 is unpacked and transformed row by row
//! where it is used, z column by column under `small-memory`), and no decoded key is returned
//! by value, so that the working memory is a few polynomials and one Keccak state. The same
//! answers as [`VerifyingKey::verify`](crate::VerifyingKey::verify) and its companions, which
//! compute NTT(t1 * 2^d) once per key instead (faster for a key that verifies many times).

use crate::Error;
use crate::backend::dispatch;
use crate::error::check_len;
use crate::keygen::key_gen_bytes;
use crate::params::ParameterSet;
#[cfg(not(feature = "small-memory"))]
use crate::verify::{T1, verify_mu_with};
#[cfg(feature = "small-memory")]
use crate::verify_small::verify_mu_encoded;

/// FIPS 204, Algorithm 3: ML-DSA.Verify(pk, M, sigma, ctx) on the encoded `pk` (pkEncode,
/// Algorithm 22) and `sig` (sigEncode, Algorithm 26): tr = H(pk, 64), mu = H(tr || M', 64)
/// with M' = 0 || |ctx| || ctx || M, then Algorithm 8 from line 7 on.
///
/// # Errors
/// [`Error::InvalidLength`] for a key or signature of the wrong length, an error for a context
/// longer than 255 bytes, [`Error::InvalidSignature`] when the signature does not verify.
pub fn verify_encoded<P: ParameterSet>(
    pk: &[u8],
    msg: &[u8],
    ctx: &[u8],
    sig: &[u8],
) -> Result<(), Error> {
    check_len("public key", pk, P::PK_LEN)?;
    check_len("signature", sig, P::SIG_LEN)?;
    let mu = mu_of_encoded_key(pk, msg, ctx)?;
    #[cfg(not(feature = "small-memory"))]
    let valid = {
        let mut rho = [0u8; 32];
        rho.copy_from_slice(&pk[..32]);
        dispatch!(B => verify_mu_with::<P, B>(&rho, T1::Encoded(pk), &mu, sig))
    };
    #[cfg(feature = "small-memory")]
    let valid = dispatch!(B => verify_mu_encoded::<P, B>(pk, &mu, sig));
    if valid {
        Ok(())
    } else {
        Err(Error::InvalidSignature)
    }
}

/// FIPS 204, Algorithm 3 lines 5 and 6 (with Algorithm 8 line 6): mu = H(H(pk, 64) || M', 64),
/// M' = 0 || |ctx| || ctx || M. Not inlined, so that tr lives in a frame of its own that is gone
/// before the verification proper.
#[inline(never)]
fn mu_of_encoded_key(pk: &[u8], msg: &[u8], ctx: &[u8]) -> Result<[u8; 64], Error> {
    let tr = crate::encode::hash_public_key(pk);
    crate::mu::mu_pure(&tr, msg, ctx)
}

/// FIPS 204, Algorithm 6: ML-DSA.KeyGen_internal(xi), into the caller's buffers: `pk` receives
/// pkEncode(rho, t1) (Algorithm 22, `P::PK_LEN` bytes) and `sk` skEncode(rho, K, tr, s1, s2, t0)
/// (Algorithm 24, `P::SK_LEN` bytes), the same bytes as
/// [`SigningKey::encoded_pair_from_seed`](crate::SigningKey::encoded_pair_from_seed) gives. The
/// keys are built in place: under `small-memory` the working memory is two polynomials and one
/// Keccak state (s1 and s2 are unpacked from `sk` where they are used, A_hat is streamed
/// coefficient by coefficient). On an error nothing is written.
///
/// # Errors
/// [`Error::InvalidLength`] when a buffer does not have its encoding's length.
pub fn key_gen_encoded<P: ParameterSet>(
    xi: &[u8; 32],
    pk: &mut [u8],
    sk: &mut [u8],
) -> Result<(), Error> {
    check_len("public key", pk, P::PK_LEN)?;
    check_len("secret key", sk, P::SK_LEN)?;
    dispatch!(B => key_gen_bytes::<P, B>(xi, pk, sk));
    Ok(())
}
