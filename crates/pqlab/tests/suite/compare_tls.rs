//! `pqlab compare --handshake FILE`: the handshake-bench results become a terminal table and,
//! in the HTML report, a TLS section with its charts; a bad file is an input error (exit 2)
//! found before any measurement.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common;

use common::{Dir, assert_input_error, assert_ok, run, stdout};

#[test]
fn compare_with_a_handshake_file_adds_the_tls_table_and_charts() {
    let dir = Dir::new();
    let out = run(&[
        "handshake-bench",
        "--sigs",
        "ml-dsa-44,ecdsa-p256",
        "--groups",
        "X25519MLKEM768,MLKEM512",
        "--iterations",
        "2",
        "--clients",
        "1",
        "--seconds",
        "0.1",
        "--json",
        &dir.arg("hs.json"),
    ]);
    // handshake-bench reports its progress on standard error.
    assert_eq!(out.status.code(), Some(0), "{}", common::stderr(&out));
    let out = run(&[
        "compare",
        "--quick",
        "--algs",
        "ml-dsa-44",
        "--ops",
        "sign",
        "--handshake",
        &dir.arg("hs.json"),
        "--html",
        &dir.arg("report.html"),
    ]);
    assert_ok(&out);
    let text = stdout(&out);
    assert!(text.contains("TLS 1.3 handshakes"), "{text}");
    for combo in [
        "ml-dsa-44    X25519MLKEM768",
        "ml-dsa-44    MLKEM512",
        "ecdsa-p256   X25519MLKEM768",
        "ecdsa-p256   MLKEM512",
    ] {
        assert!(text.contains(combo), "{combo}: {text}");
    }
    let html = String::from_utf8(dir.read("report.html")).unwrap();
    for id in [
        "id=\"tls-results\"",
        "id=\"chart-tls-handshakes-per-s\"",
        "id=\"chart-tls-cpu-split\"",
        "id=\"chart-tls-bytes\"",
        "id=\"chart-sizes\"",
    ] {
        assert!(html.contains(id), "{id}");
    }
    assert!(html.contains("ecdsa-p256 · MLKEM512"));
}

#[test]
fn bad_handshake_files_are_input_errors() {
    let dir = Dir::new();
    let out = run(&[
        "compare",
        "--quick",
        "--handshake",
        &dir.arg("missing.json"),
    ]);
    assert_input_error(&out, &["missing.json"]);
    let bad = dir.write("bad.json", b"{\"results\": 3}");
    let out = run(&["compare", "--quick", "--handshake", &bad]);
    assert_input_error(&out, &["bad.json", "handshake-bench"]);
    let out = run(&["compare", "--quick", "--handshake", &bad, "--tls"]);
    assert_eq!(out.status.code(), Some(2));
}
