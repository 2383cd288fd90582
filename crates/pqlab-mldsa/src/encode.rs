//! Encodings (FIPS 204, Sections 7.1 and 7.2: Algorithms 16 to 28).
//!
//! Bit strings are packed little-endian: coefficient i occupies bits \[i*bits, (i+1)*bits) of the
//! byte string, least significant bit first, as BitsToBytes (Algorithm 12) lays them out.

use pqlab_arith::array::FixedArray;
use pqlab_keccak::Shake256;
use zeroize::Zeroize;

use crate::Error;
use crate::backend::{Coeffs, Ops};
use crate::keys::{SigningKey, VerifyingKey};
use crate::params::{ByteArray, D, ParameterSet};
use crate::poly::Poly;

/// FIPS 204, Algorithm 16: SimpleBitPack(w, 2^bits - 1), for coefficients in [0, 2^bits).
pub(crate) fn simple_bit_pack(w: &Coeffs, bits: usize, out: &mut [u8]) {
    let _k = pqlab_profile::enter(pqlab_profile::Kernel::Encode);
    debug_assert_eq!(out.len(), 32 * bits);
    pack_as::<false>(w, bits, 0, out);
}

/// FIPS 204, Algorithm 17: BitPack(w, a, b), for coefficients in [-a, b] with
/// bits = bitlen(a + b): packs b - w_i.
pub(crate) fn bit_pack(w: &Coeffs, bits: usize, b: i32, out: &mut [u8]) {
    let _k = pqlab_profile::enter(pqlab_profile::Kernel::Encode);
    pack_as::<true>(w, bits, b, out);
}

/// FIPS 204, Algorithm 18: SimpleBitUnpack(v, 2^bits - 1).
pub(crate) fn simple_bit_unpack(v: &[u8], bits: usize, w: &mut Coeffs) {
    let _k = pqlab_profile::enter(pqlab_profile::Kernel::Encode);
    debug_assert_eq!(v.len(), 32 * bits);
    unpack_as::<false>(v, bits, 0, w);
}

/// FIPS 204, Algorithm 19: BitUnpack(v, a, b) with bits = bitlen(a + b): w_i = b - x_i.
pub(crate) fn bit_unpack(v: &[u8], bits: usize, b: i32, w: &mut Coeffs) {
    let _k = pqlab_profile::enter(pqlab_profile::Kernel::Encode);
    unpack_as::<true>(v, bits, b, w);
}

/// Packs x_i = w_i (`NEG` false) or b - w_i (`NEG` true) on `bits` bits, through a copy of the
/// group loop for each width of the standard (so that the compiler lays each one out
/// straight), or the general loop for any other width or a short `out`.
fn pack_as<const NEG: bool>(w: &Coeffs, bits: usize, b: i32, out: &mut [u8]) {
    if out.len() < 32 * bits {
        return pack_general::<NEG>(w, bits, b, out);
    }
    match bits {
        3 => pack_groups::<3, NEG>(w, b, out),
        4 => pack_groups::<4, NEG>(w, b, out),
        6 => pack_groups::<6, NEG>(w, b, out),
        10 => pack_groups::<10, NEG>(w, b, out),
        13 => pack_groups::<13, NEG>(w, b, out),
        18 => pack_groups::<18, NEG>(w, b, out),
        20 => pack_groups::<20, NEG>(w, b, out),
        _ => pack_general::<NEG>(w, bits, b, out),
    }
}

/// [`pack_as`] for `BITS` bits: eight coefficients (`BITS` bytes) at a time.
fn pack_groups<const BITS: usize, const NEG: bool>(w: &Coeffs, b: i32, out: &mut [u8]) {
    for (group, bytes) in w.chunks_exact(8).zip(out.chunks_exact_mut(BITS)) {
        let mut acc: u64 = 0;
        let mut n = 0;
        let mut k = 0;
        for &c in group {
            let x = if NEG { b - c } else { c };
            acc |= u64::from(x as u32) << n;
            n += BITS;
            while n >= 8 {
                bytes[k] = acc as u8;
                acc >>= 8;
                n -= 8;
                k += 1;
            }
        }
    }
}

/// [`pack_as`] for any width below 32: the coefficients one after the other through a bit
/// accumulator.
fn pack_general<const NEG: bool>(w: &Coeffs, bits: usize, b: i32, out: &mut [u8]) {
    let mut acc: u64 = 0;
    let mut n = 0;
    let mut k = 0;
    for &c in w.iter() {
        let x = if NEG { b - c } else { c };
        acc |= u64::from(x as u32) << n;
        n += bits;
        while n >= 8 {
            out[k] = acc as u8;
            acc >>= 8;
            n -= 8;
            k += 1;
        }
    }
}

/// Unpacks `bits`-bit values x_i into w_i = x_i (`NEG` false) or b - x_i (`NEG` true), as
/// [`pack_as`] lays them out (the general loop for a short `v`).
fn unpack_as<const NEG: bool>(v: &[u8], bits: usize, b: i32, w: &mut Coeffs) {
    if v.len() < 32 * bits {
        return unpack_general::<NEG>(v, bits, b, w);
    }
    match bits {
        3 => unpack_groups::<3, NEG>(v, b, w),
        4 => unpack_groups::<4, NEG>(v, b, w),
        6 => unpack_groups::<6, NEG>(v, b, w),
        10 => unpack_groups::<10, NEG>(v, b, w),
        13 => unpack_groups::<13, NEG>(v, b, w),
        18 => unpack_groups::<18, NEG>(v, b, w),
        20 => unpack_groups::<20, NEG>(v, b, w),
        _ => unpack_general::<NEG>(v, bits, b, w),
    }
}

/// [`unpack_as`] for `BITS` bits: eight coefficients (`BITS` bytes) at a time.
fn unpack_groups<const BITS: usize, const NEG: bool>(v: &[u8], b: i32, w: &mut Coeffs) {
    let mask = (1u64 << BITS) - 1;
    for (group, bytes) in w.chunks_exact_mut(8).zip(v.chunks_exact(BITS)) {
        let mut acc: u64 = 0;
        let mut n = 0;
        let mut k = 0;
        for c in group.iter_mut() {
            while n < BITS {
                acc |= u64::from(bytes[k]) << n;
                n += 8;
                k += 1;
            }
            let x = (acc & mask) as i32;
            *c = if NEG { b - x } else { x };
            acc >>= BITS;
            n -= BITS;
        }
    }
}

/// [`unpack_as`] for any width below 32: the coefficients one after the other through a bit
/// accumulator (missing bytes read as zero).
fn unpack_general<const NEG: bool>(v: &[u8], bits: usize, b: i32, w: &mut Coeffs) {
    let mask = (1u64 << bits) - 1;
    let mut acc: u64 = 0;
    let mut n = 0;
    let mut bytes = v.iter();
    for c in w.iter_mut() {
        while n < bits {
            acc |= u64::from(*bytes.next().unwrap_or(&0)) << n;
            n += 8;
        }
        let x = (acc & mask) as i32;
        *c = if NEG { b - x } else { x };
        acc >>= bits;
        n -= bits;
    }
}

/// FIPS 204, Algorithm 20: HintBitPack(h) into `y` (omega + k bytes), h given as one bit per
/// coefficient (bit j % 64 of word j / 64 of `h[i]` is h\[i\]\[j\]), with at most omega ones in
/// all. Runs on public data (the hints of a signature being output).
pub(crate) fn hint_bit_pack<P: ParameterSet>(h: &[[u64; 4]], y: &mut [u8]) {
    let _k = pqlab_profile::enter(pqlab_profile::Kernel::Encode);
    y.fill(0);
    let mut index = 0;
    for (i, row) in h.iter().enumerate() {
        // The set bits of each word, lowest first: j = 64 w + (the bit's place in word w).
        for (w, &word) in row.iter().enumerate() {
            let mut rest = word;
            while rest != 0 && index < P::OMEGA {
                y[index] = (64 * w + rest.trailing_zeros() as usize) as u8;
                index += 1;
                rest &= rest - 1;
            }
        }
        y[P::OMEGA + i] = index as u8;
    }
}

/// FIPS 204, Algorithm 21: HintBitUnpack(y), one row: h\[i\] from the running counts, with the
/// checks of the standard for this row (the count is non-decreasing and at most omega, the
/// indices strictly increase); returns `false` for ⊥. Rows go in order i = 0 to k - 1; the last
/// check of the standard (unused index bytes zero) is [`hint_tail_is_zero`].
pub(crate) fn hint_bit_unpack_row<P: ParameterSet>(y: &[u8], i: usize, h_i: &mut Poly) -> bool {
    let _k = pqlab_profile::enter(pqlab_profile::Kernel::Encode);
    *h_i = Poly::ZERO;
    let first = if i == 0 {
        0
    } else {
        usize::from(y[P::OMEGA + i - 1])
    };
    let end = usize::from(y[P::OMEGA + i]);
    if end < first || end > P::OMEGA {
        return false;
    }
    for index in first..end {
        if index > first && y[index - 1] >= y[index] {
            return false;
        }
        h_i.0[usize::from(y[index])] = 1;
    }
    true
}

/// FIPS 204, Algorithm 21 lines 13 to 15: the index bytes after the last count are zero.
pub(crate) fn hint_tail_is_zero<P: ParameterSet>(y: &[u8]) -> bool {
    let end = usize::from(y[P::OMEGA + P::K - 1]).min(P::OMEGA);
    y[end..P::OMEGA].iter().all(|&b| b == 0)
}

/// tr = H(pk, 64) (FIPS 204, Algorithm 6 line 9 and Algorithm 8 line 6).
pub(crate) fn hash_public_key(pk: &[u8]) -> [u8; 64] {
    let mut tr = [0u8; 64];
    Shake256::digest_parts(&[pk], &mut tr);
    tr
}

/// A [`VerifyingKey`] from its encoding and tr = H(pk, 64), as key generation has them (the
/// hash is not taken twice).
pub(crate) fn verifying_key_from_encoded<P: ParameterSet, B: Ops>(
    encoded: &P::PkBytes,
    tr: [u8; 64],
) -> VerifyingKey<P> {
    let pk = encoded.as_ref();
    let mut rho = [0u8; 32];
    rho.copy_from_slice(&pk[..32]);
    VerifyingKey {
        encoded: *encoded,
        rho,
        t1_hat: t1_hat::<P, B>(pk),
        tr,
    }
}

/// NTT(t1 * 2^d) for the t1 encoded in `pk` (FIPS 204, Algorithm 23 lines 2 to 4, then
/// Algorithm 8 line 10), built in place.
fn t1_hat<P: ParameterSet, B: Ops>(pk: &[u8]) -> P::VecK {
    let mut t1_hat = P::VecK::ZERO;
    for (i, p) in t1_hat.as_mut().iter_mut().enumerate() {
        t1_hat_row::<B>(pk, i, p);
    }
    t1_hat
}

/// NTT(t1\[i\] * 2^d) for row i of the t1 encoded in `pk` (FIPS 204, Algorithm 23 line 3,
/// then Algorithm 8 line 10), into `out`.
pub(crate) fn t1_hat_row<B: Ops>(pk: &[u8], i: usize, out: &mut Poly) {
    B::simple_bit_unpack(&pk[32 + 320 * i..32 + 320 * (i + 1)], 10, &mut out.0);
    for c in out.0.iter_mut() {
        *c <<= D;
    }
    out.ntt::<B>();
}

/// FIPS 204, Algorithm 23: pkDecode(pk). The length has been checked.
pub(crate) fn pk_decode<P: ParameterSet, B: Ops>(pk: &[u8]) -> VerifyingKey<P> {
    let mut encoded = P::PkBytes::zeroed();
    encoded.as_mut().copy_from_slice(pk);
    let tr = hash_public_key(pk);
    verifying_key_from_encoded::<P, B>(&encoded, tr)
}

/// FIPS 204, Algorithm 25: skDecode(sk), rejecting s1 or s2 coefficients outside [-eta, eta]
/// (values that skEncode cannot produce). The length has been checked. The key keeps the
/// encoding (its vectors stay packed); the range check unpacks one polynomial at a time and
/// accumulates without early exit, so its timing does not depend on where a bad value sits.
pub(crate) fn sk_decode<P: ParameterSet, B: Ops>(bytes: &[u8]) -> Result<SigningKey<P>, Error> {
    let mut sk = SigningKey::<P>::empty();
    sk.encoded.as_mut().copy_from_slice(bytes);
    sk.rho.copy_from_slice(&bytes[..32]);
    sk.key.copy_from_slice(&bytes[32..64]);
    sk.tr.copy_from_slice(&bytes[64..128]);
    let eta_len = 32 * P::ETA_BITS;
    let eta = P::ETA as i32;
    let mut out_of_range = 0i32;
    let mut p = Poly::ZERO;
    for chunk in sk.s_packed().chunks_exact(eta_len) {
        B::bit_unpack(chunk, P::ETA_BITS, eta, &mut p.0);
        for &c in p.0.iter() {
            // c = eta - x is at most eta; it is below -eta exactly when c + eta is negative.
            out_of_range |= (c + eta) >> 31;
        }
    }
    p.zeroize();
    if out_of_range != 0 {
        return Err(Error::MalformedSecretKey);
    }
    Ok(sk)
}

/// FIPS 204, Algorithm 19: BitUnpack(v, 2^bits - 1 - b, b) into 16-bit coefficients (b - x for
/// each `bits`-bit x, `bits` at most 16 and b - x within i16): the compact form of s1, s2 and t0
/// that the `small-memory` signer multiplies by its sparse challenge (half the memory of a
/// [`Poly`]). Secret data: arithmetic only, the bytes read depend on the index alone.
pub(crate) fn bit_unpack_i16(v: &[u8], bits: usize, b: i32, w: &mut [i16; 256]) {
    let mask = (1u32 << bits) - 1;
    for (i, c) in w.iter_mut().enumerate() {
        let bit = i * bits;
        // Three bytes hold the `bits` (at most 16) bits that start up to 7 bits into the first.
        let x = v[bit / 8..]
            .iter()
            .take(3)
            .rev()
            .fold(0u32, |acc, &y| (acc << 8) | u32::from(y));
        *c = (b - ((x >> (bit % 8)) & mask) as i32) as i16;
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
