//! Grading a student's Haskell submission, or a whole class of them: copy
//! the submission's sources into a private build folder, compile each part
//! with GHC in the sandbox, then grade each part exactly like `grade --exec`,
//! in the sandbox too.
//!
//! Decisions:
//! - a submission is a folder holding `csce322assignment03part01.hs` …
//!   `part04.hs`; it is read by [`source::read_submission`] only (no link
//!   followed, regular files only, each up to `--max-source`, never
//!   blocking; a file it refuses is not submitted and the report says why),
//!   and every `*.hs` file of the folder (not of its sub-folders) is
//!   copied from the bytes read, so a student's extra modules compile too
//!   and what compiles is what was checked; the submission's `Helpers.hs`
//!   is used when it has one, else [`DEFAULT_HELPERS`], the course's module
//!   exactly (spec §7: `readConnectFourFile` and `printGame`, nothing
//!   else, so no extra name can clash with a student's own);
//! - a folder that holds no part file but whose one sub-folder does (a
//!   folder uploaded inside the folder) is graded from that sub-folder,
//!   and the report says so; when several sub-folders hold part files,
//!   none is taken and the report names them;
//! - a part file under another name (`csce322assignment03Part01.hs`,
//!   `csce322assignment3part01.hs`, a `.lhs`) is still missing, and the
//!   report names the file found and the name expected;
//! - nothing is ever written into the submission's folder: each student
//!   gets a private build folder (mode 0700) under the run's temporary
//!   folder, removed when grading ends;
//! - in the sandbox ([`crate::sandbox`]) a compilation sees the sources
//!   read-only at `/build` and writes only its scratch `/tmp`, so Template
//!   Haskell runs contained too; the executable comes back on standard
//!   output and is kept in the cache ([`crate::submission::cache`]) under the hash of
//!   the sources, the helper and the GHC, so grading again after a fixture
//!   change does not recompile; a run sees its part's executables
//!   read-only at `/build` and a private copy of its one game file;
//! - when the grader is root, each student runs as a user id of its own,
//!   leased for the student's grading against every grader on the machine
//!   ([`crate::sandbox::Sandbox::for_one_party`]), owner of its own build
//!   folder only;
//! - the parts compile in parallel (all the parts of all the students of a
//!   class share one pool of `jobs` threads; one submission's four parts
//!   always compile at once), then every compiled part runs on every case
//!   through [`crate::grade::run::grade`]; a class grades `jobs` students at
//!   once, each one case at a time, so at most `jobs` programs share the
//!   cores and time limits stay fair;
//! - the cases of a part that is missing or did not compile are `FAIL`ed
//!   without running, and the part gets no compilation points; a part that
//!   compiled gets them whatever its cases do (spec §6: "compilation");
//! - in the report each part's compilation comes first, as a case named
//!   `compile` whose "fixture" is the part's source file and whose standard
//!   error is the first lines of GHC's error, so the human, JSON and JUnit
//!   reports show it with no special format; the points leave these
//!   entries out;
//! - what goes wrong on the grader's side is never a grade: a sandbox
//!   that could not start a compilation or a run
//!   (`sandbox::Outcome::CouldNotStart`), an executable or a build folder
//!   the grader could not write (a full disk), a user id that could not be
//!   leased make the student "not graded: REASON"
//!   ([`SubmissionError::is_grader_fault`]): no points in any report,
//!   nothing saved in the cache (the executables the student's compilations
//!   kept are removed), graded again by `--resume`, and exit code 3;
//! - a class saves each student's result in the cache as soon as it is
//!   graded, under a key that covers the sources, the fixtures and every
//!   option; with `resume`, a student whose saved result matches is not
//!   graded again, so a run stopped by Ctrl-C, `kill -9` or a crash
//!   continues where it stopped and ends with the same gradebook.

pub mod build;
pub mod cache;
pub mod class;
pub mod ghc;
pub mod peg;
pub mod prepare;
pub mod roster;
pub mod run;
pub mod source;
pub mod workdir;

use std::io;
use std::path::PathBuf;
use std::time::Duration;

use crate::grade::peg::Suite;
use crate::model::provenance::Provenance;
use crate::sandbox::Sandbox;
use crate::submission::cache::Cache;
pub use crate::submission::class::{
    ClassOptions, ClassProgress, class_folders, class_members, grade_class, student_result,
};
use crate::submission::ghc::Ghc;
pub use crate::submission::run::grade_submission;
use crate::submission::source::ReadLimits;
pub use crate::submission::workdir::{WorkDir, kill_processes_in};

/// The course's `Helpers.hs` (spec §7), used when a submission has none.
pub const DEFAULT_HELPERS: &str = include_str!("../../haskell/Helpers.hs");

pub(crate) use crate::assignment::connect_four::part_exe;

/// How to build and run submissions.
#[derive(Debug, Clone)]
pub struct SubmissionOptions {
    /// The compiler.
    pub ghc: Ghc,
    /// Time limit of one part's compilation.
    pub compile_timeout: Duration,
    /// Time limit of one run of a part on a game.
    pub timeout: Duration,
    /// Most output accepted from one run.
    pub max_output: usize,
    /// Compilations (and runs) at once (`None`: one per core).
    pub jobs: Option<usize>,
    /// Where the private build folders go (the caller's own temporary
    /// folder, so it can remove everything at once, e.g. on Ctrl-C).
    pub work_dir: PathBuf,
    /// Compiled parts and saved results (`None`: nothing is kept).
    pub cache: Option<Cache>,
    /// The sandbox (`None`: `--no-sandbox`, programs run with the grader's rights).
    pub sandbox: Option<Sandbox>,
    /// How outputs are compared with their expected results.
    pub compare: crate::model::compare::Compare,
    /// The date reports record (UTC, RFC 3339); `None` leaves it out.
    pub date: Option<String>,
    /// How much of a submission is read (`--max-source`).
    pub read_limits: ReadLimits,
    /// How the edge cases count (`--edge-in-base`).
    pub scoring: crate::model::points::Scoring,
    /// Grade a part file named in another case (`--accept-name-case`).
    pub accept_name_case: bool,
    /// Stop running a part after this many timeouts in a row.
    pub part_timeouts: Option<usize>,
    /// Start no case after this instant (a submission's time budget).
    pub deadline: Option<std::time::Instant>,
    /// Where a submission's report so far is saved as grading goes.
    pub checkpoint: Option<Checkpoint>,
    /// The assignment graded (`--assignment`).
    pub assignment: crate::assignment::Assignment,
    /// Its point table (`--weights`; [`crate::model::points::Table::of`] the assignment).
    pub points: crate::model::points::Table,
}

/// Saves a submission's report so far (e.g. Gradescope's `results.json`,
/// so a run that is killed keeps what was earned); called from any thread.
#[derive(Clone)]
pub struct Checkpoint(
    pub std::sync::Arc<dyn Fn(&crate::model::submission::SubmissionReport) + Send + Sync>,
);

impl Checkpoint {
    /// Saves `report`.
    pub fn save(&self, report: &crate::model::submission::SubmissionReport) {
        (self.0)(report);
    }
}

impl std::fmt::Debug for Checkpoint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Checkpoint")
    }
}

impl SubmissionOptions {
    /// The provenance of grading on `suite` with these options.
    pub fn provenance(&self, suite: &Suite) -> Provenance {
        Provenance {
            ghc: Some(self.ghc.version.clone()),
            sandbox: self.sandbox.as_ref().map_or_else(
                || crate::model::provenance::OFF.to_owned(),
                Sandbox::description,
            ),
            date: self.date.clone(),
            ..Provenance::new(suite.digest(), self.compare)
        }
        .with_assignment(self.assignment)
    }

    /// Every option that can change a grade, by name (as on the command
    /// line where it is one) and value: the saved-result keys of
    /// `--resume` hash them, and say which changed when a saved result is
    /// not reused. Options that change no grade (`--roster`, `--jobs`, the
    /// output paths, report options, the cache) are not among them.
    pub(crate) fn grade_settings(&self) -> Vec<(&'static str, String)> {
        use crate::format::units::show_duration;
        let limits = self.sandbox.as_ref().map(|s| &s.limits);
        let limit = |f: &dyn Fn(&crate::sandbox::Limits) -> String| {
            limits.map_or_else(|| "none (--no-sandbox)".to_owned(), f)
        };
        vec![
            ("the grader's version", env!("CARGO_PKG_VERSION").to_owned()),
            (
                "GHC",
                format!("{} ({})", self.ghc.version, self.ghc.path.display()),
            ),
            ("--compile-timeout", show_duration(self.compile_timeout)),
            ("--timeout", show_duration(self.timeout)),
            ("--max-output", self.max_output.to_string()),
            (
                "the sandbox",
                if limits.is_some() {
                    "on"
                } else {
                    "off (--no-sandbox)"
                }
                .to_owned(),
            ),
            ("--memory", limit(&|l| l.memory.to_string())),
            ("--processes", limit(&|l| l.processes.to_string())),
            ("--open-files", limit(&|l| l.open_files.to_string())),
            ("--file-size", limit(&|l| l.file_size.to_string())),
            ("--scratch", limit(&|l| l.scratch.to_string())),
            (
                "--cpu-time",
                limit(&|l| l.cpu.map_or_else(|| "default".to_owned(), show_duration)),
            ),
            ("--max-source", self.read_limits.max_file.to_string()),
            (
                "the read limits",
                format!(
                    "{} files, {} bytes, {} entries a folder",
                    self.read_limits.max_files,
                    self.read_limits.max_total,
                    self.read_limits.max_entries
                ),
            ),
            ("--edge-in-base", self.scoring.edge_in_base.to_string()),
            (
                "--part-timeouts",
                self.part_timeouts
                    .map_or_else(|| "none".to_owned(), |n| n.to_string()),
            ),
            (
                "--budget",
                if self.deadline.is_some() {
                    "set"
                } else {
                    "none"
                }
                .to_owned(),
            ),
            ("--compare", self.compare.name().to_owned()),
            ("--accept-name-case", self.accept_name_case.to_string()),
        ]
        .into_iter()
        .chain(
            // Only another assignment's, so Connect Four's keys stay as they were.
            (!self.assignment.is_default())
                .then(|| ("--assignment", self.assignment.name().to_owned())),
        )
        .chain(
            (self.points != crate::model::points::Table::of(self.assignment)).then(|| {
                let weights: Vec<String> = self
                    .points
                    .allocation
                    .iter()
                    .map(|(c, t)| (c + t).to_string())
                    .collect();
                ("--weights", weights.join(","))
            }),
        )
        .collect()
    }

    /// What every option that can change a grade says, for result keys.
    fn fingerprint(&self) -> String {
        self.grade_settings()
            .iter()
            .map(|(name, value)| format!("{name}={value}"))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// Why a submission could not be graded at all.
#[derive(Debug, thiserror::Error)]
pub enum SubmissionError {
    /// Occurs when the submission's folder cannot be listed.
    #[error("{path}: cannot read the submission folder: {source}")]
    Folder {
        /// The folder.
        path: PathBuf,
        /// What went wrong.
        source: io::Error,
    },
    /// Occurs when the private build folder cannot be made or filled.
    #[error("cannot prepare the build folder {path}: {source}")]
    Build {
        /// The file or folder.
        path: PathBuf,
        /// What went wrong.
        source: io::Error,
    },
    /// Occurs when the student's sandbox cannot be had (every user id is
    /// held by another student's runs).
    #[error("{path}: {source}")]
    Sandbox {
        /// The student's folder.
        path: PathBuf,
        /// What went wrong.
        source: crate::sandbox::SandboxError,
    },
    /// Occurs when worker threads cannot be started.
    #[error("cannot start worker threads: {0}")]
    Threads(String),
    /// Occurs when the grader itself fails while grading the submission (a
    /// full disk keeping an executable, a sandbox that could not start a
    /// compilation or a run): nothing the student did, so no grade.
    #[error("{0}")]
    Fault(String),
}

impl SubmissionError {
    /// Whether the grader's own failure, not the submission, kept it from
    /// being graded (every error but an unreadable submission folder):
    /// such a student is "not graded", nothing of it is saved, `--resume`
    /// grades it again, and the exit code is 3.
    pub fn is_grader_fault(&self) -> bool {
        !matches!(self, SubmissionError::Folder { .. })
    }
}

pub(crate) fn pool(threads: Option<usize>) -> Result<rayon::ThreadPool, SubmissionError> {
    let mut builder = rayon::ThreadPoolBuilder::new();
    if let Some(n) = threads {
        builder = builder.num_threads(n);
    }
    builder
        .build()
        .map_err(|e| SubmissionError::Threads(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::submission::part_file;

    #[test]
    fn part_file_names() {
        assert_eq!(part_file(1), "csce322assignment03part01.hs");
        assert_eq!(part_exe(4), "csce322assignment03part04");
    }

    #[test]
    fn the_default_helpers_are_the_course_module_exactly() {
        // Spec §7: these two names, nothing else, with these definitions.
        let code: Vec<&str> = DEFAULT_HELPERS
            .lines()
            .filter(|l| !l.starts_with("--") && !l.trim().is_empty())
            .collect();
        assert_eq!(
            code,
            [
                "module Helpers",
                "( readConnectFourFile",
                ", printGame",
                ") where",
                "readConnectFourFile :: String -> IO ([[Char]],[Int])",
                "readConnectFourFile = readIO",
                "printGame :: [[Char]] -> IO ()",
                "printGame [] = print \"\"",
                "printGame (row:rows) = print row >> printGame rows",
            ]
        );
    }
}
