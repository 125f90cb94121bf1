//! A graded submission as data: what became of each part's source, the
//! cases, the points and how the folder was read.

use std::path::PathBuf;
use std::time::Duration;

use crate::assignment::Assignment;
use crate::model::case::{CaseReport, CompileError, Failure, FailureKind, Status, Totals};
use crate::model::points::Points;
use crate::model::provenance::Provenance;
use std::fmt;

use serde::{Deserialize, Serialize};

pub use crate::assignment::connect_four::part_file;

/// The modules of GHC's `base` that a file at the top of a submission
/// replaces (`Prelude.hs`, ...): GHC looks for a module's file among the
/// sources before the packages, and only the folder's own files are copied
/// (a module with a dotted name, `System.IO`, would need a sub-folder, which
/// is never copied, so only these can be replaced).
pub const STANDARD_MODULES: [&str; 3] = ["Prelude", "Numeric", "Foreign"];

/// The warning every report carries when programs ran outside the sandbox.
pub const NO_SANDBOX_WARNING: &str = "warning: --no-sandbox: the student programs ran with the \
     grader's rights (they could read the .solution files and change any file you can)";

/// The note of a part file graded under the right name
/// (`--accept-name-case`): "graded CSCE322Assignment03Part01.hs as
/// csce322assignment03part01.hs". Such a name lowers to a part file's,
/// so it is plain ASCII and needs no escaping.
pub fn renamed_note(name: &str) -> String {
    format!("graded {name} as {}", name.to_lowercase())
}

/// What became of one part's source.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
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
    /// No single file of the submission is its source (Peg Reversal: the
    /// files that define `createBoard`, none or several).
    NotFound {
        /// Those files, none or several.
        candidates: Vec<String>,
    },
}

/// One part's build.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PartBuild {
    /// The part, 1 to 4.
    pub part: u8,
    /// The source file in the submission's folder.
    pub source: PathBuf,
    /// What became of it.
    pub outcome: BuildOutcome,
    /// How long GHC took (zero when the cache had it).
    pub duration: Duration,
    /// The executable, when it compiled (in the run's work folder, so
    /// never saved).
    #[serde(skip)]
    pub exe: Option<PathBuf>,
}

impl PartBuild {
    /// Whether the part has an executable.
    pub fn compiled(&self) -> bool {
        self.outcome == BuildOutcome::Compiled
    }

    /// The report entry of this build: a case named `compile`.
    pub fn as_case(&self) -> CaseReport {
        self.as_case_of(Assignment::default())
    }

    /// The report entry of this build of `assignment`'s part.
    pub fn as_case_of(&self, assignment: Assignment) -> CaseReport {
        let part = self.part;
        let (status, failure, stderr) = match &self.outcome {
            BuildOutcome::Compiled => (Status::Pass, None, None),
            BuildOutcome::Missing { found } => (
                Status::Fail,
                Some(Failure::Missing {
                    part,
                    found: found.clone(),
                }),
                None,
            ),
            BuildOutcome::Refused(refused) => (
                Status::Fail,
                Some(Failure::NotSubmitted {
                    part,
                    refused: refused.to_string(),
                }),
                None,
            ),
            BuildOutcome::Failed(error) => (
                Status::Fail,
                Some(Failure::CompileFailed {
                    part,
                    cause: error.cause.clone(),
                    function: (!assignment.is_default())
                        .then(|| assignment.function(part).to_owned()),
                }),
                (!error.output.is_empty()).then(|| error.output.clone()),
            ),
            BuildOutcome::NotFound { candidates } => (
                Status::Fail,
                Some(Failure::NoSubmission {
                    candidates: candidates
                        .iter()
                        .map(|c| crate::escape::line(c).into_owned())
                        .collect(),
                }),
                None,
            ),
        };
        let fixture = if assignment.is_default() {
            self.source.to_string_lossy().into_owned()
        } else {
            // One file builds every part: the entry names its part too.
            format!(
                "{} ({})",
                self.source.to_string_lossy(),
                assignment.function(part)
            )
        };
        CaseReport {
            fixture,
            function: "compile".to_owned(),
            part: None,
            solution: String::new(),
            status,
            failure,
            reason: None,
            diff: None,
            stderr,
            duration: self.duration,
            hidden: false,
            relaxed: false,
            group: crate::model::case::Group::Base,
            usage: None,
        }
    }
}

/// The graded submission.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SubmissionReport {
    /// The submission's folder.
    pub dir: PathBuf,
    /// Whether it brought its own `Helpers.hs`.
    pub own_helpers: bool,
    /// Part files graded under the right name though named in another
    /// case (`--accept-name-case`): the names as submitted.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub renamed: Vec<String>,
    /// The student's files that replace a standard module for everything
    /// compiled with them, the course's `Helpers.hs` included (e.g.
    /// `Prelude.hs`; see [`STANDARD_MODULES`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub shadows: Vec<String>,
    /// Parts 1 to 4.
    pub builds: Vec<PartBuild>,
    /// Every case, in discovery order (parts that did not build: not run).
    pub cases: Vec<CaseReport>,
    /// The score.
    pub points: Points,
    /// Whether the programs ran in the sandbox.
    pub sandboxed: bool,
    /// How outputs were compared.
    pub compare: crate::model::compare::Compare,
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

/// `path` relative to the first folder of `roots` it is under (`None`:
/// under none).
fn under(path: &str, roots: &[PathBuf]) -> Option<String> {
    roots.iter().find_map(|root| {
        std::path::Path::new(path)
            .strip_prefix(root)
            .ok()
            .filter(|rest| !rest.as_os_str().is_empty())
            .map(|rest| rest.display().to_string())
    })
}

impl CaseReport {
    /// The case as a student sees it: its fixture and solution paths, and
    /// those in its reason, relative to the fixtures folder (of `roots`, as
    /// they were given) they are under, so that no instructor's folder
    /// shows.
    pub fn relative_to(&self, roots: &[PathBuf]) -> CaseReport {
        let mut case = self.clone();
        for path in [&mut case.fixture, &mut case.solution] {
            if let Some(rest) = under(path, roots) {
                *path = rest;
            }
        }
        if let Some(reason) = &mut case.reason {
            for root in roots {
                let prefix = format!("{}/", root.display().to_string().trim_end_matches('/'));
                if prefix.len() > 1 {
                    *reason = reason.replace(&prefix, "");
                }
            }
        }
        case
    }
}

impl SubmissionReport {
    /// The report as a student sees it: every case's paths relative to
    /// the fixtures folders `roots` ([`CaseReport::relative_to`]).
    pub fn relative_to(&self, roots: &[PathBuf]) -> SubmissionReport {
        let mut report = self.clone();
        for case in &mut report.cases {
            *case = case.relative_to(roots);
        }
        report
    }

    /// The assignment graded, as its points name their parts.
    pub fn assignment(&self) -> Assignment {
        self.points.assignment()
    }

    /// What was compiled, for a report's first line: `the default
    /// Helpers.hs` (Connect Four, see [`SubmissionReport::helpers_words`]),
    /// or `Peg.hs as the module Student` (Peg Reversal).
    pub fn compiled_words(&self) -> String {
        if self.assignment().is_default() {
            return format!(
                "{} Helpers.hs{}",
                self.helpers_words(),
                self.helpers_changed()
            );
        }
        match self.builds.first().map(|b| (&b.outcome, &b.source)) {
            Some((BuildOutcome::NotFound { .. }, _)) | None => {
                "no file graded (see the notes)".to_owned()
            }
            Some((_, source)) => format!(
                "{} as the module Student",
                source.file_name().map_or_else(
                    || "?".into(),
                    |n| crate::escape::line(&n.to_string_lossy()).into_owned()
                )
            ),
        }
    }

    /// Which `Helpers.hs` was used, in words, before its name: `its own`
    /// or `the default`.
    pub fn helpers_words(&self) -> &'static str {
        if self.own_helpers {
            "its own"
        } else {
            "the default"
        }
    }

    /// What follows the helper's name when a student file replaced a
    /// standard module it is compiled with: ` as changed by its own
    /// Prelude.hs` (so no report claims the course's helper ran as is).
    pub fn helpers_changed(&self) -> String {
        if self.shadows.is_empty() {
            return String::new();
        }
        let files: Vec<String> = self
            .shadows
            .iter()
            .map(|f| crate::escape::line(f).into_owned())
            .collect();
        format!(" as changed by its own {}", files.join(", "))
    }

    /// The report's entries: the four compilations, then the cases.
    pub fn all_cases(&self) -> Vec<CaseReport> {
        self.builds
            .iter()
            .map(|b| b.as_case_of(self.assignment()))
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

    /// The warning every report of this submission carries, if any.
    pub fn warning(&self) -> Option<&'static str> {
        (!self.sandboxed).then_some(NO_SANDBOX_WARNING)
    }

    /// Short remarks for a gradebook: missing parts, compile errors,
    /// timeouts and crashes, own `Helpers.hs`.
    pub fn notes(&self) -> Vec<String> {
        let assignment = self.assignment();
        let label = |part: u8| assignment.part_label(part);
        let mut notes = Vec::new();
        if assignment == Assignment::PegReversal {
            notes.extend(peg_build_notes(&self.builds));
        } else {
            for build in &self.builds {
                match &build.outcome {
                    BuildOutcome::Compiled | BuildOutcome::NotFound { .. } => {}
                    BuildOutcome::Missing { found: None } => {
                        notes.push(format!("{} missing", label(build.part)));
                    }
                    BuildOutcome::Missing { found: Some(f) } => {
                        notes.push(format!("{} missing (found {f})", label(build.part)));
                    }
                    BuildOutcome::Refused(refused) => {
                        notes.push(format!(
                            "{} not submitted ({})",
                            label(build.part),
                            refused.why.short()
                        ));
                    }
                    BuildOutcome::Failed(error) if error.timed_out() => {
                        notes.push(format!(
                            "{} did not compile: compile timed out",
                            label(build.part)
                        ));
                    }
                    BuildOutcome::Failed(_) => {
                        notes.push(format!("{} did not compile", label(build.part)));
                    }
                }
            }
        }
        for name in &self.renamed {
            notes.push(renamed_note(name));
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
                    .filter(|c| c.part == Some(part) && c.kind() == Some(kind))
                    .count()
            };
            let (timeouts, crashes) = (count(FailureKind::Timeout), count(FailureKind::Crash));
            let out_of_memory = count(FailureKind::MemoryLimit);
            if timeouts > 0 {
                notes.push(format!("{}: {timeouts} timed out", label(part)));
            }
            if crashes > 0 {
                notes.push(format!("{}: {crashes} crashed", label(part)));
            }
            if out_of_memory > 0 {
                notes.push(format!(
                    "{}: {out_of_memory} ran out of memory",
                    label(part)
                ));
            }
            let wrong: Vec<&CaseReport> = self
                .cases
                .iter()
                .filter(|c| c.part == Some(part) && c.kind() == Some(FailureKind::WrongOutput))
                .collect();
            let wrong = if assignment == Assignment::PegReversal {
                let (messages, rest) = message_notes(&label(part), &wrong);
                notes.extend(messages);
                rest
            } else {
                wrong
            };
            if !wrong.is_empty() {
                notes.push(wrong_output_note(&label(part), &wrong));
            }
        }
        if self.own_helpers {
            notes.push("own Helpers.hs".to_owned());
        }
        for file in &self.shadows {
            notes.push(format!(
                "own {} (replaces the standard module)",
                crate::escape::line(file)
            ));
        }
        if !self.sandboxed {
            notes.push("not sandboxed".to_owned());
        }
        notes
    }
}

/// The notes of a Peg Reversal submission's builds: no file or several
/// that define `createBoard` (none graded), a file that does not compile
/// (every function failed alike), or each function that did not.
fn peg_build_notes(builds: &[PartBuild]) -> Vec<String> {
    let label = |part| Assignment::PegReversal.part_label(part);
    let mut notes = Vec::new();
    if let Some(build) = builds.first()
        && let BuildOutcome::NotFound { candidates } = &build.outcome
    {
        notes.push(if candidates.is_empty() {
            "no submission: no .hs file defines createBoard (every function scores 0)".to_owned()
        } else {
            format!(
                "no submission: {} files define createBoard ({}); keep one and grade again (every function scores 0)",
                candidates.len(),
                candidates.join(" and ")
            )
        });
        return notes;
    }
    let failed: Vec<&CompileError> = builds
        .iter()
        .filter_map(|b| match &b.outcome {
            BuildOutcome::Failed(e) => Some(e),
            _ => None,
        })
        .collect();
    if failed.len() == builds.len() && failed.windows(2).all(|w| w[0] == w[1]) {
        let timed_out = failed.first().is_some_and(|e| e.timed_out());
        notes.push(if timed_out {
            "the file did not compile: compile timed out".to_owned()
        } else {
            "the file did not compile".to_owned()
        });
        return notes;
    }
    for build in builds {
        match &build.outcome {
            BuildOutcome::Failed(error) if error.timed_out() => notes.push(format!(
                "{} did not compile: compile timed out",
                label(build.part)
            )),
            BuildOutcome::Failed(_) => {
                notes.push(format!("{} did not compile", label(build.part)));
            }
            BuildOutcome::Refused(refused) => notes.push(format!(
                "no submission: the file was not read ({})",
                refused.why.short()
            )),
            _ => {}
        }
    }
    notes.dedup();
    notes
}

/// The notes of a function's error cases whose output is an error with
/// another message than the assignment's: what the student's message was
/// and how it differs; and the other wrong outputs (hidden cases are never
/// described).
fn message_notes<'a>(
    function: &str,
    wrong: &[&'a CaseReport],
) -> (Vec<String>, Vec<&'a CaseReport>) {
    use crate::assignment::peg_reversal::message_difference;
    let mut notes = Vec::new();
    let mut rest = Vec::new();
    for case in wrong {
        let messages = case
            .diff
            .as_ref()
            .filter(|_| !case.hidden)
            .and_then(|d| d.error_messages());
        match messages {
            Some((expected, actual)) => {
                let how = message_difference(&expected, &actual).unwrap_or("other text");
                let note = format!(
                    "{function}: error message {} differs from {} by {how}",
                    crate::show_string(&actual),
                    crate::show_string(&expected)
                );
                if !notes.contains(&note) {
                    notes.push(note);
                }
            }
            None => rest.push(*case),
        }
    }
    (notes, rest)
}

/// Most kinds of difference a wrong-output note names.
const NOTED_KINDS: usize = 2;

/// The note on a part's wrong outputs: how many, the kinds of difference
/// (hidden cases are counted, not described), and which comparison would
/// take them as right: "part 1: 5 wrong outputs: an extra empty line at
/// the end (--compare trailing-whitespace would pass them)".
fn wrong_output_note(part: &str, wrong: &[&CaseReport]) -> String {
    let n = wrong.len();
    let mut note = format!("{part}: {n} wrong output{}", if n == 1 { "" } else { "s" });
    let shown: Vec<&CaseReport> = wrong.iter().copied().filter(|c| !c.hidden).collect();
    let mut kinds: Vec<String> = Vec::new();
    for case in &shown {
        if let Some(words) = case
            .diff
            .as_ref()
            .and_then(|d| d.difference)
            .map(|d| d.words())
            && !kinds.contains(&words)
        {
            kinds.push(words);
        }
    }
    if !kinds.is_empty() {
        let more = kinds.len().saturating_sub(NOTED_KINDS);
        kinds.truncate(NOTED_KINDS);
        note.push_str(": ");
        // No comma, so that a CSV cell of notes stays plain.
        note.push_str(&kinds.join(" and "));
        if more > 0 {
            note.push_str(&format!(
                " (and {more} other kind{})",
                if more == 1 { "" } else { "s" }
            ));
        }
    }
    // The comparison that passes every shown case, or the most it can.
    // Compare::ALL runs from the strictest to the most relaxed.
    let modes = crate::model::compare::Compare::ALL;
    let rank = |m| modes.iter().position(|&x| x == m);
    let mut best: Option<(crate::model::compare::Compare, usize)> = None;
    for mode in modes {
        let passed = shown
            .iter()
            .filter(|c| {
                c.diff
                    .as_ref()
                    .and_then(|d| d.passes_with)
                    .is_some_and(|p| rank(p) <= rank(mode))
            })
            .count();
        if passed > 0 && best.is_none_or(|(_, b)| passed > b) {
            best = Some((mode, passed));
        }
    }
    if let Some((mode, passed)) = best {
        let whom = if passed == n {
            if n == 1 {
                "it".to_owned()
            } else {
                "them".to_owned()
            }
        } else {
            format!("{passed} of them")
        };
        note.push_str(&format!(" (--compare {mode} would pass {whom})"));
    }
    note
}

/// Most entries not read that a gradebook's notes name one by one.
pub(crate) const MAX_NOTED: usize = 3;

/// Why an entry of a submission was not read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub enum Why {
    /// Occurs when the entry is a symbolic link (never followed).
    Symlink,
    /// Occurs when the entry is a named pipe.
    Fifo,
    /// Occurs when the entry is a socket.
    Socket,
    /// Occurs when the entry is a character or block device.
    Device,
    /// Occurs when a folder has the name of a source file.
    Folder,
    /// Occurs when the file is larger than `ReadLimits::max_file`.
    TooLarge {
        /// Its size (as `lstat`/`fstat` said, or as far as it was read).
        size: u64,
        /// The limit.
        cap: u64,
    },
    /// Occurs when the submission's sources already passed
    /// `ReadLimits::max_files` or `ReadLimits::max_total`.
    TooMuch {
        /// The files limit.
        files: usize,
        /// The bytes limit.
        total: u64,
    },
    /// Occurs when the name is not UTF-8.
    NameNotUtf8,
    /// Occurs when the file cannot be read (the system's message).
    Unreadable(String),
}

/// An entry of a submission that was not read, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Refused {
    /// Its name, escaped for display ([`crate::escape::bytes`]).
    pub name_escaped: String,
    /// Why it was not read.
    pub why: Why,
}

impl Refused {
    /// Whether this is the entry named `name`.
    pub fn is(&self, name: &str) -> bool {
        self.why != Why::NameNotUtf8 && self.name_escaped == crate::escape::line(name)
    }
}

/// A size in words, in the largest unit it reaches: `3 GiB`, `1.5 MiB`,
/// `1000 bytes` (reports' sizes of sources, limits and peaks alike).
pub fn size_words(n: u64) -> String {
    const UNITS: [(u64, &str); 4] = [
        (1 << 40, "TiB"),
        (1 << 30, "GiB"),
        (1 << 20, "MiB"),
        (1 << 10, "KiB"),
    ];
    for (scale, unit) in UNITS {
        if n >= scale {
            let value = n as f64 / scale as f64;
            return if n.is_multiple_of(scale) {
                format!("{} {unit}", n / scale)
            } else {
                format!("{value:.1} {unit}")
            };
        }
    }
    format!("{n} bytes")
}

impl Why {
    /// A few words for a gradebook's notes: `a symbolic link`, `over --max-source`.
    pub fn short(&self) -> &'static str {
        match self {
            Why::Symlink => "a symbolic link",
            Why::Fifo => "a named pipe",
            Why::Socket => "a socket",
            Why::Device => "a device",
            Why::Folder => "a folder",
            Why::TooLarge { .. } => "over --max-source",
            Why::TooMuch { .. } => "too many sources",
            Why::NameNotUtf8 => "name not UTF-8",
            Why::Unreadable(_) => "unreadable",
        }
    }
}

impl fmt::Display for Refused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = &self.name_escaped;
        match &self.why {
            Why::Symlink => write!(f, "{name} is a symbolic link; links are not followed"),
            Why::Fifo => write!(
                f,
                "{name} is a named pipe (FIFO), not a file; it was not read"
            ),
            Why::Socket => write!(f, "{name} is a socket, not a file; it was not read"),
            Why::Device => write!(f, "{name} is a device, not a file; it was not read"),
            Why::Folder => write!(f, "{name} is a folder, not a file"),
            Why::TooLarge { size, cap } => write!(
                f,
                "{name} is {}, over the {} limit of a source file (--max-source); it was not read",
                size_words(*size),
                size_words(*cap)
            ),
            Why::TooMuch { files, total } => write!(
                f,
                "{name} was not read: a submission's sources are read up to {files} files and {} in all",
                size_words(*total)
            ),
            Why::NameNotUtf8 => write!(f, "{name}: the name is not UTF-8; the file was ignored"),
            Why::Unreadable(e) => write!(f, "{name} cannot be read: {e}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_in_words() {
        assert_eq!(size_words(3 << 30), "3 GiB");
        assert_eq!(size_words(3 << 19), "1.5 MiB");
        assert_eq!(size_words(2000), "2.0 KiB");
        assert_eq!(size_words(1000), "1000 bytes");
    }
}
