//! Pseudorandom sampling (FIPS 204, Section 7.3: Algorithms 29 to 34).

use pqlab_keccak::{Shake128, Shake256};

use crate::backend::Ops;
use crate::params::{MAX_K, MAX_L, ParameterSet};
use crate::poly::Poly;

/// FIPS 204, Algorithm 29: SampleInBall(rho) for rho = c_tilde: a polynomial with tau
/// coefficients in {-1, 1} and the rest 0. Runs on public data (c_tilde is published).
pub(crate) fn sample_in_ball<P: ParameterSet>(c_tilde: &[u8]) -> Poly {
    let _k = pqlab_profile::enter(pqlab_profile::Kernel::Sample);
    let mut c = Poly::ZERO;
    let mut h = Shake256::new();
    h.absorb(c_tilde);
    let mut reader = h.finalize();
    let mut s = [0u8; 8];
    reader.squeeze(&mut s);
    let signs = u64::from_le_bytes(s);
    let mut block = reader.squeeze_block();
    let mut pos = 0;
    for (k, i) in (256 - P::TAU..256).enumerate() {
        let j = loop {
            if pos == block.len() {
                block = reader.squeeze_block();
                pos = 0;
            }
            let j = usize::from(block[pos]);
            pos += 1;
            if j <= i {
                break j;
            }
        };
        c.0[i] = c.0[j];
        c.0[j] = 1 - 2 * (((signs >> k) & 1) as i32);
    }
    c
}

/// FIPS 204, Algorithm 30: RejNTTPoly(rho) for the 34-byte seed rho || s || r: a uniformly
/// random polynomial in the NTT domain, from SHAKE128. Runs on public data (rho).
pub(crate) fn rej_ntt_poly<B: Ops>(seed: &[u8; 34]) -> Poly {
    let _k = pqlab_profile::enter(pqlab_profile::Kernel::Sample);
    let mut a = Poly::ZERO;
    let mut h = Shake128::new();
    h.absorb(seed);
    let mut reader = h.finalize();
    let mut j = 0;
    // 168 = 3 * 56: every block holds a whole number of 3-byte candidates.
    while j < 256 {
        let block = reader.squeeze_block();
        j += B::rej_uniform(&block, &mut a.0[j..]);
    }
    a
}

/// FIPS 204, Algorithm 31: RejBoundedPoly(rho) for the 66-byte seed rho' || IntegerToBytes(r, 2):
/// a polynomial with coefficients in [-eta, eta], from SHAKE256.
///
/// The rejection depends on the secret stream; as in the standard and the reference
/// implementation, only the number of rejected half-bytes can leak, and rejected values are
/// independent of the accepted ones.
pub(crate) fn rej_bounded_poly<P: ParameterSet, B: Ops>(seed: &[u8; 66]) -> Poly {
    let _k = pqlab_profile::enter(pqlab_profile::Kernel::Sample);
    let mut a = Poly::ZERO;
    let mut h = Shake256::new();
    h.absorb(seed);
    let mut reader = h.finalize();
    let mut j = 0;
    while j < 256 {
        let mut block = reader.squeeze_block();
        j += B::rej_eta(P::ETA, &block, &mut a.0[j..]);
        zeroize::Zeroize::zeroize(&mut block);
    }
    a
}

/// FIPS 204, Algorithm 32: one entry A_hat\[r\]\[s\] of ExpandA(rho), the seed being
/// rho || IntegerToBytes(s, 1) || IntegerToBytes(r, 1).
pub(crate) fn expand_a_entry<B: Ops>(rho: &[u8; 32], r: usize, s: usize) -> Poly {
    let mut seed = [0u8; 34];
    seed[..32].copy_from_slice(rho);
    seed[32] = s as u8;
    seed[33] = r as u8;
    rej_ntt_poly::<B>(&seed)
}

/// FIPS 204, Algorithm 32: ExpandA(rho), the first `k` rows and `l` columns of A_hat.
pub(crate) fn expand_a<B: Ops>(
    rho: &[u8; 32],
    k: usize,
    l: usize,
    a_hat: &mut [[Poly; MAX_L]; MAX_K],
) {
    for (r, row) in a_hat.iter_mut().enumerate().take(k) {
        for (s, a) in row.iter_mut().enumerate().take(l) {
            *a = expand_a_entry::<B>(rho, r, s);
        }
    }
}

/// FIPS 204, Algorithm 33: ExpandS(rho'): s1 (L polynomials) and s2 (K polynomials) written
/// into the first entries of `s1` and `s2`.
pub(crate) fn expand_s<P: ParameterSet, B: Ops>(
    rho_prime: &[u8; 64],
    s1: &mut [Poly],
    s2: &mut [Poly],
) {
    let mut seed = [0u8; 66];
    seed[..64].copy_from_slice(rho_prime);
    for r in 0..P::L + P::K {
        seed[64..].copy_from_slice(&(r as u16).to_le_bytes());
        let p = rej_bounded_poly::<P, B>(&seed);
        if r < P::L {
            s1[r] = p;
        } else {
            s2[r - P::L] = p;
        }
    }
    zeroize::Zeroize::zeroize(&mut seed);
}

/// FIPS 204, Algorithm 34: ExpandMask(rho'', mu): the L polynomials of y with coefficients in
/// [-gamma1 + 1, gamma1], written into the first entries of `y`. `kappa` is the mu of the
/// standard (renamed to avoid a clash with the message representative).
pub(crate) fn expand_mask<P: ParameterSet, B: Ops>(rho_pp: &[u8; 64], kappa: u16, y: &mut [Poly]) {
    let _k = pqlab_profile::enter(pqlab_profile::Kernel::Sample);
    let mut seed = [0u8; 66];
    seed[..64].copy_from_slice(rho_pp);
    // 32 * c bytes per polynomial, c = 1 + bitlen(gamma1 - 1) = 18 or 20: at most 640.
    let mut buf = [0u8; 640];
    let len = 32 * P::GAMMA1_BITS;
    for (r, poly) in y.iter_mut().enumerate().take(P::L) {
        seed[64..].copy_from_slice(&kappa.wrapping_add(r as u16).to_le_bytes());
        Shake256::digest_parts(&[&seed], &mut buf[..len]);
        B::bit_unpack(&buf[..len], P::GAMMA1_BITS, P::GAMMA1, &mut poly.0);
    }
    zeroize::Zeroize::zeroize(&mut seed);
    zeroize::Zeroize::zeroize(&mut buf);
}
