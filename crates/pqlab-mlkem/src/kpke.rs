//! The K-PKE component scheme (FIPS 203, Section 5: Algorithms 13, 14 and 15).
//!
//! The encryption key is kept decoded: t_hat, rho and the matrix A_hat = SampleNTT(rho || j || i)
//! expanded once when the key is made or imported (as Go's crypto/mlkem does), so that
//! encryption and the re-encryption in decapsulation skip SampleNTT. Under the `small-memory`
//! feature the key holds no A_hat and the scheme runs on `stream`'s K-PKE, which samples each
//! entry when it is needed.

#[cfg(any(test, feature = "small-memory"))]
pub(crate) mod stream;

use pqlab_arith::array::FixedArray;
#[cfg(not(feature = "small-memory"))]
use zeroize::Zeroize;

use crate::backend::Ops;
use crate::params::ParameterSet;
use crate::poly::Poly;
#[cfg(not(feature = "small-memory"))]
use crate::{
    hash::g,
    params::MAX_K,
    poly::inner_product_ntt,
    sample::{sample_key_gen, sample_matrix, sample_poly_cbd_prf},
};

/// A decoded K-PKE encryption key ek_PKE = ByteEncode12(t_hat) || rho, with A_hat expanded.
/// Public data, sized for its parameter set.
#[derive(Clone)]
pub(crate) struct PkeEncryptionKey<P: ParameterSet> {
    /// t_hat, coefficients in [0, q).
    pub(crate) t_hat: P::VecK,
    /// A_hat\[i\]\[j\] = SampleNTT(rho || j || i) at index i k + j, coefficients in [0, q).
    #[cfg(not(feature = "small-memory"))]
    pub(crate) a_hat: P::Matrix,
    /// The seed rho of A_hat.
    pub(crate) rho: [u8; 32],
}

impl<P: ParameterSet> PkeEncryptionKey<P> {
    /// A key with every entry zero, to be filled in place (k^2 + k polynomials: building it in
    /// place spares the copies a by-value construction costs).
    pub(crate) const EMPTY: Self = Self {
        t_hat: P::VecK::ZERO,
        #[cfg(not(feature = "small-memory"))]
        a_hat: P::Matrix::ZERO,
        rho: [0; 32],
    };

    /// Sets rho and expands A_hat from it in place (FIPS 203, Algorithm 13 lines 3 to 7,
    /// Algorithm 14 lines 4 to 8).
    /// (Under `small-memory`, only sets rho: A_hat is sampled entry by entry when used.)
    pub(crate) fn expand<B: Ops>(&mut self, rho: &[u8; 32]) {
        self.rho = *rho;
        #[cfg(not(feature = "small-memory"))]
        sample_matrix::<B>(rho, P::K, self.a_hat.as_mut());
    }

    /// ek_PKE = ByteEncode12(t_hat) || rho (FIPS 203, Algorithm 13 line 19), into `out` of
    /// 384 k + 32 bytes. (Under `small-memory` keys are generated straight into their
    /// encodings.)
    #[cfg(not(feature = "small-memory"))]
    pub(crate) fn encode<B: Ops>(&self, out: &mut [u8]) {
        let (t_bytes, rho) = out.split_at_mut(384 * P::K);
        for (t, chunk) in self
            .t_hat
            .as_ref()
            .iter()
            .zip(t_bytes.chunks_exact_mut(384))
        {
            B::byte_encode12(&t.0, chunk);
        }
        rho.copy_from_slice(&self.rho);
    }

    /// Row i of A_hat (k entries).
    #[cfg(not(feature = "small-memory"))]
    fn row(&self, i: usize) -> &[Poly] {
        &self.a_hat.as_ref()[i * P::K..(i + 1) * P::K]
    }
}

/// dk_PKE = ByteEncode12(s_hat) (FIPS 203, Algorithm 13 line 20), into `out` of 384 k bytes.
pub(crate) fn encode_s_hat<B: Ops>(s_hat: &[Poly], out: &mut [u8]) {
    for (s, chunk) in s_hat.iter().zip(out.chunks_exact_mut(384)) {
        B::byte_encode12(&s.0, chunk);
    }
}

/// s_hat = ByteDecode12(dk_PKE) (FIPS 203, Algorithm 15 line 5) into `s_hat`, each value
/// reduced mod q in constant time. `dk_pke` must hold 384 k bytes for k = `s_hat.len()`.
pub(crate) fn decode_s_hat<B: Ops>(dk_pke: &[u8], s_hat: &mut [Poly]) {
    for (s, chunk) in s_hat.iter_mut().zip(dk_pke.chunks_exact(384)) {
        B::byte_decode12(chunk, &mut s.0);
    }
}

/// FIPS 203, Algorithm 13: K-PKE.KeyGen(d), into `ek` (an [`PkeEncryptionKey::EMPTY`] key) and
/// `s_hat` (coefficients in [0, q)); their encodings are [`PkeEncryptionKey::encode`] and
/// [`encode_s_hat`] (lines 19 and 20).
#[cfg(not(feature = "small-memory"))]
pub(crate) fn key_gen<P: ParameterSet, B: Ops>(
    d: &[u8],
    ek: &mut PkeEncryptionKey<P>,
    s_hat: &mut [Poly],
) {
    // (rho, sigma) = G(d || k)
    let (rho, mut sigma) = g(&[d, &[P::K as u8]]);
    // A_hat (SampleNTT(rho || j || i)) and s, e (SamplePolyCBD_eta1(PRF_eta1(sigma, 0..2k))):
    // their streams side by side in shared Keccak lanes; s straight into s_hat, e beside it.
    let mut e_hat = P::VecK::ZERO;
    let s_hat = &mut s_hat[..P::K];
    ek.rho = rho;
    sample_key_gen::<B>(
        &rho,
        &sigma,
        P::K,
        P::ETA1,
        ek.a_hat.as_mut(),
        s_hat,
        e_hat.as_mut(),
    );
    sigma.zeroize();
    for p in s_hat.iter_mut().chain(e_hat.as_mut().iter_mut()) {
        p.ntt::<B>();
    }

    // t_hat = A_hat o s_hat + e_hat
    for (i, e) in e_hat.as_ref().iter().enumerate() {
        let mut t = inner_product_ntt::<B>(ek.row(i).iter(), s_hat);
        // The product carries a factor 2^-16; multiplying by 2^32 with one more Montgomery
        // reduction cancels it.
        t.tomont::<B>();
        t.add_assign(e);
        t.freeze::<B>();
        ek.t_hat.as_mut()[i] = t;
    }
    e_hat.zeroize();
    for s in s_hat.iter_mut() {
        s.freeze::<B>();
    }
}

/// FIPS 203, Algorithm 14: K-PKE.Encrypt(ek_PKE, m, r), writing c = c1 || c2 into `c` of
/// 32 (du k + dv) bytes.
#[cfg(not(feature = "small-memory"))]
pub(crate) fn encrypt<P: ParameterSet, B: Ops>(
    ek: &PkeEncryptionKey<P>,
    m: &[u8; 32],
    r: &[u8; 32],
    c: &mut [u8],
) {
    // y from PRF_eta1(r, 0..k); e1 and e2 from PRF_eta2(r, k..2k+1): 2k + 1 streams.
    let k = P::K;
    let mut etas = [P::ETA2; 2 * MAX_K + 1];
    etas[..k].fill(P::ETA1);
    // y, e1 and e2 stay where they were sampled (y transformed in place), each sized for the
    // parameter set.
    let mut y_vec = P::VecK::ZERO;
    let mut e1_vec = P::VecK::ZERO;
    let mut e2 = [Poly::ZERO];
    sample_poly_cbd_prf::<B>(
        r,
        0,
        &etas[..2 * k + 1],
        &mut [y_vec.as_mut(), e1_vec.as_mut(), &mut e2],
    );
    let (y_hat, e1) = (y_vec.as_mut(), e1_vec.as_ref());
    for y in y_hat.iter_mut() {
        y.ntt::<B>();
    }

    let (c1, c2) = c.split_at_mut(P::C1_LEN);
    let du = P::DU;
    // u = NTT^-1(A_hat^T o y_hat) + e1; c1 = ByteEncode_du(Compress_du(u))
    for (i, chunk) in c1.chunks_exact_mut(32 * du as usize).enumerate().take(P::K) {
        let column = (0..P::K).map(|r| &ek.row(r)[i]);
        let mut u = inner_product_ntt::<B>(column, y_hat);
        u.inv_ntt_to_mont::<B>();
        u.add_assign(&e1[i]);
        u.freeze::<B>();
        B::compress_encode(du, &u.0, chunk);
        u.zeroize();
    }

    // v = NTT^-1(t_hat^T o y_hat) + e2 + mu; c2 = ByteEncode_dv(Compress_dv(v))
    let mut v = inner_product_ntt::<B>(ek.t_hat.as_ref().iter(), y_hat);
    v.inv_ntt_to_mont::<B>();
    v.add_assign(&e2[0]);
    // mu = Decompress_1(ByteDecode_1(m))
    let mut mu = Poly::ZERO;
    B::decode_decompress(1, m, &mut mu.0);
    v.add_assign(&mu);
    v.freeze::<B>();
    B::compress_encode(P::DV, &v.0, c2);

    y_vec.zeroize();
    e1_vec.zeroize();
    e2[0].zeroize();
    mu.zeroize();
    v.zeroize();
}

/// FIPS 203, Algorithm 15: K-PKE.Decrypt(dk_PKE, c), with dk_PKE given decoded as s_hat
/// (coefficients of absolute value at most q). `c` must hold 32 (du k + dv) bytes.
#[cfg(not(feature = "small-memory"))]
pub(crate) fn decrypt<P: ParameterSet, B: Ops>(s_hat: &[Poly], c: &[u8]) -> [u8; 32] {
    let (c1, c2) = c.split_at(P::C1_LEN);
    let du = P::DU;
    // u' = Decompress_du(ByteDecode_du(c1)), then NTT(u')
    let mut u_hat = P::VecK::ZERO;
    for (u, chunk) in u_hat
        .as_mut()
        .iter_mut()
        .zip(c1.chunks_exact(32 * du as usize))
    {
        B::decode_decompress(du, chunk, &mut u.0);
        u.ntt::<B>();
    }
    // v' = Decompress_dv(ByteDecode_dv(c2))
    let mut v = Poly::ZERO;
    B::decode_decompress(P::DV, c2, &mut v.0);

    // w = v' - NTT^-1(s_hat^T o NTT(u'))
    let mut w = inner_product_ntt::<B>(s_hat.iter().take(P::K), u_hat.as_ref());
    w.inv_ntt_to_mont::<B>();
    w.sub_from(&v);
    w.freeze::<B>();

    // m = ByteEncode_1(Compress_1(w))
    let mut m = [0u8; 32];
    B::compress_encode(1, &w.0, &mut m);
    w.zeroize();
    m
}
