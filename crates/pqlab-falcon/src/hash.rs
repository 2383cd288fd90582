//! HashToPoint (Falcon spec v1.2, Section 3.7, Algorithm 3): SHAKE256(r || m) turned into a
//! polynomial c with coefficients in \[0, q) by rejection sampling of 16-bit big-endian words
//! below 5q = 61445, each reduced mod q.
//!
//! Two implementations giving the same output: [`hash_to_point_vartime`], the direct one, whose
//! timing depends on the rejected words (fine when the message is public, as in
//! verification), and [`hash_to_point_ct`], which always reads n + over(n) words and moves the
//! accepted ones into place with a fixed sequence of masked swaps, so that neither its timing
//! nor its memory accesses depend on the message.

use pqlab_keccak::{Shake256, Shake256Reader};

use crate::backend::Ops;
use crate::params::NONCE_LEN;

/// The number of extra 16-bit words read by [`hash_to_point_ct`] for n = 512 and n = 1024,
/// the values of the round-3 reference (`overtab`), chosen there so that fewer than n accepted
/// words among n + over is negligibly likely.
const fn over(n: usize) -> usize {
    if n == 1024 { 287 } else { 205 }
}

/// SHAKE256 absorbing the nonce then the message, ready to squeeze.
pub(crate) fn shake_nonce_msg(nonce: &[u8; NONCE_LEN], msg: &[u8]) -> Shake256Reader {
    let mut sh = Shake256::new();
    sh.absorb(nonce).absorb(msg);
    sh.finalize()
}

/// The SHAKE256 output read as 16-bit big-endian words, squeezed one rate-sized block at a
/// time (the same byte stream as squeezing two bytes per word).
pub(crate) struct Words<'a> {
    rd: &'a mut Shake256Reader,
    buf: [u8; 136],
    pos: usize,
}

impl<'a> Words<'a> {
    pub(crate) fn new(rd: &'a mut Shake256Reader) -> Self {
        Words {
            rd,
            buf: [0; 136],
            pos: 136,
        }
    }

    #[inline]
    pub(crate) fn next(&mut self) -> u32 {
        if self.pos == self.buf.len() {
            self.rd.squeeze(&mut self.buf);
            self.pos = 0;
        }
        let w = (u32::from(self.buf[self.pos]) << 8) | u32::from(self.buf[self.pos + 1]);
        self.pos += 2;
        w
    }
}

/// Falcon spec v1.2, Algorithm 3: HashToPoint, variable time (rejection loop).
///
/// Squeezes one rate-sized block (68 words) at a time, as `Words` does. While at least 68
/// coefficients remain, the block's accepted words go in at once (the back end's
/// `Ops::hash_block`); the last blocks are read word by word.
pub fn hash_to_point_vartime(rd: &mut Shake256Reader, c: &mut [u16]) {
    crate::backend::dispatch!(B => hash_to_point_vartime_with::<B>(rd, c));
}

/// [`hash_to_point_vartime`] with the kernels of `B`.
pub(crate) fn hash_to_point_vartime_with<B: Ops>(rd: &mut Shake256Reader, c: &mut [u16]) {
    let n = c.len();
    let mut i = 0;
    let mut buf = [0u8; BLOCK_BYTES];
    while n - i >= BLOCK_BYTES / 2 {
        rd.squeeze(&mut buf);
        i = B::hash_block(&buf, c, i);
    }
    while i < n {
        rd.squeeze(&mut buf);
        for p in buf.chunks_exact(2) {
            let w = (u32::from(p[0]) << 8) | u32::from(p[1]);
            if w < 5 * crate::params::Q {
                c[i] = (w % crate::params::Q) as u16;
                i += 1;
                if i == n {
                    break;
                }
            }
        }
    }
}

/// The bytes of one SHAKE256 block (its rate): 68 big-endian 16-bit words.
pub(crate) const BLOCK_BYTES: usize = 136;

/// Falcon spec v1.2, Algorithm 3 (HashToPoint), lines 4 to 8 on the big-endian words of
/// `bytes` (the portable [`Ops::hash_block`]): each word below 5q, reduced mod q, is written at
/// the next place c\[i\], in order; returns the next free place. Requires
/// `c.len() - i >= bytes.len() / 2`; every word is written at `c[i]` and `i` advances only when
/// it is accepted (no branch on the word). Places from the returned value on hold no meaning.
pub(crate) fn hash_words(bytes: &[u8], c: &mut [u16], mut i: usize) -> usize {
    for p in bytes.chunks_exact(2) {
        let w = (u32::from(p[0]) << 8) | u32::from(p[1]);
        c[i] = (w % crate::params::Q) as u16;
        i += usize::from(w < 5 * crate::params::Q);
    }
    i
}

/// Falcon spec v1.2, Algorithm 3: HashToPoint, constant time. Same output as
/// [`hash_to_point_vartime`]; `N` is 512 or 1024.
///
/// It reads n + over(n) words, maps each accepted one (w < 5q) to w mod q and each rejected
/// one to the empty value 0xFFFF, with masks, then compacts the accepted values to the front
/// with a fixed network: the value that has j rejected words before it moves down by
/// p = 1, 2, 4, ... slots in pass p when bit p of j is set (after each pass the values are at
/// distinct places, in order, so no value lands on another), which leaves it at its rank
/// among the accepted words.
pub fn hash_to_point_ct<const N: usize>(rd: &mut Shake256Reader, c: &mut [u16; N]) {
    const { crate::params::check_n(N) };
    let n = N;
    let m = n + over(n);
    // Values (0xFFFF: none, also in the padding that the passes read beyond m) and, beside
    // each, the number of rejected words before it.
    let mut t = [0xFFFFu16; CT_LEN];
    let mut jb = [0u16; CT_LEN];
    let mut words = Words::new(rd);
    let mut rejected = 0u32;
    for (x, j) in t[..m].iter_mut().zip(jb[..m].iter_mut()) {
        let w = words.next();
        // Subtract 2q, 2q, q when possible (masks, no branch): w mod q for w < 5q.
        let mut r = w.wrapping_sub(24578 & ((w.wrapping_sub(24578) >> 31).wrapping_sub(1)));
        r = r.wrapping_sub(24578 & ((r.wrapping_sub(24578) >> 31).wrapping_sub(1)));
        r = r.wrapping_sub(12289 & ((r.wrapping_sub(12289) >> 31).wrapping_sub(1)));
        // 1 for a rejected word (w >= 5q), which becomes 0xFFFF.
        let rej = (w.wrapping_sub(61445) >> 31) ^ 1;
        *x = (r | 0u32.wrapping_sub(rej)) as u16;
        *j = rejected as u16;
        rejected += rej;
    }
    let mut p = 1;
    while p <= over(n) {
        compact_pass(&mut t, &mut jb, m, p);
        p <<= 1;
    }
    c.copy_from_slice(&t[..n]);
}

/// The slots [`compact_pass`] processes at once.
const CT_CHUNK: usize = 16;

/// The length of [`hash_to_point_ct`]'s arrays: n + over(n) words for n = 1024, then room for
/// the last chunk and its reads p <= 256 slots further.
const CT_LEN: usize = 1024 + 287 + CT_CHUNK + 256;

/// One pass of [`hash_to_point_ct`]'s compaction of the first `m` slots, in place: slot x takes
/// the value of slot x + p if that one moves (its count has bit p), keeps its own if that one
/// stays, and is emptied otherwise. Each chunk reads slots x..x + 16 and x + p..x + p + 16
/// before writing x..x + 16 (ascending x), so every slot sees the values of the previous
/// pass; the padding stays empty. Masks only, in chunks the compiler runs in vector lanes.
fn compact_pass(t: &mut [u16; CT_LEN], jb: &mut [u16; CT_LEN], m: usize, p: usize) {
    let bit = p as u16;
    let mut x = 0;
    while x < m {
        let mut nv = [0u16; CT_CHUNK];
        let mut nj = [0u16; CT_CHUNK];
        let (sv, sj) = (&t[x..x + CT_CHUNK], &jb[x..x + CT_CHUNK]);
        let (uv, uj) = (&t[x + p..x + p + CT_CHUNK], &jb[x + p..x + p + CT_CHUNK]);
        for k in 0..CT_CHUNK {
            // Masks: the value is present and its count has the bit (moves) or not (stays).
            let up = (uv[k] >> 15).wrapping_sub(1) & 0u16.wrapping_sub(u16::from(uj[k] & bit != 0));
            let own =
                (sv[k] >> 15).wrapping_sub(1) & 0u16.wrapping_sub(u16::from(sj[k] & bit == 0));
            nv[k] = (uv[k] & up) | (sv[k] & own) | !(up | own);
            nj[k] = (uj[k] & up) | (sj[k] & own);
        }
        t[x..x + CT_CHUNK].copy_from_slice(&nv);
        jb[x..x + CT_CHUNK].copy_from_slice(&nj);
        x += CT_CHUNK;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The word-by-word rejection loop of Algorithm 3.
    fn reference(rd: &mut Shake256Reader, c: &mut [u16]) {
        let mut words = Words::new(rd);
        let mut i = 0;
        while i < c.len() {
            let w = words.next();
            if w < 5 * crate::params::Q {
                c[i] = (w % crate::params::Q) as u16;
                i += 1;
            }
        }
    }

    #[test]
    fn block_loop_matches_the_word_loop() {
        let mut cases = 0;
        for len in (0..300).chain([511, 512, 1023, 1024]) {
            for msg in [&b""[..], b"a", &[7u8; 200]] {
                let nonce = [len as u8; NONCE_LEN];
                let (mut a, mut b) = ([0u16; 1024], [1u16; 1024]);
                hash_to_point_vartime(&mut shake_nonce_msg(&nonce, msg), &mut a[..len]);
                reference(&mut shake_nonce_msg(&nonce, msg), &mut b[..len]);
                assert_eq!(a[..len], b[..len], "length {len}");
                cases += 1;
            }
        }
        assert_eq!(cases, 912);
    }
}
