//! `pqlab compare`: the JSON report follows DESIGN §4 with every implementation, algorithm and
//! operation present; CSV and HTML are written; bad arguments are usage errors (exit 2); the
//! HTML page loads in headless Chromium and shows every chart.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::path::Path;
use std::process::Command;

use common::{assert_input_error, run, stdout};
use serde_json::Value;

const SIGS: [&str; 3] = ["ml-dsa-44", "ml-dsa-65", "ml-dsa-87"];
const FALCONS: [&str; 2] = ["falcon-512", "falcon-1024"];

/// The notes of a JSON report, one per line.
fn notes(json: &Value) -> String {
    json["notes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_str().unwrap())
        .collect::<Vec<_>>()
        .join("\n")
}
const KEMS: [&str; 3] = ["ml-kem-512", "ml-kem-768", "ml-kem-1024"];

fn path_str(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Runs the quick comparison once, writing all three reports.
fn quick_run(dir: &Path) -> (Value, String, String) {
    let (json, csv, html) = (
        dir.join("out.json"),
        dir.join("out.csv"),
        dir.join("out.html"),
    );
    let out = run(&[
        "compare",
        "--quick",
        "--verbose",
        "--iterations",
        "12",
        "--power-profile",
        "cortex-m4-168mhz",
        "--json",
        path_str(&json),
        "--csv",
        path_str(&csv),
        "--html",
        path_str(&html),
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = stdout(&out);
    assert!(text.contains("Sizes (bytes)") && text.contains("Signatures: median latency"));
    assert!(text.contains("ESTIMATE from a power model"));
    let json: Value = serde_json::from_str(&std::fs::read_to_string(json).unwrap()).unwrap();
    (
        json,
        std::fs::read_to_string(csv).unwrap(),
        std::fs::read_to_string(html).unwrap(),
    )
}

#[test]
fn quick_json_follows_the_schema_and_covers_everything() {
    let dir = tempfile::tempdir().unwrap();
    let (json, csv, html) = quick_run(dir.path());

    let machine = &json["machine"];
    assert!(machine["cpu"].is_string());
    assert!(machine["cores"].as_u64().unwrap() >= 1);
    assert!(machine["tsc_hz"].is_f64() || machine["tsc_hz"].is_null());
    assert!(machine["features"].is_array());
    assert!(machine["rustc"].as_str().unwrap().starts_with("rustc"));
    assert_eq!(json["config"]["iterations"], 12);
    assert_eq!(json["config"]["msg_sizes"], serde_json::json!([32]));

    let sizes = json["sizes"].as_array().unwrap();
    for (alg, pk, sig) in [
        ("ml-dsa-44", 1312, 2420),
        ("ml-dsa-65", 1952, 3309),
        ("ml-dsa-87", 2592, 4627),
    ] {
        let row = sizes.iter().find(|s| s["alg"] == alg).unwrap();
        assert_eq!(
            (row["impl"].as_str(), row["public_key"].as_u64()),
            (Some("pqlab"), Some(pk))
        );
        assert_eq!(row["signature"].as_u64(), Some(sig));
        assert!(row["ciphertext"].is_null());
    }
    // Falcon signatures vary in length: the longest and the mean of those made.
    let notes = notes(&json);
    // Every Falcon operation is measured, and the report names the floating-point back end.
    assert!(
        !notes.contains("falcon-512 keygen: not measured"),
        "{notes}"
    );
    assert!(
        notes.contains(&format!("floating point {}", pqlab_falcon::fpr::BACKEND)),
        "{notes}"
    );
    for (alg, pk, sk, bound) in [
        ("falcon-512", 897, 1281, 688),
        ("falcon-1024", 1793, 2305, 1328),
    ] {
        let row = sizes.iter().find(|s| s["alg"] == alg).unwrap();
        assert_eq!(
            (row["public_key"].as_u64(), row["secret_key"].as_u64()),
            (Some(pk), Some(sk))
        );
        assert_eq!(row["signature_varies"], true);
        assert_eq!(row["signature_bound"].as_u64(), Some(bound));
        let (max, mean) = (
            row["signature"].as_u64().unwrap(),
            row["signature_mean"].as_f64().unwrap(),
        );
        assert!(
            max <= bound && mean <= max as f64 && mean > 0.8 * bound as f64,
            "{row}"
        );
    }
    // The precomputed tables of every algorithm, in bytes.
    let tables = json["static_tables"].as_array().unwrap();
    assert_eq!(tables.len(), SIGS.len() + FALCONS.len() + KEMS.len());
    for t in tables {
        let total: u64 = t["tables"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x["bytes"].as_u64().unwrap())
            .sum();
        assert!(total > 0 && t["total_bytes"].as_u64() == Some(total), "{t}");
    }
    // The Welch pair of the smallest parameter sets: ML-DSA-44 against Falcon-512 signing.
    let welch = json["statistics"]["welch"].as_array().unwrap();
    assert!(
        welch
            .iter()
            .any(|c| c["a"] == "pqlab ml-dsa-44 sign 32B" && c["b"] == "pqlab falcon-512 sign 32B")
    );
    let kem = sizes.iter().find(|s| s["alg"] == "ml-kem-768").unwrap();
    assert_eq!(
        (kem["public_key"].as_u64(), kem["ciphertext"].as_u64()),
        (Some(1184), Some(1088))
    );
    assert!(kem["signature"].is_null());

    let results = json["results"].as_array().unwrap();
    let fields = [
        "impl",
        "alg",
        "op",
        "msg_len",
        "iterations",
        "median_ns",
        "mean_ns",
        "sd_ns",
        "cv",
        "p05_ns",
        "p95_ns",
        "min_ns",
        "max_ns",
        "median_cycles",
        "stack_bytes",
        "heap_bytes",
    ];
    let expected: Vec<(&str, &str)> = SIGS
        .iter()
        .flat_map(|a| ["keygen", "sign", "verify"].map(|o| (*a, o)))
        .chain(FALCONS.iter().flat_map(|a| {
            ["keygen", "sign", "verify"]
                .into_iter()
                .map(move |o| (*a, o))
        }))
        .chain(
            KEMS.iter()
                .flat_map(|a| ["keygen", "encaps", "decaps"].map(|o| (*a, o))),
        )
        .collect();
    // One more row per signature parameter set (ML-DSA and Falcon): signing with an expanded
    // key.
    let expanded = SIGS.len() + FALCONS.len();
    // And one per ML-DSA parameter set signing C2SP CCTV's benchmark set (where the vectors
    // folder is found: `PQLAB_VECTORS` or ../shared/vectors; the run notes it otherwise).
    let cctv: Vec<&Value> = results
        .iter()
        .filter(|r| r["variant"] == "cctv benchmark")
        .collect();
    if cctv.is_empty() {
        assert!(notes.contains("cctv benchmark"), "no cctv rows and no note");
    } else {
        assert_eq!(cctv.len(), SIGS.len());
        let r = cctv.iter().find(|r| r["alg"] == "ml-dsa-65").unwrap();
        assert_eq!(
            (r["iterations"].as_u64(), r["msg_len"].as_u64()),
            (Some(147), Some(26))
        );
    }
    assert_eq!(results.len(), expected.len() + expanded + cctv.len());
    // The studies' claims beside the run (where ../shared/papers is found).
    let published = &json["published"];
    assert!(published.is_object(), "no published section");
    if published["problems"].as_array().unwrap().is_empty() {
        assert_eq!(published["claims"].as_array().unwrap().len(), 105);
    }
    for alg in SIGS.into_iter().chain(FALCONS) {
        let r = results
            .iter()
            .find(|r| r["alg"] == alg && r["variant"] == "expanded key")
            .unwrap_or_else(|| panic!("no expanded-key signing for {alg}"));
        assert_eq!(
            (&r["op"], &r["impl"]),
            (&Value::from("sign"), &Value::from("pqlab"))
        );
    }
    for (alg, op) in expected {
        let r = results
            .iter()
            .find(|r| r["alg"] == alg && r["op"] == op && r["variant"].is_null())
            .unwrap_or_else(|| panic!("no result for {alg} {op}"));
        for f in fields {
            assert!(r.get(f).is_some(), "{alg} {op}: no field {f}");
        }
        assert_eq!(r["impl"], "pqlab");
        assert_eq!(r["iterations"], 12);
        let (min, med, max) = (
            r["min_ns"].as_f64().unwrap(),
            r["median_ns"].as_f64().unwrap(),
            r["max_ns"].as_f64().unwrap(),
        );
        assert!(
            min > 0.0 && min <= med && med <= max,
            "{alg} {op}: {min} {med} {max}"
        );
        let (p05, p95) = (r["p05_ns"].as_f64().unwrap(), r["p95_ns"].as_f64().unwrap());
        assert!(min <= p05 && p05 <= med && med <= p95 && p95 <= max);
        // pqlab's operations allocate nothing and use some stack.
        assert_eq!(r["heap_bytes"], 0, "{alg} {op} allocated");
        assert!(r["stack_bytes"].as_u64().unwrap() > 1000, "{alg} {op}");
        assert_eq!(r["msg_len"].is_null(), !matches!(op, "sign" | "verify"));
        assert!(r["energy_j"].as_f64().unwrap() > 0.0);
    }

    assert_eq!(csv.lines().count(), 1 + results.len());
    assert!(html.contains("id=\"static-tables\""));
    // The kernel profile exists only in builds with the `profile` feature.
    assert_eq!(json["profile"].is_null(), cfg!(not(feature = "profile")));
    assert!(csv.starts_with("impl,alg,op,msg_len,iterations,median_ns"));
    assert!(csv.lines().next().unwrap().ends_with(",energy_j,variant"));
    assert!(csv.contains(",falcon-512,sign,32,") && csv.contains(",expanded-key\n"));
    assert!(html.contains("<svg") && html.contains("id=\"chart-sizes\""));
}

#[test]
fn bad_arguments_are_usage_errors() {
    assert_input_error(
        &run(&["compare", "--quick", "--algs", "ml-dsa-99"]),
        &["ml-dsa-99"],
    );
    assert_input_error(&run(&["compare", "--quick", "--ops", "sing"]), &["sing"]);
    assert_input_error(
        &run(&["compare", "--quick", "--iterations", "0"]),
        &["iterations"],
    );
    assert_input_error(
        &run(&["compare", "--quick", "--power-profile", "toaster"]),
        &["toaster"],
    );
    assert_input_error(
        &run(&["compare", "--quick", "--json", "/nonexistent-dir/x.json"]),
        &["/nonexistent-dir/x.json"],
    );
}

#[test]
fn a_subset_runs_only_what_was_asked() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("sub.json");
    let out = run(&[
        "compare",
        "--quick",
        "--algs",
        "ml-dsa-65",
        "--ops",
        "sign,verify",
        "--msg-sizes",
        "32,1024",
        "--json",
        path_str(&json),
    ]);
    assert_eq!(out.status.code(), Some(0));
    let v: Value = serde_json::from_str(&std::fs::read_to_string(json).unwrap()).unwrap();
    let results = v["results"].as_array().unwrap();
    // Plain sign and verify at two lengths, and the expanded-key variant's signing at both
    // (and the CCTV benchmark set's signing, where the vectors are found).
    let results: Vec<&Value> = results
        .iter()
        .filter(|r| r["variant"] != "cctv benchmark")
        .collect();
    assert_eq!(results.len(), 6);
    for r in &results {
        assert_eq!(r["alg"], "ml-dsa-65");
        assert!(r["op"] == "sign" || r["op"] == "verify");
        assert!(r["msg_len"] == 32 || r["msg_len"] == 1024);
        if r["variant"] == "expanded key" {
            assert_eq!(r["op"], "sign");
        }
    }
    let variants = results.iter().filter(|r| r["variant"] == "expanded key");
    assert_eq!(variants.count(), 2);
}

/// The Chromium binary, if there is one.
fn chromium() -> Option<&'static str> {
    ["/usr/bin/chromium", "/usr/bin/chromium-browser"]
        .into_iter()
        .find(|p| Path::new(p).exists())
}

#[test]
fn the_html_report_loads_in_headless_chromium_with_every_chart() {
    let Some(browser) = chromium() else {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "no Chromium under CI=true: .ci/run installs Debian's chromium package"
        );
        println!("skipped: no chromium");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let html = dir.path().join("report.html");
    let out = run(&[
        "compare",
        "--quick",
        "--msg-sizes",
        "32,1024",
        "--html",
        path_str(&html),
    ]);
    assert_eq!(out.status.code(), Some(0));
    let profile = dir.path().join("profile");
    let page = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            &format!("--user-data-dir={}", profile.display()),
            "--dump-dom",
            &format!("file://{}", html.display()),
        ])
        .output()
        .unwrap();
    assert!(
        page.status.success(),
        "{}",
        String::from_utf8_lossy(&page.stderr)
    );
    let dom = String::from_utf8_lossy(&page.stdout);
    // The page as the browser built it: every chart is there with its drawing.
    for id in [
        "chart-sizes",
        "chart-latency-keygen",
        "chart-latency-sign",
        "chart-latency-verify",
        "chart-latency-encaps",
        "chart-latency-decaps",
        "chart-sign-histogram-ml-dsa-44",
        "chart-sign-histogram-ml-dsa-65",
        "chart-sign-histogram-ml-dsa-87",
        "chart-sign-histogram-falcon-512",
        "chart-sign-histogram-falcon-512-expanded-key",
        "chart-message-length",
    ] {
        let at = dom
            .find(&format!("id=\"{id}\""))
            .unwrap_or_else(|| panic!("no {id} in the page"));
        let figure = &dom[at..];
        let end = figure.find("</figure>").unwrap();
        assert!(
            figure[..end].contains("<svg") && figure[..end].contains("<rect"),
            "{id} has no drawing"
        );
    }
    assert!(dom.contains("id=\"results\"") && dom.contains("id=\"machine\""));
    assert!(!dom.contains("parsererror"), "the SVG did not parse");
}

/// With the `peers` feature: the peers are cross-checked against pqlab, then timed in the same
/// run, and the JSON holds every implementation.
#[cfg(feature = "peers")]
#[test]
fn peers_are_cross_checked_and_measured_side_by_side() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("peers.json");
    let out = run(&[
        "compare",
        "--quick",
        "--verbose",
        "--peers",
        "--algs",
        "ml-dsa-65,ml-kem-768,falcon-512",
        "--ops",
        "sign,verify,encaps,decaps",
        "--json",
        path_str(&json),
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout(&out).contains("Ratio of medians to peers"));
    let v: Value = serde_json::from_str(&std::fs::read_to_string(json).unwrap()).unwrap();
    let checks = v["peer_checks"].as_array().unwrap();
    // rustcrypto, pqcrypto, libcrux, liboqs and aws-lc-rs for ML-DSA-65 and ML-KEM-768;
    // pqcrypto and liboqs for Falcon-512; fn-dsa (FN-DSA, not byte-compatible with Falcon
    // round 3) passes the check of its keys and of its own signatures, and is timed beside
    // Falcon-512.
    assert_eq!(checks.len(), 13, "{checks:?}");
    for c in checks {
        assert_eq!(c["passed"], true, "{c}");
        if c["impl"] == "fn-dsa" {
            let detail = c["detail"].as_str().unwrap();
            assert!(
                detail.contains("fn-dsa keys are Falcon round-3 keys"),
                "{detail}"
            );
        }
    }
    let results = v["results"].as_array().unwrap();
    for (imp, alg, op) in [
        ("pqcrypto", "falcon-512", "sign"),
        ("pqcrypto", "falcon-512", "verify"),
        ("fn-dsa", "fn-dsa-512", "sign"),
        ("fn-dsa", "fn-dsa-512", "verify"),
        ("liboqs", "falcon-512", "sign"),
        ("liboqs", "falcon-512", "verify"),
    ] {
        assert!(
            results
                .iter()
                .any(|r| r["impl"] == imp && r["alg"] == alg && r["op"] == op),
            "no {imp} {alg} {op}"
        );
    }
    for imp in [
        "pqlab",
        "rustcrypto",
        "pqcrypto",
        "libcrux",
        "liboqs",
        "aws-lc-rs",
    ] {
        for (alg, op) in [
            ("ml-dsa-65", "sign"),
            ("ml-dsa-65", "verify"),
            ("ml-kem-768", "encaps"),
            ("ml-kem-768", "decaps"),
        ] {
            assert!(
                results
                    .iter()
                    .any(|r| r["impl"] == imp && r["alg"] == alg && r["op"] == op),
                "no {imp} {alg} {op}"
            );
        }
    }
    assert!(!v["statistics"]["welch"].as_array().unwrap().is_empty());
}

/// With the `profile` feature: every measurement of pqlab's code has its per-kernel shares,
/// which add up to at most 100 %, and the kernels that dominate each scheme are seen.
#[cfg(feature = "profile")]
#[test]
fn the_profile_shares_are_present_and_sum_to_at_most_100_percent() {
    let dir = tempfile::tempdir().unwrap();
    let (json, html) = (dir.path().join("p.json"), dir.path().join("p.html"));
    let out = run(&[
        "compare",
        "--quick",
        "--verbose",
        "--algs",
        "ml-dsa-44,ml-kem-512,falcon-512",
        "--json",
        path_str(&json),
        "--html",
        path_str(&html),
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout(&out).contains("Profile: share of each operation's time per kernel"));
    assert!(
        std::fs::read_to_string(html)
            .unwrap()
            .contains("id=\"profile\"")
    );
    let v: Value = serde_json::from_str(&std::fs::read_to_string(json).unwrap()).unwrap();
    let rows = v["profile"].as_array().unwrap();
    let pqlab_rows = v["results"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["impl"] == "pqlab")
        .count();
    assert_eq!(rows.len(), pqlab_rows);
    let share = |alg: &str, op: &str, kernel: &str| -> f64 {
        let row = rows
            .iter()
            .find(|r| r["alg"] == alg && r["op"] == op && r["variant"].is_null())
            .unwrap_or_else(|| panic!("no profile of {alg} {op}"));
        row["shares"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["kernel"] == kernel)
            .map_or(0.0, |s| s["percent"].as_f64().unwrap())
    };
    for r in rows {
        let sum: f64 = r["shares"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["percent"].as_f64().unwrap())
            .sum();
        assert!(sum > 0.0 && sum <= 100.0 + 1e-9, "{r}");
        let other = r["other_percent"].as_f64().unwrap();
        assert!((sum + other - 100.0).abs() < 1e-6, "{r}");
    }
    for (alg, op, kernel) in [
        ("ml-dsa-44", "sign", "keccak"),
        ("ml-dsa-44", "sign", "ntt"),
        ("ml-dsa-44", "verify", "intt"),
        ("ml-kem-512", "encaps", "sampling"),
        ("ml-kem-512", "decaps", "encoding"),
        ("falcon-512", "sign", "fft"),
        ("falcon-512", "sign", "ffsampling"),
        ("falcon-512", "verify", "ntt"),
    ] {
        assert!(share(alg, op, kernel) > 0.0, "no {kernel} in {alg} {op}");
    }
}

/// A keygen-only run of a signature scheme lists it under signatures, not KEMs.
#[test]
fn keygen_only_falcon_is_a_signature_row() {
    let out = run(&[
        "compare",
        "--quick",
        "--verbose",
        "--algs",
        "falcon-512,ml-kem-512",
        "--ops",
        "keygen",
    ]);
    assert_eq!(out.status.code(), Some(0));
    let text = stdout(&out);
    let sig = text.find("Signatures: median").expect("no signature table");
    let kem = text.find("KEMs: median").expect("no KEM table");
    // The first latency row of each algorithm after the signature table's title.
    let row = |alg: &str| sig + text[sig..].find(&format!("\n{alg} ")).expect(alg);
    let (falcon, mlkem) = (row("falcon-512"), row("ml-kem-512"));
    assert!(sig < falcon && falcon < kem && kem < mlkem, "{text}");
}

/// Without --verbose the terminal gets one screen: the answers first, then where the files went.
#[test]
fn the_default_terminal_output_is_one_screen_of_answers() {
    let dir = tempfile::tempdir().unwrap();
    let html = dir.path().join("r.html");
    let out = run(&[
        "compare",
        "--quick",
        "--algs",
        "ml-dsa-44,falcon-512,ml-kem-768",
        "--html",
        path_str(&html),
    ]);
    assert_eq!(out.status.code(), Some(0));
    let text = stdout(&out);
    assert!(text.lines().count() <= 45, "{text}");
    assert!(text.contains("* level 1-2: "), "{text}");
    assert!(text.contains("Who pays more"), "{text}");
    assert!(!text.contains("Welch"), "{text}");
    assert!(
        text.contains(&format!("HTML report: {}", html.display())),
        "{text}"
    );
    let page = std::fs::read_to_string(&html).unwrap();
    // The answers come before the charts and the tables, and link to them.
    let (answers, charts) = (
        page.find("id=\"answers\"").unwrap(),
        page.find("id=\"charts\"").unwrap(),
    );
    assert!(answers < charts && charts < page.find("id=\"results\"").unwrap());
    assert!(page.contains("href=\"#chart-sizes\""));
}
