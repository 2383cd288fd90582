//! The message representative mu = H(tr || M', 64) (FIPS 204, Algorithm 7 line 6), with M'
//! formatted as in Algorithms 2 and 4. M' is absorbed in parts, never copied.

use pqlab_keccak::Shake256;

use crate::prehash::HashAlg;
use crate::{Error, MAX_CONTEXT_LEN};

/// mu = H(tr || parts..., 64).
fn mu_of_parts(tr: &[u8; 64], parts: &[&[u8]]) -> [u8; 64] {
    let mut h = Shake256::new();
    h.absorb(tr);
    for p in parts {
        h.absorb(p);
    }
    let mut mu = [0u8; 64];
    h.finalize().squeeze(&mut mu);
    mu
}

fn context_len(ctx: &[u8]) -> Result<u8, Error> {
    if ctx.len() > MAX_CONTEXT_LEN {
        return Err(Error::ContextTooLong { len: ctx.len() });
    }
    Ok(ctx.len() as u8)
}

/// FIPS 204, Algorithm 2 line 10 (and Algorithm 3 line 5): M' = IntegerToBytes(0, 1) ||
/// IntegerToBytes(|ctx|, 1) || ctx || M.
pub(crate) fn mu_pure(tr: &[u8; 64], msg: &[u8], ctx: &[u8]) -> Result<[u8; 64], Error> {
    let len = context_len(ctx)?;
    Ok(mu_of_parts(tr, &[&[0, len], ctx, msg]))
}

/// FIPS 204, Algorithm 4 lines 10 to 23 (and Algorithm 5): M' = IntegerToBytes(1, 1) ||
/// IntegerToBytes(|ctx|, 1) || ctx || OID || PH(M).
pub(crate) fn mu_prehash(
    tr: &[u8; 64],
    msg: &[u8],
    ctx: &[u8],
    hash: HashAlg,
) -> Result<[u8; 64], Error> {
    let len = context_len(ctx)?;
    let ph = hash.digest(msg);
    Ok(mu_of_parts(
        tr,
        &[&[1, len], ctx, &hash.oid_der(), &ph[..hash.digest_len()]],
    ))
}

/// FIPS 204, Algorithm 7 line 6 on a caller-formatted M'.
pub(crate) fn mu_internal(tr: &[u8; 64], m_prime: &[u8]) -> [u8; 64] {
    mu_of_parts(tr, &[m_prime])
}
