//! Signing (FIPS 204, Algorithm 7: ML-DSA.Sign_internal, from line 7 on: mu is given).

use pqlab_arith::array::FixedArray;
use pqlab_keccak::Shake256;
use zeroize::Zeroize;

use crate::backend::{Ops, dispatch};
use crate::encode::{sig_encode, w1_encode};
use crate::keys::{Signature, SigningKey};
use crate::params::{ByteArray, ParameterSet};
use crate::poly::{Poly, matrix_vector_ntt};
use crate::sample::{expand_a, expand_mask, sample_in_ball};

/// The NTT-domain secrets of a signing key (one call's, or an expanded key's), zeroized on drop.
#[derive(Zeroize)]
#[zeroize(drop)]
struct SecretsHat<P: ParameterSet> {
    s1_hat: P::VecL,
    s2_hat: P::VecK,
    t0_hat: P::VecK,
}

/// Largest w1Encode output: k * 32 * bitlen((q - 1) / (2 gamma2) - 1) over all sets.
const MAX_W1_LEN: usize = 8 * 32 * 6;

/// Computes c * v for every polynomial of `v_hat` (NTT domain), returning normal-domain
/// polynomials reduced to (-q, q).
fn c_times<B: Ops>(c_hat: &Poly, v_hat: &[Poly], out: &mut [Poly]) {
    for (o, v) in out.iter_mut().zip(v_hat) {
        *o = Poly::pointwise::<B>(c_hat, v);
        o.inv_ntt_to_mont::<B>();
    }
}

/// HighBits / LowBits of every coefficient of w (FIPS 204, Algorithm 36 applied to a vector).
fn decompose_vec<P: ParameterSet, B: Ops>(w: &[Poly], w1: &mut [Poly], w0: &mut [Poly]) {
    for i in 0..P::K {
        B::decompose(P::GAMMA2, &w[i].0, &mut w1[i].0, &mut w0[i].0);
    }
}

/// MakeHint for every coefficient (FIPS 204, Algorithm 39, in the reference form); returns the
/// number of ones.
fn make_hint_vec<P: ParameterSet, B: Ops>(r0: &[Poly], r1: &[Poly], h: &mut [Poly]) -> usize {
    let mut ones = 0;
    for i in 0..P::K {
        ones += B::make_hint(P::GAMMA2, &r0[i].0, &r1[i].0, &mut h[i].0);
    }
    ones
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
        let (s1_hat, s2_hat, t0_hat) = (st.s1_hat.as_mut(), st.s2_hat.as_mut(), st.t0_hat.as_mut());
        s1_hat.copy_from_slice(sk.s1.as_ref());
        s2_hat.copy_from_slice(sk.s2.as_ref());
        t0_hat.copy_from_slice(sk.t0.as_ref());
        for p in s1_hat.iter_mut() {
            p.ntt::<B>();
        }
        for (s2, t0) in s2_hat.iter_mut().zip(t0_hat.iter_mut()) {
            s2.ntt::<B>();
            t0.ntt::<B>();
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

/// [`sign_mu`] on the kernels of `B`.
pub(crate) fn sign_mu_with<P: ParameterSet, B: Ops>(
    sk: &SigningKey<P>,
    mu: &[u8; 64],
    rnd: &[u8; 32],
) -> (Signature<P>, u32) {
    // Filled where it lies, not returned by value.
    let mut prep = Prepared::<P>::empty();
    prep.prepare::<B>(sk);
    sign_prepared::<P, B>(sk, &prep, mu, rnd)
}

/// FIPS 204, Algorithm 7 from line 7 on, with lines 2 to 5 done beforehand (`prep`, made by
/// [`Prepared::new`] from `sk` on the same back end `B`).
pub(crate) fn sign_prepared<P: ParameterSet, B: Ops>(
    sk: &SigningKey<P>,
    prep: &Prepared<P>,
    mu: &[u8; 64],
    rnd: &[u8; 32],
) -> (Signature<P>, u32) {
    let a_hat = prep.a_hat.as_ref();
    let (s1_hat, s2_hat, t0_hat) = (
        prep.secrets.s1_hat.as_ref(),
        prep.secrets.s2_hat.as_ref(),
        prep.secrets.t0_hat.as_ref(),
    );

    // Line 7: rho'' = H(K || rnd || mu, 64).
    let mut rho_pp = [0u8; 64];
    Shake256::digest_parts(&[&sk.key, rnd, mu], &mut rho_pp);

    let (mut y_store, mut z_store) = (P::VecL::ZERO, P::VecL::ZERO);
    let (mut w_store, mut w1_store, mut w0_store) = (P::VecK::ZERO, P::VecK::ZERO, P::VecK::ZERO);
    let (mut cs_store, mut h_store) = (P::VecK::ZERO, P::VecK::ZERO);
    let (y, z) = (y_store.as_mut(), z_store.as_mut());
    let (w, w1, w0) = (w_store.as_mut(), w1_store.as_mut(), w0_store.as_mut());
    let (cs, h) = (cs_store.as_mut(), h_store.as_mut());
    let mut c_tilde = [0u8; 64];
    let mut w1_bytes = [0u8; MAX_W1_LEN];
    let mut kappa: u16 = 0;
    let (k, l) = (P::K, P::L);

    loop {
        // Line 11: y = ExpandMask(rho'', kappa).
        expand_mask::<P, B>(&rho_pp, kappa, y);
        kappa = kappa.wrapping_add(l as u16);

        // Line 12: w = NTT^-1(A_hat o NTT(y)).
        z.copy_from_slice(y);
        for p in z.iter_mut() {
            p.ntt::<B>();
        }
        matrix_vector_ntt::<B>(w, a_hat, z);
        for p in w.iter_mut() {
            p.reduce::<B>();
            p.inv_ntt_to_mont::<B>();
            p.caddq::<B>();
        }

        // Lines 13 to 15: w1 = HighBits(w), c_tilde = H(mu || w1Encode(w1), lambda / 4).
        decompose_vec::<P, B>(&w[..k], &mut w1[..k], &mut w0[..k]);
        let w1_len = k * 32 * P::W1_BITS;
        w1_encode::<P, B>(&w1[..k], &mut w1_bytes[..w1_len]);
        Shake256::digest_parts(&[mu, &w1_bytes[..w1_len]], &mut c_tilde[..P::C_TILDE_LEN]);

        // Lines 16 to 18: c = SampleInBall(c_tilde), c_hat = NTT(c).
        let mut c_hat = sample_in_ball::<P>(&c_tilde[..P::C_TILDE_LEN]);
        c_hat.ntt::<B>();

        // Lines 19 to 21: z = y + <<c s1>>, rejected if ||z|| >= gamma1 - beta.
        c_times::<B>(&c_hat, s1_hat, &mut z[..l]);
        let mut reject = false;
        for i in 0..l {
            z[i].add_assign(&y[i]);
            z[i].reduce::<B>();
            reject |= z[i].norm_exceeds::<B>(P::GAMMA1 - P::BETA);
        }
        if reject {
            continue;
        }

        // Lines 20 and 23: r0 = LowBits(w - <<c s2>>) = w0 - c s2 when the high bits do not move,
        // rejected if ||r0|| >= gamma2 - beta.
        c_times::<B>(&c_hat, s2_hat, &mut cs[..k]);
        for i in 0..k {
            w0[i].sub_assign(&cs[i]);
            w0[i].reduce::<B>();
            reject |= w0[i].norm_exceeds::<B>(P::GAMMA2 - P::BETA);
        }
        if reject {
            continue;
        }

        // Lines 25 to 28: <<c t0>>, h = MakeHint(-<<c t0>>, w - <<c s2>> + <<c t0>>), rejected if
        // ||c t0|| >= gamma2 or h has more than omega ones.
        c_times::<B>(&c_hat, t0_hat, &mut cs[..k]);
        for i in 0..k {
            cs[i].reduce::<B>();
            reject |= cs[i].norm_exceeds::<B>(P::GAMMA2);
            w0[i].add_assign(&cs[i]);
        }
        if reject {
            continue;
        }
        if make_hint_vec::<P, B>(&w0[..k], &w1[..k], &mut h[..k]) > P::OMEGA {
            continue;
        }

        // Line 33: sigma = sigEncode(c_tilde, z mod± q, h).
        let mut encoded = P::SigBytes::zeroed();
        sig_encode::<P, B>(
            &c_tilde[..P::C_TILDE_LEN],
            &z[..l],
            &h[..k],
            encoded.as_mut(),
        );
        rho_pp.zeroize();
        y_store.zeroize();
        z_store.zeroize();
        w_store.zeroize();
        w0_store.zeroize();
        w1_store.zeroize();
        cs_store.zeroize();
        return (Signature { encoded }, u32::from(kappa) / l as u32);
    }
}
