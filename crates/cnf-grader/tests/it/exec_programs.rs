//! `cnf-grader grade --exec` with small programs under test
//! (`tests/data/exec/*.sh`): a correct one, one printing a wrong row, one
//! that crashes, one that never ends, one that floods its output, one that
//! prints invalid UTF-8, one that exits non-zero. The fixture is the spec's
//! `test03.cnf` with its four results copied from the spec (§5).

use std::path::Path;
use std::time::Duration;

use test_support::{Cli, Run};

/// `cnf-grader grade --exec` on the fixture tree, the part binaries run by
/// `tests/data/exec/SCRIPT.sh`, in the sandbox where bubblewrap works.
fn grade_exec(script: &str, extra: &[&str]) -> Cli {
    grade_exec_timed(script, "1s", extra).arg("--no-times")
}

/// [`grade_exec`] with this `--timeout`, and the times in the report.
fn grade_exec_timed(script: &str, timeout: &str, extra: &[&str]) -> Cli {
    let part_dir = Path::new(env!("CARGO_BIN_EXE_part01"))
        .parent()
        .expect("binary folder")
        .to_owned();
    Cli::new(env!("CARGO_BIN_EXE_cnf-grader"))
        .args(["grade", "tests/data/exec-tree", "--timeout", timeout])
        .arg("--exec")
        .arg(format!(
            "PART_BIN_DIR={} sh tests/data/exec/{script}.sh {{part}} {{input}}",
            part_dir.display()
        ))
        .arg("--sandbox-ro")
        .arg(&part_dir)
        .args(test_support::sandbox_or_not(script))
        .args(extra)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .label(script)
}

/// The report, without the warning a run outside the sandbox starts with.
fn report_of(run: &Run) -> String {
    let report = test_support::without_provenance(
        &String::from_utf8(run.stdout_bytes.clone()).expect("UTF-8 report"),
    );
    match report.strip_prefix("warning: --no-sandbox: ") {
        Some(rest) => rest
            .split_once("\n\n")
            .map_or(report.clone(), |(_, r)| r.to_owned()),
        None => report,
    }
}

const CASES: [&str; 4] = [
    "onePlayerOneMove",
    "onePlayerManyMoves",
    "manyPlayersOneMove",
    "manyPlayersManyMoves",
];

/// Checks that every case failed with `reason` and the run took < 5 s.
fn assert_all_fail(script: &str, reason: &str, extra: &[&str]) -> String {
    assert_all_fail_within(script, reason, extra, Duration::from_secs(5))
}

/// Checks that every case failed with `reason` and the run took < `limit`.
fn assert_all_fail_within(script: &str, reason: &str, extra: &[&str], limit: Duration) -> String {
    let run = grade_exec(script, extra).run();
    let report = report_of(&run);
    for f in CASES {
        let line = format!("FAIL tests/data/exec-tree/test03.cnf {f}: {reason}");
        assert!(
            report.contains(&line),
            "{script}: no line {line:?} in\n{report}"
        );
    }
    assert!(report.ends_with("\n0 passed, 4 failed\n"), "{report}");
    run.code(1);
    let took = run.elapsed;
    assert!(took < limit, "{script} took {took:?}");
    report
}

#[test]
fn a_correct_program_passes() {
    // Four jobs: the report keeps the part order whatever finishes first.
    let run = grade_exec("correct", &["--jobs", "4"]).run();
    assert_eq!(
        report_of(&run),
        "PASS   tests/data/exec-tree/test03.cnf  onePlayerOneMove\n\
         PASS   tests/data/exec-tree/test03.cnf  onePlayerManyMoves\n\
         PASS   tests/data/exec-tree/test03.cnf  manyPlayersOneMove\n\
         PASS   tests/data/exec-tree/test03.cnf  manyPlayersManyMoves\n\
         \n\
         4 passed, 0 failed\n"
    );
    run.code(0);
}

#[test]
fn a_wrong_row_fails_with_a_diff() {
    let report = assert_all_fail(
        "wrong_row",
        "the output differs from the expected result",
        &[],
    );
    assert!(report.contains(
        "--- expected: tests/data/exec-tree/test03.manyPlayersManyMoves.solution\n\
         +++ actual: manyPlayersManyMoves on tests/data/exec-tree/test03.cnf\n\
         @@ -1,5 +1,5 @@\n \"Result\"\n-\"------\"\n+\"xxxxxx\"\n \"------\"\n \"------\"\n \"---3--\"\n"
    ));
}

#[test]
fn a_crash_is_named_with_its_signal_and_stderr_is_kept() {
    let report = assert_all_fail("crash", "crashed: killed by signal 11 (SIGSEGV)", &[]);
    assert!(
        report.contains("standard error:\n  | about to crash\n"),
        "{report}"
    );
}

#[test]
fn a_program_that_never_ends_times_out() {
    // Four jobs so the four limits overlap. A sleeper uses no CPU time:
    // the wall clock's backstop (3 x 1 s, at least 5 s) stops it, twice
    // (a case the backstop stopped is run once more): about 10 s in all,
    // where one case after another would take 40 s.
    assert_all_fail_within(
        "hang",
        "still running after 5s of wall-clock time (the backstop for a program that sleeps \
         or blocks) and was killed, on two runs",
        &["--jobs", "4"],
        Duration::from_secs(30),
    );
    // A loop is stopped by the CPU-time limit itself, and each case
    // records the CPU and wall time it used and which limit stopped it, as
    // data. 300 ms of CPU time against a wall backstop of 5 s: the loop
    // reaches the CPU limit first even on a busy machine.
    let run = grade_exec_timed("spin", "300ms", &["--jobs", "1", "--format", "json"]).run();
    run.code(1);
    let doc: serde_json::Value = serde_json::from_slice(&run.stdout_bytes).unwrap();
    let cases = doc["cases"].as_array().unwrap();
    assert_eq!(cases.len(), 4);
    for case in cases {
        assert_eq!(case["failure"], "timeout", "{case}");
        assert_eq!(case["stopped_by"], "cpu", "{case}");
        assert_eq!(
            case["reason"],
            "used more than 300ms of CPU time (--timeout) and was killed"
        );
        let cpu = case["cpu_ms"].as_f64().unwrap();
        let wall = case["wall_ms"].as_f64().unwrap();
        // Killed once past 300 ms of CPU time (measured every 50 ms).
        assert!((300.0..2000.0).contains(&cpu), "{case}");
        assert!(wall >= cpu * 0.9, "{case}");
    }
    // --no-times leaves the times out, not the limit that stopped the run.
    let run = grade_exec_timed("spin", "300ms", &["--jobs", "1", "--format", "json"])
        .arg("--no-times")
        .run();
    let doc: serde_json::Value = serde_json::from_slice(&run.stdout_bytes).unwrap();
    for case in doc["cases"].as_array().unwrap() {
        assert_eq!(case["stopped_by"], "cpu", "{case}");
        assert!(case.get("cpu_ms").is_none(), "{case}");
    }
}

#[test]
fn a_flood_of_output_is_cut_at_the_cap() {
    assert_all_fail(
        "flood",
        "printed more than 64 KiB and was killed",
        &["--max-output", "64KiB"],
    );
    // The default cap is 1 MiB.
    assert_all_fail("flood", "printed more than 1 MiB and was killed", &[]);
}

#[test]
fn invalid_utf8_is_a_failure() {
    // The script prints "\"Result\"\n" (9 bytes), then 0xff.
    assert_all_fail(
        "not_utf8",
        "the output is not UTF-8 text: byte 9 (0xff) is invalid",
        &[],
    );
}

#[test]
fn a_non_zero_exit_is_a_failure_with_stderr() {
    let report = assert_all_fail("exit3", "exited with code 3", &[]);
    assert!(report.contains("  | prog: Prelude.head: empty list\n"));
}

#[test]
fn json_and_junit_carry_the_reasons() {
    let run = grade_exec("crash", &["--format", "json", "--part", "2"]).run();
    let v: serde_json::Value = serde_json::from_slice(&run.stdout_bytes).unwrap();
    let case = &v["cases"][0];
    assert_eq!(case["status"], "fail");
    assert_eq!(case["failure"], "crash");
    // Killed by SIGSEGV; where the sandbox's shell outlives the program
    // (the user backend, or no sandbox), only the shell's exit code 139
    // says so, and the outcome says that too.
    let outcome = &case["outcome"];
    assert_eq!(outcome["kind"], "signalled", "{case}");
    assert_eq!(outcome["signal"], 11, "{case}");
    let via_shell = outcome["via_shell"] == true;
    assert!(via_shell || outcome.get("via_shell").is_none(), "{case}");
    assert_eq!(
        case["reason"],
        if via_shell {
            "crashed: killed by signal 11 (SIGSEGV) (the shell's exit code 139)"
        } else {
            "crashed: killed by signal 11 (SIGSEGV)"
        },
        "{case}"
    );
    assert!(
        case["stderr"].as_str().unwrap().contains("about to crash"),
        "{case}"
    );
    let run = grade_exec("exit3", &["--format", "junit", "--part", "1"]).run();
    let xml = String::from_utf8(run.stdout_bytes.clone()).unwrap();
    assert!(
        xml.contains(r#"<failure message="exited with code 3" type="non-zero-exit">"#),
        "{xml}"
    );
    assert!(
        xml.contains("<system-err>prog: Prelude.head: empty list\n</system-err>"),
        "{xml}"
    );
}

#[test]
fn a_run_past_its_memory_limit_is_told_from_a_crash() {
    if !test_support::require(
        "a_run_past_its_memory_limit_is_told_from_a_crash",
        &[test_support::Tool::Bwrap],
    ) {
        return;
    }
    // Four processes of 40 MB under a 128 MiB limit of the whole run: the
    // sandbox stops it, and the report names the limits and the peak.
    let run = grade_exec_timed(
        "fill_memory",
        "5s",
        &["--memory", "128MiB", "--format", "json", "--part", "1"],
    )
    .run();
    run.code(1);
    let doc: serde_json::Value = serde_json::from_slice(&run.stdout_bytes).unwrap();
    let case = &doc["cases"][0];
    assert_eq!(doc["schema"], 2);
    assert_eq!(case["failure"], "memory-limit", "{case}");
    let outcome = &case["outcome"];
    assert_eq!(outcome["kind"], "memory-limit", "{case}");
    assert_eq!(outcome["memory"], 128 << 20, "{case}");
    assert_eq!(outcome["scratch"], 256 << 20, "{case}");
    // Killed past 128 MiB: at least three of the four were seen whole.
    let peak = outcome["peak"].as_u64().unwrap();
    assert!(peak > 100 << 20, "{case}");
    assert_eq!(case["peak_memory"], peak, "{case}");
    assert!(
        case["reason"].as_str().unwrap().starts_with(
            "out of memory: its processes together used more than the 128 MiB of memory \
             (--memory) or the 256 MiB of scratch space (--scratch) allowed, and the run \
             was killed (peak memory seen: "
        ),
        "{case}"
    );
}

#[test]
fn points_withhold_compilation_for_crashes_only() {
    let report = report_of(&grade_exec("exit3", &["--points"]).run());
    let total = report.lines().rev().nth(2).unwrap();
    // Non-zero exits still ran: 4 x 10 compilation points, no case points.
    assert_eq!(
        total.split_whitespace().collect::<Vec<_>>(),
        ["total", "40.00/100"]
    );
    let report = report_of(&grade_exec("crash", &["--points"]).run());
    let total = report.lines().rev().nth(2).unwrap();
    assert_eq!(
        total.split_whitespace().collect::<Vec<_>>(),
        ["total", "0.00/100"]
    );
}

#[test]
fn a_sandbox_uid_of_root_an_account_or_too_large_is_refused_up_front() {
    for (uid, says) in [
        ("0", "--sandbox-uid 0: that is root"),
        ("4294967295", "--sandbox-uid 4294967295: too large"),
    ] {
        Cli::new(env!("CARGO_BIN_EXE_cnf-grader"))
            .args([
                "grade",
                "tests/data/exec-tree",
                "--exec",
                "id -u >&2; exit 3",
            ])
            .args(["--sandbox-uid", uid])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .label(uid)
            .run()
            .code(2)
            .stderr_has(says)
            // Nothing was graded.
            .stdout_is("");
    }
}

/// A folder holding the four programs under the assignment's names (this
/// project's own part binaries) and a link `fixtures` to the project's
/// fixtures, as an instructor's folder would.
fn assignment_folder(parts: &[u8]) -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    let bins = [
        env!("CARGO_BIN_EXE_part01"),
        env!("CARGO_BIN_EXE_part02"),
        env!("CARGO_BIN_EXE_part03"),
        env!("CARGO_BIN_EXE_part04"),
    ];
    for &part in parts {
        let to = tmp.path().join(format!("csce322assignment03part{part:02}"));
        std::fs::copy(bins[usize::from(part - 1)], to).unwrap();
    }
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures");
    std::os::unix::fs::symlink(
        fixtures.canonicalize().unwrap(),
        tmp.path().join("fixtures"),
    )
    .unwrap();
    tmp
}

/// The README's line, word for word.
const README_LINE: [&str; 8] = [
    "grade",
    "fixtures/",
    "--exec",
    "./csce322assignment03part{part} {input}",
    "--timeout",
    "2s",
    "--points",
    "--no-times",
];

#[test]
fn the_readme_exec_line_works_from_a_folder_holding_the_four_programs() {
    let dir = assignment_folder(&[1, 2, 3, 4]);
    let run = Cli::new(env!("CARGO_BIN_EXE_cnf-grader"))
        .args(README_LINE)
        .args(test_support::sandbox_or_not("the_readme_exec_line"))
        .current_dir(dir.path())
        .run();
    run.code(0)
        .stdout_has("      total                                                  100.00/100\n")
        .stdout_has("      extra credit                                  (6/6)     +10.00/10\n")
        .stdout_has("(16/16)  not counted in the total\n")
        .stdout_has("\n104 passed, 0 failed\n");
}

#[test]
fn a_part_whose_program_cannot_run_is_refused_on_its_first_case() {
    // Part 3's program is missing.
    let dir = assignment_folder(&[1, 2, 4]);
    let sandboxed = test_support::sandbox_or_not("a_part_whose_program_cannot_run").is_empty();
    let run = Cli::new(env!("CARGO_BIN_EXE_cnf-grader"))
        .args(README_LINE)
        .args(test_support::sandbox_or_not(
            "a_part_whose_program_cannot_run",
        ))
        .current_dir(dir.path())
        .run();
    run.code(2).stdout_is("").stderr_has(
        "error: --exec: part 3's command \"./csce322assignment03part03 {input}\" could not be \
         run on fixtures/crlf.cnf (it said: sh: 1: ./csce322assignment03part03: not found); ",
    );
    if sandboxed {
        run.stderr_has(
            "; inside the sandbox it saw only the system folders: the command names no file of \
             the current folder that exists; if it needs another file or folder, add \
             --sandbox-ro PATH",
        );
        // A part whose program is there is shown it, and only it.
        let dir = assignment_folder(&[1, 2, 3, 4]);
        std::fs::write(
            dir.path().join("csce322assignment03part02"),
            "#!/bin/sh\nexec ./helper \"$@\"\n",
        )
        .unwrap();
        let program = dir
            .path()
            .canonicalize()
            .unwrap()
            .join("csce322assignment03part02");
        Cli::new(env!("CARGO_BIN_EXE_cnf-grader"))
            .args(README_LINE)
            .current_dir(dir.path())
            .run()
            .code(2)
            .stderr_has(&format!(
                "part 2's command \"./csce322assignment03part02 {{input}}\" could not be run on \
                 fixtures/crlf.cnf (it said: ./csce322assignment03part02: 2: exec: ./helper: \
                 not found); inside the sandbox it saw {}, the system folders; if it needs \
                 another file or folder, add --sandbox-ro PATH",
                program.display()
            ));
    }
}
