//! Falcon-512 and Falcon-1024 certificates (non-standard OQS code points and OIDs) in full
//! TLS 1.3 handshakes between pqlab's client and server, in memory; their PKCS#8 forms; and
//! tampered signatures. The keys come from the NIST KAT files (see `common::try_chain`).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common;

use std::io::{Read, Write};
use std::sync::Arc;
use std::time::Duration;

use common::{client, der_octet_string, pump, try_chain};
use pqlab_tls::bench::{BenchConfig, run_with_chains};
use pqlab_tls::cert::{CertAlg, CertChain, Keypair, generate_chain};
use pqlab_tls::falcon::{FALCON_512_SCHEME, FALCON_1024_SCHEME, OID_FALCON_512};
use pqlab_tls::rustls::client::danger::ServerCertVerifier;
use pqlab_tls::rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};
use pqlab_tls::rustls::{self, ClientConnection, ServerConnection};
use pqlab_tls::{Error, kx, net, provider, sign};

/// The server configuration of `alg`'s KAT chain, or None (skipped) without the vectors.
fn falcon_server(alg: CertAlg) -> Option<Arc<rustls::ServerConfig>> {
    let c = try_chain(alg)?;
    let key = PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(c.leaf_key.pkcs8_der().to_vec()));
    Some(
        net::server_config(
            provider(),
            vec![CertificateDer::from(c.leaf_cert.clone())],
            key,
        )
        .unwrap(),
    )
}

/// A full handshake and an echo with `alg`'s chain over `group`; returns what the client saw.
fn falcon_handshake(
    alg: CertAlg,
    group: &'static dyn rustls::crypto::SupportedKxGroup,
) -> Option<net::Negotiated> {
    let server_config = falcon_server(alg)?;
    let setup = client(alg, vec![group]);
    let mut c =
        ClientConnection::new(Arc::clone(&setup.config), "localhost".try_into().unwrap()).unwrap();
    let mut s = ServerConnection::new(server_config).unwrap();
    pump(&mut c, &mut s).unwrap();
    assert!(!c.is_handshaking() && !s.is_handshaking());
    c.writer().write_all(b"falcon").unwrap();
    pump(&mut c, &mut s).unwrap();
    let mut got = [0u8; 6];
    s.reader().read_exact(&mut got).unwrap();
    assert_eq!(&got, b"falcon");
    Some(net::negotiated(&c, &setup.verifier))
}

#[test]
fn falcon_512_certificate_full_handshake() {
    for group in [kx::X25519MLKEM768, kx::MLKEM512, kx::X25519] {
        let Some(got) = falcon_handshake(CertAlg::Falcon512, group) else {
            return;
        };
        assert_eq!(
            got.signature,
            "falcon-512 (non-standard: OQS code point 0xFED7)"
        );
        assert_eq!(got.group, kx::kx_group_name(group.name()));
    }
}

#[test]
fn falcon_1024_certificate_full_handshake() {
    for group in [kx::X25519MLKEM768, kx::MLKEM1024] {
        let Some(got) = falcon_handshake(CertAlg::Falcon1024, group) else {
            return;
        };
        assert_eq!(
            got.signature,
            "falcon-1024 (non-standard: OQS code point 0xFEDA)"
        );
        assert_eq!(got.group, kx::kx_group_name(group.name()));
    }
}

#[test]
fn falcon_schemes_are_offered_and_labelled_non_standard() {
    let setup = client(CertAlg::MlDsa65, vec![kx::X25519MLKEM768]);
    let offered = setup.verifier.supported_verify_schemes();
    assert!(offered.contains(&FALCON_512_SCHEME));
    assert!(offered.contains(&FALCON_1024_SCHEME));
    let rows: Vec<_> = sign::PQ_SIG_SCHEMES
        .iter()
        .filter(|s| s.non_standard)
        .map(|s| (s.name, s.oid))
        .collect();
    assert_eq!(
        rows,
        [
            ("falcon-512", "1.3.9999.3.11"),
            ("falcon-1024", "1.3.9999.3.14")
        ]
    );
    assert!(CertAlg::Falcon512.non_standard() && !CertAlg::MlDsa44.non_standard());
}

#[test]
fn tampered_falcon_certificate_signature_is_rejected() {
    let Some(c) = try_chain(CertAlg::Falcon512) else {
        return;
    };
    // The signature is the last element of the certificate; its last byte is inside the
    // compressed s2.
    let mut leaf = c.leaf_cert.clone();
    let last = leaf.len() - 1;
    leaf[last] ^= 0x10;
    let key = PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(c.leaf_key.pkcs8_der().to_vec()));
    let config = net::server_config(provider(), vec![CertificateDer::from(leaf)], key).unwrap();
    let mut s = ServerConnection::new(config).unwrap();
    let mut cl = ClientConnection::new(
        client(CertAlg::Falcon512, vec![kx::X25519MLKEM768]).config,
        "localhost".try_into().unwrap(),
    )
    .unwrap();
    let err = pump(&mut cl, &mut s).unwrap_err();
    assert_eq!(
        err,
        rustls::Error::InvalidCertificate(rustls::CertificateError::BadSignature)
    );
}

/// The KAT file's first (sk, pk) pair and the second pk.
fn kat_keys() -> Option<(Vec<u8>, Vec<u8>, Vec<u8>)> {
    let dir = pqlab_testutil::vectors::vectors_dir()?;
    let text = pqlab_testutil::vectors::load_text(&dir, "falcon-kat/falcon512-KAT.rsp");
    let field = |name: &str, i: usize| {
        let prefix = format!("{name} = ");
        let line = text
            .lines()
            .filter_map(|l| l.strip_prefix(prefix.as_str()))
            .nth(i)
            .unwrap();
        pqlab_testutil::vectors::unhex(line)
    };
    Some((field("sk", 0), field("pk", 0), field("pk", 1)))
}

#[test]
fn falcon_pkcs8_with_and_without_the_public_key() {
    let Some((sk, pk, other_pk)) = kat_keys() else {
        return;
    };
    let pkcs8 = |blob: &[u8]| {
        pqlab_tls::pkcs8::encode_pkcs8(OID_FALCON_512, &der_octet_string(blob)).unwrap()
    };
    // oqs-provider's form (sk || pk) and the secret key alone give the same public key.
    let both = Keypair::from_pkcs8_der(&pkcs8(&[&sk[..], &pk[..]].concat())).unwrap();
    let alone = Keypair::from_pkcs8_der(&pkcs8(&sk)).unwrap();
    assert_eq!(both.alg(), CertAlg::Falcon512);
    assert_eq!(both.spki_der().unwrap(), alone.spki_der().unwrap());
    assert!(
        both.spki_der()
            .unwrap()
            .ends_with(&[&[0u8][..], &pk[..]].concat()),
        "the SPKI holds the encoded public key"
    );
    // A public key that is not the secret key's, a truncated key, a wrong header.
    let mismatched = Keypair::from_pkcs8_der(&pkcs8(&[&sk[..], &other_pk[..]].concat()));
    assert!(matches!(mismatched, Err(Error::Key(_))), "mismatched pk");
    let truncated = Keypair::from_pkcs8_der(&pkcs8(&sk[..sk.len() - 1]));
    assert!(matches!(truncated, Err(Error::Key(_))), "truncated sk");
    let mut bad_header = sk.clone();
    bad_header[0] = 0x5a;
    let bad = Keypair::from_pkcs8_der(&pkcs8(&bad_header));
    assert!(matches!(bad, Err(Error::Key(_))), "wrong header");
}

/// A copy of the KAT chain of `alg` (or a fresh chain for the other algorithms).
fn chain_copy(alg: CertAlg) -> Result<CertChain, Error> {
    let c = try_chain(alg).expect("vectors present");
    Ok(CertChain {
        ca_cert: c.ca_cert.clone(),
        ca_key: Keypair::from_pkcs8_der(c.ca_key.pkcs8_der())?,
        leaf_cert: c.leaf_cert.clone(),
        leaf_key: Keypair::from_pkcs8_der(c.leaf_key.pkcs8_der())?,
    })
}

#[test]
fn falcon_in_the_handshake_benchmark() {
    if try_chain(CertAlg::Falcon512).is_none() {
        return;
    }
    let cfg = BenchConfig {
        sigs: vec![CertAlg::Falcon512, CertAlg::Falcon1024, CertAlg::MlDsa44],
        groups: vec!["X25519MLKEM768".into()],
        iterations: 2,
        clients: 1,
        duration: Duration::from_millis(100),
    };
    let results = run_with_chains(&cfg, &mut chain_copy, &mut |_| {}).unwrap();
    let bytes: Vec<usize> = results.iter().map(|r| r.server_bytes).collect();
    let sigs: Vec<&str> = results.iter().map(|r| r.sig).collect();
    assert_eq!(sigs, ["falcon-512", "falcon-1024", "ml-dsa-44"]);
    // Two certificates with an 897-byte key and a ~655-byte signature, plus a handshake
    // signature: Falcon-512's flight is the smallest; Falcon-1024's keys are 1793 bytes.
    assert!(bytes[0] + 2 * 896 < bytes[1], "{bytes:?}");
    assert!(bytes[0] < bytes[2], "{bytes:?}");
    assert!(results.iter().all(|r| r.handshakes_per_s.unwrap() > 0.0));
}

#[test]
fn falcon_chains_with_fresh_keys() {
    for (alg, scheme) in [
        (
            CertAlg::Falcon512,
            "falcon-512 (non-standard: OQS code point 0xFED7)",
        ),
        (
            CertAlg::Falcon1024,
            "falcon-1024 (non-standard: OQS code point 0xFEDA)",
        ),
    ] {
        let chain = generate_chain(alg, &["localhost".to_string()]).unwrap();
        assert_eq!(chain.leaf_key.alg(), alg);
        // The PKCS#8 written for a fresh key (secret key and public key) reads back.
        let again = Keypair::from_pkcs8_der(chain.leaf_key.pkcs8_der()).unwrap();
        assert_eq!(
            again.spki_der().unwrap(),
            chain.leaf_key.spki_der().unwrap()
        );
        let key = PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(
            chain.leaf_key.pkcs8_der().to_vec(),
        ));
        let config = net::server_config(
            provider(),
            vec![CertificateDer::from(chain.leaf_cert.clone())],
            key,
        )
        .unwrap();
        let setup = net::client_config(
            pqlab_tls::provider_with_groups(vec![kx::X25519MLKEM768]),
            &[CertificateDer::from(chain.ca_cert.clone())],
        )
        .unwrap();
        let mut c =
            ClientConnection::new(Arc::clone(&setup.config), "localhost".try_into().unwrap())
                .unwrap();
        let mut s = ServerConnection::new(config).unwrap();
        pump(&mut c, &mut s).unwrap();
        let got = net::negotiated(&c, &setup.verifier);
        assert_eq!(got.signature, scheme);
        assert_eq!(got.group, "X25519MLKEM768");
    }
}
