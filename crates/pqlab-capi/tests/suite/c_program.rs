//! Compiles the C test program `tests/c/kat.c` with gcc against the static library that cargo
//! built for this test (`libpqlab_capi.a` beside the test binary) and runs it: round trips,
//! rejections and known answers of every parameter set through the C API (see the program's
//! comment). The Falcon KAT records' randomness comes from NIST's CTR_DRBG, replayed here
//! (`pqlab_testutil::drbg`) and handed to the program as a small text file. Also links the
//! program against the shared library and runs its round trips, and checks that the program
//! fails on a wrong known answer. Skips (with a message) only when gcc is absent.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use pqlab_testutil::drbg::NistDrbg;
use pqlab_testutil::vectors::{load_text, to_hex, unhex_array, vectors_dir};

/// The Falcon KAT records whose key pair and signed message are reproduced through the
/// `_derand` entry points, per file.
const FALCON_RECORDS: usize = 3;

/// The folder holding the library files cargo built with this test: the test binary lives in
/// `<target>/<profile>/deps`, with `libpqlab_capi.a` and `.so`.
fn lib_dir() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let deps = exe.parent().unwrap();
    for dir in [deps, deps.parent().unwrap()] {
        if dir.join("libpqlab_capi.a").is_file() {
            return dir.to_path_buf();
        }
    }
    panic!("libpqlab_capi.a not found beside {}", exe.display());
}

fn gcc_present() -> bool {
    Command::new("gcc").arg("--version").output().is_ok()
}

/// Compiles kat.c with the given library arguments into `out`.
fn compile(out: &Path, libs: &[&str]) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let status = Command::new("gcc")
        .args(["-std=c99", "-O1", "-Wall", "-Wextra", "-Werror", "-I"])
        .arg(root.join("include"))
        .arg(root.join("tests/c/kat.c"))
        .args(libs)
        .arg("-o")
        .arg(out)
        .status()
        .expect("gcc runs");
    assert!(status.success(), "gcc failed to compile tests/c/kat.c");
}

/// Writes the DRBG file: per Falcon KAT record "N COUNT KEYSEED NONCE SIGNSEED", the 48, 40
/// and 48 bytes that the reference draws from the DRBG seeded with the record's `seed` (key
/// generation first, then the signature's nonce and sampler seed).
fn write_drbg_file(dir: &Path, path: &Path, corrupt: bool) {
    let mut lines = String::new();
    for (n, file) in [
        (512, "falcon-kat/falcon512-KAT.rsp"),
        (1024, "falcon-kat/falcon1024-KAT.rsp"),
    ] {
        let text = load_text(dir, file);
        let seeds = text.lines().filter_map(|l| l.strip_prefix("seed = "));
        for (count, seed) in seeds.take(FALCON_RECORDS).enumerate() {
            let mut drbg = NistDrbg::new(&unhex_array::<48>(seed));
            let (mut key_seed, mut nonce, mut sign_seed) = ([0u8; 48], [0u8; 40], [0u8; 48]);
            drbg.fill(&mut key_seed);
            drbg.fill(&mut nonce);
            drbg.fill(&mut sign_seed);
            if corrupt && count == 1 {
                nonce[0] ^= 1;
            }
            lines.push_str(&format!(
                "{n} {count} {} {} {}\n",
                to_hex(&key_seed),
                to_hex(&nonce),
                to_hex(&sign_seed)
            ));
        }
    }
    std::fs::write(path, lines).unwrap();
}

fn run(cmd: &mut Command) -> Output {
    let out = cmd.output().expect("the compiled program runs");
    print!("{}", String::from_utf8_lossy(&out.stdout));
    eprint!("{}", String::from_utf8_lossy(&out.stderr));
    out
}

#[test]
fn c_program_runs_the_kat_flow() {
    if !gcc_present() {
        println!("skipped: gcc not found (the C test program needs gcc)");
        return;
    }
    let lib = lib_dir();
    let tmp = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("pqlab-capi-c");
    std::fs::create_dir_all(&tmp).unwrap();

    // Static library.
    let exe = tmp.join("kat-static");
    let a = lib.join("libpqlab_capi.a");
    compile(&exe, &[a.to_str().unwrap(), "-lpthread", "-ldl", "-lm"]);
    let vectors = vectors_dir();
    let mut cmd = Command::new(&exe);
    let drbg = tmp.join("falcon-drbg.txt");
    if let Some(dir) = &vectors {
        write_drbg_file(dir, &drbg, false);
        cmd.arg(dir).arg(&drbg);
    }
    let out = run(&mut cmd);
    assert!(out.status.success(), "the C test program failed");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains(" 0 failed"));
    assert_eq!(stdout.matches("round trips and rejections: ok").count(), 8);
    if vectors.is_some() {
        for want in [
            "3/3 records",
            "100/100 opened",
            "3/3 keypair_derand + sign_derand",
            "strcmp) 5/5",
        ] {
            assert!(stdout.contains(want), "missing `{want}` in the output");
        }
        assert_eq!(stdout.matches("3/3 records").count(), 6);
        assert_eq!(
            stdout.matches("3/3 keypair_derand + sign_derand").count(),
            2
        );
        assert_eq!(stdout.matches("strcmp) 5/5").count(), 3);
    }

    // A wrong known answer (one nonce bit of one Falcon record) must fail the program.
    if let Some(dir) = &vectors {
        let bad = tmp.join("falcon-drbg-bad.txt");
        write_drbg_file(dir, &bad, true);
        let out = run(Command::new(&exe).arg(dir).arg(&bad));
        assert_eq!(
            out.status.code(),
            Some(1),
            "a wrong known answer was not detected"
        );
    }

    // Shared library: the round trips.
    let exe = tmp.join("kat-shared");
    let libdir = format!("-L{}", lib.display());
    compile(&exe, &[&libdir, "-lpqlab_capi"]);
    let out = run(Command::new(&exe).env("LD_LIBRARY_PATH", &lib));
    assert!(out.status.success(), "the C test program (shared) failed");
}
