//! Pseudorandom sampling (FIPS 204, Section 7.3: Algorithms 29 to 34).

use pqlab_arith::wipe::wipe;
#[cfg(test)]
use pqlab_keccak::Shake128;
use pqlab_keccak::{Shake128X, Shake256, Shake256X, lane_batches};

use crate::backend::Ops;
use crate::params::{MAX_L, ParameterSet};
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
/// random polynomial in the NTT domain, from SHAKE128, one stream alone (the reference for the
/// lanes of [`expand_a`]). Runs on public data (rho).
#[cfg(test)]
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
/// a polynomial with coefficients in [-eta, eta], from SHAKE256, one stream alone (the reference
/// for the lanes of [`expand_s`]).
///
/// The rejection depends on the secret stream; as in the standard and the reference
/// implementation, only the number of rejected half-bytes can leak, and rejected values are
/// independent of the accepted ones.
#[cfg(test)]
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
        wipe(&mut block);
    }
    a
}

/// FIPS 204, Algorithm 32: one entry A_hat\[r\]\[s\] of ExpandA(rho), the seed being
/// rho || IntegerToBytes(s, 1) || IntegerToBytes(r, 1) (one stream alone; the reference for
/// [`expand_a`]).
#[cfg(test)]
pub(crate) fn expand_a_entry<B: Ops>(rho: &[u8; 32], r: usize, s: usize) -> Poly {
    let mut seed = [0u8; 34];
    seed[..32].copy_from_slice(rho);
    seed[32] = s as u8;
    seed[33] = r as u8;
    rej_ntt_poly::<B>(&seed)
}

/// FIPS 204, Algorithm 32: ExpandA(rho), the first `k` rows and `l` columns of A_hat. Public
/// data.
pub(crate) fn expand_a<B: Ops>(rho: &[u8; 32], k: usize, l: usize, a_hat: &mut [Poly]) {
    expand_a_each::<B>(rho, k, l, |r, s, a| a_hat[r * l + s] = *a);
}

/// FIPS 204, Algorithm 32: ExpandA(rho), streamed: `f(r, s, A_hat[r][s])` for the first `k`
/// rows and `l` columns, in row-major order. The k l SHAKE128 streams (Algorithm 30:
/// RejNTTPoly) run in Keccak lanes side by side, each block of each lane through the
/// rejection kernel until every entry of the batch has 256 coefficients; only one batch of
/// entries is held at a time. Public data.
pub(crate) fn expand_a_each<B: Ops>(
    rho: &[u8; 32],
    k: usize,
    l: usize,
    mut f: impl FnMut(usize, usize, &Poly),
) {
    let _k = pqlab_profile::enter(pqlab_profile::Kernel::Sample);
    let mut entries = [Poly::ZERO; 8];
    for (first, n) in lane_batches(B::BACKEND, k * l) {
        let mut seeds = [[0u8; 34]; 8];
        for (t, seed) in seeds.iter_mut().enumerate().take(n) {
            let (r, s) = ((first + t) / l, (first + t) % l);
            seed[..32].copy_from_slice(rho);
            seed[32] = s as u8;
            seed[33] = r as u8;
        }
        let inputs: [&[u8]; 8] = core::array::from_fn(|t| &seeds[t][..]);
        let mut xof = Shake128X::new(B::BACKEND, &inputs[..n]);
        let mut blocks = [[0u8; 168]; 8];
        let mut filled = [0usize; 8];
        while filled[..n].iter().any(|&f| f < 256) {
            xof.squeeze_blocks(&mut blocks[..n]);
            for t in 0..n {
                let f = filled[t];
                if f < 256 {
                    filled[t] += B::rej_uniform(&blocks[t], &mut entries[t].0[f..]);
                }
            }
        }
        for (t, entry) in entries.iter().enumerate().take(n) {
            f((first + t) / l, (first + t) % l, entry);
        }
    }
}

/// FIPS 204, Algorithm 33: ExpandS(rho'): s1 (L polynomials) and s2 (K polynomials) written
/// into the first entries of `s1` and `s2`, the L + K SHAKE256 streams (Algorithm 31:
/// RejBoundedPoly) in Keccak lanes side by side.
///
/// The rejection depends on the secret stream; as in the standard and the reference
/// implementation, only the number of rejected half-bytes can leak (here: how many blocks
/// each batch of lanes squeezes), and rejected values are independent of the accepted ones.
pub(crate) fn expand_s<P: ParameterSet, B: Ops>(
    rho_prime: &[u8; 64],
    s1: &mut [Poly],
    s2: &mut [Poly],
) {
    let _k = pqlab_profile::enter(pqlab_profile::Kernel::Sample);
    for (first, n) in lane_batches(B::BACKEND, P::L + P::K) {
        let mut seeds = [[0u8; 66]; 8];
        for (t, seed) in seeds.iter_mut().enumerate().take(n) {
            seed[..64].copy_from_slice(rho_prime);
            seed[64..].copy_from_slice(&((first + t) as u16).to_le_bytes());
        }
        let inputs: [&[u8]; 8] = core::array::from_fn(|t| &seeds[t][..]);
        let mut xof = Shake256X::new(B::BACKEND, &inputs[..n]);
        let mut blocks = [[0u8; 136]; 8];
        let mut filled = [0usize; 8];
        while filled[..n].iter().any(|&f| f < 256) {
            xof.squeeze_blocks(&mut blocks[..n]);
            for t in 0..n {
                let r = first + t;
                let p = if r < P::L {
                    &mut s1[r]
                } else {
                    &mut s2[r - P::L]
                };
                let f = filled[t];
                if f < 256 {
                    filled[t] += B::rej_eta(P::ETA, &blocks[t], &mut p.0[f..]);
                }
            }
        }
        wipe(seeds.as_flattened_mut());
        wipe(blocks.as_flattened_mut());
    }
}

/// FIPS 204, Algorithm 34: ExpandMask(rho'', mu): the L polynomials of y with coefficients in
/// [-gamma1 + 1, gamma1], written into the first entries of `y`; the L SHAKE256 streams run in
/// Keccak lanes side by side. `kappa` is the mu of the standard (renamed to avoid a clash with
/// the message representative).
pub(crate) fn expand_mask<P: ParameterSet, B: Ops>(rho_pp: &[u8; 64], kappa: u16, y: &mut [Poly]) {
    let _k = pqlab_profile::enter(pqlab_profile::Kernel::Sample);
    // 32 * c bytes per polynomial, c = 1 + bitlen(gamma1 - 1) = 18 or 20: at most 640, five
    // blocks of 136.
    let len = 32 * P::GAMMA1_BITS;
    let mut seeds = [[0u8; 66]; MAX_L];
    for (r, seed) in seeds.iter_mut().enumerate().take(P::L) {
        seed[..64].copy_from_slice(rho_pp);
        seed[64..].copy_from_slice(&kappa.wrapping_add(r as u16).to_le_bytes());
    }
    let inputs: [&[u8]; MAX_L] = core::array::from_fn(|t| &seeds[t][..]);
    let mut xof = Shake256X::new(B::BACKEND, &inputs[..P::L]);
    let mut bufs = [[0u8; 5 * 136]; MAX_L];
    let mut blocks = [[0u8; 136]; MAX_L];
    for b in 0..len.div_ceil(136) {
        xof.squeeze_blocks(&mut blocks[..P::L]);
        for (buf, block) in bufs.iter_mut().zip(&blocks).take(P::L) {
            buf[136 * b..136 * (b + 1)].copy_from_slice(block);
        }
    }
    for (poly, buf) in y.iter_mut().zip(&bufs).take(P::L) {
        B::bit_unpack(&buf[..len], P::GAMMA1_BITS, P::GAMMA1, &mut poly.0);
    }
    wipe(seeds.as_flattened_mut());
    wipe(bufs.as_flattened_mut());
    wipe(blocks.as_flattened_mut());
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::portable::Portable;
    use crate::encode::bit_unpack;
    use crate::params::{MlDsa44, MlDsa65, MlDsa87};
    use pqlab_arith::array::FixedArray;

    fn lanes_equal_one_stream_at_a_time<P: ParameterSet>() {
        let rho = [3u8; 32];
        let mut a_hat = P::Matrix::ZERO;
        let a_hat = a_hat.as_mut();
        expand_a::<Portable>(&rho, P::K, P::L, a_hat);
        for r in 0..P::K {
            for s in 0..P::L {
                assert_eq!(a_hat[r * P::L + s], expand_a_entry::<Portable>(&rho, r, s));
            }
        }
        let rho_prime = [7u8; 64];
        let (mut s1, mut s2) = (P::VecL::ZERO, P::VecK::ZERO);
        let (s1, s2) = (s1.as_mut(), s2.as_mut());
        expand_s::<P, Portable>(&rho_prime, s1, s2);
        for r in 0..P::L + P::K {
            let mut seed = [0u8; 66];
            seed[..64].copy_from_slice(&rho_prime);
            seed[64..].copy_from_slice(&(r as u16).to_le_bytes());
            let want = rej_bounded_poly::<P, Portable>(&seed);
            let got = if r < P::L { s1[r] } else { s2[r - P::L] };
            assert_eq!(got, want, "{} ExpandS {r}", P::NAME);
        }
        let mut y = [Poly::ZERO; MAX_L];
        expand_mask::<P, Portable>(&rho_prime, 5 * P::L as u16, &mut y);
        for r in 0..P::L {
            let mut seed = [0u8; 66];
            seed[..64].copy_from_slice(&rho_prime);
            seed[64..].copy_from_slice(&(5 * P::L as u16 + r as u16).to_le_bytes());
            let mut buf = [0u8; 640];
            let len = 32 * P::GAMMA1_BITS;
            Shake256::digest_parts(&[&seed], &mut buf[..len]);
            let mut want = [0i32; 256];
            bit_unpack(&buf[..len], P::GAMMA1_BITS, P::GAMMA1, &mut want);
            assert_eq!(y[r].0, want, "{} ExpandMask {r}", P::NAME);
        }
    }

    #[test]
    fn lanes_equal_one_stream_at_a_time_for_every_set() {
        lanes_equal_one_stream_at_a_time::<MlDsa44>();
        lanes_equal_one_stream_at_a_time::<MlDsa65>();
        lanes_equal_one_stream_at_a_time::<MlDsa87>();
    }
}
