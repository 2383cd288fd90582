//! The command-line grammar (clap derive) and the handling of clap's own errors: usage errors
//! print one line to standard error and exit with status 2; `--help` and `--version` print
//! to standard output and exit with status 0.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::error::ErrorKind;
use clap::{Args, Parser, Subcommand, ValueEnum};

/// pqlab: post-quantum signatures and KEMs (FIPS 204 ML-DSA, FIPS 203 ML-KEM).
///
/// Exit status: 0 success (for verify: the signature is valid), 1 the signature does not
/// verify, 2 a usage or input error.
#[derive(Debug, Parser)]
#[command(name = "pqlab", version)]
pub struct Cli {
    /// The command to run.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// List the algorithms with their standards and sizes in bytes.
    List,
    /// Generate a key pair and write both key files.
    Keygen(KeygenArgs),
    /// Sign a message (from --in or standard input).
    Sign(SignArgs),
    /// Verify a signature: prints "valid" (exit 0) or "invalid signature" (exit 1).
    Verify(VerifyArgs),
    /// Encapsulate (KEM): write a fresh ciphertext and its shared secret.
    Encaps(EncapsArgs),
    /// Decapsulate (KEM): write the shared secret of a ciphertext.
    Decaps(DecapsArgs),
    /// TLS: make a CA and a server certificate (ML-DSA, Falcon or ECDSA P-256).
    Cert(crate::tls::CertArgs),
    /// TLS: run a TLS 1.3 echo server with post-quantum key exchange and signatures.
    Serve(crate::tls::ServeArgs),
    /// TLS: connect to a TLS 1.3 server, send a line, print what was negotiated.
    Connect(crate::tls::ConnectArgs),
    /// TLS: measure handshakes (server/client cost, bytes, handshakes per second).
    HandshakeBench(crate::tls::HandshakeBenchArgs),
    /// Measure every scheme (and, with --peers, other implementations) side by side: sizes,
    /// latency distributions, cycles, stack, heap, statistics; terminal, JSON, CSV and HTML.
    Compare(CompareArgs),
    /// Hardware lab: simulate the RTL kernels against pqlab, synthesize them (Yosys) and print
    /// the FPGA study's table (needs python3, amaranth, yosys; runs hw/lab.py).
    Hw(crate::hw::HwArgs),
}

/// Arguments of `pqlab compare`.
#[derive(Debug, Args)]
pub struct CompareArgs {
    /// Algorithms to measure, comma-separated [default: all].
    #[arg(long, value_name = "LIST", value_delimiter = ',')]
    pub algs: Vec<String>,
    /// Operations to measure, comma-separated: keygen, sign, verify, encaps, decaps
    /// [default: all].
    #[arg(long, value_name = "LIST", value_delimiter = ',')]
    pub ops: Vec<String>,
    /// Timed calls per measurement [default: 500; 15 with --quick].
    #[arg(long, value_name = "N")]
    pub iterations: Option<usize>,
    /// Message lengths in bytes for sign and verify, comma-separated [default: 32,1024,10240;
    /// 32 with --quick].
    #[arg(long, value_name = "LIST", value_delimiter = ',')]
    pub msg_sizes: Vec<usize>,
    /// Also measure other implementations (RustCrypto, PQClean via pqcrypto), after checking
    /// that they agree with pqlab (needs a build with the `peers` feature).
    #[arg(long)]
    pub peers: bool,
    /// A run of a few seconds (few iterations, one message length).
    #[arg(long)]
    pub quick: bool,
    /// Measure the modular-reduction strategies instead of the schemes: forward and inverse
    /// NTT and a whole operation per module (Falcon verification, Falcon key generation,
    /// ML-DSA, ML-KEM) under Montgomery, Barrett, K2-RED and `%`, against Montgomery, with the bytes of
    /// precomputed tables (JSON: a `reductions` array; HTML: a table and a chart).
    #[arg(long, conflicts_with_all = ["peers", "algs", "ops", "msg_sizes"])]
    pub reductions: bool,
    /// Force the back end of pqlab's ML-DSA and ML-KEM kernels: portable, avx2 or avx512
    /// [default: the best this CPU has, or PQLAB_BACKEND]. Recorded as `machine.backend`.
    #[arg(long, value_name = "NAME", conflicts_with = "backends")]
    pub backend: Option<String>,
    /// Measure pqlab's ML-DSA and ML-KEM operations under every back end this machine can run
    /// (portable, AVX2, AVX-512) instead of the usual comparison, with the speed-up against
    /// portable (JSON: a `backends` array).
    #[arg(long, conflicts_with_all = ["peers", "reductions"])]
    pub backends: bool,
    /// Measure on another target: `cortex-m4` runs firmware images of pqlab and of PQClean's
    /// clean C code (the latter by default where arm-none-eabi-gcc is installed; --peers makes
    /// it required) on QEMU's emulated STM32F405 (needs qemu-system-arm and the
    /// thumbv7em-none-eabihf Rust target); --iterations is the calls per operation there
    /// [default: 5; 1 with --quick]. With --reductions: the reduction-strategy study on the M4
    /// (exact instruction counts).
    #[arg(long, value_name = "TARGET", conflicts_with_all = ["backends", "tls"])]
    pub target: Option<String>,
    /// The folder of the studies' published figures for the section "Published vs measured"
    /// [default: PQLAB_PAPERS, else ../shared/papers]; a missing folder is one line in the
    /// report, not an error.
    #[arg(long, value_name = "DIR")]
    pub papers: Option<PathBuf>,
    /// Write the report as JSON (the stable schema of DESIGN.md section 4).
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Write one CSV row per measurement.
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,
    /// Write a self-contained HTML report with SVG charts.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    /// Print every table (sizes, latency, message length, peers, memory, energy, statistics,
    /// notes) instead of the one-screen summary.
    #[arg(long, short = 'v')]
    pub verbose: bool,
    /// Estimate energy with this constant power draw in watts.
    #[arg(long, value_name = "W", conflicts_with = "power_profile")]
    pub power_watts: Option<f64>,
    /// Estimate energy with a named power model: cortex-m4-168mhz, laptop-15w, server-core-10w.
    #[arg(long, value_name = "NAME")]
    pub power_profile: Option<String>,
    /// Add TLS handshake results (a `pqlab handshake-bench --json` file) to the report:
    /// a terminal table and, with --html, charts per signature × group.
    #[arg(long, value_name = "FILE", conflicts_with = "tls")]
    pub handshake: Option<PathBuf>,
    /// Run a short handshake benchmark (every signature × group) and add it to the report.
    #[arg(long)]
    pub tls: bool,
}

/// The encoding of key files written by `keygen`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// The standard's byte encoding (ML-DSA: pkEncode and the expanded skEncode; ML-KEM: ek
    /// and the expanded dk).
    Raw,
    /// PEM: SubjectPublicKeyInfo and PKCS#8 (seed form) with the NIST OIDs.
    Pem,
}

/// The PKCS#8 form of the Falcon private keys written (`--falcon-form`); reading accepts both.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum FalconForm {
    /// oqs-provider's: privateKey is an OCTET STRING holding the secret key followed by the
    /// public key (pqlab's canonical form; OpenSSL with oqs-provider reads it).
    #[default]
    Oqs,
    /// BouncyCastle's: privateKey is its FalconPrivateKey SEQUENCE { version, f, g, F,
    /// publicKey } (BouncyCastle 1.87 reads only this form).
    #[value(alias = "bouncycastle")]
    Bc,
}

impl FalconForm {
    /// The codec's form.
    pub fn codec(self) -> pqlab_falcon::pkcs8::PrivateKeyForm {
        match self {
            FalconForm::Oqs => pqlab_falcon::pkcs8::PrivateKeyForm::Oqs,
            FalconForm::Bc => pqlab_falcon::pkcs8::PrivateKeyForm::BouncyCastle,
        }
    }
}

/// Arguments of `pqlab keygen`.
#[derive(Debug, Args)]
pub struct KeygenArgs {
    /// The algorithm (see `pqlab list`).
    #[arg(value_name = "ALG")]
    pub alg: String,
    /// Where to write the public key (for a KEM: the encapsulation key).
    #[arg(long, value_name = "PK")]
    pub public_key: PathBuf,
    /// Where to write the secret key (for a KEM: the decapsulation key; readable by the
    /// owner only).
    #[arg(long, value_name = "SK")]
    pub secret_key: PathBuf,
    /// Derive the key pair from the seed in this file (hex text, surrounding white space
    /// ignored; `-` reads standard input) instead of OS randomness: 32 bytes xi for ML-DSA,
    /// 64 bytes d || z for ML-KEM, 48 bytes for Falcon.
    #[arg(long, value_name = "FILE", conflicts_with = "seed")]
    pub seed_file: Option<PathBuf>,
    /// Like --seed-file, with the seed (hex) on the command line. Discouraged, with a warning:
    /// the command line is visible to other users in the process list and lands in the shell's
    /// history.
    #[arg(long, value_name = "HEX")]
    pub seed: Option<String>,
    /// The key file format. Reading detects the format by itself.
    #[arg(long, value_enum, default_value_t = Format::Raw)]
    pub format: Format,
    /// The PKCS#8 form of a Falcon secret key written with --format pem: oqs (oqs-provider's
    /// OCTET STRING sk || pk) or bc (BouncyCastle's SEQUENCE, which BouncyCastle needs)
    /// [default: oqs]. Only for falcon-512 / falcon-1024 with --format pem.
    #[arg(long, value_enum, value_name = "FORM")]
    pub falcon_form: Option<FalconForm>,
    /// Replace key files that exist (without it, an existing file is an error and nothing is
    /// written).
    #[arg(long)]
    pub force: bool,
}

/// Arguments of `pqlab sign`.
#[derive(Debug, Args)]
pub struct SignArgs {
    /// The algorithm (see `pqlab list`).
    #[arg(value_name = "ALG")]
    pub alg: String,
    /// The secret key file (raw or PEM).
    #[arg(long, value_name = "SK")]
    pub secret_key: PathBuf,
    /// The message file [default: standard input].
    #[arg(long = "in", value_name = "MSG")]
    pub input: Option<PathBuf>,
    /// Where to write the signature [default: standard output].
    #[arg(long, value_name = "SIG")]
    pub out: Option<PathBuf>,
    /// The context string, in hex (at most 255 bytes) [default: empty].
    #[arg(long, value_name = "HEX")]
    pub context: Option<String>,
    /// Deterministic signing (rnd = 0) instead of hedged signing with OS randomness.
    #[arg(long)]
    pub deterministic: bool,
    /// Sign with HashML-DSA, pre-hashing the message with HASH (sha2-224, sha2-256, sha2-384,
    /// sha2-512, sha2-512/224, sha2-512/256, sha3-224, sha3-256, sha3-384, sha3-512,
    /// shake-128, shake-256).
    #[arg(long, value_name = "HASH")]
    pub prehash: Option<String>,
}

/// Arguments of `pqlab verify`.
#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// The algorithm (see `pqlab list`).
    #[arg(value_name = "ALG")]
    pub alg: String,
    /// The public key file (raw or PEM).
    #[arg(long, value_name = "PK")]
    pub public_key: PathBuf,
    /// The signature file (raw).
    #[arg(long, value_name = "SIG")]
    pub signature: PathBuf,
    /// The message file [default: standard input].
    #[arg(long = "in", value_name = "MSG")]
    pub input: Option<PathBuf>,
    /// The context string, in hex (at most 255 bytes) [default: empty].
    #[arg(long, value_name = "HEX")]
    pub context: Option<String>,
    /// Verify a HashML-DSA signature made with pre-hash HASH (see `pqlab sign --help`).
    #[arg(long, value_name = "HASH")]
    pub prehash: Option<String>,
}

/// Arguments of `pqlab encaps`.
#[derive(Debug, Args)]
pub struct EncapsArgs {
    /// The algorithm (see `pqlab list`).
    #[arg(value_name = "ALG")]
    pub alg: String,
    /// The encapsulation key file (raw or PEM).
    #[arg(long, value_name = "PK")]
    pub public_key: PathBuf,
    /// Where to write the ciphertext (raw).
    #[arg(long, value_name = "CT")]
    pub ciphertext: PathBuf,
    /// Where to write the 32-byte shared secret (raw; readable by the owner only).
    #[arg(long, value_name = "SS")]
    pub shared_secret: PathBuf,
}

/// Arguments of `pqlab decaps`.
#[derive(Debug, Args)]
pub struct DecapsArgs {
    /// The algorithm (see `pqlab list`).
    #[arg(value_name = "ALG")]
    pub alg: String,
    /// The decapsulation key file (raw or PEM).
    #[arg(long, value_name = "SK")]
    pub secret_key: PathBuf,
    /// The ciphertext file (raw).
    #[arg(long, value_name = "CT")]
    pub ciphertext: PathBuf,
    /// Where to write the 32-byte shared secret (raw; readable by the owner only).
    #[arg(long, value_name = "SS")]
    pub shared_secret: PathBuf,
}

/// Parses the command line. On `--help` or `--version` prints them and returns the exit status
/// 0; on a usage error prints one line to standard error and returns the exit status 2.
pub fn parse() -> Result<Cli, ExitCode> {
    let err = match Cli::try_parse() {
        Ok(cli) => return Ok(cli),
        Err(err) => err,
    };
    match err.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
            // Nothing useful can be done if standard output is closed.
            let _ = err.print();
            Err(ExitCode::SUCCESS)
        }
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            eprint!("{}", err.render());
            Err(ExitCode::from(2))
        }
        _ => {
            eprintln!("pqlab: error: {}", one_line(&err.render().to_string()));
            Err(ExitCode::from(2))
        }
    }
}

/// Folds clap's error text (message, details, tips; then usage) into one line: everything
/// before the usage, joined with spaces, plus a pointer to `--help`.
fn one_line(text: &str) -> String {
    let mut parts = Vec::new();
    let mut command = "pqlab".to_string();
    let mut lines = text.lines().map(str::trim);
    for line in lines.by_ref() {
        if let Some(usage) = line.strip_prefix("Usage:") {
            // "Usage: pqlab keygen [OPTIONS] ..." names the (sub)command.
            let words: Vec<&str> = usage
                .split_whitespace()
                .take_while(|w| !w.starts_with(['-', '[', '<']))
                .collect();
            if !words.is_empty() {
                command = words.join(" ");
            }
            break;
        }
        if line.starts_with("For more information") {
            break;
        }
        if !line.is_empty() {
            parts.push(line.strip_prefix("error: ").unwrap_or(line));
        }
    }
    let mut msg = parts.join(" ");
    if msg.is_empty() {
        msg = "invalid command line".into();
    }
    msg.push_str(&format!(" (see '{command} --help')"));
    msg
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clap_definition_is_consistent() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
    }

    #[test]
    fn errors_fold_to_one_line() {
        let text = "error: the following required arguments were not provided:\n  \
                    --public-key <PK>\n\nUsage: pqlab keygen --public-key <PK> <ALG>\n\n\
                    For more information, try '--help'.\n";
        assert_eq!(
            one_line(text),
            "the following required arguments were not provided: --public-key <PK> \
             (see 'pqlab keygen --help')"
        );
    }
}
