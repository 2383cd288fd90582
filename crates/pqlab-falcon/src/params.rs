//! The two parameter sets of Falcon spec v1.2, Section 3.13 (Table 3.3), as functions of the
//! degree n, and the size constants of the encodings (Section 3.11).

/// The modulus q = 12289.
pub const Q: u32 = pqlab_arith::falcon::Q;
/// The length of the signature nonce r, in bytes (Falcon spec v1.2, Section 3.11.3).
pub const NONCE_LEN: usize = 40;
/// The length of the key-generation seed fed to SHAKE256 (as the reference `nist.c` does).
pub const SEED_LEN: usize = 48;

/// Panics at compile time unless n is 512 or 1024 (used in `const` blocks).
pub(crate) const fn check_n(n: usize) {
    assert!(
        n == 512 || n == 1024,
        "Falcon is defined here for n = 512 and n = 1024"
    );
}

/// log2(n).
pub const fn logn(n: usize) -> u32 {
    n.trailing_zeros()
}

/// The bound on the squared norm of (s1, s2): floor(beta^2) of Table 3.3.
pub const fn beta_sq(n: usize) -> u32 {
    if n == 1024 { 70_265_242 } else { 34_034_726 }
}

/// The bit width of each coefficient of f and g in the secret key (Section 3.11.5).
pub const fn fg_bits(n: usize) -> usize {
    if n == 1024 { 5 } else { 6 }
}

/// The bit width of each coefficient of F in the secret key.
pub const FG_BIG_BITS: usize = 8;

/// The public key length: header byte and 14 bits per coefficient of h.
pub const fn public_key_len(n: usize) -> usize {
    1 + 14 * n / 8
}

/// The secret key length: header byte, f and g, then F.
pub const fn secret_key_len(n: usize) -> usize {
    1 + 2 * fg_bits(n) * n / 8 + FG_BIG_BITS * n / 8
}

/// The largest detached signature (header, nonce, compressed s2): 688 bytes for n = 512 and
/// 1328 for n = 1024, the bound of the round-3 NIST API (CRYPTO_BYTES - 2, the signed-message
/// length field), which the reference signer uses as its compression limit. The specification's
/// sbytelen of Table 3.3 (666 and 1280) is slightly smaller, and the KAT files contain a
/// Falcon-1024 signature that exceeds it (count 82, 1281 bytes), so that bound cannot be used
/// without rejecting official test vectors.
pub const fn signature_max_len(n: usize) -> usize {
    if n == 1024 { 1328 } else { 688 }
}

/// The public key header 0x00 + logn.
pub const fn pk_header(n: usize) -> u8 {
    logn(n) as u8
}

/// The secret key header 0x50 + logn.
pub const fn sk_header(n: usize) -> u8 {
    0x50 + logn(n) as u8
}

/// The detached compressed signature header 0x30 + logn.
pub const fn sig_header(n: usize) -> u8 {
    0x30 + logn(n) as u8
}
