//! PKCS#8 and SubjectPublicKeyInfo for Falcon keys (feature `pkcs8`; heap-free).
//!
//! **Non-standard**: no standard assigns Falcon an OID or a key format. The OIDs written are
//! those of the Open Quantum Safe provider (1.3.9999.3.11 for Falcon-512, 1.3.9999.3.14 for
//! Falcon-1024, which BouncyCastle uses too); the older OQS / BouncyCastle OIDs 1.3.9999.3.6 /
//! 1.3.9999.3.9 and 1.3.9999.3.1 / 1.3.9999.3.4 are read as well. Parameters are absent.
//!
//! * **Public key**: the BIT STRING holds the encoded public key of the Falcon specification
//!   v1.2, Section 3.11.4 (header 0x00 + logn, then h). Also read: BouncyCastle's older
//!   `FalconPublicKey ::= SEQUENCE { h OCTET STRING }` (h with or without the header).
//! * **Private key**, written (canonical) as oqs-provider writes it: `privateKey` holds a DER
//!   OCTET STRING with the encoded secret key (Section 3.11.5, header 0x50 + logn) followed by
//!   the encoded public key. Written on request ([`PrivateKeyForm::BouncyCastle`],
//!   [`encode_signing_key_as`]) in BouncyCastle's form below, which BouncyCastle (1.87) needs:
//!   it refuses the OQS form. Also read:
//!   - the same OCTET STRING with the secret key alone, and the secret key (with or without
//!     the public key) not wrapped in an OCTET STRING;
//!   - BouncyCastle's `FalconPrivateKey ::= SEQUENCE { version INTEGER, f OCTET STRING,
//!     g OCTET STRING, F OCTET STRING, publicKey FalconPublicKey OPTIONAL }` (f, g and F
//!     packed as in the secret-key encoding; the public key optionally context-tagged `[0]`);
//!   - pqlab's seed form `[0] IMPLICIT OCTET STRING` holding the 48-byte key-generation seed
//!     ([`SigningKey::generate_from_seed`]).
//!
//! A public key stored with the private key (in any of these places, or as a version-2
//! OneAsymmetricKey's public key) must be the key's.

use der::asn1::{AnyRef, OctetStringRef};
use der::{Decode, Encode, Header, Length, Reader, SliceReader, SliceWriter, Tag, Tagged};
use pqlab_pkcs8::Choice;
use zeroize::Zeroizing;

use crate::{SEED_LEN, SigningKey, VerifyingKey, params};

/// The Falcon-512 OID written (oqs-provider, BouncyCastle).
pub const OID_FALCON_512: &str = "1.3.9999.3.11";
/// The Falcon-1024 OID written (oqs-provider, BouncyCastle).
pub const OID_FALCON_1024: &str = "1.3.9999.3.14";
/// Falcon-512 OIDs read: the current one, then older OQS / BouncyCastle ones.
const OIDS_512: [&str; 3] = [OID_FALCON_512, "1.3.9999.3.6", "1.3.9999.3.1"];
/// Falcon-1024 OIDs read.
const OIDS_1024: [&str; 3] = [OID_FALCON_1024, "1.3.9999.3.9", "1.3.9999.3.4"];

/// The largest PKCS#8 document [`encode_signing_key`] / [`encode_signing_key_as`] write
/// (Falcon-1024; BouncyCastle's form: 4143 bytes, oqs-provider's: 4122).
pub const MAX_PKCS8_LEN: usize = 2305 + 1793 + 48;
/// The largest SubjectPublicKeyInfo [`encode_verifying_key`] writes (Falcon-1024).
pub const MAX_SPKI_LEN: usize = 1793 + 32;

/// Why a key document was refused.
pub type Pkcs8Error = pqlab_pkcs8::Pkcs8Error<crate::Error>;

impl pqlab_pkcs8::Scheme for crate::Error {
    const KEY: &'static str = "Falcon key";
    const PUBLIC_KEY: &'static str = "public key";
    const FORMS: &'static str = "an OCTET STRING (secret key || public key, OQS), a SEQUENCE \
                                 (BouncyCastle) or a seed [0] (pqlab)";
}

/// The OIDs of degree `N` (the first is the one written).
const fn oids(n: usize) -> &'static [&'static str; 3] {
    if n == 512 { &OIDS_512 } else { &OIDS_1024 }
}

/// The OID written for degree `N`.
pub const fn oid(n: usize) -> &'static str {
    oids(n)[0]
}

/// Checks a stored public key against `sk`: the encoded key, or h without its header byte.
fn check_public<const N: usize>(sk: &SigningKey<N>, stored: &[u8]) -> Result<(), Pkcs8Error> {
    let mut own = [0u8; MAX_SPKI_LEN];
    let len = sk
        .verifying_key()
        .encode(&mut own)
        .map_err(Pkcs8Error::Key)?;
    if stored == &own[..len] || stored == &own[1..len] {
        Ok(())
    } else if stored.len() + 1 != len && stored.len() != len {
        Err(Pkcs8Error::PublicKeyLength {
            found: stored.len(),
            expected: len,
        })
    } else {
        Err(Pkcs8Error::PublicKeyMismatch)
    }
}

/// The OQS form's contents: the encoded secret key, optionally followed by the public key.
fn from_sk_pk<const N: usize>(bytes: &[u8]) -> Result<SigningKey<N>, Pkcs8Error> {
    let sk_len = SigningKey::<N>::ENCODED_LEN;
    if bytes.len() != sk_len && bytes.len() != sk_len + VerifyingKey::<N>::ENCODED_LEN {
        return Err(Pkcs8Error::SecretKeyLength(bytes.len()));
    }
    let sk = SigningKey::<N>::decode(&bytes[..sk_len]).map_err(Pkcs8Error::Key)?;
    if bytes.len() > sk_len {
        check_public(&sk, &bytes[sk_len..])?;
    }
    Ok(sk)
}

/// BouncyCastle's `FalconPrivateKey` SEQUENCE (its contents in `body`).
#[allow(non_snake_case)]
fn from_bouncycastle<const N: usize>(body: &[u8]) -> Result<SigningKey<N>, Pkcs8Error> {
    let mut reader = SliceReader::new(body)?;
    let _version: u8 = reader.decode()?;
    let f: &OctetStringRef = reader.decode()?;
    let g: &OctetStringRef = reader.decode()?;
    let F: &OctetStringRef = reader.decode()?;
    let public: Option<AnyRef<'_>> = reader.decode()?;
    reader.finish()?;
    let fg_len = params::fg_bits(N) * N / 8;
    let mut sk = Zeroizing::new([0u8; 2305]);
    let sk = &mut sk[..SigningKey::<N>::ENCODED_LEN];
    sk[0] = params::sk_header(N);
    let mut at = 1;
    for (part, len) in [(f, fg_len), (g, fg_len), (F, N)] {
        let part = part.as_bytes();
        if part.len() != len {
            return Err(Pkcs8Error::PolynomialLength(part.len()));
        }
        sk[at..at + len].copy_from_slice(part);
        at += len;
    }
    let key = SigningKey::<N>::decode(sk).map_err(Pkcs8Error::Key)?;
    if let Some(public) = public {
        // FalconPublicKey ::= SEQUENCE { h OCTET STRING }, possibly as [0] (IMPLICIT: its
        // contents are the SEQUENCE's; EXPLICIT: they are the SEQUENCE).
        let mut value = public.value();
        if public.tag().is_context_specific() && value.first() == Some(&0x30) {
            value = AnyRef::from_der(value)?.value();
        }
        let h = <&OctetStringRef>::from_der(value)?;
        check_public(&key, h.as_bytes())?;
    }
    Ok(key)
}

/// The key from the `privateKey` contents, in any of the forms of the module documentation.
fn key_from_private<const N: usize>(contents: &[u8]) -> Result<SigningKey<N>, Pkcs8Error> {
    if contents.first() == Some(&params::sk_header(N)) {
        return from_sk_pk(contents);
    }
    match pqlab_pkcs8::choice(contents)? {
        Choice::OctetString(bytes) => from_sk_pk(bytes),
        Choice::Sequence(body) => from_bouncycastle(body),
        Choice::Seed(seed) => {
            let seed: &[u8; SEED_LEN] = seed.try_into().map_err(|_| Pkcs8Error::SeedLength {
                found: seed.len(),
                expected: SEED_LEN,
            })?;
            Ok(SigningKey::<N>::generate_from_seed(seed))
        }
    }
}

/// Decodes a PKCS#8 (OneAsymmetricKey, version 1 or 2) Falcon private key of degree `N` in any
/// form the module documentation lists. [`Pkcs8Error::OtherAlgorithm`] when it is not for `N`.
pub fn decode_signing_key<const N: usize>(der: &[u8]) -> Result<SigningKey<N>, Pkcs8Error> {
    const { params::check_n(N) };
    let info = pqlab_pkcs8::private_info(der, oids(N), VerifyingKey::<N>::ENCODED_LEN)?;
    let key = key_from_private::<N>(info.private_key)?;
    if let Some(pk) = info.public_key {
        check_public(&key, pk)?;
    }
    Ok(key)
}

/// Decodes a SubjectPublicKeyInfo holding a Falcon public key of degree `N`.
pub fn decode_verifying_key<const N: usize>(der: &[u8]) -> Result<VerifyingKey<N>, Pkcs8Error> {
    const { params::check_n(N) };
    let len = VerifyingKey::<N>::ENCODED_LEN;
    let (_, bits) = pqlab_pkcs8::public_info(der, oids(N), len)?;
    if bits.len() == len {
        return VerifyingKey::<N>::decode(bits).map_err(Pkcs8Error::Key);
    }
    // BouncyCastle's older SEQUENCE { h OCTET STRING }.
    let seq = AnyRef::from_der(bits)?;
    if seq.tag() != Tag::Sequence {
        return Err(Pkcs8Error::PublicKeyLength {
            found: bits.len(),
            expected: len,
        });
    }
    let h = <&OctetStringRef>::from_der(seq.value())?.as_bytes();
    let mut pk = [0u8; MAX_SPKI_LEN];
    pk[0] = params::pk_header(N);
    match h.len() {
        n if n == len => pk[..len].copy_from_slice(h),
        n if n + 1 == len => pk[1..len].copy_from_slice(h),
        n => {
            return Err(Pkcs8Error::PublicKeyLength {
                found: n,
                expected: len,
            });
        }
    }
    VerifyingKey::<N>::decode(&pk[..len]).map_err(Pkcs8Error::Key)
}

/// The `privateKey` form [`encode_signing_key_as`] writes (both are read by
/// [`decode_signing_key`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum PrivateKeyForm {
    /// oqs-provider's OCTET STRING holding the encoded secret key followed by the encoded
    /// public key (Falcon specification v1.2, Sections 3.11.5 and 3.11.4); pqlab's canonical
    /// form.
    #[default]
    Oqs,
    /// BouncyCastle's `FalconPrivateKey ::= SEQUENCE { version INTEGER (0), f OCTET STRING,
    /// g OCTET STRING, F OCTET STRING, publicKey FalconPublicKey }` with `FalconPublicKey ::=
    /// SEQUENCE { h OCTET STRING }`, untagged, as BouncyCastle 1.87's `PrivateKeyInfoFactory`
    /// writes it: f, g and F packed as in the secret-key encoding (Section 3.11.5, without its
    /// header byte), h as in the public-key encoding (Section 3.11.4, without its header byte).
    BouncyCastle,
}

/// Writes the canonical (oqs-provider) PKCS#8 form of `key` into `out` and returns its length
/// ([`MAX_PKCS8_LEN`] bytes are always enough).
pub fn encode_signing_key<const N: usize>(
    key: &SigningKey<N>,
    out: &mut [u8],
) -> Result<usize, Pkcs8Error> {
    encode_signing_key_as(key, PrivateKeyForm::Oqs, out)
}

/// Writes the PKCS#8 (version 1, RFC 5958) document of `key` with its `privateKey` in `form`
/// into `out` and returns its length ([`MAX_PKCS8_LEN`] bytes are always enough).
pub fn encode_signing_key_as<const N: usize>(
    key: &SigningKey<N>,
    form: PrivateKeyForm,
    out: &mut [u8],
) -> Result<usize, Pkcs8Error> {
    match form {
        PrivateKeyForm::Oqs => encode_oqs(key, out),
        PrivateKeyForm::BouncyCastle => encode_bouncycastle(key, out),
    }
}

/// oqs-provider's form: an OCTET STRING holding sk || pk.
fn encode_oqs<const N: usize>(key: &SigningKey<N>, out: &mut [u8]) -> Result<usize, Pkcs8Error> {
    let mut blob = Zeroizing::new([0u8; MAX_PKCS8_LEN]);
    let sk_len = key.encode(&mut blob[..]).map_err(Pkcs8Error::Key)?;
    let pk_len = key
        .verifying_key()
        .encode(&mut blob[sk_len..])
        .map_err(Pkcs8Error::Key)?;
    let mut scratch = Zeroizing::new([0u8; MAX_PKCS8_LEN]);
    let blob = &blob[..sk_len + pk_len];
    pqlab_pkcs8::encode_private(oid(N), Tag::OctetString, blob, &mut scratch[..], out)
}

/// BouncyCastle's form ([`PrivateKeyForm::BouncyCastle`]): the DER `FalconPrivateKey` SEQUENCE
/// as the `privateKey` contents.
#[allow(non_snake_case)]
fn encode_bouncycastle<const N: usize>(
    key: &SigningKey<N>,
    out: &mut [u8],
) -> Result<usize, Pkcs8Error> {
    let mut sk = Zeroizing::new([0u8; 2305]);
    let sk_len = key.encode(&mut sk[..]).map_err(Pkcs8Error::Key)?;
    let mut pk = [0u8; MAX_SPKI_LEN];
    let pk_len = key
        .verifying_key()
        .encode(&mut pk)
        .map_err(Pkcs8Error::Key)?;
    // Without the header bytes: f, g (fg_bits(N) bits each), F (8 bits each); h.
    let fg_len = params::fg_bits(N) * N / 8;
    let (f, rest) = sk[1..sk_len].split_at(fg_len);
    let (g, F) = rest.split_at(fg_len);
    let (f, g, F) = (
        OctetStringRef::new(f)?,
        OctetStringRef::new(g)?,
        OctetStringRef::new(F)?,
    );
    let h = OctetStringRef::new(&pk[1..pk_len])?;
    let version = 0u8;
    let public_len = h.encoded_len()?;
    let public_seq_len = (Header::new(Tag::Sequence, public_len).encoded_len()? + public_len)?;
    let body_len = [
        version.encoded_len()?,
        f.encoded_len()?,
        g.encoded_len()?,
        F.encoded_len()?,
        public_seq_len,
    ]
    .into_iter()
    .try_fold(Length::ZERO, |acc, len| acc + len)?;
    let mut scratch = Zeroizing::new([0u8; MAX_PKCS8_LEN]);
    let mut writer = SliceWriter::new(&mut scratch[..]);
    writer.sequence(body_len, |w| {
        version.encode(w)?;
        f.encode(w)?;
        g.encode(w)?;
        F.encode(w)?;
        w.sequence(public_len, |w| h.encode(w))
    })?;
    let contents = writer.finish()?;
    pqlab_pkcs8::encode_private_contents(oid(N), contents, out)
}

/// Writes the SubjectPublicKeyInfo of `vk` into `out` and returns its length
/// ([`MAX_SPKI_LEN`] bytes are always enough).
pub fn encode_verifying_key<const N: usize>(
    vk: &VerifyingKey<N>,
    out: &mut [u8],
) -> Result<usize, Pkcs8Error> {
    let mut pk = [0u8; MAX_SPKI_LEN];
    let len = vk.encode(&mut pk).map_err(Pkcs8Error::Key)?;
    pqlab_pkcs8::encode_public(oid(N), &pk[..len], out)
}

#[cfg(test)]
mod tests;
