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

/// Bytes of the round-constant table [`RC`] (for the memory report of `pqlab compare`).
pub fn round_constants_bytes() -> usize {
    size_of_val(&RC)
}

/// FIPS 202, Algorithm 7: KECCAK-p\[1600, 24\] = Keccak-f\[1600\].
///
/// The state is 25 lanes `A[x + 5y]`, each lane a little-endian 64-bit word (FIPS 202, Section 3.1.2).
pub fn keccak_f1600(a: &mut [u64; 25]) {
    let _k = pqlab_profile::enter(pqlab_profile::Kernel::Keccak);
    for rc in RC {
        // theta (Algorithm 1): D[x] = C[x-1] ^ rot(C[x+1], 1).
        let mut c = [0u64; 5];
        for x in 0..5 {
            c[x] = a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20];
        }
        let mut d = [0u64; 5];
        for x in 0..5 {
            d[x] = c[(x + 4) % 5] ^ c[(x + 1) % 5].rotate_left(1);
        }
        // theta's XOR of D, rho (Algorithm 2) and pi (Algorithm 3) in one step, written out lane
        // by lane: B[y + 5((2x + 3y) mod 5)] = rot(A[x + 5y] ^ D[x], r[x][y]).
        let mut b = [0u64; 25];
        b[0] = a[0] ^ d[0];
        b[10] = (a[1] ^ d[1]).rotate_left(1);
        b[20] = (a[2] ^ d[2]).rotate_left(62);
        b[5] = (a[3] ^ d[3]).rotate_left(28);
        b[15] = (a[4] ^ d[4]).rotate_left(27);
        b[16] = (a[5] ^ d[0]).rotate_left(36);
        b[1] = (a[6] ^ d[1]).rotate_left(44);
        b[11] = (a[7] ^ d[2]).rotate_left(6);
        b[21] = (a[8] ^ d[3]).rotate_left(55);
        b[6] = (a[9] ^ d[4]).rotate_left(20);
        b[7] = (a[10] ^ d[0]).rotate_left(3);
        b[17] = (a[11] ^ d[1]).rotate_left(10);
        b[2] = (a[12] ^ d[2]).rotate_left(43);
        b[12] = (a[13] ^ d[3]).rotate_left(25);
        b[22] = (a[14] ^ d[4]).rotate_left(39);
        b[23] = (a[15] ^ d[0]).rotate_left(41);
        b[8] = (a[16] ^ d[1]).rotate_left(45);
        b[18] = (a[17] ^ d[2]).rotate_left(15);
        b[3] = (a[18] ^ d[3]).rotate_left(21);
        b[13] = (a[19] ^ d[4]).rotate_left(8);
        b[14] = (a[20] ^ d[0]).rotate_left(18);
        b[24] = (a[21] ^ d[1]).rotate_left(2);
        b[9] = (a[22] ^ d[2]).rotate_left(61);
        b[19] = (a[23] ^ d[3]).rotate_left(56);
        b[4] = (a[24] ^ d[4]).rotate_left(14);
        // chi (Algorithm 4)
        for y in 0..5 {
            for x in 0..5 {
                a[x + 5 * y] = b[x + 5 * y] ^ (!b[(x + 1) % 5 + 5 * y] & b[(x + 2) % 5 + 5 * y]);
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
