//! A graded submission as data: what became of each part's source, the
//! cases, the points and how the folder was read.

use std::path::PathBuf;
use std::time::Duration;

use crate::model::case::{CaseReport, FailureKind, Status, Totals};
use crate::model::points::Points;
use crate::model::provenance::Provenance;
pub use crate::model::provenance::fixtures_digest;
use crate::report::ReportOptions;
use crate::report::Style;
use crate::report::human::human;
use crate::submission::ghc::{CompileError, Ghc};
use crate::submission::part_file;
use crate::submission::roster::Member;
use crate::submission::source::Refused;

/// The warning every report carries when programs ran outside the sandbox.
pub const NO_SANDBOX_WARNING: &str = "warning: --no-sandbox: the student programs ran with the \
     grader's rights (they could read the .solution files and change any file you can)";

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
        crate::report::gradescope::gradescope(
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
pub(crate) const MAX_NOTED: usize = 3;
