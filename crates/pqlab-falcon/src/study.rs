//! The reduction-strategy study's instantiation of Falcon (feature `reduction-study`, used by
//! `pqlab compare --reductions` and its tests): key generation with the NTRU solver's NTTs
//! under a chosen modular-reduction strategy (the solver is generic over it,
//! `pqlab_arith::falcon_solver::SolverMul`), and verification with its NTTs modulo q under the
//! strategy (`pqlab_arith::reduce::ntt_falcon::ntt`). The production entry points never reach
//! these: their NTTs are Montgomery by type. Every strategy computes the same residues, so
//! the results equal production's (the tests `strategies_falcon` check it on the KAT files).

use pqlab_arith::falcon as fq;
use pqlab_arith::falcon_solver::{BarrettP, KRedSolver, Mont32, RemP};
pub use pqlab_arith::reduce::Strategy;
use pqlab_arith::reduce::ntt_falcon;

use crate::Error;
use crate::backend::Ops;
use crate::backend::portable::Portable;
use crate::hash::{hash_to_point_vartime, shake_nonce_msg};
use crate::keys::{Signature, SigningKey, VerifyingKey};
use crate::params;
use crate::verify::to_modq;

/// [`SigningKey::generate_from_seed`] (Falcon spec, Algorithm 4: KeyGen, with Algorithm 5:
/// NTRUGen and Algorithm 6: NTRUSolve) with the solver's NTTs under `strategy` (the K2-RED
/// strategy is the generalised K-RED for these primes; h = g / f, computed when the verifying
/// key is asked for, uses the production NTT modulo q).
pub fn generate_from_seed<const N: usize>(
    seed: &[u8; params::SEED_LEN],
    strategy: Strategy,
) -> SigningKey<N> {
    const { params::check_n(N) };
    let mut sh = pqlab_keccak::Shake256::new();
    sh.absorb(seed);
    let mut rng = sh.finalize();
    pqlab_arith::with_strategy!(
        strategy,
        [Mont32, BarrettP, KRedSolver, RemP],
        M => crate::keygen::ntru_gen_with::<N, M>(&mut rng)
    )
}

/// [`VerifyingKey::verify`] (Falcon spec, Algorithm 16: Verify) with every NTT and inverse
/// NTT modulo q under `strategy`: NTT(h) (recomputed per call from the key's h, since the
/// key's cached NTT(h) is in the production back ends' order), NTT(s2) and the inverse of
/// their product; the norm check is the portable back end's.
pub fn verify<const N: usize>(
    vk: &VerifyingKey<N>,
    msg: &[u8],
    sig: &[u8],
    strategy: Strategy,
) -> Result<(), Error> {
    let sig = Signature::<N>::decode(sig)?;
    let mut rd = shake_nonce_msg(&sig.nonce, msg);
    let mut c = [0u16; N];
    hash_to_point_vartime(&mut rd, &mut c);
    let mut h_hat = vk.h;
    ntt_falcon::ntt(strategy, &mut h_hat);
    let mut tmp = [0u16; N];
    for (t, &x) in tmp.iter_mut().zip(sig.s2.iter()) {
        *t = to_modq(i32::from(x));
    }
    ntt_falcon::ntt(strategy, &mut tmp);
    fq::pointwise_mul(&mut tmp, &h_hat);
    ntt_falcon::intt(strategy, &mut tmp);
    // s2 h in [0, q) < 2^15: the i16 input of the norm check (|t_i| < q).
    let t = tmp.map(|x| x as i16);
    if Portable::norm(&c, &t, &sig.s2) <= params::beta_sq(N) {
        Ok(())
    } else {
        Err(Error::InvalidSignature)
    }
}
