//! Sampling algorithms (FIPS 203, Section 4.2.2: Algorithms 7 and 8), over the kernels of the
//! selected back end; the independent SHAKE streams run side by side in Keccak lanes.

// Under `small-memory` the lane samplers serve only the tests (`kpke::stream` samples one
// stream at a time).
#![cfg_attr(feature = "small-memory", allow(dead_code))]

use pqlab_arith::wipe::wipe;
use pqlab_keccak::{Shake128X, Shake256X, ShakeMix, Xof, lane_batches};

use crate::backend::Ops;
use crate::params::N;
use crate::poly::Poly;

/// A_hat\[i\]\[j\] = SampleNTT(rho || j || i) for i, j < k (FIPS 203, Algorithm 13 lines 3 to 7,
/// Algorithm 14 lines 4 to 8): the k^2 SHAKE128 streams run in Keccak lanes side by side, each
/// block of each lane going through the rejection kernel until every entry has 256
/// coefficients. Public data. (Each lane equals `kpke::stream::sample_ntt`, which samples
/// one stream alone.)
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

/// Key generation's sampling in one pass (FIPS 203, Algorithm 13 lines 3 to 7, 9 and 13):
/// A_hat\[i\]\[j\] = SampleNTT(rho || j || i) into `a_hat[i k + j]`, and
/// SamplePolyCBD_eta1(PRF_eta1(sigma, N)) for N = 0..2k into `s[N]` (N < k) and `e[N - k]`.
/// The k^2 SHAKE128 and 2k SHAKE256 streams share the Keccak lanes ([`ShakeMix`]): the streams,
/// matrix first, are cut into batches of [`lane_batches`]; in each batch a lane leaves once its
/// output is complete, and the trailing lanes that have left stop being permuted (so with
/// AVX-512 the PRF's lanes ride along in the 8-way permutation of the matrix's first blocks,
/// which then goes on 4-way). Outputs equal [`sample_matrix`] and [`sample_poly_cbd_prf`].
/// The matrix is public; the PRF lanes and their buffers are secret and wiped.
pub(crate) fn sample_key_gen<B: Ops>(
    rho: &[u8; 32],
    sigma: &[u8; 32],
    k: usize,
    eta1: usize,
    a_hat: &mut [Poly],
    s: &mut [Poly],
    e: &mut [Poly],
) {
    let _k = pqlab_profile::enter(pqlab_profile::Kernel::Sample);
    let total = k * k + 2 * k;
    // 64 eta1 <= 192 bytes of each PRF stream.
    let need = 64 * eta1;
    for (start, n) in lane_batches(B::BACKEND, total) {
        let mut seeds = [[0u8; 34]; 8];
        let mut lens = [34usize; 8];
        let mut xofs = [Xof::Shake128; 8];
        for t in 0..n {
            let m = start + t;
            if m < k * k {
                seeds[t][..32].copy_from_slice(rho);
                seeds[t][32] = (m % k) as u8;
                seeds[t][33] = (m / k) as u8;
            } else {
                seeds[t][..32].copy_from_slice(sigma);
                seeds[t][32] = (m - k * k) as u8;
                lens[t] = 33;
                xofs[t] = Xof::Shake256;
            }
        }
        let inputs: [&[u8]; 8] = core::array::from_fn(|t| &seeds[t][..lens[t]]);
        let Some(mut xof) = ShakeMix::new(B::BACKEND, &inputs[..n], &xofs[..n]) else {
            return;
        };
        let mut blocks = [[0u8; ShakeMix::MAX_RATE]; 8];
        // Matrix lanes: coefficients written; PRF lanes: bytes gathered in `prf`.
        let mut filled = [0usize; 8];
        let mut prf = [[0u8; 192]; 8];
        let mut lanes = n;
        while lanes > 0 {
            xof.squeeze_blocks(&mut blocks[..lanes]);
            for t in 0..lanes {
                let m = start + t;
                let f = filled[t];
                if m < k * k {
                    if f < N {
                        filled[t] += B::rej_uniform(&blocks[t][..168], &mut a_hat[m].0[f..]);
                    }
                } else if f < need {
                    let take = (need - f).min(136);
                    prf[t][f..f + take].copy_from_slice(&blocks[t][..take]);
                    filled[t] += take;
                    if filled[t] == need {
                        let c = m - k * k;
                        let out = if c < k { &mut s[c] } else { &mut e[c - k] };
                        B::sample_poly_cbd(eta1, &prf[t][..need], &mut out.0);
                    }
                }
            }
            // Lanes after the last unfinished one stop.
            let done = |t: usize| filled[t] >= if start + t < k * k { N } else { need };
            while lanes > 0 && done(lanes - 1) {
                lanes -= 1;
            }
            xof.truncate(lanes);
        }
        wipe(seeds.as_flattened_mut());
        wipe(prf.as_flattened_mut());
        wipe(blocks.as_flattened_mut());
    }
}

/// SamplePolyCBD_eta\[i\](PRF_eta\[i\](s, b0 + i)) into output i for every i (FIPS 203,
/// Algorithm 13 lines 9 and 13, Algorithm 14 lines 10, 14 and 17; PRF is equation 4.3): the
/// SHAKE256 streams run in Keccak lanes side by side. The outputs are the polynomials of
/// `parts` in order (several slices, so that each vector is sampled straight where it stays,
/// sized for its parameter set); `etas` has one entry per output, at most 2 MAX_K + 1 in all.
pub(crate) fn sample_poly_cbd_prf<B: Ops>(
    s: &[u8; 32],
    b0: u8,
    etas: &[usize],
    parts: &mut [&mut [Poly]],
) {
    let _k = pqlab_profile::enter(pqlab_profile::Kernel::Sample);
    let outputs: usize = parts.iter().map(|p| p.len()).sum();
    let total = etas.len().min(outputs);
    for (start, n) in lane_batches(B::BACKEND, total) {
        let mut seeds = [[0u8; 33]; 8];
        for (t, seed) in seeds.iter_mut().enumerate().take(n) {
            seed[..32].copy_from_slice(s);
            seed[32] = b0.wrapping_add((start + t) as u8);
        }
        let inputs: [&[u8]; 8] = core::array::from_fn(|t| &seeds[t][..]);
        let mut xof = Shake256X::new(B::BACKEND, &inputs[..n]);
        // 64 eta <= 192 bytes: one block of 136, or two. Each lane's block is read straight
        // into `buf` and sampled from there; a lane that needs a second block parks its first
        // one in its output polynomial meanwhile (no buffer per lane).
        let mut buf = [0u8; 192];
        xof.next_blocks();
        let mut second = false;
        for t in 0..n {
            let eta = etas[start + t];
            let Some(f) = nth_poly(parts, start + t) else {
                continue;
            };
            if 64 * eta <= 136 {
                xof.read_block(t, &mut buf[..64 * eta]);
                B::sample_poly_cbd(eta, &buf[..64 * eta], &mut f.0);
            } else {
                xof.read_block(t, &mut buf[..136]);
                park(&buf[..136], f);
                second = true;
            }
        }
        if second {
            xof.next_blocks();
            for t in 0..n {
                let eta = etas[start + t];
                let Some(f) = nth_poly(parts, start + t) else {
                    continue;
                };
                if 64 * eta > 136 {
                    unpark(f, &mut buf[..136]);
                    xof.read_block(t, &mut buf[136..64 * eta]);
                    B::sample_poly_cbd(eta, &buf[..64 * eta], &mut f.0);
                }
            }
        }
        wipe(seeds.as_flattened_mut());
        wipe(&mut buf);
    }
}

/// Keeps `bytes` (an even length, at most 2 N) in the coefficients of `f`, two bytes to a
/// coefficient, until [`unpark`] takes them back: a stream's first block waits in the
/// polynomial it becomes.
fn park(bytes: &[u8], f: &mut Poly) {
    for (c, pair) in f.0.iter_mut().zip(bytes.chunks_exact(2)) {
        *c = i16::from_le_bytes([pair[0], pair[1]]);
    }
}

/// The bytes that [`park`] left in `f`, into `bytes` (an even length, at most 2 N).
fn unpark(f: &Poly, bytes: &mut [u8]) {
    for (c, pair) in f.0.iter().zip(bytes.chunks_exact_mut(2)) {
        pair.copy_from_slice(&c.to_le_bytes());
    }
}

/// Polynomial `i` of the concatenation of `parts`, if there is one.
fn nth_poly<'a>(parts: &'a mut [&mut [Poly]], mut i: usize) -> Option<&'a mut Poly> {
    for part in parts.iter_mut() {
        if i < part.len() {
            return part.get_mut(i);
        }
        i -= part.len();
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::portable::Portable;
    use crate::hash::prf;
    use crate::params::{MAX_K, Q};

    /// FIPS 203, Algorithm 7: SampleNTT(rho || j || i), one stream alone (the reference for
    /// the lanes of [`sample_matrix`]).
    fn sample_ntt<B: Ops>(rho: &[u8; 32], j: u8, i: u8) -> Poly {
        let mut a = Poly::ZERO;
        crate::kpke::stream::sample_ntt::<B>(rho, j, i, &mut a);
        a
    }

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
                sample_poly_cbd_prf::<Portable>(&[seed; 32], eta as u8, &[eta], &mut [&mut g]);
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
        let (head, tail) = out.split_at_mut(4);
        sample_poly_cbd_prf::<Portable>(&[4u8; 32], 3, &etas, &mut [head, tail]);
        for (i, (&eta, p)) in etas.iter().zip(&out).enumerate() {
            let mut b = [0u8; 192];
            prf(&[4u8; 32], 3 + i as u8, &mut b[..64 * eta]);
            let mut f = Poly::ZERO;
            Portable::sample_poly_cbd(eta, &b[..64 * eta], &mut f.0);
            assert_eq!(*p, f);
        }
    }

    /// [`sample_key_gen`] on `B` against the separate samplers on the portable back end; returns
    /// the cases compared.
    fn key_gen_sampling_case<B: Ops>() -> usize {
        let mut cases = 0;
        for (k, eta1) in [(2usize, 3usize), (3, 2), (4, 2)] {
            for seed in 0..4u8 {
                let (rho, sigma) = ([k as u8 ^ seed; 32], [0x40 + k as u8 + seed; 32]);
                let mut a = [Poly::ZERO; MAX_K * MAX_K];
                let mut se = [Poly::ZERO; 2 * MAX_K];
                let (s, e) = se.split_at_mut(k);
                sample_key_gen::<B>(&rho, &sigma, k, eta1, &mut a[..k * k], s, &mut e[..k]);
                let mut a_ref = [Poly::ZERO; MAX_K * MAX_K];
                sample_matrix::<Portable>(&rho, k, &mut a_ref[..k * k]);
                let mut se_ref = [Poly::ZERO; 2 * MAX_K];
                let etas = [eta1; 2 * MAX_K];
                sample_poly_cbd_prf::<Portable>(&sigma, 0, &etas[..2 * k], &mut [&mut se_ref]);
                assert_eq!(a[..k * k], a_ref[..k * k], "k = {k}: A_hat");
                assert_eq!(se[..2 * k], se_ref[..2 * k], "k = {k}: s, e");
                cases += 1;
            }
        }
        cases
    }

    #[test]
    fn key_gen_sampling_equals_the_separate_samplers() {
        pqlab_testutil::backends::each_available(
            "ML-KEM key generation sampling",
            12,
            |b| crate::backend::dispatch!(on b, B => key_gen_sampling_case::<B>()),
        );
    }

    #[test]
    fn sample_ntt_is_uniform_below_q() {
        let a = sample_ntt::<Portable>(&[7u8; 32], 1, 2);
        assert!(a.0.iter().all(|&c| (0..Q).contains(&c)));
        assert_ne!(a, sample_ntt::<Portable>(&[7u8; 32], 2, 1));
    }
}
