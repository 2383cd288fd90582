//! Signing (FIPS 204, Algorithm 7: ML-DSA.Sign_internal, from line 7 on: mu is given).

use pqlab_arith::array::FixedArray;
use pqlab_arith::wipe::wipe;
use pqlab_keccak::Shake256;
use zeroize::Zeroize;

use crate::backend::{Ops, dispatch};
#[cfg(not(feature = "small-memory"))]
use crate::ball::BallMasks;
use crate::encode::hint_bit_pack;
use crate::keys::{Signature, SigningKey};
use crate::params::{ByteArray, D, MAX_K, ParameterSet};
use crate::poly::{Columns, Poly, matrix_rows, row_product};
use crate::sample::{expand_a, expand_mask_packed};
#[cfg(feature = "small-memory")]
use crate::sparse::SparseC;

/// The NTT-domain secrets of a signing key (one call's, or an expanded key's), zeroized on drop.
#[derive(Zeroize)]
#[zeroize(drop)]
struct SecretsHat<P: ParameterSet> {
    s1_hat: P::VecL,
    s2_hat: P::VecK,
    t0_hat: P::VecK,
}

/// Whether a signature keeps NTT(y) and w whole (k + l polynomials, the default) or, under
/// `small-memory`, unpacks and transforms y one polynomial at a time and recomputes each row of
/// w where it is needed again (the hints), streaming A_hat a second time.
const KEEP_VECTORS: bool = !cfg!(feature = "small-memory");

/// Which secret vector of the key.
#[derive(Clone, Copy)]
enum Secret {
    S1,
    S2,
    T0,
}

#[cfg(not(feature = "small-memory"))]
/// NTT(s1\[i\]), NTT(s2\[i\]) or NTT(t0\[i\]) (FIPS 204, Algorithm 7 lines 2 to 5, one polynomial):
/// the prepared one when there is `prep`, else unpacked from the key's encoding (Algorithm 25,
/// one polynomial) and transformed into `scratch`.
fn secret_hat<'a, P: ParameterSet, B: Ops>(
    sk: &SigningKey<P>,
    prep: Option<&'a Prepared<P>>,
    which: Secret,
    i: usize,
    scratch: &'a mut Poly,
) -> &'a Poly {
    if let Some(prep) = prep {
        let st = &prep.secrets;
        return match which {
            Secret::S1 => &st.s1_hat.as_ref()[i],
            Secret::S2 => &st.s2_hat.as_ref()[i],
            Secret::T0 => &st.t0_hat.as_ref()[i],
        };
    }
    unpack_secret::<P, B>(sk, which, i, scratch);
    scratch.ntt::<B>();
    scratch
}

/// s1\[i\], s2\[i\] or t0\[i\] from the key's encoding (FIPS 204, Algorithm 25, one polynomial).
fn unpack_secret<P: ParameterSet, B: Ops>(
    sk: &SigningKey<P>,
    which: Secret,
    i: usize,
    out: &mut Poly,
) {
    let (bytes, bits, b) = secret_packed::<P>(sk, which, i);
    B::bit_unpack(bytes, bits, b, &mut out.0);
}

/// Where s1\[i\], s2\[i\] or t0\[i\] lies in the key's encoding (FIPS 204, Algorithm 25): its
/// bytes, their width and the b of BitPack(., a, b) (Algorithm 17).
fn secret_packed<P: ParameterSet>(
    sk: &SigningKey<P>,
    which: Secret,
    i: usize,
) -> (&[u8], usize, i32) {
    let eta_len = 32 * P::ETA_BITS;
    let t0_len = 32 * D as usize;
    match which {
        Secret::S1 => (
            &sk.s_packed()[i * eta_len..][..eta_len],
            P::ETA_BITS,
            P::ETA as i32,
        ),
        Secret::S2 => (
            &sk.s_packed()[(P::L + i) * eta_len..][..eta_len],
            P::ETA_BITS,
            P::ETA as i32,
        ),
        Secret::T0 => (
            &sk.t0_packed()[i * t0_len..][..t0_len],
            D as usize,
            1 << (D - 1),
        ),
    }
}

/// The challenge of one attempt (FIPS 204, Algorithm 7 lines 16 to 18): c_hat = NTT(c), or
/// under `small-memory` c in sparse form ([`SparseC`]: no NTT, c s by schoolbook
/// multiplication from the secret unpacked one polynomial at a time).
#[cfg(not(feature = "small-memory"))]
type Challenge = Poly;
#[cfg(feature = "small-memory")]
type Challenge = SparseC;

/// FIPS 204, Algorithm 7 lines 16 to 18: c = SampleInBall(c_tilde) (Algorithm 29, in constant
/// time: the challenge of an attempt that is then rejected stays secret, [`BallMasks`]), and
/// c_hat = NTT(c) in the default configuration.
fn challenge<P: ParameterSet, B: Ops>(c_tilde: &[u8]) -> Challenge {
    #[cfg(not(feature = "small-memory"))]
    {
        let mut c_hat = BallMasks::sample::<P, B>(c_tilde).to_poly();
        c_hat.ntt::<B>();
        c_hat
    }
    #[cfg(feature = "small-memory")]
    SparseC::sample::<P, B>(c_tilde)
}

/// FIPS 204, Algorithm 7 lines 19, 20 and 25, one polynomial: `cs` = <<c s\[i\]>> for s = s1, s2
/// or t0: NTT^-1(c_hat o NTT(s\[i\])) (coefficients below q in absolute value; NTT(s\[i\]) from
/// [`secret_hat`], through `scratch`), or under `small-memory` the exact product from the
/// s\[i\] unpacked into `scratch` ([`SparseC::mul`]).
fn c_times<P: ParameterSet, B: Ops>(
    sk: &SigningKey<P>,
    prep: Option<&Prepared<P>>,
    c: &Challenge,
    which: Secret,
    i: usize,
    scratch: &mut Poly,
    cs: &mut Poly,
) {
    #[cfg(not(feature = "small-memory"))]
    {
        let s_hat = secret_hat::<P, B>(sk, prep, which, i, scratch);
        B::pointwise(&mut cs.0, &c.0, &s_hat.0);
        cs.inv_ntt_to_mont::<B>();
    }
    #[cfg(feature = "small-memory")]
    {
        let _ = prep;
        unpack_secret::<P, B>(sk, which, i, scratch);
        c.mul(scratch, cs);
    }
}

/// The columns of A_hat y: NTT(y) kept whole, or y packed (ExpandMask's bytes, which lie in the
/// z part of the signature being built).
fn y_columns<'a, P: ParameterSet>(y_hat: &'a [Poly], y_packed: &'a [u8]) -> Columns<'a> {
    if KEEP_VECTORS {
        Columns::Ntt(y_hat)
    } else {
        Columns::Packed {
            bytes: y_packed,
            bits: P::GAMMA1_BITS,
            b: P::GAMMA1,
        }
    }
}

/// FIPS 204, Algorithm 7 line 12, row by row: `f(r, w[r])` with w = NTT^-1(A_hat o y_hat) in
/// [0, q), A_hat the prepared matrix or, without `prep`, streamed ([`matrix_rows`]).
#[inline(never)]
fn w_rows<P: ParameterSet, B: Ops>(
    sk: &SigningKey<P>,
    prep: Option<&Prepared<P>>,
    columns: &Columns<'_>,
    mut f: impl FnMut(usize, &mut Poly),
) {
    let mut finish = |r: usize, w: &mut Poly| {
        w.reduce::<B>();
        w.inv_ntt_to_mont::<B>();
        w.caddq::<B>();
        f(r, w);
    };
    match prep {
        Some(prep) => {
            let (mut w, mut part, mut col) = (Poly::ZERO, Poly::ZERO, Poly::ZERO);
            for (r, row) in prep.a_hat.as_ref().chunks_exact(P::L).enumerate() {
                row_product::<B>(&mut w, &mut part, &mut col, row, 0, columns);
                finish(r, &mut w);
            }
        }
        None => matrix_rows::<B>(&sk.rho, P::K, P::L, columns, finish),
    }
}

/// FIPS 204, Algorithm 7 lines 19 to 21, column by column: z\[j\] = y\[j\] + NTT^-1(c_hat o s1_hat\[j\]),
/// built over y\[j\] in `z_part` (which holds y packed, as sigEncode will hold z). Returns
/// whether every ||z\[j\]|| < gamma1 - beta; every column is computed either way.
#[inline(never)]
fn z_columns<P: ParameterSet, B: Ops>(
    sk: &SigningKey<P>,
    prep: Option<&Prepared<P>>,
    c: &Challenge,
    z_part: &mut [u8],
) -> bool {
    let len = 32 * P::GAMMA1_BITS;
    let (mut z, mut cs, mut scratch) = (Poly::ZERO, Poly::ZERO, Poly::ZERO);
    let mut reject = false;
    for (j, chunk) in z_part.chunks_exact_mut(len).enumerate() {
        c_times::<P, B>(sk, prep, c, Secret::S1, j, &mut scratch, &mut cs);
        B::bit_unpack(chunk, P::GAMMA1_BITS, P::GAMMA1, &mut z.0);
        z.add_assign(&cs);
        z.reduce::<B>();
        reject |= z.norm_exceeds::<B>(P::GAMMA1 - P::BETA);
        B::bit_pack(&z.0, P::GAMMA1_BITS, P::GAMMA1, chunk);
    }
    z.zeroize();
    cs.zeroize();
    scratch.zeroize();
    !reject
}

/// The scratch polynomials of one row of the checks and hints (they hold secret-dependent
/// values), wiped on drop.
struct RowScratch {
    w1: Poly,
    w0: Poly,
    cs: Poly,
    secret: Poly,
}

impl RowScratch {
    fn new() -> Self {
        Self {
            w1: Poly::ZERO,
            w0: Poly::ZERO,
            cs: Poly::ZERO,
            secret: Poly::ZERO,
        }
    }
}

impl Drop for RowScratch {
    fn drop(&mut self) {
        self.w1.zeroize();
        self.w0.zeroize();
        self.cs.zeroize();
        self.secret.zeroize();
    }
}

/// The hints of one signature attempt, one bit per coefficient (bit j % 64 of word j / 64 of
/// row r is h\[r\]\[j\]): built without branches while the attempt may still be rejected, and
/// packed by HintBitPack only once it is accepted.
type HintBits = [[u64; 4]; MAX_K];

/// FIPS 204, Algorithm 7 lines 20 and 23, one row: w\[r\] - <<c s2\[r\]>> (in [0, q)) written over
/// `w_r` (w\[r\] in [0, q) on entry). Returns whether ||r0|| >= gamma2 - beta for
/// r0 = LowBits(w - <<c s2>>) (Algorithm 37 on the row just written); every coefficient is
/// looked at either way.
fn r0_row<P: ParameterSet, B: Ops>(
    sk: &SigningKey<P>,
    prep: Option<&Prepared<P>>,
    c: &Challenge,
    r: usize,
    w_r: &mut Poly,
    t: &mut RowScratch,
) -> bool {
    c_times::<P, B>(sk, prep, c, Secret::S2, r, &mut t.secret, &mut t.cs);
    w_r.sub_assign(&t.cs);
    w_r.reduce::<B>();
    w_r.caddq::<B>();
    B::decompose(P::GAMMA2, &w_r.0, &mut t.w1.0, &mut t.w0.0);
    t.w0.norm_exceeds::<B>(P::GAMMA2 - P::BETA)
}

/// FIPS 204, Algorithm 7 lines 25 to 28, one row, after [`r0_row`] passed for every row (then
/// HighBits(w - <<c s2>>) = HighBits(w) = w1, and LowBits(w - <<c s2>>) = w0 - <<c s2>>, the
/// reference form): <<c t0>> and h\[r\] = MakeHint(-<<c t0>>, w - <<c s2>> + <<c t0>>) into
/// `bits`, from `w_r` = w\[r\] - <<c s2\[r\]>> in [0, q). Returns whether ||c t0|| >= gamma2 and the
/// number of ones of h\[r\].
fn hint_row<P: ParameterSet, B: Ops>(
    sk: &SigningKey<P>,
    prep: Option<&Prepared<P>>,
    c: &Challenge,
    r: usize,
    w_r: &Poly,
    t: &mut RowScratch,
    bits: &mut [u64; 4],
) -> (bool, usize) {
    B::decompose(P::GAMMA2, &w_r.0, &mut t.w1.0, &mut t.w0.0);
    c_times::<P, B>(sk, prep, c, Secret::T0, r, &mut t.secret, &mut t.cs);
    t.cs.reduce::<B>();
    let reject = t.cs.norm_exceeds::<B>(P::GAMMA2);
    t.w0.add_assign(&t.cs);
    // The hint of this row, into cs, then into its bits.
    let ones = B::make_hint(P::GAMMA2, &t.w0.0, &t.w1.0, &mut t.cs.0);
    for (word, hints) in bits.iter_mut().zip(t.cs.0.chunks_exact(64)) {
        *word = hints
            .iter()
            .enumerate()
            .fold(0, |acc, (j, &h)| acc | (u64::from(h as u32 & 1) << j));
    }
    (reject, ones)
}

/// FIPS 204, Algorithm 7 lines 20 and 23 for every row of the kept w ([`r0_row`], each row
/// replaced by w - <<c s2>>). Returns whether ||r0|| < gamma2 - beta; every row is computed
/// either way.
#[inline(never)]
fn r0_rows<P: ParameterSet, B: Ops>(
    sk: &SigningKey<P>,
    prep: Option<&Prepared<P>>,
    c: &Challenge,
    w: &mut [Poly],
) -> bool {
    let mut t = RowScratch::new();
    let mut reject = false;
    for (r, w_r) in w.iter_mut().enumerate() {
        reject |= r0_row::<P, B>(sk, prep, c, r, w_r, &mut t);
    }
    !reject
}

/// FIPS 204, Algorithm 7 lines 25 to 28, row by row ([`hint_row`]) into `bits`: from the kept
/// rows of w - <<c s2>> after [`r0_rows`], or (under `small-memory`) from each row of w
/// recomputed from y packed, its line 20 and 23 check ([`r0_row`]) done on the way. Returns
/// whether every check of these lines passed (||c t0|| < gamma2, h with at most omega ones,
/// and under `small-memory` ||r0|| < gamma2 - beta); every row is computed either way.
#[inline(never)]
fn hint_rows<P: ParameterSet, B: Ops>(
    sk: &SigningKey<P>,
    prep: Option<&Prepared<P>>,
    c: &Challenge,
    w: &[Poly],
    columns: &Columns<'_>,
    bits: &mut HintBits,
) -> bool {
    let mut t = RowScratch::new();
    let (mut reject, mut ones) = (false, 0);
    if KEEP_VECTORS {
        for (r, w_r) in w.iter().enumerate() {
            let (rej, n) = hint_row::<P, B>(sk, prep, c, r, w_r, &mut t, &mut bits[r]);
            reject |= rej;
            ones += n;
        }
    } else {
        w_rows::<P, B>(sk, prep, columns, |r, w_r| {
            reject |= r0_row::<P, B>(sk, prep, c, r, w_r, &mut t);
            let (rej, n) = hint_row::<P, B>(sk, prep, c, r, w_r, &mut t, &mut bits[r]);
            reject |= rej;
            ones += n;
        });
    }
    !reject && ones <= P::OMEGA
}

/// FIPS 204, Algorithm 7: ML-DSA.Sign_internal, lines 1 to 5 and 7 to 33, with mu given.
///
/// Also returns how many times the rejection loop (lines 10 to 32) ran: kappa / l at the end,
/// a count the loop keeps anyway, so reporting it costs nothing.
pub(crate) fn sign_mu<P: ParameterSet>(
    sk: &SigningKey<P>,
    mu: &[u8; 64],
    rnd: &[u8; 32],
) -> (Signature<P>, u32) {
    dispatch!(B => sign_mu_with::<P, B>(sk, mu, rnd))
}

/// The per-key part of signing (FIPS 204, Algorithm 7 lines 2 to 5): the NTT forms of s1, s2
/// and t0 and A_hat = ExpandA(rho), on the kernels of one back end, sized for the parameter set
/// (k l + l + 2 k polynomials: 28 KiB for ML-DSA-44, 79 KiB for ML-DSA-87). The secrets are
/// zeroized on drop; A_hat is public.
pub(crate) struct Prepared<P: ParameterSet> {
    a_hat: P::Matrix,
    secrets: SecretsHat<P>,
}

impl<P: ParameterSet> Prepared<P> {
    /// Lines 2 to 5 for `sk` on the kernels of `B`, into `self`.
    fn prepare<B: Ops>(&mut self, sk: &SigningKey<P>) {
        let st = &mut self.secrets;
        for (i, p) in st.s1_hat.as_mut().iter_mut().enumerate() {
            unpack_secret::<P, B>(sk, Secret::S1, i, p);
            p.ntt::<B>();
        }
        for (i, p) in st.s2_hat.as_mut().iter_mut().enumerate() {
            unpack_secret::<P, B>(sk, Secret::S2, i, p);
            p.ntt::<B>();
        }
        for (i, p) in st.t0_hat.as_mut().iter_mut().enumerate() {
            unpack_secret::<P, B>(sk, Secret::T0, i, p);
            p.ntt::<B>();
        }
        expand_a::<B>(&sk.rho, P::K, P::L, self.a_hat.as_mut());
    }

    /// All zero, to be filled in place by [`Prepared::prepare`].
    fn empty() -> Self {
        Self {
            a_hat: P::Matrix::ZERO,
            secrets: SecretsHat {
                s1_hat: P::VecL::ZERO,
                s2_hat: P::VecK::ZERO,
                t0_hat: P::VecK::ZERO,
            },
        }
    }

    /// The prepared form of `sk` on the kernels of `B`.
    pub(crate) fn new<B: Ops>(sk: &SigningKey<P>) -> Self {
        let mut prepared = Self::empty();
        prepared.prepare::<B>(sk);
        prepared
    }
}

/// [`sign_mu`] on the kernels of `B`: with the per-key part prepared first (A_hat and the
/// NTT-domain secrets held for the rejection loop), or under `small-memory` with nothing
/// prepared (A_hat streamed, the secrets unpacked one polynomial at a time).
pub(crate) fn sign_mu_with<P: ParameterSet, B: Ops>(
    sk: &SigningKey<P>,
    mu: &[u8; 64],
    rnd: &[u8; 32],
) -> (Signature<P>, u32) {
    #[cfg(not(feature = "small-memory"))]
    {
        // Filled where it lies, not returned by value.
        let mut prep = Prepared::<P>::empty();
        prep.prepare::<B>(sk);
        sign_loop::<P, B>(sk, Some(&prep), mu, rnd)
    }
    #[cfg(feature = "small-memory")]
    sign_loop::<P, B>(sk, None, mu, rnd)
}

/// FIPS 204, Algorithm 7 from line 7 on, with lines 2 to 5 done beforehand (`prep`, made by
/// [`Prepared::new`] from `sk` on the same back end `B`).
pub(crate) fn sign_prepared<P: ParameterSet, B: Ops>(
    sk: &SigningKey<P>,
    prep: &Prepared<P>,
    mu: &[u8; 64],
    rnd: &[u8; 32],
) -> (Signature<P>, u32) {
    sign_loop::<P, B>(sk, Some(prep), mu, rnd)
}

/// FIPS 204, Algorithm 7 from line 7 on, with lines 2 to 5 done in `prep` or (without it) one
/// polynomial at a time where they are needed. The signature is built in its encoding
/// (sigEncode, Algorithm 26): y goes packed into the place of z and z is built over it, the
/// hints go into theirs row by row, c_tilde last.
fn sign_loop<P: ParameterSet, B: Ops>(
    sk: &SigningKey<P>,
    prep: Option<&Prepared<P>>,
    mu: &[u8; 64],
    rnd: &[u8; 32],
) -> (Signature<P>, u32) {
    // Line 7: rho'' = H(K || rnd || mu, 64).
    let mut rho_pp = [0u8; 64];
    Shake256::digest_parts(&[&sk.key, rnd, mu], &mut rho_pp);

    let mut encoded = P::SigBytes::zeroed();
    let (ct_part, rest) = encoded.as_mut().split_at_mut(P::C_TILDE_LEN);
    let z_len = 32 * P::GAMMA1_BITS;
    let (z_part, h_part) = rest.split_at_mut(P::L * z_len);
    // The storage of NTT(y) and w: l and k polynomials, or none under `small-memory`.
    #[cfg(not(feature = "small-memory"))]
    let (mut y_hat, mut w) = (P::VecL::ZERO, P::VecK::ZERO);
    #[cfg(feature = "small-memory")]
    let (mut y_hat, mut w) = ([Poly::ZERO; 0], [Poly::ZERO; 0]);
    let (mut w1, mut w0) = (Poly::ZERO, Poly::ZERO);
    let mut c_tilde = [0u8; 64];
    let mut hint_bits: HintBits = [[0; 4]; MAX_K];
    let mut w1_bytes = [0u8; 32 * 6];
    let w1_len = 32 * P::W1_BITS;
    let mut kappa: u16 = 0;
    let l = P::L;

    loop {
        // Line 11: y = ExpandMask(rho'', kappa), packed into the place of z.
        expand_mask_packed::<P, B>(&rho_pp, kappa, z_part);
        kappa = kappa.wrapping_add(l as u16);
        for (p, chunk) in y_hat.as_mut().iter_mut().zip(z_part.chunks_exact(z_len)) {
            B::bit_unpack(chunk, P::GAMMA1_BITS, P::GAMMA1, &mut p.0);
            p.ntt::<B>();
        }

        // Lines 12 to 15: w = NTT^-1(A_hat o NTT(y)), w1 = HighBits(w),
        // c_tilde = H(mu || w1Encode(w1), lambda / 4), one row of w at a time.
        let mut h = Shake256::new();
        h.absorb(mu);
        w_rows::<P, B>(
            sk,
            prep,
            &y_columns::<P>(y_hat.as_ref(), z_part),
            |r, w_r| {
                if KEEP_VECTORS {
                    w.as_mut()[r] = *w_r;
                }
                B::decompose(P::GAMMA2, &w_r.0, &mut w1.0, &mut w0.0);
                B::simple_bit_pack(&w1.0, P::W1_BITS, &mut w1_bytes[..w1_len]);
                h.absorb(&w1_bytes[..w1_len]);
            },
        );
        h.finalize().squeeze(&mut c_tilde[..P::C_TILDE_LEN]);

        // Lines 16 to 18: c = SampleInBall(c_tilde), c_hat = NTT(c) (or c sparse).
        let c = challenge::<P, B>(&c_tilde[..P::C_TILDE_LEN]);

        // Lines 19 to 28: the r0 check first (it rejects most often: about 57 %, 68 % and 61 %
        // of attempts for ML-DSA-44, 65 and 87, against 46 %, 38 % and 34 % for the z check, so
        // fewer products with c are computed on average), then z, then <<c t0>> and the hints
        // (under `small-memory` the hints and r0 first, while y is still there to recompute w
        // from). Each part computes all its rows or columns; only whether it passed is revealed.
        let accepted = if KEEP_VECTORS {
            r0_rows::<P, B>(sk, prep, &c, w.as_mut())
                && z_columns::<P, B>(sk, prep, &c, z_part)
                && hint_rows::<P, B>(sk, prep, &c, w.as_ref(), &Columns::Ntt(&[]), &mut hint_bits)
        } else {
            hint_rows::<P, B>(
                sk,
                prep,
                &c,
                w.as_ref(),
                &y_columns::<P>(y_hat.as_ref(), z_part),
                &mut hint_bits,
            ) && z_columns::<P, B>(sk, prep, &c, z_part)
        };
        if !accepted {
            continue;
        }

        // Line 33: sigma = sigEncode(c_tilde, z mod± q, h): z is in place, h is packed now
        // (HintBitPack, Algorithm 20: the hints of an accepted attempt are published).
        ct_part.copy_from_slice(&c_tilde[..P::C_TILDE_LEN]);
        hint_bit_pack::<P>(&hint_bits[..P::K], h_part);
        rho_pp.zeroize();
        y_hat.zeroize();
        w.zeroize();
        w0.zeroize();
        w1.zeroize();
        wipe(hint_bits.as_flattened_mut());
        return (Signature { encoded }, u32::from(kappa) / l as u32);
    }
}
