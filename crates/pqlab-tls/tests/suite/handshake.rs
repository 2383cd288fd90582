//! In-memory rustls handshakes (no sockets) with the pqlab provider: every post-quantum group,
//! every ML-DSA level and the ECDSA baseline; and the alerts for bad key shares.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common;

use std::io::{Read, Write};
use std::sync::Arc;

use common::{ca, chain, client, client_with_share, pump, server_config};
use pqlab_tls::cert::CertAlg;
use pqlab_tls::rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};
use pqlab_tls::rustls::{self, AlertDescription, ClientConnection, NamedGroup, ServerConnection};
use pqlab_tls::{kx, net, provider};

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
    let setup = net::client_config(provider(), &[ca(CertAlg::MlDsa44)]).unwrap();
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

/// The server's answer to a ClientHello with `share` for `group`.
fn server_error_for_share(
    group: &'static dyn rustls::crypto::SupportedKxGroup,
    share: Vec<u8>,
) -> rustls::Error {
    let mut client = client_with_share(CertAlg::MlDsa44, group, share);
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
    for (group, share, what) in common::bad_shares() {
        let err = server_error_for_share(group, share);
        assert_eq!(
            err,
            rustls::Error::PeerMisbehaved(rustls::PeerMisbehaved::InvalidKeyShare),
            "{what}"
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
