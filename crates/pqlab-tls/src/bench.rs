//! The handshake benchmark behind `pqlab handshake-bench`.
//!
//! For each signature algorithm and key-exchange group it measures:
//! * the cost split: full TLS 1.3 handshakes between a rustls client and server in memory, on
//!   one thread, timing the server's and the client's processing separately (one thread, no
//!   I/O: the time of each side is its CPU time); the median over the iterations;
//! * the bytes each side sends during the handshake (TLS records, as on the wire);
//! * the throughput: handshakes per second over loopback TCP with several concurrent clients
//!   against the echo server of [`crate::server`] (connect, handshake, one echoed line, close).

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use rustls::crypto::SupportedKxGroup;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer, ServerName};
use rustls::{ClientConnection, ServerConfig, ServerConnection};

use crate::cert::{CertAlg, CertChain, generate_chain};
use crate::{Error, kx, net, provider, provider_with_groups};

/// What to measure.
#[derive(Debug, Clone)]
pub struct BenchConfig {
    /// Signature algorithms.
    pub sigs: Vec<CertAlg>,
    /// Key-exchange groups, by name.
    pub groups: Vec<String>,
    /// In-memory handshakes per combination (the cost split).
    pub iterations: usize,
    /// Concurrent clients in the throughput run (0: skip it).
    pub clients: usize,
    /// Length of the throughput run per combination.
    pub duration: Duration,
}

/// One combination's results.
#[derive(Debug, Clone)]
pub struct BenchResult {
    /// The signature algorithm.
    pub sig: &'static str,
    /// The group.
    pub group: String,
    /// In-memory handshakes measured.
    pub iterations: usize,
    /// Median server processing time per handshake, microseconds.
    pub server_us: f64,
    /// Median client processing time per handshake, microseconds.
    pub client_us: f64,
    /// Bytes the server sent during a handshake.
    pub server_bytes: usize,
    /// Bytes the client sent during a handshake.
    pub client_bytes: usize,
    /// Handshakes per second over loopback (None if not measured).
    pub handshakes_per_s: Option<f64>,
    /// The concurrent clients of the throughput run.
    pub clients: usize,
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    match v.len() {
        0 => 0.0,
        n if n % 2 == 1 => v[n / 2],
        n => (v[n / 2 - 1] + v[n / 2]) / 2.0,
    }
}

/// One in-memory handshake: (server time, client time, server bytes, client bytes).
fn one_handshake(
    server_config: &Arc<ServerConfig>,
    client: &net::Client,
) -> Result<(Duration, Duration, usize, usize), Error> {
    let name = ServerName::try_from("localhost").map_err(|e| Error::Cert(e.to_string()))?;
    let (mut t_server, mut t_client) = (Duration::ZERO, Duration::ZERO);
    let (mut b_server, mut b_client) = (0usize, 0usize);
    let t = Instant::now();
    let mut c = ClientConnection::new(Arc::clone(&client.config), name)?;
    t_client += t.elapsed();
    let t = Instant::now();
    let mut s = ServerConnection::new(Arc::clone(server_config))?;
    t_server += t.elapsed();
    let io = |e| Error::Io("in-memory transfer".into(), e);
    while c.is_handshaking() || s.is_handshaking() {
        let mut buf = Vec::new();
        let t = Instant::now();
        c.write_tls(&mut buf).map_err(io)?;
        t_client += t.elapsed();
        b_client += buf.len();
        let t = Instant::now();
        let mut rest = &buf[..];
        while !rest.is_empty() {
            s.read_tls(&mut rest).map_err(io)?;
            s.process_new_packets()?;
        }
        let mut out = Vec::new();
        s.write_tls(&mut out).map_err(io)?;
        t_server += t.elapsed();
        b_server += out.len();
        let t = Instant::now();
        let mut rest = &out[..];
        while !rest.is_empty() {
            c.read_tls(&mut rest).map_err(io)?;
            c.process_new_packets()?;
        }
        t_client += t.elapsed();
        if buf.is_empty() && out.is_empty() {
            return Err(Error::Cert("the handshake stalled".into()));
        }
    }
    Ok((t_server, t_client, b_server, b_client))
}

/// Handshakes per second with `clients` threads for `duration` against a loopback server.
fn throughput(
    server_config: Arc<ServerConfig>,
    client: &net::Client,
    clients: usize,
    duration: Duration,
) -> Result<f64, Error> {
    let listener =
        TcpListener::bind("127.0.0.1:0").map_err(|e| Error::Io("bind 127.0.0.1".into(), e))?;
    let addr = listener
        .local_addr()
        .map_err(|e| Error::Io("local address".into(), e))?;
    // The listener thread ends with the process; `serve` never returns on its own.
    std::thread::spawn(move || net::serve(&listener, server_config, |_| {}));
    let done = Arc::new(AtomicU64::new(0));
    let failed = Arc::new(AtomicU64::new(0));
    let start = Instant::now();
    let threads: Vec<_> = (0..clients)
        .map(|_| {
            let config = Arc::clone(&client.config);
            let (done, failed) = (Arc::clone(&done), Arc::clone(&failed));
            std::thread::spawn(move || {
                while start.elapsed() < duration {
                    let ok = tcp_handshake(&config, &addr.to_string()).is_ok();
                    let counter = if ok { &done } else { &failed };
                    counter.fetch_add(1, Ordering::Relaxed);
                }
            })
        })
        .collect();
    for t in threads {
        let _ = t.join();
    }
    let elapsed = start.elapsed().as_secs_f64();
    if failed.load(Ordering::Relaxed) > 0 {
        return Err(Error::Cert(format!(
            "{} of the loopback handshakes failed",
            failed.load(Ordering::Relaxed)
        )));
    }
    Ok(done.load(Ordering::Relaxed) as f64 / elapsed)
}

/// Connect, handshake, echo one line, close.
fn tcp_handshake(config: &Arc<rustls::ClientConfig>, addr: &str) -> Result<(), Error> {
    let io = |e| Error::Io("loopback".into(), e);
    let name = ServerName::try_from("localhost").map_err(|e| Error::Cert(e.to_string()))?;
    let mut tcp = TcpStream::connect(addr).map_err(io)?;
    let _ = tcp.set_nodelay(true);
    let mut conn = ClientConnection::new(Arc::clone(config), name)?;
    let mut tls = rustls::Stream::new(&mut conn, &mut tcp);
    tls.write_all(b"x\n").map_err(io)?;
    let mut b = [0u8; 2];
    tls.read_exact(&mut b).map_err(io)?;
    tls.conn.send_close_notify();
    let _ = tls.flush();
    Ok(())
}

/// Runs the benchmark with fresh certificates; `progress` is told about each finished
/// combination.
pub fn run(
    cfg: &BenchConfig,
    progress: &mut dyn FnMut(&BenchResult),
) -> Result<Vec<BenchResult>, Error> {
    run_with_chains(
        cfg,
        &mut |sig| generate_chain(sig, &["localhost".to_string()]),
        progress,
    )
}

/// Runs the benchmark with the certificate chains `chain_for` gives for each signature
/// algorithm (a CA and a leaf for `localhost`, as [`generate_chain`] makes them).
pub fn run_with_chains(
    cfg: &BenchConfig,
    chain_for: &mut dyn FnMut(CertAlg) -> Result<CertChain, Error>,
    progress: &mut dyn FnMut(&BenchResult),
) -> Result<Vec<BenchResult>, Error> {
    let groups: Vec<(&String, &'static dyn SupportedKxGroup)> = cfg
        .groups
        .iter()
        .map(|n| {
            kx::kx_group_by_name(n)
                .map(|g| (n, g))
                .ok_or_else(|| Error::UnknownGroup(n.clone()))
        })
        .collect::<Result<_, _>>()?;
    let mut results = Vec::new();
    for &sig in &cfg.sigs {
        let chain = chain_for(sig)?;
        let key = PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(
            chain.leaf_key.pkcs8_der().to_vec(),
        ));
        let server_config = net::server_config(
            provider(),
            vec![CertificateDer::from(chain.leaf_cert.clone())],
            key,
        )?;
        let roots = [CertificateDer::from(chain.ca_cert.clone())];
        for (name, group) in &groups {
            let client = net::client_config(provider_with_groups(vec![*group]), &roots)?;
            one_handshake(&server_config, &client)?; // warm-up
            let (mut ts, mut tc) = (Vec::new(), Vec::new());
            let (mut bs, mut bc) = (0, 0);
            for _ in 0..cfg.iterations.max(1) {
                let (s, c, b_s, b_c) = one_handshake(&server_config, &client)?;
                ts.push(s.as_secs_f64() * 1e6);
                tc.push(c.as_secs_f64() * 1e6);
                (bs, bc) = (b_s, b_c);
            }
            let handshakes_per_s = if cfg.clients > 0 {
                Some(throughput(
                    Arc::clone(&server_config),
                    &client,
                    cfg.clients,
                    cfg.duration,
                )?)
            } else {
                None
            };
            let r = BenchResult {
                sig: sig.name(),
                group: kx::kx_group_name(group.name()),
                iterations: ts.len(),
                server_us: median(&mut ts),
                client_us: median(&mut tc),
                server_bytes: bs,
                client_bytes: bc,
                handshakes_per_s,
                clients: cfg.clients,
            };
            let _ = name;
            progress(&r);
            results.push(r);
        }
    }
    Ok(results)
}

/// The results as a text table.
pub fn table(results: &[BenchResult]) -> String {
    let mut out = format!(
        "{:<11} {:<15} {:>10} {:>10} {:>9} {:>9} {:>12}\n",
        "sig", "group", "server µs", "client µs", "server B", "client B", "handshakes/s"
    );
    for r in results {
        let hps = r
            .handshakes_per_s
            .map_or_else(|| "-".to_string(), |h| format!("{h:.0}"));
        out.push_str(&format!(
            "{:<11} {:<15} {:>10.0} {:>10.0} {:>9} {:>9} {:>12}\n",
            r.sig, r.group, r.server_us, r.client_us, r.server_bytes, r.client_bytes, hps
        ));
    }
    out
}

/// The results as JSON (written by hand: no serde dependency in the library).
pub fn json(results: &[BenchResult], cfg: &BenchConfig) -> String {
    let rows: Vec<String> = results
        .iter()
        .map(|r| {
            format!(
                "    {{ \"sig\": \"{}\", \"group\": \"{}\", \"iterations\": {}, \
                 \"server_us_median\": {:.3}, \"client_us_median\": {:.3}, \
                 \"server_bytes\": {}, \"client_bytes\": {}, \"handshakes_per_s\": {}, \
                 \"clients\": {} }}",
                r.sig,
                r.group,
                r.iterations,
                r.server_us,
                r.client_us,
                r.server_bytes,
                r.client_bytes,
                r.handshakes_per_s
                    .map_or_else(|| "null".to_string(), |h| format!("{h:.3}")),
                r.clients
            )
        })
        .collect();
    format!(
        "{{\n  \"config\": {{ \"iterations\": {}, \"clients\": {}, \"duration_s\": {:.3}, \
         \"transport\": \"in-memory for times and bytes; loopback TCP for handshakes_per_s\" }},\n  \
         \"results\": [\n{}\n  ]\n}}\n",
        cfg.iterations,
        cfg.clients,
        cfg.duration.as_secs_f64(),
        rows.join(",\n")
    )
}
