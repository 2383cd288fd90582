//! pqlab's operations of this image's parameter set. Each operation is its own function, so
//! that the objects one prepares (decoded keys, outputs) live in its frame, above the painted
//! window, and a check of the output (a signature verified, a shared secret compared) runs
//! after the measured call. ML-DSA and Falcon share one driver (the [`Signatures`] trait and
//! the generic functions below it); ML-KEM has its own.
//!
//! Every measured call starts from encoded keys (bytes), as PQClean's API does: decoding a key
//! (and, for ML-KEM, expanding A_hat) is part of the operation for both implementations.

#[cfg(not(feature = "baseline"))]
use crate::meter::{Measured, Rng, measure};

#[cfg(not(feature = "baseline"))]
#[allow(dead_code)]
mod fixtures {
    include!(concat!(env!("OUT_DIR"), "/fixtures.rs"));
}

/// The implementation name in reports.
pub const IMPL: &str = if cfg!(feature = "baseline") {
    "baseline"
} else {
    "pqlab"
};

/// The parameter set.
#[cfg(not(feature = "baseline"))]
pub const ALG: &str = fixtures::ALG;
#[cfg(feature = "baseline")]
pub const ALG: &str = "none";

/// The operations this image measures.
pub const OPS: &[&str] = alg::OPS;

#[cfg(feature = "baseline")]
mod alg {
    pub const OPS: &[&str] = &[];
}

#[cfg(feature = "baseline")]
pub fn call(_: &str, _: u32, _: u32) -> Result<crate::meter::Measured, &'static str> {
    Err("the baseline image has no operations")
}

/// Call `i` of operation `op` (number `k` in [`OPS`]) on fresh inputs.
#[cfg(not(feature = "baseline"))]
pub fn call(op: &str, k: u32, i: u32) -> Result<Measured, &'static str> {
    let mut rng = Rng::new(k, i);
    alg::call(op, &mut rng, i as usize % fixtures::COUNT)
}

/// A signature scheme as the generic operations below drive it; `f` names a fixture (a key
/// pair made on the host, with a message and its signature).
#[cfg(signatures)]
trait Signatures {
    /// Key generation's seed.
    type Seed;
    /// The randomness of one signing call.
    type Rnd;
    /// A signature.
    type Signature;
    /// A signing key expanded for repeated signing.
    type Expanded;
    /// Draws a key generation seed.
    fn seed(rng: &mut Rng) -> Self::Seed;
    /// Draws the randomness of a signing call.
    fn rnd(rng: &mut Rng) -> Self::Rnd;
    /// What key generation returns: the key pair, encoded or not.
    type Pair;
    /// Key generation.
    fn keygen(seed: &Self::Seed) -> Self::Pair;
    /// Runs `f` on the encoded public key that key generation made (`seed` and `pair` as the
    /// measured call left them; outside the measured call).
    fn with_public_key<R>(seed: &Self::Seed, pair: &Self::Pair, f: impl FnOnce(&[u8]) -> R) -> R;
    /// Signs with fixture `f`'s encoded secret key, as PQClean's crypto_sign_signature.
    fn sign(f: usize, msg: &[u8], rnd: &Self::Rnd) -> Option<Self::Signature>;
    /// Runs `body` with fixture `f`'s secret key decoded and expanded (built in place in this
    /// function's frame: an expanded key is large, and returning it would copy it).
    fn with_expanded<R>(f: usize, body: impl FnOnce(&Self::Expanded) -> R) -> Option<R>;
    /// Signs with an expanded key.
    fn sign_expanded(ek: &Self::Expanded, msg: &[u8], rnd: &Self::Rnd) -> Option<Self::Signature>;
    /// Whether `sig` verifies under fixture `f`'s public key (outside the measured call).
    fn check(f: usize, msg: &[u8], sig: &Self::Signature) -> bool;
    /// Verifies fixture `f`'s signature from its encoded public key, as PQClean's
    /// crypto_sign_verify.
    fn verify(f: usize) -> bool;
}

/// The operations of a signature image.
#[cfg(signatures)]
const SIG_OPS: &[&str] = &["keygen", "sign", "sign-expanded", "verify"];

#[cfg(signatures)]
#[inline(never)]
fn keygen<S: Signatures>(rng: &mut Rng) -> Result<Measured, &'static str> {
    let seed = S::seed(rng);
    let (m, pair) = measure(|| S::keygen(&seed));
    Ok(S::with_public_key(&seed, &pair, |pk| m.made_key(pk)))
}

/// `m` if the signature made verifies.
#[cfg(signatures)]
fn checked<S: Signatures>(
    m: Measured,
    f: usize,
    msg: &[u8],
    sig: Option<&S::Signature>,
) -> Result<Measured, &'static str> {
    match sig {
        None => Err("signing failed"),
        Some(s) if S::check(f, msg, s) => Ok(m),
        Some(_) => Err("the signature made does not verify"),
    }
}

#[cfg(signatures)]
#[inline(never)]
fn sign<S: Signatures>(rng: &mut Rng, f: usize) -> Result<Measured, &'static str> {
    let msg: [u8; 32] = rng.bytes();
    let rnd = S::rnd(rng);
    let (m, sig) = measure(|| S::sign(f, &msg, &rnd));
    checked::<S>(m, f, &msg, sig.as_ref())
}

#[cfg(signatures)]
#[inline(never)]
fn sign_expanded<S: Signatures>(rng: &mut Rng, f: usize) -> Result<Measured, &'static str> {
    let msg: [u8; 32] = rng.bytes();
    let rnd = S::rnd(rng);
    let (m, sig) = S::with_expanded(f, |ek| measure(|| S::sign_expanded(ek, &msg, &rnd)))
        .ok_or("bad fixture secret key")?;
    checked::<S>(m, f, &msg, sig.as_ref())
}

#[cfg(signatures)]
#[inline(never)]
fn verify<S: Signatures>(f: usize) -> Result<Measured, &'static str> {
    match measure(|| S::verify(f)) {
        (m, true) => Ok(m),
        _ => Err("a valid signature was rejected"),
    }
}

/// Call `op` of a signature scheme on fixture `f`.
#[cfg(signatures)]
fn sig_call<S: Signatures>(op: &str, rng: &mut Rng, f: usize) -> Result<Measured, &'static str> {
    match op {
        "keygen" => keygen::<S>(rng),
        "sign" => sign::<S>(rng, f),
        "sign-expanded" => sign_expanded::<S>(rng, f),
        _ => verify::<S>(f),
    }
}

#[cfg(any(feature = "ml-dsa-44", feature = "ml-dsa-65", feature = "ml-dsa-87"))]
mod alg {
    use core::cell::RefCell;

    use pqlab_mldsa::{ByteArray, ExpandedSigningKey, ParameterSet, SigningKey};

    use super::fixtures::{MSG, PK, SIG, SK};
    use super::{Measured, Rng, Signatures};

    #[cfg(feature = "ml-dsa-44")]
    type P = pqlab_mldsa::MlDsa44;
    #[cfg(feature = "ml-dsa-65")]
    type P = pqlab_mldsa::MlDsa65;
    #[cfg(feature = "ml-dsa-87")]
    type P = pqlab_mldsa::MlDsa87;
    pub const OPS: &[&str] = super::SIG_OPS;

    /// ML-DSA (FIPS 204), with an empty context. A signature is its encoding (bytes), which
    /// [`pqlab_mldsa::sign_encoded`] writes into.
    struct MlDsa;

    /// Key generation's seed xi, with the buffers that the small-memory image's key
    /// generation writes the encoded keys into (made by [`Signatures::seed`] outside the
    /// measured call, as PQClean's caller owns crypto_sign_keypair's buffers).
    struct KeygenIo {
        xi: [u8; 32],
        #[cfg_attr(not(feature = "small-memory"), allow(dead_code))]
        pk: RefCell<<P as ParameterSet>::PkBytes>,
        #[cfg_attr(not(feature = "small-memory"), allow(dead_code))]
        sk: RefCell<<P as ParameterSet>::SkBytes>,
    }

    impl Signatures for MlDsa {
        type Seed = KeygenIo;
        type Rnd = [u8; 32];
        type Signature = <P as ParameterSet>::SigBytes;
        type Expanded = ExpandedSigningKey<P>;

        fn seed(rng: &mut Rng) -> KeygenIo {
            KeygenIo {
                xi: rng.bytes(),
                pk: RefCell::new(ByteArray::zeroed()),
                sk: RefCell::new(ByteArray::zeroed()),
            }
        }

        /// rnd = 0: FIPS 204's deterministic variant, as the PQClean image's `randombytes`
        /// gives its signing calls, so that both make the same signatures (the same rejection
        /// loop iterations).
        fn rnd(_: &mut Rng) -> [u8; 32] {
            [0; 32]
        }

        #[cfg(not(feature = "small-memory"))]
        type Pair = (<P as ParameterSet>::PkBytes, SigningKey<P>);
        #[cfg(feature = "small-memory")]
        type Pair = bool;

        #[cfg(not(feature = "small-memory"))]
        fn keygen(io: &KeygenIo) -> Self::Pair {
            SigningKey::<P>::encoded_pair_from_seed(&io.xi)
        }

        /// As PQClean's crypto_sign_keypair: the encoded keys written in place, into the
        /// buffers of `io` (in the caller's frame, above the painted window).
        #[cfg(feature = "small-memory")]
        fn keygen(io: &KeygenIo) -> bool {
            let (mut pk, mut sk) = (io.pk.borrow_mut(), io.sk.borrow_mut());
            pqlab_mldsa::key_gen_encoded::<P>(&io.xi, pk.as_mut(), sk.as_mut()).is_ok()
        }

        #[cfg(not(feature = "small-memory"))]
        fn with_public_key<R>(_: &KeygenIo, (pk, _): &Self::Pair, f: impl FnOnce(&[u8]) -> R) -> R {
            f(pk.as_ref())
        }

        #[cfg(feature = "small-memory")]
        fn with_public_key<R>(io: &KeygenIo, _: &bool, f: impl FnOnce(&[u8]) -> R) -> R {
            f(io.pk.borrow().as_ref())
        }

        /// On the encoded key into the signature's bytes, as PQClean's crypto_sign_signature
        /// (no decoded key; the image's "sign" measures it into the caller's buffer, `sign`
        /// below).
        fn sign(f: usize, msg: &[u8], rnd: &[u8; 32]) -> Option<Self::Signature> {
            let mut sig = <P as ParameterSet>::SigBytes::zeroed();
            pqlab_mldsa::sign_encoded::<P>(&SK[f], msg, &[], rnd, sig.as_mut()).ok()?;
            Some(sig)
        }

        fn with_expanded<R>(f: usize, body: impl FnOnce(&ExpandedSigningKey<P>) -> R) -> Option<R> {
            let sk = SigningKey::<P>::from_expanded(&SK[f]).ok()?;
            let ek = ExpandedSigningKey::new(sk);
            Some(body(&ek))
        }

        fn sign_expanded(
            ek: &ExpandedSigningKey<P>,
            msg: &[u8],
            rnd: &[u8; 32],
        ) -> Option<Self::Signature> {
            ek.sign_with_rnd(msg, &[], rnd).ok().map(|s| s.to_bytes())
        }

        /// Through [`pqlab_mldsa::verify_encoded`], the code the image's `verify` measures,
        /// so that the check adds no second verifier to the image's flash.
        #[inline(never)]
        fn check(f: usize, msg: &[u8], sig: &Self::Signature) -> bool {
            pqlab_mldsa::verify_encoded::<P>(&PK[f], msg, &[], sig.as_ref()).is_ok()
        }

        /// On the encodings, as PQClean's crypto_sign_verify (no decoded key).
        fn verify(f: usize) -> bool {
            pqlab_mldsa::verify_encoded::<P>(&PK[f], &MSG[f], &[], &SIG[f]).is_ok()
        }
    }

    /// Signing as PQClean's image measures crypto_sign_signature: on the encoded key, into a
    /// signature buffer of the caller's (outside the measured call), from the same draws as
    /// the generic `sign` (the message, then rnd = 0). [`pqlab_mldsa::sign_encoded_counted`]
    /// is `sign_encoded` returning the rejection loop's count instead of the length.
    #[inline(never)]
    fn sign(rng: &mut Rng, f: usize) -> Result<Measured, &'static str> {
        let msg: [u8; 32] = rng.bytes();
        let rnd = MlDsa::rnd(rng);
        let mut sig = <P as ParameterSet>::SigBytes::zeroed();
        let (m, loops) = super::measure(|| {
            pqlab_mldsa::sign_encoded_counted::<P>(&SK[f], &msg, &[], &rnd, sig.as_mut()).ok()
        });
        super::checked::<MlDsa>(m, f, &msg, loops.is_some().then_some(&sig))
            .map(|m| m.signed(sig.as_ref(), loops))
    }

    /// Signing with the expanded key, counting the rejection loop (the same code as
    /// [`Signatures::sign_expanded`], which discards the count).
    #[inline(never)]
    fn sign_expanded(rng: &mut Rng, f: usize) -> Result<Measured, &'static str> {
        let msg: [u8; 32] = rng.bytes();
        let rnd = MlDsa::rnd(rng);
        let (m, signed) = MlDsa::with_expanded(f, |ek| {
            super::measure(|| {
                ek.sign_with_rnd_counted(&msg, &[], &rnd)
                    .ok()
                    .map(|(s, n)| (s.to_bytes(), n))
            })
        })
        .ok_or("bad fixture secret key")?;
        let (sig, loops) = signed.ok_or("signing failed")?;
        super::checked::<MlDsa>(m, f, &msg, Some(&sig)).map(|m| m.signed(sig.as_ref(), Some(loops)))
    }

    pub fn call(op: &str, rng: &mut Rng, f: usize) -> Result<Measured, &'static str> {
        match op {
            "sign" => sign(rng, f),
            "sign-expanded" => sign_expanded(rng, f),
            _ => super::sig_call::<MlDsa>(op, rng, f),
        }
    }
}

#[cfg(any(feature = "falcon-512", feature = "falcon-1024"))]
mod alg {
    use pqlab_falcon::{ExpandedKey, NONCE_LEN, SEED_LEN, Signature, SigningKey, VerifyingKey};

    use super::fixtures::{MSG, PK, SIG, SIG_USED, SK};
    use super::{Measured, Rng, Signatures};

    #[cfg(feature = "falcon-512")]
    const N: usize = 512;
    #[cfg(feature = "falcon-1024")]
    const N: usize = 1024;
    pub const OPS: &[&str] = super::SIG_OPS;

    /// Falcon (round 3): the signing randomness is the nonce and the sampler's seed.
    struct Falcon;

    impl Signatures for Falcon {
        type Seed = [u8; SEED_LEN];
        type Rnd = ([u8; NONCE_LEN], [u8; SEED_LEN]);
        type Signature = Signature<N>;
        type Expanded = ExpandedKey<N>;

        fn seed(rng: &mut Rng) -> [u8; SEED_LEN] {
            rng.bytes()
        }

        fn rnd(rng: &mut Rng) -> Self::Rnd {
            (rng.bytes(), rng.bytes())
        }

        type Pair = SigningKey<N>;

        fn keygen(seed: &[u8; SEED_LEN]) -> SigningKey<N> {
            SigningKey::<N>::generate_from_seed(seed)
        }

        fn with_public_key<R>(
            _: &[u8; SEED_LEN],
            sk: &SigningKey<N>,
            f: impl FnOnce(&[u8]) -> R,
        ) -> R {
            let mut pk = [0u8; VerifyingKey::<N>::ENCODED_LEN];
            // The buffer has the encoding's length, so encode cannot fail; an empty key if
            // it did (a digest that matches no other implementation's).
            let len = sk.verifying_key().encode(&mut pk).unwrap_or(0);
            f(&pk[..len])
        }

        fn sign(f: usize, msg: &[u8], (nonce, seed): &Self::Rnd) -> Option<Signature<N>> {
            let sk = SigningKey::<N>::decode(&SK[f]).ok()?;
            Some(sk.sign_with_seed(msg, nonce, seed))
        }

        fn with_expanded<R>(f: usize, body: impl FnOnce(&ExpandedKey<N>) -> R) -> Option<R> {
            let sk = SigningKey::<N>::decode(&SK[f]).ok()?;
            Some(sk.with_expanded(body))
        }

        fn sign_expanded(
            ek: &ExpandedKey<N>,
            msg: &[u8],
            (nonce, seed): &Self::Rnd,
        ) -> Option<Signature<N>> {
            Some(ek.sign_with_seed(msg, nonce, seed))
        }

        #[inline(never)]
        fn check(f: usize, msg: &[u8], sig: &Signature<N>) -> bool {
            VerifyingKey::<N>::decode(&PK[f]).is_ok_and(|vk| vk.verify_signature(msg, sig).is_ok())
        }

        /// From the encoded key without building a `VerifyingKey` (PQClean's API; h decoded
        /// straight into the NTT lanes, c streamed into the norm).
        fn verify(f: usize) -> bool {
            VerifyingKey::<N>::verify_encoded(&PK[f], &MSG[f], &SIG[f][..SIG_USED[f]]).is_ok()
        }
    }

    pub fn call(op: &str, rng: &mut Rng, f: usize) -> Result<Measured, &'static str> {
        super::sig_call::<Falcon>(op, rng, f)
    }
}

#[cfg(any(
    feature = "ml-kem-512",
    feature = "ml-kem-768",
    feature = "ml-kem-1024"
))]
mod alg {
    use pqlab_mlkem::{ParameterSet, decapsulate_encoded, encapsulate_encoded, key_gen_encoded};

    use super::fixtures::{CT, DK, EK, ENC_M, SS};
    use super::{Measured, Rng, measure};

    #[cfg(feature = "ml-kem-512")]
    type P = pqlab_mlkem::MlKem512;
    #[cfg(feature = "ml-kem-768")]
    type P = pqlab_mlkem::MlKem768;
    #[cfg(feature = "ml-kem-1024")]
    type P = pqlab_mlkem::MlKem1024;
    pub const OPS: &[&str] = &["keygen", "encaps", "decaps"];
    const EK_LEN: usize = <P as ParameterSet>::EK_LEN;
    const DK_LEN: usize = <P as ParameterSet>::DK_LEN;
    const CT_LEN: usize = <P as ParameterSet>::CT_LEN;

    // Every operation on encoded keys into the caller's buffers (outside the measured call), as
    // PQClean's crypto_kem_keypair / _enc / _dec: under `small-memory` no key is decoded whole.

    #[inline(never)]
    fn keygen(rng: &mut Rng) -> Result<Measured, &'static str> {
        let d: [u8; 32] = rng.bytes();
        let z: [u8; 32] = rng.bytes();
        let mut ek = [0u8; EK_LEN];
        let mut dk = [0u8; DK_LEN];
        let (m, ok) = measure(|| key_gen_encoded::<P>(&d, &z, &mut ek, &mut dk).is_ok());
        // The key pair made must work: ek embedded in dk, and a round trip.
        let mut ct = [0u8; CT_LEN];
        let round_trip = encapsulate_encoded::<P>(&ek, &z, &mut ct)
            .ok()
            .zip(decapsulate_encoded::<P>(&dk, &ct).ok())
            .is_some_and(|(a, b)| a.as_bytes() == b.as_bytes());
        if !ok || dk[(DK_LEN - 96) / 2..][..EK_LEN] != ek[..] || !round_trip {
            return Err("the key pair made does not encapsulate and decapsulate");
        }
        Ok(m.made_key(&ek))
    }

    /// Encapsulation's known answer: the fixture's message under the fixture's key gives the
    /// fixture's ciphertext and shared secret (made on the host).
    #[inline(never)]
    fn check(f: usize) -> Result<(), &'static str> {
        let mut ct = [0u8; CT_LEN];
        match encapsulate_encoded::<P>(&EK[f], &ENC_M[f], &mut ct) {
            Ok(ss) if ct == CT[f] && ss.as_bytes() == &SS[f] => Ok(()),
            _ => Err("encapsulation of a fixture's message gave another ciphertext or secret"),
        }
    }

    #[inline(never)]
    fn encaps(rng: &mut Rng, f: usize) -> Result<Measured, &'static str> {
        let msg: [u8; 32] = rng.bytes();
        let mut ct = [0u8; CT_LEN];
        let (m, ok) = measure(|| encapsulate_encoded::<P>(&EK[f], &msg, &mut ct).is_ok());
        if !ok {
            return Err("bad fixture key");
        }
        check(f)?;
        Ok(m)
    }

    #[inline(never)]
    fn decaps(f: usize) -> Result<Measured, &'static str> {
        let (m, ss) = measure(|| {
            decapsulate_encoded::<P>(&DK[f], &CT[f])
                .ok()
                .map(|s| *s.as_bytes())
        });
        match ss {
            Some(ss) if ss == SS[f] => Ok(m),
            _ => Err("decapsulation of a fixture gave the wrong shared secret"),
        }
    }

    pub fn call(op: &str, rng: &mut Rng, f: usize) -> Result<Measured, &'static str> {
        match op {
            "keygen" => keygen(rng),
            "encaps" => encaps(rng, f),
            _ => decaps(f),
        }
    }
}
