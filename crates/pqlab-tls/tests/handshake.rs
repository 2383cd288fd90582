//! In-memory rustls handshakes (no sockets) with the pqlab provider: every post-quantum group,
//! every ML-DSA level and the ECDSA baseline; and the alerts for bad key shares.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::io::{Read, Write};
use std::sync::{Arc, OnceLock};

use pqlab_tls::cert::{CertAlg, CertChain, generate_chain};
use pqlab_tls::rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};
use pqlab_tls::rustls::{self, AlertDescription, ClientConnection, NamedGroup, ServerConnection};
use pqlab_tls::{kx, net, provider, provider_with_groups};

/// One chain per algorithm, made once (ML-DSA-87 keys are slow in debug builds).
fn chain(alg: CertAlg) -> &'static CertChain {
    static CHAINS: [OnceLock<CertChain>; 4] = [const { OnceLock::new() }; 4];
    let i = CertAlg::ALL.iter().position(|(_, a)| *a == alg).unwrap();
    CHAINS[i].get_or_init(|| generate_chain(alg, &["localhost".to_string()]).unwrap())
}

fn server_config(alg: CertAlg) -> Arc<rustls::ServerConfig> {
    let c = chain(alg);
    let key = PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(c.leaf_key.pkcs8_der().to_vec()));
    net::server_config(
        provider(),
        vec![CertificateDer::from(c.leaf_cert.clone())],
        key,
    )
    .unwrap()
}

fn client(alg: CertAlg, groups: Vec<&'static dyn rustls::crypto::SupportedKxGroup>) -> net::Client {
    let roots = [CertificateDer::from(chain(alg).ca_cert.clone())];
    net::client_config(provider_with_groups(groups), &roots).unwrap()
}

/// Moves bytes between the two until neither has anything to send; returns the first error.
fn pump(client: &mut ClientConnection, server: &mut ServerConnection) -> Result<(), rustls::Error> {
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

/// A handshake and a ping-pong; returns what the client saw.
fn handshake(
    alg: CertAlg,
    group: &'static dyn rustls::crypto::SupportedKxGroup,
) -> net::Negotiated {
    let setup = client(alg, vec![group]);
    let mut client =
        ClientConnection::new(Arc::clone(&setup.config), "localhost".try_into().unwrap()).unwrap();
    let mut server = ServerConnection::new(server_config(alg)).unwrap();
    pump(&mut client, &mut server).unwrap();
    assert!(!client.is_handshaking() && !server.is_handshaking());
    assert_eq!(
        server.negotiated_key_exchange_group().map(|g| g.name()),
        Some(group.name())
    );
    // Application data flows both ways.
    client.writer().write_all(b"ping").unwrap();
    pump(&mut client, &mut server).unwrap();
    let mut got = [0u8; 4];
    server.reader().read_exact(&mut got).unwrap();
    assert_eq!(&got, b"ping");
    server.writer().write_all(b"pong").unwrap();
    pump(&mut client, &mut server).unwrap();
    client.reader().read_exact(&mut got).unwrap();
    assert_eq!(&got, b"pong");
    assert_eq!(
        client.negotiated_key_exchange_group().map(|g| g.name()),
        Some(group.name())
    );
    net::negotiated(&client, &setup.verifier)
}

#[test]
fn every_group_with_ml_dsa_65() {
    for (group, name) in [
        (kx::X25519MLKEM768, NamedGroup::X25519MLKEM768),
        (kx::MLKEM512, NamedGroup::MLKEM512),
        (kx::MLKEM768, NamedGroup::MLKEM768),
        (kx::MLKEM1024, NamedGroup::MLKEM1024),
        (kx::X25519, NamedGroup::X25519),
    ] {
        let got = handshake(CertAlg::MlDsa65, group);
        assert_eq!(got.group, kx::kx_group_name(name));
        assert_eq!(got.signature, "ml-dsa-65");
        assert_eq!(got.cipher_suite, "TLS13_AES_256_GCM_SHA384");
    }
}

#[test]
fn every_signature_level_with_the_hybrid() {
    for (alg, scheme) in [
        (CertAlg::MlDsa44, "ml-dsa-44"),
        (CertAlg::MlDsa65, "ml-dsa-65"),
        (CertAlg::MlDsa87, "ml-dsa-87"),
        (CertAlg::EcdsaP256, "ECDSA_NISTP256_SHA256"),
    ] {
        let got = handshake(alg, kx::X25519MLKEM768);
        assert_eq!(got.signature, scheme, "{alg:?}");
        assert_eq!(got.group, "X25519MLKEM768");
    }
}

#[test]
fn default_client_prefers_the_hybrid() {
    let roots = [CertificateDer::from(
        chain(CertAlg::MlDsa44).ca_cert.clone(),
    )];
    let setup = net::client_config(provider(), &roots).unwrap();
    let mut client = ClientConnection::new(setup.config, "localhost".try_into().unwrap()).unwrap();
    let mut server = ServerConnection::new(server_config(CertAlg::MlDsa44)).unwrap();
    pump(&mut client, &mut server).unwrap();
    assert_eq!(
        client.negotiated_key_exchange_group().map(|g| g.name()),
        Some(NamedGroup::X25519MLKEM768)
    );
}

#[test]
fn untrusted_ml_dsa_certificate_is_rejected() {
    // The client trusts the ML-DSA-44 CA; the server presents a chain from another ML-DSA-65 CA.
    let mut client = ClientConnection::new(
        client(CertAlg::MlDsa44, vec![kx::MLKEM768]).config,
        "localhost".try_into().unwrap(),
    )
    .unwrap();
    let mut server = ServerConnection::new(server_config(CertAlg::MlDsa65)).unwrap();
    let err = pump(&mut client, &mut server).unwrap_err();
    assert!(
        matches!(err, rustls::Error::InvalidCertificate(_)),
        "{err:?}"
    );
}

/// A ClientHello whose key share (for `group`) has been replaced by `share`: built by a real
/// client whose key exchange is a stub that returns `share` as its public key.
#[derive(Debug)]
struct FixedShare(&'static dyn rustls::crypto::SupportedKxGroup, Vec<u8>);

struct FixedActive(NamedGroup, Vec<u8>);

impl rustls::crypto::ActiveKeyExchange for FixedActive {
    fn complete(self: Box<Self>, _: &[u8]) -> Result<rustls::crypto::SharedSecret, rustls::Error> {
        Err(rustls::Error::General("not used".into()))
    }
    fn pub_key(&self) -> &[u8] {
        &self.1
    }
    fn group(&self) -> NamedGroup {
        self.0
    }
}

impl rustls::crypto::SupportedKxGroup for FixedShare {
    fn start(&self) -> Result<Box<dyn rustls::crypto::ActiveKeyExchange>, rustls::Error> {
        Ok(Box::new(FixedActive(self.0.name(), self.1.clone())))
    }
    fn name(&self) -> NamedGroup {
        self.0.name()
    }
}

/// The server's answer to a ClientHello with `share` for `group`.
fn server_error_for_share(
    group: &'static dyn rustls::crypto::SupportedKxGroup,
    share: Vec<u8>,
) -> rustls::Error {
    let fixed: &'static FixedShare = Box::leak(Box::new(FixedShare(group, share)));
    let mut client = ClientConnection::new(
        client(CertAlg::MlDsa44, vec![fixed]).config,
        "localhost".try_into().unwrap(),
    )
    .unwrap();
    let mut server = ServerConnection::new(server_config(CertAlg::MlDsa44)).unwrap();
    let mut buf = Vec::new();
    client.write_tls(&mut buf).unwrap();
    let mut rest = &buf[..];
    let err = loop {
        server.read_tls(&mut rest).unwrap();
        if let Err(e) = server.process_new_packets() {
            break e;
        }
        assert!(!rest.is_empty(), "the server accepted the ClientHello");
    };
    // The server sends an alert before it gives up; the client sees it.
    let mut alert = Vec::new();
    server.write_tls(&mut alert).unwrap();
    client.read_tls(&mut &alert[..]).unwrap();
    assert_eq!(
        client.process_new_packets().unwrap_err(),
        rustls::Error::AlertReceived(AlertDescription::IllegalParameter)
    );
    err
}

#[test]
fn bad_key_shares_get_illegal_parameter_alerts() {
    let good = kx::X25519MLKEM768.start().unwrap().pub_key().to_vec();
    // ByteEncode12 of the first coefficient = 4095 (>= q): fails the FIPS 203 modulus check.
    let mut over_q = good.clone();
    over_q[0] = 0xff;
    over_q[1] |= 0x0f;
    let mut pure_over_q = over_q[..1184].to_vec();
    pure_over_q[2] ^= 0; // same first coefficient
    let cases: Vec<(&'static dyn rustls::crypto::SupportedKxGroup, Vec<u8>)> = vec![
        (kx::X25519MLKEM768, over_q),
        (kx::MLKEM768, pure_over_q),
        (kx::X25519MLKEM768, good[..1215].to_vec()),
        (kx::X25519MLKEM768, [&good[..], &[0u8; 1]].concat()),
        (kx::MLKEM1024, vec![0x42; 1000]),
        (kx::MLKEM512, vec![0u8; 1]),
    ];
    for (group, share) in cases {
        let len = share.len();
        let err = server_error_for_share(group, share);
        assert_eq!(
            err,
            rustls::Error::PeerMisbehaved(rustls::PeerMisbehaved::InvalidKeyShare),
            "{group:?} with {len} bytes"
        );
    }
}

#[test]
fn tampered_ml_dsa_certificate_signature_is_rejected() {
    let c = chain(CertAlg::MlDsa65);
    let mut leaf = c.leaf_cert.clone();
    let last = leaf.len() - 1;
    leaf[last] ^= 1; // inside the signature BIT STRING, the last element of the certificate
    let key = PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(c.leaf_key.pkcs8_der().to_vec()));
    let config = net::server_config(provider(), vec![CertificateDer::from(leaf)], key).unwrap();
    let mut server = ServerConnection::new(config).unwrap();
    let mut client = ClientConnection::new(
        client(CertAlg::MlDsa65, vec![kx::X25519MLKEM768]).config,
        "localhost".try_into().unwrap(),
    )
    .unwrap();
    let err = pump(&mut client, &mut server).unwrap_err();
    assert_eq!(
        err,
        rustls::Error::InvalidCertificate(rustls::CertificateError::BadSignature)
    );
}
