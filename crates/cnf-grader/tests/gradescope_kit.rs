//! The Gradescope kit (`gradescope/run_autograder`) on a fake root: a
//! submission graded into `results/results.json` in Gradescope's format,
//! hidden tests hidden from the student, and a clear zero when no sandbox
//! can be made.

use std::fs;
use std::path::Path;
use std::process::Command;

const CLASS: &str = "tests/submissions/class";
const FIXTURES: &str = "tests/submissions/fixtures";

fn manifest() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// A fake `/autograder` with the student's files and the fixtures, two of
/// the games moved into `hidden/`.
fn fake_root(student: &str) -> tempfile::TempDir {
    let root = tempfile::tempdir().unwrap();
    let sub = root.path().join("submission");
    let fx = root.path().join("source/fixtures");
    fs::create_dir_all(&sub).unwrap();
    fs::create_dir_all(fx.join("hidden")).unwrap();
    for e in fs::read_dir(manifest().join(CLASS).join(student))
        .unwrap()
        .flatten()
    {
        fs::copy(e.path(), sub.join(e.file_name())).unwrap();
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

fn run_autograder(root: &Path, path: Option<&str>) -> serde_json::Value {
    let mut command = Command::new("bash");
    command
        .arg(manifest().join("../../gradescope/run_autograder"))
        .env("AUTOGRADER_ROOT", root)
        .env("CNF_GRADER", env!("CARGO_BIN_EXE_cnf-grader"))
        .env("CNF_GRADER_ARGS", "--timeout 5s");
    if let Some(path) = path {
        command.env("PATH", path);
    }
    let out = command.output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = fs::read_to_string(root.join("results/results.json")).unwrap();
    serde_json::from_str(&text).unwrap()
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
    let doc = run_autograder(root.path(), None);
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
    for tool in [
        "sh", "bash", "find", "dirname", "head", "mkdir", "cat", "python3",
    ] {
        if let Some(p) = std::env::split_paths(&std::env::var_os("PATH").unwrap())
            .map(|d| d.join(tool))
            .find(|p| p.is_file())
        {
            std::os::unix::fs::symlink(p, bin.path().join(tool)).unwrap();
        }
    }
    let root = fake_root("correct");
    let doc = run_autograder(root.path(), Some(bin.path().to_str().unwrap()));
    assert_eq!(doc["score"], 0.0);
    assert!(
        doc["output"]
            .as_str()
            .unwrap()
            .contains("cannot set up the sandbox"),
        "{doc}"
    );
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
    let out = Command::new(env!("CARGO_BIN_EXE_cnf-grader"))
        .arg("submissions")
        .arg(&class)
        .arg(&fixtures)
        .arg("--reports")
        .arg(&reports)
        .arg("--cache")
        .arg(root.path().join("cache"))
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = fs::read_to_string(reports.join("ann.txt")).unwrap();
    assert!(text.contains(
        "/hidden/test03.cnf onePlayerManyMoves: hidden test (its input, expected output and diff are not shown)"
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
    let own = Command::new(env!("CARGO_BIN_EXE_cnf-grader"))
        .arg("submission")
        .arg(class.join("ann"))
        .arg(&fixtures)
        .arg("--cache")
        .arg(root.path().join("cache"))
        .output()
        .unwrap();
    let own = String::from_utf8_lossy(&own.stdout);
    assert!(
        own.contains("--- expected: ") && own.contains("hidden/test03.onePlayerManyMoves.solution"),
        "{own}"
    );
}
