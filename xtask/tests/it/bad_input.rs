//! Every binary of the workspace, given bad input, exits 2 and says what is
//! wrong after the one prefix `error: ` (the workspace's front-end
//! convention, `crates/frontend`), with nothing on standard output; the
//! assignment's own errors keep their exact text and exit 1.

use crate::support;

use support::{build_binaries, root};
use test_support::Cli;

/// (binary and arguments, standard input, exit code, the start of standard error).
const CASES: &[(&[&str], &str, i32, &str)] = &[
    (
        &["cnf-grader", "grade", "no/such/folder"],
        "",
        2,
        "error: no/such/folder: ",
    ),
    (
        &["cnf-grader", "grade", "fixtures", "--exec", ""],
        "",
        2,
        "error: --exec: the command is empty",
    ),
    (
        &["cnf-grader", "grade", "--timeout", "soon"],
        "",
        2,
        "error: invalid value 'soon'",
    ),
    (
        &["cnf-grader", "run", "2", "-"],
        "([\"--\",\"-\"],[1])",
        2,
        "error: <stdin>:1:8: row 2 has 1 cell",
    ),
    (
        &["cnf-grader", "grade", "fixtures", "--shard", "4/3"],
        "",
        2,
        "error: invalid value '4/3' for '--shard <K/N>': \"4/3\" is not a shard: K is out of range",
    ),
    (
        &["cnf-grader", "merge", "no/such/shard.json"],
        "",
        2,
        "error: no/such/shard.json: no such file or folder (relative to the current folder, ",
    ),
    (
        &["cnf-grader", "merge", "Cargo.toml"],
        "",
        2,
        "error: Cargo.toml:1:2: not JSON: ",
    ),
    (
        &["cnf-grader", "submissions", "target", "--assignment", "peg"],
        "",
        2,
        "error: invalid value 'peg' for '--assignment <NAME>': unknown assignment \"peg\"",
    ),
    (
        &[
            "cnf-grader",
            "submissions",
            "crates/cnf-grader/tests/submissions/peg-class",
            "--assignment",
            "peg-reversal",
            "--weights",
            "1,2",
        ],
        "",
        2,
        "error: --weights \"1,2\": 2 weights given; give four",
    ),
    (
        &[
            "cnf-grader",
            "submission",
            "crates/cnf-grader/tests/submissions/peg-class/correct",
            "no/such/cases",
            "--assignment",
            "peg-reversal",
        ],
        "",
        2,
        "error: no/such/cases: no such file or folder",
    ),
    (
        &[
            "cnf-grader",
            "submissions",
            "crates/cnf-grader/tests/submissions/class",
            "--roster",
            "Cargo.toml",
        ],
        "",
        2,
        "error: Cargo.toml:1:1: the header is ",
    ),
    (
        &["cnf-grader", "gen", "--moves", "99999999999"],
        "",
        2,
        "error: --moves 99999999999 is too many; at most 1,000,000",
    ),
    (
        &[
            "cnf-grader",
            "submissions",
            "crates/cnf-grader/tests/submissions/class",
            "crates/cnf-grader/tests/submissions/fixtures",
            "--reports",
            "crates/cnf-grader/tests/submissions/class/reports",
        ],
        "",
        2,
        "error: --reports crates/cnf-grader/tests/submissions/class/reports: is inside the class \
         folder crates/cnf-grader/tests/submissions/class, which is being graded",
    ),
    // A flag that would do nothing is refused, saying what it needs.
    (
        &["cnf-grader", "grade", "fixtures", "--timeout", "2s"],
        "",
        2,
        "error: --timeout does nothing without --exec: ",
    ),
    (
        &["cnf-grader", "grade", "fixtures", "--no-sandbox"],
        "",
        2,
        "error: --no-sandbox does nothing without --exec: ",
    ),
    (
        &["cnf-grader", "grade", "fixtures", "--memory", "1GiB"],
        "",
        2,
        "error: --memory does nothing without --exec: ",
    ),
    (
        &[
            "cnf-grader",
            "grade",
            "fixtures",
            "--color",
            "always",
            "--output",
            "target/report.txt",
        ],
        "",
        2,
        "error: --color always does nothing with --output target/report.txt: ",
    ),
    (
        &[
            "cnf-grader",
            "grade",
            "fixtures",
            "--color",
            "always",
            "--format",
            "json",
        ],
        "",
        2,
        "error: --color always does nothing with --format json: ",
    ),
    (
        &[
            "cnf-grader",
            "submissions",
            "crates/cnf-grader/tests/submissions/class",
            "--csv",
            "target/book.csv",
            "--canvas-assignment",
            "A3",
        ],
        "",
        2,
        "error: --canvas-assignment does nothing without --csv-layout canvas: ",
    ),
    (
        &[
            "cnf-grader",
            "merge",
            "no/such/shard.json",
            "--csv-layout",
            "canvas",
        ],
        "",
        2,
        "error: --csv-layout does nothing without --csv FILE: ",
    ),
    (
        &["cnf-grader", "no-such-command"],
        "",
        2,
        "error: unrecognized subcommand",
    ),
    (
        &["part01", "no/such.cnf"],
        "",
        2,
        "error: no/such.cnf: no such file or folder (relative to the current folder, ",
    ),
    (&["part02", "-"], "(", 2, "error: <stdin>:1:2: "),
    (
        &["part03", "-", "--players", "99"],
        "",
        2,
        "error: invalid value '99'",
    ),
    (
        &["part04", "-"],
        "([\"-*\"],[1])",
        2,
        "error: <stdin>:1:5: ",
    ),
    (&["mastermind", "score", "dbcb", "abc"], "", 2, "error: "),
    (&["mastermind", "--pegs", "9", "stats"], "", 2, "error: "),
    (
        &["mastermind", "score", "--strategy", "knuth", "dbcb", "abcd"],
        "",
        2,
        "error: unexpected argument",
    ),
    (
        &["peg", "valid", "1,0"],
        "[Peg (0,0) W,",
        2,
        "error: <stdin>:1:",
    ),
    (
        &["peg", "play", "--start", "0,0", "--seed", "3"],
        "",
        2,
        "error: the argument '--start <START>' cannot be used with '--seed <SEED>'",
    ),
    (
        &["peg", "play", "--start", "9,9"],
        "",
        2,
        "error: invalid value '9,9'",
    ),
    (
        &[
            "peg",
            "count",
            "--method",
            "orbits",
            "--board",
            "[Peg (0,0) W]",
        ],
        "",
        2,
        "error: --method orbits",
    ),
    (
        &["peg", "case", "target", "bad-call", "isGoal [Peg (0,0) W"],
        "",
        2,
        "error: CALL:1:20: cannot read a call",
    ),
    (
        &["peg", "case", "target", "../bad-name", "isGoal []"],
        "",
        2,
        "error: the case name \"../bad-name\" starts with '.' or '-'",
    ),
    (
        &["peg", "case", "no/such/folder", "--check"],
        "",
        2,
        "error: no/such/folder: no such file or folder",
    ),
    // The assignment's own messages, exactly (spec), exit 1.
    (
        &["peg", "create", "9,9"],
        "",
        1,
        "The position is not valid.\n",
    ),
    (
        &["peg", "next", "--board", "[Peg (0,0) W]"],
        "",
        1,
        "No Possible States Exist.\n",
    ),
    (
        &["connect", "solve", "--width", "12"],
        "",
        2,
        "error: --width 12: positions are written with the digits 1-9, so --width is 1 to 9\n",
    ),
    (
        &["connect", "solve"],
        "44444444\n",
        2,
        "error: <stdin>:1: move 7: column 4 is full\n",
    ),
    (
        &["connect", "serve", "--think", "2x"],
        "",
        2,
        "error: invalid value '2x' for '--think <DURATION>': \"2x\" is not a time",
    ),
    (
        &["connect", "serve", "--address", "localhost"],
        "",
        2,
        "error: invalid value 'localhost' for '--address <ADDR>': invalid IP address syntax",
    ),
    (
        &["connect", "serve", "--book", "no/such/book"],
        "",
        2,
        "error: no/such/book: no such file or folder (relative to the current folder, ",
    ),
    (
        &["connect", "solve", "--book", "no/such/book"],
        "",
        2,
        "error: no/such/book: no such file or folder (relative to the current folder, ",
    ),
    (
        &[
            "connect", "book", "--depth", "16", "--width", "4", "--height", "4",
        ],
        "",
        2,
        "error: --depth 16: a 4x4 board has 16 cells; the depth must be below that\n",
    ),
    (
        &["connect", "play", "--players", "40"],
        "",
        2,
        "error: invalid value '40' for '--players <PLAYERS>'",
    ),
];

#[test]
fn every_binary_refuses_bad_input_the_same_way() {
    let folders = build_binaries();
    // Every row is checked; the test fails once, naming every row that failed.
    let failed: Vec<String> = CASES
        .iter()
        .filter_map(|(args, stdin, code, start)| {
            let exe = folders
                .iter()
                .map(|f| f.join(args[0]))
                .find(|p| p.is_file())
                .unwrap_or_else(|| panic!("no binary {}", args[0]));
            let run = Cli::new(exe)
                .args(&args[1..])
                .current_dir(root())
                .stdin(stdin)
                .label(args.join(" "))
                .run();
            std::panic::catch_unwind(|| {
                run.code(*code).stdout_is("").stderr_starts(start);
            })
            .err()
            .map(|_| args.join(" "))
        })
        .collect();
    assert!(
        failed.is_empty(),
        "{} of {} rows failed (each shown above): {failed:#?}",
        failed.len(),
        CASES.len()
    );
}

/// What each program reading (or writing) a user's file asks for instead,
/// written by hand: (binary and arguments before the path, after it, what to give).
const FILE_READERS: &[(&[&str], &[&str], &str)] = &[
    (
        &["connect", "play"],
        &[],
        "a .cnf game file, or - for standard input",
    ),
    (
        &["connect", "solve"],
        &[],
        "a FILE of positions, one line of moves each, or - for standard input",
    ),
    (
        &["connect", "best"],
        &[],
        "a FILE of positions, one line of moves each, or - for standard input",
    ),
    (
        &["connect", "solve", "--book"],
        &[],
        "--book FILE, a book written by connect book, or --no-book",
    ),
    (
        &["part01"],
        &[],
        "a .cnf game file, or - for standard input",
    ),
    (
        &["part02"],
        &[],
        "a .cnf game file, or - for standard input",
    ),
    (
        &["part03"],
        &[],
        "a .cnf game file, or - for standard input",
    ),
    (
        &["part04"],
        &[],
        "a .cnf game file, or - for standard input",
    ),
    (
        &["cnf-grader", "run", "1"],
        &[],
        "a .cnf game file, or - for standard input",
    ),
    (
        &["cnf-grader", "merge"],
        &[],
        "a shard's --format json report",
    ),
    (
        &["mastermind", "check-tree"],
        &[],
        "a tree in JSON (as mastermind tree --format json writes it), or - for standard input",
    ),
];

#[test]
fn a_missing_file_or_a_folder_is_said_in_one_form_everywhere() {
    let folders = build_binaries();
    let exe = |name: &str| {
        folders
            .iter()
            .map(|f| f.join(name))
            .find(|p| p.is_file())
            .unwrap_or_else(|| panic!("no binary {name}"))
    };
    let tmp = tempfile::tempdir().unwrap();
    let folder = tmp.path().to_str().unwrap().to_owned();
    let missing = format!("{folder}/missing.cnf");
    let mut failed = Vec::new();
    let mut check = |args: Vec<String>, stdin: &str, stdout: Option<&str>, stderr: String| {
        let label = args.join(" ");
        let run = Cli::new(exe(&args[0]))
            .args(&args[1..])
            .current_dir(root())
            .stdin(stdin)
            .label(&label)
            .run();
        if std::panic::catch_unwind(|| {
            // The book's progress notes come first: only its last line is compared.
            let run = if label.contains(" book ") {
                let last = run.stderr.lines().last().unwrap_or("");
                assert_eq!(format!("{last}\n"), stderr, "{label}");
                run.code(2)
            } else {
                run.code(2).stderr_is(&stderr)
            };
            if let Some(out) = stdout {
                run.stdout_is(out);
            }
        })
        .is_err()
        {
            failed.push(label);
        }
    };
    for (before, after, give) in FILE_READERS {
        for (path, wrong) in [
            (&missing, "no such file or folder"),
            (&folder, "is a folder, not a file"),
        ] {
            let mut args: Vec<String> = before.iter().map(|s| s.to_string()).collect();
            args.push(path.clone());
            args.extend(after.iter().map(|s| s.to_string()));
            check(
                args,
                "",
                Some(""),
                format!("error: {path}: {wrong}; give {give}\n"),
            );
        }
    }
    let give = "a .cnf game file, or - for standard input";
    for (path, wrong) in [
        (&missing, "no such file or folder"),
        (&folder, "is a folder, not a file"),
    ] {
        // `check` still counts what it read on standard output.
        check(
            vec!["cnf-grader".into(), "check".into(), path.clone()],
            "",
            Some("0 valid, 0 invalid, 1 unreadable\n"),
            format!("error: {path}: {wrong}; give {give}\n"),
        );
    }
    // Writing into a folder: `book -o` and the game's `s FILE`.
    check(
        [
            "connect", "book", "--width", "4", "--height", "4", "--depth", "1", "-o",
        ]
        .iter()
        .map(|s| s.to_string())
        .chain([folder.clone()])
        .collect(),
        "",
        Some(""),
        format!(
            "error: {folder}: is a folder, not a file; give --output FILE, a file in a folder you may write in\n"
        ),
    );
    check(
        ["connect", "play", "--rows", "4", "--cols", "4"]
            .iter()
            .map(|s| s.to_string())
            .collect(),
        &format!("s {folder}\nq\n"),
        None,
        format!(
            "error: <stdin>:1: \"s {folder}\": {folder}: is a folder, not a file; give s FILE, a file in a folder you may write in\n"
        ),
    );
    assert!(
        failed.is_empty(),
        "rows that failed (each shown above): {failed:#?}"
    );
}

/// Prints `line` past the test harness's capture, so a skip shows in a passing run.
fn notice(line: &str) {
    use std::io::Write as _;
    let _ = writeln!(std::io::stderr(), "{line}");
}

#[test]
fn a_file_this_user_may_not_read_or_write_in_is_said_in_the_same_form() {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    const TEST: &str = "a_file_this_user_may_not_read_or_write_in_is_said_in_the_same_form";
    // Root reads and writes whatever the mode says, so the programs are run as
    // `nobody` (uid and gid 65534), which only root can become.
    let root_here = std::fs::metadata("/proc/self").is_ok_and(|m| m.uid() == 0);
    let setpriv = std::process::Command::new("setpriv")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !root_here || !setpriv {
        notice(&format!(
            "skipped: {TEST}: needs to run as root with setpriv (util-linux) to become nobody"
        ));
        return;
    }
    let folders = build_binaries();
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let mode = |path: &std::path::Path, bits: u32| {
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(bits)).unwrap();
    };
    mode(dir, 0o755);
    // The binaries are copied where nobody may run them (the build folder may not be).
    for name in ["connect", "part04", "cnf-grader", "mastermind"] {
        let from = folders
            .iter()
            .map(|f| f.join(name))
            .find(|p| p.is_file())
            .unwrap_or_else(|| panic!("no binary {name}"));
        std::fs::copy(&from, dir.join(name)).unwrap();
        mode(&dir.join(name), 0o755);
    }
    let secret = dir.join("secret.cnf");
    std::fs::write(&secret, "([\"----\",\"----\"],[1])").unwrap();
    mode(&secret, 0o000);
    let locked = dir.join("locked");
    std::fs::create_dir(&locked).unwrap();
    mode(&locked, 0o555);
    let secret = secret.to_str().unwrap().to_owned();
    let into = locked.join("out.bin").to_str().unwrap().to_owned();
    let nobody = |args: &[&str], stdin: &str| {
        let mut all = vec!["--reuid=65534", "--regid=65534", "--clear-groups", "--"];
        let exe = dir.join(args[0]);
        all.push(exe.to_str().unwrap());
        all.extend(&args[1..]);
        Cli::new("setpriv")
            .args(&all)
            .current_dir(dir)
            .stdin(stdin)
            .label(args.join(" "))
            .run()
    };
    let cnf = "a .cnf game file, or - for standard input";
    let unreadable =
        |give: &str| format!("error: {secret}: not readable (permission denied); give {give}\n");
    let mut failed = Vec::new();
    let mut check = |label: String, ok: bool| {
        if !ok {
            failed.push(label);
        }
    };
    for (args, give) in [
        (vec!["connect", "play", &secret], cnf),
        (vec!["part04", &secret], cnf),
        (vec!["cnf-grader", "run", "1", &secret], cnf),
        (
            vec!["connect", "solve", &secret],
            "a FILE of positions, one line of moves each, or - for standard input",
        ),
        (
            vec!["mastermind", "check-tree", &secret],
            "a tree in JSON (as mastermind tree --format json writes it), or - for standard input",
        ),
    ] {
        let run = nobody(&args, "");
        let ok = std::panic::catch_unwind(|| {
            run.code(2).stdout_is("").stderr_is(&unreadable(give));
        })
        .is_ok();
        check(args.join(" "), ok);
    }
    // Writing in a folder this user may not write in: `book -o` and `s FILE`.
    let run = nobody(
        &[
            "connect", "book", "--width", "4", "--height", "4", "--depth", "1", "-o", &into,
        ],
        "",
    );
    let last = run.stderr.lines().last().unwrap_or("").to_owned();
    if run.code_or_signal() != Some(2) {
        notice(&run.describe());
    }
    check(
        "connect book -o".into(),
        run.code_or_signal() == Some(2)
            && last
                == format!(
                    "error: {into}: cannot be written (permission denied); give --output FILE, a file in a folder you may write in"
                ),
    );
    let run = nobody(
        &["connect", "play", "--rows", "4", "--cols", "4"],
        &format!("s {into}\nq\n"),
    );
    let ok = std::panic::catch_unwind(|| {
        run.code(2).stderr_is(&format!(
            "error: <stdin>:1: \"s {into}\": {into}: cannot be written (permission denied); give s FILE, a file in a folder you may write in\n"
        ));
    })
    .is_ok();
    check("connect play, s FILE".into(), ok);
    // Nothing was left behind in the locked folder, not even a temporary file.
    check(
        "the locked folder stays empty".into(),
        std::fs::read_dir(&locked).unwrap().next().is_none(),
    );
    assert!(
        failed.is_empty(),
        "rows that failed (each shown above): {failed:#?}"
    );
}
