//! C2SP Wycheproof ML-KEM vectors (`testvectors_v1/mlkem_*`), every file:
//!
//! * `mlkem_{512,768,1024}_keygen_seed_test.json` (100 each): seed d || z -> ek, expanded dk.
//! * `mlkem_{512,768,1024}_test.json` (193 each): seed-form key, ek, decapsulation of c to K
//!   (valid cases include random and bit-flipped ciphertexts, i.e. implicit rejection, and the
//!   CCTV strcmp case); invalid cases are seeds or ciphertexts that are too short or too long,
//!   which must be rejected with a length error.
//! * `mlkem_{512,768,1024}_encaps_test.json` (261 / 265 / 269): encapsulation with a given m;
//!   invalid cases (unreduced keys, the CCTV modulus cases, wrong lengths) must fail the
//!   encapsulation-key check of FIPS 203, Section 7.2.
//! * `mlkem_{512,768,1024}_semi_expanded_decaps_test.json` (9 each): expanded decapsulation
//!   keys. Per the file's flags: `IncorrectCiphertextLength` and `IncorrectDecapsulationKeyLength`
//!   must fail the type checks of Section 7.3, `InvalidDecapsulationKey` (corrupted H(ek), or a
//!   corrupted embedded ek whose hash no longer matches) must fail the hash check, and the valid
//!   `MalleableCiphertext` cases (keys crafted so that a re-encryption comparison that skips the
//!   last byte of c1 or c2 would accept a modified ciphertext) must give exactly K.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common;

use std::path::Path;

use common::*;
use pqlab_mlkem::{Ciphertext, DecapsulationKey, EncapsulationKey, Error, ParameterSet};
use serde_json::Value;

fn is_valid(t: &Value) -> bool {
    match str_field(t, "result") {
        "valid" => true,
        "invalid" => false,
        other => panic!("unexpected result {other:?}"),
    }
}

fn flags(t: &Value) -> Vec<&str> {
    t.get("flags")
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default()
}

fn is_length_error(e: &Error, what: &str) -> bool {
    matches!(e, Error::InvalidLength { what: w, .. } if *w == what)
}

/// Runs `case` on every test of every Wycheproof file named `mlkem_<n>_<suffix>.json`, checks the
/// file's parameter set and counts.
fn run_files(
    dir: &Path,
    suffix: &str,
    totals: [usize; 3],
    case: fn(&str, &Value) -> Result<(), String>,
) {
    for (ps, total) in PARAM_SETS.iter().zip(totals) {
        let n = ps.trim_start_matches("ML-KEM-");
        let rel = format!("wycheproof/testvectors_v1/mlkem_{n}_{suffix}.json");
        let file = load_json(dir, &rel);
        let mut tally = Tally::new(&rel);
        let (mut valid, mut invalid) = (0, 0);
        for g in groups(&file) {
            assert_eq!(str_field(g, "parameterSet"), *ps, "{rel}: parameter set");
            for t in tests(g) {
                if is_valid(t) {
                    valid += 1;
                } else {
                    invalid += 1;
                }
                let id = u64_field(t, "tcId");
                tally.record(format!("tcId {id}"), case(ps, t));
            }
        }
        println!("  {rel}: {valid} valid, {invalid} invalid");
        assert_eq!(
            u64_field(&file, "numberOfTests") as usize,
            count_cases(&file)
        );
        tally.finish(count_cases(&file), total);
    }
}

fn keygen_seed_case<P: ParameterSet>(t: &Value) -> Result<(), String> {
    ensure(is_valid(t), || "keygen files hold valid cases only".into())?;
    let dk =
        DecapsulationKey::<P>::from_seed_bytes(&hex_field(t, "seed")).map_err(|e| e.to_string())?;
    ensure_eq_bytes("ek", dk.encapsulation_key().as_bytes(), &hex_field(t, "ek"))?;
    ensure_eq_bytes("dk", dk.to_expanded().as_ref(), &hex_field(t, "dk"))?;
    ensure_eq_bytes("seed", dk.seed().ok_or("no seed")?, &hex_field(t, "seed"))
}

fn decaps_seed_case<P: ParameterSet>(t: &Value) -> Result<(), String> {
    let seed = hex_field(t, "seed");
    let c = hex_field(t, "c");
    let dk = DecapsulationKey::<P>::from_seed_bytes(&seed);
    let ct = Ciphertext::<P>::from_bytes(&c);
    if !is_valid(t) {
        let seed_len_error = matches!(&dk, Err(e) if is_length_error(e, "decapsulation key seed"));
        let ct_len_error = matches!(&ct, Err(e) if is_length_error(e, "ciphertext"));
        return ensure(seed_len_error || ct_len_error, || {
            format!(
                "invalid case accepted ({}): seed {} bytes -> {:?}, c {} bytes -> {:?}",
                str_field(t, "comment"),
                seed.len(),
                dk.as_ref().err(),
                c.len(),
                ct.as_ref().err()
            )
        });
    }
    let dk = dk.map_err(|e| e.to_string())?;
    ensure_eq_bytes("ek", dk.encapsulation_key().as_bytes(), &hex_field(t, "ek"))?;
    let k = dk.decapsulate(&ct.map_err(|e| e.to_string())?);
    ensure_eq_bytes("K", k.as_bytes(), &hex_field(t, "K"))
}

fn encaps_case<P: ParameterSet>(t: &Value) -> Result<(), String> {
    let ek_bytes = hex_field(t, "ek");
    let ek = EncapsulationKey::<P>::from_bytes(&ek_bytes);
    if !is_valid(t) {
        let expected_error = |e: &Error| {
            if ek_bytes.len() == P::EK_LEN {
                *e == Error::ModulusCheck
            } else {
                is_length_error(e, "encapsulation key")
            }
        };
        return match &ek {
            Err(e) if expected_error(e) => Ok(()),
            other => Err(format!(
                "invalid ek ({:?}, {:?}, {} bytes) gave {:?}",
                opt_str(t, "comment"),
                flags(t),
                ek_bytes.len(),
                other.as_ref().err()
            )),
        };
    }
    let ek = ek.map_err(|e| format!("valid ek rejected: {e}"))?;
    let m = unhex_array::<32>(str_field(t, "m"));
    let (c, k) = ek.encapsulate_deterministic(&m);
    ensure_eq_bytes("c", c.as_bytes(), &hex_field(t, "c"))?;
    ensure_eq_bytes("K", k.as_bytes(), &hex_field(t, "K"))
}

fn semi_expanded_case<P: ParameterSet>(t: &Value) -> Result<(), String> {
    let dk = DecapsulationKey::<P>::from_expanded(&hex_field(t, "dk"));
    let ct = Ciphertext::<P>::from_bytes(&hex_field(t, "c"));
    let f = flags(t);
    if !is_valid(t) {
        let ok = if f.contains(&"IncorrectCiphertextLength") {
            dk.is_ok() && matches!(&ct, Err(e) if is_length_error(e, "ciphertext"))
        } else if f.contains(&"IncorrectDecapsulationKeyLength") {
            matches!(&dk, Err(e) if is_length_error(e, "decapsulation key"))
        } else if f.contains(&"InvalidDecapsulationKey") {
            matches!(&dk, Err(Error::HashCheck))
        } else {
            false
        };
        return ensure(ok, || {
            format!(
                "invalid case ({}, {f:?}) gave dk {:?}, c {:?}",
                str_field(t, "comment"),
                dk.as_ref().err(),
                ct.as_ref().err()
            )
        });
    }
    let dk = dk.map_err(|e| format!("valid dk rejected: {e}"))?;
    ensure_eq_bytes("ek", dk.encapsulation_key().as_bytes(), &hex_field(t, "ek"))?;
    let k = dk.decapsulate(&ct.map_err(|e| e.to_string())?);
    ensure_eq_bytes("K", k.as_bytes(), &hex_field(t, "K"))
}

#[test]
fn wycheproof_keygen_seed() {
    let Some(dir) = vectors_dir() else { return };
    run_files(&dir, "keygen_seed_test", [100, 100, 100], |ps, t| {
        with_param_set!(ps, keygen_seed_case(t))
    });
}

#[test]
fn wycheproof_decaps_seed() {
    let Some(dir) = vectors_dir() else { return };
    run_files(&dir, "test", [193, 193, 193], |ps, t| {
        with_param_set!(ps, decaps_seed_case(t))
    });
}

#[test]
fn wycheproof_encaps() {
    let Some(dir) = vectors_dir() else { return };
    run_files(&dir, "encaps_test", [261, 265, 269], |ps, t| {
        with_param_set!(ps, encaps_case(t))
    });
}

#[test]
fn wycheproof_semi_expanded_decaps() {
    let Some(dir) = vectors_dir() else { return };
    run_files(&dir, "semi_expanded_decaps_test", [9, 9, 9], |ps, t| {
        with_param_set!(ps, semi_expanded_case(t))
    });
}
