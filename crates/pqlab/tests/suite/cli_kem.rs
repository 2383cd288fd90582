//! End-to-end tests of the `pqlab` binary with ML-KEM (FIPS 203): key generation,
//! encapsulation and decapsulation through files, in raw and PEM formats, checked against the
//! library, the published test vectors and the byte layout of the IETF LAMPS formats.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common;

use common::*;
use pqlab_keccak::Shake256;
use pqlab_mlkem::{Ciphertext, DecapsulationKey, MlKem768};

/// FIPS 203, J(s) = SHAKE256(s, 8 * 32): the implicit-rejection secret J(z || c).
fn implicit_rejection(dk: &[u8], c: &[u8]) -> Vec<u8> {
    let z = &dk[dk.len() - 32..];
    let mut out = [0u8; 32];
    Shake256::digest_parts(&[z, c], &mut out);
    out.to_vec()
}

/// Reads a CCTV `name = hex` file into (name, bytes) pairs.
fn cctv_fields(path: &std::path::Path) -> Vec<(String, Vec<u8>)> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter_map(|l| l.split_once(" = "))
        .map(|(k, v)| (k.trim().to_string(), hex::decode(v.trim()).unwrap()))
        .collect()
}

fn field<'a>(fields: &'a [(String, Vec<u8>)], name: &str) -> &'a [u8] {
    &fields.iter().find(|(k, _)| k == name).unwrap().1
}

#[cfg(unix)]
fn assert_owner_only(path: &str) {
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(path).unwrap().permissions().mode();
    assert_eq!(mode & 0o077, 0, "{path} readable by others: {mode:o}");
}

#[cfg(not(unix))]
fn assert_owner_only(_: &str) {}

#[test]
fn list_shows_the_ml_kem_sizes() {
    let out = run(&["list"]);
    assert_ok(&out);
    let text = stdout(&out);
    for (alg, (ek, dk, ct)) in KEMS.iter().zip(KEM_SIZES) {
        let line = text
            .lines()
            .find(|l| l.starts_with(&format!("{alg} ")))
            .unwrap();
        let words: Vec<&str> = line.split_whitespace().collect();
        let (ek, dk, ct) = (ek.to_string(), dk.to_string(), ct.to_string());
        assert_eq!(words, [*alg, "FIPS", "203", "KEM", &ek, &dk, "-", &ct]);
    }
}

#[test]
fn round_trip_for_every_level_and_format() {
    let dir = Dir::new();
    for (level, (alg, (ek_len, dk_len, ct_len))) in KEMS.iter().zip(KEM_SIZES).enumerate() {
        for format in ["raw", "pem"] {
            let prefix = format!("{alg}-{format}-");
            let (ek, dk) = dir.keygen(alg, &prefix, format, None);
            let (ek_data, dk_data) = (
                dir.read(&format!("{prefix}pk")),
                dir.read(&format!("{prefix}sk")),
            );
            if format == "raw" {
                assert_eq!((ek_data.len(), dk_data.len()), (ek_len, dk_len));
            } else {
                assert!(ek_data.starts_with(b"-----BEGIN PUBLIC KEY-----\n"));
                assert!(dk_data.starts_with(b"-----BEGIN PRIVATE KEY-----\n"));
                // Seed form: 22-byte header ending in [0] 64, then d || z.
                let der = pem_der(&dk_data, "PRIVATE KEY");
                assert_eq!(der.len(), 86);
                assert_eq!(der[17], level as u8 + 1, "OID 2.16.840.1.101.3.4.4.x");
                assert_eq!(der[18..22], [0x04, 0x42, 0x80, 0x40]);
                let spki = pem_der(&ek_data, "PUBLIC KEY");
                assert!(spki.ends_with(&encapsulation_key_of(&dir, alg, &dk)));
            }
            assert_owner_only(&dk);
            let (ct, ss) = dir.encaps(alg, &ek, &prefix);
            assert_eq!((ct.len(), ss.len()), (ct_len, 32));
            assert_owner_only(&dir.arg(&format!("{prefix}ss")));
            let again = dir.decaps(alg, &dk, &dir.arg(&format!("{prefix}ct")));
            assert_eq!(again, ss, "{alg} {format}: decaps(encaps) differs");
            assert_owner_only(&dir.arg("decaps-ss"));
            // Upper-case names work too.
            let upper = alg.to_ascii_uppercase();
            let again = dir.decaps(&upper, &dk, &dir.arg(&format!("{prefix}ct")));
            assert_eq!(again, ss);
            // Fresh randomness: a second encapsulation differs.
            let (ct2, ss2) = dir.encaps(alg, &ek, &format!("{prefix}2-"));
            assert_ne!((ct2, ss2), (ct, ss));
        }
    }
    assert!(
        dir.names().iter().all(|n| !n.starts_with(".pqlab-")),
        "{:?}",
        dir.names()
    );
}

/// The raw encapsulation key of the key pair whose decapsulation key file is `dk`, by way of a
/// raw key generation from the same seed (PEM files hold the seed).
fn encapsulation_key_of(dir: &Dir, alg: &str, dk: &str) -> Vec<u8> {
    let der = pem_der(&std::fs::read(dk).unwrap(), "PRIVATE KEY");
    let seed = hex::encode(&der[22..]);
    let prefix = format!("{alg}-from-seed-");
    dir.keygen(alg, &prefix, "raw", Some(&seed));
    dir.read(&format!("{prefix}pk"))
}

#[test]
fn seed_reproduces_the_acvp_keygen_vectors() {
    let Some(dir) = vectors("acvp/ML-KEM-keyGen-FIPS203") else {
        return;
    };
    let prompt = json(&dir.join("prompt.json"));
    let expected = json(&dir.join("expectedResults.json"));
    let tmp = Dir::new();
    for alg in KEMS {
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
        // The seed-form key is d || z.
        let seed = format!(
            "{}{}",
            test["d"].as_str().unwrap(),
            test["z"].as_str().unwrap()
        );
        let (ek, dk) = tmp.keygen(alg, alg, "raw", Some(&seed));
        assert_eq!(
            tmp.read(&format!("{alg}pk")),
            unhex(&result["ek"]),
            "{alg} ek"
        );
        assert_eq!(
            tmp.read(&format!("{alg}sk")),
            unhex(&result["dk"]),
            "{alg} dk"
        );

        // The PEM key from the same seed holds d || z and works with the raw keys.
        let (_, dk_pem) = tmp.keygen(alg, &format!("{alg}-pem-"), "pem", Some(&seed));
        let der = pem_der(&tmp.read(&format!("{alg}-pem-sk")), "PRIVATE KEY");
        assert_eq!(der[22..], hex::decode(&seed).unwrap()[..]);
        let (_, ss) = tmp.encaps(alg, &ek, alg);
        let ct = tmp.arg(&format!("{alg}ct"));
        assert_eq!(tmp.decaps(alg, &dk_pem, &ct), ss);
        assert_eq!(tmp.decaps(alg, &dk, &ct), ss);
    }
}

#[test]
fn pem_has_the_layout_of_the_lamps_draft() {
    // draft-ietf-lamps-kyber-certificates: seed form 30 54 02 01 00 30 0b 06 09 60 86 48 01
    // 65 03 04 04 02 04 42 80 40 <d || z> for ML-KEM-768; SPKI with the raw ek in the BIT
    // STRING. No reference DER for ML-KEM exists in the vector collection, so the layout is
    // spelled out here (it was also checked by hand against the Python `cryptography` 48
    // package, which reads and writes the same bytes).
    let dir = Dir::new();
    let seed: Vec<u8> = (0u8..64).collect();
    dir.keygen("ml-kem-768", "", "pem", Some(&hex::encode(&seed)));
    let der = pem_der(&dir.read("sk"), "PRIVATE KEY");
    let mut expected = hex::decode("3054020100300b060960864801650304040204428040").unwrap();
    expected.extend_from_slice(&seed);
    assert_eq!(der, expected);

    dir.keygen("ml-kem-768", "raw-", "raw", Some(&hex::encode(&seed)));
    let raw_ek = dir.read("raw-pk");
    let spki = pem_der(&dir.read("pk"), "PUBLIC KEY");
    let mut expected = hex::decode("308204b2300b0609608648016503040402038204a100").unwrap();
    expected.extend_from_slice(&raw_ek);
    assert_eq!(spki, expected);
    // The hand-built SPKI of the test helpers is the same.
    assert_eq!(spki_pem(&mlkem_alg_id(2), &raw_ek), dir.read("pk"));
    assert_eq!(
        pkcs8_pem(&mlkem_alg_id(2), &tlv(0x80, &seed)),
        dir.read("sk")
    );

    // ML-KEM-512 and ML-KEM-1024 differ only in the last OID arc.
    for (alg, arc) in [("ml-kem-512", 1u8), ("ml-kem-1024", 3)] {
        dir.keygen(alg, alg, "pem", Some(&hex::encode(&seed)));
        let der = pem_der(&dir.read(&format!("{alg}sk")), "PRIVATE KEY");
        let mut expected = hex::decode("3054020100300b060960864801650304040004428040").unwrap();
        expected[17] = arc;
        expected.extend_from_slice(&seed);
        assert_eq!(der, expected, "{alg}");
    }
}

#[test]
fn all_three_private_key_forms_are_read() {
    let dir = Dir::new();
    let seed = [0x17u8; 64];
    let (ek, dk_raw) = dir.keygen("ml-kem-1024", "", "raw", Some(&hex::encode(seed)));
    let expanded = dir.read("sk");
    let (_, ss) = dir.encaps("ml-kem-1024", &ek, "");
    let ct = dir.arg("ct");
    let id = mlkem_alg_id(3);
    let forms = [
        ("seed", tlv(0x80, &seed)),
        ("expanded", tlv(0x04, &expanded)),
        (
            "both",
            tlv(0x30, &[tlv(0x04, &seed), tlv(0x04, &expanded)].concat()),
        ),
    ];
    for (name, choice) in &forms {
        let file = dir.write(&format!("{name}.pem"), &pkcs8_pem(&id, choice));
        assert_eq!(dir.decaps("ml-kem-1024", &file, &ct), ss, "{name} form");
    }
    assert_eq!(dir.decaps("ml-kem-1024", &dk_raw, &ct), ss);
    // An encapsulation key in SPKI built by hand.
    let ek_pem = dir.write("ek.pem", &spki_pem(&id, &dir.read("pk")));
    let (_, ss2) = dir.encaps("ml-kem-1024", &ek_pem, "pem-");
    assert_eq!(dir.decaps("ml-kem-1024", &dk_raw, &dir.arg("pem-ct")), ss2);
}

#[test]
fn secrets_equal_the_librarys() {
    let dir = Dir::new();
    let (ek, dk) = dir.keygen("ml-kem-768", "", "raw", None);
    let (ct, ss) = dir.encaps("ml-kem-768", &ek, "");
    let key = DecapsulationKey::<MlKem768>::from_expanded(&dir.read("sk")).unwrap();
    assert_eq!(key.encapsulation_key().as_bytes(), &dir.read("pk")[..]);
    let lib = key.decapsulate(&Ciphertext::<MlKem768>::from_bytes(&ct).unwrap());
    assert_eq!(lib.as_bytes()[..], ss[..]);
    assert_eq!(dir.decaps("ml-kem-768", &dk, &dir.arg("ct")), ss);
}

#[test]
fn modified_ciphertext_gives_the_implicit_rejection_secret() {
    let dir = Dir::new();
    for alg in KEMS {
        let (ek, dk) = dir.keygen(alg, alg, "raw", None);
        let (mut ct, ss) = dir.encaps(alg, &ek, alg);
        let last = ct.len() - 1;
        ct[last] ^= 0x01;
        let bad = dir.write(&format!("{alg}bad-ct"), &ct);
        let rejected = dir.decaps(alg, &dk, &bad);
        assert_ne!(rejected, ss, "{alg}");
        assert_eq!(
            rejected,
            implicit_rejection(&dir.read(&format!("{alg}sk")), &ct),
            "{alg}: not J(z || c)"
        );
        // And it is the library's value.
        if alg == "ml-kem-768" {
            let key = DecapsulationKey::<MlKem768>::from_expanded(&dir.read(&format!("{alg}sk")))
                .unwrap();
            let lib = key.decapsulate(&Ciphertext::<MlKem768>::from_bytes(&ct).unwrap());
            assert_eq!(lib.as_bytes()[..], rejected[..]);
        }
    }
}

#[test]
fn cctv_strcmp_vectors_decapsulate_to_k() {
    let Some(dir) = vectors("cctv/ML-KEM/strcmp") else {
        return;
    };
    let tmp = Dir::new();
    for alg in KEMS {
        let fields = cctv_fields(&dir.join(format!("{}.txt", alg.to_ascii_uppercase())));
        let (dk, c, k) = (
            field(&fields, "dk"),
            field(&fields, "c"),
            field(&fields, "K"),
        );
        let dk_file = tmp.write(&format!("{alg}-dk"), dk);
        let ct_file = tmp.write(&format!("{alg}-ct"), c);
        let got = tmp.decaps(alg, &dk_file, &ct_file);
        assert_eq!(got, k, "{alg}");
        // K is the implicit-rejection secret here.
        assert_eq!(got, implicit_rejection(dk, c), "{alg}");
        // The same dk inside PKCS#8 (expanded form).
        let level = KEMS.iter().position(|a| *a == alg).unwrap() as u8 + 1;
        let pem_file = tmp.write(
            &format!("{alg}-dk.pem"),
            &pkcs8_pem(&mlkem_alg_id(level), &tlv(0x04, dk)),
        );
        assert_eq!(tmp.decaps(alg, &pem_file, &ct_file), k, "{alg} PEM");
    }
}
