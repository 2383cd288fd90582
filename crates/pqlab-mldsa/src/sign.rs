//! Signing (FIPS 204, Algorithm 7: ML-DSA.Sign_internal, from line 7 on: mu is given).
//!
//! One loop ([`sign_loop`]) for both configurations. It reads the key through [`KeyParts`]
//! (borrowed from the encoding skEncode, so the secret vectors stay packed where they lie:
//! in a [`SigningKey`] or in the caller's buffer, [`crate::sign_encoded`]) and builds the
//! signature in its encoding in the caller's buffer. In the default configuration the
//! per-key part (A_hat and the NTT forms of the secrets, [`Prepared`]) is made first, and NTT(y)
//! and w are kept whole; under `small-memory` nothing is prepared: each row of w is computed
//! from y packed (in the signature buffer) and A_hat sampled entry by entry into the product,
//! once for c_tilde and once more for the checks and hints, and the secrets are multiplied by
//! the sparse challenge straight from their packed bytes ([`SparseC`]).

use pqlab_arith::array::FixedArray;
use pqlab_arith::wipe::wipe;
use pqlab_keccak::Shake256;
use zeroize::Zeroize;

use crate::backend::{Ops, dispatch};
#[cfg(not(feature = "small-memory"))]
use crate::ball::BallMasks;
use crate::encode::hint_bit_pack;
use crate::error::Error;
use crate::keys::{Signature, SigningKey};
use crate::params::{ByteArray, D, MAX_K, ParameterSet};
use crate::poly::{Poly, ShortNtt};
use crate::sample::expand_a;
#[cfg(feature = "small-memory")]
use crate::sparse::SparseC;

/// What signing reads of a secret key, borrowed from its encoding skEncode(rho, K, tr, s1, s2,
/// t0) (FIPS 204, Algorithm 24; split as Algorithm 25 splits it, nothing decoded): tr is not
/// needed once mu is computed.
#[derive(Clone, Copy)]
pub(crate) struct KeyParts<'a> {
    rho: &'a [u8; 32],
    key: &'a [u8; 32],
    /// s1 || s2, packed: (l + k) 32 bitlen(2 eta) bytes.
    s: &'a [u8],
    /// t0, packed: k 32 d bytes.
    t0: &'a [u8],
}

impl<'a> KeyParts<'a> {
    /// The parts of the encoding `sk` (exactly `P::SK_LEN` bytes: the caller has checked).
    pub(crate) fn of_encoding<P: ParameterSet>(sk: &'a [u8]) -> Self {
        let (rho, rest) = sk.split_first_chunk::<32>().unwrap_or((&[0; 32], &[]));
        let (key, rest) = rest.split_first_chunk::<32>().unwrap_or((&[0; 32], &[]));
        let (s, t0) = rest[64..].split_at((P::L + P::K) * 32 * P::ETA_BITS);
        Self { rho, key, s, t0 }
    }

    /// The packed s1 || s2.
    pub(crate) fn s(&self) -> &'a [u8] {
        self.s
    }

    /// The parts of `sk`'s encoding.
    fn of_key<P: ParameterSet>(sk: &'a SigningKey<P>) -> Self {
        Self {
            rho: &sk.rho,
            key: &sk.key,
            s: sk.s_packed(),
            t0: sk.t0_packed(),
        }
    }
}

/// The NTT-domain secrets of a signing key (one call's, or an expanded key's), zeroized on drop:
/// s1 and s2 in ML-KEM's NTT domain modulo 3329 ([`ShortNtt`], for the exact products <<c s1>>
/// and <<c s2>> on 16-bit kernels), t0 in ML-DSA's.
#[derive(Zeroize)]
#[zeroize(drop)]
struct SecretsHat<P: ParameterSet> {
    s1_hat: P::ShortNttL,
    s2_hat: P::ShortNttK,
    t0_hat: P::VecK,
}

/// Which secret vector of the key.
#[derive(Clone, Copy)]
enum Secret {
    S1,
    S2,
    T0,
}

#[cfg(not(feature = "small-memory"))]
/// NTT(t0\[i\]) (FIPS 204, Algorithm 7 line 4, one polynomial): the prepared one when there is
/// `prep`, else unpacked from the key's encoding (Algorithm 25, one polynomial) and transformed
/// into `scratch`.
fn t0_hat<'a, P: ParameterSet, B: Ops>(
    sk: &KeyParts<'_>,
    prep: Option<&'a Prepared<P>>,
    i: usize,
    scratch: &'a mut Poly,
) -> &'a Poly {
    if let Some(prep) = prep {
        return &prep.secrets.t0_hat.as_ref()[i];
    }
    unpack_secret::<P, B>(sk, Secret::T0, i, scratch);
    scratch.ntt::<B>();
    scratch
}

#[cfg(not(feature = "small-memory"))]
/// s1\[i\] or s2\[i\] (`which` is [`Secret::S1`] or [`Secret::S2`]) in ML-KEM's NTT domain
/// ([`ShortNtt`]; FIPS 204, Algorithm 7 lines 2 and 3 with the 16-bit transform): the prepared
/// one when there is `prep`, else unpacked from the key's encoding through `scratch` and
/// transformed into `out`.
fn short_hat<'a, P: ParameterSet, B: Ops>(
    sk: &KeyParts<'_>,
    prep: Option<&'a Prepared<P>>,
    which: Secret,
    i: usize,
    scratch: &mut Poly,
    out: &'a mut ShortNtt,
) -> &'a ShortNtt {
    if let Some(prep) = prep {
        let st = &prep.secrets;
        return match which {
            Secret::S2 => &st.s2_hat.as_ref()[i],
            _ => &st.s1_hat.as_ref()[i],
        };
    }
    unpack_secret::<P, B>(sk, which, i, scratch);
    *out = ShortNtt::of_short::<B>(scratch);
    out
}

/// s1\[i\], s2\[i\] or t0\[i\] from the key's encoding (FIPS 204, Algorithm 25, one polynomial).
fn unpack_secret<P: ParameterSet, B: Ops>(
    sk: &KeyParts<'_>,
    which: Secret,
    i: usize,
    out: &mut Poly,
) {
    let (bytes, bits, b) = secret_packed::<P>(sk, which, i);
    B::bit_unpack(bytes, bits, b, &mut out.0);
}

/// Where s1\[i\], s2\[i\] or t0\[i\] lies in the key's encoding (FIPS 204, Algorithm 25): its
/// bytes, their width and the b of BitPack(., a, b) (Algorithm 17).
fn secret_packed<'a, P: ParameterSet>(
    sk: &KeyParts<'a>,
    which: Secret,
    i: usize,
) -> (&'a [u8], usize, i32) {
    let eta_len = 32 * P::ETA_BITS;
    let t0_len = 32 * D as usize;
    match which {
        Secret::S1 => (&sk.s[i * eta_len..][..eta_len], P::ETA_BITS, P::ETA as i32),
        Secret::S2 => (
            &sk.s[(P::L + i) * eta_len..][..eta_len],
            P::ETA_BITS,
            P::ETA as i32,
        ),
        Secret::T0 => (&sk.t0[i * t0_len..][..t0_len], D as usize, 1 << (D - 1)),
    }
}

/// The challenge of one attempt (FIPS 204, Algorithm 7 lines 16 to 18) in the default
/// configuration: c itself (for NTT(c), made only for the hint rows) and c in ML-KEM's NTT
/// domain (for <<c s1>> and <<c s2>>), wiped on drop (the challenge of a rejected attempt is
/// secret). Under `small-memory`, c in sparse form ([`SparseC`]: no NTT, c s by schoolbook
/// multiplication from the secret's packed bytes).
#[cfg(not(feature = "small-memory"))]
struct Challenge {
    c: Poly,
    short_hat: ShortNtt,
}
#[cfg(feature = "small-memory")]
type Challenge = SparseC;

#[cfg(not(feature = "small-memory"))]
impl Drop for Challenge {
    fn drop(&mut self) {
        self.c.zeroize();
        self.short_hat.zeroize();
    }
}

/// FIPS 204, Algorithm 7 lines 16 to 18: c = SampleInBall(c_tilde) (Algorithm 29, in constant
/// time: the challenge of an attempt that is then rejected stays secret, [`BallMasks`]), and in
/// the default configuration its 16-bit NTT form. (A frame of its own: its Keccak state is not
/// kept in the signing loop's.)
#[inline(never)]
fn challenge<P: ParameterSet, B: Ops>(c_tilde: &[u8]) -> Challenge {
    #[cfg(not(feature = "small-memory"))]
    {
        let c = BallMasks::sample::<P, B>(c_tilde).to_poly::<B>();
        let short_hat = ShortNtt::of_short::<B>(&c);
        Challenge { c, short_hat }
    }
    #[cfg(feature = "small-memory")]
    SparseC::sample::<P, B>(c_tilde)
}

/// The hints of one signature attempt, one bit per coefficient (bit j % 64 of word j / 64 of
/// row r is h\[r\]\[j\]): built without branches while the attempt may still be rejected, and
/// packed by HintBitPack only once it is accepted.
type HintBits = [[u64; 4]; MAX_K];

mod mask;
use mask::MaskPool;

#[cfg(not(feature = "small-memory"))]
mod kept;
#[cfg(not(feature = "small-memory"))]
use kept::Work;
#[cfg(feature = "small-memory")]
mod streamed;
#[cfg(feature = "small-memory")]
use streamed::Work;

/// FIPS 204, Algorithm 7: ML-DSA.Sign_internal, lines 1 to 5 and 7 to 33, with mu given.
///
/// Also returns how many times the rejection loop (lines 10 to 32) ran: kappa / l at the end,
/// a count the loop keeps anyway, so reporting it costs nothing; [`Error::SigningLimitReached`]
/// when no attempt was accepted (a key not made by ML-DSA.KeyGen).
pub(crate) fn sign_mu<P: ParameterSet>(
    sk: &SigningKey<P>,
    mu: &[u8; 64],
    rnd: &[u8; 32],
) -> Result<(Signature<P>, u32), Error> {
    dispatch!(B => sign_mu_with::<P, B>(sk, mu, rnd))
}

/// The per-key part of signing (FIPS 204, Algorithm 7 lines 2 to 5): the NTT forms of s1, s2
/// and t0 and A_hat = ExpandA(rho), on the kernels of one back end, sized for the parameter set
/// (k l + k polynomials and l + k [`ShortNtt`]s of half the size: 24 KiB for ML-DSA-44,
/// 71.5 KiB for ML-DSA-87). The secrets are
/// zeroized on drop; A_hat is public. (Under `small-memory` signing reads only A_hat of it.)
pub(crate) struct Prepared<P: ParameterSet> {
    a_hat: P::Matrix,
    secrets: SecretsHat<P>,
}

impl<P: ParameterSet> Prepared<P> {
    /// Lines 2 to 5 for `sk` on the kernels of `B`, into `self`.
    fn prepare<B: Ops>(&mut self, sk: &KeyParts<'_>) {
        let st = &mut self.secrets;
        // s1 and s2 pass through the first polynomial of t0_hat, filled last.
        let (first, _) = st.t0_hat.as_mut().split_at_mut(1);
        let scratch = &mut first[0];
        for (i, p) in st.s1_hat.as_mut().iter_mut().enumerate() {
            unpack_secret::<P, B>(sk, Secret::S1, i, scratch);
            *p = ShortNtt::of_short::<B>(scratch);
        }
        for (i, p) in st.s2_hat.as_mut().iter_mut().enumerate() {
            unpack_secret::<P, B>(sk, Secret::S2, i, scratch);
            *p = ShortNtt::of_short::<B>(scratch);
        }
        for (i, p) in st.t0_hat.as_mut().iter_mut().enumerate() {
            unpack_secret::<P, B>(sk, Secret::T0, i, p);
            p.ntt::<B>();
        }
        expand_a::<B>(sk.rho, P::K, P::L, self.a_hat.as_mut());
    }

    /// All zero, to be filled in place by [`Prepared::prepare`].
    fn empty() -> Self {
        Self {
            a_hat: P::Matrix::ZERO,
            secrets: SecretsHat {
                s1_hat: P::ShortNttL::ZERO,
                s2_hat: P::ShortNttK::ZERO,
                t0_hat: P::VecK::ZERO,
            },
        }
    }

    /// The prepared form of `sk` on the kernels of `B`.
    pub(crate) fn new<B: Ops>(sk: &SigningKey<P>) -> Self {
        let mut prepared = Self::empty();
        prepared.prepare::<B>(&KeyParts::of_key(sk));
        prepared
    }
}

/// [`sign_mu`] on the kernels of `B` ([`sign_mu_into`] into a new signature).
pub(crate) fn sign_mu_with<P: ParameterSet, B: Ops>(
    sk: &SigningKey<P>,
    mu: &[u8; 64],
    rnd: &[u8; 32],
) -> Result<(Signature<P>, u32), Error> {
    let mut sig = Signature {
        encoded: P::SigBytes::zeroed(),
    };
    let attempts = sign_mu_into::<P, B>(
        &KeyParts::of_key(sk),
        mu,
        rnd,
        AsMut::<[u8]>::as_mut(&mut sig.encoded),
    )?;
    Ok((sig, attempts))
}

/// FIPS 204, Algorithm 7 lines 1 to 5 and 7 to 33 on the kernels of `B`, the signature written
/// into `sig` (`P::SIG_LEN` bytes): with the per-key part prepared first (A_hat and the
/// NTT-domain secrets held for the rejection loop), or under `small-memory` with nothing
/// prepared (A_hat streamed, the secrets read packed). Returns the number of attempts (or
/// [`Error::SigningLimitReached`], `sig` wiped).
pub(crate) fn sign_mu_into<P: ParameterSet, B: Ops>(
    sk: &KeyParts<'_>,
    mu: &[u8; 64],
    rnd: &[u8; 32],
    sig: &mut [u8],
) -> Result<u32, Error> {
    #[cfg(not(feature = "small-memory"))]
    {
        // Filled where it lies, not returned by value.
        let mut prep = Prepared::<P>::empty();
        prep.prepare::<B>(sk);
        sign_loop::<P, B>(sk, Some(&prep), mu, rnd, sig, crate::SIGNING_ATTEMPTS)
    }
    #[cfg(feature = "small-memory")]
    sign_loop::<P, B>(sk, None, mu, rnd, sig, crate::SIGNING_ATTEMPTS)
}

/// FIPS 204, Algorithm 7 from line 7 on, with lines 2 to 5 done beforehand (`prep`, made by
/// [`Prepared::new`] from `sk` on the same back end `B`).
pub(crate) fn sign_prepared<P: ParameterSet, B: Ops>(
    sk: &SigningKey<P>,
    prep: &Prepared<P>,
    mu: &[u8; 64],
    rnd: &[u8; 32],
) -> Result<(Signature<P>, u32), Error> {
    let mut sig = Signature {
        encoded: P::SigBytes::zeroed(),
    };
    let attempts = sign_loop::<P, B>(
        &KeyParts::of_key(sk),
        Some(prep),
        mu,
        rnd,
        AsMut::<[u8]>::as_mut(&mut sig.encoded),
        crate::SIGNING_ATTEMPTS,
    )?;
    Ok((sig, attempts))
}

/// FIPS 204, Algorithm 7 from line 7 on, with lines 2 to 5 done in `prep` or (without it) one
/// polynomial at a time where they are needed. The signature is built in its encoding
/// (sigEncode, Algorithm 26) in `sig`: y goes packed into the place of z and z is built over
/// it, the hints go into theirs, c_tilde last. Returns the number of attempts, or
/// [`Error::SigningLimitReached`] (with `sig` wiped) when `max_attempts` attempts were all
/// rejected (FIPS 204, Appendix C; every caller but a test passes
/// [`SIGNING_ATTEMPTS`](crate::SIGNING_ATTEMPTS)).
///
/// The mask pool ([`MaskPool`]) is [`mask::AHEAD`] bytes where l > 4 and empty for l <= 4
/// (ML-DSA-44 draws no stream ahead), so that its frame does not carry unused bytes.
#[inline(always)]
fn sign_loop<P: ParameterSet, B: Ops>(
    sk: &KeyParts<'_>,
    prep: Option<&Prepared<P>>,
    mu: &[u8; 64],
    rnd: &[u8; 32],
    sig: &mut [u8],
    max_attempts: u32,
) -> Result<u32, Error> {
    if P::L <= 4 {
        sign_loop_with::<P, B, 0>(sk, prep, mu, rnd, sig, max_attempts)
    } else {
        sign_loop_with::<P, B, { mask::AHEAD }>(sk, prep, mu, rnd, sig, max_attempts)
    }
}

/// [`sign_loop`] with a mask pool of `N` bytes.
fn sign_loop_with<P: ParameterSet, B: Ops, const N: usize>(
    sk: &KeyParts<'_>,
    prep: Option<&Prepared<P>>,
    mu: &[u8; 64],
    rnd: &[u8; 32],
    sig: &mut [u8],
    max_attempts: u32,
) -> Result<u32, Error> {
    // Line 7: rho'' = H(K || rnd || mu, 64).
    let mut rho_pp = [0u8; 64];
    hash_into(&[sk.key, rnd, mu], &mut rho_pp);

    let (ct_part, rest) = sig.split_at_mut(P::C_TILDE_LEN);
    let (z_part, h_part) = rest.split_at_mut(P::L * 32 * P::GAMMA1_BITS);
    let mut work = Work::<P>::new();
    let mut c_tilde = [0u8; 64];
    let mut hint_bits: HintBits = [[0; 4]; MAX_K];
    let mut kappa: u16 = 0;
    let l = P::L;

    let mut masks = MaskPool::<N>::new();

    for _ in 0..max_attempts {
        // Line 11: y = ExpandMask(rho'', kappa), packed into the place of z (drawn with the
        // streams of the next attempts in full Keccak batches, [`MaskPool`]).
        expand_mask::<P, B, N>(&mut masks, &rho_pp, kappa, z_part);
        kappa = kappa.wrapping_add(l as u16);

        // Lines 12 to 15: w = NTT^-1(A_hat o NTT(y)), w1 = HighBits(w),
        // c_tilde = H(mu || w1Encode(w1), lambda / 4).
        work.commit::<B>(sk, prep, mu, z_part, &mut c_tilde[..P::C_TILDE_LEN]);

        // Lines 16 to 18: c = SampleInBall(c_tilde) with its 16-bit NTT form (or c sparse).
        let c = challenge::<P, B>(&c_tilde[..P::C_TILDE_LEN]);

        // Lines 19 to 28: z, the checks and the hints.
        if !work.respond::<B>(sk, prep, &c, z_part, &mut hint_bits) {
            continue;
        }

        // Line 33: sigma = sigEncode(c_tilde, z mod± q, h): z packed into its place, h packed
        // now (HintBitPack, Algorithm 20: the hints of an accepted attempt are published).
        work.pack_z::<B>(z_part);
        ct_part.copy_from_slice(&c_tilde[..P::C_TILDE_LEN]);
        hint_bit_pack::<P>(&hint_bits[..P::K], h_part);
        rho_pp.zeroize();
        wipe(hint_bits.as_flattened_mut());
        return Ok(u32::from(kappa) / l as u32);
    }
    // Every attempt rejected (FIPS 204, Appendix C): no signature, and nothing of the last
    // attempt (its y in the place of z, its hints, c_tilde) left in `sig` or on the stack.
    rho_pp.zeroize();
    c_tilde.zeroize();
    wipe(hint_bits.as_flattened_mut());
    wipe(ct_part);
    wipe(z_part);
    wipe(h_part);
    Err(Error::SigningLimitReached)
}

/// Whether every outcome in `oks` holds, combined as a mask without a branch on any one of
/// them: signing reveals whether an attempt is accepted (FIPS 204, Algorithm 7 lines 23 and
/// 28), not which check rejected it. The `black_box` keeps the compiler from turning the
/// combination back into a chain of jumps.
#[inline(always)]
fn all_of(oks: &[bool]) -> bool {
    let mut all = 1u32;
    for &ok in oks {
        all &= u32::from(ok);
    }
    core::hint::black_box(all) != 0
}

/// H(parts, out.len()) (SHAKE256) in a frame of its own (its Keccak state is not kept in the
/// signing loop's).
#[inline(never)]
fn hash_into(parts: &[&[u8]], out: &mut [u8]) {
    Shake256::digest_parts(parts, out);
}

/// FIPS 204, Algorithm 34: ExpandMask ([`MaskPool::take`]) in a frame of its own.
#[inline(never)]
fn expand_mask<P: ParameterSet, B: Ops, const N: usize>(
    masks: &mut MaskPool<N>,
    rho_pp: &[u8; 64],
    kappa: u16,
    out: &mut [u8],
) {
    masks.take::<P, B>(rho_pp, kappa, out);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::dispatch;
    use crate::{MlDsa44, MlDsa65, MlDsa87};

    // FIPS 204, Appendix C: a bound, if any, is at least 814.
    const _: () = assert!(crate::SIGNING_ATTEMPTS >= 814);

    /// Signs `mu` with at most `limit` attempts on the kernels of `B` into `sig`, as
    /// [`sign_mu_into`] does with the standard's bound.
    fn sign_limited<P: ParameterSet, B: Ops>(
        sk: &SigningKey<P>,
        mu: &[u8; 64],
        sig: &mut [u8],
        limit: u32,
    ) -> Result<u32, Error> {
        let parts = KeyParts::of_key(sk);
        #[cfg(not(feature = "small-memory"))]
        {
            let prep = Prepared::<P>::new::<B>(sk);
            sign_loop::<P, B>(&parts, Some(&prep), mu, &[0; 32], sig, limit)
        }
        #[cfg(feature = "small-memory")]
        sign_loop::<P, B>(&parts, None, mu, &[0; 32], sig, limit)
    }

    /// The bound of FIPS 204, Appendix C: for messages whose signing takes n >= 2 attempts, a
    /// limit of n gives the same signature and count, a limit of n - 1 gives
    /// [`Error::SigningLimitReached`] with the caller's signature buffer wiped (it held the
    /// last attempt's y), on every back end. Returns the number of such messages.
    fn stops_at_the_limit<P: ParameterSet>() -> usize {
        let sk = SigningKey::<P>::from_seed(&[0x5c; 32]);
        let mut cases = 0;
        for m in 0..40u8 {
            let mu = [m; 64];
            let (want, n) = sign_mu::<P>(&sk, &mu, &[0; 32]).unwrap();
            if n < 2 {
                continue;
            }
            for backend in pqlab_backend::available() {
                dispatch!(on backend, B => {
                    let mut sig = std::vec![0u8; P::SIG_LEN];
                    assert_eq!(sign_limited::<P, B>(&sk, &mu, &mut sig, n), Ok(n));
                    assert_eq!(&sig[..], want.as_bytes(), "{} {backend:?}", P::NAME);
                    let mut sig = std::vec![0xa5u8; P::SIG_LEN];
                    let r = sign_limited::<P, B>(&sk, &mu, &mut sig, n - 1);
                    assert_eq!(r, Err(Error::SigningLimitReached), "{} {backend:?}", P::NAME);
                    assert!(sig.iter().all(|&b| b == 0), "{} {backend:?}: not wiped", P::NAME);
                });
            }
            cases += 1;
        }
        cases
    }

    #[test]
    fn signing_stops_at_the_attempt_limit() {
        for (name, cases) in [
            ("ML-DSA-44", stops_at_the_limit::<MlDsa44>()),
            ("ML-DSA-65", stops_at_the_limit::<MlDsa65>()),
            ("ML-DSA-87", stops_at_the_limit::<MlDsa87>()),
        ] {
            // About 3 in 4 messages need more than one attempt.
            assert!(
                cases >= 15,
                "{name}: only {cases} messages took several attempts"
            );
        }
    }
}
