//! Key files written by BouncyCastle 1.87 (fixtures in `tests/fixtures/bouncycastle/`, made by
//! `interop/bouncycastle/Interop.java`), used by the commands as BouncyCastle wrote them: DER
//! (`getEncoded()`, as `openssl pkey -outform DER` writes too) and PEM (bcpkix's
//! `JcaPEMWriter`). DER key files were refused ("expected 2560 bytes") until pqlab read them.
//! pqlab also writes BouncyCastle's Falcon form (`--falcon-form bc`), checked here against the
//! fixture. The whole check, both directions and every form: `interop/bouncycastle/run.sh`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common;

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
        assert_valid(&run_verify(alg, &pk, &msg, &sig));
        let mut bad = std::fs::read(&sig).unwrap();
        bad[200] ^= 4;
        let bad = dir.write("bad.sig", &bad);
        assert_invalid(&run_verify(alg, &pk, &msg, &bad));
        // BouncyCastle's DER private key signs, under its public key.
        let out = dir.arg("sig");
        let sk = fixture(&format!("{alg}-sk.der"));
        assert_ok(&run_sign(alg, &sk, &msg, &out));
        assert_valid(&run_verify(alg, &pk, &msg, &out));
    }
    let sk = fixture("ml-dsa-44-sk.pem");
    let out = dir.arg("sig");
    assert_ok(&run_sign("ml-dsa-44", &sk, &msg, &out));
    let pk = fixture("ml-dsa-44-pk.der");
    assert_valid(&run_verify("ml-dsa-44", &pk, &msg, &out));
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
    let out = run_sign(
        "ml-dsa-44",
        &fixture("ml-dsa-44-pk.der"),
        &msg,
        &dir.arg("s"),
    );
    assert_input_error(
        &out,
        &[
            "ml-dsa-44-pk.der",
            "found a SubjectPublicKeyInfo public key",
        ],
    );
    let out = run_verify(
        "ml-dsa-44",
        &fixture("ml-dsa-44-sk.der"),
        &msg,
        &fixture("ml-dsa-44.sig"),
    );
    assert_input_error(&out, &["ml-dsa-44-sk.der", "found a PKCS#8 private key"]);
    // A DER key of another algorithm.
    let out = run_sign(
        "ml-dsa-65",
        &fixture("ml-dsa-44-sk.der"),
        &msg,
        &dir.arg("s"),
    );
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

/// The fields of BouncyCastle's Falcon PKCS#8 form (`FalconPrivateKey ::= SEQUENCE { version,
/// f, g, F, publicKey SEQUENCE { h } }` as the `privateKey` contents): the version, f || g || F
/// and h. Panics when the document is not in that form.
fn bouncycastle_fields(doc: &[u8], oid: &str) -> (u8, Vec<u8>, Vec<u8>) {
    use der::asn1::{AnyRef, OctetStringRef};
    use der::{Decode, Reader, SliceReader, Tag, Tagged};
    let info = pkcs8::PrivateKeyInfoRef::from_der(doc).unwrap();
    assert_eq!(info.algorithm.oid.to_string(), oid);
    let seq = AnyRef::from_der(info.private_key.as_bytes()).unwrap();
    assert_eq!(seq.tag(), Tag::Sequence, "privateKey is not a SEQUENCE");
    let mut reader = SliceReader::new(seq.value()).unwrap();
    let version: u8 = reader.decode().unwrap();
    let mut fg_big_f = Vec::new();
    for _ in 0..3 {
        let part: &OctetStringRef = reader.decode().unwrap();
        fg_big_f.extend_from_slice(part.as_bytes());
    }
    let public: AnyRef<'_> = reader.decode().unwrap();
    assert_eq!(
        public.tag(),
        Tag::Sequence,
        "publicKey is not an untagged SEQUENCE"
    );
    let h = <&OctetStringRef>::from_der(public.value()).unwrap();
    reader.finish().unwrap();
    (version, fg_big_f, h.as_bytes().to_vec())
}

#[test]
fn keygen_writes_bouncycastles_falcon_form() {
    let dir = Dir::new();
    let msg = fixture("msg");
    let seed = "5a".repeat(48);
    for (alg, oid) in [
        ("falcon-512", "1.3.9999.3.11"),
        ("falcon-1024", "1.3.9999.3.14"),
    ] {
        let (pk_raw, sk_raw) = dir.keygen(alg, &format!("{alg}-raw-"), "raw", Some(&seed));
        let (pk, sk) = dir.keygen_with(
            alg,
            &format!("{alg}-bc-"),
            "pem",
            Some(&seed),
            &["--falcon-form", "bc"],
        );
        // The same key as the raw files, in BouncyCastle's SEQUENCE (version 0).
        let der = pem_der(&std::fs::read(&sk).unwrap(), "PRIVATE KEY");
        let (version, fg_big_f, h) = bouncycastle_fields(&der, oid);
        assert_eq!(version, 0);
        assert_eq!(fg_big_f, std::fs::read(&sk_raw).unwrap()[1..]);
        assert_eq!(h, std::fs::read(&pk_raw).unwrap()[1..]);
        // pqlab signs with it, as PEM and as DER; the signatures verify.
        let sk_der = dir.write(&format!("{alg}-sk.der"), &der);
        for key in [&sk, &sk_der] {
            let sig = dir.arg("sig");
            assert_ok(&run_sign(alg, key, &msg, &sig));
            assert_valid(&run_verify(alg, &pk, &msg, &sig));
        }
        // The default stays oqs-provider's form (an OCTET STRING holding sk || pk).
        let (_, sk_oqs) = dir.keygen(alg, &format!("{alg}-oqs-"), "pem", Some(&seed));
        let der = pem_der(&std::fs::read(&sk_oqs).unwrap(), "PRIVATE KEY");
        let info = <pkcs8::PrivateKeyInfoRef<'_> as der::Decode>::from_der(&der).unwrap();
        assert_eq!(info.private_key.as_bytes()[0], 0x04);
    }
}

#[test]
fn cert_rewrites_bouncycastles_key_byte_for_byte() {
    // BouncyCastle 1.87's own Falcon PKCS#8 in, pqlab's BouncyCastle form out: the same bytes.
    let dir = Dir::new();
    let key = dir.arg("key.pem");
    assert_ok(&run(&[
        "cert",
        "--alg",
        "falcon-512",
        "--key-in",
        &fixture("falcon-512-sk.der"),
        "--ca-out",
        &dir.arg("ca.pem"),
        "--cert-out",
        &dir.arg("leaf.pem"),
        "--key-out",
        &key,
        "--falcon-form",
        "bc",
    ]));
    let written = pem_der(&std::fs::read(&key).unwrap(), "PRIVATE KEY");
    assert_eq!(
        written,
        std::fs::read(fixture("falcon-512-sk.der")).unwrap()
    );
}

#[test]
fn falcon_form_misuse_is_one_line_and_exit_2() {
    let dir = Dir::new();
    let (pk, sk) = (dir.arg("pk"), dir.arg("sk"));
    let keygen = |alg: &str, extra: &[&str]| {
        let mut args = vec!["keygen", alg, "--public-key", &pk, "--secret-key", &sk];
        args.extend_from_slice(extra);
        run(&args)
    };
    let out = keygen("falcon-512", &["--format", "pem", "--falcon-form", "pkcs1"]);
    assert_input_error(&out, &["'pkcs1'", "--falcon-form", "oqs, bc"]);
    let out = keygen("falcon-512", &["--falcon-form", "bc"]);
    assert_input_error(&out, &["--falcon-form", "--format pem"]);
    let out = keygen("ml-dsa-44", &["--format", "pem", "--falcon-form", "bc"]);
    assert_input_error(&out, &["--falcon-form", "ml-dsa-44"]);
    let out = run(&[
        "cert",
        "--alg",
        "ml-dsa-44",
        "--cert-out",
        &dir.arg("c"),
        "--key-out",
        &dir.arg("k"),
        "--falcon-form",
        "bc",
    ]);
    assert_input_error(&out, &["--falcon-form", "ml-dsa-44"]);
    assert!(dir.names().is_empty(), "{:?}", dir.names());
}
