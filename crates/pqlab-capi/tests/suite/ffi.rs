//! The C API called from Rust (no C compiler needed): the header's sizes are the standards',
//! derandomized entry points agree with the scheme crates, and bad inputs give -1.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
// Calling the C API from Rust is calling `unsafe extern "C"` functions.
#![allow(unsafe_code)]

use core::ptr::{null, null_mut};

use pqlab_capi::*;

fn value(prefix: &str, suffix: &str) -> MacroValue {
    MACROS
        .iter()
        .flat_map(|set| set.iter())
        .find(|m| m.prefix == prefix && m.suffix == suffix)
        .unwrap_or_else(|| panic!("no macro PQLAB_{prefix}_{suffix}"))
        .value
}

/// The sizes of FIPS 203 / FIPS 204 (Tables 2 and 3) and of the Falcon round-3 API.
#[test]
fn sizes_are_the_standards() {
    let int = MacroValue::Int;
    let want: [(&str, [usize; 3], &str); 8] = [
        ("MLDSA44", [1312, 2560, 2420], "ML-DSA-44"),
        ("MLDSA65", [1952, 4032, 3309], "ML-DSA-65"),
        ("MLDSA87", [2592, 4896, 4627], "ML-DSA-87"),
        ("FALCON512", [897, 1281, 690], "Falcon-512"),
        ("FALCON1024", [1793, 2305, 1330], "Falcon-1024"),
        ("MLKEM512", [800, 1632, 32], "ML-KEM-512"),
        ("MLKEM768", [1184, 2400, 32], "ML-KEM-768"),
        ("MLKEM1024", [1568, 3168, 32], "ML-KEM-1024"),
    ];
    for (p, [pk, sk, bytes], name) in want {
        assert_eq!(value(p, "CRYPTO_PUBLICKEYBYTES"), int(pk), "{p}");
        assert_eq!(value(p, "CRYPTO_SECRETKEYBYTES"), int(sk), "{p}");
        assert_eq!(value(p, "CRYPTO_BYTES"), int(bytes), "{p}");
        assert_eq!(value(p, "CRYPTO_ALGNAME"), MacroValue::Str(name), "{p}");
    }
    assert_eq!(value("MLKEM512", "CRYPTO_CIPHERTEXTBYTES"), int(768));
    assert_eq!(value("MLKEM768", "CRYPTO_CIPHERTEXTBYTES"), int(1088));
    assert_eq!(value("MLKEM1024", "CRYPTO_CIPHERTEXTBYTES"), int(1568));
}

/// ML-DSA-65 through the C API equals the scheme crate: keypair_derand is KeyGen_internal,
/// signature_ctx_derand with rnd = 0 is the deterministic ML-DSA.Sign.
#[test]
fn mldsa_derand_matches_the_crate() {
    use pqlab_mldsa::{MlDsa65, ParameterSet, SigningKey};
    let xi = [7u8; 32];
    let (mut pk, mut sk) = ([0u8; 1952], [0u8; 4032]);
    // SAFETY: the buffers have the sizes of the macros.
    let rc = unsafe {
        PQLAB_MLDSA65_crypto_sign_keypair_derand(pk.as_mut_ptr(), sk.as_mut_ptr(), xi.as_ptr())
    };
    assert_eq!(rc, 0);
    let (vk, key) = SigningKey::<MlDsa65>::key_pair_from_seed(&xi);
    assert_eq!(&pk[..], vk.as_bytes());
    assert_eq!(&sk[..], key.to_expanded().as_ref());
    let (msg, ctx) = (b"message", b"ctx");
    let mut sig = [0u8; MlDsa65::SIG_LEN];
    let mut siglen = 0usize;
    // SAFETY: as above; msg and ctx are valid for their lengths.
    let rc = unsafe {
        PQLAB_MLDSA65_crypto_sign_signature_ctx_derand(
            sig.as_mut_ptr(),
            &mut siglen,
            msg.as_ptr(),
            msg.len(),
            ctx.as_ptr(),
            ctx.len(),
            [0u8; 32].as_ptr(),
            sk.as_ptr(),
        )
    };
    assert_eq!((rc, siglen), (0, MlDsa65::SIG_LEN));
    let want = key.sign_deterministic(msg, ctx).unwrap();
    assert_eq!(&sig[..], want.as_bytes());
    // A null rnd is refused (never silently replaced by OS randomness).
    // SAFETY: as above.
    let rc = unsafe {
        PQLAB_MLDSA65_crypto_sign_signature_ctx_derand(
            sig.as_mut_ptr(),
            &mut siglen,
            msg.as_ptr(),
            msg.len(),
            ctx.as_ptr(),
            ctx.len(),
            null(),
            sk.as_ptr(),
        )
    };
    assert_eq!((rc, siglen), (-1, 0));
}

/// Inputs that a C caller can pass and that must give -1, never a panic or a crash.
#[test]
fn bad_inputs_give_minus_one() {
    let (mut pk, mut sk) = ([0u8; 897], [0u8; 1281]);
    let mut sm = [0u8; 2000];
    let mut len = 5usize;
    // SAFETY: every non-null pointer is valid for the size the function reads or writes.
    unsafe {
        assert_eq!(
            PQLAB_FALCON512_crypto_sign_keypair_derand(pk.as_mut_ptr(), sk.as_mut_ptr(), null()),
            -1
        );
        assert_eq!(
            PQLAB_FALCON512_crypto_sign_keypair(pk.as_mut_ptr(), sk.as_mut_ptr()),
            0
        );
        // A null message with a positive length; a null output.
        assert_eq!(
            PQLAB_FALCON512_crypto_sign(sm.as_mut_ptr(), &mut len, null(), 3, sk.as_ptr()),
            -1
        );
        assert_eq!(len, 0);
        assert_eq!(
            PQLAB_FALCON512_crypto_sign(null_mut(), &mut len, b"abc".as_ptr(), 3, sk.as_ptr()),
            -1
        );
        // A null length pointer is allowed on output.
        assert_eq!(
            PQLAB_FALCON512_crypto_sign(
                sm.as_mut_ptr(),
                null_mut(),
                b"abc".as_ptr(),
                3,
                sk.as_ptr()
            ),
            0
        );
        // An all-zero signed message of every short length, and a signed message whose length
        // field points outside it.
        let mut m = [0u8; 2000];
        for n in 0..60 {
            let zeros = [0u8; 60];
            assert_eq!(
                PQLAB_FALCON512_crypto_sign_open(
                    m.as_mut_ptr(),
                    &mut len,
                    zeros.as_ptr(),
                    n,
                    pk.as_ptr()
                ),
                -1
            );
        }
        // A signature longer than the largest one, and an empty one.
        assert_eq!(
            PQLAB_FALCON512_crypto_sign_verify(sm.as_ptr(), 689, null(), 0, pk.as_ptr()),
            -1
        );
        assert_eq!(
            PQLAB_FALCON512_crypto_sign_verify(sm.as_ptr(), 0, null(), 0, pk.as_ptr()),
            -1
        );
        // ML-DSA: a signature of the wrong length, a context of 256 bytes.
        let ctx = [0u8; 256];
        let mut dpk = [0u8; 1312];
        let mut dsk = [0u8; 2560];
        assert_eq!(
            PQLAB_MLDSA44_crypto_sign_keypair(dpk.as_mut_ptr(), dsk.as_mut_ptr()),
            0
        );
        let mut sig = [0u8; 2421];
        assert_eq!(
            PQLAB_MLDSA44_crypto_sign_signature(
                sig.as_mut_ptr(),
                &mut len,
                null(),
                0,
                dsk.as_ptr()
            ),
            0
        );
        assert_eq!(len, 2420);
        assert_eq!(
            PQLAB_MLDSA44_crypto_sign_verify(sig.as_ptr(), 2420, null(), 0, dpk.as_ptr()),
            0
        );
        assert_eq!(
            PQLAB_MLDSA44_crypto_sign_verify(sig.as_ptr(), 2421, null(), 0, dpk.as_ptr()),
            -1
        );
        assert_eq!(
            PQLAB_MLDSA44_crypto_sign_verify_ctx(
                sig.as_ptr(),
                2420,
                null(),
                0,
                ctx.as_ptr(),
                256,
                dpk.as_ptr()
            ),
            -1
        );
        assert_eq!(
            PQLAB_MLDSA44_crypto_sign_open(
                m.as_mut_ptr(),
                &mut len,
                sig.as_ptr(),
                2419,
                dpk.as_ptr()
            ),
            -1
        );
        // The signature with the empty message opens to the empty message, with a null m.
        assert_eq!(
            PQLAB_MLDSA44_crypto_sign_open(null_mut(), &mut len, sig.as_ptr(), 2420, dpk.as_ptr()),
            0
        );
        assert_eq!(len, 0);
        // ML-KEM: a null coins pointer, a ciphertext decapsulated with a zero key.
        let mut kpk = [0u8; 800];
        let mut ksk = [0u8; 1632];
        let (mut ct, mut ss) = ([0u8; 768], [0u8; 32]);
        assert_eq!(
            PQLAB_MLKEM512_crypto_kem_keypair_derand(kpk.as_mut_ptr(), ksk.as_mut_ptr(), null()),
            -1
        );
        assert_eq!(
            PQLAB_MLKEM512_crypto_kem_enc_derand(
                ct.as_mut_ptr(),
                ss.as_mut_ptr(),
                kpk.as_ptr(),
                null()
            ),
            -1
        );
        // The all-zero dk has a wrong H(ek): the decapsulation-key check refuses it.
        assert_eq!(
            PQLAB_MLKEM512_crypto_kem_dec(ss.as_mut_ptr(), ct.as_ptr(), ksk.as_ptr()),
            -1
        );
    }
}
