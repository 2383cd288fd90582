//! The reduction-strategy study's instantiation of ML-DSA (feature `reduction-study`, used by
//! `pqlab compare --reductions` and its tests): the same generic scheme code on the portable
//! kernels, with the NTTs under a chosen modular-reduction strategy of `pqlab_arith::reduce`
//! (Montgomery, Barrett, K2-RED, or the variable-time `%`). The production entry points never
//! reach these kernels: they run on `crate::backend`'s back ends, whose NTTs are Montgomery by
//! type.

use core::marker::PhantomData;

use pqlab_arith::reduce::Reduction;
pub use pqlab_arith::reduce::Strategy;
use pqlab_arith::reduce::ntt_mldsa::{Bar, K2, Mont, Rem, inv_ntt_to_mont_with, ntt_with};
use pqlab_backend::Backend;

use crate::backend::portable::Portable;
use crate::backend::{Coeffs, Ops};
use crate::keys::{Signature, SigningKey, VerifyingKey};
use crate::params::{ByteArray, ParameterSet};
use crate::{Error, keygen, mu, sign, verify};

/// The portable kernels with the NTTs under reduction strategy `S`.
struct Study<S>(PhantomData<S>);

impl<S: Reduction> Ops for Study<S> {
    const BACKEND: Backend = Backend::Portable;

    fn ntt(a: &mut Coeffs) {
        ntt_with::<S>(a);
    }
    fn inv_ntt_to_mont(a: &mut Coeffs) {
        inv_ntt_to_mont_with::<S>(a);
    }
    fn pointwise(c: &mut Coeffs, a: &Coeffs, b: &Coeffs) {
        Portable::pointwise(c, a, b);
    }
    fn inner_product(out: &mut Coeffs, a: &[&Coeffs], b: &[&Coeffs]) {
        Portable::inner_product(out, a, b);
    }
    fn reduce32(a: &mut Coeffs) {
        Portable::reduce32(a);
    }
    fn caddq(a: &mut Coeffs) {
        Portable::caddq(a);
    }
    fn add_short_centered(a: &mut Coeffs, s: &[i16; 256], subtract: bool, bound: i32) -> bool {
        Portable::add_short_centered(a, s, subtract, bound)
    }
    fn rej_uniform(buf: &[u8], out: &mut [i32]) -> usize {
        Portable::rej_uniform(buf, out)
    }
    fn rej_eta(eta: u32, buf: &[u8], out: &mut [i32]) -> usize {
        Portable::rej_eta(eta, buf, out)
    }
    fn power2round(t: &Coeffs, t1: &mut Coeffs, t0: &mut Coeffs) {
        Portable::power2round(t, t1, t0);
    }
    fn decompose(gamma2: i32, w: &mut Coeffs, w1: &mut Coeffs) {
        Portable::decompose(gamma2, w, w1);
    }
    fn make_hint(gamma2: i32, r0: &Coeffs, r1: &Coeffs, h: &mut [u64; 4]) -> usize {
        Portable::make_hint(gamma2, r0, r1, h)
    }
    fn use_hint(gamma2: i32, h: &Coeffs, w: &mut Coeffs) {
        Portable::use_hint(gamma2, h, w);
    }
    fn norm_exceeds(a: &Coeffs, bound: i32) -> bool {
        Portable::norm_exceeds(a, bound)
    }
    fn simple_bit_pack(a: &Coeffs, bits: usize, out: &mut [u8]) {
        Portable::simple_bit_pack(a, bits, out);
    }
    fn simple_bit_unpack(v: &[u8], bits: usize, a: &mut Coeffs) {
        Portable::simple_bit_unpack(v, bits, a);
    }
    fn bit_pack(a: &Coeffs, bits: usize, b: i32, out: &mut [u8]) {
        Portable::bit_pack(a, bits, b, out);
    }
    fn bit_unpack(v: &[u8], bits: usize, b: i32, a: &mut Coeffs) {
        Portable::bit_unpack(v, bits, b, a);
    }
}

/// Runs `$body` with `$S` naming the study kernels of strategy `$s`
/// ([`pqlab_arith::with_strategy`] over this crate's study kernels).
macro_rules! with_strategy {
    ($s:expr, $S:ident => $body:expr) => {
        pqlab_arith::with_strategy!($s, [Study<Mont>, Study<Bar>, Study<K2>, Study<Rem>], $S => $body)
    };
}

/// FIPS 204, Algorithm 6: ML-DSA.KeyGen_internal(xi) with the NTTs under `strategy`: the
/// public-key encoding and the key.
pub fn key_gen_internal<P: ParameterSet>(
    strategy: Strategy,
    xi: &[u8; 32],
) -> (P::PkBytes, SigningKey<P>) {
    let mut sk = SigningKey::empty();
    let mut pk = P::PkBytes::zeroed();
    with_strategy!(strategy, S => keygen::key_gen_into::<P, S>(xi, &mut sk, &mut pk));
    (pk, sk)
}

/// FIPS 204, Algorithm 7: ML-DSA.Sign_internal(sk, M', rnd) with the NTTs under `strategy`.
pub fn sign_internal<P: ParameterSet>(
    strategy: Strategy,
    sk: &SigningKey<P>,
    m_prime: &[u8],
    rnd: &[u8; 32],
) -> Result<Signature<P>, Error> {
    let mu = mu::mu_internal(&sk.tr, m_prime);
    with_strategy!(strategy, S => sign::sign_mu_with::<P, S>(sk, &mu, rnd)).map(|(sig, _)| sig)
}

/// FIPS 204, Algorithm 3: ML-DSA.Verify(pk, M, sigma, ctx) with the NTTs under `strategy`.
pub fn verify<P: ParameterSet>(
    strategy: Strategy,
    vk: &VerifyingKey<P>,
    msg: &[u8],
    ctx: &[u8],
    sig: &Signature<P>,
) -> Result<(), Error> {
    let mu = mu::mu_pure(&vk.tr, msg, ctx)?;
    let t1 = verify::T1::Hat(vk.t1_hat.as_ref());
    let sig = sig.encoded.as_ref();
    if with_strategy!(strategy, S => verify::verify_mu_with::<P, S>(&vk.rho, t1, &mu, sig)) {
        Ok(())
    } else {
        Err(Error::InvalidSignature)
    }
}
