//! Turning the C caller's pointers into slices, and the 0 / -1 return convention.

use core::ffi::c_int;
use std::panic::{AssertUnwindSafe, catch_unwind};

/// The return value of success.
pub(crate) const OK: c_int = 0;
/// The return value of every failure.
pub(crate) const FAIL: c_int = -1;

/// Runs `f` and maps `Some(())` to 0, `None` and a panic (a bug of the library, never expected)
/// to -1, so that no panic unwinds into the C caller.
pub(crate) fn guard(f: impl FnOnce() -> Option<()>) -> c_int {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Some(())) => OK,
        _ => FAIL,
    }
}

/// Runs `f` as [`guard`] does, with the output length `len` (if given) set to 0 first and, on
/// success, to the length that `f` returns.
pub(crate) fn guard_len(mut len: Option<&mut usize>, f: impl FnOnce() -> Option<usize>) -> c_int {
    if let Some(l) = len.as_deref_mut() {
        *l = 0;
    }
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Some(n)) => {
            if let Some(l) = len {
                *l = n;
            }
            OK
        }
        _ => FAIL,
    }
}

/// The input bytes `p[0..len]`: the empty slice when `len` is 0 (even for a null `p`), `None`
/// for a null `p` with a positive length or a length above `isize::MAX`.
///
/// # Safety
///
/// A non-null `p` must be valid for reads of `len` bytes that no one writes while the slice
/// lives.
pub(crate) unsafe fn input<'a>(p: *const u8, len: usize) -> Option<&'a [u8]> {
    if len == 0 {
        return Some(&[]);
    }
    if p.is_null() || len > isize::MAX as usize {
        return None;
    }
    // SAFETY: p is non-null and, by the caller's contract, valid for reads of len bytes that
    // are not written while the slice lives; len is at most isize::MAX.
    Some(unsafe { core::slice::from_raw_parts(p, len) })
}

/// The fixed-size input `p[0..L]`, `None` for a null `p`.
///
/// # Safety
///
/// A non-null `p` must be valid for reads of `L` bytes that no one writes while the reference
/// lives.
pub(crate) unsafe fn input_array<'a, const L: usize>(p: *const u8) -> Option<&'a [u8; L]> {
    if p.is_null() {
        return None;
    }
    // SAFETY: p is non-null and valid for reads of L bytes (the caller's contract); [u8; L]
    // has alignment 1.
    Some(unsafe { &*p.cast::<[u8; L]>() })
}

/// The optional fixed-size input of a `_derand` entry point: `Some(None)` for `None` (draw OS
/// randomness), `Some(Some(bytes))` for a given non-null pointer, `None` for a given null one.
///
/// # Safety
///
/// A given non-null pointer must be valid for reads of `L` bytes that no one writes while the
/// reference lives.
pub(crate) unsafe fn seed<'a, const L: usize>(p: Option<*const u8>) -> Option<Option<&'a [u8; L]>> {
    match p {
        None => Some(None),
        // SAFETY: the caller's contract.
        Some(p) => unsafe { input_array::<L>(p) }.map(Some),
    }
}

/// The output bytes `p[0..len]`, `None` for a null `p` or a length above `isize::MAX`.
///
/// # Safety
///
/// A non-null `p` must be valid for writes of `len` bytes that no other reference reaches
/// while the slice lives.
pub(crate) unsafe fn output<'a>(p: *mut u8, len: usize) -> Option<&'a mut [u8]> {
    if p.is_null() || len > isize::MAX as usize {
        return None;
    }
    // SAFETY: p is non-null and, by the caller's contract, valid for exclusive writes of len
    // bytes while the slice lives; len is at most isize::MAX.
    Some(unsafe { core::slice::from_raw_parts_mut(p, len) })
}

/// Copies `bytes` to `p[0..bytes.len()]`; `None` for a null `p`.
///
/// # Safety
///
/// A non-null `p` must be valid for writes of `bytes.len()` bytes that no other reference
/// reaches meanwhile.
pub(crate) unsafe fn write(p: *mut u8, bytes: &[u8]) -> Option<()> {
    // SAFETY: the caller's contract.
    unsafe { output(p, bytes.len()) }?.copy_from_slice(bytes);
    Some(())
}

/// Moves `len` bytes from `src` to `dst` (the regions may overlap, as with `memmove`).
///
/// # Safety
///
/// `src` must be valid for reads and `dst` for writes of `len` bytes; both non-null when
/// `len` is positive.
pub(crate) unsafe fn move_bytes(src: *const u8, dst: *mut u8, len: usize) {
    if len > 0 {
        // SAFETY: both regions are valid for len bytes (the caller's contract); ptr::copy
        // allows them to overlap.
        unsafe { core::ptr::copy(src, dst, len) };
    }
}
