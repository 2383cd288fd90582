//! NIST ACVP conformance tests for ML-DSA (FIPS 204): keyGen, sigGen (revisions FIPS204 and
//! FIPS204-tr1) and sigVer, from `<vectors>/acvp/`. See the vector folder's README for the
//! file formats.
//!
//! The cases of the `acvp_mldsa` tests, in a file of their own.

use crate::common::{
    Tally, bool_field, by_tc_id, count_cases, ensure, ensure_eq_bytes, groups, hex_field,
    load_acvp, opt_bool, opt_str, str_field, tests, u64_field, unhex_array,
};
use crate::with_param_set;
use pqlab_mldsa::{HashAlg, ParameterSet, Signature, SigningKey, VerifyingKey};
use serde_json::Value;

// ---------------------------------------------------------------------------------------------
// keyGen

fn keygen_case<P: ParameterSet>(test: &Value, want: &Value) -> Result<(), String> {
    let seed: [u8; 32] = unhex_array(str_field(test, "seed"));
    let sk = SigningKey::<P>::from_seed(&seed);
    ensure_eq_bytes(
        "public key",
        sk.verifying_key().as_bytes(),
        &hex_field(want, "pk"),
    )?;
    ensure_eq_bytes(
        "expanded secret key",
        sk.to_expanded().as_ref(),
        &hex_field(want, "sk"),
    )?;
    ensure(sk.seed() == Some(&seed), || {
        "the key does not keep its seed".into()
    })?;
    // The same keys written into buffers by the encoded-key interface (PQClean's API).
    let (mut pk, mut sk) = ([0u8; 2592], [0u8; 4896]);
    let (pk, sk) = (&mut pk[..P::PK_LEN], &mut sk[..P::SK_LEN]);
    pqlab_mldsa::key_gen_encoded::<P>(&seed, pk, sk).map_err(|e| format!("{e:?}"))?;
    ensure_eq_bytes("key_gen_encoded public key", pk, &hex_field(want, "pk"))?;
    ensure_eq_bytes("key_gen_encoded secret key", sk, &hex_field(want, "sk"))
}

/// ACVP keyGen: every case must pass.
pub fn keygen() {
    let Some(dir) = crate::common::vectors_dir() else {
        return;
    };
    let set = "ML-DSA-keyGen-FIPS204";
    let (prompt, expected) = load_acvp(&dir, &format!("acvp/{set}"));
    let want = by_tc_id(&expected);
    let mut tally = Tally::new(format!("ACVP {set}"));
    for g in groups(&prompt) {
        let ps = str_field(g, "parameterSet");
        for t in tests(g) {
            let id = u64_field(t, "tcId");
            let w = want[&id];
            let r = with_param_set!(ps, keygen_case(t, w));
            tally.record(format_args!("tcId {id} ({ps})"), r);
        }
    }
    tally.finish(count_cases(&prompt), 75);
}

// ---------------------------------------------------------------------------------------------
// sigGen

/// How a sigGen / sigVer group calls the library.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Interface {
    /// Sign_internal / Verify_internal on the message as M'.
    Internal,
    /// Sign_internal from line 7 on, with mu given ("external mu").
    ExternalMu,
    /// ML-DSA.Sign / Verify with a context.
    Pure,
    /// HashML-DSA.Sign / Verify with a context and a pre-hash function.
    PreHash,
}

impl Interface {
    fn of_group(g: &Value) -> Self {
        match str_field(g, "signatureInterface") {
            "internal" => {
                if opt_bool(g, "externalMu").unwrap_or(false) {
                    Interface::ExternalMu
                } else {
                    Interface::Internal
                }
            }
            "external" => match str_field(g, "preHash") {
                "pure" => Interface::Pure,
                "preHash" => Interface::PreHash,
                other => panic!("unknown preHash {other:?}"),
            },
            other => panic!("unknown signatureInterface {other:?}"),
        }
    }
}

/// The signing input of one ACVP case.
struct SignInput {
    message: Vec<u8>,
    context: Vec<u8>,
    mu: [u8; 64],
    hash: Option<HashAlg>,
}

impl SignInput {
    fn of_test(iface: Interface, t: &Value) -> Result<Self, String> {
        let mut input = SignInput {
            message: Vec::new(),
            context: Vec::new(),
            mu: [0u8; 64],
            hash: None,
        };
        match iface {
            Interface::ExternalMu => input.mu = unhex_array(str_field(t, "mu")),
            Interface::Internal => input.message = hex_field(t, "message"),
            Interface::Pure | Interface::PreHash => {
                input.message = hex_field(t, "message");
                input.context = hex_field(t, "context");
            }
        }
        if let Interface::PreHash = iface {
            let name = str_field(t, "hashAlg");
            input.hash = Some(
                HashAlg::from_name(name)
                    .map_err(|e| format!("HashAlg::from_name({name:?}) failed: {e}"))?,
            );
        }
        Ok(input)
    }

    fn sign<P: ParameterSet>(
        &self,
        iface: Interface,
        sk: &SigningKey<P>,
        rnd: &[u8; 32],
    ) -> Result<Signature<P>, String> {
        let r = match iface {
            Interface::Internal => sk.sign_internal(&self.message, rnd),
            Interface::ExternalMu => sk.sign_mu(&self.mu, rnd),
            Interface::Pure => sk.sign_with_rnd(&self.message, &self.context, rnd),
            Interface::PreHash => {
                sk.sign_prehash_with_rnd(&self.message, &self.context, self.hash.unwrap(), rnd)
            }
        };
        r.map_err(|e| format!("signing failed: {e}"))
    }

    fn verify<P: ParameterSet>(
        &self,
        iface: Interface,
        vk: &VerifyingKey<P>,
        sig: &Signature<P>,
    ) -> Result<(), pqlab_mldsa::Error> {
        match iface {
            Interface::Internal => vk.verify_internal(&self.message, sig),
            Interface::ExternalMu => vk.verify_mu(&self.mu, sig),
            Interface::Pure => vk.verify(&self.message, &self.context, sig),
            Interface::PreHash => {
                vk.verify_prehash(&self.message, &self.context, self.hash.unwrap(), sig)
            }
        }
    }
}

fn siggen_case<P: ParameterSet>(
    g: &Value,
    iface: Interface,
    t: &Value,
    want: &Value,
) -> Result<(), String> {
    let seed_format = opt_str(g, "keyFormat") == Some("seed");
    let sk = if seed_format {
        SigningKey::<P>::from_seed(&unhex_array(str_field(t, "seed")))
    } else {
        let bytes = hex_field(t, "sk");
        let sk = SigningKey::<P>::from_expanded(&bytes)
            .map_err(|e| format!("from_expanded rejected the key: {e}"))?;
        ensure_eq_bytes("re-encoded secret key", sk.to_expanded().as_ref(), &bytes)?;
        sk
    };
    let rnd: [u8; 32] = if bool_field(g, "deterministic") {
        [0u8; 32]
    } else {
        unhex_array(str_field(t, "rnd"))
    };
    let input = SignInput::of_test(iface, t)?;
    let sig = input.sign(iface, &sk, &rnd)?;
    ensure_eq_bytes("signature", sig.as_bytes(), &hex_field(want, "signature"))?;
    let vk = sk.verifying_key();
    input
        .verify(iface, &vk, &sig)
        .map_err(|e| format!("own signature does not verify: {e}"))
}

fn run_siggen(set: &str, expected_total: usize) {
    let Some(dir) = crate::common::vectors_dir() else {
        return;
    };
    let (prompt, expected) = load_acvp(&dir, &format!("acvp/{set}"));
    let want = by_tc_id(&expected);
    let mut tally = Tally::new(format!("ACVP {set}"));
    for g in groups(&prompt) {
        let ps = str_field(g, "parameterSet");
        let iface = Interface::of_group(g);
        let det = bool_field(g, "deterministic");
        let tg = u64_field(g, "tgId");
        let format = opt_str(g, "keyFormat").unwrap_or("expanded");
        for t in tests(g) {
            let id = u64_field(t, "tcId");
            let r = with_param_set!(ps, siggen_case(g, iface, t, want[&id]));
            tally.record(
                format_args!(
                    "tcId {id} (tgId {tg}, {ps}, {iface:?}, deterministic={det}, key={format})"
                ),
                r,
            );
        }
    }
    tally.finish(count_cases(&prompt), expected_total);
}

/// ACVP sigGen (FIPS204): every case must pass.
pub fn siggen() {
    run_siggen("ML-DSA-sigGen-FIPS204", 360);
}

/// ACVP sigGen (FIPS204-tr1): every case must pass.
pub fn siggen_tr1() {
    run_siggen("ML-DSA-sigGen-FIPS204-tr1", 720);
}

// ---------------------------------------------------------------------------------------------
// sigVer

/// The verdict of the library: true when the signature verifies. A public key or signature of
/// the wrong length is a "fail".
fn sigver_verdict<P: ParameterSet>(g: &Value, iface: Interface, t: &Value) -> Result<bool, String> {
    let pk = opt_str(t, "pk")
        .or_else(|| opt_str(g, "pk"))
        .map(crate::common::unhex)
        .ok_or("no pk in test or group")?;
    let Ok(vk) = VerifyingKey::<P>::from_bytes(&pk) else {
        return Ok(false);
    };
    let Ok(sig) = Signature::<P>::from_bytes(&hex_field(t, "signature")) else {
        return Ok(false);
    };
    let input = SignInput::of_test(iface, t)?;
    let verdict = input.verify(iface, &vk, &sig).is_ok();
    // The pure interface again on the encodings (no decoded key): the same verdict.
    if iface == Interface::Pure {
        let encoded = pqlab_mldsa::verify_encoded::<P>(
            &pk,
            &input.message,
            &input.context,
            &hex_field(t, "signature"),
        );
        if encoded.is_ok() != verdict {
            return Err(format!(
                "verify_encoded: {encoded:?}, the key type's verdict {verdict}"
            ));
        }
    }
    Ok(verdict)
}

/// ACVP sigVer: every case must give the expected verdict.
pub fn sigver() {
    let Some(dir) = crate::common::vectors_dir() else {
        return;
    };
    let set = "ML-DSA-sigVer-FIPS204";
    let (prompt, expected) = load_acvp(&dir, &format!("acvp/{set}"));
    let want = by_tc_id(&expected);
    let (mut pass, mut fail) = (0, 0);
    let mut tally = Tally::new(format!("ACVP {set}"));
    for g in groups(&prompt) {
        let ps = str_field(g, "parameterSet");
        let iface = Interface::of_group(g);
        let tg = u64_field(g, "tgId");
        for t in tests(g) {
            let id = u64_field(t, "tcId");
            let expect = bool_field(want[&id], "testPassed");
            if expect {
                pass += 1;
            } else {
                fail += 1;
            }
            let r = with_param_set!(ps, sigver_verdict(g, iface, t)).and_then(|got| {
                ensure(got == expect, || {
                    format!("verification gave {got}, expected testPassed={expect}")
                })
            });
            tally.record(format_args!("tcId {id} (tgId {tg}, {ps}, {iface:?})"), r);
        }
    }
    assert_eq!(
        (pass, fail),
        (36, 144),
        "{set}: expected 36 pass / 144 fail cases"
    );
    tally.finish(count_cases(&prompt), 180);
}
