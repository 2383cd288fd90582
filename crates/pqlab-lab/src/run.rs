//! A whole comparison: which implementations, operations and message lengths to measure
//! ([`Config`]), the cross-check of every peer against pqlab before it is timed, the
//! measurements themselves and the resulting [`Report`].

use crate::LabError;
use crate::energy::PowerModel;
use crate::machine::Machine;
use crate::measure::Summary;
use crate::registry::{self, Entry, Op};
use crate::stats::Test;
use crate::task::{Task, measure_group};

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
    /// The folder of the published figures (`--papers`); `None`: `$PQLAB_PAPERS` or
    /// `../shared/papers` ([`crate::papers::papers_dir`]).
    pub papers: Option<std::path::PathBuf>,
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
            papers: None,
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

    /// The studies' claims beside `report` (from [`Config::papers`]).
    pub fn published(
        &self,
        report: &Report,
        scope: crate::papers::Scope,
    ) -> crate::papers::Published {
        let dir = crate::papers::papers_dir(self.papers.as_deref());
        crate::papers::published(report, scope, &dir)
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

impl ConfigRecord {
    /// The record of a study that measures no scheme comparison (the reduction studies):
    /// `iterations` calls after `warmup`, no message sizes, algorithms, operations, peers or
    /// power model.
    pub(crate) fn study(
        iterations: usize,
        warmup: usize,
        quick: bool,
        method: &'static str,
    ) -> Self {
        ConfigRecord {
            iterations,
            warmup,
            msg_sizes: Vec::new(),
            algs: Vec::new(),
            ops: Vec::new(),
            peers: false,
            quick,
            power_model: None,
            method,
        }
    }
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
    /// Whether signatures vary in length (Falcon): `signature` is then the longest signature
    /// measured in this run (the format's bound where nothing was signed), and
    /// `signature_mean` the mean length.
    pub signature_varies: bool,
    /// Mean length of the signatures made in this run (where signatures vary).
    pub signature_mean: Option<f64>,
    /// The largest length the encoding allows (where signatures vary).
    pub signature_bound: Option<usize>,
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
    /// The variant of the implementation, where it is not the plain one (Falcon signing with
    /// an `expanded key`).
    pub variant: Option<String>,
    /// Lengths of the signatures made (signing, where signatures vary in length).
    pub signature_lengths: Option<Lengths>,
    /// Calls profiled and each kernel's share of their time (pqlab's code, `profile` builds).
    #[serde(skip)]
    pub kernel_profile: Option<(usize, Vec<crate::profile::KernelShare>)>,
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
    /// Time per iteration of the loop: the timed calls' total time / their total iterations,
    /// ns (absent where the timed calls' counts are not known). Rejection sampling makes the
    /// time per signature noisy; this figure is not, so message-length effects show in it.
    pub ns_per_loop: Option<f64>,
    /// Least-squares fit time = fixed_ns + loop_ns x iterations over the timed calls: the
    /// cost of one more iteration, ns (absent where every call took the same count).
    pub loop_ns: Option<f64>,
    /// The fit's fixed part: the cost outside the loop (hashing the message, expanding the
    /// key), ns.
    pub fixed_ns: Option<f64>,
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
            ns_per_loop: None,
            loop_ns: None,
            fixed_ns: None,
        })
    }

    /// The distribution of `loops` with the time per iteration of the timed calls: `ns[i]`
    /// is the time of the call that took `timed[i]` iterations (same lengths, else no times).
    /// Robust to preemption: the calls are grouped by iteration count and each group counts
    /// with its median time (times its size), so that `ns_per_loop` is total time / total
    /// iterations over those medians and the fit is weighted least squares over them.
    pub fn with_times(loops: &[u32], timed: &[u32], ns: &[f64]) -> Option<Rejection> {
        let mut r = Rejection::of(loops)?;
        if timed.len() != ns.len() || timed.is_empty() {
            return Some(r);
        }
        let mut pairs: Vec<(u32, f64)> = timed.iter().copied().zip(ns.iter().copied()).collect();
        pairs.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)));
        // (iterations, calls, median time) per iteration count.
        let mut groups: Vec<(f64, f64, f64)> = Vec::new();
        for chunk in pairs.chunk_by(|a, b| a.0 == b.0) {
            let times: Vec<f64> = chunk.iter().map(|p| p.1).collect();
            let median = crate::measure::quantile(&times, 0.5);
            groups.push((f64::from(chunk[0].0), chunk.len() as f64, median));
        }
        let w: f64 = groups.iter().map(|g| g.1).sum();
        let total_loops: f64 = groups.iter().map(|g| g.1 * g.0).sum();
        let total_ns: f64 = groups.iter().map(|g| g.1 * g.2).sum();
        r.ns_per_loop = (total_loops > 0.0).then(|| total_ns / total_loops);
        let (mx, my) = (total_loops / w, total_ns / w);
        let sxx: f64 = groups.iter().map(|g| g.1 * (g.0 - mx).powi(2)).sum();
        let sxy: f64 = groups.iter().map(|g| g.1 * (g.0 - mx) * (g.2 - my)).sum();
        if sxx > 0.0 {
            let slope = sxy / sxx;
            r.loop_ns = Some(slope);
            r.fixed_ns = Some(my - slope * mx);
        }
        Some(r)
    }
}

/// The lengths of the signatures of one measurement.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Lengths {
    /// Signatures made.
    pub count: usize,
    /// Mean length, bytes.
    pub mean: f64,
    /// Shortest, bytes.
    pub min: usize,
    /// Longest, bytes.
    pub max: usize,
}

impl Lengths {
    /// The lengths in `lens`; `None` if empty.
    pub fn of(lens: &[usize]) -> Option<Lengths> {
        Some(Lengths {
            count: lens.len(),
            mean: lens.iter().sum::<usize>() as f64 / lens.len().max(1) as f64,
            min: *lens.iter().min()?,
            max: *lens.iter().max()?,
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
    /// What was left out of the run and why (an operation an implementation cannot do in
    /// this build).
    pub notes: Vec<String>,
    /// Bytes of the precomputed tables (statics) of each of pqlab's algorithms.
    pub static_tables: Vec<crate::tables::TableSizes>,
    /// Share of each operation's time in its kernels (builds with the `profile` feature).
    pub profile: Option<Vec<crate::profile::ProfileRow>>,
    /// The reduction-strategy table of `pqlab compare --reductions` (an addition to the
    /// schema of DESIGN §4; absent from the JSON when not measured).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub reductions: Vec<crate::reductions::ReductionRow>,
    /// The back-end study of `pqlab compare --backends` (an addition to the schema of DESIGN
    /// §4; absent from the JSON when not measured).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub backends: Vec<crate::backends::BackendRow>,
    /// The studies' claims beside this run ("Published vs measured", an addition to the
    /// schema of DESIGN §4; see `crate::papers::Published`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub published: Option<crate::papers::Published>,
    /// Flash and static RAM per implementation and parameter set (`--target cortex-m4`; an
    /// addition to the schema of DESIGN §4, absent from the JSON otherwise).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub footprints: Vec<FootprintRow>,
}

/// Code and static data of one implementation's image of one parameter set on a target (the
/// Cortex-M4 lab's ELF, less the harness).
#[derive(Clone, Debug, serde::Serialize)]
pub struct FootprintRow {
    /// Implementation.
    #[serde(rename = "impl")]
    pub implementation: String,
    /// Algorithm.
    pub alg: String,
    /// pqlab's configuration where not the default (`small-memory`, `fpr-emu`).
    pub config: Option<String>,
    /// Flash: .text + .rodata, bytes.
    pub flash: u64,
    /// Static RAM: .data + .bss, bytes.
    pub ram: u64,
}

impl Report {
    /// A report of `config` on `machine` with nothing in it yet (every table empty): the
    /// studies and the M4 lab fill in theirs.
    pub fn empty(machine: Machine, config: ConfigRecord) -> Report {
        Report {
            machine,
            config,
            sizes: Vec::new(),
            results: Vec::new(),
            peer_checks: Vec::new(),
            statistics: Statistics::default(),
            notes: Vec::new(),
            static_tables: Vec::new(),
            profile: None,
            reductions: Vec::new(),
            backends: Vec::new(),
            published: None,
            footprints: Vec::new(),
        }
    }
}

/// Progress of a run: (done, total, what is being measured now).
pub type Progress<'a> = &'a mut dyn FnMut(usize, usize, &str);

/// The entry of pqlab that `peer` is cross-checked against and compared with: the plain entry
/// of the same algorithm (for FN-DSA: Falcon of the same degree).
fn our_counterpart<'a>(ours: &'a [Entry], peer: &Entry) -> Option<&'a Entry> {
    let alg = peer.info().alg;
    #[cfg(feature = "peers")]
    let alg = crate::peers::falcon::falcon_for(alg).unwrap_or(alg);
    ours.iter()
        .find(|o| o.info().alg == alg && o.variant().is_none())
}

/// The planned measurements of `entries`, with a note for each operation left out.
fn plan(config: &Config, entries: &[Entry], notes: &mut Vec<String>) -> Vec<Task> {
    let mut tasks = Vec::new();
    for &entry in entries {
        for op in Op::ALL {
            if !entry.measures(op) || !config.wants_op(op) {
                continue;
            }
            if let Some(why) = entry.unavailable(op) {
                let i = entry.info();
                let variant = entry.variant().map_or(String::new(), |v| format!(" [{v}]"));
                notes.push(format!(
                    "{} {} {}{variant}: not measured: {why}",
                    i.implementation,
                    i.alg,
                    op.name()
                ));
                continue;
            }
            let lens: Vec<Option<usize>> = if op.takes_message() {
                config.msg_sizes.iter().copied().map(Some).collect()
            } else {
                vec![None]
            };
            for msg_len in lens {
                tasks.push(Task { entry, op, msg_len });
            }
        }
    }
    tasks
}

/// The progress label of a task.
fn label(task: &Task) -> String {
    let info = task.entry.info();
    let mut label = format!("{} {} {}", info.implementation, info.alg, task.op.name());
    if let Some(v) = task.entry.variant() {
        label.push_str(&format!(" [{v}]"));
    }
    if let Some(l) = task.msg_len {
        label.push_str(&format!(" ({l} B)"));
    }
    label
}

/// The indices of `tasks` grouped by algorithm (a peer's FN-DSA under Falcon of its degree),
/// operation and message length, in the order of their first task.
fn groups(tasks: &[Task]) -> Vec<Vec<usize>> {
    let key = |t: &Task| {
        let alg = t.entry.info().alg;
        #[cfg(feature = "peers")]
        let alg = crate::peers::falcon::falcon_for(alg).unwrap_or(alg);
        (alg, t.op, t.msg_len)
    };
    let mut out: Vec<Vec<usize>> = Vec::new();
    let mut keys = Vec::new();
    for (i, t) in tasks.iter().enumerate() {
        let k = key(t);
        match keys.iter().position(|x| *x == k) {
            Some(g) => out[g].push(i),
            None => {
                keys.push(k);
                out.push(vec![i]);
            }
        }
    }
    out
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
            let Some(our) = our_counterpart(&ours, &peer) else {
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
    let mut notes = Vec::new();
    if entries.iter().any(|e| {
        e.info().implementation == crate::ours::PQLAB && e.info().alg.starts_with("falcon-")
    }) {
        notes.push(format!(
            "pqlab falcon: floating point {} (cargo feature `fpr-emu` selects the other back end)",
            pqlab_falcon::fpr::BACKEND
        ));
    }
    let tasks = plan(config, &entries, &mut notes);
    // The implementations of one algorithm, operation and message length are measured in
    // interleaved rounds; the rows keep the order of the plan.
    let mut slots: Vec<Option<ResultRow>> = (0..tasks.len()).map(|_| None).collect();
    let mut done = 0;
    for group in groups(&tasks) {
        let members: Vec<&Task> = group.iter().map(|&i| &tasks[i]).collect();
        let rows = measure_group(config, &members, &mut |k| {
            progress(done + k, tasks.len(), &label(members[k]));
        })?;
        done += group.len();
        for (i, row) in group.into_iter().zip(rows) {
            slots[i] = Some(row);
        }
    }
    let mut results: Vec<ResultRow> = slots.into_iter().flatten().collect();
    // C2SP CCTV's ML-DSA benchmark set: the unbiased average signing time of pqlab and of the
    // peers that sign it (deterministic ones checked equal to pqlab), and the message-length
    // study with one loop iteration per signature.
    #[cfg(feature = "peers")]
    let make: Option<crate::ours::cctv::MakeSigners<'_>> =
        config.peers.then_some(&crate::peers::cctv::signers);
    #[cfg(not(feature = "peers"))]
    let make = None;
    if config.wants_op(Op::Sign) {
        let vectors = crate::ours::cctv::vectors_dir();
        for alg in ["ml-dsa-44", "ml-dsa-65", "ml-dsa-87"]
            .into_iter()
            .filter(|a| config.wants_alg(a))
        {
            progress(
                tasks.len(),
                tasks.len(),
                &format!("pqlab {alg} sign [cctv benchmark]"),
            );
            results.extend(crate::ours::cctv::rows(
                config, &vectors, alg, make, &mut notes,
            ));
        }
    }
    progress(tasks.len(), tasks.len(), "done");
    let sizes = entries
        .iter()
        .filter(|e| e.variant().is_none())
        .map(|e| size_row(e, &results))
        .collect();
    let statistics = crate::analysis::statistics(&results);
    let algs: Vec<String> = registry::algorithm_names()
        .into_iter()
        .filter(|a| config.wants_alg(a))
        .map(str::to_string)
        .collect();
    let mut report = Report {
        machine,
        static_tables: crate::tables::for_algs(&algs),
        footprints: Vec::new(),
        profile: crate::profile::table(&results),
        config: ConfigRecord {
            iterations: config.iterations,
            warmup: config.warmup,
            msg_sizes: config.msg_sizes.clone(),
            algs,
            ops: Op::ALL
                .into_iter()
                .filter(|&o| config.wants_op(o))
                .collect(),
            peers: config.peers,
            quick: config.quick,
            power_model: config.power.clone(),
            method: "wall clock (std::time::Instant) and the time-stamp counter (rdtsc between \
                     lfences) per call, after warm-up; the implementations of one algorithm, \
                     operation and message length in interleaved rounds (10, each after at least \
                     5 ms of untimed calls; one in the quick run); the TSC counts at a fixed \
                     rate, not core clock cycles. Peak stack: painted thread stack; heap: \
                     counting allocator",
        },
        sizes,
        results,
        peer_checks,
        statistics,
        notes,
        reductions: Vec::new(),
        backends: Vec::new(),
        published: None,
    };
    report.published = Some(config.published(&report, crate::papers::Scope::Host));
    Ok(report)
}

/// The sizes of entry `e`; where signatures vary in length, from the signatures made in
/// `results`.
fn size_row(e: &Entry, results: &[ResultRow]) -> SizeRow {
    let i = e.info();
    let varies = e.signature_varies();
    let made: Vec<&Lengths> = results
        .iter()
        .filter(|r| r.implementation == i.implementation && r.alg == i.alg)
        .filter_map(|r| r.signature_lengths.as_ref())
        .collect();
    let count: usize = made.iter().map(|l| l.count).sum();
    let mean = (count > 0)
        .then(|| made.iter().map(|l| l.mean * l.count as f64).sum::<f64>() / count as f64);
    let max = made.iter().map(|l| l.max).max();
    let signature = if varies {
        max.or(i.signature)
    } else {
        i.signature
    };
    SizeRow {
        implementation: i.implementation.to_string(),
        alg: i.alg.to_string(),
        public_key: i.public_key,
        secret_key: i.secret_key,
        signature,
        ciphertext: i.ciphertext,
        public_plus_output: i.public_key + signature.or(i.ciphertext).unwrap_or(0),
        signature_varies: varies,
        signature_mean: if varies { mean } else { None },
        signature_bound: if varies { i.signature } else { None },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every planned task falls in exactly one group; the tasks of a group share algorithm,
    /// operation and message length; pqlab's variants of an operation share its group.
    #[test]
    fn groups_partition_the_plan_by_algorithm_operation_and_length() {
        let config = Config::standard();
        let entries = registry::ours();
        let tasks = plan(&config, &entries, &mut Vec::new());
        let gs = groups(&tasks);
        let key = |t: &Task| (t.entry.info().alg, t.op, t.msg_len);
        let mut seen = vec![0; tasks.len()];
        for g in &gs {
            for &i in g {
                seen[i] += 1;
                assert_eq!(key(&tasks[g[0]]), key(&tasks[i]));
            }
        }
        assert!(seen.iter().all(|&n| n == 1), "{seen:?}");
        let sign44 = gs
            .iter()
            .find(|g| key(&tasks[g[0]]) == ("ml-dsa-44", Op::Sign, Some(32)))
            .expect("ML-DSA-44 signing of 32-byte messages is planned");
        assert!(
            sign44.len() >= 2,
            "the plain key and its variants: {}",
            sign44.len()
        );
    }
}
