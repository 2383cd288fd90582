//! The pre-hash functions of HashML-DSA (FIPS 204, Section 5.4) and their object identifiers.

use pqlab_keccak::{Sha3_224, Sha3_256, Sha3_384, Sha3_512, Shake128, Shake256};
use sha2::Digest;

use crate::Error;

/// A hash function that HashML-DSA may use to pre-hash the message (FIPS 204, Section 5.4.1;
/// the list is the one ACVP tests).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HashAlg {
    /// SHA2-224 (FIPS 180-4).
    Sha2_224,
    /// SHA2-256 (FIPS 180-4).
    Sha2_256,
    /// SHA2-384 (FIPS 180-4).
    Sha2_384,
    /// SHA2-512 (FIPS 180-4).
    Sha2_512,
    /// SHA2-512/224 (FIPS 180-4).
    Sha2_512_224,
    /// SHA2-512/256 (FIPS 180-4).
    Sha2_512_256,
    /// SHA3-224 (FIPS 202).
    Sha3_224,
    /// SHA3-256 (FIPS 202).
    Sha3_256,
    /// SHA3-384 (FIPS 202).
    Sha3_384,
    /// SHA3-512 (FIPS 202).
    Sha3_512,
    /// SHAKE128 with 256 bits of output (FIPS 204, Section 5.4.1).
    Shake128,
    /// SHAKE256 with 512 bits of output (FIPS 204, Section 5.4.1).
    Shake256,
}

/// The longest pre-hash output, in bytes.
pub const MAX_DIGEST_LEN: usize = 64;

impl HashAlg {
    /// Every pre-hash function, in the order of the table above.
    pub const ALL: [HashAlg; 12] = [
        HashAlg::Sha2_224,
        HashAlg::Sha2_256,
        HashAlg::Sha2_384,
        HashAlg::Sha2_512,
        HashAlg::Sha2_512_224,
        HashAlg::Sha2_512_256,
        HashAlg::Sha3_224,
        HashAlg::Sha3_256,
        HashAlg::Sha3_384,
        HashAlg::Sha3_512,
        HashAlg::Shake128,
        HashAlg::Shake256,
    ];

    /// The name ACVP uses ("SHA2-256", "SHA2-512/224", "SHA3-384", "SHAKE-128", ...).
    pub const fn name(self) -> &'static str {
        match self {
            HashAlg::Sha2_224 => "SHA2-224",
            HashAlg::Sha2_256 => "SHA2-256",
            HashAlg::Sha2_384 => "SHA2-384",
            HashAlg::Sha2_512 => "SHA2-512",
            HashAlg::Sha2_512_224 => "SHA2-512/224",
            HashAlg::Sha2_512_256 => "SHA2-512/256",
            HashAlg::Sha3_224 => "SHA3-224",
            HashAlg::Sha3_256 => "SHA3-256",
            HashAlg::Sha3_384 => "SHA3-384",
            HashAlg::Sha3_512 => "SHA3-512",
            HashAlg::Shake128 => "SHAKE-128",
            HashAlg::Shake256 => "SHAKE-256",
        }
    }

    /// Looks a function up by name, case-insensitively, ignoring `-`, `_` and `/`:
    /// "SHA2-512/224", "sha2-512-224", "sha512_224", "shake128" and "SHAKE-128" all work.
    pub fn from_name(name: &str) -> Result<Self, Error> {
        let mut buf = [0u8; 16];
        let mut n = 0;
        for b in name.bytes().filter(|b| !matches!(b, b'-' | b'_' | b'/')) {
            if n == buf.len() {
                return Err(Error::UnknownHash);
            }
            buf[n] = b.to_ascii_lowercase();
            n += 1;
        }
        let alg = match &buf[..n] {
            b"sha2224" | b"sha224" => HashAlg::Sha2_224,
            b"sha2256" | b"sha256" => HashAlg::Sha2_256,
            b"sha2384" | b"sha384" => HashAlg::Sha2_384,
            b"sha2512" | b"sha512" => HashAlg::Sha2_512,
            b"sha2512224" | b"sha512224" => HashAlg::Sha2_512_224,
            b"sha2512256" | b"sha512256" => HashAlg::Sha2_512_256,
            b"sha3224" => HashAlg::Sha3_224,
            b"sha3256" => HashAlg::Sha3_256,
            b"sha3384" => HashAlg::Sha3_384,
            b"sha3512" => HashAlg::Sha3_512,
            b"shake128" => HashAlg::Shake128,
            b"shake256" => HashAlg::Shake256,
            _ => return Err(Error::UnknownHash),
        };
        Ok(alg)
    }

    /// The last byte of the DER-encoded OID 2.16.840.1.101.3.4.2.x (NIST CSOR hash algorithms).
    const fn oid_arc(self) -> u8 {
        match self {
            HashAlg::Sha2_256 => 1,
            HashAlg::Sha2_384 => 2,
            HashAlg::Sha2_512 => 3,
            HashAlg::Sha2_224 => 4,
            HashAlg::Sha2_512_224 => 5,
            HashAlg::Sha2_512_256 => 6,
            HashAlg::Sha3_224 => 7,
            HashAlg::Sha3_256 => 8,
            HashAlg::Sha3_384 => 9,
            HashAlg::Sha3_512 => 10,
            HashAlg::Shake128 => 11,
            HashAlg::Shake256 => 12,
        }
    }

    /// The DER encoding of the function's OID (tag, length and value), as it enters M' in
    /// FIPS 204, Algorithms 4 and 5.
    pub const fn oid_der(self) -> [u8; 11] {
        [
            0x06,
            0x09,
            0x60,
            0x86,
            0x48,
            0x01,
            0x65,
            0x03,
            0x04,
            0x02,
            self.oid_arc(),
        ]
    }

    /// The output length of PH in bytes.
    pub const fn digest_len(self) -> usize {
        match self {
            HashAlg::Sha2_224 | HashAlg::Sha2_512_224 | HashAlg::Sha3_224 => 28,
            HashAlg::Sha2_256 | HashAlg::Sha2_512_256 | HashAlg::Sha3_256 | HashAlg::Shake128 => 32,
            HashAlg::Sha2_384 | HashAlg::Sha3_384 => 48,
            HashAlg::Sha2_512 | HashAlg::Sha3_512 | HashAlg::Shake256 => 64,
        }
    }

    /// PH(M): the pre-hash of `msg`. The digest is the first [`HashAlg::digest_len`] bytes of
    /// the returned buffer.
    pub fn digest(self, msg: &[u8]) -> [u8; MAX_DIGEST_LEN] {
        let mut out = [0u8; MAX_DIGEST_LEN];
        let n = self.digest_len();
        match self {
            HashAlg::Sha2_224 => out[..n].copy_from_slice(&sha2::Sha224::digest(msg)),
            HashAlg::Sha2_256 => out[..n].copy_from_slice(&sha2::Sha256::digest(msg)),
            HashAlg::Sha2_384 => out[..n].copy_from_slice(&sha2::Sha384::digest(msg)),
            HashAlg::Sha2_512 => out[..n].copy_from_slice(&sha2::Sha512::digest(msg)),
            HashAlg::Sha2_512_224 => out[..n].copy_from_slice(&sha2::Sha512_224::digest(msg)),
            HashAlg::Sha2_512_256 => out[..n].copy_from_slice(&sha2::Sha512_256::digest(msg)),
            HashAlg::Sha3_224 => out[..n].copy_from_slice(&Sha3_224::digest(msg)),
            HashAlg::Sha3_256 => out[..n].copy_from_slice(&Sha3_256::digest(msg)),
            HashAlg::Sha3_384 => out[..n].copy_from_slice(&Sha3_384::digest(msg)),
            HashAlg::Sha3_512 => out[..n].copy_from_slice(&Sha3_512::digest(msg)),
            HashAlg::Shake128 => Shake128::digest_parts(&[msg], &mut out[..n]),
            HashAlg::Shake256 => Shake256::digest_parts(&[msg], &mut out[..n]),
        }
        out
    }
}

impl core::fmt::Display for HashAlg {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

impl core::str::FromStr for HashAlg {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self, Error> {
        HashAlg::from_name(s)
    }
}
