//! The echo server over loopback TCP: valid clients are served, and malformed ClientHellos sent
//! raw between them get alerts without stopping the server.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common;

use std::io::{Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::time::Duration;

use common::{bad_shares, client, client_hello_with_share, server_config};
use pqlab_tls::cert::CertAlg;
use pqlab_tls::{kx, net};

/// Starts the echo server on a free loopback port; returns the address.
fn start_server(alg: CertAlg) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    let config = server_config(alg);
    std::thread::spawn(move || net::serve(&listener, config, |_| {}));
    addr
}

/// Sends `bytes` raw and returns everything the server answers until it closes.
fn raw_exchange(addr: &str, bytes: &[u8]) -> Vec<u8> {
    let mut tcp = TcpStream::connect(addr).unwrap();
    tcp.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    tcp.write_all(bytes).unwrap();
    let _ = tcp.shutdown(Shutdown::Write);
    let mut answer = Vec::new();
    let _ = tcp.read_to_end(&mut answer);
    answer
}

/// The description byte of a fatal alert record (TLS 1.3 sends alerts in the clear before the
/// handshake keys exist: type 21, version 0x0303, length 2, level 2, description).
fn alert_description(answer: &[u8]) -> Option<u8> {
    match answer {
        [0x15, 0x03, 0x03, 0x00, 0x02, 0x02, d, ..] => Some(*d),
        _ => None,
    }
}

const ILLEGAL_PARAMETER: u8 = 47;

fn valid_handshake(addr: &str, alg: CertAlg, n: usize) {
    let c = client(alg, vec![kx::X25519MLKEM768]);
    let line = format!("valid client {n}");
    let (negotiated, echo) = net::connect_and_echo(&c, addr, "localhost", &line).unwrap();
    assert_eq!(echo, line);
    assert_eq!(negotiated.group, "X25519MLKEM768");
    assert_eq!(negotiated.signature, "ml-dsa-65");
}

#[test]
fn malformed_client_hellos_get_alerts_and_the_server_keeps_serving() {
    let alg = CertAlg::MlDsa65;
    let addr = start_server(alg);
    let mut n = 0;
    valid_handshake(&addr, alg, n);
    for (group, share, what) in bad_shares() {
        let answer = raw_exchange(&addr, &client_hello_with_share(group, share));
        assert_eq!(
            alert_description(&answer),
            Some(ILLEGAL_PARAMETER),
            "{what}: {answer:02x?}"
        );
        n += 1;
        valid_handshake(&addr, alg, n);
    }
    // Not TLS at all, and a ClientHello cut short inside its record.
    let hello = client_hello_with_share(kx::MLKEM768, vec![7u8; 1184]);
    let garbage: Vec<u8> = (0..600u32).map(|i| (i * 7919 % 251) as u8).collect();
    for (bytes, what) in [
        (&garbage[..], "garbage"),
        (&hello[..300], "truncated record"),
    ] {
        let answer = raw_exchange(&addr, bytes);
        // Garbage gets an alert; a record cut short ends in EOF, which rustls may answer
        // with an alert or by closing. Either way the server must not stop.
        if what == "garbage" {
            assert!(
                alert_description(&answer).is_some(),
                "{what}: {answer:02x?}"
            );
        }
        n += 1;
        valid_handshake(&addr, alg, n);
    }
}

#[test]
fn concurrent_clients_are_served() {
    let alg = CertAlg::MlDsa65;
    let addr = start_server(alg);
    let threads: Vec<_> = (0..4)
        .map(|i| {
            let addr = addr.clone();
            std::thread::spawn(move || valid_handshake(&addr, alg, i))
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
}
