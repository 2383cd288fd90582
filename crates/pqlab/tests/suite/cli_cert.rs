//! `pqlab cert verify` checks the issuer as a CA (basicConstraints cA, keyUsage keyCertSign),
//! tries every certificate of a `--ca` file and names the check that failed; `pqlab cert make`
//! issues HashML-DSA certificates from a HashML-DSA key and marks CA and leaf certificates;
//! pyca/cryptography reads the certificates (when installed).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common;

use common::*;

/// `pqlab cert verify` refused the chain: exit 1, `invalid: ` and every one of `needles` on
/// standard output.
fn assert_refused(out: &std::process::Output, needles: &[&str]) {
    assert_eq!(out.status.code(), Some(1), "{}", stderr(out));
    let text = stdout(out);
    assert!(text.starts_with("invalid: "), "{text}");
    for needle in needles {
        assert!(text.contains(needle), "{needle:?} in {text}");
    }
}

/// The certificates of a PEM file, as DER, in order.
fn certs(pem_text: &[u8]) -> Vec<Vec<u8>> {
    let text = String::from_utf8(pem_text.to_vec()).unwrap();
    let mut out = Vec::new();
    let mut rest = text.as_str();
    while let Some(end) = rest.find("-----END CERTIFICATE-----") {
        let block = &rest[..end + 25];
        out.push(pem_der(block.trim().as_bytes(), "CERTIFICATE"));
        rest = &rest[end + 25..];
    }
    out
}

/// PEM text of several certificates.
fn pem_chain(ders: &[&[u8]]) -> Vec<u8> {
    ders.iter().flat_map(|d| pem("CERTIFICATE", d)).collect()
}

/// `pqlab cert make` with `extra` arguments, into `prefix`-named files in `dir`: returns the
/// paths of (certificate chain, CA certificate, leaf key, CA key).
fn make(dir: &Dir, prefix: &str, extra: &[&str]) -> (String, String, String, String) {
    let files = (
        dir.arg(&format!("{prefix}c.pem")),
        dir.arg(&format!("{prefix}ca.pem")),
        dir.arg(&format!("{prefix}k.pem")),
        dir.arg(&format!("{prefix}cak.pem")),
    );
    let mut args = vec![
        "cert",
        "make",
        "--cert-out",
        &files.0,
        "--ca-out",
        &files.1,
        "--key-out",
        &files.2,
    ];
    if !extra.contains(&"--ca-key-in") {
        args.extend(["--ca-key-out", &files.3]);
    }
    args.extend_from_slice(extra);
    assert_ok(&run(&args));
    files
}

/// Replaces the one occurrence of `old` in `der` by `new` (same length).
fn patched(der: &[u8], old: &[u8], new: &[u8]) -> Vec<u8> {
    let at: Vec<usize> = (0..=der.len() - old.len())
        .filter(|&i| &der[i..i + old.len()] == old)
        .collect();
    assert_eq!(at.len(), 1, "{old:02x?} occurs {} times", at.len());
    let mut out = der.to_vec();
    out[at[0]..at[0] + new.len()].copy_from_slice(new);
    out
}

/// basicConstraints cA TRUE, as `cert make` writes it: the extension's OID, critical, the
/// OCTET STRING around SEQUENCE { BOOLEAN TRUE }.
const CA_TRUE: [u8; 14] = [
    0x06, 0x03, 0x55, 0x1d, 0x13, 0x01, 0x01, 0xff, 0x04, 0x05, 0x30, 0x03, 0x01, 0x01,
];
/// keyUsage keyCertSign: the extension's OID, critical, OCTET STRING { BIT STRING 0x04 }.
const KEY_CERT_SIGN: [u8; 13] = [
    0x06, 0x03, 0x55, 0x1d, 0x0f, 0x01, 0x01, 0xff, 0x04, 0x04, 0x03, 0x02, 0x02,
];

#[test]
fn cert_make_marks_ca_and_leaf_and_show_says_so() {
    let dir = Dir::new();
    let (chain, ca, _, _) = make(&dir, "", &["--alg", "ml-dsa-44"]);
    let ders = certs(&dir.read("c.pem"));
    assert_eq!(ders.len(), 2);
    // The CA: cA TRUE and keyCertSign; the leaf: an empty basicConstraints (cA FALSE) and
    // digitalSignature only.
    let ca_der = &certs(&dir.read("ca.pem"))[0];
    assert_eq!(ca_der, &ders[1]);
    for (der, ca_flag, usage) in [(ca_der, true, 0x04u8), (&ders[0], false, 0x80u8)] {
        let has_ca_true = der
            .windows(CA_TRUE.len() + 1)
            .any(|w| w[..CA_TRUE.len()] == CA_TRUE && w[CA_TRUE.len()] == 0xff);
        assert_eq!(has_ca_true, ca_flag);
        let mut ku = KEY_CERT_SIGN.to_vec();
        ku[12] = if usage == 0x04 { 0x02 } else { 0x07 };
        ku.push(usage);
        assert!(
            der.windows(ku.len()).any(|w| w == ku),
            "keyUsage {usage:#x}"
        );
    }
    let out = run(&["cert", "show", &chain]);
    assert_ok(&out);
    let text = stdout(&out);
    assert!(
        text.contains("CA: no (basicConstraints cA FALSE)"),
        "{text}"
    );
    assert!(
        text.contains("CA: yes (basicConstraints cA TRUE)"),
        "{text}"
    );
    assert_valid(&run(&["cert", "verify", &chain, "--ca", &ca]));
}

#[test]
fn a_leaf_used_as_a_ca_is_refused() {
    let dir = Dir::new();
    // A leaf whose subject is the name `cert make` gives its CAs: a certificate issued with
    // its key chains to it by name and signature, so only the CA checks can refuse it.
    let ca_name = "pqlab test CA (ml-dsa-44)";
    let (_, ca1, leaf1_key, _) = make(&dir, "a-", &["--alg", "ml-dsa-44", "--san", ca_name]);
    let leaf1 = certs(&dir.read("a-c.pem"))[0].clone();
    let (_, _, _, _) = make(&dir, "b-", &["--ca-key-in", &leaf1_key]);
    let leaf2 = certs(&dir.read("b-c.pem"))[0].clone();
    let ca1_der = certs(&dir.read("a-ca.pem"))[0].clone();
    // leaf2 <- leaf1 (cA FALSE) <- CA1: in the chain file, and with leaf1 in the CA file.
    let chain = dir.write("chain.pem", &pem_chain(&[&leaf2, &leaf1]));
    assert_refused(
        &run(&["cert", "verify", &chain, "--ca", &ca1]),
        &["certificate 1 of 2", "basicConstraints", "is not a CA"],
    );
    let lone = dir.write("leaf2.pem", &pem_chain(&[&leaf2]));
    let both = dir.write("both.pem", &pem_chain(&[&leaf1, &ca1_der]));
    assert_refused(
        &run(&["cert", "verify", &lone, "--ca", &both]),
        &["basicConstraints", ca_name],
    );
    // leaf1 itself is fine under CA1 (the refusal is about its use as a CA).
    let leaf1_file = dir.write("leaf1.pem", &pem_chain(&[&leaf1]));
    assert_valid(&run(&["cert", "verify", &leaf1_file, "--ca", &ca1]));
}

#[test]
fn the_ca_extensions_are_checked() {
    let dir = Dir::new();
    let (_, _, _, _) = make(&dir, "", &["--alg", "ml-dsa-44"]);
    let ders = certs(&dir.read("c.pem"));
    let (leaf, ca) = (&ders[0], &ders[1]);
    let leaf_file = dir.write("leaf.pem", &pem_chain(&[leaf]));
    let ca_file = dir.write("ca-good.pem", &pem_chain(&[ca]));
    assert_valid(&run(&["cert", "verify", &leaf_file, "--ca", &ca_file]));
    // cA TRUE -> FALSE in the CA certificate (its own signature is then broken too, but the
    // leaf's check comes first and names the extension).
    let mut not_ca = CA_TRUE.to_vec();
    not_ca.push(0xff);
    let mut flipped = not_ca.clone();
    *flipped.last_mut().unwrap() = 0x00;
    let bad = dir.write(
        "ca-not-ca.pem",
        &pem_chain(&[&patched(ca, &not_ca, &flipped)]),
    );
    assert_refused(
        &run(&["cert", "verify", &leaf_file, "--ca", &bad]),
        &["basicConstraints", "is not a CA (cA is FALSE)"],
    );
    // keyUsage keyCertSign -> digitalSignature.
    let mut usage = KEY_CERT_SIGN.to_vec();
    usage.push(0x04);
    let mut other = usage.clone();
    other[12] = 0x07;
    other[13] = 0x80;
    let bad = dir.write(
        "ca-no-certsign.pem",
        &pem_chain(&[&patched(ca, &usage, &other)]),
    );
    assert_refused(
        &run(&["cert", "verify", &leaf_file, "--ca", &bad]),
        &["keyUsage", "no keyCertSign"],
    );
}

#[test]
fn every_certificate_of_the_ca_file_is_tried() {
    let dir = Dir::new();
    let (_, ca_a, _, _) = make(&dir, "a-", &["--alg", "ml-dsa-44"]);
    let (_, ca_b, _, _) = make(&dir, "b-", &["--alg", "falcon-512"]);
    let (_, ca_c, _, _) = make(&dir, "c-", &["--alg", "ml-dsa-44"]);
    let a = certs(&dir.read("a-ca.pem"))[0].clone();
    let b = certs(&dir.read("b-ca.pem"))[0].clone();
    let c = certs(&dir.read("c-ca.pem"))[0].clone();
    let leaf_b = dir.write("leaf-b.pem", &pem_chain(&[&certs(&dir.read("b-c.pem"))[0]]));
    let leaf_c = dir.write("leaf-c.pem", &pem_chain(&[&certs(&dir.read("c-c.pem"))[0]]));
    // B's leaf with B second (and third) in the CA file.
    let ab = dir.write("ab.pem", &pem_chain(&[&a, &b]));
    assert_valid(&run(&["cert", "verify", &leaf_b, "--ca", &ab]));
    let acb = dir.write("acb.pem", &pem_chain(&[&a, &c, &b]));
    assert_valid(&run(&["cert", "verify", &leaf_b, "--ca", &acb]));
    assert_valid(&run(&["cert", "verify", &leaf_c, "--ca", &acb]));
    // A and C have the same name and algorithm: C's leaf with A alone fails the signature.
    assert_refused(
        &run(&["cert", "verify", &leaf_c, "--ca", &ca_a]),
        &[
            "certificate 1 of 1",
            "signature: the signature does not verify",
        ],
    );
    // B's leaf with A alone: no certificate of the CA file has its issuer's name.
    assert_refused(
        &run(&["cert", "verify", &leaf_b, "--ca", &ca_a]),
        &["issuer name: no certificate of the CA file issued it"],
    );
    assert_valid(&run(&["cert", "verify", &leaf_b, "--ca", &ca_b]));
    assert_valid(&run(&["cert", "verify", &leaf_c, "--ca", &ca_c]));
}

#[test]
fn hash_ml_dsa_certificates() {
    let dir = Dir::new();
    let seed = [0x5au8; 32];
    // An ML-DSA-65 key under the HashML-DSA OID (2.16.840.1.101.3.4.3.33), seed form.
    let oid = der::asn1::ObjectIdentifier::new("2.16.840.1.101.3.4.3.33").unwrap();
    let alg_id = tlv(0x30, &tlv(0x06, oid.as_bytes()));
    let hash_key = dir.write("hash.pem", &pkcs8_pem(&alg_id, &tlv(0x80, &seed)));
    let (chain, ca, _, _) = make(&dir, "", &["--ca-key-in", &hash_key, "--alg", "ml-dsa-44"]);
    let out = run(&["cert", "show", &chain]);
    assert_ok(&out);
    let text = stdout(&out);
    assert!(
        text.contains(
            "signature algorithm: hash-ml-dsa-65 with sha2-512 (2.16.840.1.101.3.4.3.33)"
        ),
        "{text}"
    );
    assert!(text.contains("CN=pqlab test CA (hash-ml-dsa-65)"), "{text}");
    assert_valid(&run(&["cert", "verify", &chain, "--ca", &ca]));
    assert_valid(&run(&["cert", "verify", &ca]));
    // The leaf's signature is HashML-DSA's: relabelled as pure ML-DSA-65 (.18) it does not
    // verify; a flipped signature bit does not either.
    let ders = certs(&dir.read("c.pem"));
    let leaf = &ders[0];
    let hash_alg = tlv(0x30, &tlv(0x06, oid.as_bytes()));
    let pure_oid = der::asn1::ObjectIdentifier::new("2.16.840.1.101.3.4.3.18").unwrap();
    let pure_alg = tlv(0x30, &tlv(0x06, pure_oid.as_bytes()));
    let mut relabelled = leaf.clone();
    let mut count = 0;
    let mut i = 0;
    while i + hash_alg.len() <= relabelled.len() {
        if relabelled[i..i + hash_alg.len()] == hash_alg[..] {
            relabelled[i..i + pure_alg.len()].copy_from_slice(&pure_alg);
            count += 1;
        }
        i += 1;
    }
    assert_eq!(count, 2, "the inner and the outer signature algorithm");
    let relabelled = dir.write("relabelled.pem", &pem_chain(&[&relabelled]));
    assert_refused(
        &run(&["cert", "verify", &relabelled, "--ca", &ca]),
        &["signature"],
    );
    let mut flipped = leaf.clone();
    let last = flipped.len() - 7;
    flipped[last] ^= 0x10;
    let flipped = dir.write("flipped.pem", &pem_chain(&[&flipped]));
    assert_refused(
        &run(&["cert", "verify", &flipped, "--ca", &ca]),
        &["signature: the signature does not verify"],
    );
    // The CA key file signs with SHA-512 pre-hash in `pqlab sign` too (the same key).
    let msg = dir.write("msg", b"m");
    let sig = dir.arg("sig");
    assert_ok(&run(&[
        "sign",
        "ml-dsa-65",
        "--secret-key",
        &hash_key,
        "--in",
        &msg,
        "--out",
        &sig,
    ]));
}

/// pyca/cryptography (48, OpenSSL back end) parses our ML-DSA certificates (names, key,
/// basicConstraints, keyUsage) and its ML-DSA verifies their signatures with the CA's key
/// (its `verify_directly_issued_by` has no ML-DSA); skipped where it is not installed.
#[test]
fn pyca_cryptography_reads_and_verifies_ml_dsa_certificates() {
    let probe = std::process::Command::new("python3")
        .args([
            "-c",
            "from cryptography import x509; from cryptography.hazmat.primitives.asymmetric import mldsa",
        ])
        .output();
    if !probe.is_ok_and(|o| o.status.success()) {
        eprintln!("skipped: python3 with cryptography (ML-DSA) is not installed");
        return;
    }
    let dir = Dir::new();
    let (chain, _, _, _) = make(&dir, "", &["--alg", "ml-dsa-65"]);
    let script = r#"
import sys
from cryptography import x509
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric import mldsa
leaf, ca = x509.load_pem_x509_certificates(open(sys.argv[1], "rb").read())
assert isinstance(ca.public_key(), mldsa.MLDSA65PublicKey), type(ca.public_key())
bc = ca.extensions.get_extension_for_class(x509.BasicConstraints).value
assert bc.ca is True
assert leaf.extensions.get_extension_for_class(x509.BasicConstraints).value.ca is False
assert ca.extensions.get_extension_for_class(x509.KeyUsage).value.key_cert_sign
assert leaf.issuer == ca.subject
assert leaf.signature_algorithm_oid.dotted_string == "2.16.840.1.101.3.4.3.18"
# cryptography 48's verify_directly_issued_by takes RSA, DSA, EC and EdDSA issuers only:
# the CA's ML-DSA key checks the signatures over the TBSCertificate (empty context).
ca.public_key().verify(leaf.signature, leaf.tbs_certificate_bytes)
ca.public_key().verify(ca.signature, ca.tbs_certificate_bytes)
try:
    leaf.public_key().verify(ca.signature, ca.tbs_certificate_bytes)
except InvalidSignature:
    pass
else:
    raise SystemExit("the leaf's key verified the CA's signature")
print("python: ok")
"#;
    let out = std::process::Command::new("python3")
        .args(["-c", script, &chain])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("python: ok"));
}
