//! The ML-KEM internal algorithms (FIPS 203, Section 6: Algorithms 16, 17 and 18) and the input
//! checks of Sections 7.2 and 7.3.

use subtle::{ConditionallySelectable, ConstantTimeEq};
use zeroize::Zeroize;

use crate::Error;
use crate::backend::{Ops, dispatch};
use crate::error::check_len;
use crate::hash::{g, h, j};
use crate::keys::{Ciphertext, DecapsulationKey, EncapsulationKey, SharedSecret};
#[cfg(feature = "small-memory")]
use crate::kpke::stream::pair;
use crate::kpke::{self, decode_s_hat};
use crate::params::ByteArray;
use crate::params::ParameterSet;

/// FIPS 203, Algorithm 16: ML-KEM.KeyGen_internal(d, z) into `dk` (a
/// [`DecapsulationKey::empty`] key, built where the caller returns it: the key is tens of
/// kilobytes with its matrix, and every by-value move of it would cost that much stack). The
/// decapsulation key keeps the seed d || z. `d` and `z` hold 32 bytes each.
pub(crate) fn key_gen_internal<P: ParameterSet>(d: &[u8], z: &[u8], dk: &mut DecapsulationKey<P>) {
    dispatch!(B => key_gen_internal_with::<P, B>(d, z, dk));
}

/// [`key_gen_internal`] on the kernels of `B`, into `dk` (a [`DecapsulationKey::empty`] key):
/// the key (k^2 + 2k polynomials) is built where it stays. One frame per back end (never
/// inlined): inlined into the dispatch, the scratch of all three would add up in one frame.
#[inline(never)]
pub(crate) fn key_gen_internal_with<P: ParameterSet, B: Ops>(
    d: &[u8],
    z: &[u8],
    dk: &mut DecapsulationKey<P>,
) {
    #[cfg(not(feature = "small-memory"))]
    {
        kpke::key_gen::<P, B>(d, &mut dk.ek.pke, dk.s_hat.as_mut());
        dk.ek.pke.encode::<B>(dk.ek.encoded.as_mut());
    }
    #[cfg(feature = "small-memory")]
    {
        // Into the encodings (dk_PKE in a scratch of ek's size), then decoded into the key.
        let mut s_bytes = P::EkBytes::zeroed();
        kpke::stream::key_gen::<P, B>(d, dk.ek.encoded.as_mut(), s_bytes.as_mut());
        decode_s_hat::<B>(&s_bytes.as_ref()[..384 * P::K], dk.s_hat.as_mut());
        pqlab_arith::wipe::wipe(s_bytes.as_mut());
        let (t_bytes, rho) = dk.ek.encoded.as_ref().split_at(384 * P::K);
        decode_s_hat::<B>(t_bytes, dk.ek.pke.t_hat.as_mut());
        dk.ek.pke.rho.copy_from_slice(rho);
    }
    dk.ek.h = h(dk.ek.encoded.as_ref());
    dk.seed[..32].copy_from_slice(d);
    dk.seed[32..].copy_from_slice(z);
    dk.has_seed = true;
}

/// FIPS 203, Algorithm 17: ML-KEM.Encaps_internal(ek, m), into `out` (the ciphertext is
/// encoded where the caller returns it, with no copy on the way).
pub(crate) fn encaps_internal<P: ParameterSet>(
    ek: &EncapsulationKey<P>,
    m: &[u8; 32],
    out: &mut (Ciphertext<P>, SharedSecret),
) {
    dispatch!(B => encaps_internal_with::<P, B>(ek, m, out));
}

/// [`encaps_internal`] on the kernels of `B`.
pub(crate) fn encaps_internal_with<P: ParameterSet, B: Ops>(
    ek: &EncapsulationKey<P>,
    m: &[u8; 32],
    out: &mut (Ciphertext<P>, SharedSecret),
) {
    // (K, r) = G(m || H(ek))
    let (mut k, mut r) = g(&[m, &ek.h]);
    let c = out.0.encoded.as_mut();
    #[cfg(not(feature = "small-memory"))]
    kpke::encrypt::<P, B>(&ek.pke, m, &r, c);
    #[cfg(feature = "small-memory")]
    let t_hat = ek.pke.t_hat.as_ref();
    #[cfg(feature = "small-memory")]
    kpke::stream::encrypt::<P, B>(
        &ek.pke.rho,
        |i, p| pair(&t_hat[i], p),
        m,
        &r,
        &mut |off, b| {
            c[off..off + b.len()].copy_from_slice(b);
        },
    );
    out.1.0 = k;
    k.zeroize();
    r.zeroize();
}

/// FIPS 203, Algorithm 18: ML-KEM.Decaps_internal(dk, c), with implicit rejection.
///
/// The re-encryption comparison and the choice between K' and K_bar are constant time
/// (`subtle`): nothing branches on, or indexes memory by, whether the ciphertext was valid.
pub(crate) fn decaps_internal<P: ParameterSet>(
    dk: &DecapsulationKey<P>,
    c: &Ciphertext<P>,
) -> SharedSecret {
    dispatch!(B => decaps_internal_with::<P, B>(dk, c))
}

/// [`decaps_internal`] on the kernels of `B`.
pub(crate) fn decaps_internal_with<P: ParameterSet, B: Ops>(
    dk: &DecapsulationKey<P>,
    c: &Ciphertext<P>,
) -> SharedSecret {
    let c_bytes = c.encoded.as_ref();
    #[cfg(feature = "small-memory")]
    {
        let (s_hat, t_hat) = (dk.s_hat.as_ref(), dk.ek.pke.t_hat.as_ref());
        decaps_stream::<P, B>(
            |i, p| pair(&s_hat[i], p),
            &dk.ek.pke.rho,
            |i, p| pair(&t_hat[i], p),
            &dk.ek.h,
            dk.z(),
            c_bytes,
        )
    }
    #[cfg(not(feature = "small-memory"))]
    {
        // m' = K-PKE.Decrypt(dk_PKE, c)
        let mut m_prime = kpke::decrypt::<P, B>(dk.s_hat.as_ref(), c_bytes);
        // (K', r') = G(m' || h)
        let (mut k_prime, mut r_prime) = g(&[&m_prime, &dk.ek.h]);
        // K_bar = J(z || c)
        let mut k_bar = j(&[dk.z(), c_bytes]);
        // c' = K-PKE.Encrypt(ek_PKE, m', r'); equal = (c == c'), in constant time
        let mut c_prime = P::CtBytes::zeroed();
        kpke::encrypt::<P, B>(&dk.ek.pke, &m_prime, &r_prime, c_prime.as_mut());
        let equal = subtle::Choice::from(pqlab_arith::ct::bytes_eq(c_bytes, c_prime.as_ref()));
        pqlab_arith::wipe::wipe(c_prime.as_mut());
        select_key(
            &mut k_prime,
            &mut k_bar,
            equal,
            &mut [&mut m_prime, &mut r_prime],
        )
    }
}

/// FIPS 203, Algorithm 18 lines 10 and 11: K' if the re-encryption matched (`equal`), else
/// K_bar, chosen in constant time; wipes the working secrets (`k_prime`, `k_bar`, `wipe`).
fn select_key(
    k_prime: &mut [u8; 32],
    k_bar: &mut [u8; 32],
    equal: subtle::Choice,
    wipe: &mut [&mut [u8; 32]],
) -> SharedSecret {
    // if c != c' then K' = K_bar
    for (k, kb) in k_prime.iter_mut().zip(k_bar.iter()) {
        k.conditional_assign(kb, !equal);
    }
    let shared = SharedSecret(*k_prime);
    k_prime.zeroize();
    k_bar.zeroize();
    for w in wipe {
        w.zeroize();
    }
    shared
}

/// FIPS 203, Algorithm 18 (ML-KEM.Decaps_internal) in small memory (`kpke::stream`): dk_PKE
/// given pair by pair (`s(i, p)`), ek_PKE as rho and t_hat pair by pair (`t(i, p)`), h = H(ek)
/// and z; the re-encryption is compared with `c` chunk by chunk as it is made (c' is never
/// held). The key may come decoded or straight from its encoding ([`crate::encoded`]).
#[cfg(feature = "small-memory")]
pub(crate) fn decaps_stream<P: ParameterSet, B: Ops>(
    s: impl Fn(usize, usize) -> (i16, i16),
    rho: &[u8; 32],
    t: impl Fn(usize, usize) -> (i16, i16),
    h_ek: &[u8; 32],
    z: &[u8],
    c: &[u8],
) -> SharedSecret {
    // m' = K-PKE.Decrypt(dk_PKE, c)
    let mut m_prime = kpke::stream::decrypt::<P, B>(s, c);
    // (K', r') = G(m' || h)
    let (mut k_prime, mut r_prime) = g(&[&m_prime, h_ek]);
    // K_bar = J(z || c)
    let mut k_bar = j(&[z, c]);
    // c' = K-PKE.Encrypt(ek_PKE, m', r'); equal = (c == c'), in constant time
    let equal = kpke::stream::encrypt_equals::<P, B>(rho, t, &m_prime, &r_prime, c);
    select_key(
        &mut k_prime,
        &mut k_bar,
        equal,
        &mut [&mut m_prime, &mut r_prime],
    )
}

/// The encapsulation key check of FIPS 203, Section 7.2: the type check (length 384 k + 32) and
/// the modulus check (ByteEncode12(ByteDecode12(ek\[0:384k\])) = ek\[0:384k\], i.e. every encoded
/// value is below q). `h_ek` is H(ek) when the caller has it already.
pub(crate) fn check_encapsulation_key<P: ParameterSet>(
    bytes: &[u8],
    h_ek: Option<[u8; 32]>,
) -> Result<EncapsulationKey<P>, Error> {
    dispatch!(B => check_encapsulation_key_with::<P, B>(bytes, h_ek))
}

/// [`check_encapsulation_key`] on the kernels of `B`.
fn check_encapsulation_key_with<P: ParameterSet, B: Ops>(
    bytes: &[u8],
    h_ek: Option<[u8; 32]>,
) -> Result<EncapsulationKey<P>, Error> {
    check_len("encapsulation key", bytes, P::EK_LEN)?;
    let (t_bytes, rho_bytes) = bytes.split_at(384 * P::K);
    let mut ek = EncapsulationKey::<P>::empty();
    for (t, chunk) in ek
        .pke
        .t_hat
        .as_mut()
        .iter_mut()
        .zip(t_bytes.chunks_exact(384))
    {
        if !B::byte_decode12_checked(chunk, &mut t.0) {
            return Err(Error::ModulusCheck);
        }
    }
    let mut rho = [0u8; 32];
    rho.copy_from_slice(rho_bytes);
    ek.encoded.as_mut().copy_from_slice(bytes);
    ek.h = h_ek.unwrap_or_else(|| h(bytes));
    ek.pke.expand::<B>(&rho);
    Ok(ek)
}

/// The decapsulation key checks of FIPS 203, Section 7.3, on an expanded key
/// dk = dk_PKE || ek || h || z: the type check (length 768 k + 96) and the hash check
/// (H(dk\[384k : 768k + 32\]) = h). In addition the embedded ek must pass the modulus check of
/// Section 7.2, which every output of ML-KEM.KeyGen does. The key has no seed.
pub(crate) fn check_decapsulation_key<P: ParameterSet>(
    bytes: &[u8],
) -> Result<DecapsulationKey<P>, Error> {
    dispatch!(B => check_decapsulation_key_with::<P, B>(bytes))
}

/// [`check_decapsulation_key`] on the kernels of `B`.
fn check_decapsulation_key_with<P: ParameterSet, B: Ops>(
    bytes: &[u8],
) -> Result<DecapsulationKey<P>, Error> {
    check_len("decapsulation key", bytes, P::DK_LEN)?;
    let DkParts {
        dk_pke,
        ek: ek_bytes,
        h_ek,
        z,
    } = split_decapsulation_key::<P>(bytes)?;
    let mut dk = DecapsulationKey::<P>::empty();
    dk.ek = check_encapsulation_key_with::<P, B>(ek_bytes, Some(h_ek))?;
    decode_s_hat::<B>(dk_pke, dk.s_hat.as_mut());
    dk.seed[32..].copy_from_slice(z);
    Ok(dk)
}

/// The parts of an expanded decapsulation key dk = dk_PKE || ek || h || z.
pub(crate) struct DkParts<'a> {
    /// ByteEncode12(s_hat).
    pub(crate) dk_pke: &'a [u8],
    /// The encapsulation key.
    pub(crate) ek: &'a [u8],
    /// H(ek), which the hash check found equal to the stored h.
    pub(crate) h_ek: [u8; 32],
    /// The implicit-rejection seed.
    pub(crate) z: &'a [u8],
}

/// dk (of the checked length 768 k + 96) in its parts, after the hash check of FIPS 203,
/// Section 7.3 (H(ek) = h; public data, a hash of the public key).
pub(crate) fn split_decapsulation_key<P: ParameterSet>(bytes: &[u8]) -> Result<DkParts<'_>, Error> {
    let (dk_pke, rest) = bytes.split_at(384 * P::K);
    let (ek_bytes, rest) = rest.split_at(P::EK_LEN);
    let (h_stored, z) = rest.split_at(32);
    let h_ek = h(ek_bytes);
    if !bool::from(h_ek.as_slice().ct_eq(h_stored)) {
        return Err(Error::HashCheck);
    }
    Ok(DkParts {
        dk_pke,
        ek: ek_bytes,
        h_ek,
        z,
    })
}

/// The expanded encoding dk = ByteEncode12(s_hat) || ek || H(ek) || z (FIPS 203, Algorithm 16
/// line 3).
pub(crate) fn encode_decapsulation_key<P: ParameterSet>(dk: &DecapsulationKey<P>, out: &mut [u8]) {
    dispatch!(B => encode_decapsulation_key_with::<P, B>(dk, out))
}

/// [`encode_decapsulation_key`] on the kernels of `B`.
pub(crate) fn encode_decapsulation_key_with<P: ParameterSet, B: Ops>(
    dk: &DecapsulationKey<P>,
    out: &mut [u8],
) {
    let (dk_pke, rest) = out.split_at_mut(384 * P::K);
    let (ek_bytes, rest) = rest.split_at_mut(P::EK_LEN);
    let (h_out, z_out) = rest.split_at_mut(32);
    kpke::encode_s_hat::<B>(dk.s_hat.as_ref(), dk_pke);
    ek_bytes.copy_from_slice(dk.ek.encoded.as_ref());
    h_out.copy_from_slice(&dk.ek.h);
    z_out.copy_from_slice(dk.z());
}
