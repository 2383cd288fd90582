//! The extended GCD of NTRUSolve's deepest level (Falcon spec v1.2, Algorithm 6: NTRUSolve,
//! line 2: xgcd), on the big integers of [`super::zint`].

use super::modp::inv_mod_2_32;
use super::zint::{add_in_place, add_mul_small, cmp, is_neg, negate, sub_in_place};

/// Words of the scratch of [`bezout`] for integers of `len` words: a, b, their coefficients
/// modulo y, and the product x u of the final division.
pub(crate) const fn bezout_tmp_words(len: usize) -> usize {
    4 * (len + 1) + 2 * len + 1
}

/// Extended binary GCD of the deepest NTRUSolve level (Falcon spec, Algorithm 6: NTRUSolve,
/// line 2: xgcd): for odd x, y > 0 (unsigned, equal length len), writes u,
/// v with x u - y v = 1, 0 <= u < y, and returns true; returns false if gcd(x, y) != 1.
/// `tmp` holds [`bezout_tmp_words`]\(len) words.
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
    let (ub, z) = rest.split_at_mut(len + 1);
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
    let z = &mut z[..2 * len + 1];
    z.fill(0);
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

#[cfg(test)]
mod tests {
    use super::super::zint::mul_small;
    use super::super::zint::tests::from_i128;
    use super::*;

    #[test]
    fn bezout_small() {
        // x = 2^64 + 13, y = 3^40 (both odd, coprime).
        let x = from_i128((1 << 64) + 13, 3);
        let y = from_i128(12_157_665_459_056_928_801, 3);
        let (mut u, mut v) = ([0u32; 3], [0u32; 3]);
        let mut tmp = [0u32; bezout_tmp_words(3)];
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
        assert!(!bezout(
            &mut u,
            &mut v,
            &x[..2],
            &y[..2],
            &mut tmp[..bezout_tmp_words(2)]
        ));
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
            let mut tmp = [0u32; bezout_tmp_words(L)];
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
            let mut tmp3 = [0u32; bezout_tmp_words(L + 1)];
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
}
