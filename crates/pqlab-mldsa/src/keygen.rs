//! Key generation (FIPS 204, Algorithm 6: ML-DSA.KeyGen_internal).

#[cfg(not(feature = "small-memory"))]
use pqlab_arith::array::FixedArray;
use pqlab_keccak::Shake256;
use zeroize::Zeroize;

use crate::backend::{Ops, dispatch};
use crate::encode::{pk_decode, verifying_key_from_encoded};
use crate::keys::{SigningKey, VerifyingKey};
use crate::params::{ByteArray, D, ParameterSet};
use crate::poly::Poly;
#[cfg(not(feature = "small-memory"))]
use crate::poly::{Columns, matrix_rows};
use crate::sample::expand_s_each;

/// FIPS 204, Algorithm 6 lines 5 and 6, row by row: t = NTT^-1(A_hat o NTT(s1)) + s2 and
/// (t1, t0) = Power2Round(t), from the packed s1 || s2 (`s_packed`, as skEncode lays them out).
/// Each row of t is finished as soon as its inner product is (A_hat streamed by
/// [`matrix_rows`]): t1\[r\] goes straight into its place in the pkEncode output `pk`
/// (Algorithm 22) and t0\[r\] into its place in the skEncode output `t0_out` (Algorithm 24)
/// when one is given. No vector of t, t1 or t0 is held; NTT(s1) is held whole.
#[cfg(not(feature = "small-memory"))]
fn t_rows<P: ParameterSet, B: Ops>(
    rho: &[u8; 32],
    s_packed: &[u8],
    pk: &mut [u8],
    mut t0_out: Option<&mut [u8]>,
) {
    let eta_len = 32 * P::ETA_BITS;
    let eta = P::ETA as i32;
    let (s1_packed, s2_packed) = s_packed.split_at(P::L * eta_len);
    let mut s1_hat = P::VecL::ZERO;
    for (p, chunk) in s1_hat
        .as_mut()
        .iter_mut()
        .zip(s1_packed.chunks_exact(eta_len))
    {
        B::bit_unpack(chunk, P::ETA_BITS, eta, &mut p.0);
        p.ntt::<B>();
    }
    let columns = Columns::Ntt(s1_hat.as_ref());
    let (mut t1, mut t0) = (Poly::ZERO, Poly::ZERO);
    matrix_rows::<B>(rho, P::K, P::L, &columns, |r, t| {
        t.reduce::<B>();
        t.inv_ntt_to_mont::<B>();
        // s2[r], unpacked into t1 for the moment.
        B::bit_unpack(
            &s2_packed[r * eta_len..(r + 1) * eta_len],
            P::ETA_BITS,
            eta,
            &mut t1.0,
        );
        t.add_assign(&t1);
        t.reduce::<B>();
        t.caddq::<B>();
        B::power2round(&t.0, &mut t1.0, &mut t0.0);
        pack_row::<B>(r, &t1, &t0, pk, t0_out.as_deref_mut());
    });
    t1.zeroize();
    t0.zeroize();
    s1_hat.zeroize();
}

/// FIPS 204, Algorithm 6 lines 6 to 8, one row r: t1\[r\] packed into pk (pkEncode,
/// Algorithm 22) and, if asked for, t0\[r\] into `t0_out` (skEncode's t0 part, Algorithm 24).
fn pack_row<B: Ops>(r: usize, t1: &Poly, t0: &Poly, pk: &mut [u8], t0_out: Option<&mut [u8]>) {
    B::simple_bit_pack(&t1.0, 10, &mut pk[32 + 320 * r..32 + 320 * (r + 1)]);
    if let Some(out) = t0_out {
        let len = 32 * D as usize;
        B::bit_pack(
            &t0.0,
            D as usize,
            1 << (D - 1),
            &mut out[r * len..(r + 1) * len],
        );
    }
}

/// FIPS 204, Algorithm 6 lines 5 and 6 in small memory (after Greconici, Kannwischer and
/// Sprenkels): the same rows as the default [`t_rows`], with two polynomials in all. For each
/// row r, column s: s1\[s\] is unpacked from `s_packed` and transformed, and
/// A_hat\[r\]\[s\] o NTT(s1\[s\]) is accumulated coefficient by coefficient as the entry
/// is sampled ([`entry_times_column`]: the entry is never held); then NTT^-1, + s2\[r\]
/// (unpacked into the column's place), and Power2Round in place (t0 over t, t1 into the
/// column), packed into `pk` and `t0_out`. Secrets (s1, s2, t0) are only multiplied, added
/// and shifted; every index and branch is public. Both scratch polynomials are wiped.
#[cfg(feature = "small-memory")]
fn t_rows<P: ParameterSet, B: Ops>(
    rho: &[u8; 32],
    s_packed: &[u8],
    pk: &mut [u8],
    mut t0_out: Option<&mut [u8]>,
) {
    use crate::poly::entry_times_column;
    use crate::rounding::power2round;
    let eta_len = 32 * P::ETA_BITS;
    let eta = P::ETA as i32;
    let (s1_packed, s2_packed) = s_packed.split_at(P::L * eta_len);
    let (mut t, mut col) = (Poly::ZERO, Poly::ZERO);
    for r in 0..P::K {
        for (s, chunk) in s1_packed.chunks_exact(eta_len).enumerate() {
            B::bit_unpack(chunk, P::ETA_BITS, eta, &mut col.0);
            col.ntt::<B>();
            entry_times_column(rho, r, s, &col, &mut t);
        }
        t.reduce::<B>();
        t.inv_ntt_to_mont::<B>();
        B::bit_unpack(
            &s2_packed[r * eta_len..(r + 1) * eta_len],
            P::ETA_BITS,
            eta,
            &mut col.0,
        );
        t.add_assign(&col);
        t.reduce::<B>();
        t.caddq::<B>();
        for (x, t1) in t.0.iter_mut().zip(col.0.iter_mut()) {
            (*t1, *x) = power2round(*x);
        }
        pack_row::<B>(r, &col, &t, pk, t0_out.as_deref_mut());
    }
    t.zeroize();
    col.zeroize();
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
    dispatch!(B => key_gen_into::<P, B>(xi, &mut sk, &mut pk));
    (pk, sk)
}

/// FIPS 204, Algorithm 6: ML-DSA.KeyGen_internal(xi), returning both keys decoded (the public
/// key from the pk and tr of key generation: nothing is hashed twice).
pub(crate) fn key_pair_internal<P: ParameterSet>(
    xi: &[u8; 32],
) -> (VerifyingKey<P>, SigningKey<P>) {
    let mut sk = SigningKey::empty();
    let mut pk = P::PkBytes::zeroed();
    let vk = dispatch!(B => {
        key_gen_into::<P, B>(xi, &mut sk, &mut pk);
        verifying_key_from_encoded::<P, B>(&pk, sk.tr)
    });
    (vk, sk)
}

/// FIPS 204, Algorithm 6 on the kernels of `B`, into `sk` (a [`SigningKey::empty`] key) and
/// `pk` (pkEncode): the keys are built where they stay, not moved, and the secret vectors go
/// straight into their packed places in the skEncode encoding (Algorithm 24) that the key
/// keeps.
pub(crate) fn key_gen_into<P: ParameterSet, B: Ops>(
    xi: &[u8; 32],
    sk: &mut SigningKey<P>,
    pk: &mut P::PkBytes,
) {
    key_gen_bytes::<P, B>(xi, pk.as_mut(), sk.encoded.as_mut());
    let enc = sk.encoded.as_ref();
    sk.rho.copy_from_slice(&enc[..32]);
    sk.key.copy_from_slice(&enc[32..64]);
    sk.tr.copy_from_slice(&enc[64..128]);
    sk.seed = Some(*xi);
}

/// FIPS 204, Algorithm 6 on the kernels of `B`, into the encodings themselves: `pk` (pkEncode,
/// Algorithm 22, P::PK_LEN bytes) and `sk` (skEncode, Algorithm 24, P::SK_LEN bytes), as
/// PQClean's crypto_sign_keypair. s1 and s2 go straight into their packed places in `sk`
/// (and are unpacked from there where they are used), t1 and t0 row by row into theirs, and
/// tr = H(pk, 64) is hashed from `pk` at the end: no vector is held beyond what [`t_rows`]
/// holds. One frame per back end (never inlined into the dispatch).
#[inline(never)]
pub(crate) fn key_gen_bytes<P: ParameterSet, B: Ops>(xi: &[u8; 32], pk: &mut [u8], sk: &mut [u8]) {
    // (rho, rho', K) = H(xi || IntegerToBytes(k, 1) || IntegerToBytes(l, 1), 128): rho and K
    // straight into sk, rho' kept for ExpandS.
    let mut rho_prime = [0u8; 64];
    {
        let mut reader = Shake256::reader_of_parts(&[xi, &[P::K as u8, P::L as u8]]);
        reader.squeeze(&mut sk[..32]);
        reader.squeeze(&mut rho_prime);
        reader.squeeze(&mut sk[32..64]);
    }

    // Line 4: (s1, s2) = ExpandS(rho'), packed as skEncode packs them.
    let eta_len = 32 * P::ETA_BITS;
    let (head, rest) = sk.split_at_mut(128);
    let (s_part, t0_part) = rest.split_at_mut((P::L + P::K) * eta_len);
    expand_s_each::<P, B>(&rho_prime, |r, p| {
        B::bit_pack(
            &p.0,
            P::ETA_BITS,
            P::ETA as i32,
            &mut s_part[r * eta_len..(r + 1) * eta_len],
        );
    });
    rho_prime.zeroize();

    // Lines 5 to 8: t, (t1, t0), pk = pkEncode(rho, t1).
    pk[..32].copy_from_slice(&head[..32]);
    let mut rho = [0u8; 32];
    rho.copy_from_slice(&head[..32]);
    t_rows::<P, B>(
        &rho,
        s_part,
        pk,
        Some(&mut t0_part[..P::K * 32 * D as usize]),
    );

    // Line 9: tr = H(pk, 64).
    Shake256::digest_parts(&[pk], &mut head[64..128]);
}

/// The public key of a secret key: recomputes t from (rho, s1, s2) as key generation does and
/// keeps its high part (FIPS 204, Algorithm 6 lines 5 to 8).
pub(crate) fn verifying_key_from_secret<P: ParameterSet>(sk: &SigningKey<P>) -> VerifyingKey<P> {
    dispatch!(B => verifying_key_from_secret_with::<P, B>(sk))
}

/// [`verifying_key_from_secret`] on the kernels of `B`.
fn verifying_key_from_secret_with<P: ParameterSet, B: Ops>(sk: &SigningKey<P>) -> VerifyingKey<P> {
    let mut pk = P::PkBytes::zeroed();
    pk.as_mut()[..32].copy_from_slice(&sk.rho);
    t_rows::<P, B>(&sk.rho, sk.s_packed(), pk.as_mut(), None);
    pk_decode::<P, B>(pk.as_ref())
}
