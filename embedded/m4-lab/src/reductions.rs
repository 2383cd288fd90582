//! The reduction-strategy image of `pqlab compare --reductions --target cortex-m4`: the study of
//! `pqlab-lab`'s `reductions` module (the NTTs and whole operations under every modular
//! reduction strategy of `pqlab_arith::reduce`) on the Cortex-M4, where the Falcon K-RED study
//! expects its gains.
//!
//! An operation is named `MODULE.KIND.STRATEGY`: MODULE one of the x86 study's modules
//! (`falcon-512-verify`, `falcon-1024-verify`, `falcon-512-keygen`, `falcon-1024-keygen`,
//! `ml-dsa-65`, `ml-kem-768`), KIND `ntt`, `intt` or `op` (the whole operation: verification or decapsulation through the schemes' `study`
//! instantiations), STRATEGY one of `montgomery`, `barrett`, `k2-red`, `plain-%`
//! (`pqlab_arith::reduce::Strategy::name`). The list is written by `build.rs` (`OPS`).
//!
//! Inputs: the NTTs transform a polynomial drawn per call from the lab's generator (values
//! below the modulus); the whole operations verify a fixture signature (Falcon-512, Falcon-1024,
//! ML-DSA-65) or decapsulate a fixture ciphertext (ML-KEM-768) made on the host, the key decoded
//! before the measured call. Each measured call's result is checked after it (the signature
//! verifies, the shared secret is the host's; the NTT's inverse gives the input back).
//!
//! Falcon key generation as a whole is not measured here (the x86 study measures it): its
//! instruction counts on this core run to hundreds of millions per call and per strategy;
//! its solver NTTs (`falcon-*-keygen.ntt` / `.intt`, modulo PRIMES\[1\]) are.

use pqlab_arith::falcon_solver::{self, Twiddles};
use pqlab_arith::reduce::{Strategy, ntt_falcon, ntt_mldsa, ntt_mlkem};

use crate::meter::{Measured, Rng, measure};

#[allow(dead_code)]
mod fixtures {
    include!(concat!(env!("OUT_DIR"), "/fixtures.rs"));
}

/// The implementation name in reports.
pub const IMPL: &str = "pqlab";
/// What the image measures (in place of a parameter set).
pub const ALG: &str = fixtures::ALG;
/// The operations, `MODULE.KIND.STRATEGY` (see the module notes).
pub const OPS: &[&str] = fixtures::OPS;

/// The NTRU-solver prime of the keygen modules (the x86 study's `SOLVER_PRIME`).
const SOLVER_PRIME: usize = 1;

fn strategy(name: &str) -> Option<Strategy> {
    Strategy::ALL.into_iter().find(|s| s.name() == name)
}

/// Call `i` of operation `op` (number `k` in [`OPS`]).
pub fn call(op: &str, k: u32, i: u32) -> Result<Measured, &'static str> {
    let mut parts = op.split('.');
    let (Some(module), Some(kind), Some(s), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err("an operation is MODULE.KIND.STRATEGY");
    };
    let s = strategy(s).ok_or("unknown strategy")?;
    let mut rng = Rng::new(k, i);
    let f = i as usize % fixtures::COUNT;
    match (module, kind) {
        ("falcon-512-verify", "op") => falcon_verify::<512>(s, f),
        ("falcon-1024-verify", "op") => falcon_verify::<1024>(s, f),
        ("falcon-512-verify", k) => falcon_ntt::<512>(s, k, &mut rng),
        ("falcon-1024-verify", k) => falcon_ntt::<1024>(s, k, &mut rng),
        ("falcon-512-keygen", k) => solver_ntt::<512>(s, k, &mut rng),
        ("falcon-1024-keygen", k) => solver_ntt::<1024>(s, k, &mut rng),
        ("ml-dsa-65", "op") => mldsa_verify(s, f),
        ("ml-dsa-65", k) => mldsa_ntt(s, k, &mut rng),
        ("ml-kem-768", "op") => mlkem_decaps(s, f),
        ("ml-kem-768", k) => mlkem_ntt(s, k, &mut rng),
        _ => Err("unknown module"),
    }
}

/// `n` values below `q` from `rng`.
fn below<const N: usize>(rng: &mut Rng, q: u64) -> [u64; N] {
    core::array::from_fn(|_| rng.next_u64() % q)
}

/// Measures `kind` (`ntt`: the forward transform, `intt`: the inverse) of `a` and checks that
/// the other direction gives `a` back (up to the constant factor a strategy's inverse may leave,
/// compared through `same`).
fn transform<T: Copy>(
    kind: &str,
    a: &mut T,
    forward: impl Fn(&mut T),
    inverse: impl Fn(&mut T),
    same: impl Fn(&T, &T) -> bool,
) -> Result<Measured, &'static str> {
    let input = *a;
    let m = match kind {
        "ntt" => {
            let (m, ()) = measure(|| forward(a));
            inverse(a);
            m
        }
        "intt" => {
            forward(a);
            measure(|| inverse(a)).0
        }
        _ => return Err("unknown kind"),
    };
    if same(&input, a) {
        Ok(m)
    } else {
        Err("the inverse transform did not give the input back")
    }
}

#[inline(never)]
fn falcon_ntt<const N: usize>(
    s: Strategy,
    kind: &str,
    rng: &mut Rng,
) -> Result<Measured, &'static str> {
    let mut a: [u16; N] = below::<N>(rng, 12289).map(|v| v as u16);
    transform(
        kind,
        &mut a,
        |x| ntt_falcon::ntt(s, x),
        |x| ntt_falcon::intt(s, x),
        |x, y| proportional(&x.map(i64::from), &y.map(i64::from), 12289),
    )
}

#[inline(never)]
fn solver_ntt<const N: usize>(
    s: Strategy,
    kind: &str,
    rng: &mut Rng,
) -> Result<Measured, &'static str> {
    let tw = Twiddles::new(s, SOLVER_PRIME, N.trailing_zeros());
    let p = falcon_solver::PRIMES[SOLVER_PRIME];
    let mut a: [u32; N] = below::<N>(rng, u64::from(p)).map(|v| v as u32);
    transform(
        kind,
        &mut a,
        |x| falcon_solver::ntt(x, &tw),
        |x| falcon_solver::intt(x, &tw),
        |x, y| proportional(&x.map(i64::from), &y.map(i64::from), i64::from(p)),
    )
}

/// Whether y = c x mod q for one constant c (the ML-DSA and ML-KEM inverse NTTs leave a
/// Montgomery factor, `inv_ntt_to_mont`; the others none: c = 1 passes too).
fn proportional(x: &[i64], y: &[i64], q: i64) -> bool {
    // c from the first nonzero x: c = y0 / x0 mod q.
    let Some(j) = x.iter().position(|&v| v.rem_euclid(q) != 0) else {
        return y.iter().all(|&v| v.rem_euclid(q) == 0);
    };
    let inv = pow_mod(x[j].rem_euclid(q), q - 2, q);
    let c = (y[j].rem_euclid(q) * inv) % q;
    x.iter()
        .zip(y)
        .all(|(&u, &v)| (u.rem_euclid(q) * c) % q == v.rem_euclid(q))
}

fn pow_mod(mut b: i64, mut e: i64, q: i64) -> i64 {
    let mut r = 1;
    while e > 0 {
        if e & 1 == 1 {
            r = r * b % q;
        }
        b = b * b % q;
        e >>= 1;
    }
    r
}

#[inline(never)]
fn mldsa_ntt(s: Strategy, kind: &str, rng: &mut Rng) -> Result<Measured, &'static str> {
    const Q: i64 = 8_380_417;
    let mut a: [i32; 256] = below::<256>(rng, Q as u64).map(|v| v as i32);
    transform(
        kind,
        &mut a,
        |x| ntt_mldsa::ntt(s, x),
        |x| ntt_mldsa::inv_ntt_to_mont(s, x),
        |x, y| proportional(&x.map(i64::from), &y.map(i64::from), Q),
    )
}

#[inline(never)]
fn mlkem_ntt(s: Strategy, kind: &str, rng: &mut Rng) -> Result<Measured, &'static str> {
    const Q: i64 = 3329;
    let mut a: [i16; 256] = below::<256>(rng, Q as u64).map(|v| v as i16);
    transform(
        kind,
        &mut a,
        |x| ntt_mlkem::ntt(s, x),
        |x| ntt_mlkem::inv_ntt_to_mont(s, x),
        |x, y| proportional(&x.map(i64::from), &y.map(i64::from), Q),
    )
}

#[inline(never)]
fn falcon_verify<const N: usize>(s: Strategy, f: usize) -> Result<Measured, &'static str> {
    use pqlab_falcon::VerifyingKey;
    let (pk, msg, sig): (&[u8], &[u8], &[u8]) = if N == 512 {
        use fixtures::falcon512 as x;
        (&x::PK[f], &x::MSG[f], &x::SIG[f][..x::SIG_USED[f]])
    } else {
        use fixtures::falcon1024 as x;
        (&x::PK[f], &x::MSG[f], &x::SIG[f][..x::SIG_USED[f]])
    };
    let vk = VerifyingKey::<N>::decode(pk).map_err(|_| "bad fixture key")?;
    match measure(|| pqlab_falcon::study::verify(&vk, msg, sig, s).is_ok()) {
        (m, true) => Ok(m),
        _ => Err("a valid signature was rejected"),
    }
}

#[inline(never)]
fn mldsa_verify(s: Strategy, f: usize) -> Result<Measured, &'static str> {
    use fixtures::mldsa65 as x;
    use pqlab_mldsa::{MlDsa65, Signature, VerifyingKey};
    let vk = VerifyingKey::<MlDsa65>::from_bytes(&x::PK[f]).map_err(|_| "bad fixture key")?;
    let sig = Signature::<MlDsa65>::from_bytes(&x::SIG[f]).map_err(|_| "bad fixture signature")?;
    match measure(|| pqlab_mldsa::study::verify(s, &vk, &x::MSG[f], &[], &sig).is_ok()) {
        (m, true) => Ok(m),
        _ => Err("a valid signature was rejected"),
    }
}

#[inline(never)]
fn mlkem_decaps(s: Strategy, f: usize) -> Result<Measured, &'static str> {
    use fixtures::mlkem768 as x;
    use pqlab_mlkem::{Ciphertext, DecapsulationKey, MlKem768};
    let dk =
        DecapsulationKey::<MlKem768>::from_expanded(&x::DK[f]).map_err(|_| "bad fixture key")?;
    let ct = Ciphertext::<MlKem768>::from_bytes(&x::CT[f]).map_err(|_| "bad fixture ciphertext")?;
    let (m, ss) = measure(|| pqlab_mlkem::study::decapsulate(s, &dk, &ct));
    if ss.as_bytes() == &x::SS[f] {
        Ok(m)
    } else {
        Err("the shared secret differs from the host's")
    }
}
