//! The conformance tests' access to the test vectors: locating the vector folder, reading JSON,
//! text, gzip and hex, picking fields out of ACVP and Wycheproof files, and tallying results.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

use serde_json::Value;

/// The folder of test vectors: `$PQLAB_VECTORS` if set, else `<workspace>/../shared/vectors`
/// (found from this crate's own folder, `<workspace>/crates/pqlab-testutil`, so the same for
/// every crate that calls it).
///
/// Returns `None` (after printing "skipped: ...") when the folder is missing, except under CI
/// (`CI=true`), where a missing folder fails the test: conformance tests must never pass
/// silently.
pub fn vectors_dir() -> Option<PathBuf> {
    let dir = match std::env::var_os("PQLAB_VECTORS") {
        Some(p) if !p.is_empty() => PathBuf::from(p),
        _ => Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("..")
            .join("..")
            .join("..")
            .join("shared")
            .join("vectors"),
    };
    if dir.is_dir() {
        return Some(dir);
    }
    let ci = std::env::var("CI")
        .map(|v| v.eq_ignore_ascii_case("true") || v == "1")
        .unwrap_or(false);
    assert!(
        !ci,
        "test vectors not found at {} (CI=true: a missing vector folder is a failure; \
         set PQLAB_VECTORS to the folder)",
        dir.display()
    );
    println!("skipped: vectors not found at {}", dir.display());
    None
}

/// Reads and parses a JSON file below the vector folder.
pub fn load_json(dir: &Path, rel: &str) -> Value {
    let path = dir.join(rel);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("cannot parse {}: {e}", path.display()))
}

/// Reads a text file below the vector folder.
pub fn load_text(dir: &Path, rel: &str) -> String {
    let path = dir.join(rel);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// Decodes hex, upper or lower case (or mixed).
pub fn unhex(s: &str) -> Vec<u8> {
    hex::decode(s.trim()).unwrap_or_else(|e| panic!("bad hex ({e}): {s:.40}"))
}

/// Decodes hex that must hold exactly `N` bytes.
pub fn unhex_array<const N: usize>(s: &str) -> [u8; N] {
    let v = unhex(s);
    v.as_slice()
        .try_into()
        .unwrap_or_else(|_| panic!("expected {N} bytes of hex, got {}", v.len()))
}

/// Lower-case hex, for messages.
pub fn to_hex(b: &[u8]) -> String {
    hex::encode(b)
}

/// A short prefix of a byte string in hex, for failure messages.
pub fn short_hex(b: &[u8]) -> String {
    let n = b.len().min(16);
    format!("{}..({} bytes)", hex::encode(&b[..n]), b.len())
}

/// A string field of a JSON object.
pub fn str_field<'a>(v: &'a Value, key: &str) -> &'a str {
    v.get(key)
        .and_then(Value::as_str)
        .unwrap_or_else(|| panic!("missing string field {key:?}"))
}

/// An optional string field (absent or `null` give `None`).
pub fn opt_str<'a>(v: &'a Value, key: &str) -> Option<&'a str> {
    v.get(key).and_then(Value::as_str)
}

/// A hex field, decoded.
pub fn hex_field(v: &Value, key: &str) -> Vec<u8> {
    unhex(str_field(v, key))
}

/// An optional hex field, decoded.
pub fn opt_hex(v: &Value, key: &str) -> Option<Vec<u8>> {
    opt_str(v, key).map(unhex)
}

/// A boolean field.
pub fn bool_field(v: &Value, key: &str) -> bool {
    v.get(key)
        .and_then(Value::as_bool)
        .unwrap_or_else(|| panic!("missing boolean field {key:?}"))
}

/// An optional boolean field.
pub fn opt_bool(v: &Value, key: &str) -> Option<bool> {
    v.get(key).and_then(Value::as_bool)
}

/// An integer field.
pub fn u64_field(v: &Value, key: &str) -> u64 {
    v.get(key)
        .and_then(Value::as_u64)
        .unwrap_or_else(|| panic!("missing integer field {key:?}"))
}

/// The `testGroups` array of an ACVP or Wycheproof file.
pub fn groups(v: &Value) -> &[Value] {
    v.get("testGroups")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_else(|| panic!("missing testGroups"))
}

/// The `tests` array of one group.
pub fn tests(group: &Value) -> &[Value] {
    group
        .get("tests")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_else(|| panic!("missing tests"))
}

/// The number of test cases in a file with `testGroups[].tests[]`.
pub fn count_cases(v: &Value) -> usize {
    groups(v).iter().map(|g| tests(g).len()).sum()
}

/// Every test of an ACVP `expectedResults.json`, by `tcId`.
pub fn by_tc_id(v: &Value) -> HashMap<u64, &Value> {
    let mut m = HashMap::new();
    for g in groups(v) {
        for t in tests(g) {
            let id = u64_field(t, "tcId");
            assert!(m.insert(id, t).is_none(), "duplicate tcId {id}");
        }
    }
    m
}

/// An ACVP vector set: `<folder>/prompt.json` and `<folder>/expectedResults.json` below the
/// vector folder, checked to hold the same number of test cases.
pub fn load_acvp(dir: &Path, folder: &str) -> (Value, Value) {
    let prompt = load_json(dir, &format!("{folder}/prompt.json"));
    let expected = load_json(dir, &format!("{folder}/expectedResults.json"));
    assert_eq!(
        count_cases(&prompt),
        count_cases(&expected),
        "{folder}: prompt and expectedResults hold different numbers of cases"
    );
    (prompt, expected)
}

/// Reads a gzip-compressed text file below the vector folder.
pub fn load_gzip_text(dir: &Path, rel: &str) -> String {
    use std::io::Read as _;
    let path = dir.join(rel);
    let file = std::fs::File::open(&path)
        .unwrap_or_else(|e| panic!("cannot open {}: {e}", path.display()));
    let mut text = String::new();
    flate2::read::GzDecoder::new(file)
        .read_to_string(&mut text)
        .unwrap_or_else(|e| panic!("cannot gunzip {}: {e}", path.display()));
    text
}

/// The `name = value` lines of a CCTV ML-KEM text file, in order (names may repeat across
/// records; blank lines and `#` comments are skipped).
pub fn cctv_fields(text: &str) -> Vec<(String, String)> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .filter_map(|l| l.split_once('='))
        .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
        .collect()
}

/// The value of the first field called `name` in `fields`.
pub fn cctv_field<'a>(fields: &'a [(String, String)], name: &str) -> &'a str {
    fields
        .iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_str())
        .unwrap_or_else(|| panic!("missing field {name:?}"))
}

/// Counts the cases of one vector file and collects the failures, so that one run reports
/// every failing case at once.
pub struct Tally {
    name: String,
    ran: usize,
    passed: usize,
    failures: Vec<String>,
    start: Instant,
}

impl Tally {
    /// A new tally for the file or set called `name`.
    pub fn new(name: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            ran: 0,
            passed: 0,
            failures: Vec::new(),
            start: Instant::now(),
        }
    }

    /// Records one case: `Ok(())` passed, `Err(why)` failed (`id` names the case).
    pub fn record(&mut self, id: impl std::fmt::Display, result: Result<(), String>) {
        self.ran += 1;
        match result {
            Ok(()) => self.passed += 1,
            Err(why) => self.failures.push(format!("{id}: {why}")),
        }
    }

    /// Prints `<name>: passed/ran passed (time)` and every failure; fails the test unless every
    /// case passed, the number of cases run equals `in_file` (counted from the file) and
    /// equals `expected_total` (the number the vector README documents).
    pub fn finish(self, in_file: usize, expected_total: usize) {
        let elapsed = self.start.elapsed();
        println!(
            "{}: {}/{} passed ({:.2?})",
            self.name, self.passed, self.ran, elapsed
        );
        for f in &self.failures {
            println!("  FAIL {}: {f}", self.name);
        }
        assert!(
            self.failures.is_empty(),
            "{}: {} of {} cases failed; first: {}",
            self.name,
            self.failures.len(),
            self.ran,
            self.failures[0]
        );
        assert_eq!(
            self.ran, in_file,
            "{}: ran {} cases but the file holds {in_file}",
            self.name, self.ran
        );
        assert_eq!(
            in_file, expected_total,
            "{}: the file holds {in_file} cases, expected {expected_total}",
            self.name
        );
    }
}

/// `Err(msg)` unless `cond`.
pub fn ensure(cond: bool, msg: impl FnOnce() -> String) -> Result<(), String> {
    if cond { Ok(()) } else { Err(msg()) }
}

/// `Err` describing the first difference unless `got == want`.
pub fn ensure_eq_bytes(what: &str, got: &[u8], want: &[u8]) -> Result<(), String> {
    if got == want {
        return Ok(());
    }
    let first = got
        .iter()
        .zip(want)
        .position(|(a, b)| a != b)
        .unwrap_or(got.len().min(want.len()));
    Err(format!(
        "{what} differs (got {} bytes, want {}; first difference at byte {first}: got {}, want {})",
        got.len(),
        want.len(),
        short_hex(got.get(first..).unwrap_or(&[])),
        short_hex(want.get(first..).unwrap_or(&[])),
    ))
}
