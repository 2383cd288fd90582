//! The verdicts of a small synthetic report: each test would fail on a wrong winner, a wrong
//! ratio or a wrong side.

use super::*;
use crate::energy::PowerModel;
use crate::machine::Machine;
use crate::measure::Summary as Latency;
use crate::run::{ConfigRecord, Report, ResultRow, SizeRow};

fn row(imp: &str, alg: &str, op: Op, us: f64) -> ResultRow {
    ResultRow {
        implementation: imp.into(),
        alg: alg.into(),
        op,
        msg_len: op.takes_message().then_some(32),
        summary: Latency {
            iterations: 10,
            median_ns: us * 1000.0,
            mean_ns: us * 1000.0,
            ..Latency::default()
        },
        stack_bytes: Some(match alg {
            "falcon-512" => 40_000,
            _ => 20_000,
        }),
        heap_bytes: Some(0),
        alloc_count: Some(0),
        energy_j: None,
        ops_per_battery: None,
        shapiro_wilk: None,
        signing_loops: None,
        variant: None,
        signature_lengths: None,
        kernel_profile: None,
        sample_ns: Vec::new(),
    }
}

fn sizes(alg: &str, pk: usize, out: usize, sig: bool) -> SizeRow {
    SizeRow {
        implementation: "pqlab".into(),
        alg: alg.into(),
        public_key: pk,
        secret_key: 1,
        signature: sig.then_some(out),
        ciphertext: (!sig).then_some(out),
        public_plus_output: pk + out,
        signature_varies: false,
        signature_mean: None,
        signature_bound: None,
    }
}

/// Falcon-512 is 2.4x smaller and verifies 4x faster; ML-DSA-44 generates keys 40x faster;
/// signing is within 10 %. ML-KEM-768: client 3 + 4 = 7 us, server 1 us.
fn report(power: Option<PowerModel>) -> Report {
    let mut results = vec![
        row("pqlab", "ml-dsa-44", Op::Keygen, 10.0),
        row("pqlab", "ml-dsa-44", Op::Sign, 100.0),
        row("pqlab", "ml-dsa-44", Op::Verify, 20.0),
        row("pqlab", "falcon-512", Op::Keygen, 400.0),
        row("pqlab", "falcon-512", Op::Sign, 110.0),
        row("pqlab", "falcon-512", Op::Verify, 5.0),
        row("pqlab", "ml-dsa-65", Op::Keygen, 20.0),
        row("pqlab", "ml-dsa-65", Op::Sign, 150.0),
        row("pqlab", "ml-dsa-65", Op::Verify, 30.0),
        row("pqlab", "ml-kem-768", Op::Keygen, 3.0),
        row("pqlab", "ml-kem-768", Op::Encaps, 1.0),
        row("pqlab", "ml-kem-768", Op::Decaps, 4.0),
        row("fast", "ml-dsa-44", Op::Sign, 50.0),
        row("slow", "ml-dsa-44", Op::Sign, 500.0),
        row("slow", "ml-kem-768", Op::Encaps, 2.0),
        row("fn-dsa", "fn-dsa-512", Op::Verify, 10.0),
    ];
    if let Some(m) = &power {
        for x in &mut results {
            x.energy_j = Some(m.joules(x.summary.median_ns));
        }
    }
    let config = ConfigRecord {
        iterations: 10,
        warmup: 1,
        msg_sizes: vec![32],
        algs: Vec::new(),
        ops: Op::ALL.to_vec(),
        peers: true,
        quick: true,
        power_model: power,
        method: "test",
    };
    let mut report = Report::empty(Machine::detect(), config);
    report.sizes = vec![
        sizes("ml-dsa-44", 1312, 2420, true),
        sizes("falcon-512", 897, 666, true),
        sizes("ml-dsa-65", 1952, 3309, true),
        sizes("ml-kem-768", 1184, 1088, false),
    ];
    report.results = results;
    report
}

fn question<'a>(s: &'a Summary, id: &str) -> &'a Question {
    s.questions.iter().find(|q| q.id == id).expect(id)
}

#[test]
fn the_signature_verdict_names_the_right_winners_and_ratios() {
    let s = of(&report(None));
    let q = question(&s, "q-signatures");
    assert_eq!(q.rows.len(), 3);
    let v = &q.verdicts[0].text;
    // (1312 + 2420) / (897 + 666) = 2.39; verify 20 / 5 = 4; keygen 400 / 10 = 40; sign 110 / 100.
    assert_eq!(
        v,
        "level 1-2: Falcon-512's public key + signature is 2.4x smaller than ML-DSA-44's (1563 vs \
         3732 bytes) and it verifies 4.0x faster; ML-DSA-44 generates keys 40x faster; signing \
         within 10 %. Choose Falcon-512 for sizes and verification, ML-DSA-44 for key generation."
    );
    // ML-DSA-65 is alone at level 3.
    let lone = &q.verdicts[1].text;
    assert!(
        lone.starts_with("level 3: ML-DSA-65 is the only signature"),
        "{lone}"
    );
    assert!(q.verdicts[0].evidence.iter().any(|e| e == "chart-sizes"));
}

#[test]
fn the_client_pays_for_ml_kem_and_the_server_signs() {
    let s = of(&report(None));
    let q = question(&s, "q-sides");
    let v = &q.verdicts[0].text;
    // client: keygen 3 + decaps 4 = 7 us against encaps 1 us.
    assert!(
        v.starts_with(
            "Who pays more (client: keygen + decaps; server: encaps): ML-KEM-768 the client 7.0x."
        ),
        "{v}"
    );
    assert!(v.contains("Decaps alone costs 4.0x encaps"), "{v}");
    assert!(
        v.contains("key (1184 bytes), the server the ciphertext (1088)"),
        "{v}"
    );
    let a = &q.verdicts[1].text;
    // ML-DSA-44 signs in 100 us and verifies in 20: 5x; Falcon-512 110 / 5 = 22x.
    assert!(
        a.contains("ML-DSA-44 5.0x") && a.contains("Falcon-512 22x"),
        "{a}"
    );
}

#[test]
fn the_battery_verdict_uses_energy_when_there_is_a_power_model() {
    let without = of(&report(None));
    let q = question(&without, "q-battery");
    let v = &q.verdicts[0].text;
    // sign + verify: ML-DSA-44 120 us, Falcon-512 115 us: Falcon is cheaper; fewer bytes;
    // ML-DSA-44 needs less stack.
    assert!(
        v.contains("level 1-2: Falcon-512 costs least per use (115 us vs 120 us"),
        "{v}"
    );
    assert!(
        v.contains("Falcon-512 sends the fewest bytes (1563)"),
        "{v}"
    );
    assert!(
        v.contains("ML-DSA-44 needs the least stack (20000 B)"),
        "{v}"
    );
    assert!(q.verdicts.last().unwrap().text.contains("no power model"));

    let model = PowerModel::watts(2.0);
    let with = of(&report(Some(model)));
    let q = question(&with, "q-battery");
    // 115 us x 2 W = 230 uJ.
    assert!(
        q.verdicts[0].text.contains("(230.00 uJ vs 240.00 uJ"),
        "{}",
        q.verdicts[0].text
    );
    assert!(q.verdicts.last().unwrap().text.contains("ESTIMATED"));
}

#[test]
fn the_peer_table_takes_the_fastest_peer_and_maps_fn_dsa_to_falcon() {
    let s = of(&report(None));
    let p = s.peers.expect("peers");
    let sign = p
        .rows
        .iter()
        .find(|r| r.alg == "ml-dsa-44" && r.op == Op::Sign)
        .unwrap();
    assert_eq!(sign.peer, "fast");
    assert!((sign.ratio - 2.0).abs() < 1e-9);
    let verify = p
        .rows
        .iter()
        .find(|r| r.alg == "falcon-512" && r.op == Op::Verify)
        .unwrap();
    assert_eq!(verify.peer, "fn-dsa");
    assert!((verify.ratio - 0.5).abs() < 1e-9);
    // Faster in falcon verify (0.5) and ml-kem encaps (0.5); slower in ml-dsa-44 sign (2x).
    assert_eq!(p.rows.len(), 3);
    let v = &p.verdict.text;
    assert!(
        v.starts_with("pqlab is faster than the fastest peer in 2 of 3"),
        "{v}"
    );
    assert!(v.contains("ML-DSA-44 sign (fast, 2.0x)"), "{v}");
}

#[test]
fn a_run_without_peers_has_no_peer_standing_and_levels_are_right() {
    let mut r = report(None);
    r.results.retain(|x| x.implementation == "pqlab");
    assert!(of(&r).peers.is_none());
    assert_eq!(level("falcon-512"), Some(1));
    assert_eq!(level("ml-dsa-44"), Some(2));
    assert_eq!(level("ml-kem-1024"), Some(5));
    assert_eq!(pretty("falcon-1024"), "Falcon-1024");
    assert_eq!(pretty("ml-kem-512"), "ML-KEM-512");
}
