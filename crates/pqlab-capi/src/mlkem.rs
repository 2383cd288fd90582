//! ML-KEM-512, ML-KEM-768 and ML-KEM-1024 (FIPS 203) behind the NIST `crypto_kem` API, with
//! the expanded decapsulation key of Algorithm 16 and the seeded entry points of PQClean and
//! mlkem-native.

use core::ffi::c_int;

use pqlab_mlkem::{
    Ciphertext, DecapsulationKey, EncapsulationKey, MlKem512, MlKem768, MlKem1024, ParameterSet,
    SEED_LEN, SHARED_SECRET_LEN,
};
use zeroize::Zeroize;

use crate::ffi::{guard, input, seed, write};
use crate::{Macro, MacroValue};

/// The length of the encapsulation randomness m.
const ENC_COINS_LEN: usize = 32;

/// The header macros of one parameter set.
const fn macros<P: ParameterSet>(prefix: &'static str) -> [Macro; 7] {
    [
        Macro::new(prefix, "CRYPTO_PUBLICKEYBYTES", MacroValue::Int(P::EK_LEN)),
        Macro::new(prefix, "CRYPTO_SECRETKEYBYTES", MacroValue::Int(P::DK_LEN)),
        Macro::new(prefix, "CRYPTO_CIPHERTEXTBYTES", MacroValue::Int(P::CT_LEN)),
        Macro::new(prefix, "CRYPTO_BYTES", MacroValue::Int(SHARED_SECRET_LEN)),
        Macro::new(prefix, "CRYPTO_ALGNAME", MacroValue::Str(P::NAME)),
        Macro::new(prefix, "CRYPTO_KEYPAIRCOINBYTES", MacroValue::Int(SEED_LEN)),
        Macro::new(
            prefix,
            "CRYPTO_ENCCOINBYTES",
            MacroValue::Int(ENC_COINS_LEN),
        ),
    ]
}

/// The header macros of ML-KEM-512.
pub(crate) const MLKEM512_MACROS: [Macro; 7] = macros::<MlKem512>("MLKEM512");
/// The header macros of ML-KEM-768.
pub(crate) const MLKEM768_MACROS: [Macro; 7] = macros::<MlKem768>("MLKEM768");
/// The header macros of ML-KEM-1024.
pub(crate) const MLKEM1024_MACROS: [Macro; 7] = macros::<MlKem1024>("MLKEM1024");

/// FIPS 203, Algorithm 19: ML-KEM.KeyGen (OS randomness, `coins` = `None`) or Algorithm 16:
/// ML-KEM.KeyGen_internal from the 64 bytes d || z at `coins`; writes ek to `pk` and the
/// expanded dk to `sk`.
///
/// # Safety
///
/// `pk` valid for `P::EK_LEN` bytes, `sk` for `P::DK_LEN`, given coins for 64 (or null).
unsafe fn keypair<P: ParameterSet>(pk: *mut u8, sk: *mut u8, coins: Option<*const u8>) -> c_int {
    guard(|| {
        if pk.is_null() || sk.is_null() {
            return None;
        }
        // SAFETY: non-null coins hold 64 readable bytes (the caller's contract).
        let dk = match unsafe { seed::<SEED_LEN>(coins) }? {
            None => DecapsulationKey::<P>::generate().ok()?,
            Some(seed) => DecapsulationKey::<P>::from_seed_bytes(seed).ok()?,
        };
        let mut encoded = dk.to_expanded();
        // SAFETY: pk and sk are valid for P::EK_LEN and P::DK_LEN bytes (the caller's contract).
        let written = unsafe {
            write(pk, dk.encapsulation_key().as_bytes()).and(write(sk, encoded.as_ref()))
        };
        encoded.as_mut().zeroize();
        written
    })
}

/// FIPS 203, Algorithm 20: ML-KEM.Encaps (OS randomness, `coins` = `None`) or Algorithm 17:
/// ML-KEM.Encaps_internal with the 32-byte m at `coins`, after the encapsulation-key check of
/// Section 7.2; writes c to `ct` and K to `ss`.
///
/// # Safety
///
/// `ct` valid for `P::CT_LEN` bytes, `ss` for 32, `pk` for `P::EK_LEN`, given coins for 32 (or
/// null).
unsafe fn enc<P: ParameterSet>(
    ct: *mut u8,
    ss: *mut u8,
    pk: *const u8,
    coins: Option<*const u8>,
) -> c_int {
    guard(|| {
        if ct.is_null() || ss.is_null() {
            return None;
        }
        // SAFETY: pk is valid for P::EK_LEN bytes when non-null (the caller's contract).
        let ek = EncapsulationKey::<P>::from_bytes(unsafe { input(pk, P::EK_LEN) }?).ok()?;
        // SAFETY: non-null coins hold 32 readable bytes (the caller's contract).
        let (c, k) = match unsafe { seed::<ENC_COINS_LEN>(coins) }? {
            None => ek.encapsulate().ok()?,
            Some(m) => ek.encapsulate_deterministic(m),
        };
        // SAFETY: ct and ss are non-null, valid for P::CT_LEN and 32 bytes, and overlap no input.
        unsafe { write(ct, c.as_bytes()).and(write(ss, k.as_bytes())) }
    })
}

/// FIPS 203, Algorithm 21: ML-KEM.Decaps with the expanded key at `sk` (checked as in
/// Section 7.3); writes K (or the implicit-rejection key) to `ss`.
///
/// # Safety
///
/// `ss` valid for 32 bytes, `ct` for `P::CT_LEN`, `sk` for `P::DK_LEN`.
unsafe fn dec<P: ParameterSet>(ss: *mut u8, ct: *const u8, sk: *const u8) -> c_int {
    guard(|| {
        // SAFETY: ct and sk are valid for P::CT_LEN and P::DK_LEN bytes (the caller's contract).
        let (ct, sk) = unsafe { (input(ct, P::CT_LEN)?, input(sk, P::DK_LEN)?) };
        let dk = DecapsulationKey::<P>::from_expanded(sk).ok()?;
        let c = Ciphertext::<P>::from_bytes(ct).ok()?;
        let k = dk.decapsulate(&c);
        // SAFETY: ss is valid for 32 bytes and overlaps no input (the caller's contract).
        unsafe { write(ss, k.as_bytes()) }
    })
}

/// ML-KEM-512 `crypto_kem_keypair`: FIPS 203, Algorithm 19 (ML-KEM.KeyGen) with OS randomness;
/// writes the encapsulation key and the expanded decapsulation key.
///
/// # Safety
///
/// The C contract of the [crate documentation](crate#safety).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PQLAB_MLKEM512_crypto_kem_keypair(pk: *mut u8, sk: *mut u8) -> c_int {
    // SAFETY: the caller's contract (crate documentation) is the one the callee requires.
    unsafe { keypair::<MlKem512>(pk, sk, None) }
}

/// ML-KEM-512 `crypto_kem_keypair_derand`: FIPS 203, Algorithm 16 (ML-KEM.KeyGen_internal) from
/// the 64 coins d || z.
///
/// # Safety
///
/// The C contract of the [crate documentation](crate#safety).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PQLAB_MLKEM512_crypto_kem_keypair_derand(
    pk: *mut u8,
    sk: *mut u8,
    coins: *const u8,
) -> c_int {
    // SAFETY: the caller's contract (crate documentation) is the one the callee requires.
    unsafe { keypair::<MlKem512>(pk, sk, Some(coins)) }
}

/// ML-KEM-512 `crypto_kem_enc`: FIPS 203, Algorithm 20 (ML-KEM.Encaps) with OS randomness, after
/// the encapsulation-key check; writes the ciphertext and the shared secret.
///
/// # Safety
///
/// The C contract of the [crate documentation](crate#safety).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PQLAB_MLKEM512_crypto_kem_enc(
    ct: *mut u8,
    ss: *mut u8,
    pk: *const u8,
) -> c_int {
    // SAFETY: the caller's contract (crate documentation) is the one the callee requires.
    unsafe { enc::<MlKem512>(ct, ss, pk, None) }
}

/// ML-KEM-512 `crypto_kem_enc_derand`: FIPS 203, Algorithm 17 (ML-KEM.Encaps_internal) with the
/// 32 coins m, after the encapsulation-key check.
///
/// # Safety
///
/// The C contract of the [crate documentation](crate#safety).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PQLAB_MLKEM512_crypto_kem_enc_derand(
    ct: *mut u8,
    ss: *mut u8,
    pk: *const u8,
    coins: *const u8,
) -> c_int {
    // SAFETY: the caller's contract (crate documentation) is the one the callee requires.
    unsafe { enc::<MlKem512>(ct, ss, pk, Some(coins)) }
}

/// ML-KEM-512 `crypto_kem_dec`: FIPS 203, Algorithm 21 (ML-KEM.Decaps) after the
/// decapsulation-key check; a wrong ciphertext gives the implicit-rejection key.
///
/// # Safety
///
/// The C contract of the [crate documentation](crate#safety).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PQLAB_MLKEM512_crypto_kem_dec(
    ss: *mut u8,
    ct: *const u8,
    sk: *const u8,
) -> c_int {
    // SAFETY: the caller's contract (crate documentation) is the one the callee requires.
    unsafe { dec::<MlKem512>(ss, ct, sk) }
}

/// ML-KEM-768 `crypto_kem_keypair`: FIPS 203, Algorithm 19 (ML-KEM.KeyGen) with OS randomness;
/// writes the encapsulation key and the expanded decapsulation key.
///
/// # Safety
///
/// The C contract of the [crate documentation](crate#safety).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PQLAB_MLKEM768_crypto_kem_keypair(pk: *mut u8, sk: *mut u8) -> c_int {
    // SAFETY: the caller's contract (crate documentation) is the one the callee requires.
    unsafe { keypair::<MlKem768>(pk, sk, None) }
}

/// ML-KEM-768 `crypto_kem_keypair_derand`: FIPS 203, Algorithm 16 (ML-KEM.KeyGen_internal) from
/// the 64 coins d || z.
///
/// # Safety
///
/// The C contract of the [crate documentation](crate#safety).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PQLAB_MLKEM768_crypto_kem_keypair_derand(
    pk: *mut u8,
    sk: *mut u8,
    coins: *const u8,
) -> c_int {
    // SAFETY: the caller's contract (crate documentation) is the one the callee requires.
    unsafe { keypair::<MlKem768>(pk, sk, Some(coins)) }
}

/// ML-KEM-768 `crypto_kem_enc`: FIPS 203, Algorithm 20 (ML-KEM.Encaps) with OS randomness, after
/// the encapsulation-key check; writes the ciphertext and the shared secret.
///
/// # Safety
///
/// The C contract of the [crate documentation](crate#safety).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PQLAB_MLKEM768_crypto_kem_enc(
    ct: *mut u8,
    ss: *mut u8,
    pk: *const u8,
) -> c_int {
    // SAFETY: the caller's contract (crate documentation) is the one the callee requires.
    unsafe { enc::<MlKem768>(ct, ss, pk, None) }
}

/// ML-KEM-768 `crypto_kem_enc_derand`: FIPS 203, Algorithm 17 (ML-KEM.Encaps_internal) with the
/// 32 coins m, after the encapsulation-key check.
///
/// # Safety
///
/// The C contract of the [crate documentation](crate#safety).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PQLAB_MLKEM768_crypto_kem_enc_derand(
    ct: *mut u8,
    ss: *mut u8,
    pk: *const u8,
    coins: *const u8,
) -> c_int {
    // SAFETY: the caller's contract (crate documentation) is the one the callee requires.
    unsafe { enc::<MlKem768>(ct, ss, pk, Some(coins)) }
}

/// ML-KEM-768 `crypto_kem_dec`: FIPS 203, Algorithm 21 (ML-KEM.Decaps) after the
/// decapsulation-key check; a wrong ciphertext gives the implicit-rejection key.
///
/// # Safety
///
/// The C contract of the [crate documentation](crate#safety).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PQLAB_MLKEM768_crypto_kem_dec(
    ss: *mut u8,
    ct: *const u8,
    sk: *const u8,
) -> c_int {
    // SAFETY: the caller's contract (crate documentation) is the one the callee requires.
    unsafe { dec::<MlKem768>(ss, ct, sk) }
}

/// ML-KEM-1024 `crypto_kem_keypair`: FIPS 203, Algorithm 19 (ML-KEM.KeyGen) with OS randomness;
/// writes the encapsulation key and the expanded decapsulation key.
///
/// # Safety
///
/// The C contract of the [crate documentation](crate#safety).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PQLAB_MLKEM1024_crypto_kem_keypair(pk: *mut u8, sk: *mut u8) -> c_int {
    // SAFETY: the caller's contract (crate documentation) is the one the callee requires.
    unsafe { keypair::<MlKem1024>(pk, sk, None) }
}

/// ML-KEM-1024 `crypto_kem_keypair_derand`: FIPS 203, Algorithm 16 (ML-KEM.KeyGen_internal) from
/// the 64 coins d || z.
///
/// # Safety
///
/// The C contract of the [crate documentation](crate#safety).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PQLAB_MLKEM1024_crypto_kem_keypair_derand(
    pk: *mut u8,
    sk: *mut u8,
    coins: *const u8,
) -> c_int {
    // SAFETY: the caller's contract (crate documentation) is the one the callee requires.
    unsafe { keypair::<MlKem1024>(pk, sk, Some(coins)) }
}

/// ML-KEM-1024 `crypto_kem_enc`: FIPS 203, Algorithm 20 (ML-KEM.Encaps) with OS randomness, after
/// the encapsulation-key check; writes the ciphertext and the shared secret.
///
/// # Safety
///
/// The C contract of the [crate documentation](crate#safety).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PQLAB_MLKEM1024_crypto_kem_enc(
    ct: *mut u8,
    ss: *mut u8,
    pk: *const u8,
) -> c_int {
    // SAFETY: the caller's contract (crate documentation) is the one the callee requires.
    unsafe { enc::<MlKem1024>(ct, ss, pk, None) }
}

/// ML-KEM-1024 `crypto_kem_enc_derand`: FIPS 203, Algorithm 17 (ML-KEM.Encaps_internal) with the
/// 32 coins m, after the encapsulation-key check.
///
/// # Safety
///
/// The C contract of the [crate documentation](crate#safety).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PQLAB_MLKEM1024_crypto_kem_enc_derand(
    ct: *mut u8,
    ss: *mut u8,
    pk: *const u8,
    coins: *const u8,
) -> c_int {
    // SAFETY: the caller's contract (crate documentation) is the one the callee requires.
    unsafe { enc::<MlKem1024>(ct, ss, pk, Some(coins)) }
}

/// ML-KEM-1024 `crypto_kem_dec`: FIPS 203, Algorithm 21 (ML-KEM.Decaps) after the
/// decapsulation-key check; a wrong ciphertext gives the implicit-rejection key.
///
/// # Safety
///
/// The C contract of the [crate documentation](crate#safety).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PQLAB_MLKEM1024_crypto_kem_dec(
    ss: *mut u8,
    ct: *const u8,
    sk: *const u8,
) -> c_int {
    // SAFETY: the caller's contract (crate documentation) is the one the callee requires.
    unsafe { dec::<MlKem1024>(ss, ct, sk) }
}
