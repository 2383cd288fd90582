//! Sampling algorithms (FIPS 203, Section 4.2.2: Algorithms 7 and 8), over the kernels of the
//! selected back end; the independent SHAKE streams run side by side in Keccak lanes.

use pqlab_keccak::Shake128;
use zeroize::Zeroize;

use crate::backend::Ops;
use crate::hash::prf;
use crate::params::{MAX_K, N};
use crate::poly::Poly;

/// FIPS 203, Algorithm 7: SampleNTT(B) for the 34-byte seed B = rho || j || i: a uniformly random
/// element of T_q, by rejection sampling from SHAKE128. Runs on public data (rho), so the
/// rejection branches leak nothing secret.
pub(crate) fn sample_ntt<B: Ops>(rho: &[u8; 32], j: u8, i: u8) -> Poly {
    let _k = pqlab_profile::enter(pqlab_profile::Kernel::Sample);
    let mut ctx = Shake128::new();
    ctx.absorb(rho);
    ctx.absorb(&[j, i]);
    let mut reader = ctx.finalize();
    let mut a = Poly::ZERO;
    let mut n = 0;
    // 168 = 3 * 56: every block holds a whole number of 3-byte groups C.
    while n < N {
        let block = reader.squeeze_block();
        n += B::rej_uniform(&block, &mut a.0[n..]);
    }
    a
}

/// A_hat\[i\]\[j\] = SampleNTT(rho || j || i) for i, j < k (FIPS 203, Algorithm 13 lines 3 to 7,
/// Algorithm 14 lines 4 to 8).
pub(crate) fn sample_matrix<B: Ops>(rho: &[u8; 32], k: usize, a_hat: &mut [[Poly; MAX_K]; MAX_K]) {
    for (i, row) in a_hat.iter_mut().enumerate().take(k) {
        for (j, a) in row.iter_mut().enumerate().take(k) {
            *a = sample_ntt::<B>(rho, j as u8, i as u8);
        }
    }
}

/// SamplePolyCBD_eta(PRF_eta(s, b0 + i)) into `out[i]` for every i (FIPS 203, Algorithm 13
/// lines 9 and 13, Algorithm 14 lines 10, 14 and 17).
pub(crate) fn sample_poly_cbd_prf<B: Ops>(eta: usize, s: &[u8; 32], b0: u8, out: &mut [Poly]) {
    let _k = pqlab_profile::enter(pqlab_profile::Kernel::Sample);
    let mut buf = [0u8; 64 * 3];
    let len = 64 * eta;
    for (i, f) in out.iter_mut().enumerate() {
        prf(s, b0.wrapping_add(i as u8), &mut buf[..len]);
        B::sample_poly_cbd(eta, &buf[..len], &mut f.0);
    }
    buf.zeroize();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::portable::Portable;
    use crate::params::Q;

    /// FIPS 203, Algorithm 8, written literally over the bit array of B.
    fn literal_cbd(eta: usize, b: &[u8]) -> [i16; N] {
        let bit = |k: usize| i16::from((b[k / 8] >> (k % 8)) & 1);
        core::array::from_fn(|i| {
            let x: i16 = (0..eta).map(|j| bit(2 * i * eta + j)).sum();
            let y: i16 = (0..eta).map(|j| bit(2 * i * eta + eta + j)).sum();
            x - y
        })
    }

    #[test]
    fn cbd_matches_algorithm_8_literally() {
        for eta in [2usize, 3] {
            for seed in 0..20u8 {
                let mut b = [0u8; 192];
                prf(&[seed; 32], eta as u8, &mut b[..64 * eta]);
                let mut f = Poly::ZERO;
                Portable::sample_poly_cbd(eta, &b[..64 * eta], &mut f.0);
                assert_eq!(f.0, literal_cbd(eta, &b[..64 * eta]));
                assert!(f.0.iter().all(|c| c.unsigned_abs() as usize <= eta));
                let mut g = [Poly::ZERO];
                sample_poly_cbd_prf::<Portable>(eta, &[seed; 32], eta as u8, &mut g);
                assert_eq!(g[0], f);
            }
            let ones = [0xffu8; 192];
            let mut f = Poly([1; N]);
            Portable::sample_poly_cbd(eta, &ones[..64 * eta], &mut f.0);
            assert_eq!(f.0, [0; N]);
        }
    }

    #[test]
    fn sample_ntt_is_uniform_below_q() {
        let a = sample_ntt::<Portable>(&[7u8; 32], 1, 2);
        assert!(a.0.iter().all(|&c| (0..Q).contains(&c)));
        assert_ne!(a, sample_ntt::<Portable>(&[7u8; 32], 2, 1));
    }
}
