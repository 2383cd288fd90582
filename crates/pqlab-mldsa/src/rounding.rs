//! Rounding and hints (FIPS 204, Section 7.4: Algorithms 35 to 40).
//!
//! Decompose is written without division or branches: r1 comes from a multiply-and-shift
//! approximation of r / (2 gamma2) that is exact on [0, q), so no timing depends on the secret
//! w (the known `decompose` division bug class).

use crate::params::{D, Q};

/// FIPS 204, Algorithm 35: Power2Round(r) for r in [0, q): returns (r1, r0) with
/// r = r1 * 2^d + r0 and r0 in (-2^(d-1), 2^(d-1)].
#[inline]
pub(crate) const fn power2round(r: i32) -> (i32, i32) {
    let r1 = (r + (1 << (D - 1)) - 1) >> D;
    (r1, r - (r1 << D))
}

/// FIPS 204, Algorithm 36: Decompose(r) for r in [0, q): returns (r1, r0) with
/// r = r1 * 2 gamma2 + r0 mod q, r0 in (-gamma2, gamma2], and the special case
/// r - r0 = q - 1 mapped to (0, r0 - 1). Its two halves are HighBits and LowBits
/// (Algorithms 37 and 38).
#[inline]
pub(crate) const fn decompose<const GAMMA2: i32>(r: i32) -> (i32, i32) {
    // ceil(r / 128): the common factor 128 of 2 gamma2 for both parameter choices.
    let mut r1 = (r + 127) >> 7;
    if GAMMA2 == (Q - 1) / 32 {
        // 2 gamma2 = 128 * 2046; 1025 / 2^22 approximates 1 / 4092.
        r1 = (r1 * 1025 + (1 << 21)) >> 22;
        // r1 = 16 only in the special case: it wraps to 0.
        r1 &= 15;
    } else {
        // 2 gamma2 = 128 * 1488; 11275 / 2^24 approximates 1 / 1488.
        r1 = (r1 * 11275 + (1 << 23)) >> 24;
        // r1 = 44 only in the special case: set it to 0 without a branch.
        r1 ^= ((43 - r1) >> 31) & r1;
    }
    let mut r0 = r - r1 * 2 * GAMMA2;
    // r0 mod± q: subtract q from values above (q - 1) / 2.
    r0 -= (((Q - 1) / 2 - r0) >> 31) & Q;
    (r1, r0)
}

/// FIPS 204, Algorithm 39: MakeHint, in the form of the reference implementation: given the
/// low part r0 = LowBits(w - cs2) + ct0 (centred) and the high part r1 = HighBits(w), returns 1
/// if adding -ct0 changes the high bits, without branches.
#[inline]
pub(crate) const fn make_hint<const GAMMA2: i32>(r0: i32, r1: i32) -> i32 {
    // 1 if r0 > gamma2, r0 < -gamma2, or (r0 == -gamma2 and r1 != 0).
    let above = ((GAMMA2 - r0) >> 31) & 1;
    let below = ((r0 + GAMMA2) >> 31) & 1;
    let eq = r0 ^ -GAMMA2;
    let at_neg = (((eq | eq.wrapping_neg()) >> 31) & 1) ^ 1;
    let r1_nonzero = ((r1 | r1.wrapping_neg()) >> 31) & 1;
    above | below | (at_neg & r1_nonzero)
}

/// FIPS 204, Algorithm 40: UseHint(h, r) for r in [0, q). Only used on public data.
#[inline]
pub(crate) const fn use_hint<const GAMMA2: i32>(h: bool, r: i32) -> i32 {
    let (r1, r0) = decompose::<GAMMA2>(r);
    let m = (Q - 1) / (2 * GAMMA2);
    if !h {
        r1
    } else if r0 > 0 {
        if r1 == m - 1 { 0 } else { r1 + 1 }
    } else if r1 == 0 {
        m - 1
    } else {
        r1 - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const G88: i32 = (Q - 1) / 88;
    const G32: i32 = (Q - 1) / 32;

    /// FIPS 204, Algorithm 36, written literally with division.
    fn decompose_spec(r: i32, gamma2: i32) -> (i32, i32) {
        let mut r0 = r.rem_euclid(2 * gamma2);
        if r0 > gamma2 {
            r0 -= 2 * gamma2;
        }
        if r - r0 == Q - 1 {
            (0, r0 - 1)
        } else {
            ((r - r0) / (2 * gamma2), r0)
        }
    }

    /// FIPS 204, Algorithm 39 written literally: MakeHint(z, r) = [HighBits(r) != HighBits(r+z)].
    fn make_hint_spec(z: i32, r: i32, gamma2: i32) -> bool {
        let hb = |x: i32| decompose_spec(x.rem_euclid(Q), gamma2).0;
        hb(r) != hb(r + z)
    }

    #[test]
    fn decompose_matches_spec_on_every_r() {
        for r in 0..Q {
            assert_eq!(
                decompose::<G88>(r),
                decompose_spec(r, G88),
                "gamma2=(q-1)/88, r={r}"
            );
            assert_eq!(
                decompose::<G32>(r),
                decompose_spec(r, G32),
                "gamma2=(q-1)/32, r={r}"
            );
        }
    }

    #[test]
    fn power2round_matches_spec() {
        for r in (0..Q).step_by(7).chain([0, 4096, 4097, Q - 1]) {
            let (r1, r0) = power2round(r);
            assert_eq!(r1 * (1 << D) + r0, r);
            assert!(r0 > -(1 << (D - 1)) && r0 <= 1 << (D - 1));
        }
    }

    /// The signer's regime: w with |LowBits(w)| < gamma2 - beta (taking cs2 = 0) and a
    /// perturbation z = ct0 with |z| < gamma2. The fast hint on (w0 + z, w1) must equal
    /// MakeHint(-z, w + z), and UseHint must recover HighBits(w) from w + z.
    fn check_hint<const GAMMA2: i32>(w: i32, z: i32) {
        let (w1, w0) = decompose::<GAMMA2>(w);
        if w0.abs() >= GAMMA2 - 400 {
            return;
        }
        let r = (w + z).rem_euclid(Q);
        let hint = make_hint::<GAMMA2>(w0 + z, w1) == 1;
        assert_eq!(hint, make_hint_spec(-z, r, GAMMA2), "w={w} z={z}");
        assert_eq!(use_hint::<GAMMA2>(hint, r), w1, "w={w} z={z}");
    }

    #[test]
    fn hints_recover_high_bits() {
        let mut x: u64 = 0x1234_5678;
        for _ in 0..300_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let w = (x % Q as u64) as i32;
            let z88 = ((x >> 32) % (2 * G88 as u64 - 1)) as i32 - (G88 - 1);
            let z32 = ((x >> 32) % (2 * G32 as u64 - 1)) as i32 - (G32 - 1);
            check_hint::<G88>(w, z88);
            check_hint::<G32>(w, z32);
        }
        // Edges: w near 0 and q - 1, z at +-(gamma2 - 1).
        for w in [0, 1, 2, Q - 1, Q - 2, G88, G32, 2 * G88, 2 * G32] {
            for z in [-(G88 - 1), -1, 0, 1, G88 - 1] {
                check_hint::<G88>(w, z);
            }
            for z in [-(G32 - 1), -1, 0, 1, G32 - 1] {
                check_hint::<G32>(w, z);
            }
        }
    }

    /// The r0 check of signing in the reference form (`sign/kept.rs`, FIPS 204 Algorithm 7
    /// line 23 with w0 = LowBits(w) computed once): for |c s2| <= beta, |w0 - c s2| >= gamma2 -
    /// beta exactly where |LowBits(w - c s2)| >= gamma2 - beta, and where it is not,
    /// LowBits(w - c s2) = w0 - c s2 and HighBits(w - c s2) = HighBits(w) (so the hints are the
    /// same). Every w within 2 beta + 2 of a rounding boundary (the odd multiples of gamma2,
    /// and 0 and q - 1, where Decompose wraps around) against every c s2 in [-beta, beta], and
    /// every w in [0, q) against c s2 = -beta, 0, beta. Returns the accepted cases in the
    /// wrap-around (w or w - c s2 in [q - gamma2, q)) and the rejected ones.
    fn r0_check_equivalence<const GAMMA2: i32>(beta: i32) -> (usize, usize) {
        let bound = GAMMA2 - beta;
        let (mut wrapped, mut rejected) = (0, 0);
        let mut check = |w: i32, cs2: i32| {
            let (w1, w0) = decompose::<GAMMA2>(w);
            let r = (w - cs2).rem_euclid(Q);
            let (r1, r0) = decompose_spec(r, GAMMA2);
            let reject = r0.abs() >= bound;
            assert_eq!((w0 - cs2).abs() >= bound, reject, "w={w} cs2={cs2}");
            if reject {
                rejected += 1;
            } else {
                assert_eq!((r1, r0), (w1, w0 - cs2), "w={w} cs2={cs2}");
                if w >= Q - GAMMA2 || r >= Q - GAMMA2 {
                    wrapped += 1;
                }
            }
        };
        let m = (Q - 1) / (2 * GAMMA2);
        let edges = (0..m).map(|j| (2 * j + 1) * GAMMA2).chain([0, Q - 1]);
        for e in edges {
            let lo = (e - 2 * beta - 2).max(0);
            let hi = (e + 2 * beta + 2).min(Q - 1);
            for w in lo..=hi {
                for cs2 in -beta..=beta {
                    check(w, cs2);
                }
            }
        }
        for w in 0..Q {
            for cs2 in [-beta, 0, beta] {
                check(w, cs2);
            }
        }
        (wrapped, rejected)
    }

    #[test]
    fn r0_check_on_w0_is_the_check_on_lowbits() {
        // (gamma2, beta = tau eta) of ML-DSA-44, 65 and 87.
        for (name, (wrapped, rejected)) in [
            ("ML-DSA-44", r0_check_equivalence::<G88>(39 * 2)),
            ("ML-DSA-65", r0_check_equivalence::<G32>(49 * 4)),
            ("ML-DSA-87", r0_check_equivalence::<G32>(60 * 2)),
        ] {
            assert!(
                wrapped > 1000 && rejected > 1000,
                "{name}: {wrapped} {rejected}"
            );
        }
    }
}
