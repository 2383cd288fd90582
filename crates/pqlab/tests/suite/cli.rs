//! End-to-end tests of the `pqlab` binary: key generation, signing and verification through
//! files and pipes, checked against the library and the published test vectors.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common;

use common::*;
use pqlab_mldsa::{HashAlg, MlDsa65, SigningKey};

#[test]
fn list_shows_the_ml_dsa_sizes() {
    let out = run(&["list"]);
    assert_ok(&out);
    let text = stdout(&out);
    for (alg, (pk, sk, sig)) in ALGS.iter().zip(SIZES) {
        let line = text.lines().find(|l| l.starts_with(alg)).unwrap();
        let words: Vec<&str> = line.split_whitespace().collect();
        let (pk, sk, sig) = (pk.to_string(), sk.to_string(), sig.to_string());
        assert_eq!(
            words,
            [*alg, "FIPS", "204", "signature", &pk, &sk, &sig, "-"]
        );
    }
}

#[test]
fn round_trip_through_files_for_every_level_and_format() {
    let dir = Dir::new();
    let msg = dir.write("msg", b"attack at dawn");
    for (alg, (pk_len, sk_len, sig_len)) in ALGS.iter().zip(SIZES) {
        for format in ["raw", "pem"] {
            let prefix = format!("{alg}-{format}-");
            let (pk, sk) = dir.keygen(alg, &prefix, format, None);
            let (pk_data, sk_data) = (
                dir.read(&format!("{prefix}pk")),
                dir.read(&format!("{prefix}sk")),
            );
            if format == "raw" {
                assert_eq!((pk_data.len(), sk_data.len()), (pk_len, sk_len));
            } else {
                assert!(pk_data.starts_with(b"-----BEGIN PUBLIC KEY-----\n"));
                assert!(sk_data.starts_with(b"-----BEGIN PRIVATE KEY-----\n"));
                // Seed form: 34-byte header, then [0] 32-byte seed.
                let der = pem_der(&sk_data, "PRIVATE KEY");
                assert_eq!(
                    (der.len(), &der[18..22]),
                    (54, &[0x04, 0x22, 0x80, 0x20][..])
                );
            }
            #[cfg(unix)]
            {
                use std::os::unix::fs::PermissionsExt;
                let mode = std::fs::metadata(&sk).unwrap().permissions().mode();
                assert_eq!(mode & 0o077, 0, "secret key readable by others: {mode:o}");
            }
            let sig = dir.arg(&format!("{prefix}sig"));
            let out = run(&[
                "sign",
                alg,
                "--secret-key",
                &sk,
                "--in",
                &msg,
                "--out",
                &sig,
            ]);
            assert_ok(&out);
            assert!(out.stdout.is_empty());
            assert_eq!(dir.read(&format!("{prefix}sig")).len(), sig_len);
            let out = run(&[
                "verify",
                alg,
                "--public-key",
                &pk,
                "--signature",
                &sig,
                "--in",
                &msg,
            ]);
            assert_valid(&out);
            // Upper-case algorithm names work too.
            let upper = alg.to_ascii_uppercase();
            let out = run(&[
                "verify",
                &upper,
                "--public-key",
                &pk,
                "--signature",
                &sig,
                "--in",
                &msg,
            ]);
            assert_valid(&out);
        }
    }
    // Nothing but the outputs: no temporary files left behind.
    assert!(
        dir.names().iter().all(|n| !n.starts_with(".pqlab-")),
        "{:?}",
        dir.names()
    );
}

#[test]
fn deterministic_signature_equals_the_librarys() {
    let dir = Dir::new();
    let seed = [0x5au8; 32];
    let seed_hex = hex::encode(seed);
    let (_, sk) = dir.keygen("ml-dsa-65", "", "raw", Some(&seed_hex));
    let msg = b"the message";
    let ctx = b"the context";
    let msg_file = dir.write("msg", msg);
    let ctx_hex = hex::encode(ctx);
    let key = SigningKey::<MlDsa65>::from_seed(&seed);
    assert_eq!(dir.read("sk"), key.to_expanded().as_ref());
    assert_eq!(dir.read("pk"), key.verifying_key().as_bytes());

    let sign = |extra: &[&str]| {
        let mut args = vec!["sign", "ml-dsa-65", "--secret-key", &sk, "--in", &msg_file];
        args.extend_from_slice(extra);
        let out = run(&args);
        assert_ok(&out);
        out.stdout
    };
    let expected = key.sign_deterministic(msg, ctx).unwrap();
    let got = sign(&["--deterministic", "--context", &ctx_hex]);
    assert_eq!(got, expected.as_bytes());
    assert_eq!(sign(&["--deterministic", "--context", &ctx_hex]), got);

    let expected = key
        .sign_prehash_with_rnd(msg, ctx, HashAlg::Sha3_384, &[0; 32])
        .unwrap();
    let got = sign(&[
        "--deterministic",
        "--context",
        &ctx_hex,
        "--prehash",
        "sha3-384",
    ]);
    assert_eq!(got, expected.as_bytes());

    // Hedged signing (the default) draws fresh randomness each time.
    assert_ne!(
        sign(&["--context", &ctx_hex]),
        sign(&["--context", &ctx_hex])
    );
}

#[test]
fn seed_reproduces_the_acvp_keygen_vectors() {
    let Some(dir) = vectors("acvp/ML-DSA-keyGen-FIPS204") else {
        return;
    };
    let prompt = json(&dir.join("prompt.json"));
    let expected = json(&dir.join("expectedResults.json"));
    let tmp = Dir::new();
    for alg in ALGS {
        let set = alg.to_ascii_uppercase();
        let group = prompt["testGroups"]
            .as_array()
            .unwrap()
            .iter()
            .find(|g| g["parameterSet"] == set.as_str())
            .unwrap();
        let test = &group["tests"][0];
        let result = expected["testGroups"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|g| g["tests"].as_array().unwrap())
            .find(|t| t["tcId"] == test["tcId"])
            .unwrap();
        let seed = test["seed"].as_str().unwrap();
        tmp.keygen(alg, alg, "raw", Some(seed));
        assert_eq!(
            tmp.read(&format!("{alg}pk")),
            unhex(&result["pk"]),
            "{alg} pk"
        );
        assert_eq!(
            tmp.read(&format!("{alg}sk")),
            unhex(&result["sk"]),
            "{alg} sk"
        );
    }
}

#[test]
fn pem_keys_match_wycheproof() {
    let Some(dir) = vectors("wycheproof/testvectors_v1") else {
        return;
    };
    let tmp = Dir::new();
    for (level, alg) in [(44, "ml-dsa-44"), (65, "ml-dsa-65"), (87, "ml-dsa-87")] {
        let sign = json(&dir.join(format!("mldsa_{level}_sign_seed_test.json")));
        let verify = json(&dir.join(format!("mldsa_{level}_verify_test.json")));
        let mut checked = 0;
        for group in sign["testGroups"].as_array().unwrap() {
            let Some(pkcs8) = group.get("privateKeyPkcs8") else {
                continue;
            };
            let seed = group["privateSeed"].as_str().unwrap();
            if seed.len() != 64 || checked == 2 {
                continue;
            }
            let prefix = format!("{alg}-{checked}-");
            tmp.keygen(alg, &prefix, "pem", Some(seed));
            let sk_der = pem_der(&tmp.read(&format!("{prefix}sk")), "PRIVATE KEY");
            assert_eq!(sk_der, unhex(pkcs8), "{alg} PKCS#8");
            let pk_der = pem_der(&tmp.read(&format!("{prefix}pk")), "PUBLIC KEY");
            let pk = unhex(&group["publicKey"]);
            assert!(pk_der.ends_with(&pk), "{alg} SPKI key bytes");
            if let Some(v) = verify["testGroups"]
                .as_array()
                .unwrap()
                .iter()
                .find(|g| g["publicKey"] == group["publicKey"])
            {
                assert_eq!(pk_der, unhex(&v["publicKeyDer"]), "{alg} SPKI");
            }
            checked += 1;
        }
        assert_eq!(checked, 2, "{alg}: no PKCS#8 keys found");
    }
}

#[test]
fn raw_key_files_are_read_whatever_format_is_given() {
    // Reading detects the format; keygen's --format only affects writing.
    let dir = Dir::new();
    let (pk_raw, sk_raw) = dir.keygen("ml-dsa-44", "raw-", "raw", None);
    let (pk_pem, sk_pem) = dir.keygen("ml-dsa-44", "pem-", "pem", None);
    let msg = dir.write("msg", b"m");
    for (pk, sk) in [(&pk_raw, &sk_raw), (&pk_pem, &sk_pem)] {
        let sig = dir.arg("sig");
        assert_ok(&run(&[
            "sign",
            "ml-dsa-44",
            "--secret-key",
            sk,
            "--in",
            &msg,
            "--out",
            &sig,
        ]));
        assert_valid(&run(&[
            "verify",
            "ml-dsa-44",
            "--public-key",
            pk,
            "--signature",
            &sig,
            "--in",
            &msg,
        ]));
    }
}

#[test]
fn tampered_signature_or_message_does_not_verify() {
    let dir = Dir::new();
    let (pk, sk) = dir.keygen("ml-dsa-65", "", "raw", None);
    let msg = dir.write("msg", b"original");
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
    let mut bad = dir.read("sig");
    bad[100] ^= 1;
    let bad_sig = dir.write("bad", &bad);
    assert_invalid(&run(&[
        "verify",
        "ml-dsa-65",
        "--public-key",
        &pk,
        "--signature",
        &bad_sig,
        "--in",
        &msg,
    ]));
    let other = dir.write("other", b"originaL");
    assert_invalid(&run(&[
        "verify",
        "ml-dsa-65",
        "--public-key",
        &pk,
        "--signature",
        &sig,
        "--in",
        &other,
    ]));
    // A key pair's signature does not verify under another key of the same set.
    let (pk2, _) = dir.keygen("ml-dsa-65", "2", "raw", None);
    assert_invalid(&run(&[
        "verify",
        "ml-dsa-65",
        "--public-key",
        &pk2,
        "--signature",
        &sig,
        "--in",
        &msg,
    ]));
}

#[test]
fn wrong_context_does_not_verify() {
    let dir = Dir::new();
    let (pk, sk) = dir.keygen("ml-dsa-87", "", "pem", None);
    let msg = dir.write("msg", b"m");
    let sig = dir.arg("sig");
    assert_ok(&run(&[
        "sign",
        "ml-dsa-87",
        "--secret-key",
        &sk,
        "--in",
        &msg,
        "--context",
        "0102",
        "--out",
        &sig,
    ]));
    assert_valid(&run(&[
        "verify",
        "ml-dsa-87",
        "--public-key",
        &pk,
        "--signature",
        &sig,
        "--in",
        &msg,
        "--context",
        "0102",
    ]));
    assert_invalid(&run(&[
        "verify",
        "ml-dsa-87",
        "--public-key",
        &pk,
        "--signature",
        &sig,
        "--in",
        &msg,
        "--context",
        "0103",
    ]));
    assert_invalid(&run(&[
        "verify",
        "ml-dsa-87",
        "--public-key",
        &pk,
        "--signature",
        &sig,
        "--in",
        &msg,
    ]));
}

#[test]
fn prehash_round_trip() {
    let dir = Dir::new();
    let (pk, sk) = dir.keygen("ml-dsa-44", "", "raw", None);
    let msg = dir.write("msg", &[7u8; 10_000]);
    let sig = dir.arg("sig");
    for hash in [
        "sha2-256",
        "sha2-512/224",
        "SHA3-256",
        "shake-128",
        "shake256",
    ] {
        assert_ok(&run(&[
            "sign",
            "ml-dsa-44",
            "--secret-key",
            &sk,
            "--in",
            &msg,
            "--prehash",
            hash,
            "--out",
            &sig,
        ]));
        assert_valid(&run(&[
            "verify",
            "ml-dsa-44",
            "--public-key",
            &pk,
            "--signature",
            &sig,
            "--in",
            &msg,
            "--prehash",
            hash,
        ]));
        // Pure verification, or another pre-hash, rejects a HashML-DSA signature.
        assert_invalid(&run(&[
            "verify",
            "ml-dsa-44",
            "--public-key",
            &pk,
            "--signature",
            &sig,
            "--in",
            &msg,
        ]));
        assert_invalid(&run(&[
            "verify",
            "ml-dsa-44",
            "--public-key",
            &pk,
            "--signature",
            &sig,
            "--in",
            &msg,
            "--prehash",
            "sha2-384",
        ]));
    }
    let out = run(&[
        "sign",
        "ml-dsa-44",
        "--secret-key",
        &sk,
        "--in",
        &msg,
        "--prehash",
        "md5",
    ]);
    assert_input_error(&out, &["--prehash", "md5", "sha2-256"]);
}

#[test]
fn message_from_stdin_and_signature_to_stdout() {
    let dir = Dir::new();
    let (pk, sk) = dir.keygen("ml-dsa-65", "", "pem", None);
    let msg = b"from a pipe\n";
    let out = run_with(&["sign", "ml-dsa-65", "--secret-key", &sk], msg);
    assert_ok(&out);
    assert_eq!(out.stdout.len(), 3309);
    let sig = dir.write("sig", &out.stdout);
    assert_valid(&run_with(
        &[
            "verify",
            "ml-dsa-65",
            "--public-key",
            &pk,
            "--signature",
            &sig,
        ],
        msg,
    ));
    assert_invalid(&run_with(
        &[
            "verify",
            "ml-dsa-65",
            "--public-key",
            &pk,
            "--signature",
            &sig,
        ],
        b"other",
    ));
    // "-" names standard input and output explicitly.
    let out = run_with(
        &[
            "sign",
            "ml-dsa-65",
            "--secret-key",
            &sk,
            "--in",
            "-",
            "--out",
            "-",
            "--deterministic",
        ],
        msg,
    );
    assert_ok(&out);
    let sig = dir.write("sig2", &out.stdout);
    assert_valid(&run_with(
        &[
            "verify",
            "ml-dsa-65",
            "--public-key",
            &pk,
            "--signature",
            &sig,
            "--in",
            "-",
        ],
        msg,
    ));
    // The empty message.
    let out = run_with(&["sign", "ml-dsa-65", "--secret-key", &sk], b"");
    assert_ok(&out);
    let sig = dir.write("sig3", &out.stdout);
    assert_valid(&run(&[
        "verify",
        "ml-dsa-65",
        "--public-key",
        &pk,
        "--signature",
        &sig,
    ]));
}
