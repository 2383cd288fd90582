//! `sign_encoded` and `sign_mu_encoded` (signing on the encoded secret key into the caller's
//! buffer) against the NIST ACVP sigGen vectors (revisions FIPS204 and FIPS204-tr1, from
//! `<vectors>/acvp/`): every case of the pure interface through `sign_encoded`, every case of the
//! internal interface (M' given, or mu given) through `sign_mu_encoded`, deterministic and
//! hedged, expanded and seed-format keys (the latter expanded by `SigningKey::to_expanded`):
//! 270 and 540 cases;
//! HashML-DSA cases are left to the key type's tests. Each case is signed again with one wrong
//! byte of K and one of s1, which must give another signature or an error.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use common::{
    Tally, bool_field, by_tc_id, ensure, ensure_eq_bytes, groups, hex_field, load_acvp, opt_bool,
    opt_str, str_field, tests, u64_field, unhex_array, vectors_dir,
};
use pqlab_keccak::Shake256;
use pqlab_mldsa::{
    Error, ExpandedSigningKey, ParameterSet, SigningKey, sign_encoded, sign_encoded_counted,
    sign_mu_encoded,
};
use serde_json::Value;

use crate::common;

/// How a case is signed: with M and ctx, or with mu.
enum Input {
    Pure { msg: Vec<u8>, ctx: Vec<u8> },
    Mu([u8; 64]),
}

/// The signature of `input` under the encoded key `sk`, or the error.
fn sign<P: ParameterSet>(sk: &[u8], input: &Input, rnd: &[u8; 32]) -> Result<Vec<u8>, Error> {
    let mut sig = vec![0u8; P::SIG_LEN];
    let n = match input {
        Input::Pure { msg, ctx } => sign_encoded::<P>(sk, msg, ctx, rnd, &mut sig)?,
        Input::Mu(mu) => sign_mu_encoded::<P>(sk, mu, rnd, &mut sig)?,
    };
    assert_eq!(n, P::SIG_LEN);
    Ok(sig)
}

fn case<P: ParameterSet>(g: &Value, t: &Value, want: &Value) -> Result<(), String> {
    let sk: Vec<u8> = if opt_str(g, "keyFormat") == Some("seed") {
        let xi: [u8; 32] = unhex_array(str_field(t, "seed"));
        SigningKey::<P>::from_seed(&xi)
            .to_expanded()
            .as_ref()
            .to_vec()
    } else {
        hex_field(t, "sk")
    };
    let rnd: [u8; 32] = if bool_field(g, "deterministic") {
        [0; 32]
    } else {
        unhex_array(str_field(t, "rnd"))
    };
    let input = if opt_bool(g, "externalMu").unwrap_or(false) {
        Input::Mu(unhex_array(str_field(t, "mu")))
    } else if str_field(g, "signatureInterface") == "internal" {
        // mu = H(tr || M', 64) (FIPS 204, Algorithm 7 line 6), tr from the key's encoding.
        let mut mu = [0u8; 64];
        Shake256::digest_parts(&[&sk[64..128], &hex_field(t, "message")], &mut mu);
        Input::Mu(mu)
    } else {
        Input::Pure {
            msg: hex_field(t, "message"),
            ctx: hex_field(t, "context"),
        }
    };
    let want = hex_field(want, "signature");
    let sig = sign::<P>(&sk, &input, &rnd).map_err(|e| format!("signing failed: {e}"))?;
    ensure_eq_bytes("signature", &sig, &want)?;
    // One wrong byte of K (bytes 32 to 63), then of s1 (from byte 128): another signature, or
    // (an s1 coefficient out of range) an error.
    let id = u64_field(t, "tcId") as usize;
    for at in [32 + id % 32, 128 + id % (32 * P::ETA_BITS)] {
        let mut bad = sk.clone();
        bad[at] ^= 1 << (id % 8);
        let got = sign::<P>(&bad, &input, &rnd);
        ensure(got.as_ref() != Ok(&want), || {
            format!("a key with byte {at} changed gave the same signature")
        })?;
    }
    Ok(())
}

fn run(set: &str, expected: usize) {
    let Some(dir) = vectors_dir() else {
        return;
    };
    let (prompt, answers) = load_acvp(&dir, &format!("acvp/{set}"));
    let want = by_tc_id(&answers);
    let mut tally = Tally::new(format!("sign_encoded: ACVP {set}"));
    let (mut in_scope, mut det, mut hedged, mut internal) = (0, 0, 0, 0);
    for g in groups(&prompt) {
        if opt_str(g, "preHash") == Some("preHash") {
            continue;
        }
        let ps = str_field(g, "parameterSet");
        for t in tests(g) {
            let id = u64_field(t, "tcId");
            in_scope += 1;
            if bool_field(g, "deterministic") {
                det += 1;
            } else {
                hedged += 1;
            }
            if str_field(g, "signatureInterface") == "internal" {
                internal += 1;
            }
            let r = with_param_set!(ps, case(g, t, want[&id]));
            tally.record(format_args!("tcId {id} ({ps})"), r);
        }
    }
    println!("{set}: {det} deterministic, {hedged} hedged, {internal} internal-interface cases");
    assert!(det > 0 && hedged > 0 && internal > 0);
    tally.finish(in_scope, expected);
}

#[test]
fn acvp_siggen_through_sign_encoded() {
    run("ML-DSA-sigGen-FIPS204", 270);
}

#[test]
fn acvp_siggen_tr1_through_sign_encoded() {
    run("ML-DSA-sigGen-FIPS204-tr1", 540);
}

/// Keys and buffers of the wrong length are refused before anything is signed.
#[test]
fn wrong_lengths_are_refused() {
    type P = pqlab_mldsa::MlDsa44;
    let sk = SigningKey::<P>::from_seed(&[9; 32]).to_expanded();
    let mut sig = vec![0u8; P::SIG_LEN + 1];
    let r = sign_encoded::<P>(sk.as_ref(), b"m", b"", &[0; 32], &mut sig);
    assert!(matches!(r, Err(Error::InvalidLength { .. })), "{r:?}");
    let r = sign_encoded::<P>(&sk.as_ref()[1..], b"m", b"", &[0; 32], &mut sig[1..]);
    assert!(matches!(r, Err(Error::InvalidLength { .. })), "{r:?}");
    let r = sign_encoded::<P>(sk.as_ref(), b"m", &[0; 256], &[0; 32], &mut sig[1..]);
    assert!(matches!(r, Err(Error::ContextTooLong { .. })), "{r:?}");
}

/// The counted variants sign the same bytes and count the loop as `sign_mu_counted` does.
#[test]
fn counted_signing_agrees_with_the_key_api() {
    type P = pqlab_mldsa::MlDsa65;
    let key = SigningKey::<P>::from_seed(&[3; 32]);
    let sk = key.to_expanded();
    let ek = ExpandedSigningKey::new(SigningKey::<P>::from_seed(&[3; 32]));
    let mut counts = Vec::new();
    for m in 0u8..8 {
        let msg = [m; 32];
        let mut sig = vec![0u8; P::SIG_LEN];
        let n = sign_encoded_counted::<P>(sk.as_ref(), &msg, b"", &[0; 32], &mut sig).unwrap();
        let (s, k) = ek.sign_with_rnd_counted(&msg, b"", &[0; 32]).unwrap();
        assert_eq!((s.as_bytes(), k), (&sig[..], n));
        assert_eq!(
            key.sign_deterministic(&msg, b"").unwrap().as_bytes(),
            &sig[..]
        );
        counts.push(n);
    }
    assert!(counts.iter().all(|&n| n >= 1));
    assert!(
        counts.iter().any(|&n| n > 1),
        "8 signatures all first-try: {counts:?}"
    );
}
