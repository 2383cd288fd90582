//! The back-end boundary of Falcon verification (DESIGN §5): the NTT modulo q = 12289 for
//! n = 512 and 1024 (Falcon spec v1.2, Section 3.7.4: the reference's `mq_NTT`, `mq_iNTT`,
//! `mq_poly_montymul_ntt`) and the squared norm of Algorithm 16 behind one trait, [`Ops`],
//! implemented by [`portable::Portable`] (plain Rust, every target) and, on x86-64, by
//! `avx2::Avx2` and `avx512::Avx512`, in twin files of the same names. Verification is written
//! once, generic over `B: Ops`; each public call picks its back end once with [`dispatch!`]
//! from `pqlab_backend::selected()`.
//!
//! Arithmetic: 16-bit lanes. Coefficients are `i16`; a product by a twiddle is a Montgomery
//! multiplication with R = 2^16 ([`montmul`], the `vpmullw` / `vpmulhw` sequence of the SIMD
//! kernels), sums are reduced with a rounding Barrett reduction ([`barrett`]). Every back end
//! performs the same sequence of 16-bit operations on every coefficient, so **all back ends
//! return the same bits**, and the tests compare them for equality.
//!
//! NTT domain order: the standard bit-reversed order of the reference's `mq_NTT`, except that
//! each block of 256 coefficients is stored transposed as a 16 x 16 matrix (the standard
//! position 256 b + 16 v + l is stored at 256 b + 16 l + v). This lets the SIMD kernels run
//! the last four layers of the forward transform, and the first four of the inverse, on whole
//! vectors after one in-register transposition. The order is the same in every back end, so an
//! NTT computed by one back end (a [`crate::VerifyingKey`]'s NTT(h)) is valid for all.
//!
//! Bounds (checked by hand below and exercised by the tests on extreme inputs): the forward
//! transform takes |a_i| <= q and reduces after every second layer (counted from the last), so
//! no lane ever leaves i16; the inverse reduces the sums of every layer.
//!
//! Verification handles public data only; the kernels have no secret-dependent branch or index
//! anyway.

use pqlab_arith::falcon::{PSI_INV_POWERS, PSI_POWERS};
use pqlab_backend::Backend;

use crate::fpr::Fpr;

#[cfg(target_arch = "x86_64")]
pub(crate) mod avx2;
#[cfg(all(target_arch = "x86_64", not(feature = "fpr-emu")))]
mod avx2_fft;
#[cfg(all(target_arch = "x86_64", not(feature = "fpr-emu")))]
mod avx2_ldl;
#[cfg(all(target_arch = "x86_64", not(feature = "fpr-emu")))]
mod avx2_tree;
#[cfg(target_arch = "x86_64")]
pub(crate) mod avx512;
#[cfg(target_arch = "x86_64")]
mod avx512_fft;
#[cfg(target_arch = "x86_64")]
mod avx512_fpr;
#[cfg(target_arch = "x86_64")]
mod avx512_ldl;
#[cfg(target_arch = "x86_64")]
mod avx512_tree;
pub(crate) mod portable;

/// q = 12289.
pub(crate) const Q: i16 = 12289;

/// q^-1 mod 2^16 (as a wrapping `i16`), by Newton iteration x <- x (2 - q x).
pub(crate) const QINV: i16 = {
    let q = Q as u32;
    let mut x: u32 = 1;
    let mut k = 0;
    while k < 5 {
        x = x.wrapping_mul(2u32.wrapping_sub(q.wrapping_mul(x)));
        k += 1;
    }
    x as u16 as i16
};
const _: () = assert!((Q as i32).wrapping_mul(QINV as i32) & 0xffff == 1);

/// round(2^28 / q), the Barrett constant of [`barrett`].
pub(crate) const BARRETT_V: i16 = 21844;
const _: () = assert!(BARRETT_V as i64 == ((1i64 << 28) + 12289 / 2) / 12289);

/// The high half of the 32-bit product (`vpmulhw`).
#[inline(always)]
pub(crate) const fn mulhi(a: i16, b: i16) -> i16 {
    ((a as i32 * b as i32) >> 16) as i16
}

/// The low half of the product (`vpmullw`).
#[inline(always)]
pub(crate) const fn mullo(a: i16, b: i16) -> i16 {
    a.wrapping_mul(b)
}

/// Montgomery multiplication by a constant z given with zq = z q^-1 mod 2^16:
/// a z 2^-16 mod q, of absolute value below |a z| / 2^16 + q / 2.
#[inline(always)]
pub(crate) const fn montmul(a: i16, z: i16, zq: i16) -> i16 {
    mulhi(a, z).wrapping_sub(mulhi(mullo(a, zq), Q))
}

/// a mod q with a rounded quotient: |result| <= q / 2 + 1 for every `i16` a
/// (t = round(a * round(2^28 / q) / 2^28), computed as `vpmulhw` then `vpmulhrsw` by 8).
#[inline(always)]
pub(crate) const fn barrett(a: i16) -> i16 {
    let t = mulhi(a, BARRETT_V);
    let t = ((t as i32 * 8 + (1 << 14)) >> 15) as i16;
    a.wrapping_sub(t.wrapping_mul(Q))
}

/// x centred in (-q, q) brought into \[0, q).
#[inline(always)]
pub(crate) const fn to_unsigned(x: i16) -> i16 {
    x.wrapping_add(Q & (x >> 15))
}

/// z 2^16 mod q, centred (the Montgomery form of a twiddle).
const fn mont_form(z: u16) -> i16 {
    let r = ((z as u32) << 16) % (Q as u32);
    let r = r as i32;
    (if r > (Q as i32) / 2 { r - Q as i32 } else { r }) as i16
}

/// A twiddle table in Montgomery form with its q^-1 multiples.
pub(crate) struct Twiddles {
    /// z 2^16 mod q, centred.
    pub(crate) z: [i16; 1024],
    /// z 2^16 q^-1 mod 2^16.
    pub(crate) zq: [i16; 1024],
}

const fn twiddles(t: &[u16; 1024]) -> Twiddles {
    let mut out = Twiddles {
        z: [0; 1024],
        zq: [0; 1024],
    };
    let mut k = 0;
    while k < 1024 {
        out.z[k] = mont_form(t[k]);
        out.zq[k] = mullo(out.z[k], QINV);
        k += 1;
    }
    out
}

/// psi^BitRev10(k) (the reference's `GMb`, for every n: see `pqlab_arith::falcon`).
pub(crate) static FWD: Twiddles = twiddles(&PSI_POWERS);
/// psi^-BitRev10(k) (the reference's `iGMb`).
pub(crate) static INV: Twiddles = twiddles(&PSI_INV_POWERS);

/// The final factor of the inverse, 2^-logn * 2^32 mod q (centred) and its q^-1 multiple, for
/// logn = 9 and 10: the inverse returns n^-1 * 2^16 times the plain inverse, which cancels the
/// 2^-16 of [`Ops::pointwise`].
pub(crate) const fn final_factor(logn: u32) -> (i16, i16) {
    let q = Q as u64;
    // 2^32 / 2^logn = 2^(32 - logn) mod q.
    let mut r: u64 = 1;
    let mut k = 0;
    while k < 32 - logn {
        r = (r * 2) % q;
        k += 1;
    }
    let r = r as i32;
    let z = (if r > (Q as i32) / 2 { r - Q as i32 } else { r }) as i16;
    (z, mullo(z, QINV))
}

#[cfg(target_arch = "x86_64")]
/// Twiddle vectors of the four layers run on a transposed 16 x 16 block (distances 8, 4, 2, 1):
/// entry \[B\]\[idx\] lane v is the twiddle of the butterflies of row v, for the virtual block
/// B (blocks 0 and 1 of n = 512 are B = 0, 1; blocks 0 to 3 of n = 1024 are B = 2 to 5) and
/// idx = 8 / ht - 1 + g for the group g of columns l (g = l / (2 ht)). For the forward
/// transform with distance ht the twiddle index is n / (2 ht) + (256 b + 16 v) / (2 ht) + g,
/// which is 128 (2 + B) / ht + 8 v / ht + g for both n; the inverse has the same indices.
pub(crate) struct BlockTwiddles {
    /// Montgomery twiddles.
    pub(crate) z: [[[i16; 16]; 15]; 6],
    /// Their q^-1 multiples.
    pub(crate) zq: [[[i16; 16]; 15]; 6],
}

#[cfg(target_arch = "x86_64")]
const fn block_twiddles(t: &Twiddles) -> BlockTwiddles {
    let mut out = BlockTwiddles {
        z: [[[0; 16]; 15]; 6],
        zq: [[[0; 16]; 15]; 6],
    };
    let mut b = 0;
    while b < 6 {
        let mut ht = 8;
        while ht >= 1 {
            let mut g = 0;
            while g < 8 / ht {
                let mut v = 0;
                while v < 16 {
                    let k = 128 * (2 + b) / ht + 8 * v / ht + g;
                    out.z[b][8 / ht - 1 + g][v] = t.z[k];
                    out.zq[b][8 / ht - 1 + g][v] = t.zq[k];
                    v += 1;
                }
                g += 1;
            }
            ht /= 2;
        }
        b += 1;
    }
    out
}

#[cfg(target_arch = "x86_64")]
/// Forward block twiddles.
pub(crate) static FWD_BLOCK: BlockTwiddles = block_twiddles(&FWD);
#[cfg(target_arch = "x86_64")]
/// Inverse block twiddles.
pub(crate) static INV_BLOCK: BlockTwiddles = block_twiddles(&INV);

#[cfg(target_arch = "x86_64")]
/// The first virtual block of degree n (see [`BlockTwiddles`]).
pub(crate) const fn first_block(n: usize) -> usize {
    n / 256 - 2
}

/// Whether the forward transform of degree 2^logn reduces after `layer` (1-based): after every
/// second layer counted from the last, so that the last four layers of every back end reduce
/// after their second and fourth.
#[inline(always)]
pub(crate) const fn reduce_after(logn: u32, layer: u32) -> bool {
    (logn - layer).is_multiple_of(2)
}

/// The kernels of Falcon verification modulo q. `N` is 512 or 1024 (checked at compile time).
pub(crate) trait Ops {
    /// Which back end this is.
    #[allow(dead_code)]
    const BACKEND: Backend;

    /// Falcon spec v1.2, Section 3.7.4 (the reference's `mq_NTT`): the forward negacyclic NTT
    /// in place, in the NTT order of this module. Inputs |a_i| <= q; outputs in \[0, q).
    fn ntt<const N: usize>(a: &mut [i16; N]);

    /// The pointwise product in the NTT domain with one Montgomery reduction:
    /// a_i <- a_i b_i 2^-16 mod q, for a_i, b_i in \[0, q); outputs |a_i| < q.
    fn pointwise<const N: usize>(a: &mut [i16; N], b: &[i16; N]);

    /// Falcon spec v1.2, Section 3.7.4 (the reference's `mq_iNTT`): the inverse NTT in place,
    /// times 2^16, from the NTT order of this module to the coefficient order. Inputs
    /// |a_i| < q; outputs |a_i| < q.
    fn intt_mont<const N: usize>(a: &mut [i16; N]);

    /// Falcon spec v1.2, Algorithm 16 (Verify) lines 5 and 6: with s1 = c - t mod q centred in
    /// (-q/2, q/2], the squared norm ||(s1, s2)||^2 when it is below 2^31, else `u32::MAX`
    /// (the reference's saturation rule of `is_short`, which it matches on every input: the
    /// reference's sum saturates exactly when it reaches 2^31). Inputs: c_i in \[0, q),
    /// |t_i| < q, |s2_i| < q.
    fn norm<const N: usize>(c: &[u16; N], t: &[i16; N], s2: &[i16; N]) -> u32;

    /// Falcon spec v1.2, Algorithm 18: Decompress with every canonicality check
    /// ([`crate::codec::decompress`]; the SIMD back ends compile the same code for their
    /// CPU's scalar extensions).
    fn decompress(data: &[u8], s: &mut [i16]) -> Result<(), crate::Error> {
        crate::codec::decompress(data, s)
    }

    /// Falcon spec v1.2, Algorithm 3 (HashToPoint), lines 4 to 8 on one SHAKE256 block
    /// ([`crate::hash::hash_words`]: the accepted words reduced mod q, written in
    /// order from c\[i\]; returns the next free place; requires `c.len() - i >= 68`). The SIMD
    /// back ends reduce and compact 8 or 16 words at a time.
    fn hash_block(block: &[u8; crate::hash::BLOCK_BYTES], c: &mut [u16], i: usize) -> usize {
        crate::hash::hash_words(block, c, i)
    }

    /// The FFT of a polynomial of degree 2^logn in place ([`crate::fft::fft`], Falcon spec
    /// v1.2, Section 3.7.2; the AVX-512 back end computes the same bits eight values at a time,
    /// the AVX2 back end four with native floating point).
    fn fft(f: &mut [Fpr], logn: u32) {
        crate::fft::fft(f, logn);
    }

    /// The inverse FFT in place ([`crate::fft::ifft`]; the AVX-512 back end computes the same
    /// bits eight values at a time, the AVX2 back end four with native floating point).
    fn ifft(f: &mut [Fpr], logn: u32) {
        crate::fft::ifft(f, logn);
    }

    /// Falcon spec v1.2, Algorithm 9 (ffLDL*), line 2: the LDL step of the Falcon tree,
    /// d11 = g11 - |g01|^2 / g00 and l10 = adj(g01 / g00) in FFT representation
    /// ([`crate::fft::poly_ldlmv_fft`]; the AVX-512 back end computes the same bits eight
    /// values at a time, the AVX2 back end four with native floating point).
    fn ldlmv(d11: &mut [Fpr], l10: &mut [Fpr], g00: &[Fpr], g01: &[Fpr], g11: &[Fpr]) {
        crate::fft::poly_ldlmv_fft(d11, l10, g00, g01, g11);
    }

    /// Falcon spec v1.2, Algorithm 1 (splitfft) on every node of one depth of the tree at once
    /// ([`crate::fft::split_level`]: `f` holds nodes of `hm` complex values each, `hm` >= 2;
    /// `f0` and `f1` receive the real and imaginary parts of the halves; the AVX-512 back end
    /// computes the same bits eight values at a time, the AVX2 back end four with native
    /// floating point).
    fn split_level(f: &[Fpr], hm: usize, f0: [&mut [Fpr]; 2], f1: [&mut [Fpr]; 2]) {
        crate::fft::split_level(f, hm, f0, f1);
    }

    /// Falcon spec v1.2, Algorithm 1: splitfft of one polynomial ([`crate::fft::poly_split_fft`]:
    /// [`Ops::split_level`] with one node, so every back end's split kernel serves both).
    fn split_fft(f0: &mut [Fpr], f1: &mut [Fpr], f: &[Fpr]) {
        let n = f.len();
        if n < 4 {
            crate::fft::poly_split_fft(f0, f1, f);
            return;
        }
        let q = n >> 2;
        let (f0_re, f0_im) = f0.split_at_mut(q);
        let (f1_re, f1_im) = f1.split_at_mut(q);
        Self::split_level(f, n >> 1, [f0_re, f0_im], [f1_re, f1_im]);
    }

    /// Falcon spec v1.2, Algorithm 2: mergefft ([`crate::fft::poly_merge_fft`]; the AVX-512 back
    /// end computes the same bits eight values at a time, the AVX2 back end four with native
    /// floating point).
    fn merge_fft(f: &mut [Fpr], f0: &[Fpr], f1: &[Fpr]) {
        crate::fft::poly_merge_fft(f, f0, f1);
    }

    /// Falcon spec v1.2, Algorithm 11, line 6: `acc` += (t1 - z1) l10 in FFT representation
    /// ([`crate::fft::poly_diff_mul_add_fft`]; the AVX-512 back end computes the same bits
    /// eight values at a time, the AVX2 back end four with native floating point).
    fn diff_mul_add_fft(acc: &mut [Fpr], t1: &[Fpr], z1: &[Fpr], l10: &[Fpr]) {
        crate::fft::poly_diff_mul_add_fft(acc, t1, z1, l10);
    }

    /// a <- a b in FFT representation, the complex product value by value
    /// ([`crate::fft::poly_mul_fft`]; the SIMD back ends compute the same bits eight or four
    /// values at a time).
    fn mul_fft(a: &mut [Fpr], b: &[Fpr]) {
        crate::fft::poly_mul_fft(a, b);
    }

    /// a <- a + b value by value ([`crate::fft::poly_add`]; the SIMD back ends compute the same
    /// bits eight or four values at a time).
    fn add(a: &mut [Fpr], b: &[Fpr]) {
        crate::fft::poly_add(a, b);
    }

    /// a <- a x value by value ([`crate::fft::poly_mulconst`]; the SIMD back ends compute the
    /// same bits eight or four values at a time).
    fn mulconst(a: &mut [Fpr], x: Fpr) {
        crate::fft::poly_mulconst(a, x);
    }

    /// Algorithm 8, step 6 on leaves: each x of `v` replaced by sqrt(x) `s` (the constant-time
    /// square root of [`Fpr::sqrt`]; the AVX-512 back end computes the same bits eight values
    /// at a time with native floating point; the AVX2 back end keeps this kernel, see
    /// `avx2_tree.rs`).
    fn sqrt_scale(v: &mut [Fpr], s: Fpr) {
        for x in v.iter_mut() {
            *x = x.sqrt().mul(s);
        }
    }
}

/// Runs `$body` with the type `$B` naming this crate's kernels of the back end selected for
/// this call ([`pqlab_backend::dispatch`] with the kernel types of this crate).
macro_rules! dispatch {
    ($($rest:tt)*) => {
        pqlab_backend::dispatch!(
            kernels: [
                $crate::backend::portable::Portable,
                $crate::backend::avx2::Avx2,
                $crate::backend::avx512::Avx512
            ],
            $($rest)*
        )
    };
}
pub(crate) use dispatch;

#[cfg(test)]
mod tests;
