//! Interoperability with rustls's aws-lc-rs provider (AWS-LC's own ML-KEM and ML-DSA):
//! an aws-lc-rs client against the pqlab server, and the pqlab client against an aws-lc-rs
//! server, with ML-DSA-65 certificates made by `pqlab_tls::cert`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common;

use std::sync::Arc;

use common::{ca, chain, leaf, pump, server_config};
use pqlab_tls::cert::CertAlg;
use pqlab_tls::rustls::crypto::{CryptoProvider, aws_lc_rs};
use pqlab_tls::rustls::{
    self, ClientConfig, ClientConnection, NamedGroup, RootCertStore, ServerConfig,
    ServerConnection, SignatureScheme,
};
use pqlab_tls::{TLS13_ONLY, kx, net, provider_with_groups};

fn aws_provider(groups: Vec<&'static dyn rustls::crypto::SupportedKxGroup>) -> Arc<CryptoProvider> {
    Arc::new(CryptoProvider {
        kx_groups: groups,
        ..aws_lc_rs::default_provider()
    })
}

fn aws_client(
    alg: CertAlg,
    group: &'static dyn rustls::crypto::SupportedKxGroup,
) -> ClientConnection {
    let mut roots = RootCertStore::empty();
    roots.add(ca(alg)).unwrap();
    let config = ClientConfig::builder_with_provider(aws_provider(vec![group]))
        .with_protocol_versions(TLS13_ONLY)
        .unwrap()
        .with_root_certificates(roots)
        .with_no_client_auth();
    ClientConnection::new(Arc::new(config), "localhost".try_into().unwrap()).unwrap()
}

#[test]
fn aws_lc_rs_client_against_pqlab_server() {
    for (group, name) in [
        (
            aws_lc_rs::kx_group::X25519MLKEM768,
            NamedGroup::X25519MLKEM768,
        ),
        (aws_lc_rs::kx_group::MLKEM768, NamedGroup::MLKEM768),
        (aws_lc_rs::kx_group::MLKEM1024, NamedGroup::MLKEM1024),
    ] {
        for alg in [CertAlg::MlDsa44, CertAlg::MlDsa65, CertAlg::MlDsa87] {
            let mut client = aws_client(alg, group);
            let mut server = ServerConnection::new(server_config(alg)).unwrap();
            pump(&mut client, &mut server).unwrap();
            assert!(!client.is_handshaking());
            assert_eq!(
                client.negotiated_key_exchange_group().map(|g| g.name()),
                Some(name)
            );
            assert_eq!(
                server.negotiated_key_exchange_group().map(|g| g.name()),
                Some(name)
            );
        }
    }
}

/// An aws-lc-rs server with a pqlab-made certificate; its key is loaded by aws-lc-rs itself.
fn aws_server(
    alg: CertAlg,
    groups: Vec<&'static dyn rustls::crypto::SupportedKxGroup>,
) -> ServerConnection {
    let (certs, key) = leaf(alg);
    let config = ServerConfig::builder_with_provider(aws_provider(groups))
        .with_protocol_versions(TLS13_ONLY)
        .unwrap()
        .with_no_client_auth()
        .with_single_cert(certs, key)
        .unwrap();
    ServerConnection::new(Arc::new(config)).unwrap()
}

#[test]
fn pqlab_client_against_aws_lc_rs_server() {
    let aws_groups = vec![
        aws_lc_rs::kx_group::X25519MLKEM768,
        aws_lc_rs::kx_group::MLKEM768,
        aws_lc_rs::kx_group::MLKEM1024,
    ];
    for (ours, name) in [
        (kx::X25519MLKEM768, "X25519MLKEM768"),
        (kx::MLKEM768, "MLKEM768"),
        (kx::MLKEM1024, "MLKEM1024"),
    ] {
        for (alg, scheme) in [
            (CertAlg::MlDsa44, SignatureScheme::ML_DSA_44),
            (CertAlg::MlDsa65, SignatureScheme::ML_DSA_65),
            (CertAlg::MlDsa87, SignatureScheme::ML_DSA_87),
        ] {
            let setup = net::client_config(provider_with_groups(vec![ours]), &[ca(alg)]).unwrap();
            let mut client =
                ClientConnection::new(Arc::clone(&setup.config), "localhost".try_into().unwrap())
                    .unwrap();
            let mut server = aws_server(alg, aws_groups.clone());
            pump(&mut client, &mut server).unwrap();
            let got = net::negotiated(&client, &setup.verifier);
            assert_eq!(got.group, name);
            assert_eq!(setup.verifier.last_scheme(), Some(scheme));
        }
    }
    let _ = chain(CertAlg::MlDsa65);
}
