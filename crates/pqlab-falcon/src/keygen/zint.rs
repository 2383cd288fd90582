//! Signed big integers for NTRUSolve: little-endian 32-bit words in two's complement, each
//! integer a fixed-length word slice (the length is chosen by the caller from a bound on the
//! value). Only what NTRUSolve needs: reduction modulo a small prime, Garner's CRT
//! reconstruction, products, multiply-and-subtract with a shift for Babai's reduction, and
//! conversion to floating point (the extended GCD of the deepest level is in `xgcd`).

use super::modp::{Modp, PRIMES};
use super::solve::MAX_WORDS;
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

/// x mod p for the signed integer x (the oracle of [`mod_small_signed_batch`]).
#[cfg(test)]
fn mod_small_signed(x: &[u32], m: &Modp) -> u32 {
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

/// The residues mod p (the tests' `mod_small_signed`) of the n = out.len() coefficients of
/// `src` (w <= [`MAX_WORDS`] words each, n w words in all): out\[i\] = (coefficient i) mod p,
/// as the sum over the words
/// w_k of w_k 2^(32 k) mod p: one Montgomery product per word with a table of the powers of
/// 2^32, the products independent of each other and added up unreduced (a Horner chain would
/// be bound by the latency of its products), then reduced once.
///
/// The work is done out of line by [`mod_small_batch_with`] (its slice iterator's division,
/// `len / w`, the gate's known finding, stays there); its table lives in its frame, sized
/// for the coefficients at hand: a small one for the shallow depths (where the rest of key
/// generation's stack is deepest), the [`MAX_WORDS`] one only for the deep levels.
pub(crate) fn mod_small_signed_batch(src: &[u32], w: usize, m: &Modp, out: &mut [u32]) {
    if w < SMALL_TABLE {
        mod_small_batch_with::<SMALL_TABLE>(src, w, m, out)
    } else {
        mod_small_batch_with::<{ MAX_WORDS + 1 }>(src, w, m, out)
    }
}

/// The table size of [`mod_small_signed_batch`] for coefficients of fewer than this many
/// words.
const SMALL_TABLE: usize = 16;

/// [`mod_small_signed_batch`] with a table of `T` > w entries.
#[inline(never)]
fn mod_small_batch_with<const T: usize>(src: &[u32], w: usize, m: &Modp, out: &mut [u32]) {
    // pw[k] = 2^(32 k) in Montgomery form (2^(32 (k + 1)) mod p), for k <= w: four
    // interleaved chains of products after the first four.
    let mut pw = [0u32; T];
    let pw = &mut pw[..=w];
    let r2 = m.r2();
    let r1 = m.mmul(r2, 1);
    pw[0] = r1;
    for k in 1..=w.min(4) {
        pw[k] = m.mmul(pw[k - 1], r2);
    }
    if w > 4 {
        let c = pw[4];
        for k in 5..=w {
            pw[k] = m.mmul(pw[k - 4], c);
        }
    }
    // 2^(32 w) mod p, subtracted from the negative values.
    let t = m.mmul(pw[w], 1);
    for (x, r) in src.chunks_exact(w).zip(out.iter_mut()) {
        // Each term is below 2p: the sum stays below 2^(32 + 10).
        let acc: u64 = x
            .iter()
            .zip(pw.iter())
            .map(|(&a, &b)| u64::from(m.mmul_lazy(a, b)))
            .sum();
        let v = m.add(m.mmul(acc as u32, r1), m.mmul((acc >> 32) as u32, r2));
        *r = m.sub(v, t & sign_word(x));
    }
}

/// x mod p for the unsigned integer x.
#[cfg(test)]
fn mod_small_unsigned(x: &[u32], m: &Modp) -> u32 {
    let r2 = m.r2();
    let mut r = 0;
    for &w in x.iter().rev() {
        r = m.add(m.mmul(r, r2), m.reduce_word(w));
    }
    r
}

/// x += y k (unsigned, equal lengths); returns the carry out.
pub(crate) fn add_mul_small(x: &mut [u32], y: &[u32], k: u32) -> u32 {
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
pub(crate) fn sub_in_place(x: &mut [u32], y: &[u32]) -> u32 {
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
pub(crate) fn cmp(x: &[u32], y: &[u32]) -> core::cmp::Ordering {
    for (a, b) in x.iter().rev().zip(y.iter().rev()) {
        if a != b {
            return a.cmp(b);
        }
    }
    core::cmp::Ordering::Equal
}

/// x = -x (two's complement).
pub(crate) fn negate(x: &mut [u32]) {
    let mut cc = 1u32;
    for w in x.iter_mut() {
        let (v, o) = (!*w).overflowing_add(cc);
        *w = v;
        cc = u32::from(o);
    }
}

/// Words of a value rebuilt by [`crt_batch`] from `np` residues (M < 2^(31 np), one word
/// more for the sign).
pub(crate) const fn crt_words(np: usize) -> usize {
    (31 * np).div_ceil(32) + 1
}

/// Words of the scratch of [`crt_batch`] for n coefficients and np primes.
pub(crate) const fn crt_tmp_words(n: usize, np: usize) -> usize {
    n + np + 3 * crt_words(np)
}

/// Garner's CRT for n integers at once: `r` holds their residues modulo `PRIMES[0..np]`,
/// prime-major (residue of integer i modulo prime j at j n + i); for each i, passes to
/// `sink(i, x)` the signed integer x in (-M/2, M/2] (M = p_0 ... p_(np-1)) with those
/// residues, in [`crt_words`]\(np) words, and stops with false as soon as `sink` returns
/// false. `r` is overwritten (with the mixed-radix digits); `tmp` holds [`crt_tmp_words`].
///
/// First the mixed-radix digits t_j of every integer, x = t_0 + p_0 (t_1 + p_1 (t_2 + ...)):
/// t_j = (r_j - (t_0 + p_0 (t_1 + ... p_(j-2) t_(j-1)))) / (p_0 ... p_(j-1)) mod p_j, the
/// Horner sums modulo p_j computed for all n integers together (a loop over the integers with
/// constants per prime, which the compiler vectorises); then each integer from its digits
/// (Horner over the big integer) and centred.
pub(crate) fn crt_batch(
    r: &mut [u32],
    n: usize,
    np: usize,
    tmp: &mut [u32],
    mut sink: impl FnMut(usize, &[u32]) -> bool,
) -> bool {
    let cw = crt_words(np);
    let (v, rest) = tmp.split_at_mut(n);
    let (c, rest) = rest.split_at_mut(np);
    let (big_m, rest) = rest.split_at_mut(cw);
    let (acc, rest) = rest.split_at_mut(cw);
    let d = &mut rest[..cw];
    for j in 1..np {
        let sp = PRIMES[j];
        let m = sp.m;
        // p_k mod p_j = p_k - p_j (p_j < p_k < 2 p_j), in Montgomery form; 1 / (p_0 ...
        // p_(j-1)) in Montgomery form.
        for (ck, pk) in c.iter_mut().zip(&PRIMES[..j - 1]) {
            *ck = m.to_mont(pk.p - sp.p);
        }
        let s = m.to_mont(sp.s);
        let (done, cur) = r.split_at_mut(j * n);
        let v = &mut v[..n];
        v.copy_from_slice(&done[(j - 1) * n..j * n]);
        for x in v.iter_mut() {
            *x = m.sub(*x, sp.p);
        }
        for k in (0..j - 1).rev() {
            let ck = c[k];
            for (x, &t) in v.iter_mut().zip(&done[k * n..(k + 1) * n]) {
                *x = m.add(m.mmul(*x, ck), m.sub(t, sp.p));
            }
        }
        for (x, &y) in cur[..n].iter_mut().zip(v.iter()) {
            *x = m.mmul(m.sub(*x, y), s);
        }
    }
    // M, then every integer from its digits.
    big_m.fill(0);
    big_m[0] = 1;
    for sp in &PRIMES[..np] {
        mul_small(big_m, sp.p);
    }
    for i in 0..n {
        acc.fill(0);
        acc[0] = r[(np - 1) * n + i];
        let mut used = 1;
        for k in (0..np - 1).rev() {
            // acc = acc p_k + t_k.
            let mut cc = u64::from(r[k * n + i]);
            let p = u64::from(PRIMES[k].p);
            for w in acc[..used].iter_mut() {
                let z = u64::from(*w) * p + cc;
                *w = z as u32;
                cc = z >> 32;
            }
            if cc != 0 {
                acc[used] = cc as u32;
                used += 1;
            }
        }
        // Centre: if acc > M - acc, the value is acc - M = -(M - acc).
        d.copy_from_slice(big_m);
        sub_in_place(d, acc);
        let x: &[u32] = if cmp(acc, d) == core::cmp::Ordering::Greater {
            negate(d);
            d
        } else {
            acc
        };
        if !sink(i, x) {
            return false;
        }
    }
    true
}

/// Garner's CRT: writes into x the signed integer in (-M/2, M/2], M = p_0 ... p_(k-1), whose
/// residues modulo `PRIMES[j]` are `r[j]` (k = r.len()). `tmp` holds at least 3 (len + 3)
/// words where len = x.len(); returns false if the value does not fit in x.
#[cfg(test)]
fn crt_rebuild(x: &mut [u32], r: &[u32], tmp: &mut [u32]) -> bool {
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

/// prod = a b for unsigned a, b of even lengths (prod: a.len() + b.len() words), schoolbook
/// on 64-bit limbs (pairs of words; one 64 x 64 -> 128-bit product per pair of limbs).
fn mul_magnitudes(prod: &mut [u32], a: &[u32], b: &[u32]) {
    debug_assert!(
        a.len().is_multiple_of(2) && b.len().is_multiple_of(2) && prod.len() == a.len() + b.len()
    );
    let limb = |x: &[u32], i: usize| u64::from(x[2 * i]) | u64::from(x[2 * i + 1]) << 32;
    let (la, lb) = (a.len() / 2, b.len() / 2);
    prod.fill(0);
    for i in 0..la {
        let x = limb(a, i);
        let mut carry = 0u64;
        for j in 0..lb {
            // (2^64 - 1)^2 + 2 (2^64 - 1) < 2^128.
            let t = u128::from(x) * u128::from(limb(b, j))
                + u128::from(limb(prod, i + j))
                + u128::from(carry);
            prod[2 * (i + j)] = t as u32;
            prod[2 * (i + j) + 1] = (t >> 32) as u32;
            carry = (t >> 64) as u64;
        }
        prod[2 * (i + lb)] = carry as u32;
        prod[2 * (i + lb) + 1] = (carry >> 32) as u32;
    }
}

/// acc += a b, or acc -= a b if `sub`, for signed a, b (two's complement), exact modulo
/// 2^(32 acc.len()): the magnitudes multiplied schoolbook, the product added or subtracted by
/// the resulting sign. `tmp` holds at least 2 (a.len() + b.len()) + 4 words.
pub(crate) fn add_mul_signed(acc: &mut [u32], a: &[u32], b: &[u32], sub: bool, tmp: &mut [u32]) {
    // The magnitudes with one zero word more each (for even lengths), then the product.
    let (ma_all, rest) = tmp.split_at_mut(a.len() + 1);
    let (mb_all, prod) = rest.split_at_mut(b.len() + 1);
    let (ma, mb) = (&mut ma_all[..a.len()], &mut mb_all[..b.len()]);
    ma.copy_from_slice(a);
    mb.copy_from_slice(b);
    ma_all[a.len()] = 0;
    mb_all[b.len()] = 0;
    let (ma, mb) = (&mut ma_all[..a.len()], &mut mb_all[..b.len()]);
    let neg = is_neg(a) ^ is_neg(b) ^ sub;
    if is_neg(a) {
        negate(ma);
    }
    if is_neg(b) {
        negate(mb);
    }
    // Significant words only.
    let la = ma.iter().rposition(|&w| w != 0).map_or(0, |i| i + 1);
    let lb = mb.iter().rposition(|&w| w != 0).map_or(0, |i| i + 1);
    if la == 0 || lb == 0 {
        return;
    }
    // Even lengths for the 64-bit limbs (the words beyond a.len() and b.len() are zeros).
    let (la, lb) = (la.next_multiple_of(2), lb.next_multiple_of(2));
    let prod = &mut prod[..la + lb];
    mul_magnitudes(prod, &ma_all[..la], &mb_all[..lb]);
    // acc +- prod, the carry or borrow carried through all of acc.
    let l = prod.len().min(acc.len());
    let c = if neg {
        sub_in_place(&mut acc[..l], &prod[..l])
    } else {
        add_in_place(&mut acc[..l], &prod[..l])
    };
    let mut c = c;
    for w in acc[l..].iter_mut() {
        if c == 0 {
            break;
        }
        let (v, o) = if neg {
            w.overflowing_sub(1)
        } else {
            w.overflowing_add(1)
        };
        *w = v;
        c = u32::from(o);
    }
}

/// x -= y 2^s for signed x and y; the result is truncated to x's length (exact modulo
/// 2^(32 x.len())): one pass over x from word s / 32 up to the words of y 2^s (y's words
/// shifted on the fly), with a borrow, then the borrow propagated through the sign words of
/// y above them.
pub(crate) fn sub_shifted(x: &mut [u32], y: &[u32], s: u32) {
    let sy = sign_word(y);
    let (ws, bs) = ((s / 32) as usize, s % 32);
    let Some(x) = x.get_mut(ws..) else {
        return;
    };
    // Words 0..=y.len() of y 2^bs: y's words shifted, and the top one holding the bits
    // shifted out of y's last word (the sign word when bs = 0).
    let body = x.len().min(y.len() + 1);
    let (xb, xt) = x.split_at_mut(body);
    let mut borrow = 0u64;
    // x_i - yw - borrow on 64 bits: the borrow out is the top bit.
    #[inline(always)]
    fn sub(xi: &mut u32, yw: u32, borrow: &mut u64) {
        let d = u64::from(*xi)
            .wrapping_sub(u64::from(yw))
            .wrapping_sub(*borrow);
        *xi = d as u32;
        *borrow = d >> 63;
    }
    if bs == 0 {
        for (j, xi) in xb.iter_mut().enumerate() {
            sub(xi, y.get(j).copied().unwrap_or(sy), &mut borrow);
        }
    } else {
        let mut prev = 0u32;
        for (j, xi) in xb.iter_mut().enumerate() {
            let cur = y.get(j).copied().unwrap_or(sy);
            sub(xi, (cur << bs) | (prev >> (32 - bs)), &mut borrow);
            prev = cur;
        }
    }
    // Above: every word of y 2^s is the sign word. x is left unchanged from the first word at
    // which the borrow equals the sign bit (0 - 0, or all ones and a borrow): stop there
    // (NTRUSolve is not constant-time).
    let sb = u64::from(sy & 1);
    for xi in xt.iter_mut() {
        if borrow == sb {
            break;
        }
        sub(xi, sy, &mut borrow);
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
pub(crate) fn bits31(x: &[u32], pos: u32) -> u32 {
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
/// value (x fits in shift + 31 rlen signed bits). The solver converts whole polynomials with
/// the batched twin `solve::reduce::windows_to_fpr`; this one-coefficient form is the
/// reference its test compares with.
#[cfg(test)]
pub(crate) fn window_to_fpr(x: &[u32], shift: u32, rlen: usize) -> Fpr {
    let neg = is_neg(x);
    let mut acc = Fpr::ZERO;
    // Two's complement negation of the window for a negative value: complement, plus one.
    let (xm, mut cc) = if neg { (0x7FFF_FFFF, 1) } else { (0, 0) };
    // Every word and 2^(31 v) are exact, and so is their product: only the additions round
    // (the reference's scale, multiplied by 2^31 at every step, is the same exact 2^(31 v)).
    let mut add = |v: usize, w: u32| {
        let w = (w ^ xm) + cc;
        cc = w >> 31;
        let w = i64::from(w & 0x7FFF_FFFF);
        acc = acc.add(Fpr::of(if neg { -w } else { w }).mul(Fpr::pow2(31 * v as i32)));
    };
    if (shift as usize + 31 * rlen) / 32 < x.len() {
        // The window lies within x: bits [pos, pos + 31) from two adjacent words.
        for v in 0..rlen {
            let pos = shift as usize + 31 * v;
            let (i, b) = (pos / 32, pos % 32);
            let hi = x.get(i + 1).copied().unwrap_or(0);
            add(
                v,
                ((u64::from(hi) << 32 | u64::from(x[i])) >> b) as u32 & 0x7FFF_FFFF,
            );
        }
    } else {
        for v in 0..rlen {
            add(v, bits31(x, shift + 31 * v as u32));
        }
    }
    acc
}

/// x += y (equal lengths); returns the carry.
pub(crate) fn add_in_place(x: &mut [u32], y: &[u32]) -> u32 {
    let mut c = 0u32;
    for (a, &b) in x.iter_mut().zip(y) {
        let (s1, o1) = a.overflowing_add(b);
        let (s2, o2) = s1.overflowing_add(c);
        *a = s2;
        c = u32::from(o1 | o2);
    }
    c
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// The first `len` (at most 8) two's-complement words of v, little-endian (shared with the
    /// extended GCD's tests).
    pub(crate) fn from_i128(v: i128, len: usize) -> [u32; 8] {
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
                let mut b = [0u32; 2];
                let two = [x[0], x[1], x[2], x[3], 5, 6, 7, 0x8000_0000];
                mod_small_signed_batch(&two, 4, &m, &mut b);
                assert_eq!(b, [*rj, mod_small_signed(&two[4..], &m)]);
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
            // The batch form, one integer.
            let mut tmp = [0u32; crt_tmp_words(1, 8)];
            let mut got = [0u32; 4];
            assert!(crt_batch(
                &mut r[..np],
                1,
                np,
                &mut tmp,
                |_, z| copy_resize(&mut got, z)
            ));
            assert_eq!(got, x[..4], "batch CRT of {v}");
        }
    }

    /// The batch CRT equals Garner's CRT one integer at a time, for random residues (values
    /// all over (-M/2, M/2]) and many primes.
    #[test]
    fn crt_batch_equals_single() {
        const N: usize = 5;
        const NP: usize = 40;
        let mut seed = 12345u64;
        let mut r = [0u32; N * NP];
        for j in 0..NP {
            for i in 0..N {
                seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                r[j * N + i] = ((seed >> 33) as u32) % PRIMES[j].p;
            }
        }
        for np in [1, 2, 3, 17, NP] {
            let cw = crt_words(np);
            let mut want = [[0u32; crt_words(NP)]; N];
            let mut tmp = [0u32; 3 * (crt_words(NP) + 3)];
            for (i, w) in want.iter_mut().enumerate() {
                let ri: [u32; NP] = core::array::from_fn(|j| r[j * N + i]);
                assert!(crt_rebuild(&mut w[..cw], &ri[..np], &mut tmp));
            }
            let mut rr = r;
            let mut tmp = [0u32; crt_tmp_words(N, NP)];
            let mut got = [[0u32; crt_words(NP)]; N];
            assert!(crt_batch(&mut rr[..N * np], N, np, &mut tmp, |i, z| {
                copy_resize(&mut got[i][..cw], z)
            }));
            assert_eq!(got, want, "np = {np}");
        }
    }

    /// The former one-loop [`super::sub_shifted`], the reference of its test: x -= y 2^s for signed x and y; the result is truncated to x's length (exact modulo
    /// 2^(32 x.len())): One pass
    /// over x from word s / 32, y's words shifted on the fly (y sign-extended), with a borrow.
    fn sub_shifted_ref(x: &mut [u32], y: &[u32], s: u32) {
        let sy = sign_word(y);
        let (ws, bs) = ((s / 32) as usize, s % 32);
        let mut borrow = 0u32;
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
            let (t1, b1) = xi.overflowing_sub(yw);
            let (t2, b2) = t1.overflowing_sub(borrow);
            *xi = t2;
            borrow = u32::from(b1 | b2);
            // Past the words of y (yw is the sign word from now on), x is left unchanged by every
            // word above once the borrow equals the sign bit (0 - 0, or all ones and a borrow):
            // stop (NTRUSolve is not constant-time).
            if j > y.len() && borrow == (sy & 1) {
                break;
            }
        }
    }

    /// [`sub_shifted`] equals the one-loop form on random signed integers: every shift
    /// within and beyond x, every length of y up to x's and beyond.
    #[test]
    fn sub_shifted_matches_one_loop() {
        let mut rng = pqlab_testutil::rng::TestRng::new(2);
        let mut next = || rng.next_u64();
        for round in 0..3000 {
            let lx = 1 + (next() % 12) as usize;
            let ly = 1 + (next() % 14) as usize;
            let s = (next() % (32 * lx as u64 + 40)) as u32;
            let mut x: std::vec::Vec<u32> = (0..lx).map(|_| next() as u32).collect();
            let mut y: std::vec::Vec<u32> = (0..ly).map(|_| next() as u32).collect();
            // Sign words at the top, often (the propagation's early stop).
            if round % 2 == 0 {
                let sx = 0u32.wrapping_sub(next() as u32 & 1);
                let k = (next() % lx as u64) as usize;
                x[lx - k..].fill(sx);
                let sy = 0u32.wrapping_sub(next() as u32 & 1);
                let k = (next() % ly as u64) as usize;
                y[ly - k..].fill(sy);
            }
            let mut want = x.clone();
            sub_shifted_ref(&mut want, &y, s);
            sub_shifted(&mut x, &y, s);
            assert_eq!(x, want, "round {round}");
        }
    }

    #[test]
    fn sub_shifted_and_bitlen() {
        let cases: [(i128, i128, u32); 10] = [
            (1 << 90, 12345, 0),
            (-(1 << 80), -999, 33),
            (5, -(1 << 40), 7),
            (5, 3, 7),
            (0, 1, 64),
            ((1 << 100) - 1, -(1 << 20), 31),
            (-(1 << 100), (1 << 63) - 1, 5),
            (123, -(1 << 63), 32),
            (-7, -1, 95),
            (-7, -1, 0),
        ];
        for &(xv, yv, s) in &cases {
            let y = from_i128(yv, 2);
            let want = xv - yv * (1i128 << s);
            let mut x = from_i128(xv, 4);
            sub_shifted(&mut x[..4], &y[..2], s);
            assert_eq!(x[..4], from_i128(want, 4)[..4], "{xv} - {yv} 2^{s}");
            // Sign-extended to 8 words (the borrow propagation above y, and its early stop,
            // over 4 more words), and with a one-word y.
            let mut x = from_i128(xv, 8);
            sub_shifted(&mut x, &y[..2], s);
            assert_eq!(x, from_i128(want, 8), "{xv} - {yv} 2^{s} (8 words)");
            let mut x = from_i128(xv, 8);
            sub_shifted(&mut x, &y[..1], s % 32);
            let want = xv - i128::from(y[0] as i32) * (1i128 << (s % 32));
            assert_eq!(
                x,
                from_i128(want, 8),
                "{xv} - {} 2^{s} (8 words)",
                y[0] as i32
            );
        }
        assert_eq!(bitlen(&from_i128(0, 4)[..4]), 0);
        assert_eq!(bitlen(&from_i128(1 << 70, 4)[..4]), 71);
        assert_eq!(bitlen(&from_i128(-(1 << 70) - 1, 4)[..4]), 71);
    }

    #[test]
    fn mul_magnitudes_matches_word_schoolbook() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u32
        };
        for la in 1..12 {
            for lb in 1..12 {
                let mut a = [0u32; 12];
                let mut b = [0u32; 12];
                a.iter_mut().for_each(|w| *w = next());
                b.iter_mut().for_each(|w| *w = next());
                a[la - 1] |= u32::MAX * (la as u32 & 1);
                let mut want = [0u32; 24];
                for (i, &ai) in a[..la].iter().enumerate() {
                    want[i + lb] = add_mul_small(&mut want[i..i + lb], &b[..lb], ai);
                }
                let mut got = [0u32; 24];
                let (ea, eb) = (la.next_multiple_of(2), lb.next_multiple_of(2));
                let (mut a2, mut b2) = ([0u32; 12], [0u32; 12]);
                a2[..la].copy_from_slice(&a[..la]);
                b2[..lb].copy_from_slice(&b[..lb]);
                mul_magnitudes(&mut got[..ea + eb], &a2[..ea], &b2[..eb]);
                assert_eq!(got, want, "{la} x {lb} words");
            }
        }
    }

    #[test]
    fn add_mul_signed_matches_i128() {
        let vals: [i128; 6] = [0, 1, -1, (1 << 50) + 3, -(1 << 61) + 7, 123_456_789];
        for &a in &vals {
            for &b in &vals {
                for &c in &[0i128, -5, 1 << 100] {
                    for sub in [false, true] {
                        let mut acc = from_i128(c, 4);
                        add_mul_signed(
                            &mut acc[..4],
                            &from_i128(a, 3)[..3],
                            &from_i128(b, 2)[..2],
                            sub,
                            &mut [0u32; 14],
                        );
                        let want = if sub { c - a * b } else { c + a * b };
                        assert_eq!(acc[..4], from_i128(want, 4)[..4], "{c} + {a} {b} ({sub})");
                    }
                }
            }
        }
    }

    #[test]
    fn to_fpr_scales() {
        let x = from_i128(-(3i128 << 64), 4);
        assert_eq!(to_fpr(&x[..4], 2).rint(), -3);
        assert_eq!(to_fpr(&x[..4], 1).rint(), -3 << 32);
    }
}
