//! Signed big integers for NTRUSolve: little-endian 32-bit words in two's complement, each
//! integer a fixed-length word slice (the length is chosen by the caller from a bound on the
//! value). Only what NTRUSolve needs: reduction modulo a small prime, Garner's CRT
//! reconstruction, the extended GCD of the deepest level, multiply-and-subtract with a shift
//! for Babai's reduction, and conversion to floating point.

use super::modp::{Modp, PRIMES, inv_mod_2_32};
use crate::fpr::Fpr;

/// Whether x is negative.
#[inline(always)]
pub(crate) fn is_neg(x: &[u32]) -> bool {
    x[x.len() - 1] >> 31 == 1
}

/// The sign-extension word of x (all ones if negative).
#[inline(always)]
fn sign_word(x: &[u32]) -> u32 {
    0u32.wrapping_sub(x[x.len() - 1] >> 31)
}

/// The number of significant bits of |x| (of -x - 1 for negative x; 0 for 0 and -1).
pub(crate) fn bitlen(x: &[u32]) -> u32 {
    let s = sign_word(x);
    for (i, &w) in x.iter().enumerate().rev() {
        let w = w ^ s;
        if w != 0 {
            return 32 * i as u32 + (32 - w.leading_zeros());
        }
    }
    0
}

/// Copies x into y, sign-extending or truncating; returns false if x does not fit in y.
pub(crate) fn copy_resize(y: &mut [u32], x: &[u32]) -> bool {
    let s = sign_word(x);
    let k = y.len().min(x.len());
    y[..k].copy_from_slice(&x[..k]);
    for w in y.iter_mut().skip(k) {
        *w = s;
    }
    // Dropped words must be sign words, and the sign must survive.
    x.iter().skip(k).all(|&w| w == s) && sign_word(y) == s
}

/// Reduces x modulo 2^bits into the signed range (bits >= 1): keeps the low `bits` bits and
/// sign-extends from bit bits - 1 (the reference's view of an integer kept in fewer words).
pub(crate) fn wrap_signed(x: &mut [u32], bits: u32) {
    let (wi, bi) = (((bits - 1) / 32) as usize, (bits - 1) % 32);
    if wi >= x.len() {
        return;
    }
    let top = x[wi] << (31 - bi);
    let sign = 0u32.wrapping_sub(top >> 31);
    x[wi] = ((top as i32) >> (31 - bi)) as u32;
    for w in x.iter_mut().skip(wi + 1) {
        *w = sign;
    }
}

/// x mod p for the signed integer x.
pub(crate) fn mod_small_signed(x: &[u32], m: &Modp) -> u32 {
    let r2 = m.r2();
    let mut r = 0;
    // 2^(32 len) mod p, subtracted when x is negative.
    let mut t = 1;
    for &w in x.iter().rev() {
        r = m.add(m.mmul(r, r2), m.reduce_word(w));
        t = m.mmul(t, r2);
    }
    m.sub(r, t & sign_word(x))
}

/// x mod p for the unsigned integer x.
fn mod_small_unsigned(x: &[u32], m: &Modp) -> u32 {
    let r2 = m.r2();
    let mut r = 0;
    for &w in x.iter().rev() {
        r = m.add(m.mmul(r, r2), m.reduce_word(w));
    }
    r
}

/// x += y k (unsigned, equal lengths); returns the carry out.
fn add_mul_small(x: &mut [u32], y: &[u32], k: u32) -> u32 {
    let mut cc = 0u64;
    for (a, &b) in x.iter_mut().zip(y) {
        let z = u64::from(*a) + u64::from(b) * u64::from(k) + cc;
        *a = z as u32;
        cc = z >> 32;
    }
    cc as u32
}

/// x *= k (unsigned); returns the carry out.
pub(crate) fn mul_small(x: &mut [u32], k: u32) -> u32 {
    let mut cc = 0u64;
    for a in x.iter_mut() {
        let z = u64::from(*a) * u64::from(k) + cc;
        *a = z as u32;
        cc = z >> 32;
    }
    cc as u32
}

/// x -= y (equal lengths, wrapping); returns the borrow.
fn sub_in_place(x: &mut [u32], y: &[u32]) -> u32 {
    let mut b = 0u32;
    for (a, &c) in x.iter_mut().zip(y) {
        let (d1, o1) = a.overflowing_sub(c);
        let (d2, o2) = d1.overflowing_sub(b);
        *a = d2;
        b = u32::from(o1 | o2);
    }
    b
}

/// Compares unsigned integers of equal length.
fn cmp(x: &[u32], y: &[u32]) -> core::cmp::Ordering {
    for (a, b) in x.iter().rev().zip(y.iter().rev()) {
        if a != b {
            return a.cmp(b);
        }
    }
    core::cmp::Ordering::Equal
}

/// x = -x (two's complement).
fn negate(x: &mut [u32]) {
    let mut cc = 1u32;
    for w in x.iter_mut() {
        let (v, o) = (!*w).overflowing_add(cc);
        *w = v;
        cc = u32::from(o);
    }
}

/// Garner's CRT: writes into x the signed integer in (-M/2, M/2], M = p_0 ... p_(k-1), whose
/// residues modulo `PRIMES[j]` are `r[j]` (k = r.len()). `tmp` holds at least 3 (len + 3)
/// words where len = x.len(); returns false if the value does not fit in x.
pub(crate) fn crt_rebuild(x: &mut [u32], r: &[u32], tmp: &mut [u32]) -> bool {
    let len = x.len() + 3;
    let (acc, rest) = tmp.split_at_mut(len);
    let (big_m, rest) = rest.split_at_mut(len);
    let d = &mut rest[..len];
    acc.fill(0);
    big_m.fill(0);
    acc[0] = r[0];
    big_m[0] = PRIMES[0].p;
    // Number of words in use in acc and M (M has at most one more word per prime).
    let mut used = 1;
    for (j, &rj) in r.iter().enumerate().skip(1) {
        let sp = PRIMES[j];
        let m = sp.m;
        let xm = mod_small_unsigned(&acc[..used], &m);
        let t = m.mul(m.sub(rj, xm), sp.s);
        let w = (used + 1).min(len);
        let c = add_mul_small(&mut acc[..w], &big_m[..w], t);
        let c2 = mul_small(&mut big_m[..w], sp.p);
        if c != 0 || c2 != 0 {
            return false;
        }
        used = w;
    }
    // Centre: if acc > M - acc, the value is acc - M = -(M - acc).
    d.copy_from_slice(big_m);
    sub_in_place(d, acc);
    if cmp(acc, d) == core::cmp::Ordering::Greater {
        negate(d);
        acc.copy_from_slice(d);
    } else if is_neg(acc) {
        return false;
    }
    copy_resize(x, acc)
}

/// x -= k 2^s y for signed x, y and k; the result is truncated to x's length (exact modulo
/// 2^(32 x.len())). One pass over x from word s / 32: the words of |k| 2^s y are produced on
/// the fly (y sign-extended) and added to x or subtracted from it, chosen by masks.
pub(crate) fn sub_scaled_mul(x: &mut [u32], y: &[u32], k: i32, s: u32) {
    let ka = u64::from(k.unsigned_abs());
    let sy = sign_word(y);
    let (ws, bs) = ((s / 32) as usize, s % 32);
    // Subtracting P is adding !P + 1: m = all ones for k > 0 (subtract), 0 for k < 0 (add).
    let m = 0u32.wrapping_sub(u32::from(k > 0));
    let mut carry = u64::from(m & 1);
    let mut mc = 0u64;
    let mut prev = 0u32;
    for (i, xi) in x.iter_mut().enumerate().skip(ws) {
        let j = i - ws;
        let cur = y.get(j).copied().unwrap_or(sy);
        // Word j of y 2^bs.
        let yw = if bs == 0 {
            cur
        } else {
            (cur << bs) | (prev >> (32 - bs))
        };
        prev = cur;
        // Word j of |k| y 2^bs (u64: (2^32 - 1)^2 + 2^32 - 1 < 2^64).
        let z = u64::from(yw) * ka + mc;
        mc = z >> 32;
        let t = u64::from(*xi) + u64::from(z as u32 ^ m) + carry;
        *xi = t as u32;
        carry = t >> 32;
    }
}

/// The value x / 2^(32 sw) as a floating-point number (words below sw are dropped), from at
/// most the 8 words above sw (the caller keeps the integer below 2^256 after scaling).
pub(crate) fn to_fpr(x: &[u32], sw: usize) -> Fpr {
    let p32 = Fpr::from_bits((1023 + 32) << 52);
    let top = x.len() - 1;
    if sw > top {
        return if is_neg(x) { Fpr::of(-1) } else { Fpr::ZERO };
    }
    let mut acc = Fpr::of(i64::from(x[top] as i32));
    for i in (sw..top).rev() {
        acc = acc.mul(p32).add(Fpr::of(i64::from(x[i])));
    }
    acc
}

/// Bits \[pos, pos + 31) of the signed integer x (sign-extended beyond its words).
fn bits31(x: &[u32], pos: u32) -> u32 {
    let s = sign_word(x);
    let word = |i: usize| x.get(i).copied().unwrap_or(s);
    let (i, b) = ((pos / 32) as usize, pos % 32);
    let v = (u64::from(word(i + 1)) << 32 | u64::from(word(i))) >> b;
    v as u32 & 0x7FFF_FFFF
}

/// floor(x / 2^shift), kept in `rlen` 31-bit words, as a floating-point number computed as
/// the reference's `poly_big_to_fp` does (Falcon round-3 `keygen.c`): the magnitude's words
/// taken from the lowest, each converted exactly and scaled by 2^(31 v), and added up in that
/// order with a rounding at every addition. The caller ensures that the window holds the
/// value (x fits in shift + 31 rlen signed bits).
pub(crate) fn window_to_fpr(x: &[u32], shift: u32, rlen: usize) -> Fpr {
    let neg = is_neg(x);
    let p31 = Fpr::pow2(31);
    let (mut acc, mut scale) = (Fpr::ZERO, Fpr::ONE);
    // Two's complement negation of the window for a negative value: complement, plus one.
    let (xm, mut cc) = if neg { (0x7FFF_FFFF, 1) } else { (0, 0) };
    for v in 0..rlen {
        let w = (bits31(x, shift + 31 * v as u32) ^ xm) + cc;
        cc = w >> 31;
        let w = i64::from(w & 0x7FFF_FFFF);
        acc = acc.add(Fpr::of(if neg { -w } else { w }).mul(scale));
        scale = scale.mul(p31);
    }
    acc
}

/// Extended binary GCD of the deepest NTRUSolve level: for odd x, y > 0 (unsigned, equal
/// length), writes u, v with x u - y v = 1, 0 <= u < y, and returns true; returns false if
/// gcd(x, y) != 1. `tmp` holds 4 len words.
pub(crate) fn bezout(u: &mut [u32], v: &mut [u32], x: &[u32], y: &[u32], tmp: &mut [u32]) -> bool {
    let len = x.len();
    let (mut a, rest) = tmp.split_at_mut(len);
    let (mut b, rest) = rest.split_at_mut(len);
    let (mut ua, rest) = rest.split_at_mut(len);
    let mut ub = &mut rest[..len];
    let yi = inv_mod_2_32(y[0]);
    // Invariants: a = ua x (mod y), b = ub x (mod y), 0 <= ua, ub < y; b odd; a and b
    // below 2^(32 nw).
    a.copy_from_slice(x);
    b.copy_from_slice(y);
    ua.fill(0);
    ua[0] = 1;
    ub.fill(0);
    let mut nw = len;
    let zero = |z: &[u32]| z.iter().all(|&w| w == 0);
    while !zero(&a[..nw]) {
        while nw > 1 && a[nw - 1] == 0 && b[nw - 1] == 0 {
            nw -= 1;
        }
        if a[0] & 1 == 0 {
            // a = a / 2^t and ua = ua / 2^t mod y, t trailing zeros at once (at most 31):
            // ua + q y with q = -ua y^-1 mod 2^t is divisible by 2^t, and below 2^t y.
            let t = a[0].trailing_zeros().min(31);
            shr(&mut a[..nw], t, 0);
            let q = ua[0].wrapping_mul(yi).wrapping_neg() & ((1u32 << t) - 1);
            let c = add_mul_small(ua, y, q);
            shr(ua, t, c);
        } else {
            if cmp(&a[..nw], &b[..nw]) == core::cmp::Ordering::Less {
                core::mem::swap(&mut a, &mut b);
                core::mem::swap(&mut ua, &mut ub);
            }
            sub_in_place(&mut a[..nw], &b[..nw]);
            if sub_in_place(ua, ub) != 0 {
                add_in_place(ua, y);
            }
        }
    }
    // b = gcd.
    if !(b[0] == 1 && b[1..].iter().all(|&w| w == 0)) {
        return false;
    }
    u.copy_from_slice(ub);
    // v = (x u - 1) / y, an exact division (Hensel: low words first).
    let mut z = [0u32; 2 * (super::solve::MAX_WORDS + 3)];
    let z = &mut z[..2 * len + 1];
    for (i, &ui) in u.iter().enumerate() {
        let c = add_mul_small(&mut z[i..i + len], x, ui);
        // Propagate the carry.
        let mut c = u64::from(c);
        for w in z[i + len..].iter_mut() {
            if c == 0 {
                break;
            }
            let s = u64::from(*w) + c;
            *w = s as u32;
            c = s >> 32;
        }
    }
    // z -= 1 (z = x u >= 1).
    for w in z.iter_mut() {
        let (d, o) = w.overflowing_sub(1);
        *w = d;
        if !o {
            break;
        }
    }
    for i in 0..len {
        let qi = z[i].wrapping_mul(yi);
        v[i] = qi;
        // z -= qi y 2^(32 i).
        let mut b = 0u64;
        for j in 0..z.len() - i {
            let yj = if j < len { y[j] } else { 0 };
            let s = u64::from(yj) * u64::from(qi) + b;
            let (d, o) = z[i + j].overflowing_sub(s as u32);
            z[i + j] = d;
            b = (s >> 32) + u64::from(o);
        }
    }
    true
}

/// x += y (equal lengths); returns the carry.
fn add_in_place(x: &mut [u32], y: &[u32]) -> u32 {
    let mut c = 0u32;
    for (a, &b) in x.iter_mut().zip(y) {
        let (s1, o1) = a.overflowing_add(b);
        let (s2, o2) = s1.overflowing_add(c);
        *a = s2;
        c = u32::from(o1 | o2);
    }
    c
}

/// x = (x + top 2^(32 len)) >> t, for 1 <= t <= 31.
fn shr(x: &mut [u32], t: u32, top: u32) {
    let n = x.len();
    for i in 0..n {
        let hi = if i + 1 < n { x[i + 1] } else { top };
        x[i] = (x[i] >> t) | (hi << (32 - t));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn from_i128(v: i128, len: usize) -> [u32; 8] {
        let mut x = [0u32; 8];
        for (i, w) in x.iter_mut().enumerate().take(len) {
            *w = if i < 4 {
                (v >> (32 * i)) as u32
            } else {
                (v >> 127) as u32
            };
        }
        x
    }

    #[test]
    fn mod_and_crt_round_trip() {
        let vals: [i128; 6] = [
            0,
            1,
            -1,
            123_456_789_012_345,
            -98_765_432_109_876_543,
            (1 << 100) + 7,
        ];
        for &v in &vals {
            let x = from_i128(v, 4);
            let np = super::super::modp::primes_for_words(4);
            let mut r = [0u32; 8];
            for (j, rj) in r.iter_mut().enumerate().take(np) {
                let m = Modp::new(PRIMES[j].p);
                *rj = mod_small_signed(&x[..4], &m);
                assert_eq!(
                    i128::from(*rj),
                    v.rem_euclid(i128::from(PRIMES[j].p)),
                    "residue of {v}"
                );
            }
            let mut y = [0u32; 4];
            let mut tmp = [0u32; 32];
            assert!(crt_rebuild(&mut y, &r[..np], &mut tmp));
            assert_eq!(y, x[..4], "CRT of {v}");
        }
    }

    #[test]
    fn sub_scaled_and_bitlen() {
        let cases: [(i128, i128, i32, u32); 8] = [
            (1 << 90, 12345, 77, 0),
            (-(1 << 80), -999, -5, 33),
            (5, 3, -(1 << 30), 7),
            (0, 1, 1, 64),
            ((1 << 100) - 1, -(1 << 20), 1 << 30, 31),
            (-(1 << 100), (1 << 63) - 1, i32::MIN, 5),
            (123, -(1 << 63), i32::MAX, 32),
            (-7, -1, -1, 95),
        ];
        for &(xv, yv, k, s) in &cases {
            let mut x = from_i128(xv, 4);
            let y = from_i128(yv, 2);
            sub_scaled_mul(&mut x[..4], &y[..2], k, s);
            let want = xv - i128::from(k) * yv * (1i128 << s);
            assert_eq!(x[..4], from_i128(want, 4)[..4], "{xv} - {k} {yv} 2^{s}");
        }
        assert_eq!(bitlen(&from_i128(0, 4)[..4]), 0);
        assert_eq!(bitlen(&from_i128(1 << 70, 4)[..4]), 71);
        assert_eq!(bitlen(&from_i128(-(1 << 70) - 1, 4)[..4]), 71);
    }

    #[test]
    fn bezout_small() {
        // x = 2^64 + 13, y = 3^40 (both odd, coprime).
        let x = from_i128((1 << 64) + 13, 3);
        let y = from_i128(12_157_665_459_056_928_801, 3);
        let (mut u, mut v) = ([0u32; 3], [0u32; 3]);
        let mut tmp = [0u32; 12];
        assert!(bezout(&mut u, &mut v, &x[..3], &y[..3], &mut tmp));
        let (xi, yi) = ((1i128 << 64) + 13, 12_157_665_459_056_928_801i128);
        let ui = i128::from(u[0]) | (i128::from(u[1]) << 32) | (i128::from(u[2]) << 64);
        let vi = i128::from(v[0]) | (i128::from(v[1]) << 32) | (i128::from(v[2]) << 64);
        // x u - y v = 1, checked modulo 2^127 (the products exceed i128).
        assert_eq!(xi.wrapping_mul(ui).wrapping_sub(yi.wrapping_mul(vi)), 1);
        assert!(ui < yi);
        // Not coprime: 15 and 21.
        let (x, y) = (from_i128(15, 2), from_i128(21, 2));
        let (mut u, mut v) = ([0u32; 2], [0u32; 2]);
        assert!(!bezout(&mut u, &mut v, &x[..2], &y[..2], &mut tmp[..8]));
    }

    #[test]
    fn to_fpr_scales() {
        let x = from_i128(-(3i128 << 64), 4);
        assert_eq!(to_fpr(&x[..4], 2).rint(), -3);
        assert_eq!(to_fpr(&x[..4], 1).rint(), -3 << 32);
    }
}
