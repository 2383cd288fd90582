//! The Keccak-f[1600] permutation (FIPS 202, Section 3.3 and Algorithm 7).
//!
//! One portable body ([`permute`]), compiled twice: as the portable build for every
//! target ([`keccak_f1600_portable_state`]), and on x86-64 with BMI2 (`rorx`, a rotation that keeps its source, so fewer register
//! copies) in the twin module `bmi2.rs`. A third build, `avx512.rs`, holds the state in five
//! zmm registers (AVX-512F). [`keccak_f1600`] runs the AVX-512 build when the selected back end
//! is AVX-512, the BMI2 build under AVX2 (which implies BMI2), else the portable one.
//!
//! On targets with 32-bit pointers (the Cortex-M4) the portable permutation is the
//! bit-interleaved one of `interleaved.rs` (each lane as two 32-bit words, so that rotations
//! stay 32-bit), and the sponges keep their states in that form ([`lane_in`], [`lane_out`],
//! [`keccak_f1600_state`]); the `bit-interleaved` feature selects it on every target, for
//! testing it on x86-64.

#[cfg(target_arch = "x86_64")]
mod avx512;
#[cfg(target_arch = "x86_64")]
mod bmi2;
pub(crate) mod interleaved;

/// Whether the portable permutation is the bit-interleaved one ([`interleaved`]) and the
/// sponges keep their states bit-interleaved: on 32-bit targets, or everywhere with the
/// `bit-interleaved` feature (which also turns off the BMI2 and SIMD builds, so that every
/// test runs it).
pub(crate) const INTERLEAVED: bool = cfg!(any(
    target_pointer_width = "32",
    feature = "bit-interleaved"
));

/// Round constants RC\[i_r\] of the iota step (FIPS 202, Algorithm 6), for the 24 rounds.
pub(crate) const RC: [u64; 24] = [
    0x0000_0000_0000_0001,
    0x0000_0000_0000_8082,
    0x8000_0000_0000_808a,
    0x8000_0000_8000_8000,
    0x0000_0000_0000_808b,
    0x0000_0000_8000_0001,
    0x8000_0000_8000_8081,
    0x8000_0000_0000_8009,
    0x0000_0000_0000_008a,
    0x0000_0000_0000_0088,
    0x0000_0000_8000_8009,
    0x0000_0000_8000_000a,
    0x0000_0000_8000_808b,
    0x8000_0000_0000_008b,
    0x8000_0000_0000_8089,
    0x8000_0000_0000_8003,
    0x8000_0000_0000_8002,
    0x8000_0000_0000_0080,
    0x0000_0000_0000_800a,
    0x8000_0000_8000_000a,
    0x8000_0000_8000_8081,
    0x8000_0000_0000_8080,
    0x0000_0000_8000_0001,
    0x8000_0000_8000_8008,
];

/// Bytes of the round-constant table `RC` (for the memory report of `pqlab compare`).
pub fn round_constants_bytes() -> usize {
    size_of_val(&RC)
}

/// The lanes that [`round`] and the bit-interleaved permutation keep complemented.
pub(crate) const COMPLEMENTED: [usize; 6] = [1, 2, 8, 12, 17, 20];

/// Complements the lanes that [`round`] keeps complemented ("lane complementing", Keccak implementation
/// overview, Section 2.2): A\[1\], A\[2\], A\[8\], A\[12\], A\[17\], A\[20\]. With them stored as
/// their complements, chi needs one NOT per row instead of five.
#[inline(always)]
pub(crate) fn complement(a: &mut [u64; 25]) {
    for i in COMPLEMENTED {
        a[i] = !a[i];
    }
}

/// One round of Keccak-f\[1600\] (FIPS 202, Algorithm 7, step 2: Rnd = iota . chi . pi . rho .
/// theta) from the state `a` into `e`, with round constant `rc`.
///
/// Written out in the style of the Keccak team's "KeccakP-1600-opt64": theta's column parities
/// first, then the output row by row, each row taking its five input lanes through theta's XOR,
/// rho (Algorithm 2) and pi (Algorithm 3) straight into chi (Algorithm 4), so that only five
/// rotated lanes are alive at a time. Every index is a constant, so the compiler keeps both
/// states in registers (or spills it chooses) instead of memory.
#[inline(always)]
pub(crate) fn round(a: &[u64; 25], e: &mut [u64; 25], rc: u64) {
    // theta (Algorithm 1): C[x] = parity of column x; D[x] = C[x-1] ^ rot(C[x+1], 1).
    let c0 = a[0] ^ a[5] ^ a[10] ^ a[15] ^ a[20];
    let c1 = a[1] ^ a[6] ^ a[11] ^ a[16] ^ a[21];
    let c2 = a[2] ^ a[7] ^ a[12] ^ a[17] ^ a[22];
    let c3 = a[3] ^ a[8] ^ a[13] ^ a[18] ^ a[23];
    let c4 = a[4] ^ a[9] ^ a[14] ^ a[19] ^ a[24];
    let d0 = c4 ^ c1.rotate_left(1);
    let d1 = c0 ^ c2.rotate_left(1);
    let d2 = c1 ^ c3.rotate_left(1);
    let d3 = c2 ^ c4.rotate_left(1);
    let d4 = c3 ^ c0.rotate_left(1);

    // Output row y = 0 takes A[0], A[6], A[12], A[18], A[24] (pi: B[y + 5((2x + 3y) mod 5)] =
    // rot(A[x + 5y] ^ D[x], r[x][y])), then chi and iota (Algorithm 6).
    let b0 = a[0] ^ d0;
    let b1 = (a[6] ^ d1).rotate_left(44);
    let b2 = (a[12] ^ d2).rotate_left(43);
    let b3 = (a[18] ^ d3).rotate_left(21);
    let b4 = (a[24] ^ d4).rotate_left(14);
    e[0] = b0 ^ (b1 | b2) ^ rc;
    e[1] = b1 ^ (!b2 | b3);
    e[2] = b2 ^ (b3 & b4);
    e[3] = b3 ^ (b4 | b0);
    e[4] = b4 ^ (b0 & b1);

    // Row 1: A[3], A[9], A[10], A[16], A[22].
    let b0 = (a[3] ^ d3).rotate_left(28);
    let b1 = (a[9] ^ d4).rotate_left(20);
    let b2 = (a[10] ^ d0).rotate_left(3);
    let b3 = (a[16] ^ d1).rotate_left(45);
    let b4 = (a[22] ^ d2).rotate_left(61);
    e[5] = b0 ^ (b1 | b2);
    e[6] = b1 ^ (b2 & b3);
    e[7] = b2 ^ (b3 | !b4);
    e[8] = b3 ^ (b4 | b0);
    e[9] = b4 ^ (b0 & b1);

    // Row 2: A[1], A[7], A[13], A[19], A[20].
    let b0 = (a[1] ^ d1).rotate_left(1);
    let b1 = (a[7] ^ d2).rotate_left(6);
    let b2 = (a[13] ^ d3).rotate_left(25);
    let b3 = (a[19] ^ d4).rotate_left(8);
    let b4 = (a[20] ^ d0).rotate_left(18);
    e[10] = b0 ^ (b1 | b2);
    e[11] = b1 ^ (b2 & b3);
    e[12] = b2 ^ (!b3 & b4);
    e[13] = !b3 ^ (b4 | b0);
    e[14] = b4 ^ (b0 & b1);

    // Row 3: A[4], A[5], A[11], A[17], A[23].
    let b0 = (a[4] ^ d4).rotate_left(27);
    let b1 = (a[5] ^ d0).rotate_left(36);
    let b2 = (a[11] ^ d1).rotate_left(10);
    let b3 = (a[17] ^ d2).rotate_left(15);
    let b4 = (a[23] ^ d3).rotate_left(56);
    e[15] = b0 ^ (b1 & b2);
    e[16] = b1 ^ (b2 | b3);
    e[17] = b2 ^ (!b3 | b4);
    e[18] = !b3 ^ (b4 & b0);
    e[19] = b4 ^ (b0 | b1);

    // Row 4: A[2], A[8], A[14], A[15], A[21].
    let b0 = (a[2] ^ d2).rotate_left(62);
    let b1 = (a[8] ^ d3).rotate_left(55);
    let b2 = (a[14] ^ d4).rotate_left(39);
    let b3 = (a[15] ^ d0).rotate_left(41);
    let b4 = (a[21] ^ d1).rotate_left(2);
    e[20] = b0 ^ (!b1 & b2);
    e[21] = !b1 ^ (b2 | b3);
    e[22] = b2 ^ (b3 & b4);
    e[23] = b3 ^ (b4 | b0);
    e[24] = b4 ^ (b0 & b1);
}

/// FIPS 202, Algorithm 7: KECCAK-p\[1600, 24\] = Keccak-f\[1600\].
///
/// The state is 25 lanes `A[x + 5y]`, each lane a little-endian 64-bit word (FIPS 202, Section 3.1.2).
/// With `INTERLEAVED` the lanes are converted to and from the bit-interleaved form around
/// the permutation; else this is `keccak_f1600_state` (the AVX-512 or BMI2 build when the
/// selected back end, [`pqlab_backend::selected`], is AVX-512 or AVX2). Every build gives the
/// same result.
pub fn keccak_f1600(a: &mut [u64; 25]) {
    if INTERLEAVED {
        interleaved::keccak_f1600(a);
    } else {
        keccak_f1600_state(a);
    }
}

/// FIPS 202, Algorithm 7: KECCAK-p\[1600, 24\] on a sponge's state, whose lanes are in the
/// form of [`lane_in`]: the one place that selects a build. The AVX-512 build when the selected
/// back end is AVX-512, the BMI2 build under AVX2 (which implies BMI2; neither with
/// [`INTERLEAVED`]), else [`keccak_f1600_portable_state`].
#[inline]
pub(crate) fn keccak_f1600_state(a: &mut [u64; 25]) {
    #[cfg(target_arch = "x86_64")]
    if !INTERLEAVED {
        if let Some(cpu) = avx512::Avx512Keccak::selected() {
            cpu.keccak_f1600(a);
            return;
        }
        if let Some(cpu) = bmi2::Bmi2::selected() {
            cpu.keccak_f1600(a);
            return;
        }
    }
    keccak_f1600_portable_state(a);
}

/// FIPS 202, Algorithm 7: KECCAK-p\[1600, 24\], the portable build on a state in the form of
/// [`lane_in`] (also the multi-lane sponges' portable back end): the bit-interleaved
/// permutation with [`INTERLEAVED`] (no conversion), else [`permute`] on 64-bit lanes.
#[inline]
pub(crate) fn keccak_f1600_portable_state(a: &mut [u64; 25]) {
    if INTERLEAVED {
        interleaved::permute(a);
    } else {
        permute(a);
    }
}

/// A standard lane (FIPS 202, Section 3.1.2) in the form the sponges keep their states in:
/// bit-interleaved with [`INTERLEAVED`] ([`interleaved::to_interleaved`]), else itself.
#[inline(always)]
pub(crate) fn lane_in(lane: u64) -> u64 {
    if INTERLEAVED {
        interleaved::to_interleaved(lane)
    } else {
        lane
    }
}

/// The inverse of [`lane_in`]: a lane of a sponge's state in standard form.
#[inline(always)]
pub(crate) fn lane_out(lane: u64) -> u64 {
    if INTERLEAVED {
        interleaved::from_interleaved(lane)
    } else {
        lane
    }
}

/// FIPS 202, Algorithm 7: KECCAK-p\[1600, 24\], the body shared by every build. Two rounds per
/// loop iteration, `a -> e -> a`, both states in locals (see [`round`]).
#[inline(always)]
pub(crate) fn permute(a: &mut [u64; 25]) {
    let _k = pqlab_profile::enter(pqlab_profile::Kernel::Keccak);
    let mut s = *a;
    complement(&mut s);
    let mut e = [0u64; 25];
    for rc in RC.chunks_exact(2) {
        round(&s, &mut e, rc[0]);
        round(&e, &mut s, rc[1]);
    }
    complement(&mut s);
    *a = s;
}

#[cfg(test)]
mod tests {
    use rand::rngs::StdRng;
    use rand::{RngCore, SeedableRng};

    use super::{keccak_f1600, permute};

    #[test]
    fn zero_state_matches_known_answer() {
        // Keccak-f[1600] applied once to the all-zero state (Keccak team's KeccakF-1600 test values).
        let mut a = [0u64; 25];
        keccak_f1600(&mut a);
        assert_eq!(a[0], 0xF125_8F79_40E1_DDE7);
        assert_eq!(a[1], 0x84D5_CCF9_33C0_478A);
        assert_eq!(a[24], 0xEAF1_FF7B_5CEC_A249);
        keccak_f1600(&mut a);
        assert_eq!(a[0], 0x2D5C_954D_F96E_CB3C);
    }

    #[test]
    fn every_build_equals_the_portable_permutation() {
        // Random states (a seeded generator) against the 64-bit body: the selected build (BMI2
        // under AVX2, AVX-512 under AVX-512; the bit-interleaved one with `INTERLEAVED`) and, where the
        // CPU has BMI2, the BMI2 build itself.
        let mut rng = StdRng::seed_from_u64(0x9E37_79B9_7F4A_7C15);
        let mut bmi2_cases = 0;
        for _ in 0..200 {
            let s: [u64; 25] = core::array::from_fn(|_| rng.next_u64());
            let mut want = s;
            permute(&mut want);
            let mut got = s;
            keccak_f1600(&mut got);
            assert_eq!(got, want);
            #[cfg(target_arch = "x86_64")]
            if let Some(cpu) = super::bmi2::Bmi2::detect() {
                let mut got = s;
                cpu.keccak_f1600(&mut got);
                assert_eq!(got, want);
                bmi2_cases += 1;
            }
        }
        std::eprintln!("BMI2 Keccak-f[1600]: {bmi2_cases} states");
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("bmi2") && std::is_x86_feature_detected!("avx2") {
            assert!(bmi2_cases > 0, "the CPU has BMI2 but no BMI2 case ran");
        }
    }

    #[test]
    #[cfg(target_arch = "x86_64")]
    fn avx512_build_equals_the_portable_permutation() {
        // The AVX-512 build itself (whatever the selected back end) on 300 random states and
        // on states with a single bit set (each lane of the 25 in turn, at a rotating bit, so
        // that every register lane of the load and store is seen alone), against the 64-bit
        // body; then the zero-state known answer.
        let Some(cpu) = super::avx512::Avx512Keccak::detect() else {
            // Only a CPU without the AVX-512 back end's features may skip this test.
            assert!(
                !(std::is_x86_feature_detected!("avx512f")
                    && std::is_x86_feature_detected!("avx512bw")
                    && std::is_x86_feature_detected!("avx512vl")
                    && std::is_x86_feature_detected!("avx512dq")
                    && std::is_x86_feature_detected!("avx2")
                    && std::is_x86_feature_detected!("bmi2")),
                "the CPU has AVX-512 but the AVX-512 build did not run"
            );
            return;
        };
        let mut rng = StdRng::seed_from_u64(0x5851_F42D_4C95_7F2D);
        let mut cases = 0;
        for i in 0..325 {
            let s: [u64; 25] = if i < 300 {
                core::array::from_fn(|_| rng.next_u64())
            } else {
                core::array::from_fn(|j| u64::from(j == i - 300) << ((7 * i) % 64))
            };
            let mut want = s;
            permute(&mut want);
            let mut got = s;
            cpu.keccak_f1600(&mut got);
            assert_eq!(got, want, "state {i}");
            cases += 1;
        }
        assert_eq!(cases, 325);
        let mut a = [0u64; 25];
        cpu.keccak_f1600(&mut a);
        assert_eq!(a[0], 0xF125_8F79_40E1_DDE7);
        assert_eq!(a[1], 0x84D5_CCF9_33C0_478A);
        assert_eq!(a[24], 0xEAF1_FF7B_5CEC_A249);
        std::eprintln!("AVX-512 Keccak-f[1600]: {cases} states");
    }
}
