//! ML-DSA-44, ML-DSA-65 and ML-DSA-87 (FIPS 204) behind the NIST `crypto_sign` API: pure
//! ML-DSA (Algorithm 2) with the empty context unless a `_ctx` function is called, the
//! expanded secret key of skEncode (Algorithm 24), sm = signature || m.

use core::ffi::c_int;

use pqlab_mldsa::{
    MAX_CONTEXT_LEN, MlDsa44, MlDsa65, MlDsa87, ParameterSet, Signature, SigningKey, VerifyingKey,
};
use zeroize::Zeroize;

use crate::ffi::{guard, input, input_array, move_bytes, output, set_len};
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
        let (pk_bytes, key) = match xi {
            None => SigningKey::<P>::generate_encoded().ok()?,
            Some(p) => {
                // SAFETY: a non-null xi holds 32 readable bytes (the caller's contract).
                let xi = unsafe { input_array::<SEED_LEN>(p) }?;
                SigningKey::<P>::encoded_pair_from_seed(xi)
            }
        };
        // SAFETY: pk is non-null and valid for P::PK_LEN bytes (the caller's contract).
        let pk_out = unsafe { output(pk, P::PK_LEN) }?;
        pk_out.copy_from_slice(pk_bytes.as_ref());
        // SAFETY: sk is non-null and valid for P::SK_LEN bytes (the caller's contract).
        let sk_out = unsafe { output(sk, P::SK_LEN) }?;
        let mut encoded = key.to_expanded();
        sk_out.copy_from_slice(encoded.as_ref());
        encoded.zeroize();
        Some(())
    })
}

/// Decodes the expanded secret key at `sk` (FIPS 204, Algorithm 25: skDecode).
///
/// # Safety
///
/// A non-null `sk` must be valid for reads of `P::SK_LEN` bytes.
unsafe fn signing_key<P: ParameterSet>(sk: *const u8) -> Option<SigningKey<P>> {
    // SAFETY: a non-null sk holds P::SK_LEN readable bytes (the caller's contract).
    let bytes = unsafe { input(sk, P::SK_LEN) }?;
    SigningKey::<P>::from_expanded(bytes).ok()
}

/// FIPS 204, Algorithm 2: ML-DSA.Sign of `m` with context `ctx`, hedged with OS randomness
/// (`rnd` = `None`) or with the 32 bytes at `rnd`; the signature goes to `sig[0..SIG_LEN]`.
fn sign_bytes<P: ParameterSet>(
    sk: *const u8,
    msg: &[u8],
    ctx: &[u8],
    rnd: Option<*const u8>,
) -> Option<Signature<P>> {
    if ctx.len() > MAX_CONTEXT_LEN {
        return None;
    }
    // SAFETY: sk is the caller's secret key pointer, valid for P::SK_LEN bytes when non-null.
    let key = unsafe { signing_key::<P>(sk) }?;
    match rnd {
        None => key.sign(msg, ctx).ok(),
        Some(p) => {
            // SAFETY: a non-null rnd holds 32 readable bytes (the caller's contract).
            let rnd = unsafe { input_array::<SEED_LEN>(p) }?;
            key.sign_with_rnd(msg, ctx, rnd).ok()
        }
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
    // SAFETY: siglen is null or valid for a write (the caller's contract).
    unsafe { set_len(siglen, 0) };
    guard(|| {
        // SAFETY: m and ctx are valid for mlen and ctxlen bytes (the caller's contract).
        let (msg, ctx) = unsafe { (input(m, mlen)?, input(ctx, ctxlen)?) };
        let s = sign_bytes::<P>(sk, msg, ctx, rnd)?;
        // SAFETY: sig is valid for P::SIG_LEN bytes and overlaps no input (the contract).
        let out = unsafe { output(sig, P::SIG_LEN) }?;
        out.copy_from_slice(s.as_bytes());
        // SAFETY: as above.
        unsafe { set_len(siglen, P::SIG_LEN) };
        Some(())
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
        let s = Signature::<P>::from_bytes(sig).ok()?;
        vk.verify(msg, ctx, &s).ok()
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
    // SAFETY: smlen is null or valid for a write (the caller's contract).
    unsafe { set_len(smlen, 0) };
    guard(|| {
        let total = P::SIG_LEN.checked_add(mlen)?;
        if sm.is_null() || total > isize::MAX as usize {
            return None;
        }
        // SAFETY: m is valid for mlen bytes; the slice is dropped before sm is written.
        let s = sign_bytes::<P>(sk, unsafe { input(m, mlen) }?, &[], None)?;
        // SAFETY: sm is valid for total bytes and m for mlen; the message moves first (memmove
        // semantics, so m may overlap sm), then the signature goes in front of it.
        unsafe { move_bytes(m, sm.add(P::SIG_LEN), mlen) };
        // SAFETY: sm[0..SIG_LEN] is valid for writes and no other reference reaches it now.
        let out = unsafe { output(sm, P::SIG_LEN) }?;
        out.copy_from_slice(s.as_bytes());
        // SAFETY: as above.
        unsafe { set_len(smlen, total) };
        Some(())
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
    // SAFETY: mlen is null or valid for a write (the caller's contract).
    unsafe { set_len(mlen, 0) };
    guard(|| {
        let msg_len = smlen.checked_sub(P::SIG_LEN)?;
        if m.is_null() && msg_len > 0 {
            return None;
        }
        {
            // SAFETY: sm and pk are valid for smlen and P::PK_LEN bytes; the slices are dropped
            // before m is written.
            let (sm, pk) = unsafe { (input(sm, smlen)?, input(pk, P::PK_LEN)?) };
            let (sig, msg) = sm.split_at(P::SIG_LEN);
            let vk = VerifyingKey::<P>::from_bytes(pk).ok()?;
            vk.verify(msg, &[], &Signature::<P>::from_bytes(sig).ok()?)
                .ok()?;
        }
        // SAFETY: sm + SIG_LEN holds msg_len readable bytes, m is valid for msg_len writes; the
        // regions may overlap (memmove semantics).
        unsafe { move_bytes(sm.add(P::SIG_LEN), m, msg_len) };
        // SAFETY: as above.
        unsafe { set_len(mlen, msg_len) };
        Some(())
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
    unsafe { signature::<MlDsa44>(sig, siglen, m, mlen, core::ptr::null(), 0, None, sk) }
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
    unsafe { verify::<MlDsa44>(sig, siglen, m, mlen, core::ptr::null(), 0, pk) }
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
    unsafe { signature::<MlDsa65>(sig, siglen, m, mlen, core::ptr::null(), 0, None, sk) }
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
    unsafe { verify::<MlDsa65>(sig, siglen, m, mlen, core::ptr::null(), 0, pk) }
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
    unsafe { signature::<MlDsa87>(sig, siglen, m, mlen, core::ptr::null(), 0, None, sk) }
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
    unsafe { verify::<MlDsa87>(sig, siglen, m, mlen, core::ptr::null(), 0, pk) }
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
