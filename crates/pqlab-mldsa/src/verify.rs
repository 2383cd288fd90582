//! Verification (FIPS 204, Algorithm 8: ML-DSA.Verify_internal, from line 7 on: mu is given).

#[cfg(not(feature = "small-memory"))]
use pqlab_arith::array::FixedArray;
use pqlab_keccak::Shake256;
use subtle::ConstantTimeEq;

use crate::backend::{Ops, dispatch};
use crate::encode::{hint_bit_unpack_row, hint_tail_is_zero, t1_hat_row};
use crate::keys::VerifyingKey;
use crate::params::ParameterSet;
use crate::poly::{Columns, Poly, matrix_rows};
use crate::sample::sample_in_ball;

/// Where verification finds NTT(t1 * 2^d) (FIPS 204, Algorithm 8 line 10): in a decoded key,
/// which computed it once, or row by row from the public key's encoding (no vector held).
#[derive(Clone, Copy)]
pub(crate) enum T1<'a> {
    /// NTT(t1\[i\] * 2^d) for every row, precomputed.
    Hat(&'a [Poly]),
    /// pk = pkEncode(rho, t1) (FIPS 204, Algorithm 22), t1 unpacked and transformed per row
    /// (under `small-memory`, `verify_encoded` takes its own path instead).
    #[cfg_attr(feature = "small-memory", allow(dead_code))]
    Encoded(&'a [u8]),
}

/// FIPS 204, Algorithm 8: ML-DSA.Verify_internal with mu = H(tr || M', 64) given.
/// `sig` is sigEncode's output (`P::SIG_LEN` bytes), decoded where it is read.
pub(crate) fn verify_mu<P: ParameterSet>(vk: &VerifyingKey<P>, mu: &[u8; 64], sig: &[u8]) -> bool {
    let t1 = T1::Hat(vk.t1_hat.as_ref());
    dispatch!(B => verify_mu_with::<P, B>(&vk.rho, t1, mu, sig))
}

/// [`verify_mu`] on the kernels of `B`, with rho, t1 from `t1` and the encoded signature
/// `sig` (of the parameter set's length). w'_approx is built row by row (A_hat streamed by
/// [`matrix_rows`]), each row's hint decoded, applied and w1Encode'd into the hash as the row
/// is done: no matrix, no vector of w or h.
pub(crate) fn verify_mu_with<P: ParameterSet, B: Ops>(
    rho: &[u8; 32],
    t1: T1<'_>,
    mu: &[u8; 64],
    sig: &[u8],
) -> bool {
    // Lines 2 to 4: (c_tilde, z, h) = sigDecode(sigma) (Algorithm 27), z and h decoded where
    // they are used.
    let (c_tilde, rest) = sig.split_at(P::C_TILDE_LEN);
    let z_len = 32 * P::GAMMA1_BITS;
    let (z_packed, h_packed) = rest.split_at(P::L * z_len);

    // Line 13 (checked first, it is cheap): ||z|| < gamma1 - beta; NTT(z) kept when it is.
    // The storage of NTT(z): l polynomials, or (under `small-memory`) one, each column being
    // unpacked from the signature and transformed where it is used.
    #[cfg(not(feature = "small-memory"))]
    let mut z_hat = P::VecL::ZERO;
    #[cfg(feature = "small-memory")]
    let mut z_hat = [Poly::ZERO; 1];
    let z_store = z_hat.as_mut();
    let n = z_store.len();
    for (j, chunk) in z_packed.chunks_exact(z_len).enumerate() {
        let p = &mut z_store[j % n];
        B::bit_unpack(chunk, P::GAMMA1_BITS, P::GAMMA1, &mut p.0);
        if p.norm_exceeds::<B>(P::GAMMA1 - P::BETA) {
            return false;
        }
        if n == P::L {
            p.ntt::<B>();
        }
    }
    let columns = if n == P::L {
        Columns::Ntt(z_hat.as_ref())
    } else {
        Columns::Packed {
            bytes: z_packed,
            bits: P::GAMMA1_BITS,
            b: P::GAMMA1,
        }
    };

    // Line 9: c = SampleInBall(c_tilde).
    let mut c_hat = sample_in_ball::<P>(c_tilde);
    c_hat.ntt::<B>();

    // Lines 10 to 12: w'_approx = NTT^-1(A_hat o NTT(z) - NTT(c) o NTT(t1 * 2^d)),
    // w1' = UseHint(h, w'_approx), c_tilde' = H(mu || w1Encode(w1'), lambda / 4), row by row.
    let mut h = Shake256::new();
    h.absorb(mu);
    let (mut h_i, mut ct1) = (Poly::ZERO, Poly::ZERO);
    let mut w1_bytes = [0u8; 32 * 6];
    let w1_len = 32 * P::W1_BITS;
    let mut hint_ok = true;
    matrix_rows::<B>(rho, P::K, P::L, &columns, |i, w| {
        // NTT(c) o NTT(t1[i] * 2^d); h_i is the scratch of the row of t1 before the hint's.
        let t1_i = match t1 {
            T1::Hat(t1_hat) => &t1_hat[i],
            T1::Encoded(pk) => {
                t1_hat_row::<B>(pk, i, &mut h_i);
                &h_i
            }
        };
        B::pointwise(&mut ct1.0, &c_hat.0, &t1_i.0);
        w.sub_assign(&ct1);
        w.reduce::<B>();
        w.inv_ntt_to_mont::<B>();
        w.caddq::<B>();
        hint_ok &= hint_bit_unpack_row::<P>(h_packed, i, &mut h_i);
        B::use_hint(P::GAMMA2, &h_i.0, &mut w.0);
        B::simple_bit_pack(&w.0, P::W1_BITS, &mut w1_bytes[..w1_len]);
        h.absorb(&w1_bytes[..w1_len]);
    });
    // Line 4: h = ⊥ (a malformed hint) fails.
    if !(hint_ok && hint_tail_is_zero::<P>(h_packed)) {
        return false;
    }
    let mut c_tilde_prime = [0u8; 64];
    h.finalize().squeeze(&mut c_tilde_prime[..P::C_TILDE_LEN]);
    bool::from(c_tilde.ct_eq(&c_tilde_prime[..P::C_TILDE_LEN]))
}
