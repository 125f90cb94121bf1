//! Grading a Peg Reversal submission (spec `peg-reversal.md` §5): the
//! student's one file compiled as the module `Student` with a driver per
//! function, each driver then run on its function's cases in the sandbox.
//!
//! Decisions:
//! - the submission is the folder's one `.hs` file that defines
//!   `createBoard` ([`crate::assignment::peg_reversal::choose`]), read
//!   through [`crate::submission::source`] like any source (no link
//!   followed, `--max-source`); the folder's other `.hs` files are copied
//!   beside it, so a module of the student's own that it imports compiles
//!   too (GHC compiles only what is imported), except a file named as one
//!   the grader writes (`Student.hs`, `GraderInput.hs`, `Driver_*.hs`),
//!   which cannot replace the grader's; with no such file or several, no
//!   function is built, every case fails as not run, every function scores
//!   0, and the report names the candidates;
//! - the build folder holds `Student.hs` (the file, its header rewritten:
//!   [`crate::assignment::peg_reversal::student_module`]), the grader's
//!   `GraderInput.hs` and the four drivers (`assignment/peg_reversal/haskell/`);
//!   each function is one program, compiled exactly as a Connect Four part
//!   is (`crate::submission::build`: the sandbox, the cache, the limits,
//!   Template Haskell contained). A missing function or one of another type
//!   fails its own driver only; a file that does not compile fails all four
//!   with GHC's first error;
//! - a case runs its function's program in the sandbox with the call's
//!   arguments on standard input (`program < input`, the input a private
//!   copy), the time limit and output cap of Connect Four's runs, a second
//!   run when the wall clock stopped the first; its output passes when it
//!   equals the `.expected` text (`--compare` relaxes as for Connect Four);
//!   a time-out, a crash or a non-zero exit fails that case only;
//! - `--part-timeouts` counts time-outs in a row per function in case order
//!   (the cases of a submission then run one at a time), and `--budget`
//!   stops starting cases, as for Connect Four.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use rayon::prelude::*;

use crate::assignment::Assignment;
use crate::assignment::peg_reversal::{STUDENT_FILE, choose, driver_file, student_module};
use crate::grade::exec::{ExecResult, run_command_in, shell_quote, with_second_chance};
use crate::grade::peg::PegCase;
use crate::grade::run::judge_run;
use crate::model::case::{CaseReport, Failure, FailureKind, NotRun, RunUsage, Status};
use crate::model::diff::Diff;
use crate::model::points::points_by;
use crate::model::provenance::{Provenance, digest};
use crate::model::submission::{BuildOutcome, PartBuild, SubmissionReport};
use crate::sandbox::{Bind, Sandbox, TimeLimits};
use crate::submission::build::fault_if_not_started;
use crate::submission::prepare::{Prepared, Reading, build_folder, give_build_to};
use crate::submission::source::Submission;
use crate::submission::{SubmissionError, SubmissionOptions, pool};

/// The grader's module every driver imports beside `Student`.
const GRADER_INPUT: &str = include_str!("../assignment/peg_reversal/haskell/GraderInput.hs");

/// The drivers, one per function, part 1 first.
const DRIVERS: [&str; 4] = [
    include_str!("../assignment/peg_reversal/haskell/Driver_createBoard.hs"),
    include_str!("../assignment/peg_reversal/haskell/Driver_isValidMove.hs"),
    include_str!("../assignment/peg_reversal/haskell/Driver_isGoal.hs"),
    include_str!("../assignment/peg_reversal/haskell/Driver_showPossibleNextStates.hs"),
];

/// Whether a file name is one the grader writes into a Peg build folder
/// (`Student.hs`, `GraderInput.hs`, a driver), so a student's own file of
/// that name is not copied over it.
fn is_graders_name(name: &str) -> bool {
    name == STUDENT_FILE || name == "GraderInput.hs" || name.starts_with("Driver_")
}

/// Finds the student's file in a submission as read and writes the build
/// folder: `Student.hs`, `GraderInput.hs` and the drivers.
pub(crate) fn prepare_peg(
    dir: &Path,
    submission: Submission,
    work: &Path,
    sandbox: Option<Sandbox>,
) -> Result<Prepared, SubmissionError> {
    let files: Vec<(&str, &[u8])> = submission
        .files
        .iter()
        .map(|f| (f.name.as_str(), f.bytes.as_slice()))
        .collect();
    let chosen = choose(&files);
    let (student, candidates) = match &chosen {
        Ok(name) => (Some((*name).to_owned()), Vec::new()),
        Err(names) => (None, names.iter().map(|n| (*n).to_owned()).collect()),
    };
    let build = build_folder(work)?;
    let failed = |path: &Path| {
        let path = path.to_owned();
        move |source| SubmissionError::Build { path, source }
    };
    let src = build.path().join("src");
    fs::create_dir(&src).map_err(failed(&src))?;
    let write_new = |name: &str, bytes: &[u8]| {
        use std::io::Write as _;
        let path = src.join(name);
        fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&path)
            .and_then(|mut f| f.write_all(bytes))
            .map_err(failed(&path))
    };
    let mut pieces: Vec<Vec<u8>> = vec![b"peg-reversal".to_vec()];
    if let Some(name) = &student {
        let file = submission
            .file(name)
            .map(|f| f.bytes.as_slice())
            .unwrap_or_default();
        let module = student_module(file);
        write_new(STUDENT_FILE, &module)?;
        write_new("GraderInput.hs", GRADER_INPUT.as_bytes())?;
        pieces.push(module);
        pieces.push(GRADER_INPUT.as_bytes().to_vec());
        for (part, driver) in (1..=4u8).zip(DRIVERS) {
            write_new(&driver_file(part), driver.as_bytes())?;
            pieces.push(driver.as_bytes().to_vec());
        }
        for other in submission
            .files
            .iter()
            .filter(|f| f.name != *name && !is_graders_name(&f.name))
        {
            write_new(&other.name, &other.bytes)?;
            pieces.push(other.name.as_bytes().to_vec());
            pieces.push(other.bytes.clone());
        }
    }
    give_build_to(sandbox.as_ref(), build.path(), &src)?;
    let present = [student.is_some(); 4];
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
        refused: Default::default(),
        misnamed: Default::default(),
        renamed: Vec::new(),
        own_helpers: false,
        shadows: Vec::new(),
        sources: digest(pieces.iter().map(Vec::as_slice)),
        sandbox,
        assignment: Assignment::PegReversal,
        student,
        candidates,
    })
}

/// How the programs of one submission are run.
struct Runner<'a> {
    options: &'a SubmissionOptions,
    sandbox: Option<&'a Sandbox>,
    /// Each function's program (part 1 first), where it was built.
    programs: [Option<PathBuf>; 4],
    /// The folder of the inputs and of plain runs.
    bin: PathBuf,
}

impl Runner<'_> {
    /// Runs part `part`'s program with `input` (a file) on standard input.
    fn run(&self, part: u8, input: &Path) -> Result<ExecResult, String> {
        let name = Assignment::PegReversal.function(part);
        let Some(exe) = &self.programs[usize::from(part - 1)] else {
            return Err("not built".to_owned());
        };
        let timeout = self.options.timeout;
        let max_output = self.options.max_output;
        match self.sandbox {
            Some(sandbox) => {
                let mut run = sandbox
                    .run()
                    .map_err(|e| format!("cannot prepare the sandbox: {e}"))?;
                run.bind(Bind::new(exe.clone(), Path::new("/build").join(name)))
                    .chdir(Path::new("/build"));
                let inside = run
                    .input(input)
                    .map_err(|e| format!("cannot copy the input for the sandbox: {e}"))?;
                let command = format!("exec ./{name} < {}", shell_quote(&inside.to_string_lossy()));
                Ok(run.execute_within(&command, TimeLimits::cpu(timeout), max_output))
            }
            None => {
                let command = format!(
                    "ulimit -t {}; TMPDIR=\"$PWD/tmp\" && export TMPDIR && exec {} < {}",
                    timeout.as_secs() + 1,
                    shell_quote(&exe.to_string_lossy()),
                    shell_quote(&input.to_string_lossy())
                );
                Ok(run_command_in(
                    &command,
                    Some(&self.bin),
                    timeout,
                    max_output,
                ))
            }
        }
    }
}

/// The report of a case, before it is run (or when it is not).
fn blank(case: &PegCase, status: Status) -> CaseReport {
    CaseReport {
        fixture: case.call.to_string_lossy().into_owned(),
        function: case.function.clone(),
        part: case.read.as_ref().ok().map(|c| c.part),
        solution: case.expected.to_string_lossy().into_owned(),
        status,
        failure: None,
        reason: None,
        diff: None,
        stderr: None,
        duration: Duration::ZERO,
        hidden: case.hidden,
        relaxed: false,
        group: case.group,
        usage: None,
    }
}

/// A case that failed without running.
fn not_run(case: &PegCase, why: NotRun) -> CaseReport {
    CaseReport {
        failure: Some(Failure::NotRun { why }),
        ..blank(case, Status::Fail)
    }
}

/// Runs one case whose function was built.
fn run_case(runner: &Runner<'_>, case: &PegCase, at: usize) -> CaseReport {
    let call = match &case.read {
        Ok(call) => call,
        Err(reason) => {
            return CaseReport {
                reason: Some(format!(
                    "broken case: {reason}; the case is left out of every program's points"
                )),
                ..blank(case, Status::Error)
            };
        }
    };
    let mut report = blank(case, Status::Pass);
    let input = runner.bin.join("inputs").join(format!("{at:05}.in"));
    if let Err(e) = fs::write(&input, &call.input) {
        report.status = Status::Fail;
        report.failure = Some(Failure::CouldNotStart {
            cause: format!("cannot write the input {}: {e}", input.display()),
        });
        return report;
    }
    let start = Instant::now();
    let ran = with_second_chance(|| runner.run(call.part, &input));
    report.duration = start.elapsed();
    let _ = fs::remove_file(&input);
    let (result, twice) = match ran {
        Ok(ran) => ran,
        Err(cause) => {
            report.status = Status::Fail;
            report.failure = Some(Failure::CouldNotStart { cause });
            return report;
        }
    };
    report.usage = Some(RunUsage {
        cpu: result.usage.cpu,
        wall: result.usage.wall,
        peak_memory: result.usage.peak_memory,
    });
    if !result.stderr.is_empty() {
        let mut text = result.stderr.clone();
        if result.stderr_truncated {
            text.push_str("\n[... standard error truncated]");
        }
        report.stderr = Some(text);
    }
    let limits = runner.sandbox.map(|s| &s.limits);
    let actual = match judge_run(
        result.outcome,
        twice,
        runner.options.timeout,
        runner.options.max_output,
        limits,
        result.usage.peak_memory,
    ) {
        Ok(text) => text,
        Err(failure) => {
            report.status = Status::Fail;
            report.failure = Some(failure);
            return report;
        }
    };
    if let Some(diff) = Diff::new(&call.expected, &actual) {
        if runner.options.compare.equal(&call.expected, &actual) {
            report.relaxed = true;
            return report;
        }
        report.status = Status::Fail;
        report.failure = Some(Failure::WrongOutput);
        report.diff = Some(diff);
    }
    report
}

/// Runs the built functions on every case, then scores the submission.
pub(crate) fn run_functions(
    prepared: Prepared,
    builds: Vec<PartBuild>,
    cases: &[PegCase],
    options: &SubmissionOptions,
    provenance: &Provenance,
    jobs: Option<usize>,
) -> Result<SubmissionReport, SubmissionError> {
    let built: [bool; 4] = std::array::from_fn(|i| builds[i].compiled());
    let (bin, placed) = prepared.place_programs(&builds)?;
    fs::create_dir_all(bin.join("inputs")).map_err(|source| SubmissionError::Build {
        path: bin.clone(),
        source,
    })?;
    let mut programs: [Option<PathBuf>; 4] = Default::default();
    for (part, program) in placed {
        programs[usize::from(part - 1)] = Some(program);
    }
    let runner = Runner {
        options,
        sandbox: prepared.sandbox.as_ref(),
        programs,
        bin: bin.clone(),
    };
    let report_of = |cases: Vec<CaseReport>| SubmissionReport {
        dir: prepared.dir.clone(),
        refused: prepared.read.refused.clone(),
        nested: prepared.read.nested.clone(),
        scattered: prepared.read.scattered.clone(),
        own_helpers: false,
        renamed: Vec::new(),
        shadows: Vec::new(),
        builds: builds.clone(),
        points: points_by(&cases, built, options.scoring, &options.points),
        cases,
        sandboxed: prepared.sandbox.is_some(),
        compare: options.compare,
        provenance: provenance.clone(),
    };
    // Each case's result, as it finishes (for a checkpoint).
    let done: Mutex<Vec<Option<CaseReport>>> = Mutex::new(vec![None; cases.len()]);
    let partial = |done: &[Option<CaseReport>]| {
        report_of(
            cases
                .iter()
                .zip(done)
                .map(|(case, r)| r.clone().unwrap_or_else(|| not_run(case, NotRun::Stopped)))
                .collect(),
        )
    };
    if let Some(checkpoint) = &options.checkpoint {
        checkpoint.save(&partial(&vec![None; cases.len()]));
    }
    let finished = |at: usize, report: CaseReport| {
        if let Some(checkpoint) = &options.checkpoint
            && let Ok(mut done) = done.lock()
        {
            done[at] = Some(report.clone());
            checkpoint.save(&partial(&done));
        }
        report
    };
    let one = |at: usize, case: &PegCase, timed_out: Option<usize>| -> CaseReport {
        let part = case.read.as_ref().ok().map(|c| c.part);
        let report = match part {
            Some(part) if !built[usize::from(part - 1)] => not_run(
                case,
                match builds[usize::from(part - 1)].outcome {
                    BuildOutcome::NotFound { .. } => NotRun::NoSubmission,
                    _ => NotRun::NotCompiled {
                        file: case.function.clone(),
                    },
                },
            ),
            Some(_) if timed_out.is_some() => not_run(
                case,
                NotRun::PartTimedOut {
                    in_a_row: timed_out.unwrap_or_default(),
                },
            ),
            Some(_) if options.deadline.is_some_and(|d| Instant::now() >= d) => {
                not_run(case, NotRun::OverBudget)
            }
            _ => run_case(&runner, case, at),
        };
        finished(at, report)
    };
    let reports: Vec<CaseReport> = match options.part_timeouts {
        // Time-outs in a row are counted in case order: one case at a time.
        Some(limit) => {
            let mut in_a_row = [0usize; 4];
            let mut out = Vec::with_capacity(cases.len());
            for (at, case) in cases.iter().enumerate() {
                let part = case.read.as_ref().ok().map(|c| usize::from(c.part - 1));
                let stopped = part.is_some_and(|p| in_a_row[p] >= limit);
                let report = one(at, case, stopped.then_some(limit));
                if let Some(p) = part {
                    match report.kind() {
                        Some(FailureKind::Timeout) => in_a_row[p] += 1,
                        Some(FailureKind::OverBudget | FailureKind::PartTimedOut) => {}
                        _ => in_a_row[p] = 0,
                    }
                }
                out.push(report);
            }
            out
        }
        None => pool(jobs)?.install(|| {
            cases
                .par_iter()
                .enumerate()
                .map(|(at, case)| one(at, case, None))
                .collect()
        }),
    };
    fault_if_not_started(&reports, &builds, options)?;
    Ok(report_of(reports))
}
