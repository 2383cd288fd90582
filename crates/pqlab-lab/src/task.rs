//! One measurement: the fixed state of a task (parsed keys, pools of valid inputs), the timed
//! loop, the heap and stack probes, and the row of the report.

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

/// The measured call of a task, with its fixed inputs prepared.
type Call<'a> = Box<dyn FnMut(usize, &[u8]) -> Result<(), LabError> + Send + 'a>;

pub(crate) fn measure_task(config: &Config, task: &Task) -> Result<ResultRow, LabError> {
    let info = task.entry.info();
    let len = task.msg_len.unwrap_or(0);
    let pool = config.iterations.clamp(1, 16);
    let mut keys = KeyPair::default();
    // Iterations of the signing loop per signature, where the implementation reports them.
    let mut loops: Vec<u32> = Vec::with_capacity(config.warmup + config.iterations + 2);
    // Lengths of the signatures made, where they vary (reserved: no allocation when timed).
    let varies = task.entry.signature_varies();
    let mut lens: Vec<usize> = Vec::with_capacity(config.warmup + config.iterations + 2);
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
            let (loops, lens) = (&mut loops, &mut lens);
            Box::new(move |_, msg| {
                if let Some(n) = signer.sign_counting(msg, &mut sig)? {
                    loops.push(n);
                }
                if varies && lens.len() < lens.capacity() {
                    lens.push(sig.len());
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
    // The kernel profile of pqlab's code: a separate pass, so that the timed loop above is
    // not disturbed by the bookkeeping.
    let calls = config.iterations.clamp(1, 50);
    let kernel_profile = if info.implementation == crate::ours::PQLAB {
        crate::profile::shares(calls, |i| call(i, &msg))?.map(|s| (calls, s))
    } else {
        None
    };
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
        signing_loops: Rejection::with_times(&loops, timed_loops(&loops, config), &sample.ns),
        variant: task.entry.variant().map(str::to_string),
        signature_lengths: Lengths::of(&lens),
        kernel_profile,
        sample_ns: sample.ns,
    })
}

/// The iteration counts of the timed calls: after the warm-up's, one per timed call (empty
/// where the implementation does not report them).
fn timed_loops<'a>(loops: &'a [u32], config: &Config) -> &'a [u32] {
    loops
        .get(config.warmup..config.warmup + config.iterations)
        .unwrap_or(&[])
}

/// At most `max` values of `xs`, evenly spaced (Shapiro–Wilk takes at most 5000).
fn thin_out(xs: &[f64], max: usize) -> Vec<f64> {
    if xs.len() <= max {
        return xs.to_vec();
    }
    (0..max).map(|i| xs[i * xs.len() / max]).collect()
}
