//! Arithmetic modulo q = 12289 (Falcon specification v1.2, Section 3.6): Barrett reduction and
//! the negacyclic NTT over Z_q\[x\]/(x^n + 1) for n = 2^logn, logn in 1..=10.
//!
//! Polynomials are `u16` slices of length n with coefficients in \[0, q). [`ntt`] and
//! [`intt`] (generic over the reduction strategy in [`crate::reduce::ntt_falcon`]) are the Cooley-Tukey / Gentleman-Sande transforms with the powers of a primitive
//! 2048th root of unity psi in bit-reversed order; the same table serves every n, since
//! psi^BitRev10(k) for k < n is the table of the 2n-th root psi^(1024/n).
//!
//! Nothing here branches on, indexes memory by, or divides by a coefficient: every reduction
//! is a multiplication, a shift and a masked subtraction, so key generation may use these
//! kernels on secret polynomials.

/// The modulus q = 12289 = 3 * 2^12 + 1.
pub const Q: u32 = 12289;

/// The largest supported degree, n = 1024.
pub const MAX_N: usize = 1024;

/// floor(2^40 / q), the Barrett constant of [`reduce`].
const BARRETT_M: u64 = (1u64 << 40) / Q as u64;

/// a mod q for every a < 2^32, in \[0, q).
#[inline(always)]
pub const fn reduce(a: u32) -> u32 {
    let t = ((a as u64 * BARRETT_M) >> 40) as u32;
    let r = a - t * Q;
    // r < 2q: subtract q once when r >= q, with a mask.
    let s = r.wrapping_sub(Q);
    s.wrapping_add(Q & 0u32.wrapping_sub(s >> 31))
}

/// a + b mod q for a, b in \[0, q).
#[inline(always)]
pub const fn add(a: u32, b: u32) -> u32 {
    let s = (a + b).wrapping_sub(Q);
    s.wrapping_add(Q & 0u32.wrapping_sub(s >> 31))
}

/// a - b mod q for a, b in \[0, q).
#[inline(always)]
pub const fn sub(a: u32, b: u32) -> u32 {
    let s = a.wrapping_sub(b);
    s.wrapping_add(Q & 0u32.wrapping_sub(s >> 31))
}

/// a * b mod q for a, b in \[0, q).
#[inline(always)]
pub const fn mul(a: u32, b: u32) -> u32 {
    reduce(a * b)
}

/// a^e mod q (square and multiply over the bits of the public exponent e).
pub const fn pow(a: u32, mut e: u32) -> u32 {
    let mut r = 1;
    let mut b = a;
    while e > 0 {
        if e & 1 == 1 {
            r = mul(r, b);
        }
        b = mul(b, b);
        e >>= 1;
    }
    r
}

/// a^-1 mod q as a^(q-2) (0 maps to 0); constant time in a.
pub const fn inv(a: u32) -> u32 {
    pow(a, Q - 2)
}

/// The smallest generator of the multiplicative group mod q (q - 1 = 2^12 * 3).
const GENERATOR: u32 = {
    let mut g = 2;
    while pow(g, (Q - 1) / 2) == 1 || pow(g, (Q - 1) / 3) == 1 {
        g += 1;
    }
    g
};

/// psi, a primitive 2048th root of unity modulo q.
pub const PSI: u32 = pow(GENERATOR, (Q - 1) / 2048);

/// PSI_POWERS\[k\] = psi^BitRev10(k) mod q (plain form; the transforms use the per-strategy
/// pre-scaled tables of [`crate::reduce::ntt_falcon::Tables`]).
pub const PSI_POWERS: [u16; MAX_N] = {
    let mut t = [0u16; MAX_N];
    let mut k = 0;
    while k < MAX_N {
        let r = (k as u16).reverse_bits() >> 6;
        t[k] = pow(PSI, r as u32) as u16;
        k += 1;
    }
    t
};

/// PSI_INV_POWERS\[k\] = psi^-BitRev10(k) mod q.
pub const PSI_INV_POWERS: [u16; MAX_N] = {
    let mut t = [0u16; MAX_N];
    let mut k = 0;
    while k < MAX_N {
        t[k] = inv(PSI_POWERS[k] as u32) as u16;
        k += 1;
    }
    t
};

/// Forward negacyclic NTT in place (coefficients in \[0, q), length a power of two up to
/// [`MAX_N`]); the output is in bit-reversed order.
///
/// Montgomery reduction by type ([`crate::reduce::ntt_falcon::Mont`], the fastest constant-time
/// strategy for q = 12289 in `pqlab compare --reductions`); the study's other strategies are
/// the separate instantiations [`crate::reduce::ntt_falcon::ntt_with`] (the same bits).
pub fn ntt(a: &mut [u16]) {
    let _k = pqlab_profile::enter(pqlab_profile::Kernel::Ntt);
    crate::reduce::ntt_falcon::ntt_with::<crate::reduce::ntt_falcon::Mont>(a);
}

/// Inverse of [`ntt`] in place, including the factor n^-1; Montgomery by type, like [`ntt`].
pub fn intt(a: &mut [u16]) {
    let _k = pqlab_profile::enter(pqlab_profile::Kernel::InvNtt);
    crate::reduce::ntt_falcon::intt_with::<crate::reduce::ntt_falcon::Mont>(a);
}

/// Pointwise product in the NTT domain: a\[i\] = a\[i\] * b\[i\] mod q.
pub fn pointwise_mul(a: &mut [u16], b: &[u16]) {
    for (x, y) in a.iter_mut().zip(b.iter()) {
        *x = mul(u32::from(*x), u32::from(*y)) as u16;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn schoolbook(a: &[u16], b: &[u16]) -> [u16; 64] {
        let n = a.len();
        let mut r = [0u16; 64];
        for i in 0..n {
            for j in 0..n {
                let p = mul(u32::from(a[i]), u32::from(b[j]));
                let k = (i + j) % n;
                r[k] = if i + j < n {
                    add(u32::from(r[k]), p) as u16
                } else {
                    sub(u32::from(r[k]), p) as u16
                };
            }
        }
        r
    }

    #[test]
    fn reduce_is_exact() {
        for a in (0u32..u32::MAX - 7919)
            .step_by(7919)
            .chain([u32::MAX, Q, Q - 1, 2 * Q])
        {
            assert_eq!(reduce(a), a % Q);
        }
    }

    #[test]
    fn psi_has_order_2048() {
        assert_eq!(pow(PSI, 1024), Q - 1);
        assert_eq!(pow(PSI, 2048), 1);
    }

    #[test]
    fn ntt_multiplies_negacyclically() {
        let a: [u16; 64] = core::array::from_fn(|i| ((i * 977 + 13) % Q as usize) as u16);
        let b: [u16; 64] = core::array::from_fn(|i| ((i * i * 31 + 7) % Q as usize) as u16);
        let want = schoolbook(&a, &b);
        let (mut x, mut y) = (a, b);
        ntt(&mut x);
        ntt(&mut y);
        pointwise_mul(&mut x, &y);
        intt(&mut x);
        assert_eq!(x, want);
        let mut z = a;
        ntt(&mut z);
        intt(&mut z);
        assert_eq!(z, a);
    }
}
