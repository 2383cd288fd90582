//! Signing (Falcon spec v1.2, Section 3.9, Algorithm 10: Sign) and the expanded secret key
//! (Algorithm 8 steps 1 to 6: the FFT basis B^ = \[\[FFT(g), -FFT(f)\], \[FFT(G), -FFT(F)\]\] and
//! the normalized Falcon tree).
//!
//! [`ExpandedKey`] keeps the basis and tree so that signatures skip the expansion; plain
//! signing with a [`SigningKey`] expands into a temporary first. Both draw randomness and
//! compute exactly as the reference `sign_dyn` / `sign_tree`, so signatures are identical to
//! each other and to the NIST KAT files.

use pqlab_keccak::Shake256;
use zeroize::{Zeroize, ZeroizeOnDrop};

use crate::backend::{self, Ops};
use crate::error::Error;
use crate::ffsampling::{ff_sampling, ffldl_fft, tree_size};
use crate::fft::{
    fft, ifft, poly_add, poly_mul_fft, poly_muladj_fft, poly_mulconst, poly_mulselfadj_fft,
    poly_neg,
};
use crate::fpr::Fpr;
use crate::hash::{hash_to_point_ct, shake_nonce_msg};
use crate::keys::{Signature, SigningKey};
use crate::params::{self, NONCE_LEN, SEED_LEN};
use crate::sampler::{Prng, Sampler};

/// The most rows of n values the tree of degree n needs: logn + 1 <= 11.
const TREE_ROWS: usize = 11;

/// A secret key expanded for fast signing: the basis B in FFT representation and the
/// normalized Falcon tree (about 45 KiB for n = 512, 90 KiB for n = 1024). Zeroized on drop.
#[derive(Clone, Zeroize, ZeroizeOnDrop)]
pub struct ExpandedKey<const N: usize> {
    /// b00 = FFT(g), b01 = -FFT(f), b10 = FFT(G), b11 = -FFT(F).
    b: [[Fpr; N]; 4],
    tree: [[Fpr; N]; TREE_ROWS],
}

impl<const N: usize> core::fmt::Debug for ExpandedKey<N> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("ExpandedKey { .. }")
    }
}

fn small_to_fft<const N: usize>(out: &mut [Fpr; N], x: &[i8; N], logn: u32) {
    for (o, &v) in out.iter_mut().zip(x.iter()) {
        *o = Fpr::of(i64::from(v));
    }
    fft(out, logn);
}

impl<const N: usize> ExpandedKey<N> {
    /// Falcon spec v1.2, Algorithm 8 (steps 1 to 6): expands a secret key.
    pub fn new(sk: &SigningKey<N>) -> Self {
        const { params::check_n(N) };
        backend::dispatch!(B => Self::new_with::<B>(sk))
    }

    /// [`Self::new`] with the kernels of `B`.
    fn new_with<B: Ops>(sk: &SigningKey<N>) -> Self {
        let logn = params::logn(N);
        let mut ek = ExpandedKey {
            b: [[Fpr::ZERO; N]; 4],
            tree: [[Fpr::ZERO; N]; TREE_ROWS],
        };
        {
            let [b00, b01, b10, b11] = &mut ek.b;
            small_to_fft(b01, &sk.f, logn);
            small_to_fft(b00, &sk.g, logn);
            small_to_fft(b11, &sk.F, logn);
            small_to_fft(b10, &sk.G, logn);
            poly_neg(b01);
            poly_neg(b11);
        }
        let [b00, b01, b10, b11] = &ek.b;
        // Gram matrix G = B B*: g00, g01, g11 (and a scratch polynomial).
        let mut g = [[Fpr::ZERO; N]; 4];
        {
            let [g00, g01, g11, gxx] = &mut g;
            g00.copy_from_slice(b00);
            poly_mulselfadj_fft(g00);
            gxx.copy_from_slice(b01);
            poly_mulselfadj_fft(gxx);
            poly_add(g00, gxx);

            g01.copy_from_slice(b00);
            poly_muladj_fft(g01, b10);
            gxx.copy_from_slice(b01);
            poly_muladj_fft(gxx, b11);
            poly_add(g01, gxx);

            g11.copy_from_slice(b10);
            poly_mulselfadj_fft(g11);
            gxx.copy_from_slice(b11);
            poly_mulselfadj_fft(gxx);
            poly_add(g11, gxx);
        }
        let mut tmp = [[Fpr::ZERO; N]; 3];
        let [g00, g01, g11, _] = &g;
        ffldl_fft::<B>(
            &mut ek.tree.as_flattened_mut()[..tree_size(logn)],
            g00,
            g01,
            g11,
            logn,
            tmp.as_flattened_mut(),
        );
        g.zeroize();
        tmp.zeroize();
        ek
    }

    /// One attempt of Algorithm 10, steps 3 to 9: the target, ffSampling, s = (t - z) B, and
    /// the norm check. Returns s2 when ||(s1, s2)||^2 <= floor(beta^2).
    fn try_sign(&self, samp: &mut Sampler, c: &[u16; N]) -> Option<[i16; N]> {
        let logn = params::logn(N);
        let [b00, b01, b10, b11] = &self.b;
        let mut t0 = [Fpr::ZERO; N];
        let mut t1 = [Fpr::ZERO; N];
        for (o, &x) in t0.iter_mut().zip(c.iter()) {
            *o = Fpr::of(i64::from(x));
        }
        // t = (c, 0) B^-1 = (c b11 / q, -c b01 / q).
        fft(&mut t0, logn);
        let ni = Fpr::INVERSE_OF_Q;
        t1.copy_from_slice(&t0);
        poly_mul_fft(&mut t1, b01);
        poly_mulconst(&mut t1, ni.neg());
        poly_mul_fft(&mut t0, b11);
        poly_mulconst(&mut t0, ni);

        let mut tx = [Fpr::ZERO; N];
        let mut ty = [Fpr::ZERO; N];
        let mut tmp = [[Fpr::ZERO; N]; 2];
        let k = pqlab_profile::enter(pqlab_profile::Kernel::FfSampling);
        ff_sampling(
            samp,
            &mut tx,
            &mut ty,
            &self.tree.as_flattened()[..tree_size(logn)],
            &t0,
            &t1,
            logn,
            tmp.as_flattened_mut(),
        );
        drop(k);
        // v = z B: (z0 b00 + z1 b10, z0 b01 + z1 b11).
        t0.copy_from_slice(&tx);
        t1.copy_from_slice(&ty);
        poly_mul_fft(&mut tx, b00);
        poly_mul_fft(&mut ty, b10);
        poly_add(&mut tx, &ty);
        ty.copy_from_slice(&t0);
        poly_mul_fft(&mut ty, b01);
        t0.copy_from_slice(&tx);
        poly_mul_fft(&mut t1, b11);
        poly_add(&mut t1, &ty);
        ifft(&mut t0, logn);
        ifft(&mut t1, logn);

        // s1 = c - v0, s2 = -v1; saturating squared norm as the reference.
        let mut sqn: u32 = 0;
        let mut ng: u32 = 0;
        for (&ci, v) in c.iter().zip(t0.iter()) {
            let z = i32::from(ci) - v.rint() as i32;
            sqn = sqn.wrapping_add((z * z) as u32);
            ng |= sqn;
        }
        let mut s2 = [0i16; N];
        for (o, v) in s2.iter_mut().zip(t1.iter()) {
            *o = (-v.rint()) as i16;
        }
        ng |= 0u32.wrapping_sub(sqn >> 31);
        for &z in s2.iter() {
            let z = i32::from(z);
            sqn = sqn.wrapping_add((z * z) as u32);
            ng |= sqn;
        }
        sqn |= 0u32.wrapping_sub(ng >> 31);
        t0.zeroize();
        t1.zeroize();
        tx.zeroize();
        ty.zeroize();
        tmp.zeroize();
        if sqn <= params::beta_sq(N) {
            Some(s2)
        } else {
            s2.zeroize();
            None
        }
    }

    /// Falcon spec v1.2, Algorithm 10: Sign, with the caller's nonce r and the 48-byte seed of
    /// the sampler's randomness (SHAKE256(seed) seeds the ChaCha20 PRNG, 56 bytes per attempt,
    /// as in the reference). HashToPoint is the constant-time variant. Deterministic in its
    /// inputs: the KAT files' signatures come out of it given the DRBG's nonce and seed.
    pub fn sign_with_seed(
        &self,
        msg: &[u8],
        nonce: &[u8; NONCE_LEN],
        seed: &[u8; SEED_LEN],
    ) -> Signature<N> {
        let mut c = [0u16; N];
        let mut rd = shake_nonce_msg(nonce, msg);
        hash_to_point_ct(&mut rd, &mut c);
        let mut sh = Shake256::new();
        sh.absorb(seed);
        let mut rng = sh.finalize();
        let mut comp = [0u8; 1400];
        let max = Signature::<N>::MAX_LEN - 1 - NONCE_LEN;
        loop {
            let mut samp = Sampler {
                prng: Prng::new(&mut rng),
                sigma_min: Fpr::sigma_min(params::logn(N)),
            };
            if let Some(s2) = self.try_sign(&mut samp, &c) {
                // Algorithm 10, step 10: restart if s2 does not compress into the bound.
                if crate::codec::compress(&s2, &mut comp[..max]).is_some() {
                    return Signature::from_parts(*nonce, s2);
                }
            }
        }
    }

    /// Signs with a fresh random nonce and seed from `fill` (which returns false on failure).
    pub fn sign_with_rng(
        &self,
        msg: &[u8],
        mut fill: impl FnMut(&mut [u8]) -> bool,
    ) -> Result<Signature<N>, Error> {
        let mut nonce = [0u8; NONCE_LEN];
        let mut seed = [0u8; SEED_LEN];
        if !fill(&mut nonce) || !fill(&mut seed) {
            return Err(Error::Randomness);
        }
        let sig = self.sign_with_seed(msg, &nonce, &seed);
        seed.zeroize();
        Ok(sig)
    }

    /// Signs with OS randomness.
    #[cfg(feature = "getrandom")]
    pub fn sign(&self, msg: &[u8]) -> Result<Signature<N>, Error> {
        self.sign_with_rng(msg, |b| getrandom::fill(b).is_ok())
    }
}

impl<const N: usize> SigningKey<N> {
    /// Falcon spec v1.2, Algorithm 10: Sign with the given nonce and sampler seed (see
    /// [`ExpandedKey::sign_with_seed`]); expands the key into a temporary first.
    pub fn sign_with_seed(
        &self,
        msg: &[u8],
        nonce: &[u8; NONCE_LEN],
        seed: &[u8; SEED_LEN],
    ) -> Signature<N> {
        ExpandedKey::new(self).sign_with_seed(msg, nonce, seed)
    }

    /// Signs with a fresh random nonce and seed from `fill` (which returns false on failure).
    pub fn sign_with_rng(
        &self,
        msg: &[u8],
        fill: impl FnMut(&mut [u8]) -> bool,
    ) -> Result<Signature<N>, Error> {
        ExpandedKey::new(self).sign_with_rng(msg, fill)
    }

    /// Signs with OS randomness.
    #[cfg(feature = "getrandom")]
    pub fn sign(&self, msg: &[u8]) -> Result<Signature<N>, Error> {
        ExpandedKey::new(self).sign(msg)
    }

    /// The expanded form of this key, for repeated signing.
    pub fn expand(&self) -> ExpandedKey<N> {
        ExpandedKey::new(self)
    }
}
