//! Encodings (FIPS 204, Sections 7.1 and 7.2: Algorithms 16 to 28).
//!
//! Bit strings are packed little-endian: coefficient i occupies bits \[i*bits, (i+1)*bits) of the
//! byte string, least significant bit first, as BitsToBytes (Algorithm 12) lays them out.

use pqlab_arith::array::FixedArray;
use pqlab_keccak::Shake256;

use crate::Error;
use crate::backend::{Coeffs, Ops};
use crate::keys::{SigningKey, VerifyingKey};
use crate::params::{ByteArray, D, ParameterSet};
use crate::poly::Poly;

/// FIPS 204, Algorithm 16: SimpleBitPack(w, 2^bits - 1), for coefficients in [0, 2^bits).
pub(crate) fn simple_bit_pack(w: &Coeffs, bits: usize, out: &mut [u8]) {
    let _k = pqlab_profile::enter(pqlab_profile::Kernel::Encode);
    debug_assert_eq!(out.len(), 32 * bits);
    let mut acc: u64 = 0;
    let mut n = 0;
    let mut k = 0;
    for &c in w.iter() {
        acc |= u64::from(c as u32) << n;
        n += bits;
        while n >= 8 {
            out[k] = acc as u8;
            acc >>= 8;
            n -= 8;
            k += 1;
        }
    }
}

/// FIPS 204, Algorithm 17: BitPack(w, a, b), for coefficients in [-a, b] with
/// bits = bitlen(a + b): packs b - w_i.
pub(crate) fn bit_pack(w: &Coeffs, bits: usize, b: i32, out: &mut [u8]) {
    let _k = pqlab_profile::enter(pqlab_profile::Kernel::Encode);
    let mut shifted = [0i32; 256];
    for (s, &c) in shifted.iter_mut().zip(w.iter()) {
        *s = b - c;
    }
    simple_bit_pack(&shifted, bits, out);
    pqlab_arith::wipe::wipe(&mut shifted);
}

/// FIPS 204, Algorithm 18: SimpleBitUnpack(v, 2^bits - 1).
pub(crate) fn simple_bit_unpack(v: &[u8], bits: usize, w: &mut Coeffs) {
    let _k = pqlab_profile::enter(pqlab_profile::Kernel::Encode);
    debug_assert_eq!(v.len(), 32 * bits);
    let mask = (1u64 << bits) - 1;
    let mut acc: u64 = 0;
    let mut n = 0;
    let mut bytes = v.iter();
    for c in w.iter_mut() {
        while n < bits {
            acc |= u64::from(*bytes.next().unwrap_or(&0)) << n;
            n += 8;
        }
        *c = (acc & mask) as i32;
        acc >>= bits;
        n -= bits;
    }
}

/// FIPS 204, Algorithm 19: BitUnpack(v, a, b) with bits = bitlen(a + b): w_i = b - x_i.
pub(crate) fn bit_unpack(v: &[u8], bits: usize, b: i32, w: &mut Coeffs) {
    let _k = pqlab_profile::enter(pqlab_profile::Kernel::Encode);
    simple_bit_unpack(v, bits, w);
    for c in w.iter_mut() {
        *c = b - *c;
    }
}

/// FIPS 204, Algorithm 20: HintBitPack(h) for the first K polynomials of `h` (entries 0 or 1).
/// The signer has checked that h has at most omega ones.
pub(crate) fn hint_bit_pack<P: ParameterSet>(h: &[Poly], y: &mut [u8]) {
    let _k = pqlab_profile::enter(pqlab_profile::Kernel::Encode);
    debug_assert_eq!(y.len(), P::OMEGA + P::K);
    y.fill(0);
    let mut index = 0;
    for i in 0..P::K {
        for j in 0..256 {
            if h[i].0[j] != 0 && index < P::OMEGA {
                y[index] = j as u8;
                index += 1;
            }
        }
        y[P::OMEGA + i] = index as u8;
    }
}

/// FIPS 204, Algorithm 21: HintBitUnpack(y), with every check of the standard: the running
/// counts are non-decreasing and at most omega, the indices of each polynomial strictly
/// increase, and the unused index bytes are zero. Returns `false` for ⊥.
pub(crate) fn hint_bit_unpack<P: ParameterSet>(y: &[u8], h: &mut [Poly]) -> bool {
    let _k = pqlab_profile::enter(pqlab_profile::Kernel::Encode);
    let mut index = 0usize;
    for i in 0..P::K {
        h[i] = Poly::ZERO;
        let end = usize::from(y[P::OMEGA + i]);
        if end < index || end > P::OMEGA {
            return false;
        }
        let first = index;
        while index < end {
            if index > first && y[index - 1] >= y[index] {
                return false;
            }
            h[i].0[usize::from(y[index])] = 1;
            index += 1;
        }
    }
    y[index..P::OMEGA].iter().all(|&b| b == 0)
}

/// FIPS 204, Algorithm 22: pkEncode(rho, t1).
pub(crate) fn pk_encode<P: ParameterSet, B: Ops>(rho: &[u8; 32], t1: &[Poly], pk: &mut [u8]) {
    pk[..32].copy_from_slice(rho);
    for (chunk, t) in pk[32..].chunks_exact_mut(320).zip(t1.iter().take(P::K)) {
        B::simple_bit_pack(&t.0, 10, chunk);
    }
}

/// tr = H(pk, 64) (FIPS 204, Algorithm 6 line 9 and Algorithm 8 line 6).
pub(crate) fn hash_public_key(pk: &[u8]) -> [u8; 64] {
    let mut tr = [0u8; 64];
    Shake256::digest_parts(&[pk], &mut tr);
    tr
}

/// Builds a [`VerifyingKey`] from (rho, t1): encodes it and computes tr.
pub(crate) fn verifying_key_from_parts<P: ParameterSet, B: Ops>(
    rho: &[u8; 32],
    t1: &[Poly],
) -> VerifyingKey<P> {
    let mut encoded = P::PkBytes::zeroed();
    pk_encode::<P, B>(rho, t1, encoded.as_mut());
    let tr = hash_public_key(encoded.as_ref());
    VerifyingKey {
        encoded,
        rho: *rho,
        t1_hat: t1_hat::<P, B>(t1),
        tr,
    }
}

/// A [`VerifyingKey`] from its encoding and the (rho, t1, tr) it encodes, as key generation
/// has them.
pub(crate) fn verifying_key_from_encoded<P: ParameterSet, B: Ops>(
    encoded: P::PkBytes,
    rho: &[u8; 32],
    t1: &[Poly],
    tr: [u8; 64],
) -> VerifyingKey<P> {
    VerifyingKey {
        encoded,
        rho: *rho,
        t1_hat: t1_hat::<P, B>(t1),
        tr,
    }
}

/// NTT(t1 * 2^d) for the first K polynomials of t1 (FIPS 204, Algorithm 8 line 10).
fn t1_hat<P: ParameterSet, B: Ops>(t1: &[Poly]) -> P::VecK {
    let mut t1_hat = P::VecK::ZERO;
    t1_hat.as_mut().copy_from_slice(&t1[..P::K]);
    for p in t1_hat.as_mut() {
        for c in p.0.iter_mut() {
            *c <<= D;
        }
        p.ntt::<B>();
    }
    t1_hat
}

/// FIPS 204, Algorithm 23: pkDecode(pk). The length has been checked.
pub(crate) fn pk_decode<P: ParameterSet, B: Ops>(pk: &[u8]) -> VerifyingKey<P> {
    let mut encoded = P::PkBytes::zeroed();
    encoded.as_mut().copy_from_slice(pk);
    let mut rho = [0u8; 32];
    rho.copy_from_slice(&pk[..32]);
    let mut t1 = P::VecK::ZERO;
    for (chunk, t) in pk[32..].chunks_exact(320).zip(t1.as_mut()) {
        B::simple_bit_unpack(chunk, 10, &mut t.0);
    }
    let tr = hash_public_key(pk);
    VerifyingKey {
        encoded,
        rho,
        t1_hat: t1_hat::<P, B>(t1.as_ref()),
        tr,
    }
}

/// FIPS 204, Algorithm 24: skEncode(rho, K, tr, s1, s2, t0).
pub(crate) fn sk_encode<P: ParameterSet, B: Ops>(sk: &SigningKey<P>, out: &mut [u8]) {
    out[..32].copy_from_slice(&sk.rho);
    out[32..64].copy_from_slice(&sk.key);
    out[64..128].copy_from_slice(&sk.tr);
    let eta_len = 32 * P::ETA_BITS;
    let eta = P::ETA as i32;
    let (s_part, t0_part) = out[128..].split_at_mut((P::L + P::K) * eta_len);
    let s = sk.s1.as_ref().iter().chain(sk.s2.as_ref());
    for (chunk, p) in s_part.chunks_exact_mut(eta_len).zip(s) {
        B::bit_pack(&p.0, P::ETA_BITS, eta, chunk);
    }
    for (chunk, p) in t0_part
        .chunks_exact_mut(32 * D as usize)
        .zip(sk.t0.as_ref())
    {
        B::bit_pack(&p.0, D as usize, 1 << (D - 1), chunk);
    }
}

/// FIPS 204, Algorithm 25: skDecode(sk), rejecting s1 or s2 coefficients outside [-eta, eta]
/// (values that skEncode cannot produce). The length has been checked. The range check
/// accumulates without early exit, so its timing does not depend on where a bad value sits.
pub(crate) fn sk_decode<P: ParameterSet, B: Ops>(bytes: &[u8]) -> Result<SigningKey<P>, Error> {
    let mut sk = SigningKey::<P>::empty();
    sk.rho.copy_from_slice(&bytes[..32]);
    sk.key.copy_from_slice(&bytes[32..64]);
    sk.tr.copy_from_slice(&bytes[64..128]);
    let eta_len = 32 * P::ETA_BITS;
    let eta = P::ETA as i32;
    let (s_part, t0_part) = bytes[128..].split_at((P::L + P::K) * eta_len);
    let mut out_of_range = 0i32;
    let (s1, s2) = (sk.s1.as_mut(), sk.s2.as_mut());
    for (chunk, p) in s_part
        .chunks_exact(eta_len)
        .zip(s1.iter_mut().chain(s2.iter_mut()))
    {
        B::bit_unpack(chunk, P::ETA_BITS, eta, &mut p.0);
        for &c in p.0.iter() {
            // c = eta - x is at most eta; it is below -eta exactly when c + eta is negative.
            out_of_range |= (c + eta) >> 31;
        }
    }
    for (chunk, p) in t0_part.chunks_exact(32 * D as usize).zip(sk.t0.as_mut()) {
        B::bit_unpack(chunk, D as usize, 1 << (D - 1), &mut p.0);
    }
    if out_of_range != 0 {
        return Err(Error::MalformedSecretKey);
    }
    Ok(sk)
}

/// FIPS 204, Algorithm 26: sigEncode(c_tilde, z mod± q, h).
pub(crate) fn sig_encode<P: ParameterSet, B: Ops>(
    c_tilde: &[u8],
    z: &[Poly],
    h: &[Poly],
    sig: &mut [u8],
) {
    let (ct, rest) = sig.split_at_mut(P::C_TILDE_LEN);
    ct.copy_from_slice(c_tilde);
    let z_len = 32 * P::GAMMA1_BITS;
    let (z_part, h_part) = rest.split_at_mut(P::L * z_len);
    for (chunk, p) in z_part.chunks_exact_mut(z_len).zip(z.iter().take(P::L)) {
        B::bit_pack(&p.0, P::GAMMA1_BITS, P::GAMMA1, chunk);
    }
    hint_bit_pack::<P>(h, h_part);
}

/// FIPS 204, Algorithm 27: sigDecode(sigma). Writes z and h; returns `false` when the hint is
/// malformed (⊥). The c_tilde part is the first [`ParameterSet::C_TILDE_LEN`] bytes of `sig`.
pub(crate) fn sig_decode<P: ParameterSet, B: Ops>(
    sig: &[u8],
    z: &mut [Poly],
    h: &mut [Poly],
) -> bool {
    let z_len = 32 * P::GAMMA1_BITS;
    let rest = &sig[P::C_TILDE_LEN..];
    let (z_part, h_part) = rest.split_at(P::L * z_len);
    for (chunk, p) in z_part.chunks_exact(z_len).zip(z.iter_mut()) {
        B::bit_unpack(chunk, P::GAMMA1_BITS, P::GAMMA1, &mut p.0);
    }
    hint_bit_unpack::<P>(h_part, h)
}

/// FIPS 204, Algorithm 28: w1Encode(w1) for the first K polynomials, written to `out`
/// (K * 32 * W1_BITS bytes).
pub(crate) fn w1_encode<P: ParameterSet, B: Ops>(w1: &[Poly], out: &mut [u8]) {
    let len = 32 * P::W1_BITS;
    for (chunk, p) in out.chunks_exact_mut(len).zip(w1.iter().take(P::K)) {
        B::simple_bit_pack(&p.0, P::W1_BITS, chunk);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bit_pack_round_trips() {
        let mut x: u32 = 1;
        for bits in [3usize, 4, 6, 10, 13, 18, 20] {
            let b = 1i32 << (bits - 1);
            let mut w = [0i32; 256];
            for c in w.iter_mut() {
                x = x.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
                *c = b - (x >> 8) as i32 % (1 << bits);
            }
            let mut buf = [0u8; 32 * 20];
            bit_pack(&w, bits, b, &mut buf[..32 * bits]);
            let mut back = [0i32; 256];
            bit_unpack(&buf[..32 * bits], bits, b, &mut back);
            assert_eq!(back, w, "bits={bits}");
        }
    }

    #[test]
    fn simple_bit_pack_is_little_endian() {
        let mut w = [0i32; 256];
        w[0] = 0x3ff;
        w[1] = 0x001;
        let mut buf = [0u8; 320];
        simple_bit_pack(&w, 10, &mut buf);
        assert_eq!(&buf[..3], &[0xff, 0x07, 0x00]);
    }
}
