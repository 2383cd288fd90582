//! Reading inputs and writing outputs: size-limited reads of key and signature files, the
//! message from a file or standard input, and atomic writes (a temporary file in the target's
//! folder, renamed into place only when it is complete).

use std::fs::File;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use tempfile::NamedTempFile;
use zeroize::Zeroizing;

use crate::error::{CliError, CliResult, quote_path};

/// The largest key or signature file the tool reads (far above any encoding it knows, so that
/// a wrong path such as `/dev/zero` fails fast).
pub const MAX_SMALL_FILE: u64 = 1 << 20;

/// An OS error as a message, without the "(os error N)" suffix.
pub fn io_message(e: &io::Error) -> String {
    let text = e.to_string();
    match text.find(" (os error ") {
        Some(i) => text[..i].to_string(),
        None => text,
    }
}

/// True if `path` means standard input or output (`-`).
fn is_dash(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// Reads a key or signature file of at most [`MAX_SMALL_FILE`] bytes. `what` names it in
/// errors ("secret key file"). The contents are zeroized when dropped.
pub fn read_small(what: &str, path: &Path) -> CliResult<Zeroizing<Vec<u8>>> {
    let fail = |problem: String| CliError::file(what, path, problem);
    let file = File::open(path).map_err(|e| fail(format!("cannot open: {}", io_message(&e))))?;
    if file.metadata().is_ok_and(|m| m.is_dir()) {
        return Err(fail("is a directory".into()));
    }
    let mut data = Zeroizing::new(Vec::new());
    file.take(MAX_SMALL_FILE + 1)
        .read_to_end(&mut data)
        .map_err(|e| fail(format!("cannot read: {}", io_message(&e))))?;
    if data.len() as u64 > MAX_SMALL_FILE {
        return Err(fail(format!(
            "larger than {} bytes; this is not a key or signature file",
            MAX_SMALL_FILE
        )));
    }
    Ok(data)
}

/// Reads the message: the file `input`, or standard input when it is `None` or `-`.
pub fn read_message(input: Option<&Path>) -> CliResult<Vec<u8>> {
    let mut data = Vec::new();
    match input {
        Some(path) if !is_dash(path) => {
            let fail = |problem: String| CliError::file("message file", path, problem);
            let mut file =
                File::open(path).map_err(|e| fail(format!("cannot open: {}", io_message(&e))))?;
            if file.metadata().is_ok_and(|m| m.is_dir()) {
                return Err(fail("is a directory".into()));
            }
            file.read_to_end(&mut data)
                .map_err(|e| fail(format!("cannot read: {}", io_message(&e))))?;
        }
        _ => {
            io::stdin().lock().read_to_end(&mut data).map_err(|e| {
                CliError::new(format!(
                    "cannot read the message from standard input: {}",
                    io_message(&e)
                ))
            })?;
        }
    }
    Ok(data)
}

/// An output written in full to a temporary file beside its destination, not yet renamed into
/// place. Dropping it removes the temporary file.
pub struct Staged {
    file: NamedTempFile,
    dest: PathBuf,
    what: &'static str,
    replace: bool,
}

/// Writes `data` to a temporary file in the folder of `dest` and flushes it to disk. Secret
/// outputs are readable by the owner only; others get the usual permissions (umask applies).
/// An existing `dest` is replaced when the output is committed.
pub fn stage(what: &'static str, dest: &Path, data: &[u8], secret: bool) -> CliResult<Staged> {
    stage_key(what, dest, data, secret, true)
}

/// Like [`stage`] for a key file: unless `replace` (the command's `--force`), an existing
/// `dest` is an error, here and again when the file is committed (the rename then refuses to
/// replace a file that appeared in the meantime).
pub fn stage_key(
    what: &'static str,
    dest: &Path,
    data: &[u8],
    secret: bool,
    replace: bool,
) -> CliResult<Staged> {
    let fail = |problem: String| CliError::file(what, dest, problem);
    if dest.as_os_str().is_empty() {
        return Err(CliError::new(format!("{what}: the file name is empty")));
    }
    if dest.is_dir() {
        return Err(fail("is a directory".into()));
    }
    if !replace && dest.symlink_metadata().is_ok() {
        return Err(fail(EXISTS.into()));
    }
    let dir = match dest.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let mut builder = tempfile::Builder::new();
    builder.prefix(".pqlab-").suffix(".tmp");
    #[cfg(unix)]
    if !secret {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(std::fs::Permissions::from_mode(0o666));
    }
    #[cfg(not(unix))]
    let _ = secret;
    let mut file = builder
        .tempfile_in(dir)
        .map_err(|e| fail(format!("cannot create: {}", io_message(&e))))?;
    file.write_all(data)
        .and_then(|()| file.as_file().sync_all())
        .map_err(|e| fail(format!("cannot write: {}", io_message(&e))))?;
    Ok(Staged {
        file,
        dest: dest.to_path_buf(),
        what,
        replace,
    })
}

/// The error for a key file that exists and may not be replaced.
const EXISTS: &str = "exists; pass --force to replace it";

impl Staged {
    /// Renames the temporary file into place (its contents were flushed to disk by [`stage`]),
    /// then flushes the folder so that the rename itself is on disk when this returns.
    pub fn commit(self) -> CliResult<()> {
        let Staged {
            file,
            dest,
            what,
            replace,
        } = self;
        let fail = |problem: String| CliError::file(what, &dest, problem);
        let persisted = if replace {
            file.persist(&dest)
        } else {
            file.persist_noclobber(&dest)
        };
        persisted.map_err(|e| {
            if !replace && e.error.kind() == io::ErrorKind::AlreadyExists {
                fail(EXISTS.into())
            } else {
                fail(format!("cannot write: {}", io_message(&e.error)))
            }
        })?;
        sync_parent(&dest).map_err(|e| {
            fail(format!(
                "written, but its folder could not be flushed to disk: {}",
                io_message(&e)
            ))
        })
    }

    /// The destination.
    pub fn dest(&self) -> &Path {
        &self.dest
    }
}

/// Flushes the folder holding `path` to disk (on Unix; elsewhere a rename is not flushed this
/// way and nothing is done).
fn sync_parent(path: &Path) -> io::Result<()> {
    #[cfg(unix)]
    {
        let dir = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
        File::open(dir)?.sync_all()
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        Ok(())
    }
}

/// Writes `data` to `dest` atomically, or to standard output when `dest` is `None` or `-`.
pub fn write_output(what: &'static str, dest: Option<&Path>, data: &[u8]) -> CliResult<()> {
    match dest {
        Some(path) if !is_dash(path) => stage(what, path, data, false)?.commit(),
        _ => {
            let mut out = io::stdout().lock();
            out.write_all(data).and_then(|()| out.flush()).map_err(|e| {
                CliError::new(format!(
                    "cannot write the {what} to standard output: {}",
                    io_message(&e)
                ))
            })
        }
    }
}

/// Commits two staged files as one: if the second cannot be renamed into place, the first is
/// removed again, so that a key pair is written whole or not at all.
pub fn commit_pair(first: Staged, second: Staged) -> CliResult<()> {
    let first_dest = first.dest().to_path_buf();
    first.commit()?;
    if let Err(e) = second.commit() {
        if let Err(rm) = std::fs::remove_file(&first_dest) {
            return Err(CliError::new(format!(
                "{e}; and removing the already written {} failed: {}",
                quote_path(&first_dest),
                io_message(&rm)
            )));
        }
        return Err(e);
    }
    Ok(())
}
