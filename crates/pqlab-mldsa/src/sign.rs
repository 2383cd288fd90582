//! Signing (FIPS 204, Algorithm 7: ML-DSA.Sign_internal, from line 7 on: mu is given).

use pqlab_keccak::Shake256;
use zeroize::Zeroize;

use crate::backend::{Ops, dispatch};
use crate::encode::{sig_encode, w1_encode};
use crate::keys::{Signature, SigningKey};
use crate::params::{ByteArray, MAX_K, MAX_L, ParameterSet};
use crate::poly::{Poly, matrix_vector_ntt};
use crate::sample::{expand_a, expand_mask, sample_in_ball};

/// The NTT-domain secrets of a signing key (one call's, or an expanded key's), zeroized on drop.
#[derive(Zeroize)]
#[zeroize(drop)]
struct SecretsHat {
    s1_hat: [Poly; MAX_L],
    s2_hat: [Poly; MAX_K],
    t0_hat: [Poly; MAX_K],
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
/// and t0 and A_hat = ExpandA(rho), on the kernels of one back end. The secrets are zeroized
/// on drop; A_hat is public.
pub(crate) struct Prepared {
    a_hat: [[Poly; MAX_L]; MAX_K],
    secrets: SecretsHat,
}

impl Prepared {
    /// Lines 2 to 5 for `sk` on the kernels of `B`, into `self`.
    fn prepare<P: ParameterSet, B: Ops>(&mut self, sk: &SigningKey<P>) {
        let st = &mut self.secrets;
        st.s1_hat = sk.s1;
        st.s2_hat = sk.s2;
        st.t0_hat = sk.t0;
        for p in st.s1_hat.iter_mut().take(P::L) {
            p.ntt::<B>();
        }
        for i in 0..P::K {
            st.s2_hat[i].ntt::<B>();
            st.t0_hat[i].ntt::<B>();
        }
        expand_a::<B>(&sk.rho, P::K, P::L, &mut self.a_hat);
    }

    /// All zero, to be filled in place by [`Prepared::prepare`] (the value is 80 KiB).
    fn empty() -> Self {
        Self {
            a_hat: [[Poly::ZERO; MAX_L]; MAX_K],
            secrets: SecretsHat {
                s1_hat: [Poly::ZERO; MAX_L],
                s2_hat: [Poly::ZERO; MAX_K],
                t0_hat: [Poly::ZERO; MAX_K],
            },
        }
    }

    /// The prepared form of `sk` on the kernels of `B`.
    pub(crate) fn new<P: ParameterSet, B: Ops>(sk: &SigningKey<P>) -> Self {
        let mut prepared = Self::empty();
        prepared.prepare::<P, B>(sk);
        prepared
    }
}

/// [`sign_mu`] on the kernels of `B`.
pub(crate) fn sign_mu_with<P: ParameterSet, B: Ops>(
    sk: &SigningKey<P>,
    mu: &[u8; 64],
    rnd: &[u8; 32],
) -> (Signature<P>, u32) {
    // Filled where it lies, not returned by value: one 80 KiB value on the stack, not two.
    let mut prep = Prepared::empty();
    prep.prepare::<P, B>(sk);
    sign_prepared::<P, B>(sk, &prep, mu, rnd)
}

/// FIPS 204, Algorithm 7 from line 7 on, with lines 2 to 5 done beforehand (`prep`, made by
/// [`Prepared::new`] from `sk` on the same back end `B`).
pub(crate) fn sign_prepared<P: ParameterSet, B: Ops>(
    sk: &SigningKey<P>,
    prep: &Prepared,
    mu: &[u8; 64],
    rnd: &[u8; 32],
) -> (Signature<P>, u32) {
    let (a_hat, st) = (&prep.a_hat, &prep.secrets);

    // Line 7: rho'' = H(K || rnd || mu, 64).
    let mut rho_pp = [0u8; 64];
    Shake256::digest_parts(&[&sk.key, rnd, mu], &mut rho_pp);

    let mut y = [Poly::ZERO; MAX_L];
    let mut z = [Poly::ZERO; MAX_L];
    let mut w = [Poly::ZERO; MAX_K];
    let mut w1 = [Poly::ZERO; MAX_K];
    let mut w0 = [Poly::ZERO; MAX_K];
    let mut cs = [Poly::ZERO; MAX_K];
    let mut h = [Poly::ZERO; MAX_K];
    let mut c_tilde = [0u8; 64];
    let mut w1_bytes = [0u8; MAX_W1_LEN];
    let mut kappa: u16 = 0;
    let (k, l) = (P::K, P::L);

    loop {
        // Line 11: y = ExpandMask(rho'', kappa).
        expand_mask::<P, B>(&rho_pp, kappa, &mut y);
        kappa = kappa.wrapping_add(l as u16);

        // Line 12: w = NTT^-1(A_hat o NTT(y)).
        z[..l].copy_from_slice(&y[..l]);
        for p in z.iter_mut().take(l) {
            p.ntt::<B>();
        }
        matrix_vector_ntt::<B>(&mut w[..k], &a_hat[..k], &z[..l]);
        for p in w.iter_mut().take(k) {
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
        c_times::<B>(&c_hat, &st.s1_hat[..l], &mut z[..l]);
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
        c_times::<B>(&c_hat, &st.s2_hat[..k], &mut cs[..k]);
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
        c_times::<B>(&c_hat, &st.t0_hat[..k], &mut cs[..k]);
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
        y.zeroize();
        z.zeroize();
        w.zeroize();
        w0.zeroize();
        w1.zeroize();
        cs.zeroize();
        return (Signature { encoded }, u32::from(kappa) / l as u32);
    }
}
