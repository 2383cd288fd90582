//! Sampling algorithms (FIPS 203, Section 4.2.2: Algorithms 7 and 8).

use pqlab_keccak::Shake128;
use zeroize::Zeroize;

use crate::hash::prf;
use crate::params::{N, Q};
use crate::poly::Poly;

/// FIPS 203, Algorithm 7: SampleNTT(B) for the 34-byte seed B = rho || j || i: a uniformly random
/// element of T_q, by rejection sampling from SHAKE128. Runs on public data (rho), so the
/// rejection branches leak nothing secret.
pub(crate) fn sample_ntt(rho: &[u8; 32], j: u8, i: u8) -> Poly {
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
        for c in block.chunks_exact(3) {
            let d1 = i16::from(c[0]) | (i16::from(c[1] & 0x0f) << 8);
            let d2 = i16::from(c[1] >> 4) | (i16::from(c[2]) << 4);
            if d1 < Q {
                a.0[n] = d1;
                n += 1;
            }
            if d2 < Q && n < N {
                a.0[n] = d2;
                n += 1;
            }
            if n == N {
                break;
            }
        }
    }
    a
}

/// FIPS 203, Algorithm 8: SamplePolyCBD_eta(B) for eta = 2 (B has 128 bytes): coefficients
/// x - y in [-2, 2], x and y each the sum of two bits of B. Branch-free.
fn sample_poly_cbd2(b: &[u8]) -> Poly {
    let mut f = Poly::ZERO;
    for (coeffs, w) in f.0.chunks_exact_mut(8).zip(b.chunks_exact(4)) {
        let t = u32::from_le_bytes([w[0], w[1], w[2], w[3]]);
        // Each 2-bit field of d is the sum of the two bits of t there.
        let d = (t & 0x5555_5555) + ((t >> 1) & 0x5555_5555);
        for (k, c) in coeffs.iter_mut().enumerate() {
            let x = ((d >> (4 * k)) & 3) as i16;
            let y = ((d >> (4 * k + 2)) & 3) as i16;
            *c = x - y;
        }
    }
    f
}

/// FIPS 203, Algorithm 8: SamplePolyCBD_eta(B) for eta = 3 (B has 192 bytes): coefficients
/// x - y in [-3, 3], x and y each the sum of three bits of B. Branch-free.
fn sample_poly_cbd3(b: &[u8]) -> Poly {
    let mut f = Poly::ZERO;
    for (coeffs, w) in f.0.chunks_exact_mut(4).zip(b.chunks_exact(3)) {
        let t = u32::from(w[0]) | (u32::from(w[1]) << 8) | (u32::from(w[2]) << 16);
        // Each 3-bit field of d is the sum of the three bits of t there.
        let d = (t & 0x0024_9249) + ((t >> 1) & 0x0024_9249) + ((t >> 2) & 0x0024_9249);
        for (k, c) in coeffs.iter_mut().enumerate() {
            let x = ((d >> (6 * k)) & 7) as i16;
            let y = ((d >> (6 * k + 3)) & 7) as i16;
            *c = x - y;
        }
    }
    f
}

/// FIPS 203, Algorithm 8: SamplePolyCBD_eta(B) for eta in {2, 3}, B holding 64 eta bytes.
/// Coefficients are returned as small signed integers (their representatives mod q).
pub(crate) fn sample_poly_cbd(eta: usize, b: &[u8]) -> Poly {
    let _k = pqlab_profile::enter(pqlab_profile::Kernel::Sample);
    if eta == 3 {
        sample_poly_cbd3(b)
    } else {
        sample_poly_cbd2(b)
    }
}

/// SamplePolyCBD_eta(PRF_eta(s, b)) (FIPS 203, Algorithm 13 lines 9 and 13, Algorithm 14 lines
/// 10, 14 and 17).
pub(crate) fn sample_poly_cbd_prf(eta: usize, s: &[u8; 32], b: u8) -> Poly {
    let mut buf = [0u8; 64 * 3];
    let len = 64 * eta;
    prf(s, b, &mut buf[..len]);
    let f = sample_poly_cbd(eta, &buf[..len]);
    buf.zeroize();
    f
}

#[cfg(test)]
mod tests {
    use super::*;

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
                let f = sample_poly_cbd(eta, &b[..64 * eta]);
                assert_eq!(f.0, literal_cbd(eta, &b[..64 * eta]));
                assert!(f.0.iter().all(|c| c.unsigned_abs() as usize <= eta));
            }
            let ones = [0xffu8; 192];
            assert_eq!(sample_poly_cbd(eta, &ones[..64 * eta]).0, [0; N]);
        }
    }

    #[test]
    fn sample_ntt_is_uniform_below_q() {
        let a = sample_ntt(&[7u8; 32], 1, 2);
        assert!(a.0.iter().all(|&c| (0..Q).contains(&c)));
        assert_ne!(a, sample_ntt(&[7u8; 32], 2, 1));
    }
}
