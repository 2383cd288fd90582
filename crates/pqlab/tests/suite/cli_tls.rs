//! End-to-end tests of `pqlab cert`, `pqlab serve` and `pqlab connect`: the server runs as a
//! child process on a free loopback port, the client as another.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common;

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

use common::*;

/// A `pqlab serve` child, killed when dropped.
struct Server {
    child: Child,
    addr: String,
}

impl Server {
    fn start(cert: &str, key: &str) -> Self {
        let mut child = Command::new(env!("CARGO_BIN_EXE_pqlab"))
            .args(["serve", "--cert", cert, "--key", key, "--port", "0"])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let addr = line
            .trim()
            .strip_prefix("listening on ")
            .unwrap_or_else(|| {
                let _ = child.kill();
                panic!("unexpected first line from pqlab serve: {line:?}")
            });
        let addr = addr.to_string();
        Server { child, addr }
    }

    fn port(&self) -> &str {
        self.addr.rsplit_once(':').unwrap().1
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn make_cert(dir: &Dir, alg: &str) -> (String, String, String) {
    let out = run(&[
        "cert",
        "--alg",
        alg,
        "--ca-out",
        &dir.arg("ca.pem"),
        "--ca-key-out",
        &dir.arg("cakey.pem"),
        "--cert-out",
        &dir.arg("c.pem"),
        "--key-out",
        &dir.arg("k.pem"),
        "--san",
        "localhost",
    ]);
    assert_ok(&out);
    for name in ["ca.pem", "cakey.pem", "c.pem", "k.pem"] {
        assert!(!dir.read(name).is_empty(), "{name}");
    }
    (dir.arg("ca.pem"), dir.arg("c.pem"), dir.arg("k.pem"))
}

/// `cert` does not replace an existing private key file without --force (and then writes
/// nothing at all); with --force it does.
#[test]
fn cert_refuses_to_overwrite_a_private_key_without_force() {
    let dir = Dir::new();
    let (_, _, key) = make_cert(&dir, "ml-dsa-44");
    let old_key = dir.read("k.pem");
    let old_cert = dir.read("c.pem");
    let args = [
        "cert",
        "--alg",
        "ml-dsa-44",
        "--ca-out",
        &dir.arg("ca.pem"),
        "--cert-out",
        &dir.arg("c.pem"),
        "--key-out",
        &key,
    ];
    let out = run(&args);
    assert_input_error(&out, &["private key", "k.pem", "exists", "--force"]);
    assert_eq!(dir.read("k.pem"), old_key);
    assert_eq!(
        dir.read("c.pem"),
        old_cert,
        "certificate written without its key"
    );
    let mut forced = args.to_vec();
    forced.push("--force");
    assert_ok(&run(&forced));
    assert_ne!(dir.read("k.pem"), old_key, "key not replaced");
}

#[test]
fn serve_and_connect_with_every_signature_and_group() {
    for (alg, scheme) in [
        ("ml-dsa-44", "ml-dsa-44"),
        ("ml-dsa-65", "ml-dsa-65"),
        ("ml-dsa-87", "ml-dsa-87"),
        ("ecdsa-p256", "ECDSA_NISTP256_SHA256"),
    ] {
        let dir = Dir::new();
        let (ca, cert, key) = make_cert(&dir, alg);
        let server = Server::start(&cert, &key);
        let target = format!("localhost:{}", server.port());
        for group in [
            "X25519MLKEM768",
            "MLKEM512",
            "MLKEM768",
            "MLKEM1024",
            "X25519",
        ] {
            let out = run(&["connect", &target, "--ca", &ca, "--group", group]);
            assert_ok(&out);
            let text = stdout(&out);
            assert!(
                text.contains(&format!("group: {group}\n")),
                "{alg} {group}: {text}"
            );
            assert!(
                text.contains(&format!("signature: {scheme}\n")),
                "{alg} {group}: {text}"
            );
            assert!(text.contains("cipher suite: TLS13_"), "{text}");
            assert!(text.contains("echo: hello, post-quantum TLS\n"), "{text}");
        }
        // Without --group the hybrid is preferred.
        let out = run(&["connect", &target, "--ca", &ca, "--message", "second line"]);
        assert_ok(&out);
        assert!(
            stdout(&out).contains("group: X25519MLKEM768\n"),
            "{}",
            stdout(&out)
        );
        assert!(stdout(&out).contains("echo: second line\n"));
    }
}

#[test]
fn connect_errors_exit_2() {
    let dir = Dir::new();
    let (_ca, cert, key) = make_cert(&dir, "ml-dsa-44");
    let server = Server::start(&cert, &key);
    let target = format!("localhost:{}", server.port());
    // A CA the server's certificate does not chain to.
    let other = Dir::new();
    let (other_ca, _, _) = make_cert(&other, "ml-dsa-44");
    let out = run(&["connect", &target, "--ca", &other_ca]);
    assert_input_error(&out, &["certificate"]);
    // An unknown group.
    let out = run(&["connect", &target, "--ca", &other_ca, "--group", "FFDHE9"]);
    assert_input_error(&out, &["FFDHE9"]);
    // The server is still there for a good client.
    let out = run(&["connect", &target, "--ca", &dir.arg("ca.pem")]);
    assert_ok(&out);
    // An unknown certificate algorithm.
    let out = run(&[
        "cert",
        "--alg",
        "rsa",
        "--ca-out",
        &dir.arg("x"),
        "--cert-out",
        &dir.arg("y"),
        "--key-out",
        &dir.arg("z"),
    ]);
    assert_input_error(&out, &["rsa"]);
    assert!(!dir.path("x").exists() && !dir.path("z").exists());
}

#[test]
fn handshake_bench_writes_a_table_and_json() {
    let dir = Dir::new();
    let out = run(&[
        "handshake-bench",
        "--sigs",
        "ml-dsa-44,ecdsa-p256",
        "--groups",
        "X25519MLKEM768,X25519",
        "--iterations",
        "2",
        "--clients",
        "1",
        "--seconds",
        "0.1",
        "--json",
        &dir.arg("hs.json"),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("ml-dsa-44   X25519MLKEM768"), "{text}");
    let json: serde_json::Value = serde_json::from_slice(&dir.read("hs.json")).unwrap();
    let results = json["results"].as_array().unwrap();
    assert_eq!(results.len(), 4);
    for r in results {
        assert!(r["server_us_median"].as_f64().unwrap() > 0.0, "{r}");
        assert!(r["handshakes_per_s"].as_f64().unwrap() > 0.0, "{r}");
        // The hybrid client share alone is 1216 bytes.
        let client_bytes = r["client_bytes"].as_u64().unwrap();
        assert_eq!(client_bytes > 1216, r["group"] == "X25519MLKEM768", "{r}");
    }
    let out = run(&["handshake-bench", "--groups", "NOPE"]);
    assert_input_error(&out, &["NOPE"]);
}

/// Writes the first two secret keys of a Falcon KAT file as PKCS#8 PEM files `cakey-in.pem`
/// and `key-in.pem` (the OID 1.3.9999.3.11 or .14 of the Open Quantum Safe provider).
fn kat_falcon_keys(dir: &Dir, file: &str, oid_last: u8) -> Option<(String, String)> {
    let kat = vectors("falcon-kat")?;
    let text = std::fs::read_to_string(kat.join(file)).unwrap();
    let alg_id = tlv(0x30, &[0x06, 0x05, 0x2b, 0xce, 0x0f, 0x03, oid_last]);
    let mut keys = text
        .lines()
        .filter_map(|l| l.strip_prefix("sk = "))
        .map(|h| pkcs8_pem(&alg_id, &tlv(0x04, &hex::decode(h).unwrap())));
    let ca = dir.write("cakey-in.pem", &keys.next().unwrap());
    let leaf = dir.write("key-in.pem", &keys.next().unwrap());
    Some((ca, leaf))
}

#[test]
fn falcon_certificates_from_existing_keys_serve_and_connect() {
    for (file, oid_last, alg, scheme) in [
        (
            "falcon512-KAT.rsp",
            0x0b,
            "falcon-512",
            "falcon-512 (non-standard: OQS code point 0xFED7)",
        ),
        (
            "falcon1024-KAT.rsp",
            0x0e,
            "falcon-1024",
            "falcon-1024 (non-standard: OQS code point 0xFEDA)",
        ),
    ] {
        let dir = Dir::new();
        let Some((ca_key_in, key_in)) = kat_falcon_keys(&dir, file, oid_last) else {
            return;
        };
        let out = run(&[
            "cert",
            "--alg",
            alg,
            "--ca-key-in",
            &ca_key_in,
            "--key-in",
            &key_in,
            "--ca-out",
            &dir.arg("ca.pem"),
            "--cert-out",
            &dir.arg("c.pem"),
            "--key-out",
            &dir.arg("k.pem"),
        ]);
        assert_ok(&out);
        assert!(stdout(&out).contains("non-standard"), "{}", stdout(&out));
        let server = Server::start(&dir.arg("c.pem"), &dir.arg("k.pem"));
        let target = format!("localhost:{}", server.port());
        for group in ["X25519MLKEM768", "MLKEM768"] {
            let out = run(&[
                "connect",
                &target,
                "--ca",
                &dir.arg("ca.pem"),
                "--group",
                group,
            ]);
            assert_ok(&out);
            let text = stdout(&out);
            assert!(text.contains(&format!("signature: {scheme}\n")), "{text}");
            assert!(text.contains(&format!("group: {group}\n")), "{text}");
            assert!(text.contains("echo: hello, post-quantum TLS\n"), "{text}");
        }
    }
}

#[test]
fn cert_with_a_bad_existing_key_exits_2() {
    let dir = Dir::new();
    let bad = dir.write(
        "bad.pem",
        b"-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n",
    );
    let out = run(&[
        "cert",
        "--key-in",
        &bad,
        "--ca-out",
        &dir.arg("ca.pem"),
        "--cert-out",
        &dir.arg("c.pem"),
        "--key-out",
        &dir.arg("k.pem"),
    ]);
    assert_input_error(&out, &["bad.pem"]);
    assert!(!dir.path("ca.pem").exists() && !dir.path("k.pem").exists());
    let missing = dir.arg("missing.pem");
    let out = run(&[
        "cert",
        "--ca-key-in",
        &missing,
        "--ca-out",
        &dir.arg("ca.pem"),
        "--cert-out",
        &dir.arg("c.pem"),
        "--key-out",
        &dir.arg("k.pem"),
    ]);
    assert_input_error(&out, &["missing.pem"]);
}
