//! Falcon-512 and Falcon-1024 (Falcon round-3 specification v1.2, the scheme of the NIST KAT
//! files) for pqlab.
//!
//! * Parameter sets are the degree n as a const generic: [`VerifyingKey<512>`] or the aliases
//!   [`Falcon512VerifyingKey`], [`Falcon1024SigningKey`], ...
//! * [`VerifyingKey`]: public key codec (Section 3.11.4) and verification (Algorithm 16).
//! * [`Signature`]: the detached compressed format (header 0x30 + logn, 40-byte nonce,
//!   compressed s2; Section 3.11.3) with every canonicality check of Decompress.
//! * [`SigningKey`]: secret key codec (Section 3.11.5), recomputing G.
//! * [`hash_to_point_vartime`] and [`hash_to_point_ct`]: HashToPoint (Section 3.7).
//!
//! `no_std`, no heap allocation. Constant-time status: decoding and verification handle public
//! data; [`hash_to_point_vartime`] is variable time (used for verification only);
//! [`hash_to_point_ct`] is constant time. The recomputation of G and h from a secret key uses
//! branch-free modular arithmetic.
#![no_std]

mod codec;
mod error;
mod ffsampling;
mod fft;
mod fft_table;
pub mod fpr;
mod fpr_emu_sqrt;
mod hash;
mod keys;
pub mod params;
mod sampler;
mod sign;
mod verify;

pub use error::Error;
pub use hash::{hash_to_point_ct, hash_to_point_vartime};
pub use keys::{Signature, SigningKey, VerifyingKey};
pub use params::{NONCE_LEN, SEED_LEN};
pub use sign::ExpandedKey;

/// A Falcon-512 public key.
pub type Falcon512VerifyingKey = VerifyingKey<512>;
/// A Falcon-1024 public key.
pub type Falcon1024VerifyingKey = VerifyingKey<1024>;
/// A Falcon-512 secret key.
pub type Falcon512SigningKey = SigningKey<512>;
/// A Falcon-1024 secret key.
pub type Falcon1024SigningKey = SigningKey<1024>;
/// A Falcon-512 expanded secret key.
pub type Falcon512ExpandedKey = ExpandedKey<512>;
/// A Falcon-1024 expanded secret key.
pub type Falcon1024ExpandedKey = ExpandedKey<1024>;
/// A Falcon-512 signature.
pub type Falcon512Signature = Signature<512>;
/// A Falcon-1024 signature.
pub type Falcon1024Signature = Signature<1024>;
