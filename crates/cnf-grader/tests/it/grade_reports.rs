//! End-to-end tests of `cnf-grader grade`: golden human, JSON and JUnit
//! reports of a small tree (one pass, one failure, one error), selection,
//! broken fixtures, exit codes and usage errors.
//!
//! The golden files under `tests/data/golden/` were written by hand from
//! the tree: `a.cnf` is `["----","----","-12-"]` with moves `[1,1,4]`, so
//! player 1 playing every move ends with `["----","1---","1121"]`, while
//! `a.onePlayerManyMoves.solution` says `1122`.

use std::path::Path;

use test_support::{Cli, Run};

/// `cnf-grader` run in the crate's folder.
fn cnf_grader() -> Cli {
    Cli::new(env!("CARGO_BIN_EXE_cnf-grader")).current_dir(env!("CARGO_MANIFEST_DIR"))
}

/// `cnf-grader ARGS`, colour left to the grader's own choice.
fn grader(args: &[&str]) -> Cli {
    cnf_grader()
        .args(args)
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE")
}

fn golden(name: &str) -> String {
    std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data/golden")
            .join(name),
    )
    .expect("golden file")
    .replace("{version}", env!("CARGO_PKG_VERSION"))
}

/// The fixture hash of tests/data/tree computed here from its definition
/// (SHA-256 over each file's name below the fixture root and its content,
/// each preceded by its length as 8 little-endian bytes, in discovery
/// order; the missing b.cnf counts as empty), not by the grader.
#[test]
fn the_fixture_hash_is_the_documented_sha256() {
    use sha2::{Digest, Sha256};
    let mut hasher = Sha256::new();
    for file in [
        "a.cnf",
        "a.onePlayerOneMove.solution",
        "a.onePlayerManyMoves.solution",
        "b.cnf",
        "b.manyPlayersOneMove.solution",
    ] {
        let content = std::fs::read(
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("tests/data/tree")
                .join(file),
        )
        .unwrap_or_default();
        for piece in [file.as_bytes(), &content] {
            hasher.update((piece.len() as u64).to_le_bytes());
            hasher.update(piece);
        }
    }
    let hex: String = hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    assert!(golden("report.xml").contains(&format!("value=\"sha256:{hex}\"")));
    assert!(golden("human.txt").starts_with(&format!(
        "graded by cnf-grader {} · fixtures sha256:{} · compare exact · in-process\n\n",
        env!("CARGO_PKG_VERSION"),
        &hex[..12]
    )));
}

/// Standard output as is, which must be UTF-8.
fn raw(run: &Run) -> String {
    String::from_utf8(run.stdout_bytes.clone()).expect("UTF-8 output")
}

/// Standard output without a human report's provenance line (checked by
/// the golden tests) and the blank line after it.
fn stdout(run: &Run) -> String {
    let text = raw(run);
    match text.strip_prefix("graded by cnf-grader ") {
        Some(rest) => rest
            .split_once("\n\n")
            .map_or(text.clone(), |(_, r)| r.to_owned()),
        None => text,
    }
}

#[test]
fn human_report_is_the_golden_one() {
    let out = grader(&["grade", "tests/data/tree", "--no-times"]).run();
    assert_eq!(raw(&out), golden("human.txt"));
    out.code(1).stderr_is("");
}

#[test]
fn colour_only_when_asked_and_never_in_the_summary() {
    let piped = grader(&["grade", "tests/data/tree", "--no-times"]).run();
    assert!(!stdout(&piped).contains('\u{1b}'), "{}", piped.describe());
    let always = grader(&[
        "grade",
        "tests/data/tree",
        "--no-times",
        "--color",
        "always",
    ])
    .run();
    let text = stdout(&always);
    assert!(text.contains("\u{1b}["), "{text:?}");
    assert!(
        text.ends_with("\n1 passed, 1 failed, 1 error\n"),
        "{text:?}"
    );
    let never = grader(&["grade", "tests/data/tree", "--no-times", "--color", "never"]).run();
    assert_eq!(raw(&never), golden("human.txt"));
}

#[test]
fn times_are_shown_by_default() {
    let out = grader(&["grade", "tests/data/tree"]).run();
    let first = stdout(&out).lines().next().unwrap().to_owned();
    assert!(
        first.starts_with("PASS   tests/data/tree/a.cnf  onePlayerOneMove  "),
        "{first}"
    );
    assert!(first.ends_with("µs") || first.ends_with("ms"), "{first}");
}

#[test]
fn json_report_is_the_golden_one() {
    let out = grader(&["grade", "tests/data/tree", "--no-times", "--format", "json"]).run();
    let actual: serde_json::Value = serde_json::from_slice(&out.stdout_bytes).expect("JSON");
    let expected: serde_json::Value = serde_json::from_str(&golden("report.json")).unwrap();
    assert_eq!(actual, expected);
    out.code(1);
}

#[test]
fn json_report_has_durations_unless_told_not_to() {
    let out = grader(&["grade", "tests/data/tree", "--format", "json"]).run();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout_bytes).unwrap();
    for case in v["cases"].as_array().unwrap() {
        assert!(case["duration_ms"].as_f64().unwrap() >= 0.0);
    }
}

#[test]
fn junit_report_is_the_golden_one() {
    let out = grader(&[
        "grade",
        "tests/data/tree",
        "--no-times",
        "--format",
        "junit",
    ])
    .run();
    assert_eq!(raw(&out), golden("report.xml"));
}

#[test]
fn output_file_is_written_instead_of_stdout() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("report.xml");
    grader(&[
        "grade",
        "tests/data/tree",
        "--no-times",
        "--format",
        "junit",
        "--output",
        file.to_str().unwrap(),
    ])
    .run()
    .stdout_is("")
    .code(1);
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        golden("report.xml")
    );
    // Only the report: no temporary file left next to it.
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}

#[test]
fn selection_by_part_name_and_filter() {
    let out = grader(&["grade", "tests/data/tree", "--no-times", "--part", "1"]).run();
    assert_eq!(
        stdout(&out),
        "PASS   tests/data/tree/a.cnf  onePlayerOneMove\n\n1 passed, 0 failed\n"
    );
    out.code(0);
    let out = grader(&[
        "grade",
        "tests/data/tree",
        "--no-times",
        "--part",
        "onePlayerOneMove",
        "--part",
        "03",
    ])
    .run();
    assert!(
        stdout(&out).ends_with("\n1 passed, 0 failed, 1 error\n"),
        "{}",
        out.describe()
    );
    let out = grader(&[
        "grade",
        "tests/data/tree",
        "--no-times",
        "--filter",
        "b.cnf",
    ])
    .run();
    assert!(
        stdout(&out).ends_with("\n0 passed, 0 failed, 1 error\n"),
        "{}",
        out.describe()
    );
}

#[test]
fn a_solution_file_or_a_cnf_file_can_be_named() {
    let out = grader(&[
        "grade",
        "tests/data/tree/a.onePlayerOneMove.solution",
        "--no-times",
    ])
    .run();
    assert_eq!(
        stdout(&out),
        "PASS   tests/data/tree/a.cnf  onePlayerOneMove\n\n1 passed, 0 failed\n"
    );
    let out = grader(&["grade", "tests/data/tree/a.cnf", "--no-times"]).run();
    assert!(
        stdout(&out).ends_with("\n1 passed, 1 failed\n"),
        "{}",
        out.describe()
    );
}

#[test]
fn fail_fast_skips_what_follows() {
    let out = grader(&[
        "grade",
        "tests/data/tree",
        "--no-times",
        "--fail-fast",
        "--jobs",
        "1",
    ])
    .run();
    let text = stdout(&out);
    assert!(
        text.contains("SKIP   tests/data/tree/b.cnf  manyPlayersOneMove\n"),
        "{text}"
    );
    assert!(
        text.ends_with("\n1 passed, 1 failed, 1 skipped\n"),
        "{text}"
    );
    out.code(1);
}

#[test]
fn broken_fixtures_are_errors_and_the_run_goes_on() {
    let out = grader(&["grade", "tests/data/errors", "--no-times"]).run();
    let text = stdout(&out);
    assert!(
        text.starts_with(
            "ERROR  tests/data/errors/bad.cnf   onePlayerOneMove\n\
             PASS   tests/data/errors/good.cnf  onePlayerOneMove\n\
             ERROR  tests/data/errors/good.cnf  twoPlayers\n"
        ),
        "{text}"
    );
    out.stdout_has("tests/data/errors/bad.cnf:1:13: row 2, column 3: '*' is not a cell")
        .stdout_has(
            "\"twoPlayers\" in tests/data/errors/good.twoPlayers.solution is not a function name",
        );
    assert!(text.ends_with("\n1 passed, 0 failed, 2 errors\n"), "{text}");
    out.code(1);
    // Selecting a part leaves out files whose function name is unknown.
    let out = grader(&["grade", "tests/data/errors", "--no-times", "--part", "1"]).run();
    let text = stdout(&out);
    out.stdout_lacks("twoPlayers");
    assert!(text.ends_with("\n1 passed, 0 failed, 1 error\n"), "{text}");
}

#[test]
fn points_table_comes_before_the_summary_line() {
    let out = grader(&["grade", "tests/data/exec-tree", "--no-times", "--points"]).run();
    let text = stdout(&out);
    let rows: Vec<Vec<&str>> = text
        .lines()
        .skip(5)
        .map(|l| l.split_whitespace().collect())
        .collect();
    // All four spec results pass: every part gets everything.
    let expected: Vec<Vec<&str>> = vec![
        vec!["part", "function", "compilation", "test", "cases", "total"],
        vec![
            "1",
            "onePlayerOneMove",
            "10/10",
            "(1/1)",
            "10.00/10",
            "20.00/20",
        ],
        vec![
            "2",
            "onePlayerManyMoves",
            "10/10",
            "(1/1)",
            "10.00/10",
            "20.00/20",
        ],
        vec![
            "3",
            "manyPlayersOneMove",
            "10/10",
            "(1/1)",
            "20.00/20",
            "30.00/30",
        ],
        vec![
            "4",
            "manyPlayersManyMoves",
            "10/10",
            "(1/1)",
            "20.00/20",
            "30.00/30",
        ],
        vec!["total", "100.00/100"],
        vec![],
        vec!["4", "passed,", "0", "failed"],
    ];
    assert_eq!(rows, expected, "{text}");
    out.code(0);

    // The tree with a failure and an error: part 1 full, part 2 compiled
    // but its only case failed, part 3's only case is a broken fixture.
    let out = grader(&["grade", "tests/data/tree", "--no-times", "--points"]).run();
    let text = stdout(&out);
    let total = text.lines().rev().nth(2).unwrap();
    assert_eq!(
        total.split_whitespace().collect::<Vec<_>>(),
        ["total", "30.00/100"]
    );
}

#[test]
fn usage_errors_exit_2() {
    for args in [
        &["grade", "no/such/dir"][..],
        &["grade", "tests/data/tree", "--part", "5"],
        &["grade", "tests/data/tree", "--timeout", "soon"],
        &["grade", "tests/data/tree", "--max-output", "lots"],
        &["grade", "tests/data/tree", "--format", "yaml"],
        &["grade", "tests/data/golden"],
        &["grade", "tests/data/tree", "--jobs", "0"],
    ] {
        let out = grader(args).run();
        out.code(2).stdout_is("");
        assert!(!out.stderr_bytes.is_empty(), "{}", out.describe());
    }
    let here = std::env::current_dir().unwrap();
    grader(&["grade", "no/such/dir"])
        .run()
        .code(2)
        .stderr_is(&format!(
            "error: no/such/dir: no such file or folder (relative to the current folder, {}); give \
         the folder that holds the fixtures (NAME.cnf with NAME.FUNCTION.solution), e.g. the \
         project's fixtures/\n",
            here.display()
        ));
}

/// A missing path reads the same in every subcommand: the path, that a
/// relative one is taken from the current folder (and that `fixtures/` is
/// the default), and what to give instead.
#[test]
fn a_missing_path_reads_the_same_everywhere() {
    let tmp = tempfile::tempdir().unwrap();
    let here = tmp.path().canonicalize().unwrap();
    let in_tmp = |args: &[&str]| grader(args).current_dir(&here).run();
    let relative = format!("(relative to the current folder, {})", here.display());
    in_tmp(&["grade"]).code(2).stderr_is(&format!(
        "error: fixtures/: no such file or folder {}; fixtures/ is the default); give the folder \
         that holds the fixtures (NAME.cnf with NAME.FUNCTION.solution), e.g. the project's \
         fixtures/\n",
        relative.trim_end_matches(')')
    ));
    in_tmp(&["grade", "nosuch"]).code(2).stderr_starts(&format!(
        "error: nosuch: no such file or folder {relative}; give the folder that holds the fixtures"
    ));
    in_tmp(&["submissions", "nosuch", "fixtures"])
        .code(2)
        .stderr_is(&format!(
            "error: nosuch: no such file or folder {relative}; give the class folder (one \
             sub-folder per student)\n"
        ));
    in_tmp(&["submission", "nosuch"])
        .code(2)
        .stderr_is(&format!(
            "error: nosuch: no such file or folder {relative}; give the folder with \
         csce322assignment03part01.hs ... part04.hs\n"
        ));
    std::fs::create_dir(here.join("class")).unwrap();
    in_tmp(&["submissions", "class", "nosuch"])
        .code(2)
        .stderr_starts(&format!("error: nosuch: no such file or folder {relative}; give the folder that holds the fixtures"));
    in_tmp(&["bless"]).code(2).stderr_starts(&format!(
        "error: fixtures/: no such file or folder {}; fixtures/ is the default); give the folder \
         that holds the fixtures",
        relative.trim_end_matches(')')
    ));
    in_tmp(&["merge", "nosuch.json"])
        .code(2)
        .stderr_is(&format!(
            "error: nosuch.json: no such file or folder {relative}; give a shard's --format json \
             report\n"
        ));
    for args in [&["run", "1", "nosuch.cnf"][..], &["check", "nosuch.cnf"]] {
        in_tmp(args).code(2).stderr_has(&format!(
            "error: nosuch.cnf: no such file or folder {relative}; give a .cnf game file, or - \
             for standard input\n"
        ));
    }
    Cli::new(env!("CARGO_BIN_EXE_part01"))
        .arg("nosuch.cnf")
        .current_dir(&here)
        .run()
        .code(2)
        .stderr_is(&format!(
            "error: nosuch.cnf: no such file or folder {relative}; give a .cnf game file, or - \
             for standard input\n"
        ));
}

/// `--points` with `--format junit` puts the score table in the report's
/// properties; it is never ignored.
#[test]
fn junit_carries_the_points() {
    let without = grader(&["grade", "../../fixtures", "--format", "junit", "--no-times"]).run();
    without.stdout_lacks("points.");
    let with = grader(&[
        "grade",
        "../../fixtures",
        "--format",
        "junit",
        "--no-times",
        "--points",
    ])
    .run();
    with.code(0)
        .stdout_has("<property name=\"points.part3\" value=\"30.00/30\"/>")
        .stdout_has("<property name=\"points.total\" value=\"100.00/100\"/>")
        .stdout_has("<property name=\"points.extra_credit\" value=\"10.00/10\"/>")
        .stdout_has("<property name=\"points.edge\" value=\"16/16 passed, not counted\"/>");
}

/// `grade --help` describes --compare, not only byte for byte.
#[test]
fn grade_help_names_the_comparison_modes() {
    grader(&["grade", "--help"])
        .run()
        .code(0)
        .stdout_has("by default with --compare exact")
        .stdout_lacks("file byte for byte");
    grader(&["help"])
        .run()
        .code(0)
        .stdout_lacks("compare with its .solution file byte for byte");
}

/// The date every report records: the clock, or `SOURCE_DATE_EPOCH`
/// (1796000000 s is 2026-11-30 00:53:20 UTC); `--no-times` leaves it out.
#[test]
fn every_format_records_the_date_unless_no_times() {
    let run = |format: &str, no_times: bool| {
        let command = cnf_grader()
            .args(["grade", "tests/data/tree", "--format", format])
            .env("SOURCE_DATE_EPOCH", "1796000000");
        let command = if no_times {
            command.arg("--no-times")
        } else {
            command
        };
        raw(&command.run())
    };
    let date = "2026-11-30T00:53:20Z";
    let human = run("human", false);
    assert!(
        human
            .lines()
            .next()
            .unwrap()
            .ends_with(&format!(" · in-process · {date}")),
        "{human}"
    );
    let json: serde_json::Value = serde_json::from_str(&run("json", false)).unwrap();
    assert_eq!(json["provenance"]["date"], date);
    assert!(run("junit", false).contains(&format!("<property name=\"date\" value=\"{date}\"/>")));
    let gradescope: serde_json::Value = serde_json::from_str(&run("gradescope", false)).unwrap();
    assert_eq!(gradescope["extra_data"]["provenance"]["date"], date);
    // The provenance is the instructor's: in extra_data, not in what the
    // student reads.
    let output = gradescope["output"].as_str().unwrap();
    assert!(
        !output.contains(date) && !output.contains("in-process"),
        "{output}"
    );
    assert!(run("html", false).contains(&format!("<dt>date</dt><dd>{date}</dd>")));
    for format in ["human", "json", "junit", "gradescope", "html"] {
        assert!(!run(format, true).contains("2026-11-30"), "{format}");
    }
    for bad in ["abc", "-1", "253402300800", "18446744073709551615"] {
        cnf_grader()
            .args(["grade", "tests/data/tree"])
            .env("SOURCE_DATE_EPOCH", bad)
            .run()
            .code(2)
            .stderr_starts(&format!("error: SOURCE_DATE_EPOCH=\"{bad}\": not a date"));
    }
}

/// `--edge-in-base` counts the edge cases in their parts' points, and is
/// refused where there are no points to change.
#[test]
fn edge_cases_count_in_the_base_only_when_asked() {
    grader(&["grade", "../../fixtures", "--edge-in-base"])
        .run()
        .code(2)
        .stdout_is("")
        .stderr_starts("error: --edge-in-base does nothing without --points");
    let apart = grader(&["grade", "../../fixtures", "--points", "--no-times"]).run();
    apart
        .code(0)
        .stdout_has("3     manyPlayersOneMove          10/10  (15/15) 20.00/20      30.00/30\n")
        .stdout_has("(16/16)  not counted in the total\n");
    grader(&[
        "grade",
        "../../fixtures",
        "--points",
        "--no-times",
        "--edge-in-base",
    ])
    .run()
    .code(0)
    .stdout_has("3     manyPlayersOneMove          10/10  (23/23) 20.00/20      30.00/30\n")
    .stdout_has("(16/16)  counted in the parts above\n");
}

/// Every flag of a program's run (the limits and the sandbox's), listed
/// here by hand from the guide, is refused without `--exec`, naming itself.
#[test]
fn every_flag_of_a_program_run_is_refused_without_exec() {
    for flag in [
        &["--timeout", "2s"][..],
        &["--max-output", "1KiB"],
        &["--no-sandbox"],
        &["--sandbox-ro", "."],
        &["--memory", "1GiB"],
        &["--processes", "8"],
        &["--open-files", "64"],
        &["--file-size", "1MiB"],
        &["--scratch", "1MiB"],
        &["--cpu-time", "1s"],
        &["--sandbox-uid", "2000000000"],
        &["--sandbox-backend", "bubblewrap"],
        &["--no-landlock"],
    ] {
        let mut args = vec!["grade", "tests/data/tree"];
        args.extend_from_slice(flag);
        grader(&args)
            .run()
            .code(2)
            .stdout_is("")
            .stderr_is(&format!(
                "error: {0} does nothing without --exec: grading this project's own implementation \
             runs in the grader's process, with no time limit, output cap or sandbox; add \
             --exec COMMAND to grade a program, or leave {0} out\n",
                flag[0]
            ));
    }
}
