//! The floating-point approximations of big-integer polynomials that Babai's reduction
//! (Falcon spec v1.2, Algorithm 7: Reduce) works on, computed as the round-3 reference's
//! `poly_big_to_fp` does (`keygen.c`), eight coefficients at a time: the integer words of the
//! eight windows first, then the floating-point sums lane by lane, so that the eight
//! independent chains of additions overlap (and vectorize on the x86-64 back ends, which
//! compile the same body with AVX2 or AVX-512 enabled: the same operations lane by lane,
//! hence the same values; the tests compare every available back end with the scalar oracle
//! [`super::zint::window_to_fpr`]).

use pqlab_backend::Backend;

use crate::fpr::Fpr;

/// Coefficients converted together.
const LANES: usize = 8;
/// The most 31-bit words of a window (the reference's 10).
pub(crate) const MAX_RLEN: usize = 10;

/// out\[i\] = floor(x_i / 2^shift) for the n = out.len() signed integers x_i of `w` words held
/// one after the other in `d`, each kept in `rlen` <= [`MAX_RLEN`] 31-bit words, as
/// [`super::zint::window_to_fpr`] computes it: the magnitude's words from the lowest, each
/// converted exactly, scaled by 2^(31 v) and added in that order with a rounding at every
/// addition. A negative value's sum is that of its magnitude negated (the additions of
/// negated terms round to the negated sums: round-to-nearest-even is symmetric), taken as
/// 0 - sum so that a zero sum stays +0 as in the reference. The caller ensures that the
/// window holds every value (x_i fits in shift + 31 rlen signed bits). Constant-time in the
/// values (NTRUSolve as a whole is not, see [`super::solve`]).
pub(crate) fn windows_to_fpr(
    backend: Backend,
    d: &[u32],
    w: usize,
    shift: u32,
    rlen: usize,
    out: &mut [Fpr],
) {
    #[cfg(target_arch = "x86_64")]
    if backend != Backend::Portable {
        x86::windows_to_fpr(backend, d, w, shift, rlen, out);
        return;
    }
    let _ = backend;
    windows_to_fpr_body(d, w, shift, rlen, out);
}

/// The body of [`windows_to_fpr`], compiled once per back end.
#[inline(always)]
fn windows_to_fpr_body(d: &[u32], w: usize, shift: u32, rlen: usize, out: &mut [Fpr]) {
    let rlen = rlen.min(MAX_RLEN);
    let scale: [Fpr; MAX_RLEN] = core::array::from_fn(|v| Fpr::pow2(31 * v as i32));
    for (c, o) in out.chunks_mut(LANES).enumerate() {
        // The words of the magnitudes, word-major; the signs.
        let mut words = [[0u32; LANES]; MAX_RLEN];
        let mut negs = [false; LANES];
        for (l, neg) in negs.iter_mut().enumerate().take(o.len()) {
            let i = c * LANES + l;
            let x = &d[i * w..(i + 1) * w];
            *neg = magnitude_words(x, shift, rlen, &mut words, l);
        }
        let mut acc = [Fpr::ZERO; LANES];
        for (v, row) in words.iter().enumerate().take(rlen) {
            for (a, &x) in acc.iter_mut().zip(row) {
                *a = a.add(Fpr::of(i64::from(x)).mul(scale[v]));
            }
        }
        for ((o, &a), &neg) in o.iter_mut().zip(&acc).zip(&negs) {
            *o = if neg { Fpr::ZERO.sub(a) } else { a };
        }
    }
}

/// The 31-bit words of the magnitude of floor(x / 2^shift) (of the window's two's-complement
/// negation when x is negative, as the reference takes them), stored in column `l` of
/// `words`; returns whether x is negative.
#[inline(always)]
fn magnitude_words(
    x: &[u32],
    shift: u32,
    rlen: usize,
    words: &mut [[u32; LANES]; MAX_RLEN],
    l: usize,
) -> bool {
    let top = x[x.len() - 1];
    let neg = top >> 31 == 1;
    let sw = 0u32.wrapping_sub(top >> 31);
    // Complement, plus one.
    let xm = sw >> 1;
    let mut cc = sw & 1;
    let word = |i: usize| x.get(i).copied().unwrap_or(sw);
    for (v, row) in words.iter_mut().enumerate().take(rlen) {
        let pos = shift as usize + 31 * v;
        let (i, b) = (pos / 32, pos % 32);
        let raw = ((u64::from(word(i + 1)) << 32 | u64::from(word(i))) >> b) as u32 & 0x7FFF_FFFF;
        let m = (raw ^ xm) + cc;
        cc = m >> 31;
        row[l] = m & 0x7FFF_FFFF;
    }
    neg
}

/// [`windows_to_fpr_body`] compiled for the x86-64 back ends.
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
mod x86 {
    use super::{Backend, Fpr, windows_to_fpr_body};

    /// `backend` comes from `pqlab_backend::selected()` (or `available()`), which only
    /// answers a back end whose CPU features were detected.
    pub(super) fn windows_to_fpr(
        backend: Backend,
        d: &[u32],
        w: usize,
        shift: u32,
        rlen: usize,
        out: &mut [Fpr],
    ) {
        match backend {
            // SAFETY: AVX-512 (F, BW, VL, DQ) was detected before the back end was answered.
            Backend::Avx512 => unsafe { avx512(d, w, shift, rlen, out) },
            // SAFETY: AVX2 was detected before the back end was answered.
            Backend::Avx2 => unsafe { avx2(d, w, shift, rlen, out) },
            Backend::Portable => windows_to_fpr_body(d, w, shift, rlen, out),
        }
    }

    #[target_feature(enable = "avx2")]
    fn avx2(d: &[u32], w: usize, shift: u32, rlen: usize, out: &mut [Fpr]) {
        windows_to_fpr_body(d, w, shift, rlen, out);
    }

    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq")]
    fn avx512(d: &[u32], w: usize, shift: u32, rlen: usize, out: &mut [Fpr]) {
        windows_to_fpr_body(d, w, shift, rlen, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::keygen::zint::window_to_fpr;

    /// Every back end gives the scalar oracle's values, bit for bit, on integers of every
    /// sign and size around the window (including values that fill it, zeros, -1 and
    /// windows past the stored words), for every window length.
    #[test]
    fn windows_match_scalar_oracle() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        let mut rnd = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let mut checked = 0;
        for w in [1usize, 2, 5, 11, 40] {
            let n = 21;
            for round in 0..40 {
                let mut d = std::vec![0u32; n * w];
                for (i, c) in d.chunks_mut(w).enumerate() {
                    // Significant bits: a random count, the rest sign words.
                    let bits = (rnd() % (32 * w as u64 + 1)) as usize;
                    let neg = (i + round) % 3 == 0;
                    for (k, word) in c.iter_mut().enumerate() {
                        let r = rnd() as u32;
                        *word = if 32 * (k + 1) <= bits {
                            r
                        } else if 32 * k < bits {
                            r & ((1u32 << (bits % 32)) - 1)
                        } else {
                            0
                        };
                        if neg {
                            *word = !*word;
                        }
                    }
                    if i % 7 == 3 {
                        c.fill(if neg { u32::MAX } else { 0 });
                    }
                }
                for rlen in 1..=MAX_RLEN {
                    // A window that holds every value: shift + 31 rlen >= 32 w.
                    let shift = (32 * w).saturating_sub(31 * rlen) as u32;
                    for shift in [shift, shift + 5] {
                        for backend in pqlab_backend::available() {
                            let mut out = std::vec![Fpr::ZERO; n];
                            windows_to_fpr(backend, &d, w, shift, rlen, &mut out);
                            for (i, o) in out.iter().enumerate() {
                                let want = window_to_fpr(&d[i * w..(i + 1) * w], shift, rlen);
                                assert_eq!(
                                    o.to_bits(),
                                    want.to_bits(),
                                    "w {w} rlen {rlen} shift {shift} coefficient {i} {backend:?}"
                                );
                                checked += 1;
                            }
                        }
                    }
                }
            }
        }
        assert!(checked > 10_000);
    }
}
