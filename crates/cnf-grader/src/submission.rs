//! Grading a student's Haskell submission, or a whole class of them: copy
//! the four part files into a temporary build folder, compile each with GHC,
//! then grade each part exactly like `grade --exec`.
//!
//! Decisions:
//! - a submission is a folder holding `csce322assignment03part01.hs` …
//!   `part04.hs`; every `*.hs` file of the folder (not of its sub-folders)
//!   is copied, so a student's extra modules compile too; the submission's
//!   `Helpers.hs` is used when it has one, else [`DEFAULT_HELPERS`];
//! - nothing is ever written into the submission's folder: each part is
//!   built in its own folder `partNN/` of a fresh temporary folder (one per
//!   student), removed when grading ends;
//! - the parts compile in parallel (all the parts of all the students of a
//!   class share one pool of `jobs` threads; one submission's four parts
//!   always compile at once), then every compiled part runs on every case
//!   through [`crate::grade::grade`] with the command
//!   `cd partNN && exec ./csce322assignment03partNN INPUT`, in the
//!   student's temporary folder (with `TMPDIR` the part's `tmp/`), with the `--exec` time limit and output
//!   cap, plus `ulimit -t` (CPU seconds: the time limit + 1) so a program
//!   orphaned by an interrupted grader still stops; a class grades `jobs`
//!   students at once, each one case at a time, so at most `jobs`
//!   programs share the cores and time limits stay fair;
//! - the cases of a part that is missing or did not compile are `FAIL`ed
//!   without running, and the part gets no compilation points; a part that
//!   compiled gets them whatever its cases do (spec §6: "compilation");
//! - in the report each part's compilation comes first, as a case named
//!   `compile` whose "fixture" is the part's source file and whose standard
//!   error is the first lines of GHC's error, so the human, JSON and JUnit
//!   reports show it with no special format; the points leave these
//!   entries out.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::time::Duration;

use connect_core::Function;
use rayon::prelude::*;
use tempfile::TempDir;

use crate::discover::Fixture;
use crate::exec::ExecConfig;
use crate::ghc::{CompileError, Ghc};
use crate::grade::{CaseReport, FailureKind, GradeOptions, Runner, Status, Totals, grade, not_run};
use crate::points::{Points, points_compiled};

/// The project's `Helpers.hs` (spec §7), used when a submission has none.
pub const DEFAULT_HELPERS: &str = include_str!("../haskell/Helpers.hs");

/// The file name of a part's source, e.g. `csce322assignment03part01.hs`.
pub fn part_file(part: u8) -> String {
    format!("csce322assignment03part{part:02}.hs")
}

fn part_exe(part: u8) -> String {
    format!("csce322assignment03part{part:02}")
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
    /// Where the temporary build folders go (the caller's own temporary
    /// folder, so it can remove everything at once, e.g. on Ctrl-C).
    pub work_dir: PathBuf,
}

/// What became of one part's source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BuildOutcome {
    /// GHC built the executable.
    Compiled,
    /// The submission has no such file.
    Missing,
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
    /// How long GHC took.
    pub duration: Duration,
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
            BuildOutcome::Missing => (
                Status::Fail,
                Some(FailureKind::MissingPart),
                Some(format!(
                    "missing: the submission has no {} (part {} scores 0)",
                    part_file(self.part),
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

    /// Cases that failed (including those not run).
    pub fn failed_cases(&self) -> usize {
        Totals::of(&self.cases).failed
    }

    /// Whether every part compiled and every case passed.
    pub fn all_passed(&self) -> bool {
        self.builds.iter().all(PartBuild::compiled) && Totals::of(&self.cases).all_passed()
    }

    /// Short remarks for a gradebook: missing parts, compile errors,
    /// timeouts and crashes, own `Helpers.hs`.
    pub fn notes(&self) -> Vec<String> {
        let mut notes = Vec::new();
        for build in &self.builds {
            match build.outcome {
                BuildOutcome::Compiled => {}
                BuildOutcome::Missing => notes.push(format!("part {} missing", build.part)),
                BuildOutcome::Failed(_) => {
                    notes.push(format!("part {} did not compile", build.part));
                }
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
        notes
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
    /// Occurs when the temporary build folder cannot be made or filled.
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

/// A submission copied into its build folder.
struct Prepared {
    dir: PathBuf,
    build: TempDir,
    present: [bool; 4],
    own_helpers: bool,
}

fn prepare(dir: &Path, work: &Path) -> Result<Prepared, SubmissionError> {
    let folder = |source| SubmissionError::Folder {
        path: dir.to_owned(),
        source,
    };
    let mut sources = Vec::new();
    for entry in fs::read_dir(dir).map_err(folder)? {
        let entry = entry.map_err(folder)?;
        let path = entry.path();
        if path.extension().is_some_and(|e| e == "hs") && path.is_file() {
            sources.push(entry.file_name());
        }
    }
    sources.sort();
    let has = |name: &str| sources.iter().any(|s| s == name);
    let present: [bool; 4] = std::array::from_fn(|i| has(&part_file(i as u8 + 1)));
    let own_helpers = has("Helpers.hs");
    let build = tempfile::Builder::new()
        .prefix("student-")
        .tempdir_in(work)
        .map_err(|source| SubmissionError::Build {
            path: work.to_owned(),
            source,
        })?;
    for part in (1..=4u8).filter(|p| present[usize::from(p - 1)]) {
        let into = build.path().join(format!("part{part:02}"));
        let failed = |path: &Path| {
            let path = path.to_owned();
            move |source| SubmissionError::Build { path, source }
        };
        fs::create_dir(&into).map_err(failed(&into))?;
        for name in &sources {
            let from = dir.join(name);
            fs::copy(&from, into.join(name)).map_err(failed(&from))?;
        }
        if !own_helpers {
            let helpers = into.join("Helpers.hs");
            fs::write(&helpers, DEFAULT_HELPERS).map_err(failed(&helpers))?;
        }
    }
    Ok(Prepared {
        dir: dir.to_owned(),
        build,
        present,
        own_helpers,
    })
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

/// Grades one submission folder on these fixtures; its four parts compile
/// at once.
pub fn grade_submission(
    dir: &Path,
    fixtures: &[Fixture],
    options: &SubmissionOptions,
) -> Result<SubmissionReport, SubmissionError> {
    let mut all = grade_many(&[dir.to_owned()], fixtures, options, Some(4), &|| {})?;
    all.pop().unwrap_or_else(|| {
        Err(SubmissionError::Threads(
            "no result for the submission".into(),
        ))
    })
}

/// One student of a class.
#[derive(Debug)]
pub struct Student {
    /// The sub-folder's name.
    pub name: String,
    /// The graded submission, or why it could not be graded.
    pub result: Result<SubmissionReport, SubmissionError>,
}

/// Grades every sub-folder of `root` (hidden ones left out), sorted by
/// name; `progress` is called once per student graded.
pub fn grade_class(
    root: &Path,
    fixtures: &[Fixture],
    options: &SubmissionOptions,
    progress: &(dyn Fn() + Sync),
) -> Result<Vec<Student>, SubmissionError> {
    let folder = |source| SubmissionError::Folder {
        path: root.to_owned(),
        source,
    };
    let mut names = Vec::new();
    for entry in fs::read_dir(root).map_err(folder)? {
        let entry = entry.map_err(folder)?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if !name.starts_with('.') && entry.path().is_dir() {
            names.push(name);
        }
    }
    names.sort();
    let dirs: Vec<PathBuf> = names.iter().map(|n| root.join(n)).collect();
    let results = grade_many(&dirs, fixtures, options, options.jobs, progress)?;
    Ok(names
        .into_iter()
        .zip(results)
        .map(|(name, result)| Student { name, result })
        .collect())
}

/// Prepares, compiles (with `compile_jobs` at once) and grades each folder.
fn grade_many(
    dirs: &[PathBuf],
    fixtures: &[Fixture],
    options: &SubmissionOptions,
    compile_jobs: Option<usize>,
    progress: &(dyn Fn() + Sync),
) -> Result<Vec<Result<SubmissionReport, SubmissionError>>, SubmissionError> {
    let work = &options.work_dir;
    let prepared: Vec<Result<Prepared, SubmissionError>> =
        dirs.iter().map(|d| prepare(d, work)).collect();
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
    let compiled: Vec<_> = pool(compile_jobs)?.install(|| {
        tasks
            .par_iter()
            .map(|&(i, part)| {
                let Ok(p) = &prepared[i] else {
                    unreachable!("only prepared tasks")
                };
                let dir = p.build.path().join(format!("part{part:02}"));
                options.ghc.compile(
                    &dir,
                    &part_file(part),
                    &part_exe(part),
                    options.compile_timeout,
                )
            })
            .collect()
    });
    let mut builds: Vec<Vec<PartBuild>> = prepared
        .iter()
        .zip(dirs)
        .map(|(_, dir)| {
            (1..=4u8)
                .map(|part| PartBuild {
                    part,
                    source: dir.join(part_file(part)),
                    outcome: BuildOutcome::Missing,
                    duration: Duration::ZERO,
                })
                .collect()
        })
        .collect();
    for (&(i, part), result) in tasks.iter().zip(compiled) {
        let build = &mut builds[i][usize::from(part - 1)];
        build.duration = result.duration;
        build.outcome = match result.error {
            None => BuildOutcome::Compiled,
            Some(error) => BuildOutcome::Failed(error),
        };
    }
    let students: Vec<_> = prepared.into_iter().zip(builds).collect();
    // A class runs `jobs` students at once, each one case at a time, so no
    // more than `jobs` programs compete for the cores (fair time limits).
    let case_jobs = if dirs.len() > 1 {
        Some(1)
    } else {
        options.jobs
    };
    let results = pool(options.jobs)?.install(|| {
        students
            .into_par_iter()
            .map(|(prepared, builds)| {
                let result =
                    prepared.and_then(|p| run_parts(p, builds, fixtures, options, case_jobs));
                progress();
                result
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
    let grade_options = GradeOptions {
        functions: Vec::new(),
        filter: None,
        fail_fast: false,
        jobs,
        runner: Runner::Exec(ExecConfig {
            command: format!(
                "ulimit -t {}; cd part{{part}} && TMPDIR=\"$PWD/tmp\" && export TMPDIR && \
                 exec ./csce322assignment03part{{part}} {{input}}",
                options.timeout.as_secs() + 1
            ),
            timeout: options.timeout,
            max_output: options.max_output,
            working_dir: Some(prepared.build.path().to_owned()),
        }),
    };
    let mut ran = grade(&runnable, &grade_options, &|| {})
        .map_err(|e| SubmissionError::Threads(e.to_string()))?
        .into_iter();
    let mut cases = Vec::new();
    for fixture in fixtures {
        for case in &fixture.cases {
            match &case.function {
                Ok(function) if !is_built(function) => {
                    let part = function.part();
                    let build = &builds[usize::from(part - 1)];
                    let (kind, why) = match build.outcome {
                        BuildOutcome::Missing => (FailureKind::MissingPart, "is missing"),
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
        own_helpers: prepared.own_helpers,
        builds,
        cases,
        points,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn part_file_names() {
        assert_eq!(part_file(1), "csce322assignment03part01.hs");
        assert_eq!(part_exe(4), "csce322assignment03part04");
    }

    #[test]
    fn the_default_helpers_print_the_solution_format() {
        // Spec §5 and §7: print each row, then "".
        assert!(DEFAULT_HELPERS.contains("printGame rows = mapM_ print rows >> print \"\""));
        assert!(DEFAULT_HELPERS.contains("printResult rows = print \"Result\" >> printGame rows"));
        assert!(DEFAULT_HELPERS.contains("readGame = read"));
    }

    #[test]
    fn preparing_copies_sources_and_never_writes_into_the_submission() {
        let sub = tempfile::tempdir().unwrap();
        let work = tempfile::tempdir().unwrap();
        fs::write(sub.path().join(part_file(1)), "main = pure ()").unwrap();
        fs::write(sub.path().join(part_file(3)), "main = pure ()").unwrap();
        fs::write(sub.path().join("Extra.hs"), "module Extra where").unwrap();
        fs::write(sub.path().join("notes.txt"), "hello").unwrap();
        let before: Vec<_> = fs::read_dir(sub.path()).unwrap().collect();
        let p = prepare(sub.path(), work.path()).unwrap();
        assert_eq!(p.present, [true, false, true, false]);
        assert!(!p.own_helpers);
        let part1 = p.build.path().join("part01");
        assert!(part1.join("Extra.hs").is_file());
        assert!(!part1.join("notes.txt").exists());
        assert_eq!(
            fs::read_to_string(part1.join("Helpers.hs")).unwrap(),
            DEFAULT_HELPERS
        );
        assert!(!p.build.path().join("part02").exists());
        assert_eq!(fs::read_dir(sub.path()).unwrap().count(), before.len());
        let build = p.build.path().to_owned();
        drop(p);
        assert!(!build.exists(), "the build folder is removed");
    }
}
