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
        .chain(
            KEMS.iter()
                .flat_map(|a| ["keygen", "encaps", "decaps"].map(|o| (*a, o))),
        )
        .collect();
    assert_eq!(results.len(), expected.len());
    for (alg, op) in expected {
        let r = results
            .iter()
            .find(|r| r["alg"] == alg && r["op"] == op)
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
    assert!(csv.starts_with("impl,alg,op,msg_len,iterations,median_ns"));
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
    assert_eq!(results.len(), 4);
    for r in results {
        assert_eq!(r["alg"], "ml-dsa-65");
        assert!(r["op"] == "sign" || r["op"] == "verify");
        assert!(r["msg_len"] == 32 || r["msg_len"] == 1024);
    }
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
        "--peers",
        "--algs",
        "ml-dsa-65,ml-kem-768",
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
    assert_eq!(checks.len(), 4);
    assert!(checks.iter().all(|c| c["passed"] == true), "{checks:?}");
    let results = v["results"].as_array().unwrap();
    for imp in ["pqlab", "rustcrypto", "pqcrypto"] {
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
