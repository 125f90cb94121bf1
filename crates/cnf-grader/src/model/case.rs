//! One case's result: its verdict, why it failed, and the totals of many.

use std::time::Duration;

use crate::model::diff::Diff;

/// The verdict of one case.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// The output matched the `.solution` file byte for byte.
    Pass,
    /// The program gave another output, or none.
    Fail,
    /// The fixture itself is broken, so the case could not be graded.
    Error,
    /// Not run, because an earlier case failed and `--fail-fast` was given.
    Skipped,
}

impl Status {
    /// The word shown in the human report.
    pub fn label(self) -> &'static str {
        match self {
            Status::Pass => "PASS",
            Status::Fail => "FAIL",
            Status::Error => "ERROR",
            Status::Skipped => "SKIP",
        }
    }
}

/// Which score a case counts toward, from its fixture's folder: a fixture
/// under a folder named `extra-credit` is extra credit, under one named
/// `edge` an edge case, anywhere else the base assignment.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum Group {
    /// The assignment's 100 points.
    #[default]
    Base,
    /// The assignment's extra credit: more than nine players.
    ExtraCredit,
    /// Cases the assignment's text alone decides: graded and shown apart,
    /// in the base only when the instructor says so.
    Edge,
}

impl Group {
    /// Whether it is the base assignment (what a report leaves unsaid).
    pub fn is_base(&self) -> bool {
        *self == Group::Base
    }

    /// The group of a fixture file at `path`: the deepest folder named
    /// `extra-credit` or `edge` on its path decides.
    pub fn of_path(path: &std::path::Path) -> Group {
        let folders = path.parent().into_iter().flat_map(|p| p.components());
        folders.fold(Group::Base, |group, c| match c.as_os_str().to_str() {
            Some("extra-credit") => Group::ExtraCredit,
            Some("edge") => Group::Edge,
            _ => group,
        })
    }

    /// The group's name in reports.
    pub fn label(self) -> &'static str {
        match self {
            Group::Base => "base",
            Group::ExtraCredit => "extra credit",
            Group::Edge => "edge",
        }
    }
}

/// Which time limit ended a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Clock {
    /// The CPU time (user + system) of the run's processes together passed
    /// `--timeout`.
    Cpu,
    /// The wall clock passed its backstop (a program that sleeps or blocks).
    Wall,
}

/// What one run of a program used (`--exec` and submissions), as the
/// sandbox measured it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct RunUsage {
    /// CPU time (user + system) of its processes together.
    pub cpu: Duration,
    /// Wall-clock time from start to end (or kill).
    pub wall: Duration,
    /// Peak memory of its processes, in bytes (0 when not measured).
    #[serde(default)]
    pub peak_memory: u64,
}

/// The class of a failure: what the JSON report's `failure` field, the
/// JUnit `type` and the grading rules go by. [`Failure`] says the rest.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FailureKind {
    /// The output differs from the expected one.
    WrongOutput,
    /// The function (in-process) reported an error for the game.
    FunctionError,
    /// The program exited with a non-zero code.
    NonZeroExit,
    /// The program was killed by a signal.
    Crash,
    /// The program ran past the time limit.
    Timeout,
    /// The program's processes used more memory or scratch space than allowed.
    MemoryLimit,
    /// The program's output is not UTF-8.
    NotUtf8,
    /// The program's output passed the cap.
    OverCap,
    /// The program could not be started.
    SpawnFailed,
    /// The shell found no such command, or could not run it (exit code 127 or 126).
    CommandNotFound,
    /// The part's source did not compile (`submission`), so it never ran.
    CompileError,
    /// The part's source file is missing from the submission.
    MissingPart,
    /// Not run: the part had already timed out on that many cases in a row.
    PartTimedOut,
    /// Not run: the submission's time budget was spent.
    OverBudget,
    /// Not run (yet): grading stopped before this case, e.g. killed.
    NotRun,
}

impl FailureKind {
    /// Whether the program ran to its end by itself (for compilation points).
    pub fn ran(self) -> bool {
        !matches!(
            self,
            FailureKind::Crash
                | FailureKind::Timeout
                | FailureKind::MemoryLimit
                | FailureKind::SpawnFailed
                | FailureKind::CommandNotFound
                | FailureKind::CompileError
                | FailureKind::MissingPart
                | FailureKind::PartTimedOut
                | FailureKind::OverBudget
                | FailureKind::NotRun
        )
    }
}

/// What happened to a failed case, as data: the renderers in
/// `crate::report` alone put it into words. (The JSON report carries it as
/// its `outcome` object, tagged by `kind`: docs/grading-a-class.md.)
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Failure {
    /// The output differs from the expected one (the diff: [`CaseReport::diff`]).
    WrongOutput,
    /// The function, run in-process, reported an error for the game.
    FunctionError {
        /// The error, as the function gave it.
        message: String,
    },
    /// The program exited by itself with a non-zero code.
    Exited {
        /// The exit code.
        code: i32,
    },
    /// The shell found no such command (127) or could not run it (126).
    CommandNotFound {
        /// The shell's exit code.
        code: i32,
    },
    /// The program was killed by a signal.
    Signalled {
        /// The signal's number.
        signal: i32,
        /// Whether only the shell's exit code (128 + the signal) said so.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        via_shell: bool,
    },
    /// A time limit passed and the run was killed.
    TimeLimit {
        /// Which clock.
        clock: Clock,
        /// That clock's limit, in milliseconds in JSON.
        #[serde(with = "millis")]
        limit: Duration,
        /// Whether a second run was stopped too (a case the wall clock
        /// stopped is run once more, and the second run's result stands).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        again: bool,
    },
    /// The run's processes used more memory, or scratch space, than
    /// allowed, and it was killed.
    MemoryLimit {
        /// The memory limit of the run, in bytes.
        memory: u64,
        /// The scratch folder's size limit, in bytes.
        scratch: u64,
        /// The most memory the run was seen to use, in bytes.
        peak: u64,
    },
    /// The output is not UTF-8 text.
    NotUtf8 {
        /// The offset of the first invalid byte.
        offset: usize,
        /// That byte.
        byte: u8,
    },
    /// Standard output passed the cap and the run was killed.
    OutputCap {
        /// The cap, in bytes.
        cap: usize,
    },
    /// The program could not be started.
    CouldNotStart {
        /// Why, as the system said it.
        cause: String,
    },
    /// The compilation entry of a part whose source file is not in the submission.
    Missing {
        /// The part, 1 to 4.
        part: u8,
        /// A file that looks meant to be this part (escaped).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        found: Option<String>,
    },
    /// The compilation entry of a part whose entry was not read (a link,
    /// a FIFO, a folder, a file too large).
    NotSubmitted {
        /// The part, 1 to 4.
        part: u8,
        /// What the entry was, and why it was not read.
        refused: String,
    },
    /// The compilation entry of a part GHC did not build.
    CompileFailed {
        /// The part, 1 to 4.
        part: u8,
        /// How the compilation ended.
        cause: CompileCause,
        /// The part's function, when the assignment names parts by their
        /// functions (Peg Reversal).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        function: Option<String>,
    },
    /// The compilation entry of a part when no single file of the
    /// submission is its source (Peg Reversal: the files that define
    /// `createBoard`, none or several).
    NoSubmission {
        /// The files that could be it (escaped), none or several.
        candidates: Vec<String>,
    },
    /// The case was not run.
    NotRun {
        /// Why not.
        why: NotRun,
    },
}

/// Why a case was not run.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "because", rename_all = "kebab-case")]
pub enum NotRun {
    /// Its part's source file is not in the submission.
    Missing {
        /// The part's source file name.
        file: String,
    },
    /// Its part's source was not read.
    NotSubmitted {
        /// The part's source file name.
        file: String,
    },
    /// Its part's source did not compile.
    NotCompiled {
        /// The part's source file name.
        file: String,
    },
    /// No single file of the submission is its part's source.
    NoSubmission,
    /// Its part had already timed out on this many cases in a row.
    PartTimedOut {
        /// The cases in a row.
        in_a_row: usize,
    },
    /// The submission's time budget was spent.
    OverBudget,
    /// Grading stopped before this case (e.g. it was killed).
    Stopped,
}

impl Failure {
    /// Its class.
    pub fn kind(&self) -> FailureKind {
        match self {
            Failure::WrongOutput => FailureKind::WrongOutput,
            Failure::FunctionError { .. } => FailureKind::FunctionError,
            Failure::Exited { .. } => FailureKind::NonZeroExit,
            Failure::CommandNotFound { .. } => FailureKind::CommandNotFound,
            Failure::Signalled { .. } => FailureKind::Crash,
            Failure::TimeLimit { .. } => FailureKind::Timeout,
            Failure::MemoryLimit { .. } => FailureKind::MemoryLimit,
            Failure::NotUtf8 { .. } => FailureKind::NotUtf8,
            Failure::OutputCap { .. } => FailureKind::OverCap,
            Failure::CouldNotStart { .. } => FailureKind::SpawnFailed,
            Failure::Missing { .. }
            | Failure::NotSubmitted { .. }
            | Failure::NoSubmission { .. } => FailureKind::MissingPart,
            Failure::CompileFailed { .. } => FailureKind::CompileError,
            Failure::NotRun { why } => match why {
                NotRun::Missing { .. } | NotRun::NotSubmitted { .. } | NotRun::NoSubmission => {
                    FailureKind::MissingPart
                }
                NotRun::NotCompiled { .. } => FailureKind::CompileError,
                NotRun::PartTimedOut { .. } => FailureKind::PartTimedOut,
                NotRun::OverBudget => FailureKind::OverBudget,
                NotRun::Stopped => FailureKind::NotRun,
            },
        }
    }
}

/// A duration as whole milliseconds, for the limits of [`Failure`] and
/// `CompileCause`.
pub(crate) mod millis {
    use std::time::Duration;

    pub(crate) fn serialize<S: serde::Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u64(u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
    }

    pub(crate) fn deserialize<'de, D: serde::Deserializer<'de>>(
        d: D,
    ) -> Result<Duration, D::Error> {
        <u64 as serde::Deserialize>::deserialize(d).map(Duration::from_millis)
    }
}

/// The result of one case.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct CaseReport {
    /// The `.cnf` path, as found.
    pub fixture: String,
    /// The function's name (or the unknown name from the file name).
    pub function: String,
    /// The function's part, 1 to 4, when the name is known.
    pub part: Option<u8>,
    /// The `.solution` path.
    pub solution: String,
    /// The verdict.
    pub status: Status,
    /// What happened, for `Fail`.
    pub failure: Option<Failure>,
    /// Why the fixture could not be graded, for `Error` (one message,
    /// maybe with the game file's diagnostic).
    pub reason: Option<String>,
    /// Expected and actual output, for [`Failure::WrongOutput`].
    pub diff: Option<Diff>,
    /// The program's standard error (truncated), when it wrote any.
    pub stderr: Option<String>,
    /// Wall-clock time of the run.
    pub duration: Duration,
    /// Whether it is a hidden test (students see only name, status, points).
    pub hidden: bool,
    /// Whether it passed only because of a relaxed comparison mode.
    pub relaxed: bool,
    /// Which score it counts toward.
    #[serde(default, skip_serializing_if = "Group::is_base")]
    pub group: Group,
    /// What the program's run used (runs of a program only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usage: Option<RunUsage>,
}

impl CaseReport {
    /// The class of its failure, for `Fail`.
    pub fn kind(&self) -> Option<FailureKind> {
        self.failure.as_ref().map(Failure::kind)
    }

    /// The clock that ended its run, for a time limit.
    pub fn stopped_by(&self) -> Option<Clock> {
        match self.failure {
            Some(Failure::TimeLimit { clock, .. }) => Some(clock),
            _ => None,
        }
    }
}

/// Counts of each verdict.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct Totals {
    /// Cases that passed.
    pub passed: usize,
    /// Cases that failed.
    pub failed: usize,
    /// Cases whose fixture is broken.
    pub errors: usize,
    /// Cases not run.
    pub skipped: usize,
}

impl Totals {
    /// The counts of these cases.
    pub fn of(cases: &[CaseReport]) -> Totals {
        let mut t = Totals::default();
        for c in cases {
            match c.status {
                Status::Pass => t.passed += 1,
                Status::Fail => t.failed += 1,
                Status::Error => t.errors += 1,
                Status::Skipped => t.skipped += 1,
            }
        }
        t
    }

    /// Whether every case passed.
    pub fn all_passed(&self) -> bool {
        self.failed == 0 && self.errors == 0 && self.skipped == 0
    }

    /// `N passed, N failed`, then `, N errors` and `, N skipped` when not zero.
    pub fn summary(&self) -> String {
        let mut s = format!("{} passed, {} failed", self.passed, self.failed);
        if self.errors > 0 {
            s.push_str(&format!(
                ", {} {}",
                self.errors,
                if self.errors == 1 { "error" } else { "errors" }
            ));
        }
        if self.skipped > 0 {
            s.push_str(&format!(", {} skipped", self.skipped));
        }
        s
    }
}

/// Why a part did not compile.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct CompileError {
    /// What happened (in words: `crate::report::outcome`).
    pub cause: CompileCause,
    /// The first lines of what GHC said.
    pub output: String,
}

impl CompileError {
    /// Whether GHC ran past the compile time limit.
    pub fn timed_out(&self) -> bool {
        matches!(self.cause, CompileCause::TimeLimit { .. })
    }
}

/// How a compilation that left no executable ended, as data.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum CompileCause {
    /// GHC exited with this non-zero code.
    Exited {
        /// The exit code.
        code: i32,
    },
    /// GHC succeeded but wrote no executable (no `Main` module with `main`).
    NoExecutable,
    /// GHC was killed by a signal.
    Signalled {
        /// The signal's number.
        signal: i32,
    },
    /// GHC ran past the compile time limit and was killed.
    TimeLimit {
        /// The limit, in milliseconds in JSON.
        #[serde(with = "millis")]
        limit: Duration,
    },
    /// GHC printed more than the executable's size limit and was killed.
    OutputCap,
    /// The executable was not a regular file when it was taken (a symbolic
    /// link, a FIFO, a folder: something a preprocessor or Template Haskell
    /// left running put in its place); it was not read.
    NotRegular,
    /// GHC passed the sandbox's memory or scratch limit and was killed.
    MemoryLimit,
    /// GHC could not be started.
    CouldNotStart {
        /// Why, as the system said it.
        cause: String,
    },
    /// The executable was built but could not be kept.
    NotKept {
        /// Why, as the system said it.
        cause: String,
    },
}
