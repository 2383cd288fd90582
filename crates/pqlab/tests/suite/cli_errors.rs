//! Tests of the `pqlab` binary on bad input: exit status 2 with one line on standard error,
//! and nothing half-written.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common;

use std::path::Path;

use common::*;

#[test]
fn truncated_files_are_input_errors() {
    let dir = Dir::new();
    let (pk, sk) = dir.keygen("ml-dsa-65", "", "raw", None);
    let msg = dir.write("msg", b"m");
    let sig = dir.arg("sig");
    assert_ok(&run(&[
        "sign",
        "ml-dsa-65",
        "--secret-key",
        &sk,
        "--in",
        &msg,
        "--out",
        &sig,
    ]));

    let short_sk = dir.write("short-sk", &dir.read("sk")[..4031]);
    let out = run(&["sign", "ml-dsa-65", "--secret-key", &short_sk, "--in", &msg]);
    assert_input_error(
        &out,
        &[
            "secret key file",
            "short-sk",
            "expected 4032 bytes for ml-dsa-65, found 4031",
        ],
    );

    let short_pk = dir.write("short-pk", &dir.read("pk")[..1951]);
    let out = run(&[
        "verify",
        "ml-dsa-65",
        "--public-key",
        &short_pk,
        "--signature",
        &sig,
        "--in",
        &msg,
    ]);
    assert_input_error(
        &out,
        &[
            "public key file",
            "short-pk",
            "expected 1952 bytes for ml-dsa-65, found 1951",
        ],
    );

    let short_sig = dir.write("short-sig", &dir.read("sig")[..3308]);
    let out = run(&[
        "verify",
        "ml-dsa-65",
        "--public-key",
        &pk,
        "--signature",
        &short_sig,
        "--in",
        &msg,
    ]);
    assert_input_error(
        &out,
        &[
            "signature file",
            "short-sig",
            "expected 3309 bytes for ml-dsa-65, found 3308",
        ],
    );

    // A truncated PEM key.
    let (_, sk_pem) = dir.keygen("ml-dsa-65", "pem-", "pem", None);
    let text = dir.read("pem-sk");
    let cut = dir.write("cut.pem", &text[..text.len() - 20]);
    let out = run(&["sign", "ml-dsa-65", "--secret-key", &cut, "--in", &msg]);
    assert_input_error(&out, &["secret key file", "cut.pem", "malformed PEM"]);
    assert!(Path::new(&sk_pem).exists());

    // A secret key of the right length that skEncode cannot produce.
    let junk = dir.write("junk-sk", &[0xff; 4032]);
    let out = run(&["sign", "ml-dsa-65", "--secret-key", &junk, "--in", &msg]);
    assert_input_error(&out, &["junk-sk", "not a valid ML-DSA secret key"]);
}

#[test]
fn keys_of_another_parameter_set_are_input_errors() {
    let dir = Dir::new();
    let msg = dir.write("msg", b"m");
    let (pk_raw, sk_raw) = dir.keygen("ml-dsa-44", "raw-", "raw", None);
    let (pk_pem, sk_pem) = dir.keygen("ml-dsa-44", "pem-", "pem", None);
    let sig = dir.write("sig", &[0u8; 3309]);

    let out = run(&["sign", "ml-dsa-65", "--secret-key", &sk_raw, "--in", &msg]);
    assert_input_error(
        &out,
        &["raw-sk", "expected 4032 bytes for ml-dsa-65, found 2560"],
    );
    let out = run(&[
        "verify",
        "ml-dsa-65",
        "--public-key",
        &pk_raw,
        "--signature",
        &sig,
        "--in",
        &msg,
    ]);
    assert_input_error(
        &out,
        &["raw-pk", "expected 1952 bytes for ml-dsa-65, found 1312"],
    );

    let out = run(&["sign", "ml-dsa-65", "--secret-key", &sk_pem, "--in", &msg]);
    assert_input_error(&out, &["pem-sk", "ml-dsa-44", "ml-dsa-65"]);
    let out = run(&[
        "verify",
        "ml-dsa-65",
        "--public-key",
        &pk_pem,
        "--signature",
        &sig,
        "--in",
        &msg,
    ]);
    assert_input_error(&out, &["pem-pk", "ml-dsa-44", "ml-dsa-65"]);

    // The halves of a key pair mixed up.
    let out = run(&["sign", "ml-dsa-44", "--secret-key", &pk_pem, "--in", &msg]);
    assert_input_error(
        &out,
        &["pem-pk", "expected PEM 'PRIVATE KEY', found 'PUBLIC KEY'"],
    );
}

#[test]
fn missing_and_unreadable_files_are_input_errors() {
    let dir = Dir::new();
    let (pk, sk) = dir.keygen("ml-dsa-44", "", "raw", None);
    let msg = dir.write("msg", b"m");
    let missing = dir.arg("no-such-file");
    let folder = dir.arg("");

    let out = run(&["sign", "ml-dsa-44", "--secret-key", &missing, "--in", &msg]);
    assert_input_error(&out, &["secret key file", "no-such-file", "cannot open"]);
    let out = run(&["sign", "ml-dsa-44", "--secret-key", &folder, "--in", &msg]);
    assert_input_error(&out, &["secret key file", "is a directory"]);
    let out = run(&["sign", "ml-dsa-44", "--secret-key", &sk, "--in", &missing]);
    assert_input_error(&out, &["message file", "no-such-file", "cannot open"]);
    let out = run(&[
        "verify",
        "ml-dsa-44",
        "--public-key",
        &missing,
        "--signature",
        &msg,
        "--in",
        &msg,
    ]);
    assert_input_error(&out, &["public key file", "no-such-file"]);
    let out = run(&[
        "verify",
        "ml-dsa-44",
        "--public-key",
        &pk,
        "--signature",
        &missing,
        "--in",
        &msg,
    ]);
    assert_input_error(&out, &["signature file", "no-such-file"]);
    // An output that would overwrite the secret key.
    let out = run(&[
        "sign",
        "ml-dsa-44",
        "--secret-key",
        &sk,
        "--in",
        &msg,
        "--out",
        &sk,
    ]);
    assert_input_error(&out, &["--out", "overwrite"]);
    assert_eq!(std::fs::metadata(&sk).unwrap().len(), 2560);
    // An output in a folder that does not exist.
    let nowhere = dir.arg("no-such-dir/sig");
    let out = run(&[
        "sign",
        "ml-dsa-44",
        "--secret-key",
        &sk,
        "--in",
        &msg,
        "--out",
        &nowhere,
    ]);
    assert_input_error(&out, &["signature", "no-such-dir", "cannot create"]);
}

#[test]
fn keygen_writes_both_files_or_neither() {
    let dir = Dir::new();
    let before = dir.names();
    let nowhere = dir.arg("no-such-dir/pk");
    let sk = dir.arg("sk");
    let out = run(&[
        "keygen",
        "ml-dsa-44",
        "--public-key",
        &nowhere,
        "--secret-key",
        &sk,
    ]);
    assert_input_error(&out, &["public key file", "no-such-dir", "cannot create"]);
    let pk = dir.arg("pk");
    let nowhere = dir.arg("no-such-dir/sk");
    let out = run(&[
        "keygen",
        "ml-dsa-44",
        "--public-key",
        &pk,
        "--secret-key",
        &nowhere,
    ]);
    assert_input_error(&out, &["secret key file", "no-such-dir", "cannot create"]);
    assert_eq!(dir.names(), before, "files left behind");

    let out = run(&[
        "keygen",
        "ml-dsa-44",
        "--public-key",
        &pk,
        "--secret-key",
        &pk,
    ]);
    assert_input_error(&out, &["same file"]);
    let keygen_args = [
        "keygen",
        "ml-dsa-44",
        "--public-key",
        &pk,
        "--secret-key",
        &sk,
        "--seed-file",
        "-",
    ];
    let out = run_with(&keygen_args, b"abcd\n");
    assert_input_error(&out, &["--seed-file", "expected 32 bytes"]);
    let out = run_with(&keygen_args, "zz".repeat(32).as_bytes());
    assert_input_error(&out, &["--seed-file", "hex"]);
    let out = run_with(&keygen_args, &[0xff; 64]);
    assert_input_error(&out, &["seed file", "not hex text"]);
    let missing = dir.arg("no-such-seed");
    let out = run(&[
        "keygen",
        "ml-dsa-44",
        "--public-key",
        &pk,
        "--secret-key",
        &sk,
        "--seed-file",
        &missing,
    ]);
    assert_input_error(&out, &["seed file", "no-such-seed", "cannot open"]);
    let out = run(&[
        "keygen",
        "ml-dsa-44",
        "--public-key",
        &pk,
        "--secret-key",
        &sk,
        "--seed-file",
        &missing,
        "--seed",
        &"00".repeat(32),
    ]);
    assert_eq!(
        out.status.code(),
        Some(2),
        "--seed with --seed-file accepted"
    );
    assert_eq!(dir.names(), before, "files left behind");
}

/// --seed still works, with a warning that the seed is on the command line; --seed-file (a
/// file or standard input, hex with white space around it) gives the same keys.
#[test]
fn keygen_seed_on_the_command_line_warns_and_seed_file_gives_the_same_keys() {
    let dir = Dir::new();
    let seed = "5a".repeat(32);
    let out = run(&[
        "keygen",
        "ml-dsa-44",
        "--public-key",
        &dir.arg("a-pk"),
        "--secret-key",
        &dir.arg("a-sk"),
        "--seed",
        &seed,
    ]);
    assert_eq!(out.status.code(), Some(0), "stderr: {}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.starts_with("pqlab: warning:")
            && err.contains("--seed-file")
            && err.lines().count() == 1,
        "{err:?}"
    );
    let seed_file = dir.write("seed.hex", format!("  {seed}\n").as_bytes());
    let out = run(&[
        "keygen",
        "ml-dsa-44",
        "--public-key",
        &dir.arg("b-pk"),
        "--secret-key",
        &dir.arg("b-sk"),
        "--seed-file",
        &seed_file,
    ]);
    assert_ok(&out);
    assert_eq!(dir.read("a-pk"), dir.read("b-pk"));
    assert_eq!(dir.read("a-sk"), dir.read("b-sk"));
}

/// An existing key file is not replaced without --force: keygen fails with one line, exit
/// status 2, and leaves both files as they were; with --force both are replaced.
#[test]
fn keygen_refuses_to_overwrite_key_files_without_force() {
    let dir = Dir::new();
    let pk = dir.write("pk", b"old public key");
    let sk = dir.arg("sk");
    let args = [
        "keygen",
        "ml-dsa-44",
        "--public-key",
        &pk,
        "--secret-key",
        &sk,
    ];
    let out = run(&args);
    assert_input_error(&out, &["public key file", "exists", "--force"]);
    assert_eq!(dir.read("pk"), b"old public key");
    assert!(!dir.path("sk").exists());
    assert_eq!(dir.names(), ["pk"], "files left behind");

    std::fs::remove_file(dir.path("pk")).unwrap();
    dir.write("sk", b"old secret key");
    let out = run(&args);
    assert_input_error(&out, &["secret key file", "exists", "--force"]);
    assert_eq!(dir.read("sk"), b"old secret key");
    assert_eq!(dir.names(), ["sk"], "files left behind");

    dir.write("pk", b"old public key");
    let mut forced = args.to_vec();
    forced.push("--force");
    assert_ok(&run(&forced));
    assert_eq!(dir.read("pk").len(), 1312, "public key not replaced");
    assert_eq!(dir.read("sk").len(), 2560, "secret key not replaced");
}

#[test]
fn context_longer_than_255_bytes_is_an_input_error() {
    let dir = Dir::new();
    let (pk, sk) = dir.keygen("ml-dsa-44", "", "raw", None);
    let msg = dir.write("msg", b"m");
    let sig = dir.arg("sig");
    let ctx255 = "ab".repeat(255);
    let ctx256 = "ab".repeat(256);
    let out = run(&[
        "sign",
        "ml-dsa-44",
        "--secret-key",
        &sk,
        "--in",
        &msg,
        "--context",
        &ctx256,
    ]);
    assert_input_error(&out, &["--context", "256 bytes", "255"]);
    assert_ok(&run(&[
        "sign",
        "ml-dsa-44",
        "--secret-key",
        &sk,
        "--in",
        &msg,
        "--context",
        &ctx255,
        "--out",
        &sig,
    ]));
    let out = run(&[
        "verify",
        "ml-dsa-44",
        "--public-key",
        &pk,
        "--signature",
        &sig,
        "--in",
        &msg,
        "--context",
        &ctx256,
    ]);
    assert_input_error(&out, &["--context", "256 bytes"]);
    assert_valid(&run(&[
        "verify",
        "ml-dsa-44",
        "--public-key",
        &pk,
        "--signature",
        &sig,
        "--in",
        &msg,
        "--context",
        &ctx255,
    ]));
    let out = run(&[
        "sign",
        "ml-dsa-44",
        "--secret-key",
        &sk,
        "--in",
        &msg,
        "--context",
        "abc",
    ]);
    assert_input_error(&out, &["--context", "hex"]);
}

#[test]
fn unknown_algorithm_and_usage_errors_exit_2() {
    let dir = Dir::new();
    let (pk, sk) = (dir.arg("pk"), dir.arg("sk"));
    let out = run(&[
        "keygen",
        "ml-dsa-99",
        "--public-key",
        &pk,
        "--secret-key",
        &sk,
    ]);
    assert_input_error(&out, &["unknown algorithm 'ml-dsa-99'", "ml-dsa-44"]);
    let out = run(&["sign", "rsa", "--secret-key", &sk]);
    assert_input_error(&out, &["unknown algorithm 'rsa'"]);
    let out = run(&[
        "verify",
        "falcon-256",
        "--public-key",
        &pk,
        "--signature",
        &sk,
    ]);
    assert_input_error(&out, &["unknown algorithm 'falcon-256'", "falcon-512"]);
    assert!(dir.names().is_empty());

    // clap's own errors: one line, status 2.
    let out = run(&["keygen", "ml-dsa-44", "--public-key", &pk]);
    assert_input_error(&out, &["--secret-key", "pqlab keygen --help"]);
    let out = run(&["sign", "ml-dsa-44", "--secret-key", &sk, "--bogus"]);
    assert_input_error(&out, &["--bogus"]);
    let out = run(&[
        "keygen",
        "ml-dsa-44",
        "--public-key",
        &pk,
        "--secret-key",
        &sk,
        "--format",
        "der",
    ]);
    assert_input_error(&out, &["der", "--format"]);
    let out = run(&["frobnicate"]);
    assert_input_error(&out, &["frobnicate"]);
    let out = run(&["compare", "--iterations", "many"]);
    assert_input_error(&out, &["many", "--iterations"]);
    assert_eq!(run(&[]).status.code(), Some(2));

    // Help and version are not errors.
    let out = run(&["--help"]);
    assert_ok(&out);
    assert!(stdout(&out).contains("keygen"));
    assert_ok(&run(&["sign", "--help"]));
    assert_ok(&run(&["--version"]));
}

#[test]
fn garbage_key_files_never_crash() {
    let dir = Dir::new();
    let msg = dir.write("msg", b"m");
    let sig = dir.write("sig", &[0u8; 2420]);
    let mut x: u32 = 7;
    let mut noise = |n: usize| -> Vec<u8> {
        (0..n)
            .map(|_| {
                x = x.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                (x >> 16) as u8
            })
            .collect()
    };
    let mut cases: Vec<Vec<u8>> = [0, 1, 1312, 2560, 5000].iter().map(|&n| noise(n)).collect();
    cases.push(b"-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n".to_vec());
    cases.push(b"-----BEGIN PUBLIC KEY-----\nMAA=\n-----END PUBLIC KEY-----\n".to_vec());
    cases.push(b"-----BEGIN PUBLIC KEY-----\n".to_vec());
    for (i, data) in cases.iter().enumerate() {
        let file = dir.write(&format!("k{i}"), data);
        let out = run(&["sign", "ml-dsa-44", "--secret-key", &file, "--in", &msg]);
        assert_input_error(&out, &[&format!("k{i}")]);
        let out = run(&[
            "verify",
            "ml-dsa-44",
            "--public-key",
            &file,
            "--signature",
            &sig,
            "--in",
            &msg,
        ]);
        if data.len() == 1312 {
            // Every 1312-byte string is an ML-DSA-44 public key; the zero signature is invalid.
            assert_invalid(&out);
        } else {
            assert_input_error(&out, &[&format!("k{i}")]);
        }
    }
}
