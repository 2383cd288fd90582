//! `pqlab compare --peers` on C2SP CCTV's ML-DSA benchmark set (quick settings, ML-DSA-44,
//! signing only): the peers' rows are there, in the JSON with their `variant`, and in the
//! terminal and HTML reports' tables.
#![cfg(feature = "peers")]

use pqlab_lab::registry::Op;
use pqlab_lab::run::{Config, run};

#[test]
fn the_peers_cctv_rows_reach_every_report() {
    if pqlab_lab::cctv_benchmark_dir_for_tests().is_none() {
        return;
    }
    let mut config = Config::quick();
    config.algs = vec!["ml-dsa-44".into()];
    config.ops = vec![Op::Sign];
    config.peers = true;
    let report = run(&config, &mut |_, _, _| {}).unwrap();
    let cctv = |imp: &str, v: &str| {
        report.results.iter().find(|r| {
            r.implementation == imp && r.alg == "ml-dsa-44" && r.variant.as_deref() == Some(v)
        })
    };
    for imp in ["pqlab", "libcrux", "rustcrypto", "liboqs"] {
        let row = cctv(imp, "cctv benchmark")
            .unwrap_or_else(|| panic!("{imp}: no cctv row; notes {:?}", report.notes));
        assert_eq!(row.op, Op::Sign);
        assert_eq!(row.summary.iterations, 188, "{imp}: one value per message");
        assert!(row.signing_loops.as_ref().unwrap().ns_per_loop.is_some());
        assert!(cctv(imp, "one signing loop").is_some(), "{imp}");
    }
    for imp in ["pqcrypto", "aws-lc-rs"] {
        assert!(cctv(imp, "cctv benchmark, randomized").is_some(), "{imp}");
    }
    let json: serde_json::Value =
        serde_json::from_str(&pqlab_lab::report::json::to_json(&report).unwrap()).unwrap();
    let rows = json["results"].as_array().unwrap();
    let libcrux = rows
        .iter()
        .find(|r| r["impl"] == "libcrux" && r["variant"] == "cctv benchmark")
        .unwrap();
    assert_eq!(libcrux["op"], "sign");
    assert!(libcrux["signing_loops"]["ns_per_loop"].as_f64().unwrap() > 0.0);
    for field in ["median_ns", "mean_ns", "iterations", "msg_len"] {
        assert!(libcrux.get(field).is_some(), "{field}");
    }
    let text = pqlab_lab::report::text::summary(&report);
    assert!(text.contains("C2SP CCTV's benchmark set"), "{text}");
    assert!(text.contains("message-length effect"));
    let html = pqlab_lab::report::html::to_html(&report).unwrap();
    assert!(html.contains("id=\"t-cctv\"") && html.contains("id=\"t-msg-length\""));
}
