//! The rows and columns of signing in the default configuration (FIPS 204, Algorithm 7 lines
//! 11 to 28): NTT(y) and w kept whole for the attempt, A_hat and the NTT-domain secrets from
//! [`Prepared`] (or, without it, A_hat streamed and the secrets unpacked and transformed one
//! polynomial at a time), c in ML-KEM's 16-bit NTT domain for `<<c s1>>` and `<<c s2>>` (exact
//! products of short polynomials, [`ShortNtt`]) and in ML-DSA's for `<<c t0>>`.

use pqlab_arith::array::FixedArray;
use pqlab_arith::wipe::wipe;
use pqlab_keccak::Shake256;
use zeroize::Zeroize;

use super::{Challenge, HintBits, KeyParts, Prepared, Secret, short_hat, t0_hat};
use crate::backend::Ops;
use crate::params::ParameterSet;
use crate::poly::{Columns, Poly, ShortNtt, matrix_rows_apart, row_times_vector};

/// The vectors one attempt keeps: NTT(y), then z in its place (l polynomials, packed into the
/// signature only once the attempt is accepted), w, then w0 = LowBits(w) in the place of w (k
/// polynomials), w1 = HighBits(w) packed (w1Encode), and the scratch of the products and the
/// hints, wiped on drop. Nothing is zeroed or wiped per attempt, only once per signature.
pub(super) struct Work<P: ParameterSet> {
    y_hat: P::VecL,
    w: P::VecK,
    w1_packed: [u8; W1_PACKED],
    w1: Poly,
    cs: Poly,
    secret: Poly,
    c_hat: Poly,
    short: [i16; 256],
    short_secret: ShortNtt,
}

impl<P: ParameterSet> Work<P> {
    pub(super) fn new() -> Self {
        Self {
            y_hat: P::VecL::ZERO,
            w: P::VecK::ZERO,
            w1_packed: [0; W1_PACKED],
            w1: Poly::ZERO,
            cs: Poly::ZERO,
            secret: Poly::ZERO,
            c_hat: Poly::ZERO,
            short: [0; 256],
            short_secret: ShortNtt([0; 256]),
        }
    }

    /// FIPS 204, Algorithm 7 lines 12 to 15: NTT(y) from y packed in `y_packed`,
    /// w = NTT^-1(A_hat o NTT(y)), then row by row (w1, w0) = Decompose(w) (Algorithm 36: w0 kept
    /// in the place of w, w1 kept packed by w1Encode, Algorithm 28) and
    /// c_tilde = H(mu || w1Encode(w1), lambda / 4) into `c_tilde`.
    pub(super) fn commit<B: Ops>(
        &mut self,
        sk: &KeyParts<'_>,
        prep: Option<&Prepared<P>>,
        mu: &[u8; 64],
        y_packed: &[u8],
        c_tilde: &mut [u8],
    ) {
        let z_len = 32 * P::GAMMA1_BITS;
        for (p, chunk) in self
            .y_hat
            .as_mut()
            .iter_mut()
            .zip(y_packed.chunks_exact(z_len))
        {
            B::bit_unpack(chunk, P::GAMMA1_BITS, P::GAMMA1, &mut p.0);
            p.ntt::<B>();
        }
        let w1 = &mut self.w1;
        let w1_len = 32 * P::W1_BITS;
        let mut rows = self.w1_packed.chunks_exact_mut(w1_len);
        let mut h = Shake256::new();
        h.absorb(mu);
        w_rows::<P, B>(sk, prep, self.y_hat.as_ref(), self.w.as_mut(), |w_r| {
            let Some(w1_bytes) = rows.next() else { return };
            // w0 over w (taken into [0, q) first), w1 aside.
            B::decompose(P::GAMMA2, &mut w_r.0, &mut w1.0);
            B::simple_bit_pack(&w1.0, P::W1_BITS, w1_bytes);
            h.absorb(w1_bytes);
        });
        h.finalize().squeeze(c_tilde);
    }

    /// FIPS 204, Algorithm 7 lines 19 to 28 for challenge `c`: the r0 check and z (in the place
    /// of NTT(y), from y packed in `z_part`) on every attempt, their outcomes combined without a
    /// branch ([`all_of`](super::all_of)), so that which of the two rejected an attempt is not
    /// revealed; then, where both passed, <<c t0>> and the hints into `bits` (a check that
    /// rejects an attempt in 0.3 to 0.8 % of signatures: see `pqlab-ct`'s finding
    /// `mldsa-sign-hint-stage`); z stays in the place of NTT(y) until [`Work::pack_z`] packs the
    /// accepted one. Each part computes all its rows or columns. The checks
    /// and hints are in the reference form, on w0 and w1 kept from [`Work::commit`] (see
    /// [`r0_row`]).
    pub(super) fn respond<B: Ops>(
        &mut self,
        sk: &KeyParts<'_>,
        prep: Option<&Prepared<P>>,
        c: &Challenge,
        z_part: &mut [u8],
        bits: &mut HintBits,
    ) -> bool {
        let t = &mut RowScratch {
            w1: &mut self.w1,
            cs: &mut self.cs,
            secret: &mut self.secret,
            short: &mut self.short,
            short_secret: &mut self.short_secret,
        };
        let r0_ok = r0_rows::<P, B>(sk, prep, c, self.w.as_mut(), t);
        let z = self.y_hat.as_mut();
        let z_ok = z_columns::<P, B>(sk, prep, c, z_part, z, t);
        // The hint rows only where both passed: a rejection there (0.8 %, 0.3 % and 0.7 % of
        // signatures of ML-DSA-44, 65 and 87) is the one case in which more than acceptance is
        // revealed; computing them on every attempt would cost 10 to 30 % more per attempt.
        if !super::all_of(&[r0_ok, z_ok]) {
            return false;
        }
        // Line 18's NTT(c), needed only here (<<c t0>> is not short).
        let c_hat = &mut self.c_hat;
        c_hat.0 = c.c.0;
        c_hat.ntt::<B>();
        let w1_packed = &self.w1_packed[..P::K * 32 * P::W1_BITS];
        hint_rows::<P, B>(sk, prep, c_hat, self.w.as_mut(), w1_packed, t, bits)
    }

    /// FIPS 204, Algorithm 7 line 33 (sigEncode, Algorithm 26), the z part: BitPack(z,
    /// gamma1 - 1, gamma1) of the attempt [`Work::respond`] accepted into `z_part`.
    pub(super) fn pack_z<B: Ops>(&self, z_part: &mut [u8]) {
        let len = 32 * P::GAMMA1_BITS;
        for (z_j, chunk) in self.y_hat.as_ref().iter().zip(z_part.chunks_exact_mut(len)) {
            B::bit_pack(&z_j.0, P::GAMMA1_BITS, P::GAMMA1, chunk);
        }
    }
}

impl<P: ParameterSet> Drop for Work<P> {
    fn drop(&mut self) {
        self.y_hat.zeroize();
        self.w.zeroize();
        wipe(&mut self.w1_packed);
        self.w1.zeroize();
        self.cs.zeroize();
        self.secret.zeroize();
        self.c_hat.zeroize();
        wipe(&mut self.short);
        self.short_secret.zeroize();
    }
}

/// FIPS 204, Algorithm 7 lines 19 and 20, one polynomial: `t.short` = <<c s\[i\]>> modulo 3329
/// for s = s1 or s2 ([`ShortNtt::product`]; s\[i\] from [`short_hat`]), which
/// [`Ops::add_short_centered`] adds as the exact product (|c s| <= tau eta <= 196).
fn c_times_short<P: ParameterSet, B: Ops>(
    sk: &KeyParts<'_>,
    prep: Option<&Prepared<P>>,
    c: &Challenge,
    which: Secret,
    i: usize,
    t: &mut RowScratch<'_>,
) {
    let s_hat = short_hat::<P, B>(sk, prep, which, i, t.secret, t.short_secret);
    c.short_hat.product::<B>(s_hat, t.short);
}

/// FIPS 204, Algorithm 7 line 25, one polynomial: `cs` = <<c t0\[i\]>> =
/// NTT^-1(c_hat o NTT(t0\[i\])) (coefficients below q in absolute value; NTT(t0\[i\]) from
/// [`t0_hat`], through `scratch`).
fn c_times_t0<P: ParameterSet, B: Ops>(
    sk: &KeyParts<'_>,
    prep: Option<&Prepared<P>>,
    c_hat: &Poly,
    i: usize,
    scratch: &mut Poly,
    cs: &mut Poly,
) {
    let t0 = t0_hat::<P, B>(sk, prep, i, scratch);
    B::pointwise(&mut cs.0, &c_hat.0, &t0.0);
    cs.inv_ntt_to_mont::<B>();
}

/// FIPS 204, Algorithm 7 line 12, row by row: w\[r\] = NTT^-1(A_hat o y_hat)\[r\] in (-q, q)
/// (not yet taken into [0, q): [`Ops::decompose`] does it) into `w` (computed where it lies),
/// then `f(w[r])`; A_hat the prepared matrix or, without `prep`, streamed
/// ([`matrix_rows_apart`]).
#[inline(never)]
fn w_rows<P: ParameterSet, B: Ops>(
    sk: &KeyParts<'_>,
    prep: Option<&Prepared<P>>,
    y_hat: &[Poly],
    w: &mut [Poly],
    mut f: impl FnMut(&mut Poly),
) {
    let mut finish = |w: &mut Poly| {
        w.reduce::<B>();
        w.inv_ntt_to_mont::<B>();
        f(w);
    };
    match prep {
        Some(prep) => {
            for (w_r, row) in w.iter_mut().zip(prep.a_hat.as_ref().chunks_exact(P::L)) {
                row_times_vector::<B>(w_r, row, y_hat);
                finish(w_r);
            }
        }
        None => matrix_rows_apart::<B>(sk.rho, P::K, P::L, &Columns::Ntt(y_hat), |r, w_r| {
            w[r] = *w_r;
            finish(&mut w[r]);
        }),
    }
}

/// FIPS 204, Algorithm 7 lines 19 to 21, column by column: z\[j\] = y\[j\] + NTT^-1(c_hat o s1_hat\[j\])
/// into `z` (y\[j\] unpacked from `y_packed`, where sigEncode will put z). Returns whether every
/// ||z\[j\]|| < gamma1 - beta; every column is computed either way.
#[inline(never)]
fn z_columns<P: ParameterSet, B: Ops>(
    sk: &KeyParts<'_>,
    prep: Option<&Prepared<P>>,
    c: &Challenge,
    y_packed: &[u8],
    z: &mut [Poly],
    t: &mut RowScratch<'_>,
) -> bool {
    let len = 32 * P::GAMMA1_BITS;
    let mut reject = false;
    for (j, (z_j, chunk)) in z.iter_mut().zip(y_packed.chunks_exact(len)).enumerate() {
        c_times_short::<P, B>(sk, prep, c, Secret::S1, j, t);
        B::bit_unpack(chunk, P::GAMMA1_BITS, P::GAMMA1, &mut z_j.0);
        // z = y + <<c s1>> exactly: |z| < gamma1 + beta, no reduction needed.
        reject |= B::add_short_centered(&mut z_j.0, t.short, false, P::GAMMA1 - P::BETA);
    }
    !reject
}

/// The bytes of w1Encode(w1) kept per attempt: k 32 bitlen((q - 1) / (2 gamma2) - 1), at most
/// 1024 (ML-DSA-87).
const W1_PACKED: usize = 1024;
const _: () = {
    use crate::params::{MlDsa44, MlDsa65, MlDsa87};
    assert!(MlDsa44::K * 32 * MlDsa44::W1_BITS <= W1_PACKED);
    assert!(MlDsa65::K * 32 * MlDsa65::W1_BITS <= W1_PACKED);
    assert!(MlDsa87::K * 32 * MlDsa87::W1_BITS <= W1_PACKED);
};

/// The scratch polynomials of one row of the checks and hints or one column of z (they hold
/// secret-dependent values): [`Work`]'s, wiped with it at the end of signing.
struct RowScratch<'a> {
    w1: &'a mut Poly,
    cs: &'a mut Poly,
    secret: &'a mut Poly,
    short: &'a mut [i16; 256],
    short_secret: &'a mut ShortNtt,
}

/// FIPS 204, Algorithm 7 lines 20 and 23, one row, in the reference form: w0\[r\] - <<c s2\[r\]>>
/// (exact, centered) written over `w_r` (w0\[r\] = LowBits(w\[r\]) on entry). Returns whether
/// ||w0 - <<c s2>>|| >= gamma2 - beta; every coefficient is looked at either way.
///
/// This is line 23's check ||r0|| >= gamma2 - beta on r0 = LowBits(w - <<c s2>>): since
/// ||c s2|| <= beta, both reject exactly the same attempts, and where they accept,
/// LowBits(w - <<c s2>>) = w0 - <<c s2>> and HighBits(w - <<c s2>>) = HighBits(w) = w1 (the
/// wrap-around of Decompose near q - 1 included; tested on every boundary by
/// `rounding::tests::r0_check_on_w0_is_the_check_on_lowbits`).
fn r0_row<P: ParameterSet, B: Ops>(
    sk: &KeyParts<'_>,
    prep: Option<&Prepared<P>>,
    c: &Challenge,
    r: usize,
    w_r: &mut Poly,
    t: &mut RowScratch<'_>,
) -> bool {
    c_times_short::<P, B>(sk, prep, c, Secret::S2, r, t);
    // |w0 - <<c s2>>| <= gamma2 + beta: no reduction needed.
    // (and the norm check of line 23 in the same pass).
    B::add_short_centered(&mut w_r.0, t.short, true, P::GAMMA2 - P::BETA)
}

/// FIPS 204, Algorithm 7 lines 25 to 28, one row, in the reference form (what they compute
/// wherever [`r0_row`] passed for every row, the only hints kept: see there): <<c t0>> and
/// h\[r\] = MakeHint(-<<c t0>>, w - <<c s2>> + <<c t0>>) = MakeHint'(w0 - <<c s2>> + <<c t0>>, w1)
/// into `bits`, from `w_r` = w0\[r\] - <<c s2\[r\]>> (overwritten) and w1\[r\] packed in
/// `w1_packed`. Returns whether ||c t0|| >= gamma2 and the number of ones of h\[r\].
#[allow(clippy::too_many_arguments)]
fn hint_row<P: ParameterSet, B: Ops>(
    sk: &KeyParts<'_>,
    prep: Option<&Prepared<P>>,
    c_hat: &Poly,
    r: usize,
    w_r: &mut Poly,
    w1_packed: &[u8],
    t: &mut RowScratch<'_>,
    bits: &mut [u64; 4],
) -> (bool, usize) {
    B::simple_bit_unpack(w1_packed, P::W1_BITS, &mut t.w1.0);
    c_times_t0::<P, B>(sk, prep, c_hat, r, t.secret, t.cs);
    // <<c t0>> exactly: |c t0| <= tau 2^12 < q / 2.
    t.cs.reduce::<B>();
    let reject = t.cs.norm_exceeds::<B>(P::GAMMA2);
    w_r.add_assign(t.cs);
    // The hint of this row, as its bits.
    let ones = B::make_hint(P::GAMMA2, &w_r.0, &t.w1.0, bits);
    (reject, ones)
}

/// FIPS 204, Algorithm 7 lines 20 and 23 for every row of the kept w ([`r0_row`], each row
/// replaced by w - <<c s2>>). Returns whether ||r0|| < gamma2 - beta; every row is computed
/// either way.
#[inline(never)]
fn r0_rows<P: ParameterSet, B: Ops>(
    sk: &KeyParts<'_>,
    prep: Option<&Prepared<P>>,
    c: &Challenge,
    w: &mut [Poly],
    t: &mut RowScratch<'_>,
) -> bool {
    let mut reject = false;
    for (r, w_r) in w.iter_mut().enumerate() {
        reject |= r0_row::<P, B>(sk, prep, c, r, w_r, t);
    }
    !reject
}

/// FIPS 204, Algorithm 7 lines 25 to 28, row by row ([`hint_row`]) into `bits`, from the kept
/// rows of w0 - <<c s2>> after [`r0_rows`] (overwritten) and w1 packed in `w1_packed`. Returns
/// whether ||c t0|| < gamma2 and h has at most omega ones; every row is computed either way.
#[inline(never)]
fn hint_rows<P: ParameterSet, B: Ops>(
    sk: &KeyParts<'_>,
    prep: Option<&Prepared<P>>,
    c_hat: &Poly,
    w: &mut [Poly],
    w1_packed: &[u8],
    t: &mut RowScratch<'_>,
    bits: &mut HintBits,
) -> bool {
    let (mut reject, mut ones) = (false, 0);
    let rows = w.iter_mut().zip(w1_packed.chunks_exact(32 * P::W1_BITS));
    for (r, (w_r, w1_r)) in rows.enumerate() {
        let (rej, n) = hint_row::<P, B>(sk, prep, c_hat, r, w_r, w1_r, t, &mut bits[r]);
        reject |= rej;
        ones += n;
    }
    super::all_of(&[!reject, ones <= P::OMEGA])
}
