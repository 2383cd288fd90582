//! Falcon spec v1.2, Algorithm 9 (ffLDL*) computed level by level instead of depth first.
//!
//! Below its root the Falcon tree is built from self-adjoint quasi-cyclic Gram matrices: a node
//! of degree m with first row (g0, g1) gives l10 = adj(g1 / g0), d11 = g0 - |g1|^2 / g0 (line 2)
//! and the children's first rows split(d00) = split(g0) and split(d11) (line 4, Algorithm 1).
//! Every node at one depth has the same degree and the same steps, and together they hold n / 2
//! complex values, so a whole depth is one LDL step and two splits over arrays of n values:
//! the vector kernels of [`Ops`] see n / 2 independent lanes at every depth instead of one or
//! two per call near the leaves, and the constant-time reciprocals and square roots of a depth
//! overlap. Each value gets the operations of the depth-first recursion in the same order, so
//! the tree is the same bits.
//!
//! A depth is stored as one array in the layout of a polynomial in FFT representation: the
//! real parts of all its nodes (node p's m / 2 values at p m / 2), then the imaginary parts. The
//! children of node p of depth d (2^d nodes) are nodes p (from d00) and 2^d + p (from d11) of
//! depth d + 1, so that a depth's two splits each write one contiguous half of the next
//! depth's arrays; bit t of a node's index is the branch taken at depth t, which gives its place
//! in the flat tree of [`crate::ffsampling`] ([`node_offset`]).

use crate::backend::Ops;
use crate::ffsampling::tree_size;
use crate::fpr::Fpr;

/// Where the node `p` of depth `depth` lies in the flat tree of degree 2^logn (the layout of
/// [`crate::ffsampling`]: a node's l10, then its left subtree, then its right one).
fn node_offset(p: usize, depth: u32, logn: u32) -> usize {
    let mut off = 0;
    for t in 0..depth {
        let lg = logn - t;
        off += (1 << lg) + ((p >> t) & 1) * tree_size(lg - 1);
    }
    off
}

/// Falcon spec v1.2, Algorithm 9 (ffLDL*) for the self-adjoint quasi-cyclic Gram matrix with
/// first row (g0, g1) of degree 2^logn, followed by the leaf normalization of Algorithm 8,
/// step 6 (each leaf x replaced by sqrt(x) / sigma, stored as its inverse: sqrt(x) inv_sigma),
/// into the flat `tree` (tree_size(logn) values), depth by depth. `g0` and `g1` (2^logn values
/// each) are consumed; `work` holds at least 3 2^logn values.
pub(crate) fn ffldl_levels<B: Ops>(
    tree: &mut [Fpr],
    g0: &mut [Fpr],
    g1: &mut [Fpr],
    logn: u32,
    inv_sigma: Fpr,
    work: &mut [Fpr],
) {
    let n = 1usize << logn;
    if n == 1 {
        tree[0] = g0[0].sqrt().mul(inv_sigma);
        return;
    }
    let h = n >> 1;
    let (d11, rest) = work.split_at_mut(n);
    let (l10, rest) = rest.split_at_mut(n);
    let spare = &mut rest[..n];
    // The first rows of the current depth (cur0, in g0 or `spare` by turns, and g1).
    let (mut cur0, mut next0): (&mut [Fpr], &mut [Fpr]) = (&mut g0[..n], spare);
    let cur1 = &mut g1[..n];
    for depth in 0..logn {
        // m / 2 complex values per node, 2^depth nodes.
        let hm = h >> depth;
        B::ldlmv(d11, l10, cur0, cur1, cur0);
        for p in 0..1usize << depth {
            let off = node_offset(p, depth, logn);
            tree[off..off + hm].copy_from_slice(&l10[p * hm..(p + 1) * hm]);
            tree[off + hm..off + 2 * hm].copy_from_slice(&l10[h + p * hm..h + (p + 1) * hm]);
        }
        if hm == 1 {
            // Nodes of degree 2: their children are the leaves, the real parts of d00 and d11.
            B::sqrt_scale(&mut cur0[..h], inv_sigma);
            B::sqrt_scale(&mut d11[..h], inv_sigma);
            for p in 0..h {
                let off = node_offset(p, depth, logn);
                tree[off + 2] = cur0[p];
                tree[off + 3] = d11[p];
            }
            break;
        }
        // split(d00) into the first half of the next depth, split(d11) into the second.
        let q = h >> 1;
        let (n_re, n_im) = next0.split_at_mut(h);
        let (c_re, c_im) = cur1.split_at_mut(h);
        let (n_re_l, n_re_r) = n_re.split_at_mut(q);
        let (n_im_l, n_im_r) = n_im.split_at_mut(q);
        let (c_re_l, c_re_r) = c_re.split_at_mut(q);
        let (c_im_l, c_im_r) = c_im.split_at_mut(q);
        B::split_level(cur0, hm, [n_re_l, n_im_l], [c_re_l, c_im_l]);
        B::split_level(d11, hm, [n_re_r, n_im_r], [c_re_r, c_im_r]);
        core::mem::swap(&mut cur0, &mut next0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::portable::Portable;
    use crate::fft::{poly_ldlmv_fft, poly_split_fft};

    /// The depth-first recursion of Algorithm 9 as the reference writes it (`ffLDL_fft_inner`),
    /// then the leaf normalization: the tree the level-by-level build must reproduce.
    fn ffldl_recursive(tree: &mut [Fpr], g0: &mut [Fpr], g1: &mut [Fpr], logn: u32, is: Fpr) {
        let n = 1usize << logn;
        if n == 1 {
            tree[0] = g0[0].sqrt().mul(is);
            return;
        }
        let hn = n >> 1;
        let mut d11 = std::vec![Fpr::ZERO; n];
        let (l10, rest) = tree.split_at_mut(n);
        poly_ldlmv_fft(&mut d11, l10, g0, g1, g0);
        {
            let (a, b) = g1.split_at_mut(hn);
            poly_split_fft(a, b, g0);
        }
        {
            let (a, b) = g0.split_at_mut(hn);
            poly_split_fft(a, b, &d11);
        }
        let (t0, t1) = rest.split_at_mut(tree_size(logn - 1));
        let (a, b) = g1.split_at_mut(hn);
        ffldl_recursive(t0, a, b, logn - 1, is);
        let (a, b) = g0.split_at_mut(hn);
        ffldl_recursive(t1, a, b, logn - 1, is);
    }

    #[test]
    fn level_by_level_tree_is_the_recursive_tree() {
        let mut s = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        };
        for logn in 0..=9u32 {
            let n = 1usize << logn;
            // A self-adjoint g0 (real FFT values, positive and dominant) and any g1.
            let mut g0 = std::vec![Fpr::ZERO; n];
            let mut g1 = std::vec![Fpr::ZERO; n];
            for u in 0..n.div_ceil(2) {
                g0[u] = Fpr::of(1_000_000 + (next() % 1_000_000) as i64);
            }
            for v in g1.iter_mut() {
                *v = Fpr::of((next() % 2000) as i64 - 1000)
                    .mul(Fpr::of(3))
                    .half();
            }
            let is = Fpr::inv_sigma(9);
            let mut want = std::vec![Fpr::ZERO; tree_size(logn)];
            ffldl_recursive(&mut want, &mut g0.clone(), &mut g1.clone(), logn, is);
            let mut got = std::vec![Fpr::ZERO; tree_size(logn)];
            let mut work = std::vec![Fpr::ZERO; 3 * n];
            ffldl_levels::<Portable>(&mut got, &mut g0, &mut g1, logn, is, &mut work);
            let bits = |t: &[Fpr]| t.iter().map(|x| x.to_bits()).collect::<std::vec::Vec<_>>();
            assert_eq!(bits(&got), bits(&want), "logn = {logn}");
        }
    }
}
