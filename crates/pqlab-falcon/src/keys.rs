//! The key and signature types: [`VerifyingKey`] (h, Section 3.11.4), [`SigningKey`] (f, g, F
//! and the recomputed G, Section 3.11.5) and [`Signature`] (nonce r and s2, Section 3.11.3),
//! with their decoders and encoders.

use pqlab_arith::falcon as fq;
use zeroize::{Zeroize, ZeroizeOnDrop};

use crate::backend::{self, Ops};
use crate::codec;
use crate::error::Error;
use crate::hash::{hash_to_point_vartime_with, shake_nonce_msg};
use crate::params::{self, NONCE_LEN};
use crate::verify::{centre, to_modq, verify_raw};

/// Checks that `out` has at least `needed` bytes.
fn check_out(out: &[u8], needed: usize) -> Result<(), Error> {
    if out.len() < needed {
        return Err(Error::BufferTooSmall {
            needed,
            actual: out.len(),
        });
    }
    Ok(())
}

/// A Falcon public key: the polynomial h = g / f mod q, with its NTT cached for verification.
/// `N` is 512 or 1024 (see the aliases [`crate::Falcon512VerifyingKey`] and
/// [`crate::Falcon1024VerifyingKey`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerifyingKey<const N: usize> {
    pub(crate) h: [u16; N],
    /// NTT(h), computed once when the key is built, in the NTT order of [`crate::backend`]
    /// (the same for every back end), coefficients in \[0, q).
    pub(crate) h_ntt: [i16; N],
}

impl<const N: usize> VerifyingKey<N> {
    /// The length of the encoded public key (897 or 1793 bytes).
    pub const ENCODED_LEN: usize = params::public_key_len(N);

    /// Builds the key from h (coefficients already checked to be below q).
    pub(crate) fn from_h(h: [u16; N]) -> Self {
        const { params::check_n(N) };
        let mut h_ntt = h.map(|x| x as i16);
        backend::dispatch!(B => B::ntt(&mut h_ntt));
        VerifyingKey { h, h_ntt }
    }

    /// Decodes a public key (Falcon spec v1.2, Section 3.11.4): header byte 0x00 + logn, then
    /// 14 bits per coefficient; the length must be exact and every coefficient below q.
    pub fn decode(bytes: &[u8]) -> Result<Self, Error> {
        const { params::check_n(N) };
        let mut h = [0u16; N];
        codec::modq_decode(Self::packed_h(bytes)?, &mut h)?;
        Ok(Self::from_h(h))
    }

    /// The packed h of an encoded public key: the length and the header byte checked.
    fn packed_h(bytes: &[u8]) -> Result<&[u8], Error> {
        const WHAT: &str = "public key";
        if bytes.len() != Self::ENCODED_LEN {
            return Err(Error::InvalidLength {
                what: WHAT,
                expected: Self::ENCODED_LEN,
                actual: bytes.len(),
            });
        }
        let hdr = params::pk_header(N);
        if bytes[0] != hdr {
            return Err(Error::InvalidHeader {
                what: WHAT,
                expected: hdr,
                actual: bytes[0],
            });
        }
        Ok(&bytes[1..])
    }

    /// Verifies the encoded signature `sig` of `msg` under the encoded public key `pk` (Falcon
    /// spec v1.2, Algorithm 16: Verify), as PQClean's `crypto_sign_verify` takes them, without
    /// building a [`VerifyingKey`]: h is decoded straight into NTT lanes and c is streamed out
    /// of SHAKE256 into the norm, so the call holds two arrays of n 16-bit values (2 KiB for
    /// n = 512) instead of the four of decoding a key and then verifying. Same result and
    /// same errors as `VerifyingKey::decode(pk)?.verify(msg, sig)`.
    pub fn verify_encoded(pk: &[u8], msg: &[u8], sig: &[u8]) -> Result<(), Error> {
        const { params::check_n(N) };
        let packed = Self::packed_h(pk)?;
        let ok = backend::dispatch!(B => crate::verify::verify_encoded::<B, N>(packed, msg, sig))?;
        if ok {
            Ok(())
        } else {
            Err(Error::InvalidSignature)
        }
    }

    /// Writes the encoded public key into `out` and returns its length ([`Self::ENCODED_LEN`]).
    pub fn encode(&self, out: &mut [u8]) -> Result<usize, Error> {
        check_out(out, Self::ENCODED_LEN)?;
        out[0] = params::pk_header(N);
        codec::modq_encode(&self.h, &mut out[1..Self::ENCODED_LEN]);
        Ok(Self::ENCODED_LEN)
    }

    /// The public polynomial h, coefficients in \[0, q).
    pub fn h(&self) -> &[u16; N] {
        &self.h
    }

    /// Verifies an encoded detached signature (header 0x30 + logn, nonce, compressed s2) of
    /// `msg` (Falcon spec v1.2, Algorithm 16: Verify). Malformed signatures give the decoding
    /// error; a well-formed one that does not verify gives [`Error::InvalidSignature`].
    pub fn verify(&self, msg: &[u8], sig: &[u8]) -> Result<(), Error> {
        let sig = Signature::<N>::decode(sig)?;
        self.verify_signature(msg, &sig)
    }

    /// Verifies a decoded signature of `msg` (Falcon spec v1.2, Algorithm 16: Verify), with the
    /// variable-time HashToPoint (the message and nonce are public here).
    pub fn verify_signature(&self, msg: &[u8], sig: &Signature<N>) -> Result<(), Error> {
        let mut rd = shake_nonce_msg(&sig.nonce, msg);
        let mut c = [0u16; N];
        let ok = backend::dispatch!(B => {
            hash_to_point_vartime_with::<B>(&mut rd, &mut c);
            verify_raw::<B, N>(&c, &sig.s2, &self.h_ntt, params::beta_sq(N))
        });
        if ok {
            Ok(())
        } else {
            Err(Error::InvalidSignature)
        }
    }
}

/// A Falcon signature: the 40-byte nonce r and the polynomial s2.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Signature<const N: usize> {
    pub(crate) nonce: [u8; NONCE_LEN],
    pub(crate) s2: [i16; N],
}

impl<const N: usize> Signature<N> {
    /// The largest encoded signature (688 or 1328 bytes; see [`params::signature_max_len`]).
    pub const MAX_LEN: usize = params::signature_max_len(N);

    /// Builds a signature from its parts (no range check: [`Self::encode`] fails when s2 has
    /// a coefficient of absolute value above 2047 or does not compress into [`Self::MAX_LEN`]).
    pub fn from_parts(nonce: [u8; NONCE_LEN], s2: [i16; N]) -> Self {
        const { params::check_n(N) };
        Signature { nonce, s2 }
    }

    /// Decodes a detached signature (Falcon spec v1.2, Section 3.11.3): header 0x30 + logn,
    /// the nonce, then the compressed s2 with every canonicality check of Decompress; at most
    /// [`Self::MAX_LEN`] bytes.
    pub fn decode(bytes: &[u8]) -> Result<Self, Error> {
        const { params::check_n(N) };
        let (nonce, comp) = Self::split(bytes)?;
        Self::from_compressed(nonce, comp)
    }

    /// The nonce and the compressed s2 of an encoded signature: the length and the header
    /// byte checked.
    pub(crate) fn split(bytes: &[u8]) -> Result<(&[u8; NONCE_LEN], &[u8]), Error> {
        const WHAT: &str = "signature";
        if bytes.len() > Self::MAX_LEN {
            return Err(Error::InvalidLength {
                what: WHAT,
                expected: Self::MAX_LEN,
                actual: bytes.len(),
            });
        }
        let Some((&hdr, rest)) = bytes.split_first() else {
            return Err(Error::Truncated { what: WHAT });
        };
        if hdr != params::sig_header(N) {
            return Err(Error::InvalidHeader {
                what: WHAT,
                expected: params::sig_header(N),
                actual: hdr,
            });
        }
        let Some((nonce, comp)) = rest.split_first_chunk::<NONCE_LEN>() else {
            return Err(Error::Truncated { what: WHAT });
        };
        Ok((nonce, comp))
    }

    /// Builds a signature from the nonce and the compressed s2 alone (the layout of the NIST
    /// KAT files' signed messages, whose header byte differs).
    pub fn from_compressed(nonce: &[u8; NONCE_LEN], comp: &[u8]) -> Result<Self, Error> {
        const { params::check_n(N) };
        let mut s2 = [0i16; N];
        backend::dispatch!(B => B::decompress(comp, &mut s2))?;
        Ok(Signature { nonce: *nonce, s2 })
    }

    /// Writes the compressed s2 alone into `out` and returns its length.
    pub fn encode_compressed(&self, out: &mut [u8]) -> Result<usize, Error> {
        codec::compress(&self.s2, out).ok_or(Error::BufferTooSmall {
            needed: Self::MAX_LEN - 1 - NONCE_LEN,
            actual: out.len(),
        })
    }

    /// Writes the encoded detached signature into `out` (at least [`Self::MAX_LEN`] bytes are
    /// enough) and returns its length.
    pub fn encode(&self, out: &mut [u8]) -> Result<usize, Error> {
        check_out(out, 1 + NONCE_LEN + 1)?;
        out[0] = params::sig_header(N);
        out[1..1 + NONCE_LEN].copy_from_slice(&self.nonce);
        let end = out.len().min(Self::MAX_LEN);
        let len = codec::compress(&self.s2, &mut out[1 + NONCE_LEN..end]).ok_or(
            Error::BufferTooSmall {
                needed: Self::MAX_LEN,
                actual: out.len(),
            },
        )?;
        Ok(1 + NONCE_LEN + len)
    }

    /// The nonce r.
    pub fn nonce(&self) -> &[u8; NONCE_LEN] {
        &self.nonce
    }

    /// The polynomial s2.
    pub fn s2(&self) -> &[i16; N] {
        &self.s2
    }
}

/// A Falcon secret key: the short polynomials f, g, F and G with f G - g F = q
/// (G is recomputed from the other three when decoding, as the encoding omits it).
/// Zeroized on drop.
#[derive(Clone, Zeroize, ZeroizeOnDrop)]
#[allow(non_snake_case)]
pub struct SigningKey<const N: usize> {
    pub(crate) f: [i8; N],
    pub(crate) g: [i8; N],
    pub(crate) F: [i8; N],
    pub(crate) G: [i8; N],
}

impl<const N: usize> core::fmt::Debug for SigningKey<N> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("SigningKey { .. }")
    }
}

/// f mod q for a small f, into the NTT domain.
pub(crate) fn small_to_ntt<const N: usize>(f: &[i8; N]) -> [u16; N] {
    let mut t = [0u16; N];
    for (o, &x) in t.iter_mut().zip(f.iter()) {
        *o = to_modq(i32::from(x));
    }
    fq::ntt(&mut t);
    t
}

/// Returns all-ones if some NTT coefficient is zero (the polynomial is not invertible).
pub(crate) fn has_zero(t: &[u16]) -> bool {
    let mut z = 0u32;
    for &x in t {
        z |= (u32::from(x).wrapping_sub(1)) >> 31;
    }
    z != 0
}

impl<const N: usize> SigningKey<N> {
    /// The length of the encoded secret key (1281 or 2305 bytes).
    pub const ENCODED_LEN: usize = params::secret_key_len(N);

    /// Decodes a secret key (Falcon spec v1.2, Section 3.11.5): header 0x50 + logn, f and g on
    /// 6 (n = 512) or 5 (n = 1024) bits, F on 8 bits, exact length; the value -2^(bits-1) is
    /// rejected, and G = g F / f mod q is recomputed and must lie in \[-127, 127\].
    #[allow(non_snake_case)]
    pub fn decode(bytes: &[u8]) -> Result<Self, Error> {
        const { params::check_n(N) };
        const WHAT: &str = "secret key";
        if bytes.len() != Self::ENCODED_LEN {
            return Err(Error::InvalidLength {
                what: WHAT,
                expected: Self::ENCODED_LEN,
                actual: bytes.len(),
            });
        }
        let hdr = params::sk_header(N);
        if bytes[0] != hdr {
            return Err(Error::InvalidHeader {
                what: WHAT,
                expected: hdr,
                actual: bytes[0],
            });
        }
        let fgb = params::fg_bits(N);
        let l1 = fgb * N / 8;
        let mut sk = SigningKey::zeroed();
        codec::trim_i8_decode(&bytes[1..1 + l1], fgb, &mut sk.f)?;
        codec::trim_i8_decode(&bytes[1 + l1..1 + 2 * l1], fgb, &mut sk.g)?;
        codec::trim_i8_decode(&bytes[1 + 2 * l1..], params::FG_BIG_BITS, &mut sk.F)?;
        // G = g F / f mod q.
        let mut t1 = small_to_ntt(&sk.g);
        let mut t2 = small_to_ntt(&sk.F);
        fq::pointwise_mul(&mut t1, &t2);
        t2 = small_to_ntt(&sk.f);
        if has_zero(&t2) {
            return Err(Error::NotInvertible);
        }
        for (a, &b) in t1.iter_mut().zip(t2.iter()) {
            *a = fq::mul(u32::from(*a), fq::inv(u32::from(b))) as u16;
        }
        fq::intt(&mut t1);
        let mut bad = 0i32;
        for (o, &x) in sk.G.iter_mut().zip(t1.iter()) {
            let v = centre(u32::from(x));
            bad |= (127 - v) | (v + 127);
            *o = v as i8;
        }
        t1.zeroize();
        t2.zeroize();
        if bad < 0 {
            return Err(Error::CoefficientOutOfRange { what: WHAT });
        }
        Ok(sk)
    }

    /// Writes the encoded secret key into `out` and returns its length.
    pub fn encode(&self, out: &mut [u8]) -> Result<usize, Error> {
        check_out(out, Self::ENCODED_LEN)?;
        let fgb = params::fg_bits(N);
        let l1 = fgb * N / 8;
        out[0] = params::sk_header(N);
        codec::trim_i8_encode(&self.f, fgb, &mut out[1..1 + l1]);
        codec::trim_i8_encode(&self.g, fgb, &mut out[1 + l1..1 + 2 * l1]);
        codec::trim_i8_encode(
            &self.F,
            params::FG_BIG_BITS,
            &mut out[1 + 2 * l1..Self::ENCODED_LEN],
        );
        Ok(Self::ENCODED_LEN)
    }

    /// All zero: a key to be filled in place (key generation, decoding).
    pub(crate) const fn zeroed() -> Self {
        SigningKey {
            f: [0i8; N],
            g: [0i8; N],
            F: [0i8; N],
            G: [0i8; N],
        }
    }

    /// Falcon spec v1.2, Algorithm 4 (NTRUGen) seeded as the round-3 reference `nist.c` does:
    /// SHAKE256 over the 48-byte seed is the only randomness. Deterministic: the NIST KAT key
    /// pairs come out of it given the DRBG's first 48 bytes.
    pub fn generate_from_seed(seed: &[u8; params::SEED_LEN]) -> Self {
        const { params::check_n(N) };
        let mut sh = pqlab_keccak::Shake256::new();
        sh.absorb(seed);
        let mut rng = sh.finalize();
        let mut sk = Self::zeroed();
        crate::keygen::ntru_gen::<N>(&mut rng, &mut sk);
        sk
    }

    /// Generates a key pair from a fresh 48-byte seed drawn with `fill` (which returns false
    /// on failure). f and g are drawn as the reference draws them, from eight SHAKE256 streams
    /// (lane i over `seed || i`) squeezed side by side instead of its one stream: the same
    /// distribution, with the vector unit's eight-lane Keccak (a fifth of Falcon-512's key
    /// generation time was its one-lane stream). The seed is never shown, so nothing needs the
    /// reference's key for it; [`Self::generate_from_seed`] gives that key.
    pub fn generate_with_rng(fill: impl FnMut(&mut [u8]) -> bool) -> Result<Self, Error> {
        let mut sk = Self::zeroed();
        sk.generate_in_place(fill)?;
        Ok(sk)
    }

    /// [`Self::generate_with_rng`] into `self` (filled in place: the caller's key is the only
    /// copy; the workspace is in a frame of its own).
    fn generate_in_place(&mut self, mut fill: impl FnMut(&mut [u8]) -> bool) -> Result<(), Error> {
        const { params::check_n(N) };
        let mut seed = [0u8; params::SEED_LEN];
        if !fill(&mut seed) {
            return Err(Error::Randomness);
        }
        let mut streams = crate::keygen::Shake256x8::new(&seed);
        seed.zeroize();
        crate::keygen::ntru_gen::<N>(&mut streams, self);
        Ok(())
    }

    /// Generates a key pair with OS randomness.
    #[cfg(feature = "getrandom")]
    pub fn generate() -> Result<Self, Error> {
        Self::generate_with_rng(|b| getrandom::fill(b).is_ok())
    }

    /// [`Self::generate_with_rng`] written straight into the caller's buffers as the encoded
    /// secret key (`sk_out`, at least [`Self::ENCODED_LEN`] bytes) and public key (`pk_out`, at
    /// least [`VerifyingKey::ENCODED_LEN`]), as PQClean's `crypto_sign_keypair` writes them:
    /// no key is returned by value, so none is copied on the caller's stack (the key exists
    /// once, in this function's frame, and is wiped when it ends). Returns the two lengths.
    ///
    /// # Errors
    /// [`Error::BufferTooSmall`] if a buffer is too short (checked before any work),
    /// [`Error::Randomness`] if `fill` fails.
    pub fn generate_encoded_with_rng(
        fill: impl FnMut(&mut [u8]) -> bool,
        sk_out: &mut [u8],
        pk_out: &mut [u8],
    ) -> Result<(usize, usize), Error> {
        check_out(sk_out, Self::ENCODED_LEN)?;
        check_out(pk_out, VerifyingKey::<N>::ENCODED_LEN)?;
        let mut sk = Self::zeroed();
        sk.generate_in_place(fill)?;
        sk.encode_pair(sk_out, pk_out)
    }

    /// The encodings of the key and of its public key into `sk_out` and `pk_out`. Out of line,
    /// so that its temporaries (the NTTs of h) are not part of the frame that stays on the
    /// stack during key generation.
    #[inline(never)]
    fn encode_pair(&self, sk_out: &mut [u8], pk_out: &mut [u8]) -> Result<(usize, usize), Error> {
        let sl = self.encode(sk_out)?;
        let pl = self.verifying_key().encode(pk_out)?;
        Ok((sl, pl))
    }

    /// [`Self::generate_encoded_with_rng`] with OS randomness.
    #[cfg(feature = "getrandom")]
    pub fn generate_encoded(sk_out: &mut [u8], pk_out: &mut [u8]) -> Result<(usize, usize), Error> {
        Self::generate_encoded_with_rng(|b| getrandom::fill(b).is_ok(), sk_out, pk_out)
    }

    /// The public key h = g / f mod q (f is invertible: [`Self::decode`] checked it).
    pub fn verifying_key(&self) -> VerifyingKey<N> {
        let mut t1 = small_to_ntt(&self.g);
        let t2 = small_to_ntt(&self.f);
        for (a, &b) in t1.iter_mut().zip(t2.iter()) {
            *a = fq::mul(u32::from(*a), fq::inv(u32::from(b))) as u16;
        }
        fq::intt(&mut t1);
        VerifyingKey::from_h(t1)
    }
}
