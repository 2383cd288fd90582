//! The ML-KEM parameter sets (FIPS 203, Section 8, Tables 2 and 3).

use core::fmt::Debug;

use pqlab_arith::array::FixedArray;
use zeroize::Zeroize;

use crate::poly::Poly;

pub use pqlab_arith::bytes::ByteArray;

/// The modulus q = 3329.
pub const Q: i16 = pqlab_arith::mlkem::Q;
/// The number of coefficients n of a polynomial.
pub const N: usize = 256;
/// The largest k of any parameter set: the size of the fixed vectors that hold a k-vector.
#[cfg_attr(feature = "small-memory", allow(dead_code))]
pub const MAX_K: usize = 4;
/// Length of a seed-form decapsulation key d || z (FIPS 203, Section 7.1), in bytes.
pub const SEED_LEN: usize = 64;
/// Length of the shared secret key K, in bytes.
pub const SHARED_SECRET_LEN: usize = 32;

/// One ML-KEM parameter set (FIPS 203, Table 2), with the sizes of Table 3.
pub trait ParameterSet: Copy + Default + Debug + Send + Sync + 'static {
    /// The name of the standard, e.g. `"ML-KEM-768"`.
    const NAME: &'static str;
    /// The object identifier of the KEM (NIST CSOR), dotted.
    const OID: &'static str;
    /// k: the rank of the module (rows and columns of A).
    const K: usize;
    /// eta1: the CBD parameter of s, e (key generation) and y (encryption).
    const ETA1: usize;
    /// eta2: the CBD parameter of e1 and e2 (encryption).
    const ETA2: usize;
    /// du: the compression of u.
    const DU: u32;
    /// dv: the compression of v.
    const DV: u32;

    /// Length of the encapsulation key ek = ByteEncode12(t_hat) || rho: 384k + 32.
    const EK_LEN: usize = 384 * Self::K + 32;
    /// Length of the (expanded) decapsulation key dk = dk_PKE || ek || H(ek) || z: 768k + 96.
    const DK_LEN: usize = 768 * Self::K + 96;
    /// Length of c1 = ByteEncode_du(Compress_du(u)): 32 du k.
    const C1_LEN: usize = 32 * (Self::DU as usize) * Self::K;
    /// Length of c2 = ByteEncode_dv(Compress_dv(v)): 32 dv.
    const C2_LEN: usize = 32 * (Self::DV as usize);
    /// Length of the ciphertext c = c1 || c2: 32 (du k + dv).
    const CT_LEN: usize = Self::C1_LEN + Self::C2_LEN;

    /// The encapsulation key's bytes.
    type EkBytes: ByteArray;
    /// The expanded decapsulation key's bytes.
    type DkBytes: ByteArray;
    /// The ciphertext's bytes.
    type CtBytes: ByteArray;

    /// k polynomials (s_hat, t_hat, ...): working storage of the implementation, sized per set
    /// rather than for the largest one.
    #[doc(hidden)]
    type VecK: FixedArray<Poly> + Zeroize;
    /// k^2 polynomials (the matrix A_hat, row-major: entry (i, j) at index i k + j).
    #[doc(hidden)]
    type Matrix: FixedArray<Poly> + Zeroize;
}

/// ML-KEM-512 (security category 1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MlKem512;

impl ParameterSet for MlKem512 {
    const NAME: &'static str = "ML-KEM-512";
    const OID: &'static str = "2.16.840.1.101.3.4.4.1";
    const K: usize = 2;
    const ETA1: usize = 3;
    const ETA2: usize = 2;
    const DU: u32 = 10;
    const DV: u32 = 4;
    type EkBytes = [u8; 800];
    type DkBytes = [u8; 1632];
    type CtBytes = [u8; 768];
    type VecK = [Poly; 2];
    type Matrix = [Poly; 4];
}

/// ML-KEM-768 (security category 3).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MlKem768;

impl ParameterSet for MlKem768 {
    const NAME: &'static str = "ML-KEM-768";
    const OID: &'static str = "2.16.840.1.101.3.4.4.2";
    const K: usize = 3;
    const ETA1: usize = 2;
    const ETA2: usize = 2;
    const DU: u32 = 10;
    const DV: u32 = 4;
    type EkBytes = [u8; 1184];
    type DkBytes = [u8; 2400];
    type CtBytes = [u8; 1088];
    type VecK = [Poly; 3];
    type Matrix = [Poly; 9];
}

/// ML-KEM-1024 (security category 5).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MlKem1024;

impl ParameterSet for MlKem1024 {
    const NAME: &'static str = "ML-KEM-1024";
    const OID: &'static str = "2.16.840.1.101.3.4.4.3";
    const K: usize = 4;
    const ETA1: usize = 2;
    const ETA2: usize = 2;
    const DU: u32 = 11;
    const DV: u32 = 5;
    type EkBytes = [u8; 1568];
    type DkBytes = [u8; 3168];
    type CtBytes = [u8; 1568];
    type VecK = [Poly; 4];
    type Matrix = [Poly; 16];
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sizes_agree<P: ParameterSet>(ek: usize, dk: usize, ct: usize) {
        assert_eq!(P::EK_LEN, ek);
        assert_eq!(P::DK_LEN, dk);
        assert_eq!(P::CT_LEN, ct);
        assert_eq!(size_of::<P::EkBytes>(), P::EK_LEN);
        assert_eq!(size_of::<P::DkBytes>(), P::DK_LEN);
        assert_eq!(size_of::<P::CtBytes>(), P::CT_LEN);
        assert!(P::K <= MAX_K);
        assert_eq!(P::VecK::ZERO.as_ref().len(), P::K);
        assert_eq!(P::Matrix::ZERO.as_ref().len(), P::K * P::K);
        assert!(P::ETA1 == 2 || P::ETA1 == 3);
        assert_eq!(P::ETA2, 2);
    }

    #[test]
    fn sizes_match_fips_203_table_3() {
        sizes_agree::<MlKem512>(800, 1632, 768);
        sizes_agree::<MlKem768>(1184, 2400, 1088);
        sizes_agree::<MlKem1024>(1568, 3168, 1568);
    }
}
