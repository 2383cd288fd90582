//! Without `#[global_allocator]` a measurement refuses to run, rather than reading zero.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[test]
#[should_panic(expected = "CountingAlloc is not the global allocator")]
fn measuring_without_the_allocator_fails() {
    let _ = pqlab_testutil::alloc::count_allocs(|| Vec::<u8>::with_capacity(8));
}
