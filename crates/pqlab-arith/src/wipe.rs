//! Wiping secret buffers quickly and for certain.
//!
//! The `zeroize` crate stores through volatile writes, one element at a time: a byte array is
//! cleared a byte per store, a polynomial a coefficient per store. On the kilobyte-sized
//! buffers of the lattice schemes that is a large share of an operation (13 % of ML-KEM-512
//! key generation, measured with `perf` before this module existed). [`wipe`] clears with
//! ordinary stores, which the compiler vectorises, and then passes the buffer's address to
//! [`core::hint::black_box`]: the compiler must assume that call reads the memory behind the
//! address, so the stores are live and cannot be removed as dead stores, whether or not the
//! buffer is read again. A compiler fence keeps them ahead of whatever follows, as `zeroize`
//! does.
//!
//! `black_box` is documented as best effort; on every target pqlab builds for (LLVM back end)
//! it is an empty inline-assembly block that takes the address and clobbers memory, which is
//! the guarantee relied on here (the unit test checks only that every element is cleared; that
//! the stores survive optimisation is this argument, not something a test can observe).

use core::sync::atomic::{Ordering, compiler_fence};

/// Sets every element of `x` to its default (zero for the integer types) with ordinary stores
/// that the optimiser may not drop. For nested arrays pass `as_flattened_mut()`.
#[inline]
pub fn wipe<T: Copy + Default>(x: &mut [T]) {
    x.fill(T::default());
    core::hint::black_box(x.as_mut_ptr());
    compiler_fence(Ordering::SeqCst);
}

#[cfg(test)]
mod tests {
    use super::wipe;

    /// Fills a buffer with non-zero bytes and wipes it, out of line.
    #[inline(never)]
    fn fill_and_wipe(buf: &mut [u8; 512]) {
        let mut secret = [0u8; 512];
        for (i, b) in secret.iter_mut().enumerate() {
            *b = (i as u8) | 1;
        }
        buf.copy_from_slice(&secret);
        wipe(buf);
    }

    #[test]
    fn wipe_clears_every_element() {
        let mut buf = [0xa5u8; 512];
        fill_and_wipe(&mut buf);
        assert!(buf.iter().all(|&b| b == 0));
        let mut words = [[7i16; 256]; 3];
        wipe(words.as_flattened_mut());
        assert!(words.as_flattened().iter().all(|&w| w == 0));
        let mut wide = [u64::MAX; 25];
        wipe(&mut wide);
        assert_eq!(wide, [0; 25]);
    }
}
