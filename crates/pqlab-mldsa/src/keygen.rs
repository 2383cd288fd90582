//! Key generation (FIPS 204, Algorithm 6: ML-DSA.KeyGen_internal).

use pqlab_arith::array::FixedArray;
use pqlab_keccak::Shake256;
use zeroize::Zeroize;

use crate::backend::{Ops, dispatch};
use crate::encode::{
    hash_public_key, pk_encode, verifying_key_from_encoded, verifying_key_from_parts,
};
use crate::keys::{SigningKey, VerifyingKey};
use crate::params::{ByteArray, ParameterSet};
use crate::poly::{Poly, row_times_vector};
use crate::sample::{expand_a_each, expand_s};

/// t = NTT^-1(A_hat o NTT(s1)) + s2 (FIPS 204, Algorithm 6 line 5), with t in [0, q). A_hat is
/// streamed ([`expand_a_each`]): the entries of a row are gathered as their lane batches are
/// sampled and the row's inner product (Algorithm 48, one reduction per coefficient) is taken
/// when the row is complete, so one batch of entries and one row (at most 8 + 7 polynomials)
/// are held, never the whole matrix (up to 56 KiB).
fn compute_t<P: ParameterSet, B: Ops>(rho: &[u8; 32], s1: &[Poly], s2: &[Poly], t: &mut [Poly]) {
    let mut s1_hat = P::VecL::ZERO;
    let s1_hat_p = s1_hat.as_mut();
    s1_hat_p.copy_from_slice(s1);
    for p in s1_hat_p.iter_mut() {
        p.ntt::<B>();
    }
    let mut row = P::VecL::ZERO;
    let row_p = row.as_mut();
    expand_a_each::<B>(rho, P::K, P::L, |r, s, a| {
        row_p[s] = *a;
        if s + 1 == P::L {
            row_times_vector::<B>(&mut t[r], row_p, s1_hat_p);
        }
    });
    for (ti, s2i) in t.iter_mut().zip(s2) {
        ti.reduce::<B>();
        ti.inv_ntt_to_mont::<B>();
        ti.add_assign(s2i);
        ti.reduce::<B>();
        ti.caddq::<B>();
    }
    s1_hat.zeroize();
}

/// Splits t into (t1, t0) with Power2Round (FIPS 204, Algorithm 6 line 6).
fn power2round_vec<P: ParameterSet, B: Ops>(t: &[Poly], t1: &mut [Poly], t0: &mut [Poly]) {
    for i in 0..P::K {
        B::power2round(&t[i].0, &mut t1[i].0, &mut t0[i].0);
    }
}

/// FIPS 204, Algorithm 6: ML-DSA.KeyGen_internal(xi), returning the decoded sk.
pub(crate) fn key_gen_internal<P: ParameterSet>(xi: &[u8; 32]) -> SigningKey<P> {
    key_gen_encoded::<P>(xi).1
}

/// FIPS 204, Algorithm 6: ML-DSA.KeyGen_internal(xi), returning the encoded pk and the
/// decoded sk, as the algorithm outputs them.
pub(crate) fn key_gen_encoded<P: ParameterSet>(xi: &[u8; 32]) -> (P::PkBytes, SigningKey<P>) {
    let mut sk = SigningKey::empty();
    let mut pk = P::PkBytes::zeroed();
    let mut t1 = P::VecK::ZERO;
    dispatch!(B => key_gen_into::<P, B>(xi, &mut sk, &mut pk, t1.as_mut()));
    (pk, sk)
}

/// FIPS 204, Algorithm 6: ML-DSA.KeyGen_internal(xi), returning both keys decoded (the public
/// key from the t1 and tr of key generation: nothing is decoded or hashed twice).
pub(crate) fn key_pair_internal<P: ParameterSet>(
    xi: &[u8; 32],
) -> (VerifyingKey<P>, SigningKey<P>) {
    let mut sk = SigningKey::empty();
    let mut pk = P::PkBytes::zeroed();
    let mut t1 = P::VecK::ZERO;
    let vk = dispatch!(B => {
        key_gen_into::<P, B>(xi, &mut sk, &mut pk, t1.as_mut());
        verifying_key_from_encoded::<P, B>(pk, &sk.rho, t1.as_ref(), sk.tr)
    });
    (vk, sk)
}

/// FIPS 204, Algorithm 6 on the kernels of `B`, into `sk` (a [`SigningKey::empty`] key), `pk`
/// (the encoding) and `t1`: the keys are built where they stay, not moved.
pub(crate) fn key_gen_into<P: ParameterSet, B: Ops>(
    xi: &[u8; 32],
    sk: &mut SigningKey<P>,
    pk: &mut P::PkBytes,
    t1: &mut [Poly],
) {
    // (rho, rho', K) = H(xi || IntegerToBytes(k, 1) || IntegerToBytes(l, 1), 128)
    let mut expanded = [0u8; 128];
    Shake256::digest_parts(&[xi, &[P::K as u8, P::L as u8]], &mut expanded);
    let mut rho_prime = [0u8; 64];
    sk.rho.copy_from_slice(&expanded[..32]);
    rho_prime.copy_from_slice(&expanded[32..96]);
    sk.key.copy_from_slice(&expanded[96..]);
    expanded.zeroize();

    expand_s::<P, B>(&rho_prime, sk.s1.as_mut(), sk.s2.as_mut());
    rho_prime.zeroize();

    let mut t = P::VecK::ZERO;
    compute_t::<P, B>(&sk.rho, sk.s1.as_ref(), sk.s2.as_ref(), t.as_mut());
    power2round_vec::<P, B>(t.as_ref(), t1, sk.t0.as_mut());
    t.zeroize();

    pk_encode::<P, B>(&sk.rho, t1, pk.as_mut());
    sk.tr = hash_public_key(pk.as_ref());
    sk.seed = Some(*xi);
}

/// The public key of a secret key: recomputes t from (rho, s1, s2) as key generation does and
/// keeps its high part (FIPS 204, Algorithm 6 lines 5 to 8).
pub(crate) fn verifying_key_from_secret<P: ParameterSet>(sk: &SigningKey<P>) -> VerifyingKey<P> {
    dispatch!(B => verifying_key_from_secret_with::<P, B>(sk))
}

/// [`verifying_key_from_secret`] on the kernels of `B`.
fn verifying_key_from_secret_with<P: ParameterSet, B: Ops>(sk: &SigningKey<P>) -> VerifyingKey<P> {
    let mut t = P::VecK::ZERO;
    compute_t::<P, B>(&sk.rho, sk.s1.as_ref(), sk.s2.as_ref(), t.as_mut());
    let (mut t1, mut t0) = (P::VecK::ZERO, P::VecK::ZERO);
    power2round_vec::<P, B>(t.as_ref(), t1.as_mut(), t0.as_mut());
    t.zeroize();
    t0.zeroize();
    verifying_key_from_parts::<P, B>(&sk.rho, t1.as_ref())
}
