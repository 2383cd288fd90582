//! The Keccak-f[1600] permutation (FIPS 202, Section 3.3 and Algorithm 7).

/// Round constants RC\[i_r\] of the iota step (FIPS 202, Algorithm 6), for the 24 rounds.
const RC: [u64; 24] = [
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

/// Rotation offsets of the rho step, in the order the combined rho-pi walk visits the lanes.
const RHO: [u32; 24] = [
    1, 3, 6, 10, 15, 21, 28, 36, 45, 55, 2, 14, 27, 41, 56, 8, 25, 43, 62, 18, 39, 61, 20, 44,
];

/// Lane indices (x + 5y) of the pi step, in the order of the combined rho-pi walk.
const PI: [usize; 24] = [
    10, 7, 11, 17, 18, 3, 5, 16, 8, 21, 24, 4, 15, 23, 19, 13, 12, 2, 20, 14, 22, 9, 6, 1,
];

/// FIPS 202, Algorithm 7: KECCAK-p\[1600, 24\] = Keccak-f\[1600\].
///
/// The state is 25 lanes `A[x + 5y]`, each lane a little-endian 64-bit word (FIPS 202, Section 3.1.2).
pub fn keccak_f1600(a: &mut [u64; 25]) {
    for rc in RC {
        // theta (Algorithm 1)
        let mut c = [0u64; 5];
        for x in 0..5 {
            c[x] = a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20];
        }
        for x in 0..5 {
            let d = c[(x + 4) % 5] ^ c[(x + 1) % 5].rotate_left(1);
            for y in 0..5 {
                a[x + 5 * y] ^= d;
            }
        }
        // rho and pi (Algorithms 2 and 3), walked as one cycle over the 24 non-origin lanes
        let mut current = a[1];
        for (&rot, &dest) in RHO.iter().zip(PI.iter()) {
            let next = a[dest];
            a[dest] = current.rotate_left(rot);
            current = next;
        }
        // chi (Algorithm 4)
        for y in 0..5 {
            let row = [
                a[5 * y],
                a[5 * y + 1],
                a[5 * y + 2],
                a[5 * y + 3],
                a[5 * y + 4],
            ];
            for x in 0..5 {
                a[x + 5 * y] = row[x] ^ (!row[(x + 1) % 5] & row[(x + 2) % 5]);
            }
        }
        // iota (Algorithm 6)
        a[0] ^= rc;
    }
}

#[cfg(test)]
mod tests {
    use super::keccak_f1600;

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
}
