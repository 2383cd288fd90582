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
//! Working memory: y_hat of encryption as ByteEncode12 (384 k bytes), one accumulator, one
//! more polynomial (noise) or ciphertext chunk at a time, and one Keccak state with its block.
//! The entries of A_hat are never held: their coefficients are multiplied into the accumulator
//! pair by pair as the rejection sampling accepts them.

use pqlab_arith::bytes::ByteArray;
use pqlab_arith::mlkem::{GAMMAS, base_case_multiply, montgomery_reduce};
use pqlab_arith::wipe::wipe;
use pqlab_keccak::{Shake128, Shake256};
use subtle::{Choice, ConstantTimeEq};
use zeroize::Zeroize;

use crate::backend::Ops;
use crate::hash::g;
use crate::params::{N, ParameterSet, Q};
use crate::poly::Poly;

/// acc\[2p\], acc\[2p + 1\] += (a0 + a1 X) (b0 + b1 X) mod (X^2 - gamma_p), times 2^-16 (FIPS 203,
/// Algorithm 12: BaseCaseMultiply for pair p of Algorithm 11, with Montgomery reduction of the
/// product). Inputs of absolute value at most q; each call adds less than q in absolute value.
#[inline(always)]
fn base_case_acc(acc: &mut Poly, p: usize, (a0, a1): (i16, i16), (b0, b1): (i16, i16)) {
    let (c0, c1) = base_case_multiply(a0, a1, b0, b1, GAMMAS[p]);
    acc.0[2 * p] += montgomery_reduce(c0);
    acc.0[2 * p + 1] += montgomery_reduce(c1);
}

/// acc += f_hat x_T g_hat * 2^-16 (FIPS 203, Algorithm 11), in place, with f_hat and g_hat
/// given pair by pair (`f(p)`, `g(p)` = coefficients 2p and 2p + 1). Inputs of absolute value
/// at most q; after j products on a zero accumulator, |acc| < j q (below 4 q for a sum of k
/// terms).
fn multiply_ntts_acc(
    acc: &mut Poly,
    f: impl Fn(usize) -> (i16, i16),
    g: impl Fn(usize) -> (i16, i16),
) {
    for p in 0..N / 2 {
        base_case_acc(acc, p, f(p), g(p));
    }
}

/// Coefficients 2p and 2p + 1 of a polynomial given as ByteEncode12 (FIPS 203, Algorithm 6:
/// ByteDecode12 of the three bytes 3p..3p + 3, without reduction).
#[inline(always)]
pub(crate) fn pair12(bytes: &[u8], p: usize) -> (i16, i16) {
    let b = &bytes[3 * p..3 * p + 3];
    let d1 = i16::from(b[0]) | (i16::from(b[1] & 0x0f) << 8);
    let d2 = i16::from(b[1] >> 4) | (i16::from(b[2]) << 4);
    (d1, d2)
}

/// Coefficients 2p and 2p + 1 of `f`.
#[inline(always)]
pub(crate) fn pair(f: &Poly, p: usize) -> (i16, i16) {
    (f.0[2 * p], f.0[2 * p + 1])
}

/// Coefficients 2p and 2p + 1 of a ByteEncode12 string from outside (a decapsulation key's
/// dk_PKE), each reduced mod q in constant time as ByteDecode12 does (FIPS 203, Algorithm 6:
/// a 12-bit value below 2q needs one conditional subtraction).
#[inline(always)]
pub(crate) fn pair12_reduced(bytes: &[u8], p: usize) -> (i16, i16) {
    let reduce = |v: i16| {
        let r = v - Q;
        r + ((r >> 15) & Q)
    };
    let (a, b) = pair12(bytes, p);
    (reduce(a), reduce(b))
}

/// Pair p of polynomial i of a vector given as ByteEncode12 (384 bytes a polynomial).
#[inline(always)]
pub(crate) fn vec_pair12(bytes: &[u8], i: usize, p: usize) -> (i16, i16) {
    pair12(&bytes[384 * i..384 * (i + 1)], p)
}

/// acc += SampleNTT(rho || j || i) x_T g_hat * 2^-16 (FIPS 203, Algorithm 7 with Algorithms 11
/// and 12), the entry of A_hat never held: each pair of coefficients is multiplied into `acc` as
/// the rejection sampling accepts it (lines 5 to 15 of Algorithm 7, as the `rej_uniform`
/// kernel reads a block). `g(p)` gives pair p of g_hat (absolute values at most q). One SHAKE128
/// stream on public data (rho): the rejection branches leak nothing secret, and the memory
/// touched depends only on the public pair index.
#[inline(never)]
pub(crate) fn sample_ntt_acc(
    rho: &[u8; 32],
    j: u8,
    i: u8,
    acc: &mut Poly,
    g: impl Fn(usize) -> (i16, i16),
) {
    let _k = pqlab_profile::enter(pqlab_profile::Kernel::Sample);
    let mut reader = Shake128::reader_of_parts(&[rho, &[j, i]]);
    let mut block = [0u8; 168];
    let (mut n, mut even) = (0, 0);
    while n < N {
        reader.squeeze(&mut block);
        // 168 = 3 * 56: every block holds a whole number of 3-byte groups C.
        for c in block.chunks_exact(3) {
            let d1 = i16::from(c[0]) | (i16::from(c[1] & 0x0f) << 8);
            let d2 = i16::from(c[1] >> 4) | (i16::from(c[2]) << 4);
            for d in [d1, d2] {
                if d < Q && n < N {
                    if n % 2 == 0 {
                        even = d;
                    } else {
                        base_case_acc(acc, n / 2, (even, d), g(n / 2));
                    }
                    n += 1;
                }
            }
        }
    }
}

/// FIPS 203, Algorithm 7: SampleNTT(rho || j || i) into `a`, one SHAKE128 stream (public data:
/// the rejection branches leak nothing secret).
#[cfg(test)]
pub(crate) fn sample_ntt<B: Ops>(rho: &[u8; 32], j: u8, i: u8, a: &mut Poly) {
    let mut ctx = Shake128::new();
    ctx.absorb(rho);
    ctx.absorb(&[j, i]);
    let mut reader = ctx.finalize();
    let mut n = 0;
    while n < N {
        let block = reader.squeeze_block();
        n += B::rej_uniform(&block, &mut a.0[n..]);
    }
}

/// SamplePolyCBD_eta(PRF_eta(s, b)) into `f` (FIPS 203, Algorithm 8; PRF is equation 4.3),
/// one SHAKE256 stream; the PRF output is wiped.
#[inline(never)]
pub(crate) fn sample_cbd<B: Ops>(s: &[u8; 32], b: u8, eta: usize, f: &mut Poly) {
    let _k = pqlab_profile::enter(pqlab_profile::Kernel::Sample);
    let mut buf = [0u8; 192];
    let need = (64 * eta).min(buf.len());
    Shake256::digest_parts(&[s, &[b]], &mut buf[..need]);
    B::sample_poly_cbd(eta, &buf[..need], &mut f.0);
    wipe(&mut buf);
}

/// FIPS 203, Algorithm 13: K-PKE.KeyGen(d), streaming, straight into the encodings: each
/// s_hat\[j\] is sampled, transformed and written as ByteEncode12 into `s_out` (dk_PKE, 384 k
/// bytes, line 20); then for each row i, t_hat\[i\] = sum_j A_hat\[i\]\[j\] o s_hat\[j\] +
/// e_hat\[i\], with each A_hat\[i\]\[j\] sampled just before its product (s_hat\[j\] read back
/// from its encoding) and e\[i\] just before its sum, is written into `ek_out` (ek_PKE =
/// ByteEncode12(t_hat) || rho, 384 k + 32 bytes, line 19).
pub(crate) fn key_gen<P: ParameterSet, B: Ops>(d: &[u8], ek_out: &mut [u8], s_out: &mut [u8]) {
    // (rho, sigma) = G(d || k)
    let (rho, mut sigma) = g(&[d, &[P::K as u8]]);
    let k = P::K;
    let s_out = &mut s_out[..384 * k];
    let mut acc = Poly::ZERO;
    for (n, s) in s_out.chunks_exact_mut(384).enumerate() {
        sample_ntt_encoded::<B>(&sigma, n as u8, P::ETA1, &mut acc, s);
    }
    let (t_out, rho_out) = ek_out[..384 * k + 32].split_at_mut(384 * k);
    for (i, t) in t_out.chunks_exact_mut(384).enumerate() {
        for j in 0..k {
            sample_ntt_acc(&rho, j as u8, i as u8, &mut acc, |p| {
                vec_pair12(s_out, j, p)
            });
        }
        // The products carry a factor 2^-16; one more Montgomery multiplication by 2^32
        // cancels it.
        acc.tomont::<B>();
        // e_hat[i] = NTT(SamplePolyCBD_eta1(PRF_eta1(sigma, k + i)))
        let mut e = Poly::ZERO;
        sample_cbd::<B>(&sigma, (k + i) as u8, P::ETA1, &mut e);
        e.ntt::<B>();
        acc.add_assign(&e);
        e.zeroize();
        acc.freeze::<B>();
        B::byte_encode12(&acc.0, t);
        acc = Poly::ZERO;
    }
    rho_out.copy_from_slice(&rho);
    sigma.zeroize();
}

/// FIPS 203, Algorithm 14: K-PKE.Encrypt(ek_PKE, m, r), streaming: y_hat is sampled and kept;
/// then u\[i\] = NTT^-1(sum_j A_hat\[j\]\[i\] o y_hat\[j\]) + e1\[i\] one i at a time (each
/// A_hat entry and e1\[i\] sampled when needed) and v. Each chunk of c = c1 || c2 (32 du bytes
/// per u\[i\], then 32 dv bytes) goes to `emit(offset, bytes)` as soon as it is encoded.
/// ek_PKE is given as rho and t_hat pair by pair (`t(i, p)`: pair p of t_hat\[i\], values in
/// [0, q)), from a decoded key or straight from its encoding. Never inlined: its working
/// memory (y_hat) then takes stack only while it runs, not through the caller's other steps.
#[inline(never)]
pub(crate) fn encrypt<P: ParameterSet, B: Ops>(
    rho: &[u8; 32],
    t: impl Fn(usize, usize) -> (i16, i16),
    m: &[u8; 32],
    r: &[u8; 32],
    emit: &mut dyn FnMut(usize, &[u8]),
) {
    const { assert!(P::ETA2 == 2, "add_noise_eta2 samples with eta = 2") };
    let k = P::K;
    // y_hat = NTT(SamplePolyCBD_eta1(PRF_eta1(r, 0..k))), kept as ByteEncode12 (384 bytes a
    // polynomial, in the first 384 k bytes of an encapsulation key's worth of bytes).
    let mut y_hat = P::EkBytes::zeroed();
    // u, the accumulator of each product below, serves first as the scratch of y_hat.
    let mut u = Poly::ZERO;
    for (n, y) in y_hat.as_mut().chunks_exact_mut(384).take(k).enumerate() {
        sample_ntt_encoded::<B>(r, n as u8, P::ETA1, &mut u, y);
    }
    let y_hat = y_hat.as_mut();
    let du = P::DU as usize;
    // u = NTT^-1(A_hat^T o y_hat) + e1; c1 = ByteEncode_du(Compress_du(u))
    for i in 0..k {
        for (j, y) in y_hat.chunks_exact(384).take(k).enumerate() {
            // A_hat[j][i] = SampleNTT(rho || i || j)
            sample_ntt_acc(rho, i as u8, j as u8, &mut u, |p| pair12(y, p));
        }
        u.inv_ntt_to_mont::<B>();
        // e1[i] = SamplePolyCBD_eta2(PRF_eta2(r, k + i))
        add_noise_eta2(r, (k + i) as u8, &mut u);
        u.freeze::<B>();
        compress_emit::<B>(P::DU, &u, 32 * du * i, emit);
        u.zeroize();
    }

    // v = NTT^-1(t_hat^T o y_hat) + e2 + mu; c2 = ByteEncode_dv(Compress_dv(v)), in `u`
    for (i, y) in y_hat.chunks_exact(384).take(k).enumerate() {
        multiply_ntts_acc(&mut u, |p| t(i, p), |p| pair12(y, p));
    }
    u.inv_ntt_to_mont::<B>();
    add_noise_eta2(r, (2 * k) as u8, &mut u);
    // + mu = Decompress_1(ByteDecode_1(m)): 1665 = round(q / 2) where a bit of m is 1, added
    // in place through a mask (no branch on the secret m).
    for (c, i) in u.0.iter_mut().zip(0..) {
        let bit = i16::from((m[i / 8] >> (i % 8)) & 1);
        *c += -bit & 1665;
    }
    u.freeze::<B>();
    compress_emit::<B>(P::DV, &u, P::C1_LEN, emit);

    wipe(y_hat);
    u.zeroize();
}

/// ByteEncode12(NTT(SamplePolyCBD_eta(PRF_eta(s, b)))) into `out` (384 bytes; FIPS 203,
/// Algorithm 14 lines 10 and 18), the coefficients frozen to [0, q), through `scratch`
/// (wiped afterwards).
fn sample_ntt_encoded<B: Ops>(s: &[u8; 32], b: u8, eta: usize, scratch: &mut Poly, out: &mut [u8]) {
    sample_cbd::<B>(s, b, eta, scratch);
    scratch.ntt::<B>();
    scratch.freeze::<B>();
    B::byte_encode12(&scratch.0, out);
    scratch.zeroize();
}

/// f += SamplePolyCBD_2(PRF_2(s, b)) (FIPS 203, Algorithm 8 with eta = 2, for Algorithm 14
/// lines 14 and 17 with the sums of lines 19 and 21; eta2 = 2 in every parameter set), each
/// coefficient added as it is computed from its four bits: no polynomial held. Branch-free.
#[inline(never)]
fn add_noise_eta2(s: &[u8; 32], b: u8, f: &mut Poly) {
    let _k = pqlab_profile::enter(pqlab_profile::Kernel::Sample);
    let mut buf = [0u8; 128];
    Shake256::digest_parts(&[s, &[b]], &mut buf);
    for (byte, c) in buf.iter().zip(f.0.chunks_exact_mut(2)) {
        // Coefficient 2i from bits 8i..8i + 4 of B, coefficient 2i + 1 from the next four:
        // x - y with x, y sums of eta = 2 bits each.
        let bit = |k: u8| i16::from((byte >> k) & 1);
        c[0] += bit(0) + bit(1) - bit(2) - bit(3);
        c[1] += bit(4) + bit(5) - bit(6) - bit(7);
    }
    wipe(&mut buf);
}

/// ByteEncode_d(Compress_d(f)) (FIPS 203, Algorithm 14 lines 22 and 23) handed to
/// `emit(offset, bytes)`, through a chunk of its own frame.
#[inline(never)]
fn compress_emit<B: Ops>(d: u32, f: &Poly, offset: usize, emit: &mut dyn FnMut(usize, &[u8])) {
    let mut chunk = [0u8; 32 * 11];
    let len = 32 * d as usize;
    B::compress_encode(d, &f.0, &mut chunk[..len]);
    emit(offset, &chunk[..len]);
    wipe(&mut chunk);
}

/// Whether the re-encryption K-PKE.Encrypt(ek_PKE, m, r) equals `c` (32 (du k + dv) bytes), in
/// constant time, without holding the re-encryption (FIPS 203, Algorithm 18 lines 8 and 9).
pub(crate) fn encrypt_equals<P: ParameterSet, B: Ops>(
    rho: &[u8; 32],
    t: impl Fn(usize, usize) -> (i16, i16),
    m: &[u8; 32],
    r: &[u8; 32],
    c: &[u8],
) -> Choice {
    let mut diff = 0u8;
    encrypt::<P, B>(rho, t, m, r, &mut |off, bytes| {
        for (x, y) in bytes.iter().zip(&c[off..off + bytes.len()]) {
            diff |= x ^ y;
        }
    });
    diff.ct_eq(&0)
}

/// FIPS 203, Algorithm 15: K-PKE.Decrypt(dk_PKE, c), streaming: each u'\[i\] is decoded,
/// transformed and multiplied into w in turn. dk_PKE is given pair by pair (`s(i, p)`: pair p
/// of s_hat\[i\], values in [0, q)), from a decoded key or straight from its encoding.
#[inline(never)]
pub(crate) fn decrypt<P: ParameterSet, B: Ops>(
    s: impl Fn(usize, usize) -> (i16, i16),
    c: &[u8],
) -> [u8; 32] {
    let (c1, c2) = c.split_at(P::C1_LEN);
    let du = P::DU;
    let mut u = Poly::ZERO;
    let mut w = Poly::ZERO;
    for (i, chunk) in c1.chunks_exact(32 * du as usize).take(P::K).enumerate() {
        // u'[i] = Decompress_du(ByteDecode_du(c1[i])), then NTT(u'[i])
        B::decode_decompress(du, chunk, &mut u.0);
        u.ntt::<B>();
        multiply_ntts_acc(&mut w, |p| s(i, p), |p| pair(&u, p));
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
    use pqlab_arith::array::FixedArray;

    use super::super::PkeEncryptionKey;
    use super::*;
    use crate::params::{MlKem512, MlKem768, MlKem1024};

    fn case<P: ParameterSet, B: Ops>(seed: u8) {
        let d = [seed ^ 0x5a; 32];
        let mut ek = PkeEncryptionKey::<P>::EMPTY;
        let mut s_hat = P::VecK::ZERO;
        super::super::key_gen::<P, B>(&d, &mut ek, s_hat.as_mut());
        let (mut ek_bytes, mut s_bytes) = ([0u8; 1568], [0u8; 1536]);
        ek.encode::<B>(&mut ek_bytes[..P::EK_LEN]);
        super::super::encode_s_hat::<B>(s_hat.as_ref(), &mut s_bytes[..384 * P::K]);
        let (mut ek_small, mut s_small) = ([0u8; 1568], [0u8; 1536]);
        key_gen::<P, B>(&d, &mut ek_small, &mut s_small);
        assert_eq!(
            &ek_small[..P::EK_LEN],
            &ek_bytes[..P::EK_LEN],
            "{}: ek",
            P::NAME
        );
        assert_eq!(&s_small[..], &s_bytes[..], "{}: dk_PKE", P::NAME);
        let rho = &ek.rho;
        let t = |i: usize, p: usize| vec_pair12(&ek_small, i, p);
        let s = |i: usize, p: usize| pair12_reduced(&s_small[384 * i..], p);

        let (m, r) = ([seed; 32], [seed.wrapping_mul(7); 32]);
        let mut c = [0u8; 1568];
        let c = &mut c[..P::CT_LEN];
        super::super::encrypt::<P, B>(&ek, &m, &r, c);
        let mut c_small = [0u8; 1568];
        let mut emitted = 0;
        encrypt::<P, B>(rho, t, &m, &r, &mut |off, bytes| {
            c_small[off..off + bytes.len()].copy_from_slice(bytes);
            emitted += bytes.len();
        });
        assert_eq!(emitted, P::CT_LEN);
        assert_eq!(&c_small[..P::CT_LEN], &c[..], "{}: ciphertext", P::NAME);
        assert!(bool::from(encrypt_equals::<P, B>(rho, t, &m, &r, c)));
        for at in [0, P::C1_LEN - 1, P::C1_LEN, P::CT_LEN - 1] {
            c[at] ^= 1;
            assert!(!bool::from(encrypt_equals::<P, B>(rho, t, &m, &r, c)));
            let m_bad = decrypt::<P, B>(s, c);
            assert_eq!(m_bad, super::super::decrypt::<P, B>(s_hat.as_ref(), c));
            c[at] ^= 1;
        }
        assert_eq!(decrypt::<P, B>(s, c), m, "{}: decrypt", P::NAME);
        // A dk_PKE from outside with values q..4095 (not canonical): decoded mod q by both.
        let mut s_odd = s_bytes;
        s_odd[0] = 0xff;
        s_odd[1] |= 0x0f;
        let mut s_hat_odd = P::VecK::ZERO;
        super::super::decode_s_hat::<B>(&s_odd[..384 * P::K], s_hat_odd.as_mut());
        assert_eq!(
            decrypt::<P, B>(|i, p| pair12_reduced(&s_odd[384 * i..], p), c),
            super::super::decrypt::<P, B>(s_hat_odd.as_ref(), c),
            "{}: non-canonical dk_PKE",
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
