//! End-to-end tests of `cnf-grader bless`, `run`, `check` and `gen`, and of
//! bless followed by grade.

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

fn manifest() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

const SPEC_GAME: &str = "tests/data/exec-tree/test03.cnf";

#[test]
fn bless_then_grade_passes_and_one_changed_byte_fails_with_its_diff() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    fs::create_dir(d.join("games")).unwrap();
    fs::copy(manifest().join(SPEC_GAME), d.join("games/test03.cnf")).unwrap();

    grader_in(d, &["bless", "games"])
        .run()
        .stdout_is(
            "created      games/test03.onePlayerOneMove.solution\n\
             created      games/test03.onePlayerManyMoves.solution\n\
             created      games/test03.manyPlayersOneMove.solution\n\
             created      games/test03.manyPlayersManyMoves.solution\n\
             4 created, 0 changed, 0 unchanged\n",
        )
        .code(0);
    // The blessed files are the spec's results.
    for f in [
        "onePlayerOneMove",
        "onePlayerManyMoves",
        "manyPlayersOneMove",
        "manyPlayersManyMoves",
    ] {
        let name = format!("test03.{f}.solution");
        assert_eq!(
            fs::read(d.join("games").join(&name)).unwrap(),
            fs::read(manifest().join("tests/data/exec-tree").join(&name)).unwrap()
        );
    }

    let run = grader_in(d, &["grade", "games", "--no-times"]).run();
    assert!(
        run.stdout.ends_with("\n4 passed, 0 failed\n"),
        "{}",
        run.describe()
    );
    run.code(0);

    let check = grader_in(d, &["bless", "--check", "games"]).run();
    assert!(
        check
            .stdout
            .ends_with("0 would be created, 0 would be changed, 4 unchanged\n"),
        "{}",
        check.describe()
    );
    check.code(0);

    // Change one byte: row 9 of manyPlayersManyMoves, "212233" -> "212833".
    let path = d.join("games/test03.manyPlayersManyMoves.solution");
    let changed = fs::read_to_string(&path)
        .unwrap()
        .replace("\"212233\"", "\"212833\"");
    fs::write(&path, changed).unwrap();
    let run = grader_in(d, &["grade", "games", "--no-times"]).run();
    run.stdout_has(
        "@@ -7,6 +7,6 @@\n \"-31222\"\n \"121212\"\n \"311332\"\n-\"212833\"\n+\"212233\"\n \"113232\"\n \"\"\n",
    );
    assert!(
        run.stdout.ends_with("\n3 passed, 1 failed\n"),
        "{}",
        run.describe()
    );
    run.code(1);
    // In colour, exactly that byte is emphasised on both lines.
    let coloured = grader_in(d, &["grade", "games", "--no-times", "--color", "always"]).run();
    coloured
        .stdout_has("\u{1b}[4m\u{1b}[1m\u{1b}[31m8\u{1b}[39m")
        .stdout_has("\u{1b}[4m\u{1b}[1m\u{1b}[32m2\u{1b}[39m");

    grader_in(d, &["bless", "--check", "games"])
        .run()
        .stdout_has("would change games/test03.manyPlayersManyMoves.solution\n")
        .code(1);
    grader_in(d, &["bless", "games", "--part", "4"])
        .run()
        .stdout_is(
            "changed      games/test03.manyPlayersManyMoves.solution\n0 created, 1 changed, 0 unchanged\n",
        );
    grader_in(d, &["grade", "games", "--no-times"])
        .run()
        .code(0);
}

#[test]
fn bless_reports_games_it_cannot_read() {
    let tmp = tempfile::tempdir().unwrap();
    fs::write(tmp.path().join("bad.cnf"), "([\"--\"],[3])").unwrap();
    // The problem on standard error, as `check` reports its own; the tally
    // on standard output.
    grader_in(tmp.path(), &["bless", "."])
        .run()
        .stderr_starts("error: ./bad.cnf: not a valid game:\n")
        .stderr_has("move 1 is 3")
        .stdout_is("0 created, 0 changed, 0 unchanged, 1 error\n")
        .code(1);
}

#[test]
fn run_is_the_part_binary() {
    let dir = manifest();
    for part in ["1", "2", "3", "4"] {
        let ours = grader_in(dir, &["run", part, SPEC_GAME]).run();
        let binary =
            Cli::new(env!("CARGO_BIN_EXE_part01").replace("part01", &format!("part0{part}")))
                .arg(SPEC_GAME)
                .current_dir(dir)
                .run();
        assert_eq!(
            ours.stdout_bytes,
            binary.stdout_bytes,
            "{}\n{}",
            ours.describe(),
            binary.describe()
        );
        ours.code(0);
    }
    // The spec's part 1 result (§5), literally.
    grader_in(dir, &["run", "onePlayerOneMove", SPEC_GAME])
        .run()
        .stdout_is(
            "\"Result\"\n\"------\"\n\"------\"\n\"------\"\n\"------\"\n\"------\"\n\"------\"\n\"------\"\n\"-----2\"\n\"-12--3\"\n\"1132-2\"\n\"\"\n",
        );
    grader_in(dir, &["run", "1", "tests/data/errors/bad.cnf"])
        .run()
        .code(2)
        .stdout_is("")
        .stderr_starts("error: tests/data/errors/bad.cnf:1:13: ");
}

#[test]
fn check_reports_every_file() {
    // Verdicts on standard output, problems on standard error; a file
    // that cannot be read is an input error (exit 2).
    grader_in(
        manifest(),
        &[
            "check",
            SPEC_GAME,
            "tests/data/errors/bad.cnf",
            "no/such.cnf",
        ],
    )
    .run()
    .stdout_is(
        "tests/data/exec-tree/test03.cnf: ok (10 rows, 6 columns, 50 moves, players 1-3)\n\
         1 valid, 1 invalid, 1 unreadable\n",
    )
    .stderr_starts("error: tests/data/errors/bad.cnf:1:13: row 2, column 3: '*' is not a cell")
    .stderr_has("error: no/such.cnf: no such file or folder (relative to the current folder, ")
    .code(2);
    grader_in(manifest(), &["check", "tests/data/errors/bad.cnf"])
        .run()
        .code(1);
    grader_in(manifest(), &["check", SPEC_GAME]).run().code(0);
}

#[test]
fn gen_is_deterministic_and_its_games_grade() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let args = |name: &str| {
        vec![
            "gen".to_owned(),
            "--rows=8".into(),
            "--cols=9".into(),
            "--players=4".into(),
            "--moves=30".into(),
            "--seed=42".into(),
            format!("--name={name}"),
        ]
    };
    let gen_named = |name: &str| grader_in(d, &[]).args(args(name)).run();
    let run = gen_named("one/g");
    run.code(0);
    assert!(
        run.stdout
            .starts_with("seed 42: 8x9 board, 4 players, 30 moves\nwrote one/g.cnf\n"),
        "{}",
        run.describe()
    );
    gen_named("two/g");
    for suffix in [
        "cnf",
        "onePlayerOneMove.solution",
        "onePlayerManyMoves.solution",
        "manyPlayersOneMove.solution",
        "manyPlayersManyMoves.solution",
    ] {
        assert_eq!(
            fs::read(d.join(format!("one/g.{suffix}"))).unwrap(),
            fs::read(d.join(format!("two/g.{suffix}"))).unwrap()
        );
    }
    // Refuses to overwrite without --force.
    gen_named("one/g").code(2).stderr_has("already exists");
    grader_in(d, &["check", "one/g.cnf"])
        .run()
        .stdout_has("8 rows, 9 columns, 30 moves, players 1-4");
    let grade = grader_in(d, &["grade", ".", "--no-times"]).run();
    assert!(
        grade.stdout.ends_with("\n8 passed, 0 failed\n"),
        "{}",
        grade.describe()
    );
}

#[test]
fn small_things_a_new_user_tripped_over() {
    let tmp = tempfile::tempdir().unwrap();
    // An empty file name is shown quoted.
    grader_in(tmp.path(), &["run", "1", ""])
        .run()
        .code(2)
        .stderr_starts("error: \"\": no such file or folder (relative to the current folder, ");
    // `gen --name g/` would write a hidden g/.cnf.
    fs::create_dir(tmp.path().join("g")).unwrap();
    grader_in(tmp.path(), &["gen", "--name", "g/", "--seed", "1"])
        .run()
        .code(2)
        .stderr_has("the game needs a file name");
    assert_eq!(fs::read_dir(tmp.path().join("g")).unwrap().count(), 0);
    // bless lists what it wrote and only counts what it left alone.
    grader_in(tmp.path(), &["gen", "--name", "g/a", "--seed", "1"])
        .run()
        .code(0);
    grader_in(tmp.path(), &["bless", "g"])
        .run()
        .stdout_is("0 created, 0 changed, 4 unchanged\n");
}

/// `grade --help` names the default comparison, and says what it is as
/// grading does it: with the default, an output with one trailing space
/// fails; with `--compare trailing-whitespace` it passes.
#[test]
fn grade_help_names_the_default_comparison_as_grading_does_it() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let help = grader_in(d, &["grade", "--help"]).run();
    help.code(0);
    let text = String::from_utf8_lossy(&help.stdout_bytes).replace('\n', " ");
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        text.contains(
            "by default with --compare exact (byte for byte: a trailing space or a CRLF is a \
             difference)"
        ),
        "{text}"
    );
    assert!(text.contains("[default: exact]"), "{text}");
    fs::copy(manifest().join(SPEC_GAME), d.join("test03.cnf")).unwrap();
    grader_in(d, &["bless", "test03.cnf", "--part", "1"])
        .run()
        .code(0);
    let exe = env!("CARGO_BIN_EXE_cnf-grader");
    // The right output, with a space at the end of each line.
    let command = format!("'{exe}' run {{part}} {{input}} | sed 's/$/ /'");
    let grade = |extra: &[&str]| {
        let mut args = vec!["grade", "test03.cnf", "--exec", &command, "--no-sandbox"];
        args.extend(extra);
        grader_in(d, &args).run()
    };
    grade(&[]).code(1);
    grade(&["--compare", "trailing-whitespace"]).code(0);
}
