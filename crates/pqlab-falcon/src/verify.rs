//! Verification (Falcon spec v1.2, Section 3.10, Algorithm 16: Verify): s1 = c - s2 h mod q,
//! centred, and the check ||(s1, s2)||^2 <= floor(beta^2), with the NTT modulo q of
//! [`crate::backend`].

use crate::backend::Ops;
use crate::params::Q;

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
