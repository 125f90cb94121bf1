//! Similarity across a class: a private, Haskell-aware copy detector.
//!
//! Every student's part files (and their `Helpers.hs`, when it is not the
//! course's) are read through [`crate::submission::source`] (no links
//! followed, sizes capped), lexed as Haskell, split into top-level
//! definitions and normalised ([`normalise`]): comments, layout, the names
//! the student chose and the order of the definitions are gone, literals
//! are kept by kind. Each definition's k-grams are hashed and winnowed
//! ([`fingerprint`]). Fingerprints of the base code (`--base` folders and
//! the course's default `Helpers.hs`, always) are removed from every
//! student, as MOSS's `-b` does, and so are fingerprints so common in the
//! class that they are idiom rather than evidence (held by more than
//! [`Options::max_share`] students, as MOSS's `-m`). An inverted index from
//! fingerprint to students then scores only the pairs that share one
//! ([`index`]).
//!
//! The key design decision is what a score means: the fingerprints two
//! students share over the fingerprints of the one with fewer, so a copy
//! padded with dead code still scores as high as the copy alone. Each pair
//! also carries its evidence: which definitions match, at which lines, in
//! both students' files. This module reads and computes; its renderers
//! ([`render`]) take the typed [`Report`] and return text.
//!
//! What it cannot see, and every report says so: code rewritten with other
//! logic (another algorithm, another decomposition) shares no fingerprints
//! with its source; nor does a definition shorter than [`Options::k`]
//! tokens. A score is evidence for a person to read, never a verdict.
//!
//! ```
//! use cnf_grader::similarity::{Options, StudentSource, SourceText, compare};
//!
//! let alice = "dropPiece p b c = take (c - 1) b ++ [p] ++ drop c b\n\
//!              count xs = length (filter (== 'x') xs) + sum [ 1 | y <- xs, y == '-' ]\n";
//! let bob = "-- mine\ncount zs = length (filter (== 'x') zs) + sum [ 1 | q <- zs, q == '-' ]\n\
//!            put t row col = take (col - 1) row ++ [t] ++ drop col row\n";
//! let student = |name: &str, text: &str| StudentSource {
//!     name: name.to_owned(),
//!     files: vec![SourceText { name: "csce322assignment03part01.hs".to_owned(), text: text.to_owned() }],
//!     notes: Vec::new(),
//! };
//! let report = compare(&[student("alice", alice), student("bob", bob)], &[], &Options::default());
//! assert_eq!(report.pairs.len(), 1);
//! assert_eq!(report.pairs[0].similarity, 1.0);
//! ```

pub mod fingerprint;
pub mod index;
mod known;
pub mod normalise;
pub mod render;

use std::path::{Path, PathBuf};

use rayon::prelude::*;

pub use index::compare;

use crate::escape;
use crate::submission::source::{self, ReadError, ReadLimits, Refused};

/// How students are compared.
#[derive(Debug, Clone, PartialEq)]
pub struct Options {
    /// Tokens in a k-gram: no shared run shorter than this counts.
    pub k: usize,
    /// Winnowing's window: every shared run of `k + window - 1` tokens or
    /// more is found.
    pub window: usize,
    /// A fingerprint held by more students than this is common code, not
    /// evidence, and is ignored (`None`: a tenth of the class, at least 10).
    pub max_share: Option<usize>,
    /// Each student's closest pairs kept, whatever their similarity.
    pub closest: usize,
    /// Every pair at or above this similarity is kept too.
    pub keep_above: f64,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            k: 12,
            window: 8,
            max_share: None,
            closest: 10,
            keep_above: 0.5,
        }
    }
}

impl Options {
    /// The share limit for a class of `students`.
    pub fn share_limit(&self, students: usize) -> usize {
        self.max_share.unwrap_or((students / 10).max(10))
    }
}

/// One source file's text (lossily UTF-8: an invalid byte becomes U+FFFD).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceText {
    /// Its name in the student's folder.
    pub name: String,
    /// Its text.
    pub text: String,
}

/// One student's files to compare.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StudentSource {
    /// The student's folder name.
    pub name: String,
    /// The files compared, in name order.
    pub files: Vec<SourceText>,
    /// Why some of their files were not read or compared, in words.
    pub notes: Vec<String>,
}

/// The part files compared: `csce322assignment03partNN.hs`.
pub fn part_file(part: u8) -> String {
    format!("csce322assignment03part{part:02}.hs")
}

/// Which files of a submission are compared.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Selection {
    /// The parts (1 to 4) whose files are compared.
    pub parts: Vec<u8>,
    /// Whether the student's own `Helpers.hs` is compared too.
    pub helpers: bool,
}

impl Default for Selection {
    fn default() -> Self {
        Selection {
            parts: vec![1, 2, 3, 4],
            helpers: true,
        }
    }
}

impl Selection {
    /// The names of the files compared.
    fn names(&self) -> Vec<String> {
        let mut names: Vec<String> = self.parts.iter().map(|&p| part_file(p)).collect();
        if self.helpers {
            names.push("Helpers.hs".to_owned());
        }
        names.sort();
        names
    }
}

/// A class as read: its students, and the entries that are no student.
#[derive(Debug, Clone, Default)]
pub struct ClassSources {
    /// The students, sorted by folder name.
    pub students: Vec<StudentSource>,
    /// Entries of the class folder not read (links, names not UTF-8).
    pub refused: Vec<Refused>,
}

/// Whether the text of a `Helpers.hs` is the course's default, token for
/// token (comments and layout aside).
fn is_default_helpers(text: &str) -> bool {
    let tokens = |s: &str| -> Vec<String> {
        haskell_text::source::tokens(s)
            .iter()
            .map(|t| t.text.to_owned())
            .collect()
    };
    tokens(text) == tokens(crate::submission::DEFAULT_HELPERS)
}

/// The files of `submission` that `selection` compares, and notes on those
/// that are missing, refused, or the course's own.
fn student_of(name: &str, submission: &source::Submission, selection: &Selection) -> StudentSource {
    let mut student = StudentSource {
        name: name.to_owned(),
        files: Vec::new(),
        notes: Vec::new(),
    };
    for wanted in selection.names() {
        if let Some(file) = submission.file(&wanted) {
            let text = String::from_utf8_lossy(&file.bytes).into_owned();
            if wanted == "Helpers.hs" && is_default_helpers(&text) {
                continue;
            }
            student.files.push(SourceText { name: wanted, text });
        } else if let Some(refused) = submission.refusal(&wanted) {
            student.notes.push(refused.to_string());
        }
    }
    if student.files.is_empty() && submission.scattered.is_empty() {
        student.notes.push("no part file to compare".to_owned());
    }
    if !submission.scattered.is_empty() {
        let places: Vec<String> = submission
            .scattered
            .iter()
            .map(|p| escape::path(p))
            .collect();
        student.notes.push(format!(
            "part files in several sub-folders ({}); none was compared",
            places.join(", ")
        ));
    }
    student
}

/// Reads every student of the class folder `root` (one sub-folder each),
/// in parallel, as [`source::read_class_member`] reads them.
pub fn read_class(
    root: &Path,
    selection: &Selection,
    limits: &ReadLimits,
) -> Result<ClassSources, ReadError> {
    let listing = source::list_class(root)?;
    let students = listing
        .folders
        .par_iter()
        .map(|name| match source::read_class_member(root, name, limits) {
            Ok(submission) => student_of(name, &submission, selection),
            Err(e) => StudentSource {
                name: name.clone(),
                files: Vec::new(),
                notes: vec![format!("cannot be read: {}", e.source)],
            },
        })
        .collect();
    Ok(ClassSources {
        students,
        refused: listing.refused,
    })
}

/// Why a `--base` path gives no base code.
#[derive(Debug, thiserror::Error)]
pub enum BaseError {
    /// Occurs when the path cannot be read.
    #[error("--base {}: {why}", escape::path(.path))]
    Unreadable {
        /// The path.
        path: PathBuf,
        /// What went wrong.
        why: String,
    },
    /// Occurs when a folder holds no `.hs` file.
    #[error("--base {}: holds no .hs file, so it would remove nothing (give the folder of the code handed out, e.g. the template's part files)", escape::path(.path))]
    Empty {
        /// The folder.
        path: PathBuf,
    },
}

/// Reads the base code: every `.hs` file of each folder (or the file
/// itself, when a path is a file), as submissions are read.
pub fn read_base(paths: &[PathBuf], limits: &ReadLimits) -> Result<Vec<SourceText>, BaseError> {
    let mut out = Vec::new();
    for path in paths {
        let unreadable = |why: String| BaseError::Unreadable {
            path: path.clone(),
            why,
        };
        let meta = std::fs::metadata(path).map_err(|e| unreadable(e.to_string()))?;
        if meta.is_dir() {
            let submission = source::read_submission(path, limits)
                .map_err(|e| unreadable(e.source.to_string()))?;
            if submission.files.is_empty() {
                return Err(BaseError::Empty { path: path.clone() });
            }
            for file in submission.files {
                out.push(SourceText {
                    name: format!("{}/{}", path.display(), file.name),
                    text: String::from_utf8_lossy(&file.bytes).into_owned(),
                });
            }
        } else {
            let bytes =
                source::read_file(path, limits.max_file).map_err(|r| unreadable(r.to_string()))?;
            out.push(SourceText {
                name: path.display().to_string(),
                text: String::from_utf8_lossy(&bytes).into_owned(),
            });
        }
    }
    Ok(out)
}

/// One student as compared.
#[derive(Debug, Clone, PartialEq)]
pub struct Student {
    /// The folder name.
    pub name: String,
    /// The files compared.
    pub files: Vec<SourceText>,
    /// Their fingerprints once base and common code are removed.
    pub fingerprints: usize,
    /// The names of each file's definitions, as written.
    pub definitions: Vec<Vec<String>>,
    /// Why some files were not read or compared.
    pub notes: Vec<String>,
}

/// Lines of one file of one student.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Region {
    /// The index of the file in [`Student::files`].
    pub file: usize,
    /// The index of the definition in that file's definitions.
    pub definition: usize,
    /// The first and last lines (from 1) of the matching k-grams.
    pub lines: (u32, u32),
}

/// A definition of one student matching a definition of the other.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Match {
    /// The first student's side.
    pub a: Region,
    /// The second student's side.
    pub b: Region,
    /// The fingerprints the two definitions share.
    pub shared: usize,
}

/// Two students who share fingerprints.
#[derive(Debug, Clone, PartialEq)]
pub struct Pair {
    /// One student (an index into [`Report::students`]; `a < b`).
    pub a: usize,
    /// The other.
    pub b: usize,
    /// The fingerprints they share.
    pub shared: usize,
    /// `shared` over the fingerprints of the one with fewer, 0 to 1.
    pub similarity: f64,
    /// The matching definitions, by `a`'s file and line.
    pub matches: Vec<Match>,
}

/// A class compared.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    /// Every student, sorted by name.
    pub students: Vec<Student>,
    /// The pairs sharing a fingerprint that are kept (every pair at or
    /// above [`Options::keep_above`], and each student's
    /// [`Options::closest`] pairs), highest similarity first.
    pub pairs: Vec<Pair>,
    /// How many pairs share a fingerprint, kept or not.
    pub sharing: usize,
    /// The options used.
    pub options: Options,
    /// The share limit applied.
    pub share_limit: usize,
    /// Distinct fingerprints of the base code.
    pub base_fingerprints: usize,
    /// Distinct fingerprints ignored as held by too many students.
    pub common_fingerprints: usize,
}

/// What every report says it ignores.
pub const IGNORES: &str = "Ignored: the names a student chose (every name they define is a \
placeholder that keeps only how it is used), the order of definitions, comments, layout and \
white space, the values of literals, imports, the base code, and code that more than the share \
limit of students have.";

/// What every report says still hides a copy.
pub const BLIND_SPOTS: &str = "Not seen: a rewrite with other logic (another algorithm or \
another split into functions), shared runs shorter than k tokens, and files other than the part \
files and an own Helpers.hs. A score is evidence for a person to read, not a verdict.";

/// Where a similarity report came from, and with which settings.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Provenance {
    /// The grader's version.
    pub grader: String,
    /// How code is compared, in a few words.
    pub method: String,
    /// Tokens in a k-gram.
    pub k: usize,
    /// Winnowing's window.
    pub window: usize,
    /// Most students a fingerprint may be held by and still count.
    pub share_limit: usize,
    /// SHA-256 of the base files' names (without their folders) and texts.
    pub base: String,
    /// How many base files were given (the default `Helpers.hs` aside).
    pub base_files: usize,
    /// Distinct fingerprints of the base code, the default `Helpers.hs`'s included.
    pub base_fingerprints: usize,
    /// Distinct fingerprints ignored as common.
    pub common_fingerprints: usize,
    /// Students compared.
    pub students: usize,
    /// When (UTC, RFC 3339), unless left out for a reproducible report.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub date: Option<String>,
}

impl Provenance {
    /// The provenance of `report`, made from `base` on `date`.
    pub fn new(report: &Report, base: &[SourceText], date: Option<String>) -> Provenance {
        let names: Vec<String> = base
            .iter()
            .map(|f| {
                Path::new(&f.name)
                    .file_name()
                    .map_or_else(|| f.name.clone(), |n| n.to_string_lossy().into_owned())
            })
            .collect();
        let digest = crate::submission::cache::digest(
            names
                .iter()
                .zip(base)
                .flat_map(|(name, f)| [name.as_bytes(), f.text.as_bytes()]),
        );
        Provenance {
            grader: crate::harness::provenance::GRADER_VERSION.to_owned(),
            method:
                "Haskell tokens, own names as placeholders, definitions as a set, winnowed k-grams"
                    .to_owned(),
            k: report.options.k,
            window: report.options.window,
            share_limit: report.share_limit,
            base: format!("sha256:{digest}"),
            base_files: base.len(),
            base_fingerprints: report.base_fingerprints,
            common_fingerprints: report.common_fingerprints,
            students: report.students.len(),
            date,
        }
    }

    /// One line for the human report.
    pub fn line(&self) -> String {
        let mut parts = vec![
            format!("compared by cnf-grader {}", self.grader),
            format!("k {} · window {}", self.k, self.window),
            format!("share limit {} students", self.share_limit),
            format!(
                "base {} file{} sha256:{}",
                self.base_files,
                if self.base_files == 1 { "" } else { "s" },
                self.base
                    .trim_start_matches("sha256:")
                    .get(..12)
                    .unwrap_or("")
            ),
        ];
        if let Some(date) = &self.date {
            parts.push(date.clone());
        }
        parts.join(" · ")
    }

    /// The fields as (name, value) pairs, for HTML.
    pub fn fields(&self) -> Vec<(&'static str, String)> {
        let mut out = vec![
            ("grader", format!("cnf-grader {}", self.grader)),
            ("method", self.method.clone()),
            ("k", self.k.to_string()),
            ("window", self.window.to_string()),
            ("share limit", format!("{} students", self.share_limit)),
            ("base", format!("{} ({} files)", self.base, self.base_files)),
            ("base fingerprints", self.base_fingerprints.to_string()),
            ("common fingerprints", self.common_fingerprints.to_string()),
            ("students", self.students.to_string()),
        ];
        if let Some(date) = &self.date {
            out.push(("date", date.clone()));
        }
        out
    }
}

impl Student {
    /// The name of the definition of `region`, as written.
    pub fn definition(&self, region: &Region) -> &str {
        self.definitions
            .get(region.file)
            .and_then(|d| d.get(region.definition))
            .map_or("", String::as_str)
    }
}
