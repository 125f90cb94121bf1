//! Compiling every part of many submissions in one pool, then running each
//! compiled part on every case.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use connect_core::Function;
use rayon::prelude::*;

use crate::assignment::Assignment;
pub use crate::grade::discover::fixtures_digest;
use crate::grade::discover::{Case, Fixture};
use crate::grade::exec::{ExecConfig, ExecSandbox};
use crate::grade::peg::Suite;
use crate::grade::run::{GradeOptions, Runner, grade, not_run, unpaired};
use crate::model::case::{CaseReport, NotRun};
use crate::model::points::points_by;
use crate::model::provenance::Provenance;
use crate::model::submission::BuildOutcome;
use crate::model::submission::PartBuild;
use crate::model::submission::SubmissionReport;
use crate::model::submission::part_file;
use crate::sandbox::Bind;
use crate::submission::ClassProgress;
use crate::submission::SubmissionError;
use crate::submission::SubmissionOptions;
use crate::submission::build::compile_part;
use crate::submission::build::{fault_if_not_started, forget_builds};
use crate::submission::part_exe;
use crate::submission::pool;
use crate::submission::prepare::Prepared;
use crate::submission::prepare::prepare;
use crate::submission::source::{self, Submission};

/// Grades one submission folder on these fixtures; its four parts compile
/// at once.
pub fn grade_submission(
    dir: &Path,
    suite: &Suite,
    options: &SubmissionOptions,
) -> Result<SubmissionReport, SubmissionError> {
    let read = source::read_submission(dir, &options.read_limits);
    let prepared = vec![prepare_student(dir, read, options)];
    let provenance = options.provenance(suite);
    let mut all = grade_many_indexed(
        prepared,
        suite,
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

/// Compiles (`compile_jobs` at once) and grades each prepared folder;
/// `finish` turns each result into what is kept, as soon as it is graded;
/// `progress` hears of the compilations.
#[allow(clippy::too_many_arguments)] // reason: one more observer than the rest
pub(crate) fn grade_many_indexed<T: Send>(
    prepared: Vec<Result<Prepared, SubmissionError>>,
    suite: &Suite,
    options: &SubmissionOptions,
    provenance: &Provenance,
    compile_jobs: Option<usize>,
    finish: &(dyn Fn(usize, Result<SubmissionReport, SubmissionError>) -> T + Sync),
    progress: &(dyn Fn(ClassProgress) + Sync),
) -> Result<Vec<T>, SubmissionError> {
    let count = prepared.len();
    // Where the sandbox cannot keep two runs at once apart (the user
    // backend without Landlock shares `/tmp` between live runs), two
    // students' programs never run at the same time, compilations
    // (Template Haskell) included: a student's grade must not depend on
    // another student running beside it.
    let apart = options
        .sandbox
        .as_ref()
        .is_none_or(|s| s.separates_concurrent_runs());
    let (compile_jobs, student_jobs) = if count > 1 && !apart {
        (Some(1), Some(1))
    } else {
        (compile_jobs, options.jobs)
    };
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
    let compiled: Vec<Result<PartBuild, String>> = pool(compile_jobs)?.install(|| {
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
                        Ok(p) if p.assignment == Assignment::PegReversal => (
                            p.source(part),
                            BuildOutcome::NotFound {
                                candidates: p.candidates.clone(),
                            },
                        ),
                        Ok(p) => (
                            p.source(part),
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
    // The grader's own failures, per student: such a student is not graded.
    let mut faults: Vec<Vec<String>> = vec![Vec::new(); count];
    for (&(i, part), build) in tasks.iter().zip(compiled) {
        match build {
            Ok(build) => builds[i][usize::from(part - 1)] = build,
            Err(reason) => faults[i].push(reason),
        }
    }
    let mut prepared = prepared;
    for (i, reasons) in faults.iter().enumerate() {
        if !reasons.is_empty() {
            forget_builds(&builds[i], options);
            prepared[i] = Err(SubmissionError::Fault(reasons.join("; ")));
        }
    }
    let students: Vec<_> = prepared.into_iter().zip(builds).enumerate().collect();
    // A class runs `jobs` students at once, each one case at a time, so no
    // more than `jobs` programs compete for the cores (fair time limits).
    let case_jobs = if count > 1 { Some(1) } else { options.jobs };
    let results = pool(student_jobs)?.install(|| {
        students
            .into_par_iter()
            .map(|(at, (prepared, builds))| {
                let result = prepared.and_then(|p| match suite {
                    Suite::ConnectFour(fixtures) => {
                        run_parts(p, builds, fixtures, options, provenance, case_jobs)
                    }
                    Suite::PegReversal(cases) => crate::submission::peg::run_functions(
                        p, builds, cases, options, provenance, case_jobs,
                    ),
                });
                finish(at, result)
            })
            .collect()
    });
    Ok(results)
}

/// Reads and prepares one student's folder. Its sandbox is the student's
/// own ([`crate::sandbox::Sandbox::for_one_party`]): as root under
/// bubblewrap, a user id no other student has, in this grader or in any
/// other on the machine, held until the student's grading is done.
pub(crate) fn prepare_student(
    dir: &Path,
    read: Result<Submission, source::ReadError>,
    options: &SubmissionOptions,
) -> Result<Prepared, SubmissionError> {
    let submission = read.map_err(|e| SubmissionError::Folder {
        path: dir.to_owned(),
        source: e.source,
    })?;
    let sandbox = options
        .sandbox
        .as_ref()
        .map(|s| s.for_one_party())
        .transpose()
        .map_err(|source| SubmissionError::Sandbox {
            path: dir.to_owned(),
            source,
        })?;
    match options.assignment {
        Assignment::ConnectFour => prepare(
            dir,
            submission,
            &options.work_dir,
            sandbox,
            options.accept_name_case,
        ),
        Assignment::PegReversal => {
            crate::submission::peg::prepare_peg(dir, submission, &options.work_dir, sandbox)
        }
    }
}

/// Runs the compiled parts on every case, then scores the submission.
pub(crate) fn run_parts(
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
    let (bin, parts) = prepared.place_programs(&builds)?;
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
                part_binds: Default::default(),
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
        part_timeouts: options.part_timeouts,
        deadline: options.deadline,
    };
    // The cases of the parts that did not build, and the place of every
    // other case in the report.
    let assemble = |take: &mut dyn FnMut(&Fixture, &Case) -> Option<CaseReport>| {
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
                        let file = part_file(part);
                        let why = match build.outcome {
                            BuildOutcome::Missing { .. } => NotRun::Missing { file },
                            BuildOutcome::Refused(_) => NotRun::NotSubmitted { file },
                            _ => NotRun::NotCompiled { file },
                        };
                        cases.push(not_run(fixture, case, why));
                    }
                    _ => cases.extend(take(fixture, case)),
                }
            }
        }
        cases
    };
    let report_of = |cases: Vec<CaseReport>| SubmissionReport {
        dir: prepared.dir.clone(),
        refused: prepared.read.refused.clone(),
        nested: prepared.read.nested.clone(),
        scattered: prepared.read.scattered.clone(),
        own_helpers: prepared.own_helpers,
        renamed: prepared.renamed.clone(),
        shadows: prepared.shadows.clone(),
        builds: builds.clone(),
        points: points_by(&cases, built, options.scoring, &options.points),
        cases,
        sandboxed: prepared.sandbox.is_some(),
        compare: options.compare,
        provenance: provenance.clone(),
    };
    // With a checkpoint, what is earned is kept as grading goes: first the
    // compilations (every case not run yet), then after each case.
    let done: std::sync::Mutex<std::collections::HashMap<(String, String), CaseReport>> =
        Default::default();
    let partial = |done: &std::collections::HashMap<(String, String), CaseReport>| {
        report_of(assemble(&mut |fixture, case| {
            let key = (
                fixture.cnf.to_string_lossy().into_owned(),
                case.solution.to_string_lossy().into_owned(),
            );
            Some(
                done.get(&key)
                    .cloned()
                    .unwrap_or_else(|| not_run(fixture, case, NotRun::Stopped)),
            )
        }))
    };
    if let Some(checkpoint) = &options.checkpoint {
        checkpoint.save(&partial(&Default::default()));
    }
    let progress = |case: &CaseReport| {
        if let Some(checkpoint) = &options.checkpoint
            && let Ok(mut done) = done.lock()
        {
            done.insert((case.fixture.clone(), case.solution.clone()), case.clone());
            checkpoint.save(&partial(&done));
        }
    };
    let mut ran = grade(&runnable, &grade_options, &progress)
        .map_err(|e| SubmissionError::Threads(e.to_string()))?
        .into_iter();
    let cases = assemble(&mut |_, _| ran.next());
    fault_if_not_started(&cases, &builds, options)?;
    Ok(report_of(cases))
}
