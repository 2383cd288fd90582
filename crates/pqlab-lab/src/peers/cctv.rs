//! The peers on C2SP CCTV's ML-DSA benchmark set ([`crate::ours::cctv`]): each peer that can
//! sign with the key from a 32-byte seed (FIPS 204, Algorithm 6: ML-DSA.KeyGen_internal) and
//! rnd = 0 (Algorithm 2: ML-DSA.Sign, deterministic variant), empty context, so that its
//! signatures equal pqlab's byte for byte and it runs the same signing-loop iterations.
//!
//! * `libcrux`: `generate_key_pair(xi)` and `sign(.., randomness)` take both directly.
//! * `rustcrypto`: `ExpandedSigningKey::from_seed` and `sign_deterministic`; mu alone through
//!   `VerifyingKey::compute_mu`.
//! * `liboqs`: its ML-DSA (pq-crystals code built with `DILITHIUM_RANDOMIZED_SIGNING`) draws
//!   rnd from `OQS_randombytes`, which liboqs lets a caller replace
//!   (`OQS_randombytes_custom_algorithm`): while a deterministic liboqs signer exists, the
//!   callback gives zeros to the thread that is signing with it (other threads get the OS
//!   generator), and liboqs' system generator is put back when the last one is dropped. Its
//!   key is pqlab's expanded key (skEncode, the format liboqs keeps).
//! * `pqcrypto` (PQClean) and `aws-lc-rs` cannot (see [`CANNOT`]): they are timed on the same
//!   messages with their own randomness, in rows labelled randomized.

use std::cell::Cell;
use std::sync::Mutex;

use aws_lc_rs::signature as aws;
use ml_dsa as rcdsa;
use pqcrypto_traits::sign::{DetachedSignature, SecretKey};

use super::bad;
use crate::LabError;
use crate::ours::cctv::SetSigner;

/// Why a peer cannot sign the set deterministically.
pub(crate) const CANNOT: [(&str, &str); 2] = [
    (
        "pqcrypto",
        "PQClean's ML-DSA signing draws rnd from randombytes() on every call, which \
         pqcrypto-internals serves from the OS with no hook, and keypair() draws its own seed \
         (no key from a seed): timed with pqlab's expanded key of the same seed and its own \
         randomness (randomized)",
    ),
    (
        "aws-lc-rs",
        "PqdsaKeyPair::from_seed gives the key, but PqdsaKeyPair::sign draws rnd from \
         AWS-LC's RAND_bytes and AWS-LC's chosen-rnd sign_internal is not in its public \
         headers (nor in aws-lc-sys): timed with its own randomness (randomized)",
    ),
];

/// The peers' signers of `alg` with the key from seed `xi` (expanded: `sk`), and a note for
/// each peer that cannot sign deterministically.
pub(crate) fn signers(alg: &str, xi: &[u8; 32], sk: &[u8]) -> (Vec<SetSigner>, Vec<String>) {
    let mut out = Vec::new();
    let mut notes: Vec<String> = CANNOT
        .iter()
        .map(|(imp, why)| {
            format!("{imp} {alg}: cannot sign the CCTV set deterministically ({why})")
        })
        .collect();
    let made = match alg {
        "ml-dsa-44" => [
            libcrux44(xi),
            Ok(rustcrypto::<rcdsa::MlDsa44>("ml-dsa-44", xi)),
            liboqs("ml-dsa-44", oqs::sig::Algorithm::MlDsa44, sk),
            pqcrypto44(sk),
            aws_lc("ml-dsa-44", &aws::ML_DSA_44_SIGNING, xi),
        ],
        "ml-dsa-65" => [
            libcrux65(xi),
            Ok(rustcrypto::<rcdsa::MlDsa65>("ml-dsa-65", xi)),
            liboqs("ml-dsa-65", oqs::sig::Algorithm::MlDsa65, sk),
            pqcrypto65(sk),
            aws_lc("ml-dsa-65", &aws::ML_DSA_65_SIGNING, xi),
        ],
        "ml-dsa-87" => [
            libcrux87(xi),
            Ok(rustcrypto::<rcdsa::MlDsa87>("ml-dsa-87", xi)),
            liboqs("ml-dsa-87", oqs::sig::Algorithm::MlDsa87, sk),
            pqcrypto87(sk),
            aws_lc("ml-dsa-87", &aws::ML_DSA_87_SIGNING, xi),
        ],
        _ => return (out, Vec::new()),
    };
    for m in made {
        match m {
            Ok(s) => out.push(s),
            Err(e) => notes.push(format!("{alg} cctv benchmark: a peer: {e}")),
        }
    }
    (out, notes)
}

fn signed(out: &mut Vec<u8>, sig: &[u8]) -> Result<(), LabError> {
    out.clear();
    out.extend_from_slice(sig);
    Ok(())
}

fn libcrux_err(e: libcrux_ml_dsa::SigningError) -> LabError {
    LabError::Implementation(format!("libcrux: {e:?}"))
}

/// A libcrux signer: `key` (from the seed) and its parameter set's `sign`, rnd = 0.
fn libcrux<const SK: usize, const SIG: usize>(
    alg: &'static str,
    key: libcrux_ml_dsa::MLDSASigningKey<SK>,
    sign: LibcruxSign<SK, SIG>,
) -> Result<SetSigner, LabError> {
    Ok(SetSigner {
        implementation: "libcrux",
        alg,
        deterministic: true,
        sign: Box::new(move |msg, out| {
            signed(
                out,
                sign(&key, msg, &[], [0; 32])
                    .map_err(libcrux_err)?
                    .as_slice(),
            )
        }),
        mu: None,
    })
}

/// libcrux's `ml_dsa_XX::sign` of one parameter set.
type LibcruxSign<const SK: usize, const SIG: usize> =
    fn(
        &libcrux_ml_dsa::MLDSASigningKey<SK>,
        &[u8],
        &[u8],
        [u8; 32],
    ) -> Result<libcrux_ml_dsa::MLDSASignature<SIG>, libcrux_ml_dsa::SigningError>;

fn libcrux44(xi: &[u8; 32]) -> Result<SetSigner, LabError> {
    use libcrux_ml_dsa::ml_dsa_44 as m;
    libcrux("ml-dsa-44", m::generate_key_pair(*xi).signing_key, m::sign)
}

fn libcrux65(xi: &[u8; 32]) -> Result<SetSigner, LabError> {
    use libcrux_ml_dsa::ml_dsa_65 as m;
    libcrux("ml-dsa-65", m::generate_key_pair(*xi).signing_key, m::sign)
}

fn libcrux87(xi: &[u8; 32]) -> Result<SetSigner, LabError> {
    use libcrux_ml_dsa::ml_dsa_87 as m;
    libcrux("ml-dsa-87", m::generate_key_pair(*xi).signing_key, m::sign)
}

fn rustcrypto<Q: rcdsa::MlDsaParams + 'static>(alg: &'static str, xi: &[u8; 32]) -> SetSigner {
    use rcdsa::signature::digest::Update as _;
    let key = rcdsa::ExpandedSigningKey::<Q>::from_seed(&rcdsa::Seed::from(*xi));
    let vk = key.verifying_key();
    let rc_err = |e: rcdsa::Error| LabError::Implementation(format!("ml-dsa: {e}"));
    SetSigner {
        implementation: "rustcrypto",
        alg,
        deterministic: true,
        sign: Box::new(move |msg, out| {
            let sig = key.sign_deterministic(msg, &[]).map_err(rc_err)?;
            signed(out, sig.encode().as_slice())
        }),
        mu: Some(Box::new(move |msg| {
            let mu = vk
                .compute_mu(
                    |h| {
                        h.update(msg);
                        Ok(())
                    },
                    &[],
                )
                .map_err(rc_err)?;
            std::hint::black_box(mu);
            Ok(())
        })),
    }
}

/// A pqcrypto (PQClean) signer of the secret key `sk` with its parameter set's
/// `detached_sign` (randomized: PQClean draws rnd itself).
fn pqcrypto<K, S>(
    alg: &'static str,
    sk: &[u8],
    sign: fn(&[u8], &K) -> S,
) -> Result<SetSigner, LabError>
where
    K: SecretKey + Send + 'static,
    S: DetachedSignature + 'static,
{
    let key = K::from_bytes(sk).map_err(|_| bad("secret key"))?;
    Ok(SetSigner {
        implementation: "pqcrypto",
        alg,
        deterministic: false,
        sign: Box::new(move |msg, out| signed(out, sign(msg, &key).as_bytes())),
        mu: None,
    })
}

fn pqcrypto44(sk: &[u8]) -> Result<SetSigner, LabError> {
    pqcrypto("ml-dsa-44", sk, pqcrypto_mldsa::mldsa44::detached_sign)
}

fn pqcrypto65(sk: &[u8]) -> Result<SetSigner, LabError> {
    pqcrypto("ml-dsa-65", sk, pqcrypto_mldsa::mldsa65::detached_sign)
}

fn pqcrypto87(sk: &[u8]) -> Result<SetSigner, LabError> {
    pqcrypto("ml-dsa-87", sk, pqcrypto_mldsa::mldsa87::detached_sign)
}

fn aws_lc(
    alg: &'static str,
    which: &'static aws::PqdsaSigningAlgorithm,
    xi: &[u8; 32],
) -> Result<SetSigner, LabError> {
    let kp = aws::PqdsaKeyPair::from_seed(which, xi)
        .map_err(|e| LabError::Implementation(format!("aws-lc-rs from_seed: {e:?}")))?;
    let mut buf = vec![0u8; which.signature_len()];
    Ok(SetSigner {
        implementation: "aws-lc-rs",
        alg,
        deterministic: false,
        sign: Box::new(move |msg, out| {
            let n = kp
                .sign(msg, &mut buf)
                .map_err(|e| LabError::Implementation(format!("aws-lc-rs sign: {e:?}")))?;
            signed(out, &buf[..n])
        }),
        mu: None,
    })
}

// --- liboqs with rnd = 0 ---------------------------------------------------------------------

thread_local! {
    /// Whether liboqs' randomness callback gives this thread zeros (rnd = 0).
    static ZERO_RND: Cell<bool> = const { Cell::new(false) };
}

/// Deterministic liboqs signers alive; the callback is installed while there is one.
static INSTALLED: Mutex<usize> = Mutex::new(0);

/// liboqs' randomness while a deterministic signer exists: zeros on the thread that signs with
/// it, the OS generator elsewhere.
#[allow(unsafe_code)]
unsafe extern "C" fn zero_or_os(buf: *mut u8, len: usize) {
    if buf.is_null() || len == 0 {
        return;
    }
    // SAFETY: liboqs passes a buffer of `len` writable bytes (OQS_randombytes' contract), not
    // aliased by any Rust reference for the duration of the call.
    let out = unsafe { std::slice::from_raw_parts_mut(buf, len) };
    if ZERO_RND.with(Cell::get) {
        out.fill(0);
    } else if getrandom::fill(out).is_err() {
        // liboqs' own system generator aborts likewise when the OS has no randomness.
        std::process::abort();
    }
}

/// Keeps [`zero_or_os`] installed while it lives.
struct ZeroRnd;

impl ZeroRnd {
    #[allow(unsafe_code)]
    fn install() -> ZeroRnd {
        let mut n = INSTALLED
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if *n == 0 {
            oqs::init();
            // SAFETY: the callback is a plain function with the signature liboqs expects; it
            // stays valid for the whole program.
            unsafe { oqs::ffi::rand::OQS_randombytes_custom_algorithm(Some(zero_or_os)) };
        }
        *n += 1;
        ZeroRnd
    }
}

impl Drop for ZeroRnd {
    #[allow(unsafe_code)]
    fn drop(&mut self) {
        let mut n = INSTALLED
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        *n -= 1;
        if *n == 0 {
            // SAFETY: a NUL-terminated name from liboqs' own constants.
            unsafe {
                oqs::ffi::rand::OQS_randombytes_switch_algorithm(
                    oqs::ffi::rand::OQS_RAND_alg_system.as_ptr().cast(),
                )
            };
        }
    }
}

fn liboqs(alg: &'static str, which: oqs::sig::Algorithm, sk: &[u8]) -> Result<SetSigner, LabError> {
    let oqs_err = |e: oqs::Error| LabError::Implementation(format!("liboqs: {e:?}"));
    oqs::init();
    let scheme = oqs::sig::Sig::new(which).map_err(oqs_err)?;
    if scheme.secret_key_from_bytes(sk).is_none() {
        return Err(bad("secret key"));
    }
    let sk = sk.to_vec();
    let guard = ZeroRnd::install();
    Ok(SetSigner {
        implementation: "liboqs",
        alg,
        deterministic: true,
        sign: Box::new(move |msg, out| {
            let _installed = &guard;
            let key = scheme
                .secret_key_from_bytes(&sk)
                .ok_or_else(|| bad("secret key"))?;
            ZERO_RND.with(|z| z.set(true));
            let sig = scheme.sign(msg, key);
            ZERO_RND.with(|z| z.set(false));
            signed(out, sig.map_err(oqs_err)?.as_ref())
        }),
        mu: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ours::cctv::{
        self as set, MU_VARIANT, ONE_LOOP_VARIANT, RANDOMIZED_VARIANT, VARIANT,
    };
    use crate::run::Config;

    /// Every peer that can sign deterministically gets a "cctv benchmark" row with pqlab's
    /// loop counts (its signatures were equal to pqlab's), the others a randomized row, and
    /// the deterministic ones join the message-length study at every length.
    #[test]
    fn the_peers_sign_the_cctv_set_as_pqlab_does() {
        let Some(d) = crate::ours::cctv::benchmark_dir_for_tests() else {
            return;
        };
        let mut config = Config::quick();
        config.peers = true;
        config.iterations = 1;
        for alg in ["ml-dsa-44", "ml-dsa-65", "ml-dsa-87"] {
            let mut notes = Vec::new();
            let rows = set::rows(&config, &d, alg, Some(&signers), &mut notes);
            let find = |imp: &str, v: &str| {
                rows.iter()
                    .find(|r| r.implementation == imp && r.variant.as_deref() == Some(v))
            };
            let ours = find("pqlab", VARIANT)
                .unwrap()
                .signing_loops
                .clone()
                .unwrap();
            for imp in ["libcrux", "rustcrypto", "liboqs"] {
                let row = find(imp, VARIANT).unwrap_or_else(|| panic!("{imp} {alg}: {notes:?}"));
                let l = row.signing_loops.as_ref().unwrap();
                assert_eq!(
                    (l.mean, &l.histogram),
                    (ours.mean, &ours.histogram),
                    "{imp}"
                );
                assert!(l.ns_per_loop.is_some_and(|t| t > 0.0), "{imp}");
                for len in set::LENGTHS {
                    assert!(
                        rows.iter().any(|r| r.implementation == imp
                            && r.msg_len == Some(len)
                            && r.variant.as_deref() == Some(ONE_LOOP_VARIANT)),
                        "{imp} {alg} {len}"
                    );
                }
            }
            for imp in ["pqcrypto", "aws-lc-rs"] {
                assert!(
                    find(imp, RANDOMIZED_VARIANT).is_some(),
                    "{imp} {alg}: {notes:?}"
                );
                assert!(find(imp, VARIANT).is_none());
                assert!(find(imp, ONE_LOOP_VARIANT).is_none());
                assert!(notes.iter().any(|n| n.starts_with(&format!(
                    "{imp} {alg}: cannot sign the CCTV set deterministically"
                ))));
            }
            for imp in ["pqlab", "rustcrypto"] {
                assert!(find(imp, MU_VARIANT).is_some(), "{imp} {alg}");
            }
            assert!(
                !notes
                    .iter()
                    .any(|n| n.contains("not measured") || n.contains("left out")),
                "{notes:?}"
            );
        }
    }

    /// liboqs signs with rnd = 0 only on the thread of a deterministic signer, and only while
    /// one exists: elsewhere, and after, its signatures are randomized again.
    #[test]
    fn liboqs_signs_deterministically_only_where_asked() {
        let sk = set::expanded("ml-dsa-44", &[0; 32]);
        let plain = || {
            let s = oqs::sig::Sig::new(oqs::sig::Algorithm::MlDsa44).unwrap();
            let k = s.secret_key_from_bytes(&sk).unwrap();
            s.sign(b"m", k).unwrap().into_vec()
        };
        let mut det = liboqs("ml-dsa-44", oqs::sig::Algorithm::MlDsa44, &sk).unwrap();
        let (mut a, mut b) = (Vec::new(), Vec::new());
        (det.sign)(b"m", &mut a).unwrap();
        (det.sign)(b"m", &mut b).unwrap();
        assert_eq!(a, b);
        assert_ne!(plain(), plain(), "other calls stay randomized");
        drop(det);
        assert_ne!(plain(), plain());
    }
}
