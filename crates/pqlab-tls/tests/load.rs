//! Load and fault test of the echo server (`pqlab_tls::server`) on loopback, server in process.
//!
//! Each run has two phases against one server: A, valid clients only; B, as many valid
//! clients with 10 % of all clients hostile (hostile = valid / 9). Of the hostile ones, two
//! thirds are slow clients opened in a burst when phase B starts and held by one thread
//! (silent; trickling a ClientHello one byte every 250 ms; half a ClientHello then silent); the
//! rest, mixed at random among the valid ones: garbage bytes, a ClientHello cut short (then
//! end of stream), ClientHellos with oversized key shares (one byte too many; 60,000 bytes),
//! a record header announcing 65,535 bytes, and a line that never ends (after a valid
//! handshake, 4 x the line limit without a newline). Valid clients handshake (timed: connect
//! to handshake done, client side), send one line (every tenth one exactly `max_line` bytes
//! with its newline) and check the echo.
//!
//! Asserted: every valid client completes and gets its echo; every hostile one is closed by
//! the server (the slow ones within the handshake deadline + 5 s); a valid client still gets
//! served afterwards; the server's runtime threads stay <= workers + MAX_BLOCKING_THREADS, the
//! process's threads (/proc/self/status `Threads`, clients included) <= that + the client
//! threads + 12, and its resident memory (`VmRSS`, clients included) <= `rss_bound_mib`; the
//! run stops by itself (every socket has timeouts; every loop is bounded).
//!
//! * CI (`cargo test -p pqlab-tls --release --test load`): 1,000 valid clients per phase,
//!   112 hostile (74 slow), deadlines of 2 s; RSS bound 64 MiB.
//! * Long run, started by hand (prints handshakes/s and p50/p99 latency per phase):
//!   `nice -n 19 cargo test -p pqlab-tls --release --test load -- --ignored --nocapture`:
//!   30,000 valid clients per phase (60,000 handshakes), 3,334 hostile (2,222 slow, held at
//!   once), the server's default deadlines (10 s handshake); RSS bound 512 MiB.
//!   `PQLAB_LOAD_VALID=N` changes the number of valid clients per phase.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::io::{BufRead, BufReader, ErrorKind, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use common::{client, client_hello_with_share, server_config};
use pqlab_tls::cert::CertAlg;
use pqlab_tls::rustls::{self, ClientConfig, ClientConnection};
use pqlab_tls::server::{Limits, MAX_BLOCKING_THREADS, Server};
use pqlab_tls::{kx, net};

/// What a run does.
struct LoadConfig {
    valid: usize,
    client_threads: usize,
    limits: Limits,
    rss_bound_mib: u64,
    time_limit: Duration,
}

/// The kinds of clients run by the client threads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Job {
    Valid(usize),
    Garbage(u64),
    TruncatedHello,
    ShareOneTooLong,
    ShareHuge,
    HugeRecord,
    EndlessLine,
}

/// The kinds of slow clients held by the slow thread.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Slow {
    Silent,
    Trickle,
    HalfHello,
}

/// ClientHellos made once.
struct Hellos {
    valid: Vec<u8>,
    one_too_long: Vec<u8>,
    huge: Vec<u8>,
}

fn hellos() -> Hellos {
    let good = kx::X25519MLKEM768.start().unwrap().pub_key().to_vec();
    Hellos {
        valid: client_hello_with_share(kx::X25519MLKEM768, good.clone()),
        one_too_long: client_hello_with_share(kx::X25519MLKEM768, [&good[..], &[0]].concat()),
        huge: client_hello_with_share(kx::MLKEM768, vec![0x5a; 60_000]),
    }
}

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// (Threads, VmRSS in KiB) of this process.
fn proc_status() -> (u64, u64) {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|v| v.split_whitespace().next()?.parse().ok())
            .unwrap_or(0)
    };
    (field("Threads:"), field("VmRSS:"))
}

/// Samples `proc_status` every 20 ms until `stop`; returns the maxima.
fn sampler(stop: Arc<AtomicBool>) -> std::thread::JoinHandle<(u64, u64)> {
    std::thread::spawn(move || {
        let (mut threads, mut rss) = (0, 0);
        while !stop.load(Ordering::Relaxed) {
            let (t, r) = proc_status();
            threads = threads.max(t);
            rss = rss.max(r);
            std::thread::sleep(Duration::from_millis(20));
        }
        (threads, rss)
    })
}

fn line_for(n: usize, max_line: usize) -> String {
    if n % 10 == 9 {
        // Exactly the limit, newline included.
        let mut s = format!("long {n} ");
        while s.len() < max_line - 1 {
            s.push(char::from(b'a' + (s.len() % 26) as u8));
        }
        s
    } else {
        format!("valid client {n}: {}", "x".repeat(n % 97))
    }
}

fn connect(addr: SocketAddr, timeout: Duration) -> std::io::Result<TcpStream> {
    let tcp = TcpStream::connect_timeout(&addr, timeout)?;
    tcp.set_read_timeout(Some(timeout))?;
    tcp.set_write_timeout(Some(timeout))?;
    tcp.set_nodelay(true)?;
    Ok(tcp)
}

/// Connects and completes a handshake; returns the connection and the time it took.
fn handshake(
    config: &Arc<ClientConfig>,
    addr: SocketAddr,
    timeout: Duration,
) -> Result<(ClientConnection, TcpStream, Duration), String> {
    let start = Instant::now();
    let mut tcp = connect(addr, timeout).map_err(|e| format!("connect: {e}"))?;
    let mut conn = ClientConnection::new(Arc::clone(config), "localhost".try_into().unwrap())
        .map_err(|e| e.to_string())?;
    while conn.is_handshaking() {
        conn.complete_io(&mut tcp)
            .map_err(|e| format!("handshake: {e}"))?;
    }
    Ok((conn, tcp, start.elapsed()))
}

/// A valid client: handshake, one line, its echo. Returns the handshake latency.
fn valid(
    config: &Arc<ClientConfig>,
    addr: SocketAddr,
    line: &str,
    timeout: Duration,
) -> Result<Duration, String> {
    let (mut conn, mut tcp, latency) = handshake(config, addr, timeout)?;
    let mut tls = rustls::Stream::new(&mut conn, &mut tcp);
    tls.write_all(format!("{line}\n").as_bytes())
        .map_err(|e| format!("send: {e}"))?;
    let mut echo = Vec::new();
    BufReader::new(&mut tls)
        .read_until(b'\n', &mut echo)
        .map_err(|e| format!("receive: {e}"))?;
    if echo.strip_suffix(b"\n") != Some(line.as_bytes()) {
        return Err(format!(
            "echo of {} bytes instead of {}",
            echo.len(),
            line.len() + 1
        ));
    }
    tls.conn.send_close_notify();
    let _ = tls.flush();
    Ok(latency)
}

/// Sends `bytes` (then end of stream) and reads until the server closes; an error if the
/// server keeps the connection past the read timeout.
fn raw(addr: SocketAddr, bytes: &[u8], timeout: Duration) -> Result<(), String> {
    let mut tcp = connect(addr, timeout).map_err(|e| format!("connect: {e}"))?;
    // The server may close (and reset) before all is written: not an error.
    let _ = tcp.write_all(bytes);
    let _ = tcp.shutdown(Shutdown::Write);
    drain(&mut tcp)
}

/// Reads until the peer closes; an error on a read timeout.
fn drain(tcp: &mut TcpStream) -> Result<(), String> {
    let mut buf = [0u8; 4096];
    loop {
        match tcp.read(&mut buf) {
            Ok(0) => return Ok(()),
            Ok(_) => {}
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {
                return Err("the server kept the connection open".into());
            }
            Err(_) => return Ok(()), // reset: closed
        }
    }
}

/// A valid handshake, then a line that never ends; the server must close without echoing.
fn endless_line(
    config: &Arc<ClientConfig>,
    addr: SocketAddr,
    max_line: usize,
    timeout: Duration,
) -> Result<(), String> {
    let (mut conn, mut tcp, _) = handshake(config, addr, timeout)?;
    let mut tls = rustls::Stream::new(&mut conn, &mut tcp);
    let chunk = vec![b'z'; 4096];
    for _ in 0..(4 * max_line).div_ceil(chunk.len()) {
        if tls.write_all(&chunk).is_err() {
            break;
        }
    }
    let mut buf = [0u8; 4096];
    match tls.read(&mut buf) {
        Ok(0) => Ok(()),
        Ok(n) => Err(format!("{n} bytes echoed from a line too long")),
        Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {
            Err("the server kept a line too long open".into())
        }
        Err(_) => Ok(()),
    }
}

fn run_job(
    job: Job,
    config: &Arc<ClientConfig>,
    addr: SocketAddr,
    hellos: &Hellos,
    limits: &Limits,
) -> Result<Option<Duration>, String> {
    let wait = limits.handshake_timeout + Duration::from_secs(5);
    match job {
        Job::Valid(n) => valid(config, addr, &line_for(n, limits.max_line), wait).map(Some),
        Job::Garbage(seed) => {
            let mut rng = Rng(seed | 1);
            let len = 1 + (rng.next() % 2000) as usize;
            let bytes: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
            raw(addr, &bytes, wait).map(|_| None)
        }
        Job::TruncatedHello => {
            raw(addr, &hellos.valid[..hellos.valid.len() / 2], wait).map(|_| None)
        }
        Job::ShareOneTooLong => raw(addr, &hellos.one_too_long, wait).map(|_| None),
        Job::ShareHuge => raw(addr, &hellos.huge, wait).map(|_| None),
        Job::HugeRecord => {
            let mut bytes = vec![0x16, 0x03, 0x01, 0xff, 0xff];
            bytes.resize(5 + 20_000, 0x41);
            raw(addr, &bytes, wait).map(|_| None)
        }
        Job::EndlessLine => endless_line(config, addr, limits.max_line, wait).map(|_| None),
    }
}

/// What a phase measured.
struct Phase {
    valid: usize,
    hostile: usize,
    failures: Vec<String>,
    elapsed: Duration,
    latencies: Vec<Duration>,
}

impl Phase {
    fn percentile(&self, p: f64) -> Duration {
        let mut l = self.latencies.clone();
        l.sort();
        l.get(((l.len() as f64 - 1.0) * p).round() as usize)
            .copied()
            .unwrap_or_default()
    }

    fn report(&self, name: &str) -> String {
        format!(
            "{name}: {} valid handshakes, {} hostile clients, {} failures, {:.1} s, {:.0} handshakes/s, \
             latency p50 {:.1} ms, p99 {:.1} ms",
            self.valid,
            self.hostile,
            self.failures.len(),
            self.elapsed.as_secs_f64(),
            self.latencies.len() as f64 / self.elapsed.as_secs_f64(),
            self.percentile(0.5).as_secs_f64() * 1e3,
            self.percentile(0.99).as_secs_f64() * 1e3,
        )
    }
}

/// Runs `jobs` on `threads` client threads.
fn run_jobs(
    jobs: Vec<Job>,
    threads: usize,
    config: &Arc<ClientConfig>,
    addr: SocketAddr,
    hellos: &Arc<Hellos>,
    limits: &Limits,
) -> Phase {
    let jobs = Arc::new(jobs);
    let next = Arc::new(AtomicUsize::new(0));
    let failures = Arc::new(Mutex::new(Vec::new()));
    let latencies = Arc::new(Mutex::new(Vec::new()));
    let start = Instant::now();
    let handles: Vec<_> = (0..threads)
        .map(|_| {
            let (jobs, next, failures, latencies) = (
                Arc::clone(&jobs),
                Arc::clone(&next),
                Arc::clone(&failures),
                Arc::clone(&latencies),
            );
            let (config, hellos, limits) = (Arc::clone(config), Arc::clone(hellos), limits.clone());
            std::thread::spawn(move || {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&job) = jobs.get(i) else { break };
                    match run_job(job, &config, addr, &hellos, &limits) {
                        Ok(Some(l)) => latencies.lock().unwrap().push(l),
                        Ok(None) => {}
                        Err(e) => failures.lock().unwrap().push(format!("{job:?}: {e}")),
                    }
                }
            })
        })
        .collect();
    for h in handles {
        h.join().unwrap();
    }
    let elapsed = start.elapsed();
    let valid = jobs.iter().filter(|j| matches!(j, Job::Valid(_))).count();
    Phase {
        valid,
        hostile: jobs.len() - valid,
        failures: Arc::try_unwrap(failures).unwrap().into_inner().unwrap(),
        elapsed,
        latencies: Arc::try_unwrap(latencies).unwrap().into_inner().unwrap(),
    }
}

/// Opens `n` slow clients at once and holds them until the server closes them; returns the
/// failures (a client still open after the handshake deadline + 5 s) and the longest hold.
fn slow_clients(
    n: usize,
    addr: SocketAddr,
    hellos: Arc<Hellos>,
    limits: Limits,
) -> std::thread::JoinHandle<(Vec<String>, Duration)> {
    std::thread::spawn(move || {
        let mut failures = Vec::new();
        let mut open: Vec<(TcpStream, Slow, Instant, usize)> = Vec::new();
        for i in 0..n {
            let kind = [Slow::Silent, Slow::Trickle, Slow::HalfHello][i % 3];
            let tcp = match TcpStream::connect_timeout(&addr, Duration::from_secs(5)) {
                Ok(t) => t,
                Err(e) => {
                    failures.push(format!("slow {kind:?}: connect: {e}"));
                    continue;
                }
            };
            let mut sent = 0;
            if kind == Slow::HalfHello {
                let half = hellos.valid.len() / 2;
                let _ = (&tcp).write_all(&hellos.valid[..half]);
                sent = half;
            }
            tcp.set_nonblocking(true).unwrap();
            open.push((tcp, kind, Instant::now(), sent));
        }
        let limit = limits.handshake_timeout + Duration::from_secs(5);
        let mut longest = Duration::ZERO;
        while !open.is_empty() {
            std::thread::sleep(Duration::from_millis(250));
            open.retain_mut(|(tcp, kind, since, sent)| {
                let held = since.elapsed();
                let mut buf = [0u8; 512];
                let closed = match tcp.read(&mut buf) {
                    Ok(0) => true,
                    Ok(_) => false, // an alert or the like: wait for the close
                    Err(e) => e.kind() != ErrorKind::WouldBlock,
                };
                if closed {
                    longest = longest.max(held);
                    return false;
                }
                if held > limit {
                    failures.push(format!("slow {kind:?}: still open after {held:?}"));
                    return false;
                }
                if *kind == Slow::Trickle && *sent < hellos.valid.len() {
                    match tcp.write(&hellos.valid[*sent..*sent + 1]) {
                        Ok(k) => *sent += k,
                        Err(e) if e.kind() == ErrorKind::WouldBlock => {}
                        Err(_) => {
                            longest = longest.max(held);
                            return false;
                        }
                    }
                }
                true
            });
        }
        (failures, longest)
    })
}

fn run_load(cfg: &LoadConfig) {
    let start = Instant::now();
    let alg = CertAlg::MlDsa65;
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let server = Server::start(&listener, server_config(alg), &cfg.limits, |_| {}).unwrap();
    drop(listener);
    let addr = server.local_addr();
    let config = client(alg, vec![kx::X25519MLKEM768]).config;
    let hellos = Arc::new(hellos());
    let stop = Arc::new(AtomicBool::new(false));
    let sampling = sampler(Arc::clone(&stop));

    // Phase A: valid clients only.
    let jobs = (0..cfg.valid).map(Job::Valid).collect();
    let a = run_jobs(
        jobs,
        cfg.client_threads,
        &config,
        addr,
        &hellos,
        &cfg.limits,
    );
    println!("{}", a.report("valid only"));

    // Phase B: the same with 10 % hostile clients.
    let hostile = cfg.valid.div_ceil(9);
    let slow = hostile * 2 / 3;
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut jobs: Vec<Job> = (cfg.valid..2 * cfg.valid).map(Job::Valid).collect();
    let mut endless = 0;
    for i in 0..hostile - slow {
        let job = match i % 6 {
            0 => Job::Garbage(rng.next()),
            1 => Job::TruncatedHello,
            2 => Job::ShareOneTooLong,
            3 => Job::ShareHuge,
            4 => Job::HugeRecord,
            _ => Job::EndlessLine,
        };
        endless += usize::from(job == Job::EndlessLine);
        jobs.push(job);
    }
    for i in (1..jobs.len()).rev() {
        jobs.swap(i, (rng.next() % (i as u64 + 1)) as usize);
    }
    let slow_thread = slow_clients(slow, addr, Arc::clone(&hellos), cfg.limits.clone());
    let mut b = run_jobs(
        jobs,
        cfg.client_threads,
        &config,
        addr,
        &hellos,
        &cfg.limits,
    );
    let (slow_failures, longest) = slow_thread.join().unwrap();
    b.hostile += slow;
    println!("{}", b.report("10 % hostile"));
    println!(
        "slow clients: {slow}, the longest held {:.1} s",
        longest.as_secs_f64()
    );

    // Still serving.
    let c = client(alg, vec![kx::X25519MLKEM768]);
    let (_, echo) = net::connect_and_echo(&c, &addr.to_string(), "localhost", "after").unwrap();
    assert_eq!(echo, "after");
    stop.store(true, Ordering::Relaxed);
    let (max_threads, max_rss_kib) = sampling.join().unwrap();
    let stats = server.stats();
    let server_threads = stats.peak_threads.load(Ordering::Relaxed);
    println!("server: {}", stats.summary());
    println!(
        "process: at most {max_threads} threads, {:.1} MiB resident; total {:.1} s",
        max_rss_kib as f64 / 1024.0,
        start.elapsed().as_secs_f64()
    );

    assert!(
        a.failures.is_empty(),
        "phase A failures: {:?}",
        &a.failures[..a.failures.len().min(10)]
    );
    assert!(
        b.failures.is_empty(),
        "phase B failures: {:?}",
        &b.failures[..b.failures.len().min(10)]
    );
    assert!(
        slow_failures.is_empty(),
        "slow clients: {:?}",
        &slow_failures[..slow_failures.len().min(10)]
    );
    assert_eq!(a.latencies.len() + b.latencies.len(), 2 * cfg.valid);
    assert_eq!(stats.refused.load(Ordering::Relaxed), 0);
    assert_eq!(stats.long_lines.load(Ordering::Relaxed), endless as u64);
    assert!(stats.handshake_timeouts.load(Ordering::Relaxed) >= slow as u64);
    let server_bound = (cfg.limits.worker_threads + MAX_BLOCKING_THREADS) as u64;
    assert!(
        server_threads <= server_bound,
        "server threads {server_threads} > {server_bound}"
    );
    let process_bound = server_bound + cfg.client_threads as u64 + 12;
    assert!(
        max_threads <= process_bound,
        "threads {max_threads} > {process_bound}"
    );
    assert!(
        max_rss_kib <= cfg.rss_bound_mib * 1024,
        "resident memory {max_rss_kib} KiB > {} MiB",
        cfg.rss_bound_mib
    );
    assert!(
        start.elapsed() < cfg.time_limit,
        "took {:?}",
        start.elapsed()
    );
    server.stop();
}

#[test]
fn load_and_faults_short() {
    run_load(&LoadConfig {
        valid: 1000,
        client_threads: 4,
        limits: Limits {
            worker_threads: 2,
            handshake_timeout: Duration::from_secs(2),
            idle_timeout: Duration::from_secs(2),
            connection_timeout: Duration::from_secs(20),
            ..Limits::default()
        },
        rss_bound_mib: 64,
        time_limit: Duration::from_secs(120),
    });
}

#[test]
#[ignore = "long run (minutes): cargo test -p pqlab-tls --release --test load -- --ignored --nocapture"]
fn load_and_faults_long() {
    let valid = std::env::var("PQLAB_LOAD_VALID")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(30_000);
    run_load(&LoadConfig {
        valid,
        client_threads: 4,
        limits: Limits {
            worker_threads: 2,
            ..Limits::default()
        },
        rss_bound_mib: 512,
        time_limit: Duration::from_secs(1800),
    });
}

/// Beyond `max_connections`, connections are closed at once; those served are not disturbed.
#[test]
fn connections_beyond_the_cap_are_closed_at_once() {
    let alg = CertAlg::MlDsa65;
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let limits = Limits {
        max_connections: 4,
        worker_threads: 1,
        handshake_timeout: Duration::from_secs(5),
        ..Limits::default()
    };
    let server = Server::start(&listener, server_config(alg), &limits, |_| {}).unwrap();
    let addr = server.local_addr();
    let held: Vec<TcpStream> = (0..4)
        .map(|_| connect(addr, Duration::from_secs(5)).unwrap())
        .collect();
    // Wait until the four are accepted.
    let t = Instant::now();
    while server.stats().active.load(Ordering::Relaxed) < 4 && t.elapsed() < Duration::from_secs(5)
    {
        std::thread::sleep(Duration::from_millis(10));
    }
    for _ in 0..3 {
        let mut extra = connect(addr, Duration::from_secs(5)).unwrap();
        let t = Instant::now();
        drain(&mut extra).unwrap();
        assert!(
            t.elapsed() < Duration::from_secs(2),
            "closed after {:?}",
            t.elapsed()
        );
    }
    assert_eq!(server.stats().refused.load(Ordering::Relaxed), 3);
    drop(held);
    let t = Instant::now();
    while server.stats().active.load(Ordering::Relaxed) > 0 && t.elapsed() < Duration::from_secs(5)
    {
        std::thread::sleep(Duration::from_millis(10));
    }
    let c = client(alg, vec![kx::X25519MLKEM768]);
    let (_, echo) = net::connect_and_echo(&c, &addr.to_string(), "localhost", "again").unwrap();
    assert_eq!(echo, "again");
}

/// A client that trickles a line more slowly than the idle timeout allows is closed.
#[test]
fn a_trickled_line_hits_the_idle_timeout() {
    let alg = CertAlg::MlDsa65;
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let limits = Limits {
        worker_threads: 1,
        idle_timeout: Duration::from_secs(1),
        ..Limits::default()
    };
    let server = Server::start(&listener, server_config(alg), &limits, |_| {}).unwrap();
    let config = client(alg, vec![kx::X25519MLKEM768]).config;
    let (mut conn, mut tcp, _) =
        handshake(&config, server.local_addr(), Duration::from_secs(10)).unwrap();
    let mut tls = rustls::Stream::new(&mut conn, &mut tcp);
    let start = Instant::now();
    // A byte every 300 ms: each read of the server is fed, the line never ends in time.
    let mut closed = false;
    for _ in 0..20 {
        if tls.write_all(b"a").and_then(|()| tls.flush()).is_err() {
            closed = true;
            break;
        }
        std::thread::sleep(Duration::from_millis(300));
    }
    if !closed {
        let mut buf = [0u8; 16];
        closed = matches!(tls.read(&mut buf), Ok(0) | Err(_));
    }
    assert!(closed);
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "{:?}",
        start.elapsed()
    );
    assert_eq!(server.stats().timeouts.load(Ordering::Relaxed), 1);
}
