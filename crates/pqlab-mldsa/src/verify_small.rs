//! Verification in small memory (FIPS 204, Algorithm 8 from line 7 on, after Greconici,
//! Kannwischer and Sprenkels), on the encoded public key and signature: two polynomials (one
//! row of w'_approx and one column of NTT(z)), the challenge c as its tau positions and signs,
//! and the Keccak states of the A_hat stream and the c_tilde hash. The `small-memory` form of
//! [`crate::verify::verify_mu_with`]; the same verdicts.
//!
//! Everything here is public (the key, the signature, the message representative): branches
//! and indices may depend on it.

use pqlab_keccak::Shake256;
use subtle::ConstantTimeEq;

use crate::backend::Ops;
use crate::params::{D, ParameterSet, Q};
use crate::poly::{Poly, entry_times_column};
use crate::rounding::use_hint;

/// The largest tau of any parameter set.
const MAX_TAU: usize = 60;

/// c = SampleInBall(c_tilde) as a list: entry e is sign X^pos\[e\] (sign -1 where bit e of
/// `neg` is set), the n = tau entries at distinct positions.
struct BallList {
    pos: [u8; MAX_TAU],
    neg: u64,
    n: usize,
}

impl BallList {
    /// FIPS 204, Algorithm 29: SampleInBall(rho) for the public rho = c_tilde, the textbook
    /// loop of [`crate::sample::sample_in_ball`] on the list: line 9 (c_i = c_j) moves the
    /// entry at position j, if any, to position i, and line 10 adds an entry at j.
    #[inline(never)]
    fn sample<P: ParameterSet>(c_tilde: &[u8]) -> Self {
        let _k = pqlab_profile::enter(pqlab_profile::Kernel::Sample);
        let mut c = BallList {
            pos: [0; MAX_TAU],
            neg: 0,
            n: 0,
        };
        let mut reader = Shake256::reader_of_parts(&[c_tilde]);
        let mut s = [0u8; 8];
        reader.squeeze(&mut s);
        let signs = u64::from_le_bytes(s);
        let mut byte = [0u8; 1];
        for (k, i) in (256 - P::TAU..256).enumerate() {
            // Lines 6 to 8: the first byte j <= i.
            let j = loop {
                reader.squeeze(&mut byte);
                if usize::from(byte[0]) <= i {
                    break byte[0];
                }
            };
            // Line 9: c_i = c_j (positions so far are all below i).
            if let Some(e) = c.pos[..c.n].iter().position(|&p| p == j) {
                c.pos[e] = i as u8;
            }
            // Line 10: c_j = (-1)^{h[i + tau - 256]}.
            c.pos[c.n] = j;
            c.neg |= ((signs >> k) & 1) << c.n;
            c.n += 1;
        }
        c
    }

    /// w -= c t1 2^d in Z\[X\]/(X^256 + 1), exactly (|c t1 2^d| < tau 2^23), with t1 read
    /// coefficient by coefficient from its SimpleBitPack encoding `t1_packed` (Algorithm 22:
    /// 10 bits each, 320 bytes): for each entry +-X^p of c, t1 shifted up by p, the top p
    /// coefficients wrapping round negated. No polynomial of t1 or of NTT(c) is held.
    fn sub_times_t1(&self, t1_packed: &[u8], w: &mut Poly) {
        let t1 = |k: usize| -> i32 {
            let b = (10 * k) / 8;
            let v = u32::from(t1_packed[b]) | (u32::from(t1_packed[b + 1]) << 8);
            ((v >> ((10 * k) % 8)) & 0x3ff) as i32
        };
        for (e, &p) in self.pos[..self.n].iter().enumerate() {
            let p = usize::from(p);
            let sign = 1 - 2 * ((self.neg >> e) & 1) as i32;
            let (wrapped, shifted) = w.0.split_at_mut(p);
            for (k, x) in shifted.iter_mut().enumerate() {
                *x -= sign * (t1(k) << D);
            }
            for (k, x) in wrapped.iter_mut().enumerate() {
                *x += sign * (t1(256 - p + k) << D);
            }
        }
    }
}

/// FIPS 204, Algorithm 21 (HintBitUnpack) checks alone, on every row: the counts are
/// non-decreasing and at most omega, each row's indices strictly increase, and the unused
/// index bytes are zero. `false` for ⊥.
#[inline(never)]
fn hints_well_formed<P: ParameterSet>(y: &[u8]) -> bool {
    let mut first = 0;
    for i in 0..P::K {
        let end = usize::from(y[P::OMEGA + i]);
        if end < first || end > P::OMEGA {
            return false;
        }
        if (first + 1..end).any(|index| y[index - 1] >= y[index]) {
            return false;
        }
        first = end;
    }
    y[first..P::OMEGA].iter().all(|&b| b == 0)
}

/// FIPS 204, Algorithm 40: UseHint on every coefficient of the row w (in [0, q)), with the
/// hint's ones at the (strictly increasing) positions `ones`.
#[inline(never)]
fn use_hints<P: ParameterSet>(ones: &[u8], w: &mut Poly) {
    const G88: i32 = (Q - 1) / 88;
    const G32: i32 = (Q - 1) / 32;
    let mut next = ones.iter().peekable();
    for (k, x) in w.0.iter_mut().enumerate() {
        let h = next.next_if(|&&j| usize::from(j) == k).is_some();
        *x = if P::GAMMA2 == G88 {
            use_hint::<G88>(h, *x)
        } else {
            use_hint::<G32>(h, *x)
        };
    }
}

/// FIPS 204, Algorithm 28 (w1Encode) of one row w1, absorbed into `h` 64 coefficients
/// (at most 48 bytes) at a time.
#[inline(never)]
fn absorb_w1<P: ParameterSet>(w1: &Poly, h: &mut Shake256) {
    let mut bytes = [0u8; 48];
    for chunk in w1.0.chunks_exact(64) {
        let (mut acc, mut n, mut k) = (0u32, 0, 0);
        for &c in chunk {
            acc |= (c as u32) << n;
            n += P::W1_BITS;
            while n >= 8 {
                bytes[k] = acc as u8;
                acc >>= 8;
                n -= 8;
                k += 1;
            }
        }
        h.absorb(&bytes[..k]);
    }
}

/// FIPS 204, Algorithm 8 lines 7 to 14 with mu given, on `pk` (pkEncode) and `sig` (sigEncode)
/// of the parameter set's lengths, in small memory: the checks of the hints and of ||z||, and
/// c = SampleInBall(c_tilde), each in a frame of its own, then the rows ([`rows_match`]).
#[inline(never)]
pub(crate) fn verify_mu_encoded<P: ParameterSet, B: Ops>(
    pk: &[u8],
    mu: &[u8; 64],
    sig: &[u8],
) -> bool {
    // Line 1: pkDecode(pk) (Algorithm 23), rho and t1 read where they are used.
    let Ok(rho) = <&[u8; 32]>::try_from(&pk[..32]) else {
        return false;
    };
    // Lines 2 to 4: (c_tilde, z, h) = sigDecode(sigma) (Algorithm 27), decoded where used.
    let (c_tilde, rest) = sig.split_at(P::C_TILDE_LEN);
    let (z_packed, h_packed) = rest.split_at(P::L * 32 * P::GAMMA1_BITS);
    // Line 4 (h = ⊥ fails) and line 13 (||z|| < gamma1 - beta), checked first.
    if !hints_well_formed::<P>(h_packed) || !z_in_range::<P, B>(z_packed) {
        return false;
    }
    // Line 9: c = SampleInBall(c_tilde).
    let c = BallList::sample::<P>(c_tilde);
    rows_match::<P, B>(rho, pk, mu, c_tilde, z_packed, h_packed, &c)
}

/// FIPS 204, Algorithm 8 line 13: every coefficient of z below gamma1 - beta in absolute value,
/// one column of `z_packed` at a time.
#[inline(never)]
fn z_in_range<P: ParameterSet, B: Ops>(z_packed: &[u8]) -> bool {
    let mut z = Poly::ZERO;
    z_packed.chunks_exact(32 * P::GAMMA1_BITS).all(|chunk| {
        B::bit_unpack(chunk, P::GAMMA1_BITS, P::GAMMA1, &mut z.0);
        !z.norm_exceeds::<B>(P::GAMMA1 - P::BETA)
    })
}

/// FIPS 204, Algorithm 8 lines 10 to 12 and 14, row by row. Row i of w'_approx: for each column
/// j, z_j is unpacked from the signature and transformed, and A_hat\[i\]\[j\] o NTT(z_j)
/// accumulated as the entry is sampled ([`entry_times_column`]); then NTT^-1, minus
/// c t1\[i\] 2^d by schoolbook from the packed t1 row and the sparse c
/// ([`BallList::sub_times_t1`]), UseHint from the packed hint indices, and w1Encode absorbed
/// into the c_tilde hash. Two polynomials and one absorbing Keccak state.
#[inline(never)]
fn rows_match<P: ParameterSet, B: Ops>(
    rho: &[u8; 32],
    pk: &[u8],
    mu: &[u8; 64],
    c_tilde: &[u8],
    z_packed: &[u8],
    h_packed: &[u8],
    c: &BallList,
) -> bool {
    let (mut w, mut col) = (Poly::ZERO, Poly::ZERO);
    let mut h = Shake256::new();
    h.absorb(mu);
    let mut first = 0;
    for i in 0..P::K {
        for (j, chunk) in z_packed.chunks_exact(32 * P::GAMMA1_BITS).enumerate() {
            B::bit_unpack(chunk, P::GAMMA1_BITS, P::GAMMA1, &mut col.0);
            col.ntt::<B>();
            entry_times_column(rho, i, j, &col, &mut w);
        }
        w.reduce::<B>();
        w.inv_ntt_to_mont::<B>();
        c.sub_times_t1(&pk[32 + 320 * i..32 + 320 * (i + 1)], &mut w);
        w.reduce::<B>();
        w.caddq::<B>();
        let end = usize::from(h_packed[P::OMEGA + i]);
        use_hints::<P>(&h_packed[first..end], &mut w);
        first = end;
        absorb_w1::<P>(&w, &mut h);
    }
    c_tilde_matches(&mut h, c_tilde)
}

/// FIPS 204, Algorithm 8 lines 12 and 14: c_tilde' = H(mu || w1Encode(w1'), lambda / 4) from
/// the absorbed `h`, compared with `c_tilde` (in its own frame, after the rows).
#[inline(never)]
fn c_tilde_matches(h: &mut Shake256, c_tilde: &[u8]) -> bool {
    let mut c_tilde_prime = [0u8; 64];
    core::mem::take(h)
        .finalize()
        .squeeze(&mut c_tilde_prime[..c_tilde.len()]);
    bool::from(c_tilde.ct_eq(&c_tilde_prime[..c_tilde.len()]))
}
