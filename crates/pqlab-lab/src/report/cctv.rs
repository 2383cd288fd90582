//! ML-DSA signing on C2SP CCTV's benchmark set, pqlab beside the peers, and the
//! message-length study with one signing-loop iteration per signature
//! ([`crate::ours::cctv`]): the terminal's tables (`--verbose`) and the HTML report's.

use std::fmt::Write as _;

use super::us;
use crate::ours::PQLAB;
use crate::ours::cctv::{LENGTHS, MU_VARIANT, ONE_LOOP_VARIANT, RANDOMIZED_VARIANT, VARIANT};
use crate::run::{Report, ResultRow};

/// A table: title, head, rows.
pub(super) struct Part {
    pub(super) title: String,
    pub(super) head: Vec<String>,
    pub(super) rows: Vec<Vec<String>>,
}

fn is(x: &ResultRow, v: &str) -> bool {
    x.variant.as_deref() == Some(v)
}

/// Time per loop iteration of a row on the set: its mean time over its mean loop count, ns.
fn per_loop(x: &ResultRow) -> Option<f64> {
    let l = x.signing_loops.as_ref()?;
    (l.mean > 0.0).then(|| x.summary.mean_ns / l.mean)
}

/// The set's table: every implementation's mean signing time and time per loop iteration.
pub(super) fn set_table(r: &Report) -> Part {
    let head = [
        "algorithm",
        "impl",
        "messages",
        "mean us",
        "mean loops",
        "us per loop iteration",
        "per iteration / pqlab's",
        "fit: us per extra iteration",
        "fit: fixed us",
    ];
    let mut rows = Vec::new();
    for x in r
        .results
        .iter()
        .filter(|x| is(x, VARIANT) || is(x, RANDOMIZED_VARIANT))
    {
        let ours = r
            .results
            .iter()
            .find(|o| o.implementation == PQLAB && o.alg == x.alg && is(o, VARIANT))
            .and_then(per_loop);
        let l = x.signing_loops.as_ref();
        let imp = if is(x, RANDOMIZED_VARIANT) {
            format!("{} (randomized)", x.implementation)
        } else {
            x.implementation.clone()
        };
        rows.push(vec![
            x.alg.clone(),
            imp,
            x.summary.iterations.to_string(),
            us(x.summary.mean_ns),
            l.map_or("- (own rnd)".into(), |l| format!("{:.3}", l.mean)),
            per_loop(x).map_or("-".into(), us),
            per_loop(x)
                .zip(ours)
                .map_or("-".into(), |(a, b)| format!("{:.2}", a / b)),
            l.and_then(|l| l.loop_ns).map_or("-".into(), us),
            l.and_then(|l| l.fixed_ns).map_or("-".into(), us),
        ]);
    }
    Part {
        title: "ML-DSA signing on C2SP CCTV's benchmark set (key from the all-zero seed, rnd = 0, \
                empty context; one value per message, the median of its rounds). Deterministic \
                peers' signatures were checked equal to pqlab's, so they ran pqlab's loop counts: \
                per iteration = mean time / mean loops"
            .into(),
        head: head.map(str::to_string).to_vec(),
        rows,
    }
}

/// Hashing cost per byte of a study row series: the slope between 64 KiB and 1 MiB, ns.
fn per_byte(series: &[Option<&ResultRow>]) -> Option<f64> {
    let at = |len: usize| {
        LENGTHS
            .iter()
            .position(|&l| l == len)
            .and_then(|i| series[i])
            .map(|x| x.summary.median_ns)
    };
    let (a, b) = (at(64 * 1024)?, at(1024 * 1024)?);
    Some((b - a) / (1024.0 * 1024.0 - 64.0 * 1024.0))
}

fn length_label(l: usize) -> String {
    match l {
        l if l >= 1 << 20 && l % (1 << 20) == 0 => format!("{} MiB", l >> 20),
        l if l >= 1024 && l % 1024 == 0 => format!("{} KiB", l >> 10),
        l => format!("{l} B"),
    }
}

/// The message-length study: median time per length of signing with one loop iteration and
/// of mu alone, and the cost per byte; and one line per algorithm on what it shows.
pub(super) fn length_table(r: &Report) -> (Part, Vec<String>) {
    let mut head = vec!["algorithm".to_string(), "impl".into(), "what".into()];
    head.extend(LENGTHS.iter().map(|&l| format!("{} us", length_label(l))));
    head.push("ns per byte".into());
    let mut rows = Vec::new();
    let mut keys: Vec<(String, String, &str)> = Vec::new();
    for x in &r.results {
        for v in [ONE_LOOP_VARIANT, MU_VARIANT] {
            let k = (x.alg.clone(), x.implementation.clone(), v);
            if is(x, v) && !keys.contains(&k) {
                keys.push(k);
            }
        }
    }
    let find = |alg: &str, imp: &str, v: &str, len: usize| {
        r.results
            .iter()
            .find(|x| x.alg == alg && x.implementation == imp && is(x, v) && x.msg_len == Some(len))
    };
    let mut lines = Vec::new();
    for (alg, imp, v) in &keys {
        let series: Vec<Option<&ResultRow>> =
            LENGTHS.iter().map(|&l| find(alg, imp, v, l)).collect();
        let mut row = vec![
            alg.clone(),
            imp.clone(),
            if *v == MU_VARIANT {
                "mu = H(tr || M') alone".into()
            } else {
                "sign, 1 loop iteration".into()
            },
        ];
        row.extend(
            series
                .iter()
                .map(|x| x.map_or("-".into(), |x| us(x.summary.median_ns))),
        );
        row.push(per_byte(&series).map_or("-".into(), |b| format!("{b:.2}")));
        rows.push(row);
        if imp == PQLAB && *v == ONE_LOOP_VARIANT {
            let iteration = r
                .results
                .iter()
                .find(|o| o.implementation == PQLAB && o.alg == *alg && is(o, VARIANT))
                .and_then(|o| o.signing_loops.as_ref())
                .and_then(|l| l.loop_ns);
            let (first, last) = (series[0], series[LENGTHS.len() - 1]);
            if let (Some(b), Some(f), Some(l)) = (per_byte(&series), first, last) {
                let added = l.summary.median_ns - f.summary.median_ns;
                lines.push(format!(
                    "{alg}: with the loop count held at one, signing time grows by {b:.2} ns per \
                     message byte (hashing M into mu); a 1 MiB message adds {} us to the {} us of \
                     an empty one{}",
                    us(added),
                    us(f.summary.median_ns),
                    iteration.map_or(String::new(), |it| format!(
                        ", as much as {:.1} extra loop iterations ({} us each on the CCTV set); \
                         below about {:.0} bytes the message costs less than a tenth of one \
                         iteration",
                        added / it,
                        us(it),
                        0.1 * it / b.max(1e-9)
                    ))
                ));
            }
        }
    }
    let part = Part {
        title: "ML-DSA message-length effect without rejection-loop noise: at each length a \
                message that signs with exactly one loop iteration (same message, key and rnd = 0 \
                for every implementation; peers' signatures checked equal to pqlab's), median us; \
                ns per byte between 64 KiB and 1 MiB"
            .into(),
        head,
        rows,
    };
    (part, lines)
}

/// The terminal's tables.
pub(super) fn text(r: &Report, out: &mut String) {
    let set = set_table(r);
    let mut t = super::text::Table::new(&[]);
    t.head = set.head;
    t.rows = set.rows;
    t.render(&set.title, out);
    let (len, lines) = length_table(r);
    let mut t = super::text::Table::new(&[]);
    t.head = len.head;
    t.rows = len.rows;
    t.render(&len.title, out);
    for l in lines {
        let _ = writeln!(out, "* {l}");
    }
}

/// The HTML report's tables.
pub(super) fn html(r: &Report, h: &mut String) {
    let set = set_table(r);
    if !set.rows.is_empty() {
        let _ = write!(h, "<h3>{}</h3>", super::html::esc(&set.title));
        h.push_str(&super::html::table("t-cctv", &set.head, &set.rows));
    }
    let (len, lines) = length_table(r);
    if !len.rows.is_empty() {
        let _ = write!(h, "<h3>{}</h3>", super::html::esc(&len.title));
        h.push_str(&super::html::table("t-msg-length", &len.head, &len.rows));
        h.push_str("<ul>");
        for l in lines {
            let _ = write!(h, "<li>{}</li>", super::html::esc(&l));
        }
        h.push_str("</ul>");
    }
}
