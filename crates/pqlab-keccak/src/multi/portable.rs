//! The portable back end of the multi-lane permutation: the scalar Keccak-f\[1600\] (FIPS 202,
//! Algorithm 7) run once per instance of the interleaved states, whose lanes are in the form of
//! `keccak::lane_in` (bit-interleaved on 32-bit targets). Every target has it; it is the
//! reference of the SIMD twins (`avx2.rs`, `avx512.rs`).

use zeroize::Zeroize;

use super::Interleaved;
use crate::keccak::keccak_f1600_portable_state;

/// FIPS 202, Algorithm 7: KECCAK-p\[1600, 24\] on instances `first..first + count` of `state`
/// (clamped to the eight instances), one at a time: gather the instance's 25 lanes, permute,
/// scatter them back. The gathered copy is zeroized afterwards.
fn keccak_f1600_range(state: &mut Interleaved, first: usize, count: usize) {
    let end = first.saturating_add(count).min(8);
    let mut a = [0u64; 25];
    for l in first.min(end)..end {
        for (w, row) in a.iter_mut().zip(state.0.iter()) {
            *w = row[l];
        }
        keccak_f1600_portable_state(&mut a);
        for (w, row) in a.iter().zip(state.0.iter_mut()) {
            row[l] = *w;
        }
    }
    a.zeroize();
}

/// FIPS 202, Algorithm 7: KECCAK-p\[1600, 24\] on the first `lanes` instances (at most 8).
pub(crate) fn keccak_f1600_lanes(state: &mut Interleaved, lanes: usize) {
    keccak_f1600_range(state, 0, lanes);
}

/// FIPS 202, Algorithm 7: KECCAK-p\[1600, 24\] on instances 0..4, or 4..8 if `upper`.
#[allow(dead_code)] // The twin of avx2/avx512 `keccak_f1600_x4`, used by the tests.
pub(crate) fn keccak_f1600_x4(state: &mut Interleaved, upper: bool) {
    keccak_f1600_range(state, if upper { 4 } else { 0 }, 4);
}

/// FIPS 202, Algorithm 7: KECCAK-p\[1600, 24\] on all eight instances.
#[allow(dead_code)] // The twin of avx2/avx512 `keccak_f1600_x8`, used by the tests.
pub(crate) fn keccak_f1600_x8(state: &mut Interleaved) {
    keccak_f1600_range(state, 0, 8);
}
