//! The BMI2 build of the single-state Keccak-f\[1600\] (FIPS 202, Algorithm 7): the portable
//! body (`keccak::permute`) compiled with BMI2 enabled, so that the rotations become `rorx`,
//! which writes a new register instead of overwriting its source (fewer register copies in the
//! 25-lane state, about a tenth faster). Twin of `keccak_f1600_portable_state`.
//!
//! Reached only through [`Bmi2`], whose values exist only after run-time detection: the AVX2
//! and AVX-512 back ends of `pqlab_backend` both require BMI2.
#![allow(unsafe_code)]

use pqlab_backend::Backend;

/// FIPS 202, Algorithm 7: KECCAK-p\[1600, 24\], compiled for BMI2.
///
/// # Safety
///
/// The CPU must have BMI2.
#[target_feature(enable = "bmi2")]
unsafe fn keccak_f1600_bmi2(a: &mut [u64; 25]) {
    super::permute(a);
}

/// Proof that this CPU has BMI2: only [`Bmi2::detect`] and [`Bmi2::selected`] make one.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Bmi2(());

impl Bmi2 {
    /// The proof, if the AVX2 back end (which includes BMI2) is available on this machine
    /// (detected once, cached). Used by the tests, which run this build whatever the selection.
    #[cfg(test)]
    pub(crate) fn detect() -> Option<Self> {
        Backend::Avx2.is_available().then_some(Self(()))
    }

    /// The proof, if the back end of this call ([`pqlab_backend::selected`]) is AVX2 or AVX-512
    /// (both include BMI2; under AVX-512 `keccak_f1600_state` runs the AVX-512 build instead);
    /// `None` under the portable back end, so that `PQLAB_BACKEND=portable`
    /// runs the portable permutation.
    #[inline]
    pub(crate) fn selected() -> Option<Self> {
        match pqlab_backend::selected() {
            Backend::Portable => None,
            Backend::Avx2 | Backend::Avx512 => Some(Self(())),
        }
    }

    /// [`keccak_f1600_bmi2`], safe.
    #[inline]
    pub(crate) fn keccak_f1600(self, a: &mut [u64; 25]) {
        // SAFETY: `self` exists only if BMI2 is available (`detect`, or a selected back end,
        // which `pqlab_backend` returns only when available).
        unsafe { keccak_f1600_bmi2(a) }
    }
}
