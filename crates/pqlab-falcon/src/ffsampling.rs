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

use zeroize::Zeroize;

use crate::backend::Ops;
use crate::ffldl_levels::ffldl_levels;
use crate::fpr::Fpr;
use crate::sampler::Sampler;

/// The number of values of the tree for degree 2^logn.
pub(crate) const fn tree_size(logn: u32) -> usize {
    ((logn + 1) as usize) << logn
}

/// Falcon spec v1.2, Algorithm 9: ffLDL* of the Gram matrix \[\[g00, g01\], \[adj g01, g11\]\],
/// followed by the leaf normalization, with the kernels of `B`: the root's LDL step here, its
/// two subtrees depth by depth ([`ffldl_levels`]). `tmp` holds at least 3 2^logn values;
/// logn >= 3 (Falcon's degrees are 512 and 1024).
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
    let inv_sigma = Fpr::inv_sigma(logn);
    let (d00, rest) = tmp.split_at_mut(n);
    let rest = &mut rest[..2 * n];
    let (l10, sub) = tree.split_at_mut(n);
    {
        let (d11, left) = rest.split_at_mut(n);
        d00.copy_from_slice(&g00[..n]);
        B::ldlmv(d11, l10, g00, g01, g11);
        // The left child's first row is split(d00), the right child's split(d11).
        let (a, b) = left.split_at_mut(hn);
        B::split_fft(a, b, d00);
        let (a, b) = d00.split_at_mut(hn);
        B::split_fft(a, b, d11);
    }
    let (t0, t1) = sub.split_at_mut(tree_size(logn - 1));
    {
        // The left subtree with the right one's place as work (logn 2^(logn - 1) values).
        let (a, b) = rest[n..].split_at_mut(hn);
        ffldl_levels::<B>(t0, a, b, logn - 1, inv_sigma, t1);
    }
    let (a, b) = d00.split_at_mut(hn);
    ffldl_levels::<B>(t1, a, b, logn - 1, inv_sigma, rest);
}

/// Falcon spec v1.2, Algorithm 11: ffSampling of the target (t0, t1) with the tree, into
/// (z0, z1). `tmp` holds at least 2 2^logn values.
pub(crate) fn ff_sampling<B: Ops>(
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
        B::split_fft(a, b, t1);
    }
    {
        let (za, zb) = tmp.split_at_mut(hn);
        let (a, b) = z1.split_at(hn);
        ff_sampling::<B>(samp, za, zb, tree1, a, b, logn - 1, tmp_rest);
    }
    {
        let (a, b) = tmp.split_at(hn);
        B::merge_fft(z1, a, b);
    }
    // tb0 = t0 + (t1 - z1) l10.
    tmp.copy_from_slice(t0);
    B::diff_mul_add_fft(tmp, t1, z1, l10);
    // z0 = ffSampling of split(tb0) with the left subtree.
    {
        let (a, b) = z0.split_at_mut(hn);
        B::split_fft(a, b, tmp);
    }
    {
        let (za, zb) = tmp.split_at_mut(hn);
        let (a, b) = z0.split_at(hn);
        ff_sampling::<B>(samp, za, zb, tree0, a, b, logn - 1, tmp_rest);
    }
    let (a, b) = tmp.split_at(hn);
    B::merge_fft(z0, a, b);
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
            B::split_fft(a, b, g00);
        }
        {
            let (a, b) = g11.split_at_mut(hn);
            B::split_fft(a, b, d11);
        }
        g00.copy_from_slice(l10);
    }
    sample_children::<B>(samp, t0, t1, g00, g01, g11, d11, logn, rest);
}

/// The degree (log2) at and below which [`ff_sampling_dyn`] builds a node's whole subtree
/// depth by depth ([`ffldl_levels`], on vectors of the back end) into a small tree of its own
/// (tree_size(4) = 80 values) and samples with it, instead of recursing further: the same
/// operations, so the same z.
const SUBTREE_LOGN: u32 = 4;

/// Algorithm 11 at a node of degree 2^logn (logn <= [`SUBTREE_LOGN`]) whose first row is
/// (g0, g1) (consumed): its subtree built by [`ffldl_levels`] in this frame (wiped after use),
/// then [`ff_sampling`] with it; z overwrites (t0, t1). `tmp` holds at least 4 2^logn values.
#[inline(never)]
fn ff_sampling_subtree<B: Ops>(
    samp: &mut Sampler,
    t0: &mut [Fpr],
    t1: &mut [Fpr],
    g0: &mut [Fpr],
    g1: &mut [Fpr],
    logn: u32,
    tmp: &mut [Fpr],
) {
    let n = 1usize << logn;
    let mut tree = [Fpr::ZERO; tree_size(SUBTREE_LOGN)];
    let sub = &mut tree[..tree_size(logn)];
    ffldl_levels::<B>(sub, g0, g1, logn, samp.inv_sigma, tmp);
    // z into the spent first row.
    let (z0, z1) = (&mut g0[..n], &mut g1[..n]);
    ff_sampling::<B>(samp, z0, z1, sub, t0, t1, logn, tmp);
    t0[..n].copy_from_slice(z0);
    t1[..n].copy_from_slice(z1);
    tree.zeroize();
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
    if logn <= SUBTREE_LOGN {
        ff_sampling_subtree::<B>(samp, t0, t1, g0, g1, logn, tmp);
        return;
    }
    let n = 1usize << logn;
    let hn = n >> 1;
    let (d11, rest) = tmp.split_at_mut(n);
    let (l10, rest) = rest.split_at_mut(n);
    B::ldlmv(d11, l10, g0, g1, g0);
    // d00 (in g0) splits into g1, d11 into g0.
    {
        let (a, b) = g1.split_at_mut(hn);
        B::split_fft(a, b, g0);
    }
    {
        let (a, b) = g0.split_at_mut(hn);
        B::split_fft(a, b, d11);
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
        B::split_fft(a, b, t1);
        let (g0, g1) = right.split_at_mut(hn);
        ff_sampling_dyn_inner::<B>(samp, a, b, g0, g1, logn - 1, tmp);
    }
    // z1 = merge(zs) into the right child's spent Gram matrix; tb0 = t0 + (t1 - z1) l10.
    let z1 = right;
    {
        let (a, b) = zs.split_at(hn);
        B::merge_fft(z1, a, b);
    }
    B::diff_mul_add_fft(t0, t1, z1, l10);
    t1.copy_from_slice(z1);
    let (a, b) = zs.split_at_mut(hn);
    B::split_fft(a, b, t0);
    {
        let (g0, g1) = left.split_at_mut(hn);
        ff_sampling_dyn_inner::<B>(samp, a, b, g0, g1, logn - 1, tmp);
    }
    B::merge_fft(t0, a, b);
}
