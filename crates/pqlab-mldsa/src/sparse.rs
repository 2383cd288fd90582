//! The challenge c in sparse form, for the `small-memory` signer (after Greconici, Kannwischer
//! and Sprenkels): the positions and signs of its tau nonzero coefficients instead of 256
//! coefficients in the NTT domain, and c s computed by schoolbook multiplication in
//! Z\[X\]/(X^256 + 1) from the secret polynomial unpacked straight from the key's encoding into
//! 16-bit coefficients (no NTT of c or of the secret, half a polynomial of memory).
//!
//! c is secret here (the challenge of an attempt that may be rejected): it is sampled in
//! constant time ([`BallMasks`]) and its signs only multiply. Its positions decide which
//! coefficients are added where (the same number of additions for every position), so the
//! addresses touched depend on c: constant-time on the Cortex-M4, the target of this
//! configuration, which has no data cache; on a core with a data cache they reach different
//! cache lines (the default configuration, with c in the NTT domain, has no such access).

use zeroize::Zeroize;

use crate::backend::Ops;
use crate::ball::BallMasks;
use crate::encode::bit_unpack_i16;
use crate::params::ParameterSet;
use crate::poly::Poly;

/// The largest tau of any parameter set.
const MAX_TAU: usize = 60;

/// c = sum_k sign\[k\] X^pos\[k\] over the first `n` entries (c has n = tau nonzero
/// coefficients, at distinct positions).
pub(crate) struct SparseC {
    pos: [u8; MAX_TAU + 1],
    sign: [i32; MAX_TAU + 1],
    n: usize,
}

impl SparseC {
    /// FIPS 204, Algorithm 29: SampleInBall(c_tilde), in sparse form: the constant-time
    /// sampler's masks ([`BallMasks`]) turned into the list of nonzero coefficients in
    /// increasing position.
    pub(crate) fn sample<P: ParameterSet, B: Ops>(c_tilde: &[u8]) -> Self {
        let mut c = SparseC {
            pos: [0; MAX_TAU + 1],
            sign: [0; MAX_TAU + 1],
            n: 0,
        };
        c.n = BallMasks::sample::<P, B>(c_tilde).positions(&mut c.pos, &mut c.sign);
        c
    }

    /// `out` += c s, or `out` -= c s when `negate` (a public choice), the exact product in
    /// Z\[X\]/(X^256 + 1) with no reduction (|c s| <= tau max |s_i|), for
    /// s = BitUnpack(`bytes`, 2^bits - 1 - b, b) (FIPS 204, Algorithm 19) unpacked here into
    /// 16-bit coefficients: for each nonzero coefficient +-X^p of c, +-s shifted up by p
    /// (X^256 = -1: the top p coefficients wrap round negated), two multiply-add loops.
    #[inline(never)]
    pub(crate) fn add_product(
        &self,
        bytes: &[u8],
        bits: usize,
        b: i32,
        negate: bool,
        out: &mut Poly,
    ) {
        let mut s = [0i16; 256];
        bit_unpack_i16(bytes, bits, b, &mut s);
        let flip = if negate { -1 } else { 1 };
        let out = &mut out.0;
        for (&p, &sign) in self.pos[..self.n].iter().zip(&self.sign[..self.n]) {
            let p = usize::from(p);
            let sign = flip * sign;
            let (wrapped, shifted) = out.split_at_mut(p);
            let (low, high) = s.split_at(256 - p);
            add_times(shifted, low, sign);
            add_times(wrapped, high, -sign);
        }
        s.zeroize();
    }

    /// `out` = c s for s packed as in [`SparseC::add_product`].
    pub(crate) fn product(&self, bytes: &[u8], bits: usize, b: i32, out: &mut Poly) {
        out.0.fill(0);
        self.add_product(bytes, bits, b, false, out);
    }
}

/// out += sign v, coefficient-wise (sign = +-1, secret: a product, not a branch).
fn add_times(out: &mut [i32], v: &[i16], sign: i32) {
    for (o, &x) in out.iter_mut().zip(v) {
        *o += sign * i32::from(x);
    }
}

impl Zeroize for SparseC {
    fn zeroize(&mut self) {
        self.pos.zeroize();
        self.sign.zeroize();
    }
}

impl Drop for SparseC {
    fn drop(&mut self) {
        self.zeroize();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::Ops;
    use crate::backend::portable::Portable;
    use crate::encode::bit_pack;
    use crate::params::{MlDsa44, MlDsa87};
    use crate::sample::sample_in_ball;

    /// The sparse product of packed secrets equals NTT^-1(NTT(c) o NTT(s)) for the secrets'
    /// widths, and adding then subtracting it returns where it started.
    fn sparse_equals_ntt<P: ParameterSet>() {
        for case in 0..20u8 {
            let c_tilde = [case; 32];
            let sparse = SparseC::sample::<P, Portable>(&c_tilde);
            let dense = sample_in_ball::<P>(&c_tilde);
            let mut back = [0i32; 256];
            for (&p, &s) in sparse.pos[..sparse.n].iter().zip(&sparse.sign[..sparse.n]) {
                back[usize::from(p)] += s;
            }
            assert_eq!(back, dense.0, "{} case {case}", P::NAME);
            assert_eq!(sparse.n, P::TAU);
            for (bits, b) in [(3usize, 2i32), (4, 4), (13, 1 << 12)] {
                let mut s = Poly::ZERO;
                for (i, x) in s.0.iter_mut().enumerate() {
                    *x = b - ((i * 7919 + usize::from(case) * 31) % (1 << bits)) as i32;
                    *x = (*x).clamp(b + 1 - (1 << bits), b);
                }
                let mut packed = [0u8; 32 * 13];
                bit_pack(&s.0, bits, b, &mut packed[..32 * bits]);
                let packed = &packed[..32 * bits];
                let (mut c_hat, mut s_hat, mut want) = (dense, s, Poly::ZERO);
                c_hat.ntt::<Portable>();
                s_hat.ntt::<Portable>();
                Portable::pointwise(&mut want.0, &c_hat.0, &s_hat.0);
                want.inv_ntt_to_mont::<Portable>();
                want.reduce::<Portable>();
                let mut got = Poly([5; 256]);
                sparse.product(packed, bits, b, &mut got);
                assert_eq!(got, want, "{} case {case} bits {bits}", P::NAME);
                let start = Poly([77; 256]);
                let mut round = start;
                sparse.add_product(packed, bits, b, false, &mut round);
                assert_ne!(round, start);
                sparse.add_product(packed, bits, b, true, &mut round);
                assert_eq!(round, start, "{} case {case} bits {bits}", P::NAME);
            }
        }
    }

    #[test]
    fn sparse_product_equals_ntt_product() {
        sparse_equals_ntt::<MlDsa44>();
        sparse_equals_ntt::<MlDsa87>();
    }
}
