//! Verification in small memory (FIPS 204, Algorithm 8 from line 7 on, after Greconici,
//! Kannwischer and Sprenkels), on the encoded public key and signature: one polynomial (a
//! row of w'_approx), one block of 256 / 2^S coefficients of NTT(z_j) (computed from the packed
//! z_j when the A_hat stream reaches it, [`ntt_z_block`]), the challenge c as its tau positions
//! and signs, and the Keccak states of the A_hat stream and the c_tilde hash. The `small-memory` form of
//! [`crate::verify::verify_mu_with`]; the same verdicts.
//!
//! Everything here is public (the key, the signature, the message representative): branches
//! and indices may depend on it.

use pqlab_keccak::Shake256;
use subtle::ConstantTimeEq;

use crate::backend::Ops;
use crate::params::{D, ParameterSet, Q};
use crate::poly::Poly;
use crate::rounding::use_hint;
use crate::sample::rej_ntt_poly_each;
use pqlab_arith::mldsa::{ZETAS, montgomery_reduce};

/// NTT(z_j) is held as one block of `BLOCK` = 256 / 2^S of its coefficients at a time (S = 2:
/// 256 bytes instead of 1 KiB; each block costs 2^S - 1 Montgomery products per coefficient
/// for the first S layers, which a whole NTT shares between blocks). Measured on the
/// Cortex-M4 (ML-DSA-44 / 87 verify): S = 2 gives 2,708 / 2,756 bytes of stack for 17 / 20 %
/// more instructions than the whole NTT(z_j) (3,564 / 3,540 bytes); S = 3 2,580 / 2,628 bytes
/// for 27 / 30 % more.
const S: usize = 2;
const BLOCK: usize = 256 >> S;

/// The largest tau of any parameter set.
const MAX_TAU: usize = 60;

/// c = SampleInBall(c_tilde) as a list: entry e is sign X^pos\[e\] (sign -1 where bit e of
/// `neg` is set), the n = tau entries at distinct positions.
struct BallList {
    pos: [u8; MAX_TAU],
    neg: u64,
    n: usize,
}

impl BallList {
    /// FIPS 204, Algorithm 29: SampleInBall(rho) for the public rho = c_tilde, the textbook
    /// loop of [`crate::sample::sample_in_ball`] on the list: line 9 (c_i = c_j) moves the
    /// entry at position j, if any, to position i, and line 10 adds an entry at j.
    #[inline(never)]
    fn sample<P: ParameterSet>(c_tilde: &[u8]) -> Self {
        let _k = pqlab_profile::enter(pqlab_profile::Kernel::Sample);
        let mut c = BallList {
            pos: [0; MAX_TAU],
            neg: 0,
            n: 0,
        };
        let mut reader = Shake256::reader_of_parts(&[c_tilde]);
        let mut s = [0u8; 8];
        reader.squeeze(&mut s);
        let signs = u64::from_le_bytes(s);
        let mut byte = [0u8; 1];
        for (k, i) in (256 - P::TAU..256).enumerate() {
            // Lines 6 to 8: the first byte j <= i.
            let j = loop {
                reader.squeeze(&mut byte);
                if usize::from(byte[0]) <= i {
                    break byte[0];
                }
            };
            // Line 9: c_i = c_j (positions so far are all below i).
            if let Some(e) = c.pos[..c.n].iter().position(|&p| p == j) {
                c.pos[e] = i as u8;
            }
            // Line 10: c_j = (-1)^{h[i + tau - 256]}.
            c.pos[c.n] = j;
            c.neg |= ((signs >> k) & 1) << c.n;
            c.n += 1;
        }
        c
    }

    /// w -= c t1 2^d in Z\[X\]/(X^256 + 1), exactly (|c t1 2^d| < tau 2^23), with t1 read
    /// coefficient by coefficient from its SimpleBitPack encoding `t1_packed` (Algorithm 22:
    /// 10 bits each, 320 bytes): for each entry +-X^p of c, t1 shifted up by p, the top p
    /// coefficients wrapping round negated. No polynomial of t1 or of NTT(c) is held.
    fn sub_times_t1(&self, t1_packed: &[u8], w: &mut Poly) {
        let t1 = |k: usize| -> i32 {
            let b = (10 * k) / 8;
            let v = u32::from(t1_packed[b]) | (u32::from(t1_packed[b + 1]) << 8);
            ((v >> ((10 * k) % 8)) & 0x3ff) as i32
        };
        for (e, &p) in self.pos[..self.n].iter().enumerate() {
            let p = usize::from(p);
            let sign = 1 - 2 * ((self.neg >> e) & 1) as i32;
            let (wrapped, shifted) = w.0.split_at_mut(p);
            for (k, x) in shifted.iter_mut().enumerate() {
                *x -= sign * (t1(k) << D);
            }
            for (k, x) in wrapped.iter_mut().enumerate() {
                *x += sign * (t1(256 - p + k) << D);
            }
        }
    }
}

/// FIPS 204, Algorithm 21 (HintBitUnpack) checks alone, on every row: the counts are
/// non-decreasing and at most omega, each row's indices strictly increase, and the unused
/// index bytes are zero. `false` for ⊥.
#[inline(never)]
fn hints_well_formed<P: ParameterSet>(y: &[u8]) -> bool {
    let mut first = 0;
    for i in 0..P::K {
        let end = usize::from(y[P::OMEGA + i]);
        if end < first || end > P::OMEGA {
            return false;
        }
        if (first + 1..end).any(|index| y[index - 1] >= y[index]) {
            return false;
        }
        first = end;
    }
    y[first..P::OMEGA].iter().all(|&b| b == 0)
}

/// FIPS 204, Algorithm 40: UseHint on every coefficient of the row w (in [0, q)), with the
/// hint's ones at the (strictly increasing) positions `ones`.
#[inline(never)]
fn use_hints<P: ParameterSet>(ones: &[u8], w: &mut Poly) {
    const G88: i32 = (Q - 1) / 88;
    const G32: i32 = (Q - 1) / 32;
    let mut next = ones.iter().peekable();
    for (k, x) in w.0.iter_mut().enumerate() {
        let h = next.next_if(|&&j| usize::from(j) == k).is_some();
        *x = if P::GAMMA2 == G88 {
            use_hint::<G88>(h, *x)
        } else {
            use_hint::<G32>(h, *x)
        };
    }
}

/// FIPS 204, Algorithm 28 (w1Encode) of one row w1, absorbed into `h` 64 coefficients
/// (at most 48 bytes) at a time.
#[inline(never)]
fn absorb_w1<P: ParameterSet>(w1: &Poly, h: &mut Shake256) {
    let mut bytes = [0u8; 48];
    for chunk in w1.0.chunks_exact(64) {
        let (mut acc, mut n, mut k) = (0u32, 0, 0);
        for &c in chunk {
            acc |= (c as u32) << n;
            n += P::W1_BITS;
            while n >= 8 {
                bytes[k] = acc as u8;
                acc >>= 8;
                n -= 8;
                k += 1;
            }
        }
        h.absorb(&bytes[..k]);
    }
}

/// FIPS 204, Algorithm 8 lines 7 to 14 with mu given, on `pk` (pkEncode) and `sig` (sigEncode)
/// of the parameter set's lengths, in small memory: the checks of the hints and of ||z||, and
/// c = SampleInBall(c_tilde), each in a frame of its own, then the rows ([`rows_match`]).
#[inline(never)]
pub(crate) fn verify_mu_encoded<P: ParameterSet, B: Ops>(
    pk: &[u8],
    mu: &[u8; 64],
    sig: &[u8],
) -> bool {
    // Line 1: pkDecode(pk) (Algorithm 23), rho and t1 read where they are used.
    let Ok(rho) = <&[u8; 32]>::try_from(&pk[..32]) else {
        return false;
    };
    // Lines 2 to 4: (c_tilde, z, h) = sigDecode(sigma) (Algorithm 27), decoded where used.
    let (c_tilde, rest) = sig.split_at(P::C_TILDE_LEN);
    let (z_packed, h_packed) = rest.split_at(P::L * 32 * P::GAMMA1_BITS);
    // Line 4 (h = ⊥ fails) and line 13 (||z|| < gamma1 - beta), checked first.
    if !hints_well_formed::<P>(h_packed) || !z_in_range::<P, B>(z_packed) {
        return false;
    }
    // Line 9: c = SampleInBall(c_tilde).
    let c = BallList::sample::<P>(c_tilde);
    rows_match::<P, B>(rho, pk, mu, c_tilde, z_packed, h_packed, &c)
}

/// FIPS 204, Algorithm 8 line 13: every coefficient of z below gamma1 - beta in absolute value,
/// one column of `z_packed` at a time.
#[inline(never)]
fn z_in_range<P: ParameterSet, B: Ops>(z_packed: &[u8]) -> bool {
    let mut z = Poly::ZERO;
    z_packed.chunks_exact(32 * P::GAMMA1_BITS).all(|chunk| {
        B::bit_unpack(chunk, P::GAMMA1_BITS, P::GAMMA1, &mut z.0);
        !z.norm_exceeds::<B>(P::GAMMA1 - P::BETA)
    })
}

/// Coefficient `t` of z_j = BitUnpack(`packed`, gamma1 - 1, gamma1) (FIPS 204, Algorithm 19):
/// gamma1 - x_t, with x_t the `bits` bits (18 or 20) from bit `bits` t on, which lie in the
/// three bytes from byte `bits` t / 8 on (the shift is at most 6 for 18 bits, 4 for 20).
#[inline(always)]
fn z_coeff(packed: &[u8], bits: usize, gamma1: i32, t: usize) -> i32 {
    let off = bits * t;
    let b = &packed[off / 8..off / 8 + 3];
    let v = u32::from(b[0]) | (u32::from(b[1]) << 8) | (u32::from(b[2]) << 16);
    gamma1 - ((v >> (off % 8)) & ((1 << bits) - 1)) as i32
}

/// FIPS 204, Algorithm 41 (NTT) of z_j = BitUnpack(`packed`) (Algorithm 19), restricted to the
/// output coefficients \[`b` BLOCK, (`b` + 1) BLOCK), into `out` (the same values modulo q as
/// those of [`Poly::ntt`], |out| < 2^19 + 8q). After layer S the blocks are independent: for
/// each coefficient of block b, the first S layers are computed on the 2^S inputs it depends
/// on (positions o + t BLOCK), keeping at layer m only the half of the butterflies on its path
/// (bit S - m of b picks the half); then layers S + 1 to 8 run on the block as in Algorithm 41
/// (zeta index 2^(m-1) + start / (2 len) for the group starting at `start`).
#[inline(never)]
fn ntt_z_block<P: ParameterSet>(packed: &[u8], b: usize, out: &mut [i32; BLOCK]) {
    let (bits, gamma1) = (P::GAMMA1_BITS, P::GAMMA1);
    for (o, y) in out.iter_mut().enumerate() {
        let mut x = [0i32; 1 << S];
        for (t, v) in x.iter_mut().enumerate() {
            *v = z_coeff(packed, bits, gamma1, o + t * BLOCK);
        }
        let (mut n, mut base) = (1 << S, 0);
        for m in 1..=S {
            let len = 256 >> m;
            let zeta = i64::from(ZETAS[(1 << (m - 1)) + base / (2 * len)]);
            let upper = (b >> (S - m)) & 1 == 1;
            n /= 2;
            for t in 0..n {
                let tw = montgomery_reduce(zeta * i64::from(x[t + n]));
                x[t] = if upper { x[t] - tw } else { x[t] + tw };
            }
            if upper {
                base += len;
            }
        }
        *y = x[0];
    }
    for m in S + 1..=8 {
        let len = 256 >> m;
        for start in (0..BLOCK).step_by(2 * len) {
            let zeta = i64::from(ZETAS[(1 << (m - 1)) + (b * BLOCK + start) / (2 * len)]);
            for j in start..start + len {
                let t = montgomery_reduce(zeta * i64::from(out[j + len]));
                out[j + len] = out[j] - t;
                out[j] += t;
            }
        }
    }
}

/// One term of row i of w'_approx (FIPS 204, Algorithm 8 line 10, Algorithm 48): acc =
/// A_hat\[i\]\[j\] o NTT(z_j) * 2^-32 for j = 0, acc += that product after, with the entry
/// streamed coefficient by coefficient ([`rej_ntt_poly_each`]) and NTT(z_j) one block at a
/// time ([`ntt_z_block`], computed when the stream enters the block). Public data.
#[inline(never)]
fn entry_times_z<P: ParameterSet>(
    rho: &[u8; 32],
    i: usize,
    j: usize,
    packed: &[u8],
    acc: &mut Poly,
) {
    let mut block = [0i32; BLOCK];
    let acc = &mut acc.0;
    rej_ntt_poly_each(rho, i, j, |k, a| {
        if k % BLOCK == 0 {
            ntt_z_block::<P>(packed, k / BLOCK, &mut block);
        }
        let p = montgomery_reduce(i64::from(a) * i64::from(block[k % BLOCK]));
        acc[k] = if j == 0 { p } else { acc[k] + p };
    });
}

/// FIPS 204, Algorithm 8 lines 10 to 12 and 14, row by row. Row i of w'_approx: for each column
/// j, A_hat\[i\]\[j\] o NTT(z_j) accumulated as the entry is sampled, NTT(z_j) computed block
/// by block from the packed z_j in the signature ([`entry_times_z`]); then NTT^-1, minus
/// c t1\[i\] 2^d by schoolbook from the packed t1 row and the sparse c
/// ([`BallList::sub_times_t1`]), UseHint from the packed hint indices, and w1Encode absorbed
/// into the c_tilde hash. One polynomial, one block and one absorbing Keccak state.
#[inline(never)]
fn rows_match<P: ParameterSet, B: Ops>(
    rho: &[u8; 32],
    pk: &[u8],
    mu: &[u8; 64],
    c_tilde: &[u8],
    z_packed: &[u8],
    h_packed: &[u8],
    c: &BallList,
) -> bool {
    let mut w = Poly::ZERO;
    let mut h = Shake256::new();
    h.absorb(mu);
    let mut first = 0;
    for i in 0..P::K {
        for (j, chunk) in z_packed.chunks_exact(32 * P::GAMMA1_BITS).enumerate() {
            entry_times_z::<P>(rho, i, j, chunk, &mut w);
        }
        w.reduce::<B>();
        w.inv_ntt_to_mont::<B>();
        c.sub_times_t1(&pk[32 + 320 * i..32 + 320 * (i + 1)], &mut w);
        w.reduce::<B>();
        w.caddq::<B>();
        let end = usize::from(h_packed[P::OMEGA + i]);
        use_hints::<P>(&h_packed[first..end], &mut w);
        first = end;
        absorb_w1::<P>(&w, &mut h);
    }
    c_tilde_matches(&mut h, c_tilde)
}

/// FIPS 204, Algorithm 8 lines 12 and 14: c_tilde' = H(mu || w1Encode(w1'), lambda / 4) from
/// the absorbed `h`, compared with `c_tilde` (in its own frame, after the rows).
#[inline(never)]
fn c_tilde_matches(h: &mut Shake256, c_tilde: &[u8]) -> bool {
    let mut c_tilde_prime = [0u8; 64];
    core::mem::take(h)
        .finalize()
        .squeeze(&mut c_tilde_prime[..c_tilde.len()]);
    bool::from(c_tilde.ct_eq(&c_tilde_prime[..c_tilde.len()]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::portable::Portable;
    use crate::encode::{bit_pack, bit_unpack};
    use crate::params::{MlDsa44, MlDsa65, MlDsa87};
    use rand::{Rng, SeedableRng};

    /// Every block of [`ntt_z_block`] equals (mod q) that part of the whole NTT of the
    /// unpacked z, for random z and for the extremes of its range, and stays within its bound.
    fn blocks_equal_whole_ntt<P: ParameterSet>() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(P::K as u64);
        let len = 32 * P::GAMMA1_BITS;
        for trial in 0..20 {
            let mut z = Poly::ZERO;
            for (k, c) in z.0.iter_mut().enumerate() {
                *c = match trial {
                    0 => P::GAMMA1,
                    1 => 1 - P::GAMMA1,
                    2 => [P::GAMMA1, 1 - P::GAMMA1][k % 2],
                    _ => rng.gen_range(1 - P::GAMMA1..=P::GAMMA1),
                };
            }
            let mut packed = [0u8; 640];
            bit_pack(&z.0, P::GAMMA1_BITS, P::GAMMA1, &mut packed[..len]);
            let mut unpacked = Poly::ZERO;
            bit_unpack(&packed[..len], P::GAMMA1_BITS, P::GAMMA1, &mut unpacked.0);
            assert_eq!(unpacked, z);
            let mut whole = z;
            whole.ntt::<Portable>();
            for b in 0..1 << S {
                let mut block = [0i32; BLOCK];
                ntt_z_block::<P>(&packed[..len], b, &mut block);
                for (o, &v) in block.iter().enumerate() {
                    assert!(v.abs() < (1 << 19) + 8 * Q, "bound, block {b}");
                    let w = whole.0[b * BLOCK + o];
                    assert_eq!((v - w).rem_euclid(Q), 0, "block {b}, coefficient {o}");
                }
            }
        }
    }

    #[test]
    fn ntt_blocks_equal_the_whole_ntt_for_every_set() {
        blocks_equal_whole_ntt::<MlDsa44>();
        blocks_equal_whole_ntt::<MlDsa65>();
        blocks_equal_whole_ntt::<MlDsa87>();
    }
}
