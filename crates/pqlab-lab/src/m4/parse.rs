//! The M4 lab firmware's output (`embedded/m4-lab/src/main.rs` documents the lines) as data.

use crate::LabError;

/// One run of an image: its header, the calibration loops and the operations measured.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ImageRun {
    /// `pqlab` or `pqclean` (`baseline` for the harness alone).
    pub implementation: String,
    /// The parameter set.
    pub alg: String,
    /// The operations the image has.
    pub ops: Vec<String>,
    /// (loop iterations, expected instructions, measured instructions).
    pub calibration: Vec<(u64, u64, u64)>,
    /// The operations this run measured, in order.
    pub results: Vec<OpRun>,
    /// The run ended with `done failures=0`.
    pub completed: bool,
}

/// One operation of a run.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct OpRun {
    /// The operation as the firmware names it (`sign-expanded` for the expanded-key variant).
    pub op: String,
    /// Process stack free when the operation started, bytes.
    pub available: u64,
    /// (instructions, peak stack bytes) per call.
    pub calls: Vec<(u64, u64)>,
    /// Per call (in the order of `calls`), the rejection-loop iterations the firmware counted
    /// (`loops=`: pqlab's ML-DSA signing).
    pub loops: Vec<Option<u32>>,
    /// Per call, the digest of what the call made: the signature (`sig=`: ML-DSA signing, both
    /// implementations) or the encoded public key (`pk=`: key generation).
    pub made: Vec<Option<u64>>,
    /// Errors the firmware reported (a failed check of an output).
    pub errors: Vec<String>,
    /// The fault that ended the run during this operation, if any.
    pub fault: Option<Fault>,
}

/// A processor fault reported by the firmware.
#[derive(Clone, Debug, PartialEq)]
pub struct Fault {
    /// The process stack ran out (the operation does not fit in RAM).
    pub overflow: bool,
    /// The stack the measured call had (0: the fault came while preparing its inputs).
    pub window: u64,
    /// The whole fault line.
    pub line: String,
}

/// The value of `key=` among the words of `line`.
fn field<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    line.split_ascii_whitespace()
        .find_map(|w| w.strip_prefix(key)?.strip_prefix('='))
}

fn number(line: &str, key: &str) -> Result<u64, LabError> {
    field(line, key)
        .and_then(|v| v.parse().ok())
        .ok_or_else(|| LabError::Implementation(format!("M4 lab output: no {key}= in '{line}'")))
}

/// The value of an optional `key=` of `line`, parsed by `f`: `None` where absent, an error where
/// present but not parsed.
fn optional<T>(
    line: &str,
    key: &str,
    f: impl Fn(&str) -> Option<T>,
) -> Result<Option<T>, LabError> {
    field(line, key)
        .map(|v| {
            f(v).ok_or_else(|| {
                LabError::Implementation(format!("M4 lab output: bad {key}= in '{line}'"))
            })
        })
        .transpose()
}

/// Parses the firmware's output (lines it does not know are ignored, e.g. QEMU's warnings).
pub fn parse(text: &str) -> Result<ImageRun, LabError> {
    let mut run = ImageRun::default();
    let mut header = false;
    for line in text.lines().map(str::trim) {
        let word = line.split_ascii_whitespace().next().unwrap_or("");
        match word {
            "m4-lab" => {
                header = true;
                run.implementation = field(line, "impl").unwrap_or_default().to_string();
                run.alg = field(line, "alg").unwrap_or_default().to_string();
                run.ops = field(line, "ops")
                    .unwrap_or_default()
                    .split(',')
                    .filter(|o| !o.is_empty())
                    .map(str::to_string)
                    .collect();
            }
            "calibration" => run.calibration.push((
                number(line, "loops")?,
                number(line, "expected")?,
                number(line, "measured")?,
            )),
            "start" => run.results.push(OpRun {
                op: field(line, "op").unwrap_or_default().to_string(),
                available: number(line, "available")?,
                ..OpRun::default()
            }),
            "call" | "error" | "fault" => {
                let Some(cur) = run.results.last_mut() else {
                    if word == "fault" {
                        return Err(LabError::Implementation(format!(
                            "M4 lab: fault before any operation: {line}"
                        )));
                    }
                    continue;
                };
                match word {
                    "call" => {
                        cur.calls
                            .push((number(line, "instructions")?, number(line, "stack")?));
                        cur.loops.push(optional(line, "loops", |v| v.parse().ok())?);
                        let hex = |v: &str| u64::from_str_radix(v, 16).ok();
                        let made = match optional(line, "sig", hex)? {
                            Some(d) => Some(d),
                            None => optional(line, "pk", hex)?,
                        };
                        cur.made.push(made);
                    }
                    "error" => cur.errors.push(line.to_string()),
                    _ => {
                        cur.fault = Some(Fault {
                            overflow: field(line, "overflow") == Some("1"),
                            window: number(line, "window").unwrap_or(0),
                            line: line.to_string(),
                        })
                    }
                }
            }
            "done" => run.completed = true,
            _ => {}
        }
    }
    if !header {
        let start: String = text.chars().take(300).collect();
        return Err(LabError::Implementation(format!(
            "M4 lab: no 'm4-lab' header in the firmware's output: '{start}'"
        )));
    }
    Ok(run)
}

#[cfg(test)]
mod tests {
    use super::*;

    const OUT: &str = "\
m4-lab impl=pqclean alg=ml-dsa-44 ops=keygen,sign,verify calls=2
calibration loops=1000 expected=2000 measured=2010
calibration loops=100000 expected=200000 measured=200010
start op=keygen available=126280
call op=keygen i=0 instructions=2447772 stack=38464 pk=00000000000000ff
call op=keygen i=1 instructions=2484675 stack=38464
end op=keygen
start op=sign available=126280
call op=sign i=0 instructions=5706181 stack=52128 sig=e90f73891d09a515
call op=sign i=1 instructions=3407518 stack=46256 loops=1 sig=8d27f77333872e99
error op=sign i=2 the signature made does not verify
fault overflow=1 window=125000 psp=0x1fffc520 cfsr=0x9200 bfar=0x1fffc574
";

    #[test]
    fn parses_calls_errors_and_a_stack_overflow() {
        let r = parse(OUT).unwrap();
        assert_eq!(
            (r.implementation.as_str(), r.alg.as_str()),
            ("pqclean", "ml-dsa-44")
        );
        assert_eq!(r.ops, ["keygen", "sign", "verify"]);
        assert_eq!(r.calibration[1], (100_000, 200_000, 200_010));
        assert!(!r.completed);
        assert_eq!(r.results.len(), 2);
        assert_eq!(
            r.results[0].calls,
            [(2_447_772, 38_464), (2_484_675, 38_464)]
        );
        assert_eq!(r.results[0].available, 126_280);
        assert!(r.results[0].fault.is_none());
        assert_eq!(r.results[0].loops, [None, None]);
        assert_eq!(r.results[0].made, [Some(0xff), None]);
        let sign = &r.results[1];
        assert_eq!(sign.loops, [None, Some(1)]);
        assert_eq!(
            sign.made,
            [Some(0xe90f_7389_1d09_a515), Some(0x8d27_f773_3387_2e99)]
        );
        assert_eq!(sign.errors.len(), 1);
        let f = sign.fault.as_ref().unwrap();
        assert!(f.overflow);
        assert_eq!(f.window, 125_000);
    }

    #[test]
    fn rejects_output_without_a_header_or_with_a_bad_number() {
        assert!(parse("hello\n").is_err());
        let bad = "m4-lab impl=pqlab alg=x ops=keygen\nstart op=keygen available=1\n\
                   call op=keygen i=0 instructions=12x stack=4\n";
        assert!(parse(bad).is_err());
        let bad = "m4-lab impl=pqlab alg=x ops=sign\nstart op=sign available=1\n\
                   call op=sign i=0 instructions=12 stack=4 sig=xyz\n";
        assert!(parse(bad).is_err());
        let bad = "m4-lab impl=pqlab alg=x ops=keygen\nstart op=keygen available=1\n\
                   call op=keygen i=0 instructions=12 stack=4 pk=0x12\n";
        assert!(parse(bad).is_err());
        let done = "m4-lab impl=baseline alg=none ops= calls=1\ndone failures=0\n";
        let r = parse(done).unwrap();
        assert!(r.completed && r.ops.is_empty());
    }
}
