//! The subcommands: `list`, `keygen`, `sign`, `verify`, `encaps` and `decaps`.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

use pqlab_mldsa::{HashAlg, MAX_CONTEXT_LEN};
use zeroize::Zeroizing;

use crate::algs::{self, Algorithm, KemScheme, Kind, SignOptions, SignatureScheme};
use crate::cli::{Command, DecapsArgs, EncapsArgs, Format, KeygenArgs, SignArgs, VerifyArgs};
use crate::error::{CliError, CliResult};
use crate::keyfile::Part;
use crate::{io, keyfile};

/// How a command that ran to the end turned out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Success (exit status 0).
    Success,
    /// The signature does not verify (exit status 1).
    InvalidSignature,
}

/// Runs a subcommand.
pub fn run(command: Command) -> CliResult<Outcome> {
    match command {
        Command::List => list(),
        Command::Keygen(args) => keygen(&args),
        Command::Sign(args) => sign(&args),
        Command::Verify(args) => verify(&args),
        Command::Encaps(args) => encaps(&args),
        Command::Decaps(args) => decaps(&args),
        Command::Compare(args) => crate::compare::run(&args).map(|()| Outcome::Success),
        Command::Hw(args) => crate::hw::run(&args),
        Command::Cert(args) => crate::tls::cert(&args),
        Command::Serve(args) => crate::tls::serve(&args),
        Command::Connect(args) => crate::tls::connect(&args),
        Command::HandshakeBench(args) => crate::tls::handshake_bench(&args),
    }
}

/// Looks up the algorithm named on the command line.
fn algorithm(name: &str) -> CliResult<&'static dyn Algorithm> {
    algs::find(name).ok_or_else(|| {
        CliError::new(format!(
            "unknown algorithm '{name}' (known: {})",
            algs::names()
        ))
    })
}

/// Looks up an algorithm of kind `want` named on the command line, with the operations `ops`
/// gives for it.
fn scheme<T: ?Sized>(
    name: &str,
    want: Kind,
    ops: fn(&'static dyn Algorithm) -> Option<&'static T>,
) -> CliResult<(&'static dyn Algorithm, &'static T)> {
    let alg = algorithm(name)?;
    match ops(alg) {
        Some(scheme) => Ok((alg, scheme)),
        None => {
            let kind = alg.info().kind;
            Err(CliError::new(format!(
                "{} is a {}, not a {}; use it with {}",
                alg.info().name,
                kind.noun(),
                want.noun(),
                kind.commands()
            )))
        }
    }
}

/// Looks up a signature scheme named on the command line.
fn signature_scheme(
    name: &str,
) -> CliResult<(&'static dyn Algorithm, &'static dyn SignatureScheme)> {
    scheme(name, Kind::Signature, |a| a.as_signature())
}

/// Looks up a KEM named on the command line.
fn kem_scheme(name: &str) -> CliResult<(&'static dyn Algorithm, &'static dyn KemScheme)> {
    scheme(name, Kind::Kem, |a| a.as_kem())
}

/// Decodes a hex argument.
fn hex_arg(flag: &str, text: &str) -> CliResult<Zeroizing<Vec<u8>>> {
    hex::decode(text)
        .map(Zeroizing::new)
        .map_err(|e| CliError::new(format!("{flag}: not valid hex: {e}")))
}

/// Decodes a key generation seed given in hex by `flag` and checks its length for `info`'s
/// algorithm.
fn seed_arg(flag: &str, text: &str, info: &algs::Info) -> CliResult<Zeroizing<Vec<u8>>> {
    let seed = hex_arg(flag, text)?;
    if seed.len() != info.seed_len {
        return Err(CliError::new(format!(
            "{flag}: expected {} bytes ({} hex digits) for {}, found {}",
            info.seed_len,
            2 * info.seed_len,
            info.name,
            seed.len()
        )));
    }
    Ok(seed)
}

/// Reads a seed file (at most [`io::MAX_SMALL_FILE`] bytes), or standard input for `-`.
fn read_seed_file(path: &Path) -> CliResult<Zeroizing<Vec<u8>>> {
    if path.as_os_str() != "-" {
        return io::read_small("seed file", path);
    }
    let mut data = Zeroizing::new(Vec::new());
    std::io::Read::read_to_end(
        &mut std::io::Read::take(std::io::stdin().lock(), io::MAX_SMALL_FILE),
        &mut data,
    )
    .map_err(|e| {
        CliError::new(format!(
            "cannot read the seed from standard input: {}",
            io::io_message(&e)
        ))
    })?;
    Ok(data)
}

/// Decodes `--context`, at most 255 bytes.
fn context_arg(text: Option<&str>) -> CliResult<Vec<u8>> {
    let Some(text) = text else {
        return Ok(Vec::new());
    };
    let ctx = hex_arg("--context", text)?;
    if ctx.len() > MAX_CONTEXT_LEN {
        return Err(CliError::new(format!(
            "--context: {} bytes, at most {MAX_CONTEXT_LEN} are allowed",
            ctx.len()
        )));
    }
    Ok(ctx.to_vec())
}

/// Looks up `--prehash`.
fn prehash_arg(name: Option<&str>) -> CliResult<Option<HashAlg>> {
    let Some(name) = name else { return Ok(None) };
    HashAlg::from_name(name).map(Some).map_err(|_| {
        let known: Vec<String> = HashAlg::ALL
            .iter()
            .map(|h| h.name().to_ascii_lowercase())
            .collect();
        CliError::new(format!(
            "--prehash: unknown hash function '{name}' (known: {})",
            known.join(", ")
        ))
    })
}

/// The pre-hash to use: a key whose OID names HashML-DSA with SHA-512 signs and verifies with
/// SHA-512 (`--prehash sha2-512` may be given, another hash may not).
fn key_prehash_arg(
    arg: Option<HashAlg>,
    key: Option<HashAlg>,
    what: &str,
    path: &Path,
) -> CliResult<Option<HashAlg>> {
    match (arg, key) {
        (Some(a), Some(k)) if a != k => Err(CliError::file(
            what,
            path,
            format!(
                "holds a HashML-DSA key with {}, but --prehash {} was given",
                k.name(),
                a.name().to_ascii_lowercase()
            ),
        )),
        (a, k) => Ok(k.or(a)),
    }
}

/// Writes text to standard output, reporting (not panicking on) a closed pipe.
fn print(text: &str) -> CliResult<()> {
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(|e| {
            CliError::new(format!(
                "cannot write to standard output: {}",
                io::io_message(&e)
            ))
        })
}

/// `pqlab list`: a table of the algorithms with their standards and sizes in bytes.
fn list() -> CliResult<Outcome> {
    let infos: Vec<_> = algs::ALGORITHMS.iter().map(|a| a.info()).collect();
    let any_kem = infos.iter().any(|i| i.kind == Kind::Kem);
    let mut header = vec![
        "algorithm",
        "standard",
        "kind",
        "public key",
        "secret key",
        "signature",
    ];
    if any_kem {
        header.push("ciphertext");
    }
    let size = |n: Option<usize>| n.map_or_else(|| "-".to_string(), |n| n.to_string());
    let rows: Vec<Vec<String>> = infos
        .iter()
        .map(|i| {
            let mut row = vec![
                i.name.to_string(),
                i.standard.to_string(),
                i.kind.as_str().to_string(),
                i.public_key_len.to_string(),
                i.secret_key_len.to_string(),
                match (i.signature_len, i.signature_len_is_max) {
                    (Some(n), true) => format!("<= {n}"),
                    (n, _) => size(n),
                },
            ];
            if any_kem {
                row.push(size(i.ciphertext_len));
            }
            row
        })
        .collect();
    let widths: Vec<usize> = (0..header.len())
        .map(|c| {
            rows.iter()
                .map(|r| r[c].len())
                .chain([header[c].len()])
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut text = String::new();
    let mut line = |cells: &[&str]| {
        let mut l = String::new();
        for (c, cell) in cells.iter().enumerate() {
            // Names and words left-aligned, sizes right-aligned.
            if c < 3 {
                l.push_str(&format!("{cell:<w$}  ", w = widths[c]));
            } else {
                l.push_str(&format!("{cell:>w$}  ", w = widths[c]));
            }
        }
        text.push_str(l.trim_end());
        text.push('\n');
    };
    line(&header);
    for row in &rows {
        line(&row.iter().map(String::as_str).collect::<Vec<_>>());
    }
    text.push_str("(sizes in bytes; the secret key is the expanded encoding");
    if any_kem {
        text.push_str(
            "; for a KEM the public key is the encapsulation key ek and the secret key the \
             decapsulation key dk",
        );
    }
    text.push_str(")\n");
    print(&text)?;
    Ok(Outcome::Success)
}

/// True if `a` and `b` name the same file (so that one output would overwrite the other).
fn same_destination(a: &Path, b: &Path) -> bool {
    fn resolve(p: &Path) -> Option<PathBuf> {
        let parent = match p.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        Some(parent.canonicalize().ok()?.join(p.file_name()?))
    }
    a == b || matches!((resolve(a), resolve(b)), (Some(x), Some(y)) if x == y)
}

/// Checks that no output file is another output or an input (it would be overwritten).
/// Each file comes with its flag, for the message.
fn distinct_outputs(outputs: &[(&str, &Path)], inputs: &[(&str, &Path)]) -> CliResult<()> {
    for (i, (flag_a, a)) in outputs.iter().enumerate() {
        for (flag_b, b) in outputs[i + 1..].iter().chain(inputs) {
            if same_destination(a, b) {
                return Err(CliError::new(format!(
                    "{flag_a} and {flag_b} name the same file"
                )));
            }
        }
    }
    Ok(())
}

/// `pqlab keygen`: generates a key pair and writes both files, or neither.
fn keygen(args: &KeygenArgs) -> CliResult<Outcome> {
    let alg = algorithm(&args.alg)?;
    let info = alg.info();
    if args.falcon_form.is_some() {
        if !crate::pkcs::is_falcon(info.name) {
            return Err(CliError::new(format!(
                "--falcon-form is for Falcon keys (falcon-512, falcon-1024), not {}",
                info.name
            )));
        }
        if args.format != Format::Pem {
            return Err(CliError::new(
                "--falcon-form chooses the PKCS#8 form: it needs --format pem",
            ));
        }
    }
    let seed = match (&args.seed, &args.seed_file) {
        (Some(text), _) => {
            eprintln!(
                "pqlab: warning: --seed puts key material on the command line (visible in the \
                 process list and the shell history); use --seed-file"
            );
            Some(seed_arg("--seed", text, &info)?)
        }
        (None, Some(path)) => {
            let text = read_seed_file(path)?;
            let text = std::str::from_utf8(&text).map_err(|_| {
                CliError::file(
                    "seed file",
                    path,
                    "not hex text (the seed is written in hex)",
                )
            })?;
            Some(seed_arg("--seed-file", text.trim(), &info)?)
        }
        (None, None) => None,
    };
    distinct_outputs(
        &[
            ("--public-key", &args.public_key),
            ("--secret-key", &args.secret_key),
        ],
        &[],
    )?;
    let pair = alg
        .keygen(seed.as_ref().map(|s| s.as_slice()))
        .map_err(|e| CliError::new(format!("key generation failed: {e}")))?;
    let pk = keyfile::encode_public_key(alg, &pair.public, args.format)?;
    let sk = keyfile::encode_secret_key(
        alg,
        &pair.secret,
        args.format,
        args.falcon_form.unwrap_or_default(),
    )?;
    let pk = io::stage_key(
        info.kind.public_key_file(),
        &args.public_key,
        &pk,
        false,
        args.force,
    )?;
    let sk = io::stage_key(
        info.kind.secret_key_file(),
        &args.secret_key,
        &sk,
        true,
        args.force,
    )?;
    io::commit_pair(sk, pk)?;
    Ok(Outcome::Success)
}

/// `pqlab sign`: signs the message and writes the raw signature.
fn sign(args: &SignArgs) -> CliResult<Outcome> {
    let (alg, scheme) = signature_scheme(&args.alg)?;
    let context = context_arg(args.context.as_deref())?;
    let prehash = prehash_arg(args.prehash.as_deref())?;
    let to_terminal = match &args.out {
        None => true,
        Some(p) => p.as_os_str() == "-",
    } && std::io::stdout().is_terminal();
    if to_terminal {
        return Err(CliError::new(
            "refusing to write a binary signature to a terminal; use --out FILE or redirect",
        ));
    }
    if let Some(out) = &args.out
        && out.as_os_str() != "-"
        && same_destination(out, &args.secret_key)
    {
        return Err(CliError::new(
            "--out names the secret key file; the signature would overwrite the key",
        ));
    }
    let (sk, key_prehash) = keyfile::read_signing_key(alg, &args.secret_key)?;
    let prehash = key_prehash_arg(prehash, key_prehash, "secret key file", &args.secret_key)?;
    let msg = io::read_message(args.input.as_deref())?;
    let opts = SignOptions {
        context: &context,
        prehash,
    };
    let sig = scheme
        .sign(&sk, &msg, opts, args.deterministic)
        .map_err(|e| CliError::new(format!("signing failed: {e}")))?;
    io::write_output("signature", args.out.as_deref(), &sig)?;
    Ok(Outcome::Success)
}

/// `pqlab verify`: prints "valid" (exit 0) or "invalid signature" (exit 1).
fn verify(args: &VerifyArgs) -> CliResult<Outcome> {
    let (alg, scheme) = signature_scheme(&args.alg)?;
    let info = alg.info();
    let context = context_arg(args.context.as_deref())?;
    let prehash = prehash_arg(args.prehash.as_deref())?;
    let (pk, key_prehash) = keyfile::read_verifying_key(alg, &args.public_key)?;
    let prehash = key_prehash_arg(prehash, key_prehash, "public key file", &args.public_key)?;
    let sig = io::read_small("signature file", &args.signature)?;
    let sig_len = info.signature_len.unwrap_or(0);
    if info.signature_len_is_max && sig.len() > sig_len {
        return Err(CliError::file(
            "signature file",
            &args.signature,
            format!(
                "expected at most {sig_len} bytes for {}, found {}",
                info.name,
                sig.len()
            ),
        ));
    }
    if !info.signature_len_is_max && sig.len() != sig_len {
        return Err(CliError::file(
            "signature file",
            &args.signature,
            format!(
                "expected {sig_len} bytes for {}, found {}",
                info.name,
                sig.len()
            ),
        ));
    }
    scheme
        .check_signature(&sig)
        .map_err(|e| CliError::file("signature file", &args.signature, e))?;
    let msg = io::read_message(args.input.as_deref())?;
    let opts = SignOptions {
        context: &context,
        prehash,
    };
    let valid = scheme
        .verify(&pk, &msg, opts, &sig)
        .map_err(|e| CliError::new(format!("verification failed: {e}")))?;
    if valid {
        print("valid\n")?;
        Ok(Outcome::Success)
    } else {
        print("invalid signature\n")?;
        Ok(Outcome::InvalidSignature)
    }
}

/// `pqlab encaps`: encapsulates to the encapsulation key and writes the ciphertext and the
/// shared secret, both or neither.
fn encaps(args: &EncapsArgs) -> CliResult<Outcome> {
    let (alg, scheme) = kem_scheme(&args.alg)?;
    distinct_outputs(
        &[
            ("--ciphertext", &args.ciphertext),
            ("--shared-secret", &args.shared_secret),
        ],
        &[("--public-key", &args.public_key)],
    )?;
    let ek = keyfile::read_public_key(alg, &args.public_key)?;
    let (ct, ss) = scheme
        .encapsulate(&ek)
        .map_err(|e| CliError::new(format!("encapsulation failed: {e}")))?;
    let ss = io::stage("shared secret file", &args.shared_secret, &ss, true)?;
    let ct = io::stage("ciphertext file", &args.ciphertext, &ct, false)?;
    io::commit_pair(ss, ct)?;
    Ok(Outcome::Success)
}

/// `pqlab decaps`: decapsulates the ciphertext and writes the shared secret (for a ciphertext
/// that does not decrypt consistently: the implicit-rejection secret, as FIPS 203 says).
fn decaps(args: &DecapsArgs) -> CliResult<Outcome> {
    let (alg, scheme) = kem_scheme(&args.alg)?;
    distinct_outputs(
        &[("--shared-secret", &args.shared_secret)],
        &[
            ("--secret-key", &args.secret_key),
            ("--ciphertext", &args.ciphertext),
        ],
    )?;
    let sk = keyfile::read_secret_key(alg, &args.secret_key)?;
    let what = "ciphertext file";
    let ct = io::read_small(what, &args.ciphertext)?;
    if Some(ct.len()) != alg.info().ciphertext_len {
        return Err(CliError::file(
            what,
            &args.ciphertext,
            keyfile::length_problem(alg, Part::Ciphertext, &ct),
        ));
    }
    let ss = scheme
        .decapsulate(&sk, &ct)
        .map_err(|e| CliError::new(format!("decapsulation failed: {e}")))?;
    io::stage("shared secret file", &args.shared_secret, &ss, true)?.commit()?;
    Ok(Outcome::Success)
}
