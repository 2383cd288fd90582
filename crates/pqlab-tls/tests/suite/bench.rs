//! The handshake benchmark on a tiny configuration: the sizes it reports follow from the
//! algorithms, and the loopback run completes handshakes.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::time::Duration;

use pqlab_tls::bench::{BenchConfig, json, run, table};
use pqlab_tls::cert::CertAlg;

#[test]
fn tiny_benchmark_reports_consistent_sizes() {
    let cfg = BenchConfig {
        sigs: vec![CertAlg::MlDsa44, CertAlg::EcdsaP256],
        groups: vec!["X25519MLKEM768".into(), "MLKEM1024".into()],
        iterations: 2,
        clients: 2,
        duration: Duration::from_millis(200),
    };
    let mut seen = 0;
    let results = run(&cfg, &mut |_| seen += 1).unwrap();
    assert_eq!((results.len(), seen), (4, 4));
    let get = |sig: &str, group: &str| {
        results
            .iter()
            .find(|r| r.sig == sig && r.group == group)
            .unwrap()
    };
    for r in &results {
        assert!(r.server_us > 0.0 && r.client_us > 0.0, "{r:?}");
        assert!(r.handshakes_per_s.unwrap() > 0.0, "{r:?}");
    }
    // The client's share: 1216 bytes (hybrid) or 1568 (ML-KEM-1024), the same for both
    // signatures; the server's flight is larger with ML-DSA-44 (a 1312-byte key in each
    // certificate and a 2420-byte signature) than with ECDSA.
    let (a, b) = (
        get("ml-dsa-44", "X25519MLKEM768"),
        get("ml-dsa-44", "MLKEM1024"),
    );
    assert_eq!(b.client_bytes - a.client_bytes, 1568 - 1216);
    assert_eq!(b.server_bytes - a.server_bytes, 1568 - 1120);
    let e = get("ecdsa-p256", "X25519MLKEM768");
    assert_eq!(e.client_bytes, a.client_bytes);
    assert!(a.server_bytes > e.server_bytes + 1312 + 2420, "{a:?} {e:?}");
    assert!(table(&results).contains("ml-dsa-44"));
    assert!(json(&results, &cfg).contains("\"group\": \"MLKEM1024\""));
}
