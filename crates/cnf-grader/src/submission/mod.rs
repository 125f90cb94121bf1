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
//! - in the sandbox ([`crate::submission::sandbox`]) a compilation sees the sources
//!   read-only at `/build` and writes only its scratch `/tmp`, so Template
//!   Haskell runs contained too; the executable comes back on standard
//!   output and is kept in the cache ([`crate::submission::cache`]) under the hash of
//!   the sources, the helper and the GHC, so grading again after a fixture
//!   change does not recompile; a run sees its part's executables
//!   read-only at `/build` and a private copy of its one game file;
//! - when the grader is root, the student with index `i` in the class runs
//!   as user id `uid + i`, owner of its own build folder only;
//! - the parts compile in parallel (all the parts of all the students of a
//!   class share one pool of `jobs` threads; one submission's four parts
//!   always compile at once), then every compiled part runs on every case
//!   through [`crate::harness::grade::grade`]; a class grades `jobs` students at
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
//! - a class saves each student's result in the cache as soon as it is
//!   graded, under a key that covers the sources, the fixtures and every
//!   option; with `resume`, a student whose saved result matches is not
//!   graded again, so a run stopped by Ctrl-C, `kill -9` or a crash
//!   continues where it stopped and ends with the same gradebook.

pub mod cache;
pub mod ghc;
pub mod gradebook;
pub mod roster;
pub mod sandbox;
pub mod source;

use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use connect_core::Function;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use tempfile::TempDir;

use crate::harness::diff::Style;
use crate::harness::discover::Fixture;
use crate::harness::exec::{ExecConfig, ExecSandbox, Outcome, run_command_in, shell_quote};
use crate::harness::grade::{
    CaseReport, FailureKind, GradeOptions, Runner, Status, Totals, grade, not_run, unpaired,
};
use crate::harness::points::{Points, points_compiled};
use crate::harness::provenance::Provenance;
pub use crate::harness::provenance::fixtures_digest;
use crate::harness::report::{ReportOptions, human};
use crate::submission::cache::{Cache, digest};
use crate::submission::ghc::{CompileError, Ghc, compile_error};
use crate::submission::gradebook::Row;
use crate::submission::roster::{Member, Roster};
use crate::submission::sandbox::{Bind, Sandbox, give_to};
use crate::submission::source::{ReadLimits, Refused, Submission};

/// The course's `Helpers.hs` (spec §7), used when a submission has none.
pub const DEFAULT_HELPERS: &str = include_str!("../../haskell/Helpers.hs");

/// The warning every report carries when programs ran outside the sandbox.
pub const NO_SANDBOX_WARNING: &str = "warning: --no-sandbox: the student programs ran with the \
     grader's rights (they could read the .solution files and change any file you can)";

/// The file name of a part's source, e.g. `csce322assignment03part01.hs`.
pub fn part_file(part: u8) -> String {
    format!("csce322assignment03part{part:02}.hs")
}

fn part_exe(part: u8) -> String {
    format!("csce322assignment03part{part:02}")
}

/// The temporary folder of a grading run, which holds every private build
/// folder. Dropping it, or calling its [`WorkDir::cleaner`] (from a signal
/// handler), kills the unsandboxed compilers and programs still working in
/// it and removes it; sandboxed ones die with the grader by themselves.
#[derive(Debug)]
pub struct WorkDir {
    dir: Option<TempDir>,
}

impl WorkDir {
    /// Makes a new work folder inside `parent`.
    pub fn new(parent: &Path) -> io::Result<WorkDir> {
        let dir = tempfile::Builder::new()
            .prefix("cnf-grader-")
            .tempdir_in(parent)?;
        Ok(WorkDir { dir: Some(dir) })
    }

    /// The folder.
    pub fn path(&self) -> &Path {
        self.dir.as_ref().map_or(Path::new(""), TempDir::path)
    }

    /// A clean-up that can run from a signal handler thread: kill what
    /// works in the folder, then remove it.
    pub fn cleaner(&self) -> impl Fn() + Send + 'static {
        let root = self.path().to_owned();
        move || clean_up(&root)
    }
}

impl Drop for WorkDir {
    fn drop(&mut self) {
        if let Some(dir) = self.dir.take() {
            clean_up(dir.path());
        }
    }
}

/// Kills what works in `root` (a few rounds, for processes started
/// meanwhile), then removes it.
fn clean_up(root: &Path) {
    for _ in 0..3 {
        if kill_processes_in(root) == 0 {
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let _ = fs::remove_dir_all(root);
}

/// Kills (SIGKILL) every process whose working folder is inside `root`,
/// with its process group; returns how many were found. Each unsandboxed
/// compiler and student program runs in its own process group there.
pub fn kill_processes_in(root: &Path) -> usize {
    use rustix::process::{Pid, Signal, kill_process, kill_process_group};
    let Ok(entries) = fs::read_dir("/proc") else {
        return 0;
    };
    let mut found = 0;
    for entry in entries.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|n| n.parse::<i32>().ok())
            .and_then(Pid::from_raw)
        else {
            continue;
        };
        if fs::read_link(entry.path().join("cwd")).is_ok_and(|cwd| cwd.starts_with(root)) {
            found += 1;
            let _ = kill_process_group(pid, Signal::KILL);
            let _ = kill_process(pid, Signal::KILL);
        }
    }
    found
}

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
    pub compare: crate::harness::compare::Compare,
    /// The date reports record (UTC, RFC 3339); `None` leaves it out.
    pub date: Option<String>,
    /// How much of a submission is read (`--max-source`).
    pub read_limits: ReadLimits,
}

impl SubmissionOptions {
    /// The provenance of grading on `fixtures` with these options.
    pub fn provenance(&self, fixtures: &[Fixture]) -> Provenance {
        Provenance {
            ghc: Some(self.ghc.version.clone()),
            sandbox: self.sandbox.as_ref().map_or_else(
                || crate::harness::provenance::OFF.to_owned(),
                Sandbox::description,
            ),
            date: self.date.clone(),
            ..Provenance::new(fixtures, self.compare)
        }
    }

    /// What every option that can change a grade says, for result keys.
    fn fingerprint(&self) -> String {
        format!(
            "{} ghc={} {:?} compile={:?} timeout={:?} max_output={} sandbox={:?} read={:?}",
            env!("CARGO_PKG_VERSION"),
            self.ghc.version,
            self.ghc.path,
            self.compile_timeout,
            self.timeout,
            self.max_output,
            self.sandbox.as_ref().map(|s| &s.limits),
            self.read_limits
        ) + " compare="
            + self.compare.name()
    }
}

/// What became of one part's source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BuildOutcome {
    /// GHC built the executable (or the cache had it).
    Compiled,
    /// The submission has no such file; maybe one under a wrong name.
    Missing {
        /// A file that looks meant to be this part.
        found: Option<String>,
    },
    /// The submission has an entry of this name, but it was not read (a
    /// link, a FIFO, a device, a folder, a file over `--max-source`).
    Refused(Refused),
    /// GHC did not build it.
    Failed(CompileError),
}

/// One part's build.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PartBuild {
    /// The part, 1 to 4.
    pub part: u8,
    /// The source file in the submission's folder.
    pub source: PathBuf,
    /// What became of it.
    pub outcome: BuildOutcome,
    /// How long GHC took (zero when the cache had it).
    pub duration: Duration,
    /// The executable, when it compiled.
    pub exe: Option<PathBuf>,
}

impl PartBuild {
    /// Whether the part has an executable.
    pub fn compiled(&self) -> bool {
        self.outcome == BuildOutcome::Compiled
    }

    /// The report entry of this build: a case named `compile`.
    pub fn as_case(&self) -> CaseReport {
        let (status, failure, reason, stderr) = match &self.outcome {
            BuildOutcome::Compiled => (Status::Pass, None, None, None),
            BuildOutcome::Missing { found } => (
                Status::Fail,
                Some(FailureKind::MissingPart),
                Some(format!(
                    "missing: the submission has no {}{} (part {} scores 0)",
                    part_file(self.part),
                    found.as_ref().map_or(String::new(), |f| format!(
                        "; it has {}, but the file must be named exactly {}",
                        crate::escape::line(f),
                        part_file(self.part)
                    )),
                    self.part
                )),
                None,
            ),
            BuildOutcome::Refused(refused) => (
                Status::Fail,
                Some(FailureKind::MissingPart),
                Some(format!(
                    "not submitted: {refused} (part {} scores 0)",
                    self.part
                )),
                None,
            ),
            BuildOutcome::Failed(error) => (
                Status::Fail,
                Some(FailureKind::CompileError),
                Some(format!(
                    "did not compile: {} (part {} scores 0)",
                    error.reason, self.part
                )),
                (!error.output.is_empty()).then(|| error.output.clone()),
            ),
        };
        CaseReport {
            fixture: self.source.to_string_lossy().into_owned(),
            function: "compile".to_owned(),
            part: None,
            solution: String::new(),
            status,
            failure,
            reason,
            diff: None,
            stderr,
            duration: self.duration,
            hidden: false,
            relaxed: false,
        }
    }
}

/// The graded submission.
#[derive(Debug, Clone)]
pub struct SubmissionReport {
    /// The submission's folder.
    pub dir: PathBuf,
    /// Whether it brought its own `Helpers.hs`.
    pub own_helpers: bool,
    /// Parts 1 to 4.
    pub builds: Vec<PartBuild>,
    /// Every case, in discovery order (parts that did not build: not run).
    pub cases: Vec<CaseReport>,
    /// The score.
    pub points: Points,
    /// Whether the programs ran in the sandbox.
    pub sandboxed: bool,
    /// How outputs were compared.
    pub compare: crate::harness::compare::Compare,
    /// Where the report came from.
    pub provenance: Provenance,
    /// What the submission's folder held that was not read (part files
    /// included, whose compilation entries say it too).
    pub refused: Vec<Refused>,
    /// The sub-folder the part files were read from, when not the folder itself.
    pub nested: Option<PathBuf>,
    /// Sub-folders that hold part files, when the folder holds none and
    /// several of them do (none was graded).
    pub scattered: Vec<PathBuf>,
}

impl SubmissionReport {
    /// The report's entries: the four compilations, then the cases.
    pub fn all_cases(&self) -> Vec<CaseReport> {
        self.builds
            .iter()
            .map(PartBuild::as_case)
            .chain(self.cases.iter().cloned())
            .collect()
    }

    /// Tests that failed: compilations that did not succeed and cases that
    /// failed (including those not run), as every report counts them
    /// ([`Totals`] of [`SubmissionReport::all_cases`]).
    pub fn failed_cases(&self) -> usize {
        Totals::of(&self.all_cases()).failed
    }

    /// Whether every part compiled and every case passed.
    pub fn all_passed(&self) -> bool {
        self.builds.iter().all(PartBuild::compiled) && Totals::of(&self.cases).all_passed()
    }

    /// The first lines of the human report: the folder, the helper and
    /// GHC, then where the sources were found and what was not read.
    pub fn header(&self, ghc: &Ghc) -> String {
        let mut out = format!(
            "submission {}: {} Helpers.hs, GHC {}\n",
            crate::escape::path(&self.dir),
            if self.own_helpers {
                "its own"
            } else {
                "the default"
            },
            crate::escape::line(&ghc.version)
        );
        for line in self.reading_notes() {
            out.push_str(&crate::escape::line(&line));
            out.push('\n');
        }
        out
    }

    /// Sentences on how the folder was read: a sub-folder graded instead,
    /// sub-folders with part files when none was taken, and every entry not
    /// read (except part files, whose compilation entries say it).
    pub fn reading_notes(&self) -> Vec<String> {
        let mut out = Vec::new();
        if let Some(nested) = &self.nested {
            out.push(format!(
                "the part files are in the sub-folder {}, which was graded (the folder itself holds none)",
                crate::escape::path(nested)
            ));
        }
        if !self.scattered.is_empty() {
            let folders: Vec<String> = self
                .scattered
                .iter()
                .map(|p| crate::escape::path(p))
                .collect();
            out.push(format!(
                "part files are in several sub-folders ({}), so none was graded: put the four part files at the top of the submission",
                folders.join(", ")
            ));
        }
        for refused in &self.refused {
            if (1..=4).any(|part| refused.is(&part_file(part))) {
                continue;
            }
            let helper = if refused.is("Helpers.hs") {
                " (the default Helpers.hs was used)"
            } else {
                ""
            };
            out.push(format!("not read: {refused}{helper}"));
        }
        out
    }

    /// What JSON reports record about the submission: its folder, helper,
    /// sandbox, comparison mode, and how it was read.
    pub fn info(&self) -> serde_json::Value {
        let mut info = serde_json::json!({
            "dir": crate::escape::path(&self.dir),
            "helpers": if self.own_helpers { "own" } else { "default" },
            "sandbox": self.sandboxed,
            "compare": self.compare.name(),
        });
        if let Some(nested) = &self.nested {
            info["nested"] = crate::escape::path(nested).into();
        }
        if !self.scattered.is_empty() {
            info["scattered"] = self
                .scattered
                .iter()
                .map(|p| crate::escape::path(p))
                .collect();
        }
        if !self.refused.is_empty() {
            info["not_read"] = self.refused.iter().map(ToString::to_string).collect();
        }
        info
    }

    /// The warning every report of this submission carries, if any.
    pub fn warning(&self) -> Option<&'static str> {
        (!self.sandboxed).then_some(NO_SANDBOX_WARNING)
    }

    /// The whole human report: the header, the cases and the points; in a
    /// `student` view hidden cases show no details.
    pub fn human(&self, ghc: &Ghc, times: bool, style: Style, student: bool) -> String {
        format!(
            "{}\n{}",
            self.header(ghc),
            human(
                &self.all_cases(),
                ReportOptions {
                    times,
                    points: Some(&self.points),
                    warning: self.warning(),
                    extra: &[],
                    compare: self.compare,
                    student,
                    provenance: Some(&self.provenance),
                    shard: None,
                },
                style,
            )
        )
    }

    /// The Gradescope `results.json` of this submission (the student's view).
    pub fn gradescope(&self) -> String {
        self.gradescope_of(None)
    }

    /// [`SubmissionReport::gradescope`], naming the roster's student in `extra_data`.
    pub fn gradescope_of(&self, member: Option<&Member>) -> String {
        let mut info = vec![("submission", self.info())];
        if let Some(m) = member {
            let esc = crate::escape::line;
            info.push((
                "student",
                serde_json::json!({ "name": esc(&m.name), "id": esc(&m.id) }),
            ));
        }
        // The student sees, atop the output, what was not read and why.
        let mut notice: Vec<String> = self.warning().map(str::to_owned).into_iter().collect();
        notice.extend(self.reading_notes());
        let notice = notice.join("\n");
        crate::harness::gradescope::gradescope(
            &self.all_cases(),
            &self.points,
            (!notice.is_empty()).then_some(notice.as_str()),
            Some(&self.provenance),
            &info,
        )
    }

    /// Short remarks for a gradebook: missing parts, compile errors,
    /// timeouts and crashes, own `Helpers.hs`.
    pub fn notes(&self) -> Vec<String> {
        let mut notes = Vec::new();
        for build in &self.builds {
            match &build.outcome {
                BuildOutcome::Compiled => {}
                BuildOutcome::Missing { found: None } => {
                    notes.push(format!("part {} missing", build.part));
                }
                BuildOutcome::Missing { found: Some(f) } => {
                    notes.push(format!("part {} missing (found {f})", build.part));
                }
                BuildOutcome::Refused(refused) => {
                    notes.push(format!(
                        "part {} not submitted ({})",
                        build.part,
                        refused.why.short()
                    ));
                }
                BuildOutcome::Failed(error) if error.timed_out => {
                    notes.push(format!(
                        "part {} did not compile: compile timed out",
                        build.part
                    ));
                }
                BuildOutcome::Failed(_) => {
                    notes.push(format!("part {} did not compile", build.part));
                }
            }
        }
        if let Some(nested) = &self.nested {
            notes.push(format!("graded from {}", crate::escape::path(nested)));
        }
        if !self.scattered.is_empty() {
            notes.push(format!(
                "part files in {} sub-folders",
                self.scattered.len()
            ));
        }
        let others: Vec<&Refused> = self
            .refused
            .iter()
            .filter(|r| !(1..=4).any(|part| r.is(&part_file(part))))
            .collect();
        if others.len() > MAX_NOTED {
            notes.push(format!("{} files not read (see the report)", others.len()));
        } else {
            for refused in others {
                notes.push(format!(
                    "not read: {} ({})",
                    refused.name_escaped,
                    refused.why.short()
                ));
            }
        }
        for part in 1..=4 {
            let count = |kind| {
                self.cases
                    .iter()
                    .filter(|c| c.part == Some(part) && c.failure == Some(kind))
                    .count()
            };
            let (timeouts, crashes) = (count(FailureKind::Timeout), count(FailureKind::Crash));
            if timeouts > 0 {
                notes.push(format!("part {part}: {timeouts} timed out"));
            }
            if crashes > 0 {
                notes.push(format!("part {part}: {crashes} crashed"));
            }
        }
        if self.own_helpers {
            notes.push("own Helpers.hs".to_owned());
        }
        if !self.sandboxed {
            notes.push("not sandboxed".to_owned());
        }
        notes
    }
}

/// Most entries not read that a gradebook's notes name one by one.
const MAX_NOTED: usize = 3;

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
    /// Occurs when worker threads cannot be started.
    #[error("cannot start worker threads: {0}")]
    Threads(String),
}

/// A submission copied into its private build folder.
struct Prepared {
    /// The folder given.
    dir: PathBuf,
    /// How it was read.
    read: Reading,
    build: TempDir,
    present: [bool; 4],
    /// Part files that are there but were not read.
    refused: [Option<Refused>; 4],
    misnamed: [Option<String>; 4],
    own_helpers: bool,
    /// The hash of every source file and the helper used.
    sources: String,
    /// The sandbox of this student (its own user id when the grader is root).
    sandbox: Option<Sandbox>,
}

impl Prepared {
    fn src(&self) -> PathBuf {
        self.build.path().join("src")
    }
}

/// What a report says of how a submission was read (its bytes are gone
/// once copied into the build folder).
#[derive(Debug, Clone, Default)]
struct Reading {
    /// The folder the sources came from.
    dir: PathBuf,
    nested: Option<PathBuf>,
    scattered: Vec<PathBuf>,
    refused: Vec<Refused>,
}

/// `name` with letters lowered and every number written without leading
/// zeros, for spotting misnamed part files.
fn loose_name(name: &str) -> String {
    let mut out = String::new();
    let mut digits = String::new();
    for c in name.chars().chain(std::iter::once(' ')) {
        if c.is_ascii_digit() {
            digits.push(c);
            continue;
        }
        if !digits.is_empty() {
            let trimmed = digits.trim_start_matches('0');
            out.push_str(if trimmed.is_empty() { "0" } else { trimmed });
            digits.clear();
        }
        out.extend(c.to_lowercase());
    }
    out.pop();
    out
}

/// The file among `names` that looks meant to be part `part`'s source.
fn misnamed_part(names: &[String], part: u8) -> Option<String> {
    let wanted = loose_name(&part_exe(part));
    let tail = format!("part{part}");
    names
        .iter()
        .filter(|n| **n != part_file(part))
        .filter_map(|n| {
            let (stem, ext) = n.rsplit_once('.')?;
            matches!(ext.to_ascii_lowercase().as_str(), "hs" | "lhs").then(|| (n, loose_name(stem)))
        })
        .find(|(_, stem)| *stem == wanted)
        .or_else(|| {
            names
                .iter()
                .filter(|n| **n != part_file(part))
                .filter_map(|n| {
                    let (stem, ext) = n.rsplit_once('.')?;
                    matches!(ext.to_ascii_lowercase().as_str(), "hs" | "lhs")
                        .then(|| (n, loose_name(stem)))
                })
                .find(|(_, stem)| stem.ends_with(&tail))
        })
        .map(|(n, _)| n.clone())
}

/// Copies a submission as read (`submission`, from the folder `dir`) into
/// a new private build folder in `work`.
fn prepare(
    dir: &Path,
    submission: Submission,
    work: &Path,
    sandbox: Option<Sandbox>,
) -> Result<Prepared, SubmissionError> {
    let mut names: Vec<String> = submission
        .files
        .iter()
        .map(|f| f.name.clone())
        .chain(submission.others.iter().cloned())
        .collect();
    names.sort();
    let present: [bool; 4] =
        std::array::from_fn(|i| submission.file(&part_file(i as u8 + 1)).is_some());
    let refused: [Option<Refused>; 4] =
        std::array::from_fn(|i| submission.refusal(&part_file(i as u8 + 1)).cloned());
    let misnamed: [Option<String>; 4] = std::array::from_fn(|i| {
        (!present[i] && refused[i].is_none())
            .then(|| misnamed_part(&names, i as u8 + 1))
            .flatten()
    });
    let own_helpers = submission.file("Helpers.hs").is_some();
    let build = tempfile::Builder::new()
        .prefix("student-")
        .tempdir_in(work)
        .and_then(|d| {
            use std::os::unix::fs::PermissionsExt as _;
            fs::set_permissions(d.path(), fs::Permissions::from_mode(0o700)).map(|()| d)
        })
        .map_err(|source| SubmissionError::Build {
            path: work.to_owned(),
            source,
        })?;
    let failed = |path: &Path| {
        let path = path.to_owned();
        move |source| SubmissionError::Build { path, source }
    };
    let src = build.path().join("src");
    fs::create_dir(&src).map_err(failed(&src))?;
    // What compiles is what was read: the copies are made from those bytes.
    let write_new = |path: &Path, bytes: &[u8]| {
        use std::io::Write as _;
        fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(path)
            .and_then(|mut f| f.write_all(bytes))
            .map_err(failed(path))
    };
    let mut pieces: Vec<Vec<u8>> = Vec::new();
    for file in &submission.files {
        write_new(&src.join(&file.name), &file.bytes)?;
        pieces.push(file.name.as_bytes().to_vec());
        pieces.push(file.bytes.clone());
    }
    if !own_helpers {
        let helpers = src.join("Helpers.hs");
        write_new(&helpers, DEFAULT_HELPERS.as_bytes())?;
        pieces.push(b"Helpers.hs (default)".to_vec());
        pieces.push(DEFAULT_HELPERS.as_bytes().to_vec());
    }
    if let Some(uid) = sandbox.as_ref().and_then(|s| s.uid) {
        // The student's own user reads its sources, and no other student can.
        let own = |path: &Path| {
            std::os::unix::fs::chown(path, Some(uid), Some(uid)).map_err(failed(path))
        };
        own(build.path())?;
        own(&src)?;
        for entry in fs::read_dir(&src).map_err(failed(&src))?.flatten() {
            own(&entry.path())?;
        }
    }
    Ok(Prepared {
        dir: dir.to_owned(),
        read: Reading {
            dir: submission.dir,
            nested: submission.nested,
            scattered: submission.scattered,
            refused: submission.refused,
        },
        build,
        present,
        refused,
        misnamed,
        own_helpers,
        sources: digest(pieces.iter().map(Vec::as_slice)),
        sandbox,
    })
}

/// Reads and prepares one student's folder; the student's index `i` in
/// the class gives its user id when the grader is root.
fn prepare_student(
    dir: &Path,
    read: Result<Submission, source::ReadError>,
    options: &SubmissionOptions,
    i: usize,
) -> Result<Prepared, SubmissionError> {
    let submission = read.map_err(|e| SubmissionError::Folder {
        path: dir.to_owned(),
        source: e.source,
    })?;
    let sandbox = options.sandbox.as_ref().map(|s| match s.uid {
        Some(base) => s.with_uid(base.saturating_add(i as u32)),
        None => s.clone(),
    });
    prepare(dir, submission, &options.work_dir, sandbox)
}

fn pool(threads: Option<usize>) -> Result<rayon::ThreadPool, SubmissionError> {
    let mut builder = rayon::ThreadPoolBuilder::new();
    if let Some(n) = threads {
        builder = builder.num_threads(n);
    }
    builder
        .build()
        .map_err(|e| SubmissionError::Threads(e.to_string()))
}

/// The flags every part is compiled with (part of the cache key).
const GHC_FLAGS: &str = "-v0 -O0 -i -i. -with-rtsopts=-M1g";

/// Most bytes of executable accepted back from a compilation.
const MAX_EXE: usize = 512 << 20;

/// The exit code of the compile script when GHC wrote no executable.
const NO_EXE: i32 = 99;

/// Compiles one part (or finds it in the cache).
fn compile_part(p: &Prepared, part: u8, options: &SubmissionOptions) -> PartBuild {
    let source = p.read.dir.join(part_file(part));
    let built = |outcome, duration, exe| PartBuild {
        part,
        source: source.clone(),
        outcome,
        duration,
        exe,
    };
    let key = digest([
        p.sources.as_bytes(),
        options.ghc.version.as_bytes(),
        options.ghc.path.as_os_str().as_encoded_bytes(),
        GHC_FLAGS.as_bytes(),
        &[part],
    ]);
    let exe = part_exe(part);
    if let Some(cache) = &options.cache {
        let path = cache.build_path(&key, &exe);
        if path.is_file() {
            return built(BuildOutcome::Compiled, Duration::ZERO, Some(path));
        }
    }
    let start = std::time::Instant::now();
    // GHC's own output goes to standard error; standard output carries the
    // executable back, so the compilation needs no writable host folder.
    let script = |ghc: &str, scratch: &str| {
        format!(
            "mkdir -p {scratch}/obj || exit 1; {ghc} {GHC_FLAGS} -outputdir {scratch}/obj \
             -o {scratch}/{exe} {} 1>&2 || exit $?; [ -f {scratch}/{exe} ] || exit {NO_EXE}; \
             exec cat {scratch}/{exe}",
            shell_quote(&part_file(part)),
        )
    };
    let ghc = shell_quote(&options.ghc.path.to_string_lossy());
    let result = match &p.sandbox {
        Some(sandbox) => match sandbox.run() {
            Ok(mut run) => {
                run.bind(Bind::new(p.src(), "/build"))
                    .chdir(Path::new("/build"));
                run.execute(
                    &script(&ghc, "\"$TMPDIR\""),
                    options.compile_timeout,
                    MAX_EXE,
                )
            }
            Err(e) => crate::harness::exec::ExecResult {
                outcome: Outcome::CouldNotStart(format!("cannot prepare the sandbox: {e}")),
                stderr: String::new(),
                stderr_truncated: false,
            },
        },
        None => {
            let scratch = p.build.path().join(format!("scratch{part:02}"));
            let scratch = shell_quote(&scratch.to_string_lossy());
            let command = format!(
                "ulimit -t {}; mkdir -p {scratch}/tmp && TMPDIR={scratch}/tmp && export TMPDIR && {}",
                options.compile_timeout.as_secs() + 1,
                script(&ghc, &scratch)
            );
            run_command_in(&command, Some(&p.src()), options.compile_timeout, MAX_EXE)
        }
    };
    let duration = start.elapsed();
    let failed = |error| built(BuildOutcome::Failed(error), duration, None);
    let bytes = match result.outcome {
        Outcome::Exited { code: 0, stdout } => stdout,
        Outcome::Exited { code: NO_EXE, .. } => {
            return failed(CompileError {
                reason: format!(
                    "GHC wrote no executable (is {} a Main module with main?)",
                    part_file(part)
                ),
                output: crate::submission::ghc::first_lines(&result.stderr),
                timed_out: false,
            });
        }
        outcome => {
            return failed(compile_error(
                outcome,
                &result.stderr,
                options.compile_timeout,
            ));
        }
    };
    let stored = match &options.cache {
        Some(cache) => cache.store_build(&key, &exe, &bytes),
        None => {
            let path = p.build.path().join(format!("bin{part:02}")).join(&exe);
            fs::create_dir_all(path.parent().unwrap_or(p.build.path()))
                .and_then(|()| {
                    crate::submission::cache::write_atomically_with_mode(&path, &bytes, 0o755)
                })
                .map(|()| path)
        }
    };
    match stored {
        Ok(path) => built(BuildOutcome::Compiled, duration, Some(path)),
        Err(e) => failed(CompileError {
            reason: format!("the grader could not keep the executable: {e}"),
            output: String::new(),
            timed_out: false,
        }),
    }
}

/// Grades one submission folder on these fixtures; its four parts compile
/// at once.
pub fn grade_submission(
    dir: &Path,
    fixtures: &[Fixture],
    options: &SubmissionOptions,
) -> Result<SubmissionReport, SubmissionError> {
    let read = source::read_submission(dir, &options.read_limits);
    let prepared = vec![prepare_student(dir, read, options, 0)];
    let provenance = options.provenance(fixtures);
    let mut all = grade_many_indexed(
        prepared,
        fixtures,
        options,
        &provenance,
        Some(4),
        &|_, r| r,
        &|_| {},
    )?;
    all.pop().unwrap_or_else(|| {
        Err(SubmissionError::Threads(
            "no result for the submission".into(),
        ))
    })
}

/// One student of a class, as the gradebook and the reports need it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StudentResult {
    /// The sub-folder's name.
    pub name: String,
    /// The gradebook row.
    pub row: Row,
    /// The student's full report (human text, without times).
    pub report: String,
    /// The student's Gradescope `results.json`.
    #[serde(default)]
    pub gradescope: String,
    /// The student's HTML page (empty when not graded, and in results saved
    /// by a grader without pages).
    #[serde(default)]
    pub html: String,
    /// Whether it was graded (false: it could not be, and `row.error` says why).
    pub graded: bool,
}

/// What a class run reports as it goes, for a progress display.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClassProgress {
    /// With `resume`: the saved results of this many students were reused.
    Restored(usize),
    /// Compilation starts: this many parts to compile (or find in the cache).
    Compiling(usize),
    /// One part compiled (or was found in the cache, or failed).
    Compiled,
    /// One student is done: restored, graded, or absent from the class.
    Student,
}

/// What a class run needs besides the submissions.
#[derive(Debug, Clone, Copy, Default)]
pub struct ClassOptions<'a> {
    /// Reuse saved results of students whose sources, fixtures and
    /// options are unchanged.
    pub resume: bool,
    /// Grade only the students of this shard (see [`crate::harness::shard`]).
    pub shard: Option<crate::harness::shard::Shard>,
    /// Who each folder belongs to (see [`roster`]).
    pub roster: Option<&'a Roster>,
}

/// A student folder still to grade.
struct Pending {
    name: String,
    dir: PathBuf,
    key: String,
}

/// The saved-result key of one student's submission as read from `dir`
/// (whose roster entry is named in its reports).
fn result_key(
    dir: &Path,
    read: &Result<Submission, source::ReadError>,
    fixtures: &str,
    options: &SubmissionOptions,
    member: Option<Option<&Member>>,
) -> String {
    // Whether a roster was given (the outer option) changes the notes ("not
    // in the roster"), and the student's entry the names in the reports.
    let mut pieces: Vec<Vec<u8>> = vec![
        dir.as_os_str().as_encoded_bytes().to_vec(),
        fixtures.as_bytes().to_vec(),
        options.fingerprint().into_bytes(),
        // JSON writes `Some(None)` and `None` alike: say which it is.
        serde_json::to_vec(&(member.is_some(), member.flatten())).unwrap_or_default(),
    ];
    // Everything the grade can depend on: the sources read (nothing else
    // is compiled), the other names (misnamed parts) and what was refused.
    match read {
        Err(e) => pieces.push(e.to_string().into_bytes()),
        Ok(s) => {
            pieces.push(format!("{:?} {:?}", s.nested, s.scattered).into_bytes());
            for file in &s.files {
                pieces.push(file.name.as_bytes().to_vec());
                pieces.push(file.bytes.clone());
            }
            pieces.push(s.others.join("/").into_bytes());
            for refused in &s.refused {
                pieces.push(refused.to_string().into_bytes());
            }
        }
    }
    digest(pieces.iter().map(Vec::as_slice))
}

/// The student folders of a class: every sub-folder of `root` (hidden ones
/// left out), sorted by name; links and names that are not UTF-8 are left
/// out too (see [`source::list_class`]).
pub fn class_folders(root: &Path) -> Result<Vec<String>, SubmissionError> {
    Ok(list_class(root)?.folders)
}

fn list_class(root: &Path) -> Result<source::ClassListing, SubmissionError> {
    source::list_class(root).map_err(|e| SubmissionError::Folder {
        path: root.to_owned(),
        source: e.source,
    })
}

/// The students of a class: its folders (see [`class_folders`]), the
/// entries that would be students but are not read (a link, a name that is
/// not UTF-8, shown escaped), and the roster's, sorted by folder name.
pub fn class_members(root: &Path, roster: Option<&Roster>) -> Result<Vec<String>, SubmissionError> {
    let listing = list_class(root)?;
    let mut names = listing.folders;
    names.extend(listing.refused.into_iter().map(|r| r.name_escaped));
    if let Some(roster) = roster {
        names.extend(roster.folders().map(str::to_owned));
    }
    names.sort();
    names.dedup();
    Ok(names)
}

/// Grades every student of `root` (see [`class_members`]), saving
/// each result as soon as it is done; `progress` hears of each stage
/// ([`ClassProgress`]): once per student (restored, graded or absent), once
/// per part compiled.
pub fn grade_class(
    root: &Path,
    fixtures: &[Fixture],
    options: &SubmissionOptions,
    class: ClassOptions,
    progress: &(dyn Fn(ClassProgress) + Sync),
) -> Result<Vec<StudentResult>, SubmissionError> {
    let listing = list_class(root)?;
    let mut names = class_members(root, class.roster)?;
    if let Some(shard) = class.shard {
        names.retain(|name| shard.contains(name));
    }
    let member = |name: &str| class.roster.and_then(|r| r.get(name));
    let refusal = |name: &str| listing.refused.iter().find(|r| r.name_escaped == name);
    // Entries not read (a link, an odd name) and roster students with no
    // folder: a zero, never graded.
    let (names, absent): (Vec<String>, Vec<String>) = names
        .into_iter()
        .partition(|n| listing.folders.binary_search(n).is_ok());
    // One hash of the fixtures serves the result keys and every report.
    let provenance = options.provenance(fixtures);
    let tree = &provenance.fixtures;
    // Each folder is read once: its key, then (unless a saved result
    // matches) its build folder, from the same bytes.
    let mut pending = Vec::new();
    let mut prepared = Vec::new();
    let mut results: Vec<Option<StudentResult>> = Vec::new();
    for (i, name) in names.iter().enumerate() {
        let dir = root.join(name);
        let read = source::read_class_member(root, name, &options.read_limits);
        let key = result_key(
            &dir,
            &read,
            tree,
            options,
            class.roster.map(|r| r.get(name)),
        );
        let restored = class
            .resume
            .then(|| options.cache.as_ref()?.load_result(&key))
            .flatten()
            .and_then(|text: String| serde_json::from_str::<StudentResult>(&text).ok())
            .filter(|r| r.name == *name);
        if restored.is_some() {
            progress(ClassProgress::Student);
        } else {
            prepared.push(prepare_student(&dir, read, options, i));
            pending.push((
                i,
                Pending {
                    name: name.clone(),
                    dir,
                    key,
                },
            ));
        }
        results.push(restored);
    }
    if class.resume {
        progress(ClassProgress::Restored(names.len() - pending.len()));
    }
    let save = |at: usize, result: Result<SubmissionReport, SubmissionError>| -> StudentResult {
        let p = &pending[at].1;
        debug_assert!(result.as_ref().map_or(true, |r| r.dir == p.dir));
        let student = student_result(&p.name, &result, &options.ghc, class.roster);
        if let Some(cache) = &options.cache
            && student.graded
            && let Ok(text) = serde_json::to_string(&student)
        {
            // A result that cannot be saved is only graded again next time.
            let _ = cache.store_result(&p.key, &text);
        }
        progress(ClassProgress::Student);
        student
    };
    let graded = grade_many_indexed(
        prepared,
        fixtures,
        options,
        &provenance,
        options.jobs,
        &save,
        progress,
    )?;
    for (at, student) in graded.into_iter().enumerate() {
        results[pending[at].0] = Some(student);
    }
    let mut all: Vec<StudentResult> = results.into_iter().flatten().collect();
    for name in absent {
        progress(ClassProgress::Student);
        all.push(match refusal(&name) {
            Some(refused) => not_read(&name, refused, member(&name), &provenance),
            None => no_submission(&name, member(&name), &provenance),
        });
    }
    all.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(all)
}

/// The result of a class entry that is not read: a link, or a folder whose
/// name is not UTF-8.
fn not_read(
    name: &str,
    refused: &Refused,
    member: Option<&Member>,
    provenance: &Provenance,
) -> StudentResult {
    let reason = format!("not graded: {refused}");
    StudentResult {
        name: name.to_owned(),
        row: zero_row(
            name,
            member,
            vec![reason.clone()],
            Some(refused.to_string()),
        ),
        report: format!(
            "{}{}\n\n{reason}\n",
            who_line(name, member),
            provenance.line()
        ),
        gradescope: crate::harness::gradescope::not_graded(&refused.to_string()),
        html: String::new(),
        graded: false,
    }
}

/// The result of a roster student who has no folder in the class.
fn no_submission(name: &str, member: Option<&Member>, provenance: &Provenance) -> StudentResult {
    let reason = "no submission: the class has no folder of this name";
    StudentResult {
        name: name.to_owned(),
        row: zero_row(name, member, vec!["no submission".to_owned()], None),
        report: format!(
            "{}{}\n\n{reason}\n",
            who_line(name, member),
            provenance.line()
        ),
        gradescope: crate::harness::gradescope::not_graded(reason),
        html: String::new(),
        graded: false,
    }
}

/// The gradebook row of a student with no points: nothing was graded.
fn zero_row(
    folder: &str,
    member: Option<&Member>,
    notes: Vec<String>,
    error: Option<String>,
) -> Row {
    Row {
        student: folder.to_owned(),
        name: member.map(|m| m.name.clone()),
        id: member.map(|m| m.id.clone()),
        parts: [0.0; 4],
        total: 0.0,
        failed_cases: 0,
        cases: 0,
        notes,
        error,
    }
    .shown()
}

/// The line that names the student atop a report, when the roster does.
fn who_line(folder: &str, member: Option<&Member>) -> String {
    let esc = crate::escape::line;
    member.map_or(String::new(), |m| {
        format!(
            "student: {} (id {}), folder {}\n",
            esc(&m.name),
            esc(&m.id),
            esc(folder)
        )
    })
}

/// The gradebook row and report of one graded (or ungradable) student.
pub fn student_result(
    name: &str,
    result: &Result<SubmissionReport, SubmissionError>,
    ghc: &Ghc,
    roster: Option<&Roster>,
) -> StudentResult {
    let member = roster.and_then(|r| r.get(name));
    let who = who_line(name, member);
    let mut notes = Vec::new();
    if roster.is_some() && member.is_none() {
        notes.push("not in the roster".to_owned());
    }
    let title = member.map_or(name.to_owned(), |m| format!("{} ({name})", m.name));
    match result {
        Ok(report) => StudentResult {
            name: name.to_owned(),
            row: Row {
                student: name.to_owned(),
                name: member.map(|m| m.name.clone()),
                id: member.map(|m| m.id.clone()),
                parts: std::array::from_fn(|i| report.points.parts[i].total),
                total: report.points.total,
                failed_cases: report.failed_cases(),
                cases: report.builds.len() + report.cases.len(),
                notes: [notes, report.notes()].concat(),
                error: None,
            }
            .shown(),
            report: format!("{who}{}", report.human(ghc, false, Style::Plain, true)),
            gradescope: report.gradescope_of(member),
            html: crate::harness::html::submission(report, &title, &ghc.version, false, true),
            graded: true,
        },
        Err(e) => StudentResult {
            name: name.to_owned(),
            row: zero_row(
                name,
                member,
                [notes, vec![format!("not graded: {e}")]].concat(),
                Some(e.to_string()),
            ),
            report: format!("{who}not graded: {}\n", crate::escape::line(&e.to_string())),
            gradescope: crate::harness::gradescope::not_graded(&e.to_string()),
            html: String::new(),
            graded: false,
        },
    }
}

/// Compiles (`compile_jobs` at once) and grades each prepared folder;
/// `finish` turns each result into what is kept, as soon as it is graded;
/// `progress` hears of the compilations.
#[allow(clippy::too_many_arguments)] // reason: one more observer than the rest
fn grade_many_indexed<T: Send>(
    prepared: Vec<Result<Prepared, SubmissionError>>,
    fixtures: &[Fixture],
    options: &SubmissionOptions,
    provenance: &Provenance,
    compile_jobs: Option<usize>,
    finish: &(dyn Fn(usize, Result<SubmissionReport, SubmissionError>) -> T + Sync),
    progress: &(dyn Fn(ClassProgress) + Sync),
) -> Result<Vec<T>, SubmissionError> {
    let count = prepared.len();
    // Every (student, part) to compile, all in one pool.
    let tasks: Vec<(usize, u8)> = prepared
        .iter()
        .enumerate()
        .filter_map(|(i, p)| p.as_ref().ok().map(|p| (i, p)))
        .flat_map(|(i, p)| {
            (1..=4u8)
                .filter(|part| p.present[usize::from(part - 1)])
                .map(move |part| (i, part))
        })
        .collect();
    progress(ClassProgress::Compiling(tasks.len()));
    let compiled: Vec<PartBuild> = pool(compile_jobs)?.install(|| {
        tasks
            .par_iter()
            .map(|&(i, part)| {
                let Ok(p) = &prepared[i] else {
                    unreachable!("only prepared tasks")
                };
                let build = compile_part(p, part, options);
                progress(ClassProgress::Compiled);
                build
            })
            .collect()
    });
    let mut builds: Vec<Vec<PartBuild>> = prepared
        .iter()
        .map(|p| {
            (1..=4u8)
                .map(|part| {
                    let at = usize::from(part - 1);
                    let (source, outcome) = match p {
                        Ok(p) => (
                            p.read.dir.join(part_file(part)),
                            match &p.refused[at] {
                                Some(refused) => BuildOutcome::Refused(refused.clone()),
                                None => BuildOutcome::Missing {
                                    found: p.misnamed[at].clone(),
                                },
                            },
                        ),
                        Err(_) => (
                            PathBuf::from(part_file(part)),
                            BuildOutcome::Missing { found: None },
                        ),
                    };
                    PartBuild {
                        part,
                        source,
                        outcome,
                        duration: Duration::ZERO,
                        exe: None,
                    }
                })
                .collect()
        })
        .collect();
    for (&(i, part), build) in tasks.iter().zip(compiled) {
        builds[i][usize::from(part - 1)] = build;
    }
    let students: Vec<_> = prepared.into_iter().zip(builds).enumerate().collect();
    // A class runs `jobs` students at once, each one case at a time, so no
    // more than `jobs` programs compete for the cores (fair time limits).
    let case_jobs = if count > 1 { Some(1) } else { options.jobs };
    let results = pool(options.jobs)?.install(|| {
        students
            .into_par_iter()
            .map(|(at, (prepared, builds))| {
                let result = prepared
                    .and_then(|p| run_parts(p, builds, fixtures, options, provenance, case_jobs));
                finish(at, result)
            })
            .collect()
    });
    Ok(results)
}

/// Runs the compiled parts on every case, then scores the submission.
fn run_parts(
    prepared: Prepared,
    builds: Vec<PartBuild>,
    fixtures: &[Fixture],
    options: &SubmissionOptions,
    provenance: &Provenance,
    jobs: Option<usize>,
) -> Result<SubmissionReport, SubmissionError> {
    let built: [bool; 4] = std::array::from_fn(|i| builds[i].compiled());
    let is_built = |f: &Function| built[usize::from(f.part() - 1)];
    let runnable: Vec<Fixture> = fixtures
        .iter()
        .map(|f| Fixture {
            cases: f
                .cases
                .iter()
                .filter(|c| c.function.as_ref().map_or(true, is_built))
                .cloned()
                .collect(),
            ..f.clone()
        })
        .filter(|f| !f.cases.is_empty())
        .collect();
    // The executables go into the student's own folder, which (as root)
    // belongs to the student's user: the sandbox's user must reach them.
    let bin = prepared.build.path().join("bin");
    let uid = prepared.sandbox.as_ref().and_then(|s| s.uid);
    let failed = |source| SubmissionError::Build {
        path: bin.clone(),
        source,
    };
    fs::create_dir_all(bin.join("tmp")).map_err(failed)?;
    give_to(&bin, uid).map_err(failed)?;
    give_to(&bin.join("tmp"), uid).map_err(failed)?;
    let mut parts = Vec::new();
    for build in &builds {
        if let Some(exe) = &build.exe {
            let to = bin.join(part_exe(build.part));
            if fs::hard_link(exe, &to).is_err() {
                fs::copy(exe, &to).map_err(failed)?;
            }
            parts.push((build.part, to));
        }
    }
    let config = match &prepared.sandbox {
        Some(sandbox) => ExecConfig {
            command: "exec ./csce322assignment03part{part} {input}".to_owned(),
            timeout: options.timeout,
            max_output: options.max_output,
            working_dir: None,
            sandbox: Some(ExecSandbox {
                sandbox: Arc::new(sandbox.clone()),
                binds: parts
                    .into_iter()
                    .map(|(part, exe)| Bind::new(exe, Path::new("/build").join(part_exe(part))))
                    .collect(),
                chdir: PathBuf::from("/build"),
            }),
        },
        None => ExecConfig {
            command: format!(
                "ulimit -t {}; TMPDIR=\"$PWD/tmp\" && export TMPDIR && \
                 exec ./csce322assignment03part{{part}} {{input}}",
                options.timeout.as_secs() + 1
            ),
            timeout: options.timeout,
            max_output: options.max_output,
            working_dir: Some(bin.clone()),
            sandbox: None,
        },
    };
    let grade_options = GradeOptions {
        functions: Vec::new(),
        filter: None,
        fail_fast: false,
        jobs,
        runner: Runner::Exec(config),
        compare: options.compare,
    };
    let mut ran = grade(&runnable, &grade_options, &|| {})
        .map_err(|e| SubmissionError::Threads(e.to_string()))?
        .into_iter();
    let mut cases = Vec::new();
    for fixture in fixtures {
        if fixture.cases.is_empty() {
            cases.push(unpaired(fixture));
        }
        for case in &fixture.cases {
            match &case.function {
                Ok(function) if !is_built(function) => {
                    let part = function.part();
                    let build = &builds[usize::from(part - 1)];
                    let (kind, why) = match build.outcome {
                        BuildOutcome::Missing { .. } => (FailureKind::MissingPart, "is missing"),
                        BuildOutcome::Refused(_) => (
                            FailureKind::MissingPart,
                            "was not submitted (it was not read)",
                        ),
                        _ => (FailureKind::CompileError, "did not compile"),
                    };
                    let reason = format!("not run: {} {why}", part_file(part));
                    cases.push(not_run(fixture, case, kind, reason));
                }
                _ => cases.extend(ran.next()),
            }
        }
    }
    let points = points_compiled(&cases, built);
    Ok(SubmissionReport {
        dir: prepared.dir,
        refused: prepared.read.refused,
        nested: prepared.read.nested,
        scattered: prepared.read.scattered,
        own_helpers: prepared.own_helpers,
        builds,
        cases,
        points,
        sandboxed: prepared.sandbox.is_some(),
        compare: options.compare,
        provenance: provenance.clone(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_work_folder_kills_what_works_in_it_and_goes() {
        let parent = tempfile::tempdir().unwrap();
        let work = WorkDir::new(parent.path()).unwrap();
        let root = work.path().to_owned();
        let mut child = std::process::Command::new("sleep")
            .arg("1000")
            .current_dir(&root)
            .spawn()
            .unwrap();
        drop(work);
        assert!(!root.exists());
        // Killed, not left to sleep: wait returns at once with a signal.
        use std::os::unix::process::ExitStatusExt as _;
        assert_eq!(child.wait().unwrap().signal(), Some(9));
    }

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

    #[test]
    fn misnamed_part_files_are_spotted() {
        let names = |n: &[&str]| n.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
        let found = |n: &[&str], part| misnamed_part(&names(n), part);
        assert_eq!(
            found(&["csce322assignment03Part01.hs"], 1).as_deref(),
            Some("csce322assignment03Part01.hs")
        );
        assert_eq!(
            found(&["csce322assignment3part01.hs"], 1).as_deref(),
            Some("csce322assignment3part01.hs")
        );
        assert_eq!(
            found(&["csce322assignment03part01.lhs"], 1).as_deref(),
            Some("csce322assignment03part01.lhs")
        );
        assert_eq!(
            found(&["part2.hs", "Helpers.hs"], 2).as_deref(),
            Some("part2.hs")
        );
        assert_eq!(
            found(&["csce322assignment03part01.hs", "notes.txt"], 1),
            None
        );
        assert_eq!(found(&["csce322assignment03part12.hs"], 1), None);
        assert_eq!(
            loose_name("csce322Assignment03Part001"),
            "csce322assignment3part1"
        );
    }

    fn prepare_dir(dir: &Path, work: &Path) -> Prepared {
        let read = source::read_submission(dir, &ReadLimits::default()).unwrap();
        prepare(dir, read, work, None).unwrap()
    }

    #[test]
    fn preparing_copies_sources_and_never_writes_into_the_submission() {
        use std::os::unix::fs::PermissionsExt as _;
        let sub = tempfile::tempdir().unwrap();
        let work = tempfile::tempdir().unwrap();
        fs::write(sub.path().join(part_file(1)), "main = pure ()").unwrap();
        fs::write(sub.path().join(part_file(3)), "main = pure ()").unwrap();
        fs::write(sub.path().join("Extra.hs"), "module Extra where").unwrap();
        fs::write(sub.path().join("notes.txt"), "hello").unwrap();
        let before: Vec<_> = fs::read_dir(sub.path()).unwrap().collect();
        let p = prepare_dir(sub.path(), work.path());
        assert_eq!(p.present, [true, false, true, false]);
        assert!(!p.own_helpers);
        let src = p.src();
        assert!(src.join("Extra.hs").is_file());
        assert!(!src.join("notes.txt").exists());
        assert_eq!(
            fs::read_to_string(src.join("Helpers.hs")).unwrap(),
            DEFAULT_HELPERS
        );
        let mode = fs::metadata(p.build.path()).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o700, "build folders are private");
        assert_eq!(fs::read_dir(sub.path()).unwrap().count(), before.len());
        // The same sources hash alike; another file changes the hash.
        let again = prepare_dir(sub.path(), work.path());
        assert_eq!(again.sources, p.sources);
        fs::write(sub.path().join("Extra.hs"), "module Extra where\n").unwrap();
        assert_ne!(prepare_dir(sub.path(), work.path()).sources, p.sources);
        let build = p.build.path().to_owned();
        drop(p);
        assert!(!build.exists(), "the build folder is removed");
    }
}
