//! The error type of the command-line tool: one line of text, exit status 2.

use std::fmt;
use std::path::Path;

/// A usage or input error: the command stops, prints one line to standard error and exits
/// with status 2. (A signature that does not verify is not an error; `verify` reports it
/// itself with status 1.)
#[derive(Debug)]
pub struct CliError(String);

impl CliError {
    /// An error with the given message.
    pub fn new(msg: impl Into<String>) -> Self {
        CliError(msg.into())
    }

    /// An error about a file: `<what> '<path>': <problem>`.
    pub fn file(what: &str, path: &Path, problem: impl fmt::Display) -> Self {
        CliError(format!("{what} {}: {problem}", quote_path(path)))
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Keep the message on one line whatever a file name or an OS message contains.
        for c in self.0.chars() {
            if c.is_control() {
                write!(f, "{}", c.escape_default())?;
            } else {
                write!(f, "{c}")?;
            }
        }
        Ok(())
    }
}

/// A path in single quotes, as error messages show it.
pub fn quote_path(path: &Path) -> String {
    format!("'{}'", path.display())
}

/// The result type of the command-line tool.
pub type CliResult<T> = Result<T, CliError>;
