//! K-PKE (FIPS 203, Section 5: Algorithms 13, 14 and 15) in small memory, the K-PKE of the
//! `small-memory` feature (after Botros, Kannwischer and Schwabe, "Memory-efficient
//! high-speed implementation of Kyber on Cortex-M4", AFRICACRYPT 2019, and pqm4's stack
//! variants): each entry of A_hat is sampled when it is needed, one SHAKE128 stream at a time,
//! and multiplied into the one polynomial it contributes to; each noise polynomial is sampled
//! when it is needed; ciphertext chunks are compressed and handed on one polynomial at a time,
//! so that decapsulation compares the re-encryption with the ciphertext without holding it.
//! Outputs are byte for byte those of the default K-PKE (`kpke.rs`, tested against it); the
//! kernels, sampling and encodings are the same.
//!
//! Working memory: the k polynomials y_hat of encryption, plus three polynomials and one
//! Keccak state with its block.

use pqlab_arith::array::FixedArray;
use pqlab_arith::mlkem::{GAMMAS, base_case_multiply, montgomery_reduce};
use pqlab_arith::wipe::wipe;
use pqlab_keccak::{Shake128, Shake256};
use subtle::{Choice, ConstantTimeEq};
use zeroize::Zeroize;

use super::PkeEncryptionKey;
use crate::backend::Ops;
use crate::hash::g;
use crate::params::{N, ParameterSet};
use crate::poly::{Poly, inner_product_ntt};

/// acc += f_hat x_T g_hat * 2^-16 (FIPS 203, Algorithm 11 with Algorithm 12, Montgomery
/// reduction per product), in place. Inputs of absolute value at most q; after j products on
/// a zero accumulator, |acc| <= j q (at most 4 q for a sum of k terms).
fn multiply_ntts_acc(acc: &mut Poly, f: &Poly, g: &Poly) {
    for (i, ((ac, fc), gc)) in acc
        .0
        .chunks_exact_mut(2)
        .zip(f.0.chunks_exact(2))
        .zip(g.0.chunks_exact(2))
        .enumerate()
    {
        let (c0, c1) = base_case_multiply(fc[0], fc[1], gc[0], gc[1], GAMMAS[i]);
        ac[0] += montgomery_reduce(c0);
        ac[1] += montgomery_reduce(c1);
    }
}

/// FIPS 203, Algorithm 7: SampleNTT(rho || j || i) into `a`, one SHAKE128 stream (public data:
/// the rejection branches leak nothing secret).
pub(crate) fn sample_ntt<B: Ops>(rho: &[u8; 32], j: u8, i: u8, a: &mut Poly) {
    let _k = pqlab_profile::enter(pqlab_profile::Kernel::Sample);
    let mut ctx = Shake128::new();
    ctx.absorb(rho);
    ctx.absorb(&[j, i]);
    let mut reader = ctx.finalize();
    let mut n = 0;
    // 168 = 3 * 56: every block holds a whole number of 3-byte groups C.
    while n < N {
        let block = reader.squeeze_block();
        n += B::rej_uniform(&block, &mut a.0[n..]);
    }
}

/// SamplePolyCBD_eta(PRF_eta(s, b)) into `f` (FIPS 203, Algorithm 8; PRF is equation 4.3),
/// one SHAKE256 stream; the PRF output is wiped.
pub(crate) fn sample_cbd<B: Ops>(s: &[u8; 32], b: u8, eta: usize, f: &mut Poly) {
    let _k = pqlab_profile::enter(pqlab_profile::Kernel::Sample);
    let mut buf = [0u8; 192];
    let need = (64 * eta).min(buf.len());
    let mut ctx = Shake256::new();
    ctx.absorb(s);
    ctx.absorb(&[b]);
    ctx.finalize().squeeze(&mut buf[..need]);
    B::sample_poly_cbd(eta, &buf[..need], &mut f.0);
    wipe(&mut buf);
}

/// FIPS 203, Algorithm 13: K-PKE.KeyGen(d), streaming: s_hat is sampled into `s_hat` and
/// transformed; then for each row i, t_hat\[i\] = sum_j A_hat\[i\]\[j\] o s_hat\[j\] + e_hat\[i\]
/// with each A_hat\[i\]\[j\] sampled just before its product and e\[i\] just before its sum.
/// `ek` gets rho and t_hat; `ek.encode` and `encode_s_hat` give the encodings.
pub(crate) fn key_gen<P: ParameterSet, B: Ops>(
    d: &[u8],
    ek: &mut PkeEncryptionKey<P>,
    s_hat: &mut [Poly],
) {
    // (rho, sigma) = G(d || k)
    let (rho, mut sigma) = g(&[d, &[P::K as u8]]);
    ek.rho = rho;
    let s_hat = &mut s_hat[..P::K];
    for (n, s) in s_hat.iter_mut().enumerate() {
        sample_cbd::<B>(&sigma, n as u8, P::ETA1, s);
        s.ntt::<B>();
    }
    let mut a = Poly::ZERO;
    for (i, t) in ek.t_hat.as_mut().iter_mut().enumerate() {
        let mut acc = Poly::ZERO;
        for (j, s) in s_hat.iter().enumerate() {
            sample_ntt::<B>(&rho, j as u8, i as u8, &mut a);
            multiply_ntts_acc(&mut acc, &a, s);
        }
        // The products carry a factor 2^-16; one more Montgomery multiplication by 2^32
        // cancels it.
        acc.tomont::<B>();
        // e_hat[i] = NTT(SamplePolyCBD_eta1(PRF_eta1(sigma, k + i))), in `a`
        sample_cbd::<B>(&sigma, (P::K + i) as u8, P::ETA1, &mut a);
        a.ntt::<B>();
        acc.add_assign(&a);
        acc.freeze::<B>();
        *t = acc;
    }
    a.zeroize();
    sigma.zeroize();
    for s in s_hat.iter_mut() {
        s.freeze::<B>();
    }
}

/// FIPS 203, Algorithm 14: K-PKE.Encrypt(ek_PKE, m, r), streaming: y_hat is sampled and kept;
/// then u\[i\] = NTT^-1(sum_j A_hat\[j\]\[i\] o y_hat\[j\]) + e1\[i\] one i at a time (each
/// A_hat entry and e1\[i\] sampled when needed) and v. Each chunk of c = c1 || c2 (32 du bytes
/// per u\[i\], then 32 dv bytes) goes to `emit(offset, bytes)` as soon as it is encoded.
pub(crate) fn encrypt<P: ParameterSet, B: Ops>(
    ek: &PkeEncryptionKey<P>,
    m: &[u8; 32],
    r: &[u8; 32],
    emit: &mut dyn FnMut(usize, &[u8]),
) {
    let k = P::K;
    let mut y_hat = P::VecK::ZERO;
    for (n, y) in y_hat.as_mut().iter_mut().enumerate() {
        sample_cbd::<B>(r, n as u8, P::ETA1, y);
        y.ntt::<B>();
    }
    let mut a = Poly::ZERO;
    let mut chunk = [0u8; 32 * 11];
    let du = P::DU as usize;
    // u = NTT^-1(A_hat^T o y_hat) + e1; c1 = ByteEncode_du(Compress_du(u))
    for i in 0..k {
        let mut u = Poly::ZERO;
        for (j, y) in y_hat.as_ref().iter().enumerate() {
            // A_hat[j][i] = SampleNTT(rho || i || j)
            sample_ntt::<B>(&ek.rho, i as u8, j as u8, &mut a);
            multiply_ntts_acc(&mut u, &a, y);
        }
        u.inv_ntt_to_mont::<B>();
        // e1[i] = SamplePolyCBD_eta2(PRF_eta2(r, k + i)), in `a`
        sample_cbd::<B>(r, (k + i) as u8, P::ETA2, &mut a);
        u.add_assign(&a);
        u.freeze::<B>();
        B::compress_encode(P::DU, &u.0, &mut chunk[..32 * du]);
        emit(32 * du * i, &chunk[..32 * du]);
        u.zeroize();
    }

    // v = NTT^-1(t_hat^T o y_hat) + e2 + mu; c2 = ByteEncode_dv(Compress_dv(v))
    let mut v = inner_product_ntt::<B>(ek.t_hat.as_ref().iter(), y_hat.as_ref());
    v.inv_ntt_to_mont::<B>();
    sample_cbd::<B>(r, (2 * k) as u8, P::ETA2, &mut a);
    v.add_assign(&a);
    // mu = Decompress_1(ByteDecode_1(m)), in `a`
    B::decode_decompress(1, m, &mut a.0);
    v.add_assign(&a);
    v.freeze::<B>();
    let dv = P::DV as usize;
    B::compress_encode(P::DV, &v.0, &mut chunk[..32 * dv]);
    emit(P::C1_LEN, &chunk[..32 * dv]);

    y_hat.zeroize();
    a.zeroize();
    v.zeroize();
    wipe(&mut chunk);
}

/// Whether the re-encryption K-PKE.Encrypt(ek_PKE, m, r) equals `c` (32 (du k + dv) bytes), in
/// constant time, without holding the re-encryption (FIPS 203, Algorithm 18 lines 8 and 9).
pub(crate) fn encrypt_equals<P: ParameterSet, B: Ops>(
    ek: &PkeEncryptionKey<P>,
    m: &[u8; 32],
    r: &[u8; 32],
    c: &[u8],
) -> Choice {
    let mut diff = 0u8;
    encrypt::<P, B>(ek, m, r, &mut |off, bytes| {
        for (x, y) in bytes.iter().zip(&c[off..off + bytes.len()]) {
            diff |= x ^ y;
        }
    });
    diff.ct_eq(&0)
}

/// FIPS 203, Algorithm 15: K-PKE.Decrypt(dk_PKE, c), streaming: each u'\[i\] is decoded,
/// transformed and multiplied into w in turn.
pub(crate) fn decrypt<P: ParameterSet, B: Ops>(s_hat: &[Poly], c: &[u8]) -> [u8; 32] {
    let (c1, c2) = c.split_at(P::C1_LEN);
    let du = P::DU;
    let mut u = Poly::ZERO;
    let mut w = Poly::ZERO;
    for (s, chunk) in s_hat
        .iter()
        .take(P::K)
        .zip(c1.chunks_exact(32 * du as usize))
    {
        // u'[i] = Decompress_du(ByteDecode_du(c1[i])), then NTT(u'[i])
        B::decode_decompress(du, chunk, &mut u.0);
        u.ntt::<B>();
        multiply_ntts_acc(&mut w, s, &u);
    }
    w.inv_ntt_to_mont::<B>();
    // v' = Decompress_dv(ByteDecode_dv(c2)), in `u`; w = v' - NTT^-1(s_hat^T o NTT(u'))
    B::decode_decompress(P::DV, c2, &mut u.0);
    w.sub_from(&u);
    w.freeze::<B>();
    // m = ByteEncode_1(Compress_1(w))
    let mut m = [0u8; 32];
    B::compress_encode(1, &w.0, &mut m);
    w.zeroize();
    u.zeroize();
    m
}

/// The small-memory K-PKE against the default one (built in the default configuration, where
/// both exist): equal keys, ciphertexts and messages on every back end, and the
/// chunk-by-chunk comparison agreeing with the bytes.
#[cfg(all(test, not(feature = "small-memory")))]
mod tests {
    use super::*;
    use crate::params::{MlKem512, MlKem768, MlKem1024};

    fn case<P: ParameterSet, B: Ops>(seed: u8) {
        let d = [seed ^ 0x5a; 32];
        let mut ek = PkeEncryptionKey::<P>::EMPTY;
        let mut s_hat = P::VecK::ZERO;
        super::super::key_gen::<P, B>(&d, &mut ek, s_hat.as_mut());
        let mut ek_small = PkeEncryptionKey::<P>::EMPTY;
        let mut s_small = P::VecK::ZERO;
        key_gen::<P, B>(&d, &mut ek_small, s_small.as_mut());
        assert_eq!(ek.rho, ek_small.rho);
        assert!(
            ek.t_hat.as_ref() == ek_small.t_hat.as_ref(),
            "{}: t_hat",
            P::NAME
        );
        assert!(s_hat.as_ref() == s_small.as_ref(), "{}: s_hat", P::NAME);

        let (m, r) = ([seed; 32], [seed.wrapping_mul(7); 32]);
        let mut c = [0u8; 1568];
        let c = &mut c[..P::CT_LEN];
        super::super::encrypt::<P, B>(&ek, &m, &r, c);
        let mut c_small = [0u8; 1568];
        let mut emitted = 0;
        encrypt::<P, B>(&ek_small, &m, &r, &mut |off, bytes| {
            c_small[off..off + bytes.len()].copy_from_slice(bytes);
            emitted += bytes.len();
        });
        assert_eq!(emitted, P::CT_LEN);
        assert_eq!(&c_small[..P::CT_LEN], &c[..], "{}: ciphertext", P::NAME);
        assert!(bool::from(encrypt_equals::<P, B>(&ek_small, &m, &r, c)));
        for at in [0, P::C1_LEN - 1, P::C1_LEN, P::CT_LEN - 1] {
            c[at] ^= 1;
            assert!(!bool::from(encrypt_equals::<P, B>(&ek_small, &m, &r, c)));
            let m_bad = decrypt::<P, B>(s_small.as_ref(), c);
            assert_eq!(m_bad, super::super::decrypt::<P, B>(s_hat.as_ref(), c));
            c[at] ^= 1;
        }
        assert_eq!(
            decrypt::<P, B>(s_small.as_ref(), c),
            m,
            "{}: decrypt",
            P::NAME
        );
    }

    fn cases<B: Ops>() -> usize {
        for seed in 0..8 {
            case::<MlKem512, B>(seed);
            case::<MlKem768, B>(seed);
            case::<MlKem1024, B>(seed);
        }
        24
    }

    #[test]
    fn small_memory_k_pke_equals_the_default() {
        pqlab_testutil::backends::each_available(
            "ML-KEM small-memory K-PKE",
            24,
            |b| crate::backend::dispatch!(on b, B => cases::<B>()),
        );
    }
}
