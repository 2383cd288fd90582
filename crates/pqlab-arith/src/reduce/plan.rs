//! The compile-time machinery shared by the strategy-generic NTTs of [`super::ntt_mldsa`],
//! [`super::ntt_mlkem`] and [`super::ntt_falcon`]: twiddle tables pre-scaled per strategy, and
//! the *plans* that follow the worst-case coefficient bound through the layers.
//!
//! A modulus describes its transforms once, as a [`Shape`] (coefficient type range, twiddle
//! range, what its extra reduction pass accepts and returns, the contracts of the forward and
//! inverse transforms); [`forward_plan`] and [`inverse_plan`] then derive, for any strategy
//! `S`, where an extra pass over all coefficients is needed: before a layer whose products
//! would leave the strategy's input range or whose results would leave the coefficient type,
//! and after the last step where the output would miss the transform's contract. The bounds
//! are those the strategies state ([`Reduction::RULE`]), so a plan is a proof that the
//! transform neither overflows nor leaves its contract, checked by the compiler.
//!
//! [`twiddles`] computes the powers root^BitRev(k) pre-scaled by FACTOR^-1 ([`prescale`]), the
//! form every table of the three transforms has (FIPS 204 Appendix B, FIPS 203 Appendix A,
//! Falcon v1.2 Section 3.7.4 order).

use super::{Reduction, pow_mod, prescale};

/// The most layers a transform here has (Falcon, n = 1024).
pub const MAX_LAYERS: usize = 10;

/// How one modulus's forward and inverse transforms are built, for the plans.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// Number of butterfly layers.
    pub layers: usize,
    /// The largest |twiddle| (the tables are centred).
    pub zmax: i64,
    /// The largest |coefficient| the coefficient type holds.
    pub coeff_max: i64,
    /// The largest |coefficient| the extra reduction pass accepts.
    pub pass_in_max: i64,
    /// The largest |coefficient| the extra reduction pass returns.
    pub pass_out_max: i64,
    /// The bound on |in| of the forward transform.
    pub forward_in: i64,
    /// The forward output must stay below this (a pass after the last layer otherwise); 0
    /// means the transform always ends with a pass.
    pub forward_out: i64,
    /// The bound on |in| of the inverse transform.
    pub inverse_in: i64,
    /// Whether the inverse reduces the sums of each butterfly with the pass's reduction
    /// (FIPS 203, Algorithm 10 as the reference writes it) instead of letting them grow.
    pub inverse_sums_reduced: bool,
    /// The inverse output must stay below this (a pass after the final scaling otherwise).
    pub inverse_out: i64,
}

/// Where a transform needs extra reduction passes, and the bound it guarantees.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plan {
    /// A pass before layer i (layer 0 is the first); entries past the last layer are false.
    pub pass_before: [bool; MAX_LAYERS],
    /// A pass after the last step.
    pub pass_after: bool,
    /// The worst-case |coefficient| of the output.
    pub out_max: i64,
}

impl Plan {
    /// Whether the plan has a pass between layers (if not, the transform's loop skips the
    /// check).
    pub const fn any_between(&self) -> bool {
        let mut i = 0;
        while i < MAX_LAYERS {
            if self.pass_before[i] {
                return true;
            }
            i += 1;
        }
        false
    }
}

const fn forward_layer_ok<S: Reduction>(sh: &Shape, b: i64) -> bool {
    sh.zmax * b <= S::IN_MAX && b + S::RULE.out_bound(sh.zmax * b) <= sh.coeff_max
}

/// The plan of a Cooley-Tukey forward transform (a\[j\] +- reduce(zeta a\[j + len\])) of shape
/// `sh` under strategy `S`.
pub const fn forward_plan<S: Reduction>(sh: Shape) -> Plan {
    assert!(sh.layers <= MAX_LAYERS);
    let mut p = Plan {
        pass_before: [false; MAX_LAYERS],
        pass_after: false,
        out_max: 0,
    };
    let mut b = sh.forward_in;
    let mut l = 0;
    while l < sh.layers {
        if !forward_layer_ok::<S>(&sh, b) {
            assert!(b <= sh.pass_in_max);
            p.pass_before[l] = true;
            b = sh.pass_out_max;
            assert!(forward_layer_ok::<S>(&sh, b));
        }
        b += S::RULE.out_bound(sh.zmax * b);
        l += 1;
    }
    if b >= sh.forward_out {
        assert!(b <= sh.pass_in_max);
        p.pass_after = true;
        b = sh.pass_out_max;
    }
    p.out_max = b;
    p
}

const fn inverse_layer_ok<S: Reduction>(sh: &Shape, b: i64) -> bool {
    2 * b <= sh.coeff_max
        && sh.zmax * 2 * b <= S::IN_MAX
        && S::RULE.out_bound(sh.zmax * 2 * b) <= sh.coeff_max
}

/// The plan of a Gentleman-Sande inverse transform (a\[j\] + a\[j + len\], reduce(zeta (a\[j\] -
/// a\[j + len\]))) of shape `sh` under strategy `S`, followed by the scaling with the
/// pre-scaled factor `f`.
pub const fn inverse_plan<S: Reduction>(sh: Shape, f: i64) -> Plan {
    assert!(sh.layers <= MAX_LAYERS);
    let mut p = Plan {
        pass_before: [false; MAX_LAYERS],
        pass_after: false,
        out_max: 0,
    };
    let mut b = sh.inverse_in;
    let mut l = 0;
    while l < sh.layers {
        if !inverse_layer_ok::<S>(&sh, b) {
            assert!(b <= sh.pass_in_max);
            p.pass_before[l] = true;
            b = sh.pass_out_max;
            assert!(inverse_layer_ok::<S>(&sh, b));
        }
        let t = S::RULE.out_bound(sh.zmax * 2 * b);
        let s = if sh.inverse_sums_reduced {
            sh.pass_out_max
        } else {
            2 * b
        };
        b = if t > s { t } else { s };
        l += 1;
    }
    assert!(f.abs() * b <= S::IN_MAX);
    b = S::RULE.out_bound(f.abs() * b);
    assert!(b <= sh.coeff_max);
    if b >= sh.inverse_out {
        assert!(b <= sh.pass_in_max);
        p.pass_after = true;
        b = sh.pass_out_max;
    }
    p.out_max = b;
    p
}

/// t\[k\] = root^BitRev_bits(k) * FACTOR^-1 mod q, centred in (-q/2, q/2], for k < N (the
/// bit-reversed twiddle order of FIPS 203/204 and Falcon, pre-scaled for `S`).
pub const fn twiddles<S: Reduction, const N: usize>(root: i64, bits: u32) -> [i64; N] {
    assert!(N <= 1 << bits && bits >= 1 && bits <= 16);
    let mut t = [0i64; N];
    let mut k = 0;
    while k < N {
        let e = (k as u16).reverse_bits() >> (16 - bits);
        t[k] = prescale::<S>(pow_mod(root, e as u64, S::Q));
        k += 1;
    }
    t
}

/// A table of centred values narrowed to `i32` (each must fit).
pub const fn narrow_i32<const N: usize>(t: [i64; N]) -> [i32; N] {
    let mut o = [0i32; N];
    let mut k = 0;
    while k < N {
        assert!(t[k] >= i32::MIN as i64 && t[k] <= i32::MAX as i64);
        o[k] = t[k] as i32;
        k += 1;
    }
    o
}

/// A table of centred values narrowed to `i16` (each must fit).
pub const fn narrow_i16<const N: usize>(t: [i64; N]) -> [i16; N] {
    let mut o = [0i16; N];
    let mut k = 0;
    while k < N {
        assert!(t[k] >= i16::MIN as i64 && t[k] <= i16::MAX as i64);
        o[k] = t[k] as i16;
        k += 1;
    }
    o
}
