//! The NTTs modulo the NTRUSolve primes ([`super::modp::Twiddles`] under Montgomery
//! reduction, [`pqlab_arith::falcon_solver::Mont32`]) with AVX2: the reference's
//! `modp_NTT2` / `modp_iNTT2` butterflies (Cooley-Tukey forward, Gentleman-Sande inverse, over
//! the same bit-reversed tables as [`pqlab_arith::falcon_solver::ntt_with`] and `intt_with`),
//! eight butterflies at a time in the stages whose half-blocks hold at least eight
//! coefficients, the other stages as the portable code computes them. Every value is the
//! portable one: the Montgomery product a b / 2^32 mod p is computed with the same formula
//! lane by lane (z = a b, m = (z mod 2^32) (-1/p) mod 2^32, (z + m p) / 2^32 < 2p, one
//! conditional subtraction of p), and all results lie in \[0, p) (the tests compare every
//! available back end with the portable transforms). The AVX-512 back end runs the same
//! AVX2 code. Constant-time: no branch or index depends on the values.
#![allow(unsafe_code)]

use core::arch::x86_64::{
    __m256i, _mm256_add_epi32, _mm256_add_epi64, _mm256_blend_epi32, _mm256_loadu_si256,
    _mm256_min_epu32, _mm256_mul_epu32, _mm256_permute2x128_si256, _mm256_permutevar8x32_epi32,
    _mm256_set1_epi32, _mm256_setr_epi32, _mm256_slli_epi64, _mm256_srli_epi64,
    _mm256_storeu_si256, _mm256_sub_epi32, _mm256_unpackhi_epi64, _mm256_unpacklo_epi64,
};

use pqlab_backend::Backend;

/// The prime's constants: p and -1/p mod 2^32.
#[derive(Clone, Copy)]
pub(super) struct Prime {
    pub(super) p: u32,
    pub(super) p0i: u32,
}

/// The portable Montgomery product (that of `Mont32`): a b / 2^32 mod p in \[0, p).
#[inline(always)]
fn mmul(q: Prime, a: u32, b: u32) -> u32 {
    let z = u64::from(a) * u64::from(b);
    let w = u64::from((z as u32).wrapping_mul(q.p0i)) * u64::from(q.p);
    sub_p(((z + w) >> 32) as u32, q.p)
}

#[inline(always)]
fn sub_p(a: u32, p: u32) -> u32 {
    let d = a.wrapping_sub(p);
    d.wrapping_add(p & 0u32.wrapping_sub(d >> 31))
}

#[inline(always)]
fn sub_mod(a: u32, b: u32, p: u32) -> u32 {
    let d = a.wrapping_sub(b);
    d.wrapping_add(p & 0u32.wrapping_sub(d >> 31))
}

/// The forward NTT of `a` (n = a.len() = 2^logn values in \[0, p)) with the table `gm` on
/// `backend`; returns false (doing nothing) on the portable back end, for the caller to run
/// its own transform.
pub(super) fn ntt(backend: Backend, q: Prime, a: &mut [u32], gm: &[u32]) -> bool {
    match backend {
        // SAFETY: `backend` comes from `pqlab_backend::selected()`, which only answers a back
        // end whose CPU features were detected; AVX-512 implies AVX2.
        Backend::Avx2 | Backend::Avx512 => unsafe { ntt_avx2(q, a, gm) },
        Backend::Portable => return false,
    }
    true
}

/// The inverse NTT of `a` with the table `igm`, times `ninv`, on `backend`; returns false
/// (doing nothing) on the portable back end.
pub(super) fn intt(backend: Backend, q: Prime, a: &mut [u32], igm: &[u32], ninv: u32) -> bool {
    match backend {
        // SAFETY: as in [`ntt`].
        Backend::Avx2 | Backend::Avx512 => unsafe { intt_avx2(q, a, igm, ninv) },
        Backend::Portable => return false,
    }
    true
}

/// Eight Montgomery products a b / 2^32 mod p (a, b < 2^32 with a b < 2^64 - 2^63; here
/// both below p), in \[0, p).
#[inline]
#[target_feature(enable = "avx2")]
fn mmul8(a: __m256i, b: __m256i, p: __m256i, p0i: __m256i) -> __m256i {
    let ze = _mm256_mul_epu32(a, b);
    let zo = _mm256_mul_epu32(_mm256_srli_epi64(a, 32), _mm256_srli_epi64(b, 32));
    let me = _mm256_mul_epu32(ze, p0i);
    let mo = _mm256_mul_epu32(zo, p0i);
    // z + m p < 2^62 + 2^63: no 64-bit overflow; the quotient by 2^32 is below 2p.
    let re = _mm256_add_epi64(ze, _mm256_mul_epu32(me, p));
    let ro = _mm256_add_epi64(zo, _mm256_mul_epu32(mo, p));
    let r = _mm256_blend_epi32::<0b1010_1010>(_mm256_srli_epi64(re, 32), ro);
    // r - p wraps above r when r < p.
    _mm256_min_epu32(r, _mm256_sub_epi32(r, p))
}

/// (u + v) mod p and (u - v) mod p for u, v in \[0, p).
#[inline]
#[target_feature(enable = "avx2")]
fn addsub8(u: __m256i, v: __m256i, p: __m256i) -> (__m256i, __m256i) {
    let s = _mm256_add_epi32(u, v);
    let s = _mm256_min_epu32(s, _mm256_sub_epi32(s, p));
    let d = _mm256_sub_epi32(u, v);
    let d = _mm256_min_epu32(d, _mm256_add_epi32(d, p));
    (s, d)
}

#[inline]
#[target_feature(enable = "avx2")]
fn load(a: &[u32]) -> __m256i {
    assert!(a.len() >= 8);
    // SAFETY: eight u32 readable at a (checked above); unaligned load.
    unsafe { _mm256_loadu_si256(a.as_ptr().cast()) }
}

#[inline]
#[target_feature(enable = "avx2")]
fn store(a: &mut [u32], v: __m256i) {
    assert!(a.len() >= 8);
    // SAFETY: eight u32 writable at a (checked above); unaligned store.
    unsafe { _mm256_storeu_si256(a.as_mut_ptr().cast(), v) }
}

/// For the stages of half-block t in {1, 2, 4}: the two vectors a (coefficients 0 to 7 of a
/// group of sixteen) and b (8 to 15) rearranged into u (the first halves of the 8 / t blocks)
/// and v (their second halves), butterfly partners in the same lanes. Block order in the
/// lanes: t = 4: blocks 0, 1 (four lanes each); t = 2: 0, 2, 1, 3 (two lanes each); t = 1:
/// 0, 4, 1, 5, 2, 6, 3, 7.
#[inline]
#[target_feature(enable = "avx2")]
fn split(t: usize, a: __m256i, b: __m256i) -> (__m256i, __m256i) {
    match t {
        4 => (
            _mm256_permute2x128_si256::<0x20>(a, b),
            _mm256_permute2x128_si256::<0x31>(a, b),
        ),
        2 => (_mm256_unpacklo_epi64(a, b), _mm256_unpackhi_epi64(a, b)),
        _ => (
            _mm256_blend_epi32::<0b1010_1010>(a, _mm256_slli_epi64(b, 32)),
            _mm256_blend_epi32::<0b1010_1010>(_mm256_srli_epi64(a, 32), b),
        ),
    }
}

/// The inverse of [`split`].
#[inline]
#[target_feature(enable = "avx2")]
fn join(t: usize, u: __m256i, v: __m256i) -> (__m256i, __m256i) {
    match t {
        4 => (
            _mm256_permute2x128_si256::<0x20>(u, v),
            _mm256_permute2x128_si256::<0x31>(u, v),
        ),
        2 => (_mm256_unpacklo_epi64(u, v), _mm256_unpackhi_epi64(u, v)),
        _ => (
            _mm256_blend_epi32::<0b1010_1010>(u, _mm256_slli_epi64(v, 32)),
            _mm256_blend_epi32::<0b1010_1010>(_mm256_srli_epi64(u, 32), v),
        ),
    }
}

/// The twiddles of the 8 / t blocks of a group (`g`, one per block), in the lanes of their
/// blocks as [`split`] places them.
#[inline]
#[target_feature(enable = "avx2")]
fn twiddles8(t: usize, g: &[u32]) -> __m256i {
    let mut w = [0u32; 8];
    w[..g.len()].copy_from_slice(g);
    let idx = match t {
        4 => _mm256_setr_epi32(0, 0, 0, 0, 1, 1, 1, 1),
        2 => _mm256_setr_epi32(0, 0, 2, 2, 1, 1, 3, 3),
        _ => _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7),
    };
    _mm256_permutevar8x32_epi32(load(&w), idx)
}

#[target_feature(enable = "avx2")]
fn ntt_avx2(q: Prime, a: &mut [u32], gm: &[u32]) {
    let n = a.len();
    let (pv, p0iv) = (
        _mm256_set1_epi32(q.p as i32),
        _mm256_set1_epi32(q.p0i as i32),
    );
    let mut t = n;
    let mut k = 1;
    while k < n {
        t >>= 1;
        if t < 8 && n >= 16 {
            // Sixteen coefficients (8 / t blocks) at a time.
            let per = 8 >> t.trailing_zeros();
            for (c, x) in a.chunks_exact_mut(16).enumerate() {
                let sv = twiddles8(t, &gm[k + c * per..k + (c + 1) * per]);
                let (u, v) = split(t, load(&x[..8]), load(&x[8..]));
                let (s0, d0) = addsub8(u, mmul8(v, sv, pv, p0iv), pv);
                let (x0, x1) = join(t, s0, d0);
                store(&mut x[..8], x0);
                store(&mut x[8..], x1);
            }
            k <<= 1;
            continue;
        }
        for (i, block) in a.chunks_exact_mut(2 * t).enumerate() {
            let s = gm[k + i];
            let (lo, hi) = block.split_at_mut(t);
            if t >= 8 {
                let sv = _mm256_set1_epi32(s as i32);
                for (x, y) in lo.chunks_exact_mut(8).zip(hi.chunks_exact_mut(8)) {
                    let v = mmul8(load(y), sv, pv, p0iv);
                    let (s0, d0) = addsub8(load(x), v, pv);
                    store(x, s0);
                    store(y, d0);
                }
            } else {
                for (x, y) in lo.iter_mut().zip(hi.iter_mut()) {
                    let u = *x;
                    let v = mmul(q, *y, s);
                    *x = sub_p(u + v, q.p);
                    *y = sub_mod(u, v, q.p);
                }
            }
        }
        k <<= 1;
    }
}

#[target_feature(enable = "avx2")]
fn intt_avx2(q: Prime, a: &mut [u32], igm: &[u32], ninv: u32) {
    let n = a.len();
    let (pv, p0iv) = (
        _mm256_set1_epi32(q.p as i32),
        _mm256_set1_epi32(q.p0i as i32),
    );
    let mut t = 1usize;
    let mut k = n;
    while k > 1 {
        let h = k >> 1;
        if t < 8 && n >= 16 {
            let per = 8 >> t.trailing_zeros();
            for (c, x) in a.chunks_exact_mut(16).enumerate() {
                let sv = twiddles8(t, &igm[h + c * per..h + (c + 1) * per]);
                let (u, v) = split(t, load(&x[..8]), load(&x[8..]));
                let (s0, d0) = addsub8(u, v, pv);
                let (x0, x1) = join(t, s0, mmul8(d0, sv, pv, p0iv));
                store(&mut x[..8], x0);
                store(&mut x[8..], x1);
            }
            t <<= 1;
            k = h;
            continue;
        }
        for (i, block) in a.chunks_exact_mut(2 * t).enumerate() {
            let s = igm[h + i];
            let (lo, hi) = block.split_at_mut(t);
            if t >= 8 {
                let sv = _mm256_set1_epi32(s as i32);
                for (x, y) in lo.chunks_exact_mut(8).zip(hi.chunks_exact_mut(8)) {
                    let (s0, d0) = addsub8(load(x), load(y), pv);
                    store(x, s0);
                    store(y, mmul8(d0, sv, pv, p0iv));
                }
            } else {
                for (x, y) in lo.iter_mut().zip(hi.iter_mut()) {
                    let (u, v) = (*x, *y);
                    *x = sub_p(u + v, q.p);
                    *y = mmul(q, sub_mod(u, v, q.p), s);
                }
            }
        }
        t <<= 1;
        k = h;
    }
    let nv = _mm256_set1_epi32(ninv as i32);
    let mut chunks = a.chunks_exact_mut(8);
    for x in &mut chunks {
        store(x, mmul8(load(x), nv, pv, p0iv));
    }
    for x in chunks.into_remainder() {
        *x = mmul(q, *x, ninv);
    }
}

/// The tables of `pqlab_arith::falcon_solver::twiddles_from_root` under Montgomery reduction
/// (gm\[rev(j)\] = w^j 2^32 mod p and igm\[rev(j)\] = w^-j 2^32 mod p, for the primitive 2n-th
/// root w = root^(1024 / n), rev the bit reversal over logn bits) on `backend`, from the
/// prime's `roots` (the 2048-th root, its inverse and 1, in Montgomery form: [`SmallPrime`]'s
/// `roots_mont`), the entries built by doubling ([`tables_avx2`]): the same values (each entry
/// is the residue in \[0, p)). Returns false (doing nothing) on the portable back end and for
/// n < 8. Public values only.
///
/// [`SmallPrime`]: super::modp::SmallPrime
pub(super) fn tables(
    backend: Backend,
    q: Prime,
    roots: [u32; 3],
    logn: u32,
    gm: &mut [u32],
    igm: &mut [u32],
) -> bool {
    if logn < 3 {
        return false;
    }
    match backend {
        // SAFETY: as in [`ntt`].
        Backend::Avx2 | Backend::Avx512 => unsafe { tables_avx2(q, roots, logn, gm, igm) },
        Backend::Portable => return false,
    }
    true
}

/// The tables of [`tables`] for n = 2^logn (logn >= 3): `gm[i]` = w^rev(i) and `igm[i]` =
/// w^-rev(i) in Montgomery form, w = g^(1024 / n) for the primitive 2048-th root g, rev over
/// logn bits; `roots` holds g, 1 / g and 1 in Montgomery form. Built by doubling: rev(2^k + i)
/// = rev(i) + n / 2^(k + 1) for i < 2^k, so entries 2^k to 2^(k + 1) - 1 are the first 2^k
/// times w^(n / 2^(k + 1)) = g^(2^(9 - k)) (whatever n): contiguous products, eight at a time
/// from k = 3 on, independent of each other (no chain of dependent products, no scattered
/// stores, no division). Every product lies in \[0, p), so the entries are the same as by any
/// other order of products.
#[target_feature(enable = "avx2")]
fn tables_avx2(q: Prime, roots: [u32; 3], logn: u32, gm: &mut [u32], igm: &mut [u32]) {
    let n = 1usize << logn;
    let (pv, p0iv) = (
        _mm256_set1_epi32(q.p as i32),
        _mm256_set1_epi32(q.p0i as i32),
    );
    let [g, ig, one] = roots;
    for (tab, root) in [(&mut gm[..n], g), (&mut igm[..n], ig)] {
        // c[k] = root^(2^(9 - k)): the root itself for k = 9, each lower k the square of the
        // next.
        let mut c = [root; 10];
        for k in (0..9).rev() {
            c[k] = mmul(q, c[k + 1], c[k + 1]);
        }
        tab[0] = one;
        for (k, &ck) in c.iter().enumerate().take(logn as usize) {
            let h = 1usize << k;
            let (lo, hi) = tab.split_at_mut(h);
            if h < 8 {
                for (d, &s) in hi[..h].iter_mut().zip(lo.iter()) {
                    *d = mmul(q, s, ck);
                }
            } else {
                let cv = _mm256_set1_epi32(ck as i32);
                for (d, s) in hi[..h].chunks_exact_mut(8).zip(lo.chunks_exact(8)) {
                    store(d, mmul8(load(s), cv, pv, p0iv));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::keygen::modp::PRIMES;
    use pqlab_arith::falcon_solver::{Mont32, SolverMul};

    /// Every available vector back end gives the portable transforms' values (forward, and
    /// inverse with its factor), for every size 1 to 1024, on pseudo-random residues and on
    /// the extremes 0 and p - 1, modulo primes across the table.
    #[test]
    fn vector_transforms_match_portable() {
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        let mut checked = 0;
        for idx in [0usize, 1, 2, 7, 50, 339] {
            let sp = PRIMES[idx];
            let mont = Mont32::for_prime(sp.p);
            let q = Prime {
                p: sp.p,
                p0i: 0u32.wrapping_sub(crate::keygen::modp::inv_mod_2_32(sp.p)),
            };
            for logn in 0..=10u32 {
                let n = 1usize << logn;
                let (mut gm, mut igm) = ([0u32; 1024], [0u32; 1024]);
                let ninv = mont.tables_from_root(sp.g, logn, &mut gm, &mut igm);
                let mut a = [0u32; 1024];
                for (i, v) in a[..n].iter_mut().enumerate() {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    *v = match i % 5 {
                        0 => 0,
                        1 => sp.p - 1,
                        _ => (x % u64::from(sp.p)) as u32,
                    };
                }
                let mut want = a;
                mont.ntt(&mut want[..n], &gm);
                let mut back = want;
                mont.intt(&mut back[..n], &igm, ninv);
                assert_eq!(back[..n], a[..n], "round trip, prime {idx} logn {logn}");
                for backend in pqlab_backend::available() {
                    let mut got = a;
                    let done = ntt(backend, q, &mut got[..n], &gm);
                    assert_eq!(done, backend != Backend::Portable);
                    if done {
                        assert_eq!(got[..n], want[..n], "ntt {backend:?} {idx} {logn}");
                        assert!(intt(backend, q, &mut got[..n], &igm, ninv));
                        assert_eq!(got[..n], a[..n], "intt {backend:?} {idx} {logn}");
                        checked += 1;
                    }
                }
            }
        }
        if pqlab_backend::available().any(|b| b != Backend::Portable) {
            assert!(checked >= 66);
        }
    }

    /// The vector twiddle tables are those of the portable code, for every size 8 to 1024.
    #[test]
    fn vector_tables_match_portable() {
        for idx in [0usize, 3, 100, 339] {
            let sp = PRIMES[idx];
            let mont = Mont32::for_prime(sp.p);
            let q = Prime {
                p: sp.p,
                p0i: 0u32.wrapping_sub(crate::keygen::modp::inv_mod_2_32(sp.p)),
            };
            for logn in 0..=10u32 {
                let n = 1usize << logn;
                let (mut gm, mut igm) = ([0u32; 1024], [0u32; 1024]);
                mont.tables_from_root(sp.g, logn, &mut gm, &mut igm);
                for backend in pqlab_backend::available() {
                    let (mut g2, mut i2) = ([0u32; 1024], [0u32; 1024]);
                    let done = tables(backend, q, sp.roots_mont, logn, &mut g2, &mut i2);
                    assert_eq!(done, backend != Backend::Portable && logn >= 3);
                    if done {
                        assert_eq!(g2[..n], gm[..n], "{backend:?} {idx} {logn}");
                        assert_eq!(i2[..n], igm[..n], "{backend:?} {idx} {logn}");
                    }
                }
            }
        }
    }
}
