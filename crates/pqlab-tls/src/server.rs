//! The TLS 1.3 echo server behind `pqlab serve`: asynchronous (a tokio multi-thread runtime
//! with a fixed number of worker threads, tokio-rustls), so that thousands of connections, most
//! of them idle or slow, cost a bounded number of threads and bounded memory.
//!
//! The protocol is unchanged: after the handshake the server echoes every line (bytes up to
//! and including `\n`) until the client closes. What one connection may take is bounded by
//! [`Limits`]:
//!
//! * at most [`Limits::max_connections`] connections at once (a semaphore); a connection
//!   accepted while all are taken is **closed at once** (no TLS alert, the client sees the
//!   connection closed) and counted in [`Stats::refused`], so that excess load is shed rather
//!   than queued;
//! * the handshake must be done within [`Limits::handshake_timeout`] of the accept;
//! * each line must arrive, and its echo be written, within [`Limits::idle_timeout`]
//!   (a client that trickles a byte at a time cannot hold a connection beyond it);
//! * a connection lasts at most [`Limits::connection_timeout`] in all;
//! * a line is at most [`Limits::max_line`] bytes (newline included); a longer one closes the
//!   connection, reported as "line longer than N bytes". Memory per connection is then bounded
//!   by this line buffer, the read buffer ([`READ_BUFFER`]) and rustls's own buffers (at most
//!   one record of 16 KiB plus a handshake message of at most 64 KiB received, 64 KiB of
//!   plaintext to send).
//!
//! Accept errors never end the server: each is reported through `on_error` (one line), and
//! errors other than a connection aborted or reset before it was accepted (above all
//! EMFILE/ENFILE, out of file descriptors) pause the accept loop for
//! [`Limits::accept_backoff`], so that it does not spin a core. A panic inside one connection
//! ends only that connection's task.

use std::io;
use std::net::{SocketAddr, TcpListener};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use rustls::ServerConfig;
use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::runtime::Runtime;
use tokio::sync::{Semaphore, oneshot};
use tokio::time::{Instant, sleep, timeout, timeout_at};
use tokio_rustls::TlsAcceptor;

use crate::Error;

/// Default [`Limits::max_connections`]: connections served at once.
pub const MAX_CONNECTIONS: usize = 4096;
/// Default upper bound of [`Limits::worker_threads`] (the default is the number of CPUs, at
/// most this).
pub const MAX_WORKER_THREADS: usize = 8;
/// Threads the runtime may add for blocking work (the server itself does none; a bound only).
pub const MAX_BLOCKING_THREADS: usize = 2;
/// Default [`Limits::handshake_timeout`].
pub const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);
/// Default [`Limits::idle_timeout`].
pub const IDLE_TIMEOUT: Duration = Duration::from_secs(30);
/// Default [`Limits::connection_timeout`].
pub const CONNECTION_TIMEOUT: Duration = Duration::from_secs(300);
/// Default [`Limits::max_line`]: 16 KiB.
pub const MAX_LINE: usize = 16 * 1024;
/// Default [`Limits::accept_backoff`].
pub const ACCEPT_BACKOFF: Duration = Duration::from_millis(100);
/// The read buffer of each connection (plaintext, after TLS).
pub const READ_BUFFER: usize = 4096;
/// How long the server waits to deliver its close_notify before it drops a connection.
const CLOSE_TIMEOUT: Duration = Duration::from_secs(1);

/// What one connection, and the server as a whole, may take. [`Limits::default`] gives the
/// documented defaults (the constants of this module).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limits {
    /// Connections served at once; more are closed at once after the accept.
    pub max_connections: usize,
    /// Worker threads of the runtime (default: the number of CPUs, at most
    /// [`MAX_WORKER_THREADS`]).
    pub worker_threads: usize,
    /// Time from the accept to the end of the handshake.
    pub handshake_timeout: Duration,
    /// Time to receive one line and to write its echo.
    pub idle_timeout: Duration,
    /// Time from the accept to the end of the connection.
    pub connection_timeout: Duration,
    /// Longest line, newline included, in bytes.
    pub max_line: usize,
    /// Pause of the accept loop after an accept error.
    pub accept_backoff: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
        Self {
            max_connections: MAX_CONNECTIONS,
            worker_threads: cpus.clamp(1, MAX_WORKER_THREADS),
            handshake_timeout: HANDSHAKE_TIMEOUT,
            idle_timeout: IDLE_TIMEOUT,
            connection_timeout: CONNECTION_TIMEOUT,
            max_line: MAX_LINE,
            accept_backoff: ACCEPT_BACKOFF,
        }
    }
}

/// Counters of a running server (all monotonic except `active` and `threads`).
#[derive(Debug, Default)]
pub struct Stats {
    /// Connections accepted and served.
    pub accepted: AtomicU64,
    /// Connections closed at once because [`Limits::max_connections`] were being served.
    pub refused: AtomicU64,
    /// Connections being served now.
    pub active: AtomicU64,
    /// The most connections served at once.
    pub peak_active: AtomicU64,
    /// Handshakes completed.
    pub handshakes: AtomicU64,
    /// Handshakes that failed (TLS error, closed or reset by the client).
    pub handshake_failures: AtomicU64,
    /// Handshakes not done within [`Limits::handshake_timeout`].
    pub handshake_timeouts: AtomicU64,
    /// Connections closed by [`Limits::idle_timeout`] or [`Limits::connection_timeout`].
    pub timeouts: AtomicU64,
    /// Connections closed for a line longer than [`Limits::max_line`].
    pub long_lines: AtomicU64,
    /// Lines echoed.
    pub lines: AtomicU64,
    /// Accept errors (each followed by a pause unless the connection was aborted or reset).
    pub accept_errors: AtomicU64,
    /// Threads of the runtime now running.
    pub threads: AtomicU64,
    /// The most threads of the runtime at once.
    pub peak_threads: AtomicU64,
}

impl Stats {
    fn get(c: &AtomicU64) -> u64 {
        c.load(Ordering::Relaxed)
    }

    /// One line of the counters, for logs and reports.
    pub fn summary(&self) -> String {
        format!(
            "accepted {}, refused {}, active {} (peak {}), handshakes {} (failed {}, timed out {}), \
             lines {}, long lines {}, timeouts {}, accept errors {}, threads {} (peak {})",
            Self::get(&self.accepted),
            Self::get(&self.refused),
            Self::get(&self.active),
            Self::get(&self.peak_active),
            Self::get(&self.handshakes),
            Self::get(&self.handshake_failures),
            Self::get(&self.handshake_timeouts),
            Self::get(&self.lines),
            Self::get(&self.long_lines),
            Self::get(&self.timeouts),
            Self::get(&self.accept_errors),
            Self::get(&self.threads),
            Self::get(&self.peak_threads),
        )
    }
}

/// Adds one to a gauge and raises its peak.
fn raise(gauge: &AtomicU64, peak: &AtomicU64) {
    let now = gauge.fetch_add(1, Ordering::Relaxed) + 1;
    peak.fetch_max(now, Ordering::Relaxed);
}

fn count(c: &AtomicU64) {
    c.fetch_add(1, Ordering::Relaxed);
}

/// Lowers `active` when a connection's task ends, panics included.
struct ActiveGuard(Arc<Stats>);

impl Drop for ActiveGuard {
    fn drop(&mut self) {
        self.0.active.fetch_sub(1, Ordering::Relaxed);
    }
}

/// The runtime: `limits.worker_threads` workers, at most [`MAX_BLOCKING_THREADS`] more,
/// counted in `stats`.
fn runtime(limits: &Limits, stats: &Arc<Stats>) -> Result<Runtime, Error> {
    let (up, down) = (Arc::clone(stats), Arc::clone(stats));
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(limits.worker_threads.max(1))
        .max_blocking_threads(MAX_BLOCKING_THREADS)
        .thread_name("pqlab-serve")
        .on_thread_start(move || raise(&up.threads, &up.peak_threads))
        .on_thread_stop(move || {
            down.threads.fetch_sub(1, Ordering::Relaxed);
        })
        .enable_io()
        .enable_time()
        .build()
        .map_err(|e| Error::Io("cannot start the server's runtime".into(), e))
}

/// Accepts connections on `listener` forever with [`Limits::default`]. A failed handshake or
/// connection is reported through `on_error` and the server goes on.
pub fn serve(
    listener: &TcpListener,
    config: Arc<ServerConfig>,
    on_error: fn(&Error),
) -> Result<(), Error> {
    serve_with_limits(listener, config, &Limits::default(), on_error)
}

/// [`serve`] with chosen limits; returns only if the runtime cannot be started or the
/// listener cannot be used.
pub fn serve_with_limits(
    listener: &TcpListener,
    config: Arc<ServerConfig>,
    limits: &Limits,
    on_error: fn(&Error),
) -> Result<(), Error> {
    let stats = Arc::new(Stats::default());
    let rt = runtime(limits, &stats)?;
    let listener = async_listener(listener)?;
    let limits = Arc::new(limits.clone());
    rt.block_on(async move {
        let listener = tokio::net::TcpListener::from_std(listener)
            .map_err(|e| Error::Io("listener".into(), e))?;
        accept_loop(listener, config, limits, stats, on_error).await;
        Ok(())
    })
}

fn async_listener(listener: &TcpListener) -> Result<TcpListener, Error> {
    let io = |e| Error::Io("listener".into(), e);
    let listener = listener.try_clone().map_err(io)?;
    listener.set_nonblocking(true).map_err(io)?;
    Ok(listener)
}

/// A server running on its own thread, for tests and embedding: stopped on [`Server::stop`]
/// or drop.
pub struct Server {
    addr: SocketAddr,
    stats: Arc<Stats>,
    stop: Option<oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Server {
    /// Starts serving `listener` on a new thread.
    pub fn start(
        listener: &TcpListener,
        config: Arc<ServerConfig>,
        limits: &Limits,
        on_error: fn(&Error),
    ) -> Result<Self, Error> {
        let stats = Arc::new(Stats::default());
        let rt = runtime(limits, &stats)?;
        let std_listener = async_listener(listener)?;
        let addr = std_listener
            .local_addr()
            .map_err(|e| Error::Io("listener".into(), e))?;
        let listener = {
            let _guard = rt.enter();
            tokio::net::TcpListener::from_std(std_listener)
                .map_err(|e| Error::Io("listener".into(), e))?
        };
        let (stop, stopped) = oneshot::channel::<()>();
        let limits = Arc::new(limits.clone());
        let task_stats = Arc::clone(&stats);
        let thread = std::thread::Builder::new()
            .name("pqlab-serve-main".into())
            .spawn(move || {
                rt.block_on(async move {
                    tokio::spawn(accept_loop(listener, config, limits, task_stats, on_error));
                    let _ = stopped.await;
                });
                rt.shutdown_timeout(CLOSE_TIMEOUT);
            })
            .map_err(|e| Error::Io("cannot start the server thread".into(), e))?;
        Ok(Self {
            addr,
            stats,
            stop: Some(stop),
            thread: Some(thread),
        })
    }

    /// The address the server listens on.
    pub fn local_addr(&self) -> SocketAddr {
        self.addr
    }

    /// The server's counters.
    pub fn stats(&self) -> &Stats {
        &self.stats
    }

    /// Stops accepting, ends every connection and waits for the runtime's threads.
    pub fn stop(mut self) {
        self.shutdown();
    }

    fn shutdown(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.shutdown();
    }
}

/// Whether an accept error is about one connection only (no pause needed).
fn is_per_connection(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::ConnectionAborted
            | io::ErrorKind::ConnectionReset
            | io::ErrorKind::Interrupted
            | io::ErrorKind::WouldBlock
    )
}

async fn accept_loop(
    listener: tokio::net::TcpListener,
    config: Arc<ServerConfig>,
    limits: Arc<Limits>,
    stats: Arc<Stats>,
    on_error: fn(&Error),
) {
    let acceptor = TlsAcceptor::from(config);
    let permits = Arc::new(Semaphore::new(limits.max_connections.max(1)));
    loop {
        let tcp = match listener.accept().await {
            Ok((tcp, _)) => tcp,
            Err(e) => {
                count(&stats.accept_errors);
                let pause = !is_per_connection(&e);
                on_error(&Error::Io("accept".into(), e));
                if pause {
                    sleep(limits.accept_backoff).await;
                }
                continue;
            }
        };
        let Ok(permit) = Arc::clone(&permits).try_acquire_owned() else {
            count(&stats.refused);
            drop(tcp);
            continue;
        };
        count(&stats.accepted);
        raise(&stats.active, &stats.peak_active);
        let guard = ActiveGuard(Arc::clone(&stats));
        let (acceptor, limits, stats) = (acceptor.clone(), Arc::clone(&limits), Arc::clone(&stats));
        tokio::spawn(async move {
            let _permit = permit;
            let _guard = guard;
            if let Err(e) = connection(&acceptor, tcp, &limits, &stats).await {
                on_error(&e);
            }
        });
    }
}

fn timed_out(what: &str, limit: Duration) -> Error {
    Error::Io(
        what.into(),
        io::Error::new(
            io::ErrorKind::TimedOut,
            format!("longer than {} ms", limit.as_millis()),
        ),
    )
}

/// One connection: handshake within its deadline, then echo lines within the idle and total
/// deadlines, then close_notify.
async fn connection(
    acceptor: &TlsAcceptor,
    tcp: tokio::net::TcpStream,
    limits: &Limits,
    stats: &Stats,
) -> Result<(), Error> {
    let deadline = Instant::now() + limits.connection_timeout;
    // Handshake flights are written in several pieces; without this, Nagle's algorithm and the
    // peer's delayed ACK stall each handshake for tens of milliseconds.
    tcp.set_nodelay(true)
        .map_err(|e| Error::Io("connection".into(), e))?;
    let tls = match timeout(limits.handshake_timeout, acceptor.accept(tcp)).await {
        Err(_) => {
            count(&stats.handshake_timeouts);
            return Err(timed_out("handshake", limits.handshake_timeout));
        }
        Ok(Err(e)) => {
            count(&stats.handshake_failures);
            return Err(crate::net::tls_io_error(e, "handshake"));
        }
        Ok(Ok(tls)) => tls,
    };
    count(&stats.handshakes);
    let mut stream = BufReader::with_capacity(READ_BUFFER, tls);
    let result = match timeout_at(deadline, echo(&mut stream, limits, stats)).await {
        Err(_) => {
            count(&stats.timeouts);
            Err(timed_out("connection", limits.connection_timeout))
        }
        Ok(r) => r,
    };
    // close_notify, also after an error (a too-long line): best effort, briefly.
    let _ = timeout(CLOSE_TIMEOUT, stream.get_mut().shutdown()).await;
    result
}

/// Echoes lines until the peer closes.
async fn echo<S: AsyncRead + AsyncWrite + Unpin>(
    stream: &mut BufReader<S>,
    limits: &Limits,
    stats: &Stats,
) -> Result<(), Error> {
    let io = |e| Error::Io("connection".into(), e);
    let mut line = Vec::new();
    loop {
        line.clear();
        let read = timeout(
            limits.idle_timeout,
            read_line(stream, &mut line, limits.max_line),
        )
        .await;
        let n = match read {
            Err(_) => {
                count(&stats.timeouts);
                return Err(timed_out("waiting for a line", limits.idle_timeout));
            }
            Ok(Err(e)) => {
                if e.get_ref().is_some_and(|i| i.is::<LineTooLong>()) {
                    count(&stats.long_lines);
                }
                return Err(crate::net::tls_io_error(e, "connection"));
            }
            Ok(Ok(n)) => n,
        };
        if n == 0 {
            return Ok(());
        }
        let write = async {
            stream.get_mut().write_all(&line).await?;
            stream.get_mut().flush().await
        };
        match timeout(limits.idle_timeout, write).await {
            Err(_) => {
                count(&stats.timeouts);
                return Err(timed_out("writing an echo", limits.idle_timeout));
            }
            Ok(r) => r.map_err(io)?,
        }
        count(&stats.lines);
    }
}

/// The error of a line longer than the limit.
#[derive(Debug)]
struct LineTooLong(usize);

impl std::fmt::Display for LineTooLong {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line longer than {} bytes", self.0)
    }
}

impl std::error::Error for LineTooLong {}

/// Reads one line (up to and including `\n`, or what is left at end of stream) into `line`,
/// failing once it would be longer than `max` bytes; returns its length (0 at end of stream).
async fn read_line<R: AsyncBufRead + Unpin>(
    reader: &mut R,
    line: &mut Vec<u8>,
    max: usize,
) -> io::Result<usize> {
    loop {
        let buf = reader.fill_buf().await?;
        if buf.is_empty() {
            return Ok(line.len());
        }
        let (take, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (buf.len(), false),
        };
        if line.len() + take > max {
            return Err(io::Error::new(io::ErrorKind::InvalidData, LineTooLong(max)));
        }
        line.extend_from_slice(&buf[..take]);
        reader.consume(take);
        if done {
            return Ok(line.len());
        }
    }
}
