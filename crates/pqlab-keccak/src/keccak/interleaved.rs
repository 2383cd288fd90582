//! Keccak-f\[1600\] (FIPS 202, Algorithm 7) on 32-bit words, for targets with 32-bit registers
//! (the Cortex-M4).
//!
//! Bit interleaving (Keccak team, "Keccak implementation overview" v3.2, Section 2.1): each
//! 64-bit lane is kept as two 32-bit words, `e` holding the lane's even-numbered bits (bit 2j of
//! the lane is bit j of `e`) and `o` its odd-numbered ones (bit 2j + 1 is bit j of `o`). XOR, AND,
//! OR and NOT act on the two words separately, and a 64-bit rotation becomes two 32-bit
//! rotations: by r = 2k, `e` and `o` each rotate by k; by r = 2k + 1, the new `e` is `o` rotated
//! by k + 1 and the new `o` is `e` rotated by k. On a 32-bit core that is two rotations (which
//! the Cortex-M4 folds into the next logical instruction's operand) where the 64-bit lane
//! split over two registers needs four shifts and two ORs.
//!
//! A state in this form is stored as `[u64; 25]`, lane `A[i]` as `e | o << 32` (on a 32-bit
//! target the `u64` is just the register pair). [`to_interleaved`] and [`from_interleaved`]
//! convert one lane; [`permute`] runs the 24 rounds on a state in this form.

use super::{COMPLEMENTED, RC};

/// Moves the even-numbered bits of `x` to its low half and the odd-numbered bits to its high
/// half, in bit order (Hacker's Delight, 7-2: four exchanges of bit groups, `delta_swap`).
#[inline(always)]
const fn unshuffle(mut x: u32) -> u32 {
    x = delta_swap(x, 0x2222_2222, 1);
    x = delta_swap(x, 0x0C0C_0C0C, 2);
    x = delta_swap(x, 0x00F0_00F0, 4);
    delta_swap(x, 0x0000_FF00, 8)
}

/// The inverse of [`unshuffle`]: the low half to the even-numbered bits, the high half to the
/// odd-numbered ones (the same exchanges in reverse order).
#[inline(always)]
const fn shuffle(mut x: u32) -> u32 {
    x = delta_swap(x, 0x0000_FF00, 8);
    x = delta_swap(x, 0x00F0_00F0, 4);
    x = delta_swap(x, 0x0C0C_0C0C, 2);
    delta_swap(x, 0x2222_2222, 1)
}

/// Exchanges the bits of `x` selected by `mask` with those `shift` places above them (`mask`
/// and `mask << shift` disjoint). Data-independent: shifts, ANDs and XORs only.
#[inline(always)]
const fn delta_swap(x: u32, mask: u32, shift: u32) -> u32 {
    let t = (x ^ (x >> shift)) & mask;
    x ^ t ^ (t << shift)
}

/// A standard little-endian lane (FIPS 202, Section 3.1.2) in bit-interleaved form: its even
/// bits in the low 32 bits of the result, its odd bits in the high 32.
#[inline(always)]
pub(crate) const fn to_interleaved(lane: u64) -> u64 {
    let lo = unshuffle(lane as u32);
    let hi = unshuffle((lane >> 32) as u32);
    let e = (lo & 0xFFFF) | (hi << 16);
    let o = (lo >> 16) | (hi & 0xFFFF_0000);
    e as u64 | (o as u64) << 32
}

/// The inverse of [`to_interleaved`]: a lane in bit-interleaved form back in standard form.
#[inline(always)]
pub(crate) const fn from_interleaved(lane: u64) -> u64 {
    let e = lane as u32;
    let o = (lane >> 32) as u32;
    let lo = shuffle((e & 0xFFFF) | (o << 16));
    let hi = shuffle((e >> 16) | (o & 0xFFFF_0000));
    lo as u64 | (hi as u64) << 32
}

/// The round constants [`RC`] in bit-interleaved form, computed at compile time.
const RC_INTERLEAVED: [u64; 24] = {
    let mut t = [0u64; 24];
    let mut i = 0;
    while i < 24 {
        t[i] = to_interleaved(RC[i]);
        i += 1;
    }
    t
};

/// One lane in bit-interleaved form, as its two words.
#[derive(Clone, Copy)]
struct Lane {
    /// The even-numbered bits.
    e: u32,
    /// The odd-numbered bits.
    o: u32,
}

impl Lane {
    #[inline(always)]
    fn load(w: u64) -> Self {
        Self {
            e: w as u32,
            o: (w >> 32) as u32,
        }
    }

    #[inline(always)]
    fn store(self) -> u64 {
        u64::from(self.e) | u64::from(self.o) << 32
    }

    /// The lane rotated left by `R` bits (0 <= R < 64), as a 64-bit lane would be.
    #[inline(always)]
    fn rotl<const R: u32>(self) -> Self {
        if R.is_multiple_of(2) {
            Self {
                e: self.e.rotate_left(R / 2),
                o: self.o.rotate_left(R / 2),
            }
        } else {
            Self {
                e: self.o.rotate_left(R / 2 + 1),
                o: self.e.rotate_left(R / 2),
            }
        }
    }
}

impl core::ops::BitXor for Lane {
    type Output = Self;
    #[inline(always)]
    fn bitxor(self, r: Self) -> Self {
        Self {
            e: self.e ^ r.e,
            o: self.o ^ r.o,
        }
    }
}

impl core::ops::BitAnd for Lane {
    type Output = Self;
    #[inline(always)]
    fn bitand(self, r: Self) -> Self {
        Self {
            e: self.e & r.e,
            o: self.o & r.o,
        }
    }
}

impl core::ops::BitOr for Lane {
    type Output = Self;
    #[inline(always)]
    fn bitor(self, r: Self) -> Self {
        Self {
            e: self.e | r.e,
            o: self.o | r.o,
        }
    }
}

impl core::ops::Not for Lane {
    type Output = Self;
    #[inline(always)]
    fn not(self) -> Self {
        Self {
            e: !self.e,
            o: !self.o,
        }
    }
}

/// theta's D\[x\] (FIPS 202, Algorithm 1): C\[x\] = the parity of column x; D\[x\] = C\[x-1\] ^
/// rot(C\[x+1\], 1).
///
/// A function of its own, and each column's parity passed through `black_box` (an empty
/// assembly block that the compiler must assume reads and writes memory), so that the compiler
/// loads each column's lanes just before XORing them: without the barriers it hoists all 50
/// loads to the top and spills most of them (about 60 more instructions per round on the
/// Cortex-M4). The barriers only order the code; the result is the same.
#[inline(never)]
fn theta(a: &[u64; 25]) -> [Lane; 5] {
    use core::hint::black_box;
    let l = |i: usize| Lane::load(a[i]);
    let c0 = black_box(l(0) ^ l(5) ^ l(10) ^ l(15) ^ l(20));
    let c1 = black_box(l(1) ^ l(6) ^ l(11) ^ l(16) ^ l(21));
    let c2 = black_box(l(2) ^ l(7) ^ l(12) ^ l(17) ^ l(22));
    let c3 = black_box(l(3) ^ l(8) ^ l(13) ^ l(18) ^ l(23));
    let c4 = l(4) ^ l(9) ^ l(14) ^ l(19) ^ l(24);
    [
        c4 ^ c1.rotl::<1>(),
        c0 ^ c2.rotl::<1>(),
        c1 ^ c3.rotl::<1>(),
        c2 ^ c4.rotl::<1>(),
        c3 ^ c0.rotl::<1>(),
    ]
}

/// One round of Keccak-f\[1600\] (FIPS 202, Algorithm 7, step 2: Rnd = iota . chi . pi . rho .
/// theta) on bit-interleaved lanes, from `a` into `e`, with the interleaved round constant `rc`.
///
/// The order of the 64-bit [`round`](super::round): theta's D ([`theta`]), then the output row
/// by row, each row's five input lanes going through theta's XOR, rho (Algorithm 2) and pi
/// (Algorithm 3) straight into chi (Algorithm 4), with the same complemented lanes (lane
/// complementing: one NOT per row). Not inlined, so that both states stay in memory and each
/// lane is loaded where it is used, and a `black_box` barrier between rows keeps the compiler
/// from hoisting the next row's loads (fewer spills; see [`theta`]).
#[inline(never)]
fn round(a: &[u64; 25], e: &mut [u64; 25], rc: Lane) {
    let [d0, d1, d2, d3, d4] = theta(a);
    let l = |i: usize| Lane::load(a[i]);

    // Row 0: A[0], A[6], A[12], A[18], A[24] (pi: B[y + 5((2x + 3y) mod 5)] =
    // rot(A[x + 5y] ^ D[x], r[x][y])), then chi and iota (Algorithm 6).
    let b0 = l(0) ^ d0;
    let b1 = (l(6) ^ d1).rotl::<44>();
    let b2 = (l(12) ^ d2).rotl::<43>();
    let b3 = (l(18) ^ d3).rotl::<21>();
    let b4 = (l(24) ^ d4).rotl::<14>();
    e[0] = (b0 ^ (b1 | b2) ^ rc).store();
    e[1] = (b1 ^ (!b2 | b3)).store();
    e[2] = (b2 ^ (b3 & b4)).store();
    e[3] = (b3 ^ (b4 | b0)).store();
    e[4] = (b4 ^ (b0 & b1)).store();

    core::hint::black_box(());

    // Row 1: A[3], A[9], A[10], A[16], A[22].
    let b0 = (l(3) ^ d3).rotl::<28>();
    let b1 = (l(9) ^ d4).rotl::<20>();
    let b2 = (l(10) ^ d0).rotl::<3>();
    let b3 = (l(16) ^ d1).rotl::<45>();
    let b4 = (l(22) ^ d2).rotl::<61>();
    e[5] = (b0 ^ (b1 | b2)).store();
    e[6] = (b1 ^ (b2 & b3)).store();
    e[7] = (b2 ^ (b3 | !b4)).store();
    e[8] = (b3 ^ (b4 | b0)).store();
    e[9] = (b4 ^ (b0 & b1)).store();

    core::hint::black_box(());

    // Row 2: A[1], A[7], A[13], A[19], A[20].
    let b0 = (l(1) ^ d1).rotl::<1>();
    let b1 = (l(7) ^ d2).rotl::<6>();
    let b2 = (l(13) ^ d3).rotl::<25>();
    let b3 = (l(19) ^ d4).rotl::<8>();
    let b4 = (l(20) ^ d0).rotl::<18>();
    e[10] = (b0 ^ (b1 | b2)).store();
    e[11] = (b1 ^ (b2 & b3)).store();
    e[12] = (b2 ^ (!b3 & b4)).store();
    e[13] = (!b3 ^ (b4 | b0)).store();
    e[14] = (b4 ^ (b0 & b1)).store();

    core::hint::black_box(());

    // Row 3: A[4], A[5], A[11], A[17], A[23].
    let b0 = (l(4) ^ d4).rotl::<27>();
    let b1 = (l(5) ^ d0).rotl::<36>();
    let b2 = (l(11) ^ d1).rotl::<10>();
    let b3 = (l(17) ^ d2).rotl::<15>();
    let b4 = (l(23) ^ d3).rotl::<56>();
    e[15] = (b0 ^ (b1 & b2)).store();
    e[16] = (b1 ^ (b2 | b3)).store();
    e[17] = (b2 ^ (!b3 | b4)).store();
    e[18] = (!b3 ^ (b4 & b0)).store();
    e[19] = (b4 ^ (b0 | b1)).store();

    core::hint::black_box(());

    // Row 4: A[2], A[8], A[14], A[15], A[21].
    let b0 = (l(2) ^ d2).rotl::<62>();
    let b1 = (l(8) ^ d3).rotl::<55>();
    let b2 = (l(14) ^ d4).rotl::<39>();
    let b3 = (l(15) ^ d0).rotl::<41>();
    let b4 = (l(21) ^ d1).rotl::<2>();
    e[20] = (b0 ^ (!b1 & b2)).store();
    e[21] = (!b1 ^ (b2 | b3)).store();
    e[22] = (b2 ^ (b3 & b4)).store();
    e[23] = (b3 ^ (b4 | b0)).store();
    e[24] = (b4 ^ (b0 & b1)).store();
}

/// FIPS 202, Algorithm 7: KECCAK-p\[1600, 24\] on a state whose lanes are in bit-interleaved
/// form (see the module documentation): 24 [`round`]s, `a -> t -> a`. The lanes of
/// [`COMPLEMENTED`] are complemented on the way in and out, as in the 64-bit permutation
/// (complementing a lane complements both of its words).
pub(crate) fn permute(a: &mut [u64; 25]) {
    let _k = pqlab_profile::enter(pqlab_profile::Kernel::Keccak);
    for i in COMPLEMENTED {
        a[i] = !a[i];
    }
    let mut t = [0u64; 25];
    for rc in RC_INTERLEAVED.chunks_exact(2) {
        round(a, &mut t, Lane::load(rc[0]));
        round(&t, a, Lane::load(rc[1]));
    }
    for i in COMPLEMENTED {
        a[i] = !a[i];
    }
}

/// FIPS 202, Algorithm 7: KECCAK-p\[1600, 24\] on a state in standard form, through the
/// bit-interleaved form: each lane converted in, [`permute`], each lane converted back.
pub(crate) fn keccak_f1600(a: &mut [u64; 25]) {
    for w in a.iter_mut() {
        *w = to_interleaved(*w);
    }
    permute(a);
    for w in a.iter_mut() {
        *w = from_interleaved(*w);
    }
}

#[cfg(test)]
mod tests {
    use rand::rngs::StdRng;
    use rand::{RngCore, SeedableRng};

    use super::{from_interleaved, keccak_f1600, to_interleaved};
    use crate::keccak::permute as permute64;

    /// The bit-by-bit definition of the interleaved form: bit 2j to bit j, bit 2j + 1 to bit
    /// 32 + j.
    fn interleave_by_bits(x: u64) -> u64 {
        (0..64).fold(0, |acc, i| {
            let bit = (x >> i) & 1;
            let at = if i % 2 == 0 { i / 2 } else { 32 + i / 2 };
            acc | bit << at
        })
    }

    #[test]
    fn conversion_is_the_bit_interleaving_and_its_inverse() {
        let mut rng = StdRng::seed_from_u64(0x0123_4567_89AB_CDEF);
        for i in 0..2000 {
            // Random lanes, and every single bit.
            let w = if i < 64 { 1 << i } else { rng.next_u64() };
            let t = to_interleaved(w);
            assert_eq!(t, interleave_by_bits(w), "lane {w:#018x}");
            assert_eq!(from_interleaved(t), w);
        }
        // Bit 63 (odd, j = 31) is the odd word's top bit.
        assert_eq!(to_interleaved(1 << 63), 1 << 63);
    }

    #[test]
    fn equals_the_64_bit_permutation_on_random_states() {
        let mut rng = StdRng::seed_from_u64(0x9E37_79B9_7F4A_7C15);
        for _ in 0..300 {
            let s: [u64; 25] = core::array::from_fn(|_| rng.next_u64());
            let mut want = s;
            permute64(&mut want);
            let mut got = s;
            keccak_f1600(&mut got);
            assert_eq!(got, want);
        }
        // And the zero state (Keccak team's KeccakF-1600 test values).
        let mut a = [0u64; 25];
        keccak_f1600(&mut a);
        assert_eq!(a[0], 0xF125_8F79_40E1_DDE7);
        assert_eq!(a[24], 0xEAF1_FF7B_5CEC_A249);
    }
}
