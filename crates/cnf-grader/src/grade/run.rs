//! Grading: every case of every fixture run (in-process or through
//! `--exec`), compared byte for byte with its `.solution` file.
//!
//! Decisions:
//! - a case is an `ERROR` (a problem of the fixture, not of the program)
//!   when its `.cnf` is missing, unreadable or invalid, when its function
//!   name is unknown, or when its `.solution` is unreadable or not UTF-8;
//! - a case `FAIL`s (a problem of the program) when the output differs, or
//!   the function reports an error, or (with `--exec`) the program times
//!   out, crashes, exits non-zero, prints non-UTF-8 or too much; as `sh`
//!   reports a command killed by signal N as exit code 128+N, exit codes
//!   129 to 192 count as crashes by that signal;
//! - cases run in parallel on a local rayon pool; results are collected in
//!   discovery order, so the report does not depend on scheduling;
//! - with `fail_fast`, cases not yet started after the first failure or
//!   error are `SKIPPED` (with several jobs, which ones depends on timing);
//! - each `.cnf` is read and parsed once for all its cases;
//! - with `part_timeouts` N, time-outs in a row are counted in fixture
//!   order, never in the order cases finish: a part's case is not run when
//!   the N cases of that part before it (in fixture order) all timed out.
//!   A worker skips a case only once that is known; a case started while
//!   the cases before it were still running is replaced by "not run" if
//!   they turn out to stop the part. So the results, and the grade, are
//!   those of one worker going through the fixtures in order, whatever
//!   `jobs` is.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use connect_core::Function;
use rayon::prelude::*;

use crate::format::cnf::{CnfGame, parse_cnf};
use crate::format::solution::{check_expected, render_solution};
use crate::grade::discover::{Case, Fixture, read_fixture_file};
use crate::grade::exec::{ExecConfig, Outcome, run_command_in, substitute, with_second_chance};
use crate::model::case::CaseReport;
use crate::model::case::Status;
use crate::model::case::{Failure, FailureKind, NotRun};
use crate::model::compare::Compare;
use crate::model::diff::Diff;

/// What runs a case's function.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Runner {
    /// This crate's own implementation, in the grader's process.
    InProcess,
    /// Any program, through `sh -c`.
    Exec(ExecConfig),
}

/// Which cases to run and how.
#[derive(Debug, Clone)]
pub struct GradeOptions {
    /// Only these functions (all when empty).
    pub functions: Vec<Function>,
    /// Only fixtures whose `.cnf` path contains this text.
    pub filter: Option<String>,
    /// Skip the cases not yet started once one fails or errs.
    pub fail_fast: bool,
    /// Worker threads (`None`: one per core).
    pub jobs: Option<usize>,
    /// What runs the functions.
    pub runner: Runner,
    /// How an output is compared with its expected result.
    pub compare: Compare,
    /// Stop running a part's cases once this many of them in a row, in
    /// fixture order, timed out: the rest are failed, not run
    /// ([`FailureKind::PartTimedOut`]).
    pub part_timeouts: Option<usize>,
    /// Start no case after this instant: the rest are failed, not run
    /// ([`FailureKind::OverBudget`]).
    pub deadline: Option<Instant>,
}

impl Default for GradeOptions {
    fn default() -> Self {
        GradeOptions {
            functions: Vec::new(),
            filter: None,
            fail_fast: false,
            jobs: None,
            runner: Runner::InProcess,
            compare: Compare::Exact,
            part_timeouts: None,
            deadline: None,
        }
    }
}

/// What is known of a finished case, for `--part-timeouts`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Slot {
    /// Not finished (or not started) yet.
    Pending,
    /// It timed out.
    TimedOut,
    /// Neither a time-out nor a result: skipped, or over the budget.
    Neutral,
    /// Not run: the cases before it stopped its part.
    Stopped,
    /// Any other result.
    Other,
}

/// Each part's cases in fixture order, as they finish: a part is stopped
/// only at a case whose `limit` cases before it, in fixture order, all
/// timed out, so which cases run does not depend on the scheduling.
struct PartState {
    limit: Option<usize>,
    /// For each fixture, each case's part and place among its part's cases.
    place: Vec<Vec<Option<(usize, usize)>>>,
    slots: [std::sync::Mutex<Vec<Slot>>; 4],
}

impl PartState {
    fn new(fixtures: &[Fixture], limit: Option<usize>) -> PartState {
        let mut counts = [0; 4];
        let place = fixtures
            .iter()
            .map(|fixture| {
                fixture
                    .cases
                    .iter()
                    .map(|case| {
                        let part = usize::from(case.function.as_ref().ok()?.part() - 1);
                        counts[part] += 1;
                        Some((part, counts[part] - 1))
                    })
                    .collect()
            })
            .collect();
        PartState {
            limit,
            place,
            slots: counts.map(|n| std::sync::Mutex::new(vec![Slot::Pending; n])),
        }
    }

    /// Whether the cases before this one in fixture order stopped its part.
    fn stopped(&self, place: Option<(usize, usize)>) -> bool {
        let (Some((part, at)), Some(limit)) = (place, self.limit) else {
            return false;
        };
        let slots = self.slots[part].lock().unwrap_or_else(|e| e.into_inner());
        let mut in_a_row = 0;
        for slot in slots[..at].iter().rev() {
            match slot {
                Slot::TimedOut => in_a_row += 1,
                Slot::Neutral => continue,
                Slot::Stopped => return true,
                Slot::Pending | Slot::Other => return false,
            }
            if in_a_row >= limit {
                return true;
            }
        }
        false
    }

    /// Records how a case ended.
    fn finished(&self, place: Option<(usize, usize)>, report: &CaseReport) {
        let Some((part, at)) = place else { return };
        let slot = match report.kind() {
            Some(FailureKind::Timeout) => Slot::TimedOut,
            Some(FailureKind::PartTimedOut) => Slot::Stopped,
            Some(FailureKind::OverBudget) => Slot::Neutral,
            _ if report.status == Status::Skipped => Slot::Neutral,
            _ => Slot::Other,
        };
        self.slots[part].lock().unwrap_or_else(|e| e.into_inner())[at] = slot;
    }
}

/// Marks as not run every case of a part after `limit` of its cases in a
/// row, in fixture order, timed out (skipped cases and cases over the
/// budget neither count nor break the row). Cases that several workers
/// started before the row was known are replaced, so the results are
/// those of one worker going through the fixtures in order.
fn stop_in_fixture_order(cases: &mut [CaseReport], limit: usize) {
    let mut in_a_row = [0; 4];
    for case in cases {
        let Some(part) = case.part.map(|p| usize::from(p - 1)) else {
            continue;
        };
        if in_a_row[part] >= limit {
            *case = CaseReport {
                status: Status::Fail,
                failure: Some(Failure::NotRun {
                    why: NotRun::PartTimedOut { in_a_row: limit },
                }),
                reason: None,
                diff: None,
                stderr: None,
                duration: Duration::ZERO,
                relaxed: false,
                usage: None,
                ..case.clone()
            };
            continue;
        }
        match case.kind() {
            Some(FailureKind::Timeout) => in_a_row[part] += 1,
            Some(FailureKind::OverBudget) => {}
            _ if case.status == Status::Skipped => {}
            _ => in_a_row[part] = 0,
        }
    }
}

/// Keeps the fixtures and cases that `options` selects; fixtures left with
/// no case are dropped, but a game that has no `.solution` at all is kept
/// (it is reported as an error, never skipped silently). Unknown function
/// names are kept only when no function was selected.
pub fn select(fixtures: Vec<Fixture>, options: &GradeOptions) -> Vec<Fixture> {
    fixtures
        .into_iter()
        .filter(|f| {
            options
                .filter
                .as_deref()
                .is_none_or(|text| f.cnf.to_string_lossy().contains(text))
        })
        .filter_map(|mut f| {
            if f.cases.is_empty() {
                return f.cnf_exists.then_some(f);
            }
            f.cases.retain(|c| match &c.function {
                Ok(func) => options.functions.is_empty() || options.functions.contains(func),
                Err(_) => options.functions.is_empty(),
            });
            (!f.cases.is_empty()).then_some(f)
        })
        .collect()
}

/// Number of report entries these fixtures give: their cases, and one
/// for each game with no `.solution` file.
pub fn case_count(fixtures: &[Fixture]) -> usize {
    fixtures.iter().map(|f| f.cases.len().max(1)).sum()
}

/// The report of a game that has no `.solution` file: an error, so it is
/// seen, and left out of the points.
pub fn unpaired(fixture: &Fixture) -> CaseReport {
    CaseReport {
        fixture: fixture.cnf.to_string_lossy().into_owned(),
        function: "-".to_owned(),
        part: None,
        solution: String::new(),
        status: Status::Error,
        failure: None,
        reason: Some(format!(
            "{} has no NAME.FUNCTION.solution file next to it, so it grades nothing; \
             write them with `cnf-grader bless {}`, or remove the game",
            fixture.cnf.display(),
            fixture.cnf.display()
        )),
        diff: None,
        stderr: None,
        duration: Duration::ZERO,
        hidden: fixture.hidden,
        relaxed: false,
        group: fixture.group,
        usage: None,
    }
}

/// Why a pool could not be built.
#[derive(Debug, thiserror::Error)]
#[error("cannot start {jobs} worker threads: {message}")]
pub struct PoolError {
    jobs: usize,
    message: String,
}

/// Runs every case of `fixtures` and returns their results in order;
/// `progress` is called once per finished case with its report, from any
/// thread.
pub fn grade(
    fixtures: &[Fixture],
    options: &GradeOptions,
    progress: &(dyn Fn(&CaseReport) + Sync),
) -> Result<Vec<CaseReport>, PoolError> {
    let mut builder = rayon::ThreadPoolBuilder::new();
    if let Some(jobs) = options.jobs {
        builder = builder.num_threads(jobs);
    }
    let pool = builder.build().map_err(|e| PoolError {
        jobs: options.jobs.unwrap_or(0),
        message: e.to_string(),
    })?;
    let stop = AtomicBool::new(false);
    let parts = PartState::new(fixtures, options.part_timeouts);
    let results: Vec<Vec<CaseReport>> = pool.install(|| {
        fixtures
            .par_iter()
            .zip(&parts.place)
            .map(|(fixture, places)| {
                grade_fixture(fixture, places, options, &stop, &parts, progress)
            })
            .collect()
    });
    let mut cases: Vec<CaseReport> = results.into_iter().flatten().collect();
    if let Some(limit) = options.part_timeouts {
        stop_in_fixture_order(&mut cases, limit);
    }
    Ok(cases)
}

/// The game of a fixture, or why it cannot be read.
fn load_game(fixture: &Fixture) -> Result<CnfGame, String> {
    let path = fixture.cnf.display();
    if !fixture.cnf_exists {
        return Err(format!("no game file {path} next to the .solution file"));
    }
    let bytes = read_fixture_file(&fixture.cnf).map_err(|e| format!("cannot read {path}: {e}"))?;
    let source = String::from_utf8(bytes).map_err(|e| {
        format!(
            "{path} is not UTF-8 text (byte {} is invalid)",
            e.utf8_error().valid_up_to()
        )
    })?;
    parse_cnf(&source).map_err(|d| {
        format!(
            "the game file is not valid:\n{}",
            d.render(&path.to_string(), &source)
        )
    })
}

fn grade_fixture(
    fixture: &Fixture,
    places: &[Option<(usize, usize)>],
    options: &GradeOptions,
    stop: &AtomicBool,
    parts: &PartState,
    progress: &(dyn Fn(&CaseReport) + Sync),
) -> Vec<CaseReport> {
    if fixture.cases.is_empty() {
        let report = unpaired(fixture);
        progress(&report);
        return vec![report];
    }
    let started = Instant::now();
    let game = if options.fail_fast && stop.load(Ordering::Relaxed) {
        None
    } else {
        Some(load_game(fixture))
    };
    let load_time = started.elapsed();
    let run = |(case, &place): (&Case, &Option<(usize, usize)>)| {
        let report = match &game {
            _ if options.fail_fast && stop.load(Ordering::Relaxed) => {
                blank(fixture, case, Status::Skipped, None)
            }
            None => blank(fixture, case, Status::Skipped, None),
            Some(_) if parts.stopped(place) => {
                let in_a_row = options.part_timeouts.unwrap_or_default();
                not_run(fixture, case, NotRun::PartTimedOut { in_a_row })
            }
            Some(_) if options.deadline.is_some_and(|d| Instant::now() >= d) => {
                not_run(fixture, case, NotRun::OverBudget)
            }
            Some(game) => {
                let start = Instant::now();
                let mut r = grade_case(fixture, case, game, &options.runner, options.compare);
                r.duration = start.elapsed() + load_time;
                r
            }
        };
        if matches!(report.status, Status::Fail | Status::Error) {
            stop.store(true, Ordering::Relaxed);
        }
        parts.finished(place, &report);
        progress(&report);
        report
    };
    match options.runner {
        // In-process cases take microseconds: splitting them costs more.
        Runner::InProcess => fixture.cases.iter().zip(places).map(run).collect(),
        Runner::Exec(_) => fixture.cases.par_iter().zip(places).map(run).collect(),
    }
}

/// A failed case that was never run (e.g. its part did not compile).
pub fn not_run(fixture: &Fixture, case: &Case, why: NotRun) -> CaseReport {
    let mut report = blank(fixture, case, Status::Fail, None);
    report.failure = Some(Failure::NotRun { why });
    report
}

fn blank(fixture: &Fixture, case: &Case, status: Status, reason: Option<String>) -> CaseReport {
    let (function, part) = match &case.function {
        Ok(f) => (f.name().to_owned(), Some(f.part())),
        Err(name) => (name.clone(), None),
    };
    CaseReport {
        fixture: fixture.cnf.to_string_lossy().into_owned(),
        function,
        part,
        solution: case.solution.to_string_lossy().into_owned(),
        status,
        failure: None,
        reason,
        diff: None,
        stderr: None,
        duration: Duration::ZERO,
        hidden: fixture.hidden,
        relaxed: false,
        group: fixture.group,
        usage: None,
    }
}

fn grade_case(
    fixture: &Fixture,
    case: &Case,
    game: &Result<CnfGame, String>,
    runner: &Runner,
    compare: Compare,
) -> CaseReport {
    let error = |reason: String| blank(fixture, case, Status::Error, Some(reason));
    let function = match &case.function {
        Ok(f) => *f,
        Err(name) => {
            return error(format!(
                "{:?} in {} is not a function name; expected one of onePlayerOneMove, onePlayerManyMoves, manyPlayersOneMove, manyPlayersManyMoves",
                name,
                case.solution.display()
            ));
        }
    };
    let game = match game {
        Ok(game) => game,
        Err(reason) => return error(reason.clone()),
    };
    let expected = match read_fixture_file(&case.solution) {
        Err(e) => return error(format!("cannot read {}: {e}", case.solution.display())),
        Ok(bytes) => match String::from_utf8(bytes) {
            Ok(text) => text,
            Err(e) => {
                return error(format!(
                    "{} is not UTF-8 text (byte {} is invalid)",
                    case.solution.display(),
                    e.utf8_error().valid_up_to()
                ));
            }
        },
    };
    let path = case.solution.display().to_string();
    let strict = compare == Compare::Exact;
    if let Err(why) = check_expected(
        &path,
        &expected,
        game.board.height(),
        game.board.width(),
        strict,
    ) {
        return error(format!(
            "broken fixture: {why}; the case is left out of every program's points"
        ));
    }
    let mut report = blank(fixture, case, Status::Pass, None);
    let fail = |report: &mut CaseReport, failure: Failure| {
        report.status = Status::Fail;
        report.failure = Some(failure);
    };
    let actual = match runner {
        Runner::InProcess => match function.apply(&game.board, &game.moves, None) {
            Ok(board) => render_solution(&board),
            Err(e) => {
                fail(
                    &mut report,
                    Failure::FunctionError {
                        message: e.to_string(),
                    },
                );
                return report;
            }
        },
        Runner::Exec(config) => {
            let run_once = || match &config.sandbox {
                Some(sandboxed) => sandboxed.run(
                    &config.command,
                    function,
                    &fixture.cnf,
                    config.timeout,
                    config.max_output,
                ),
                None => {
                    let input = match &config.working_dir {
                        Some(_) => std::path::absolute(&fixture.cnf)
                            .unwrap_or_else(|_| fixture.cnf.clone()),
                        None => fixture.cnf.clone(),
                    };
                    let command = substitute(&config.command, function, &input);
                    Ok(run_command_in(
                        &command,
                        config.working_dir.as_deref(),
                        config.timeout,
                        config.max_output,
                    ))
                }
            };
            let (result, twice) = match with_second_chance(run_once) {
                Ok(ran) => ran,
                Err(e) => {
                    return error(format!(
                        "cannot copy {} for the sandbox: {e}",
                        fixture.cnf.display()
                    ));
                }
            };
            report.usage = Some(crate::model::case::RunUsage {
                cpu: result.usage.cpu,
                wall: result.usage.wall,
                peak_memory: result.usage.peak_memory,
            });
            if !result.stderr.is_empty() {
                let mut text = result.stderr;
                if result.stderr_truncated {
                    text.push_str("\n[... standard error truncated]");
                }
                report.stderr = Some(text);
            }
            let limits = config.sandbox.as_ref().map(|s| &s.sandbox.limits);
            let failure = judge_run(
                result.outcome,
                twice,
                config.timeout,
                config.max_output,
                limits,
                result.usage.peak_memory,
            );
            match failure {
                Ok(text) => text,
                Err(failure) => {
                    fail(&mut report, failure);
                    return report;
                }
            }
        }
    };
    if let Some(diff) = Diff::new(&expected, &actual) {
        if compare.equal(&expected, &actual) {
            report.relaxed = true;
            return report;
        }
        fail(&mut report, Failure::WrongOutput);
        report.diff = Some(diff);
    }
    report
}

/// What a run's outcome means for its case: the output as text, or the
/// failure (`twice`: the run was a second one, after the wall clock
/// stopped the first; `limits`: the sandbox's, `None` for a plain run,
/// which never ends by a memory limit; `peak`: the most memory seen).
pub(crate) fn judge_run(
    outcome: Outcome,
    twice: bool,
    timeout: Duration,
    max_output: usize,
    limits: Option<&crate::sandbox::Limits>,
    peak: u64,
) -> Result<String, Failure> {
    match outcome {
        Outcome::Exited { code: 0, stdout } => match String::from_utf8(stdout) {
            Ok(text) => Ok(text),
            Err(e) => {
                let offset = e.utf8_error().valid_up_to();
                Err(Failure::NotUtf8 {
                    offset,
                    byte: e.as_bytes()[offset],
                })
            }
        },
        Outcome::Exited { code, .. } if (129..=128 + 64).contains(&code) => {
            Err(Failure::Signalled {
                signal: code - 128,
                via_shell: true,
            })
        }
        Outcome::Exited {
            code: code @ (126 | 127),
            ..
        } => Err(Failure::CommandNotFound { code }),
        Outcome::Exited { code, .. } => Err(Failure::Exited { code }),
        Outcome::Signalled(signal) => Err(Failure::Signalled {
            signal,
            via_shell: false,
        }),
        Outcome::TimeLimit(clock) => {
            let limits = crate::sandbox::TimeLimits::cpu(timeout);
            Err(match clock {
                crate::sandbox::Clock::Cpu => Failure::TimeLimit {
                    clock: crate::model::case::Clock::Cpu,
                    limit: limits.cpu,
                    again: false,
                },
                crate::sandbox::Clock::Wall => Failure::TimeLimit {
                    clock: crate::model::case::Clock::Wall,
                    limit: limits.wall,
                    again: twice,
                },
            })
        }
        Outcome::OutputCap => Err(Failure::OutputCap { cap: max_output }),
        Outcome::MemoryLimit => {
            // Only a sandboxed run has memory limits: a plain run
            // never ends this way.
            let limits = limits.cloned().unwrap_or_default();
            Err(Failure::MemoryLimit {
                memory: limits.memory,
                scratch: limits.scratch,
                peak,
            })
        }
        Outcome::CouldNotStart(cause) => Err(Failure::CouldNotStart { cause }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grade::discover::discover;
    use crate::model::case::Totals;
    use crate::write::bless::solution_path;
    use crate::write::generate::{GenSpec, generate};

    #[test]
    fn results_do_not_depend_on_the_number_of_jobs() {
        let tmp = tempfile::tempdir().unwrap();
        for seed in 0..30 {
            let spec = GenSpec {
                rows: 5,
                cols: 6,
                players: 3,
                moves: 12,
                seed,
            };
            let game = generate(&spec).unwrap();
            let cnf = tmp.path().join(format!("g{seed:02}.cnf"));
            std::fs::write(&cnf, &game.cnf).unwrap();
            for (function, text) in &game.solutions {
                // Every seventh file is wrong.
                let text = if (seed + u64::from(function.part())) % 7 == 0 {
                    text.replacen('-', "9", 1)
                } else {
                    text.clone()
                };
                std::fs::write(solution_path(&cnf, *function), text).unwrap();
            }
        }
        let fixtures = discover(&[tmp.path().to_path_buf()]).unwrap();
        let run = |jobs| {
            let options = GradeOptions {
                jobs: Some(jobs),
                ..GradeOptions::default()
            };
            let mut cases = grade(&select(fixtures.clone(), &options), &options, &|_| {}).unwrap();
            for c in &mut cases {
                c.duration = Duration::ZERO;
            }
            cases
        };
        let one = run(1);
        assert_eq!(one.len(), 120);
        // For part p the wrong files are seeds s < 30 with s % 7 == 7 - p:
        // 4 seeds each (residues 6, 5, 4, 3), 16 in all.
        assert_eq!(Totals::of(&one).failed, 16);
        assert_eq!(one, run(4));
    }
}
