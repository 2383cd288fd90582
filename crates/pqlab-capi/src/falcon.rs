//! Falcon-512 and Falcon-1024 (round-3 specification v1.2) behind the NIST `crypto_sign` API,
//! with the encodings of `pqlab-falcon` and the signed-message format of the round-3
//! reference (`nist.c`) and of the NIST KAT files.

use core::ffi::c_int;

use pqlab_falcon::params::logn;
use pqlab_falcon::{NONCE_LEN, SEED_LEN, Signature, SigningKey, VerifyingKey};

use crate::ffi::{self, guard, guard_len, input, input_array, move_bytes, output, write};
use crate::{Macro, MacroValue};

/// The round-3 API's `CRYPTO_BYTES`: the signed-message overhead, 2 length bytes and the
/// largest detached signature (690 and 1330 bytes).
const fn crypto_bytes(n: usize) -> usize {
    2 + pqlab_falcon::params::signature_max_len(n)
}

/// The length of the signed message's prefix: 2 length bytes and the nonce.
const SM_PREFIX: usize = 2 + NONCE_LEN;

/// The longest buffer an encoded signature needs (Falcon-1024).
const SIG_BUF: usize = crypto_bytes(1024);

/// The header macros of one parameter set.
const fn macros<const N: usize>(prefix: &'static str, name: &'static str) -> [Macro; 6] {
    [
        Macro::new(
            prefix,
            "CRYPTO_PUBLICKEYBYTES",
            MacroValue::Int(VerifyingKey::<N>::ENCODED_LEN),
        ),
        Macro::new(
            prefix,
            "CRYPTO_SECRETKEYBYTES",
            MacroValue::Int(SigningKey::<N>::ENCODED_LEN),
        ),
        Macro::new(prefix, "CRYPTO_BYTES", MacroValue::Int(crypto_bytes(N))),
        Macro::new(prefix, "CRYPTO_ALGNAME", MacroValue::Str(name)),
        Macro::new(prefix, "CRYPTO_SEEDBYTES", MacroValue::Int(SEED_LEN)),
        Macro::new(prefix, "CRYPTO_NONCEBYTES", MacroValue::Int(NONCE_LEN)),
    ]
}

/// The header macros of Falcon-512.
pub(crate) const FALCON512_MACROS: [Macro; 6] = macros::<512>("FALCON512", "Falcon-512");
/// The header macros of Falcon-1024.
pub(crate) const FALCON1024_MACROS: [Macro; 6] = macros::<1024>("FALCON1024", "Falcon-1024");

/// The randomness of signing: OS randomness, or the caller's nonce (40 bytes) and sampler seed
/// (48 bytes).
type Coins = Option<(*const u8, *const u8)>;

/// Falcon spec v1.2, Algorithm 4: KeyGen, from OS randomness (`seed` = `None`) or from the
/// 48-byte seed of the reference's SHAKE256; writes the encoded public and secret keys
/// (Sections 3.11.4 and 3.11.5).
///
/// # Safety
///
/// `pk` valid for the public-key length, `sk` for the secret-key length, a given `seed` for 48
/// bytes (or null).
unsafe fn keypair<const N: usize>(pk: *mut u8, sk: *mut u8, seed: Option<*const u8>) -> c_int {
    guard(|| {
        if pk.is_null() || sk.is_null() {
            return None;
        }
        // SAFETY: a non-null seed holds 48 readable bytes (the caller's contract).
        let key = match unsafe { ffi::seed::<SEED_LEN>(seed) }? {
            None => SigningKey::<N>::generate().ok()?,
            Some(seed) => SigningKey::<N>::generate_from_seed(seed),
        };
        // SAFETY: pk is non-null and valid for the public-key length (the caller's contract).
        let pk_out = unsafe { output(pk, VerifyingKey::<N>::ENCODED_LEN) }?;
        key.verifying_key().encode(pk_out).ok()?;
        // SAFETY: sk is non-null and valid for the secret-key length (the caller's contract).
        let sk_out = unsafe { output(sk, SigningKey::<N>::ENCODED_LEN) }?;
        key.encode(sk_out).ok()?;
        Some(())
    })
}

/// Falcon spec v1.2, Algorithm 10: Sign of `msg` with the secret key at `sk` (decoded as in
/// Section 3.11.5) and the randomness `coins`.
fn sign_sig<const N: usize>(sk: *const u8, msg: &[u8], coins: Coins) -> Option<Signature<N>> {
    // SAFETY: a non-null sk holds the secret-key length of readable bytes (the contract).
    let bytes = unsafe { input(sk, SigningKey::<N>::ENCODED_LEN) }?;
    let key = SigningKey::<N>::decode(bytes).ok()?;
    match coins {
        None => key.sign(msg).ok(),
        Some((nonce, seed)) => {
            // SAFETY: non-null nonce and seed hold 40 and 48 readable bytes (the contract).
            let (nonce, seed) = unsafe { (input_array(nonce)?, input_array(seed)?) };
            Some(key.sign_with_seed(msg, nonce, seed))
        }
    }
}

/// `crypto_sign_signature[_derand]`: the detached signature header 0x30 + logn || nonce ||
/// compressed s2 (Section 3.11.3) to `sig`, its length to `siglen`.
///
/// # Safety
///
/// `sig` valid for `CRYPTO_BYTES` bytes, `m` for `mlen`, `sk` for the secret-key length,
/// given coins for 40 and 48 bytes, `siglen` for one `size_t` (or null).
unsafe fn signature<const N: usize>(
    sig: *mut u8,
    siglen: *mut usize,
    m: *const u8,
    mlen: usize,
    coins: Coins,
    sk: *const u8,
) -> c_int {
    // SAFETY: siglen is null or valid for a write of one size_t (the caller's contract).
    guard_len(unsafe { siglen.as_mut() }, || {
        if sig.is_null() {
            return None;
        }
        // SAFETY: m is valid for mlen bytes (the caller's contract).
        let s = sign_sig::<N>(sk, unsafe { input(m, mlen) }?, coins)?;
        let mut buf = [0u8; SIG_BUF];
        let len = s.encode(&mut buf).ok()?;
        // SAFETY: sig is valid for CRYPTO_BYTES >= len bytes and overlaps no input.
        unsafe { write(sig, &buf[..len]) }?;
        Some(len)
    })
}

/// `crypto_sign_verify`: Falcon spec v1.2, Algorithm 16 (Verify) of the detached signature.
///
/// # Safety
///
/// `sig` valid for `siglen` bytes, `m` for `mlen`, `pk` for the public-key length.
unsafe fn verify<const N: usize>(
    sig: *const u8,
    siglen: usize,
    m: *const u8,
    mlen: usize,
    pk: *const u8,
) -> c_int {
    guard(|| {
        // SAFETY: every pointer is valid for the length given with it (the caller's contract).
        let (sig, msg, pk) = unsafe {
            (
                input(sig, siglen)?,
                input(m, mlen)?,
                input(pk, VerifyingKey::<N>::ENCODED_LEN)?,
            )
        };
        VerifyingKey::<N>::decode(pk).ok()?.verify(msg, sig).ok()
    })
}

/// `crypto_sign[_derand]`: the round-3 signed message sm = L (2 bytes, big-endian) || nonce ||
/// m || 0x20 + logn || compressed s2, where L counts the last two parts.
///
/// # Safety
///
/// `sm` valid for `CRYPTO_BYTES + mlen` bytes (it may overlap `m`), `m` for `mlen`, `sk` for
/// the secret-key length, given coins for 40 and 48 bytes, `smlen` for one `size_t` (or null).
unsafe fn sign<const N: usize>(
    sm: *mut u8,
    smlen: *mut usize,
    m: *const u8,
    mlen: usize,
    coins: Coins,
    sk: *const u8,
) -> c_int {
    // SAFETY: smlen is null or valid for a write of one size_t (the caller's contract).
    guard_len(unsafe { smlen.as_mut() }, || {
        if sm.is_null() || mlen > isize::MAX as usize - crypto_bytes(N) {
            return None;
        }
        // SAFETY: m is valid for mlen bytes; the slice is dropped before sm is written.
        let s = sign_sig::<N>(sk, unsafe { input(m, mlen) }?, coins)?;
        let mut comp = [0u8; SIG_BUF];
        comp[0] = 0x20 + logn(N) as u8;
        let clen = s.encode_compressed(&mut comp[1..]).ok()?;
        let esig = &comp[..1 + clen];
        let l = u16::try_from(esig.len()).ok()?.to_be_bytes();
        // SAFETY: sm is valid for CRYPTO_BYTES + mlen >= SM_PREFIX + mlen + esig.len()
        // bytes; the message moves first (memmove semantics, m may overlap sm), then the
        // prefix and the tail go around it.
        unsafe {
            move_bytes(m, sm.add(SM_PREFIX), mlen);
            write(sm, &l)?;
            write(sm.add(2), s.nonce())?;
            write(sm.add(SM_PREFIX + mlen), esig)?;
        }
        Some(SM_PREFIX + mlen + esig.len())
    })
}

/// `crypto_sign_open`: parses the round-3 signed message (see [`sign`]), verifies it (Falcon
/// spec v1.2, Algorithm 16) and copies m out.
///
/// # Safety
///
/// `sm` valid for `smlen` bytes, `m` for `smlen` bytes (it may overlap `sm`), `pk` for the
/// public-key length, `mlen` for one `size_t` (or null).
unsafe fn open<const N: usize>(
    m: *mut u8,
    mlen: *mut usize,
    sm: *const u8,
    smlen: usize,
    pk: *const u8,
) -> c_int {
    // SAFETY: mlen is null or valid for a write of one size_t (the caller's contract).
    guard_len(unsafe { mlen.as_mut() }, || {
        let body = smlen.checked_sub(SM_PREFIX)?;
        let msg_len = {
            // SAFETY: sm and pk are valid for smlen and the public-key length; the slices are
            // dropped before m is written.
            let (sm, pk) = unsafe {
                (
                    input(sm, smlen)?,
                    input(pk, VerifyingKey::<N>::ENCODED_LEN)?,
                )
            };
            let l = usize::from(u16::from_be_bytes([sm[0], sm[1]]));
            let msg_len = body.checked_sub(l)?;
            let nonce: &[u8; NONCE_LEN] = sm[2..SM_PREFIX].try_into().ok()?;
            let msg = &sm[SM_PREFIX..SM_PREFIX + msg_len];
            let (&hdr, comp) = sm[SM_PREFIX + msg_len..].split_first()?;
            if hdr != 0x20 + logn(N) as u8 {
                return None;
            }
            let sig = Signature::<N>::from_compressed(nonce, comp).ok()?;
            let vk = VerifyingKey::<N>::decode(pk).ok()?;
            vk.verify_signature(msg, &sig).ok()?;
            msg_len
        };
        if m.is_null() && msg_len > 0 {
            return None;
        }
        // SAFETY: sm + SM_PREFIX holds msg_len readable bytes, m is valid for msg_len writes;
        // the regions may overlap (memmove semantics).
        unsafe { move_bytes(sm.add(SM_PREFIX), m, msg_len) };
        Some(msg_len)
    })
}

/// Falcon-512 `crypto_sign_keypair`: Falcon spec v1.2, Algorithm 4 (KeyGen) with OS randomness.
///
/// # Safety
///
/// The C contract of the [crate documentation](crate#safety).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PQLAB_FALCON512_crypto_sign_keypair(pk: *mut u8, sk: *mut u8) -> c_int {
    // SAFETY: the caller's contract (crate documentation) is the one the callee requires.
    unsafe { keypair::<512>(pk, sk, None) }
}

/// Falcon-512 `crypto_sign_keypair_derand`: Falcon spec v1.2, Algorithm 4 (KeyGen) from the
/// 48-byte seed of the reference's SHAKE256 (the first 48 bytes `nist.c` draws).
///
/// # Safety
///
/// The C contract of the [crate documentation](crate#safety).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PQLAB_FALCON512_crypto_sign_keypair_derand(
    pk: *mut u8,
    sk: *mut u8,
    seed: *const u8,
) -> c_int {
    // SAFETY: the caller's contract (crate documentation) is the one the callee requires.
    unsafe { keypair::<512>(pk, sk, Some(seed)) }
}

/// Falcon-512 `crypto_sign_signature`: Falcon spec v1.2, Algorithm 10 (Sign) with OS randomness;
/// writes the detached signature 0x30 + logn || nonce || compressed s2 and its length.
///
/// # Safety
///
/// The C contract of the [crate documentation](crate#safety).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PQLAB_FALCON512_crypto_sign_signature(
    sig: *mut u8,
    siglen: *mut usize,
    m: *const u8,
    mlen: usize,
    sk: *const u8,
) -> c_int {
    // SAFETY: the caller's contract (crate documentation) is the one the callee requires.
    unsafe { signature::<512>(sig, siglen, m, mlen, None, sk) }
}

/// Falcon-512 `crypto_sign_signature_derand`: Falcon spec v1.2, Algorithm 10 (Sign) with the
/// given 40-byte nonce and 48-byte sampler seed (as the reference draws them).
///
/// # Safety
///
/// The C contract of the [crate documentation](crate#safety).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PQLAB_FALCON512_crypto_sign_signature_derand(
    sig: *mut u8,
    siglen: *mut usize,
    m: *const u8,
    mlen: usize,
    nonce: *const u8,
    seed: *const u8,
    sk: *const u8,
) -> c_int {
    // SAFETY: the caller's contract (crate documentation) is the one the callee requires.
    unsafe { signature::<512>(sig, siglen, m, mlen, Some((nonce, seed)), sk) }
}

/// Falcon-512 `crypto_sign_verify`: Falcon spec v1.2, Algorithm 16 (Verify) of a detached
/// signature; 0 when it verifies.
///
/// # Safety
///
/// The C contract of the [crate documentation](crate#safety).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PQLAB_FALCON512_crypto_sign_verify(
    sig: *const u8,
    siglen: usize,
    m: *const u8,
    mlen: usize,
    pk: *const u8,
) -> c_int {
    // SAFETY: the caller's contract (crate documentation) is the one the callee requires.
    unsafe { verify::<512>(sig, siglen, m, mlen, pk) }
}

/// Falcon-512 `crypto_sign`: the round-3 signed message L || nonce || m || 0x20 + logn ||
/// compressed s2 (OS randomness); sm needs `CRYPTO_BYTES + mlen` bytes and may overlap m.
///
/// # Safety
///
/// The C contract of the [crate documentation](crate#safety).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PQLAB_FALCON512_crypto_sign(
    sm: *mut u8,
    smlen: *mut usize,
    m: *const u8,
    mlen: usize,
    sk: *const u8,
) -> c_int {
    // SAFETY: the caller's contract (crate documentation) is the one the callee requires.
    unsafe { sign::<512>(sm, smlen, m, mlen, None, sk) }
}

/// Falcon-512 `crypto_sign_derand`: `crypto_sign` with the given 40-byte nonce and 48-byte
/// sampler seed (the NIST KAT files' sm).
///
/// # Safety
///
/// The C contract of the [crate documentation](crate#safety).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PQLAB_FALCON512_crypto_sign_derand(
    sm: *mut u8,
    smlen: *mut usize,
    m: *const u8,
    mlen: usize,
    nonce: *const u8,
    seed: *const u8,
    sk: *const u8,
) -> c_int {
    // SAFETY: the caller's contract (crate documentation) is the one the callee requires.
    unsafe { sign::<512>(sm, smlen, m, mlen, Some((nonce, seed)), sk) }
}

/// Falcon-512 `crypto_sign_open`: verifies a round-3 signed message and copies m out; m needs
/// `smlen` bytes and may overlap sm.
///
/// # Safety
///
/// The C contract of the [crate documentation](crate#safety).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PQLAB_FALCON512_crypto_sign_open(
    m: *mut u8,
    mlen: *mut usize,
    sm: *const u8,
    smlen: usize,
    pk: *const u8,
) -> c_int {
    // SAFETY: the caller's contract (crate documentation) is the one the callee requires.
    unsafe { open::<512>(m, mlen, sm, smlen, pk) }
}

/// Falcon-1024 `crypto_sign_keypair`: Falcon spec v1.2, Algorithm 4 (KeyGen) with OS randomness.
///
/// # Safety
///
/// The C contract of the [crate documentation](crate#safety).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PQLAB_FALCON1024_crypto_sign_keypair(pk: *mut u8, sk: *mut u8) -> c_int {
    // SAFETY: the caller's contract (crate documentation) is the one the callee requires.
    unsafe { keypair::<1024>(pk, sk, None) }
}

/// Falcon-1024 `crypto_sign_keypair_derand`: Falcon spec v1.2, Algorithm 4 (KeyGen) from the
/// 48-byte seed of the reference's SHAKE256 (the first 48 bytes `nist.c` draws).
///
/// # Safety
///
/// The C contract of the [crate documentation](crate#safety).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PQLAB_FALCON1024_crypto_sign_keypair_derand(
    pk: *mut u8,
    sk: *mut u8,
    seed: *const u8,
) -> c_int {
    // SAFETY: the caller's contract (crate documentation) is the one the callee requires.
    unsafe { keypair::<1024>(pk, sk, Some(seed)) }
}

/// Falcon-1024 `crypto_sign_signature`: Falcon spec v1.2, Algorithm 10 (Sign) with OS randomness;
/// writes the detached signature 0x30 + logn || nonce || compressed s2 and its length.
///
/// # Safety
///
/// The C contract of the [crate documentation](crate#safety).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PQLAB_FALCON1024_crypto_sign_signature(
    sig: *mut u8,
    siglen: *mut usize,
    m: *const u8,
    mlen: usize,
    sk: *const u8,
) -> c_int {
    // SAFETY: the caller's contract (crate documentation) is the one the callee requires.
    unsafe { signature::<1024>(sig, siglen, m, mlen, None, sk) }
}

/// Falcon-1024 `crypto_sign_signature_derand`: Falcon spec v1.2, Algorithm 10 (Sign) with the
/// given 40-byte nonce and 48-byte sampler seed (as the reference draws them).
///
/// # Safety
///
/// The C contract of the [crate documentation](crate#safety).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PQLAB_FALCON1024_crypto_sign_signature_derand(
    sig: *mut u8,
    siglen: *mut usize,
    m: *const u8,
    mlen: usize,
    nonce: *const u8,
    seed: *const u8,
    sk: *const u8,
) -> c_int {
    // SAFETY: the caller's contract (crate documentation) is the one the callee requires.
    unsafe { signature::<1024>(sig, siglen, m, mlen, Some((nonce, seed)), sk) }
}

/// Falcon-1024 `crypto_sign_verify`: Falcon spec v1.2, Algorithm 16 (Verify) of a detached
/// signature; 0 when it verifies.
///
/// # Safety
///
/// The C contract of the [crate documentation](crate#safety).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PQLAB_FALCON1024_crypto_sign_verify(
    sig: *const u8,
    siglen: usize,
    m: *const u8,
    mlen: usize,
    pk: *const u8,
) -> c_int {
    // SAFETY: the caller's contract (crate documentation) is the one the callee requires.
    unsafe { verify::<1024>(sig, siglen, m, mlen, pk) }
}

/// Falcon-1024 `crypto_sign`: the round-3 signed message L || nonce || m || 0x20 + logn ||
/// compressed s2 (OS randomness); sm needs `CRYPTO_BYTES + mlen` bytes and may overlap m.
///
/// # Safety
///
/// The C contract of the [crate documentation](crate#safety).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PQLAB_FALCON1024_crypto_sign(
    sm: *mut u8,
    smlen: *mut usize,
    m: *const u8,
    mlen: usize,
    sk: *const u8,
) -> c_int {
    // SAFETY: the caller's contract (crate documentation) is the one the callee requires.
    unsafe { sign::<1024>(sm, smlen, m, mlen, None, sk) }
}

/// Falcon-1024 `crypto_sign_derand`: `crypto_sign` with the given 40-byte nonce and 48-byte
/// sampler seed (the NIST KAT files' sm).
///
/// # Safety
///
/// The C contract of the [crate documentation](crate#safety).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PQLAB_FALCON1024_crypto_sign_derand(
    sm: *mut u8,
    smlen: *mut usize,
    m: *const u8,
    mlen: usize,
    nonce: *const u8,
    seed: *const u8,
    sk: *const u8,
) -> c_int {
    // SAFETY: the caller's contract (crate documentation) is the one the callee requires.
    unsafe { sign::<1024>(sm, smlen, m, mlen, Some((nonce, seed)), sk) }
}

/// Falcon-1024 `crypto_sign_open`: verifies a round-3 signed message and copies m out; m needs
/// `smlen` bytes and may overlap sm.
///
/// # Safety
///
/// The C contract of the [crate documentation](crate#safety).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn PQLAB_FALCON1024_crypto_sign_open(
    m: *mut u8,
    mlen: *mut usize,
    sm: *const u8,
    smlen: usize,
    pk: *const u8,
) -> c_int {
    // SAFETY: the caller's contract (crate documentation) is the one the callee requires.
    unsafe { open::<1024>(m, mlen, sm, smlen, pk) }
}
