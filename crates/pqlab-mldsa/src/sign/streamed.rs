//! The rows and columns of signing under `small-memory` (FIPS 204, Algorithm 7 lines 11 to 28,
//! after Greconici, Kannwischer and Sprenkels, "Compact Dilithium implementations on Cortex-M3
//! and Cortex-M4"): nothing of the attempt is kept but y, packed in the signature buffer. Each
//! row of w is computed from it twice (for c_tilde, then for the checks and hints), A_hat
//! sampled entry by entry straight into the product ([`expand_a_entry_times`]) unless an
//! expanded key holds it; HighBits, the r0 check and the hints are taken coefficient by
//! coefficient in place; c is sparse ([`SparseC`]) and multiplies the secrets from their packed
//! bytes. At most two polynomials, one Keccak state and half a polynomial of secret are live.

use pqlab_keccak::Shake256;
use zeroize::Zeroize;

use super::{HintBits, KeyParts, Prepared, Secret, secret_packed};
use crate::backend::Ops;
use crate::params::{ParameterSet, Q};
use crate::poly::Poly;
use crate::rounding::{decompose, make_hint};
use crate::sample::expand_a_entry_times;
use crate::sparse::SparseC;

const G88: i32 = (Q - 1) / 88;
const G32: i32 = (Q - 1) / 32;

/// FIPS 204, Algorithm 36: Decompose(r) for r in [0, q) with the gamma2 of `P`.
#[inline(always)]
fn decompose_p<P: ParameterSet>(r: i32) -> (i32, i32) {
    if P::GAMMA2 == G88 {
        decompose::<G88>(r)
    } else {
        decompose::<G32>(r)
    }
}

/// FIPS 204, Algorithm 39: MakeHint in the reference form (see [`make_hint`]) with the gamma2
/// of `P`.
#[inline(always)]
fn make_hint_p<P: ParameterSet>(r0: i32, r1: i32) -> i32 {
    if P::GAMMA2 == G88 {
        make_hint::<G88>(r0, r1)
    } else {
        make_hint::<G32>(r0, r1)
    }
}

/// Nothing: under `small-memory` an attempt keeps no vector.
pub(super) struct Work<P: ParameterSet>(core::marker::PhantomData<P>);

impl<P: ParameterSet> Work<P> {
    pub(super) fn new() -> Self {
        Self(core::marker::PhantomData)
    }

    /// FIPS 204, Algorithm 7 lines 12 to 15: w = NTT^-1(A_hat o NTT(y)) row by row from y
    /// packed in `y_packed`, each row's w1 = HighBits(w) computed in place, packed and absorbed:
    /// c_tilde = H(mu || w1Encode(w1), lambda / 4) into `c_tilde`.
    #[inline(never)]
    pub(super) fn commit<B: Ops>(
        &mut self,
        sk: &KeyParts<'_>,
        prep: Option<&Prepared<P>>,
        mu: &[u8; 64],
        y_packed: &[u8],
        c_tilde: &mut [u8],
    ) {
        let mut w1_bytes = [0u8; 32 * 6];
        let w1_len = 32 * P::W1_BITS;
        let mut h = Shake256::new();
        h.absorb(mu);
        w_rows::<P, B>(sk, prep, y_packed, |_, w_r, _| {
            for x in w_r.0.iter_mut() {
                *x = decompose_p::<P>(*x).0;
            }
            B::simple_bit_pack(&w_r.0, P::W1_BITS, &mut w1_bytes[..w1_len]);
            h.absorb(&w1_bytes[..w1_len]);
        });
        h.finalize().squeeze(c_tilde);
    }

    /// Nothing: under `small-memory` z is built in its packed place in the signature.
    pub(super) fn pack_z<B: Ops>(&self, _z_part: &mut [u8]) {}

    /// FIPS 204, Algorithm 7 lines 19 to 28 for challenge `c`: the checks of lines 20 and 23
    /// and the hints of lines 25 to 28 row by row from each row of w recomputed ([`hint_row`]),
    /// then z over y in `z_part` column by column ([`z_columns`]). Every part computes all its
    /// rows or columns on every attempt and their outcomes are combined without a branch
    /// ([`all_of`](super::all_of)): only whether the attempt is accepted is revealed, not which
    /// check rejected it.
    pub(super) fn respond<B: Ops>(
        &mut self,
        sk: &KeyParts<'_>,
        prep: Option<&Prepared<P>>,
        c: &SparseC,
        z_part: &mut [u8],
        bits: &mut HintBits,
    ) -> bool {
        let (mut reject, mut ones) = (false, 0);
        w_rows::<P, B>(sk, prep, z_part, |r, w_r, ct0| {
            let (rej, n) = hint_row::<P>(sk, c, r, w_r, ct0, &mut bits[r]);
            reject |= rej;
            ones += n;
        });
        let z_ok = z_columns::<P, B>(sk, c, z_part);
        super::all_of(&[!reject, ones <= P::OMEGA, z_ok])
    }
}

/// FIPS 204, Algorithm 7 line 12, row by row: `f(r, w[r], scratch)` with
/// w = NTT^-1(A_hat o NTT(y)) in [0, q), y packed in `y_packed` (each column unpacked and
/// transformed where it is used: k l NTTs), A_hat\[r\]\[s\] sampled into the product
/// ([`expand_a_entry_times`]) or, with `prep`, read from the expanded key. `scratch` is a
/// polynomial the callback may overwrite. Both are wiped at the end (they hold secrets).
#[inline(never)]
fn w_rows<P: ParameterSet, B: Ops>(
    sk: &KeyParts<'_>,
    prep: Option<&Prepared<P>>,
    y_packed: &[u8],
    mut f: impl FnMut(usize, &mut Poly, &mut Poly),
) {
    let len = 32 * P::GAMMA1_BITS;
    let (mut acc, mut col) = (Poly::ZERO, Poly::ZERO);
    for r in 0..P::K {
        for s in 0..P::L {
            B::bit_unpack(
                &y_packed[s * len..][..len],
                P::GAMMA1_BITS,
                P::GAMMA1,
                &mut col.0,
            );
            col.ntt::<B>();
            match prep {
                Some(prep) => {
                    if s == 0 {
                        acc.0.fill(0);
                    }
                    let a = &prep.a_hat.as_ref()[r * P::L + s];
                    pqlab_arith::mldsa::pointwise_acc_montgomery(&mut acc.0, &a.0, &col.0);
                }
                None => expand_a_entry_times(sk.rho, r, s, &col, &mut acc, s == 0),
            }
        }
        acc.reduce::<B>();
        acc.inv_ntt_to_mont::<B>();
        acc.caddq::<B>();
        f(r, &mut acc, &mut col);
    }
    acc.zeroize();
    col.zeroize();
}

/// FIPS 204, Algorithm 7 lines 20, 23 and 25 to 28, one row, from `w_r` = w\[r\] in [0, q)
/// (overwritten), with `ct0` as scratch: w\[r\] - <<c s2\[r\]>>, the check ||r0|| < gamma2 - beta on
/// r0 = LowBits(w - <<c s2>>), <<c t0\[r\]>> and its check ||c t0|| < gamma2, and
/// h\[r\] = MakeHint(-<<c t0>>, w - <<c s2>> + <<c t0>>) in the reference form (from the high and
/// low parts of w - <<c s2>>; where the r0 check passes its high part is HighBits(w)) into
/// `bits`. Returns whether a check failed and the number of ones of h\[r\]; every coefficient
/// is computed either way, without a branch on it.
fn hint_row<P: ParameterSet>(
    sk: &KeyParts<'_>,
    c: &SparseC,
    r: usize,
    w_r: &mut Poly,
    ct0: &mut Poly,
    bits: &mut [u64; 4],
) -> (bool, usize) {
    let (s2, s2_bits, s2_b) = secret_packed::<P>(sk, Secret::S2, r);
    c.add_product(s2, s2_bits, s2_b, true, w_r);
    let (t0, t0_bits, t0_b) = secret_packed::<P>(sk, Secret::T0, r);
    c.product(t0, t0_bits, t0_b, ct0);
    let r0_bound = P::GAMMA2 - P::BETA;
    // Sign-bit masks: negative where a bound is exceeded.
    let mut over = 0i32;
    let mut ones = 0;
    for (word, (w, ct)) in bits
        .iter_mut()
        .zip(w_r.0.chunks_exact(64).zip(ct0.0.chunks_exact(64)))
    {
        let mut acc = 0u64;
        for (j, (&x, &ct)) in w.iter().zip(ct).enumerate() {
            // |x| < (tau eta + q) here; reduce32 and caddq bring it into [0, q).
            let x = pqlab_arith::mldsa::caddq(pqlab_arith::mldsa::reduce32(x));
            let (w1, w0) = decompose_p::<P>(x);
            let ct = pqlab_arith::mldsa::reduce32(ct);
            over |= (r0_bound - 1 - abs(w0)) | (P::GAMMA2 - 1 - abs(ct));
            let h = make_hint_p::<P>(w0 + ct, w1);
            ones += h as usize;
            acc |= u64::from(h as u32) << j;
        }
        *word = acc;
    }
    (over < 0, ones)
}

/// |x| without a branch.
#[inline(always)]
fn abs(x: i32) -> i32 {
    let m = x >> 31;
    (x ^ m) - m
}

/// FIPS 204, Algorithm 7 lines 19 to 21, column by column: z\[j\] = y\[j\] + c s1\[j\] (exact, from
/// the sparse c and s1\[j\]'s packed bytes), built over y\[j\] in `z_part` (which holds y packed,
/// as sigEncode will hold z). Returns whether every ||z\[j\]|| < gamma1 - beta; every column is
/// computed either way.
#[inline(never)]
fn z_columns<P: ParameterSet, B: Ops>(sk: &KeyParts<'_>, c: &SparseC, z_part: &mut [u8]) -> bool {
    let len = 32 * P::GAMMA1_BITS;
    let mut z = Poly::ZERO;
    let mut reject = false;
    for (j, chunk) in z_part.chunks_exact_mut(len).enumerate() {
        B::bit_unpack(chunk, P::GAMMA1_BITS, P::GAMMA1, &mut z.0);
        let (s1, bits, b) = secret_packed::<P>(sk, Secret::S1, j);
        c.add_product(s1, bits, b, false, &mut z);
        z.reduce::<B>();
        reject |= z.norm_exceeds::<B>(P::GAMMA1 - P::BETA);
        B::bit_pack(&z.0, P::GAMMA1_BITS, P::GAMMA1, chunk);
    }
    z.zeroize();
    !reject
}
