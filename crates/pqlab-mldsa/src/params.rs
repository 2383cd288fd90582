//! The ML-DSA parameter sets (FIPS 204, Section 4, Table 1 and Table 2).

use core::fmt::Debug;

use pqlab_arith::array::FixedArray;
use zeroize::Zeroize;

use crate::poly::{Poly, ShortNtt};

pub use pqlab_arith::bytes::ByteArray;

/// The modulus q = 2^23 - 2^13 + 1.
pub const Q: i32 = 8_380_417;
/// The number of dropped bits of t (FIPS 204, Table 1).
pub const D: u32 = 13;
/// The largest l of any parameter set: the bound of the fixed scratch arrays of the lane
/// batches (ExpandMask seeds, the operands of one matrix row).
pub const MAX_L: usize = 7;
/// The largest k of any parameter set (the rows of the signer's hint bits).
pub(crate) const MAX_K: usize = 8;
/// The most entries of A_hat (or of s1 and s2) sampled side by side in Keccak lanes: 8 (the
/// lanes of AVX-512; AVX2 and portable use 4), or 1 in the `small-memory` configuration, which
/// then runs one one-lane SHAKE state at a time.
pub(crate) const LANES: usize = if cfg!(feature = "small-memory") { 1 } else { 8 };

/// One ML-DSA parameter set (FIPS 204, Table 1), with the encoded sizes of Table 2.
pub trait ParameterSet: Copy + Default + Debug + Send + Sync + 'static {
    /// The name of the standard, e.g. `"ML-DSA-65"`.
    const NAME: &'static str;
    /// The object identifier of the pure signature algorithm (NIST CSOR), dotted.
    const OID: &'static str;
    /// k: rows of A.
    const K: usize;
    /// l: columns of A.
    const L: usize;
    /// eta: the bound of the secret coefficients.
    const ETA: u32;
    /// tau: the number of ±1 coefficients of c.
    const TAU: usize;
    /// lambda: the collision strength of c_tilde, in bits.
    const LAMBDA: usize;
    /// gamma1: the range of y.
    const GAMMA1: i32;
    /// gamma2: the low-order rounding range.
    const GAMMA2: i32;
    /// omega: the largest number of ones in the hint h.
    const OMEGA: usize;

    /// beta = tau * eta.
    const BETA: i32 = (Self::TAU as i32) * (Self::ETA as i32);
    /// Bytes of c_tilde: lambda / 4.
    const C_TILDE_LEN: usize = Self::LAMBDA / 4;
    /// Bits per coefficient of s1 and s2: bitlen(2 eta).
    const ETA_BITS: usize = if Self::ETA == 2 { 3 } else { 4 };
    /// Bits per coefficient of z: 1 + bitlen(gamma1 - 1).
    const GAMMA1_BITS: usize = if Self::GAMMA1 == (1 << 17) { 18 } else { 20 };
    /// Bits per coefficient of w1: bitlen((q - 1) / (2 gamma2) - 1).
    const W1_BITS: usize = if Self::GAMMA2 == (Q - 1) / 88 { 6 } else { 4 };

    /// Length of the public-key encoding (pkEncode).
    const PK_LEN: usize = 32 + 32 * Self::K * 10;
    /// Length of the secret-key encoding (skEncode).
    const SK_LEN: usize =
        128 + 32 * ((Self::K + Self::L) * Self::ETA_BITS + (D as usize) * Self::K);
    /// Length of the signature encoding (sigEncode).
    const SIG_LEN: usize =
        Self::C_TILDE_LEN + Self::L * 32 * Self::GAMMA1_BITS + Self::OMEGA + Self::K;

    /// The public key's bytes.
    type PkBytes: ByteArray;
    /// The expanded secret key's bytes.
    type SkBytes: ByteArray + Zeroize;
    /// The signature's bytes.
    type SigBytes: ByteArray;

    /// k polynomials (a vector of R_q^k: s2, t0, w, h ...). Working storage of the
    /// implementation, sized per set rather than for the largest one.
    #[doc(hidden)]
    type VecK: FixedArray<Poly> + Zeroize;
    /// l polynomials (a vector of R_q^l: s1, y, z).
    #[doc(hidden)]
    type VecL: FixedArray<Poly> + Zeroize;
    /// k l polynomials (the matrix A_hat, row-major: entry (r, s) at index r l + s).
    #[doc(hidden)]
    type Matrix: FixedArray<Poly> + Zeroize;
    /// l short polynomials in ML-KEM's NTT domain (NTT_3329(s1), [`ShortNtt`]).
    #[doc(hidden)]
    type ShortNttL: FixedArray<ShortNtt> + Zeroize;
    /// k short polynomials in ML-KEM's NTT domain (NTT_3329(s2)).
    #[doc(hidden)]
    type ShortNttK: FixedArray<ShortNtt> + Zeroize;
}

/// ML-DSA-44 (security category 2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MlDsa44;

impl ParameterSet for MlDsa44 {
    const NAME: &'static str = "ML-DSA-44";
    const OID: &'static str = "2.16.840.1.101.3.4.3.17";
    const K: usize = 4;
    const L: usize = 4;
    const ETA: u32 = 2;
    const TAU: usize = 39;
    const LAMBDA: usize = 128;
    const GAMMA1: i32 = 1 << 17;
    const GAMMA2: i32 = (Q - 1) / 88;
    const OMEGA: usize = 80;
    type PkBytes = [u8; 1312];
    type SkBytes = [u8; 2560];
    type SigBytes = [u8; 2420];
    type VecK = [Poly; 4];
    type VecL = [Poly; 4];
    type Matrix = [Poly; 16];
    type ShortNttL = [ShortNtt; 4];
    type ShortNttK = [ShortNtt; 4];
}

/// ML-DSA-65 (security category 3).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MlDsa65;

impl ParameterSet for MlDsa65 {
    const NAME: &'static str = "ML-DSA-65";
    const OID: &'static str = "2.16.840.1.101.3.4.3.18";
    const K: usize = 6;
    const L: usize = 5;
    const ETA: u32 = 4;
    const TAU: usize = 49;
    const LAMBDA: usize = 192;
    const GAMMA1: i32 = 1 << 19;
    const GAMMA2: i32 = (Q - 1) / 32;
    const OMEGA: usize = 55;
    type PkBytes = [u8; 1952];
    type SkBytes = [u8; 4032];
    type SigBytes = [u8; 3309];
    type VecK = [Poly; 6];
    type VecL = [Poly; 5];
    type Matrix = [Poly; 30];
    type ShortNttL = [ShortNtt; 5];
    type ShortNttK = [ShortNtt; 6];
}

/// ML-DSA-87 (security category 5).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MlDsa87;

impl ParameterSet for MlDsa87 {
    const NAME: &'static str = "ML-DSA-87";
    const OID: &'static str = "2.16.840.1.101.3.4.3.19";
    const K: usize = 8;
    const L: usize = 7;
    const ETA: u32 = 2;
    const TAU: usize = 60;
    const LAMBDA: usize = 256;
    const GAMMA1: i32 = 1 << 19;
    const GAMMA2: i32 = (Q - 1) / 32;
    const OMEGA: usize = 75;
    type PkBytes = [u8; 2592];
    type SkBytes = [u8; 4896];
    type SigBytes = [u8; 4627];
    type VecK = [Poly; 8];
    type VecL = [Poly; 7];
    type Matrix = [Poly; 56];
    type ShortNttL = [ShortNtt; 7];
    type ShortNttK = [ShortNtt; 8];
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sizes_agree<P: ParameterSet>(pk: usize, sk: usize, sig: usize) {
        assert_eq!(P::PK_LEN, pk);
        assert_eq!(P::SK_LEN, sk);
        assert_eq!(P::SIG_LEN, sig);
        assert_eq!(size_of::<P::PkBytes>(), P::PK_LEN);
        assert_eq!(size_of::<P::SkBytes>(), P::SK_LEN);
        assert_eq!(size_of::<P::SigBytes>(), P::SIG_LEN);
        assert!(P::L <= MAX_L);
        assert!(P::K <= MAX_K);
        assert_eq!(P::VecK::ZERO.as_ref().len(), P::K);
        assert_eq!(P::VecL::ZERO.as_ref().len(), P::L);
        assert_eq!(P::Matrix::ZERO.as_ref().len(), P::K * P::L);
    }

    #[test]
    fn sizes_match_fips_204_table_2() {
        sizes_agree::<MlDsa44>(1312, 2560, 2420);
        sizes_agree::<MlDsa65>(1952, 4032, 3309);
        sizes_agree::<MlDsa87>(2592, 4896, 4627);
    }
}
