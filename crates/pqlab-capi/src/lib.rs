//! The C ABI of pqlab: the NIST / PQClean `crypto_sign` and `crypto_kem` API, one namespaced
//! set of functions per parameter set, built as a static library (`libpqlab_capi.a`) and a
//! shared library (`libpqlab_capi.so`), with the header `include/pqlab.h`.
//!
//! | prefix | scheme | secret key | signature / ciphertext |
//! | --- | --- | --- | --- |
//! | `PQLAB_MLDSA44_`, `PQLAB_MLDSA65_`, `PQLAB_MLDSA87_` | FIPS 204, pure ML-DSA | skEncode (expanded) | sigEncode |
//! | `PQLAB_FALCON512_`, `PQLAB_FALCON1024_` | Falcon round 3 (spec v1.2) | header 0x50 + logn | header 0x30 + logn, nonce, compressed s2 |
//! | `PQLAB_MLKEM512_`, `PQLAB_MLKEM768_`, `PQLAB_MLKEM1024_` | FIPS 203 | expanded dk | c |
//!
//! Signature schemes: `crypto_sign_keypair(pk, sk)`, `crypto_sign_signature(sig, siglen, m,
//! mlen, sk)`, `crypto_sign_verify(sig, siglen, m, mlen, pk)`, `crypto_sign(sm, smlen, m, mlen,
//! sk)` and `crypto_sign_open(m, mlen, sm, smlen, pk)`. KEMs: `crypto_kem_keypair(pk, sk)`,
//! `crypto_kem_enc(ct, ss, pk)` and `crypto_kem_dec(ss, ct, sk)`. Sizes are the macros
//! `..._CRYPTO_PUBLICKEYBYTES`, `..._CRYPTO_SECRETKEYBYTES`, `..._CRYPTO_BYTES` (the largest
//! signature, or the 32-byte shared secret), `..._CRYPTO_CIPHERTEXTBYTES` and the name
//! `..._CRYPTO_ALGNAME`.
//!
//! * **ML-DSA** signs with pure ML-DSA (FIPS 204, Algorithm 2: ML-DSA.Sign), hedged with OS
//!   randomness, with the empty context, as liboqs's `OQS_SIG_ml_dsa_*` does;
//!   `crypto_sign_signature_ctx` / `crypto_sign_verify_ctx` take a context string (at most 255
//!   bytes, as PQClean's ML-DSA), and `crypto_sign_signature_ctx_derand` a given 32-byte rnd
//!   (all zero for the deterministic variant). `crypto_sign` writes sm = signature || m.
//!   `crypto_sign_keypair_derand(pk, sk, xi)` is ML-DSA.KeyGen_internal (Algorithm 6).
//! * **Falcon** uses the round-3 encodings of `pqlab-falcon`: the detached signature of
//!   `crypto_sign_signature` is header 0x30 + logn || nonce || compressed s2 (as PQClean's), and
//!   `crypto_sign` writes the round-3 reference's signed message, as in the NIST KAT files:
//!   2-byte big-endian length L || nonce || m || header 0x20 + logn || compressed s2 (L counts
//!   the header and the compressed s2). `CRYPTO_BYTES` is the round-3 value (690 / 1330).
//!   `crypto_sign_keypair_derand(pk, sk, seed)` takes the 48-byte seed of the reference's
//!   SHAKE256 (Falcon spec v1.2, Algorithm 4 as seeded by `nist.c`), and `..._derand` signing
//!   the 40-byte nonce and the 48-byte sampler seed, in the order the reference draws them, so
//!   that the NIST KAT flow is reproduced byte for byte.
//! * **ML-KEM**: `crypto_kem_keypair_derand(pk, sk, coins)` with coins = d || z (64 bytes,
//!   FIPS 203, Algorithm 16) and `crypto_kem_enc_derand(ct, ss, pk, coins)` with coins = m
//!   (32 bytes, Algorithm 17), as PQClean and mlkem-native; `crypto_kem_enc` checks the
//!   encapsulation key (FIPS 203, Section 7.2) and `crypto_kem_dec` the decapsulation key
//!   (Section 7.3); decapsulation of a well-formed but wrong ciphertext succeeds with the
//!   implicit-rejection key, as the standard requires.
//!
//! # Return values and inputs
//!
//! Every function returns 0 on success and -1 on failure: a signature that does not verify, a
//! malformed or wrongly sized input, a null pointer where bytes are needed, a failure of the
//! OS random number generator. No function panics across the boundary: inputs are validated
//! first, and a panic inside the library (a bug) is caught and reported as -1 as well.
//! A null pointer with a length of 0 is the empty string (`m`, `ctx`). On failure the output
//! buffers may hold partial data and output lengths are set to 0; callers must ignore them.
//!
//! # Safety
//!
//! The C contract: every non-null pointer must be valid for the access its size says (the
//! `CRYPTO_*` size macros for keys, signatures, ciphertexts, coins; `mlen`, `siglen`, `smlen`,
//! `ctxlen` for the variable-length inputs; `CRYPTO_BYTES + mlen` bytes for the output sm of
//! `crypto_sign`; `smlen` bytes for the output m of `crypto_sign_open`). `m` and `sm` may
//! overlap in `crypto_sign` and `crypto_sign_open` (the message is moved with `memmove`
//! semantics); no other inputs may overlap an output. The functions are thread-safe: they keep
//! no state.
//!
//! Secrets: the scheme crates' constant-time properties hold; decoded secret keys and every
//! secret the wrappers copy are zeroized when dropped. Signing and key generation need stack:
//! in release builds (x86-64, measured by `pqlab compare`) Falcon key generation peaks at about
//! 58 KB (Falcon-512) and 102 KB (Falcon-1024), Falcon signing at 46 KB and 84 KB, ML-DSA-87
//! signing at 130 KB; debug builds need several times more. Run them on threads with at least
//! 256 KiB of stack (1 MiB for debug builds).
//!
//! # The header
//!
//! `include/pqlab.h` is generated from this crate's source by the test `tests/header.rs`: the
//! macros from [`MACROS`] and the prototypes from the `extern "C"` functions. The test fails
//! when the checked-in header is out of date; `PQLAB_BLESS_HEADER=1 cargo test -p pqlab-capi
//! --test header` rewrites it.
// Non-snake-case names are the C API's (PQClean's) names; unsafe code is needed to turn the C
// caller's pointers into slices and is confined to this crate.
#![allow(non_snake_case, unsafe_code)]

mod falcon;
mod ffi;
mod mldsa;
mod mlkem;

pub use falcon::*;
pub use mldsa::*;
pub use mlkem::*;

/// The value of a macro of the C header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MacroValue {
    /// A size in bytes.
    Int(usize),
    /// A string (the algorithm name).
    Str(&'static str),
}

/// One macro of the C header: `PQLAB_<prefix>_<suffix>`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Macro {
    /// The parameter set's namespace, e.g. `"MLDSA65"`.
    pub prefix: &'static str,
    /// The macro's name within it, e.g. `"CRYPTO_PUBLICKEYBYTES"`.
    pub suffix: &'static str,
    /// Its value.
    pub value: MacroValue,
}

impl Macro {
    /// The macro `PQLAB_<prefix>_<suffix>` with `value`.
    pub const fn new(prefix: &'static str, suffix: &'static str, value: MacroValue) -> Self {
        Macro {
            prefix,
            suffix,
            value,
        }
    }
}

/// The size and name macros of the C header, per parameter set, in header order.
pub const MACROS: [&[Macro]; 8] = [
    &MLDSA44_MACROS,
    &MLDSA65_MACROS,
    &MLDSA87_MACROS,
    &FALCON512_MACROS,
    &FALCON1024_MACROS,
    &MLKEM512_MACROS,
    &MLKEM768_MACROS,
    &MLKEM1024_MACROS,
];
