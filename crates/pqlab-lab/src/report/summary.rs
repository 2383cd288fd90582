//! The answer first: the questions the literature asks of these schemes, each answered with a
//! short table and a verdict in words computed from this run's measurements.
//!
//! 1. Which signature at each security level, at what cost in bytes and time?
//! 2. Which side of a key exchange (a TLS handshake) pays?
//! 3. What can a battery-powered device afford?
//!
//! The verdicts compare pqlab's own implementations of the schemes (the choice of scheme);
//! [`Summary::peers`] says how pqlab stands against the fastest other implementation of each
//! operation. Each verdict names the tables and charts (HTML anchors) it rests on.

use crate::registry::Op;
use crate::run::{Report, ResultRow, SizeRow};

/// Two figures closer than this ratio are reported as "within N %".
const CLOSE: f64 = 1.15;

/// A verdict in words with the anchors of the evidence it rests on.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Verdict {
    /// The verdict.
    pub text: String,
    /// HTML element ids of the tables and charts it rests on.
    pub evidence: Vec<String>,
}

/// One question: a short table and its verdicts.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Question {
    /// The HTML anchor of the question (`q-signatures`, ...).
    pub id: &'static str,
    /// The question.
    pub title: String,
    /// The table's column heads.
    pub head: Vec<String>,
    /// Its rows.
    pub rows: Vec<Vec<String>>,
    /// The answers.
    pub verdicts: Vec<Verdict>,
}

/// pqlab against the fastest peer of one operation.
#[derive(Clone, Debug, serde::Serialize)]
pub struct PeerRow {
    /// Algorithm (pqlab's name).
    pub alg: String,
    /// Operation.
    pub op: Op,
    /// Message length (sign, verify).
    pub msg_len: Option<usize>,
    /// pqlab's median, ns.
    pub pqlab_ns: f64,
    /// The fastest peer.
    pub peer: String,
    /// Its median, ns.
    pub peer_ns: f64,
    /// pqlab / peer (below 1: pqlab is faster).
    pub ratio: f64,
}

/// pqlab against the fastest peers.
#[derive(Clone, Debug, serde::Serialize)]
pub struct PeerStanding {
    /// One row per operation of pqlab that a peer also measured.
    pub rows: Vec<PeerRow>,
    /// The verdict.
    pub verdict: Verdict,
}

/// The summary of a report (the JSON report's `summary` field).
#[derive(Clone, Debug, serde::Serialize)]
pub struct Summary {
    /// The message length of the sign and verify figures, bytes.
    pub msg_len: Option<usize>,
    /// The questions, in page order.
    pub questions: Vec<Question>,
    /// pqlab against the fastest peers (runs with `--peers`).
    pub peers: Option<PeerStanding>,
}

/// The NIST security category of a parameter set.
pub fn level(alg: &str) -> Option<u8> {
    Some(match alg {
        "falcon-512" | "fn-dsa-512" | "ml-kem-512" => 1,
        "ml-dsa-44" => 2,
        "ml-dsa-65" | "ml-kem-768" => 3,
        "ml-dsa-87" | "falcon-1024" | "fn-dsa-1024" | "ml-kem-1024" => 5,
        _ => return None,
    })
}

/// The signatures' tiers: categories 1 and 2 are compared together (Falcon-512 is category
/// 1, ML-DSA-44 category 2: the smallest parameter set of each).
fn tier(alg: &str) -> Option<&'static str> {
    match level(alg)? {
        1 | 2 => Some("1-2"),
        3 => Some("3"),
        4 | 5 => Some("5"),
        _ => None,
    }
}

/// The name as the standards write it: `ML-DSA-44`, `Falcon-512`, `FN-DSA-512`, `ML-KEM-768`.
pub fn pretty(alg: &str) -> String {
    match alg.strip_prefix("falcon-") {
        Some(n) => format!("Falcon-{n}"),
        None => alg.to_ascii_uppercase(),
    }
}

/// Microseconds with a unit.
fn t(ns: f64) -> String {
    format!("{} us", super::us(ns))
}

/// A ratio as the verdicts write it (`2.4x`, `39x`).
fn x(ratio: f64) -> String {
    if ratio >= 10.0 {
        format!("{ratio:.0}x")
    } else {
        format!("{ratio:.1}x")
    }
}

/// pqlab's plain measurement of `alg` `op` at `msg_len`.
fn ours<'a>(r: &'a Report, alg: &str, op: Op, msg_len: Option<usize>) -> Option<&'a ResultRow> {
    r.results.iter().find(|x| {
        x.implementation == crate::ours::PQLAB
            && x.variant.is_none()
            && x.alg == alg
            && x.op == op
            && x.msg_len == if op.takes_message() { msg_len } else { None }
    })
}

fn median(r: &Report, alg: &str, op: Op, msg_len: Option<usize>) -> Option<f64> {
    ours(r, alg, op, msg_len).map(|x| x.summary.median_ns)
}

fn size<'a>(r: &'a Report, alg: &str) -> Option<&'a SizeRow> {
    r.sizes
        .iter()
        .find(|s| s.implementation == crate::ours::PQLAB && s.alg == alg)
}

/// pqlab's algorithms of one kind, in report order.
fn our_algs(r: &Report, signature: bool) -> Vec<String> {
    let mut v: Vec<String> = Vec::new();
    for s in r
        .sizes
        .iter()
        .filter(|s| s.implementation == crate::ours::PQLAB)
    {
        if s.signature.is_some() == signature && !v.contains(&s.alg) {
            v.push(s.alg.clone());
        }
    }
    v
}

/// One finding of a pair comparison: who wins, the sentence with the winner as subject and
/// the same with "it" (for a second finding of the same winner); or a tie ("within N %").
enum Finding {
    Win {
        winner: String,
        short: &'static str,
        subject: String,
        pronoun: String,
    },
    Tie(String),
}

/// The finding on a figure where smaller is better: `what` is (verb, noun) as in ("verifies",
/// "verification"); `bytes` marks the size figure.
fn finding(what: (&'static str, &'static str), a: &str, va: f64, b: &str, vb: f64) -> Finding {
    let (win, lose, ratio) = if va <= vb {
        (a, b, vb / va)
    } else {
        (b, a, va / vb)
    };
    if ratio < CLOSE {
        return Finding::Tie(format!("{} within {:.0} %", what.1, (ratio - 1.0) * 100.0));
    }
    let (subject, pronoun) = if what.0 == "bytes" {
        (
            format!(
                "{}'s public key + signature is {} smaller than {}'s ({} vs {} bytes)",
                pretty(win),
                x(ratio),
                pretty(lose),
                va.min(vb),
                va.max(vb)
            ),
            format!("its public key + signature is {} smaller", x(ratio)),
        )
    } else {
        (
            format!("{} {} {} faster", pretty(win), what.0, x(ratio)),
            format!("it {} {} faster", what.0, x(ratio)),
        )
    };
    Finding::Win {
        winner: win.to_string(),
        short: what.1,
        subject,
        pronoun,
    }
}

/// The verdict comparing two signature schemes of one tier: the findings grouped by winner
/// ("A's public key + signature is 2.4x smaller than B's (..) and it verifies 3.7x faster;
/// B generates keys 39x faster; signing within 15 %"), then which to choose for what.
fn signature_pair(r: &Report, level: &str, a: &str, b: &str, msg: Option<usize>) -> Verdict {
    let mut found = Vec::new();
    if let (Some(sa), Some(sb)) = (size(r, a), size(r, b)) {
        found.push(finding(
            ("bytes", "sizes"),
            a,
            sa.public_plus_output as f64,
            b,
            sb.public_plus_output as f64,
        ));
    }
    for (what, op) in [
        (("verifies", "verification"), Op::Verify),
        (("generates keys", "key generation"), Op::Keygen),
        (("signs", "signing"), Op::Sign),
    ] {
        if let (Some(va), Some(vb)) = (median(r, a, op, msg), median(r, b, op, msg)) {
            found.push(finding(what, a, va, b, vb));
        }
    }
    let mut winners: Vec<String> = Vec::new();
    for f in &found {
        if let Finding::Win { winner, .. } = f
            && !winners.contains(winner)
        {
            winners.push(winner.clone());
        }
    }
    let mut clauses = Vec::new();
    let mut choice = Vec::new();
    for w in &winners {
        let mine: Vec<(&String, &String, &'static str)> = found
            .iter()
            .filter_map(|f| match f {
                Finding::Win {
                    winner,
                    short,
                    subject,
                    pronoun,
                } if winner == w => Some((subject, pronoun, *short)),
                _ => None,
            })
            .collect();
        let mut clause = mine[0].0.clone();
        for m in &mine[1..] {
            clause.push_str(" and ");
            clause.push_str(m.1);
        }
        clauses.push(clause);
        let on: Vec<&str> = mine.iter().map(|m| m.2).collect();
        choice.push(format!("{} for {}", pretty(w), on.join(" and ")));
    }
    for f in &found {
        if let Finding::Tie(t) = f {
            clauses.push(t.clone());
        }
    }
    let mut text = format!("level {level}: {}.", clauses.join("; "));
    if !choice.is_empty() {
        text.push_str(&format!(" Choose {}.", choice.join(", ")));
    }
    Verdict {
        text,
        evidence: vec![
            "t-sizes".into(),
            "t-latency".into(),
            "chart-sizes".into(),
            "chart-latency-sign".into(),
            "chart-latency-verify".into(),
        ],
    }
}

/// Question 1: which signature at each security level, at what cost.
fn signatures(r: &Report, msg: Option<usize>) -> Option<Question> {
    let algs = our_algs(r, true);
    if algs.is_empty() {
        return None;
    }
    let mut rows = Vec::new();
    for a in &algs {
        let s = size(r, a);
        let cell = |op| median(r, a, op, msg).map_or("-".into(), t);
        rows.push(vec![
            pretty(a),
            level(a).map_or("-".into(), |l| l.to_string()),
            s.map_or("-".into(), |s| s.public_plus_output.to_string()),
            cell(Op::Keygen),
            cell(Op::Sign),
            cell(Op::Verify),
        ]);
    }
    let mut verdicts = Vec::new();
    for lv in ["1-2", "3", "5"] {
        let here: Vec<&String> = algs.iter().filter(|a| tier(a) == Some(lv)).collect();
        match here.as_slice() {
            [] => {}
            [only] => {
                let s = size(r, only).map_or(String::new(), |s| {
                    format!("public key + signature {} bytes; ", s.public_plus_output)
                });
                let times: Vec<String> = [Op::Keygen, Op::Sign, Op::Verify]
                    .into_iter()
                    .filter_map(|op| {
                        median(r, only, op, msg).map(|v| format!("{} {}", op.name(), t(v)))
                    })
                    .collect();
                verdicts.push(Verdict {
                    text: format!(
                        "level {lv}: {} is the only signature measured here ({s}{}).",
                        pretty(only),
                        times.join(", ")
                    ),
                    evidence: vec!["t-sizes".into(), "t-latency".into()],
                });
            }
            many => {
                for i in 0..many.len() {
                    for j in i + 1..many.len() {
                        verdicts.push(signature_pair(r, lv, many[i], many[j], msg));
                    }
                }
            }
        }
    }
    Some(Question {
        id: "q-signatures",
        title: format!(
            "Which signature at each security level, at what cost? (pqlab's implementations, \
             median time{})",
            msg.map_or(String::new(), |l| format!(", {l}-byte messages"))
        ),
        head: ["scheme", "level", "pk + sig B", "keygen", "sign", "verify"]
            .map(String::from)
            .to_vec(),
        rows,
        verdicts,
    })
}

/// Question 2: which side of a key exchange (and of a handshake's signature) pays.
fn sides(r: &Report, msg: Option<usize>) -> Option<Question> {
    let mut rows = Vec::new();
    let mut verdicts = Vec::new();
    let mut kems: Vec<(String, f64, f64, f64, usize, usize)> = Vec::new();
    for a in our_algs(r, false) {
        let (Some(kg), Some(enc), Some(dec)) = (
            median(r, &a, Op::Keygen, None),
            median(r, &a, Op::Encaps, None),
            median(r, &a, Op::Decaps, None),
        ) else {
            continue;
        };
        let s = size(r, &a);
        let (ek, ct) = s.map_or((0, 0), |s| (s.public_key, s.ciphertext.unwrap_or(0)));
        let client = kg + dec;
        rows.push(vec![
            pretty(&a),
            t(kg),
            t(enc),
            t(dec),
            t(client),
            t(enc),
            ek.to_string(),
            ct.to_string(),
        ]);
        kems.push((a.clone(), client, enc, dec, ek, ct));
    }
    if !kems.is_empty() {
        let who: Vec<String> = kems
            .iter()
            .map(|(a, client, enc, ..)| {
                if client >= enc {
                    format!("{} the client {}", pretty(a), x(client / enc))
                } else {
                    format!("{} the server {}", pretty(a), x(enc / client))
                }
            })
            .collect();
        let d: Vec<f64> = kems.iter().map(|k| k.3 / k.2).collect();
        let (dlo, dhi) = d
            .iter()
            .fold((f64::INFINITY, 0.0f64), |(l, h), v| (l.min(*v), h.max(*v)));
        let eks: Vec<String> = kems.iter().map(|k| k.4.to_string()).collect();
        let cts: Vec<String> = kems.iter().map(|k| k.5.to_string()).collect();
        verdicts.push(Verdict {
            text: format!(
                "Who pays more (client: keygen + decaps; server: encaps): {}. Decaps alone costs \
                 {}{} encaps. The client sends the encapsulation key ({} bytes), the server the \
                 ciphertext ({}).",
                who.join(", "),
                x(dlo),
                if dhi / dlo > 1.05 {
                    format!("-{}", x(dhi))
                } else {
                    String::new()
                },
                eks.join(", "),
                cts.join(", ")
            ),
            evidence: vec![
                "t-latency".into(),
                "chart-latency-encaps".into(),
                "chart-latency-decaps".into(),
            ],
        });
    }
    // In the handshake's authentication the server signs and the client verifies.
    let sig: Vec<String> = our_algs(r, true)
        .iter()
        .filter_map(|a| {
            let s = median(r, a, Op::Sign, msg)?;
            let v = median(r, a, Op::Verify, msg)?;
            Some(if s >= v {
                format!("{} {}", pretty(a), x(s / v))
            } else {
                format!("{} {} less (the client pays more)", pretty(a), x(v / s))
            })
        })
        .collect();
    if !sig.is_empty() {
        verdicts.push(Verdict {
            text: format!(
                "Authentication: the server signs and the client verifies; the server's signing \
                 costs this many times the client's verification: {}.",
                sig.join(", ")
            ),
            evidence: vec![
                "t-latency".into(),
                "chart-latency-sign".into(),
                "chart-latency-verify".into(),
            ],
        });
    }
    if rows.is_empty() && verdicts.is_empty() {
        return None;
    }
    Some(Question {
        id: "q-sides",
        title: "Which side of a key exchange pays? (TLS 1.3: the client generates a key pair and \
                decapsulates, the server encapsulates)"
            .into(),
        head: [
            "KEM",
            "keygen",
            "encaps",
            "decaps",
            "client",
            "server",
            "client sends B",
            "server sends B",
        ]
        .map(String::from)
        .to_vec(),
        rows,
        verdicts,
    })
}

/// The cost of one use of `alg` for a device: sign + verify, or keygen + encaps + decaps;
/// (joules or ns, whether joules).
fn use_cost(r: &Report, alg: &str, signature: bool, msg: Option<usize>) -> Option<(f64, bool)> {
    let ops: &[Op] = if signature {
        &[Op::Sign, Op::Verify]
    } else {
        &[Op::Keygen, Op::Encaps, Op::Decaps]
    };
    let rows: Vec<&ResultRow> = ops
        .iter()
        .map(|&op| ours(r, alg, op, msg))
        .collect::<Option<_>>()?;
    let joules: Option<f64> = rows.iter().map(|x| x.energy_j).sum();
    Some(match joules {
        Some(j) => (j, true),
        None => (rows.iter().map(|x| x.summary.median_ns).sum(), false),
    })
}

fn cost_text(v: f64, joules: bool) -> String {
    if joules {
        format!("{:.2} uJ", v * 1e6)
    } else {
        t(v)
    }
}

/// Question 3: what a battery-powered device can afford.
fn battery(r: &Report, msg: Option<usize>) -> Option<Question> {
    let model = r.config.power_model.as_ref();
    let mut rows = Vec::new();
    let mut verdicts = Vec::new();
    for signature in [true, false] {
        let algs = our_algs(r, signature);
        let mut costs: Vec<(String, f64, bool, usize, usize)> = Vec::new();
        for a in &algs {
            let Some((c, joules)) = use_cost(r, a, signature, msg) else {
                continue;
            };
            let stack = r
                .results
                .iter()
                .filter(|x| x.implementation == crate::ours::PQLAB && x.alg == *a)
                .filter_map(|x| x.stack_bytes)
                .max()
                .unwrap_or(0);
            let bytes = size(r, a).map_or(0, |s| s.public_plus_output);
            let per_battery = model.map_or("-".into(), |m| {
                if joules {
                    format!("{:.2e}", m.battery_joules / c)
                } else {
                    "-".into()
                }
            });
            rows.push(vec![
                pretty(a),
                if signature {
                    "sign + verify"
                } else {
                    "keygen + encaps + decaps"
                }
                .into(),
                cost_text(c, joules),
                per_battery,
                bytes.to_string(),
                stack.to_string(),
            ]);
            costs.push((a.clone(), c, joules, bytes, stack));
        }
        let tiers: &[&str] = if signature {
            &["1-2", "3", "5"]
        } else {
            &["1", "3", "5"]
        };
        let mut parts = Vec::new();
        for lv in tiers {
            let here: Vec<&(String, f64, bool, usize, usize)> = costs
                .iter()
                .filter(|c| {
                    if signature {
                        tier(&c.0) == Some(lv)
                    } else {
                        level(&c.0).map(|l| l.to_string()).as_deref() == Some(*lv)
                    }
                })
                .collect();
            if here.len() < 2 {
                continue;
            }
            let cheap = here.iter().min_by(|p, q| p.1.total_cmp(&q.1)).copied();
            let dear = here.iter().max_by(|p, q| p.1.total_cmp(&q.1)).copied();
            let small = here.iter().min_by_key(|p| p.3).copied();
            let low = here.iter().min_by_key(|p| p.4).copied();
            if let (Some(c), Some(d), Some(s), Some(l)) = (cheap, dear, small, low) {
                parts.push(format!(
                    "level {lv}: {} costs least per use ({} vs {}, {} less); {} sends the fewest \
                     bytes ({}); {} needs the least stack ({} B)",
                    pretty(&c.0),
                    cost_text(c.1, c.2),
                    cost_text(d.1, d.2),
                    x(d.1 / c.1),
                    pretty(&s.0),
                    s.3,
                    pretty(&l.0),
                    l.4
                ));
            }
        }
        if !parts.is_empty() {
            verdicts.push(Verdict {
                text: format!("{}.", parts.join("; ")),
                evidence: vec!["t-sizes".into(), "t-memory".into(), "t-latency".into()],
            });
        }
    }
    if rows.is_empty() {
        return None;
    }
    let basis = match model {
        Some(m) => format!(
            "energy ESTIMATED from the power model {} ({} W), not measured; battery: {}",
            m.name, m.watts, m.battery
        ),
        None => "no power model in this run (--power-profile adds energy): median time per use"
            .to_string(),
    };
    verdicts.push(Verdict {
        text: format!(
            "Basis: {basis}. Bytes sent cost radio energy too; peak stack decides whether it fits \
             a small device's RAM."
        ),
        evidence: vec!["t-memory".into()],
    });
    let mut head: Vec<String> = [
        "scheme",
        "use",
        "cost",
        "uses per battery",
        "bytes sent",
        "peak stack B",
    ]
    .map(String::from)
    .to_vec();
    if model.is_none() {
        head.remove(3);
        for row in &mut rows {
            row.remove(3);
        }
    }
    Some(Question {
        id: "q-battery",
        title: "What can a battery-powered device afford? (pqlab, per use)".into(),
        head,
        rows,
        verdicts,
    })
}

/// pqlab's algorithm that a peer's `alg` is compared with (FN-DSA is Falcon's successor).
fn counterpart(alg: &str) -> String {
    match alg.strip_prefix("fn-dsa-") {
        Some(n) => format!("falcon-{n}"),
        None => alg.to_string(),
    }
}

/// pqlab against the fastest peer of each operation.
fn peers(r: &Report, msg: Option<usize>) -> Option<PeerStanding> {
    let mut rows = Vec::new();
    for o in r.results.iter().filter(|x| {
        x.implementation == crate::ours::PQLAB
            && x.variant.is_none()
            && (x.msg_len.is_none() || x.msg_len == msg)
    }) {
        let best = r
            .results
            .iter()
            .filter(|p| {
                p.implementation != crate::ours::PQLAB
                    && p.variant.is_none()
                    && counterpart(&p.alg) == o.alg
                    && p.op == o.op
                    && p.msg_len == o.msg_len
            })
            .min_by(|p, q| p.summary.median_ns.total_cmp(&q.summary.median_ns));
        if let Some(p) = best {
            rows.push(PeerRow {
                alg: o.alg.clone(),
                op: o.op,
                msg_len: o.msg_len,
                pqlab_ns: o.summary.median_ns,
                peer: p.implementation.clone(),
                peer_ns: p.summary.median_ns,
                ratio: o.summary.median_ns / p.summary.median_ns,
            });
        }
    }
    if rows.is_empty() {
        return None;
    }
    let faster = rows.iter().filter(|p| p.ratio < 1.0).count();
    let mut ratios: Vec<f64> = rows.iter().map(|p| p.ratio).collect();
    ratios.sort_by(f64::total_cmp);
    let mid = crate::measure::quantile(&ratios, 0.5);
    let mut slower: Vec<&PeerRow> = rows.iter().filter(|p| p.ratio >= CLOSE).collect();
    slower.sort_by(|p, q| q.ratio.total_cmp(&p.ratio));
    let mut text = format!(
        "pqlab is faster than the fastest peer in {faster} of {} operations (median ratio \
         pqlab / fastest peer {mid:.2})",
        rows.len()
    );
    if slower.is_empty() {
        text.push_str("; it is nowhere more than 15 % slower.");
    } else {
        let list: Vec<String> = slower
            .iter()
            .take(4)
            .map(|p| {
                format!(
                    "{} {} ({}, {})",
                    pretty(&p.alg),
                    p.op.name(),
                    p.peer,
                    x(p.ratio)
                )
            })
            .collect();
        text.push_str(&format!(
            "; slower by more than 15 % in {}: {}{}.",
            slower.len(),
            list.join(", "),
            if slower.len() > 4 { ", ..." } else { "" }
        ));
    }
    Some(PeerStanding {
        rows,
        verdict: Verdict {
            text,
            evidence: vec!["t-peers".into(), "chart-peer-ratio".into()],
        },
    })
}

/// The summary of `r`.
pub fn of(r: &Report) -> Summary {
    let msg = r.config.msg_sizes.first().copied();
    Summary {
        msg_len: msg,
        questions: [signatures(r, msg), sides(r, msg), battery(r, msg)]
            .into_iter()
            .flatten()
            .collect(),
        peers: peers(r, msg),
    }
}

#[cfg(test)]
#[path = "summary_tests.rs"]
mod tests;
