//! `pqlab compare --reductions`: the reduction-strategy table is in the terminal output, in the
//! JSON (a `reductions` array beside the fields of DESIGN §4) and in the HTML report, with every
//! module under every strategy.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common;

use common::{run, stdout};
use serde_json::Value;

const MODULES: [&str; 6] = [
    "falcon-512 verify",
    "falcon-1024 verify",
    "falcon-512 keygen",
    "falcon-1024 keygen",
    "ml-dsa-65",
    "ml-kem-768",
];
const STRATEGIES: [&str; 4] = ["montgomery", "barrett", "k2-red", "plain-%"];

#[test]
fn quick_reductions_table_has_every_module_and_strategy() {
    let dir = tempfile::tempdir().unwrap();
    let (json, html) = (dir.path().join("r.json"), dir.path().join("r.html"));
    let out = run(&[
        "compare",
        "--reductions",
        "--quick",
        "--json",
        json.to_str().unwrap(),
        "--html",
        html.to_str().unwrap(),
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = stdout(&out);
    assert!(text.contains("against the study"), "{text}");

    let v: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    for key in ["machine", "config", "sizes", "results"] {
        assert!(v.get(key).is_some(), "JSON lacks {key}");
    }
    let rows = v["reductions"].as_array().unwrap();
    assert_eq!(rows.len(), MODULES.len() * STRATEGIES.len());
    for m in MODULES {
        for s in STRATEGIES {
            let row = rows
                .iter()
                .find(|r| r["module"] == m && r["strategy"] == s)
                .unwrap_or_else(|| panic!("no row for {m} / {s}"));
            assert!(row["ntt_ns"].as_f64().unwrap() > 0.0, "{m} / {s}");
            assert!(row["intt_ns"].as_f64().unwrap() > 0.0, "{m} / {s}");
            assert!(row["table_bytes"].as_u64().unwrap() > 0, "{m} / {s}");
            assert!(row["reduction"].as_str().is_some_and(|r| !r.is_empty()));
            if s == "montgomery" {
                assert_eq!(row["ntt_change_pct"].as_f64(), Some(0.0));
            }
            if cfg!(target_arch = "x86_64") {
                assert!(row["ntt_cycles"].as_f64().unwrap() > 0.0);
            }
            // Every whole operation is measured, Falcon key generation included.
            assert!(row["op_ns"].as_f64().unwrap() > 0.0, "{m} / {s}");
            if cfg!(target_arch = "x86_64") {
                assert!(row["op_cycles"].as_f64().unwrap() > 0.0, "{m} / {s}");
            }
            if s == "montgomery" {
                assert_eq!(row["op_change_pct"].as_f64(), Some(0.0), "{m}");
            } else {
                assert!(row["op_change_pct"].as_f64().is_some(), "{m} / {s}");
            }
            assert_eq!(row["constant_time"].as_bool(), Some(s != "plain-%"));
        }
        assert!(text.contains(m), "terminal table lacks {m}");
    }
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.contains("id=\"reductions\"") && page.contains("id=\"reductions-chart\""));
}
