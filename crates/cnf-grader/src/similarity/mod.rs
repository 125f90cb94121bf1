//! Similarity across a class: a private, Haskell-aware copy detector.
//!
//! Every student's part files (and their `Helpers.hs`, when it is not the
//! course's) are read through [`crate::submission::source`] (no links
//! followed, sizes capped; a misnamed part file found by the lookup
//! grading uses, `submission::prepare::misnamed_part`), lexed as Haskell, split into top-level
//! definitions and normalised ([`normalise`]): comments, layout, type
//! signatures, the names the student chose and the order of the
//! definitions are gone, literals are kept by kind. Before that, what a
//! copier changes without changing the meaning is brought to one shape
//! ([`shape`]): one-line aliases are replaced by what they name, a helper's
//! parameters put in the order its body uses them (and its calls with
//! them), comprehensions rewritten to `map`/`filter`/`concatMap`, guards,
//! `if` and boolean `case` made one chain, `where` and `let` bindings
//! blocks of their own, `$`, `.` and parentheses dropped, definitions and
//! lambdas eta-reduced. This works on tokens and layout, not on a syntax
//! tree: students' files are often incomplete or do not compile, which a
//! parser would refuse, and every rewrite a copier makes is local.
//!
//! Each definition's k-grams are hashed and winnowed ([`fingerprint`]).
//! Fingerprints of the base code (`--base` folders and the course's
//! default `Helpers.hs`, always) are removed from every student, as MOSS's
//! `-b` does, and so are fingerprints so common in the class that they are
//! idiom rather than evidence (held by more than
//! [`Options::max_share`](crate::model::similarity::Options::max_share)
//! students, as MOSS's `-m`). An inverted index from fingerprint to
//! students then scores only the pairs that share one ([`index`]).
//!
//! What a score means ([`score`](crate::model::similarity::score)): the
//! mean of the shared fingerprints' share of the student with fewer (so a
//! copy padded with dead code still scores as high as the copy alone) and
//! of the student with more (so that the few fingerprints a small, honest
//! student happens to share do not outrank a copy). Which pairs are
//! listed ([`cut`](crate::model::similarity::cut)): those that stand out
//! from the class's own distribution of all pairs (a robust z-score: the
//! median plus 3.5 / 0.6745 median absolute deviations, at least 0.02),
//! or from `--threshold`, and always the ten highest; with the class's own
//! cut, also those near the top pairs or in the top cluster, since a class
//! that mostly copied raises its own cut above its copies. Each student's ten
//! closest pairs are kept, no more, so memory and output grow with the
//! class, not its square. The highest
//! [`Options::evidence`](crate::model::similarity::Options::evidence) of
//! them (`--max-pages`) carry their evidence: which definitions match, and
//! every line of both students' files holding a token of a k-gram the two
//! definitions share. This
//! module reads and computes; its renderers ([`crate::report::similarity`])
//! take the typed [`Report`](crate::model::similarity::Report) and return
//! text.
//!
//! What it cannot see, and every report says so: code rewritten with other
//! logic (another algorithm, another decomposition) shares no fingerprints
//! with its source; nor does a definition shorter than [`Options::k`](crate::model::similarity::Options::k)
//! tokens once normalised. A score is evidence for a person to read, never
//! a verdict.
//!
//! Invariants: only pairs that share a fingerprint are ever looked at, and
//! no k-gram crosses from one definition into another, so the order of a
//! student's definitions cannot change a score. The engine ([`normalise`],
//! [`fingerprint`], [`index`]) writes nothing for a person to read, and the
//! renderers compute no score.
//!
//! ```
//! use cnf_grader::model::similarity::{Options, SourceText};
//! use cnf_grader::similarity::{StudentSource, compare};
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
//! // Bob's copy of Alice's two definitions, renamed and reordered, is all of hers.
//! assert_eq!(report.pairs[0].similarity, 1.0);
//! ```

pub mod fingerprint;
pub mod index;
mod known;
pub mod normalise;
pub mod shape;

use std::path::{Path, PathBuf};

use rayon::prelude::*;

pub use index::compare;

use crate::escape;
use crate::model::similarity::SourceText;
use crate::model::submission::Refused;
use crate::model::submission::part_file;
use crate::submission::prepare::misnamed_part;
use crate::submission::source;
use crate::submission::source::{ReadError, ReadLimits};

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

/// A Peg Reversal student's file to compare: the one that defines
/// `createBoard`, as grading finds it, or a note when none or several do.
fn peg_student_of(name: &str, submission: &source::Submission) -> StudentSource {
    let files: Vec<(&str, &[u8])> = submission
        .files
        .iter()
        .map(|f| (f.name.as_str(), f.bytes.as_slice()))
        .collect();
    let mut student = StudentSource {
        name: name.to_owned(),
        files: Vec::new(),
        notes: Vec::new(),
    };
    match crate::assignment::peg_reversal::choose(&files) {
        Ok(file) => student.files.push(SourceText {
            name: file.to_owned(),
            text: submission
                .file(file)
                .map(|f| String::from_utf8_lossy(&f.bytes).into_owned())
                .unwrap_or_default(),
        }),
        Err(candidates) if candidates.is_empty() => student
            .notes
            .push("no .hs file defines createBoard, so none is compared".to_owned()),
        Err(candidates) => student.notes.push(format!(
            "{} files define createBoard ({}), so none is compared",
            candidates.len(),
            candidates
                .iter()
                .map(|c| escape::line(c).into_owned())
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
    student
}

/// Reads every student of a Peg Reversal class folder `root`: each one's
/// file that defines `createBoard` ([`peg_student_of`]).
pub fn read_peg_class(root: &Path, limits: &ReadLimits) -> Result<ClassSources, ReadError> {
    let listing = source::list_class(root)?;
    let students = listing
        .folders
        .par_iter()
        .map(|name| match source::read_class_member(root, name, limits) {
            Ok(submission) => peg_student_of(name, &submission),
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

/// The base code every Peg Reversal student shares: the description's
/// type declarations and signatures.
pub fn peg_base() -> SourceText {
    SourceText {
        name: "the description's types (built in)".to_owned(),
        text: crate::assignment::peg_reversal::DESCRIPTION_TYPES.to_owned(),
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
    // Every name in the folder, as grading looks a misnamed part file up.
    let mut names: Vec<String> = submission
        .files
        .iter()
        .map(|f| f.name.clone())
        .chain(submission.others.iter().cloned())
        .collect();
    names.sort();
    for wanted in selection.names() {
        if let Some(file) = submission.file(&wanted) {
            let text = String::from_utf8_lossy(&file.bytes).into_owned();
            if wanted == "Helpers.hs" && is_default_helpers(&text) {
                continue;
            }
            student.files.push(SourceText { name: wanted, text });
        } else if let Some(refused) = submission.refusal(&wanted) {
            student.notes.push(refused.to_string());
        } else if let Some(part) = (1..=4).find(|&p| part_file(p) == wanted)
            && let Some(found) = misnamed_part(&names, part)
        {
            // The file grading names in "part N missing (found …)": a copy
            // renamed so is still compared.
            match submission.file(&found) {
                Some(file) => {
                    student.notes.push(format!(
                        "part {part}'s file is named {} (grading wants {wanted}); compared as it is",
                        escape::line(&found)
                    ));
                    student.files.push(SourceText {
                        name: found,
                        text: String::from_utf8_lossy(&file.bytes).into_owned(),
                    });
                }
                None => student.notes.push(format!(
                    "part {part}'s file seems to be {}, which is not read (only .hs files are)",
                    escape::line(&found)
                )),
            }
        }
    }
    student.files.sort_by(|x, y| x.name.cmp(&y.name));
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

/// Why a base path gives no base code.
#[derive(Debug, thiserror::Error)]
pub enum BaseError {
    /// Occurs when the path cannot be read.
    #[error("{}: {why}", escape::path(.path))]
    Unreadable {
        /// The path.
        path: PathBuf,
        /// What went wrong.
        why: String,
    },
    /// Occurs when a folder holds no `.hs` file.
    #[error("{}: holds no .hs file, so it would remove nothing (give the folder of the code handed out, e.g. the template's part files)", escape::path(.path))]
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
