//! What a grading run must get right whatever the fixtures and the command:
//! a broken fixture is an ERROR left out of the points, a game with no
//! `.solution` is reported, a command that cannot run or a bad template is
//! a usage error, and output paths are checked before any grading.

use std::fs;
use std::path::Path;

use test_support::Cli;

/// `cnf-grader ARGS` run in `dir`.
fn grader_in(dir: &Path, args: &[&str]) -> Cli {
    Cli::new(env!("CARGO_BIN_EXE_cnf-grader"))
        .expect_text()
        .args(args)
        .current_dir(dir)
}

/// The spec's test03 with its four results (spec §5), in `dir/games`.
fn spec_tree(dir: &Path) {
    let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/exec-tree");
    fs::create_dir(dir.join("games")).unwrap();
    for entry in fs::read_dir(from).unwrap().flatten() {
        fs::copy(entry.path(), dir.join("games").join(entry.file_name())).unwrap();
    }
}

#[test]
fn broken_fixtures_are_errors_left_out_of_the_points_and_a_lone_game_is_reported() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    spec_tree(d);
    let g = d.join("games");
    // Empty; not in the result format; CRLF (no program prints it); one good.
    fs::write(g.join("test03.onePlayerOneMove.solution"), "").unwrap();
    fs::write(g.join("test03.onePlayerManyMoves.solution"), "hello\n").unwrap();
    let crlf = fs::read_to_string(g.join("test03.manyPlayersOneMove.solution"))
        .unwrap()
        .replace('\n', "\r\n");
    fs::write(g.join("test03.manyPlayersOneMove.solution"), crlf).unwrap();
    fs::copy(g.join("test03.cnf"), g.join("lone.cnf")).unwrap();
    let out = grader_in(d, &["grade", "games", "--no-times", "--points"]).run();
    out.code(1);
    let report = &out.stdout;
    for line in [
        "ERROR games/lone.cnf -: games/lone.cnf has no NAME.FUNCTION.solution file next to it, so it grades nothing",
        "ERROR games/test03.cnf onePlayerOneMove: broken fixture: games/test03.onePlayerOneMove.solution is not in the result format:\ngames/test03.onePlayerOneMove.solution:1:1: expected the line \"Result\", found an empty file",
        "ERROR games/test03.cnf onePlayerManyMoves: broken fixture: games/test03.onePlayerManyMoves.solution is not in the result format:\ngames/test03.onePlayerManyMoves.solution:1:1: expected a row as a quoted string",
        "ERROR games/test03.cnf manyPlayersOneMove: broken fixture: games/test03.manyPlayersOneMove.solution is not exactly what print writes (line 1 differs",
    ] {
        assert!(report.contains(line), "no {line:?} in\n{report}");
    }
    assert!(
        report.contains("left out of every program's points"),
        "{report}"
    );
    // Part 4's one good case passes and gets its full share; no ERROR
    // counts against anyone.
    assert!(
        report.contains("4     manyPlayersManyMoves        10/10    (1/1) 20.00/20      30.00/30"),
        "{report}"
    );
    assert!(
        report.ends_with("\n1 passed, 0 failed, 4 errors\n"),
        "{report}"
    );
}

#[test]
fn a_command_that_cannot_run_or_a_bad_template_is_a_usage_error() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    spec_tree(d);
    let sandbox = test_support::sandbox_or_not("exec usage errors");
    let exec = |command: &str| {
        let mut args = vec!["grade", "games", "--exec", command];
        args.extend(sandbox.iter().map(String::as_str));
        grader_in(d, &args).run()
    };
    exec("")
        .code(2)
        .stderr_has("--exec: the command is empty; give the program to run");
    exec("./p{part} {file}").code(2).stderr_has(
        "--exec: unknown placeholder {file} in \"./p{part} {file}\"; the placeholders are {part}, {function}, {input}",
    );
    exec("./no-such-program-here {input}")
        .code(2)
        .stderr_has(
            "--exec: part 1's command \"./no-such-program-here {input}\" could not be run on \
             games/test03.cnf (it said: sh: 1: ./no-such-program-here: not found)",
        )
        // No report for a usage error.
        .stdout_is("");
}

#[test]
fn output_paths_are_checked_before_grading() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    spec_tree(d);
    grader_in(
        d,
        &["grade", "games", "--output", "no/such/folder/report.xml"],
    )
    .run()
    .code(2)
    .stderr_is(
        "error: --output no/such/folder/report.xml: the folder no/such/folder does not exist\n",
    );
    grader_in(d, &["grade", "games", "--output", "games"])
        .run()
        .code(2)
        .stderr_is("error: --output games: is a folder; give the path of a file to write\n");
    // A class is refused before GHC or the sandbox is even looked for.
    fs::create_dir_all(d.join("class/ann")).unwrap();
    // (A missing --csv folder is made, as --reports and --html make
    // theirs: submission_cli.rs checks that.)
    for (flag, path, says) in [
        ("--csv", "games", "is a folder"),
        ("--reports", "games/test03.cnf", "is a file; give a folder"),
    ] {
        grader_in(
            d,
            &[
                "submissions",
                "class",
                "games",
                flag,
                path,
                "--ghc",
                "/no/such/ghc",
            ],
        )
        .run()
        .code(2)
        .stderr_starts(&format!("error: {flag} {path}: {says}"));
    }
}

#[test]
fn grade_exec_hides_the_fixtures_and_the_working_folder_is_read_only() {
    if !test_support::require(
        "grade_exec_hides_the_fixtures_and_the_working_folder_is_read_only",
        &[test_support::Tool::Bwrap],
    ) {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path().canonicalize().unwrap();
    spec_tree(&d);
    // A command that names a fixture file, once {function} is filled in,
    // is refused before anything runs.
    let named = "cat games/test03.{function}.solution";
    grader_in(&d, &["grade", "games", "--exec", named])
        .run()
        .code(2)
        .stdout_is("")
        .stderr_has(&format!(
            "{}/games/test03.onePlayerOneMove.solution would be visible to the programs under \
             test, but it is inside {}/games, which they must not see",
            d.display(),
            d.display()
        ));
    // One that reaches it without naming it finds nothing there.
    let cheat = format!(
        "touch written; cat games/test03.$(echo {{function}}).solution || cat {}/games/test03.$(echo {{function}}).solution",
        d.display()
    );
    let o = grader_in(&d, &["grade", "games", "--no-times", "--exec", &cheat]).run();
    assert!(
        o.stdout.ends_with("\n0 passed, 4 failed\n"),
        "{}",
        o.describe()
    );
    o.stdout_has("No such file or directory")
        .stdout_has("Read-only file system");
    assert!(!d.join("written").exists());
    // The same cheat outside the sandbox passes: the test checks the sandbox.
    let o = grader_in(
        &d,
        &[
            "grade",
            "games",
            "--no-times",
            "--no-sandbox",
            "--exec",
            &cheat,
        ],
    )
    .run();
    assert!(
        o.stdout.ends_with("\n4 passed, 0 failed\n"),
        "{}",
        o.describe()
    );
}

#[test]
fn every_report_of_a_run_outside_the_sandbox_says_so() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    spec_tree(d);
    let warning = "--no-sandbox: the student programs ran with the grader";
    for format in ["human", "json", "junit"] {
        grader_in(
            d,
            &[
                "grade",
                "games",
                "--no-sandbox",
                "--exec",
                "cat {input}",
                "--format",
                format,
            ],
        )
        .run()
        .code(1)
        .stdout_has(warning)
        // On standard error after the one prefix of warnings, as every
        // binary writes them (not after the program's name).
        .stderr_starts(&format!("warning: {warning}"));
    }
    // In-process grading runs no program: no warning.
    grader_in(d, &["grade", "games"])
        .run()
        .stdout_lacks(warning);
}

#[test]
fn a_working_folder_and_a_read_only_path_under_tmp_are_visible() {
    if !test_support::require(
        "a_working_folder_and_a_read_only_path_under_tmp_are_visible",
        &[test_support::Tool::Bwrap],
    ) {
        return;
    }
    // Both folders live under /tmp, where the sandbox has its own scratch.
    let tmp = tempfile::tempdir_in("/tmp").unwrap();
    let d = tmp.path();
    spec_tree(d);
    let tools = tempfile::tempdir_in("/tmp").unwrap();
    fs::write(tools.path().join("answer"), "x").unwrap();
    // The fixture is not named as a word of its own (a command naming a
    // fixture is refused up front), so it is simply not there.
    let command = format!(
        "cat {}/answer \"$PWD\"/games/test03.cnf",
        tools.path().display()
    );
    grader_in(
        d,
        &[
            "grade",
            "games",
            "--exec",
            &command,
            "--sandbox-ro",
            tools.path().to_str().unwrap(),
        ],
    )
    .run()
    // The tool is read, the fixtures stay hidden: a wrong output, not "not found".
    .stdout_has("games/test03.cnf: No such file or directory")
    .stdout_lacks("answer: No such file");
}

#[test]
fn comparison_modes_say_so_and_mark_what_passes_only_because_of_them() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    spec_tree(d);
    let sandbox = test_support::sandbox_or_not("comparison modes");
    // A program that prints the right rows with a trailing space on each
    // line, from files it is shown with --sandbox-ro (by absolute path: the
    // rest of the working folder is not shown).
    let root = d.canonicalize().unwrap();
    let exec = format!(
        "sed 's/$/ /' {}/$(basename {{input}} .cnf).{{function}}.expected",
        root.display()
    );
    let exec = exec.as_str();
    let mut sandbox = sandbox;
    let g = d.join("games");
    for f in [
        "onePlayerOneMove",
        "onePlayerManyMoves",
        "manyPlayersOneMove",
        "manyPlayersManyMoves",
    ] {
        fs::copy(
            g.join(format!("test03.{f}.solution")),
            d.join(format!("test03.{f}.expected")),
        )
        .unwrap();
        if !sandbox.contains(&"--no-sandbox".to_owned()) {
            sandbox.push("--sandbox-ro".to_owned());
            sandbox.push(
                root.join(format!("test03.{f}.expected"))
                    .display()
                    .to_string(),
            );
        }
    }
    let grade = |mode: &str, format: &str| {
        let mut args = vec![
            "grade",
            "games",
            "--no-times",
            "--exec",
            exec,
            "--compare",
            mode,
            "--format",
            format,
        ];
        args.extend(sandbox.iter().map(String::as_str));
        grader_in(d, &args).run()
    };
    let exact = test_support::without_provenance(&grade("exact", "human").stdout);
    assert!(exact.ends_with("\n0 passed, 4 failed\n"), "{exact}");
    assert!(
        exact.contains("+\"------\"·\n"),
        "trailing spaces are marked: {exact}"
    );
    let relaxed = grade("trailing-whitespace", "human");
    relaxed.code(0);
    let report = test_support::without_provenance(&relaxed.stdout);
    // Without bubblewrap the programs ran with --no-sandbox, whose warning
    // comes first; then the comparison line.
    let at = report
        .find("comparison: trailing-whitespace (not byte for byte)\n")
        .unwrap_or_else(|| panic!("no comparison line: {report}"));
    let before = &report[..at];
    if sandbox.contains(&"--no-sandbox".to_owned()) {
        assert!(
            before.starts_with("warning: --no-sandbox") && before.trim_end().lines().count() == 1,
            "{report}"
        );
    } else {
        assert_eq!(before, "", "{report}");
    }
    assert!(report.contains(
        "note: games/test03.cnf onePlayerOneMove passes only with --compare trailing-whitespace: its output differs byte for byte"
    ), "{report}");
    assert!(report.ends_with("\n4 passed, 0 failed\n"), "{report}");
    let doc: serde_json::Value =
        serde_json::from_slice(&grade("whitespace", "json").stdout_bytes).unwrap();
    assert_eq!(doc["compare"], "whitespace");
    assert_eq!(doc["cases"][0]["relaxed"], true);
    grader_in(d, &["grade", "games", "--compare", "fuzzy"])
        .run()
        .code(2);
}
