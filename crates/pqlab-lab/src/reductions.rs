//! The reduction-strategy study of `pqlab compare --reductions`: for each module, the forward
//! NTT, the inverse NTT and the whole operation under every modular-reduction strategy of
//! `pqlab_arith::reduce`, in time-stamp-counter
//! ticks (median over many calls), the change against Montgomery, and the bytes of
//! precomputed tables per strategy. It follows the layout of the Falcon study that replaced
//! Montgomery reduction by K2-RED in Falcon's NTTs (Falcon-1024 on a Celeron N4000: forward NTT
//! -14 %, inverse -10 %, verification -7 %; key generation -12 %, -9 %, -4 %), so that this
//! machine's figures can be set beside those.
//!
//! Modules and operations:
//!
//! * `falcon-512 verify`, `falcon-1024 verify`: the q = 12289 NTT and inverse NTT
//!   (`pqlab_arith::reduce::ntt_falcon`), and Falcon verification (Falcon spec v1.2, Algorithm
//!   16: Verify) of an encoded signature under a key pair from our key generation.
//! * `falcon-512 keygen`, `falcon-1024 keygen`: the NTTs modulo an NTRU-solver prime
//!   (`pqlab_arith::falcon_solver`, PRIMES\[1\] = 2147389441: its generalised K-RED takes 3
//!   steps, like 509 of the 522 primes), n = 512 and 1024; the "k2-red" strategy is the
//!   generalised K-RED there. The whole operation is Falcon key generation (spec v1.2,
//!   Algorithm 4: KeyGen, with NTRUGen and Algorithm 6: NTRUSolve) through the study's
//!   instantiation (`pqlab_falcon::study::generate_from_seed`: the solver's NTTs modulo its
//!   primes under the strategy; h = g / f with the production NTT modulo q), from
//!   [`KEYGEN_SEEDS`] fixed seeds: round r uses seed r for every
//!   strategy, so that every strategy generates the same keys (the time varies with the seed:
//!   NTRUGen rejects a varying number of (f, g)).
//! * `ml-dsa-65`: the q = 8380417 NTTs and ML-DSA-65 verification (32-byte message), through
//!   the study's instantiation of the scheme (`pqlab_mldsa::study`: portable kernels, NTTs
//!   under the strategy; the production code is Montgomery by type and never reads it).
//! * `ml-kem-768`: the q = 3329 NTTs and ML-KEM-768 decapsulation (`pqlab_mlkem::study`).
//!
//! Falcon verification runs through `pqlab_falcon::study::verify` (its NTTs modulo q under the
//! strategy). No production code reads a strategy: every instantiation here takes it as an
//! argument or a type.
//!
//! Strategies are measured interleaved (rounds of a batch per strategy) so that drift on a
//! shared machine spreads over all of them.

use std::cell::RefCell;

use pqlab_arith::falcon_solver::{self, KRed11x3, KRedPm2, ModMul, Twiddles};
use pqlab_arith::reduce::{self, Modulus, Strategy, ntt_falcon, ntt_mldsa, ntt_mlkem};
use pqlab_falcon::{NONCE_LEN, SEED_LEN, Signature, SigningKey, VerifyingKey, study};
use pqlab_mldsa::MlDsa65;
use pqlab_mlkem::MlKem768;

use crate::LabError;
use crate::machine::Machine;
use crate::measure::{self, Sample};
use crate::papers::Scope;
use crate::run::{Config, ConfigRecord, Progress, Report};

/// How many fixed seeds (rounds, at most) the whole Falcon key generation is measured over.
pub const KEYGEN_SEEDS: usize = 100;

/// The Falcon study's figures (Falcon-1024, Celeron N4000, K2-RED against Montgomery, %):
/// (module, forward NTT, inverse NTT, whole operation).
pub const STUDY: [(&str, f64, f64, f64); 2] = [
    ("falcon-1024 verify", -14.0, -10.0, -7.0),
    ("falcon-1024 keygen", -12.0, -9.0, -4.0),
];

/// One module under one strategy.
#[derive(Clone, Debug, serde::Serialize)]
pub struct ReductionRow {
    /// The module (`falcon-512 verify`, `falcon-1024 keygen`, `ml-dsa-65`, `ml-kem-768`, ...).
    pub module: String,
    /// The whole operation measured (`verify`, `decaps`, `keygen`).
    pub op: String,
    /// The strategy (`montgomery`, `barrett`, `k2-red`, `plain-%`).
    pub strategy: String,
    /// What the strategy is for this modulus (parameters).
    pub reduction: String,
    /// Median TSC ticks of the forward NTT (one polynomial).
    pub ntt_cycles: Option<f64>,
    /// Median TSC ticks of the inverse NTT.
    pub intt_cycles: Option<f64>,
    /// Median TSC ticks of the whole operation; absent where it is not measured (`note`).
    pub op_cycles: Option<f64>,
    /// Median nanoseconds of the forward NTT.
    pub ntt_ns: f64,
    /// Exact instructions of the forward NTT (the Cortex-M4 run, `--target cortex-m4`; there
    /// the `*_cycles` are the M4 cycle model's estimate and the `*_ns` its time at 168 MHz).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ntt_instructions: Option<f64>,
    /// Exact instructions of the inverse NTT (Cortex-M4 run).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub intt_instructions: Option<f64>,
    /// Exact instructions of the whole operation (Cortex-M4 run).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub op_instructions: Option<f64>,
    /// Median nanoseconds of the inverse NTT.
    pub intt_ns: f64,
    /// Median nanoseconds of the whole operation.
    pub op_ns: Option<f64>,
    /// Change of the forward NTT against Montgomery, % (negative: faster).
    pub ntt_change_pct: Option<f64>,
    /// Change of the inverse NTT against Montgomery, %.
    pub intt_change_pct: Option<f64>,
    /// Change of the whole operation against Montgomery, %.
    pub op_change_pct: Option<f64>,
    /// Bytes of precomputed tables (twiddles, scaling factors, per-prime constants).
    pub table_bytes: usize,
    /// Whether the strategy is constant time (`plain-%` is not: benchmark only).
    pub constant_time: bool,
    /// What a reader must know about the row.
    pub note: Option<String>,
}

/// Medians (TSC ticks if any, ns) of one cell per strategy, in [`Strategy::ALL`] order.
type Cell = [(Option<f64>, f64); 4];

/// Measures `f(s, round, warmup, calls)` for every strategy in `rounds` interleaved rounds of
/// `per_round` timed calls: `warmup` untimed calls in the first round, one before each later
/// batch. The rounds are short (one to four calls) so that load changes on a shared machine hit
/// every strategy alike.
fn interleaved(
    rounds: usize,
    warmup: usize,
    per_round: usize,
    mut f: impl FnMut(Strategy, usize, usize, usize) -> Result<Sample, LabError>,
) -> Result<Cell, LabError> {
    let mut all: [Sample; 4] = Default::default();
    for r in 0..rounds {
        // Rotate the order so that no strategy always runs first after another cell.
        for j in 0..4 {
            let i = (r + j) % 4;
            let s = Strategy::ALL[i];
            let x = f(s, r, if r == 0 { warmup } else { 1 }, per_round)?;
            all[i].ns.extend(x.ns);
            all[i].cycles.extend(x.cycles);
        }
    }
    Ok(all.map(|s| {
        let m = measure::Summary::of(&s);
        (m.median_cycles, m.median_ns)
    }))
}

/// Times `op` on a fresh copy of `input` per call (the copy is untimed).
fn time_in_place<T: Copy>(
    warmup: usize,
    n: usize,
    input: &T,
    mut op: impl FnMut(&mut T),
) -> Result<Sample, LabError> {
    let buf = RefCell::new(*input);
    measure::time(
        warmup,
        n,
        |_| {
            *buf.borrow_mut() = *input;
            Ok(())
        },
        |()| {
            op(&mut buf.borrow_mut());
            Ok(())
        },
    )
}

fn random_bytes(n: usize) -> Result<Vec<u8>, LabError> {
    let mut v = vec![0u8; n];
    getrandom::fill(&mut v).map_err(|e| LabError::Implementation(format!("OS randomness: {e}")))?;
    Ok(v)
}

/// Uniform values below `bound` from OS randomness (public test inputs).
fn uniform(n: usize, bound: u32) -> Result<Vec<u32>, LabError> {
    let b = random_bytes(4 * n)?;
    Ok(b.chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]) % bound)
        .collect())
}

fn lib_err(e: impl core::fmt::Display) -> LabError {
    LabError::Implementation(e.to_string())
}

/// What one module measured: the three cells and how to describe the rows.
struct Module {
    module: String,
    op: &'static str,
    ntt: Cell,
    intt: Cell,
    whole: Option<Cell>,
    note: Option<String>,
    reduction: fn(Strategy) -> String,
    table_bytes: fn(Strategy) -> usize,
}

/// How many timed calls: `rounds` = the configured iterations, one whole operation and four
/// NTTs per strategy and round (NTTs are cheap: four times as many calls); Falcon key
/// generation (milliseconds) in at most [`KEYGEN_SEEDS`] rounds with a few warm-up calls.
struct Counts {
    rounds: usize,
    warmup: usize,
    op: usize,
    ntt: usize,
    keygen_rounds: usize,
    keygen_warmup: usize,
}

impl Counts {
    fn of(c: &Config) -> Counts {
        Counts {
            rounds: c.iterations.max(1),
            warmup: c.warmup.max(1),
            op: 1,
            ntt: 4,
            keygen_rounds: c.iterations.clamp(1, KEYGEN_SEEDS),
            keygen_warmup: c.warmup.clamp(1, 4),
        }
    }
}

/// The keygen seed of round `r` (fixed: every run and every strategy generates the same keys).
fn keygen_seed(r: usize) -> [u8; SEED_LEN] {
    let mut seed = [0x6bu8; SEED_LEN];
    seed[..8].copy_from_slice(&(r as u64).to_le_bytes());
    seed
}

/// A Falcon key pair from our key generation (a fixed seed), a random 32-byte message and its
/// encoded signature (Algorithm 10: Sign, random nonce and sampler seed): verification accepts
/// it (checked here once).
fn falcon_inputs<const N: usize>() -> Result<(VerifyingKey<N>, Vec<u8>, Vec<u8>), LabError> {
    let sk = SigningKey::<N>::generate_from_seed(&keygen_seed(usize::MAX));
    let vk = sk.verifying_key();
    let msg = random_bytes(32)?;
    let r = random_bytes(NONCE_LEN + SEED_LEN)?;
    let mut nonce = [0u8; NONCE_LEN];
    nonce.copy_from_slice(&r[..NONCE_LEN]);
    let mut seed = [0u8; SEED_LEN];
    seed.copy_from_slice(&r[NONCE_LEN..]);
    let mut sig = vec![0u8; Signature::<N>::MAX_LEN];
    let len = sk
        .sign_with_seed(&msg, &nonce, &seed)
        .encode(&mut sig)
        .map_err(lib_err)?;
    sig.truncate(len);
    vk.verify(&msg, &sig).map_err(lib_err)?;
    Ok((vk, msg, sig))
}

fn falcon_verify<const N: usize>(k: &Counts) -> Result<Module, LabError> {
    let a: [u16; N] = {
        let v = uniform(N, 12289)?;
        core::array::from_fn(|i| v[i] as u16)
    };
    let ntt = interleaved(k.rounds, k.warmup, k.ntt, |s, _, w, n| {
        time_in_place(w, n, &a, |x| ntt_falcon::ntt(s, x))
    })?;
    let intt = interleaved(k.rounds, k.warmup, k.ntt, |s, _, w, n| {
        time_in_place(w, n, &a, |x| ntt_falcon::intt(s, x))
    })?;
    let (vk, msg, sig) = falcon_inputs::<N>()?;
    let whole = interleaved(k.rounds, k.warmup, k.op, |s, _, w, n| {
        measure::time(
            w,
            n,
            |_| Ok(()),
            |()| study::verify(&vk, &msg, &sig, s).map_err(lib_err),
        )
    })?;
    Ok(Module {
        module: format!("falcon-{N} verify"),
        op: "verify",
        ntt,
        intt,
        whole: Some(whole),
        note: Some(
            "verify = decode + HashToPoint + NTT + product + inverse NTT + norm, of a valid \
             signature of a 32-byte message under a key pair from our key generation"
                .into(),
        ),
        reduction: falcon_q_reduction,
        table_bytes: |s| reduce::table_bytes(s, Modulus::Falcon),
    })
}

/// The solver prime the keygen rows use.
pub(crate) const SOLVER_PRIME: usize = 1;

fn falcon_keygen<const N: usize>(k: &Counts) -> Result<Module, LabError> {
    let logn = N.trailing_zeros();
    let p = falcon_solver::PRIMES[SOLVER_PRIME];
    let v = uniform(N, p)?;
    let a: [u32; N] = core::array::from_fn(|i| v[i]);
    let tables = Strategy::ALL.map(|s| Twiddles::new(s, SOLVER_PRIME, logn));
    let tw = |s: Strategy| &tables[Strategy::ALL.iter().position(|&x| x == s).unwrap_or(0)];
    let ntt = interleaved(k.rounds, k.warmup, k.ntt, |s, _, w, n| {
        time_in_place(w, n, &a, |x| falcon_solver::ntt(x, tw(s)))
    })?;
    let intt = interleaved(k.rounds, k.warmup, k.ntt, |s, _, w, n| {
        time_in_place(w, n, &a, |x| falcon_solver::intt(x, tw(s)))
    })?;
    let whole = interleaved(k.keygen_rounds, k.keygen_warmup, k.op, |s, r, w, n| {
        let seed = keygen_seed(r);
        measure::time(
            w,
            n,
            |_| Ok(()),
            |()| {
                // The key pair: the secret key (f, g, F, G) and the public key h = g / f.
                let sk = study::generate_from_seed::<N>(std::hint::black_box(&seed), s);
                std::hint::black_box((sk.verifying_key(), sk));
                Ok(())
            },
        )
    })?;
    Ok(Module {
        module: format!("falcon-{N} keygen"),
        op: "keygen",
        ntt,
        intt,
        whole: Some(whole),
        note: Some(format!(
            "NTTs modulo the NTRU-solver prime PRIMES[{SOLVER_PRIME}] = {p}; table B = the \
             run-time tables of one prime (gm, igm, n^-1, the strategy's constants; the \
             522-prime list adds 2088 B at compile time); keygen = the whole key generation \
             (NTRUGen, NTRUSolve, h = g / f) with the solver's NTTs under the strategy (its \
             pointwise products stay Montgomery; h = g / f with the production NTT), median over {} fixed seeds, the same for \
             every strategy",
            k.keygen_rounds
        )),
        reduction: solver_reduction,
        table_bytes: |s| falcon_solver::table_bytes(s, N.trailing_zeros()),
    })
}

fn mldsa(k: &Counts) -> Result<Module, LabError> {
    let v = uniform(256, 8_380_417)?;
    let a: [i32; 256] = core::array::from_fn(|i| v[i] as i32);
    let ntt = interleaved(k.rounds, k.warmup, k.ntt, |s, _, w, n| {
        time_in_place(w, n, &a, |x| ntt_mldsa::ntt(s, x))
    })?;
    let intt = interleaved(k.rounds, k.warmup, k.ntt, |s, _, w, n| {
        time_in_place(w, n, &a, |x| ntt_mldsa::inv_ntt_to_mont(s, x))
    })?;
    let (vk, sk) = pqlab_mldsa::SigningKey::<MlDsa65>::generate_key_pair().map_err(lib_err)?;
    let msg = random_bytes(32)?;
    let sig = sk.sign(&msg, &[]).map_err(lib_err)?;
    // The study's instantiation of the scheme (`pqlab_mldsa::study`): the same code on the
    // portable kernels with the NTTs under strategy s.
    let whole = interleaved(k.rounds, k.warmup, k.op, |s, _, w, n| {
        measure::time(
            w,
            n,
            |_| Ok(()),
            |()| pqlab_mldsa::study::verify(s, &vk, &msg, &[], &sig).map_err(lib_err),
        )
    })?;
    Ok(Module {
        module: "ml-dsa-65".into(),
        op: "verify",
        ntt,
        intt,
        whole: Some(whole),
        note: Some("verify of a valid signature of a 32-byte message".into()),
        reduction: mldsa_reduction,
        table_bytes: |s| reduce::table_bytes(s, Modulus::MlDsa),
    })
}

fn mlkem(k: &Counts) -> Result<Module, LabError> {
    let v = uniform(256, 3329)?;
    let a: [i16; 256] = core::array::from_fn(|i| v[i] as i16);
    let ntt = interleaved(k.rounds, k.warmup, k.ntt, |s, _, w, n| {
        time_in_place(w, n, &a, |x| ntt_mlkem::ntt(s, x))
    })?;
    let intt = interleaved(k.rounds, k.warmup, k.ntt, |s, _, w, n| {
        time_in_place(w, n, &a, |x| ntt_mlkem::inv_ntt_to_mont(s, x))
    })?;
    let dk = pqlab_mlkem::DecapsulationKey::<MlKem768>::generate().map_err(lib_err)?;
    let (ct, _) = dk.encapsulation_key().encapsulate().map_err(lib_err)?;
    // The study's instantiation of the scheme (`pqlab_mlkem::study`), as for ML-DSA.
    let whole = interleaved(k.rounds, k.warmup, k.op, |s, _, w, n| {
        measure::time(
            w,
            n,
            |_| Ok(()),
            |()| {
                std::hint::black_box(pqlab_mlkem::study::decapsulate(s, &dk, &ct));
                Ok(())
            },
        )
    })?;
    Ok(Module {
        module: "ml-kem-768".into(),
        op: "decaps",
        ntt,
        intt,
        whole: Some(whole),
        note: Some("decaps (includes the re-encryption of the FO transform)".into()),
        reduction: mlkem_reduction,
        table_bytes: |s| reduce::table_bytes(s, Modulus::MlKem),
    })
}

/// What `s` is modulo q = 12289 (Falcon verification).
pub(crate) fn falcon_q_reduction(s: Strategy) -> String {
    match s {
        Strategy::K2Red => "K2-RED, q = 3 * 2^12 + 1, twiddles * 3^-2".into(),
        Strategy::Montgomery => "Montgomery, R = 2^16".into(),
        Strategy::Barrett => "Barrett, 64-bit reciprocal".into(),
        Strategy::PlainRem => "% (benchmark only)".into(),
    }
}

/// What `s` is modulo the NTRU-solver prime [`SOLVER_PRIME`] (Falcon key generation).
pub(crate) fn solver_reduction(s: Strategy) -> String {
    match s {
        Strategy::K2Red => {
            let p = falcon_solver::PRIMES[SOLVER_PRIME];
            let (kk, m, l, steps) = if KRedPm2::fits(p) {
                KRedPm2::new(p).params()
            } else {
                KRed11x3::new(p).params()
            };
            format!(
                "generalised K-RED, p = {kk} * 2^{m} {} {}, {steps} steps (the study's \
                 m = 24, k = 127 does not reduce for these primes)",
                if l < 0 { '-' } else { '+' },
                l.abs()
            )
        }
        Strategy::Montgomery => "Montgomery, R = 2^32".into(),
        Strategy::Barrett => "Barrett, v = floor(2^64 / p)".into(),
        Strategy::PlainRem => "% by a run-time p (benchmark only)".into(),
    }
}

/// What `s` is modulo q = 8380417 (ML-DSA).
pub(crate) fn mldsa_reduction(s: Strategy) -> String {
    match s {
        Strategy::K2Red => "K2-RED, q = 1023 * 2^13 + 1, twiddles * 1023^-2".into(),
        Strategy::Montgomery => "Montgomery, R = 2^32".into(),
        Strategy::Barrett => "Barrett, 64-bit reciprocal".into(),
        Strategy::PlainRem => "% (benchmark only)".into(),
    }
}

/// What `s` is modulo q = 3329 (ML-KEM).
pub(crate) fn mlkem_reduction(s: Strategy) -> String {
    match s {
        Strategy::K2Red => "K2-RED, q = 13 * 2^8 + 1, twiddles * 13^-2".into(),
        Strategy::Montgomery => "Montgomery, R = 2^16".into(),
        Strategy::Barrett => "Barrett, 64-bit reciprocal".into(),
        Strategy::PlainRem => "% (benchmark only)".into(),
    }
}

/// The figure a change is computed from: TSC ticks where there is a TSC, else ns.
fn figure(c: (Option<f64>, f64)) -> f64 {
    c.0.unwrap_or(c.1)
}

fn change(cell: &Cell, i: usize) -> Option<f64> {
    let base = figure(cell[0]);
    (base > 0.0).then(|| (figure(cell[i]) / base - 1.0) * 100.0)
}

fn rows(m: Module) -> Vec<ReductionRow> {
    Strategy::ALL
        .into_iter()
        .enumerate()
        .map(|(i, s)| ReductionRow {
            module: m.module.clone(),
            op: m.op.into(),
            strategy: s.name().into(),
            reduction: (m.reduction)(s),
            ntt_cycles: m.ntt[i].0,
            intt_cycles: m.intt[i].0,
            op_cycles: m.whole.as_ref().and_then(|w| w[i].0),
            ntt_ns: m.ntt[i].1,
            ntt_instructions: None,
            intt_instructions: None,
            op_instructions: None,
            intt_ns: m.intt[i].1,
            op_ns: m.whole.as_ref().map(|w| w[i].1),
            ntt_change_pct: change(&m.ntt, i),
            intt_change_pct: change(&m.intt, i),
            op_change_pct: m.whole.as_ref().and_then(|w| change(w, i)),
            table_bytes: (m.table_bytes)(s),
            constant_time: s != Strategy::PlainRem,
            note: m.note.clone(),
        })
        .collect()
}

/// Measures the table: every module under every strategy.
pub fn measure(config: &Config, progress: Progress<'_>) -> Result<Vec<ReductionRow>, LabError> {
    let k = Counts::of(config);
    type Step = fn(&Counts) -> Result<Module, LabError>;
    let steps: [(&str, Step); 6] = [
        ("falcon-512 verify", falcon_verify::<512>),
        ("falcon-1024 verify", falcon_verify::<1024>),
        ("falcon-512 keygen", falcon_keygen::<512>),
        ("falcon-1024 keygen", falcon_keygen::<1024>),
        ("ml-dsa-65", mldsa),
        ("ml-kem-768", mlkem),
    ];
    let mut out = Vec::new();
    for (i, (label, step)) in steps.iter().enumerate() {
        progress(i, steps.len(), label);
        out.extend(rows(step(&k)?));
    }
    progress(steps.len(), steps.len(), "done");
    Ok(out)
}

/// `pqlab compare --reductions`: a report whose `reductions` holds the table (the scheme
/// comparison's `sizes` and `results` are empty).
pub fn run(config: &Config, progress: Progress<'_>) -> Result<Report, LabError> {
    config.validate()?;
    let reductions = measure(config, progress)?;
    let record = ConfigRecord::study(
        config.iterations,
        config.warmup,
        config.quick,
        "reduction strategies: each cell is the median of the time-stamp counter \
                 (rdtsc between lfences; it counts at a fixed rate, not core clock cycles) \
                 over all timed calls, the strategies interleaved call by call (rounds of \
                 one whole operation or four NTTs per strategy); NTTs on one polynomial",
    );
    Ok(report(config, record, reductions, Vec::new(), Scope::Host))
}

/// The report of a reduction study: `reductions` under `record`, with `notes` and the
/// studies' claims for `scope` (the scheme comparison's `sizes` and `results` are empty).
pub(crate) fn report(
    config: &Config,
    record: ConfigRecord,
    reductions: Vec<ReductionRow>,
    notes: Vec<String>,
    scope: Scope,
) -> Report {
    let mut report = Report::empty(Machine::detect(), record);
    report.reductions = reductions;
    report.notes = notes;
    report.published = Some(config.published(&report, scope));
    report
}
