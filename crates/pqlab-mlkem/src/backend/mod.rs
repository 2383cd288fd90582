//! The back-end boundary of ML-KEM (DESIGN §5): every vector kernel of the scheme behind one
//! trait, [`Ops`], implemented by [`portable::Portable`] (plain Rust, every target) and, on
//! x86-64, by `avx2::Avx2` and `avx512::Avx512`, in twin files of the same names. The scheme
//! (K-PKE and the KEM in `kpke.rs` and `kem.rs`) is written once, generic over `B: Ops`; each
//! public call picks its back end once with [`dispatch!`] from `pqlab_backend::selected()`.
//!
//! Contracts are stated per kernel; every back end meets them, and equal inputs give equal
//! outputs under every back end wherever the contract fixes the representative (every output
//! that reaches an encoding does). The kernels of the SIMD back ends are `unsafe` functions
//! compiled for their instruction set; their [`Ops`] implementations call them only because
//! [`dispatch!`] instantiates a SIMD back end after `pqlab_backend` found it available.
//!
//! Nothing here branches on, indexes memory by, or divides by a secret coefficient, in any
//! back end (rejection sampling runs on public seeds only).

use pqlab_backend::Backend;

#[cfg(target_arch = "x86_64")]
pub(crate) mod avx2;
#[cfg(target_arch = "x86_64")]
pub(crate) mod avx512;
pub(crate) mod portable;

/// The 256 coefficients of a polynomial.
pub(crate) type Coeffs = [i16; 256];

/// The vector kernels of ML-KEM (q = 3329, n = 256).
pub(crate) trait Ops {
    /// Which back end this is (it also runs the Keccak lanes of the sampling).
    const BACKEND: Backend;

    /// FIPS 203, Algorithm 9: NTT(f), in place, in the standard's output order. Input
    /// coefficients have absolute value below 2q; the output is Barrett-reduced, in
    /// \[-(q-1)/2, (q-1)/2\].
    fn ntt(f: &mut Coeffs);

    /// FIPS 203, Algorithm 10: NTT^-1(f), in place, times 2^16. Input coefficients have
    /// absolute value below 2^14; outputs below q.
    fn inv_ntt_to_mont(f: &mut Coeffs);

    /// FIPS 203, Algorithm 11 (with Algorithm 12) summed over 1 to 4 pairs:
    /// out = sum_j a\[j\] x_T b\[j\] * 2^-16 (mod q), with |out| <= q. Inputs have absolute value
    /// at most q; `a` and `b` have the same length.
    // (The small-memory K-PKE multiplies pair by pair as it samples; [`crate::ring`] uses it
    // in every configuration.)
    fn inner_product_ntt(out: &mut Coeffs, a: &[&Coeffs], b: &[&Coeffs]);

    /// f * 2^16 mod q for every coefficient (into the Montgomery domain); |out| <= q.
    fn to_mont(f: &mut Coeffs);

    /// The standard representative in [0, q) of every coefficient (any `i16` input).
    fn freeze(f: &mut Coeffs);

    /// FIPS 203, Algorithm 7, lines 5 to 15 on a buffer of XOF output: reads `buf` three bytes
    /// at a time as two 12-bit candidates d1, d2 and appends those below q to `out`, in order,
    /// until `out` is full. Returns how many coefficients were written. `buf.len()` is a
    /// multiple of 3. Public data only.
    fn rej_uniform(buf: &[u8], out: &mut [i16]) -> usize;

    /// FIPS 203, Algorithm 8: SamplePolyCBD_eta(B) for eta in {2, 3}; `buf` holds 64 eta bytes.
    /// Coefficients in \[-eta, eta\].
    fn sample_poly_cbd(eta: usize, buf: &[u8], f: &mut Coeffs);

    /// ByteEncode_d(Compress_d(f)) (FIPS 203, Algorithm 5 and equation 4.7) for d in
    /// {1, 4, 5, 10, 11}; coefficients of `f` in [0, q); `out` holds 32 d bytes.
    fn compress_encode(d: u32, f: &Coeffs, out: &mut [u8]);

    /// Decompress_d(ByteDecode_d(b)) (FIPS 203, Algorithm 6 and equation 4.8) for d in
    /// {1, 4, 5, 10, 11}; `b` holds 32 d bytes. Coefficients in [0, q).
    fn decode_decompress(d: u32, b: &[u8], f: &mut Coeffs);

    /// FIPS 203, Algorithm 5: ByteEncode_12(f) for coefficients in [0, q); `out` holds 384
    /// bytes.
    fn byte_encode12(f: &Coeffs, out: &mut [u8]);

    /// FIPS 203, Algorithm 6: ByteDecode_12(b), each 12-bit value reduced mod q into [0, q), in
    /// constant time (used on the secret s_hat). `b` holds 384 bytes.
    fn byte_decode12(b: &[u8], f: &mut Coeffs);

    /// ByteDecode_12(b) without reduction, and whether every value is below q (the modulus
    /// check of FIPS 203, Section 7.2, on public keys). `b` holds 384 bytes.
    fn byte_decode12_checked(b: &[u8], f: &mut Coeffs) -> bool;
}

/// Runs `$body` with the type `$B` naming this scheme's kernels of the back end selected for
/// this call, or of a given back end (`on backend, B => ...`): [`pqlab_backend::dispatch`]
/// with the kernel types of this crate.
macro_rules! dispatch {
    ($($rest:tt)*) => {
        pqlab_backend::dispatch!(
            kernels: [
                $crate::backend::portable::Portable,
                $crate::backend::avx2::Avx2,
                $crate::backend::avx512::Avx512
            ],
            $($rest)*
        )
    };
}
pub(crate) use dispatch;

#[cfg(test)]
mod tests;
