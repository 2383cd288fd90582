//! The tainted runs: key generation, signing, encapsulation and decapsulation of every
//! parameter set, with every secret input marked undefined for memcheck.
//!
//! Secret inputs: all randomness (drawn from the operating system, then marked secret: the
//! ML-DSA seed xi and hedge rnd, the ML-KEM seeds d, z and the message m, the Falcon key
//! seed and sampler seed) and the secret parts of every secret key (ML-DSA K, s1, s2, t0;
//! ML-KEM s and z; Falcon f, g, F). Public inputs: the message, the context, the Falcon nonce
//! (it is part of the signature), the ciphertext given to decapsulation.
//!
//! Declassification points (the only places where the harness makes secret-derived bytes
//! public), each an output the standard publishes:
//! * the encoded public key after key generation;
//! * the encoded signature after signing, the ciphertext after encapsulation;
//! * the secret key is re-encoded, made public and its secret byte ranges marked secret again
//!   (so signing and decapsulation see exactly the standard's secret fields as secret);
//! * the two shared secrets, only to compare them (a check of the harness, after the
//!   operations).
//!
//! Branches inside the libraries on values the standard makes public (the rejection outcome
//! of a signing attempt, the accepted norm check, rho = the public seed of A) cannot be
//! declassified from here without editing the libraries: they show up as memcheck errors and
//! are listed, with their reasons, in [`crate::findings::EXPECTED`].

use core::convert::Infallible;

use crate::valgrind::{public, public_val, secret};
use pqlab_falcon::{ExpandedKey, NONCE_LEN, SigningKey as FnSk};
use pqlab_mldsa::{ExpandedSigningKey, MlDsa44, MlDsa65, MlDsa87};
use pqlab_mldsa::{ParameterSet as DsaParams, SigningKey as DsaSk};
use pqlab_mlkem::ParameterSet as KemParams;
use pqlab_mlkem::{Ciphertext, DecapsulationKey, EncapsulationKey, MlKem512, MlKem768, MlKem1024};

/// Operating-system randomness marked secret: what every randomized operation receives.
struct SecretRng;

/// Fills `dst` from the operating system and marks it secret.
fn os_secret(dst: &mut [u8]) -> bool {
    let ok = getrandom::fill(dst).is_ok();
    secret(dst);
    ok
}

impl rand_core::TryRng for SecretRng {
    type Error = Infallible;

    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        let mut b = [0u8; 4];
        self.try_fill_bytes(&mut b)?;
        Ok(u32::from_le_bytes(b))
    }

    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        let mut b = [0u8; 8];
        self.try_fill_bytes(&mut b)?;
        Ok(u64::from_le_bytes(b))
    }

    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Infallible> {
        // A failure of the OS generator leaves zeros: still marked secret, and the run is a
        // constant-time check, not a key generator.
        let _ = os_secret(dst);
        Ok(())
    }
}

impl rand_core::TryCryptoRng for SecretRng {}

/// The public message every signature is made on.
const MSG: &[u8] = b"pqlab constant-time check";
/// The public ML-DSA context string.
const CTX: &[u8] = b"ct";

/// Makes `bytes` public, then marks the ranges `secret_ranges` secret again.
fn retaint(bytes: &[u8], secret_ranges: &[(usize, usize)]) {
    public(bytes);
    for &(start, end) in secret_ranges {
        secret(&bytes[start..end]);
    }
}

/// FIPS 204: ML-DSA.KeyGen, ML-DSA.Sign (plain and expanded key) for one parameter set.
fn ml_dsa<P: DsaParams>() -> Result<(), String> {
    // KeyGen (Algorithm 1) with a secret seed xi; the public key is published.
    let sk = DsaSk::<P>::generate_with_rng(&mut SecretRng).map_err(|e| e.to_string())?;
    let pk = sk.verifying_key();
    public(pk.as_bytes());
    let pk =
        pqlab_mldsa::VerifyingKey::<P>::from_bytes(pk.as_bytes()).map_err(|e| e.to_string())?;
    // skEncode(rho, K, tr, s1, s2, t0): rho and tr public, K, s1, s2 and t0 secret.
    let mut sk_bytes = sk.to_expanded();
    let sk_len = sk_bytes.as_ref().len();
    retaint(sk_bytes.as_ref(), &[(32, 64), (128, sk_len)]);
    let sk = DsaSk::<P>::from_expanded(sk_bytes.as_ref()).map_err(|e| e.to_string())?;
    sk_bytes.as_mut().fill(0);
    // Sign (Algorithm 2), hedged with secret rnd; the signature is published.
    let sig = sk
        .sign_with_rng(&mut SecretRng, MSG, CTX)
        .map_err(|e| e.to_string())?;
    public(sig.as_bytes());
    pk.verify(MSG, CTX, &sig)
        .map_err(|e| format!("signature does not verify: {e}"))?;
    // The same with the expanded key (A_hat and the NTT forms of s1, s2, t0 kept).
    let esk = ExpandedSigningKey::new(sk);
    let mut rnd = [0u8; 32];
    os_secret(&mut rnd);
    let sig = esk
        .sign_with_rnd(MSG, CTX, &rnd)
        .map_err(|e| e.to_string())?;
    public(sig.as_bytes());
    pk.verify(MSG, CTX, &sig)
        .map_err(|e| format!("expanded-key signature does not verify: {e}"))
}

/// FIPS 203: ML-KEM.KeyGen, Encaps and Decaps (valid and invalid ciphertext) for one set.
fn ml_kem<P: KemParams>() -> Result<(), String> {
    // KeyGen (Algorithm 19) with secret d and z; the encapsulation key is published.
    let dk = DecapsulationKey::<P>::generate_with_rng(&mut SecretRng).map_err(|e| e.to_string())?;
    let ek_bytes = dk.encapsulation_key().to_bytes();
    public(ek_bytes.as_ref());
    let ek = EncapsulationKey::<P>::from_bytes(ek_bytes.as_ref()).map_err(|e| e.to_string())?;
    // dk = dk_PKE (s) || ek || H(ek) || z: s and z secret.
    let mut dk_bytes = dk.to_expanded();
    let dk_len = dk_bytes.as_ref().len();
    retaint(dk_bytes.as_ref(), &[(0, 384 * P::K), (dk_len - 32, dk_len)]);
    let dk = DecapsulationKey::<P>::from_expanded(dk_bytes.as_ref()).map_err(|e| e.to_string())?;
    dk_bytes.as_mut().fill(0);
    // Encaps (Algorithm 20) with a secret m; the ciphertext is published.
    let (ct, ss) = ek
        .encapsulate_with_rng(&mut SecretRng)
        .map_err(|e| e.to_string())?;
    public(ct.as_bytes());
    // Decaps (Algorithm 21) of the valid ciphertext and of a corrupted one (implicit
    // rejection).
    let ss2 = dk.decapsulate(&ct);
    let mut bad = ct.to_bytes();
    bad.as_mut()[0] ^= 1;
    let bad = Ciphertext::<P>::from_bytes(bad.as_ref()).map_err(|e| e.to_string())?;
    let ss3 = dk.decapsulate(&bad);
    // Test-only declassification, after the operations: compare the shared secrets.
    public(ss.as_bytes());
    public(ss2.as_bytes());
    public(ss3.as_bytes());
    if ss.as_bytes() != ss2.as_bytes() || ss.as_bytes() == ss3.as_bytes() {
        return Err("decapsulation disagrees with encapsulation".into());
    }
    Ok(())
}

/// The fill function of Falcon's signing: the nonce (first call) is public, the sampler seed
/// (second call) secret.
fn falcon_fill() -> impl FnMut(&mut [u8]) -> bool {
    let mut calls = 0;
    move |b: &mut [u8]| {
        calls += 1;
        if calls == 1 && b.len() == NONCE_LEN {
            getrandom::fill(b).is_ok()
        } else {
            os_secret(b)
        }
    }
}

/// Falcon spec v1.2: NTRUGen (Algorithm 4), Sign (Algorithm 10) with the plain key and with
/// the expanded key (Algorithm 9's tree), for one degree.
fn falcon<const N: usize>(expanded: bool) -> Result<(), String> {
    // Key generation from a secret 48-byte seed; the public key h is published.
    let sk = FnSk::<N>::generate_with_rng(os_secret).map_err(|e| e.to_string())?;
    let mut pk_bytes = [0u8; 1793];
    let n = sk
        .verifying_key()
        .encode(&mut pk_bytes)
        .map_err(|e| e.to_string())?;
    public(&pk_bytes[..n]);
    let vk = pqlab_falcon::VerifyingKey::<N>::decode(&pk_bytes[..n]).map_err(|e| e.to_string())?;
    // The encoded secret key: the header public, f, g and F secret.
    let mut sk_bytes = [0u8; 2305];
    let n = sk.encode(&mut sk_bytes).map_err(|e| e.to_string())?;
    retaint(&sk_bytes[..n], &[(1, n)]);
    let sk = FnSk::<N>::decode(&sk_bytes[..n]).map_err(|e| e.to_string())?;
    sk_bytes.fill(0);
    let sig = if expanded {
        let ek: ExpandedKey<N> = sk.expand();
        ek.sign_with_rng(MSG, falcon_fill())
    } else {
        sk.sign_with_rng(MSG, falcon_fill())
    }
    .map_err(|e| e.to_string())?;
    // The signature (nonce, s2) is published: declassified before it is encoded.
    let mut s2 = *sig.s2();
    public_val(&s2);
    let sig = pqlab_falcon::Signature::<N>::from_parts(*sig.nonce(), s2);
    s2.fill(0);
    let mut sig_bytes = [0u8; 1462];
    let n = sig.encode(&mut sig_bytes).map_err(|e| e.to_string())?;
    public(&sig_bytes[..n]);
    vk.verify(MSG, &sig_bytes[..n])
        .map_err(|e| format!("signature does not verify: {e}"))
}

/// One tainted case: keygen and the operations of one parameter set.
pub type Case = fn() -> Result<(), String>;

/// The cases, by name: `(name, run)`.
pub const CASES: &[(&str, Case)] = &[
    ("ml-dsa-44", ml_dsa::<MlDsa44>),
    ("ml-dsa-65", ml_dsa::<MlDsa65>),
    ("ml-dsa-87", ml_dsa::<MlDsa87>),
    ("ml-kem-512", ml_kem::<MlKem512>),
    ("ml-kem-768", ml_kem::<MlKem768>),
    ("ml-kem-1024", ml_kem::<MlKem1024>),
    ("falcon-512", || falcon::<512>(false)),
    ("falcon-1024", || falcon::<1024>(false)),
    ("falcon-512-expanded", || falcon::<512>(true)),
    ("falcon-1024-expanded", || falcon::<1024>(true)),
];
