//! Falcon-512 and Falcon-1024 (Falcon round-3 specification v1.2, the scheme of the NIST KAT
//! files) for pqlab.
//!
//! * Parameter sets are the degree n as a const generic: [`VerifyingKey<512>`] or the aliases
//!   [`Falcon512VerifyingKey`], [`Falcon1024SigningKey`], ...
//! * [`VerifyingKey`]: public key codec (Section 3.11.4) and verification (Algorithm 16).
//! * [`Signature`]: the detached compressed format (header 0x30 + logn, 40-byte nonce,
//!   compressed s2; Section 3.11.3) with every canonicality check of Decompress.
//! * [`SigningKey`]: secret key codec (Section 3.11.5, recomputing G) and signing
//!   (Algorithm 10); [`ExpandedKey`]: the precomputed FFT basis and Falcon tree (Algorithm 8),
//!   for repeated signing with identical results.
//! * [`hash_to_point_vartime`] and [`hash_to_point_ct`]: HashToPoint (Section 3.7).
//! * [`fpr::Fpr`]: the floating-point type of the signer; native `f64` by default, an
//!   integer-only binary64 emulation with the `fpr-emu` feature (bit-identical results). On
//!   AVX-512 the signer's FFT, inverse FFT, splitfft, mergefft, LDL step, target update and
//!   the value-by-value products run eight values at a time with either: `vaddpd` /
//!   `vmulpd`, or the emulation's integer sequence on eight lanes (the sampler stays scalar;
//!   with `fpr-emu` the small tree nodes, n <= 16, run packed, real parts in four lanes and
//!   imaginary parts in the other four). On AVX2 the same kernels run four native `f64` lanes
//!   at a time (with `fpr-emu`, the portable kernels). Signing with an [`ExpandedKey`] uses
//!   the back end's kernels with `fpr-emu` and the portable ones with native floating point
//!   (faster there: the vector kernels between the scalar sampler's steps measured slower).
//!
//! Signing draws randomness as the round-3 reference does (40-byte nonce, then a 48-byte seed
//! for the SHAKE256 that seeds the sampler's ChaCha20 PRNG), so that
//! [`SigningKey::sign_with_seed`] reproduces the NIST KAT signatures byte for byte.
//! Key generation: [`SigningKey::generate_from_seed`] (NTRUGen and NTRUSolve, seeded as the
//! reference `nist.c`: SHAKE256 over a 48-byte seed) reproduces all 200 NIST KAT key pairs,
//! with either floating-point back end; [`SigningKey::generate`] uses OS
//! randomness. Its f, g sampling is constant time; NTRUSolve is not (its loop counts and
//! sizes depend on the norms of f and g).
//!
//! `no_std`, no heap allocation: every buffer is on the stack. Peak stack (Falcon-512 /
//! Falcon-1024, release builds; measured by `pqlab compare`, on x86-64 and on the Cortex-M4
//! image of `pqlab compare --target cortex-m4`, whose figures include decoding the encoded
//! keys): key generation 24.2 / 43.3 KiB on x86-64 ([`SigningKey::generate_encoded`], which
//! writes the encodings into the caller's buffers; the key returned by value costs a copy or
//! two more), 22.3 / 41.6 KiB on the M4, most of it the solver's one workspace of 8 n words
//! with its floating-point values overlaid step by step, as the reference does (16 / 32 KiB,
//! in a frame of its own); signing with a plain
//! [`SigningKey`] (the tree computed on the way in 8 n values, each degree-16 subtree built
//! whole in 80 more) 44 / 80 KiB, on the M4 44 / 83 KiB (Falcon-512: 45,636 bytes); signing with an [`ExpandedKey`] 34 / 63 KiB, on the M4 32 KiB for Falcon-512, beside
//! the key itself (60 / 120 KiB; its tree array has one spare row for n = 512, so that both
//! sizes share one type; [`SigningKey::with_expanded`] builds it in place, never copied);
//! verification from a decoded [`VerifyingKey`] 5.7 / 10.7 KiB, and from the encoded key
//! with [`VerifyingKey::verify_encoded`] (two arrays of n 16-bit values) 3.2 / 5.2 KiB on
//! the M4.
//!
//! Verification: the NTT modulo q = 12289 and the norm check run on 16-bit lanes behind the
//! back-end boundary of DESIGN §5 (`portable`, AVX2, AVX-512, picked once per call from
//! `pqlab_backend::selected()`, `PQLAB_BACKEND` forcing one; all return the same bits). A
//! [`VerifyingKey`] holds NTT(h), computed once when it is decoded or derived, next to h (which
//! it re-encodes), so a verification runs HashToPoint, Decompress, NTT(s2), one pointwise
//! product, one inverse NTT and the norm.
//!
//! Constant time, exactly:
//!
//! * **Is** constant time (no branch, memory index or variable-latency instruction depends on
//!   a secret): f, g sampling of key generation; [`hash_to_point_ct`]; key expansion (the FFT,
//!   ffLDL and the tree normalisation of [`ExpandedKey`]) and signing: fixed sequences of
//!   floating-point additions, subtractions and multiplications; every reciprocal (the only
//!   divisions of the signer, on secret Gram-matrix values: ffLDL, the key-generation norm
//!   check, NTRUSolve's reductions) is `Fpr::inv`, which uses **no division instruction**: with
//!   the native back end a seed and Newton steps in `f64` multiplications, then an exact
//!   128-bit integer correction (bit-identical to the correctly rounded IEEE division, so all
//!   KAT keys and signatures are unchanged; the AVX-512 back end runs the same correction on
//!   eight lanes in ffLDL, from a `vrcp14pd` seed, the AVX2 back end the scalar steps on four
//!   lanes); with `fpr-emu` integer operations. Square
//!   roots (the tree's leaves) use no square-root instruction either: with the native back end
//!   a Newton estimate in `f64` and an exact integer rounding step (bit-identical to the IEEE
//!   square root; the AVX-512 back end runs it on eight lanes), with `fpr-emu` a fixed
//!   digit-by-digit loop; all branch-free. The base sampler scans its whole table; secret
//!   keys, expanded keys and the sampler state are zeroized on drop.
//! * **Is not** constant time, by design: NTRUSolve (its loop counts and integer sizes depend
//!   on the norms of f and g); BerExp and SamplerZ branch on the rejection outcome and on the
//!   lazy byte comparison of BerExp, as in the reference (the rejection rate is made
//!   independent of the secrets by the sigma_min scaling), and on whether BerExp's first
//!   random byte lies within one of the estimated top byte of its threshold (then the exact
//!   threshold decides: probability 3/256 whatever the estimate); the signer's final norm check and
//!   the compressed length decide a restart (outputs of the sampler, not of the key alone).
//!   Decoding, verification and [`hash_to_point_vartime`] handle public data only.
//! * **Depends on the hardware**: with the native back end, the latency of floating-point
//!   addition, subtraction, multiplication and conversion, constant for normal operands on
//!   current x86-64 and AArch64 cores (subnormals do not occur in these computations), and of
//!   AVX-512's `vrcp14pd` (a table lookup, fixed latency), the seed of the AVX-512 LDL
//!   kernel's reciprocal, which is then made exact with integer steps. The
//!   public `Fpr::div` (not used by key generation or signing) still uses the hardware
//!   division. The `fpr-emu` back end uses only integer operations without data-dependent
//!   branches.
#![no_std]

#[cfg(test)]
extern crate std;

mod backend;
mod codec;
mod error;
mod ffldl_levels;
mod ffsampling;
mod fft;
mod fft_table;
pub mod fpr;
#[cfg(feature = "fpr-emu")]
mod fpr_emu_sqrt;
mod hash;
mod keygen;
mod keys;
pub mod params;
#[cfg(feature = "pkcs8")]
pub mod pkcs8;
mod sampler;
mod sign;
#[cfg(feature = "reduction-study")]
pub mod study;
mod verify;

pub use error::Error;
pub use hash::{hash_to_point_ct, hash_to_point_vartime};
pub use keys::{Signature, SigningKey, VerifyingKey};
pub use params::{NONCE_LEN, SEED_LEN};
pub use sign::ExpandedKey;

/// The precomputed tables of the signer, as (name, bytes) from `size_of_val` of the constants
/// themselves (for the memory report of `pqlab compare`; the NTT tables of verification, 8 KiB
/// of twiddles and, on x86-64, 11 KiB of per-lane twiddle vectors, are in the private `backend`
/// module, built at compile time from `pqlab_arith::falcon::PSI_POWERS` and `PSI_INV_POWERS`).
pub fn table_sizes() -> [(&'static str, usize); 2] {
    [
        ("FFT roots GM_TAB", size_of_val(&fft_table::GM_TAB)),
        ("base sampler RCDT", size_of_val(&sampler::RCDT)),
    ]
}

/// A Falcon-512 public key.
pub type Falcon512VerifyingKey = VerifyingKey<512>;
/// A Falcon-1024 public key.
pub type Falcon1024VerifyingKey = VerifyingKey<1024>;
/// A Falcon-512 secret key.
pub type Falcon512SigningKey = SigningKey<512>;
/// A Falcon-1024 secret key.
pub type Falcon1024SigningKey = SigningKey<1024>;
/// A Falcon-512 expanded secret key.
pub type Falcon512ExpandedKey = ExpandedKey<512>;
/// A Falcon-1024 expanded secret key.
pub type Falcon1024ExpandedKey = ExpandedKey<1024>;
/// A Falcon-512 signature.
pub type Falcon512Signature = Signature<512>;
/// A Falcon-1024 signature.
pub type Falcon1024Signature = Signature<1024>;
