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
}
