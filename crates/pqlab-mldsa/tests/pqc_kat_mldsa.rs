//! Known-answer tests from post-quantum-cryptography/KAT (final FIPS 204), the first 10 records
//! of each `<vectors>/pqc-kat/MLDSA/kat_MLDSA_{44,65,87}_{det,hedged}_{pure,hashed,raw}` file.
//!
//! Each record: `xi` (key-generation seed), `pk`, `sk`, `msg`, `sm` = signature || msg, `ctx`
//! (pure and hashed only) and `rng` (the rnd of hedged files; zero in det files). `pure` is
//! ML-DSA.Sign with `ctx`, `hashed` is HashML-DSA with SHA2-256 / SHA2-384 / SHA2-512 for
//! ML-DSA-44 / 65 / 87, `raw` is Sign_internal on `msg` as M'.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[macro_use]
mod common;

use std::collections::HashMap;

use common::{Tally, ensure, ensure_eq_bytes, unhex, unhex_array};
use pqlab_mldsa::{HashAlg, ParameterSet, Signature, SigningKey, VerifyingKey};

/// Records per file (the files are cut to their first 10 records).
const RECORDS_PER_FILE: usize = 10;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    Pure,
    Hashed,
    Raw,
}

/// Splits a `.rsp` file into records (each starts with `count = N`) of `name = value` fields.
fn parse_rsp(text: &str) -> Vec<HashMap<String, String>> {
    let mut records: Vec<HashMap<String, String>> = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (k, v) = line
            .split_once('=')
            .unwrap_or_else(|| panic!("bad line {line:?}"));
        let (k, v) = (k.trim(), v.trim());
        if k == "count" {
            records.push(HashMap::new());
        }
        let rec = records
            .last_mut()
            .unwrap_or_else(|| panic!("field {k} before the first count"));
        assert!(
            rec.insert(k.to_string(), v.to_string()).is_none(),
            "duplicate field {k}"
        );
    }
    records
}

fn field<'a>(rec: &'a HashMap<String, String>, k: &str) -> Result<&'a str, String> {
    rec.get(k)
        .map(String::as_str)
        .ok_or_else(|| format!("record has no {k}"))
}

/// The pre-hash function of the `hashed` files.
fn prehash_for<P: ParameterSet>() -> HashAlg {
    match P::NAME {
        "ML-DSA-44" => HashAlg::Sha2_256,
        "ML-DSA-65" => HashAlg::Sha2_384,
        "ML-DSA-87" => HashAlg::Sha2_512,
        other => panic!("unknown parameter set {other}"),
    }
}

fn sign_record<P: ParameterSet>(
    sk: &SigningKey<P>,
    mode: Mode,
    msg: &[u8],
    ctx: &[u8],
    rnd: &[u8; 32],
) -> Result<Signature<P>, String> {
    match mode {
        Mode::Pure => sk.sign_with_rnd(msg, ctx, rnd),
        Mode::Hashed => sk.sign_prehash_with_rnd(msg, ctx, prehash_for::<P>(), rnd),
        Mode::Raw => sk.sign_internal(msg, rnd),
    }
    .map_err(|e| format!("signing failed: {e}"))
}

fn verify_record<P: ParameterSet>(
    vk: &VerifyingKey<P>,
    mode: Mode,
    msg: &[u8],
    ctx: &[u8],
    sig: &Signature<P>,
) -> Result<(), pqlab_mldsa::Error> {
    match mode {
        Mode::Pure => vk.verify(msg, ctx, sig),
        Mode::Hashed => vk.verify_prehash(msg, ctx, prehash_for::<P>(), sig),
        Mode::Raw => vk.verify_internal(msg, sig),
    }
}

/// For a `hashed` record whose signature differs: the pre-hash functions under which the
/// expected signature verifies, to tell a wrong pre-hash choice from a signing bug.
fn diagnose_prehash<P: ParameterSet>(
    vk: &VerifyingKey<P>,
    msg: &[u8],
    ctx: &[u8],
    sig: &[u8],
) -> String {
    let Ok(sig) = Signature::<P>::from_bytes(sig) else {
        return String::new();
    };
    let fits: Vec<&str> = HashAlg::ALL
        .iter()
        .filter(|h| vk.verify_prehash(msg, ctx, **h, &sig).is_ok())
        .map(|h| h.name())
        .collect();
    format!(" (diagnosis: the expected signature verifies under pre-hash {fits:?})")
}

fn check_record<P: ParameterSet>(
    rec: &HashMap<String, String>,
    mode: Mode,
    hedged: bool,
) -> Result<(), String> {
    let xi: [u8; 32] = unhex_array(field(rec, "xi")?);
    let sk = SigningKey::<P>::from_seed(&xi);
    let vk = sk.verifying_key();
    ensure_eq_bytes("public key", vk.as_bytes(), &unhex(field(rec, "pk")?))?;
    ensure_eq_bytes(
        "expanded secret key",
        sk.to_expanded().as_ref(),
        &unhex(field(rec, "sk")?),
    )?;

    let msg = unhex(field(rec, "msg")?);
    let sm = unhex(field(rec, "sm")?);
    let mlen: usize = field(rec, "mlen")?
        .parse()
        .map_err(|e| format!("mlen: {e}"))?;
    let smlen: usize = field(rec, "smlen")?
        .parse()
        .map_err(|e| format!("smlen: {e}"))?;
    ensure(
        msg.len() == mlen && sm.len() == smlen && smlen == P::SIG_LEN + mlen,
        || format!("inconsistent lengths: mlen {mlen}, smlen {smlen}"),
    )?;
    let (want_sig, tail) = sm.split_at(P::SIG_LEN);
    ensure(tail == msg.as_slice(), || "sm does not end with msg".into())?;

    let ctx = match mode {
        Mode::Raw => Vec::new(),
        Mode::Pure | Mode::Hashed => unhex(field(rec, "ctx")?),
    };
    let rnd: [u8; 32] = if hedged {
        unhex_array(field(rec, "rng")?)
    } else {
        ensure(!rec.contains_key("rng"), || "det record has rng".into())?;
        [0u8; 32]
    };

    let sig = sign_record(&sk, mode, &msg, &ctx, &rnd)?;
    ensure_eq_bytes("signature", sig.as_bytes(), want_sig).map_err(|e| match mode {
        Mode::Hashed => e + &diagnose_prehash(&vk, &msg, &ctx, want_sig),
        Mode::Pure | Mode::Raw => e,
    })?;
    verify_record(&vk, mode, &msg, &ctx, &sig)
        .map_err(|e| format!("the signature does not verify: {e}"))
}

fn run_file<P: ParameterSet>(text: &str, mode: Mode, hedged: bool, tally: &mut Tally) -> usize {
    let records = parse_rsp(text);
    for rec in &records {
        let id = rec.get("count").map_or("?", String::as_str);
        tally.record(
            format_args!("count {id}"),
            check_record::<P>(rec, mode, hedged),
        );
    }
    records.len()
}

fn run(level: &str, det: &str, mode_name: &str) {
    let Some(dir) = common::vectors_dir() else {
        return;
    };
    let mode = match mode_name {
        "pure" => Mode::Pure,
        "hashed" => Mode::Hashed,
        "raw" => Mode::Raw,
        other => panic!("unknown mode {other}"),
    };
    let name = format!("kat_MLDSA_{level}_{det}_{mode_name}.first10.rsp");
    let text = common::load_text(&dir, &format!("pqc-kat/MLDSA/{name}"));
    let in_file = text.lines().filter(|l| l.starts_with("count")).count();
    let hedged = det == "hedged";
    let ps = format!("ML-DSA-{level}");
    let mut tally = Tally::new(format!("pqc-kat {name}"));
    let parsed = with_param_set!(ps.as_str(), run_file(&text, mode, hedged, &mut tally));
    assert_eq!(
        parsed, in_file,
        "{name}: parsed {parsed} records of {in_file}"
    );
    tally.finish(in_file, RECORDS_PER_FILE);
}

macro_rules! kat_tests {
    ($($fn_name:ident: $level:literal $det:literal $mode:literal;)*) => {
        $(
            #[test]
            fn $fn_name() {
                run($level, $det, $mode);
            }
        )*
    };
}

kat_tests! {
    pqc_kat_44_det_pure: "44" "det" "pure";
    pqc_kat_44_det_hashed: "44" "det" "hashed";
    pqc_kat_44_det_raw: "44" "det" "raw";
    pqc_kat_44_hedged_pure: "44" "hedged" "pure";
    pqc_kat_44_hedged_hashed: "44" "hedged" "hashed";
    pqc_kat_44_hedged_raw: "44" "hedged" "raw";
    pqc_kat_65_det_pure: "65" "det" "pure";
    pqc_kat_65_det_hashed: "65" "det" "hashed";
    pqc_kat_65_det_raw: "65" "det" "raw";
    pqc_kat_65_hedged_pure: "65" "hedged" "pure";
    pqc_kat_65_hedged_hashed: "65" "hedged" "hashed";
    pqc_kat_65_hedged_raw: "65" "hedged" "raw";
    pqc_kat_87_det_pure: "87" "det" "pure";
    pqc_kat_87_det_hashed: "87" "det" "hashed";
    pqc_kat_87_det_raw: "87" "det" "raw";
    pqc_kat_87_hedged_pure: "87" "hedged" "pure";
    pqc_kat_87_hedged_hashed: "87" "hedged" "hashed";
    pqc_kat_87_hedged_raw: "87" "hedged" "raw";
}
