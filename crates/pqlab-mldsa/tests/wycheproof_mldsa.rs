//! C2SP Wycheproof conformance tests for ML-DSA (FIPS 204), from
//! `<vectors>/wycheproof/testvectors_v1/mldsa_{44,65,87}_{sign_seed,sign_noseed,verify}_test.json`.
//!
//! Semantics (upstream `doc/mldsa.md`, summarised in the vector README):
//! * `sign_seed`: the key comes from KeyGen_internal(`privateSeed`); `publicKey` must match.
//! * `sign_noseed`: the key is the expanded `privateKey` (skDecode); an out-of-range or
//!   wrong-length key must be rejected on import.
//! * Signing is deterministic when the case has no `rnd`, hedged with `rnd` otherwise. When `mu`
//!   is given, Sign_internal from mu must give the same signature and mu must equal the
//!   library's mu of (`msg`, `ctx`); cases flagged `Internal` only have `mu`. Invalid cases
//!   (context too long, bad key) must produce an error.
//! * `verify`: the verdict must match `result` exactly; a key or signature of the wrong length
//!   counts as invalid.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[macro_use]
mod common;

use common::{
    Tally, count_cases, ensure, ensure_eq_bytes, groups, hex_field, opt_hex, opt_str, str_field,
    tests, u64_field,
};
use pqlab_mldsa::{Error, ParameterSet, Signature, SigningKey, VerifyingKey};
use serde_json::Value;

/// The three kinds of Wycheproof ML-DSA files.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    SignSeed,
    SignNoseed,
    Verify,
}

impl Kind {
    fn file_part(self) -> &'static str {
        match self {
            Kind::SignSeed => "sign_seed",
            Kind::SignNoseed => "sign_noseed",
            Kind::Verify => "verify",
        }
    }
}

/// Whether the case expects success (`valid`) or failure (`invalid`).
fn expects_valid(t: &Value) -> Result<bool, String> {
    match str_field(t, "result") {
        "valid" => Ok(true),
        "invalid" => Ok(false),
        other => Err(format!("unexpected result {other:?}")),
    }
}

fn flags(t: &Value) -> Vec<&str> {
    t.get("flags")
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default()
}

/// A description of the case for failure messages.
fn case_id(t: &Value) -> String {
    format!(
        "tcId {} ({:?}, flags {:?}, {})",
        u64_field(t, "tcId"),
        str_field(t, "comment"),
        flags(t),
        str_field(t, "result")
    )
}

fn fixed<const N: usize>(what: &str, v: Option<Vec<u8>>) -> Result<Option<[u8; N]>, String> {
    v.map(|b| {
        <[u8; N]>::try_from(b.as_slice())
            .map_err(|_| format!("{what} has {} bytes, expected {N}", b.len()))
    })
    .transpose()
}

/// Whether `err` is the kind of error the case's flags call for (when they name one).
fn error_matches_flags(err: &Error, t: &Value) -> Result<(), String> {
    let f = flags(t);
    let ok = if f.contains(&"InvalidContext") {
        matches!(err, Error::ContextTooLong { .. })
    } else if f.contains(&"IncorrectPrivateKeyLength") {
        matches!(err, Error::InvalidLength { .. })
    } else if f.contains(&"InvalidPrivateKey") {
        matches!(err, Error::MalformedSecretKey)
    } else {
        true
    };
    ensure(ok, || {
        format!("rejected, but with an error that does not fit the flags: {err:?}")
    })
}

// ---------------------------------------------------------------------------------------------
// Signing files

/// One signing case with an imported key.
fn sign_case<P: ParameterSet>(sk: &SigningKey<P>, t: &Value) -> Result<(), String> {
    let valid = expects_valid(t)?;
    let msg = opt_hex(t, "msg");
    let ctx = opt_hex(t, "ctx").unwrap_or_default();
    let rnd: [u8; 32] = fixed("rnd", opt_hex(t, "rnd"))?.unwrap_or([0u8; 32]);
    let mu: Option<[u8; 64]> = fixed("mu", opt_hex(t, "mu"))?;
    let want = hex_field(t, "sig");
    let vk = sk.verifying_key();

    if !valid {
        // The key was accepted, so signing this message must fail.
        let msg = msg.ok_or("invalid case, the key was accepted and there is no msg to sign")?;
        match sk.sign_with_rnd(&msg, &ctx, &rnd) {
            Ok(sig) => {
                return Err(format!(
                    "signing succeeded but must fail (ctx {} bytes, signature {})",
                    ctx.len(),
                    common::short_hex(sig.as_bytes())
                ));
            }
            Err(e) => error_matches_flags(&e, t)?,
        }
        return match vk.compute_mu(&msg, &ctx) {
            Ok(_) => Err("compute_mu succeeded but must fail".into()),
            Err(e) => error_matches_flags(&e, t),
        };
    }

    let mut checked = false;
    if let Some(msg) = &msg {
        let sig = sk
            .sign_with_rnd(msg, &ctx, &rnd)
            .map_err(|e| format!("sign_with_rnd failed: {e}"))?;
        ensure_eq_bytes("signature (sign_with_rnd)", sig.as_bytes(), &want)?;
        vk.verify(msg, &ctx, &sig)
            .map_err(|e| format!("own signature does not verify: {e}"))?;
        if let Some(mu) = &mu {
            let got = vk
                .compute_mu(msg, &ctx)
                .map_err(|e| format!("compute_mu failed: {e}"))?;
            ensure_eq_bytes("mu (compute_mu)", &got, mu)?;
        }
        checked = true;
    }
    if let Some(mu) = &mu {
        let sig = sk
            .sign_mu(mu, &rnd)
            .map_err(|e| format!("sign_mu failed: {e}"))?;
        ensure_eq_bytes("signature (sign_mu)", sig.as_bytes(), &want)?;
        vk.verify_mu(mu, &sig)
            .map_err(|e| format!("own signature does not verify (verify_mu): {e}"))?;
        checked = true;
    }
    ensure(checked, || "valid case with neither msg nor mu".into())
}

/// One group of a `sign_seed` or `sign_noseed` file.
fn sign_group<P: ParameterSet>(kind: Kind, g: &Value, tally: &mut Tally) {
    let imported = if kind == Kind::SignSeed {
        SigningKey::<P>::from_seed_slice(&hex_field(g, "privateSeed"))
    } else {
        SigningKey::<P>::from_expanded(&hex_field(g, "privateKey"))
    };
    // Checks of the imported key that every case of the group depends on.
    let key_check = |sk: &SigningKey<P>| -> Result<(), String> {
        if let Some(pk) = opt_str(g, "publicKey") {
            ensure_eq_bytes(
                "public key",
                sk.verifying_key().as_bytes(),
                &common::unhex(pk),
            )?;
        }
        if kind == Kind::SignNoseed {
            ensure_eq_bytes(
                "re-encoded secret key",
                sk.to_expanded().as_ref(),
                &hex_field(g, "privateKey"),
            )?;
        }
        Ok(())
    };
    for t in tests(g) {
        let r = match &imported {
            Ok(sk) => key_check(sk).and_then(|()| sign_case(sk, t)),
            Err(e) => match expects_valid(t) {
                Ok(true) => Err(format!("key import failed: {e}")),
                Ok(false) => error_matches_flags(e, t),
                Err(why) => Err(why),
            },
        };
        tally.record(case_id(t), r);
    }
}

// ---------------------------------------------------------------------------------------------
// Verification files

fn verify_group<P: ParameterSet>(g: &Value, tally: &mut Tally) {
    let vk = opt_str(g, "publicKey")
        .map(common::unhex)
        .map(|pk| VerifyingKey::<P>::from_bytes(&pk));
    for t in tests(g) {
        let r = expects_valid(t).and_then(|valid| {
            let msg = hex_field(t, "msg");
            let ctx = opt_hex(t, "ctx").unwrap_or_default();
            let verdict = match &vk {
                None => Err("no public key".to_string()),
                Some(Err(e)) => Err(format!("public key rejected: {e}")),
                Some(Ok(vk)) => Signature::<P>::from_bytes(&hex_field(t, "sig"))
                    .map_err(|e| format!("signature rejected: {e}"))
                    .and_then(|sig| {
                        vk.verify(&msg, &ctx, &sig)
                            .map_err(|e| format!("verify failed: {e}"))
                    }),
            };
            match (valid, verdict) {
                (true, Ok(())) | (false, Err(_)) => Ok(()),
                (true, Err(why)) => Err(format!("expected valid, got invalid: {why}")),
                (false, Ok(())) => Err("expected invalid, but the signature verifies".into()),
            }
        });
        tally.record(case_id(t), r);
    }
}

// ---------------------------------------------------------------------------------------------

/// Runs one file; `total` and `valid` are the numbers the vector README documents.
fn run(level: &str, kind: Kind, total: usize, valid: usize) {
    let Some(dir) = common::vectors_dir() else {
        return;
    };
    let name = format!("mldsa_{level}_{}_test.json", kind.file_part());
    let json = common::load_json(&dir, &format!("wycheproof/testvectors_v1/{name}"));
    let in_file = count_cases(&json);
    assert_eq!(
        json.get("numberOfTests").and_then(Value::as_u64),
        Some(in_file as u64),
        "{name}: numberOfTests disagrees with the cases in the file"
    );
    let ps = format!("ML-DSA-{level}");
    let mut tally = Tally::new(format!("Wycheproof {name}"));
    for g in groups(&json) {
        match kind {
            Kind::Verify => with_param_set!(ps.as_str(), verify_group(g, &mut tally)),
            _ => with_param_set!(ps.as_str(), sign_group(kind, g, &mut tally)),
        }
    }
    tally.finish(in_file, total);
    let n_valid = groups(&json)
        .iter()
        .flat_map(tests)
        .filter(|t| str_field(t, "result") == "valid")
        .count();
    assert_eq!(
        (n_valid, in_file - n_valid),
        (valid, total - valid),
        "{name}: unexpected valid/invalid split"
    );
}

#[test]
fn wycheproof_mldsa_44_sign_seed() {
    run("44", Kind::SignSeed, 86, 82);
}

#[test]
fn wycheproof_mldsa_65_sign_seed() {
    run("65", Kind::SignSeed, 105, 101);
}

#[test]
fn wycheproof_mldsa_87_sign_seed() {
    run("87", Kind::SignSeed, 96, 92);
}

#[test]
fn wycheproof_mldsa_44_sign_noseed() {
    run("44", Kind::SignNoseed, 73, 68);
}

#[test]
fn wycheproof_mldsa_65_sign_noseed() {
    run("65", Kind::SignNoseed, 78, 73);
}

#[test]
fn wycheproof_mldsa_87_sign_noseed() {
    run("87", Kind::SignNoseed, 69, 64);
}

#[test]
fn wycheproof_mldsa_44_verify() {
    run("44", Kind::Verify, 180, 77);
}

#[test]
fn wycheproof_mldsa_65_verify() {
    run("65", Kind::Verify, 210, 79);
}

#[test]
fn wycheproof_mldsa_87_verify() {
    run("87", Kind::Verify, 241, 71);
}
