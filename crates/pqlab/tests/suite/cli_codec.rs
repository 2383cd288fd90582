//! Keys in every form other implementations write, read by every command (issue 18): the
//! BouncyCastle Falcon form, the bare-seed draft form, the HashML-DSA OIDs, pqlab's own Falcon
//! forms across `keygen`, `sign` and `cert`; exit status 1 for every corrupted Falcon
//! signature; `pqlab cert show` / `verify`; interop with pyca/cryptography when installed.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common;

use common::*;

fn sign(alg: &str, sk: &str, msg: &str, sig: &str, extra: &[&str]) -> std::process::Output {
    let mut args = vec!["sign", alg, "--secret-key", sk, "--in", msg, "--out", sig];
    args.extend_from_slice(extra);
    run(&args)
}

fn verify(alg: &str, pk: &str, msg: &str, sig: &str, extra: &[&str]) -> std::process::Output {
    let mut args = vec![
        "verify",
        alg,
        "--public-key",
        pk,
        "--signature",
        sig,
        "--in",
        msg,
    ];
    args.extend_from_slice(extra);
    run(&args)
}

/// `pqlab cert verify` found a certificate that does not verify: exit 1, the reason on stdout.
fn assert_not_verified(out: &std::process::Output) {
    assert_eq!(out.status.code(), Some(1), "{}", stderr(out));
    assert!(stdout(out).starts_with("invalid: "), "{}", stdout(out));
}

/// The DER AlgorithmIdentifier of a dotted OID (parameters absent).
fn alg_id(dotted: &str) -> Vec<u8> {
    let oid = der::asn1::ObjectIdentifier::new(dotted).unwrap();
    tlv(0x30, &tlv(0x06, oid.as_bytes()))
}

#[test]
fn falcon_every_bit_flip_of_a_signature_exits_1() {
    let dir = Dir::new();
    let (pk, sk) = dir.keygen("falcon-512", "", "pem", Some(&"ab".repeat(48)));
    let msg = dir.write("msg", b"every bit");
    let sig = dir.arg("sig");
    assert_ok(&sign("falcon-512", &sk, &msg, &sig, &[]));
    assert_valid(&verify("falcon-512", &pk, &msg, &sig, &[]));
    let good = dir.read("sig");
    let mut exits = std::collections::BTreeMap::new();
    for bit in 0..8 * good.len() {
        let mut bad = good.clone();
        bad[bit / 8] ^= 1 << (bit % 8);
        let flipped = dir.write("flipped", &bad);
        let out = verify("falcon-512", &pk, &msg, &flipped, &[]);
        *exits.entry(out.status.code()).or_insert(0) += 1;
    }
    assert_eq!(
        exits.len(),
        1,
        "exit statuses of {} flips: {exits:?}",
        8 * good.len()
    );
    assert_eq!(exits.get(&Some(1)), Some(&(8 * good.len())), "{exits:?}");
}

#[test]
fn falcon_keys_work_across_keygen_sign_and_cert() {
    let dir = Dir::new();
    let (pk, sk) = dir.keygen("falcon-512", "", "pem", None);
    let msg = dir.write("msg", b"one key, every command");
    let sig = dir.arg("sig");
    // keygen's key signs, and makes a certificate.
    assert_ok(&sign("falcon-512", &sk, &msg, &sig, &[]));
    assert_valid(&verify("falcon-512", &pk, &msg, &sig, &[]));
    let (cert, key, ca, ca_key) = (
        dir.arg("c.pem"),
        dir.arg("k.pem"),
        dir.arg("ca.pem"),
        dir.arg("cak.pem"),
    );
    assert_ok(&run(&[
        "cert",
        "--alg",
        "falcon-512",
        "--key-in",
        &sk,
        "--cert-out",
        &cert,
        "--key-out",
        &key,
        "--ca-out",
        &ca,
        "--ca-key-out",
        &ca_key,
    ]));
    // cert's key files sign; the server key is keygen's key.
    assert_ok(&sign("falcon-512", &key, &msg, &sig, &[]));
    assert_valid(&verify("falcon-512", &pk, &msg, &sig, &[]));
    assert_ok(&sign("falcon-512", &ca_key, &msg, &sig, &[]));
    // cert's CA key makes another certificate (`cert make`, the explicit form).
    let cert2 = dir.arg("c2.pem");
    assert_ok(&run(&[
        "cert",
        "make",
        "--ca-key-in",
        &ca_key,
        "--cert-out",
        &cert2,
        "--key-out",
        &dir.arg("k2.pem"),
        "--ca-out",
        &dir.arg("ca2.pem"),
    ]));
    assert_valid(&run(&["cert", "verify", &cert2]));
}

#[test]
fn bouncycastle_falcon_key_signs() {
    let dir = Dir::new();
    let (pk, raw_sk) = dir.keygen("falcon-512", "raw-", "raw", Some(&"07".repeat(48)));
    let sk = dir.read("raw-sk");
    let h = &dir.read("raw-pk")[1..];
    let _ = raw_sk;
    // FalconPrivateKey ::= SEQUENCE { version, f, g, F, publicKey FalconPublicKey }.
    let bc = tlv(
        0x30,
        &[
            tlv(0x02, &[1]),
            tlv(0x04, &sk[1..385]),
            tlv(0x04, &sk[385..769]),
            tlv(0x04, &sk[769..]),
            tlv(0x30, &tlv(0x04, h)),
        ]
        .concat(),
    );
    for oid in ["1.3.9999.3.11", "1.3.9999.3.6"] {
        let key = dir.write("bc.pem", &pkcs8_pem(&alg_id(oid), &bc));
        let msg = dir.write("msg", b"BouncyCastle");
        let sig = dir.arg("sig");
        assert_ok(&sign("falcon-512", &key, &msg, &sig, &[]));
        assert_valid(&verify("falcon-512", &pk, &msg, &sig, &[]));
    }
    // A wrong public key inside is named as such, not as a "both" form problem.
    let mut bad_h = h.to_vec();
    bad_h[5] ^= 1;
    let bad = tlv(
        0x30,
        &[
            tlv(0x02, &[1]),
            tlv(0x04, &sk[1..385]),
            tlv(0x04, &sk[385..769]),
            tlv(0x04, &sk[769..]),
            tlv(0x30, &tlv(0x04, &bad_h)),
        ]
        .concat(),
    );
    let key = dir.write("bad.pem", &pkcs8_pem(&alg_id("1.3.9999.3.11"), &bad));
    let out = sign(
        "falcon-512",
        &key,
        &dir.write("m", b"x"),
        &dir.arg("s"),
        &[],
    );
    assert_input_error(&out, &["bad.pem", "public key inside does not match"]);
}

#[test]
fn bare_seed_and_hash_ml_dsa_keys() {
    let dir = Dir::new();
    let seed = [0x11u8; 32];
    let (pk, _) = dir.keygen("ml-dsa-44", "ref-", "raw", Some(&hex::encode(seed)));
    let msg = dir.write("msg", b"HashML-DSA");
    let sig = dir.arg("sig");
    // The draft form: privateKey holds the bare seed.
    let bare = dir.write(
        "bare.pem",
        &pkcs8_pem(&alg_id("2.16.840.1.101.3.4.3.17"), &seed),
    );
    assert_ok(&sign("ml-dsa-44", &bare, &msg, &sig, &["--deterministic"]));
    assert_valid(&verify("ml-dsa-44", &pk, &msg, &sig, &[]));
    // The HashML-DSA OID: the key signs with SHA-512 pre-hash.
    let hash = dir.write(
        "hash.pem",
        &pkcs8_pem(&alg_id("2.16.840.1.101.3.4.3.32"), &tlv(0x80, &seed)),
    );
    assert_ok(&sign("ml-dsa-44", &hash, &msg, &sig, &["--deterministic"]));
    assert_invalid(&verify("ml-dsa-44", &pk, &msg, &sig, &[]));
    assert_valid(&verify(
        "ml-dsa-44",
        &pk,
        &msg,
        &sig,
        &["--prehash", "sha2-512"],
    ));
    let hash_pk = dir.write(
        "hash-pk.pem",
        &spki_pem(&alg_id("2.16.840.1.101.3.4.3.32"), &dir.read("ref-pk")),
    );
    assert_valid(&verify("ml-dsa-44", &hash_pk, &msg, &sig, &[]));
    let out = verify(
        "ml-dsa-44",
        &hash_pk,
        &msg,
        &sig,
        &["--prehash", "sha2-256"],
    );
    assert_input_error(&out, &["hash-pk.pem", "HashML-DSA key with SHA2-512"]);
    let out = sign("ml-dsa-65", &hash, &msg, &sig, &[]);
    assert_input_error(
        &out,
        &["holds a key for ml-dsa-44 (HashML-DSA with SHA-512)"],
    );
}

#[test]
fn every_algorithm_round_trips_in_pem() {
    let dir = Dir::new();
    for alg in [
        "ml-dsa-44",
        "ml-dsa-65",
        "ml-dsa-87",
        "falcon-512",
        "falcon-1024",
    ] {
        let (pk, sk) = dir.keygen(alg, &format!("{alg}-"), "pem", None);
        let msg = dir.write("msg", alg.as_bytes());
        let sig = dir.arg("sig");
        assert_ok(&sign(alg, &sk, &msg, &sig, &[]));
        assert_valid(&verify(alg, &pk, &msg, &sig, &[]));
    }
    for alg in ["ml-kem-512", "ml-kem-768", "ml-kem-1024"] {
        let (ek, dk) = dir.keygen(alg, &format!("{alg}-"), "pem", None);
        let (_, ss) = dir.encaps(alg, &ek, "");
        assert_eq!(dir.decaps(alg, &dk, &dir.arg("ct")), ss);
    }
}

#[test]
fn cert_show_and_verify() {
    let dir = Dir::new();
    for alg in ["ml-dsa-44", "falcon-1024", "ecdsa-p256"] {
        let (cert, ca) = (
            dir.arg(&format!("{alg}-c.pem")),
            dir.arg(&format!("{alg}-ca.pem")),
        );
        assert_ok(&run(&[
            "cert",
            "--alg",
            alg,
            "--cert-out",
            &cert,
            "--key-out",
            &dir.arg(&format!("{alg}-k.pem")),
            "--ca-out",
            &ca,
        ]));
        let out = run(&["cert", "show", &cert]);
        assert_ok(&out);
        let text = stdout(&out);
        for needle in [
            "subject: CN=localhost",
            "issuer: CN=",
            "not after: ",
            "key algorithm: ",
        ] {
            assert!(text.contains(needle), "{needle} in {text}");
        }
        assert_valid(&run(&["cert", "verify", &cert, "--ca", &ca]));
        assert_valid(&run(&["cert", "verify", &ca]));
        // The leaf alone, tampered, against the CA: exit 1.
        let chain = String::from_utf8(dir.read(&format!("{alg}-c.pem"))).unwrap();
        let end = chain.find("-----END CERTIFICATE-----").unwrap() + 25;
        let der = pem_der(&chain.as_bytes()[..end], "CERTIFICATE");
        let leaf = dir.write("leaf.pem", &pem("CERTIFICATE", &der));
        assert_valid(&run(&["cert", "verify", &leaf, "--ca", &ca]));
        let mut bad = der.clone();
        let at = bad.len() / 3;
        bad[at] ^= 0x20;
        let tampered = dir.write("tampered.pem", &pem("CERTIFICATE", &bad));
        let out = run(&["cert", "verify", &tampered, "--ca", &ca]);
        assert!(
            matches!(out.status.code(), Some(1) | Some(2)),
            "{}",
            stderr(&out)
        );
        let mut sig_flip = der.clone();
        let last = sig_flip.len() - 5;
        sig_flip[last] ^= 1;
        let flipped = dir.write("sigflip.pem", &pem("CERTIFICATE", &sig_flip));
        assert_not_verified(&run(&["cert", "verify", &flipped, "--ca", &ca]));
        // Without the CA, the leaf is not self-signed: unusable (exit 2).
        assert_input_error(&run(&["cert", "verify", &leaf]), &["--ca"]);
    }
    // Another CA: exit 1. Garbage: exit 2.
    let out = run(&[
        "cert",
        "verify",
        &dir.arg("ml-dsa-44-c.pem"),
        "--ca",
        &dir.arg("falcon-1024-ca.pem"),
    ]);
    assert_not_verified(&out);
    let junk = dir.write(
        "junk.pem",
        b"-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n",
    );
    assert_input_error(&run(&["cert", "verify", &junk]), &["junk.pem"]);
    assert_input_error(&run(&["cert", "show", &junk]), &["junk.pem"]);
}

/// pyca/cryptography (48, OpenSSL back end) writes ML-DSA and ML-KEM keys; pqlab loads them,
/// signs / decapsulates, and Python checks the result.
#[test]
fn pyca_cryptography_interop() {
    let probe = std::process::Command::new("python3")
        .args([
            "-c",
            "from cryptography.hazmat.primitives.asymmetric import mldsa, mlkem",
        ])
        .output();
    if !probe.is_ok_and(|o| o.status.success()) {
        eprintln!("skipped: python3 with cryptography (ML-DSA, ML-KEM) is not installed");
        return;
    }
    let dir = Dir::new();
    let script = r#"
import sys, pathlib
from cryptography.hazmat.primitives import serialization as s
from cryptography.hazmat.primitives.asymmetric import mldsa, mlkem
d = pathlib.Path(sys.argv[2])
if sys.argv[1] == "gen":
    k = mldsa.MLDSA65PrivateKey.generate()
    (d / "py-sk.pem").write_bytes(k.private_bytes(s.Encoding.PEM, s.PrivateFormat.PKCS8, s.NoEncryption()))
    (d / "py-pk.pem").write_bytes(k.public_key().public_bytes(s.Encoding.PEM, s.PublicFormat.SubjectPublicKeyInfo))
    e = mlkem.MLKEM768PrivateKey.generate()
    (d / "py-dk.pem").write_bytes(e.private_bytes(s.Encoding.PEM, s.PrivateFormat.PKCS8, s.NoEncryption()))
    (d / "py-ek.pem").write_bytes(e.public_key().public_bytes(s.Encoding.PEM, s.PublicFormat.SubjectPublicKeyInfo))
else:
    pk = s.load_pem_public_key((d / "py-pk.pem").read_bytes())
    pk.verify((d / "sig").read_bytes(), (d / "msg").read_bytes())
    dk = s.load_pem_private_key((d / "py-dk.pem").read_bytes(), None)
    assert dk.decapsulate((d / "ct").read_bytes()) == (d / "ss").read_bytes()
    ours = s.load_pem_private_key((d / "our-sk.pem").read_bytes(), None)
    ours_pk = s.load_pem_public_key((d / "our-pk.pem").read_bytes())
    assert ours.public_key().public_bytes_raw() == ours_pk.public_bytes_raw()
    print("python: ok")
"#;
    let py = |mode: &str| {
        let out = std::process::Command::new("python3")
            .args(["-c", script, mode, dir.path("").to_str().unwrap()])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    py("gen");
    let msg = dir.write("msg", b"interop");
    let sig = dir.arg("sig");
    assert_ok(&sign("ml-dsa-65", &dir.arg("py-sk.pem"), &msg, &sig, &[]));
    assert_valid(&verify("ml-dsa-65", &dir.arg("py-pk.pem"), &msg, &sig, &[]));
    dir.encaps("ml-kem-768", &dir.arg("py-ek.pem"), "");
    dir.keygen("ml-dsa-65", "our-", "pem", None);
    std::fs::rename(dir.path("our-pk"), dir.path("our-pk.pem")).unwrap();
    std::fs::rename(dir.path("our-sk"), dir.path("our-sk.pem")).unwrap();
    py("check");
}
