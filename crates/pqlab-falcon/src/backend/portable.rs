//! The portable back end: the kernels of [`Ops`] in plain Rust, one coefficient at a time, with
//! the 16-bit operations of the SIMD back ends ([`montmul`], [`barrett`]) so that every back end
//! returns the same bits. The only back end on targets without run-time detection.

use pqlab_backend::Backend;

use super::{
    FWD, INV, Ops, Q, QINV, barrett, final_factor, montmul, mulhi, mullo, reduce_after, to_unsigned,
};

/// The portable kernels.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Portable;

/// Transposes every 256-coefficient block as a 16 x 16 matrix (between the standard order and
/// the NTT order of this module; an involution).
pub(crate) fn transpose_blocks(a: &mut [i16]) {
    for blk in a.chunks_exact_mut(256) {
        for v in 0..16 {
            for l in v + 1..16 {
                blk.swap(16 * v + l, 16 * l + v);
            }
        }
    }
}

impl Ops for Portable {
    const BACKEND: Backend = Backend::Portable;

    /// Falcon spec v1.2, Section 3.7.4: `mq_NTT` (Cooley-Tukey, twiddles psi^BitRev(k)).
    fn ntt<const N: usize>(a: &mut [i16; N]) {
        const { crate::params::check_n(N) };
        let _k = pqlab_profile::enter(pqlab_profile::Kernel::Ntt);
        let logn = N.trailing_zeros();
        let mut ht = N / 2;
        let mut layer = 1;
        while ht >= 1 {
            let m = N / (2 * ht);
            for i in 0..m {
                let (z, zq) = (FWD.z[m + i], FWD.zq[m + i]);
                let j1 = 2 * i * ht;
                for j in j1..j1 + ht {
                    let t = montmul(a[j + ht], z, zq);
                    let u = a[j];
                    a[j] = u.wrapping_add(t);
                    a[j + ht] = u.wrapping_sub(t);
                }
            }
            if reduce_after(logn, layer) {
                for x in a.iter_mut() {
                    *x = barrett(*x);
                }
            }
            ht /= 2;
            layer += 1;
        }
        for x in a.iter_mut() {
            *x = to_unsigned(*x);
        }
        transpose_blocks(a);
    }

    fn pointwise<const N: usize>(a: &mut [i16; N], b: &[i16; N]) {
        for (x, &y) in a.iter_mut().zip(b.iter()) {
            let lo = mullo(*x, y);
            *x = mulhi(*x, y).wrapping_sub(mulhi(mullo(lo, QINV), Q));
        }
    }

    /// Falcon spec v1.2, Section 3.7.4: `mq_iNTT` (Gentleman-Sande, twiddles psi^-BitRev(k)),
    /// times 2^16.
    fn intt_mont<const N: usize>(a: &mut [i16; N]) {
        const { crate::params::check_n(N) };
        let _k = pqlab_profile::enter(pqlab_profile::Kernel::InvNtt);
        transpose_blocks(a);
        let mut t = 1;
        while t < N {
            let hm = N / (2 * t);
            for i in 0..hm {
                let (z, zq) = (INV.z[hm + i], INV.zq[hm + i]);
                let j1 = 2 * i * t;
                for j in j1..j1 + t {
                    let (u, v) = (a[j], a[j + t]);
                    a[j] = barrett(u.wrapping_add(v));
                    a[j + t] = montmul(u.wrapping_sub(v), z, zq);
                }
            }
            t *= 2;
        }
        let (f, fq) = final_factor(N.trailing_zeros());
        for x in a.iter_mut() {
            *x = montmul(*x, f, fq);
        }
    }

    fn norm<const N: usize>(c: &[u16; N], t: &[i16; N], s2: &[i16; N]) -> u32 {
        let q = i32::from(Q);
        let mut s: u32 = 0;
        let mut ng: u32 = 0;
        for i in 0..N {
            // c - t in (-q, 2q), then [0, q), then centred.
            let mut d = i32::from(c[i]) - i32::from(t[i]);
            d += q & (d >> 31);
            d -= q & !((d - q) >> 31);
            d -= q & (((q - 1) / 2 - d) >> 31);
            let b = i32::from(s2[i]);
            s = s.wrapping_add((d * d) as u32);
            ng |= s;
            s = s.wrapping_add((b * b) as u32);
            ng |= s;
        }
        s | 0u32.wrapping_sub(ng >> 31)
    }
}
