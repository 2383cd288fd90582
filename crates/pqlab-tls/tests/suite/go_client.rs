//! Interop with Go's `crypto/tls` client: a pqlab server with an ECDSA P-256 certificate, and
//! the Go program in `tests/go/` (standard library only) connecting with Go's default curve
//! preferences, which offer X25519MLKEM768 first (Go 1.24 and later). Both sides must agree
//! on X25519MLKEM768, and the echoed line must come back.
//!
//! Without a usable Go (1.25 or later, for `ConnectionState.CurveID`) the test prints a
//! `SKIP` line and passes. It never needs the network: the program has no dependencies, and
//! the build runs with `GOFLAGS=-mod=mod`, `GOPROXY=off`, `GOTOOLCHAIN=local` and a
//! `GOCACHE` below the target folder.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common;

use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::sync::mpsc;
use std::time::Duration;

use common::{chain, server_config};
use pqlab_tls::cert::{CertAlg, cert_pem};
use pqlab_tls::kx;
use pqlab_tls::rustls::ServerConnection;

/// The environment of every `go` command: offline, local toolchain, cache in the target folder.
fn go(args: &[&str], dir: &Path) -> Command {
    let tmp = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let mut cmd = Command::new("go");
    cmd.args(args)
        .current_dir(dir)
        .env("GOFLAGS", "-mod=mod")
        .env("GOPROXY", "off")
        .env("GOTOOLCHAIN", "local")
        .env("GOTELEMETRY", "off")
        .env("GOCACHE", tmp.join("go-cache"))
        .env("GOPATH", tmp.join("go-path"));
    cmd
}

/// Go's version as (major, minor), or None when there is no `go` to run.
fn go_version(dir: &Path) -> Option<(u32, u32)> {
    let out = go(&["env", "GOVERSION"], dir).output().ok()?;
    if !out.status.success() {
        return None;
    }
    // "go1.26.8" (or "go1.25rc1").
    let text = String::from_utf8_lossy(&out.stdout);
    let v = text.trim().strip_prefix("go")?;
    let mut parts = v.split(|c: char| !c.is_ascii_digit());
    let major = parts.next()?.parse().ok()?;
    let minor = parts.next()?.parse().ok()?;
    Some((major, minor))
}

#[test]
fn go_crypto_tls_client_negotiates_x25519mlkem768() {
    let go_dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("go");
    match go_version(&go_dir) {
        None => {
            println!("SKIP go_crypto_tls_client_negotiates_x25519mlkem768: no `go` command found");
            return;
        }
        Some(v) if v < (1, 25) => {
            println!(
                "SKIP go_crypto_tls_client_negotiates_x25519mlkem768: Go {}.{} is older than \
                 1.25",
                v.0, v.1
            );
            return;
        }
        Some(_) => {}
    }

    let ca_file = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("go-client-ca-{}.pem", std::process::id()));
    std::fs::write(
        &ca_file,
        cert_pem(&chain(CertAlg::EcdsaP256).ca_cert).unwrap(),
    )
    .unwrap();

    // A one-connection echo server that reports the group it negotiated.
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let config = server_config(CertAlg::EcdsaP256);
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let (mut tcp, _) = listener.accept().unwrap();
        tcp.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
        let mut conn = ServerConnection::new(Arc::clone(&config)).unwrap();
        let mut tls = rustls::Stream::new(&mut conn, &mut tcp);
        let mut line = String::new();
        let result = BufReader::new(&mut tls).read_line(&mut line);
        let group = tls.conn.negotiated_key_exchange_group().map(|g| g.name());
        if result.is_ok() {
            let _ = tls.write_all(line.as_bytes());
            tls.conn.send_close_notify();
            let _ = tls.flush();
        }
        let _ = tx.send((group, result.map_err(|e| e.to_string()), line));
    });

    let out = go(
        &[
            "run",
            ".",
            "-addr",
            &format!("localhost:{port}"),
            "-ca",
            ca_file.to_str().unwrap(),
            "-message",
            "hello from Go",
        ],
        &go_dir,
    )
    .output()
    .unwrap();
    let _ = std::fs::remove_file(&ca_file);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "go run failed:\n{stdout}\n{stderr}");
    println!("{stdout}");
    assert!(stdout.contains("version: TLS 1.3\n"), "{stdout}");
    assert!(stdout.contains("group: X25519MLKEM768\n"), "{stdout}");
    assert!(stdout.contains("echo: hello from Go\n"), "{stdout}");

    let (group, result, line) = rx.recv_timeout(Duration::from_secs(30)).unwrap();
    assert_eq!(result, Ok(line.len()));
    assert_eq!(line, "hello from Go\n");
    assert_eq!(group, Some(kx::X25519MLKEM768.name()));
}
