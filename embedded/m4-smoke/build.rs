//! Sets up the link of the shared runtime (`../m4-rt/link.rs`: the chip's 128 KiB). Writes
//! `$OUT_DIR/falcon_kat.rs`: the public key, message and detached signature of record 0 of
//! the Falcon-512 and Falcon-1024 round-3 KAT files (from `$PQLAB_VECTORS`, else
//! `../../../shared/vectors`), or `None` where the files are absent (a failure under CI=true).

use std::env;
use std::fmt::Write as _;
use std::path::PathBuf;

include!("../m4-rt/link.rs");

/// Bytes from hex digits.
fn unhex(s: &str) -> Vec<u8> {
    (0..s.len() / 2)
        .map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).expect("hex digits"))
        .collect()
}

/// (pk, msg, detached signature) of record 0 of a Falcon KAT file: `sm` = sig_len (2 bytes,
/// big-endian) || nonce (40) || msg || 0x20 + logn || comp; the detached signature is
/// 0x30 + logn || nonce || comp.
fn first_record(text: &str, logn: u8) -> (Vec<u8>, Vec<u8>, Vec<u8>) {
    let field = |name: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(name).and_then(|v| v.strip_prefix(" = ")))
            .map(|v| unhex(v.trim()))
            .expect("KAT field")
    };
    let (pk, sm) = (field("pk"), field("sm"));
    let sig_len = usize::from(sm[0]) << 8 | usize::from(sm[1]);
    let mlen = sm.len() - 42 - sig_len;
    let msg = sm[42..42 + mlen].to_vec();
    let mut sig = vec![0x30 + logn];
    sig.extend_from_slice(&sm[2..42]);
    sig.extend_from_slice(&sm[43 + mlen..]);
    (pk, msg, sig)
}

/// The generated constants for one parameter set.
fn kat_const(name: &str, dir: Option<&PathBuf>, file: &str, logn: u8) -> String {
    let Some(text) = dir.and_then(|d| std::fs::read_to_string(d.join(file)).ok()) else {
        return format!("const {name}: Option<(&[u8], &[u8], &[u8])> = None;\n");
    };
    let (pk, msg, sig) = first_record(&text, logn);
    let mut out = format!("const {name}: Option<(&[u8], &[u8], &[u8])> = Some((");
    for v in [pk, msg, sig] {
        out.push_str("&[");
        for b in v {
            let _ = write!(out, "{b},");
        }
        out.push_str("],");
    }
    out.push_str("));\n");
    out
}

fn main() {
    let dir = env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| ".".into());
    link_runtime(128);
    let vectors = env::var_os("PQLAB_VECTORS")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(&dir).join("../../../shared/vectors"));
    let found = vectors.is_dir().then_some(&vectors);
    let ci = env::var("CI").is_ok_and(|v| v.eq_ignore_ascii_case("true") || v == "1");
    assert!(
        found.is_some() || !ci,
        "test vectors not found at {} (CI=true)",
        vectors.display()
    );
    let code = kat_const("FALCON512", found, "falcon-kat/falcon512-KAT.rsp", 9)
        + &kat_const("FALCON1024", found, "falcon-kat/falcon1024-KAT.rsp", 10);
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("OUT_DIR"));
    std::fs::write(out.join("falcon_kat.rs"), code).expect("write falcon_kat.rs");
    println!("cargo:rerun-if-env-changed=PQLAB_VECTORS");
    println!("cargo:rerun-if-env-changed=CI");
    println!("cargo:rerun-if-changed={}", vectors.display());
    println!("cargo:rerun-if-env-changed=RUSTC_LINKER");
}
