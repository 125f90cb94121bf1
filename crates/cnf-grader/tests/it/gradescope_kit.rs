//! The Gradescope kit (`gradescope/run_autograder`) on a fake root: a
//! submission graded into `results/results.json` in Gradescope's format,
//! hidden tests hidden from the student, a results.json whatever happens
//! to the grader (missing, crashing, killed), a clear zero for the student
//! when no sandbox can be made with the details for the instructor only,
//! the protected folders closed, and `execution_time` the run's wall time.

use std::fs;
use std::os::unix::fs::PermissionsExt as _;
use std::path::Path;
use std::time::{Duration, Instant};

use test_support::Cli;

const CLASS: &str = "tests/submissions/class";
const FIXTURES: &str = "tests/submissions/fixtures";

/// What the kit tells a student whom it could not grade (run_autograder's
/// trap, and the grader's own `setup_failed`): no details, no advice meant
/// for the instructor, nothing a browser would take for markup.
fn assert_for_the_student(output: &str) {
    assert!(
        output.contains("not with your files") && output.contains("instructor"),
        "{output}"
    );
    for instructor_only in ["--", "<", ">", "apt-get", "bwrap", "/autograder", "sandbox"] {
        assert!(
            !output.contains(instructor_only),
            "{instructor_only:?} in {output}"
        );
    }
}

fn manifest() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// A fake `/autograder` with the student's files (under `folder` of the
/// submission when given; none when `student` is `None`) and the fixtures,
/// two of the games moved into `hidden/`.
fn fake_root_in(student: Option<&str>, folder: Option<&str>) -> tempfile::TempDir {
    let root = tempfile::tempdir().unwrap();
    let sub = root.path().join("submission");
    let files = folder.map_or(sub.clone(), |f| sub.join(f));
    let fx = root.path().join("source/fixtures");
    fs::create_dir_all(&files).unwrap();
    fs::create_dir_all(fx.join("hidden")).unwrap();
    if let Some(student) = student {
        for e in fs::read_dir(manifest().join(CLASS).join(student))
            .unwrap()
            .flatten()
        {
            fs::copy(e.path(), files.join(e.file_name())).unwrap();
        }
    }
    for e in fs::read_dir(manifest().join(FIXTURES)).unwrap().flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let to = if name.starts_with("test03.") || name.starts_with("four-diagonal-up.") {
            fx.join("hidden").join(&name)
        } else {
            fx.join(&name)
        };
        fs::copy(e.path(), to).unwrap();
    }
    root
}

fn fake_root(student: &str) -> tempfile::TempDir {
    fake_root_in(Some(student), None)
}

/// `run_autograder` on `root` with the built grader and `--timeout 5s` as
/// `CNF_GRADER_ARGS` (a later `.env` of either replaces it).
fn kit(root: &Path) -> Cli {
    Cli::new("bash")
        .arg(manifest().join("../../gradescope/run_autograder"))
        .env("AUTOGRADER_ROOT", root)
        .env("CNF_GRADER", env!("CARGO_BIN_EXE_cnf-grader"))
        .env("CNF_GRADER_ARGS", "--timeout 5s")
}

/// The results.json of `root`.
fn results(root: &Path) -> serde_json::Value {
    let text = fs::read_to_string(root.join("results/results.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

/// A results.json that scores nothing, lists no test and tells the
/// student only that the autograder failed.
fn assert_zero_for_the_student(doc: &serde_json::Value) {
    assert_eq!(doc["score"], 0.0, "{doc}");
    assert!(doc["tests"].as_array().is_some_and(Vec::is_empty), "{doc}");
    assert!(doc["execution_time"].is_u64(), "{doc}");
    assert_eq!(doc["visibility"], "visible");
    assert_eq!(doc["stdout_visibility"], "hidden");
    assert_for_the_student(doc["output"].as_str().unwrap());
}

/// A stand-in grader: a shell script in its own folder.
fn script(dir: &Path, body: &str) -> std::path::PathBuf {
    let path = dir.join("cnf-grader");
    fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
    fs::set_permissions(&path, fs::Permissions::from_mode(0o755)).unwrap();
    path
}

#[test]
fn a_missing_grader_still_gives_the_student_a_results_json() {
    let root = fake_root("correct");
    let out = kit(root.path())
        .env("CNF_GRADER", "/nonexistent/cnf-grader")
        .run();
    out.code(0);
    let doc = results(root.path());
    assert_zero_for_the_student(&doc);
    assert!(doc["execution_time"].as_u64().unwrap() <= 1, "{doc}");
    // The instructor reads why on standard output.
    out.stdout_has("/nonexistent/cnf-grader")
        .stdout_has("wrote no results.json");
    // No temporary file left beside it.
    let left: Vec<_> = fs::read_dir(root.path().join("results"))
        .unwrap()
        .flatten()
        .map(|e| e.file_name())
        .collect();
    assert_eq!(left, ["results.json"]);
}

#[test]
fn a_crashing_grader_still_gives_the_student_a_results_json() {
    let bin = tempfile::tempdir().unwrap();
    // Says something, then dies of a segmentation fault.
    let grader = script(bin.path(), "echo 'about to crash' >&2; kill -SEGV $$");
    let root = fake_root("correct");
    let out = kit(root.path()).env("CNF_GRADER", &grader).run();
    out.code(0);
    assert_zero_for_the_student(&results(root.path()));
    out.stdout_has("about to crash")
        .stdout_has("exit status 139");
}

#[test]
fn a_results_json_left_by_an_earlier_run_is_not_taken_for_this_one() {
    let bin = tempfile::tempdir().unwrap();
    let grader = script(bin.path(), "exit 4");
    let root = fake_root("correct");
    fs::create_dir_all(root.path().join("results")).unwrap();
    fs::write(
        root.path().join("results/results.json"),
        r#"{"score": 100.0, "tests": []}"#,
    )
    .unwrap();
    kit(root.path()).env("CNF_GRADER", &grader).run().code(0);
    assert_zero_for_the_student(&results(root.path()));
}

/// Exit code 3 (the grader's own failure kept it from grading): no
/// results.json at all, even one saved as grading went, and the kit exits
/// 3, so Gradescope records no score rather than a zero.
#[test]
fn a_grader_that_could_not_grade_through_its_own_failure_posts_no_score() {
    let bin = tempfile::tempdir().unwrap();
    let grader = script(
        bin.path(),
        "out=; while [ $# -gt 0 ]; do [ \"$1\" = --output ] && out=$2; shift; done; \
         printf '{\"score\": 20.0, \"tests\": []}' > \"$out\"; \
         echo 'error: not graded: part 1: the grader could not keep the executable' >&2; exit 3",
    );
    let root = fake_root("correct");
    let out = kit(root.path()).env("CNF_GRADER", &grader).run();
    out.code(3)
        .stdout_has("error: not graded: part 1: the grader could not keep the executable")
        .stdout_has("no results.json, so Gradescope records no score");
    assert!(!root.path().join("results/results.json").exists());
    assert!(!root.path().join("results/results.json.tmp").exists());
}

#[test]
fn a_run_stopped_by_gradescope_s_timeout_still_writes_results_json() {
    let bin = tempfile::tempdir().unwrap();
    let grader = script(bin.path(), "exec sleep 1000");
    let root = fake_root("correct");
    let mut child = kit(root.path())
        .env("CNF_GRADER", &grader)
        .env_remove("CNF_GRADER_ARGS")
        .spawn_quiet();
    // Wait until the stand-in runs, then stop the kit as a timeout does.
    let results_dir = root.path().join("results");
    let deadline = Instant::now() + Duration::from_secs(20);
    while !results_dir.is_dir() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    std::thread::sleep(Duration::from_millis(300));
    let killed = Instant::now();
    Cli::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .run()
        .code(0);
    let status = child.wait().unwrap();
    assert!(killed.elapsed() < Duration::from_secs(5), "{status:?}");
    assert_eq!(status.code(), Some(143));
    assert_zero_for_the_student(&results(root.path()));
}

#[test]
fn the_kit_closes_the_source_the_results_and_the_cache_to_everyone_but_root() {
    let bin = tempfile::tempdir().unwrap();
    let grader = script(bin.path(), "exit 0");
    let root = fake_root("correct");
    for dir in ["source", "submission"] {
        fs::set_permissions(root.path().join(dir), fs::Permissions::from_mode(0o755)).unwrap();
    }
    kit(root.path()).env("CNF_GRADER", &grader).run().code(0);
    for dir in ["source", "results", "cache"] {
        let mode = fs::metadata(root.path().join(dir))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o700, "{dir}: {mode:o}");
    }
}

#[test]
fn the_kit_writes_gradescope_results_with_hidden_tests_hidden() {
    if !test_support::require(
        "gradescope kit",
        &[test_support::Tool::Ghc, test_support::Tool::Bwrap],
    ) {
        return;
    }
    let root = fake_root("no-diagonal");
    kit(root.path()).run().code(0);
    let doc = results(root.path());
    // Top level: Gradescope's fields with their types.
    assert!(doc["score"].is_number());
    assert!(doc["execution_time"].is_u64());
    assert!(doc["output"].is_string());
    assert_eq!(doc["visibility"], "visible");
    assert_eq!(doc["stdout_visibility"], "hidden");
    let tests = doc["tests"].as_array().unwrap();
    // 4 compilation tests + 20 cases.
    assert_eq!(tests.len(), 24);
    for t in tests {
        for field in ["name", "number", "status", "output", "visibility"] {
            assert!(t[field].is_string(), "{field} of {t}");
        }
        assert!(t["score"].is_number() && t["max_score"].is_number(), "{t}");
    }
    // The assignment's allocation: 100 in all, and the score is the sum.
    let sum = |f: &str| tests.iter().map(|t| t[f].as_f64().unwrap()).sum::<f64>();
    assert!((sum("max_score") - 100.0).abs() < 1e-9);
    assert!((sum("score") - doc["score"].as_f64().unwrap()).abs() < 1e-9);
    // no-diagonal scores 92 (see submission_cli.rs).
    assert!(
        (doc["score"].as_f64().unwrap() - 92.0).abs() < 1e-9,
        "{doc}"
    );
    // Its failing test03 case is hidden: no diff, no expected output.
    let hidden: Vec<_> = tests
        .iter()
        .filter(|t| t["name"].as_str().unwrap().contains("hidden/"))
        .collect();
    assert_eq!(hidden.len(), 8);
    // Tests are named by the fixture's path in the kit, not the autograder's.
    for t in tests
        .iter()
        .filter(|t| !t["name"].as_str().unwrap().ends_with(": compilation"))
    {
        let name = t["name"].as_str().unwrap();
        assert!(name.contains(": fixtures/"), "{name}");
    }
    for t in &hidden {
        assert_eq!(t["visibility"], "after_published");
        let output = t["output"].as_str().unwrap();
        assert!(
            !output.contains("---") && !output.contains("\"Result\""),
            "{output}"
        );
    }
    // Its part 2 fails on test03 and four-diagonal-up, both hidden here.
    let failed_hidden: Vec<&str> = hidden
        .iter()
        .filter(|t| t["status"] == "failed")
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(failed_hidden.len(), 2, "{failed_hidden:?}");
    assert!(
        failed_hidden
            .iter()
            .all(|n| n.ends_with(" onePlayerManyMoves")),
        "{failed_hidden:?}"
    );
    // A visible failure shows its diff.
    let visible_fail = tests
        .iter()
        .find(|t| t["status"] == "failed" && t["visibility"] == "visible")
        .unwrap();
    assert!(
        visible_fail["output"]
            .as_str()
            .unwrap()
            .contains("--- expected:"),
        "{visible_fail}"
    );
}

#[test]
fn without_a_sandbox_the_kit_scores_nothing_and_says_why() {
    // A PATH with the shell's tools but no bwrap.
    let bin = tempfile::tempdir().unwrap();
    for tool in ["sh", "bash", "mkdir", "chmod", "rm", "mv", "cat"] {
        if let Some(p) = std::env::split_paths(&std::env::var_os("PATH").unwrap())
            .map(|d| d.join(tool))
            .find(|p| p.is_file())
        {
            std::os::unix::fs::symlink(p, bin.path().join(tool)).unwrap();
        }
    }
    let root = fake_root("correct");
    // Bubblewrap asked for: as root the user backend would sandbox without it.
    let out = kit(root.path())
        .env("PATH", bin.path())
        .env(
            "CNF_GRADER_ARGS",
            "--timeout 5s --sandbox-backend bubblewrap",
        )
        .run();
    out.code(0);
    let doc = results(root.path());
    // The student is told the autograder failed, not how to fix it.
    assert_zero_for_the_student(&doc);
    // The instructor reads what went wrong, and what to do, on standard output.
    out.stdout_has("cannot set up the sandbox");
}

#[test]
fn a_class_s_student_reports_hide_the_hidden_tests_and_the_terminal_does_not() {
    if !test_support::require(
        "student reports",
        &[test_support::Tool::Ghc, test_support::Tool::Bwrap],
    ) {
        return;
    }
    let root = fake_root("no-diagonal");
    let class = root.path().join("class");
    fs::create_dir_all(&class).unwrap();
    fs::rename(root.path().join("submission"), class.join("ann")).unwrap();
    let reports = root.path().join("reports");
    let fixtures = root.path().join("source/fixtures");
    Cli::new(env!("CARGO_BIN_EXE_cnf-grader"))
        .arg("submissions")
        .arg(&class)
        .arg(&fixtures)
        .arg("--reports")
        .arg(&reports)
        .arg("--cache")
        .arg(root.path().join("cache"))
        .run()
        .code(0);
    let text = fs::read_to_string(reports.join("ann.txt")).unwrap();
    assert!(text.contains(
        "\nFAIL hidden/test03.cnf onePlayerManyMoves: hidden test (its input, expected output and diff are not shown)"
    ), "{text}");
    assert!(
        !text.contains("hidden/test03.onePlayerManyMoves.solution"),
        "{text}"
    );
    // A visible failure keeps its diff.
    assert!(text.contains("--- expected: "), "{text}");
    let results: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(reports.join("ann.results.json")).unwrap())
            .unwrap();
    assert!((results["score"].as_f64().unwrap() - 92.0).abs() < 1e-9);
    // The instructor's own view, on the terminal, shows everything.
    Cli::new(env!("CARGO_BIN_EXE_cnf-grader"))
        .arg("submission")
        .arg(class.join("ann"))
        .arg(&fixtures)
        .arg("--cache")
        .arg(root.path().join("cache"))
        .run()
        .stdout_has("--- expected: ")
        .stdout_has("hidden/test03.onePlayerManyMoves.solution");
}

#[test]
fn a_student_who_uploads_nothing_scores_zero_with_every_part_missing() {
    if !test_support::require(
        "gradescope kit, empty submission",
        &[test_support::Tool::Ghc, test_support::Tool::Bwrap],
    ) {
        return;
    }
    let root = fake_root_in(None, None);
    kit(root.path()).run().code(0);
    let doc = results(root.path());
    assert_eq!(doc["score"], 0.0, "{doc}");
    let tests = doc["tests"].as_array().unwrap();
    assert_eq!(tests.len(), 24, "{doc}");
    assert!(tests.iter().all(|t| t["status"] == "failed"), "{doc}");
    for part in 1..=4 {
        let compile = &tests
            .iter()
            .find(|t| t["number"] == format!("{part}.0"))
            .unwrap()["output"];
        assert!(
            compile
                .as_str()
                .unwrap()
                .contains(&format!("has no csce322assignment03part0{part}.hs")),
            "{compile}"
        );
    }
}

#[test]
fn a_student_whose_files_are_in_a_folder_is_graded_and_execution_time_is_the_wall_time() {
    if !test_support::require(
        "gradescope kit, files in a folder",
        &[test_support::Tool::Ghc, test_support::Tool::Bwrap],
    ) {
        return;
    }
    let root = fake_root_in(Some("correct"), Some("my work"));
    let wall = kit(root.path()).run().code(0).elapsed.as_secs_f64();
    let doc = results(root.path());
    assert!(
        (doc["score"].as_f64().unwrap() - 100.0).abs() < 1e-9,
        "{doc}"
    );
    // The student is told which folder was graded.
    let output = doc["output"].as_str().unwrap();
    assert!(
        output.contains("the part files are in the sub-folder my work"),
        "{output}"
    );
    // The grader's wall-clock time in whole seconds (rounded down): never
    // more than the kit's own wall time, which adds the kit's set-up
    // around the grader (seconds on a busy machine); not the cases'
    // durations added up (several run at once, so their sum is larger
    // than the run's wall time); and not nothing.
    let reported = doc["execution_time"].as_u64().unwrap() as f64;
    assert!(
        reported <= wall && reported + 1.0 >= wall / 2.0,
        "{reported} s against the kit's {wall:.2} s"
    );
}

/// A part that compiles and never ends: it reads the game as the course's
/// template does, then counts for ever in constant memory.
fn looping_part(function: &str) -> String {
    format!(
        "-- Compiles, then loops for ever ({function}).\n\
         import Prelude\n\
         import System.Environment ( getArgs )\n\
         import Data.List\n\
         import Helpers\n\
         \n\
         count :: Int -> Int\n\
         count n = if n < 0 then n else count (n + 1)\n\
         \n\
         main = do\n\
         \x20    args <- getArgs\n\
         \x20    filename <- readFile (head args)\n\
         \x20    (game,moves) <- readConnectFourFile filename\n\
         \x20    print \"Result\"\n\
         \x20    print (count (length game + length moves))\n"
    )
}

/// A fake root whose submission's four parts compile and loop for ever,
/// graded on the project's own fixtures (26 cases a part and more).
fn looping_root() -> tempfile::TempDir {
    let root = fake_root_in(None, None);
    let fx = root.path().join("source/fixtures");
    fs::remove_dir_all(&fx).unwrap();
    copy_tree(&manifest().join("../../fixtures"), &fx);
    let functions = [
        "onePlayerOneMove",
        "onePlayerManyMoves",
        "manyPlayersOneMove",
        "manyPlayersManyMoves",
    ];
    for (i, function) in functions.iter().enumerate() {
        fs::write(
            root.path()
                .join(format!("submission/csce322assignment03part{:02}.hs", i + 1)),
            looping_part(function),
        )
        .unwrap();
    }
    root
}

/// Copies the fixture files (`.cnf`, `.solution`) of `from` into `to`.
fn copy_tree(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for e in fs::read_dir(from).unwrap().flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        if e.file_type().unwrap().is_dir() {
            if name != "tools" {
                copy_tree(&e.path(), &to.join(&name));
            }
        } else if name.ends_with(".cnf") || name.ends_with(".solution") {
            fs::copy(e.path(), to.join(&name)).unwrap();
        }
    }
}

/// The tests of a results.json whose name starts with `prefix`.
fn tests_named<'a>(doc: &'a serde_json::Value, prefix: &str) -> Vec<&'a serde_json::Value> {
    doc["tests"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["name"].as_str().unwrap().starts_with(prefix))
        .collect()
}

/// Whether a case of a run with `--timeout 1s` ended at its limit: the CPU
/// limit, or on a very busy machine the wall clock's backstop.
fn timed_out_at_1s(test: &serde_json::Value) -> bool {
    let output = test["output"].as_str().unwrap();
    output.starts_with("used more than 1s of CPU time")
        || output.starts_with("still running after 5s of wall-clock time")
}

#[test]
fn a_submission_that_loops_keeps_its_compilation_points_within_the_budget() {
    if !test_support::require(
        "a_submission_that_loops_keeps_its_compilation_points_within_the_budget",
        &[test_support::Tool::Ghc, test_support::Tool::Bwrap],
    ) {
        return;
    }
    let root = looping_root();
    let started = Instant::now();
    let out = kit(root.path())
        .env("CNF_GRADER_ARGS", "--timeout 1s")
        .timeout(Duration::from_secs(600))
        .run();
    out.code(0);
    let took = started.elapsed();
    let doc = results(root.path());
    // The four compilations' 40 points, and nothing else.
    assert_eq!(doc["score"], 40.0, "{doc}");
    for part in 1..=4 {
        let compile = tests_named(&doc, &format!("Part {part} ("));
        assert_eq!(compile.len(), 1);
        assert_eq!(compile[0]["status"], "passed");
        assert_eq!(compile[0]["score"], 10.0);
        // The part's cases: base, edge and extra credit alike (the row is
        // counted over all of them, in fixture order).
        let cases: Vec<_> = doc["tests"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|t| {
                let name = t["name"].as_str().unwrap();
                name.starts_with(&format!("Part {part}: "))
                    || name.contains(&format!(", part {part}: "))
            })
            .collect();
        let timed_out = cases.iter().filter(|t| timed_out_at_1s(t)).count();
        let not_run = cases
            .iter()
            .filter(|t| {
                t["output"].as_str().unwrap() == "not run: the part timed out on 3 cases in a row"
            })
            .count();
        // Three time-outs in a row, counted in fixture order, stop the
        // part, whatever the number of cores: every other case is not run.
        assert_eq!(timed_out, 3, "part {part}: {timed_out} time-outs");
        assert_eq!(timed_out + not_run, cases.len(), "part {part}");
    }
    let output = doc["output"].as_str().unwrap();
    // The note says which limit stopped which part.
    assert!(
        output.starts_with("Some tests were not run: part 1 stopped after 3 time-outs in a row ("),
        "{output}"
    );
    for part in 2..=4 {
        assert!(
            output.contains(&format!(
                "; part {part} stopped after 3 time-outs in a row ("
            )),
            "{output}"
        );
    }
    assert!(!output.contains("budget"), "{output}");
    // The student reads no provenance; the instructor's stdout has it.
    assert!(
        !output.contains("sandbox") && !output.contains("cnf-grader"),
        "{output}"
    );
    assert!(
        doc["extra_data"]["provenance"]["sandbox"].is_string(),
        "{doc}"
    );
    out.stdout_has("cnf-grader ");
    // The default budget is 8 minutes; a loop costs 3 time-outs a part.
    assert!(took < Duration::from_secs(480), "took {took:?}");
}

/// A spent budget stops grading where it is: the cases not reached say so,
/// and the compilations' points stay.
#[test]
fn a_spent_budget_keeps_the_compilation_points_and_says_why_the_rest_did_not_run() {
    if !test_support::require(
        "a_spent_budget_keeps_the_compilation_points_and_says_why_the_rest_did_not_run",
        &[test_support::Tool::Ghc, test_support::Tool::Bwrap],
    ) {
        return;
    }
    let root = looping_root();
    let started = Instant::now();
    // No part stops on its own time-outs, so only the budget can end it.
    let out = kit(root.path())
        .env("CNF_GRADER_ARGS", "--timeout 1s")
        .env("CNF_BUDGET", "20s")
        .env("CNF_PART_TIMEOUTS", "1000")
        .timeout(Duration::from_secs(600))
        .run();
    out.code(0);
    let took = started.elapsed();
    let doc = results(root.path());
    assert_eq!(doc["score"], 40.0, "{doc}");
    let cases: Vec<_> = (1..=4)
        .flat_map(|part| tests_named(&doc, &format!("Part {part}: ")))
        .collect();
    let over = cases
        .iter()
        .filter(|t| t["output"] == "not run: the submission's time budget was spent")
        .count();
    let timed_out = cases.iter().filter(|t| timed_out_at_1s(t)).count();
    // Every case either ran into its limit or was not run for the budget;
    // most of them were not run.
    assert!(
        over > cases.len() / 2,
        "{over} not run for the budget\n{doc}"
    );
    assert_eq!(over + timed_out, cases.len(), "{doc}");
    assert!(
        doc["output"]
            .as_str()
            .unwrap()
            .starts_with("Some tests were not run"),
        "{doc}"
    );
    // The compilations, the budget, and the cases under way when it ended
    // (each at most 5 s, two at a time, run twice at worst).
    assert!(took < Duration::from_secs(240), "took {took:?}");
}

#[test]
fn a_kit_stopped_mid_run_keeps_what_was_graded() {
    if !test_support::require(
        "a_kit_stopped_mid_run_keeps_what_was_graded",
        &[test_support::Tool::Ghc, test_support::Tool::Bwrap],
    ) {
        return;
    }
    let root = looping_root();
    let mut child = kit(root.path())
        .env("CNF_GRADER_ARGS", "--timeout 2s")
        .spawn_quiet();
    // Wait for the first save (after the compilations), then stop the kit
    // as Gradescope's timeout does.
    let file = root.path().join("results/results.json");
    let deadline = Instant::now() + Duration::from_secs(300);
    while !file.exists() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(100));
    }
    assert!(file.exists(), "no results.json after 300 s");
    std::thread::sleep(Duration::from_millis(500));
    Cli::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .run()
        .code(0);
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(143));
    let doc = results(root.path());
    assert_eq!(doc["score"], 40.0, "{doc}");
    let not_reached = tests_named(&doc, "Part ")
        .into_iter()
        .filter(|t| t["output"] == "not run: grading stopped before this case")
        .count();
    assert!(not_reached > 0, "{doc}");
    assert!(
        doc["output"]
            .as_str()
            .unwrap()
            .starts_with("Some tests were not run"),
        "{doc}"
    );
}

/// With `AUTOGRADER_ROOT` set, `setup.sh` writes nothing outside it: the
/// grader goes to `$AUTOGRADER_ROOT/bin` (not `/usr/local/bin`) and no
/// `apt-get` runs; `run_autograder` then finds the grader there.
#[test]
fn setup_installs_into_the_autograder_root_when_it_is_set() {
    let root = fake_root("correct");
    let bin = root.path().join("source/bin");
    fs::create_dir_all(&bin).unwrap();
    fs::copy(env!("CARGO_BIN_EXE_cnf-grader"), bin.join("cnf-grader")).unwrap();
    // An apt-get that only says it was run.
    let stubs = tempfile::tempdir().unwrap();
    let apt = stubs.path().join("apt-get");
    fs::write(
        &apt,
        format!("#!/bin/sh\ntouch '{}/apt-ran'\n", stubs.path().display()),
    )
    .unwrap();
    fs::set_permissions(&apt, fs::Permissions::from_mode(0o755)).unwrap();
    let system = Path::new("/usr/local/bin/cnf-grader");
    let there_before = system.exists();
    let path = format!(
        "{}:{}",
        stubs.path().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = Cli::new("bash")
        .arg(manifest().join("../../gradescope/setup.sh"))
        .env("AUTOGRADER_ROOT", root.path())
        .env("PATH", &path)
        .run();
    out.code(0).stdout_has("cnf-grader ");
    let installed = root.path().join("bin/cnf-grader");
    assert!(installed.is_file(), "no {}", installed.display());
    assert!(!stubs.path().join("apt-ran").exists(), "apt-get ran");
    if !there_before {
        assert!(!system.exists(), "{} was written", system.display());
    }
    // run_autograder uses that grader when CNF_GRADER is not given.
    let run = Cli::new("bash")
        .arg(manifest().join("../../gradescope/run_autograder"))
        .env("AUTOGRADER_ROOT", root.path())
        .env_remove("CNF_GRADER")
        .env("PATH", "/usr/bin:/bin")
        .env("CNF_GRADER_ARGS", "--no-sandbox --timeout 5s")
        .run();
    // The grader ran and wrote results.json (no PATH holds a cnf-grader).
    run.code(0).stdout_lacks("wrote no results.json");
    assert!(results(root.path())["score"].is_number());
}

/// The README's recipe: `gradescope/try-locally` grades a submission with
/// the kit in a temporary folder, prints its results.json and removes it.
#[test]
fn try_locally_runs_the_kit_in_a_temporary_folder() {
    if !test_support::require(
        "try_locally_runs_the_kit_in_a_temporary_folder",
        &[test_support::Tool::Ghc, test_support::Tool::Bwrap],
    ) {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let out = Cli::new("bash")
        .arg(manifest().join("../../gradescope/try-locally"))
        .arg(manifest().join(CLASS).join("correct"))
        .arg(manifest().join(FIXTURES))
        .env("CNF_GRADER", env!("CARGO_BIN_EXE_cnf-grader"))
        .env("TMPDIR", tmp.path())
        .timeout(Duration::from_secs(600))
        .run();
    out.code(0)
        .stdout_has("\"score\": 100.0")
        .stdout_has("run_autograder: the grader ended (exit status 0)");
    // Nothing left behind.
    assert_eq!(fs::read_dir(tmp.path()).unwrap().count(), 0);
}
