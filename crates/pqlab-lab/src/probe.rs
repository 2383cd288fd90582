//! The instruments of DESIGN §6: the fenced time-stamp counter, the painted-stack probe and the
//! counting global allocator. This module holds the lab's only `unsafe` code, each block with
//! its `SAFETY:` argument.
#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::hint::black_box;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::LabError;

/// Reads the time-stamp counter between load fences, so that the read neither moves ahead of
/// earlier instructions nor lets later ones start first. `None` off x86-64.
///
/// The TSC counts at a fixed (nominal) rate, not core clock cycles: under frequency scaling the
/// two differ; the report says so.
#[inline(always)]
pub fn tsc() -> Option<u64> {
    #[cfg(target_arch = "x86_64")]
    {
        use core::arch::x86_64::{_mm_lfence, _rdtsc};
        // SAFETY: `lfence` and `rdtsc` exist on every x86-64 processor (SSE2 is part of the
        // x86-64 baseline) and touch no memory.
        #[allow(unused_unsafe)]
        let t = unsafe {
            _mm_lfence();
            let t = _rdtsc();
            _mm_lfence();
            t
        };
        Some(t)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        None
    }
}

/// The TSC rate in Hz, estimated against the monotonic clock over `over`.
pub fn tsc_hz(over: Duration) -> Option<f64> {
    let (t0, c0) = (Instant::now(), tsc()?);
    while t0.elapsed() < over {
        std::hint::spin_loop();
    }
    let (dt, c1) = (t0.elapsed(), tsc()?);
    Some((c1.wrapping_sub(c0)) as f64 / dt.as_secs_f64())
}

/// Bytes of stack the probe paints below its caller's frame.
const PAINT_BYTES: usize = 1 << 20;
const PAINT_WORDS: usize = PAINT_BYTES / 8;
const PATTERN: u64 = 0x5A5A_A5A5_C3C3_3C3C;

/// Fills a [`PAINT_BYTES`] frame below the caller with [`PATTERN`] and returns its lowest
/// address.
#[inline(never)]
fn paint() -> usize {
    let mut area = [PATTERN; PAINT_WORDS];
    black_box(&mut area);
    area.as_ptr() as usize
}

/// The number of bytes of the painted area at `base` (as [`paint`] returned it) that were
/// overwritten since, counted from its top: the area is scanned upwards from its bottom for the
/// end of the intact pattern. The scan runs in a small frame, so it disturbs nothing it reads.
#[inline(never)]
fn used_above(base: usize) -> usize {
    let base = base as *const u64;
    let mut n = 0;
    while n < PAINT_WORDS {
        // SAFETY: `base + n` lies in the thread stack area that `paint`'s frame occupied, which
        // stays mapped for the life of the thread and lies below this frame (the stack grows
        // down), so reading it disturbs nothing; it is aligned for u64, and a volatile read of
        // a plain integer has no invalid bit patterns.
        let w = unsafe { std::ptr::read_volatile(base.add(n)) };
        if w != PATTERN {
            break;
        }
        n += 1;
    }
    PAINT_BYTES - 8 * n
}

/// The peak stack use of `f`, in bytes: `f` runs on a fresh thread whose stack is painted with
/// a pattern first; afterwards the deepest overwritten word gives the depth. The probe's own
/// frame overhead is measured with an empty closure and subtracted. At most about 1 MiB can be
/// seen.
pub fn peak_stack<F: FnOnce() + Send>(f: F) -> Result<usize, LabError> {
    fn depth<F: FnOnce() + Send>(f: F) -> Result<usize, LabError> {
        std::thread::scope(|s| {
            std::thread::Builder::new()
                .stack_size(PAINT_BYTES + (4 << 20))
                .spawn_scoped(s, || {
                    let base = paint();
                    f();
                    used_above(base)
                })
                .map_err(|e| LabError::Implementation(format!("stack probe thread: {e}")))?
                .join()
                .map_err(|_| LabError::Implementation("the measured operation panicked".into()))
        })
    }
    let base = depth(|| {})?;
    Ok(depth(f)?.saturating_sub(base))
}

/// Whether [`CountingAlloc`] is the global allocator (it has served an allocation).
static INSTALLED: AtomicBool = AtomicBool::new(false);

thread_local! {
    static ACTIVE: Cell<bool> = const { Cell::new(false) };
    static COUNT: Cell<u64> = const { Cell::new(0) };
    static BYTES: Cell<u64> = const { Cell::new(0) };
}

/// A global allocator that forwards to [`System`] and counts the allocations and bytes that the
/// current thread makes inside [`count_heap`]. The `pqlab` binary installs it.
#[derive(Clone, Copy, Debug, Default)]
pub struct CountingAlloc;

impl CountingAlloc {
    fn note(size: usize) {
        INSTALLED.store(true, Ordering::Relaxed);
        if ACTIVE.try_with(Cell::get).unwrap_or(false) {
            let _ = COUNT.try_with(|c| c.set(c.get() + 1));
            let _ = BYTES.try_with(|c| c.set(c.get() + size as u64));
        }
    }
}

// SAFETY: every method forwards to `System` with the caller's arguments unchanged, so the
// `GlobalAlloc` contract holds as it does for `System`; counting touches only thread-locals
// that are const-initialised and never allocate.
unsafe impl GlobalAlloc for CountingAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        Self::note(layout.size());
        // SAFETY: the caller's contract is the same as `System.alloc`'s.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        Self::note(layout.size());
        // SAFETY: as for `alloc`.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        Self::note(new_size);
        // SAFETY: as for `alloc`; `ptr` and `layout` come from our caller unchanged.
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: as for `alloc`.
        unsafe { System.dealloc(ptr, layout) }
    }
}

/// Heap use of one call: allocations and bytes requested.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HeapUse {
    /// Number of allocations (alloc, alloc_zeroed, realloc).
    pub allocations: u64,
    /// Bytes requested by them.
    pub bytes: u64,
}

/// Runs `f` and counts what it allocates on this thread; `None` for the count when
/// [`CountingAlloc`] is not the global allocator (then nothing can be counted).
pub fn count_heap<T>(f: impl FnOnce() -> T) -> (T, Option<HeapUse>) {
    // Make sure an installed allocator has announced itself.
    drop(black_box(Box::new(0u8)));
    COUNT.set(0);
    BYTES.set(0);
    ACTIVE.set(true);
    let out = f();
    ACTIVE.set(false);
    let used = HeapUse {
        allocations: COUNT.get(),
        bytes: BYTES.get(),
    };
    (out, INSTALLED.load(Ordering::Relaxed).then_some(used))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[inline(never)]
    fn recurse(n: usize) -> u64 {
        let mut buf = [n as u64; 64]; // 512 bytes per level
        black_box(&mut buf);
        if n == 0 {
            buf[3]
        } else {
            recurse(n - 1) + buf[7]
        }
    }

    #[test]
    fn the_stack_probe_sees_a_known_depth() {
        let small = peak_stack(|| {
            black_box(recurse(black_box(10)));
        })
        .unwrap();
        let big = peak_stack(|| {
            black_box(recurse(black_box(200)));
        })
        .unwrap();
        // 190 more levels of at least 512 bytes each.
        assert!(big >= small + 190 * 512, "small {small}, big {big}");
        assert!(big < 190 * 2048 + small, "small {small}, big {big}");
        assert!(small >= 10 * 512);
    }

    #[test]
    fn the_tsc_advances() {
        if let Some(hz) = tsc_hz(Duration::from_millis(20)) {
            assert!(hz > 1e8, "{hz}");
        }
    }
}
