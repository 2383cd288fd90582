//! One measurement: the fixed state of a task (parsed keys, pools of valid inputs), the timed
//! loop, the heap and stack probes, and the row of the report.
//!
//! The implementations of one algorithm, operation and message length are measured together,
//! in interleaved rounds ([`measure_group`]): each round times a share of every task's
//! iterations, the tasks in rotated order, each after at least 5 ms of untimed calls. A slow
//! spell of this shared machine then falls on all of them alike instead of on whichever ran at
//! that time, so the ratios between them stay meaningful (DESIGN §6), and no round is timed
//! while the processor is still adapting to a change of code ([`REWARM_TIME`]).

use std::time::{Duration, Instant};

use crate::LabError;
use crate::measure::{self, Sample, Summary};
use crate::probe::{self, HeapUse};
use crate::registry::{Entry, KeyPair, Op};
use crate::run::{Config, Lengths, Rejection, ResultRow};
use crate::stats;

/// One planned measurement.
pub(crate) struct Task {
    pub(crate) entry: Entry,
    pub(crate) op: Op,
    pub(crate) msg_len: Option<usize>,
}

pub(crate) fn random_bytes(n: usize) -> Result<Vec<u8>, LabError> {
    let mut v = vec![0u8; n];
    getrandom::fill(&mut v).map_err(|e| LabError::Implementation(format!("OS randomness: {e}")))?;
    Ok(v)
}

/// What a call reports besides its time: the iterations of the signing loop and the length of
/// the signature, where the implementation reports them (and the length varies).
#[derive(Clone, Copy, Debug, Default)]
struct CallInfo {
    loops: Option<u32>,
    sig_len: Option<usize>,
}

/// The measured call of a task, with its fixed inputs prepared.
type Call<'a> = Box<dyn FnMut(usize, &[u8]) -> Result<CallInfo, LabError> + Send + 'a>;

/// The rounds of a group: each times about a tenth of every task's iterations.
const ROUNDS: usize = 10;
/// Untimed calls before each round after the first (which has the configured warm-up).
const REWARM: usize = 2;
/// The least time that the untimed calls before each round take (more calls are made until
/// then) in the standard run. Code on 512-bit vectors that follows a few milliseconds of other
/// code runs slower for up to a few milliseconds (measured on this lab's x86 machine: ML-DSA-44
/// key generation at 20 instead of 11.5 us in such a round); without this, a round of pqlab's
/// AVX-512 code after the peers' rounds would be timed in that state.
const REWARM_TIME: Duration = Duration::from_millis(5);

/// Measures `tasks` (the implementations of one algorithm, operation and message length) in
/// interleaved rounds; `started(k)` is told when task `k` is about to be prepared. The rows
/// come in the order of `tasks`. The quick run (a few iterations) has one round.
pub(crate) fn measure_group(
    config: &Config,
    tasks: &[&Task],
    started: &mut dyn FnMut(usize),
) -> Result<Vec<ResultRow>, LabError> {
    let mut benches = Vec::with_capacity(tasks.len());
    for (k, task) in tasks.iter().enumerate() {
        started(k);
        benches.push(Bench::new(config, task)?);
    }
    let (rounds, warm_time) = if config.quick {
        (1, Duration::ZERO)
    } else {
        (config.iterations.clamp(1, ROUNDS), REWARM_TIME)
    };
    for r in 0..rounds {
        let n = config.iterations * (r + 1) / rounds - config.iterations * r / rounds;
        let warm = if r == 0 {
            config.warmup
        } else {
            config.warmup.min(REWARM)
        };
        let count = benches.len();
        for k in 0..count {
            let b = &mut benches[(k + r) % count];
            b.warm(warm, warm_time)?;
            b.run(n)?;
        }
    }
    benches.into_iter().map(|b| b.finish(config)).collect()
}

/// A task being measured: its call, and the sample and reports of its calls so far.
struct Bench<'t> {
    task: &'t Task,
    call: Call<'t>,
    /// Calls made so far (warm-up included): the index of the next one.
    calls: usize,
    sample: Sample,
    /// Signing-loop iterations of every call, and of the timed ones.
    loops: Vec<u32>,
    timed_loops: Vec<u32>,
    /// Lengths of the signatures of the timed calls, where they vary.
    lens: Vec<usize>,
}

impl<'t> Bench<'t> {
    /// Prepares the fixed state of `task`: parsed keys and pools of valid inputs.
    fn new(config: &Config, task: &'t Task) -> Result<Bench<'t>, LabError> {
        Ok(Bench {
            task,
            call: prepare(config, task)?,
            calls: 0,
            sample: Sample {
                ns: Vec::with_capacity(config.iterations),
                cycles: Vec::with_capacity(config.iterations),
            },
            loops: Vec::with_capacity(config.warmup + config.iterations),
            timed_loops: Vec::with_capacity(config.iterations),
            lens: Vec::with_capacity(config.iterations),
        })
    }

    /// Untimed calls: at least `calls`, and more until they took `time`.
    fn warm(&mut self, calls: usize, time: Duration) -> Result<(), LabError> {
        let len = self.task.msg_len.unwrap_or(0);
        let sign = self.task.op == Op::Sign;
        let start = Instant::now();
        let mut made = 0;
        while made < calls || start.elapsed() < time {
            let msg = if sign { random_bytes(len)? } else { Vec::new() };
            if let Some(l) = (self.call)(self.calls, &msg)?.loops {
                self.loops.push(l);
            }
            self.calls += 1;
            made += 1;
        }
        Ok(())
    }

    /// Times `n` calls, on fresh random messages for signing (prepared outside the timed
    /// region).
    fn run(&mut self, n: usize) -> Result<(), LabError> {
        let len = self.task.msg_len.unwrap_or(0);
        let sign = self.task.op == Op::Sign;
        let first = self.calls;
        // Room for what the timed calls report, so that no push allocates in a timed call.
        self.loops.reserve(n);
        self.timed_loops.reserve(n);
        self.lens.reserve(n);
        let Bench {
            call,
            loops,
            timed_loops,
            lens,
            ..
        } = self;
        let s = measure::time(
            0,
            n,
            |i| {
                let msg = if sign { random_bytes(len)? } else { Vec::new() };
                Ok((i, msg))
            },
            |(i, msg)| {
                let info = call(first + i, &msg)?;
                if let Some(l) = info.loops {
                    loops.push(l);
                    timed_loops.push(l);
                }
                if let Some(l) = info.sig_len {
                    lens.push(l);
                }
                Ok(())
            },
        )?;
        self.calls += n;
        self.sample.ns.extend_from_slice(&s.ns);
        self.sample.cycles.extend_from_slice(&s.cycles);
        Ok(())
    }

    /// The heap and stack probes, pqlab's kernel profile, and the row of the report.
    fn finish(mut self, config: &Config) -> Result<ResultRow, LabError> {
        let (task, sample) = (self.task, &self.sample);
        let info = task.entry.info();
        let msg = random_bytes(task.msg_len.unwrap_or(0))?;
        let call = &mut self.call;
        let (heap_result, heap) = probe::count_heap(|| call(0, &msg));
        heap_result?;
        let mut res = Ok(CallInfo::default());
        let stack = probe::peak_stack(|| res = call(1, &msg))?;
        res?;
        // The kernel profile of pqlab's code: a separate pass, so that the timed loop above is
        // not disturbed by the bookkeeping.
        let calls = config.iterations.clamp(1, 50);
        let kernel_profile = if info.implementation == crate::ours::PQLAB {
            crate::profile::shares(calls, |i| call(i, &msg).map(|_| ()))?.map(|s| (calls, s))
        } else {
            None
        };
        let summary = Summary::of(sample);
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
            signing_loops: Rejection::with_times(&self.loops, &self.timed_loops, &sample.ns),
            variant: task.entry.variant().map(str::to_string),
            signature_lengths: Lengths::of(&self.lens),
            kernel_profile,
            sample_ns: self.sample.ns,
        })
    }
}

/// The call of `task` with its fixed state: parsed keys and pools of valid inputs.
fn prepare<'t>(config: &Config, task: &'t Task) -> Result<Call<'t>, LabError> {
    let info = task.entry.info();
    let len = task.msg_len.unwrap_or(0);
    let pool = config.iterations.clamp(1, 16);
    let mut keys = KeyPair::default();
    let none = CallInfo::default();
    let call: Call<'t> = match (task.entry, task.op) {
        (Entry::Signature(s), Op::Keygen) => {
            let mut out = KeyPair::default();
            Box::new(move |_, _| s.keygen(&mut out).map(|()| none))
        }
        (Entry::Kem(k), Op::Keygen) => {
            let mut out = KeyPair::default();
            Box::new(move |_, _| k.keygen(&mut out).map(|()| none))
        }
        (Entry::Signature(s), Op::Sign) => {
            s.keygen(&mut keys)?;
            let signer = s.signer(&keys.secret)?;
            let mut sig = Vec::with_capacity(info.signature.unwrap_or(0));
            let varies = task.entry.signature_varies();
            Box::new(move |_, msg| {
                let loops = signer.sign_counting(msg, &mut sig)?;
                Ok(CallInfo {
                    loops,
                    sig_len: varies.then_some(sig.len()),
                })
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
                    Ok(none)
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
            Box::new(move |_, _| enc.encaps(&mut ct, &mut ss).map(|()| none))
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
                    Ok(none)
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
    Ok(call)
}

/// At most `max` values of `xs`, evenly spaced (Shapiro–Wilk takes at most 5000).
fn thin_out(xs: &[f64], max: usize) -> Vec<f64> {
    if xs.len() <= max {
        return xs.to_vec();
    }
    (0..max).map(|i| xs[i * xs.len() / max]).collect()
}
