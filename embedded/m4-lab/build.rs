//! Build script of the M4 lab firmware:
//!
//! * sets up the link of the shared runtime (`../m4-rt/link.rs`: its `link.x`, and `memory.x`
//!   with 128 KiB of SRAM, or QEMU's 192 KiB with `emulator-ram`);
//! * picks the one parameter set of this image from the cargo features and writes
//!   `$OUT_DIR/fixtures.rs`: `FIXTURES` key pairs, messages, signatures or ciphertexts made on
//!   the host by pqlab's own crates (the inputs of sign / verify / encaps / decaps, placed in the
//!   `.fixtures` section so that they do not count as the scheme's flash);
//! * with the `pqclean` feature, compiles PQClean's portable ("clean") C code of that parameter
//!   set with `arm-none-eabi-gcc -O2 -mcpu=cortex-m4 -mthumb -mfloat-abi=hard
//!   -mfpu=fpv4-sp-d16`, from the sources that cargo downloaded with the `pqcrypto-*` crates
//!   of the pqlab workspace (found through `cargo metadata`: the versions pinned in the
//!   workspace's Cargo.lock; nothing is copied into the repository).

use std::env;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

include!("../m4-rt/link.rs");

/// Key pairs (and their signatures or ciphertexts) in an image.
const FIXTURES: usize = 4;

/// The parameter sets: (feature, C namespace, pqcrypto crate, folder under `pqclean/`).
const ALGS: [(&str, &str, &str, &str); 8] = [
    (
        "ml-dsa-44",
        "MLDSA44",
        "pqcrypto-mldsa",
        "crypto_sign/ml-dsa-44",
    ),
    (
        "ml-dsa-65",
        "MLDSA65",
        "pqcrypto-mldsa",
        "crypto_sign/ml-dsa-65",
    ),
    (
        "ml-dsa-87",
        "MLDSA87",
        "pqcrypto-mldsa",
        "crypto_sign/ml-dsa-87",
    ),
    (
        "ml-kem-512",
        "MLKEM512",
        "pqcrypto-mlkem",
        "crypto_kem/ml-kem-512",
    ),
    (
        "ml-kem-768",
        "MLKEM768",
        "pqcrypto-mlkem",
        "crypto_kem/ml-kem-768",
    ),
    (
        "ml-kem-1024",
        "MLKEM1024",
        "pqcrypto-mlkem",
        "crypto_kem/ml-kem-1024",
    ),
    (
        "falcon-512",
        "FALCON512",
        "pqcrypto-falcon",
        "crypto_sign/falcon-512",
    ),
    (
        "falcon-1024",
        "FALCON1024",
        "pqcrypto-falcon",
        "crypto_sign/falcon-1024",
    ),
];

fn feature(name: &str) -> bool {
    let var = format!(
        "CARGO_FEATURE_{}",
        name.to_ascii_uppercase().replace('-', "_")
    );
    env::var_os(var).is_some()
}

/// The 32-byte message of fixture `k` (the device signs fresh messages of its own).
fn message(k: usize) -> [u8; 32] {
    core::array::from_fn(|j| (k * 37 + j * 11 + 5) as u8)
}

/// A seed of `N` bytes for fixture `k` and purpose `tag`.
fn seed<const N: usize>(k: usize, tag: u8) -> [u8; N] {
    core::array::from_fn(|j| (k as u8).wrapping_mul(101) ^ tag ^ (j as u8).wrapping_mul(29))
}

/// `static NAME: [[u8; len]; FIXTURES]` in the `.fixtures` section.
fn table(out: &mut String, name: &str, rows: &[Vec<u8>]) {
    let len = rows[0].len();
    assert!(
        rows.iter().all(|r| r.len() == len),
        "{name}: rows of one length"
    );
    let _ = writeln!(out, "pub const {name}_LEN: usize = {len};");
    let _ = writeln!(
        out,
        "#[unsafe(link_section = \".fixtures\")]\npub static {name}: [[u8; {len}]; {}] = [",
        rows.len()
    );
    for r in rows {
        out.push('[');
        for b in r {
            let _ = write!(out, "{b},");
        }
        out.push_str("],\n");
    }
    out.push_str("];\n");
}

fn mldsa<P: pqlab_mldsa::ParameterSet>(out: &mut String) {
    let (mut pk, mut sk, mut msg, mut sig) = (vec![], vec![], vec![], vec![]);
    for k in 0..FIXTURES {
        let (p, s) = pqlab_mldsa::SigningKey::<P>::encoded_pair_from_seed(&seed(k, 1));
        let m = message(k);
        let g = s.sign_with_rnd(&m, &[], &seed(k, 2)).expect("ML-DSA sign");
        pk.push(p.as_ref().to_vec());
        sk.push(s.to_expanded().as_ref().to_vec());
        msg.push(m.to_vec());
        sig.push(g.as_bytes().to_vec());
    }
    for (name, rows) in [("PK", pk), ("SK", sk), ("MSG", msg), ("SIG", sig)] {
        table(out, name, &rows);
    }
}

fn mlkem<P: pqlab_mlkem::ParameterSet>(out: &mut String) {
    let (mut ek, mut dk, mut ct, mut ss) = (vec![], vec![], vec![], vec![]);
    let mut msg = vec![];
    for k in 0..FIXTURES {
        let d = pqlab_mlkem::DecapsulationKey::<P>::from_seed(&seed(k, 3), &seed(k, 4));
        let (c, s) = d.encapsulation_key().encapsulate_deterministic(&seed(k, 5));
        msg.push(seed::<32>(k, 5).to_vec());
        ek.push(d.encapsulation_key().as_bytes().to_vec());
        dk.push(d.to_expanded().as_ref().to_vec());
        ct.push(c.as_bytes().to_vec());
        ss.push(s.as_bytes().to_vec());
    }
    // ENC_M: the message each fixture ciphertext encapsulates (encaps's known answer).
    for (name, rows) in [
        ("EK", ek),
        ("DK", dk),
        ("CT", ct),
        ("SS", ss),
        ("ENC_M", msg),
    ] {
        table(out, name, &rows);
    }
}

fn falcon<const N: usize>(out: &mut String) {
    let (mut pk, mut sk, mut msg, mut sig) = (vec![], vec![], vec![], vec![]);
    let mut lens = Vec::new();
    for k in 0..FIXTURES {
        let s = pqlab_falcon::SigningKey::<N>::generate_from_seed(&seed(k, 6));
        let m = message(k);
        let g = s.sign_with_seed(&m, &seed(k, 7), &seed(k, 8));
        let mut b = vec![0u8; 2305];
        let l = s.encode(&mut b).expect("Falcon sk");
        sk.push(b[..l].to_vec());
        let l = s.verifying_key().encode(&mut b).expect("Falcon pk");
        pk.push(b[..l].to_vec());
        msg.push(m.to_vec());
        // Signatures vary in length: each row is padded to the bound, its length in SIG_LEN.
        let l = g.encode(&mut b).expect("Falcon sig");
        let mut row = b[..l].to_vec();
        row.resize(pqlab_falcon::Signature::<N>::MAX_LEN, 0);
        sig.push(row);
        lens.push(l.to_string());
    }
    let _ = writeln!(
        out,
        "pub static SIG_USED: [usize; {FIXTURES}] = [{}];",
        lens.join(",")
    );
    for (name, rows) in [("PK", pk), ("SK", sk), ("MSG", msg), ("SIG", sig)] {
        table(out, name, &rows);
    }
}

/// The reduction-strategy image's fixtures (`src/reductions.rs`): the operation list
/// `MODULE.KIND.STRATEGY` and, per scheme of a whole operation, its fixtures in a module of its
/// own (`falcon512`, `falcon1024`, `mldsa65`, `mlkem768`).
fn reductions(out: &mut String) {
    const MODULES: [(&str, &[&str]); 6] = [
        ("falcon-512-verify", &["ntt", "intt", "op"]),
        ("falcon-1024-verify", &["ntt", "intt", "op"]),
        ("falcon-512-keygen", &["ntt", "intt"]),
        ("falcon-1024-keygen", &["ntt", "intt"]),
        ("ml-dsa-65", &["ntt", "intt", "op"]),
        ("ml-kem-768", &["ntt", "intt", "op"]),
    ];
    const STRATEGIES: [&str; 4] = ["montgomery", "barrett", "k2-red", "plain-%"];
    let _ = writeln!(out, "pub const ALG: &str = \"reductions\";");
    let _ = writeln!(out, "pub const COUNT: usize = {FIXTURES};");
    out.push_str("pub const OPS: &[&str] = &[\n");
    for (module, kinds) in MODULES {
        for kind in kinds {
            for s in STRATEGIES {
                let _ = writeln!(out, "    \"{module}.{kind}.{s}\",");
            }
        }
    }
    out.push_str("];\n");
    for (name, make) in [
        ("falcon512", falcon::<512> as fn(&mut String)),
        ("falcon1024", falcon::<1024>),
        ("mldsa65", mldsa::<pqlab_mldsa::MlDsa65>),
        ("mlkem768", mlkem::<pqlab_mlkem::MlKem768>),
    ] {
        let _ = writeln!(out, "pub mod {name} {{");
        make(out);
        out.push_str("}\n");
    }
}

/// The folder of package `name`'s Cargo.toml, from `cargo metadata` of the pqlab workspace.
fn package_dir(metadata: &str, name: &str) -> PathBuf {
    let needle = format!("/{name}-");
    for chunk in metadata.split("\"manifest_path\":\"").skip(1) {
        let path = &chunk[..chunk.find('"').expect("manifest_path string")];
        if let Some(at) = path.rfind(&needle) {
            let rest = &path[at + needle.len()..];
            // `pqcrypto-mldsa-0.1.2/Cargo.toml`, not `pqcrypto-mldsa-foo-1.0/...`.
            if rest.starts_with(|c: char| c.is_ascii_digit()) && rest.ends_with("/Cargo.toml") {
                return Path::new(path)
                    .parent()
                    .expect("crate folder")
                    .to_path_buf();
            }
        }
    }
    panic!(
        "m4-lab: {name} not found by `cargo metadata` of the pqlab workspace (run `cargo fetch` \
         there first)"
    );
}

/// The optimisations turned off for PQClean Falcon's `keygen.c` (see `build_pqclean`).
const FALCON_KEYGEN_GCC12_FLAGS: &[&str] = &[
    "-fno-tree-ccp",
    "-fno-tree-ch",
    "-fno-tree-copy-prop",
    "-fno-tree-dce",
    "-fno-tree-dominator-opts",
    "-fno-tree-dse",
    "-fno-tree-forwprop",
    "-fno-tree-fre",
    "-fno-tree-phiprop",
    "-fno-tree-pta",
    "-fno-tree-scev-cprop",
    "-fno-tree-sink",
    "-fno-tree-slsr",
    "-fno-tree-sra",
    "-fno-tree-ter",
    "-fno-tree-bit-ccp",
    "-fno-tree-coalesce-vars",
    "-fno-ipa-modref",
    "-fno-ipa-pure-const",
    "-fno-ipa-reference",
];

/// Compiles PQClean's clean code of `folder` (from `krate`) and pqcrypto-internals' fips202.c
/// into `libpqclean.a` in OUT_DIR and links it.
fn build_pqclean(krate: &str, folder: &str, manifest_dir: &Path, out: &Path) {
    let cargo = env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let workspace = manifest_dir.join("../../Cargo.toml");
    // All features (the pqcrypto crates are behind `peers`), the host's platform only (the
    // packages of other platforms may not be downloaded), and
    // offline: the pqcrypto sources must be there already (`cargo fetch` in the workspace).
    let host = env::var("HOST").expect("HOST");
    let meta = Command::new(&cargo)
        .args([
            "metadata",
            "--format-version",
            "1",
            "--offline",
            "--all-features",
        ])
        .arg("--filter-platform")
        .arg(&host)
        .arg("--manifest-path")
        .arg(&workspace)
        .output()
        .expect("m4-lab: cannot run cargo metadata");
    assert!(
        meta.status.success(),
        "m4-lab: cargo metadata failed: {}",
        String::from_utf8_lossy(&meta.stderr)
    );
    let meta = String::from_utf8(meta.stdout).expect("UTF-8 metadata");
    let scheme_crate = package_dir(&meta, krate);
    let internals = package_dir(&meta, "pqcrypto-internals");
    let scheme = scheme_crate.join("pqclean").join(folder).join("clean");
    let mut sources: Vec<PathBuf> = std::fs::read_dir(&scheme)
        .unwrap_or_else(|e| panic!("m4-lab: {}: {e}", scheme.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
        .collect();
    sources.sort();
    sources.push(internals.join("cfiles/fips202.c"));
    let gcc = env::var("PQLAB_M4_CC").unwrap_or_else(|_| "arm-none-eabi-gcc".into());
    let mut objects = Vec::new();
    for (i, src) in sources.iter().enumerate() {
        let obj = out.join(format!("pqclean{i}.o"));
        // GCC 12 for 32-bit ARM miscompiles Falcon's keygen.c at -O1 and -O2 (solve_NTRU
        // then always fails, so key generation never ends; liboqs issue 1288, pqm4 issue 243):
        // that file is built with the GIMPLE optimisations below turned off, which restores
        // the known answers of the host build.
        let workaround: &[&str] = if krate == "pqcrypto-falcon" && src.ends_with("keygen.c") {
            FALCON_KEYGEN_GCC12_FLAGS
        } else {
            &[]
        };
        let status = Command::new(&gcc)
            .args(["-O2", "-mcpu=cortex-m4", "-mthumb", "-mfloat-abi=hard"])
            .args(workaround)
            .args(["-mfpu=fpv4-sp-d16", "-ffreestanding", "-ffunction-sections"])
            .args(["-fdata-sections", "-std=c99", "-w", "-c"])
            .arg("-isystem")
            .arg(manifest_dir.join("cinclude"))
            .arg("-I")
            .arg(internals.join("include"))
            .arg("-I")
            .arg(scheme_crate.join("pqclean/common"))
            .arg("-I")
            .arg(&scheme)
            .arg(src)
            .arg("-o")
            .arg(&obj)
            .status()
            .unwrap_or_else(|e| panic!("m4-lab: cannot run {gcc}: {e}"));
        assert!(
            status.success(),
            "m4-lab: {gcc} failed on {}",
            src.display()
        );
        println!("cargo:rerun-if-changed={}", src.display());
        objects.push(obj);
    }
    let lib = out.join("libpqclean.a");
    let _ = std::fs::remove_file(&lib);
    let ar = gcc.replace("gcc", "ar");
    let status = Command::new(&ar)
        .arg("crs")
        .arg(&lib)
        .args(&objects)
        .status()
        .unwrap_or_else(|e| panic!("m4-lab: cannot run {ar}: {e}"));
    assert!(status.success(), "m4-lab: {ar} failed");
    println!("cargo:rustc-link-search=native={}", out.display());
    println!("cargo:rustc-link-lib=static=pqclean");
    println!("cargo:rerun-if-env-changed=PQLAB_M4_CC");
}

/// The `extern` block of PQClean's API in namespace `PQCLEAN_{ns}_CLEAN` (ML-DSA: the `_ctx`
/// functions, which the API's plain names are macros for).
fn ffi(ns: &str) -> String {
    let p = format!("PQCLEAN_{ns}_CLEAN_");
    let mut s = String::from("pub mod ffi {\n    unsafe extern \"C\" {\n");
    let mut f = |name: &str, rust: &str, args: &str| {
        let _ = writeln!(
            s,
            "        #[link_name = \"{p}{name}\"]\n        pub fn {rust}({args}) -> i32;"
        );
    };
    if ns.starts_with("MLKEM") {
        f("crypto_kem_keypair", "keypair", "pk: *mut u8, sk: *mut u8");
        f(
            "crypto_kem_enc",
            "enc",
            "ct: *mut u8, ss: *mut u8, pk: *const u8",
        );
        f(
            "crypto_kem_dec",
            "dec",
            "ss: *mut u8, ct: *const u8, sk: *const u8",
        );
    } else {
        let ctx = if ns.starts_with("MLDSA") { "_ctx" } else { "" };
        let ctx_args = if ctx.is_empty() {
            ""
        } else {
            "ctx: *const u8, ctxlen: usize, "
        };
        f("crypto_sign_keypair", "keypair", "pk: *mut u8, sk: *mut u8");
        f(
            &format!("crypto_sign_signature{ctx}"),
            &format!("signature{ctx}"),
            &format!(
                "sig: *mut u8, siglen: *mut usize, m: *const u8, mlen: usize, {ctx_args}sk: *const u8"
            ),
        );
        f(
            &format!("crypto_sign_verify{ctx}"),
            &format!("verify{ctx}"),
            &format!(
                "sig: *const u8, siglen: usize, m: *const u8, mlen: usize, {ctx_args}pk: *const u8"
            ),
        );
    }
    s.push_str("    }\n}\n");
    s
}

fn main() {
    let dir = PathBuf::from(env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| ".".into()));
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("OUT_DIR"));
    // memory.x: the real chip's 128 KiB of SRAM, or QEMU's 192 KiB (`emulator-ram`).
    link_runtime(if feature("emulator-ram") { 192 } else { 128 });
    println!("cargo:rerun-if-changed=cinclude");
    // `signatures`: the image's scheme signs (ML-DSA, Falcon), for `src/ours.rs`.
    println!("cargo::rustc-check-cfg=cfg(signatures)");

    let chosen: Vec<_> = ALGS.iter().filter(|a| feature(a.0)).collect();
    let mut code = String::new();
    match chosen.as_slice() {
        [] if feature("reductions") => reductions(&mut code),
        [] => assert!(
            feature("baseline"),
            "m4-lab: enable one parameter set (e.g. --features ml-dsa-44) or `baseline`"
        ),
        [(alg, ns, krate, folder)] => {
            let _ = writeln!(code, "// Fixtures of {alg}, made by pqlab on the host.");
            let _ = writeln!(code, "pub const ALG: &str = \"{alg}\";");
            if !alg.starts_with("ml-kem") {
                println!("cargo::rustc-cfg=signatures");
            }
            let _ = writeln!(code, "pub const COUNT: usize = {FIXTURES};");
            match *alg {
                "ml-dsa-44" => mldsa::<pqlab_mldsa::MlDsa44>(&mut code),
                "ml-dsa-65" => mldsa::<pqlab_mldsa::MlDsa65>(&mut code),
                "ml-dsa-87" => mldsa::<pqlab_mldsa::MlDsa87>(&mut code),
                "ml-kem-512" => mlkem::<pqlab_mlkem::MlKem512>(&mut code),
                "ml-kem-768" => mlkem::<pqlab_mlkem::MlKem768>(&mut code),
                "ml-kem-1024" => mlkem::<pqlab_mlkem::MlKem1024>(&mut code),
                "falcon-512" => falcon::<512>(&mut code),
                _ => falcon::<1024>(&mut code),
            }
            if feature("pqclean") {
                build_pqclean(krate, folder, &dir, &out);
                code.push_str(&ffi(ns));
            }
        }
        _ => panic!("m4-lab: one parameter set per image, not several"),
    }
    std::fs::write(out.join("fixtures.rs"), code).expect("write fixtures.rs");
}
