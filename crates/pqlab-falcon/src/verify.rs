//! Verification (Falcon spec v1.2, Section 3.10, Algorithm 16: Verify): s1 = c - s2 h mod q,
//! centred, and the check ||(s1, s2)||^2 <= floor(beta^2), with the NTT modulo q of
//! `pqlab_arith::falcon`.

use pqlab_arith::falcon as fq;

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

/// The squared norm of (s1, s2) compared with the bound, saturating as the reference does
/// (`is_short`): true when the sum is at most `bound`.
pub(crate) fn is_short(s1: &[i16], s2: &[i16], bound: u32) -> bool {
    let mut s: u32 = 0;
    let mut ng: u32 = 0;
    for (&a, &b) in s1.iter().zip(s2.iter()) {
        let a = i32::from(a);
        let b = i32::from(b);
        s = s.wrapping_add((a * a) as u32);
        ng |= s;
        s = s.wrapping_add((b * b) as u32);
        ng |= s;
    }
    s |= 0u32.wrapping_sub(ng >> 31);
    s <= bound
}

/// Falcon spec v1.2, Algorithm 16 (after decoding): true when s2 is a valid signature of the
/// hashed message `c` under the public key whose NTT is `h_ntt`. `tmp` and `s1` are scratch of
/// length n.
pub(crate) fn verify_raw(
    c: &[u16],
    s2: &[i16],
    h_ntt: &[u16],
    bound: u32,
    tmp: &mut [u16],
    s1: &mut [i16],
) -> bool {
    for (t, &x) in tmp.iter_mut().zip(s2.iter()) {
        *t = to_modq(i32::from(x));
    }
    fq::ntt(tmp);
    fq::pointwise_mul(tmp, h_ntt);
    fq::intt(tmp);
    // s1 = c - s2 h mod q, centred.
    for ((o, &t), &ci) in s1.iter_mut().zip(tmp.iter()).zip(c.iter()) {
        *o = centre(fq::sub(u32::from(ci), u32::from(t))) as i16;
    }
    is_short(s1, s2, bound)
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
