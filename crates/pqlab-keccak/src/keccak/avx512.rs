//! The AVX-512 build of the single-state Keccak-f\[1600\] (FIPS 202, Algorithm 7): the 25 lanes
//! of one state in five zmm registers (five lanes each, lanes 5-7 unused), a twin of
//! `keccak::permute` for the x86-64 CPUs of the AVX-512 back end.
//!
//! # Layouts
//!
//! Which lane `A[x, y]` (`A[x + 5y]`, FIPS 202, Section 3.1.2) a register lane holds changes from
//! round to round. The step mappings are those of FIPS 202, Sections 3.2.1-3.2.5. Theta
//! (Algorithm 1) needs the five registers *x-aligned* (lane `p` of every
//! register holds the same `x`), so that the column parities `C[x]` are two `vpternlogq` of the
//! registers and `C[x - 1]`, `rot(C[x + 1], 1)` two lane permutations (`vpermq`) of them. A
//! register holding the points of a line `y = s x + b` (slope `s`, intercept `b`, mod 5) is
//! x-aligned; pi (Algorithm 3, `B[y, 2x + 3y] = A[x, y]`) maps that line onto the line of slope
//! `s' = 2 / s + 3`, so the slopes go round `2 -> 4 -> 1 -> 0 -> columns -> 3 -> 2`, rows being
//! slope 0. Each round, pi and chi (Algorithm 4: `A[x] ^ (!A[x + 1] & A[x + 2])` along a row) read
//! every lane of an output register, and its two neighbours in `x`, from one input register, so
//! they are at most three `vpermq` and one `vpternlogq` (0xD2) per register (twelve `vpermq` a
//! round with the lane orders chosen below); from rows to columns the
//! neighbours are the other registers, and the round needs only five `vpermq`. Columns are not
//! x-aligned, so after that round a transposition (twelve two-source `vpermt2q`) puts
//! the state into lines of slope 2. A cycle is then four rounds:
//!
//! rows -> (round) -> columns -> (transposition) -> slope 2 -> (round) -> slope 4 -> (round) ->
//! slope 1 -> (round) -> rows
//!
//! and the permutation six cycles, from and back to rows in standard order (loaded with four
//! plain loads and a masked one, stored with masked stores). Rho (Algorithm 2) is one `vprolvq` per register with per-lane counts, iota
//! (Algorithm 6) a masked XOR into the lane holding `A[0, 0]`. Every table (lane permutations,
//! rotation counts, masks) is computed at compile time from the layouts by the `const fn`s
//! below, which check their assumptions (a failing check is a build error).
//!
//! No branch or memory index depends on the state (constant time). The state is not copied to
//! the stack: it goes from the caller's buffer to registers and back (the registers cannot be
//! wiped; the caller's buffer is what the sponges zeroize).
//!
//! About 35 vector instructions a round, bound by the two 512-bit ports: 164 ns a permutation
//! against 195 ns for the BMI2 build on the Xeon (Sapphire Rapids class) this was measured on.
//!
//! Reached only through [`Avx512Keccak`], whose values exist only after run-time detection.
#![allow(unsafe_code)]

use core::arch::x86_64::{
    __m512i, _mm512_loadu_epi64, _mm512_mask_storeu_epi64, _mm512_mask_xor_epi64,
    _mm512_maskz_loadu_epi64, _mm512_permutex2var_epi64, _mm512_permutexvar_epi64,
    _mm512_rol_epi64, _mm512_rolv_epi64, _mm512_set1_epi64, _mm512_setr_epi64,
    _mm512_ternarylogic_epi64,
};

use pqlab_backend::Backend;

use super::RC;

/// Where the 25 lanes sit: `pos[r][p]` is the position `(x, y)` of the lane in lane `p` of
/// register `r`.
#[derive(Clone, Copy)]
struct Layout {
    pos: [[(usize, usize); 5]; 5],
}

/// Register `b` holds the line `y = slope * x + b` (mod 5), its lane `p` the point with
/// `x = order[p]`. `line(0, [0, 1, 2, 3, 4])` is the standard row order.
const fn line(slope: usize, order: [usize; 5]) -> Layout {
    let mut pos = [[(0, 0); 5]; 5];
    let mut b = 0;
    while b < 5 {
        let mut p = 0;
        while p < 5 {
            let x = order[p];
            pos[b][p] = (x, (slope * x + b) % 5);
            p += 1;
        }
        b += 1;
    }
    Layout { pos }
}

/// Register `x` holds column `x`, its lane `p` the point with `y = order[p]`.
const fn columns(order: [usize; 5]) -> Layout {
    let mut pos = [[(0, 0); 5]; 5];
    let mut x = 0;
    while x < 5 {
        let mut p = 0;
        while p < 5 {
            pos[x][p] = (x, order[p]);
            p += 1;
        }
        x += 1;
    }
    Layout { pos }
}

/// The register and lane of `layout` that hold position `(x, y)`.
const fn find(layout: &Layout, x: usize, y: usize) -> (usize, usize) {
    let mut found = (5, 5);
    let mut r = 0;
    while r < 5 {
        let mut p = 0;
        while p < 5 {
            if layout.pos[r][p].0 == x && layout.pos[r][p].1 == y {
                found = (r, p);
            }
            p += 1;
        }
        r += 1;
    }
    assert!(found.0 < 5, "not a layout of the 25 lanes");
    found
}

/// The lane of register 0 of `layout` that holds a lane of column `x`.
const fn lane_of_x(layout: &Layout, x: usize) -> usize {
    let mut found = 5;
    let mut p = 0;
    while p < 5 {
        if layout.pos[0][p].0 == x {
            found = p;
        }
        p += 1;
    }
    assert!(found < 5, "column missing from register 0");
    found
}

/// Rotation offsets of rho, `RHO[x + 5y]` (FIPS 202, Algorithm 2, step 3).
const RHO: [u32; 25] = {
    let mut r = [0u32; 25];
    let (mut x, mut y) = (1, 0);
    let mut t = 0;
    while t < 24 {
        r[x + 5 * y] = (((t + 1) * (t + 2) / 2) % 64) as u32;
        (x, y) = (y, (2 * x + 3 * y) % 5);
        t += 1;
    }
    r
};

/// Lane indices of a `vpermq` that leaves lanes 5-7 in place.
const IDENTITY: [u64; 8] = [0, 1, 2, 3, 4, 5, 6, 7];

/// The constants of one round from layout `a` to layout `e`.
struct Round {
    /// `vpermq` indices taking `C[x]` to the lane of `x + 1` (theta's `C[x - 1]`) and to the lane
    /// of `x - 1` (theta's `C[x + 1]`), in the x order of `a`.
    theta_prev: [u64; 8],
    theta_next: [u64; 8],
    /// Per register of `a`, the rho rotation count of each lane.
    rho: [[u64; 8]; 5],
    /// Per register `k` of `e` and `j = 0, 1, 2`: the register of `a` (after theta and rho) that
    /// holds the pi images `B[x + j, y]` of the lanes `(x, y)` of register `k`, the `vpermq`
    /// indices bringing them into place, and whether those are the identity.
    chi_src: [[usize; 3]; 5],
    chi_idx: [[[u64; 8]; 3]; 5],
    chi_ident: [[bool; 3]; 5],
    /// The register of `e` holding `A[0, 0]`, and the mask of its lane (iota).
    iota_reg: usize,
    iota_mask: u8,
}

/// The constants of a round from `a` (which must be x-aligned) to `e`; a build error if a pi
/// image of a register of `e` is not in one register of `a`.
const fn round_tables(a: Layout, e: Layout) -> Round {
    let mut t = Round {
        theta_prev: IDENTITY,
        theta_next: IDENTITY,
        rho: [[0; 8]; 5],
        chi_src: [[0; 3]; 5],
        chi_idx: [[IDENTITY; 3]; 5],
        chi_ident: [[true; 3]; 5],
        iota_reg: 0,
        iota_mask: 0,
    };
    // Theta: x-aligned, and the lanes of x - 1 and x + 1.
    let mut p = 0;
    while p < 5 {
        let x = a.pos[0][p].0;
        let mut r = 1;
        while r < 5 {
            assert!(a.pos[r][p].0 == x, "theta needs an x-aligned layout");
            r += 1;
        }
        t.theta_prev[p] = lane_of_x(&a, (x + 4) % 5) as u64;
        t.theta_next[p] = lane_of_x(&a, (x + 1) % 5) as u64;
        p += 1;
    }
    // Rho.
    let mut r = 0;
    while r < 5 {
        let mut p = 0;
        while p < 5 {
            let (x, y) = a.pos[r][p];
            t.rho[r][p] = RHO[x + 5 * y] as u64;
            p += 1;
        }
        r += 1;
    }
    // Pi (B[x, y] = A[x + 3y, x]) and chi's three operands.
    let mut k = 0;
    while k < 5 {
        let mut j = 0;
        while j < 3 {
            let mut p = 0;
            while p < 5 {
                let (x, y) = e.pos[k][p];
                let xb = (x + j) % 5;
                let (r, q) = find(&a, (xb + 3 * y) % 5, xb);
                if p == 0 {
                    t.chi_src[k][j] = r;
                } else {
                    assert!(t.chi_src[k][j] == r, "pi image spread over registers");
                }
                t.chi_idx[k][j][p] = q as u64;
                if q != p {
                    t.chi_ident[k][j] = false;
                }
                p += 1;
            }
            j += 1;
        }
        k += 1;
    }
    let (r, p) = find(&e, 0, 0);
    t.iota_reg = r;
    t.iota_mask = 1 << p;
    t
}

/// The constants of a transposition from layout `a` to layout `e` in which every register of
/// `e` takes one lane from each register of `a` (as from columns to lines): twelve two-source
/// lane permutations (`vpermt2q`) in three layers. Write `a0 .. a4` for the registers of `a` and
/// `(b, r)` for the lane that register `b` of `e` takes from `ar`:
///
/// 1. `u = [(0, 0), (0, 1), (1, 0), (1, 1), .., (3, 1)]` from `a0, a1`; `u4 = [(4, 0), (4, 1)]`
///    likewise; `v`, `v4` the same from `a2, a3`;
/// 2. `q01 = [(0, 0..4), (1, 0..4)]` from `u, v`; `q23` likewise for registers 2, 3 of `e`;
///    `q4 = [(4, 0..4)]` from `u4, v4`;
/// 3. register `b` of `e` from its four lanes in `q01`, `q23` or `q4` and its lane of `a4`.
struct Transpose {
    /// Layer 1: the indices of `u` and `u4` from `a0, a1` (also those of `v`, `v4` from
    /// `a2, a3`: the same shape, but their own lanes).
    u: [u64; 8],
    u4: [u64; 8],
    v: [u64; 8],
    v4: [u64; 8],
    /// Layer 3: per register `b` of `e`, the indices from its `q` register and `a4`.
    w: [[u64; 8]; 5],
}

/// Layer 2 of the transposition (fixed): `q01` (or `q23`) from `u, v`, and `q4` from `u4, v4`.
const Q01: [u64; 8] = [0, 1, 8, 9, 2, 3, 10, 11];
const Q23: [u64; 8] = [4, 5, 12, 13, 6, 7, 14, 15];

/// The constants of a transposition from `a` to `e`; a build error if a register of `e` does
/// not take exactly one lane from each register of `a`.
const fn transpose_tables(a: Layout, e: Layout) -> Transpose {
    // lane[b][r], out[b][r]: the lane of ar that register b of e takes, and where it goes.
    let mut lane = [[8usize; 5]; 5];
    let mut out = [[0usize; 5]; 5];
    let mut b = 0;
    while b < 5 {
        let mut p = 0;
        while p < 5 {
            let (x, y) = e.pos[b][p];
            let (r, q) = find(&a, x, y);
            assert!(
                lane[b][r] == 8,
                "two lanes of a register of e in one register of a"
            );
            lane[b][r] = q;
            out[b][r] = p;
            p += 1;
        }
        b += 1;
    }
    let mut t = Transpose {
        u: [0; 8],
        u4: [0; 8],
        v: [0; 8],
        v4: [0; 8],
        w: [[0; 8]; 5],
    };
    let mut b = 0;
    while b < 4 {
        t.u[2 * b] = lane[b][0] as u64;
        t.u[2 * b + 1] = 8 + lane[b][1] as u64;
        t.v[2 * b] = lane[b][2] as u64;
        t.v[2 * b + 1] = 8 + lane[b][3] as u64;
        b += 1;
    }
    t.u4[0] = lane[4][0] as u64;
    t.u4[1] = 8 + lane[4][1] as u64;
    t.v4[0] = lane[4][2] as u64;
    t.v4[1] = 8 + lane[4][3] as u64;
    // Layer 3: in q01 / q23, register b's lanes from a0 .. a3 are at 4 (b % 2) + r; in q4 at r.
    let mut b = 0;
    while b < 5 {
        let base = if b < 4 { 4 * (b % 2) } else { 0 };
        let mut r = 0;
        while r < 4 {
            t.w[b][out[b][r]] = (base + r) as u64;
            r += 1;
        }
        t.w[b][out[b][4]] = 8 + lane[b][4] as u64;
        b += 1;
    }
    t
}

/// Rows in standard order (the load and store layout).
const ROWS: Layout = line(0, [0, 1, 2, 3, 4]);
/// The layouts of one cycle (see the module documentation). Their lane orders (any order common
/// to the registers of a line layout keeps it x-aligned) were chosen, by a search over them, to
/// make the most `vpermq` of pi and chi the identity: 4 + 12 + 12 + 12 per cycle instead of
/// 5 + 15 + 15 + 15.
const COLUMNS: Layout = columns([0, 2, 4, 1, 3]);
const SLOPE2: Layout = line(2, [0, 2, 4, 1, 3]);
const SLOPE4: Layout = line(4, [0, 4, 3, 2, 1]);
const SLOPE1: Layout = line(1, [0, 1, 2, 3, 4]);
/// The four rounds and the transposition of one cycle.
const ROUND_ROWS: Round = round_tables(ROWS, COLUMNS);
const TRANSPOSE: Transpose = transpose_tables(COLUMNS, SLOPE2);
const ROUND_SLOPE2: Round = round_tables(SLOPE2, SLOPE4);
const ROUND_SLOPE4: Round = round_tables(SLOPE4, SLOPE1);
const ROUND_SLOPE1: Round = round_tables(SLOPE1, ROWS);

/// The vector of eight 64-bit lanes `$v` (a `[u64; 8]`).
macro_rules! vec {
    ($v:expr) => {{
        let v: [u64; 8] = $v;
        _mm512_setr_epi64(
            v[0] as i64,
            v[1] as i64,
            v[2] as i64,
            v[3] as i64,
            v[4] as i64,
            v[5] as i64,
            v[6] as i64,
            v[7] as i64,
        )
    }};
}

/// Chi operand `$j` of output register `$k` of round `$t`: the pi image in place (see [`Round`]).
macro_rules! operand {
    ($b:ident, $t:ident, $k:expr, $j:expr) => {
        if $t.chi_ident[$k][$j] {
            $b[$t.chi_src[$k][$j]]
        } else {
            _mm512_permutexvar_epi64(vec![$t.chi_idx[$k][$j]], $b[$t.chi_src[$k][$j]])
        }
    };
}

/// One round (FIPS 202, Algorithm 7, step 2: Rnd = iota . chi . pi . rho . theta) of the
/// registers `$s` with the constants `$t` ([`Round`]) and round constant `$rc`.
macro_rules! round {
    ($s:ident, $t:ident, $rc:expr) => {{
        // Theta (Algorithm 1): C[x] by two three-way XORs (0x96), D[x] = C[x - 1] ^ rot(C[x + 1], 1)
        // XORed into every lane in a third; then rho (Algorithm 2), per-lane rotations.
        let c = _mm512_ternarylogic_epi64::<0x96>(
            _mm512_ternarylogic_epi64::<0x96>($s[0], $s[1], $s[2]),
            $s[3],
            $s[4],
        );
        let prev = _mm512_permutexvar_epi64(vec!($t.theta_prev), c);
        let next = _mm512_permutexvar_epi64(vec!($t.theta_next), _mm512_rol_epi64::<1>(c));
        let mut b = $s;
        let mut r = 0;
        while r < 5 {
            b[r] = _mm512_rolv_epi64(
                _mm512_ternarylogic_epi64::<0x96>($s[r], prev, next),
                vec!($t.rho[r]),
            );
            r += 1;
        }
        // Pi (Algorithm 3) and chi (Algorithm 4): x ^ (!y & z) is ternary logic 0xD2.
        let mut k = 0;
        while k < 5 {
            $s[k] = _mm512_ternarylogic_epi64::<0xD2>(
                operand!(b, $t, k, 0),
                operand!(b, $t, k, 1),
                operand!(b, $t, k, 2),
            );
            k += 1;
        }
        // Iota (Algorithm 6): the round constant into A[0, 0].
        $s[$t.iota_reg] = _mm512_mask_xor_epi64(
            $s[$t.iota_reg],
            $t.iota_mask,
            $s[$t.iota_reg],
            _mm512_set1_epi64($rc as i64),
        );
    }};
}

/// The transposition `$t` ([`Transpose`]) of the registers `$s`.
macro_rules! transpose {
    ($s:ident, $t:ident) => {{
        let u = _mm512_permutex2var_epi64($s[0], vec![$t.u], $s[1]);
        let u4 = _mm512_permutex2var_epi64($s[0], vec![$t.u4], $s[1]);
        let v = _mm512_permutex2var_epi64($s[2], vec![$t.v], $s[3]);
        let v4 = _mm512_permutex2var_epi64($s[2], vec![$t.v4], $s[3]);
        let q01 = _mm512_permutex2var_epi64(u, vec![Q01], v);
        let q23 = _mm512_permutex2var_epi64(u, vec![Q23], v);
        let q4 = _mm512_permutex2var_epi64(u4, vec![Q01], v4);
        let a4 = $s[4];
        $s[0] = _mm512_permutex2var_epi64(q01, vec![$t.w[0]], a4);
        $s[1] = _mm512_permutex2var_epi64(q01, vec![$t.w[1]], a4);
        $s[2] = _mm512_permutex2var_epi64(q23, vec![$t.w[2]], a4);
        $s[3] = _mm512_permutex2var_epi64(q23, vec![$t.w[3]], a4);
        $s[4] = _mm512_permutex2var_epi64(q4, vec![$t.w[4]], a4);
    }};
}

/// FIPS 202, Algorithm 7: KECCAK-p\[1600, 24\] on 25 lanes in standard form, compiled for
/// AVX-512F.
///
/// # Safety
///
/// The CPU must have AVX-512F.
#[target_feature(enable = "avx512f")]
unsafe fn keccak_f1600_avx512(a: &mut [u64; 25]) {
    let _k = pqlab_profile::enter(pqlab_profile::Kernel::Keccak);
    let ptr = a.as_mut_ptr();
    // SAFETY: the loads of rows 0 to 3 read lanes 5y .. 5y + 8 of `a` (in bounds: 15 + 8 <= 25;
    // lanes 5-7 of a register are never moved into lanes 0-4, so what they hold is unused), the
    // masked load of row 4 lanes 20 .. 25 (masked-off lanes are not accessed).
    let mut s: [__m512i; 5] = unsafe {
        [
            _mm512_loadu_epi64(ptr.cast::<i64>()),
            _mm512_loadu_epi64(ptr.add(5).cast::<i64>()),
            _mm512_loadu_epi64(ptr.add(10).cast::<i64>()),
            _mm512_loadu_epi64(ptr.add(15).cast::<i64>()),
            _mm512_maskz_loadu_epi64(0x1F, ptr.add(20).cast::<i64>()),
        ]
    };
    for rc in RC.chunks_exact(4) {
        round!(s, ROUND_ROWS, rc[0]);
        transpose!(s, TRANSPOSE);
        round!(s, ROUND_SLOPE2, rc[1]);
        round!(s, ROUND_SLOPE4, rc[2]);
        round!(s, ROUND_SLOPE1, rc[3]);
    }
    for (y, row) in s.iter().enumerate() {
        // SAFETY: the masked store writes lanes 5y .. 5y + 5 of `a` (in bounds), nothing else.
        unsafe { _mm512_mask_storeu_epi64(ptr.add(5 * y).cast::<i64>(), 0x1F, *row) };
    }
}

/// Proof that this CPU has AVX-512F: only [`Avx512Keccak::detect`] and
/// [`Avx512Keccak::selected`] make one.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Avx512Keccak(());

impl Avx512Keccak {
    /// The proof, if the AVX-512 back end (which includes AVX-512F) is available on this
    /// machine (detected once, cached). Used by the tests, which run this build whatever the
    /// selection.
    #[cfg(test)]
    pub(crate) fn detect() -> Option<Self> {
        Backend::Avx512.is_available().then_some(Self(()))
    }

    /// The proof, if the back end of this call ([`pqlab_backend::selected`]) is AVX-512; `None`
    /// under the portable and AVX2 back ends.
    #[inline]
    pub(crate) fn selected() -> Option<Self> {
        match pqlab_backend::selected() {
            Backend::Avx512 => Some(Self(())),
            Backend::Portable | Backend::Avx2 => None,
        }
    }

    /// [`keccak_f1600_avx512`], safe.
    #[inline]
    pub(crate) fn keccak_f1600(self, a: &mut [u64; 25]) {
        // SAFETY: `self` exists only if AVX-512F is available (`detect`, or a selected back end,
        // which `pqlab_backend` returns only when available).
        unsafe { keccak_f1600_avx512(a) }
    }
}
