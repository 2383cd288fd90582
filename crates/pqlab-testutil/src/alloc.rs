//! A counting global allocator, for the tests that show a library never touches the heap.
//!
//! A test binary installs it and measures with [`count_allocs`] or [`no_alloc`]:
//!
//! ```
//! use pqlab_testutil::alloc::{CountingAlloc, count_allocs, no_alloc};
//!
//! #[global_allocator]
//! static GLOBAL: CountingAlloc = CountingAlloc;
//!
//! fn main() {
//!     assert_eq!(no_alloc("addition", "example", || 2 + 2), 4);
//!     let (v, n) = count_allocs(|| vec![1u8; 10]);
//!     assert_eq!((v.len(), n), (10, 1));
//! }
//! ```
//!
//! Only allocations (alloc, alloc_zeroed, realloc) made by the current thread while a
//! measurement is running are counted (a thread-local flag), so the test harness's own
//! allocations on other threads, and the test's setup code, do not disturb the result. [`self_check`] shows that the instrument works;
//! [`count_allocs`] also refuses to measure in a binary that did not install the allocator, so
//! that a forgotten `#[global_allocator]` cannot make every measurement read zero.
// A global allocator is an `unsafe impl`; this module holds the only unsafe code of the tests.
#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::hint::black_box;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// Allocations (alloc, alloc_zeroed, realloc) made by measured sections, over all threads.
static TOTAL: AtomicUsize = AtomicUsize::new(0);

/// Whether [`CountingAlloc`] has served any allocation, i.e. is the global allocator.
static INSTALLED: AtomicBool = AtomicBool::new(false);

thread_local! {
    /// Whether this thread is inside a measured section.
    static ACTIVE: Cell<bool> = const { Cell::new(false) };
    /// Allocations this thread made inside measured sections.
    static COUNT: Cell<usize> = const { Cell::new(0) };
}

/// The counting allocator: forwards everything to [`System`] and counts the allocations made
/// inside measured sections.
#[derive(Clone, Copy, Debug, Default)]
pub struct CountingAlloc;

impl CountingAlloc {
    fn note() {
        INSTALLED.store(true, Ordering::Relaxed);
        // `try_with`: during thread teardown the thread-locals may be gone; then nothing is
        // being measured. Const-initialized `Cell` thread-locals never allocate.
        let active = ACTIVE.try_with(Cell::get).unwrap_or(false);
        if active {
            let _ = COUNT.try_with(|c| c.set(c.get() + 1));
            TOTAL.fetch_add(1, Ordering::Relaxed);
        }
    }
}

// SAFETY: every method forwards to `System` with the caller's arguments unchanged, so the
// `GlobalAlloc` contract holds exactly as it does for `System`; counting touches no memory that
// the allocator hands out.
unsafe impl GlobalAlloc for CountingAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        Self::note();
        // SAFETY: same contract as our caller's.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        Self::note();
        // SAFETY: same contract as our caller's.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        Self::note();
        // SAFETY: same contract as our caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as our caller's.
        unsafe { System.dealloc(ptr, layout) }
    }
}

/// Runs `f` on this thread and returns its result with the number of heap allocations it made.
///
/// Panics unless [`CountingAlloc`] is the global allocator of this binary.
pub fn count_allocs<T>(f: impl FnOnce() -> T) -> (T, usize) {
    assert!(
        INSTALLED.load(Ordering::Relaxed),
        "CountingAlloc is not the global allocator: add \
         `#[global_allocator] static GLOBAL: CountingAlloc = CountingAlloc;` to the test file"
    );
    COUNT.with(|c| c.set(0));
    ACTIVE.with(|a| a.set(true));
    let out = black_box(f());
    ACTIVE.with(|a| a.set(false));
    (out, COUNT.with(Cell::get))
}

/// Runs `f`, asserts that it allocated nothing, and returns its result. `what` names the
/// operation and `name` the parameter set (or variant) in the failure message.
#[track_caller]
pub fn no_alloc<T>(what: &str, name: &str, f: impl FnOnce() -> T) -> T {
    let (out, n) = count_allocs(f);
    assert_eq!(n, 0, "{name}: {what} made {n} heap allocation(s)");
    out
}

/// The instrument works: a measured allocation is seen, an empty section counts zero, and the
/// total over all threads has moved. Call it from a `#[test]` of every binary that installs
/// [`CountingAlloc`].
pub fn self_check() {
    let (v, n) = count_allocs(|| Vec::<u8>::with_capacity(100));
    drop(v);
    assert_eq!(n, 1);
    let ((), n) = count_allocs(|| ());
    assert_eq!(n, 0);
    assert!(TOTAL.load(Ordering::Relaxed) >= 1);
}
