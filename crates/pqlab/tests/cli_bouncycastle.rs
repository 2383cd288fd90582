//! Key files written by BouncyCastle 1.87 (fixtures in `tests/fixtures/bouncycastle/`, made by
//! `interop/bouncycastle/Interop.java`), used by the commands as BouncyCastle wrote them: DER
//! (`getEncoded()`, as `openssl pkey -outform DER` writes too) and PEM (bcpkix's
//! `JcaPEMWriter`). DER key files were refused ("expected 2560 bytes") until pqlab read them.
//! The whole check, both directions and every form: `interop/bouncycastle/run.sh`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::*;

fn fixture(name: &str) -> String {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/bouncycastle");
    dir.join(name).to_str().unwrap().to_owned()
}

#[test]
fn der_and_pem_signing_keys_sign_and_verify() {
    let dir = Dir::new();
    let msg = fixture("msg");
    for alg in ["ml-dsa-44", "falcon-512"] {
        let pk = fixture(&format!("{alg}-pk.der"));
        // BouncyCastle's signature verifies under its DER public key; a changed byte exits 1.
        let sig = fixture(&format!("{alg}.sig"));
        assert_valid(&run(&[
            "verify",
            alg,
            "--public-key",
            &pk,
            "--in",
            &msg,
            "--signature",
            &sig,
        ]));
        let mut bad = std::fs::read(&sig).unwrap();
        bad[200] ^= 4;
        let bad = dir.write("bad.sig", &bad);
        assert_invalid(&run(&[
            "verify",
            alg,
            "--public-key",
            &pk,
            "--in",
            &msg,
            "--signature",
            &bad,
        ]));
        // BouncyCastle's DER private key signs, under its public key.
        let out = dir.arg("sig");
        let sk = fixture(&format!("{alg}-sk.der"));
        assert_ok(&run(&[
            "sign",
            alg,
            "--secret-key",
            &sk,
            "--in",
            &msg,
            "--out",
            &out,
        ]));
        assert_valid(&run(&[
            "verify",
            alg,
            "--public-key",
            &pk,
            "--in",
            &msg,
            "--signature",
            &out,
        ]));
    }
    let sk = fixture("ml-dsa-44-sk.pem");
    let out = dir.arg("sig");
    assert_ok(&run(&[
        "sign",
        "ml-dsa-44",
        "--secret-key",
        &sk,
        "--in",
        &msg,
        "--out",
        &out,
    ]));
    let pk = fixture("ml-dsa-44-pk.der");
    assert_valid(&run(&[
        "verify",
        "ml-dsa-44",
        "--public-key",
        &pk,
        "--in",
        &msg,
        "--signature",
        &out,
    ]));
}

#[test]
fn der_decapsulation_key_gives_bouncycastles_shared_secret() {
    let dir = Dir::new();
    let ss = dir.decaps(
        "ml-kem-512",
        &fixture("ml-kem-512-sk.der"),
        &fixture("ml-kem-512.ct"),
    );
    assert_eq!(ss, std::fs::read(fixture("ml-kem-512.ss")).unwrap());
    let (ct, ss) = dir.encaps("ml-kem-512", &fixture("ml-kem-512-pk.der"), "");
    assert_eq!(ct.len(), 768);
    let ct = dir.write("ct2", &ct);
    assert_eq!(
        dir.decaps("ml-kem-512", &fixture("ml-kem-512-sk.der"), &ct),
        ss
    );
}

#[test]
fn der_documents_of_the_wrong_kind_are_named() {
    let dir = Dir::new();
    let msg = fixture("msg");
    // A DER public key where the private key belongs, and the other way round.
    let out = run(&[
        "sign",
        "ml-dsa-44",
        "--secret-key",
        &fixture("ml-dsa-44-pk.der"),
        "--in",
        &msg,
        "--out",
        &dir.arg("s"),
    ]);
    assert_input_error(
        &out,
        &[
            "ml-dsa-44-pk.der",
            "found a SubjectPublicKeyInfo public key",
        ],
    );
    let out = run(&[
        "verify",
        "ml-dsa-44",
        "--public-key",
        &fixture("ml-dsa-44-sk.der"),
        "--in",
        &msg,
        "--signature",
        &fixture("ml-dsa-44.sig"),
    ]);
    assert_input_error(&out, &["ml-dsa-44-sk.der", "found a PKCS#8 private key"]);
    // A DER key of another algorithm.
    let out = run(&[
        "sign",
        "ml-dsa-65",
        "--secret-key",
        &fixture("ml-dsa-44-sk.der"),
        "--in",
        &msg,
        "--out",
        &dir.arg("s"),
    ]);
    assert_input_error(
        &out,
        &["holds a key for ml-dsa-44, but ml-dsa-65 was requested"],
    );
}

#[test]
fn der_private_keys_make_certificates() {
    let dir = Dir::new();
    let (ca, leaf) = (dir.arg("ca.pem"), dir.arg("leaf.pem"));
    assert_ok(&run(&[
        "cert",
        "--alg",
        "ml-dsa-44",
        "--key-in",
        &fixture("ml-dsa-44-sk.der"),
        "--ca-key-in",
        &fixture("falcon-512-sk.der"),
        "--ca-out",
        &ca,
        "--cert-out",
        &leaf,
        "--key-out",
        &dir.arg("key.pem"),
        "--san",
        "localhost",
    ]));
    assert_valid(&run(&["cert", "verify", &leaf, "--ca", &ca]));
    let out = run(&[
        "cert",
        "--key-in",
        &fixture("ml-dsa-44-pk.der"),
        "--ca-out",
        &dir.arg("c2"),
        "--cert-out",
        &dir.arg("l2"),
        "--key-out",
        &dir.arg("k2"),
    ]);
    assert_input_error(&out, &["found a SubjectPublicKeyInfo public key"]);
}
