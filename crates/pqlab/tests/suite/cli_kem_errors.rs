//! Tests of the `pqlab` binary with ML-KEM on bad input: invalid keys (modulus and hash checks
//! of FIPS 203, Sections 7.2 and 7.3), wrong lengths, keys of another parameter set or kind,
//! unreadable files; exit status 2 with one line on standard error, and nothing half-written.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common;

use std::io::{BufRead, BufReader};
use std::path::Path;

use common::*;

/// Runs `pqlab encaps ALG --public-key EK` into `ct` / `ss` in `dir`.
fn encaps(dir: &Dir, alg: &str, ek: &str) -> std::process::Output {
    run(&[
        "encaps",
        alg,
        "--public-key",
        ek,
        "--ciphertext",
        &dir.arg("ct"),
        "--shared-secret",
        &dir.arg("ss"),
    ])
}

/// Runs `pqlab decaps ALG --secret-key DK --ciphertext CT` into `ss` in `dir`.
fn decaps(dir: &Dir, alg: &str, dk: &str, ct: &str) -> std::process::Output {
    run(&[
        "decaps",
        alg,
        "--secret-key",
        dk,
        "--ciphertext",
        ct,
        "--shared-secret",
        &dir.arg("ss"),
    ])
}

/// Asserts that neither `ct` nor `ss` was written.
#[track_caller]
fn assert_nothing_written(dir: &Dir) {
    assert!(!dir.path("ct").exists(), "ciphertext written");
    assert!(!dir.path("ss").exists(), "shared secret written");
    assert!(
        dir.names().iter().all(|n| !n.starts_with(".pqlab-")),
        "{:?}",
        dir.names()
    );
}

/// Sets the first coefficient of t_hat in `ek` to `value` (12 bits, little-endian).
fn set_first_coefficient(ek: &mut [u8], value: u16) {
    ek[0] = value as u8;
    ek[1] = (ek[1] & 0xf0) | (value >> 8) as u8;
}

#[test]
fn encapsulation_key_with_a_coefficient_of_q_or_more_is_rejected() {
    let dir = Dir::new();
    dir.keygen("ml-kem-768", "", "raw", None);
    let mut ek = dir.read("pk");
    // 3328 = q - 1 is fine, q = 3329 and 4095 are not.
    set_first_coefficient(&mut ek, 3328);
    let ok = dir.write("ok-ek", &ek);
    assert_ok(&encaps(&dir, "ml-kem-768", &ok));
    std::fs::remove_file(dir.path("ct")).unwrap();
    std::fs::remove_file(dir.path("ss")).unwrap();
    for value in [3329, 4095] {
        set_first_coefficient(&mut ek, value);
        let bad = dir.write("bad-ek", &ek);
        let out = encaps(&dir, "ml-kem-768", &bad);
        assert_input_error(
            &out,
            &[
                "encapsulation key file",
                "bad-ek",
                "coefficient >= q",
                "modulus check",
            ],
        );
        assert_nothing_written(&dir);
        // The same key in SubjectPublicKeyInfo.
        let pem = dir.write("bad-ek.pem", &spki_pem(&mlkem_alg_id(2), &ek));
        let out = encaps(&dir, "ml-kem-768", &pem);
        assert_input_error(&out, &["bad-ek.pem", "modulus check"]);
        assert_nothing_written(&dir);
    }
    // A decapsulation key that embeds such an ek (with a matching hash) is rejected too.
    let mut dk = dir.read("sk");
    let (k, ek_len) = (3, ek.len());
    dk[384 * k..384 * k + ek_len].copy_from_slice(&ek);
    let h = pqlab_keccak::Sha3_256::digest(&ek);
    dk[384 * k + ek_len..384 * k + ek_len + 32].copy_from_slice(&h);
    let bad_dk = dir.write("bad-dk", &dk);
    let ct = dir.write("some-ct", &[0u8; 1088]);
    let out = decaps(&dir, "ml-kem-768", &bad_dk, &ct);
    assert_input_error(
        &out,
        &["decapsulation key file", "bad-dk", "coefficient >= q"],
    );
    assert_nothing_written(&dir);
}

#[test]
fn cctv_modulus_vectors_are_rejected() {
    let Some(vectors) = vectors("cctv/ML-KEM/modulus") else {
        return;
    };
    let dir = Dir::new();
    for alg in KEMS {
        let file = vectors.join(format!("{}.txt.gz", alg.to_ascii_uppercase()));
        let lines: Vec<String> = BufReader::new(flate2::read::GzDecoder::new(
            std::fs::File::open(file).unwrap(),
        ))
        .lines()
        .map(Result::unwrap)
        .filter(|l| !l.trim().is_empty())
        .collect();
        assert!(lines.len() >= 775, "{alg}: {} keys", lines.len());
        // A spread of the keys: every 37th and the last (each one is a process start).
        let picked = lines.iter().step_by(37).chain(lines.last());
        for (i, line) in picked.enumerate() {
            let ek = dir.write(&format!("{alg}-{i}"), &hex::decode(line.trim()).unwrap());
            let out = encaps(&dir, alg, &ek);
            assert_input_error(
                &out,
                &[
                    "encapsulation key file",
                    &format!("{alg}-{i}"),
                    "coefficient >= q",
                ],
            );
            assert_nothing_written(&dir);
        }
    }
}

#[test]
fn decapsulation_key_with_a_wrong_hash_is_rejected() {
    let dir = Dir::new();
    for (alg, (ek_len, dk_len, ct_len)) in KEMS.iter().zip(KEM_SIZES) {
        dir.keygen(alg, alg, "raw", None);
        let mut dk = dir.read(&format!("{alg}sk"));
        assert_eq!(dk.len(), dk_len);
        // dk = dk_PKE (384 k) || ek || H(ek) || z; dk_PKE is as long as ek minus rho.
        dk[2 * ek_len - 32 + 5] ^= 0x40;
        let bad = dir.write(&format!("{alg}-bad-dk"), &dk);
        let ct = dir.write(&format!("{alg}-ct"), &vec![0u8; ct_len]);
        let out = decaps(&dir, alg, &bad, &ct);
        assert_input_error(
            &out,
            &[
                "decapsulation key file",
                &format!("{alg}-bad-dk"),
                "H(ek) does not match",
                "hash check",
            ],
        );
        assert_nothing_written(&dir);
        // The same inside PKCS#8 (expanded form).
        let level = KEMS.iter().position(|a| a == alg).unwrap() as u8 + 1;
        let pem = dir.write(
            &format!("{alg}-bad-dk.pem"),
            &pkcs8_pem(&mlkem_alg_id(level), &tlv(0x04, &dk)),
        );
        let out = decaps(&dir, alg, &pem, &ct);
        assert_input_error(&out, &["bad-dk.pem", "hash check"]);
        assert_nothing_written(&dir);
    }
}

#[test]
fn inconsistent_or_malformed_pem_private_keys_are_rejected() {
    let dir = Dir::new();
    let ct = dir.write("some-ct", &[0u8; 1088]);
    dir.keygen("ml-kem-768", "", "raw", Some(&"01".repeat(64)));
    let other = dir.read("sk");
    let id = mlkem_alg_id(2);
    let cases: [(&str, Vec<u8>, &str); 3] = [
        (
            "both",
            tlv(0x30, &[tlv(0x04, &[2u8; 64]), tlv(0x04, &other)].concat()),
            "the seed and the expanded key inside do not match",
        ),
        (
            "short-seed",
            tlv(0x80, &[2u8; 32]),
            "the seed inside has 32 bytes, expected 64",
        ),
        (
            "short-expanded",
            tlv(0x04, &other[..2399]),
            "the expanded key inside has 2399 bytes, expected 2400 for ml-kem-768",
        ),
    ];
    for (name, choice, problem) in cases {
        let file = dir.write(name, &pkcs8_pem(&id, &choice));
        let out = decaps(&dir, "ml-kem-768", &file, &ct);
        assert_input_error(&out, &["decapsulation key file", name, problem]);
        assert_nothing_written(&dir);
    }
    let short = dir.write("short-ek.pem", &spki_pem(&id, &dir.read("pk")[..1183]));
    let out = encaps(&dir, "ml-kem-768", &short);
    assert_input_error(
        &out,
        &[
            "short-ek.pem",
            "the encapsulation key inside has 1183 bytes, expected 1184 for ml-kem-768",
        ],
    );
}

#[test]
fn ciphertext_of_the_wrong_length_is_rejected() {
    let dir = Dir::new();
    let (ek, dk) = dir.keygen("ml-kem-768", "", "raw", None);
    let (ct, _) = dir.encaps("ml-kem-768", &ek, "good-");
    for (name, data) in [
        ("short-ct", ct[..1087].to_vec()),
        ("long-ct", [&ct[..], &[0]].concat()),
        ("empty-ct", Vec::new()),
    ] {
        let file = dir.write(name, &data);
        let out = decaps(&dir, "ml-kem-768", &dk, &file);
        let found = format!("expected 1088 bytes for ml-kem-768, found {}", data.len());
        assert_input_error(&out, &["ciphertext file", name, &found]);
        assert_nothing_written(&dir);
    }
    // A ciphertext of another parameter set.
    let (ek512, _) = dir.keygen("ml-kem-512", "512-", "raw", None);
    dir.encaps("ml-kem-512", &ek512, "512-");
    let out = decaps(&dir, "ml-kem-768", &dk, &dir.arg("512-ct"));
    assert_input_error(
        &out,
        &["found 768 (which is the ml-kem-512 ciphertext size)"],
    );
}

#[test]
fn keys_of_another_parameter_set_or_kind_are_rejected() {
    let dir = Dir::new();
    let (ek_raw, dk_raw) = dir.keygen("ml-kem-512", "raw-", "raw", None);
    let (ek_pem, dk_pem) = dir.keygen("ml-kem-512", "pem-", "pem", None);
    let ct = dir.write("some-ct", &[0u8; 1088]);

    let out = encaps(&dir, "ml-kem-768", &ek_raw);
    assert_input_error(
        &out,
        &[
            "encapsulation key file",
            "raw-pk",
            "expected 1184 bytes for ml-kem-768, found 800 \
             (which is the ml-kem-512 encapsulation key size)",
        ],
    );
    let out = decaps(&dir, "ml-kem-768", &dk_raw, &ct);
    assert_input_error(
        &out,
        &[
            "decapsulation key file",
            "raw-sk",
            "expected 2400 bytes for ml-kem-768, found 1632 \
             (which is the ml-kem-512 decapsulation key size)",
        ],
    );
    let out = encaps(&dir, "ml-kem-768", &ek_pem);
    assert_input_error(
        &out,
        &[
            "pem-pk",
            "holds a key for ml-kem-512, but ml-kem-768 was requested",
        ],
    );
    let out = decaps(&dir, "ml-kem-768", &dk_pem, &ct);
    assert_input_error(
        &out,
        &[
            "pem-sk",
            "holds a key for ml-kem-512, but ml-kem-768 was requested",
        ],
    );
    // The halves mixed up.
    let out = decaps(&dir, "ml-kem-512", &ek_pem, &ct);
    assert_input_error(&out, &["expected PEM 'PRIVATE KEY', found 'PUBLIC KEY'"]);
    let out = encaps(&dir, "ml-kem-512", &dk_raw);
    assert_input_error(&out, &["(which is the ml-kem-512 decapsulation key size)"]);
    // ML-DSA keys given to ML-KEM.
    let (dsa_pk, dsa_sk) = dir.keygen("ml-dsa-65", "dsa-", "pem", None);
    let out = encaps(&dir, "ml-kem-768", &dsa_pk);
    assert_input_error(
        &out,
        &[
            "dsa-pk",
            "holds a key for ml-dsa-65, but ml-kem-768 was requested",
        ],
    );
    let out = decaps(&dir, "ml-kem-768", &dsa_sk, &ct);
    assert_input_error(
        &out,
        &[
            "dsa-sk",
            "holds a key for ml-dsa-65, but ml-kem-768 was requested",
        ],
    );
    assert_nothing_written(&dir);
}

#[test]
fn commands_of_the_other_kind_are_rejected() {
    let dir = Dir::new();
    let (ek, dk) = dir.keygen("ml-kem-768", "kem-", "raw", None);
    let (pk, sk) = dir.keygen("ml-dsa-65", "dsa-", "raw", None);
    let msg = dir.write("msg", b"m");
    let sig = dir.write("sig", &[0u8; 3309]);
    let ct = dir.write("some-ct", &[0u8; 1088]);

    let out = run(&["sign", "ml-kem-768", "--secret-key", &dk, "--in", &msg]);
    assert_input_error(&out, &["ml-kem-768 is a KEM, not a signature scheme"]);
    let out = run(&[
        "verify",
        "ml-kem-768",
        "--public-key",
        &ek,
        "--signature",
        &sig,
        "--in",
        &msg,
    ]);
    assert_input_error(&out, &["ml-kem-768 is a KEM, not a signature scheme"]);
    let out = encaps(&dir, "ml-dsa-65", &pk);
    assert_input_error(
        &out,
        &["ml-dsa-65 is a signature scheme, not a KEM", "pqlab sign"],
    );
    let out = decaps(&dir, "ml-dsa-65", &sk, &ct);
    assert_input_error(&out, &["ml-dsa-65 is a signature scheme, not a KEM"]);
    let out = encaps(&dir, "ml-kem-999", &ek);
    assert_input_error(&out, &["unknown algorithm 'ml-kem-999'", "ml-kem-1024"]);
    let out = decaps(&dir, "kyber768", &dk, &ct);
    assert_input_error(&out, &["unknown algorithm 'kyber768'"]);
    assert_nothing_written(&dir);

    // keygen: the seed is d || z, 64 bytes.
    let out = run_with(
        &[
            "keygen",
            "ml-kem-768",
            "--public-key",
            &dir.arg("x-pk"),
            "--secret-key",
            &dir.arg("x-sk"),
            "--seed-file",
            "-",
        ],
        "00".repeat(32).as_bytes(),
    );
    assert_input_error(
        &out,
        &["--seed-file: expected 64 bytes (128 hex digits) for ml-kem-768, found 32"],
    );
    assert!(!dir.path("x-pk").exists() && !dir.path("x-sk").exists());
}

#[test]
fn missing_files_and_clashing_outputs_are_rejected() {
    let dir = Dir::new();
    let (ek, dk) = dir.keygen("ml-kem-512", "", "raw", None);
    let missing = dir.arg("missing");
    let out = encaps(&dir, "ml-kem-512", &missing);
    assert_input_error(&out, &["encapsulation key file", "missing", "cannot open"]);
    let out = decaps(&dir, "ml-kem-512", &missing, &missing);
    assert_input_error(&out, &["decapsulation key file", "missing", "cannot open"]);
    let out = decaps(&dir, "ml-kem-512", &dk, &missing);
    assert_input_error(&out, &["ciphertext file", "missing", "cannot open"]);
    let folder = dir.arg("");
    let out = decaps(&dir, "ml-kem-512", &dk, &folder);
    assert_input_error(&out, &["ciphertext file", "is a directory"]);
    assert_nothing_written(&dir);

    // Outputs that would overwrite each other or an input.
    let same = run(&[
        "encaps",
        "ml-kem-512",
        "--public-key",
        &ek,
        "--ciphertext",
        &dir.arg("ct"),
        "--shared-secret",
        &dir.arg("ct"),
    ]);
    assert_input_error(
        &same,
        &["--ciphertext and --shared-secret name the same file"],
    );
    let over_key = run(&[
        "encaps",
        "ml-kem-512",
        "--public-key",
        &ek,
        "--ciphertext",
        &ek,
        "--shared-secret",
        &dir.arg("ss"),
    ]);
    assert_input_error(
        &over_key,
        &["--ciphertext and --public-key name the same file"],
    );
    let ct = dir.write("some-ct", &[0u8; 768]);
    let over_ct = run(&[
        "decaps",
        "ml-kem-512",
        "--secret-key",
        &dk,
        "--ciphertext",
        &ct,
        "--shared-secret",
        &ct,
    ]);
    assert_input_error(
        &over_ct,
        &["--shared-secret and --ciphertext name the same file"],
    );
    assert_eq!(dir.read("some-ct"), [0u8; 768]);
    assert_eq!(dir.read("pk").len(), 800);
    assert_nothing_written(&dir);
}

#[test]
fn encaps_writes_both_outputs_or_neither() {
    let dir = Dir::new();
    let (ek, _) = dir.keygen("ml-kem-768", "", "raw", None);
    let nowhere = dir.path("no-such-folder");
    let lost = |name: &str| nowhere.join(name).to_str().unwrap().to_string();
    // The shared secret cannot be written: no ciphertext either.
    let out = run(&[
        "encaps",
        "ml-kem-768",
        "--public-key",
        &ek,
        "--ciphertext",
        &dir.arg("ct"),
        "--shared-secret",
        &lost("ss"),
    ]);
    assert_input_error(&out, &["shared secret file", "cannot create"]);
    assert_nothing_written(&dir);
    // The ciphertext cannot be written: no shared secret either.
    let out = run(&[
        "encaps",
        "ml-kem-768",
        "--public-key",
        &ek,
        "--ciphertext",
        &lost("ct"),
        "--shared-secret",
        &dir.arg("ss"),
    ]);
    assert_input_error(&out, &["ciphertext file", "cannot create"]);
    assert_nothing_written(&dir);
    assert!(!Path::new(&nowhere).exists());
}

#[test]
fn garbage_key_and_ciphertext_files_never_crash() {
    let dir = Dir::new();
    let (_, dk) = dir.keygen("ml-kem-512", "", "raw", None);
    let mut x: u32 = 7;
    for len in [0usize, 1, 64, 768, 800, 1632, 5000] {
        let data: Vec<u8> = (0..len)
            .map(|_| {
                x = x.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                (x >> 16) as u8
            })
            .collect();
        let file = dir.write("junk", &data);
        for out in [
            encaps(&dir, "ml-kem-512", &file),
            decaps(&dir, "ml-kem-512", &file, &file),
        ] {
            assert_eq!(out.status.code(), Some(2), "{len}: {}", stderr(&out));
            assert_eq!(stderr(&out).lines().count(), 1);
        }
        let mut pem = b"-----BEGIN PRIVATE KEY-----\n".to_vec();
        pem.extend_from_slice(&data);
        let file = dir.write("junk.pem", &pem);
        assert_eq!(
            decaps(&dir, "ml-kem-512", &file, &file).status.code(),
            Some(2)
        );
        // Any ciphertext of the right length decapsulates (implicit rejection).
        if len == 768 {
            let ct = dir.write("junk-ct", &data);
            assert_ok(&decaps(&dir, "ml-kem-512", &dk, &ct));
            std::fs::remove_file(dir.path("ss")).unwrap();
        }
    }
}
