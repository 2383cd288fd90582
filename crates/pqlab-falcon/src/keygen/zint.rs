//! Signed big integers for NTRUSolve: little-endian 32-bit words in two's complement, each
//! integer a fixed-length word slice (the length is chosen by the caller from a bound on the
//! value). Only what NTRUSolve needs: reduction modulo a small prime, Garner's CRT
//! reconstruction, the extended GCD of the deepest level, multiply-and-subtract with a shift
//! for Babai's reduction, and conversion to floating point.

use super::modp::{Modp, PRIMES, inv_mod_2_32};
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

/// [`mod_small_signed`] for the n = out.len() coefficients of `src` (w <= [`MAX_WORDS`]
/// words each, n w words in all): out\[i\] = (coefficient i) mod p, as the sum over the words
/// w_k of w_k 2^(32 k) mod p: one Montgomery product per word with a table of the powers of
/// 2^32, the products independent of each other and added up unreduced (a Horner chain would
/// be bound by the latency of its products), then reduced once.
pub(crate) fn mod_small_signed_batch(src: &[u32], w: usize, m: &Modp, out: &mut [u32]) {
    // pw[k] = 2^(32 k) in Montgomery form (2^(32 (k + 1)) mod p), for k <= w: four
    // interleaved chains of products after the first four.
    let mut pw = [0u32; MAX_WORDS + 1];
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

/// acc += a b, or acc -= a b if `sub`, for signed a, b (two's complement, a.len() + b.len() <=
/// 2 [`MAX_WORDS`]), exact modulo 2^(32 acc.len()): the magnitudes multiplied schoolbook, the
/// product added or subtracted by the resulting sign.
pub(crate) fn add_mul_signed(acc: &mut [u32], a: &[u32], b: &[u32], sub: bool) {
    let mut ma = [0u32; MAX_WORDS];
    let mut mb = [0u32; MAX_WORDS];
    let mut prod = [0u32; 2 * MAX_WORDS];
    let (ma, mb) = (&mut ma[..a.len()], &mut mb[..b.len()]);
    ma.copy_from_slice(a);
    mb.copy_from_slice(b);
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
    let prod = &mut prod[..la + lb];
    prod.fill(0);
    for (i, &x) in ma[..la].iter().enumerate() {
        prod[i + lb] = add_mul_small(&mut prod[i..i + lb], &mb[..lb], x);
    }
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

/// Extended binary GCD of the deepest NTRUSolve level (Falcon spec, Algorithm 6: NTRUSolve,
/// line 2: xgcd): for odd x, y > 0 (unsigned, equal length len <= [`MAX_WORDS`]), writes u,
/// v with x u - y v = 1, 0 <= u < y, and returns true; returns false if gcd(x, y) != 1.
/// `tmp` holds 4 (len + 1) words.
///
/// The binary GCD runs 31 steps at a time on 64-bit approximations of a and b (their top 33
/// and low 31 bits: the "optimized binary GCD" of T. Pornin, "Optimized Binary GCD for
/// Modular Inversion", 2020), the steps collected in a matrix that is then applied once to the
/// big integers and to their coefficients modulo y. The approximations only steer the
/// choices: every update is exact, a negative result is negated with its matrix row, and the
/// loop runs until a = 0 (u is unique, so the result is that of the plain binary GCD).
pub(crate) fn bezout(u: &mut [u32], v: &mut [u32], x: &[u32], y: &[u32], tmp: &mut [u32]) -> bool {
    let len = x.len();
    let (a, rest) = tmp.split_at_mut(len);
    let (b, rest) = rest.split_at_mut(len);
    let (ua, rest) = rest.split_at_mut(len + 1);
    let ub = &mut rest[..len + 1];
    let yi = inv_mod_2_32(y[0]);
    // Invariants: a = ua x (mod y), b = ub x (mod y), 0 <= ua, ub < y; b odd.
    a.copy_from_slice(x);
    b.copy_from_slice(y);
    ua.fill(0);
    ua[0] = 1;
    ub.fill(0);
    let mut nw = len;
    // Every outer pass removes about 31 bits of a b (at least one: the approximations can
    // only delay): a generous bound that a correct run never meets.
    let mut passes = 64 * 32 * len + 64;
    while a[..nw].iter().any(|&w| w != 0) {
        while nw > 1 && a[nw - 1] == 0 && b[nw - 1] == 0 {
            nw -= 1;
        }
        passes -= 1;
        if passes == 0 {
            return false;
        }
        let (xa, xb) = approx(&a[..nw], &b[..nw]);
        let [f0, g0, f1, g1] = gcd_steps31(xa, xb);
        let Some(na) = lin_comb_shr31(&mut a[..nw], &mut b[..nw], [f0, g0, f1, g1]) else {
            return false;
        };
        // A negated result negates its row.
        let (f0, g0) = if na.0 { (-f0, -g0) } else { (f0, g0) };
        let (f1, g1) = if na.1 { (-f1, -g1) } else { (f1, g1) };
        lin_comb_mod(ua, ub, [f0, g0, f1, g1], y, yi);
    }
    // b = gcd.
    if !(b[0] == 1 && b[1..].iter().all(|&w| w == 0)) {
        return false;
    }
    let ub = &ub[..len];
    u.copy_from_slice(ub);
    // v = (x u - 1) / y, an exact division (Hensel: low words first).
    let mut z = [0u32; 2 * (MAX_WORDS + 3)];
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

/// The 64-bit approximations of a and b (non-negative) for [`gcd_steps31`]: the values
/// themselves below 2^64, else bits [n - 33, n) above the low 31 bits, n the larger bit length.
fn approx(a: &[u32], b: &[u32]) -> (u64, u64) {
    let nw = a.len();
    let low = |x: &[u32]| u64::from(x[0]) | x.get(1).map_or(0, |&w| u64::from(w) << 32);
    let top = a[nw - 1] | b[nw - 1];
    let n = 32 * (nw as u32 - 1) + (32 - top.leading_zeros());
    if n <= 64 {
        return (low(a), low(b));
    }
    // Bits [n - 33, n): at most two words.
    let pos = n - 33;
    let hi = |x: &[u32]| {
        let (i, s) = ((pos / 32) as usize, pos % 32);
        let w = u64::from(x[i]) | x.get(i + 1).map_or(0, |&w| u64::from(w) << 32);
        (w >> s) & 0x1_FFFF_FFFF
    };
    (
        (hi(a) << 31) | (u64::from(a[0]) & 0x7FFF_FFFF),
        (hi(b) << 31) | (u64::from(b[0]) & 0x7FFF_FFFF),
    )
}

/// 31 steps of the binary GCD on the approximations (xb odd): if xa is odd, (xa, xb) = (xa -
/// xb, xb) after a swap that makes xa >= xb; then xa is halved. Returns [f0, g0, f1, g1] with
/// 2^31 a' = f0 a + g0 b and 2^31 b' = f1 a + g1 b for the values they stand for (|f|, |g| <=
/// 2^31).
fn gcd_steps31(mut xa: u64, mut xb: u64) -> [i64; 4] {
    let (mut f0, mut g0, mut f1, mut g1) = (1i64, 0i64, 0i64, 1i64);
    for _ in 0..31 {
        if xa & 1 == 1 {
            if xa < xb {
                core::mem::swap(&mut xa, &mut xb);
                core::mem::swap(&mut f0, &mut f1);
                core::mem::swap(&mut g0, &mut g1);
            }
            xa -= xb;
            f0 -= f1;
            g0 -= g1;
        }
        xa >>= 1;
        f1 <<= 1;
        g1 <<= 1;
    }
    [f0, g0, f1, g1]
}

/// (a, b) = ((f0 a + g0 b) / 2^31, (f1 a + g1 b) / 2^31) (exact divisions), each negated if
/// negative; returns which were negated, or None if a result does not fit the words of a
/// (which the bounds of the algorithm exclude).
fn lin_comb_shr31(
    a: &mut [u32],
    b: &mut [u32],
    [f0, g0, f1, g1]: [i64; 4],
) -> Option<(bool, bool)> {
    let (mut ca, mut cb) = (0i128, 0i128);
    let (mut pa, mut pb) = (0u32, 0u32);
    for i in 0..a.len() {
        let (wa, wb) = (i128::from(a[i]), i128::from(b[i]));
        let za = i128::from(f0) * wa + i128::from(g0) * wb + ca;
        let zb = i128::from(f1) * wa + i128::from(g1) * wb + cb;
        ca = za >> 32;
        cb = zb >> 32;
        if i > 0 {
            a[i - 1] = (pa >> 31) | ((za as u32) << 1);
            b[i - 1] = (pb >> 31) | ((zb as u32) << 1);
        }
        pa = za as u32;
        pb = zb as u32;
    }
    let top = a.len() - 1;
    a[top] = (pa >> 31) | ((ca as u32) << 1);
    b[top] = (pb >> 31) | ((cb as u32) << 1);
    // The bits above the words: a sign extension.
    if !matches!(ca >> 31, 0 | -1) || !matches!(cb >> 31, 0 | -1) {
        return None;
    }
    if ca < 0 {
        negate(a);
    }
    if cb < 0 {
        negate(b);
    }
    Some((ca < 0, cb < 0))
}

/// (ua, ub) = ((f0 ua + g0 ub) / 2^31, (f1 ua + g1 ub) / 2^31) mod y, in \[0, y) (len + 1
/// words each, y of len words, yi = 1/y mod 2^32).
fn lin_comb_mod(ua: &mut [u32], ub: &mut [u32], [f0, g0, f1, g1]: [i64; 4], y: &[u32], yi: u32) {
    // q y makes the sum divisible by 2^31: q = -(sum) / y mod 2^31.
    let low = |f: i64, g: i64| {
        (f as u32)
            .wrapping_mul(ua[0])
            .wrapping_add((g as u32).wrapping_mul(ub[0]))
    };
    let qa = i128::from(low(f0, g0).wrapping_mul(yi).wrapping_neg() & 0x7FFF_FFFF);
    let qb = i128::from(low(f1, g1).wrapping_mul(yi).wrapping_neg() & 0x7FFF_FFFF);
    let (mut ca, mut cb) = (0i128, 0i128);
    let (mut pa, mut pb) = (0u32, 0u32);
    let n = ua.len();
    for i in 0..n {
        let (wa, wb) = (i128::from(ua[i]), i128::from(ub[i]));
        let yw = i128::from(y.get(i).copied().unwrap_or(0));
        let za = i128::from(f0) * wa + i128::from(g0) * wb + qa * yw + ca;
        let zb = i128::from(f1) * wa + i128::from(g1) * wb + qb * yw + cb;
        ca = za >> 32;
        cb = zb >> 32;
        if i > 0 {
            ua[i - 1] = (pa >> 31) | ((za as u32) << 1);
            ub[i - 1] = (pb >> 31) | ((zb as u32) << 1);
        }
        pa = za as u32;
        pb = zb as u32;
    }
    // |result| < 3 y < 2^(32 len + 2): the top word holds it, with its sign.
    ua[n - 1] = (pa >> 31) | ((ca as u32) << 1);
    ub[n - 1] = (pb >> 31) | ((cb as u32) << 1);
    into_range(ua, y);
    into_range(ub, y);
}

/// x (signed, y.len() + 1 words, |x| < 3 y) into \[0, y).
fn into_range(x: &mut [u32], y: &[u32]) {
    let n = y.len();
    while is_neg(x) {
        let c = add_in_place(&mut x[..n], y);
        x[n] = x[n].wrapping_add(c);
    }
    while x[n] != 0 || cmp(&x[..n], y) != core::cmp::Ordering::Less {
        let b = sub_in_place(&mut x[..n], y);
        x[n] = x[n].wrapping_sub(b);
    }
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
        let mut tmp = [0u32; 16];
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
        assert!(!bezout(&mut u, &mut v, &x[..2], &y[..2], &mut tmp[..12]));
    }

    /// x u - y v = 1 and u < y for large random odd x, y (and a common factor 3 rejected).
    #[test]
    fn bezout_large() {
        const L: usize = 40;
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = || {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            (seed >> 32) as u32
        };
        let mut found = 0;
        for round in 0..40 {
            let words = 2 + round % (L - 3);
            let mut x = [0u32; L];
            let mut y = [0u32; L];
            for i in 0..words {
                x[i] = next();
                y[i] = next();
            }
            x[words - 1] &= 0x7FFF_FFFF;
            y[words - 1] >>= round % 31 + 1;
            x[0] |= 1;
            y[0] |= 1;
            let (mut u, mut v) = ([0u32; L], [0u32; L]);
            let mut tmp = [0u32; 4 * (L + 1)];
            if !bezout(
                &mut u[..words],
                &mut v[..words],
                &x[..words],
                &y[..words],
                &mut tmp,
            ) {
                continue;
            }
            found += 1;
            // x u - y v = 1 in 2 words more than needed.
            let mut xu = [0u32; 2 * L + 1];
            let mut yv = [0u32; 2 * L + 1];
            for i in 0..words {
                xu[i + words] = add_mul_small(&mut xu[i..i + words], &x[..words], u[i]);
                yv[i + words] = add_mul_small(&mut yv[i..i + words], &y[..words], v[i]);
            }
            assert_eq!(sub_in_place(&mut xu, &yv), 0, "round {round}");
            assert_eq!(xu[0], 1, "round {round}");
            assert!(xu[1..].iter().all(|&w| w == 0), "round {round}");
            assert_eq!(cmp(&u[..words], &y[..words]), core::cmp::Ordering::Less);
            // A common factor 3: rejected.
            let (mut x3, mut y3) = ([0u32; L + 1], [0u32; L + 1]);
            x3[..words].copy_from_slice(&x[..words]);
            y3[..words].copy_from_slice(&y[..words]);
            mul_small(&mut x3[..=words], 3);
            mul_small(&mut y3[..=words], 3);
            let (mut u3, mut v3) = ([0u32; L + 1], [0u32; L + 1]);
            let w3 = words + 1;
            let mut tmp3 = [0u32; 4 * (L + 2)];
            assert!(!bezout(
                &mut u3[..w3],
                &mut v3[..w3],
                &x3[..w3],
                &y3[..w3],
                &mut tmp3
            ));
        }
        assert!(found > 20, "only {found} coprime pairs");
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
