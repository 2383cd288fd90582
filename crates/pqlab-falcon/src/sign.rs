//! Signing (Falcon spec v1.2, Section 3.9, Algorithm 10: Sign) and the expanded secret key
//! (Algorithm 8 steps 1 to 6: the FFT basis B^ = \[\[FFT(g), -FFT(f)\], \[FFT(G), -FFT(F)\]\] and
//! the normalized Falcon tree).
//!
//! [`ExpandedKey`] keeps the basis and tree (15 n values) so that signatures skip the
//! expansion (the reference's `sign_tree`). Plain signing with a [`SigningKey`] computes the
//! basis and the tree level by level during ffSampling in 8 n values (the reference's
//! `sign_dyn`). Both draw randomness and compute exactly as the reference, so signatures are
//! identical to each other and to the NIST KAT files.

use pqlab_keccak::Shake256;
use zeroize::{Zeroize, ZeroizeOnDrop};

use crate::backend::{self, Ops};
use crate::error::Error;
use crate::ffsampling::{ff_sampling, ff_sampling_dyn, ffldl_fft, tree_size};
use crate::fft::{poly_add, poly_muladj_fft, poly_mulselfadj_fft, poly_neg};
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

fn small_to_fft<B: Ops, const N: usize>(out: &mut [Fpr; N], x: &[i8; N], logn: u32) {
    for (o, &v) in out.iter_mut().zip(x.iter()) {
        *o = Fpr::of(i64::from(v));
    }
    B::fft(out, logn);
}

impl<const N: usize> ExpandedKey<N> {
    /// Falcon spec v1.2, Algorithm 8 (steps 1 to 6): expands a secret key.
    ///
    /// The expansion's 6 n values of scratch live in a separate frame; to have the key built
    /// in place and never copied, see [`SigningKey::with_expanded`].
    pub fn new(sk: &SigningKey<N>) -> Self {
        const { params::check_n(N) };
        let mut ek = ExpandedKey {
            b: [[Fpr::ZERO; N]; 4],
            tree: [[Fpr::ZERO; N]; TREE_ROWS],
        };
        backend::dispatch!(B => ek.fill::<B>(sk));
        ek
    }

    /// [`Self::new`] with the kernels of `B`, into `self` (all zero).
    #[inline(never)]
    fn fill<B: Ops>(&mut self, sk: &SigningKey<N>) {
        let logn = params::logn(N);
        basis::<B, N>(sk, self.b.each_mut());
        let mut g = [[Fpr::ZERO; N]; 3];
        let mut tmp = [[Fpr::ZERO; N]; 3];
        gram(self.b.each_ref(), g.each_mut(), &mut tmp[0]);
        let [g00, g01, g11] = &g;
        ffldl_fft::<B>(
            &mut self.tree.as_flattened_mut()[..tree_size(logn)],
            g00,
            g01,
            g11,
            logn,
            tmp.as_flattened_mut(),
        );
        g.zeroize();
        tmp.zeroize();
    }

    /// One attempt of Algorithm 10, steps 3 to 9: the target, ffSampling, s = (t - z) B, and
    /// the norm check. Returns s2 when ||(s1, s2)||^2 <= floor(beta^2).
    ///
    /// The three FFTs of an attempt are the portable ones in every back end: measured on a Xeon
    /// with AVX-512, the 512-bit FFT made expanded-key signing 3.6 % slower (the wide
    /// floating-point instructions lower the core's clock for the scalar sampler that follows),
    /// while plain-key signing, with eleven FFTs per attempt, gains 3 % from it.
    fn try_sign<B: Ops>(&self, samp: &mut Sampler, c: &[u16; N]) -> Option<[i16; N]> {
        let logn = params::logn(N);
        let mut t = [[Fpr::ZERO; N]; 2];
        let mut z = [[Fpr::ZERO; N]; 2];
        let mut tmp = [[Fpr::ZERO; N]; 2];
        {
            let [t0, t1] = &mut t;
            let [_, b01, _, b11] = &self.b;
            target::<B, N>(c, b01, b11, t0, t1);
            let [z0, z1] = &mut z;
            let k = pqlab_profile::enter(pqlab_profile::Kernel::FfSampling);
            ff_sampling::<B>(
                samp,
                z0,
                z1,
                &self.tree.as_flattened()[..tree_size(logn)],
                t0,
                t1,
                logn,
                tmp.as_flattened_mut(),
            );
            drop(k);
        }
        let [z0, z1] = &mut z;
        let [t0, t1] = &mut t;
        let s2 = short_vector::<B, N>(c, z0, z1, self.b.each_ref(), t0, t1);
        t.zeroize();
        z.zeroize();
        tmp.zeroize();
        s2
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
        let c = hash_message(nonce, msg);
        self.sign_tree_loop(&c, nonce, seed)
    }

    /// [`Self::sign_with_seed`] after HashToPoint, in its own frame (never inlined), so that
    /// its 6 n values of scratch are not stacked on HashToPoint's (5 KiB on a Cortex-M4).
    #[inline(never)]
    fn sign_tree_loop(
        &self,
        c: &[u16; N],
        nonce: &[u8; NONCE_LEN],
        seed: &[u8; SEED_LEN],
    ) -> Signature<N> {
        // Native floating point: the portable kernels (on this path, between the scalar
        // sampler's steps, the AVX-512 ones measured slower: 90 -> 117 us for Falcon-512 on a
        // Sapphire Rapids core). Emulated: the back end's, whose lanes do eight emulated
        // operations for the price of about two (Falcon-512 650 -> 443 us).
        #[cfg(not(feature = "fpr-emu"))]
        {
            sign_loop(c, nonce, seed, |samp, c| {
                self.try_sign::<backend::portable::Portable>(samp, c)
            })
        }
        #[cfg(feature = "fpr-emu")]
        backend::dispatch!(B => sign_loop(c, nonce, seed, |samp, c| {
            self.try_sign::<B>(samp, c)
        }))
    }

    /// Signs with a fresh random nonce and seed from `fill` (which returns false on failure).
    pub fn sign_with_rng(
        &self,
        msg: &[u8],
        fill: impl FnMut(&mut [u8]) -> bool,
    ) -> Result<Signature<N>, Error> {
        sign_fresh(fill, |nonce, seed| self.sign_with_seed(msg, nonce, seed))
    }

    /// Signs with OS randomness.
    #[cfg(feature = "getrandom")]
    pub fn sign(&self, msg: &[u8]) -> Result<Signature<N>, Error> {
        self.sign_with_rng(msg, |b| getrandom::fill(b).is_ok())
    }
}

/// Draws a nonce and then a sampler seed from `fill` (false: the source failed) and signs with
/// them through `sign`; the seed is wiped afterwards.
fn sign_fresh<const N: usize>(
    mut fill: impl FnMut(&mut [u8]) -> bool,
    sign: impl FnOnce(&[u8; NONCE_LEN], &[u8; SEED_LEN]) -> Signature<N>,
) -> Result<Signature<N>, Error> {
    let mut nonce = [0u8; NONCE_LEN];
    let mut seed = [0u8; SEED_LEN];
    if !fill(&mut nonce) || !fill(&mut seed) {
        seed.zeroize();
        return Err(Error::Randomness);
    }
    let sig = sign(&nonce, &seed);
    seed.zeroize();
    Ok(sig)
}

impl<const N: usize> SigningKey<N> {
    /// Falcon spec v1.2, Algorithm 10: Sign with the given nonce and sampler seed (see
    /// [`ExpandedKey::sign_with_seed`]), without an expanded key: the tree of Algorithm 9 is
    /// computed node by node during ffSampling and never stored whole (`sign_dyn`; only the
    /// subtree of one node of degree 16 at a time, 80 values, is built depth by depth and then
    /// sampled from), so signing needs about 9 n floating-point values of memory instead of the
    /// expanded key's 15 n. The signature is the one [`ExpandedKey::sign_with_seed`] gives.
    pub fn sign_with_seed(
        &self,
        msg: &[u8],
        nonce: &[u8; NONCE_LEN],
        seed: &[u8; SEED_LEN],
    ) -> Signature<N> {
        const { params::check_n(N) };
        let c = hash_message(nonce, msg);
        self.sign_dyn_loop(&c, nonce, seed)
    }

    /// [`Self::sign_with_seed`] after HashToPoint, in its own frame (never inlined): its 8 n
    /// values of work area are then not stacked on the scratch of what ran before it
    /// (decoding the key, the constant-time HashToPoint: 4 to 5 KiB each on a Cortex-M4).
    #[inline(never)]
    fn sign_dyn_loop(
        &self,
        c: &[u16; N],
        nonce: &[u8; NONCE_LEN],
        seed: &[u8; SEED_LEN],
    ) -> Signature<N> {
        let mut work = DynWork::<N>::new();
        let sig = backend::dispatch!(B => sign_loop(c, nonce, seed, |samp, c| {
            sign_dyn::<B, N>(self, samp, c, &mut work)
        }));
        work.zeroize();
        sig
    }

    /// Signs with a fresh random nonce and seed from `fill` (which returns false on failure).
    pub fn sign_with_rng(
        &self,
        msg: &[u8],
        fill: impl FnMut(&mut [u8]) -> bool,
    ) -> Result<Signature<N>, Error> {
        sign_fresh(fill, |nonce, seed| self.sign_with_seed(msg, nonce, seed))
    }

    /// Signs with OS randomness.
    #[cfg(feature = "getrandom")]
    pub fn sign(&self, msg: &[u8]) -> Result<Signature<N>, Error> {
        self.sign_with_rng(msg, |b| getrandom::fill(b).is_ok())
    }

    /// The expanded form of this key, for repeated signing.
    pub fn expand(&self) -> ExpandedKey<N> {
        ExpandedKey::new(self)
    }

    /// Runs `body` with the expanded form of this key, built in place in this call's frame and
    /// wiped afterwards. Unlike [`Self::expand`], whose result the compiler may build in one
    /// place and copy to another, the key is never moved: on a small device it is in memory
    /// once (60 KiB for Falcon-512, 120 KiB for Falcon-1024), with the expansion's 6 n values
    /// of scratch beside it while it is built.
    pub fn with_expanded<R>(&self, body: impl FnOnce(&ExpandedKey<N>) -> R) -> R {
        const { params::check_n(N) };
        let mut ek = ExpandedKey {
            b: [[Fpr::ZERO; N]; 4],
            tree: [[Fpr::ZERO; N]; TREE_ROWS],
        };
        backend::dispatch!(B => ek.fill::<B>(self));
        body(&ek)
    }
}

/// Falcon spec v1.2, Algorithm 10: Sign, steps 1 and 2: c = HashToPoint(r || m), constant
/// time (the message may be secret).
fn hash_message<const N: usize>(nonce: &[u8; NONCE_LEN], msg: &[u8]) -> [u16; N] {
    let mut c = [0u16; N];
    let mut rd = shake_nonce_msg(nonce, msg);
    hash_to_point_ct(&mut rd, &mut c);
    c
}

/// Falcon spec v1.2, Algorithm 10: Sign, the loop over steps 3 to 10 for the hashed message
/// `c`: the sampler seeded from SHAKE256(seed) anew for each attempt (56 bytes each, as in
/// the reference), `attempt` (steps 3 to 9) until it gives a short s2 that compresses into the
/// signature's size (step 10).
fn sign_loop<const N: usize>(
    c: &[u16; N],
    nonce: &[u8; NONCE_LEN],
    seed: &[u8; SEED_LEN],
    mut attempt: impl FnMut(&mut Sampler, &[u16; N]) -> Option<[i16; N]>,
) -> Signature<N> {
    let mut sh = Shake256::new();
    sh.absorb(seed);
    let mut rng = sh.finalize();
    let max = Signature::<N>::MAX_LEN - 1 - NONCE_LEN;
    let logn = params::logn(N);
    loop {
        let mut samp = Sampler {
            prng: Prng::new(&mut rng),
            sigma_min: Fpr::sigma_min(logn),
            inv_sigma: Fpr::inv_sigma(logn),
        };
        // Step 10: s2 must compress into the signature's size.
        if let Some(s2) = attempt(&mut samp, c)
            && crate::codec::compressed_len(&s2).is_some_and(|len| len <= max)
        {
            return Signature::from_parts(*nonce, s2);
        }
    }
}

/// Algorithm 8, steps 1 and 2: the basis B^ = \[\[FFT(g), -FFT(f)\], \[FFT(G), -FFT(F)\]\].
fn basis<B: Ops, const N: usize>(sk: &SigningKey<N>, b: [&mut [Fpr; N]; 4]) {
    let logn = params::logn(N);
    let [b00, b01, b10, b11] = b;
    small_to_fft::<B, N>(b01, &sk.f, logn);
    small_to_fft::<B, N>(b00, &sk.g, logn);
    small_to_fft::<B, N>(b11, &sk.F, logn);
    small_to_fft::<B, N>(b10, &sk.G, logn);
    poly_neg(b01);
    poly_neg(b11);
}

/// Algorithm 8, step 3: the Gram matrix G = B B* (g00, g01, g11; g10 = adj g01), with `gx`
/// as scratch.
fn gram<const N: usize>(b: [&[Fpr; N]; 4], g: [&mut [Fpr; N]; 3], gx: &mut [Fpr; N]) {
    let [b00, b01, b10, b11] = b;
    let [g00, g01, g11] = g;
    g00.copy_from_slice(b00);
    poly_mulselfadj_fft(g00);
    gx.copy_from_slice(b01);
    poly_mulselfadj_fft(gx);
    poly_add(g00, gx);

    g01.copy_from_slice(b00);
    poly_muladj_fft(g01, b10);
    gx.copy_from_slice(b01);
    poly_muladj_fft(gx, b11);
    poly_add(g01, gx);

    g11.copy_from_slice(b10);
    poly_mulselfadj_fft(g11);
    gx.copy_from_slice(b11);
    poly_mulselfadj_fft(gx);
    poly_add(g11, gx);
}

/// Algorithm 10, step 3: the target t = (c, 0) B^-1 = (c b11 / q, -c b01 / q) in FFT form.
fn target<B: Ops, const N: usize>(
    c: &[u16; N],
    b01: &[Fpr; N],
    b11: &[Fpr; N],
    t0: &mut [Fpr; N],
    t1: &mut [Fpr; N],
) {
    let logn = params::logn(N);
    for (o, &x) in t0.iter_mut().zip(c.iter()) {
        *o = Fpr::of(i64::from(x));
    }
    B::fft(t0, logn);
    let ni = Fpr::INVERSE_OF_Q;
    t1.copy_from_slice(t0);
    B::mul_fft(t1, b01);
    B::mulconst(t1, ni.neg());
    B::mul_fft(t0, b11);
    B::mulconst(t0, ni);
}

/// Algorithm 10, steps 6 to 9: from the sample z (FFT form; overwritten), s = (t - z) B as
/// s1 = c - v0, s2 = -v1 with v = z B, and the norm check with the reference's saturating
/// sum. Returns s2 when ||(s1, s2)||^2 <= floor(beta^2). `v0`, `v1` are scratch.
fn short_vector<B: Ops, const N: usize>(
    c: &[u16; N],
    z0: &mut [Fpr; N],
    z1: &mut [Fpr; N],
    b: [&[Fpr; N]; 4],
    v0: &mut [Fpr; N],
    v1: &mut [Fpr; N],
) -> Option<[i16; N]> {
    let logn = params::logn(N);
    let [b00, b01, b10, b11] = b;
    // v = z B: (z0 b00 + z1 b10, z0 b01 + z1 b11).
    v0.copy_from_slice(z0);
    v1.copy_from_slice(z1);
    B::mul_fft(z0, b00);
    B::mul_fft(z1, b10);
    B::add(z0, z1);
    z1.copy_from_slice(v0);
    B::mul_fft(z1, b01);
    v0.copy_from_slice(z0);
    B::mul_fft(v1, b11);
    B::add(v1, z1);
    B::ifft(v0, logn);
    B::ifft(v1, logn);

    let mut sqn: u32 = 0;
    let mut ng: u32 = 0;
    for (&ci, v) in c.iter().zip(v0.iter()) {
        let z = i32::from(ci) - v.rint() as i32;
        sqn = sqn.wrapping_add((z * z) as u32);
        ng |= sqn;
    }
    let mut s2 = [0i16; N];
    for (o, v) in s2.iter_mut().zip(v1.iter()) {
        *o = (-v.rint()) as i16;
    }
    ng |= 0u32.wrapping_sub(sqn >> 31);
    for &z in s2.iter() {
        let z = i32::from(z);
        sqn = sqn.wrapping_add((z * z) as u32);
        ng |= sqn;
    }
    sqn |= 0u32.wrapping_sub(ng >> 31);
    if sqn <= params::beta_sq(N) {
        Some(s2)
    } else {
        s2.zeroize();
        None
    }
}

/// The memory of [`sign_dyn`]: 8 n values (the reference needs 9 n). The basis lives in rows
/// that the target and the ffSampling scratch take over once it is no longer needed.
#[derive(Zeroize)]
struct DynWork<const N: usize> {
    t: [[Fpr; N]; 2],
    g: [[Fpr; N]; 3],
    s: [[Fpr; N]; 3],
}

impl<const N: usize> DynWork<N> {
    fn new() -> Self {
        DynWork {
            t: [[Fpr::ZERO; N]; 2],
            g: [[Fpr::ZERO; N]; 3],
            s: [[Fpr::ZERO; N]; 3],
        }
    }
}

/// One attempt of Algorithm 10, steps 3 to 9, without an expanded key (the reference's
/// `sign_dyn`): the basis and the Gram matrix, the target, ffSampling with the tree computed
/// on the way ([`ff_sampling_dyn`]), then the basis again for s = (t - z) B.
///
/// Rows of [`DynWork`]: b00 and b10 in t, b01 and b11 in s (s\[0\] is the Gram scratch);
/// after the Gram matrix (in g) b00 and b10 are spent and the target takes their rows, after
/// the target all of s is ffSampling's scratch; after ffSampling (z in t) the basis is
/// computed again into g and s\[0\], and s\[1\], s\[2\] are the scratch of `short_vector`.
fn sign_dyn<B: Ops, const N: usize>(
    sk: &SigningKey<N>,
    samp: &mut Sampler,
    c: &[u16; N],
    w: &mut DynWork<N>,
) -> Option<[i16; N]> {
    let logn = params::logn(N);
    {
        let [t0, t1] = &mut w.t;
        let [s0, s1, s2] = &mut w.s;
        basis::<B, N>(sk, [t0, s1, t1, s2]);
        gram([t0, s1, t1, s2], w.g.each_mut(), s0);
        target::<B, N>(c, s1, s2, t0, t1);
    }
    let [t0, t1] = &mut w.t;
    let [g00, g01, g11] = &mut w.g;
    let k = pqlab_profile::enter(pqlab_profile::Kernel::FfSampling);
    ff_sampling_dyn::<B>(samp, t0, t1, g00, g01, g11, logn, w.s.as_flattened_mut());
    drop(k);
    let [g00, g01, g11] = &mut w.g;
    let [s0, s1, s2] = &mut w.s;
    basis::<B, N>(sk, [g00, g01, g11, s0]);
    short_vector::<B, N>(c, t0, t1, [g00, g01, g11, s0], s1, s2)
}
