//! Verification (FIPS 204, Algorithm 8: ML-DSA.Verify_internal, from line 7 on: mu is given).

use pqlab_arith::array::FixedArray;
use pqlab_keccak::Shake256;
use subtle::ConstantTimeEq;

use crate::backend::{Ops, dispatch};
use crate::encode::{sig_decode, w1_encode};
use crate::keys::{Signature, VerifyingKey};
use crate::params::ParameterSet;
use crate::poly::{Poly, row_times_vector};
use crate::sample::{expand_a, sample_in_ball};

/// Largest w1Encode output over all parameter sets.
const MAX_W1_LEN: usize = 8 * 32 * 6;

/// FIPS 204, Algorithm 8: ML-DSA.Verify_internal with mu = H(tr || M', 64) given.
pub(crate) fn verify_mu<P: ParameterSet>(
    vk: &VerifyingKey<P>,
    mu: &[u8; 64],
    sig: &Signature<P>,
) -> bool {
    dispatch!(B => verify_mu_with::<P, B>(vk, mu, sig))
}

/// [`verify_mu`] on the kernels of `B`.
pub(crate) fn verify_mu_with<P: ParameterSet, B: Ops>(
    vk: &VerifyingKey<P>,
    mu: &[u8; 64],
    sig: &Signature<P>,
) -> bool {
    let sig = sig.encoded.as_ref();
    let (k, l) = (P::K, P::L);

    // Lines 2 to 4: (c_tilde, z, h) = sigDecode(sigma); return false if h = ⊥.
    let (mut z_store, mut h_store) = (P::VecL::ZERO, P::VecK::ZERO);
    let (z, h) = (z_store.as_mut(), h_store.as_mut());
    if !sig_decode::<P, B>(sig, z, h) {
        return false;
    }
    let c_tilde = &sig[..P::C_TILDE_LEN];

    // Line 13 (checked first, it is cheap): ||z|| < gamma1 - beta.
    if z.iter()
        .take(l)
        .any(|p| p.norm_exceeds::<B>(P::GAMMA1 - P::BETA))
    {
        return false;
    }

    // Line 9: c = SampleInBall(c_tilde).
    let mut c_hat = sample_in_ball::<P>(c_tilde);
    c_hat.ntt::<B>();

    // Line 10: w'_approx = NTT^-1(A_hat o NTT(z) - NTT(c) o NTT(t1 * 2^d)), A_hat one entry at a
    // time.
    for p in z.iter_mut().take(l) {
        p.ntt::<B>();
    }
    let mut w1_bytes = [0u8; MAX_W1_LEN];
    let w1_len = 32 * P::W1_BITS;
    let mut a_hat = P::Matrix::ZERO;
    expand_a::<B>(&vk.rho, k, l, a_hat.as_mut());
    for i in 0..k {
        let mut w = Poly::ZERO;
        row_times_vector::<B>(&mut w, &a_hat.as_ref()[i * l..(i + 1) * l], z);
        let ct1 = Poly::pointwise::<B>(&c_hat, &vk.t1_hat.as_ref()[i]);
        w.sub_assign(&ct1);
        w.reduce::<B>();
        w.inv_ntt_to_mont::<B>();
        w.caddq::<B>();

        // Line 11: w1' = UseHint(h, w'_approx).
        B::use_hint(P::GAMMA2, &h[i].0, &mut w.0);
        w1_encode::<P, B>(
            core::slice::from_ref(&w),
            &mut w1_bytes[i * w1_len..(i + 1) * w1_len],
        );
    }

    // Lines 12 and 13: c_tilde' = H(mu || w1Encode(w1'), lambda / 4); compare.
    let mut c_tilde_prime = [0u8; 64];
    Shake256::digest_parts(
        &[mu, &w1_bytes[..k * w1_len]],
        &mut c_tilde_prime[..P::C_TILDE_LEN],
    );
    bool::from(c_tilde.ct_eq(&c_tilde_prime[..P::C_TILDE_LEN]))
}
