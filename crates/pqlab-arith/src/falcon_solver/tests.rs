//! Tests of the NTRU-solver NTTs: the prime list, the K-RED parameters (and why not the
//! study's), and for several primes, every degree and every strategy: NTT then inverse NTT is
//! the identity, and NTT-based multiplication equals schoolbook multiplication mod p.

extern crate std;

use super::*;
use rand::{Rng, SeedableRng};
use std::{vec, vec::Vec};

#[test]
fn primes_are_the_references() {
    // The first entries and the size of the Falcon reference's PRIMES table (keygen.c).
    assert_eq!(
        &PRIMES[..5],
        &[2147473409, 2147389441, 2147387393, 2147377153, 2147358721]
    );
    assert_eq!(PRIMES[NPRIMES - 1], 2135910401);
    for w in PRIMES.windows(2) {
        assert!(w[0] > w[1]);
    }
    for &p in &PRIMES {
        assert_eq!(p % 2048, 1);
        assert!(is_prime(u64::from(p)));
        let s = psi(p);
        assert_eq!(pow_mod_p(s, 1024, p), p - 1, "{p}");
    }
    // No prime of the form was skipped between two entries.
    let mut c = u64::from(PRIMES[0]) - 2048;
    let mut i = 1;
    while i < 40 {
        if is_prime(c) {
            assert_eq!(u64::from(PRIMES[i]), c);
            i += 1;
        }
        c -= 2048;
    }
}

#[test]
fn study_parameters_do_not_reduce() {
    // p = 127 * 2^24 + l: l is between 0.31 * 2^24 and 0.9994 * 2^24 for every prime, so one
    // step keeps at least 31 % of |c| (plus k 2^23), and for the first prime 99.9 %.
    for &p in &PRIMES {
        let l = i64::from(p) - 127 * (1 << 24);
        assert!(l > (1 << 24) * 31 / 100 && l < 1 << 24, "{p}: l = {l}");
        let c = (i64::from(p) - 1) * (i64::from(p) - 1);
        assert!(kred_step_bound(127, 24, l, c) > c / 4);
        // It does not reach (-p, p) in 8 steps.
        assert_eq!(kred_steps(p, 127, 24, l), 9, "{p}");
    }
    let l0 = i64::from(PRIMES[0]) - 127 * (1 << 24);
    assert_eq!(l0, 16_766_977);
    let c = 1i64 << 61;
    assert!(kred_step_bound(127, 24, l0, c) > c / 10_000 * 9_993);
}

#[test]
fn chosen_parameters() {
    // The first prime is 2^31 - 10239: two steps of p = 2^31 - l0 (factor 1).
    assert_eq!(kred_params(PRIMES[0]), (1, 31, -10239, 2));
    // Over the list: 2^31 - l0 with 2 steps once and 3 steps 63 times; k 2^v + 1 with 2 steps
    // (v >= 17) 12 times and 3 steps 446 times.
    let (mut pm, mut kv) = ([0usize; 4], [0usize; 4]);
    for &p in &PRIMES {
        let (k, m, l, s) = kred_params(p);
        assert_eq!(k * (1 << m) + l, i64::from(p));
        assert!(s <= 3, "{p}");
        if m == 31 {
            pm[s as usize] += 1;
        } else {
            assert_eq!(l, 1);
            kv[s as usize] += 1;
        }
    }
    assert_eq!((pm[2], pm[3], kv[2], kv[3]), (1, 63, 12, 446));
    // The forms the transforms use: two steps of 2^31 - l0 for the first prime only, three of
    // k 2^11 + 1 for all.
    assert!(KRedPm2::fits(PRIMES[0]));
    assert!(PRIMES[1..].iter().all(|&p| !KRedPm2::fits(p)));
    assert!(PRIMES.iter().all(|&p| KRed11x3::fits(p)));
}

/// Checks every strategy's multiplication against `%` on random values and the extremes.
fn check_mul<M: ModMul>(p: u32, rng: &mut impl Rng) {
    let m = M::new(p);
    let f = u64::from(m.factor());
    assert_eq!(m.p(), p);
    let vals = [0, 1, 2, p - 1, p - 2, p / 2, p / 2 + 1];
    let mut pairs: Vec<(u32, u32)> = Vec::new();
    for a in vals {
        for b in vals {
            pairs.push((a, b));
        }
    }
    for _ in 0..20_000 {
        pairs.push((rng.gen_range(0..p), rng.gen_range(0..p)));
    }
    let pp = u64::from(p);
    assert_eq!(
        u64::from(m.factor_inv()) * f % pp,
        1,
        "{} p={p}: factor_inv",
        M::NAME
    );
    for (a, b) in pairs {
        let want = (u64::from(a) * u64::from(b) % pp * f % pp) as u32;
        assert_eq!(m.mul(a, b), want, "{} p={p} a={a} b={b}", M::NAME);
    }
}

/// The primes under test: the first (two K-RED steps), some from the middle, the last.
const SAMPLE: [usize; 5] = [0, 1, 2, 261, NPRIMES - 1];

#[test]
fn multiplications_are_exact() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(41);
    for i in SAMPLE {
        let p = PRIMES[i];
        check_mul::<Mont32>(p, &mut rng);
        check_mul::<BarrettP>(p, &mut rng);
        if KRedPm2::fits(p) {
            check_mul::<KRedPm2>(p, &mut rng);
        }
        check_mul::<KRed11x3>(p, &mut rng);
        check_mul::<RemP>(p, &mut rng);
    }
}

fn schoolbook(a: &[u32], b: &[u32], p: u32) -> Vec<u32> {
    let n = a.len();
    let pp = i128::from(p);
    let mut c = vec![0i128; n];
    for i in 0..n {
        for j in 0..n {
            let x = i128::from(a[i]) * i128::from(b[j]);
            if i + j < n {
                c[i + j] += x;
            } else {
                c[i + j - n] -= x;
            }
        }
    }
    c.iter().map(|&x| x.rem_euclid(pp) as u32).collect()
}

#[test]
fn round_trip_and_schoolbook_for_every_strategy() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(42);
    for i in SAMPLE {
        let p = PRIMES[i];
        for logn in 0..=MAX_LOGN {
            let n = 1usize << logn;
            let mut reference: Option<Vec<u32>> = None;
            let a: Vec<u32> = (0..n).map(|_| rng.gen_range(0..p)).collect();
            let b: Vec<u32> = (0..n).map(|_| rng.gen_range(0..p)).collect();
            // Schoolbook is quadratic: check the product for n <= 256 and for 1024 on one prime.
            let want = (n <= 256 || i == 0).then(|| schoolbook(&a, &b, p));
            for s in Strategy::ALL {
                let tw = Twiddles::new(s, i, logn);
                let mut x = a.clone();
                ntt(&mut x, &tw);
                // Every strategy computes the same transform (the exact residues).
                match &reference {
                    None => reference = Some(x.clone()),
                    Some(r) => assert_eq!(&x, r, "{s:?} p={p} logn={logn}: forward"),
                }
                let mut y = x.clone();
                intt(&mut y, &tw);
                assert_eq!(y, a, "{s:?} p={p} logn={logn}: round trip");
                if let Some(want) = &want {
                    let mut z = b.clone();
                    ntt(&mut z, &tw);
                    for (u, v) in x.iter_mut().zip(z.iter()) {
                        *u = (u64::from(*u) * u64::from(*v) % u64::from(p)) as u32;
                    }
                    intt(&mut x, &tw);
                    assert_eq!(&x, want, "{s:?} p={p} logn={logn}: product");
                }
            }
        }
    }
}

#[test]
fn extremes_round_trip() {
    for i in [0, NPRIMES - 1] {
        let p = PRIMES[i];
        for s in Strategy::ALL {
            let tw = Twiddles::new(s, i, 10);
            for v in [0, 1, p - 1] {
                let a = vec![v; MAX_N];
                let mut x = a.clone();
                ntt(&mut x, &tw);
                assert!(x.iter().all(|&c| c < p));
                intt(&mut x, &tw);
                assert_eq!(x, a, "{s:?} p={p} v={v}");
            }
        }
    }
}

/// [`SolverMul`] by type computes what [`DynModMul`] computes for the strategy (the study's
/// K-RED form per prime included).
#[test]
fn solver_mul_by_type_equals_dynamic() {
    fn check<M: SolverMul>(s: Strategy, i: usize) {
        let p = PRIMES[i];
        let a: Vec<u32> = (0..512u32).map(|j| j * 4_000_037 % p).collect();
        let m = M::for_prime(p);
        let d = DynModMul::new(s, p);
        let (mut gm, mut igm) = (vec![0; 512], vec![0; 512]);
        let (mut dgm, mut digm) = (vec![0; 512], vec![0; 512]);
        let ninv = m.tables_from_root(psi(p), 9, &mut gm, &mut igm);
        assert_eq!(m.scale_inv(), d.factor_inv());
        assert_eq!(ninv, d.twiddles_from_root(psi(p), 9, &mut dgm, &mut digm));
        assert_eq!((&gm, &igm), (&dgm, &digm), "{s:?} p={p}");
        let (mut x, mut y) = (a.clone(), a.clone());
        m.ntt(&mut x, &gm);
        d.ntt(&mut y, &dgm);
        assert_eq!(x, y, "{s:?} p={p}");
        m.intt(&mut x, &igm, ninv);
        assert_eq!(x, a, "{s:?} p={p}");
    }
    for i in [0, 3, NPRIMES - 1] {
        check::<Mont32>(Strategy::Montgomery, i);
        check::<BarrettP>(Strategy::Barrett, i);
        check::<KRedSolver>(Strategy::K2Red, i);
        check::<RemP>(Strategy::PlainRem, i);
    }
}

/// The tables of size n/2 are the prefixes of those of size n (up to n^-1), for every
/// strategy: what lets the Falcon key generation run the half-size transforms of the field
/// norm and the lifting with the full-size tables.
#[test]
fn smaller_tables_are_prefixes() {
    for i in [0, 7] {
        let p = PRIMES[i];
        for s in Strategy::ALL {
            let big = Twiddles::new(s, i, MAX_LOGN);
            let finv = DynModMul::new(s, p).factor_inv();
            for logn in 0..MAX_LOGN {
                let n = 1 << logn;
                let small = Twiddles::new(s, i, logn);
                assert_eq!(&small.gm[..n], &big.gm[..n], "{s:?} p={p} logn={logn}");
                assert_eq!(&small.igm[..n], &big.igm[..n], "{s:?} p={p} logn={logn}");
                assert_eq!(small.ninv, scaled_ninv(finv, logn, p));
            }
        }
    }
}

#[test]
fn table_sizes() {
    assert_eq!(table_bytes(Strategy::Montgomery, 10), 8196 + 4);
    assert_eq!(table_bytes(Strategy::K2Red, 9), 4100 + 16);
    assert_eq!(size_of_val(&PRIMES), 2088);
}
