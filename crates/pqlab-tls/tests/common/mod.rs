//! Shared by the integration tests: certificate chains made once, an in-memory byte pump and
//! ClientHellos with a chosen key share.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, dead_code)]

use std::sync::{Arc, OnceLock};

use pqlab_tls::cert::{CertAlg, CertChain, Keypair, generate_chain, generate_chain_with_keys};
use pqlab_tls::rustls::crypto::{ActiveKeyExchange, SharedSecret, SupportedKxGroup};
use pqlab_tls::rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};
use pqlab_tls::rustls::{self, ClientConnection, NamedGroup, ServerConnection};
use pqlab_tls::{kx, net, provider, provider_with_groups};

/// One chain per algorithm, made once per test binary. Falcon chains use the keys of the NIST
/// KAT file (records 0 and 1: CA and leaf), so that they do not depend on key generation;
/// `None` when the vector folder is missing (the test then skips, except under CI).
pub fn try_chain(alg: CertAlg) -> Option<&'static CertChain> {
    static CHAINS: [OnceLock<Option<CertChain>>; CertAlg::ALL.len()] =
        [const { OnceLock::new() }; CertAlg::ALL.len()];
    let i = CertAlg::ALL.iter().position(|(_, a)| *a == alg).unwrap();
    CHAINS[i]
        .get_or_init(|| {
            let sans = ["localhost".to_string()];
            let kat = match alg {
                CertAlg::Falcon512 => "falcon-kat/falcon512-KAT.rsp",
                CertAlg::Falcon1024 => "falcon-kat/falcon1024-KAT.rsp",
                _ => return Some(generate_chain(alg, &sans).unwrap()),
            };
            let [ca, leaf] = kat_falcon_pkcs8(kat)?;
            let ca = Keypair::from_pkcs8_der(&ca).unwrap();
            let leaf = Keypair::from_pkcs8_der(&leaf).unwrap();
            Some(generate_chain_with_keys(ca, leaf, &sans).unwrap())
        })
        .as_ref()
}

/// [`try_chain`] for algorithms whose chain is always there (all but Falcon).
pub fn chain(alg: CertAlg) -> &'static CertChain {
    try_chain(alg).expect("no chain")
}

/// The first two secret keys of a Falcon KAT file as PKCS#8 (the secret key alone in the
/// inner OCTET STRING; the OID from the key's header byte).
pub fn kat_falcon_pkcs8(rel: &str) -> Option<[Vec<u8>; 2]> {
    let dir = pqlab_testutil::vectors::vectors_dir()?;
    let text = pqlab_testutil::vectors::load_text(&dir, rel);
    let keys: Vec<Vec<u8>> = text
        .lines()
        .filter_map(|l| l.strip_prefix("sk = "))
        .take(2)
        .map(|h| {
            let sk = pqlab_testutil::vectors::unhex(h);
            let oid = match sk[0] {
                0x59 => pqlab_tls::falcon::OID_FALCON_512,
                0x5a => pqlab_tls::falcon::OID_FALCON_1024,
                other => panic!("{rel}: secret key header {other:#x}"),
            };
            let inner = der_octet_string(&sk);
            pqlab_tls::pkcs8::encode_pkcs8(oid, &inner)
                .unwrap()
                .to_vec()
        })
        .collect();
    Some([keys[0].clone(), keys[1].clone()])
}

/// DER OCTET STRING around `b` (long form length).
pub fn der_octet_string(b: &[u8]) -> Vec<u8> {
    let len = b.len();
    let mut out = vec![0x04, 0x82, (len >> 8) as u8, len as u8];
    out.extend_from_slice(b);
    out
}

/// The leaf certificate and its key, as rustls wants them.
pub fn leaf(alg: CertAlg) -> (Vec<CertificateDer<'static>>, PrivateKeyDer<'static>) {
    let c = chain(alg);
    let key = PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(c.leaf_key.pkcs8_der().to_vec()));
    (vec![CertificateDer::from(c.leaf_cert.clone())], key)
}

/// The CA certificate.
pub fn ca(alg: CertAlg) -> CertificateDer<'static> {
    CertificateDer::from(chain(alg).ca_cert.clone())
}

/// A pqlab server configuration for `alg`'s leaf.
pub fn server_config(alg: CertAlg) -> Arc<rustls::ServerConfig> {
    let (certs, key) = leaf(alg);
    net::server_config(provider(), certs, key).unwrap()
}

/// A pqlab client trusting `alg`'s CA and offering `groups`.
pub fn client(alg: CertAlg, groups: Vec<&'static dyn SupportedKxGroup>) -> net::Client {
    net::client_config(provider_with_groups(groups), &[ca(alg)]).unwrap()
}

/// Moves bytes between the two until neither has anything to send; returns the first error.
pub fn pump(
    client: &mut ClientConnection,
    server: &mut ServerConnection,
) -> Result<(), rustls::Error> {
    loop {
        let mut buf = Vec::new();
        client.write_tls(&mut buf).unwrap();
        let c2s = !buf.is_empty();
        let mut rest = &buf[..];
        while !rest.is_empty() {
            server.read_tls(&mut rest).unwrap();
            server.process_new_packets()?;
        }
        let mut buf = Vec::new();
        server.write_tls(&mut buf).unwrap();
        let s2c = !buf.is_empty();
        let mut rest = &buf[..];
        while !rest.is_empty() {
            client.read_tls(&mut rest).unwrap();
            client.process_new_packets()?;
        }
        if !c2s && !s2c {
            return Ok(());
        }
    }
}

/// A key exchange whose "public key" is fixed bytes: a real rustls client then builds a
/// ClientHello with exactly that key share.
#[derive(Debug)]
pub struct FixedShare(pub &'static dyn SupportedKxGroup, pub Vec<u8>);

struct FixedActive(NamedGroup, Vec<u8>);

impl ActiveKeyExchange for FixedActive {
    fn complete(self: Box<Self>, _: &[u8]) -> Result<SharedSecret, rustls::Error> {
        Err(rustls::Error::General("not used".into()))
    }
    fn pub_key(&self) -> &[u8] {
        &self.1
    }
    fn group(&self) -> NamedGroup {
        self.0
    }
}

impl SupportedKxGroup for FixedShare {
    fn start(&self) -> Result<Box<dyn ActiveKeyExchange>, rustls::Error> {
        Ok(Box::new(FixedActive(self.0.name(), self.1.clone())))
    }
    fn name(&self) -> NamedGroup {
        self.0.name()
    }
}

/// A client whose ClientHello carries `share` as its key share for `group`.
pub fn client_with_share(
    alg: CertAlg,
    group: &'static dyn SupportedKxGroup,
    share: Vec<u8>,
) -> ClientConnection {
    let fixed: &'static FixedShare = Box::leak(Box::new(FixedShare(group, share)));
    ClientConnection::new(
        client(alg, vec![fixed]).config,
        "localhost".try_into().unwrap(),
    )
    .unwrap()
}

/// The wire bytes of a ClientHello with `share` for `group`.
pub fn client_hello_with_share(group: &'static dyn SupportedKxGroup, share: Vec<u8>) -> Vec<u8> {
    let mut client = client_with_share(CertAlg::MlDsa44, group, share);
    let mut buf = Vec::new();
    client.write_tls(&mut buf).unwrap();
    buf
}

/// The bad key shares: (group, share, what).
pub fn bad_shares() -> Vec<(&'static dyn SupportedKxGroup, Vec<u8>, &'static str)> {
    let good = kx::X25519MLKEM768.start().unwrap().pub_key().to_vec();
    // ByteEncode12 of the first coefficient = 4095 (>= q): fails the FIPS 203 modulus check.
    let mut over_q = good.clone();
    over_q[0] = 0xff;
    over_q[1] |= 0x0f;
    let pure_over_q = over_q[..1184].to_vec();
    // The last coefficient = 3329 = q exactly.
    let mut last_q = good[..1184].to_vec();
    last_q[1150] = (last_q[1150] & 0x0f) | 0x10; // low nibble kept, high nibble 1
    last_q[1151] = 0xd0; // 0xd01 = 3329: coefficient 767 = byte 1150 high nibble | 1151 << 4
    vec![
        (kx::X25519MLKEM768, over_q, "hybrid ek coefficient 4095"),
        (kx::MLKEM768, pure_over_q, "ek coefficient 4095"),
        (kx::MLKEM768, last_q, "ek last coefficient = q"),
        (
            kx::X25519MLKEM768,
            good[..1215].to_vec(),
            "truncated hybrid share",
        ),
        (
            kx::X25519MLKEM768,
            [&good[..], &[0u8; 1]].concat(),
            "oversized hybrid share",
        ),
        (kx::MLKEM1024, vec![0x42; 1000], "short MLKEM1024 share"),
        (kx::MLKEM512, vec![0u8; 1], "one-byte MLKEM512 share"),
    ]
}
