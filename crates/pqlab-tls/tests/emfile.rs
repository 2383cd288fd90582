//! The server out of file descriptors (EMFILE on accept): it reports the error, pauses
//! between tries instead of spinning, and serves again once descriptors are free. Alone in its
//! test binary, because it uses up the descriptors of the whole process.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::fs::File;
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use common::{client, server_config};
use pqlab_tls::cert::CertAlg;
use pqlab_tls::server::{Limits, Server};
use pqlab_tls::{kx, net};

#[test]
fn accept_errors_back_off_and_the_server_recovers() {
    let alg = CertAlg::MlDsa65;
    let config = server_config(alg);
    let c = client(alg, vec![kx::X25519MLKEM768]);
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let backoff = Duration::from_millis(100);
    let limits = Limits {
        worker_threads: 1,
        accept_backoff: backoff,
        ..Limits::default()
    };
    let server = Server::start(&listener, config, &limits, |_| {}).unwrap();
    let addr = server.local_addr();
    let (_, echo) = net::connect_and_echo(&c, &addr.to_string(), "localhost", "before").unwrap();
    assert_eq!(echo, "before");

    // Use up the descriptors, free one for a client socket: the server's accept then fails.
    let mut files = Vec::new();
    while files.len() < 100_000 {
        match File::open("/dev/null") {
            Ok(f) => files.push(f),
            Err(_) => break,
        }
    }
    assert!(files.len() < 100_000, "no descriptor limit");
    files.pop();
    let waiting = TcpStream::connect(addr).unwrap();
    let errors = || server.stats().accept_errors.load(Ordering::Relaxed);
    let t = Instant::now();
    while errors() == 0 && t.elapsed() < Duration::from_secs(5) {
        std::thread::sleep(Duration::from_millis(10));
    }
    let first = errors();
    std::thread::sleep(Duration::from_secs(1));
    let in_a_second = errors() - first;
    drop(files);
    assert!(first > 0, "no accept error seen");
    // One try per pause: about 10 in a second, not thousands.
    let most = (Duration::from_secs(1).as_millis() / backoff.as_millis()) as u64 + 3;
    assert!(
        (1..=most).contains(&in_a_second),
        "{in_a_second} accept errors in a second"
    );

    // Descriptors free again: the waiting connection is accepted and clients are served.
    let t = Instant::now();
    while server.stats().accepted.load(Ordering::Relaxed) < 2
        && t.elapsed() < Duration::from_secs(5)
    {
        std::thread::sleep(Duration::from_millis(10));
    }
    assert_eq!(server.stats().accepted.load(Ordering::Relaxed), 2);
    drop(waiting);
    let (_, echo) = net::connect_and_echo(&c, &addr.to_string(), "localhost", "after").unwrap();
    assert_eq!(echo, "after");
}
