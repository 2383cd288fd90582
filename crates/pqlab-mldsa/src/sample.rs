//! Pseudorandom sampling (FIPS 204, Section 7.3: Algorithms 29 to 34).

use pqlab_arith::wipe::wipe;
use pqlab_backend::Backend;
use pqlab_keccak::{Shake128, Shake128X, Shake256, Shake256X, lane_batches};
use zeroize::Zeroize;

use crate::backend::Ops;
use crate::params::{LANES, MAX_L, ParameterSet};
use crate::poly::Poly;

/// FIPS 204, Algorithm 29: SampleInBall(rho) for rho = c_tilde: a polynomial with tau
/// coefficients in {-1, 1} and the rest 0, the textbook way, for verification, where c_tilde is
/// public (it is in the signature). Its rejection loop and the index j of line 9 depend on c:
/// the signer, whose rejected challenges are secret, uses the constant-time
/// [`crate::ball::BallMasks`] instead.
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
        // Lines 6 to 8: the first byte j <= i.
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
        // Lines 9 and 10.
        c.0[i] = c.0[j];
        c.0[j] = 1 - 2 * (((signs >> k) & 1) as i32);
    }
    c
}

/// FIPS 204, Algorithm 30: RejNTTPoly(rho) for the 34-byte seed rho || s || r, into `a`: a
/// uniformly random polynomial in the NTT domain, from SHAKE128, one stream alone (the
/// `small-memory` form of [`expand_a_batches`], and the reference for its lanes). Public data.
fn rej_ntt_poly_into<B: Ops>(seed: &[u8; 34], a: &mut Poly) {
    let mut h = Shake128::new();
    h.absorb(seed);
    let mut reader = h.finalize();
    let mut j = 0;
    // 168 = 3 * 56: every block holds a whole number of 3-byte candidates.
    while j < 256 {
        let block = reader.squeeze_block();
        j += B::rej_uniform(&block, &mut a.0[j..]);
    }
}

/// FIPS 204, Algorithm 30: RejNTTPoly(rho) for the seed rho || IntegerToBytes(s, 1) ||
/// IntegerToBytes(r, 1) of entry A_hat\[r\]\[s\] (Algorithm 32), streamed coefficient by
/// coefficient: `f(j, a_j)` for j = 0 to 255 in order, from one Keccak state squeezed 24 bytes
/// (eight candidates of Algorithm 14: CoeffFromThreeBytes) at a time, so that the entry is
/// never held (the `small-memory` matrix of Greconici, Kannwischer and Sprenkels). Public data.
#[cfg(feature = "small-memory")]
pub(crate) fn rej_ntt_poly_each(rho: &[u8; 32], r: usize, s: usize, mut f: impl FnMut(usize, i32)) {
    let _k = pqlab_profile::enter(pqlab_profile::Kernel::Sample);
    let mut reader = Shake128::reader_of_parts(&[rho, &[s as u8, r as u8]]);
    let mut buf = [0u8; 24];
    let mut j = 0;
    while j < 256 {
        reader.squeeze(&mut buf);
        for c in buf.chunks_exact(3) {
            let a = i32::from(c[0]) | (i32::from(c[1]) << 8) | ((i32::from(c[2]) & 0x7f) << 16);
            if a < crate::params::Q && j < 256 {
                f(j, a);
                j += 1;
            }
        }
    }
}

/// FIPS 204, Algorithm 30: RejNTTPoly(rho), returned (the test reference).
#[cfg(test)]
pub(crate) fn rej_ntt_poly<B: Ops>(seed: &[u8; 34]) -> Poly {
    let mut a = Poly::ZERO;
    rej_ntt_poly_into::<B>(seed, &mut a);
    a
}

/// FIPS 204, Algorithm 31: RejBoundedPoly(rho) for the 66-byte seed rho' || IntegerToBytes(r, 2),
/// into `a`: a polynomial with coefficients in [-eta, eta], from SHAKE256, one stream alone (the
/// `small-memory` form of [`expand_s_each`], and the reference for its lanes).
///
/// The rejection depends on the secret stream; as in the standard and the reference
/// implementation, only the number of rejected half-bytes can leak, and rejected values are
/// independent of the accepted ones.
fn rej_bounded_poly_into<P: ParameterSet, B: Ops>(seed: &[u8; 66], a: &mut Poly) {
    let mut h = Shake256::new();
    h.absorb(seed);
    let mut reader = h.finalize();
    let mut j = 0;
    while j < 256 {
        let mut block = reader.squeeze_block();
        j += B::rej_eta(P::ETA, &block, &mut a.0[j..]);
        wipe(&mut block);
    }
}

/// FIPS 204, Algorithm 31: RejBoundedPoly(rho), returned (the test reference).
#[cfg(test)]
pub(crate) fn rej_bounded_poly<P: ParameterSet, B: Ops>(seed: &[u8; 66]) -> Poly {
    let mut a = Poly::ZERO;
    rej_bounded_poly_into::<P, B>(seed, &mut a);
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

/// How `total` streams are split into batches run side by side: the Keccak lane batches of the
/// back end ([`lane_batches`]), cut to [`LANES`] streams (one at a time under `small-memory`).
/// Yields (first stream, number of streams).
fn batches(backend: Backend, total: usize) -> impl Iterator<Item = (usize, usize)> {
    lane_batches(backend, total).flat_map(|(first, n)| {
        (0..n)
            .step_by(LANES)
            .map(move |o| (first + o, LANES.min(n - o)))
    })
}

/// FIPS 204, Algorithm 32: ExpandA(rho), the first `k` rows and `l` columns of A_hat, each
/// batch sampled straight into its place. Public data.
pub(crate) fn expand_a<B: Ops>(rho: &[u8; 32], k: usize, l: usize, a_hat: &mut [Poly]) {
    let _k = pqlab_profile::enter(pqlab_profile::Kernel::Sample);
    for (first, n) in batches(B::BACKEND, k * l) {
        sample_batch::<B>(rho, l, first, &mut a_hat[first..first + n]);
    }
}

/// FIPS 204, Algorithm 32: ExpandA(rho), streamed: `f(i, entries)` with the entries i, i + 1,
/// ... of A_hat in row-major order (entry (r, s) is number r l + s), for the first `k` rows and
/// `l` columns, batch after batch; only one batch of entries (at most [`LANES`]) is held at a
/// time. Public data.
pub(crate) fn expand_a_batches<B: Ops>(
    rho: &[u8; 32],
    k: usize,
    l: usize,
    mut f: impl FnMut(usize, &[Poly]),
) {
    let _k = pqlab_profile::enter(pqlab_profile::Kernel::Sample);
    let mut entries = [Poly::ZERO; LANES];
    for (first, n) in batches(B::BACKEND, k * l) {
        sample_batch::<B>(rho, l, first, &mut entries[..n]);
        f(first, &entries[..n]);
    }
}

/// FIPS 204, Algorithm 32, one batch: the entries `first` to `first + out.len() - 1` of A_hat
/// (row-major, `l` columns) into `out`, their SHAKE128 streams (Algorithm 30: RejNTTPoly) in
/// Keccak lanes side by side, each block of each lane through the rejection kernel until every
/// entry has 256 coefficients (one one-lane stream under `small-memory`). Public data.
fn sample_batch<B: Ops>(rho: &[u8; 32], l: usize, first: usize, out: &mut [Poly]) {
    let n = out.len().min(LANES);
    let mut seeds = [[0u8; 34]; LANES];
    for (t, seed) in seeds.iter_mut().enumerate().take(n) {
        let (r, s) = ((first + t) / l, (first + t) % l);
        seed[..32].copy_from_slice(rho);
        seed[32] = s as u8;
        seed[33] = r as u8;
    }
    if LANES == 1 {
        rej_ntt_poly_into::<B>(&seeds[0], &mut out[0]);
        return;
    }
    let inputs: [&[u8]; LANES] = core::array::from_fn(|t| &seeds[t][..]);
    let mut xof = Shake128X::new(B::BACKEND, &inputs[..n]);
    let mut blocks = [[0u8; 168]; LANES];
    let mut filled = [0usize; LANES];
    while filled[..n].iter().any(|&f| f < 256) {
        xof.squeeze_blocks(&mut blocks[..n]);
        for t in 0..n {
            let f = filled[t];
            if f < 256 {
                filled[t] += B::rej_uniform(&blocks[t], &mut out[t].0[f..]);
            }
        }
    }
}

/// FIPS 204, Algorithm 33: ExpandS(rho'), streamed: `f(r, p)` for r = 0 to L + K - 1 with
/// p = s1\[r\] for r < L and s2\[r - L\] after, the SHAKE256 streams (Algorithm 31:
/// RejBoundedPoly) of a batch in Keccak lanes side by side (one at a time under `small-memory`).
/// The batch buffers are wiped.
///
/// The rejection depends on the secret stream; as in the standard and the reference
/// implementation, only the number of rejected half-bytes can leak (here: how many blocks
/// each batch of lanes squeezes), and rejected values are independent of the accepted ones.
///
/// Never inlined: its batch (up to eight polynomials, the lanes and their blocks) takes stack
/// only during ExpandS, not in the key generation's frame for the rest of it.
#[inline(never)]
pub(crate) fn expand_s_each<P: ParameterSet, B: Ops>(
    rho_prime: &[u8; 64],
    mut f: impl FnMut(usize, &Poly),
) {
    let _k = pqlab_profile::enter(pqlab_profile::Kernel::Sample);
    let mut polys = [Poly::ZERO; LANES];
    for (first, n) in batches(B::BACKEND, P::L + P::K) {
        let mut seeds = [[0u8; 66]; LANES];
        for (t, seed) in seeds.iter_mut().enumerate().take(n) {
            seed[..64].copy_from_slice(rho_prime);
            seed[64..].copy_from_slice(&((first + t) as u16).to_le_bytes());
        }
        if LANES == 1 {
            rej_bounded_poly_into::<P, B>(&seeds[0], &mut polys[0]);
        } else {
            let inputs: [&[u8]; LANES] = core::array::from_fn(|t| &seeds[t][..]);
            let mut xof = Shake256X::new(B::BACKEND, &inputs[..n]);
            let mut blocks = [[0u8; 136]; LANES];
            let mut filled = [0usize; LANES];
            while filled[..n].iter().any(|&f| f < 256) {
                xof.squeeze_blocks(&mut blocks[..n]);
                for t in 0..n {
                    let f = filled[t];
                    if f < 256 {
                        filled[t] += B::rej_eta(P::ETA, &blocks[t], &mut polys[t].0[f..]);
                    }
                }
            }
            wipe(blocks.as_flattened_mut());
        }
        for (t, p) in polys.iter().enumerate().take(n) {
            f(first + t, p);
        }
        wipe(seeds.as_flattened_mut());
    }
    for p in polys.iter_mut() {
        p.zeroize();
    }
}

/// FIPS 204, Algorithm 34: ExpandMask(rho'', mu), packed: the L polynomials of y, each as the
/// 32 c bytes of SHAKE256 output that BitUnpack(., gamma1 - 1, gamma1) turns into it (line 6),
/// written one after the other into `out` (L 32 c bytes: the layout of z in sigEncode, so that
/// z can be built over y in place). The L streams run in Keccak lanes side by side (one at a
/// time under `small-memory`). `kappa` is the mu of the standard (renamed to avoid a clash
/// with the message representative).
pub(crate) fn expand_mask_packed<P: ParameterSet, B: Ops>(
    rho_pp: &[u8; 64],
    kappa: u16,
    out: &mut [u8],
) {
    let _k = pqlab_profile::enter(pqlab_profile::Kernel::Sample);
    // 32 * c bytes per polynomial, c = 1 + bitlen(gamma1 - 1) = 18 or 20: at most 640, five
    // blocks of 136.
    let len = 32 * P::GAMMA1_BITS;
    if LANES == 1 {
        let mut seeds = [[0u8; 66]; MAX_L];
        for (r, seed) in seeds.iter_mut().enumerate().take(P::L) {
            seed[..64].copy_from_slice(rho_pp);
            seed[64..].copy_from_slice(&kappa.wrapping_add(r as u16).to_le_bytes());
        }
        for (seed, chunk) in seeds.iter().zip(out.chunks_exact_mut(len)) {
            Shake256::digest_parts(&[seed], chunk);
        }
        wipe(seeds.as_flattened_mut());
    } else {
        expand_mask_streams::<P, B>(rho_pp, kappa, &mut out[..P::L * len], &mut []);
    }
}

/// FIPS 204, Algorithm 34 lines 2 to 6 for up to 8 consecutive streams, side by side in
/// Keccak lanes: stream t (t from 0) is SHAKE256(rho'' || IntegerToBytes(kappa + t, 2)), its
/// first 32 c bytes (one polynomial of y, packed) written into the t-th 32 c-byte chunk of
/// `head` and then of `tail`, as if the two were one buffer (32 c a constant of `P`: no
/// division by it is left in the code). ExpandMask(rho'', kappa) is
/// the L streams from kappa on; the signer also draws streams of later attempts with them, in
/// lanes a batch runs anyway ([`crate::sign`]'s mask pool).
pub(crate) fn expand_mask_streams<P: ParameterSet, B: Ops>(
    rho_pp: &[u8; 64],
    kappa: u16,
    head: &mut [u8],
    tail: &mut [u8],
) {
    let _k = pqlab_profile::enter(pqlab_profile::Kernel::Sample);
    let len = const { 32 * P::GAMMA1_BITS };
    let n = (head.len() / len + tail.len() / len).min(Shake256X::MAX_LANES);
    let mut seeds = [[0u8; 66]; Shake256X::MAX_LANES];
    for (t, seed) in seeds.iter_mut().enumerate().take(n) {
        seed[..64].copy_from_slice(rho_pp);
        seed[64..].copy_from_slice(&kappa.wrapping_add(t as u16).to_le_bytes());
    }
    let inputs: [&[u8]; Shake256X::MAX_LANES] = core::array::from_fn(|t| &seeds[t][..]);
    let mut xof = Shake256X::new(B::BACKEND, &inputs[..n]);
    // Each lane's block goes straight into its place (at most 640 bytes: five blocks of 136).
    for b in 0..len.div_ceil(136) {
        xof.next_blocks();
        let (start, end) = (136 * b, len.min(136 * (b + 1)));
        let chunks = head.chunks_exact_mut(len).chain(tail.chunks_exact_mut(len));
        for (t, chunk) in chunks.enumerate().take(n) {
            xof.read_block(t, &mut chunk[start..end]);
        }
    }
    drop(xof);
    wipe(seeds.as_flattened_mut());
}

/// FIPS 204, Algorithm 32, one entry, fused with its product (the `small-memory` form of one
/// term of Algorithm 48, after Greconici, Kannwischer and Sprenkels): `acc` += A_hat\[r\]\[s\] o
/// `v_hat` * 2^-32 (set instead of added to when `first`), each coefficient multiplied as
/// RejNTTPoly(rho || s || r) (Algorithm 30, with CoeffFromThreeBytes, Algorithm 14) yields
/// it, so that the entry is never held: one Keccak state and one block instead of a
/// polynomial. The same values as [`Ops::pointwise`] (Montgomery, |term| < q). A_hat is public
/// (its rejections may branch); `v_hat` may be secret (it only multiplies).
#[cfg(feature = "small-memory")]
#[inline(never)]
pub(crate) fn expand_a_entry_times(
    rho: &[u8; 32],
    r: usize,
    s: usize,
    v_hat: &Poly,
    acc: &mut Poly,
    first: bool,
) {
    let _k = pqlab_profile::enter(pqlab_profile::Kernel::Sample);
    if first {
        acc.0.fill(0);
    }
    let mut reader = Shake128::reader_of_parts(&[rho, &[s as u8, r as u8]]);
    let mut block = [0u8; 168];
    let mut j = 0;
    while j < 256 {
        reader.squeeze(&mut block);
        // 168 = 3 * 56: every block holds a whole number of 3-byte candidates.
        for c in block.chunks_exact(3) {
            let z = i32::from(c[0]) | (i32::from(c[1]) << 8) | (i32::from(c[2] & 0x7f) << 16);
            if z < crate::params::Q && j < 256 {
                acc.0[j] +=
                    pqlab_arith::mldsa::montgomery_reduce(i64::from(z) * i64::from(v_hat.0[j]));
                j += 1;
            }
        }
    }
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
        expand_s_each::<P, Portable>(&rho_prime, |r, p| {
            if r < P::L {
                s1[r] = *p;
            } else {
                s2[r - P::L] = *p;
            }
        });
        for r in 0..P::L + P::K {
            let mut seed = [0u8; 66];
            seed[..64].copy_from_slice(&rho_prime);
            seed[64..].copy_from_slice(&(r as u16).to_le_bytes());
            let want = rej_bounded_poly::<P, Portable>(&seed);
            let got = if r < P::L { s1[r] } else { s2[r - P::L] };
            assert_eq!(got, want, "{} ExpandS {r}", P::NAME);
        }
        let len = 32 * P::GAMMA1_BITS;
        let mut packed = [0u8; MAX_L * 640];
        expand_mask_packed::<P, Portable>(&rho_prime, 5 * P::L as u16, &mut packed[..P::L * len]);
        for r in 0..P::L {
            let mut y = Poly::ZERO;
            bit_unpack(
                &packed[r * len..(r + 1) * len],
                P::GAMMA1_BITS,
                P::GAMMA1,
                &mut y.0,
            );
            let mut seed = [0u8; 66];
            seed[..64].copy_from_slice(&rho_prime);
            seed[64..].copy_from_slice(&(5 * P::L as u16 + r as u16).to_le_bytes());
            let mut buf = [0u8; 640];
            let len = 32 * P::GAMMA1_BITS;
            Shake256::digest_parts(&[&seed], &mut buf[..len]);
            let mut want = [0i32; 256];
            bit_unpack(&buf[..len], P::GAMMA1_BITS, P::GAMMA1, &mut want);
            assert_eq!(y.0, want, "{} ExpandMask {r}", P::NAME);
        }
    }

    /// The streamed entry equals the whole one (Algorithm 30), coefficient by coefficient.
    #[cfg(feature = "small-memory")]
    #[test]
    fn streamed_entry_equals_rej_ntt_poly() {
        let rho = [9u8; 32];
        for (r, s) in [(0, 0), (3, 2), (7, 6)] {
            let want = expand_a_entry::<Portable>(&rho, r, s);
            let mut got = Poly([-1; 256]);
            let mut next = 0;
            rej_ntt_poly_each(&rho, r, s, |j, a| {
                assert_eq!(j, next);
                next += 1;
                got.0[j] = a;
            });
            assert_eq!(next, 256);
            assert_eq!(got, want, "entry ({r}, {s})");
        }
    }

    #[test]
    fn lanes_equal_one_stream_at_a_time_for_every_set() {
        lanes_equal_one_stream_at_a_time::<MlDsa44>();
        lanes_equal_one_stream_at_a_time::<MlDsa65>();
        lanes_equal_one_stream_at_a_time::<MlDsa87>();
    }
}
