//! TLS 1.3 key exchange with pqlab's ML-KEM (FIPS 203).
//!
//! * Pure ML-KEM groups (draft-ietf-tls-mlkem): `MLKEM512` (0x0200), `MLKEM768` (0x0201),
//!   `MLKEM1024` (0x0202). The client's key share is the encapsulation key ek, the server's the
//!   ciphertext c, the shared secret the 32-byte ML-KEM key K.
//! * The hybrid `X25519MLKEM768` (0x11EC, draft-ietf-tls-ecdhe-mlkem): the client's share is
//!   ek (1184 bytes) followed by its X25519 public key (32 bytes), 1216 bytes in all; the
//!   server's share is c (1088 bytes) followed by its X25519 public key, 1120 bytes; the shared
//!   secret is K followed by the X25519 shared secret (64 bytes). ML-KEM comes first in all three.
//!   X25519 is the base provider's (ring).
//!
//! A server that receives an encapsulation key runs the FIPS 203 input checks (Section 7.2: the
//! length and the modulus check, every coefficient below q) before it encapsulates; a client
//! checks the ciphertext's length. A failed check is
//! `Error::PeerMisbehaved(PeerMisbehaved::InvalidKeyShare)`, which rustls answers with an
//! `illegal_parameter` alert.

use core::fmt;
use core::marker::PhantomData;

use pqlab_mlkem::{
    Ciphertext, DecapsulationKey, EncapsulationKey, MlKem512, MlKem768, MlKem1024, ParameterSet,
};
use rustls::crypto::{ActiveKeyExchange, CompletedKeyExchange, SharedSecret, SupportedKxGroup};
use rustls::{Error, NamedGroup, PeerMisbehaved, ProtocolVersion};
use zeroize::Zeroizing;

/// The error for a key share of the wrong length or an encapsulation key that fails the checks.
const INVALID_KEY_SHARE: Error = Error::PeerMisbehaved(PeerMisbehaved::InvalidKeyShare);

/// The classical X25519 of the base provider, also the classical half of the hybrid.
pub static X25519: &dyn SupportedKxGroup = rustls::crypto::ring::kx_group::X25519;
/// NIST P-256 ECDHE of the base provider.
pub static SECP256R1: &dyn SupportedKxGroup = rustls::crypto::ring::kx_group::SECP256R1;
/// NIST P-384 ECDHE of the base provider.
pub static SECP384R1: &dyn SupportedKxGroup = rustls::crypto::ring::kx_group::SECP384R1;

/// ML-KEM-512 as the TLS group `MLKEM512` (0x0200).
pub static MLKEM512: &dyn SupportedKxGroup = &MlKemGroup::<MlKem512>::new(NamedGroup::MLKEM512);
/// ML-KEM-768 as the TLS group `MLKEM768` (0x0201).
pub static MLKEM768: &dyn SupportedKxGroup = &MlKemGroup::<MlKem768>::new(NamedGroup::MLKEM768);
/// ML-KEM-1024 as the TLS group `MLKEM1024` (0x0202).
pub static MLKEM1024: &dyn SupportedKxGroup = &MlKemGroup::<MlKem1024>::new(NamedGroup::MLKEM1024);
/// The hybrid X25519 + ML-KEM-768 group `X25519MLKEM768` (0x11EC).
pub static X25519MLKEM768: &dyn SupportedKxGroup = &X25519MlKem768;

/// Every group this crate offers, preferred first: the hybrid, the pure ML-KEM groups, then the
/// classical ones.
pub static ALL_KX_GROUPS: &[&dyn SupportedKxGroup] = &[
    X25519MLKEM768,
    MLKEM768,
    MLKEM1024,
    MLKEM512,
    X25519,
    SECP256R1,
    SECP384R1,
];

/// The names the command line uses for the groups, with the groups.
pub static KX_GROUP_NAMES: &[(&str, &dyn SupportedKxGroup)] = &[
    ("X25519MLKEM768", X25519MLKEM768),
    ("MLKEM512", MLKEM512),
    ("MLKEM768", MLKEM768),
    ("MLKEM1024", MLKEM1024),
    ("X25519", X25519),
    ("secp256r1", SECP256R1),
    ("secp384r1", SECP384R1),
];

/// Looks a group up by its name (case-insensitive), e.g. `X25519MLKEM768` or `mlkem1024`.
pub fn kx_group_by_name(name: &str) -> Option<&'static dyn SupportedKxGroup> {
    KX_GROUP_NAMES
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|(_, g)| *g)
}

/// The name of a group as [`kx_group_by_name`] knows it, or rustls's debug name.
pub fn kx_group_name(group: NamedGroup) -> String {
    KX_GROUP_NAMES
        .iter()
        .find(|(_, g)| g.name() == group)
        .map_or_else(|| format!("{group:?}"), |(n, _)| (*n).to_string())
}

/// Encapsulates to the peer's encapsulation key after the FIPS 203 input checks.
fn encapsulate<P: ParameterSet>(
    peer_ek: &[u8],
) -> Result<(Ciphertext<P>, pqlab_mlkem::SharedSecret), Error> {
    let ek = EncapsulationKey::<P>::from_bytes(peer_ek).map_err(|_| INVALID_KEY_SHARE)?;
    ek.encapsulate().map_err(|_| Error::FailedToGetRandomBytes)
}

/// Generates a fresh decapsulation key from OS randomness.
fn generate<P: ParameterSet>() -> Result<Box<DecapsulationKey<P>>, Error> {
    DecapsulationKey::<P>::generate()
        .map(Box::new)
        .map_err(|_| Error::FailedToGetRandomBytes)
}

/// Decapsulates the peer's ciphertext after checking its length.
fn decapsulate<P: ParameterSet>(
    dk: &DecapsulationKey<P>,
    peer_ct: &[u8],
) -> Result<pqlab_mlkem::SharedSecret, Error> {
    let ct = Ciphertext::<P>::from_bytes(peer_ct).map_err(|_| INVALID_KEY_SHARE)?;
    Ok(dk.decapsulate(&ct))
}

/// A pure ML-KEM group.
pub struct MlKemGroup<P: ParameterSet> {
    name: NamedGroup,
    _params: PhantomData<P>,
}

impl<P: ParameterSet> MlKemGroup<P> {
    /// The group for parameter set `P` under the code point `name`.
    pub const fn new(name: NamedGroup) -> Self {
        Self {
            name,
            _params: PhantomData,
        }
    }
}

impl<P: ParameterSet> fmt::Debug for MlKemGroup<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({:?})", P::NAME, self.name)
    }
}

impl<P: ParameterSet> SupportedKxGroup for MlKemGroup<P> {
    fn start(&self) -> Result<Box<dyn ActiveKeyExchange>, Error> {
        let dk = generate::<P>()?;
        let pub_key = dk.encapsulation_key().as_bytes().to_vec();
        Ok(Box::new(MlKemActive {
            dk,
            pub_key,
            name: self.name,
        }))
    }

    fn start_and_complete(&self, peer_pub_key: &[u8]) -> Result<CompletedKeyExchange, Error> {
        let (ct, ss) = encapsulate::<P>(peer_pub_key)?;
        Ok(CompletedKeyExchange {
            group: self.name,
            pub_key: ct.as_bytes().to_vec(),
            secret: SharedSecret::from(&ss.as_bytes()[..]),
        })
    }

    fn ffdhe_group(&self) -> Option<rustls::ffdhe_groups::FfdheGroup<'static>> {
        None
    }

    fn name(&self) -> NamedGroup {
        self.name
    }

    fn usable_for_version(&self, version: ProtocolVersion) -> bool {
        version == ProtocolVersion::TLSv1_3
    }
}

/// The client's side of a pure ML-KEM exchange: the decapsulation key it sent ek for.
struct MlKemActive<P: ParameterSet> {
    dk: Box<DecapsulationKey<P>>,
    pub_key: Vec<u8>,
    name: NamedGroup,
}

impl<P: ParameterSet> ActiveKeyExchange for MlKemActive<P> {
    fn complete(self: Box<Self>, peer_pub_key: &[u8]) -> Result<SharedSecret, Error> {
        let ss = decapsulate(&self.dk, peer_pub_key)?;
        Ok(SharedSecret::from(&ss.as_bytes()[..]))
    }

    fn pub_key(&self) -> &[u8] {
        &self.pub_key
    }

    fn ffdhe_group(&self) -> Option<rustls::ffdhe_groups::FfdheGroup<'static>> {
        None
    }

    fn group(&self) -> NamedGroup {
        self.name
    }
}

/// X25519MLKEM768: ML-KEM-768 and X25519, ML-KEM first.
#[derive(Debug)]
pub struct X25519MlKem768;

/// Length of an X25519 public key.
const X25519_LEN: usize = 32;

impl SupportedKxGroup for X25519MlKem768 {
    fn start(&self) -> Result<Box<dyn ActiveKeyExchange>, Error> {
        let dk = generate::<MlKem768>()?;
        let x25519 = X25519.start()?;
        let mut pub_key = Vec::with_capacity(MlKem768::EK_LEN + X25519_LEN);
        pub_key.extend_from_slice(dk.encapsulation_key().as_bytes());
        pub_key.extend_from_slice(x25519.pub_key());
        Ok(Box::new(HybridActive {
            dk,
            x25519,
            pub_key,
        }))
    }

    fn start_and_complete(&self, peer_pub_key: &[u8]) -> Result<CompletedKeyExchange, Error> {
        if peer_pub_key.len() != MlKem768::EK_LEN + X25519_LEN {
            return Err(INVALID_KEY_SHARE);
        }
        let (peer_ek, peer_x) = peer_pub_key.split_at(MlKem768::EK_LEN);
        let (ct, ss) = encapsulate::<MlKem768>(peer_ek)?;
        let x = X25519.start_and_complete(peer_x)?;
        let mut pub_key = Vec::with_capacity(MlKem768::CT_LEN + X25519_LEN);
        pub_key.extend_from_slice(ct.as_bytes());
        pub_key.extend_from_slice(&x.pub_key);
        Ok(CompletedKeyExchange {
            group: self.name(),
            pub_key,
            secret: concat_secrets(ss.as_bytes(), x.secret.secret_bytes()),
        })
    }

    fn ffdhe_group(&self) -> Option<rustls::ffdhe_groups::FfdheGroup<'static>> {
        None
    }

    fn name(&self) -> NamedGroup {
        NamedGroup::X25519MLKEM768
    }

    fn usable_for_version(&self, version: ProtocolVersion) -> bool {
        version == ProtocolVersion::TLSv1_3
    }
}

/// ML-KEM's secret followed by X25519's, zeroized when rustls drops it.
fn concat_secrets(kem: &[u8], ecdh: &[u8]) -> SharedSecret {
    let mut both = Zeroizing::new(Vec::with_capacity(kem.len() + ecdh.len()));
    both.extend_from_slice(kem);
    both.extend_from_slice(ecdh);
    SharedSecret::from(&both[..])
}

/// The client's side of X25519MLKEM768.
struct HybridActive {
    dk: Box<DecapsulationKey<MlKem768>>,
    x25519: Box<dyn ActiveKeyExchange>,
    pub_key: Vec<u8>,
}

impl ActiveKeyExchange for HybridActive {
    fn complete(self: Box<Self>, peer_pub_key: &[u8]) -> Result<SharedSecret, Error> {
        if peer_pub_key.len() != MlKem768::CT_LEN + X25519_LEN {
            return Err(INVALID_KEY_SHARE);
        }
        let (peer_ct, peer_x) = peer_pub_key.split_at(MlKem768::CT_LEN);
        let ss = decapsulate(&self.dk, peer_ct)?;
        let x = self.x25519.complete(peer_x)?;
        Ok(concat_secrets(ss.as_bytes(), x.secret_bytes()))
    }

    /// The X25519 half, which rustls may also offer as a separate X25519 key share.
    fn hybrid_component(&self) -> Option<(NamedGroup, &[u8])> {
        Some((NamedGroup::X25519, self.x25519.pub_key()))
    }

    fn complete_hybrid_component(
        self: Box<Self>,
        peer_pub_key: &[u8],
    ) -> Result<SharedSecret, Error> {
        self.x25519.complete(peer_pub_key)
    }

    fn pub_key(&self) -> &[u8] {
        &self.pub_key
    }

    fn ffdhe_group(&self) -> Option<rustls::ffdhe_groups::FfdheGroup<'static>> {
        None
    }

    fn group(&self) -> NamedGroup {
        NamedGroup::X25519MLKEM768
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A valid ML-KEM-768 encapsulation key with the first coefficient set to q = 3329.
    fn ek_with_coefficient_q() -> Vec<u8> {
        let dk = DecapsulationKey::<MlKem768>::generate().unwrap();
        let mut ek = dk.encapsulation_key().as_bytes().to_vec();
        // ByteEncode12: the first coefficient is the low 12 bits of bytes 0..2.
        ek[0] = (3329 & 0xff) as u8;
        ek[1] = (ek[1] & 0xf0) | ((3329 >> 8) as u8);
        ek
    }

    #[test]
    fn hybrid_round_trip_and_sizes() {
        let client = X25519MLKEM768.start().unwrap();
        assert_eq!(client.pub_key().len(), 1216);
        let server = X25519MLKEM768.start_and_complete(client.pub_key()).unwrap();
        assert_eq!(server.pub_key.len(), 1120);
        let ss = client.complete(&server.pub_key).unwrap();
        assert_eq!(ss.secret_bytes().len(), 64);
        assert_eq!(ss.secret_bytes(), server.secret.secret_bytes());
    }

    #[test]
    fn pure_round_trips_and_sizes() {
        for (group, ek_len, ct_len) in [
            (MLKEM512, 800, 768),
            (MLKEM768, 1184, 1088),
            (MLKEM1024, 1568, 1568),
        ] {
            let client = group.start().unwrap();
            assert_eq!(client.pub_key().len(), ek_len);
            let server = group.start_and_complete(client.pub_key()).unwrap();
            assert_eq!(server.pub_key.len(), ct_len);
            let ss = client.complete(&server.pub_key).unwrap();
            assert_eq!(ss.secret_bytes(), server.secret.secret_bytes());
            assert_eq!(ss.secret_bytes().len(), 32);
        }
    }

    #[test]
    fn bad_shares_are_invalid_key_share() {
        let bad_ek = ek_with_coefficient_q();
        let mut bad_hybrid = bad_ek.clone();
        bad_hybrid.extend_from_slice(&[9u8; 32]);
        let good = X25519MLKEM768.start().unwrap();
        let cases: [(&dyn SupportedKxGroup, Vec<u8>); 6] = [
            (MLKEM768, bad_ek),
            (X25519MLKEM768, bad_hybrid),
            (MLKEM768, vec![0u8; 1183]),
            (X25519MLKEM768, good.pub_key()[..1215].to_vec()),
            (X25519MLKEM768, [good.pub_key(), &[0u8]].concat()),
            (MLKEM512, Vec::new()),
        ];
        for (group, share) in cases {
            let err = group.start_and_complete(&share).err();
            assert_eq!(
                err,
                Some(INVALID_KEY_SHARE),
                "{group:?}, {} bytes",
                share.len()
            );
        }
        // The client rejects a ciphertext of the wrong length.
        let client = MLKEM1024.start().unwrap();
        assert_eq!(client.complete(&[0u8; 1567]).err(), Some(INVALID_KEY_SHARE));
        let client = X25519MLKEM768.start().unwrap();
        assert_eq!(client.complete(&[0u8; 1119]).err(), Some(INVALID_KEY_SHARE));
    }

    #[test]
    fn names_round_trip() {
        for (name, group) in KX_GROUP_NAMES {
            assert_eq!(kx_group_name(group.name()), *name);
            assert_eq!(
                kx_group_by_name(&name.to_lowercase()).map(|g| g.name()),
                Some(group.name())
            );
        }
        assert!(kx_group_by_name("nope").is_none());
    }
}
