//! NIST ACVP ML-KEM vector sets (final FIPS 203): `ML-KEM-keyGen-FIPS203` (75 cases),
//! `ML-KEM-encapDecap-FIPS203` (165) and `ML-KEM-encapDecap-FIPS203-tr1` (195, including
//! decapsulation with seed-format keys). Every function is covered: key generation from (d, z),
//! encapsulation with a given m, decapsulation (valid and implicit-rejection cases, expanded and
//! seed keys), and the encapsulation- and decapsulation-key checks of FIPS 203, Sections 7.2 and
//! 7.3.
//!
//! Each case runs through the key types and through the functions on encoded keys
//! (`key_gen_encoded`, `encapsulate_encoded`, `decapsulate_encoded`, which under the
//! `small-memory` feature never decode a key whole).
//!
//! The cases of the `acvp_mlkem` tests, in a file of their own.

use std::path::Path;

use crate::common::*;
use pqlab_mlkem::{
    Ciphertext, DecapsulationKey, EncapsulationKey, Error, ParameterSet, decapsulate_encoded,
    encapsulate_encoded, key_gen_encoded,
};
use serde_json::Value;

/// One keyGen case: KeyGen_internal(d, z) must give ek and the expanded dk; the key must keep
/// its seed, and importing the expanded dk must give the same key.
fn key_gen_case<P: ParameterSet>(prompt: &Value, expected: &Value) -> Result<(), String> {
    let d = unhex_array::<32>(str_field(prompt, "d"));
    let z = unhex_array::<32>(str_field(prompt, "z"));
    let dk = DecapsulationKey::<P>::from_seed(&d, &z);
    ensure_eq_bytes(
        "ek",
        dk.encapsulation_key().as_bytes(),
        &hex_field(expected, "ek"),
    )?;
    let dk_bytes = hex_field(expected, "dk");
    ensure_eq_bytes("dk", dk.to_expanded().as_ref(), &dk_bytes)?;
    let (mut ek_enc, mut dk_enc) = (vec![0u8; P::EK_LEN], vec![0u8; P::DK_LEN]);
    key_gen_encoded::<P>(&d, &z, &mut ek_enc, &mut dk_enc).map_err(|e| e.to_string())?;
    ensure_eq_bytes("key_gen_encoded ek", &ek_enc, &hex_field(expected, "ek"))?;
    ensure_eq_bytes("key_gen_encoded dk", &dk_enc, &dk_bytes)?;
    let seed = dk.seed().ok_or("seed lost")?;
    ensure(seed[..32] == d && seed[32..] == z, || "seed differs".into())?;
    let imported = DecapsulationKey::<P>::from_expanded(&dk_bytes)
        .map_err(|e| format!("expanded dk rejected: {e}"))?;
    ensure(imported.seed().is_none(), || {
        "imported key has a seed".into()
    })?;
    ensure_eq_bytes("re-exported dk", imported.to_expanded().as_ref(), &dk_bytes)
}

/// ACVP keyGen: every case must pass.
pub fn key_gen() {
    let Some(dir) = vectors_dir() else { return };
    let set = "acvp/ML-KEM-keyGen-FIPS203";
    let (prompt, expected) = load_acvp(&dir, set);
    let results = by_tc_id(&expected);
    let mut tally = Tally::new(set);
    for g in groups(&prompt) {
        let ps = str_field(g, "parameterSet");
        for t in tests(g) {
            let id = u64_field(t, "tcId");
            let r = with_param_set!(ps, key_gen_case(t, results[&id]));
            tally.record(format!("{ps} tcId {id}"), r);
        }
    }
    tally.finish(count_cases(&prompt), 75);
}

fn encapsulation_case<P: ParameterSet>(t: &Value, expected: &Value) -> Result<(), String> {
    let ek = EncapsulationKey::<P>::from_bytes(&hex_field(t, "ek"))
        .map_err(|e| format!("ek rejected: {e}"))?;
    let m = unhex_array::<32>(str_field(t, "m"));
    let (c, k) = ek.encapsulate_deterministic(&m);
    ensure_eq_bytes("c", c.as_bytes(), &hex_field(expected, "c"))?;
    ensure_eq_bytes("k", k.as_bytes(), &hex_field(expected, "k"))?;
    let mut c_enc = vec![0u8; P::CT_LEN];
    let k_enc = encapsulate_encoded::<P>(&hex_field(t, "ek"), &m, &mut c_enc)
        .map_err(|e| format!("encapsulate_encoded: {e}"))?;
    ensure_eq_bytes("encapsulate_encoded c", &c_enc, &hex_field(expected, "c"))?;
    ensure_eq_bytes(
        "encapsulate_encoded k",
        k_enc.as_bytes(),
        &hex_field(expected, "k"),
    )
}

fn decapsulation_case<P: ParameterSet>(
    t: &Value,
    key_format: Option<&str>,
    expected: &Value,
) -> Result<(), String> {
    let dk = match key_format {
        Some("seed") => DecapsulationKey::<P>::from_seed(
            &unhex_array::<32>(str_field(t, "d")),
            &unhex_array::<32>(str_field(t, "z")),
        ),
        None | Some("expanded") => DecapsulationKey::<P>::from_expanded(&hex_field(t, "dk"))
            .map_err(|e| format!("dk rejected: {e}"))?,
        Some(other) => return Err(format!("unknown keyFormat {other:?}")),
    };
    let c = Ciphertext::<P>::from_bytes(&hex_field(t, "c")).map_err(|e| e.to_string())?;
    let k = dk.decapsulate(&c);
    ensure_eq_bytes("k", k.as_bytes(), &hex_field(expected, "k"))?;
    let dk_bytes = dk.to_expanded();
    let k_enc = decapsulate_encoded::<P>(dk_bytes.as_ref(), &hex_field(t, "c"))
        .map_err(|e| format!("decapsulate_encoded: {e}"))?;
    ensure_eq_bytes(
        "decapsulate_encoded k",
        k_enc.as_bytes(),
        &hex_field(expected, "k"),
    )
}

fn ek_check_case<P: ParameterSet>(t: &Value, expected: &Value) -> Result<(), String> {
    let want = bool_field(expected, "testPassed");
    let got = EncapsulationKey::<P>::from_bytes(&hex_field(t, "ek"));
    match (&got, want) {
        (Ok(_), true) | (Err(Error::ModulusCheck), false) => {}
        _ => {
            return Err(format!(
                "encapsulationKeyCheck: got {got:?}, want testPassed = {want}"
            ));
        }
    }
    let mut c = vec![0u8; P::CT_LEN];
    let got = encapsulate_encoded::<P>(&hex_field(t, "ek"), &[0; 32], &mut c).map(|_| ());
    match (got, want) {
        (Ok(()), true) | (Err(Error::ModulusCheck), false) => Ok(()),
        (got, _) => Err(format!(
            "encapsulate_encoded's check: got {got:?}, want testPassed = {want}"
        )),
    }
}

fn dk_check_case<P: ParameterSet>(t: &Value, expected: &Value) -> Result<(), String> {
    let want = bool_field(expected, "testPassed");
    let got = DecapsulationKey::<P>::from_expanded(&hex_field(t, "dk")).map(|_| ());
    match (got, want) {
        (Ok(()), true) | (Err(Error::HashCheck), false) => {}
        (got, _) => {
            return Err(format!(
                "decapsulationKeyCheck: got {got:?}, want testPassed = {want}"
            ));
        }
    }
    let got = decapsulate_encoded::<P>(&hex_field(t, "dk"), &vec![0u8; P::CT_LEN]).map(|_| ());
    match (got, want) {
        (Ok(()), true) | (Err(Error::HashCheck), false) => Ok(()),
        (got, _) => Err(format!(
            "decapsulate_encoded's check: got {got:?}, want testPassed = {want}"
        )),
    }
}

fn run_encap_decap(dir: &Path, set: &str, total: usize) {
    let (prompt, expected) = load_acvp(dir, set);
    let results = by_tc_id(&expected);
    let mut tally = Tally::new(set);
    let mut per_function = std::collections::BTreeMap::<String, usize>::new();
    for g in groups(&prompt) {
        let ps = str_field(g, "parameterSet");
        let function = str_field(g, "function");
        let key_format = opt_str(g, "keyFormat");
        for t in tests(g) {
            let id = u64_field(t, "tcId");
            let want = results[&id];
            let r = match function {
                "encapsulation" => with_param_set!(ps, encapsulation_case(t, want)),
                "decapsulation" => with_param_set!(ps, decapsulation_case(t, key_format, want)),
                "encapsulationKeyCheck" => with_param_set!(ps, ek_check_case(t, want)),
                "decapsulationKeyCheck" => with_param_set!(ps, dk_check_case(t, want)),
                other => Err(format!("unknown function {other:?}")),
            };
            let label = match key_format {
                Some(f) => format!("{function} ({f} key)"),
                None => function.to_string(),
            };
            *per_function.entry(label).or_default() += 1;
            tally.record(format!("{ps} {function} tcId {id}"), r);
        }
    }
    for (f, n) in &per_function {
        println!("  {set}: {f}: {n} cases");
    }
    // What the cases exercise, from the `reason` fields of internalProjection.json.
    let projection = load_json(dir, &format!("{set}/internalProjection.json"));
    let mut reasons = std::collections::BTreeMap::<String, usize>::new();
    for g in groups(&projection) {
        for t in tests(g) {
            if let Some(r) = opt_str(t, "reason") {
                *reasons.entry(r.to_string()).or_default() += 1;
            }
        }
    }
    for (r, n) in &reasons {
        println!("  {set}: reason {r:?}: {n} cases");
    }
    tally.finish(count_cases(&prompt), total);
}

/// ACVP encapDecap (FIPS203): every case must pass.
pub fn encap_decap() {
    let Some(dir) = vectors_dir() else { return };
    run_encap_decap(&dir, "acvp/ML-KEM-encapDecap-FIPS203", 165);
}

/// ACVP encapDecap (FIPS203-tr1): every case must pass.
pub fn encap_decap_tr1() {
    let Some(dir) = vectors_dir() else { return };
    run_encap_decap(&dir, "acvp/ML-KEM-encapDecap-FIPS203-tr1", 195);
}
