//! One definition of passed and failed, the same numbers in every format.
//!
//! A report's tests are, for a submission, each part's compilation and then
//! each case. A test passed when it is PASS and failed when it is FAIL (a
//! part missing or not compiling fails its compilation and every one of its
//! cases, which are not run); an ERROR (a broken fixture) and a skipped
//! case are counted apart. Each format is parsed here as a reader would
//! read it (the totals line of the human report, Gradescope's `output` and
//! its test list, the HTML page's totals and the index's `failed` column,
//! the gradebook's table, CSV and JSON, JUnit's counts, the JSON report's
//! totals), and all must give the counts made from the data itself.

use std::path::{Path, PathBuf};
use std::time::Duration;

use cnf_grader::model::case::{CaseReport, Clock, Failure, NotRun, Status};
use cnf_grader::model::case::{CompileCause, CompileError};
use cnf_grader::model::class::StudentResult;
use cnf_grader::model::compare::Compare;
use cnf_grader::model::points::points_compiled;
use cnf_grader::model::provenance::Provenance;
use cnf_grader::model::submission::{BuildOutcome, PartBuild, SubmissionReport};
use cnf_grader::report::ReportOptions;
use cnf_grader::report::gradebook;
use cnf_grader::report::json::json;
use cnf_grader::report::junit::junit;
use cnf_grader::submission::student_result;
use proptest::prelude::*;
use scraper::{Html, Selector};
use test_support::{Cli, Run, Tool};

/// Passed, failed, errors, skipped.
type Counts = [usize; 4];

/// `N passed, N failed[, N error(s)][, N skipped]`.
fn totals_line(line: &str) -> Counts {
    let mut counts = [0; 4];
    for part in line.trim().split(", ") {
        let (n, word) = part.split_once(' ').unwrap_or_else(|| panic!("{line:?}"));
        let n: usize = n.parse().unwrap_or_else(|_| panic!("{line:?}"));
        let at = match word {
            "passed" => 0,
            "failed" => 1,
            "error" | "errors" => 2,
            "skipped" => 3,
            _ => panic!("{line:?}: {word}"),
        };
        counts[at] = n;
    }
    counts
}

/// The human report's last line.
fn human_counts(text: &str) -> Counts {
    totals_line(text.lines().rev().find(|l| !l.is_empty()).unwrap())
}

/// Gradescope's `output` line and its list of tests (which has only
/// `passed` and `failed`: an error or a skipped case is a failed test
/// worth 0 there).
fn gradescope_counts(text: &str) -> (Counts, [usize; 2]) {
    let doc: serde_json::Value = serde_json::from_str(text).unwrap();
    let output = doc["output"].as_str().unwrap();
    let line = output
        .lines()
        .find_map(|l| l.split_once(" points; ").map(|(_, t)| t))
        .unwrap_or_else(|| panic!("{output}"));
    let tests = doc["tests"].as_array().unwrap();
    let with = |status: &str| tests.iter().filter(|t| t["status"] == status).count();
    (totals_line(line), [with("passed"), with("failed")])
}

/// The HTML page's totals footer.
fn html_counts(page: &str) -> Counts {
    let doc = Html::parse_document(page);
    let footer = doc
        .select(&Selector::parse("footer.totals").unwrap())
        .next()
        .expect("a totals footer");
    totals_line(&footer.text().collect::<String>())
}

/// The `failed` column of the HTML index, per student.
fn index_failed(page: &str) -> Vec<(String, usize)> {
    let doc = Html::parse_document(page);
    let head: Vec<String> = doc
        .select(&Selector::parse("table.gradebook thead th").unwrap())
        .map(|th| th.text().collect())
        .collect();
    let at = head.iter().position(|h| h == "failed").unwrap();
    doc.select(&Selector::parse("table.gradebook tbody tr").unwrap())
        .map(|tr| {
            let cells: Vec<String> = tr
                .select(&Selector::parse("td").unwrap())
                .map(|td| td.text().collect())
                .collect();
            (cells[0].clone(), cells[at].parse().unwrap())
        })
        .collect()
}

/// The `failed` column of the gradebook table, per student.
fn table_failed(table: &str) -> Vec<(String, usize)> {
    let mut lines = table.lines().skip_while(|l| !l.starts_with("student "));
    let head: Vec<&str> = lines.next().unwrap().split_whitespace().collect();
    let at = head.iter().position(|h| *h == "failed").unwrap();
    lines
        .filter(|l| !l.trim().is_empty() && !l.starts_with("warning"))
        .map(|l| {
            let cells: Vec<&str> = l.split_whitespace().collect();
            (cells[0].to_owned(), cells[at].parse().unwrap())
        })
        .collect()
}

/// `failed_cases` and `cases` of the CSV, per student.
fn csv_failed(text: &str) -> Vec<(String, usize, usize)> {
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let head = reader.headers().unwrap().clone();
    let col = |name: &str| head.iter().position(|h| h == name).unwrap();
    let (failed, cases) = (col("failed_cases"), col("cases"));
    reader
        .records()
        .map(|r| {
            let r = r.unwrap();
            (
                r[0].to_owned(),
                r[failed].parse().unwrap(),
                r[cases].parse().unwrap(),
            )
        })
        .collect()
}

/// `failed_cases` and `cases` of the JSON gradebook, per student.
fn json_book_failed(text: &str) -> Vec<(String, usize, usize)> {
    let doc: serde_json::Value = serde_json::from_str(text).unwrap();
    doc["students"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["student"].as_str().unwrap().to_owned(),
                s["failed_cases"].as_u64().unwrap() as usize,
                s["cases"].as_u64().unwrap() as usize,
            )
        })
        .collect()
}

/// JUnit's `tests`, and its failures, errors and skipped (passed = the
/// rest), read from the attributes of its `<testsuite>` element.
fn junit_counts(text: &str) -> (usize, Counts) {
    let at = text.find("<testsuite ").unwrap_or_else(|| panic!("{text}"));
    let tag = &text[at..at + text[at..].find('>').unwrap()];
    let attr = |name: &str| -> usize {
        let key = format!(" {name}=\"");
        let from = tag.find(&key).unwrap_or_else(|| panic!("{tag}")) + key.len();
        tag[from..from + tag[from..].find('"').unwrap()]
            .parse()
            .unwrap()
    };
    let (tests, failed, errors, skipped) = (
        attr("tests"),
        attr("failures"),
        attr("errors"),
        attr("skipped"),
    );
    (
        tests,
        [tests - failed - errors - skipped, failed, errors, skipped],
    )
}

/// The JSON report's totals.
fn json_counts(text: &str) -> Counts {
    let doc: serde_json::Value = serde_json::from_str(text).unwrap();
    let t = &doc["totals"];
    ["passed", "failed", "errors", "skipped"].map(|k| t[k].as_u64().unwrap() as usize)
}

/// Every format of one student agrees with `expected`; `tests` is the
/// number of tests (compilations and cases).
#[allow(clippy::too_many_arguments)] // reason: one argument per format checked
fn check_student(
    who: &str,
    expected: Counts,
    tests: usize,
    human: &str,
    gradescope: &str,
    html: &str,
    junit_text: &str,
    json_text: &str,
) {
    assert_eq!(
        human_counts(human),
        expected,
        "{who}: human report:\n{human}"
    );
    let (line, list) = gradescope_counts(gradescope);
    assert_eq!(line, expected, "{who}: Gradescope output");
    assert_eq!(list[0], expected[0], "{who}: Gradescope tests passed");
    assert_eq!(
        list[1],
        expected[1] + expected[2] + expected[3],
        "{who}: Gradescope tests failed"
    );
    assert_eq!(list[0] + list[1], tests, "{who}: Gradescope tests");
    assert_eq!(html_counts(html), expected, "{who}: HTML page");
    assert_eq!(junit_counts(junit_text), (tests, expected), "{who}: JUnit");
    assert_eq!(json_counts(json_text), expected, "{who}: JSON report");
}

/// The gradebook's formats agree with `expected`: (student, failed, tests).
fn check_book(
    expected: &[(String, usize, usize)],
    table: &str,
    csv: &str,
    json: &str,
    index: &str,
) {
    let failed: Vec<(String, usize)> = expected.iter().map(|(s, f, _)| (s.clone(), *f)).collect();
    assert_eq!(table_failed(table), failed, "gradebook table");
    assert_eq!(csv_failed(csv), expected, "gradebook CSV");
    assert_eq!(json_book_failed(json), expected, "gradebook JSON");
    assert_eq!(index_failed(index), failed, "HTML index");
}

fn provenance() -> Provenance {
    Provenance {
        grader: "0.1.0".to_owned(),
        ghc: Some("9.0.2".to_owned()),
        fixtures: "0".repeat(64),
        compare: Compare::Exact,
        sandbox: "bubblewrap 0.8.0".to_owned(),
        date: None,
        assignment: Default::default(),
    }
}

const FUNCTIONS: [&str; 4] = [
    "onePlayerOneMove",
    "onePlayerManyMoves",
    "manyPlayersOneMove",
    "manyPlayersManyMoves",
];

/// A submission: each part compiled (0), missing (1) or failing to compile
/// (2); each case of `games` games per part passing (0), failing (1: wrong
/// output, 2: timed out, 3: crashed) or an ERROR (4), and maybe hidden.
fn submission(builds: [u8; 4], cases: &[(u8, bool)], games: usize) -> SubmissionReport {
    let builds: Vec<PartBuild> = (1..=4u8)
        .map(|part| PartBuild {
            part,
            source: PathBuf::from(format!("class/s/csce322assignment03part{part:02}.hs")),
            outcome: match builds[usize::from(part - 1)] {
                0 => BuildOutcome::Compiled,
                1 => BuildOutcome::Missing { found: None },
                _ => BuildOutcome::Failed(CompileError {
                    cause: CompileCause::Exited { code: 1 },
                    output: "x.hs:1:1: error".to_owned(),
                }),
            },
            duration: Duration::ZERO,
            exe: None,
        })
        .collect();
    let built: [bool; 4] = std::array::from_fn(|i| builds[i].compiled());
    let mut reports = Vec::new();
    for game in 0..games {
        for (i, function) in FUNCTIONS.iter().enumerate() {
            let (kind, hidden) = cases[game * 4 + i];
            let (status, failure) = if !built[i] {
                (
                    Status::Fail,
                    Some(Failure::NotRun {
                        why: NotRun::NotCompiled {
                            file: format!("csce322assignment03part{:02}.hs", i + 1),
                        },
                    }),
                )
            } else {
                match kind {
                    0 => (Status::Pass, None),
                    1 => (Status::Fail, Some(Failure::WrongOutput)),
                    2 => (
                        Status::Fail,
                        Some(Failure::TimeLimit {
                            clock: Clock::Cpu,
                            limit: Duration::from_secs(1),
                            again: false,
                        }),
                    ),
                    3 => (
                        Status::Fail,
                        Some(Failure::Signalled {
                            signal: 11,
                            via_shell: false,
                        }),
                    ),
                    _ => (Status::Error, None),
                }
            };
            reports.push(CaseReport {
                fixture: format!("fixtures/g{game}.cnf"),
                function: (*function).to_owned(),
                part: Some(i as u8 + 1),
                solution: format!("fixtures/g{game}.{function}.solution"),
                status,
                failure,
                reason: (status == Status::Error).then(|| "why".to_owned()),
                diff: None,
                stderr: None,
                duration: Duration::ZERO,
                hidden,
                relaxed: false,
                group: Default::default(),
                usage: None,
            });
        }
    }
    SubmissionReport {
        dir: PathBuf::from("class/s"),
        own_helpers: false,
        renamed: Vec::new(),
        shadows: Vec::new(),
        points: points_compiled(&reports, built, Default::default()),
        builds,
        cases: reports,
        sandboxed: true,
        compare: Compare::Exact,
        provenance: provenance(),
        refused: Vec::new(),
        nested: None,
        scattered: Vec::new(),
    }
}

/// The counts made from the data, not from any renderer.
fn expected_counts(report: &SubmissionReport) -> Counts {
    let compiled = report.builds.iter().filter(|b| b.compiled()).count();
    let with = |s: Status| report.cases.iter().filter(|c| c.status == s).count();
    [
        compiled + with(Status::Pass),
        (report.builds.len() - compiled) + with(Status::Fail),
        with(Status::Error),
        with(Status::Skipped),
    ]
}

fn options(report: &SubmissionReport) -> ReportOptions<'_> {
    ReportOptions {
        times: false,
        points: Some(&report.points),
        warning: None,
        extra: &[],
        compare: report.compare,
        student: false,
        provenance: Some(&report.provenance),
        shard: None,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Whatever builds and case verdicts a class has, every format of every
    /// student, and every format of the gradebook, count alike.
    #[test]
    fn every_format_counts_every_submission_alike(
        class in proptest::collection::vec(
            (
                proptest::array::uniform4(0u8..3),
                1usize..4,
                proptest::collection::vec((0u8..5, any::<bool>()), 12),
            ),
            1..4,
        )
    ) {
        let mut students: Vec<StudentResult> = Vec::new();
        let mut book = Vec::new();
        for (i, (builds, games, cases)) in class.iter().enumerate() {
            let report = submission(*builds, cases, *games);
            let name = format!("s{i}");
            let student = student_result(&name, Ok(report.clone()), None);
            let expected = expected_counts(&report);
            let tests = report.builds.len() + report.cases.len();
            let all = report.all_cases();
            check_student(
                &name,
                expected,
                tests,
                &cnf_grader::report::submission::student(&student, &provenance()),
                &cnf_grader::report::gradescope::student(&student),
                &cnf_grader::report::html::student(&student, None, &provenance()),
                &junit(&all, options(&report)),
                &json(&all, options(&report)),
            );
            book.push((name, expected[1], tests));
            students.push(student);
        }
        let rows = cnf_grader::model::class::rows(&students);
        check_book(
            &book,
            &gradebook::table(&rows, None),
            &gradebook::csv(&rows),
            &gradebook::shard_json(None, &rows, None, None),
            &cnf_grader::report::html::class_index(&rows, "class", None, &provenance()),
        );
    }
}

fn manifest() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

const CLASS: &str = "tests/submissions/class";
const FIXTURES: &str = "tests/submissions/fixtures";

/// The report of a run that graded (exit 0: everything passed, 1: something
/// failed), which must be UTF-8.
fn graded(run: &Run) -> String {
    assert!(
        matches!(run.status.code(), Some(0 | 1)),
        "{}",
        run.describe()
    );
    String::from_utf8(run.stdout_bytes.clone()).expect("a UTF-8 report")
}

/// The sample class, graded by the binary: each student's reports
/// (`--reports`: the human text and Gradescope's results; `--html`: the
/// page and the index; `submission --format junit` and `json`) and the
/// gradebook (table, CSV, JSON) give the same counts, and those are the
/// ones worked out by hand in `submission_cli.rs` (the failed cases) plus
/// the failed compilations.
#[test]
fn every_format_counts_every_sample_student_alike() {
    if !test_support::require(
        "every_format_counts_every_sample_student_alike",
        &[Tool::Ghc, Tool::Bwrap],
    ) {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let (cache, reports, pages, csv) = (
        test_support::grader_cache(),
        tmp.path().join("reports"),
        tmp.path().join("pages"),
        tmp.path().join("book.csv"),
    );
    let grader = |args: &[&str]| {
        Cli::new(env!("CARGO_BIN_EXE_cnf-grader"))
            .args(args)
            .args(["--timeout", "2s", "--no-times", "--cache"])
            .arg(&cache)
            .current_dir(manifest())
    };
    let path = |p: &Path| p.to_str().unwrap().to_owned();
    let json_book = graded(
        &grader(&[
            "submissions",
            CLASS,
            FIXTURES,
            "--format",
            "json",
            "--csv",
            &path(&csv),
            "--reports",
            &path(&reports),
            "--html",
            &path(&pages),
        ])
        .run(),
    );
    let table = graded(&grader(&["submissions", CLASS, FIXTURES, "--resume"]).run());
    // (student, passed, failed): 4 compilations and 20 cases each; a part
    // that did not build fails its compilation and its 5 cases.
    let by_hand: [(&str, usize); 6] = [
        ("correct", 0),
        ("loops", 1),
        ("missing-part", 6),
        ("no-compile", 6),
        ("no-diagonal", 3),
        ("own-helpers", 0),
    ];
    let mut book = Vec::new();
    for (student, failed) in by_hand {
        let read = |p: PathBuf| std::fs::read_to_string(p).unwrap();
        let dir = format!("{CLASS}/{student}");
        check_student(
            student,
            [24 - failed, failed, 0, 0],
            24,
            &read(reports.join(format!("{student}.txt"))),
            &read(reports.join(format!("{student}.results.json"))),
            &read(pages.join(format!("{student}.html"))),
            &graded(&grader(&["submission", &dir, FIXTURES, "--format", "junit"]).run()),
            &graded(&grader(&["submission", &dir, FIXTURES, "--format", "json"]).run()),
        );
        // The instructor's own view on the terminal counts alike.
        let human = graded(&grader(&["submission", &dir, FIXTURES]).run());
        assert_eq!(
            human_counts(&human),
            [24 - failed, failed, 0, 0],
            "{student}"
        );
        book.push((student.to_owned(), failed, 24));
    }
    check_book(
        &book,
        &table,
        &std::fs::read_to_string(&csv).unwrap(),
        &json_book,
        &std::fs::read_to_string(pages.join("index.html")).unwrap(),
    );
}
