//! Constant-time helpers: no branch and no memory index depends on the values they take.

/// All ones if `a < 0`, else zero, as a mask of 32 bits.
#[inline]
pub const fn mask_negative_i32(a: i32) -> i32 {
    a >> 31
}

/// `a` if `choice` is 1, else `b`; `choice` must be 0 or 1.
#[inline]
pub const fn select_i32(choice: u32, a: i32, b: i32) -> i32 {
    let mask = (choice as i32).wrapping_neg();
    b ^ (mask & (a ^ b))
}

/// 1 if `a != 0`, else 0.
#[inline]
pub const fn is_nonzero_u32(a: u32) -> u32 {
    (a | a.wrapping_neg()) >> 31
}

/// 1 if the byte strings `a` and `b` are equal, else 0. The lengths are public (a length
/// mismatch returns 0 at once); for equal lengths the time depends only on the length: every
/// byte pair is XORed into one accumulator, with no early exit, and the accumulator goes
/// through `black_box` before the final comparison so that the compiler cannot add one. The
/// loop vectorises (`subtle`'s slice comparison runs one `black_box` per byte, 5 to 10 times
/// slower on a ciphertext).
#[inline]
pub fn bytes_eq(a: &[u8], b: &[u8]) -> u8 {
    if a.len() != b.len() {
        return 0;
    }
    let mut acc = 0u8;
    for (x, y) in a.iter().zip(b) {
        acc |= x ^ y;
    }
    let acc = core::hint::black_box(acc);
    (is_nonzero_u32(u32::from(acc)) ^ 1) as u8
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn helpers_agree_with_branches() {
        for a in [-5i32, -1, 0, 1, 7, i32::MIN, i32::MAX] {
            assert_eq!(mask_negative_i32(a), if a < 0 { -1 } else { 0 });
            assert_eq!(select_i32(1, a, 3), a);
            assert_eq!(select_i32(0, a, 3), 3);
            assert_eq!(is_nonzero_u32(a as u32), u32::from(a != 0));
        }
    }

    #[test]
    fn bytes_eq_finds_every_difference() {
        let a: [u8; 200] = core::array::from_fn(|i| (i * 7) as u8);
        assert_eq!(bytes_eq(&a, &a), 1);
        assert_eq!(bytes_eq(&[], &[]), 1);
        assert_eq!(bytes_eq(&a[..10], &a[..11]), 0);
        for i in 0..a.len() {
            for bit in 0..8 {
                let mut b = a;
                b[i] ^= 1 << bit;
                assert_eq!(bytes_eq(&a, &b), 0, "byte {i} bit {bit}");
            }
        }
    }
}
