//! The back-end boundary of ML-DSA (DESIGN §5): every vector kernel of the scheme behind one
//! trait, [`Ops`], implemented by [`portable::Portable`] (plain Rust, every target) and, on
//! x86-64, by `avx2::Avx2` and `avx512::Avx512`, in twin files of the same names. Key
//! generation, signing and verification are written once, generic over `B: Ops`; each public
//! call picks its back end once with [`dispatch!`] from `pqlab_backend::selected()`.
//!
//! Contracts are stated per kernel; every back end meets them, and wherever a contract fixes
//! the representative (every value that reaches an encoding or a hash) all back ends return the
//! same bits. The SIMD kernels are `unsafe` functions compiled for their instruction set; their
//! [`Ops`] implementations call them only because [`dispatch!`] instantiates a SIMD back end
//! after `pqlab_backend` found it available.
//!
//! No kernel branches on, indexes memory by, or divides by a secret coefficient, in any back
//! end; rejection sampling of the matrix runs on public data, and the bounded sampler's
//! rejections depend only on the (uniform) stream, as in the standard.

use pqlab_backend::Backend;

use crate::ball::{BallMasks, BallState};

#[cfg(target_arch = "x86_64")]
pub(crate) mod avx2;
#[cfg(target_arch = "x86_64")]
pub(crate) mod avx512;
pub(crate) mod portable;

/// The 256 coefficients of a polynomial.
pub(crate) type Coeffs = [i32; 256];

/// The vector kernels of ML-DSA (q = 8380417, n = 256).
pub(crate) trait Ops {
    /// Which back end this is (it also runs the Keccak lanes of the sampling).
    const BACKEND: Backend;

    /// FIPS 204, Algorithm 41: NTT(w), in place, in the standard's order. Inputs of absolute
    /// value below q; outputs below 9q.
    fn ntt(a: &mut Coeffs);

    /// FIPS 204, Algorithm 42: NTT^-1(w_hat), in place, times 2^32. Inputs of absolute value
    /// below q; outputs below q.
    fn inv_ntt_to_mont(a: &mut Coeffs);

    /// FIPS 204, Algorithm 45: MultiplyNTT with Montgomery reduction, c = a o b * 2^-32, for
    /// |a_i b_i| < 2^31 q; outputs below q in absolute value.
    fn pointwise(c: &mut Coeffs, a: &Coeffs, b: &Coeffs);

    /// The inner product of Algorithm 48 (MatrixVectorNTT), one row:
    /// out = sum_j a\[j\] o b\[j\] * 2^-32 (mod q) over 1 to 7 pairs, each product as in
    /// [`Ops::pointwise`]; |out| < (number of pairs) * q.
    fn inner_product(out: &mut Coeffs, a: &[&Coeffs], b: &[&Coeffs]);

    /// r = a mod q with |r| <= 6283008, for a <= 2^31 - 2^22 - 1 (the reference's reduce32).
    fn reduce32(a: &mut Coeffs);

    /// Adds q to every negative coefficient: (-q, q) to [0, q).
    fn caddq(a: &mut Coeffs);

    /// FIPS 204, Algorithm 30 (RejNTTPoly) lines 5 to 11 on a buffer of SHAKE128 output: reads
    /// `buf` three bytes at a time (Algorithm 14: CoeffFromThreeBytes, top bit cleared) and
    /// appends the values below q to `out`, in order, until `out` is full. Returns how many
    /// were written. `buf.len()` is a multiple of 3. Public data.
    fn rej_uniform(buf: &[u8], out: &mut [i32]) -> usize;

    /// FIPS 204, Algorithm 31 (RejBoundedPoly) lines 5 to 15 on a buffer of SHAKE256 output:
    /// each byte gives two half-bytes, low first (Algorithm 15: CoeffFromHalfByte for `eta` in
    /// {2, 4}); accepted values eta - (b mod 5) or 4 - b are appended to `out` until it is full.
    /// Returns how many were written. Which half-bytes are rejected may be visible in timing,
    /// as in the standard; the accepted values must not be.
    fn rej_eta(eta: u32, buf: &[u8], out: &mut [i32]) -> usize;

    /// FIPS 204, Algorithm 35: Power2Round of every coefficient of `t` (in [0, q)): t1 and t0.
    // Unused under `small-memory`, whose key generation rounds in place (keygen.rs).
    #[cfg_attr(feature = "small-memory", allow(dead_code))]
    fn power2round(t: &Coeffs, t1: &mut Coeffs, t0: &mut Coeffs);

    /// FIPS 204, Algorithm 36: Decompose of every coefficient of `w` for gamma2 = `gamma2`
    /// ((q - 1) / 88 or (q - 1) / 32), in place: w in (-q, q) on entry (taken mod q into
    /// [0, q) first, as [`Ops::caddq`]), w0 = LowBits (centred) over it on return, w1 = HighBits
    /// into `w1`. (The `small-memory` signer takes it coefficient by coefficient instead.)
    #[cfg_attr(feature = "small-memory", allow(dead_code))]
    fn decompose(gamma2: i32, w: &mut Coeffs, w1: &mut Coeffs);

    /// FIPS 204, Algorithm 39: MakeHint in the reference form for every coefficient (see
    /// `rounding::make_hint`), as bits: the hint of coefficient i is bit i % 64 of `h[i / 64]`;
    /// returns the number of ones.
    #[cfg_attr(feature = "small-memory", allow(dead_code))]
    fn make_hint(gamma2: i32, r0: &Coeffs, r1: &Coeffs, h: &mut [u64; 4]) -> usize;

    /// FIPS 204, Algorithm 40: UseHint(h\[i\], w\[i\]) for every coefficient, w in [0, q) and h
    /// in {0, 1}, written over `w`. Public data.
    fn use_hint(gamma2: i32, h: &Coeffs, w: &mut Coeffs);

    /// Whether some |a_i| >= bound (FIPS 204, Section 7.4, the infinity norm), for coefficients
    /// reduced by [`Ops::reduce32`] and 0 < bound <= (q - 1) / 8. Looks at every coefficient:
    /// the time does not depend on where (or whether) a coefficient is too large.
    fn norm_exceeds(a: &Coeffs, bound: i32) -> bool;

    /// FIPS 204, Algorithm 16: SimpleBitPack(w, 2^bits - 1) for bits in {4, 6, 10},
    /// coefficients in [0, 2^bits); `out` holds 32 bits bytes.
    fn simple_bit_pack(a: &Coeffs, bits: usize, out: &mut [u8]);

    /// FIPS 204, Algorithm 18: SimpleBitUnpack for bits in {4, 6, 10}.
    fn simple_bit_unpack(v: &[u8], bits: usize, a: &mut Coeffs);

    /// FIPS 204, Algorithm 17: BitPack(w, b - 1 or a, b) as b - w_i on `bits` bits, for
    /// (bits, b) in {(3, 2), (4, 4), (13, 2^12), (18, 2^17), (20, 2^19)}, coefficients in
    /// [b - 2^bits + 1, b].
    fn bit_pack(a: &Coeffs, bits: usize, b: i32, out: &mut [u8]);

    /// FIPS 204, Algorithm 19: BitUnpack, w_i = b - x_i, for the (bits, b) of
    /// [`Ops::bit_pack`].
    fn bit_unpack(v: &[u8], bits: usize, b: i32, a: &mut Coeffs);

    /// NTT(f) in ML-KEM's ring modulo 3329 (FIPS 203, Algorithm 9; [`pqlab_mlkem::ring::ntt`])
    /// for a short polynomial (|coefficients| < 6658), on ML-KEM's kernels of the same back
    /// end. Outputs in \[-1664, 1664\].
    fn short_ntt(f: &mut [i16; 256]) {
        pqlab_mlkem::ring::ntt(Self::BACKEND, f);
    }

    /// The product of two short polynomials from their [`Ops::short_ntt`] forms modulo 3329
    /// ([`pqlab_mlkem::ring::multiply`]), every coefficient of `out` of absolute value below
    /// 3329: the exact product after [`Ops::add_short_centered`] when every coefficient of it
    /// has absolute value at most 1664.
    fn short_product(a: &[i16; 256], b: &[i16; 256], out: &mut [i16; 256]) {
        pqlab_mlkem::ring::multiply(Self::BACKEND, a, b, out);
    }

    /// a\[i\] += centered(s\[i\]), or -= with `subtract`, where centered(x) is the representative
    /// of x modulo 3329 in \[-1664, 1664\] ([`pqlab_mlkem::ring::centered`]) and |s\[i\]| < 3329:
    /// adds (or subtracts) an exact short product of [`Ops::short_product`]. No reduction of a.
    /// Returns whether then some |a_i| >= `bound` (the check of [`Ops::norm_exceeds`], on the
    /// same terms: |a_i| below 6283008 after the addition, 0 < bound <= (q - 1) / 8), looking
    /// at every coefficient.
    #[cfg_attr(feature = "small-memory", allow(dead_code))]
    fn add_short_centered(a: &mut Coeffs, s: &[i16; 256], subtract: bool, bound: i32) -> bool;

    /// FIPS 204, Algorithm 29 (SampleInBall), lines 6 to 10 on a run of SHAKE256 output bytes,
    /// in constant time ([`crate::ball`]): for each byte, whether it is accepted and where it
    /// moves and sets coefficients of c are masks, never a branch or a memory index. The
    /// portable form ([`crate::ball::ball_bytes_portable`]) unless a back end has its own.
    fn ball_bytes(st: &mut BallState, bytes: &[u8]) {
        crate::ball::ball_bytes_portable(st, bytes);
    }

    /// FIPS 204, Algorithm 29 (SampleInBall), the end: the masks `st.c` from the form of c
    /// this back end's [`Ops::ball_bytes`] kept (nothing to do for the portable form, which
    /// keeps the masks), in constant time. Called once, after every position is filled.
    fn ball_finish(st: &mut BallState) {
        let _ = st;
    }

    /// c as a polynomial from its masks (the output of Algorithm 29, SampleInBall, with
    /// coefficients in {-1, 0, 1}), in constant time: no branch on and no memory index by a
    /// bit of the masks. The portable form is [`crate::ball::ball_poly_portable`].
    #[cfg_attr(feature = "small-memory", allow(dead_code))]
    fn ball_poly(c: &BallMasks, out: &mut Coeffs) {
        crate::ball::ball_poly_portable(c, out);
    }
}

/// Runs `$body` with the type `$B` naming this scheme's kernels of the back end selected for
/// this call, or of a given back end (`on backend, B => ...`): [`pqlab_backend::dispatch`]
/// with the kernel types of this crate.
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
