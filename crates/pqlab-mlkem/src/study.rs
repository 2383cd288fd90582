//! The reduction-strategy study's instantiation of ML-KEM (feature `reduction-study`, used by
//! `pqlab compare --reductions` and its tests): the same generic scheme code on the portable
//! kernels, with the NTTs under a chosen modular-reduction strategy of `pqlab_arith::reduce`
//! (Montgomery, Barrett, K2-RED, or the variable-time `%`). The production entry points never
//! reach these kernels: they run on `crate::backend`'s back ends, whose NTTs are Montgomery by
//! type.

use core::marker::PhantomData;

use pqlab_arith::reduce::Reduction;
pub use pqlab_arith::reduce::Strategy;
use pqlab_arith::reduce::ntt_mlkem::{Bar, K2, Mont, Rem, inv_ntt_to_mont_with, ntt_with};
use pqlab_backend::Backend;

use crate::backend::portable::Portable;
use crate::backend::{Coeffs, Ops};
use crate::kem;
use crate::keys::{Ciphertext, DecapsulationKey, EncapsulationKey, SharedSecret};
use crate::params::{ByteArray, ParameterSet};

/// The portable kernels with the NTTs under reduction strategy `S`.
struct Study<S>(PhantomData<S>);

impl<S: Reduction> Ops for Study<S> {
    const BACKEND: Backend = Backend::Portable;

    fn ntt(f: &mut Coeffs) {
        ntt_with::<S>(f);
    }
    fn inv_ntt_to_mont(f: &mut Coeffs) {
        inv_ntt_to_mont_with::<S>(f);
    }
    fn inner_product_ntt(out: &mut Coeffs, a: &[&Coeffs], b: &[&Coeffs]) {
        Portable::inner_product_ntt(out, a, b);
    }
    fn to_mont(f: &mut Coeffs) {
        Portable::to_mont(f);
    }
    fn freeze(f: &mut Coeffs) {
        Portable::freeze(f);
    }
    fn rej_uniform(buf: &[u8], out: &mut [i16]) -> usize {
        Portable::rej_uniform(buf, out)
    }
    fn sample_poly_cbd(eta: usize, buf: &[u8], f: &mut Coeffs) {
        Portable::sample_poly_cbd(eta, buf, f);
    }
    fn compress_encode(d: u32, f: &Coeffs, out: &mut [u8]) {
        Portable::compress_encode(d, f, out);
    }
    fn decode_decompress(d: u32, b: &[u8], f: &mut Coeffs) {
        Portable::decode_decompress(d, b, f);
    }
    fn byte_encode12(f: &Coeffs, out: &mut [u8]) {
        Portable::byte_encode12(f, out);
    }
    fn byte_decode12(b: &[u8], f: &mut Coeffs) {
        Portable::byte_decode12(b, f);
    }
    fn byte_decode12_checked(b: &[u8], f: &mut Coeffs) -> bool {
        Portable::byte_decode12_checked(b, f)
    }
}

/// Runs `$body` with `$S` naming the study kernels of strategy `$s`
/// ([`pqlab_arith::with_strategy`] over this crate's study kernels).
macro_rules! with_strategy {
    ($s:expr, $S:ident => $body:expr) => {
        pqlab_arith::with_strategy!($s, [Study<Mont>, Study<Bar>, Study<K2>, Study<Rem>], $S => $body)
    };
}

/// FIPS 203, Algorithm 16: ML-KEM.KeyGen_internal(d, z) with the NTTs under `strategy`.
pub fn key_gen_internal<P: ParameterSet>(
    strategy: Strategy,
    d: &[u8; 32],
    z: &[u8; 32],
) -> DecapsulationKey<P> {
    let mut dk = DecapsulationKey::empty();
    with_strategy!(strategy, S => kem::key_gen_internal_with::<P, S>(d, z, &mut dk));
    dk
}

/// FIPS 203, Algorithm 17: ML-KEM.Encaps_internal(ek, m) with the NTTs under `strategy`.
pub fn encaps_internal<P: ParameterSet>(
    strategy: Strategy,
    ek: &EncapsulationKey<P>,
    m: &[u8; 32],
) -> (Ciphertext<P>, SharedSecret) {
    let mut out = (
        Ciphertext {
            encoded: P::CtBytes::zeroed(),
        },
        SharedSecret([0; 32]),
    );
    with_strategy!(strategy, S => kem::encaps_internal_with::<P, S>(ek, m, &mut out));
    out
}

/// FIPS 203, Algorithm 18: ML-KEM.Decaps_internal(dk, c) with the NTTs under `strategy`.
pub fn decapsulate<P: ParameterSet>(
    strategy: Strategy,
    dk: &DecapsulationKey<P>,
    c: &Ciphertext<P>,
) -> SharedSecret {
    with_strategy!(strategy, S => kem::decaps_internal_with::<P, S>(dk, c))
}
