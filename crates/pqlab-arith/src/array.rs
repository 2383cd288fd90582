//! Fixed-size arrays of ring elements: storage sized for one parameter set.
//!
//! Rust cannot yet size an array by an associated constant (`[Poly; P::K]`), so each parameter
//! set names its arrays as associated types (`type VecK = [Poly; 4]`), bounded by
//! [`FixedArray`]. The schemes' code is written once over those types and never holds the
//! largest set's storage for a smaller set.

/// A type with a constant all-zero value.
pub trait ConstZero: Copy {
    /// The zero value.
    const ZERO: Self;
}

/// `[T; N]` for some N: a fixed number of elements, all zero to start with.
pub trait FixedArray<T>: AsRef<[T]> + AsMut<[T]> + Clone + Send + Sync + 'static {
    /// Every element zero.
    const ZERO: Self;
}

impl<T: ConstZero + Send + Sync + 'static, const N: usize> FixedArray<T> for [T; N] {
    const ZERO: Self = [T::ZERO; N];
}

#[cfg(test)]
mod tests {
    use super::*;

    impl ConstZero for u16 {
        const ZERO: Self = 0;
    }

    #[test]
    fn zero_has_the_length_of_the_array() {
        fn len<A: FixedArray<u16>>() -> usize {
            A::ZERO.as_ref().len()
        }
        assert_eq!(len::<[u16; 3]>(), 3);
        assert_eq!(len::<[u16; 56]>(), 56);
        assert!(<[u16; 5] as FixedArray<u16>>::ZERO.iter().all(|&x| x == 0));
    }
}
