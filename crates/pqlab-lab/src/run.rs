//! A whole comparison: which implementations, operations and message lengths to measure
//! ([`Config`]), the cross-check of every peer against pqlab before it is timed, the
//! measurements themselves and the resulting [`Report`].

use crate::LabError;
use crate::energy::PowerModel;
use crate::machine::Machine;
use crate::measure::{self, Sample, Summary};
use crate::probe::{self, HeapUse};
use crate::registry::{self, Entry, KeyPair, Kind, Op};
use crate::stats::{self, Test};

/// What to measure.
#[derive(Clone, Debug)]
pub struct Config {
    /// Algorithms by name; empty means all that pqlab implements.
    pub algs: Vec<String>,
    /// Operations; empty means all that apply.
    pub ops: Vec<Op>,
    /// Timed calls per measurement.
    pub iterations: usize,
    /// Untimed calls before them.
    pub warmup: usize,
    /// Message lengths for sign and verify.
    pub msg_sizes: Vec<usize>,
    /// Whether to measure the other implementations too.
    pub peers: bool,
    /// Whether this is the quick run (fewer iterations, one message length).
    pub quick: bool,
    /// The power model for energy estimates, if any.
    pub power: Option<PowerModel>,
}

impl Config {
    /// The default run: every algorithm and operation, 32 B, 1 KiB and 10 KiB messages.
    pub fn standard() -> Config {
        Config {
            algs: Vec::new(),
            ops: Vec::new(),
            iterations: 500,
            warmup: 20,
            msg_sizes: vec![32, 1024, 10 * 1024],
            peers: false,
            quick: false,
            power: None,
        }
    }

    /// The quick run for tests: a few iterations, one message length.
    pub fn quick() -> Config {
        Config {
            iterations: 15,
            warmup: 2,
            msg_sizes: vec![32],
            quick: true,
            ..Config::standard()
        }
    }

    /// Checks the configuration against the registry.
    pub fn validate(&self) -> Result<(), LabError> {
        let known = registry::algorithm_names();
        for a in &self.algs {
            if !known.contains(&a.as_str()) {
                return Err(LabError::Config(format!(
                    "unknown algorithm '{a}' (known: {})",
                    known.join(", ")
                )));
            }
        }
        if self.iterations == 0 {
            return Err(LabError::Config("--iterations must be at least 1".into()));
        }
        if self.msg_sizes.is_empty() {
            return Err(LabError::Config(
                "--msg-sizes needs at least one size".into(),
            ));
        }
        Ok(())
    }

    fn wants_alg(&self, alg: &str) -> bool {
        self.algs.is_empty() || self.algs.iter().any(|a| a == alg)
    }

    fn wants_op(&self, op: Op) -> bool {
        self.ops.is_empty() || self.ops.contains(&op)
    }
}

/// The configuration as the report records it.
#[derive(Clone, Debug, serde::Serialize)]
pub struct ConfigRecord {
    /// Timed calls per measurement.
    pub iterations: usize,
    /// Untimed warm-up calls.
    pub warmup: usize,
    /// Message lengths for sign and verify.
    pub msg_sizes: Vec<usize>,
    /// Algorithms measured.
    pub algs: Vec<String>,
    /// Operations measured.
    pub ops: Vec<Op>,
    /// Whether peers were measured.
    pub peers: bool,
    /// Whether this was the quick run.
    pub quick: bool,
    /// The power model of the energy estimates.
    pub power_model: Option<PowerModel>,
    /// How time and cycles were taken.
    pub method: &'static str,
}

/// Sizes of one implementation's keys and outputs (DESIGN §4 `sizes`).
#[derive(Clone, Debug, serde::Serialize)]
pub struct SizeRow {
    /// Implementation.
    #[serde(rename = "impl")]
    pub implementation: String,
    /// Algorithm.
    pub alg: String,
    /// Public-key bytes.
    pub public_key: usize,
    /// Secret-key bytes.
    pub secret_key: usize,
    /// Signature bytes (signature schemes).
    pub signature: Option<usize>,
    /// Ciphertext bytes (KEMs).
    pub ciphertext: Option<usize>,
    /// Public key + signature (or ciphertext): what travels per authentication or exchange.
    pub public_plus_output: usize,
}

/// One measurement (DESIGN §4 `results`; fields after `heap_bytes` are additions).
#[derive(Clone, Debug, serde::Serialize)]
pub struct ResultRow {
    /// Implementation.
    #[serde(rename = "impl")]
    pub implementation: String,
    /// Algorithm.
    pub alg: String,
    /// Operation.
    pub op: Op,
    /// Message length (sign and verify).
    pub msg_len: Option<usize>,
    /// The latency summary (flattened: iterations, median_ns, ...).
    #[serde(flatten)]
    pub summary: Summary,
    /// Peak stack of one call, bytes.
    pub stack_bytes: Option<usize>,
    /// Heap bytes requested by one call.
    pub heap_bytes: Option<u64>,
    /// Heap allocations made by one call.
    pub alloc_count: Option<u64>,
    /// Estimated energy per call (median time x the power model), joules.
    pub energy_j: Option<f64>,
    /// Estimated calls per battery of the power model.
    pub ops_per_battery: Option<f64>,
    /// Shapiro–Wilk normality test of the latency sample.
    pub shapiro_wilk: Option<Test>,
    /// Iterations of the signing loop (rejection sampling), where reported.
    pub signing_loops: Option<Rejection>,
    /// The latency sample (for charts; not in the JSON).
    #[serde(skip)]
    pub sample_ns: Vec<f64>,
}

/// The distribution of the number of signing-loop iterations (rejection sampling) over the
/// signatures of a measurement.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Rejection {
    /// Signatures counted.
    pub signatures: usize,
    /// Mean iterations per signature.
    pub mean: f64,
    /// (iterations, signatures that took that many), ascending.
    pub histogram: Vec<(u32, usize)>,
}

impl Rejection {
    /// The distribution of `loops`; `None` if empty.
    pub fn of(loops: &[u32]) -> Option<Rejection> {
        if loops.is_empty() {
            return None;
        }
        let mut histogram: Vec<(u32, usize)> = Vec::new();
        let mut sorted = loops.to_vec();
        sorted.sort_unstable();
        for n in sorted {
            match histogram.last_mut() {
                Some((k, c)) if *k == n => *c += 1,
                _ => histogram.push((n, 1)),
            }
        }
        let mean = loops.iter().map(|&n| f64::from(n)).sum::<f64>() / loops.len() as f64;
        Some(Rejection {
            signatures: loops.len(),
            mean,
            histogram,
        })
    }
}

/// The outcome of a peer's cross-check against pqlab.
#[derive(Clone, Debug, serde::Serialize)]
pub struct PeerCheck {
    /// Implementation.
    #[serde(rename = "impl")]
    pub implementation: String,
    /// Algorithm.
    pub alg: String,
    /// Whether it passed (and was timed).
    pub passed: bool,
    /// What was checked, or what failed.
    pub detail: String,
}

/// A Welch t-test between two measurements.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Comparison {
    /// The first measurement, `impl alg op msg_len`.
    pub a: String,
    /// The second.
    pub b: String,
    /// Ratio of medians a / b.
    pub median_ratio: f64,
    /// Welch's t and p.
    pub welch: Test,
}

/// Statistics across measurements.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct Statistics {
    /// Welch t-tests between chosen pairs.
    pub welch: Vec<Comparison>,
    /// Spearman correlation between public-key size and verification median (pqlab's
    /// signature schemes, shortest message).
    pub spearman_pk_size_vs_verify: Option<Test>,
}

/// A comparison's results.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Report {
    /// The machine.
    pub machine: Machine,
    /// What was measured and how.
    pub config: ConfigRecord,
    /// Sizes.
    pub sizes: Vec<SizeRow>,
    /// Latency and memory per implementation, algorithm, operation and message length.
    pub results: Vec<ResultRow>,
    /// Cross-checks of the peers.
    pub peer_checks: Vec<PeerCheck>,
    /// Statistics.
    pub statistics: Statistics,
    /// The reduction-strategy table of `pqlab compare --reductions` (an addition to the
    /// schema of DESIGN §4; absent from the JSON when not measured).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub reductions: Vec<crate::reductions::ReductionRow>,
}

/// Progress of a run: (done, total, what is being measured now).
pub type Progress<'a> = &'a mut dyn FnMut(usize, usize, &str);

/// One planned measurement.
struct Task {
    entry: Entry,
    op: Op,
    msg_len: Option<usize>,
}

fn random_bytes(n: usize) -> Result<Vec<u8>, LabError> {
    let mut v = vec![0u8; n];
    getrandom::fill(&mut v).map_err(|e| LabError::Implementation(format!("OS randomness: {e}")))?;
    Ok(v)
}

/// Runs the comparison.
pub fn run(config: &Config, progress: Progress<'_>) -> Result<Report, LabError> {
    config.validate()?;
    let machine = Machine::detect();
    let ours: Vec<Entry> = registry::ours()
        .into_iter()
        .filter(|e| config.wants_alg(e.info().alg))
        .collect();
    let mut entries = ours.clone();
    let mut peer_checks = Vec::new();
    if config.peers {
        for peer in registry::peers() {
            let info = peer.info();
            let Some(our) = ours.iter().find(|o| o.info().alg == info.alg) else {
                continue;
            };
            let outcome = crate::check::cross_check(our, &peer);
            let passed = outcome.is_ok();
            peer_checks.push(PeerCheck {
                implementation: info.implementation.to_string(),
                alg: info.alg.to_string(),
                passed,
                detail: outcome.unwrap_or_else(|e| e.to_string()),
            });
            if passed {
                entries.push(peer);
            }
        }
    }
    let mut tasks = Vec::new();
    for &entry in &entries {
        for op in Op::ALL {
            if !op.applies_to(entry.info().kind) || !config.wants_op(op) {
                continue;
            }
            if op.takes_message() {
                for &len in &config.msg_sizes {
                    tasks.push(Task {
                        entry,
                        op,
                        msg_len: Some(len),
                    });
                }
            } else {
                tasks.push(Task {
                    entry,
                    op,
                    msg_len: None,
                });
            }
        }
    }
    let mut results = Vec::new();
    for (i, task) in tasks.iter().enumerate() {
        let info = task.entry.info();
        let label = match task.msg_len {
            Some(l) => format!(
                "{} {} {} ({l} B)",
                info.implementation,
                info.alg,
                task.op.name()
            ),
            None => format!("{} {} {}", info.implementation, info.alg, task.op.name()),
        };
        progress(i, tasks.len(), &label);
        results.push(measure_task(config, task)?);
    }
    progress(tasks.len(), tasks.len(), "done");
    let sizes = entries.iter().map(size_row).collect();
    let statistics = statistics(&results);
    Ok(Report {
        machine,
        config: ConfigRecord {
            iterations: config.iterations,
            warmup: config.warmup,
            msg_sizes: config.msg_sizes.clone(),
            algs: ours.iter().map(|e| e.info().alg.to_string()).collect(),
            ops: Op::ALL
                .into_iter()
                .filter(|&o| config.wants_op(o))
                .collect(),
            peers: config.peers,
            quick: config.quick,
            power_model: config.power.clone(),
            method: "wall clock (std::time::Instant) and the time-stamp counter (rdtsc between \
                     lfences) per call, after warm-up; the TSC counts at a fixed rate, not core \
                     clock cycles. Peak stack: painted thread stack; heap: counting allocator",
        },
        sizes,
        results,
        peer_checks,
        statistics,
        reductions: Vec::new(),
    })
}

fn size_row(e: &Entry) -> SizeRow {
    let i = e.info();
    SizeRow {
        implementation: i.implementation.to_string(),
        alg: i.alg.to_string(),
        public_key: i.public_key,
        secret_key: i.secret_key,
        signature: i.signature,
        ciphertext: i.ciphertext,
        public_plus_output: i.public_key + i.signature.or(i.ciphertext).unwrap_or(0),
    }
}

/// The measured call of a task, with its fixed inputs prepared.
type Call<'a> = Box<dyn FnMut(usize, &[u8]) -> Result<(), LabError> + Send + 'a>;

fn measure_task(config: &Config, task: &Task) -> Result<ResultRow, LabError> {
    let info = task.entry.info();
    let len = task.msg_len.unwrap_or(0);
    let pool = config.iterations.clamp(1, 16);
    let mut keys = KeyPair::default();
    // Iterations of the signing loop per signature, where the implementation reports them.
    let mut loops: Vec<u32> = Vec::with_capacity(config.warmup + config.iterations + 2);
    // The fixed state of the task: parsed keys and pools of valid inputs.
    let mut call: Call<'_> = match (task.entry, task.op) {
        (Entry::Signature(s), Op::Keygen) => {
            let mut out = KeyPair::default();
            Box::new(move |_, _| s.keygen(&mut out))
        }
        (Entry::Kem(k), Op::Keygen) => {
            let mut out = KeyPair::default();
            Box::new(move |_, _| k.keygen(&mut out))
        }
        (Entry::Signature(s), Op::Sign) => {
            s.keygen(&mut keys)?;
            let signer = s.signer(&keys.secret)?;
            let mut sig = Vec::with_capacity(info.signature.unwrap_or(0));
            let loops = &mut loops;
            Box::new(move |_, msg| {
                if let Some(n) = signer.sign_counting(msg, &mut sig)? {
                    loops.push(n);
                }
                Ok(())
            })
        }
        (Entry::Signature(s), Op::Verify) => {
            s.keygen(&mut keys)?;
            let signer = s.signer(&keys.secret)?;
            let verifier = s.verifier(&keys.public)?;
            let mut signed = Vec::new();
            for _ in 0..pool {
                let msg = random_bytes(len)?;
                let mut sig = Vec::new();
                signer.sign(&msg, &mut sig)?;
                signed.push((msg, sig));
            }
            Box::new(move |i, _| {
                let (msg, sig) = &signed[i % signed.len()];
                if verifier.verify(msg, sig) {
                    Ok(())
                } else {
                    Err(LabError::Implementation(format!(
                        "{} {}: a valid signature did not verify",
                        info.implementation, info.alg
                    )))
                }
            })
        }
        (Entry::Kem(k), Op::Encaps) => {
            k.keygen(&mut keys)?;
            let enc = k.encapsulator(&keys.public)?;
            let (mut ct, mut ss) = (Vec::with_capacity(info.ciphertext.unwrap_or(0)), [0u8; 32]);
            Box::new(move |_, _| enc.encaps(&mut ct, &mut ss))
        }
        (Entry::Kem(k), Op::Decaps) => {
            k.keygen(&mut keys)?;
            let enc = k.encapsulator(&keys.public)?;
            let dec = k.decapsulator(&keys.secret)?;
            let mut cts = Vec::new();
            for _ in 0..pool {
                let (mut ct, mut ss) = (Vec::new(), [0u8; 32]);
                enc.encaps(&mut ct, &mut ss)?;
                cts.push((ct, ss));
            }
            let mut out = [0u8; 32];
            Box::new(move |i, _| {
                let (ct, ss) = &cts[i % cts.len()];
                dec.decaps(ct, &mut out)?;
                if out == *ss {
                    Ok(())
                } else {
                    Err(LabError::Implementation(format!(
                        "{} {}: decapsulation disagrees with encapsulation",
                        info.implementation, info.alg
                    )))
                }
            })
        }
        (_, op) => {
            return Err(LabError::Config(format!(
                "{} has no {}",
                info.alg,
                op.name()
            )));
        }
    };
    // Fresh random messages for signing, prepared outside the timed region.
    let sample: Sample = measure::time(
        config.warmup,
        config.iterations,
        |i| {
            Ok((
                i,
                if task.op == Op::Sign {
                    random_bytes(len)?
                } else {
                    Vec::new()
                },
            ))
        },
        |(i, msg)| call(i, &msg),
    )?;
    let msg = random_bytes(len)?;
    let (heap_result, heap) = probe::count_heap(|| call(0, &msg));
    heap_result?;
    let mut res = Ok(());
    let stack = probe::peak_stack(|| res = call(1, &msg))?;
    res?;
    drop(call);
    let summary = Summary::of(&sample);
    let energy = config.power.as_ref();
    let thin = thin_out(&sample.ns, 5000);
    Ok(ResultRow {
        implementation: info.implementation.to_string(),
        alg: info.alg.to_string(),
        op: task.op,
        msg_len: task.msg_len,
        summary,
        stack_bytes: Some(stack),
        heap_bytes: heap.map(|h: HeapUse| h.bytes),
        alloc_count: heap.map(|h| h.allocations),
        energy_j: energy.map(|m| m.joules(summary.median_ns)),
        ops_per_battery: energy.map(|m| m.ops_per_battery(summary.median_ns)),
        shapiro_wilk: stats::shapiro_wilk(&thin),
        signing_loops: Rejection::of(&loops),
        sample_ns: sample.ns,
    })
}

/// At most `max` values of `xs`, evenly spaced (Shapiro–Wilk takes at most 5000).
fn thin_out(xs: &[f64], max: usize) -> Vec<f64> {
    if xs.len() <= max {
        return xs.to_vec();
    }
    (0..max).map(|i| xs[i * xs.len() / max]).collect()
}

fn label(r: &ResultRow) -> String {
    match r.msg_len {
        Some(l) => format!("{} {} {} {l}B", r.implementation, r.alg, r.op.name()),
        None => format!("{} {} {}", r.implementation, r.alg, r.op.name()),
    }
}

/// The statistics of a run: Welch tests of pqlab against each peer (same algorithm, operation
/// and message length), between the smallest parameter sets of different signature families
/// (e.g. ML-DSA-44 vs Falcon-512 signing), and Spearman between public-key size and
/// verification time across pqlab's signature schemes.
fn statistics(results: &[ResultRow]) -> Statistics {
    let mut out = Statistics::default();
    let ours = |r: &&ResultRow| r.implementation == crate::ours::PQLAB;
    for a in results.iter().filter(ours) {
        for b in results.iter().filter(|b| {
            b.implementation != a.implementation
                && b.alg == a.alg
                && b.op == a.op
                && b.msg_len == a.msg_len
        }) {
            if let Some(t) = stats::welch(&a.sample_ns, &b.sample_ns) {
                out.welch.push(Comparison {
                    a: label(a),
                    b: label(b),
                    median_ratio: a.summary.median_ns / b.summary.median_ns,
                    welch: t,
                });
            }
        }
    }
    // Across families: the first parameter set of each signature family, sign and verify.
    let firsts: Vec<&ResultRow> = results
        .iter()
        .filter(ours)
        .filter(|r| matches!(r.alg.as_str(), "ml-dsa-44" | "falcon-512" | "fn-dsa-512"))
        .collect();
    for (i, a) in firsts.iter().enumerate() {
        for b in &firsts[i + 1..] {
            if a.alg != b.alg && a.op == b.op && a.msg_len == b.msg_len && a.op != Op::Keygen {
                if let Some(t) = stats::welch(&a.sample_ns, &b.sample_ns) {
                    out.welch.push(Comparison {
                        a: label(a),
                        b: label(b),
                        median_ratio: a.summary.median_ns / b.summary.median_ns,
                        welch: t,
                    });
                }
            }
        }
    }
    let min_len = results.iter().filter_map(|r| r.msg_len).min();
    let verify: Vec<&ResultRow> = results
        .iter()
        .filter(ours)
        .filter(|r| r.op == Op::Verify && r.msg_len == min_len)
        .collect();
    let pk = |alg: &str| {
        registry::ours()
            .iter()
            .map(Entry::info)
            .find(|i| i.alg == alg && i.kind == Kind::Signature)
            .map(|i| i.public_key as f64)
    };
    let (x, y): (Vec<f64>, Vec<f64>) = verify
        .iter()
        .filter_map(|r| Some((pk(&r.alg)?, r.summary.median_ns)))
        .unzip();
    out.spearman_pk_size_vs_verify = stats::spearman(&x, &y);
    out
}
