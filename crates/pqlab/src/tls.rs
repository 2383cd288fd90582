//! The TLS subcommands: `cert` (a CA and a server certificate), `serve` (a TLS 1.3 echo server)
//! and `connect` (a TLS 1.3 client). The work is done by the `pqlab-tls` crate.

use std::net::TcpListener;
use std::path::{Path, PathBuf};

use clap::Args;
use pqlab_lab::report::handshake::{self, HandshakeRow};
use pqlab_tls::cert::{CertAlg, Keypair, cert_pem, generate_chain_with_keys};
use pqlab_tls::x509::{self, Certificate};
use pqlab_tls::{net, provider, provider_for_group};
use zeroize::Zeroizing;

use crate::cli::FalconForm;
use crate::commands::Outcome;
use crate::error::{CliError, CliResult};
use crate::io;

/// Arguments of `pqlab cert`: without a subcommand (or with `make`) it makes a CA and a
/// server certificate; `show` and `verify` read certificates.
#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct CertArgs {
    /// Read certificates instead of making them.
    #[command(subcommand)]
    pub action: Option<CertAction>,
    /// Making certificates (also without a subcommand, as before).
    #[command(flatten)]
    pub make: CertMakeArgs,
}

/// What `pqlab cert` does.
#[derive(Debug, clap::Subcommand)]
pub enum CertAction {
    /// Make a CA and a server certificate (the same as `pqlab cert` without a subcommand).
    Make(CertMakeArgs),
    /// Print a certificate's subject, issuer, validity, key and signature algorithms (each
    /// certificate of a PEM chain).
    Show(CertShowArgs),
    /// Check a certificate (or a PEM chain, each signed by the next) against --ca: exit 0 when
    /// every signature verifies, every issuer is a CA (basicConstraints cA, keyUsage
    /// keyCertSign, when present) and the chain ends at a self-signed certificate of the CA
    /// file, 1 when a check fails (it is named), 2 for input that cannot be checked.
    Verify(CertVerifyArgs),
}

/// Arguments of `pqlab cert show`.
#[derive(Debug, Args)]
pub struct CertShowArgs {
    /// The certificate (PEM, one or more CERTIFICATE blocks, or DER).
    #[arg(value_name = "CERT")]
    pub cert: PathBuf,
}

/// Arguments of `pqlab cert verify`.
#[derive(Debug, Args)]
pub struct CertVerifyArgs {
    /// The certificate (PEM, one or more CERTIFICATE blocks, or DER).
    #[arg(value_name = "CERT")]
    pub cert: PathBuf,
    /// The trusted CA certificates (PEM, one or more; each is tried as the issuer, and
    /// intermediate CAs in it are followed up to a self-signed one); without it, the chain
    /// must end at a self-signed certificate (whose own signature is checked).
    #[arg(long, value_name = "CA.pem")]
    pub ca: Option<PathBuf>,
}

/// Arguments of `pqlab cert make`.
#[derive(Debug, Args)]
pub struct CertMakeArgs {
    /// The signature algorithm: ml-dsa-44, ml-dsa-65, ml-dsa-87, falcon-512, falcon-1024 or
    /// ecdsa-p256 (Falcon: non-standard OIDs and TLS code points, those of the Open Quantum
    /// Safe provider). Keys given with --key-in / --ca-key-in keep their own algorithm.
    #[arg(long, value_name = "ALG", default_value = "ml-dsa-65")]
    pub alg: String,
    /// Use this existing private key (PKCS#8 PEM or DER) for the server certificate instead of a
    /// fresh one.
    #[arg(long, value_name = "K.pem")]
    pub key_in: Option<PathBuf>,
    /// Use this existing private key (PKCS#8 PEM or DER) for the CA instead of a fresh one; a key with
    /// a HashML-DSA OID (2.16.840.1.101.3.4.3.32/33/34) signs with HashML-DSA and SHA-512.
    #[arg(long, value_name = "CAKEY.pem")]
    pub ca_key_in: Option<PathBuf>,
    /// Where to write the CA certificate (PEM); clients trust it with `--ca`.
    #[arg(long, value_name = "CA.pem", default_value = "ca.pem")]
    pub ca_out: PathBuf,
    /// Where to write the CA's private key (PKCS#8 PEM); not written if absent.
    #[arg(long, value_name = "CAKEY.pem")]
    pub ca_key_out: Option<PathBuf>,
    /// Where to write the server certificate followed by the CA certificate (PEM).
    #[arg(long, value_name = "C.pem", required = true)]
    pub cert_out: Option<PathBuf>,
    /// Where to write the server's private key (PKCS#8 PEM, readable by the owner only).
    #[arg(long, value_name = "K.pem", required = true)]
    pub key_out: Option<PathBuf>,
    /// A DNS name or IP address of the server (repeat for more).
    #[arg(long, value_name = "NAME", default_value = "localhost")]
    pub san: Vec<String>,
    /// The PKCS#8 form of the Falcon private keys written (--key-out, --ca-key-out): oqs
    /// (oqs-provider's OCTET STRING sk || pk) or bc (BouncyCastle's SEQUENCE, which
    /// BouncyCastle needs) [default: oqs; a --key-in / --ca-key-in key is written as read].
    /// Only when a written key is a Falcon key.
    #[arg(long, value_enum, value_name = "FORM")]
    pub falcon_form: Option<FalconForm>,
    /// Replace private key files that exist (without it, an existing key file is an error
    /// and nothing is written).
    #[arg(long)]
    pub force: bool,
}

/// Arguments of `pqlab serve`.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// The server certificate chain (PEM), as `pqlab cert --cert-out` writes it.
    #[arg(long, value_name = "C.pem")]
    pub cert: PathBuf,
    /// The server's private key (PKCS#8 PEM).
    #[arg(long, value_name = "K.pem")]
    pub key: PathBuf,
    /// The TCP port (0: any free port; the chosen one is printed).
    #[arg(long, default_value_t = 8443)]
    pub port: u16,
    /// The address to listen on.
    #[arg(long, default_value = "127.0.0.1")]
    pub bind: String,
    /// Connections served at once; a connection beyond them is closed at once [default: 4096].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub max_connections: Option<u32>,
    /// Worker threads [default: the number of CPUs, at most 8].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub workers: Option<u16>,
    /// Seconds from the connection to the end of the handshake [default: 10].
    #[arg(long, value_name = "S", value_parser = clap::value_parser!(u64).range(1..))]
    pub handshake_timeout: Option<u64>,
    /// Seconds allowed to receive each line and to send its echo [default: 30].
    #[arg(long, value_name = "S", value_parser = clap::value_parser!(u64).range(1..))]
    pub idle_timeout: Option<u64>,
    /// Seconds a connection may last in all [default: 300].
    #[arg(long, value_name = "S", value_parser = clap::value_parser!(u64).range(1..))]
    pub connection_timeout: Option<u64>,
    /// Longest line in bytes, newline included; a longer one closes the connection
    /// [default: 16384].
    #[arg(long, value_name = "BYTES", value_parser = clap::value_parser!(u32).range(1..))]
    pub max_line: Option<u32>,
}

/// Arguments of `pqlab connect`.
#[derive(Debug, Args)]
pub struct ConnectArgs {
    /// The server, HOST:PORT.
    #[arg(value_name = "HOST:PORT")]
    pub addr: String,
    /// The CA certificate to trust (PEM).
    #[arg(long, value_name = "CA.pem")]
    pub ca: PathBuf,
    /// Offer only this key-exchange group (X25519MLKEM768, MLKEM512, MLKEM768, MLKEM1024,
    /// X25519, secp256r1, secp384r1); default: all, X25519MLKEM768 preferred.
    #[arg(long, value_name = "NAME")]
    pub group: Option<String>,
    /// The server name to check the certificate against (default: HOST).
    #[arg(long, value_name = "NAME")]
    pub server_name: Option<String>,
    /// The line to send.
    #[arg(long, default_value = "hello, post-quantum TLS")]
    pub message: String,
}

/// Arguments of `pqlab handshake-bench`.
#[derive(Debug, Args)]
pub struct HandshakeBenchArgs {
    /// Signature algorithms, comma-separated (Falcon: non-standard code points).
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "ml-dsa-44,ml-dsa-65,ml-dsa-87,falcon-512,falcon-1024,ecdsa-p256"
    )]
    pub sigs: Vec<String>,
    /// Key-exchange groups, comma-separated [default: every group of the provider].
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "X25519MLKEM768,MLKEM512,MLKEM768,MLKEM1024,X25519,secp256r1,secp384r1"
    )]
    pub groups: Vec<String>,
    /// In-memory handshakes per combination (server/client time split, bytes).
    #[arg(long, default_value_t = 50)]
    pub iterations: usize,
    /// Concurrent loopback clients for the handshakes-per-second run (0: skip it).
    #[arg(long, default_value_t = 4)]
    pub clients: usize,
    /// Seconds of the loopback run per combination.
    #[arg(long, default_value_t = 1.0)]
    pub seconds: f64,
    /// Also write the results as JSON to this file.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
}

/// `pqlab handshake-bench`.
pub fn handshake_bench(args: &HandshakeBenchArgs) -> CliResult<Outcome> {
    let sigs = args
        .sigs
        .iter()
        .map(|s| CertAlg::from_name(s))
        .collect::<Result<Vec<_>, _>>()
        .map_err(tls_err)?;
    if !(args.seconds.is_finite() && args.seconds > 0.0 && args.seconds <= 3600.0) {
        return Err(CliError::new("--seconds must be between 0 and 3600"));
    }
    let cfg = pqlab_tls::bench::BenchConfig {
        sigs,
        groups: args.groups.clone(),
        iterations: args.iterations,
        clients: args.clients,
        duration: std::time::Duration::from_secs_f64(args.seconds),
    };
    for g in &cfg.groups {
        pqlab_tls::kx::kx_group_by_name(g)
            .ok_or_else(|| tls_err(pqlab_tls::Error::UnknownGroup(g.clone())))?;
    }
    eprintln!(
        "{} combinations: {} in-memory handshakes each, then {} s with {} loopback clients",
        cfg.sigs.len() * cfg.groups.len(),
        cfg.iterations,
        args.seconds,
        cfg.clients
    );
    let results = pqlab_tls::bench::run(&cfg, &mut |r| {
        eprintln!("  done: {} {}", r.sig, r.group);
    })
    .map_err(tls_err)?;
    print!("{}", pqlab_tls::bench::table(&results));
    println!(
        "times: median server/client processing per handshake (in memory, one thread); bytes: \
         TLS records sent by each side during the handshake"
    );
    if cfg.sigs.iter().any(|s| s.non_standard()) {
        println!(
            "falcon-512 / falcon-1024: non-standard TLS code points and OIDs (those of the Open \
             Quantum Safe provider: 0xFED7 / 0xFEDA)"
        );
    }
    if let Some(path) = &args.json {
        let text = pqlab_tls::bench::json(&results, &cfg);
        io::stage("JSON report", path, text.as_bytes(), false)?.commit()?;
    }
    Ok(Outcome::Success)
}

fn tls_err(e: pqlab_tls::Error) -> CliError {
    CliError::new(e.to_string())
}

/// `pqlab cert`.
pub fn cert(args: &CertArgs) -> CliResult<Outcome> {
    match &args.action {
        None => cert_make(&args.make),
        Some(CertAction::Make(make)) => cert_make(make),
        Some(CertAction::Show(show)) => cert_show(show),
        Some(CertAction::Verify(verify)) => cert_verify(verify),
    }
}

/// The certificates of a file (PEM chain or DER).
fn read_certs(what: &str, path: &Path) -> CliResult<Vec<Vec<u8>>> {
    let data = io::read_small(what, path)?;
    let certs = x509::certificates(&data).map_err(|e| CliError::file(what, path, e))?;
    for der in &certs {
        Certificate::from_der(der).map_err(|e| CliError::file(what, path, e))?;
    }
    Ok(certs)
}

/// `pqlab cert show`.
fn cert_show(args: &CertShowArgs) -> CliResult<Outcome> {
    let certs = read_certs("certificate file", &args.cert)?;
    let mut text = String::new();
    for (i, der) in certs.iter().enumerate() {
        let cert = Certificate::from_der(der).map_err(tls_err)?;
        if certs.len() > 1 {
            text.push_str(&format!("certificate {} of {}:\n", i + 1, certs.len()));
        }
        for (field, value) in cert.describe() {
            text.push_str(&format!("{field}: {value}\n"));
        }
    }
    print!("{text}");
    Ok(Outcome::Success)
}

/// `pqlab cert verify`: every certificate signed by the next, the last by a certificate of
/// the CA file (each is tried; up to a self-signed one of it) or by itself without --ca; every
/// issuer a CA (basicConstraints, keyUsage), each certificate within its validity period
/// (`pqlab_tls::x509::verify_chain`). Prints `valid`, or `invalid: ` and the failed check.
fn cert_verify(args: &CertVerifyArgs) -> CliResult<Outcome> {
    let what = "certificate file";
    let ders = read_certs(what, &args.cert)?;
    let ca_ders = match &args.ca {
        Some(p) => read_certs("CA certificate file", p)?,
        None => Vec::new(),
    };
    fn parse(ders: &[Vec<u8>]) -> CliResult<Vec<Certificate<'_>>> {
        ders.iter()
            .map(|d| Certificate::from_der(d).map_err(tls_err))
            .collect()
    }
    let (certs, cas) = (parse(&ders)?, parse(&ca_ders)?);
    match x509::verify_chain(&certs, &cas).map_err(|e| CliError::file(what, &args.cert, e))? {
        Ok(()) => {
            println!("valid");
            Ok(Outcome::Success)
        }
        Err(reason) => {
            println!("invalid: {reason}");
            Ok(Outcome::InvalidSignature)
        }
    }
}

/// `pqlab cert` (make).
fn cert_make(args: &CertMakeArgs) -> CliResult<Outcome> {
    let cert_out = args
        .cert_out
        .as_deref()
        .ok_or_else(|| CliError::new("--cert-out is required"))?;
    let key_out = args
        .key_out
        .as_deref()
        .ok_or_else(|| CliError::new("--key-out is required"))?;
    let alg = CertAlg::from_name(&args.alg).map_err(|_| {
        CliError::new(format!(
            "unknown algorithm '{}' for cert (known: {})",
            args.alg,
            CertAlg::names()
        ))
    })?;
    let key = |path: &Option<PathBuf>, what: &str| -> CliResult<Keypair> {
        match path {
            Some(p) => {
                let data = io::read_small(what, p)?;
                // PKCS#8 as DER too (BouncyCastle's getEncoded(), openssl -outform DER).
                if !crate::pkcs::is_pem(&data) && crate::pkcs::is_der(&data) {
                    let der = crate::pkcs::der_document(&data, true)
                        .map_err(|e| CliError::file(what, p, e))?;
                    return Keypair::from_pkcs8_der(&der).map_err(|e| CliError::file(what, p, e));
                }
                let text = std::str::from_utf8(&data)
                    .map_err(|_| CliError::file(what, p, "neither PEM text nor DER"))?;
                Keypair::from_pkcs8_pem(text).map_err(|e| CliError::file(what, p, e))
            }
            None => Keypair::generate(alg).map_err(tls_err),
        }
    };
    let ca_key = key(&args.ca_key_in, "CA private key")?;
    let leaf_key = key(&args.key_in, "private key")?;
    if args.falcon_form.is_some() {
        let mut written =
            std::iter::once(&leaf_key).chain(args.ca_key_out.as_ref().map(|_| &ca_key));
        if !written.any(|k| crate::pkcs::is_falcon(k.alg().name())) {
            return Err(CliError::new(format!(
                "--falcon-form is for Falcon keys, and no key written is one ({})",
                leaf_key.alg().name()
            )));
        }
    }
    let chain = generate_chain_with_keys(ca_key, leaf_key, &args.san).map_err(tls_err)?;
    let ca_pem = cert_pem(&chain.ca_cert).map_err(tls_err)?;
    let leaf_pem = cert_pem(&chain.leaf_cert).map_err(tls_err)?;
    let key_pem = written_key_pem(&chain.leaf_key, args.falcon_form)?;
    let mut staged = vec![
        io::stage("CA certificate", &args.ca_out, ca_pem.as_bytes(), false)?,
        io::stage(
            "certificate",
            cert_out,
            format!("{leaf_pem}{ca_pem}").as_bytes(),
            false,
        )?,
        io::stage_key("private key", key_out, key_pem.as_bytes(), true, args.force)?,
    ];
    if let Some(path) = &args.ca_key_out {
        let ca_key_pem = written_key_pem(&chain.ca_key, args.falcon_form)?;
        staged.push(io::stage_key(
            "CA private key",
            path,
            ca_key_pem.as_bytes(),
            true,
            args.force,
        )?);
    }
    for file in staged {
        file.commit()?;
    }
    let leaf_alg = chain.leaf_key.alg();
    let note = if leaf_alg.non_standard() || chain.ca_key.alg().non_standard() {
        " (non-standard: the OIDs and TLS code points of the Open Quantum Safe provider)"
    } else {
        ""
    };
    println!(
        "{}{note}: wrote the CA certificate {}, the server certificate {} and its key {}",
        chain.leaf_key.name(),
        args.ca_out.display(),
        cert_out.display(),
        key_out.display()
    );
    Ok(Outcome::Success)
}

/// The PKCS#8 PEM of a key `cert` writes: as pqlab-tls holds it, or a Falcon key in `form`.
fn written_key_pem(key: &Keypair, form: Option<FalconForm>) -> CliResult<Zeroizing<String>> {
    let name = key.alg().name();
    let Some(form) = form.filter(|_| crate::pkcs::is_falcon(name)) else {
        return key.pkcs8_pem().map_err(tls_err);
    };
    let private = crate::pkcs::decode_private(name, key.pkcs8_der()).map_err(CliError::new)?;
    let der = crate::pkcs::encode_falcon_private(name, &private.expanded, form.codec())
        .map_err(CliError::new)?;
    crate::pkcs::pem_encode(crate::pkcs::PRIVATE_KEY_LABEL, &der).map_err(CliError::new)
}

/// `pqlab serve`: runs until killed.
pub fn serve(args: &ServeArgs) -> CliResult<Outcome> {
    let chain = net::load_certs(&args.cert).map_err(tls_err)?;
    let key = net::load_key(&args.key).map_err(tls_err)?;
    let config = net::server_config(provider(), chain, key).map_err(tls_err)?;
    let listener = TcpListener::bind((args.bind.as_str(), args.port))
        .map_err(|e| CliError::new(format!("cannot listen on {}:{}: {e}", args.bind, args.port)))?;
    let local = listener
        .local_addr()
        .map_err(|e| CliError::new(format!("cannot read the listening address: {e}")))?;
    println!("listening on {local}");
    // Tests and scripts wait for this line; make sure it leaves the process now.
    let _ = std::io::Write::flush(&mut std::io::stdout());
    let mut limits = net::Limits::default();
    let secs = std::time::Duration::from_secs;
    limits.max_connections = args
        .max_connections
        .map_or(limits.max_connections, |n| n as usize);
    limits.worker_threads = args.workers.map_or(limits.worker_threads, usize::from);
    limits.handshake_timeout = args
        .handshake_timeout
        .map_or(limits.handshake_timeout, secs);
    limits.idle_timeout = args.idle_timeout.map_or(limits.idle_timeout, secs);
    limits.connection_timeout = args
        .connection_timeout
        .map_or(limits.connection_timeout, secs);
    limits.max_line = args.max_line.map_or(limits.max_line, |n| n as usize);
    net::serve_with_limits(&listener, config, &limits, |e| {
        eprintln!("pqlab serve: {e}")
    })
    .map_err(tls_err)?;
    Ok(Outcome::Success)
}

/// `pqlab connect`.
pub fn connect(args: &ConnectArgs) -> CliResult<Outcome> {
    let roots = net::load_certs(&args.ca).map_err(tls_err)?;
    let provider = match &args.group {
        Some(name) => provider_for_group(name).map_err(tls_err)?,
        None => provider(),
    };
    let client = net::client_config(provider, &roots).map_err(tls_err)?;
    let host = match &args.server_name {
        Some(name) => name.clone(),
        None => {
            let (host, _port) = args
                .addr
                .rsplit_once(':')
                .ok_or_else(|| CliError::new(format!("'{}' is not HOST:PORT", args.addr)))?;
            host.trim_start_matches('[')
                .trim_end_matches(']')
                .to_string()
        }
    };
    let (negotiated, echo) =
        net::connect_and_echo(&client, &args.addr, &host, &args.message).map_err(tls_err)?;
    if echo != args.message {
        return Err(CliError::new(format!(
            "the server echoed '{echo}' instead of '{}'",
            args.message
        )));
    }
    println!("group: {}", negotiated.group);
    println!("signature: {}", negotiated.signature);
    println!("cipher suite: {}", negotiated.cipher_suite);
    println!("echo: {echo}");
    Ok(Outcome::Success)
}

/// Reads a `pqlab handshake-bench --json` file for `pqlab compare --handshake`.
pub fn read_handshake_json(path: &Path) -> CliResult<Vec<HandshakeRow>> {
    const WHAT: &str = "handshake report";
    let data = io::read_small(WHAT, path)?;
    let text =
        std::str::from_utf8(&data).map_err(|_| CliError::file(WHAT, path, "not UTF-8 text"))?;
    handshake::parse_json(text).map_err(|e| CliError::file(WHAT, path, e))
}

/// A short handshake benchmark of every signature × group, for `pqlab compare --tls`.
pub fn short_handshake_bench() -> CliResult<Vec<HandshakeRow>> {
    let cfg = pqlab_tls::bench::BenchConfig {
        sigs: CertAlg::ALL.iter().map(|(_, a)| *a).collect(),
        groups: pqlab_tls::kx::KX_GROUP_NAMES
            .iter()
            .map(|(n, _)| (*n).to_string())
            .collect(),
        iterations: 10,
        clients: 2,
        duration: std::time::Duration::from_millis(250),
    };
    eprintln!(
        "TLS: {} signature × group combinations (10 in-memory handshakes and 0.25 s over \
         loopback each)",
        cfg.sigs.len() * cfg.groups.len()
    );
    let results = pqlab_tls::bench::run(&cfg, &mut |_| {}).map_err(tls_err)?;
    Ok(results.iter().map(handshake_row).collect())
}

/// A handshake-bench result as the lab's report row.
fn handshake_row(r: &pqlab_tls::bench::BenchResult) -> HandshakeRow {
    HandshakeRow {
        sig: r.sig.to_string(),
        group: r.group.clone(),
        server_us_median: r.server_us,
        client_us_median: r.client_us,
        server_bytes: r.server_bytes as u64,
        client_bytes: r.client_bytes as u64,
        handshakes_per_s: r.handshakes_per_s,
    }
}
