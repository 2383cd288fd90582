//! `pqlab keygen|sign|verify` for Falcon-512 and Falcon-1024: the round-3 KAT key pairs and
//! signatures through files, signatures of our own, and bad input (exit status 2, one line on
//! standard error, nothing half-written).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common;

use common::*;

/// (name, logn, public key, secret key, largest signature) of each Falcon parameter set.
const FALCONS: [(&str, u8, usize, usize, usize); 2] = [
    ("falcon-512", 9, 897, 1281, 688),
    ("falcon-1024", 10, 1793, 2305, 1328),
];

/// The first record of a Falcon KAT file: public key, secret key, message and the detached
/// signature (header 0x30 + logn, nonce, compressed s2) rebuilt from `sm`.
struct Kat {
    pk: Vec<u8>,
    sk: Vec<u8>,
    msg: Vec<u8>,
    sig: Vec<u8>,
}

fn kat(n: usize, logn: u8) -> Option<Kat> {
    let dir = vectors("falcon-kat")?;
    let text = std::fs::read_to_string(dir.join(format!("falcon{n}-KAT.rsp"))).unwrap();
    let field = |name: &str| {
        let prefix = format!("{name} = ");
        let line = text.lines().find(|l| l.starts_with(&prefix)).unwrap();
        hex::decode(&line[prefix.len()..]).unwrap()
    };
    let sm = field("sm");
    let msg = field("msg");
    // sm = sig_len (2 bytes, big-endian) || nonce || msg || 0x20 + logn || compressed s2.
    let nonce = &sm[2..42];
    let comp = &sm[42 + msg.len() + 1..];
    let sig = [&[0x30 + logn][..], nonce, comp].concat();
    Some(Kat {
        pk: field("pk"),
        sk: field("sk"),
        msg,
        sig,
    })
}

fn verify(pk: &str, sig: &str, msg: &str, alg: &str) -> std::process::Output {
    run(&[
        "verify",
        alg,
        "--public-key",
        pk,
        "--signature",
        sig,
        "--in",
        msg,
    ])
}

#[test]
fn list_shows_the_falcon_sizes() {
    let out = run(&["list"]);
    assert_ok(&out);
    let text = stdout(&out);
    for (alg, _, pk, sk, sig) in FALCONS {
        let line = text.lines().find(|l| l.starts_with(alg)).unwrap();
        assert!(line.contains(&format!("{pk}")) && line.contains(&format!("{sk}")));
        assert!(line.contains(&format!("<= {sig}")), "{line}");
    }
}

#[test]
fn kat_signatures_verify_and_our_signatures_verify() {
    for (alg, logn, _, _, max) in FALCONS {
        let Some(k) = kat(1 << logn, logn) else {
            return;
        };
        let dir = Dir::new();
        let (pk, sk, msg) = (
            dir.write("pk", &k.pk),
            dir.write("sk", &k.sk),
            dir.write("msg", &k.msg),
        );
        assert_valid(&verify(&pk, &dir.write("kat-sig", &k.sig), &msg, alg));

        let sig = dir.arg("sig");
        assert_ok(&run(&[
            "sign",
            alg,
            "--secret-key",
            &sk,
            "--in",
            &msg,
            "--out",
            &sig,
        ]));
        let data = dir.read("sig");
        assert!(
            data.len() <= max && data.len() > 41,
            "{alg}: {}",
            data.len()
        );
        assert_eq!(data[0], 0x30 + logn);
        assert_valid(&verify(&pk, &sig, &msg, alg));
        // Another message, and the signature through standard input.
        let other = dir.write("other", b"another message");
        assert_invalid(&verify(&pk, &sig, &other, alg));
        let out = run_with(&["sign", alg, "--secret-key", &sk], b"from stdin");
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let piped = dir.write("piped-sig", &out.stdout);
        let out = run_with(
            &["verify", alg, "--public-key", &pk, "--signature", &piped],
            b"from stdin",
        );
        assert_valid(&out);
    }
}

#[test]
fn bad_falcon_files_are_input_errors() {
    let (alg, logn, pk_len, sk_len, max) = FALCONS[0];
    let Some(k) = kat(512, logn) else {
        return;
    };
    let dir = Dir::new();
    let (pk, sk, msg, sig) = (
        dir.write("pk", &k.pk),
        dir.write("sk", &k.sk),
        dir.write("msg", &k.msg),
        dir.write("sig", &k.sig),
    );
    let out_sig = dir.arg("out-sig");
    let sign = |key: &str| {
        run(&[
            "sign",
            alg,
            "--secret-key",
            key,
            "--in",
            &msg,
            "--out",
            &out_sig,
        ])
    };

    // Wrong lengths.
    let short_pk = dir.write("short-pk", &k.pk[..pk_len - 1]);
    assert_input_error(
        &verify(&short_pk, &sig, &msg, alg),
        &[
            "public key file",
            "short-pk",
            "expected 897 bytes for falcon-512, found 896",
        ],
    );
    let short_sk = dir.write("short-sk", &k.sk[..sk_len - 1]);
    assert_input_error(
        &sign(&short_sk),
        &[
            "secret key file",
            "short-sk",
            "expected 1281 bytes for falcon-512, found 1280",
        ],
    );
    let long_sig = dir.write("long-sig", &[&k.sig[..], &vec![0u8; max]].concat());
    assert_input_error(
        &verify(&pk, &long_sig, &msg, alg),
        &["signature file", "long-sig", "expected at most 688 bytes"],
    );

    // Bad header bytes (a Falcon-1024 header on a Falcon-512 key or signature).
    let mut bad = k.pk.clone();
    bad[0] = 0x0a;
    let bad_pk = dir.write("bad-pk", &bad);
    assert_input_error(
        &verify(&bad_pk, &sig, &msg, alg),
        &[
            "public key file",
            "bad-pk",
            "header byte 0x0a, expected 0x09",
        ],
    );
    let mut bad = k.sk.clone();
    bad[0] = 0x5a;
    let bad_sk = dir.write("bad-sk", &bad);
    assert_input_error(
        &sign(&bad_sk),
        &[
            "secret key file",
            "bad-sk",
            "header byte 0x5a, expected 0x59",
        ],
    );
    let mut bad = k.sig.clone();
    bad[0] = 0x3a;
    let bad_sig = dir.write("bad-sig", &bad);
    assert_input_error(
        &verify(&pk, &bad_sig, &msg, alg),
        &[
            "signature file",
            "bad-sig",
            "header byte 0x3a, expected 0x39",
        ],
    );

    // Malformed compressed s2 (cut short, an empty one, trailing bytes) and every single-bit
    // flip after the header byte: signatures of this algorithm that do not verify, exit 1.
    let cut = dir.write("cut-sig", &k.sig[..k.sig.len() - 20]);
    assert_invalid(&verify(&pk, &cut, &msg, alg));
    let empty = dir.write("empty-sig", &k.sig[..41]);
    assert_invalid(&verify(&pk, &empty, &msg, alg));
    let trailing = dir.write("trailing-sig", &[&k.sig[..], &[0x55u8; 3]].concat());
    assert_invalid(&verify(&pk, &trailing, &msg, alg));
    let mut flips = 0;
    for bit in (8..8 * k.sig.len()).step_by(97) {
        let mut bad = k.sig.clone();
        bad[bit / 8] ^= 1 << (bit % 8);
        let flipped = dir.write("flipped-sig", &bad);
        assert_invalid(&verify(&pk, &flipped, &msg, alg));
        flips += 1;
    }
    assert!(flips >= 50, "{flips} bit flips tried");

    // A secret key whose F does not fit f G - g F = q: G is not short.
    let mut bad = k.sk.clone();
    for b in &mut bad[sk_len - 200..] {
        *b = 0x7f;
    }
    let wrong_sk = dir.write("wrong-sk", &bad);
    assert_input_error(&sign(&wrong_sk), &["secret key file", "wrong-sk"]);

    // ML-DSA options that Falcon does not have.
    for extra in [
        &["--context", "00"][..],
        &["--prehash", "sha-256"],
        &["--deterministic"],
    ] {
        let mut args = vec!["sign", alg, "--secret-key", &sk, "--in", &msg, "--out"];
        args.push(&out_sig);
        args.extend_from_slice(extra);
        assert_input_error(&run(&args), &["falcon-512"]);
    }
    let mut args = vec!["verify", alg, "--public-key", &pk, "--signature", &sig];
    args.extend(["--in", &msg, "--context", "00"]);
    assert_input_error(&run(&args), &["context"]);

    // Nothing was written by any failed sign.
    assert!(!dir.path("out-sig").exists());
    assert!(dir.names().iter().all(|n| !n.starts_with("out-sig")));
}

/// Key generation: raw and PEM files, the seed form, and signatures with the new keys. While
/// `pqlab-falcon` has no key generation, `keygen` must fail cleanly (one line, exit 2, no
/// files) and the rest is skipped.
#[test]
fn keygen_round_trip_for_both_degrees_and_formats() {
    let dir = Dir::new();
    let msg = dir.write("msg", b"attack at dawn");
    let (pk, sk) = (dir.arg("pk"), dir.arg("sk"));
    let out = run(&[
        "keygen",
        "falcon-512",
        "--public-key",
        &pk,
        "--secret-key",
        &sk,
    ]);
    if out.status.code() == Some(2) {
        assert_input_error(&out, &["Falcon key generation is not available"]);
        assert!(!dir.path("pk").exists() && !dir.path("sk").exists());
        println!("skipped: pqlab-falcon has no key generation yet");
        return;
    }
    assert_ok(&out);
    for (alg, _, pk_len, sk_len, _) in FALCONS {
        for format in ["raw", "pem"] {
            let prefix = format!("{alg}-{format}-");
            let (pk, sk) = dir.keygen(alg, &prefix, format, None);
            if format == "raw" {
                assert_eq!(dir.read(&format!("{prefix}pk")).len(), pk_len);
                assert_eq!(dir.read(&format!("{prefix}sk")).len(), sk_len);
            }
            let sig = dir.arg(&format!("{prefix}sig"));
            assert_ok(&run(&[
                "sign",
                alg,
                "--secret-key",
                &sk,
                "--in",
                &msg,
                "--out",
                &sig,
            ]));
            assert_valid(&verify(&pk, &sig, &msg, alg));
        }
        // The same seed gives the same key pair.
        let seed = "42".repeat(48);
        let (s1, s2) = (format!("{alg}-s1-"), format!("{alg}-s2-"));
        dir.keygen(alg, &s1, "raw", Some(&seed));
        dir.keygen(alg, &s2, "raw", Some(&seed));
        assert_eq!(dir.read(&format!("{s1}sk")), dir.read(&format!("{s2}sk")));
        assert_eq!(dir.read(&format!("{s1}pk")), dir.read(&format!("{s2}pk")));
    }
}
