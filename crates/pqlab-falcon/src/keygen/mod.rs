//! Key generation: NTRUGen (Falcon spec v1.2, Algorithm 5) with NTRUSolve (Algorithm 6),
//! reproducing the round-3 reference `keygen.c`, hence the NIST KAT key pairs.
//!
//! * [`gauss`]: f and g from the keygen SHAKE256 stream, as the reference draws them.
//! * [`modp`]: the NTRUSolve primes, Montgomery arithmetic and NTT modulo each.
//! * [`zint`]: the big integers of NTRUSolve; [`xgcd`]: their extended GCD.
//! * [`solve`]: NTRUSolve itself.
//!
//! Rejections (each draws a fresh (f, g) from the continuing stream, as in the reference):
//! a coefficient of f or g outside the secret-key encoding (|x| >= 32 for n = 512, 16 for
//! n = 1024); ||(g, -f)||^2 >= 16823 (the bound 1.17^2 q); the squared norm of the
//! Gram-Schmidt vector (q adj(f), q adj(g)) / (f adj(f) + g adj(g)) not below 16822.4121;
//! f not invertible modulo q; NTRUSolve failing (resultants not coprime, or F, G outside
//! \[-127, 127\]).

mod gauss;
#[cfg(target_arch = "x86_64")]
mod gauss_x86;
mod modp;
mod solve;
mod xgcd;
mod zint;

use pqlab_arith::falcon_solver::{Mont32, SolverMul};
use pqlab_keccak::Shake256Reader;
use zeroize::Zeroize;

use crate::fft::{fft, ifft, poly_adj_fft, poly_invnorm2_fft, poly_mul_autoadj_fft, poly_mulconst};
use crate::fpr::Fpr;
use crate::keys::{SigningKey, has_zero, small_to_ntt};
use crate::params;

/// 16822.4121 = (1.17^2) q, the bound on the squared Gram-Schmidt norm.
const BNORM_MAX: Fpr = Fpr::from_bits(0x40D0_6D9A_5FD8_ADAC);

/// Falcon spec, Algorithm 5: NTRUGen: f, g from the keygen SHAKE256 stream, then (F, G) by
/// NTRUSolve; the solver's NTTs under Montgomery reduction (by type: [`Mont32`]).
pub(crate) fn ntru_gen<const N: usize>(rng: &mut Shake256Reader) -> SigningKey<N> {
    ntru_gen_with::<N, Mont32>(rng)
}

/// [`ntru_gen`] with the solver's NTTs under the reduction `M` (production: [`Mont32`]; the
/// reduction study instantiates the others).
#[allow(non_snake_case)]
pub(crate) fn ntru_gen_with<const N: usize, M: SolverMul>(
    rng: &mut Shake256Reader,
) -> SigningKey<N> {
    let logn = params::logn(N);
    let mut sk = SigningKey {
        f: [0i8; N],
        g: [0i8; N],
        F: [0i8; N],
        G: [0i8; N],
    };
    let mut ws = solve::Workspace::new();
    let lim = 1i8 << (params::fg_bits(N) - 1);
    let mut samples = gauss::SampleStream::new(rng);
    loop {
        {
            let _k = pqlab_profile::enter(pqlab_profile::Kernel::Sample);
            gauss::poly_small_mkgauss(&mut samples, &mut sk.f, logn);
            gauss::poly_small_mkgauss(&mut samples, &mut sk.g, logn);
        }
        // The encoding bound of f and g.
        if sk
            .f
            .iter()
            .chain(sk.g.iter())
            .any(|&x| x >= lim || x <= -lim)
        {
            continue;
        }
        // ||(g, -f)||^2 < 16823.
        let norm: i32 =
            sk.f.iter()
                .chain(sk.g.iter())
                .map(|&x| i32::from(x) * i32::from(x))
                .sum();
        if norm >= 16823 {
            continue;
        }
        if !gram_schmidt_norm_ok::<N>(&sk.f, &sk.g, logn) {
            continue;
        }
        // f must be invertible modulo q (h = g / f).
        let mut fq = small_to_ntt(&sk.f);
        let bad = has_zero(&fq);
        fq.zeroize();
        if bad {
            continue;
        }
        // Self time: the FFTs inside count as FFT, not as NTRUSolve.
        let _k = pqlab_profile::enter(pqlab_profile::Kernel::NtruSolve);
        if solve::solve_ntru::<M>(logn, &sk.f, &sk.g, &mut sk.F, &mut sk.G, &mut ws) {
            break;
        }
    }
    ws.clear();
    sk
}

/// The squared norm of (q adj(f), q adj(g)) / (f adj(f) + g adj(g)) is below 16822.4121,
/// computed with the reference's floating-point operations in its order.
fn gram_schmidt_norm_ok<const N: usize>(f: &[i8; N], g: &[i8; N], logn: u32) -> bool {
    let mut rt1 = [Fpr::ZERO; N];
    let mut rt2 = [Fpr::ZERO; N];
    let mut rt3 = [Fpr::ZERO; N];
    for i in 0..N {
        rt1[i] = Fpr::of(i64::from(f[i]));
        rt2[i] = Fpr::of(i64::from(g[i]));
    }
    fft(&mut rt1, logn);
    fft(&mut rt2, logn);
    poly_invnorm2_fft(&mut rt3[..N / 2], &rt1, &rt2);
    poly_adj_fft(&mut rt1);
    poly_adj_fft(&mut rt2);
    let q = Fpr::of(i64::from(params::Q));
    poly_mulconst(&mut rt1, q);
    poly_mulconst(&mut rt2, q);
    poly_mul_autoadj_fft(&mut rt1, &rt3[..N / 2]);
    poly_mul_autoadj_fft(&mut rt2, &rt3[..N / 2]);
    ifft(&mut rt1, logn);
    ifft(&mut rt2, logn);
    let mut bnorm = Fpr::ZERO;
    for i in 0..N {
        bnorm = bnorm.add(rt1[i].sqr());
        bnorm = bnorm.add(rt2[i].sqr());
    }
    let ok = bnorm.lt(BNORM_MAX);
    rt1.zeroize();
    rt2.zeroize();
    rt3.zeroize();
    ok
}

#[cfg(test)]
mod tests {
    #[test]
    fn one_key_1024() {
        let seed = [9u8; 48];
        let t = std::time::Instant::now();
        let sk = crate::keys::SigningKey::<1024>::generate_from_seed(&seed);
        std::eprintln!("keygen 1024 took {:?}", t.elapsed());
        let vk = sk.verifying_key();
        let sig = sk.sign_with_seed(b"abc", &[1u8; 40], &[2u8; 48]);
        let mut out = [0u8; 1400];
        let len = sig.encode(&mut out).unwrap();
        assert_eq!(vk.verify(b"abc", &out[..len]), Ok(()));
    }

    #[test]
    fn one_key_512() {
        let seed = [7u8; 48];
        let t = std::time::Instant::now();
        let sk = crate::keys::SigningKey::<512>::generate_from_seed(&seed);
        std::eprintln!("keygen 512 took {:?}", t.elapsed());
        let vk = sk.verifying_key();
        let sig = sk.sign_with_seed(b"abc", &[1u8; 40], &[2u8; 48]);
        let mut out = [0u8; 700];
        let len = sig.encode(&mut out).unwrap();
        assert_eq!(vk.verify(b"abc", &out[..len]), Ok(()));
    }

    #[test]
    fn bnorm_max_constant() {
        assert_eq!(super::BNORM_MAX.to_bits(), 16822.4121f64.to_bits());
    }
}
