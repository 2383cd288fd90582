//! Post-quantum TLS 1.3 for rustls, with pqlab's ML-KEM (FIPS 203), ML-DSA (FIPS 204) and
//! Falcon (round 3; non-standard TLS code points and OIDs, those of the Open Quantum Safe
//! provider).
//!
//! * [`provider`]: a rustls [`CryptoProvider`] whose key-exchange groups are X25519MLKEM768,
//!   MLKEM768, MLKEM1024, MLKEM512 (pqlab's ML-KEM; X25519 from ring) and the classical X25519,
//!   P-256 and P-384 (ring); whose signature verification covers ML-DSA-44/65/87 (pqlab) and
//!   and Falcon-512/1024 (pqlab) and ring's classical algorithms, for certificates and
//!   handshake signatures; and whose key provider loads ML-DSA and Falcon PKCS#8 keys (and
//!   ring's classical ones). The symmetric parts, HKDF
//!   and randomness are ring's. [`provider_with_groups`] restricts the groups.
//! * [`kx`]: the groups; [`sign`]: the signature schemes and the extension point for more;
//!   [`falcon`]: Falcon's formats and identifiers; [`cert`]: a small CA that issues ML-DSA,
//!   Falcon or ECDSA P-256 certificates; [`net`]: the echo
//!   client and configurations behind `pqlab serve` / `pqlab connect`; [`server`]: the
//!   asynchronous echo server with bounded resources; [`bench`](mod@bench): the handshake
//!   benchmark behind `pqlab handshake-bench`.

pub mod bench;
pub mod cert;
mod error;
pub mod falcon;
pub mod kx;
pub mod net;
pub mod pkcs8;
pub mod server;
pub mod sign;
pub mod x509;

pub use error::Error;
pub use rustls;
use rustls::crypto::{CryptoProvider, SupportedKxGroup};

/// The provider with every group of [`kx::ALL_KX_GROUPS`], X25519MLKEM768 preferred.
pub fn provider() -> CryptoProvider {
    provider_with_groups(kx::ALL_KX_GROUPS.to_vec())
}

/// The provider with exactly these key-exchange groups (a client offers them in this order).
pub fn provider_with_groups(kx_groups: Vec<&'static dyn SupportedKxGroup>) -> CryptoProvider {
    let base = rustls::crypto::ring::default_provider();
    CryptoProvider {
        cipher_suites: rustls::crypto::ring::DEFAULT_CIPHER_SUITES
            .iter()
            .filter(|s| s.tls13().is_some())
            .copied()
            .collect(),
        kx_groups,
        signature_verification_algorithms: sign::SUPPORTED_SIG_ALGS,
        secure_random: base.secure_random,
        key_provider: &sign::PqKeyProvider,
    }
}

/// The provider offering only the named group (`X25519MLKEM768`, `MLKEM1024`, `X25519`, ...).
pub fn provider_for_group(name: &str) -> Result<CryptoProvider, Error> {
    let group = kx::kx_group_by_name(name).ok_or_else(|| Error::UnknownGroup(name.into()))?;
    Ok(provider_with_groups(vec![group]))
}

/// The TLS versions pqlab uses: TLS 1.3 only.
pub static TLS13_ONLY: &[&rustls::SupportedProtocolVersion] = &[&rustls::version::TLS13];
