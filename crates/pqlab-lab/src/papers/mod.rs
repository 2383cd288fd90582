//! The published figures of the studies the lab reproduces (`../shared/papers/`, DESIGN §6):
//! their tables and quantitative claims, read at run time from JSON, and the section
//! "Published vs measured" of the report ([`Published`]), which sets each claim beside the
//! same quantity measured in this run ([`claims`]) and compares the size tables exactly
//! ([`sizes`]).
//!
//! The folder is `$PQLAB_PAPERS` if set, else `../shared/papers` beside the workspace (found
//! from this crate's folder, as `pqlab-testutil` finds `../shared/vectors`), else
//! `../shared/papers` from the current directory. A missing folder is one line in the report,
//! never a failure of the run.

pub mod claims;
pub mod sizes;

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use serde_json::Value;

use crate::run::Report;

/// One study's file (the layout of `../shared/papers/README.md`).
#[derive(Clone, Debug, Deserialize)]
pub struct Paper {
    /// English title.
    pub title: String,
    /// Original language.
    pub language: String,
    /// Platform as stated (its `id` is the platform slug, or a list of slugs).
    pub platform: Platform,
    /// How the study measured.
    pub method: String,
    /// Every quantitative table.
    pub tables: Vec<Table>,
    /// The quantitative claims of the text.
    pub claims: Vec<Claim>,
    /// Inconsistencies and implausible values noted by the transcriber.
    #[serde(default)]
    pub remarks: Vec<String>,
}

/// The platform of a study.
#[derive(Clone, Debug, Deserialize)]
pub struct Platform {
    /// Slug (`cortex-m4`, `x86_64-i7-4790`, ...) or several slugs.
    pub id: Value,
    /// The rest as printed (CPU, clock, compiler, ...).
    #[serde(flatten)]
    pub details: BTreeMap<String, Value>,
}

/// One of a study's tables.
#[derive(Clone, Debug, Deserialize)]
pub struct Table {
    /// The paper's own numbering (`Table 2`, `Table II`).
    pub id: String,
    /// English caption.
    pub caption: String,
    /// Machine-friendly column names.
    pub columns: Vec<String>,
    /// FIPS names of the schemes, where schemes are columns.
    #[serde(default)]
    pub column_scheme_ids: Option<Vec<String>>,
    /// Cells as printed; `null` for an empty cell.
    pub rows: Vec<Vec<Value>>,
    /// Which version was measured: one string, or one per scheme.
    #[serde(default)]
    pub variant: Option<Value>,
    /// Notes on the table.
    #[serde(default)]
    pub notes: Option<String>,
}

/// One quantitative claim of a study's text.
#[derive(Clone, Debug, Deserialize)]
pub struct Claim {
    /// `c1`, `c2`, ...
    pub id: String,
    /// English paraphrase.
    pub text: String,
    /// The machine-checkable description.
    pub quantity: Quantity,
    /// Section, table or figure.
    #[serde(rename = "where", default)]
    pub location: Option<String>,
    /// Where the claim does not match the paper's own data.
    #[serde(default)]
    pub remark: Option<String>,
}

/// The machine-checkable part of a claim (README: "Conventions in `quantity`").
#[derive(Clone, Debug, Deserialize)]
pub struct Quantity {
    /// `<op>_time_ratio`, `sizes_bytes`, ...
    pub metric: String,
    /// The algorithm the claim is about.
    #[serde(default)]
    pub alg: Option<String>,
    /// The numerator of a ratio or change.
    #[serde(default)]
    pub a: Option<String>,
    /// The denominator (an algorithm, or several).
    #[serde(default)]
    pub b: Option<Value>,
    /// The published value.
    #[serde(default)]
    pub value: Option<Value>,
    /// Several related published values.
    #[serde(default)]
    pub values: Option<Value>,
    /// The platform slug.
    #[serde(default)]
    pub platform: Option<String>,
    /// The version measured (`round 3`, ...).
    #[serde(default)]
    pub variant: Option<String>,
    /// The paper's own wording.
    #[serde(default)]
    pub printed: Option<String>,
    /// An order-of-magnitude statement.
    #[serde(default)]
    pub approximate: bool,
    /// Every other field (`msg_len`, `module`, `reduction_pct`, ...).
    #[serde(flatten)]
    pub extra: BTreeMap<String, Value>,
}

impl Quantity {
    /// The value as a number, where it is one.
    pub fn number(&self) -> Option<f64> {
        self.value.as_ref().and_then(Value::as_f64)
    }

    /// Field `key` of `values` (or of the extra fields) as a number.
    pub fn field(&self, key: &str) -> Option<f64> {
        self.values
            .as_ref()
            .and_then(|v| v.get(key))
            .or_else(|| self.extra.get(key))
            .and_then(Value::as_f64)
    }
}

/// What can go wrong reading the published figures.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PapersError {
    /// The folder does not exist.
    NotFound(PathBuf),
    /// A file or the folder could not be read.
    Read {
        /// The file or folder.
        path: PathBuf,
        /// Why.
        reason: String,
    },
    /// A file is not JSON of the expected layout.
    Malformed {
        /// The file.
        path: PathBuf,
        /// serde's message, with line and column.
        reason: String,
    },
    /// A file parses but breaks a rule of the layout (duplicate claim id, a table row of
    /// the wrong width, no claims).
    Invalid {
        /// The file.
        path: PathBuf,
        /// Which rule.
        reason: String,
    },
}

impl fmt::Display for PapersError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PapersError::NotFound(p) => {
                write!(f, "published figures not found at {}", p.display())
            }
            PapersError::Read { path, reason } => write!(f, "{}: {reason}", path.display()),
            PapersError::Malformed { path, reason } => {
                write!(f, "{}: malformed: {reason}", path.display())
            }
            PapersError::Invalid { path, reason } => {
                write!(f, "{}: invalid: {reason}", path.display())
            }
        }
    }
}

impl std::error::Error for PapersError {}

/// The folder of the published figures: `explicit` if given, else `$PQLAB_PAPERS`, else
/// `<workspace>/../shared/papers`, else `../shared/papers` from the current directory (the
/// first that exists; the workspace one when none does).
pub fn papers_dir(explicit: Option<&Path>) -> PathBuf {
    if let Some(p) = explicit {
        return p.to_path_buf();
    }
    if let Some(p) = std::env::var_os("PQLAB_PAPERS").filter(|p| !p.is_empty()) {
        return PathBuf::from(p);
    }
    let beside = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("..")
        .join("..")
        .join("shared")
        .join("papers");
    let cwd = Path::new("..").join("shared").join("papers");
    if !beside.is_dir() && cwd.is_dir() {
        cwd
    } else {
        beside
    }
}

/// Parses one study's file (`path` names it in errors).
pub fn parse(path: &Path, text: &str) -> Result<Paper, PapersError> {
    let paper: Paper = serde_json::from_str(text).map_err(|e| PapersError::Malformed {
        path: path.to_path_buf(),
        reason: e.to_string(),
    })?;
    let invalid = |reason: String| PapersError::Invalid {
        path: path.to_path_buf(),
        reason,
    };
    if paper.claims.is_empty() {
        return Err(invalid("no claims".into()));
    }
    let mut ids: Vec<&str> = paper.claims.iter().map(|c| c.id.as_str()).collect();
    ids.sort_unstable();
    if let Some(w) = ids.windows(2).find(|w| w[0] == w[1]) {
        return Err(invalid(format!("claim id {} appears twice", w[0])));
    }
    for t in &paper.tables {
        if let Some(r) = t.rows.iter().find(|r| r.len() != t.columns.len()) {
            return Err(invalid(format!(
                "{}: a row has {} cells for {} columns",
                t.id,
                r.len(),
                t.columns.len()
            )));
        }
    }
    Ok(paper)
}

/// Reads every `*.json` of `dir`, by file name; each paper with its file stem.
pub fn load(dir: &Path) -> Result<Vec<(String, Paper)>, PapersError> {
    if !dir.is_dir() {
        return Err(PapersError::NotFound(dir.to_path_buf()));
    }
    let read_err = |path: &Path, e: std::io::Error| PapersError::Read {
        path: path.to_path_buf(),
        reason: e.to_string(),
    };
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| read_err(dir, e))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    let mut out = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(&f).map_err(|e| read_err(&f, e))?;
        let stem = f
            .file_stem()
            .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
        out.push((stem, parse(&f, &text)?));
    }
    Ok(out)
}

/// Where the measured figures come from, which decides what is measurable.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Scope {
    /// A run on this machine (`pqlab compare`, `--reductions`, `--backends`).
    Host,
    /// The emulated Cortex-M4 (`pqlab compare --target cortex-m4`).
    CortexM4,
}

/// A claim's verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// The measurement agrees within the stated tolerance.
    Confirms,
    /// A size that is the round-3 value, which FIPS 204 changed (named in the note).
    ConfirmsRound3,
    /// The measurement disagrees.
    Contradicts,
    /// This run cannot measure it (the reason says why).
    NotMeasurable,
}

impl Verdict {
    /// The verdict in words.
    pub fn words(self) -> &'static str {
        match self {
            Verdict::Confirms => "confirms",
            Verdict::ConfirmsRound3 => "confirms (round 3)",
            Verdict::Contradicts => "contradicts",
            Verdict::NotMeasurable => "not measurable here",
        }
    }
}

/// One claim beside this run.
#[derive(Clone, Debug, serde::Serialize)]
pub struct ClaimCheck {
    /// The study (file stem: `m4-dilithium-falcon`, ...).
    pub paper: String,
    /// The claim's id (`c1`, ...).
    pub claim: String,
    /// The claim in words.
    pub text: String,
    /// The published value, in words.
    pub published: String,
    /// The same quantity measured here (absent where not measurable).
    pub measured: Option<String>,
    /// The verdict.
    pub verdict: Verdict,
    /// The tolerance applied, or why it is not measurable, or what differs.
    pub reason: String,
}

/// One cell of a published size table beside pqlab's size.
#[derive(Clone, Debug, serde::Serialize)]
pub struct SizeCheck {
    /// The study.
    pub paper: String,
    /// The table (`Table 1`).
    pub table: String,
    /// The algorithm.
    pub alg: String,
    /// `public_key`, `secret_key`, `signature` or `total`.
    pub field: String,
    /// Bytes as published.
    pub published: u64,
    /// Bytes in this build (FIPS 203/204, Falcon round 3).
    pub measured: u64,
    /// Equal, equal to the round-3 size, or different.
    pub verdict: Verdict,
    /// What differs and why.
    pub note: String,
}

/// Counts of verdicts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Tally {
    /// Claims confirmed (round-3 sizes included).
    pub confirms: usize,
    /// Claims contradicted.
    pub contradicts: usize,
    /// Claims this run cannot measure.
    pub not_measurable: usize,
}

/// The section "Published vs measured" (the report's `published` field).
#[derive(Clone, Debug, serde::Serialize)]
pub struct Published {
    /// The folder read.
    pub dir: String,
    /// Host or Cortex-M4.
    pub scope: Scope,
    /// One line where the folder or a file could not be read (the run goes on).
    pub problems: Vec<String>,
    /// The studies read: file stem and English title.
    pub papers: Vec<(String, String)>,
    /// Every claim, with its verdict.
    pub claims: Vec<ClaimCheck>,
    /// Every cell of the size tables, compared exactly.
    pub sizes: Vec<SizeCheck>,
    /// Verdicts of the claims.
    pub tally: Tally,
}

/// The published figures of `dir` (see [`papers_dir`]) beside `report`.
pub fn published(report: &Report, scope: Scope, dir: &Path) -> Published {
    let mut out = Published {
        dir: dir.display().to_string(),
        scope,
        problems: Vec::new(),
        papers: Vec::new(),
        claims: Vec::new(),
        sizes: Vec::new(),
        tally: Tally::default(),
    };
    let papers = match load(dir) {
        Ok(p) => p,
        Err(e) => {
            out.problems.push(e.to_string());
            return out;
        }
    };
    for (stem, paper) in &papers {
        out.papers.push((stem.clone(), paper.title.clone()));
        for c in &paper.claims {
            out.claims
                .push(claims::evaluate(report, scope, stem, paper, c));
        }
        out.sizes.extend(sizes::tables(stem, paper));
    }
    out.tally = tally(&out.claims);
    out
}

/// Counts the verdicts of `checks`.
pub fn tally(checks: &[ClaimCheck]) -> Tally {
    let mut t = Tally::default();
    for c in checks {
        match c.verdict {
            Verdict::Confirms | Verdict::ConfirmsRound3 => t.confirms += 1,
            Verdict::Contradicts => t.contradicts += 1,
            Verdict::NotMeasurable => t.not_measurable += 1,
        }
    }
    t
}

#[cfg(test)]
mod tests;
