//! Peg Reversal's cases: `NAME.call`, one call of one of the four functions
//! as typed at the interpreter's prompt (`createBoard (1,1)`), and next to
//! it `NAME.expected`, what a correct driver prints for it (the value's
//! `show`, or `error` and the assignment's message); `peg case` writes both.
//!
//! Decisions:
//! - cases are found as fixtures are ([`crate::grade::discover`]): in
//!   folders and their sub-folders, entries starting with `.` skipped, links
//!   to folders not followed, files read only through
//!   [`read_fixture_file`]; hidden when under a folder named `hidden`, their
//!   group from their folders ([`Group::of_path`]); sorted by their path
//!   below the argument that reached them;
//! - a case whose `.call` does not read, or whose `.expected` is missing,
//!   unreadable or not UTF-8, is an `ERROR` of the case (a problem of the
//!   fixture), left out of every student's points; the call is parsed by
//!   `peg_core::call::parse_call`, so a board off the `+` is refused there;
//! - the [`Suite`] of a run is Connect Four's fixtures or these cases: what
//!   the grading of a submission or a class is given, whatever the assignment.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use crate::assignment::Assignment;
use crate::grade::discover::{DiscoverError, Fixture, is_hidden, read_fixture_file};
use crate::model::case::Group;
use crate::model::provenance::digest;

/// A case as read: the driver's input and what a correct driver prints.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Call {
    /// The function's part, 1 to 4 (createBoard first).
    pub part: u8,
    /// What the driver reads on standard input.
    pub input: String,
    /// What a correct driver prints.
    pub expected: String,
}

/// One Peg Reversal case.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PegCase {
    /// The `NAME.call` file, as reached from the argument.
    pub call: PathBuf,
    /// The `NAME.expected` file next to it.
    pub expected: PathBuf,
    /// Its path below the argument that reached it (its name in the hash).
    pub name: PathBuf,
    /// The call and its expected output, or why the case cannot be graded.
    pub read: Result<Call, String>,
    /// Whether it is a hidden test.
    pub hidden: bool,
    /// Which score it counts toward.
    pub group: Group,
    /// The function named by the call, when it reads.
    pub function: String,
}

/// What a submission or a class is graded on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Suite {
    /// Connect Four's fixtures.
    ConnectFour(Vec<Fixture>),
    /// Peg Reversal's cases.
    PegReversal(Vec<PegCase>),
}

impl Suite {
    /// The assignment it grades.
    pub fn assignment(&self) -> Assignment {
        match self {
            Suite::ConnectFour(_) => Assignment::ConnectFour,
            Suite::PegReversal(_) => Assignment::PegReversal,
        }
    }

    /// Connect Four's fixtures (none for another assignment).
    pub fn fixtures(&self) -> &[Fixture] {
        match self {
            Suite::ConnectFour(fixtures) => fixtures,
            Suite::PegReversal(_) => &[],
        }
    }

    /// The number of report entries it gives.
    pub fn case_count(&self) -> usize {
        match self {
            Suite::ConnectFour(fixtures) => crate::grade::run::case_count(fixtures),
            Suite::PegReversal(cases) => cases.len(),
        }
    }

    /// SHA-256 (hex) of its files' names and contents, for the provenance
    /// and the saved-result keys.
    pub fn digest(&self) -> String {
        match self {
            Suite::ConnectFour(fixtures) => crate::grade::discover::fixtures_digest(fixtures),
            Suite::PegReversal(cases) => {
                let mut pieces: Vec<Vec<u8>> = vec![b"peg-reversal".to_vec()];
                for case in cases {
                    for (file, name) in [
                        (&case.call, case.name.clone()),
                        (&case.expected, case.name.with_extension("expected")),
                    ] {
                        pieces.push(name.as_os_str().as_encoded_bytes().to_vec());
                        pieces.push(read_fixture_file(file).unwrap_or_default());
                    }
                }
                digest(pieces.iter().map(Vec::as_slice))
            }
        }
    }

    /// Checks that no file of the suite resolves into `folder`, a folder
    /// students control.
    pub fn check_outside(&self, folder: &Path, what: &'static str) -> Result<(), DiscoverError> {
        match self {
            Suite::ConnectFour(fixtures) => {
                crate::grade::discover::check_outside(fixtures, folder, what)
            }
            Suite::PegReversal(cases) => {
                let Ok(inside) = fs::canonicalize(folder) else {
                    return Ok(());
                };
                crate::grade::discover::check_files_outside(
                    cases.iter().flat_map(|c| [&c.call, &c.expected]),
                    &inside,
                    folder,
                    what,
                )
            }
        }
    }
}

/// Finds every `NAME.call` under `paths` (folders or `.call` files) and
/// reads it with its `NAME.expected`.
pub fn discover_peg(paths: &[PathBuf]) -> Result<Vec<PegCase>, DiscoverError> {
    let mut found: Vec<(PathBuf, PathBuf)> = Vec::new();
    for path in paths {
        let failed = |source| DiscoverError::Path {
            path: path.clone(),
            source,
        };
        let meta = fs::metadata(path).map_err(failed)?;
        if meta.is_dir() {
            let mut below = Vec::new();
            walk(path, Path::new(""), &mut below).map_err(failed)?;
            let shown: PathBuf = path.components().collect();
            found.extend(below.into_iter().map(|rel| (shown.join(&rel), rel)));
        } else {
            let shown: PathBuf = path.components().collect();
            let name = PathBuf::from(path.file_name().unwrap_or_default());
            found.push((shown, name));
        }
    }
    found.sort_by(|a, b| a.1.cmp(&b.1).then_with(|| a.0.cmp(&b.0)));
    found.dedup_by(|a, b| a.0 == b.0);
    Ok(found
        .into_iter()
        .map(|(call, name)| read_case(call, name))
        .collect())
}

/// Collects the `.call` files under `root.join(rel)`.
fn walk(root: &Path, rel: &Path, files: &mut Vec<PathBuf>) -> io::Result<()> {
    crate::grade::discover::walk_for(
        root,
        rel,
        &|path| path.extension().is_some_and(|e| e == "call"),
        files,
    )
}

/// Reads a fixture file as UTF-8 text, or says why it cannot be.
fn read_text(path: &Path) -> Result<String, String> {
    let bytes =
        read_fixture_file(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    String::from_utf8(bytes).map_err(|e| {
        format!(
            "{} is not UTF-8 text (byte {} is invalid)",
            path.display(),
            e.utf8_error().valid_up_to()
        )
    })
}

/// Reads one case.
fn read_case(call: PathBuf, name: PathBuf) -> PegCase {
    let expected = call.with_extension("expected");
    let mut function = "-".to_owned();
    let read = read_text(&call).and_then(|text| {
        let parsed =
            peg_core::call::parse_call(&text).map_err(|e| format!("{}:{e}", call.display()))?;
        function = parsed.function().name().to_owned();
        let part = Assignment::PegReversal
            .part_of(parsed.function().name())
            .unwrap_or(1);
        if fs::symlink_metadata(&expected).is_err() {
            return Err(format!(
                "{} has no {} next to it, so it grades nothing; write it with `peg case`",
                call.display(),
                expected.display()
            ));
        }
        Ok(Call {
            part,
            input: parsed.driver_input(),
            expected: read_text(&expected)?,
        })
    });
    PegCase {
        hidden: is_hidden(&call),
        group: Group::of_path(&call),
        call,
        expected,
        name,
        read,
        function,
    }
}
