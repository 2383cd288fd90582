//! PQClean's portable C code ("clean") of this image's parameter set, built by `build.rs` with
//! `arm-none-eabi-gcc -O2`: the peer of pqlab on the M4. Its `randombytes` is a splitmix64
//! stream seeded from the per-call generator before the measured call (the call pays a few
//! instructions per random byte, as it would reading a hardware generator), except in ML-DSA's
//! signing calls, where it gives zeros: rnd = 0, FIPS 204's deterministic variant, as pqlab's
//! image signs (the same messages under the same keys: the same signatures, which the host
//! checks, and the same rejection-loop iterations), and in key generation, where it continues
//! the per-call generator itself, so that the key pair is made from the seed pqlab's image
//! draws for the same call (the same key pair, which the host checks). The fixtures are
//! pqlab's (the encodings are the standards' and PQClean's), so each verify and decaps call is
//! also a cross-check of the two implementations.

use crate::meter::{Measured, Rng, measure};

#[allow(dead_code)]
mod fixtures {
    include!(concat!(env!("OUT_DIR"), "/fixtures.rs"));
}

use fixtures::ffi;

/// The implementation name in reports.
pub const IMPL: &str = "pqclean";

/// The parameter set.
pub const ALG: &str = fixtures::ALG;

const KEM: bool = ALG.as_bytes()[3] == b'k';

/// The operations this image measures.
pub const OPS: &[&str] = if KEM {
    &["keygen", "encaps", "decaps"]
} else {
    &["keygen", "sign", "verify"]
};

/// The generator behind `randombytes`: reseeded from the per-call generator before each
/// measured call, then an endless deterministic stream (Falcon's key generation draws again
/// each time it rejects f, g, so no fixed pool is large enough).
static mut STREAM: Rng = Rng::from_seed(0);

/// Whether `randombytes` gives zeros instead of [`STREAM`] (ML-DSA's signing calls: FIPS 204's
/// deterministic variant, rnd = 0, as pqlab's image signs, so that both make the same
/// signatures).
static mut ZEROS: bool = false;

fn refill(rng: &mut Rng) {
    // SAFETY: single-threaded firmware; no reference to STREAM or ZEROS outlives this statement.
    unsafe {
        STREAM = Rng::from_seed(rng.next_u64());
        ZEROS = false;
    }
}

/// `randombytes` continues `rng`, the per-call generator, from where it stands (key generation):
/// crypto_*_keypair's first `randombytes` (Falcon's 48-byte seed, ML-DSA's xi, ML-KEM's d || z)
/// then gives the bytes pqlab's image draws from the same generator for its seed, so that both
/// implementations make the same key pair from the same seed (Falcon from the same rejected
/// (f, g): the same work).
fn continue_from(rng: &Rng) {
    // SAFETY: single-threaded firmware; no reference to STREAM or ZEROS outlives this statement.
    unsafe {
        STREAM = rng.clone();
        ZEROS = false;
    }
}

/// `randombytes` gives zeros until the next [`refill`].
#[cfg(any(feature = "ml-dsa-44", feature = "ml-dsa-65", feature = "ml-dsa-87"))]
fn zeros() {
    // SAFETY: single-threaded firmware; no reference to ZEROS outlives this statement.
    unsafe { ZEROS = true };
}

/// pqcrypto-internals' `randombytes` (`PQCRYPTO_RUST_randombytes`): the next `n` bytes of
/// [`STREAM`] (splitmix64, a few instructions per byte inside the measured call), or zeros
/// (see [`ZEROS`]).
#[unsafe(no_mangle)]
extern "C" fn PQCRYPTO_RUST_randombytes(buf: *mut u8, n: usize) -> i32 {
    // SAFETY: PQClean passes a writable buffer of n bytes that does not overlap STREAM or
    // ZEROS; single-threaded firmware, so these are the only references to them.
    unsafe {
        let out = core::slice::from_raw_parts_mut(buf, n);
        if *core::ptr::addr_of!(ZEROS) {
            out.fill(0);
        } else {
            (*core::ptr::addr_of_mut!(STREAM)).fill(out);
        }
    }
    0
}

#[cfg(not(any(
    feature = "ml-kem-512",
    feature = "ml-kem-768",
    feature = "ml-kem-1024"
)))]
mod ops {
    use super::fixtures::{MSG, PK, PK_LEN, SIG, SIG_LEN, SK, SK_LEN};
    use super::{Measured, Rng, continue_from, ffi, measure, refill};

    /// The length of fixture `f`'s signature (Falcon's vary).
    fn sig_len(f: usize) -> usize {
        #[cfg(any(feature = "falcon-512", feature = "falcon-1024"))]
        return super::fixtures::SIG_USED[f];
        #[cfg(not(any(feature = "falcon-512", feature = "falcon-1024")))]
        return {
            let _ = f;
            SIG_LEN
        };
    }

    /// PQClean's crypto_sign_signature (ML-DSA: with an empty context).
    fn sign_c(sig: &mut [u8], siglen: &mut usize, m: &[u8], sk: &[u8]) -> i32 {
        // SAFETY: buffers of the API's sizes (SIG_LEN, SK_LEN from the fixtures).
        unsafe {
            #[cfg(any(feature = "falcon-512", feature = "falcon-1024"))]
            return ffi::signature(sig.as_mut_ptr(), siglen, m.as_ptr(), m.len(), sk.as_ptr());
            #[cfg(not(any(feature = "falcon-512", feature = "falcon-1024")))]
            return ffi::signature_ctx(
                sig.as_mut_ptr(),
                siglen,
                m.as_ptr(),
                m.len(),
                core::ptr::null(),
                0,
                sk.as_ptr(),
            );
        }
    }

    /// PQClean's crypto_sign_verify: 0 when valid.
    fn verify_c(sig: &[u8], m: &[u8], pk: &[u8]) -> i32 {
        // SAFETY: as in sign_c.
        unsafe {
            #[cfg(any(feature = "falcon-512", feature = "falcon-1024"))]
            return ffi::verify(sig.as_ptr(), sig.len(), m.as_ptr(), m.len(), pk.as_ptr());
            #[cfg(not(any(feature = "falcon-512", feature = "falcon-1024")))]
            return ffi::verify_ctx(
                sig.as_ptr(),
                sig.len(),
                m.as_ptr(),
                m.len(),
                core::ptr::null(),
                0,
                pk.as_ptr(),
            );
        }
    }

    #[inline(never)]
    fn keygen(rng: &mut Rng) -> Result<Measured, &'static str> {
        let mut pk = [0u8; PK_LEN];
        let mut sk = [0u8; SK_LEN];
        continue_from(rng);
        // SAFETY: buffers of the API's sizes.
        let (m, rc) = measure(|| unsafe { ffi::keypair(pk.as_mut_ptr(), sk.as_mut_ptr()) });
        if rc != 0 {
            return Err("keypair failed");
        }
        // Falcon's keygen.c is built with some optimisations off (build.rs: GCC 12 miscompiles
        // it): the key pair it made must sign and verify (outside the measured call).
        #[cfg(any(feature = "falcon-512", feature = "falcon-1024"))]
        {
            let mut sig = [0u8; SIG_LEN + 100];
            let mut len = 0usize;
            refill(rng);
            if sign_c(&mut sig, &mut len, &MSG[0], &sk) != 0
                || verify_c(&sig[..len], &MSG[0], &pk) != 0
            {
                return Err("the key pair made does not sign and verify");
            }
        }
        Ok(m.made_key(&pk))
    }

    /// Signs a fresh message (the same as pqlab's image's call of this index) under fixture
    /// `f`; ML-DSA with rnd = 0 (`randombytes` gives zeros), reporting the signature's digest
    /// for the host to compare with pqlab's; Falcon with fresh randomness.
    #[inline(never)]
    fn sign(rng: &mut Rng, f: usize) -> Result<Measured, &'static str> {
        let msg: [u8; 32] = rng.bytes();
        let mut sig = [0u8; SIG_LEN + 100];
        let mut len = 0usize;
        refill(rng);
        #[cfg(not(any(feature = "falcon-512", feature = "falcon-1024")))]
        super::zeros();
        let (m, rc) = measure(|| sign_c(&mut sig, &mut len, &msg, &SK[f]));
        if rc != 0 || len > sig.len() {
            return Err("signing failed");
        }
        if verify_c(&sig[..len], &msg, &PK[f]) != 0 {
            return Err("the signature made does not verify");
        }
        #[cfg(not(any(feature = "falcon-512", feature = "falcon-1024")))]
        return Ok(m.signed(&sig[..len], None));
        #[cfg(any(feature = "falcon-512", feature = "falcon-1024"))]
        return Ok(m);
    }

    #[inline(never)]
    fn verify(f: usize) -> Result<Measured, &'static str> {
        let (m, rc) = measure(|| verify_c(&SIG[f][..sig_len(f)], &MSG[f], &PK[f]));
        if rc == 0 {
            Ok(m)
        } else {
            Err("a valid (pqlab) signature was rejected")
        }
    }

    pub fn call(op: &str, rng: &mut Rng, f: usize) -> Result<Measured, &'static str> {
        match op {
            "keygen" => keygen(rng),
            "sign" => sign(rng, f),
            _ => verify(f),
        }
    }
}

#[cfg(any(
    feature = "ml-kem-512",
    feature = "ml-kem-768",
    feature = "ml-kem-1024"
))]
mod ops {
    use super::fixtures::{CT, CT_LEN, DK, DK_LEN, EK, EK_LEN, SS};
    use super::{Measured, Rng, continue_from, ffi, measure, refill};

    #[inline(never)]
    fn keygen(rng: &mut Rng) -> Result<Measured, &'static str> {
        let mut ek = [0u8; EK_LEN];
        let mut dk = [0u8; DK_LEN];
        continue_from(rng);
        // SAFETY: buffers of the API's sizes.
        let (m, rc) = measure(|| unsafe { ffi::keypair(ek.as_mut_ptr(), dk.as_mut_ptr()) });
        if rc == 0 {
            Ok(m.made_key(&ek))
        } else {
            Err("keypair failed")
        }
    }

    #[inline(never)]
    fn decaps_c(ct: &[u8], f: usize) -> [u8; 32] {
        let mut ss = [0u8; 32];
        // SAFETY: buffers of the API's sizes.
        unsafe { ffi::dec(ss.as_mut_ptr(), ct.as_ptr(), DK[f].as_ptr()) };
        ss
    }

    #[inline(never)]
    fn encaps(rng: &mut Rng, f: usize) -> Result<Measured, &'static str> {
        let mut ct = [0u8; CT_LEN];
        let mut ss = [0u8; 32];
        refill(rng);
        // SAFETY: buffers of the API's sizes.
        let (m, rc) =
            measure(|| unsafe { ffi::enc(ct.as_mut_ptr(), ss.as_mut_ptr(), EK[f].as_ptr()) });
        if rc != 0 || decaps_c(&ct, f) != ss {
            return Err("decapsulation disagrees with encapsulation");
        }
        Ok(m)
    }

    #[inline(never)]
    fn decaps(f: usize) -> Result<Measured, &'static str> {
        let (m, ss) = measure(|| decaps_c(&CT[f], f));
        if ss == SS[f] {
            Ok(m)
        } else {
            Err("wrong shared secret for a pqlab ciphertext")
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

/// Call `i` of operation `op` (number `k` in [`OPS`]) on fresh inputs.
pub fn call(op: &str, k: u32, i: u32) -> Result<Measured, &'static str> {
    let mut rng = Rng::new(k, i);
    ops::call(op, &mut rng, i as usize % fixtures::COUNT)
}
