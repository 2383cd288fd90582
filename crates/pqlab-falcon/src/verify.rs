//! Verification (Falcon spec v1.2, Section 3.10, Algorithm 16: Verify): s1 = c - s2 h mod q,
//! centred, and the check ||(s1, s2)||^2 <= floor(beta^2), with the NTT modulo q of
//! [`crate::backend`].

use crate::backend::Ops;
use crate::error::Error;
use crate::hash::{Words, shake_nonce_msg};
use crate::keys::Signature;
use crate::params::{self, Q};

/// Maps x mod q in \[0, q) to the centred representative in (-q/2, q/2].
#[inline(always)]
pub(crate) fn centre(x: u32) -> i32 {
    let x = x as i32;
    x - (Q as i32 & (((Q as i32 - 1) / 2 - x) >> 31))
}

/// A signed value mod q, in \[0, q).
#[inline(always)]
pub(crate) fn to_modq(x: i32) -> u16 {
    (x + (Q as i32 & (x >> 31))) as u16
}

/// Falcon spec v1.2, Algorithm 16 (Verify) lines 3 to 7, after decoding: true when s2 is a
/// valid signature of the hashed message `c` under the public key whose NTT (in the order of
/// [`crate::backend`]) is `h_ntt`, with the kernels of `B`: s1 = c - s2 h mod q by NTT(s2),
/// the pointwise product with NTT(h) and the inverse NTT, then ||(s1, s2)||^2 <= `bound`.
///
/// A coefficient |s2_i| >= q (possible only for a [`crate::Signature`] built with
/// `from_parts`) is rejected at once: its square alone exceeds every bound, so the reference
/// rejects it too.
pub(crate) fn verify_raw<B: Ops, const N: usize>(
    c: &[u16; N],
    s2: &[i16; N],
    h_ntt: &[i16; N],
    bound: u32,
) -> bool {
    let mut big = 0i32;
    for &x in s2.iter() {
        big |= Q as i32 - 1 - i32::from(x).abs();
    }
    if big < 0 {
        return false;
    }
    let mut t = *s2;
    B::ntt(&mut t);
    B::pointwise(&mut t, h_ntt);
    B::intt_mont(&mut t);
    B::norm(c, &t, s2) <= bound
}

/// The squared norm of `x` with the reference's saturation flag: returns (sum, flag), the
/// flag's top bit set once a partial sum reached 2^31. Every term is below 2^31, so the flag
/// does not depend on the order of the terms (the sum only grows).
fn sq_norm_acc(x: impl Iterator<Item = i32>, mut s: u32, mut ng: u32) -> (u32, u32) {
    for v in x {
        s = s.wrapping_add((v * v) as u32);
        ng |= s;
    }
    (s, ng)
}

/// Falcon spec v1.2, Algorithm 16 (Verify) from the encoded key and signature, in two arrays
/// of n `i16`: NTT(h) decoded from `packed_h` (the key's 14-bit packing, header already
/// checked), s2 decompressed from `sig`, its squared norm taken, then t = s2 h by the NTT in
/// s2's place, and c streamed out of SHAKE256(r || m) one accepted word at a time into the
/// norm of c - t (HashToPoint, Algorithm 3, variable time: public data). Ok(true) when
/// ||(s1, s2)||^2 <= floor(beta^2); decoding errors as [`crate::VerifyingKey::decode`] and
/// [`Signature::decode`] give them, the key's first.
pub(crate) fn verify_encoded<B: Ops, const N: usize>(
    packed_h: &[u8],
    msg: &[u8],
    sig: &[u8],
) -> Result<bool, Error> {
    let mut h = [0i16; N];
    crate::codec::modq_decode_with(packed_h, N, |u, w| h[u] = w as i16)?;
    B::ntt(&mut h);
    let (nonce, comp) = Signature::<N>::split(sig)?;
    let mut t = [0i16; N];
    B::decompress(comp, &mut t)?;
    // Decompress bounds |s2_i| by 2047 < q, as the NTT requires.
    let (s, ng) = sq_norm_acc(t.iter().map(|&x| i32::from(x)), 0, 0);
    B::ntt(&mut t);
    B::pointwise(&mut t, &h);
    B::intt_mont(&mut t);
    let mut rd = shake_nonce_msg(nonce, msg);
    let mut words = Words::new(&mut rd);
    let q = Q as i32;
    let s1 = t.iter().map(|&ti| {
        let mut w = words.next();
        while w >= 5 * Q {
            w = words.next();
        }
        // c_i - t_i in (-q, 2q), then [0, q), then centred.
        let mut d = (w % Q) as i32 - i32::from(ti);
        d += q & (d >> 31);
        d -= q & !((d - q) >> 31);
        centre(d as u32)
    });
    let (s, ng) = sq_norm_acc(s1, s, ng);
    let s = s | 0u32.wrapping_sub(ng >> 31);
    Ok(s <= params::beta_sq(N))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn centre_and_back() {
        for x in 0..Q {
            let c = centre(x);
            assert!(c > -(Q as i32) / 2 - 1 && c <= (Q as i32) / 2);
            assert_eq!(u32::from(to_modq(c)), x);
        }
    }
}
