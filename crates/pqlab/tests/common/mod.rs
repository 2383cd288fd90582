//! Helpers shared by the command-line tests: running the binary, checking exit statuses and
//! messages, temporary folders and test vectors.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use tempfile::TempDir;

pub const ALGS: [&str; 3] = ["ml-dsa-44", "ml-dsa-65", "ml-dsa-87"];
/// (public key, secret key, signature) lengths of [`ALGS`].
pub const SIZES: [(usize, usize, usize); 3] =
    [(1312, 2560, 2420), (1952, 4032, 3309), (2592, 4896, 4627)];

pub const KEMS: [&str; 3] = ["ml-kem-512", "ml-kem-768", "ml-kem-1024"];
/// (encapsulation key, expanded decapsulation key, ciphertext) lengths of [`KEMS`].
pub const KEM_SIZES: [(usize, usize, usize); 3] =
    [(800, 1632, 768), (1184, 2400, 1088), (1568, 3168, 1568)];

/// Runs pqlab with `args` and `stdin` as standard input.
pub fn run_with(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_pqlab"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    // pqlab may exit before reading its input (an error); ignore the broken pipe then.
    let _ = input.write_all(stdin);
    drop(input);
    child.wait_with_output().unwrap()
}

/// Runs pqlab with `args` and empty standard input.
pub fn run(args: &[&str]) -> Output {
    run_with(args, b"")
}

pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

pub fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Asserts success (exit status 0) and a quiet standard error.
#[track_caller]
pub fn assert_ok(out: &Output) {
    assert_eq!(out.status.code(), Some(0), "stderr: {}", stderr(out));
    assert!(out.stderr.is_empty(), "stderr: {}", stderr(out));
}

/// Asserts exit status 2, nothing on standard output, and exactly one line on standard error
/// that starts with "pqlab: error:" and contains every one of `needles`.
#[track_caller]
pub fn assert_input_error(out: &Output, needles: &[&str]) {
    let err = stderr(out);
    assert_eq!(out.status.code(), Some(2), "stderr: {err}");
    assert!(out.stdout.is_empty(), "stdout: {}", stdout(out));
    assert_eq!(err.lines().count(), 1, "not one line: {err:?}");
    assert!(err.ends_with('\n'), "{err:?}");
    assert!(err.starts_with("pqlab: error: "), "{err:?}");
    for needle in needles {
        assert!(err.contains(needle), "{err:?} lacks {needle:?}");
    }
}

/// Asserts exit status 1 and the verdict "invalid signature".
#[track_caller]
pub fn assert_invalid(out: &Output) {
    assert_eq!(out.status.code(), Some(1), "stderr: {}", stderr(out));
    assert_eq!(stdout(out), "invalid signature\n");
    assert!(out.stderr.is_empty(), "stderr: {}", stderr(out));
}

/// Asserts exit status 0 and the verdict "valid".
#[track_caller]
pub fn assert_valid(out: &Output) {
    assert_ok(out);
    assert_eq!(stdout(out), "valid\n");
}

/// A temporary folder with path helpers.
pub struct Dir(TempDir);

impl Dir {
    pub fn new() -> Self {
        Dir(tempfile::tempdir().unwrap())
    }

    pub fn path(&self, name: &str) -> PathBuf {
        self.0.path().join(name)
    }

    /// The path as a string for the command line.
    pub fn arg(&self, name: &str) -> String {
        self.path(name).to_str().unwrap().to_string()
    }

    pub fn write(&self, name: &str, data: &[u8]) -> String {
        std::fs::write(self.path(name), data).unwrap();
        self.arg(name)
    }

    pub fn read(&self, name: &str) -> Vec<u8> {
        std::fs::read(self.path(name)).unwrap()
    }

    /// The names of the files in the folder, sorted.
    pub fn names(&self) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(self.0.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    /// Generates a key pair `<prefix>pk` / `<prefix>sk` in `format`.
    pub fn keygen(
        &self,
        alg: &str,
        prefix: &str,
        format: &str,
        seed: Option<&str>,
    ) -> (String, String) {
        self.keygen_with(alg, prefix, format, seed, &[])
    }

    /// [`Dir::keygen`] with `extra` arguments on the command line.
    pub fn keygen_with(
        &self,
        alg: &str,
        prefix: &str,
        format: &str,
        seed: Option<&str>,
        extra: &[&str],
    ) -> (String, String) {
        let (pk, sk) = (
            self.arg(&format!("{prefix}pk")),
            self.arg(&format!("{prefix}sk")),
        );
        let mut args = vec![
            "keygen",
            alg,
            "--public-key",
            &pk,
            "--secret-key",
            &sk,
            "--format",
            format,
        ];
        args.extend_from_slice(extra);
        if seed.is_some() {
            args.extend(["--seed-file", "-"]);
        }
        assert_ok(&run_with(&args, seed.unwrap_or("").as_bytes()));
        (pk, sk)
    }
}

impl Dir {
    /// Runs `pqlab encaps` to `ek`, writing `<prefix>ct` and `<prefix>ss`; returns the
    /// ciphertext and the shared secret.
    pub fn encaps(&self, alg: &str, ek: &str, prefix: &str) -> (Vec<u8>, Vec<u8>) {
        let (ct, ss) = (format!("{prefix}ct"), format!("{prefix}ss"));
        let out = run(&[
            "encaps",
            alg,
            "--public-key",
            ek,
            "--ciphertext",
            &self.arg(&ct),
            "--shared-secret",
            &self.arg(&ss),
        ]);
        assert_ok(&out);
        assert!(out.stdout.is_empty());
        (self.read(&ct), self.read(&ss))
    }

    /// Runs `pqlab decaps` with `dk` on the ciphertext file `ct`; returns the shared secret.
    pub fn decaps(&self, alg: &str, dk: &str, ct: &str) -> Vec<u8> {
        let ss = self.arg("decaps-ss");
        let out = run(&[
            "decaps",
            alg,
            "--secret-key",
            dk,
            "--ciphertext",
            ct,
            "--shared-secret",
            &ss,
        ]);
        assert_ok(&out);
        assert!(out.stdout.is_empty());
        self.read("decaps-ss")
    }
}

/// A DER TLV with tag `tag` holding `content` (definite length, short or long form).
pub use pqlab_pkcs8::test_support::tlv;

/// PEM armour around `der` with `label`.
pub fn pem(label: &str, der: &[u8]) -> Vec<u8> {
    der::pem::encode_string(label, der::pem::LineEnding::LF, der)
        .unwrap()
        .into_bytes()
}

/// The DER of the AlgorithmIdentifier of ML-KEM-512/768/1024 (`level` 1, 2, 3): the OID
/// 2.16.840.1.101.3.4.4.level, parameters absent.
pub fn mlkem_alg_id(level: u8) -> Vec<u8> {
    tlv(
        0x30,
        &[
            0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x04, level,
        ],
    )
}

/// A PKCS#8 v1 PEM private key with the AlgorithmIdentifier `alg_id` and the privateKey
/// CHOICE `choice` (its DER).
pub fn pkcs8_pem(alg_id: &[u8], choice: &[u8]) -> Vec<u8> {
    let body = [&[0x02, 0x01, 0x00][..], alg_id, &tlv(0x04, choice)].concat();
    pem("PRIVATE KEY", &tlv(0x30, &body))
}

/// A SubjectPublicKeyInfo PEM public key with the AlgorithmIdentifier `alg_id`.
pub fn spki_pem(alg_id: &[u8], key: &[u8]) -> Vec<u8> {
    let bits = [&[0u8][..], key].concat();
    pem(
        "PUBLIC KEY",
        &tlv(0x30, &[alg_id, &tlv(0x03, &bits)].concat()),
    )
}

/// The vector folder, or `None` (with a message) when it is absent and CI is not set.
pub fn vectors(sub: &str) -> Option<PathBuf> {
    let base = std::env::var_os("PQLAB_VECTORS").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/vectors"),
        PathBuf::from,
    );
    let dir = base.join(sub);
    if dir.is_dir() {
        return Some(dir);
    }
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!("test vectors missing at {} (CI=true)", dir.display());
    }
    eprintln!("skipped: test vectors missing at {}", dir.display());
    None
}

pub fn json(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

pub fn unhex(v: &serde_json::Value) -> Vec<u8> {
    hex::decode(v.as_str().unwrap()).unwrap()
}

/// The DER inside a PEM file.
pub fn pem_der(pem: &[u8], label: &str) -> Vec<u8> {
    let (found, der) = der::pem::decode_vec(pem).unwrap();
    assert_eq!(found, label);
    der
}

/// `pqlab sign ALG --secret-key SK --in MSG --out SIG`.
pub fn run_sign(alg: &str, sk: &str, msg: &str, sig: &str) -> Output {
    run(&["sign", alg, "--secret-key", sk, "--in", msg, "--out", sig])
}

/// `pqlab verify ALG --public-key PK --in MSG --signature SIG`.
pub fn run_verify(alg: &str, pk: &str, msg: &str, sig: &str) -> Output {
    run(&[
        "verify",
        alg,
        "--public-key",
        pk,
        "--in",
        msg,
        "--signature",
        sig,
    ])
}
