//! The sampler's PRNG: ChaCha20 as the round-3 reference's `prng_init` / `prng_refill` /
//! `prng_get_u64` / `prng_get_u8` use it (Falcon round-3 reference, `rng.c`; not part of the
//! specification, but what the NIST KAT signatures were produced with).
//!
//! A refill computes eight ChaCha20 blocks whose counters are consecutive and stores their
//! output words interleaved: word v of block u is the little-endian `u32` at byte offset
//! 4 u + 32 v. That is a structure-of-arrays layout, so the eight blocks are computed in
//! parallel, one lane per block: [`refill_portable`] on `[[u32; 8]; 16]` (row v holds word v
//! of the eight blocks; each double round loops over the lanes innermost, which the compiler
//! runs on 128-bit vectors even for the x86-64 baseline), and on x86-64 with AVX2 its twin in
//! `chacha_avx2`, with one 256-bit vector per row (compiled a second time with AVX-512 VL for
//! the AVX-512 back end: 32 vector registers hold the whole state, rotations are single
//! instructions). All produce the same bytes (tested). The
//! back end is chosen once, when the PRNG is created (once per signing attempt), from
//! `pqlab_backend::selected()` (public information); `no_std` and other targets have only
//! the portable refill.

use pqlab_keccak::Shake256Reader;
use zeroize::{Zeroize, ZeroizeOnDrop};

/// The ChaCha20 constants "expand 32-byte k".
pub(super) const CW: [u32; 4] = [0x61707865, 0x3320646e, 0x79622d32, 0x6b206574];

/// The bytes of one refill: eight 64-byte blocks.
pub(super) const BUF_LEN: usize = 512;

/// The sampler's PRNG: eight ChaCha20 blocks per refill, interleaved word by word as in the
/// reference (`prng_refill`), over a state of 48 bytes of key and IV and a 64-bit counter.
#[derive(Zeroize, ZeroizeOnDrop)]
pub(crate) struct Prng {
    pub(super) buf: [u8; BUF_LEN],
    pub(super) ptr: usize,
    state: [u32; 12],
    pub(super) counter: u64,
    /// Which refill runs (chosen once in [`Prng::new`]; public).
    #[zeroize(skip)]
    lanes: Lanes,
}

impl Prng {
    /// `prng_init`: 56 bytes from SHAKE256; words 0..12 little-endian, then the counter as
    /// two little-endian words (low, high). The refill back end is `pqlab_backend::selected()`.
    pub(crate) fn new(src: &mut Shake256Reader) -> Prng {
        Prng::with_backend(src, pqlab_backend::selected())
    }

    /// [`Prng::new`] with the refill back end given (the AVX2 twin for the AVX2 back end, its
    /// AVX-512 VL build for the AVX-512 one; anything else is portable).
    pub(super) fn with_backend(src: &mut Shake256Reader, backend: pqlab_backend::Backend) -> Prng {
        let mut tmp = [0u8; 56];
        src.squeeze(&mut tmp);
        let mut state = [0u32; 12];
        for (i, w) in state.iter_mut().enumerate() {
            *w = u32::from_le_bytes([tmp[4 * i], tmp[4 * i + 1], tmp[4 * i + 2], tmp[4 * i + 3]]);
        }
        let lo = u32::from_le_bytes([tmp[48], tmp[49], tmp[50], tmp[51]]);
        let hi = u32::from_le_bytes([tmp[52], tmp[53], tmp[54], tmp[55]]);
        tmp.zeroize();
        let mut p = Prng {
            buf: [0; BUF_LEN],
            ptr: 0,
            state,
            counter: u64::from(lo) | (u64::from(hi) << 32),
            lanes: Lanes::of(backend),
        };
        p.refill();
        p
    }

    /// `prng_refill`: eight ChaCha20 blocks with counters cc..cc+8 xored into words 14, 15;
    /// the read position goes back to 0.
    #[inline(never)]
    fn refill(&mut self) {
        refill_on(self.lanes, &mut self.buf, &self.state, self.counter);
        self.counter = self.counter.wrapping_add(8);
        self.ptr = 0;
    }

    /// `prng_get_u64`: 8 bytes little-endian; refills first when fewer than 9 bytes remain.
    #[inline(always)]
    pub(super) fn next_u64(&mut self) -> u64 {
        let u = if self.ptr >= BUF_LEN - 9 {
            self.refill();
            0
        } else {
            self.ptr
        };
        // u <= BUF_LEN - 10: the slice is in bounds (no check emitted).
        self.ptr = u + 8;
        let mut b = [0u8; 8];
        b.copy_from_slice(&self.buf[u..u + 8]);
        u64::from_le_bytes(b)
    }

    /// `prng_get_u8`: one byte; refills when the buffer is used up.
    #[inline(always)]
    pub(super) fn next_u8(&mut self) -> u32 {
        // ptr < BUF_LEN always (a read that reaches the end refills); the mask only lets the
        // compiler drop the bounds check.
        let u = self.ptr & (BUF_LEN - 1);
        let v = self.buf[u];
        self.ptr = u + 1;
        if self.ptr == BUF_LEN {
            self.refill();
        }
        u32::from(v)
    }
}

const _: () = assert!(BUF_LEN.is_power_of_two());

/// The refill a PRNG runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Lanes {
    /// [`refill_portable`].
    Portable,
    /// The AVX2 twin.
    Avx2,
    /// The AVX2 twin compiled with AVX-512 F and VL.
    Avx512,
}

impl Lanes {
    /// The refill for `backend`: on x86-64, the AVX2 twin for the AVX2 back end and its AVX-512
    /// build for the AVX-512 one, when this CPU has them (always so for a back end that
    /// `pqlab_backend::selected()` returns; checked again here, a cached load); else portable.
    pub(super) fn of(backend: pqlab_backend::Backend) -> Lanes {
        if !cfg!(target_arch = "x86_64") || !backend.is_available() {
            return Lanes::Portable;
        }
        match backend {
            pqlab_backend::Backend::Avx2 => Lanes::Avx2,
            pqlab_backend::Backend::Avx512 => Lanes::Avx512,
            _ => Lanes::Portable,
        }
    }
}

/// The refill of `counter` into `buf` with `lanes` (whose SIMD values only [`Lanes::of`]
/// gives, after checking that the CPU has the features).
#[inline(always)]
fn refill_on(lanes: Lanes, buf: &mut [u8; BUF_LEN], state: &[u32; 12], counter: u64) {
    #[cfg(target_arch = "x86_64")]
    match lanes {
        Lanes::Avx2 => return super::chacha_avx2::refill_detected(buf, state, counter),
        Lanes::Avx512 => return super::chacha_avx2::refill_detected_avx512(buf, state, counter),
        Lanes::Portable => {}
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = lanes;
    refill_portable(buf, state, counter);
}

/// The refill under a given back end (for the equality tests).
#[cfg(test)]
pub(super) fn refill_with(
    backend: pqlab_backend::Backend,
    buf: &mut [u8; BUF_LEN],
    state: &[u32; 12],
    counter: u64,
) {
    assert!(backend.is_available());
    // Every SIMD back end runs a SIMD refill (so that the tests compare it).
    assert_eq!(
        Lanes::of(backend) != Lanes::Portable,
        cfg!(target_arch = "x86_64") && backend != pqlab_backend::Backend::Portable
    );
    refill_on(Lanes::of(backend), buf, state, counter);
}

/// One ChaCha20 quarter round on words a, b, c, d of one block.
#[inline(always)]
pub(super) fn qround(s: &mut [u32; 16], a: usize, b: usize, c: usize, d: usize) {
    s[a] = s[a].wrapping_add(s[b]);
    s[d] = (s[d] ^ s[a]).rotate_left(16);
    s[c] = s[c].wrapping_add(s[d]);
    s[b] = (s[b] ^ s[c]).rotate_left(12);
    s[a] = s[a].wrapping_add(s[b]);
    s[d] = (s[d] ^ s[a]).rotate_left(8);
    s[c] = s[c].wrapping_add(s[d]);
    s[b] = (s[b] ^ s[c]).rotate_left(7);
}

/// One ChaCha20 double round (a column round, then a diagonal round) on each of the eight
/// blocks (lanes) of `x`. The loop over the lanes is the innermost one and reads and writes
/// each row contiguously, so the compiler runs it on vectors of lanes.
#[inline(always)]
fn double_round(x: &mut [[u32; 8]; 16]) {
    for l in 0..8 {
        let mut s: [u32; 16] = core::array::from_fn(|v| x[v][l]);
        qround(&mut s, 0, 4, 8, 12);
        qround(&mut s, 1, 5, 9, 13);
        qround(&mut s, 2, 6, 10, 14);
        qround(&mut s, 3, 7, 11, 15);
        qround(&mut s, 0, 5, 10, 15);
        qround(&mut s, 1, 6, 11, 12);
        qround(&mut s, 2, 7, 8, 13);
        qround(&mut s, 3, 4, 9, 14);
        for (row, w) in x.iter_mut().zip(s) {
            row[l] = w;
        }
    }
}

/// The initial state of the eight blocks of a refill, row by row: the constants, the 48
/// bytes of key and IV (words 4 to 15), and the counter cc + u of block u xored into words 14
/// (low half) and 15 (high half).
#[inline(always)]
pub(super) fn initial_rows(state: &[u32; 12], counter: u64) -> [[u32; 8]; 16] {
    let mut x = [[0u32; 8]; 16];
    for (v, row) in x.iter_mut().enumerate() {
        let w = if v < 4 { CW[v] } else { state[v - 4] };
        *row = [w; 8];
    }
    for u in 0..8 {
        let cc = counter.wrapping_add(u as u64);
        x[14][u] ^= cc as u32;
        x[15][u] ^= (cc >> 32) as u32;
    }
    x
}

/// `prng_refill`, portable: the eight blocks of counters `counter` to `counter + 7`, one lane
/// each, written interleaved into `buf` (word v of block u at byte 4 u + 32 v).
pub(super) fn refill_portable(buf: &mut [u8; BUF_LEN], state: &[u32; 12], counter: u64) {
    let mut init = initial_rows(state, counter);
    let mut x = init;
    for _ in 0..10 {
        double_round(&mut x);
    }
    for (v, (row, irow)) in x.iter().zip(init.iter()).enumerate() {
        for u in 0..8 {
            let o = 4 * u + 32 * v;
            buf[o..o + 4].copy_from_slice(&row[u].wrapping_add(irow[u]).to_le_bytes());
        }
    }
    x.zeroize();
    init.zeroize();
}
