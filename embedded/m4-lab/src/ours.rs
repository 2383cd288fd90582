//! pqlab's operations of this image's parameter set. Each operation is its own function, so
//! that the objects one prepares (decoded keys, outputs) live in its frame, above the painted
//! window, and a check of the output (a signature verified, a shared secret compared) runs
//! after the measured call.

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

#[cfg(feature = "baseline")]
mod alg {
    pub const NAME: &str = "none";
    pub const OPS: &[&str] = &[];
}

#[cfg(feature = "baseline")]
pub fn call(_: &str, _: u32, _: u32) -> Result<crate::meter::Measured, &'static str> {
    Err("the baseline image has no operations")
}

/// The parameter set.
pub const ALG: &str = alg::NAME;
/// The operations this image measures.
pub const OPS: &[&str] = alg::OPS;

#[cfg(any(feature = "ml-dsa-44", feature = "ml-dsa-65", feature = "ml-dsa-87"))]
mod alg {
    use pqlab_mldsa::{ExpandedSigningKey, Signature, SigningKey, VerifyingKey};

    use super::fixtures::{MSG, PK, SIG, SK};
    use super::{Measured, Rng, measure};

    #[cfg(feature = "ml-dsa-44")]
    type P = pqlab_mldsa::MlDsa44;
    #[cfg(feature = "ml-dsa-65")]
    type P = pqlab_mldsa::MlDsa65;
    #[cfg(feature = "ml-dsa-87")]
    type P = pqlab_mldsa::MlDsa87;
    #[cfg(feature = "ml-dsa-44")]
    pub const NAME: &str = "ml-dsa-44";
    #[cfg(feature = "ml-dsa-65")]
    pub const NAME: &str = "ml-dsa-65";
    #[cfg(feature = "ml-dsa-87")]
    pub const NAME: &str = "ml-dsa-87";
    pub const OPS: &[&str] = &["keygen", "sign", "sign-expanded", "verify"];

    #[inline(never)]
    fn keygen(rng: &mut Rng) -> Result<Measured, &'static str> {
        let xi: [u8; 32] = rng.bytes();
        let (m, _pair) = measure(|| SigningKey::<P>::encoded_pair_from_seed(&xi));
        Ok(m)
    }

    #[inline(never)]
    fn check(f: usize, msg: &[u8], sig: &Signature<P>) -> Result<(), &'static str> {
        let vk = VerifyingKey::<P>::from_bytes(&PK[f]).map_err(|_| "bad fixture public key")?;
        vk.verify(msg, &[], sig)
            .map_err(|_| "the signature made does not verify")
    }

    #[inline(never)]
    fn sign(rng: &mut Rng, f: usize) -> Result<Measured, &'static str> {
        let msg: [u8; 32] = rng.bytes();
        let rnd: [u8; 32] = rng.bytes();
        // From the encoded secret key, as PQClean's crypto_sign_signature.
        let (m, sig) = measure(|| {
            SigningKey::<P>::from_expanded(&SK[f])
                .ok()
                .and_then(|sk| sk.sign_with_rnd(&msg, &[], &rnd).ok())
        });
        check(f, &msg, &sig.ok_or("signing failed")?)?;
        Ok(m)
    }

    #[inline(never)]
    fn sign_expanded(rng: &mut Rng, f: usize) -> Result<Measured, &'static str> {
        let sk = SigningKey::<P>::from_expanded(&SK[f]).map_err(|_| "bad fixture secret key")?;
        let msg: [u8; 32] = rng.bytes();
        let rnd: [u8; 32] = rng.bytes();
        let ek = ExpandedSigningKey::new(sk);
        let (m, sig) = measure(|| ek.sign_with_rnd(&msg, &[], &rnd));
        check(f, &msg, &sig.map_err(|_| "signing failed")?)?;
        Ok(m)
    }

    #[inline(never)]
    fn verify(f: usize) -> Result<Measured, &'static str> {
        // From the encoded public key, as PQClean's crypto_sign_verify.
        let (m, ok) = measure(|| {
            VerifyingKey::<P>::from_bytes(&PK[f]).is_ok_and(|vk| {
                Signature::<P>::from_bytes(&SIG[f])
                    .is_ok_and(|s| vk.verify(&MSG[f], &[], &s).is_ok())
            })
        });
        if ok {
            Ok(m)
        } else {
            Err("a valid signature was rejected")
        }
    }

    pub fn call(op: &str, rng: &mut Rng, f: usize) -> Result<Measured, &'static str> {
        match op {
            "keygen" => keygen(rng),
            "sign" => sign(rng, f),
            "sign-expanded" => sign_expanded(rng, f),
            _ => verify(f),
        }
    }
}

#[cfg(any(
    feature = "ml-kem-512",
    feature = "ml-kem-768",
    feature = "ml-kem-1024"
))]
mod alg {
    use pqlab_mlkem::{Ciphertext, DecapsulationKey, EncapsulationKey};

    use super::fixtures::{CT, DK, EK, ENC_M, SS};
    use super::{Measured, Rng, measure};

    #[cfg(feature = "ml-kem-512")]
    type P = pqlab_mlkem::MlKem512;
    #[cfg(feature = "ml-kem-768")]
    type P = pqlab_mlkem::MlKem768;
    #[cfg(feature = "ml-kem-1024")]
    type P = pqlab_mlkem::MlKem1024;
    #[cfg(feature = "ml-kem-512")]
    pub const NAME: &str = "ml-kem-512";
    #[cfg(feature = "ml-kem-768")]
    pub const NAME: &str = "ml-kem-768";
    #[cfg(feature = "ml-kem-1024")]
    pub const NAME: &str = "ml-kem-1024";
    pub const OPS: &[&str] = &["keygen", "encaps", "decaps"];

    #[inline(never)]
    fn keygen(rng: &mut Rng) -> Result<Measured, &'static str> {
        let d: [u8; 32] = rng.bytes();
        let z: [u8; 32] = rng.bytes();
        let (m, _dk) = measure(|| DecapsulationKey::<P>::from_seed(&d, &z));
        Ok(m)
    }

    /// Encapsulation's known answer: the fixture's message under the fixture's key gives the
    /// fixture's ciphertext and shared secret (made on the host). Not a decapsulation of the
    /// call's own output: expanding a decapsulation key takes more stack than encapsulating.
    #[inline(never)]
    fn check(ek: &EncapsulationKey<P>, f: usize) -> Result<(), &'static str> {
        let (ct, ss) = ek.encapsulate_deterministic(&ENC_M[f]);
        if ct.as_bytes() == &CT[f][..] && ss.as_bytes() == &SS[f] {
            Ok(())
        } else {
            Err("encapsulation of a fixture's message gave another ciphertext or secret")
        }
    }

    #[inline(never)]
    fn encaps(rng: &mut Rng, f: usize) -> Result<Measured, &'static str> {
        let msg: [u8; 32] = rng.bytes();
        // From the encoded key (A_hat expanded in the call), as PQClean's crypto_kem_enc.
        let (m, ok) = measure(|| {
            EncapsulationKey::<P>::from_bytes(&EK[f])
                .map(|ek| ek.encapsulate_deterministic(&msg))
                .is_ok()
        });
        if !ok {
            return Err("bad fixture key");
        }
        let ek = EncapsulationKey::<P>::from_bytes(&EK[f]).map_err(|_| "bad fixture key")?;
        check(&ek, f)?;
        Ok(m)
    }

    #[inline(never)]
    fn decaps(f: usize) -> Result<Measured, &'static str> {
        // From the encoded (expanded-form) decapsulation key, as PQClean's crypto_kem_dec.
        let (m, ss) = measure(|| {
            let dk = DecapsulationKey::<P>::from_expanded(&DK[f]).ok()?;
            Ciphertext::<P>::from_bytes(&CT[f])
                .ok()
                .map(|c| *dk.decapsulate(&c).as_bytes())
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

#[cfg(any(feature = "falcon-512", feature = "falcon-1024"))]
mod alg {
    use pqlab_falcon::{NONCE_LEN, SEED_LEN, Signature, SigningKey, VerifyingKey};

    use super::fixtures::{MSG, PK, SIG, SIG_USED, SK};
    use super::{Measured, Rng, measure};

    #[cfg(feature = "falcon-512")]
    const N: usize = 512;
    #[cfg(feature = "falcon-1024")]
    const N: usize = 1024;
    #[cfg(feature = "falcon-512")]
    pub const NAME: &str = "falcon-512";
    #[cfg(feature = "falcon-1024")]
    pub const NAME: &str = "falcon-1024";
    pub const OPS: &[&str] = &["keygen", "sign", "sign-expanded", "verify"];

    #[inline(never)]
    fn keygen(rng: &mut Rng) -> Result<Measured, &'static str> {
        let seed: [u8; SEED_LEN] = rng.bytes();
        let (m, _sk) = measure(|| SigningKey::<N>::generate_from_seed(&seed));
        Ok(m)
    }

    #[inline(never)]
    fn check(f: usize, msg: &[u8], sig: &Signature<N>) -> Result<(), &'static str> {
        let vk = VerifyingKey::<N>::decode(&PK[f]).map_err(|_| "bad fixture public key")?;
        vk.verify_signature(msg, sig)
            .map_err(|_| "the signature made does not verify")
    }

    #[inline(never)]
    fn sign(rng: &mut Rng, f: usize) -> Result<Measured, &'static str> {
        let msg: [u8; 32] = rng.bytes();
        let nonce: [u8; NONCE_LEN] = rng.bytes();
        let seed: [u8; SEED_LEN] = rng.bytes();
        // From the encoded secret key, as PQClean's crypto_sign_signature.
        let (m, sig) = measure(|| {
            SigningKey::<N>::decode(&SK[f])
                .ok()
                .map(|sk| sk.sign_with_seed(&msg, &nonce, &seed))
        });
        check(f, &msg, &sig.ok_or("bad fixture secret key")?)?;
        Ok(m)
    }

    #[inline(never)]
    fn sign_expanded(rng: &mut Rng, f: usize) -> Result<Measured, &'static str> {
        let sk = SigningKey::<N>::decode(&SK[f]).map_err(|_| "bad fixture secret key")?;
        let msg: [u8; 32] = rng.bytes();
        let nonce: [u8; NONCE_LEN] = rng.bytes();
        let seed: [u8; SEED_LEN] = rng.bytes();
        let ek = sk.expand();
        let (m, sig) = measure(|| ek.sign_with_seed(&msg, &nonce, &seed));
        check(f, &msg, &sig)?;
        Ok(m)
    }

    #[inline(never)]
    fn verify(f: usize) -> Result<Measured, &'static str> {
        // From the encoded public key, as PQClean's crypto_sign_verify.
        let (m, ok) = measure(|| {
            VerifyingKey::<N>::decode(&PK[f])
                .is_ok_and(|vk| vk.verify(&MSG[f], &SIG[f][..SIG_USED[f]]).is_ok())
        });
        if ok {
            Ok(m)
        } else {
            Err("a valid signature was rejected")
        }
    }

    pub fn call(op: &str, rng: &mut Rng, f: usize) -> Result<Measured, &'static str> {
        match op {
            "keygen" => keygen(rng),
            "sign" => sign(rng, f),
            "sign-expanded" => sign_expanded(rng, f),
            _ => verify(f),
        }
    }
}

/// Call `i` of operation `op` (number `k` in [`OPS`]) on fresh inputs.
#[cfg(not(feature = "baseline"))]
pub fn call(op: &str, k: u32, i: u32) -> Result<Measured, &'static str> {
    let mut rng = Rng::new(k, i);
    alg::call(op, &mut rng, i as usize % fixtures::COUNT)
}
