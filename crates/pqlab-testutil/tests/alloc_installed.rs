//! The counting allocator, installed: its self-check passes and a measurement sees exactly the
//! allocations of the measured section.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use pqlab_testutil::alloc::{CountingAlloc, count_allocs, no_alloc, self_check};

#[global_allocator]
static GLOBAL: CountingAlloc = CountingAlloc;

#[test]
fn self_check_passes() {
    self_check();
}

#[test]
fn counts_allocations_and_reallocations() {
    let (v, n) = count_allocs(|| {
        let mut v = Vec::<u64>::with_capacity(1);
        v.extend(0..100);
        v
    });
    assert_eq!(v.len(), 100);
    assert!(
        n >= 2,
        "an allocation and at least one reallocation, got {n}"
    );
    let x = no_alloc("arithmetic", "test", || 6 * 7);
    assert_eq!(x, 42);
}

#[test]
#[should_panic(expected = "made 1 heap allocation(s)")]
fn no_alloc_fails_on_an_allocation() {
    no_alloc("Box::new", "test", || Box::new(1u8));
}
