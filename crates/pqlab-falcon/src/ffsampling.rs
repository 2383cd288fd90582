//! The Falcon tree and fast Fourier sampling (Falcon spec v1.2, Section 3.8.3: Algorithm 9
//! ffLDL*, and Section 3.9.2: Algorithm 11 ffSampling), on polynomials in FFT representation.
//!
//! The tree for degree 2^logn is stored flat, as in the reference: the node's l10 (n values),
//! then the left subtree (for d00) and the right subtree (for d11), each of size
//! (logn) 2^(logn - 1); (logn + 1) 2^logn values in all. The leaves hold sigma_leaf^-1 after
//! normalization (Algorithm 8, step 6: sigma / sqrt(leaf), stored inverted).
//!
//! Every step is a fixed sequence of floating-point operations (no branch or index depends on
//! secret values); the sampler's own constant-time behaviour is described in `sampler`.

use crate::backend::Ops;
use crate::fft::{poly_add, poly_merge_fft, poly_mul_fft, poly_split_fft, poly_sub};
use crate::fpr::Fpr;
use crate::sampler::Sampler;

/// The number of values of the tree for degree 2^logn.
pub(crate) const fn tree_size(logn: u32) -> usize {
    ((logn + 1) as usize) << logn
}

/// Recursive part of Algorithm 9 for the self-adjoint quasi-cyclic Gram matrix with first row
/// (g0, g1); g0 and g1 are overwritten. `tmp` holds at least 2^logn values.
fn ffldl_inner<B: Ops>(
    tree: &mut [Fpr],
    g0: &mut [Fpr],
    g1: &mut [Fpr],
    logn: u32,
    tmp: &mut [Fpr],
) {
    let n = 1usize << logn;
    if n == 1 {
        tree[0] = g0[0];
        return;
    }
    let hn = n >> 1;
    let (l10, rest) = tree.split_at_mut(n);
    B::ldlmv(&mut tmp[..n], l10, g0, g1, g0);
    // d00 (in g0) splits into g1; d11 (in tmp) splits into g0.
    {
        let (a, b) = g1.split_at_mut(hn);
        poly_split_fft(a, b, g0);
    }
    {
        let (a, b) = g0.split_at_mut(hn);
        poly_split_fft(a, b, &tmp[..n]);
    }
    let (t0, t1) = rest.split_at_mut(tree_size(logn - 1));
    let (a, b) = g1.split_at_mut(hn);
    ffldl_inner::<B>(t0, a, b, logn - 1, tmp);
    let (a, b) = g0.split_at_mut(hn);
    ffldl_inner::<B>(t1, a, b, logn - 1, tmp);
}

/// Falcon spec v1.2, Algorithm 9: ffLDL* of the Gram matrix \[\[g00, g01\], \[adj g01, g11\]\],
/// followed by the leaf normalization, with the kernels of `B`. `tmp` holds at least 3 2^logn
/// values.
pub(crate) fn ffldl_fft<B: Ops>(
    tree: &mut [Fpr],
    g00: &[Fpr],
    g01: &[Fpr],
    g11: &[Fpr],
    logn: u32,
    tmp: &mut [Fpr],
) {
    let n = 1usize << logn;
    let hn = n >> 1;
    let (d00, rest) = tmp.split_at_mut(n);
    let (d11, tmp) = rest.split_at_mut(n);
    d00.copy_from_slice(&g00[..n]);
    let (l10, sub) = tree.split_at_mut(n);
    B::ldlmv(d11, l10, g00, g01, g11);
    {
        let (a, b) = tmp[..n].split_at_mut(hn);
        poly_split_fft(a, b, d00);
    }
    {
        let (a, b) = d00.split_at_mut(hn);
        poly_split_fft(a, b, d11);
    }
    d11.copy_from_slice(&tmp[..n]);
    let (t0, t1) = sub.split_at_mut(tree_size(logn - 1));
    {
        let (a, b) = d11.split_at_mut(hn);
        ffldl_inner::<B>(t0, a, b, logn - 1, tmp);
    }
    {
        let (a, b) = d00.split_at_mut(hn);
        ffldl_inner::<B>(t1, a, b, logn - 1, tmp);
    }
    normalize(tree, logn, Fpr::inv_sigma(logn));
}

/// Replaces each leaf x by sqrt(x) / sigma (the inverse of the spec's sigma / sqrt(x)).
fn normalize(tree: &mut [Fpr], logn: u32, inv_sigma: Fpr) {
    let n = 1usize << logn;
    if n == 1 {
        tree[0] = tree[0].sqrt().mul(inv_sigma);
        return;
    }
    let (t0, t1) = tree[n..].split_at_mut(tree_size(logn - 1));
    normalize(t0, logn - 1, inv_sigma);
    normalize(t1, logn - 1, inv_sigma);
}

/// Falcon spec v1.2, Algorithm 11: ffSampling of the target (t0, t1) with the tree, into
/// (z0, z1). `tmp` holds at least 2 2^logn values.
pub(crate) fn ff_sampling(
    samp: &mut Sampler,
    z0: &mut [Fpr],
    z1: &mut [Fpr],
    tree: &[Fpr],
    t0: &[Fpr],
    t1: &[Fpr],
    logn: u32,
    tmp: &mut [Fpr],
) {
    let n = 1usize << logn;
    if n == 1 {
        let sigma = tree[0];
        z0[0] = Fpr::of(samp.sample(t0[0], sigma));
        z1[0] = Fpr::of(samp.sample(t1[0], sigma));
        return;
    }
    if n == 2 {
        // The same steps as below with everything of size 1 written out: for n = 2, split
        // and merge are the identity on (re, im) and the product by l10 is one complex product.
        let (a, b) = sample_degree2(samp, t0, t1, (tree[0], tree[1]), tree[2], tree[3]);
        z0.copy_from_slice(&a);
        z1.copy_from_slice(&b);
        return;
    }
    let hn = n >> 1;
    let (l10, sub) = tree.split_at(n);
    let (tree0, tree1) = sub.split_at(tree_size(logn - 1));
    let (tmp, tmp_rest) = tmp.split_at_mut(n);

    // z1 = ffSampling of split(t1) with the right subtree.
    {
        let (a, b) = z1.split_at_mut(hn);
        poly_split_fft(a, b, t1);
    }
    {
        let (za, zb) = tmp.split_at_mut(hn);
        let (a, b) = z1.split_at(hn);
        ff_sampling(samp, za, zb, tree1, a, b, logn - 1, tmp_rest);
    }
    {
        let (a, b) = tmp.split_at(hn);
        poly_merge_fft(z1, a, b);
    }
    // tb0 = t0 + (t1 - z1) l10.
    tmp.copy_from_slice(t1);
    poly_sub(tmp, z1);
    poly_mul_fft(tmp, l10);
    poly_add(tmp, t0);
    // z0 = ffSampling of split(tb0) with the left subtree.
    {
        let (a, b) = z0.split_at_mut(hn);
        poly_split_fft(a, b, tmp);
    }
    {
        let (za, zb) = tmp.split_at_mut(hn);
        let (a, b) = z0.split_at(hn);
        ff_sampling(samp, za, zb, tree0, a, b, logn - 1, tmp_rest);
    }
    let (a, b) = tmp.split_at(hn);
    poly_merge_fft(z0, a, b);
}

/// Algorithm 11 at degree 2 (one complex value), where split and merge are the identity on
/// (re, im) and the product by l10 is one complex product: z1 from t1 with 1/sigma `isigma1`,
/// then z0 from t0 + (t1 - z1) l10 with `isigma0`. Returns (z0, z1).
#[inline(always)]
fn sample_degree2(
    samp: &mut Sampler,
    t0: &[Fpr],
    t1: &[Fpr],
    (l10_re, l10_im): (Fpr, Fpr),
    isigma0: Fpr,
    isigma1: Fpr,
) -> ([Fpr; 2], [Fpr; 2]) {
    let a = Fpr::of(samp.sample(t1[0], isigma1));
    let b = Fpr::of(samp.sample(t1[1], isigma1));
    let (d_re, d_im) = crate::fft::cmul(t1[0].sub(a), t1[1].sub(b), l10_re, l10_im);
    let (u_re, u_im) = (d_re.add(t0[0]), d_im.add(t0[1]));
    let z0 = [
        Fpr::of(samp.sample(u_re, isigma0)),
        Fpr::of(samp.sample(u_im, isigma0)),
    ];
    (z0, [a, b])
}

/// Falcon spec v1.2, Algorithm 11 (ffSampling) with the tree of Algorithm 9 (ffLDL*) computed
/// on the way down instead of read from storage (the reference's `ffSampling_fft_dyntree`), for
/// signing without an expanded key: samples z for the target (t0, t1) and the Gram matrix
/// \[\[g00, g01\], \[adj g01, g11\]\]. z overwrites (t0, t1); the Gram matrix is consumed (g00
/// keeps l10 once it has been split). `tmp` holds at least 3 2^logn values. The same
/// floating-point operations in the same order as [`ffldl_fft`] then [`ff_sampling`], so the
/// same z.
#[allow(clippy::too_many_arguments)]
pub(crate) fn ff_sampling_dyn<B: Ops>(
    samp: &mut Sampler,
    t0: &mut [Fpr],
    t1: &mut [Fpr],
    g00: &mut [Fpr],
    g01: &mut [Fpr],
    g11: &mut [Fpr],
    logn: u32,
    tmp: &mut [Fpr],
) {
    let n = 1usize << logn;
    let hn = n >> 1;
    let (d11, rest) = tmp.split_at_mut(n);
    {
        let l10 = &mut rest[..n];
        B::ldlmv(d11, l10, g00, g01, g11);
        // The left child's Gram matrix is split(d00) = split(g00), the right one's split(d11);
        // then g00 is free and keeps l10, so that the children have the rest of `tmp`.
        {
            let (a, b) = g01.split_at_mut(hn);
            poly_split_fft(a, b, g00);
        }
        {
            let (a, b) = g11.split_at_mut(hn);
            poly_split_fft(a, b, d11);
        }
        g00.copy_from_slice(l10);
    }
    sample_children::<B>(samp, t0, t1, g00, g01, g11, d11, logn, rest);
}

/// The recursive part of [`ff_sampling_dyn`], for the self-adjoint quasi-cyclic Gram matrix
/// with first row (g0, g1) (the split of the parent's d00 or d11); g0 and g1 are consumed.
/// `tmp` holds at least 4 2^logn values.
fn ff_sampling_dyn_inner<B: Ops>(
    samp: &mut Sampler,
    t0: &mut [Fpr],
    t1: &mut [Fpr],
    g0: &mut [Fpr],
    g1: &mut [Fpr],
    logn: u32,
    tmp: &mut [Fpr],
) {
    let n = 1usize << logn;
    if n == 1 {
        // The leaf: sigma / sqrt(g0) (stored inverted, as `normalize` does) for both samples.
        let isigma = g0[0].sqrt().mul(samp.inv_sigma);
        t0[0] = Fpr::of(samp.sample(t0[0], isigma));
        t1[0] = Fpr::of(samp.sample(t1[0], isigma));
        return;
    }
    if n == 2 {
        // The steps below with everything of size 1 written out (as in `ff_sampling`): split
        // and merge are the identity on (re, im), the LDL step and the product by l10 are one
        // complex quotient and product, and only d11's real part (the right leaf) is read.
        // The same operations in the same order, so the same z.
        let (g0_re, g0_im, g1_re, g1_im) = (g0[0], g0[1], g1[0], g1[1]);
        let (mu_re, mu_im) = crate::fft::cdiv(g1_re, g1_im, g0_re, g0_im);
        let (p_re, _) = crate::fft::cmul(mu_re, mu_im, g1_re, g1_im.neg());
        let d11_re = g0_re.sub(p_re);
        let isigma1 = d11_re.sqrt().mul(samp.inv_sigma);
        let isigma0 = g0_re.sqrt().mul(samp.inv_sigma);
        let (a, b) = sample_degree2(samp, t0, t1, (mu_re, mu_im.neg()), isigma0, isigma1);
        t0.copy_from_slice(&a);
        t1.copy_from_slice(&b);
        return;
    }
    let hn = n >> 1;
    let (d11, rest) = tmp.split_at_mut(n);
    let (l10, rest) = rest.split_at_mut(n);
    B::ldlmv(d11, l10, g0, g1, g0);
    // As in `ffldl_inner`: d00 (in g0) splits into g1, d11 into g0.
    {
        let (a, b) = g1.split_at_mut(hn);
        poly_split_fft(a, b, g0);
    }
    {
        let (a, b) = g0.split_at_mut(hn);
        poly_split_fft(a, b, d11);
    }
    sample_children::<B>(samp, t0, t1, l10, g1, g0, d11, logn, rest);
}

/// Algorithm 11, lines 2 to 7 at a node of degree 2^logn whose l10 is given and whose
/// children's Gram matrices are `left` (for d00) and `right` (for d11), both consumed: z1 from
/// split(t1) with the right child, then z0 from split(t0 + (t1 - z1) l10) with the left one;
/// z overwrites (t0, t1). `zs` (2^logn values) is scratch; `tmp` goes to the children.
#[allow(clippy::too_many_arguments)]
fn sample_children<B: Ops>(
    samp: &mut Sampler,
    t0: &mut [Fpr],
    t1: &mut [Fpr],
    l10: &[Fpr],
    left: &mut [Fpr],
    right: &mut [Fpr],
    zs: &mut [Fpr],
    logn: u32,
    tmp: &mut [Fpr],
) {
    let hn = 1usize << (logn - 1);
    {
        let (a, b) = zs.split_at_mut(hn);
        poly_split_fft(a, b, t1);
        let (g0, g1) = right.split_at_mut(hn);
        ff_sampling_dyn_inner::<B>(samp, a, b, g0, g1, logn - 1, tmp);
    }
    // z1 = merge(zs) into the right child's spent Gram matrix; tb0 = t0 + (t1 - z1) l10.
    let z1 = right;
    {
        let (a, b) = zs.split_at(hn);
        poly_merge_fft(z1, a, b);
    }
    zs.copy_from_slice(t1);
    poly_sub(zs, z1);
    t1.copy_from_slice(z1);
    poly_mul_fft(zs, l10);
    poly_add(t0, zs);
    let (a, b) = zs.split_at_mut(hn);
    poly_split_fft(a, b, t0);
    {
        let (g0, g1) = left.split_at_mut(hn);
        ff_sampling_dyn_inner::<B>(samp, a, b, g0, g1, logn - 1, tmp);
    }
    poly_merge_fft(t0, a, b);
}
