//! The Gradescope autograder's `results.json` (Gradescope's documented
//! format: top-level `score`, `execution_time`, `output`, `visibility`,
//! `stdout_visibility`, `tests`; each test `name`, `number`, `score`,
//! `max_score`, `status`, `output`, `visibility`).
//!
//! Decisions: the tests follow the assignment's allocation (spec §6): each
//! part has a compilation test worth its compilation points, then one test
//! per case worth an equal share of the part's test-case points; a broken
//! fixture (an ERROR) is a test worth 0 that says why. A case's output is
//! its reason, diff and standard error; a hidden case (its fixture under a
//! folder named `hidden`) shows only its name, status and points, and has
//! visibility `after_published`. The `output` line's totals count every
//! test of the list (compilations too), as every report does; an ERROR or
//! a skipped case is a `failed` test worth 0 there, counted apart in that
//! line. The whole report is `visible`; the
//! autograder's own standard output is `hidden` (it is for instructors).
//! Every text from a case (names, reasons, diffs, standard error) is shown
//! through [`crate::escape`], as in every other format.
//!
//! The extra credit: Gradescope adds up what `score` says, and an
//! assignment's points are set on Gradescope (100 here), so the extra
//! credit is the top-level `score` above 100: base + extra credit. Its
//! cases are their own tests, numbered `5.k` and named `Extra credit, part
//! N: …`, each with `max_score` 0 and, when passed, `score` its share of
//! the 10 points (Gradescope shows such a test as extra points). Edge cases
//! not counted in the base are tests `6.k`, `Edge case (not counted)`, worth
//! 0 of 0: the student sees how they fared and the score does not move.
//!
//! What the student must not see stays out of the student-visible text:
//! the provenance (sandbox backend, its weaknesses, host paths, GHC) goes
//! only to `extra_data`, which Gradescope keeps for the instructor and
//! does not show the student.

use std::time::Duration;

use serde::Serialize;

use crate::escape::{line as esc, text as esc_text};

use crate::model::case::{CaseReport, Failure, FailureKind, Group, NotRun, Status, Totals};
use crate::model::class::{Member, Outcome, StudentResult};
use crate::model::points::Points;
use crate::model::provenance::Provenance;
use crate::model::submission::SubmissionReport;
use crate::report::Style;

#[derive(Serialize)]
struct Results<'a> {
    score: f64,
    execution_time: u64,
    output: String,
    visibility: &'a str,
    stdout_visibility: &'a str,
    tests: Vec<Test>,
    #[serde(skip_serializing_if = "serde_json::Map::is_empty")]
    extra_data: serde_json::Map<String, serde_json::Value>,
}

#[derive(Serialize)]
struct Test {
    name: String,
    number: String,
    score: f64,
    max_score: f64,
    status: &'static str,
    output: String,
    visibility: &'static str,
}

/// What a student may see of a case: everything, or for a hidden case
/// nothing but its name and status.
fn case_output(case: &CaseReport) -> String {
    if case.hidden {
        return "hidden test: its input, expected output and diff are not shown".to_owned();
    }
    let mut out = esc_text(&crate::report::outcome::reason(case)).into_owned();
    if let Some(diff) = &case.diff {
        out.push('\n');
        out.push_str(&crate::report::diff::unified(
            diff,
            &format!("expected: {}", case.solution),
            &format!("actual: {} on {}", case.function, case.fixture),
            Style::Plain,
        ));
    }
    if let Some(stderr) = &case.stderr {
        out.push_str("\nstandard error:\n");
        out.push_str(&esc_text(stderr));
    }
    out.trim_end().to_owned()
}

/// The `results.json` of these cases (compile entries, named `compile`,
/// included for submissions) scored by `points`; `warning` and `extra`
/// go to the top-level `output` and `extra_data`, and `provenance` to both.
/// `elapsed` is the run's wall-clock time, its `execution_time`; without
/// one (a class's reports, where students are graded side by side), the
/// cases' durations added up.
pub fn gradescope(
    cases: &[CaseReport],
    points: &Points,
    warning: Option<&str>,
    provenance: Option<&Provenance>,
    extra: &[(&str, serde_json::Value)],
    elapsed: Option<Duration>,
) -> String {
    let mut tests = Vec::new();
    let assignment = points.assignment();
    // Connect Four's tests say `Part 1`; another assignment's name the function.
    let prefix = |part: &crate::model::points::PartPoints| {
        if assignment.is_default() {
            format!("Part {}: ", part.part)
        } else {
            format!("{}: ", part.function)
        }
    };
    for part in &points.parts {
        let compile = cases.iter().find(|c| {
            c.function == "compile"
                && if assignment.is_default() {
                    c.fixture.ends_with(&format!("part{:02}.hs", part.part))
                } else {
                    c.fixture.ends_with(&format!("({})", part.function))
                }
        });
        tests.push(Test {
            name: if assignment.is_default() {
                format!("Part {} ({}): compilation", part.part, part.function)
            } else {
                format!("{}: compilation", part.function)
            },
            number: format!("{}.0", part.part),
            score: part.compilation,
            max_score: part.compilation_max,
            status: if part.compiled { "passed" } else { "failed" },
            output: compile.map(case_output).unwrap_or_default(),
            visibility: "visible",
        });
        let share = if part.cases == 0 {
            0.0
        } else {
            part.test_cases_max / part.cases as f64
        };
        let mine = cases.iter().filter(|c| {
            c.part == Some(part.part)
                && c.function != "compile"
                && in_base(c.group, points.edge.in_base)
        });
        for (k, case) in mine.enumerate() {
            tests.push(case_test(
                case,
                prefix(part),
                format!("{}.{}", part.part, k + 1),
                share,
                true,
            ));
        }
    }
    // The extra credit: its own tests, worth 0 each in `max_score`, so a
    // passed one lifts the score above the assignment's 100.
    let bonus = &points.extra_credit;
    let share = if bonus.cases == 0 {
        0.0
    } else {
        bonus.points_max / bonus.cases as f64
    };
    let mine = cases
        .iter()
        .filter(|c| c.group == Group::ExtraCredit && c.part.is_some());
    for (k, case) in mine.enumerate() {
        let part = case.part.unwrap_or_default();
        tests.push(case_test(
            case,
            format!("Extra credit, part {part}: "),
            format!("5.{}", k + 1),
            share,
            false,
        ));
    }
    if !points.edge.in_base {
        let mine = cases
            .iter()
            .filter(|c| c.group == Group::Edge && c.part.is_some());
        for (k, case) in mine.enumerate() {
            let part = case.part.unwrap_or_default();
            tests.push(case_test(
                case,
                format!("Edge case (not counted), part {part}: "),
                format!("6.{}", k + 1),
                0.0,
                false,
            ));
        }
    }
    // The same totals as every other report: compilations are tests too.
    let mut output = format!("{:.2}/{:.0} points", points.total, points.total_max);
    if bonus.cases > 0 {
        output.push_str(&format!(
            ", extra credit +{:.2}/{:.0}",
            bonus.points, bonus.points_max
        ));
    }
    if points.edge.cases > 0 && !points.edge.in_base {
        output.push_str(&format!(
            ", edge cases {}/{} passed (not counted)",
            points.edge.passed, points.edge.cases
        ));
    }
    output.push_str(&format!("; {}", Totals::of(cases).summary()));
    if let Some(limited) = limited(cases) {
        output = format!("{limited}\n{output}");
    }
    if let Some(warning) = warning {
        output = format!("{}\n{output}", esc_text(warning));
    }
    let mut extra_data: serde_json::Map<String, serde_json::Value> = extra
        .iter()
        .map(|(k, v)| ((*k).to_owned(), v.clone()))
        .collect();
    if let Some(p) = provenance {
        extra_data.insert(
            "provenance".to_owned(),
            serde_json::to_value(p).unwrap_or_default(),
        );
    }
    let results = Results {
        score: points.total + bonus.points,
        execution_time: seconds(
            elapsed.unwrap_or_else(|| cases.iter().map(|c| c.duration).sum::<Duration>()),
        ),
        output,
        visibility: "visible",
        stdout_visibility: "hidden",
        tests,
        extra_data,
    };
    let mut text = serde_json::to_string_pretty(&results).unwrap_or_default();
    text.push('\n');
    text
}

/// What a student is told when some tests were not run, saying which
/// limit stopped them: a part's time-outs in a row (naming the part), the
/// time budget, or grading stopped before the end; `None` when every test
/// ran.
pub fn limited(cases: &[CaseReport]) -> Option<String> {
    let not_run = |kind: FailureKind| cases.iter().filter(move |c| c.kind() == Some(kind));
    let tests = |n: usize| {
        if n == 1 {
            "1 test".to_owned()
        } else {
            format!("{n} tests")
        }
    };
    let mut why = Vec::new();
    for part in 1..=4 {
        let stopped: Vec<_> = not_run(FailureKind::PartTimedOut)
            .filter(|c| c.part == Some(part))
            .collect();
        if let Some(Failure::NotRun {
            why: NotRun::PartTimedOut { in_a_row },
        }) = stopped.first().and_then(|c| c.failure.as_ref())
        {
            why.push(format!(
                "part {part} stopped after {in_a_row} time-outs in a row ({} not run)",
                tests(stopped.len())
            ));
        }
    }
    let over = not_run(FailureKind::OverBudget).count();
    if over > 0 {
        why.push(format!(
            "grading's time budget was spent ({} not run)",
            tests(over)
        ));
    }
    let stopped = not_run(FailureKind::NotRun).count();
    if stopped > 0 {
        why.push(format!(
            "grading was stopped before the end ({} not run)",
            tests(stopped)
        ));
    }
    (!why.is_empty()).then(|| {
        format!(
            "Some tests were not run: {}. The tests not run count as failed; the points you \
             earned are kept.",
            why.join("; ")
        )
    })
}

/// Whether a case of `group` is among its part's tests.
fn in_base(group: Group, edge_in_base: bool) -> bool {
    match group {
        Group::Base => true,
        Group::Edge => edge_in_base,
        Group::ExtraCredit => false,
    }
}

/// The test of one case: worth `share` when it passed; `counted` cases
/// offer it as `max_score`, extra-credit and edge cases offer 0.
fn case_test(case: &CaseReport, prefix: String, number: String, share: f64, counted: bool) -> Test {
    let graded = case.status != Status::Error;
    let passed = case.status == Status::Pass;
    Test {
        name: format!("{prefix}{} {}", esc(&case.fixture), esc(&case.function)),
        number,
        score: if passed { share } else { 0.0 },
        max_score: if graded && counted { share } else { 0.0 },
        status: if passed { "passed" } else { "failed" },
        output: case_output(case),
        visibility: if case.hidden {
            "after_published"
        } else {
            "visible"
        },
    }
}

/// `elapsed` in whole seconds (Gradescope's `execution_time` is an
/// integer), rounded down.
fn seconds(elapsed: Duration) -> u64 {
    elapsed.as_secs()
}

/// What a student is told when the autograder itself could not grade:
/// nothing of the set-up's details (those are the instructor's), no
/// instructor's advice, no text a browser would take for markup.
pub const SETUP_FAILED: &str = "The autograder could not grade this submission because of a \
     problem with the autograder itself, not with your files: your instructor can see what went \
     wrong. Please let them know.";

/// The `results.json` of a submission the autograder could not grade
/// because of its own set-up (no sandbox, no GHC, no fixtures): score 0,
/// [`SETUP_FAILED`] for the student. The instructor's message goes
/// elsewhere: the grader prints it on standard error, which the kit's
/// `run_autograder` passes to its standard output, shown only to
/// instructors.
pub fn setup_failed(elapsed: Duration) -> String {
    let results = Results {
        score: 0.0,
        execution_time: seconds(elapsed),
        output: SETUP_FAILED.to_owned(),
        visibility: "visible",
        stdout_visibility: "hidden",
        tests: Vec::new(),
        extra_data: serde_json::Map::new(),
    };
    let mut text = serde_json::to_string_pretty(&results).unwrap_or_default();
    text.push('\n');
    text
}

/// The `results.json` of a submission that could not be graded at all:
/// score 0, and the reason (one the student can act on) as its output.
pub fn not_graded(reason: &str) -> String {
    let results = Results {
        score: 0.0,
        execution_time: 0,
        output: format!(
            "The autograder could not grade this submission: {}",
            esc_text(reason)
        ),
        visibility: "visible",
        stdout_visibility: "hidden",
        tests: Vec::new(),
        extra_data: serde_json::Map::new(),
    };
    let mut text = serde_json::to_string_pretty(&results).unwrap_or_default();
    text.push('\n');
    text
}

/// The Gradescope `results.json` of a submission (the student's view),
/// graded in `elapsed` of wall-clock time.
pub fn submission(report: &SubmissionReport, elapsed: Duration) -> String {
    results(report, None, Some(elapsed))
}

/// [`submission`] for one student of a class, named in `extra_data` when
/// the roster has them.
pub fn submission_of(report: &SubmissionReport, member: Option<&Member>) -> String {
    results(report, member, None)
}

fn results(
    report: &SubmissionReport,
    member: Option<&Member>,
    elapsed: Option<Duration>,
) -> String {
    let mut info = vec![("submission", crate::report::submission::info(report))];
    if let Some(m) = member {
        let esc = crate::escape::line;
        info.push((
            "student",
            serde_json::json!({ "name": esc(&m.name), "id": esc(&m.id) }),
        ));
    }
    // The student sees, atop the output, what was not read and why; the
    // `--no-sandbox` warning is the instructor's (on standard error, and
    // `sandbox OFF` in the provenance line).
    let notice = crate::report::submission::reading_notes(report).join("\n");
    gradescope(
        &report.all_cases(),
        &report.points,
        (!notice.is_empty()).then_some(notice.as_str()),
        Some(&report.provenance),
        &info,
        elapsed,
    )
}

/// One student's Gradescope `results.json` of a class.
pub fn student(student: &StudentResult) -> String {
    match &student.outcome {
        Outcome::Graded(report) => submission_of(report, student.member.as_ref()),
        Outcome::NotRead(why) | Outcome::NotGraded(why) => not_graded(why),
        Outcome::Absent => not_graded(&format!("no submission: {}", crate::model::class::ABSENT)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn not_run(part: u8, why: NotRun) -> CaseReport {
        CaseReport {
            fixture: "g.cnf".into(),
            function: "manyPlayersOneMove".into(),
            part: Some(part),
            solution: "g.manyPlayersOneMove.solution".into(),
            status: Status::Fail,
            failure: Some(Failure::NotRun { why }),
            reason: None,
            diff: None,
            stderr: None,
            duration: Duration::ZERO,
            hidden: false,
            relaxed: false,
            group: Group::Base,
            usage: None,
        }
    }

    #[test]
    fn the_student_is_told_which_limit_stopped_which_part() {
        let row = || NotRun::PartTimedOut { in_a_row: 3 };
        let cases = [not_run(3, row()), not_run(3, row()), not_run(1, row())];
        assert_eq!(
            limited(&cases).unwrap(),
            "Some tests were not run: part 1 stopped after 3 time-outs in a row (1 test not \
             run); part 3 stopped after 3 time-outs in a row (2 tests not run). The tests not \
             run count as failed; the points you earned are kept."
        );
        let cases = [not_run(2, NotRun::OverBudget), not_run(4, NotRun::Stopped)];
        let text = limited(&cases).unwrap();
        assert!(
            text.starts_with(
                "Some tests were not run: grading's time budget was spent (1 test not run); \
                 grading was stopped before the end (1 test not run)."
            ),
            "{text}"
        );
        assert!(!text.contains("time-outs in a row"), "{text}");
        // A part that did not compile is not a limit.
        let compile = not_run(
            2,
            NotRun::NotCompiled {
                file: "csce322assignment03part02.hs".into(),
            },
        );
        assert_eq!(limited(&[compile]), None);
    }
}
