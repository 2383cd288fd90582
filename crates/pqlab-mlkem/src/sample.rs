//! Sampling algorithms (FIPS 203, Section 4.2.2: Algorithms 7 and 8), over the kernels of the
//! selected back end; the independent SHAKE streams run side by side in Keccak lanes.

use pqlab_arith::wipe::wipe;
#[cfg(test)]
use pqlab_keccak::Shake128;
use pqlab_keccak::{Shake128X, Shake256X, lane_batches};

use crate::backend::Ops;
use crate::params::N;
use crate::poly::Poly;

/// FIPS 203, Algorithm 7: SampleNTT(B) for the 34-byte seed B = rho || j || i: a uniformly random
/// element of T_q, by rejection sampling from SHAKE128, one stream alone (the reference for the
/// lanes of [`sample_matrix`]). Runs on public data (rho), so the rejection branches leak
/// nothing secret.
#[cfg(test)]
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
/// Algorithm 14 lines 4 to 8): the k^2 SHAKE128 streams run in Keccak lanes side by side, each
/// block of each lane going through the rejection kernel until every entry has 256
/// coefficients. Public data.
pub(crate) fn sample_matrix<B: Ops>(rho: &[u8; 32], k: usize, a_hat: &mut [Poly]) {
    let _k = pqlab_profile::enter(pqlab_profile::Kernel::Sample);
    for (first, n) in lane_batches(B::BACKEND, k * k) {
        let mut seeds = [[0u8; 34]; 8];
        for (t, seed) in seeds.iter_mut().enumerate().take(n) {
            let (i, j) = ((first + t) / k, (first + t) % k);
            seed[..32].copy_from_slice(rho);
            seed[32] = j as u8;
            seed[33] = i as u8;
        }
        let inputs: [&[u8]; 8] = core::array::from_fn(|t| &seeds[t][..]);
        let mut xof = Shake128X::new(B::BACKEND, &inputs[..n]);
        let mut blocks = [[0u8; 168]; 8];
        let mut filled = [0usize; 8];
        while filled[..n].iter().any(|&f| f < N) {
            xof.squeeze_blocks(&mut blocks[..n]);
            for t in 0..n {
                let (i, j) = ((first + t) / k, (first + t) % k);
                let f = filled[t];
                if f < N {
                    filled[t] += B::rej_uniform(&blocks[t], &mut a_hat[i * k + j].0[f..]);
                }
            }
        }
    }
}

/// SamplePolyCBD_eta\[i\](PRF_eta\[i\](s, b0 + i)) into `out[i]` for every i (FIPS 203,
/// Algorithm 13 lines 9 and 13, Algorithm 14 lines 10, 14 and 17; PRF is equation 4.3): the
/// SHAKE256 streams run in Keccak lanes side by side. `etas` and `out` have the same length,
/// at most 2 MAX_K + 1.
pub(crate) fn sample_poly_cbd_prf<B: Ops>(s: &[u8; 32], b0: u8, etas: &[usize], out: &mut [Poly]) {
    let _k = pqlab_profile::enter(pqlab_profile::Kernel::Sample);
    let total = etas.len().min(out.len());
    for (first, n) in lane_batches(B::BACKEND, total) {
        let mut seeds = [[0u8; 33]; 8];
        for (t, seed) in seeds.iter_mut().enumerate().take(n) {
            seed[..32].copy_from_slice(s);
            seed[32] = b0.wrapping_add((first + t) as u8);
        }
        let inputs: [&[u8]; 8] = core::array::from_fn(|t| &seeds[t][..]);
        let mut xof = Shake256X::new(B::BACKEND, &inputs[..n]);
        // 64 eta <= 192 bytes: two blocks of 136.
        let mut blocks = [[[0u8; 136]; 8]; 2];
        xof.squeeze_blocks(&mut blocks[0][..n]);
        if etas[first..first + n].iter().any(|&e| 64 * e > 136) {
            xof.squeeze_blocks(&mut blocks[1][..n]);
        }
        for t in 0..n {
            let eta = etas[first + t];
            if 64 * eta <= 136 {
                B::sample_poly_cbd(eta, &blocks[0][t][..64 * eta], &mut out[first + t].0);
            } else {
                let mut buf = [0u8; 272];
                buf[..136].copy_from_slice(&blocks[0][t]);
                buf[136..].copy_from_slice(&blocks[1][t]);
                B::sample_poly_cbd(eta, &buf[..64 * eta], &mut out[first + t].0);
                wipe(&mut buf);
            }
        }
        wipe(seeds.as_flattened_mut());
        wipe(blocks.as_flattened_mut().as_flattened_mut());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::portable::Portable;
    use crate::hash::prf;
    use crate::params::{MAX_K, Q};

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
                sample_poly_cbd_prf::<Portable>(&[seed; 32], eta as u8, &[eta], &mut g);
                assert_eq!(g[0], f);
            }
            let ones = [0xffu8; 192];
            let mut f = Poly([1; N]);
            Portable::sample_poly_cbd(eta, &ones[..64 * eta], &mut f.0);
            assert_eq!(f.0, [0; N]);
        }
    }

    #[test]
    fn lanes_equal_one_stream_at_a_time() {
        let rho = [9u8; 32];
        for k in 2..=4 {
            let mut a_hat = [Poly::ZERO; MAX_K * MAX_K];
            sample_matrix::<Portable>(&rho, k, &mut a_hat[..k * k]);
            for i in 0..k {
                for j in 0..k {
                    assert_eq!(
                        a_hat[i * k + j],
                        sample_ntt::<Portable>(&rho, j as u8, i as u8)
                    );
                }
            }
        }
        let etas = [3, 3, 2, 2, 2, 2, 2, 2, 2];
        let mut out = [Poly::ZERO; 9];
        sample_poly_cbd_prf::<Portable>(&[4u8; 32], 3, &etas, &mut out);
        for (i, (&eta, p)) in etas.iter().zip(&out).enumerate() {
            let mut b = [0u8; 192];
            prf(&[4u8; 32], 3 + i as u8, &mut b[..64 * eta]);
            let mut f = Poly::ZERO;
            Portable::sample_poly_cbd(eta, &b[..64 * eta], &mut f.0);
            assert_eq!(*p, f);
        }
    }

    #[test]
    fn sample_ntt_is_uniform_below_q() {
        let a = sample_ntt::<Portable>(&[7u8; 32], 1, 2);
        assert!(a.0.iter().all(|&c| (0..Q).contains(&c)));
        assert_ne!(a, sample_ntt::<Portable>(&[7u8; 32], 2, 1));
    }
}
