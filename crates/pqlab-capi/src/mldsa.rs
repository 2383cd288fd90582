//! ML-DSA-44, ML-DSA-65 and ML-DSA-87 (FIPS 204) behind the NIST `crypto_sign` API: pure
//! ML-DSA (Algorithm 2) with the empty context unless a `_ctx` function is called, the
//! expanded secret key of skEncode (Algorithm 24), sm = signature || m.

use core::ffi::c_int;
use core::ptr::null;

use pqlab_mldsa::{
    MAX_CONTEXT_LEN, MlDsa44, MlDsa65, MlDsa87, ParameterSet, Signature, SigningKey, VerifyingKey,
};
use zeroize::Zeroize;

use crate::ffi::{OK, guard, guard_len, input, move_bytes, seed, write};
use crate::{Macro, MacroValue};

/// The length of the key-generation seed xi and of the signing randomness rnd.
const SEED_LEN: usize = 32;

/// The header macros of one parameter set.
const fn macros<P: ParameterSet>(prefix: &'static str) -> [Macro; 6] {
    [
        Macro::new(prefix, "CRYPTO_PUBLICKEYBYTES", MacroValue::Int(P::PK_LEN)),
        Macro::new(prefix, "CRYPTO_SECRETKEYBYTES", MacroValue::Int(P::SK_LEN)),
        Macro::new(prefix, "CRYPTO_BYTES", MacroValue::Int(P::SIG_LEN)),
        Macro::new(prefix, "CRYPTO_ALGNAME", MacroValue::Str(P::NAME)),
        Macro::new(prefix, "CRYPTO_SEEDBYTES", MacroValue::Int(SEED_LEN)),
        Macro::new(prefix, "CRYPTO_RNDBYTES", MacroValue::Int(SEED_LEN)),
    ]
}

/// The header macros of ML-DSA-44.
pub(crate) const MLDSA44_MACROS: [Macro; 6] = macros::<MlDsa44>("MLDSA44");
/// The header macros of ML-DSA-65.
pub(crate) const MLDSA65_MACROS: [Macro; 6] = macros::<MlDsa65>("MLDSA65");
/// The header macros of ML-DSA-87.
pub(crate) const MLDSA87_MACROS: [Macro; 6] = macros::<MlDsa87>("MLDSA87");

/// FIPS 204, Algorithm 1: ML-DSA.KeyGen (OS randomness, `xi` = `None`) or Algorithm 6:
/// ML-DSA.KeyGen_internal from the 32 bytes at `xi`; writes pkEncode to `pk` and skEncode to
/// `sk`.
///
/// # Safety
///
/// `pk` valid for `P::PK_LEN` bytes, `sk` for `P::SK_LEN`, a given `xi` for 32 (or null).
unsafe fn keypair<P: ParameterSet>(pk: *mut u8, sk: *mut u8, xi: Option<*const u8>) -> c_int {
    guard(|| {
        if pk.is_null() || sk.is_null() {
            return None;
        }
        // SAFETY: a non-null xi holds 32 readable bytes (the caller's contract).
        let (pk_bytes, key) = match unsafe { seed::<SEED_LEN>(xi) }? {
            None => SigningKey::<P>::generate_encoded().ok()?,
            Some(xi) => SigningKey::<P>::encoded_pair_from_seed(xi),
        };
        let mut encoded = key.to_expanded();
        // SAFETY: pk and sk are valid for P::PK_LEN and P::SK_LEN bytes (the caller's contract).
        let written = unsafe { write(pk, pk_bytes.as_ref()).and(write(sk, encoded.as_ref())) };
        encoded.zeroize();
        written
    })
}

/// FIPS 204, Algorithm 2: ML-DSA.Sign of `msg` with context `ctx` and the expanded secret key
/// at `sk` (Algorithm 25: skDecode), hedged with OS randomness (`rnd` = `None`) or with the 32
/// bytes at `rnd`.
///
/// # Safety
///
/// A non-null `sk` valid for reads of `P::SK_LEN` bytes, a given non-null `rnd` for 32.
unsafe fn sign_bytes<P: ParameterSet>(
    sk: *const u8,
    msg: &[u8],
    ctx: &[u8],
    rnd: Option<*const u8>,
) -> Option<Signature<P>> {
    if ctx.len() > MAX_CONTEXT_LEN {
        return None;
    }
    // SAFETY: sk and rnd are valid for P::SK_LEN and 32 bytes when non-null (the contract).
    let (bytes, rnd) = unsafe { (input(sk, P::SK_LEN)?, seed::<SEED_LEN>(rnd)?) };
    let key = SigningKey::<P>::from_expanded(bytes).ok()?;
    match rnd {
        None => key.sign(msg, ctx).ok(),
        Some(rnd) => key.sign_with_rnd(msg, ctx, rnd).ok(),
    }
}

/// `crypto_sign_signature[_ctx[_derand]]`: FIPS 204, Algorithm 2 (ML-DSA.Sign), the detached
/// signature to `sig` and its length to `siglen`.
///
/// # Safety
///
/// The crate's contract: `sig` valid for `P::SIG_LEN` bytes, `m` for `mlen`, `ctx` for
/// `ctxlen`, `sk` for `P::SK_LEN`, a given `rnd` for 32, `siglen` for one `size_t` (or null).
unsafe fn signature<P: ParameterSet>(
    sig: *mut u8,
    siglen: *mut usize,
    m: *const u8,
    mlen: usize,
    ctx: *const u8,
    ctxlen: usize,
    rnd: Option<*const u8>,
    sk: *const u8,
) -> c_int {
    // SAFETY: siglen is null or valid for a write of one size_t (the caller's contract).
    guard_len(unsafe { siglen.as_mut() }, || {
        // SAFETY: every pointer is valid for the length given with it (the caller's contract).
        let s = unsafe { sign_bytes::<P>(sk, input(m, mlen)?, input(ctx, ctxlen)?, rnd)? };
        // SAFETY: sig is valid for P::SIG_LEN bytes and overlaps no input (the contract).
        unsafe { write(sig, s.as_bytes()) }?;
        Some(P::SIG_LEN)
    })
}

/// `crypto_sign_verify[_ctx]`: FIPS 204, Algorithm 3 (ML-DSA.Verify); -1 unless `siglen` is
/// `P::SIG_LEN` and the signature verifies.
///
/// # Safety
///
/// `sig` valid for `siglen` bytes, `m` for `mlen`, `ctx` for `ctxlen`, `pk` for `P::PK_LEN`.
unsafe fn verify<P: ParameterSet>(
    sig: *const u8,
    siglen: usize,
    m: *const u8,
    mlen: usize,
    ctx: *const u8,
    ctxlen: usize,
    pk: *const u8,
) -> c_int {
    guard(|| {
        if siglen != P::SIG_LEN || ctxlen > MAX_CONTEXT_LEN {
            return None;
        }
        // SAFETY: every pointer is valid for the length given with it (the caller's contract).
        let (sig, msg, ctx, pk) = unsafe {
            (
                input(sig, siglen)?,
                input(m, mlen)?,
                input(ctx, ctxlen)?,
                input(pk, P::PK_LEN)?,
            )
        };
        let vk = VerifyingKey::<P>::from_bytes(pk).ok()?;
        vk.verify(msg, ctx, &Signature::<P>::from_bytes(sig).ok()?)
            .ok()
    })
}

/// `crypto_sign`: sm = ML-DSA.Sign(sk, m, empty context) || m, its length to `smlen`.
///
/// # Safety
///
/// `sm` valid for `P::SIG_LEN + mlen` bytes (it may overlap `m`), `m` for `mlen`, `sk` for
/// `P::SK_LEN`, `smlen` for one `size_t` (or null).
unsafe fn sign<P: ParameterSet>(
    sm: *mut u8,
    smlen: *mut usize,
    m: *const u8,
    mlen: usize,
    sk: *const u8,
) -> c_int {
    // SAFETY: smlen is null or valid for a write of one size_t (the caller's contract).
    guard_len(unsafe { smlen.as_mut() }, || {
        let total = P::SIG_LEN.checked_add(mlen)?;
        if sm.is_null() || total > isize::MAX as usize {
            return None;
        }
        // SAFETY: m is valid for mlen bytes, sk for P::SK_LEN; the slice is dropped before sm
        // is written.
        let s = unsafe { sign_bytes::<P>(sk, input(m, mlen)?, &[], None)? };
        // SAFETY: sm is valid for total bytes and m for mlen; the message moves first
        // (memmove semantics, so m may overlap sm), then the signature goes in front of it.
        unsafe {
            move_bytes(m, sm.add(P::SIG_LEN), mlen);
            write(sm, s.as_bytes())?;
        }
        Some(total)
    })
}

/// `crypto_sign_open`: verifies sm = signature || m (FIPS 204, Algorithm 3, empty context) and
/// copies m to `m`, its length to `mlen`.
///
/// # Safety
///
/// `sm` valid for `smlen` bytes, `m` for `smlen - P::SIG_LEN` bytes (it may overlap `sm`), `pk`
/// for `P::PK_LEN`, `mlen` for one `size_t` (or null).
unsafe fn open<P: ParameterSet>(
    m: *mut u8,
    mlen: *mut usize,
    sm: *const u8,
    smlen: usize,
    pk: *const u8,
) -> c_int {
    // SAFETY: mlen is null or valid for a write of one size_t (the caller's contract).
    guard_len(unsafe { mlen.as_mut() }, || {
        let msg_len = smlen.checked_sub(P::SIG_LEN)?;
        if sm.is_null() || smlen > isize::MAX as usize || (m.is_null() && msg_len > 0) {
            return None;
        }
        // SAFETY: sm is non-null and valid for smlen = SIG_LEN + msg_len bytes (the
        // caller's contract): the signature, then the message; both are read before m is
        // written.
        let status =
            unsafe { verify::<P>(sm, P::SIG_LEN, sm.add(P::SIG_LEN), msg_len, null(), 0, pk) };
        if status != OK {
            return None;
        }
        // SAFETY: sm + SIG_LEN holds msg_len readable bytes, m is valid for msg_len writes;
        // the regions may overlap (memmove semantics).
        unsafe { move_bytes(sm.add(P::SIG_LEN), m, msg_len) };
        Some(msg_len)
    })
}

/// ML-DSA-44 `crypto_sign_keypair`: FIPS 204, Algorithm 1 (ML-DSA.KeyGen) with OS randomness;
/// writes the public key and the expanded secret key.
///
/// # Safety
///
/// The C contract of the [crate documentation](crate#safety).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PQLAB_MLDSA44_crypto_sign_keypair(pk: *mut u8, sk: *mut u8) -> c_int {
    // SAFETY: the caller's contract (crate documentation) is the one the callee requires.
    unsafe { keypair::<MlDsa44>(pk, sk, None) }
}

/// ML-DSA-44 `crypto_sign_keypair_derand`: FIPS 204, Algorithm 6 (ML-DSA.KeyGen_internal) from
/// the 32-byte seed xi.
///
/// # Safety
///
/// The C contract of the [crate documentation](crate#safety).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PQLAB_MLDSA44_crypto_sign_keypair_derand(
    pk: *mut u8,
    sk: *mut u8,
    seed: *const u8,
) -> c_int {
    // SAFETY: the caller's contract (crate documentation) is the one the callee requires.
    unsafe { keypair::<MlDsa44>(pk, sk, Some(seed)) }
}

/// ML-DSA-44 `crypto_sign_signature`: FIPS 204, Algorithm 2 (ML-DSA.Sign), hedged, empty context;
/// writes the signature and its length.
///
/// # Safety
///
/// The C contract of the [crate documentation](crate#safety).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PQLAB_MLDSA44_crypto_sign_signature(
    sig: *mut u8,
    siglen: *mut usize,
    m: *const u8,
    mlen: usize,
    sk: *const u8,
) -> c_int {
    // SAFETY: the caller's contract (crate documentation) is the one the callee requires.
    unsafe { signature::<MlDsa44>(sig, siglen, m, mlen, null(), 0, None, sk) }
}

/// ML-DSA-44 `crypto_sign_signature_ctx`: FIPS 204, Algorithm 2 (ML-DSA.Sign), hedged, with the
/// context string ctx (at most 255 bytes).
///
/// # Safety
///
/// The C contract of the [crate documentation](crate#safety).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PQLAB_MLDSA44_crypto_sign_signature_ctx(
    sig: *mut u8,
    siglen: *mut usize,
    m: *const u8,
    mlen: usize,
    ctx: *const u8,
    ctxlen: usize,
    sk: *const u8,
) -> c_int {
    // SAFETY: the caller's contract (crate documentation) is the one the callee requires.
    unsafe { signature::<MlDsa44>(sig, siglen, m, mlen, ctx, ctxlen, None, sk) }
}

/// ML-DSA-44 `crypto_sign_signature_ctx_derand`: FIPS 204, Algorithm 2 (ML-DSA.Sign) with the
/// given 32-byte rnd (all zero: the deterministic variant) and context ctx.
///
/// # Safety
///
/// The C contract of the [crate documentation](crate#safety).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PQLAB_MLDSA44_crypto_sign_signature_ctx_derand(
    sig: *mut u8,
    siglen: *mut usize,
    m: *const u8,
    mlen: usize,
    ctx: *const u8,
    ctxlen: usize,
    rnd: *const u8,
    sk: *const u8,
) -> c_int {
    // SAFETY: the caller's contract (crate documentation) is the one the callee requires.
    unsafe { signature::<MlDsa44>(sig, siglen, m, mlen, ctx, ctxlen, Some(rnd), sk) }
}

/// ML-DSA-44 `crypto_sign_verify`: FIPS 204, Algorithm 3 (ML-DSA.Verify), empty context; 0 when
/// the signature verifies.
///
/// # Safety
///
/// The C contract of the [crate documentation](crate#safety).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PQLAB_MLDSA44_crypto_sign_verify(
    sig: *const u8,
    siglen: usize,
    m: *const u8,
    mlen: usize,
    pk: *const u8,
) -> c_int {
    // SAFETY: the caller's contract (crate documentation) is the one the callee requires.
    unsafe { verify::<MlDsa44>(sig, siglen, m, mlen, null(), 0, pk) }
}

/// ML-DSA-44 `crypto_sign_verify_ctx`: FIPS 204, Algorithm 3 (ML-DSA.Verify) with the context
/// string ctx; 0 when the signature verifies.
///
/// # Safety
///
/// The C contract of the [crate documentation](crate#safety).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PQLAB_MLDSA44_crypto_sign_verify_ctx(
    sig: *const u8,
    siglen: usize,
    m: *const u8,
    mlen: usize,
    ctx: *const u8,
    ctxlen: usize,
    pk: *const u8,
) -> c_int {
    // SAFETY: the caller's contract (crate documentation) is the one the callee requires.
    unsafe { verify::<MlDsa44>(sig, siglen, m, mlen, ctx, ctxlen, pk) }
}

/// ML-DSA-44 `crypto_sign`: sm = signature || m (hedged, empty context); sm needs
/// `CRYPTO_BYTES + mlen` bytes and may overlap m.
///
/// # Safety
///
/// The C contract of the [crate documentation](crate#safety).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PQLAB_MLDSA44_crypto_sign(
    sm: *mut u8,
    smlen: *mut usize,
    m: *const u8,
    mlen: usize,
    sk: *const u8,
) -> c_int {
    // SAFETY: the caller's contract (crate documentation) is the one the callee requires.
    unsafe { sign::<MlDsa44>(sm, smlen, m, mlen, sk) }
}

/// ML-DSA-44 `crypto_sign_open`: verifies sm = signature || m (empty context) and copies m out;
/// m needs `smlen - CRYPTO_BYTES` bytes and may overlap sm.
///
/// # Safety
///
/// The C contract of the [crate documentation](crate#safety).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PQLAB_MLDSA44_crypto_sign_open(
    m: *mut u8,
    mlen: *mut usize,
    sm: *const u8,
    smlen: usize,
    pk: *const u8,
) -> c_int {
    // SAFETY: the caller's contract (crate documentation) is the one the callee requires.
    unsafe { open::<MlDsa44>(m, mlen, sm, smlen, pk) }
}

/// ML-DSA-65 `crypto_sign_keypair`: FIPS 204, Algorithm 1 (ML-DSA.KeyGen) with OS randomness;
/// writes the public key and the expanded secret key.
///
/// # Safety
///
/// The C contract of the [crate documentation](crate#safety).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PQLAB_MLDSA65_crypto_sign_keypair(pk: *mut u8, sk: *mut u8) -> c_int {
    // SAFETY: the caller's contract (crate documentation) is the one the callee requires.
    unsafe { keypair::<MlDsa65>(pk, sk, None) }
}

/// ML-DSA-65 `crypto_sign_keypair_derand`: FIPS 204, Algorithm 6 (ML-DSA.KeyGen_internal) from
/// the 32-byte seed xi.
///
/// # Safety
///
/// The C contract of the [crate documentation](crate#safety).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PQLAB_MLDSA65_crypto_sign_keypair_derand(
    pk: *mut u8,
    sk: *mut u8,
    seed: *const u8,
) -> c_int {
    // SAFETY: the caller's contract (crate documentation) is the one the callee requires.
    unsafe { keypair::<MlDsa65>(pk, sk, Some(seed)) }
}

/// ML-DSA-65 `crypto_sign_signature`: FIPS 204, Algorithm 2 (ML-DSA.Sign), hedged, empty context;
/// writes the signature and its length.
///
/// # Safety
///
/// The C contract of the [crate documentation](crate#safety).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PQLAB_MLDSA65_crypto_sign_signature(
    sig: *mut u8,
    siglen: *mut usize,
    m: *const u8,
    mlen: usize,
    sk: *const u8,
) -> c_int {
    // SAFETY: the caller's contract (crate documentation) is the one the callee requires.
    unsafe { signature::<MlDsa65>(sig, siglen, m, mlen, null(), 0, None, sk) }
}

/// ML-DSA-65 `crypto_sign_signature_ctx`: FIPS 204, Algorithm 2 (ML-DSA.Sign), hedged, with the
/// context string ctx (at most 255 bytes).
///
/// # Safety
///
/// The C contract of the [crate documentation](crate#safety).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PQLAB_MLDSA65_crypto_sign_signature_ctx(
    sig: *mut u8,
    siglen: *mut usize,
    m: *const u8,
    mlen: usize,
    ctx: *const u8,
    ctxlen: usize,
    sk: *const u8,
) -> c_int {
    // SAFETY: the caller's contract (crate documentation) is the one the callee requires.
    unsafe { signature::<MlDsa65>(sig, siglen, m, mlen, ctx, ctxlen, None, sk) }
}

/// ML-DSA-65 `crypto_sign_signature_ctx_derand`: FIPS 204, Algorithm 2 (ML-DSA.Sign) with the
/// given 32-byte rnd (all zero: the deterministic variant) and context ctx.
///
/// # Safety
///
/// The C contract of the [crate documentation](crate#safety).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PQLAB_MLDSA65_crypto_sign_signature_ctx_derand(
    sig: *mut u8,
    siglen: *mut usize,
    m: *const u8,
    mlen: usize,
    ctx: *const u8,
    ctxlen: usize,
    rnd: *const u8,
    sk: *const u8,
) -> c_int {
    // SAFETY: the caller's contract (crate documentation) is the one the callee requires.
    unsafe { signature::<MlDsa65>(sig, siglen, m, mlen, ctx, ctxlen, Some(rnd), sk) }
}

/// ML-DSA-65 `crypto_sign_verify`: FIPS 204, Algorithm 3 (ML-DSA.Verify), empty context; 0 when
/// the signature verifies.
///
/// # Safety
///
/// The C contract of the [crate documentation](crate#safety).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PQLAB_MLDSA65_crypto_sign_verify(
    sig: *const u8,
    siglen: usize,
    m: *const u8,
    mlen: usize,
    pk: *const u8,
) -> c_int {
    // SAFETY: the caller's contract (crate documentation) is the one the callee requires.
    unsafe { verify::<MlDsa65>(sig, siglen, m, mlen, null(), 0, pk) }
}

/// ML-DSA-65 `crypto_sign_verify_ctx`: FIPS 204, Algorithm 3 (ML-DSA.Verify) with the context
/// string ctx; 0 when the signature verifies.
///
/// # Safety
///
/// The C contract of the [crate documentation](crate#safety).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PQLAB_MLDSA65_crypto_sign_verify_ctx(
    sig: *const u8,
    siglen: usize,
    m: *const u8,
    mlen: usize,
    ctx: *const u8,
    ctxlen: usize,
    pk: *const u8,
) -> c_int {
    // SAFETY: the caller's contract (crate documentation) is the one the callee requires.
    unsafe { verify::<MlDsa65>(sig, siglen, m, mlen, ctx, ctxlen, pk) }
}

/// ML-DSA-65 `crypto_sign`: sm = signature || m (hedged, empty context); sm needs
/// `CRYPTO_BYTES + mlen` bytes and may overlap m.
///
/// # Safety
///
/// The C contract of the [crate documentation](crate#safety).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PQLAB_MLDSA65_crypto_sign(
    sm: *mut u8,
    smlen: *mut usize,
    m: *const u8,
    mlen: usize,
    sk: *const u8,
) -> c_int {
    // SAFETY: the caller's contract (crate documentation) is the one the callee requires.
    unsafe { sign::<MlDsa65>(sm, smlen, m, mlen, sk) }
}

/// ML-DSA-65 `crypto_sign_open`: verifies sm = signature || m (empty context) and copies m out;
/// m needs `smlen - CRYPTO_BYTES` bytes and may overlap sm.
///
/// # Safety
///
/// The C contract of the [crate documentation](crate#safety).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PQLAB_MLDSA65_crypto_sign_open(
    m: *mut u8,
    mlen: *mut usize,
    sm: *const u8,
    smlen: usize,
    pk: *const u8,
) -> c_int {
    // SAFETY: the caller's contract (crate documentation) is the one the callee requires.
    unsafe { open::<MlDsa65>(m, mlen, sm, smlen, pk) }
}

/// ML-DSA-87 `crypto_sign_keypair`: FIPS 204, Algorithm 1 (ML-DSA.KeyGen) with OS randomness;
/// writes the public key and the expanded secret key.
///
/// # Safety
///
/// The C contract of the [crate documentation](crate#safety).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PQLAB_MLDSA87_crypto_sign_keypair(pk: *mut u8, sk: *mut u8) -> c_int {
    // SAFETY: the caller's contract (crate documentation) is the one the callee requires.
    unsafe { keypair::<MlDsa87>(pk, sk, None) }
}

/// ML-DSA-87 `crypto_sign_keypair_derand`: FIPS 204, Algorithm 6 (ML-DSA.KeyGen_internal) from
/// the 32-byte seed xi.
///
/// # Safety
///
/// The C contract of the [crate documentation](crate#safety).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PQLAB_MLDSA87_crypto_sign_keypair_derand(
    pk: *mut u8,
    sk: *mut u8,
    seed: *const u8,
) -> c_int {
    // SAFETY: the caller's contract (crate documentation) is the one the callee requires.
    unsafe { keypair::<MlDsa87>(pk, sk, Some(seed)) }
}

/// ML-DSA-87 `crypto_sign_signature`: FIPS 204, Algorithm 2 (ML-DSA.Sign), hedged, empty context;
/// writes the signature and its length.
///
/// # Safety
///
/// The C contract of the [crate documentation](crate#safety).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PQLAB_MLDSA87_crypto_sign_signature(
    sig: *mut u8,
    siglen: *mut usize,
    m: *const u8,
    mlen: usize,
    sk: *const u8,
) -> c_int {
    // SAFETY: the caller's contract (crate documentation) is the one the callee requires.
    unsafe { signature::<MlDsa87>(sig, siglen, m, mlen, null(), 0, None, sk) }
}

/// ML-DSA-87 `crypto_sign_signature_ctx`: FIPS 204, Algorithm 2 (ML-DSA.Sign), hedged, with the
/// context string ctx (at most 255 bytes).
///
/// # Safety
///
/// The C contract of the [crate documentation](crate#safety).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PQLAB_MLDSA87_crypto_sign_signature_ctx(
    sig: *mut u8,
    siglen: *mut usize,
    m: *const u8,
    mlen: usize,
    ctx: *const u8,
    ctxlen: usize,
    sk: *const u8,
) -> c_int {
    // SAFETY: the caller's contract (crate documentation) is the one the callee requires.
    unsafe { signature::<MlDsa87>(sig, siglen, m, mlen, ctx, ctxlen, None, sk) }
}

/// ML-DSA-87 `crypto_sign_signature_ctx_derand`: FIPS 204, Algorithm 2 (ML-DSA.Sign) with the
/// given 32-byte rnd (all zero: the deterministic variant) and context ctx.
///
/// # Safety
///
/// The C contract of the [crate documentation](crate#safety).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PQLAB_MLDSA87_crypto_sign_signature_ctx_derand(
    sig: *mut u8,
    siglen: *mut usize,
    m: *const u8,
    mlen: usize,
    ctx: *const u8,
    ctxlen: usize,
    rnd: *const u8,
    sk: *const u8,
) -> c_int {
    // SAFETY: the caller's contract (crate documentation) is the one the callee requires.
    unsafe { signature::<MlDsa87>(sig, siglen, m, mlen, ctx, ctxlen, Some(rnd), sk) }
}

/// ML-DSA-87 `crypto_sign_verify`: FIPS 204, Algorithm 3 (ML-DSA.Verify), empty context; 0 when
/// the signature verifies.
///
/// # Safety
///
/// The C contract of the [crate documentation](crate#safety).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PQLAB_MLDSA87_crypto_sign_verify(
    sig: *const u8,
    siglen: usize,
    m: *const u8,
    mlen: usize,
    pk: *const u8,
) -> c_int {
    // SAFETY: the caller's contract (crate documentation) is the one the callee requires.
    unsafe { verify::<MlDsa87>(sig, siglen, m, mlen, null(), 0, pk) }
}

/// ML-DSA-87 `crypto_sign_verify_ctx`: FIPS 204, Algorithm 3 (ML-DSA.Verify) with the context
/// string ctx; 0 when the signature verifies.
///
/// # Safety
///
/// The C contract of the [crate documentation](crate#safety).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PQLAB_MLDSA87_crypto_sign_verify_ctx(
    sig: *const u8,
    siglen: usize,
    m: *const u8,
    mlen: usize,
    ctx: *const u8,
    ctxlen: usize,
    pk: *const u8,
) -> c_int {
    // SAFETY: the caller's contract (crate documentation) is the one the callee requires.
    unsafe { verify::<MlDsa87>(sig, siglen, m, mlen, ctx, ctxlen, pk) }
}

/// ML-DSA-87 `crypto_sign`: sm = signature || m (hedged, empty context); sm needs
/// `CRYPTO_BYTES + mlen` bytes and may overlap m.
///
/// # Safety
///
/// The C contract of the [crate documentation](crate#safety).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PQLAB_MLDSA87_crypto_sign(
    sm: *mut u8,
    smlen: *mut usize,
    m: *const u8,
    mlen: usize,
    sk: *const u8,
) -> c_int {
    // SAFETY: the caller's contract (crate documentation) is the one the callee requires.
    unsafe { sign::<MlDsa87>(sm, smlen, m, mlen, sk) }
}

/// ML-DSA-87 `crypto_sign_open`: verifies sm = signature || m (empty context) and copies m out;
/// m needs `smlen - CRYPTO_BYTES` bytes and may overlap sm.
///
/// # Safety
///
/// The C contract of the [crate documentation](crate#safety).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PQLAB_MLDSA87_crypto_sign_open(
    m: *mut u8,
    mlen: *mut usize,
    sm: *const u8,
    smlen: usize,
    pk: *const u8,
) -> c_int {
    // SAFETY: the caller's contract (crate documentation) is the one the callee requires.
    unsafe { open::<MlDsa87>(m, mlen, sm, smlen, pk) }
}
