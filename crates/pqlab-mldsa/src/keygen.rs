//! Key generation (FIPS 204, Algorithm 6: ML-DSA.KeyGen_internal).

use core::marker::PhantomData;

use pqlab_keccak::Shake256;
use zeroize::Zeroize;

use crate::backend::{Ops, dispatch};
use crate::encode::{
    hash_public_key, pk_encode, verifying_key_from_encoded, verifying_key_from_parts,
};
use crate::keys::{SigningKey, VerifyingKey};
use crate::params::{ByteArray, MAX_K, MAX_L, ParameterSet};
use crate::poly::{Poly, row_times_vector};
use crate::sample::{expand_a, expand_s};

/// t = NTT^-1(A_hat o NTT(s1)) + s2 (FIPS 204, Algorithm 6 line 5), with t in [0, q). The matrix
/// is sampled one entry at a time, so only one polynomial of A_hat is ever held.
fn compute_t<P: ParameterSet, B: Ops>(
    rho: &[u8; 32],
    s1: &[Poly; MAX_L],
    s2: &[Poly; MAX_K],
) -> [Poly; MAX_K] {
    let mut s1_hat = *s1;
    for p in s1_hat.iter_mut().take(P::L) {
        p.ntt::<B>();
    }
    let mut t = [Poly::ZERO; MAX_K];
    let mut a_hat = [[Poly::ZERO; MAX_L]; MAX_K];
    expand_a::<B>(rho, P::K, P::L, &mut a_hat);
    for (i, ti) in t.iter_mut().enumerate().take(P::K) {
        row_times_vector::<B>(ti, &a_hat[i][..P::L], &s1_hat[..P::L]);
        ti.reduce::<B>();
        ti.inv_ntt_to_mont::<B>();
        ti.add_assign(&s2[i]);
        ti.reduce::<B>();
        ti.caddq::<B>();
    }
    s1_hat.zeroize();
    t
}

/// Splits t into (t1, t0) with Power2Round (FIPS 204, Algorithm 6 line 6).
fn power2round_vec<P: ParameterSet, B: Ops>(t: &[Poly; MAX_K]) -> ([Poly; MAX_K], [Poly; MAX_K]) {
    let mut t1 = [Poly::ZERO; MAX_K];
    let mut t0 = [Poly::ZERO; MAX_K];
    for i in 0..P::K {
        B::power2round(&t[i].0, &mut t1[i].0, &mut t0[i].0);
    }
    (t1, t0)
}

/// FIPS 204, Algorithm 6: ML-DSA.KeyGen_internal(xi), returning the decoded sk.
pub(crate) fn key_gen_internal<P: ParameterSet>(xi: &[u8; 32]) -> SigningKey<P> {
    dispatch!(B => key_gen_internal_with::<P, B>(xi).2)
}

/// FIPS 204, Algorithm 6: ML-DSA.KeyGen_internal(xi), returning both keys decoded (the public
/// key from the t1 and tr of key generation: nothing is decoded or hashed twice).
pub(crate) fn key_pair_internal<P: ParameterSet>(
    xi: &[u8; 32],
) -> (VerifyingKey<P>, SigningKey<P>) {
    dispatch!(B => {
        let (pk, t1, sk) = key_gen_internal_with::<P, B>(xi);
        (verifying_key_from_encoded::<P, B>(pk, &sk.rho, &t1, sk.tr), sk)
    })
}

/// FIPS 204, Algorithm 6 on the kernels of `B`: the encoded pk, t1 and the decoded sk.
pub(crate) fn key_gen_internal_with<P: ParameterSet, B: Ops>(
    xi: &[u8; 32],
) -> (P::PkBytes, [Poly; MAX_K], SigningKey<P>) {
    // (rho, rho', K) = H(xi || IntegerToBytes(k, 1) || IntegerToBytes(l, 1), 128)
    let mut expanded = [0u8; 128];
    Shake256::digest_parts(&[xi, &[P::K as u8, P::L as u8]], &mut expanded);
    let mut rho = [0u8; 32];
    let mut rho_prime = [0u8; 64];
    let mut key = [0u8; 32];
    rho.copy_from_slice(&expanded[..32]);
    rho_prime.copy_from_slice(&expanded[32..96]);
    key.copy_from_slice(&expanded[96..]);
    expanded.zeroize();

    let mut s1 = [Poly::ZERO; MAX_L];
    let mut s2 = [Poly::ZERO; MAX_K];
    expand_s::<P, B>(&rho_prime, &mut s1, &mut s2);
    rho_prime.zeroize();

    let mut t = compute_t::<P, B>(&rho, &s1, &s2);
    let (t1, t0) = power2round_vec::<P, B>(&t);
    t.zeroize();

    let mut pk = P::PkBytes::zeroed();
    pk_encode::<P, B>(&rho, &t1, pk.as_mut());
    let sk = SigningKey {
        rho,
        key,
        tr: hash_public_key(pk.as_ref()),
        s1,
        s2,
        t0,
        seed: Some(*xi),
        _params: PhantomData,
    };
    key.zeroize();
    s1.zeroize();
    s2.zeroize();
    (pk, t1, sk)
}

/// The public key of a secret key: recomputes t from (rho, s1, s2) as key generation does and
/// keeps its high part (FIPS 204, Algorithm 6 lines 5 to 8).
pub(crate) fn verifying_key_from_secret<P: ParameterSet>(sk: &SigningKey<P>) -> VerifyingKey<P> {
    dispatch!(B => verifying_key_from_secret_with::<P, B>(sk))
}

/// [`verifying_key_from_secret`] on the kernels of `B`.
fn verifying_key_from_secret_with<P: ParameterSet, B: Ops>(sk: &SigningKey<P>) -> VerifyingKey<P> {
    let mut t = compute_t::<P, B>(&sk.rho, &sk.s1, &sk.s2);
    let (t1, mut t0) = power2round_vec::<P, B>(&t);
    t.zeroize();
    t0.zeroize();
    verifying_key_from_parts::<P, B>(&sk.rho, &t1)
}
