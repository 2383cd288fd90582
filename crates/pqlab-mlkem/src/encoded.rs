//! ML-KEM on encoded keys, in the manner of PQClean's `crypto_kem_*` API: keys and ciphertexts
//! are byte strings the caller holds, outputs are written into the caller's buffers, and no
//! decoded key is returned by value (a decoded key is kilobytes: every move of one costs that
//! much stack on a microcontroller).
//!
//! Under the `small-memory` feature nothing is decoded whole: s_hat and t_hat are read pair by
//! pair from their ByteEncode12 encodings inside the keys, A_hat is sampled entry by entry and
//! the re-encryption is compared chunk by chunk (`kpke::stream`), so that the working memory
//! is a few polynomials and one Keccak state. In the default configuration these functions
//! decode the keys (A_hat expanded) and run the usual code. The outputs are the same.

use crate::Error;
use crate::backend::{Ops, dispatch};
use crate::error::check_len;
use crate::keys::SharedSecret;
use crate::params::ParameterSet;

/// FIPS 203, Algorithm 16: ML-KEM.KeyGen_internal(d, z), writing ek (384 k + 32 bytes) into
/// `ek_out` and the expanded dk = dk_PKE || ek || H(ek) || z (768 k + 96 bytes, line 3) into
/// `dk_out`. Seeded: `d` and `z` must be fresh randomness (FIPS 203, Algorithm 19 draws them).
///
/// # Errors
/// [`Error::InvalidLength`] when a buffer has the wrong length (nothing is written then).
pub fn key_gen_encoded<P: ParameterSet>(
    d: &[u8; 32],
    z: &[u8; 32],
    ek_out: &mut [u8],
    dk_out: &mut [u8],
) -> Result<(), Error> {
    check_len("encapsulation key buffer", ek_out, P::EK_LEN)?;
    check_len("decapsulation key buffer", dk_out, P::DK_LEN)?;
    dispatch!(B => key_gen_with::<P, B>(d, z, ek_out, dk_out));
    Ok(())
}

/// FIPS 203, Algorithm 17: ML-KEM.Encaps_internal(ek, m) on the encoded `ek`, after its checks
/// (Section 7.2: length and modulus check), writing the ciphertext into `ct_out` and returning
/// the shared secret. Seeded: `m` must be fresh randomness (Algorithm 20 draws it).
///
/// # Errors
/// [`Error::InvalidLength`] for a key or buffer of the wrong length, [`Error::ModulusCheck`]
/// for a key with an encoded value not below q (nothing is written then).
pub fn encapsulate_encoded<P: ParameterSet>(
    ek: &[u8],
    m: &[u8; 32],
    ct_out: &mut [u8],
) -> Result<SharedSecret, Error> {
    check_len("encapsulation key", ek, P::EK_LEN)?;
    check_len("ciphertext buffer", ct_out, P::CT_LEN)?;
    dispatch!(B => encaps_with::<P, B>(ek, m, ct_out))
}

/// FIPS 203, Algorithm 18: ML-KEM.Decaps_internal(dk, c) on the encoded (expanded) `dk` and
/// `ct`, after the checks of Section 7.3 (lengths, hash check) and the modulus check of the
/// embedded ek; implicit rejection in constant time.
///
/// # Errors
/// [`Error::InvalidLength`], [`Error::HashCheck`] or [`Error::ModulusCheck`] for a key or
/// ciphertext that fails those checks.
pub fn decapsulate_encoded<P: ParameterSet>(dk: &[u8], ct: &[u8]) -> Result<SharedSecret, Error> {
    check_len("decapsulation key", dk, P::DK_LEN)?;
    check_len("ciphertext", ct, P::CT_LEN)?;
    dispatch!(B => decaps_with::<P, B>(dk, ct))
}

/// [`key_gen_encoded`] on the kernels of `B`: the key is built in place in this frame (no
/// by-value return, so one copy of it on the stack) and encoded.
#[cfg(not(feature = "small-memory"))]
fn key_gen_with<P: ParameterSet, B: Ops>(
    d: &[u8; 32],
    z: &[u8; 32],
    ek_out: &mut [u8],
    dk_out: &mut [u8],
) {
    let mut dk = crate::DecapsulationKey::<P>::empty();
    crate::kem::key_gen_internal_with::<P, B>(d, z, &mut dk);
    ek_out.copy_from_slice(dk.encapsulation_key().as_bytes().as_ref());
    crate::kem::encode_decapsulation_key_with::<P, B>(&dk, dk_out);
}

/// [`key_gen_encoded`] on the kernels of `B`, streaming into the encodings: dk_PKE straight
/// into `dk_out`, ek into `ek_out`, then ek, H(ek) and z after dk_PKE.
#[cfg(feature = "small-memory")]
fn key_gen_with<P: ParameterSet, B: Ops>(
    d: &[u8; 32],
    z: &[u8; 32],
    ek_out: &mut [u8],
    dk_out: &mut [u8],
) {
    let (dk_pke, rest) = dk_out.split_at_mut(384 * P::K);
    crate::kpke::stream::key_gen::<P, B>(d, ek_out, dk_pke);
    let (ek_copy, rest) = rest.split_at_mut(P::EK_LEN);
    let (h_out, z_out) = rest.split_at_mut(32);
    ek_copy.copy_from_slice(ek_out);
    h_out.copy_from_slice(&crate::hash::h(ek_out));
    z_out.copy_from_slice(z);
}

/// [`encapsulate_encoded`] on the kernels of `B`: the key is decoded and checked.
#[cfg(not(feature = "small-memory"))]
fn encaps_with<P: ParameterSet, B: Ops>(
    ek: &[u8],
    m: &[u8; 32],
    ct_out: &mut [u8],
) -> Result<SharedSecret, Error> {
    let key = crate::kem::check_encapsulation_key::<P>(ek, None)?;
    let (ct, ss) = key.encapsulate_deterministic(m);
    ct_out.copy_from_slice(ct.as_bytes().as_ref());
    Ok(ss)
}

/// The modulus check of FIPS 203, Section 7.2 on ByteEncode12(t_hat) (384 k bytes), one
/// polynomial at a time through a scratch polynomial (public data). Never inlined: the
/// scratch then takes stack only during the check.
#[cfg(feature = "small-memory")]
#[inline(never)]
fn modulus_check<B: Ops>(t_bytes: &[u8]) -> Result<(), Error> {
    let mut scratch = crate::poly::Poly::ZERO;
    for chunk in t_bytes.chunks_exact(384) {
        if !B::byte_decode12_checked(chunk, &mut scratch.0) {
            return Err(Error::ModulusCheck);
        }
    }
    Ok(())
}

/// ek = ByteEncode12(t_hat) || rho split into its two parts.
#[cfg(feature = "small-memory")]
fn split_ek<P: ParameterSet>(ek: &[u8]) -> (&[u8], [u8; 32]) {
    let (t_bytes, rho_bytes) = ek.split_at(384 * P::K);
    let mut rho = [0u8; 32];
    rho.copy_from_slice(rho_bytes);
    (t_bytes, rho)
}

/// [`encapsulate_encoded`] on the kernels of `B`, streaming from the encoding.
#[cfg(feature = "small-memory")]
fn encaps_with<P: ParameterSet, B: Ops>(
    ek: &[u8],
    m: &[u8; 32],
    ct_out: &mut [u8],
) -> Result<SharedSecret, Error> {
    use crate::kpke::stream::vec_pair12;
    use zeroize::Zeroize;

    let (t_bytes, rho) = split_ek::<P>(ek);
    modulus_check::<B>(t_bytes)?;
    // (K, r) = G(m || H(ek))
    let (mut k, mut r) = crate::hash::g(&[m, &crate::hash::h(ek)]);
    crate::kpke::stream::encrypt::<P, B>(
        &rho,
        |i, p| vec_pair12(t_bytes, i, p),
        m,
        &r,
        &mut |off, b| ct_out[off..off + b.len()].copy_from_slice(b),
    );
    let ss = SharedSecret(k);
    k.zeroize();
    r.zeroize();
    Ok(ss)
}

/// [`decapsulate_encoded`] on the kernels of `B`: the key is decoded and checked.
#[cfg(not(feature = "small-memory"))]
fn decaps_with<P: ParameterSet, B: Ops>(dk: &[u8], ct: &[u8]) -> Result<SharedSecret, Error> {
    let key = crate::kem::check_decapsulation_key::<P>(dk)?;
    let c = crate::Ciphertext::<P>::from_bytes(ct)?;
    Ok(key.decapsulate(&c))
}

/// [`decapsulate_encoded`] on the kernels of `B`, streaming from the encoding:
/// dk = dk_PKE || ek || h || z.
#[cfg(feature = "small-memory")]
fn decaps_with<P: ParameterSet, B: Ops>(dk: &[u8], ct: &[u8]) -> Result<SharedSecret, Error> {
    use crate::kpke::stream::{pair12_reduced, vec_pair12};

    let crate::kem::DkParts {
        dk_pke,
        ek,
        h_ek,
        z,
    } = crate::kem::split_decapsulation_key::<P>(dk)?;
    let (t_bytes, rho) = split_ek::<P>(ek);
    modulus_check::<B>(t_bytes)?;
    Ok(crate::kem::decaps_stream::<P, B>(
        |i, p| pair12_reduced(&dk_pke[384 * i..384 * (i + 1)], p),
        &rho,
        |i, p| vec_pair12(t_bytes, i, p),
        &h_ek,
        z,
        ct,
    ))
}
