//! End-to-end tests of `cnf-grader bless`, `run`, `check` and `gen`, and of
//! bless followed by grade.

use std::fs;
use std::path::Path;
use std::process::{Command, Output, Stdio};

fn grader_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cnf-grader"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .expect("cnf-grader runs")
}

fn manifest() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("UTF-8")
}

const SPEC_GAME: &str = "tests/data/exec-tree/test03.cnf";

#[test]
fn bless_then_grade_passes_and_one_changed_byte_fails_with_its_diff() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    fs::create_dir(d.join("games")).unwrap();
    fs::copy(manifest().join(SPEC_GAME), d.join("games/test03.cnf")).unwrap();

    let out = grader_in(d, &["bless", "games"]);
    assert_eq!(
        text(&out.stdout),
        "created      games/test03.onePlayerOneMove.solution\n\
         created      games/test03.onePlayerManyMoves.solution\n\
         created      games/test03.manyPlayersOneMove.solution\n\
         created      games/test03.manyPlayersManyMoves.solution\n\
         4 created, 0 changed, 0 unchanged\n"
    );
    assert_eq!(out.status.code(), Some(0));
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

    let out = grader_in(d, &["grade", "games", "--no-times"]);
    assert!(text(&out.stdout).ends_with("\n4 passed, 0 failed\n"));
    assert_eq!(out.status.code(), Some(0));

    let check = grader_in(d, &["bless", "--check", "games"]);
    assert!(text(&check.stdout).ends_with("0 would be created, 0 would be changed, 4 unchanged\n"));
    assert_eq!(check.status.code(), Some(0));

    // Change one byte: row 9 of manyPlayersManyMoves, "212233" -> "212833".
    let path = d.join("games/test03.manyPlayersManyMoves.solution");
    let changed = fs::read_to_string(&path)
        .unwrap()
        .replace("\"212233\"", "\"212833\"");
    fs::write(&path, changed).unwrap();
    let out = grader_in(d, &["grade", "games", "--no-times"]);
    let report = text(&out.stdout);
    assert!(
        report.contains(
            "@@ -7,6 +7,6 @@\n \"-31222\"\n \"121212\"\n \"311332\"\n-\"212833\"\n+\"212233\"\n \"113232\"\n \"\"\n"
        ),
        "{report}"
    );
    assert!(report.ends_with("\n3 passed, 1 failed\n"));
    assert_eq!(out.status.code(), Some(1));
    // In colour, exactly that byte is emphasised on both lines.
    let out = grader_in(d, &["grade", "games", "--no-times", "--color", "always"]);
    let coloured = text(&out.stdout);
    assert!(
        coloured.contains("\u{1b}[4m\u{1b}[1m\u{1b}[31m8\u{1b}[39m"),
        "{coloured:?}"
    );
    assert!(
        coloured.contains("\u{1b}[4m\u{1b}[1m\u{1b}[32m2\u{1b}[39m"),
        "{coloured:?}"
    );

    let check = grader_in(d, &["bless", "--check", "games"]);
    assert!(
        text(&check.stdout).contains("would change games/test03.manyPlayersManyMoves.solution\n")
    );
    assert_eq!(check.status.code(), Some(1));
    let again = grader_in(d, &["bless", "games", "--part", "4"]);
    assert_eq!(
        text(&again.stdout),
        "changed      games/test03.manyPlayersManyMoves.solution\n0 created, 1 changed, 0 unchanged\n"
    );
    let out = grader_in(d, &["grade", "games", "--no-times"]);
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn bless_reports_games_it_cannot_read() {
    let tmp = tempfile::tempdir().unwrap();
    fs::write(tmp.path().join("bad.cnf"), "([\"--\"],[3])").unwrap();
    let out = grader_in(tmp.path(), &["bless", "."]);
    // The problem on standard error, as `check` reports its own; the tally
    // on standard output.
    let problems = text(&out.stderr);
    assert!(
        problems.starts_with("error: ./bad.cnf: not a valid game:\n"),
        "{problems}"
    );
    assert!(problems.contains("move 1 is 3"), "{problems}");
    assert_eq!(
        text(&out.stdout),
        "0 created, 0 changed, 0 unchanged, 1 error\n"
    );
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn run_is_the_part_binary() {
    let dir = manifest();
    for part in ["1", "2", "3", "4"] {
        let ours = grader_in(dir, &["run", part, SPEC_GAME]);
        let binary =
            Command::new(env!("CARGO_BIN_EXE_part01").replace("part01", &format!("part0{part}")))
                .arg(SPEC_GAME)
                .current_dir(dir)
                .output()
                .unwrap();
        assert_eq!(ours.stdout, binary.stdout);
        assert_eq!(ours.status.code(), Some(0));
    }
    // The spec's part 1 result (§5), literally.
    let out = grader_in(dir, &["run", "onePlayerOneMove", SPEC_GAME]);
    assert_eq!(
        text(&out.stdout),
        "\"Result\"\n\"------\"\n\"------\"\n\"------\"\n\"------\"\n\"------\"\n\"------\"\n\"------\"\n\"-----2\"\n\"-12--3\"\n\"1132-2\"\n\"\"\n"
    );
    let bad = grader_in(dir, &["run", "1", "tests/data/errors/bad.cnf"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(bad.stdout.is_empty());
    assert!(text(&bad.stderr).starts_with("error: tests/data/errors/bad.cnf:1:13: "));
}

#[test]
fn check_reports_every_file() {
    let out = grader_in(
        manifest(),
        &[
            "check",
            SPEC_GAME,
            "tests/data/errors/bad.cnf",
            "no/such.cnf",
        ],
    );
    // Verdicts on standard output, problems on standard error; a file
    // that cannot be read is an input error (exit 2).
    assert_eq!(
        text(&out.stdout),
        "tests/data/exec-tree/test03.cnf: ok (10 rows, 6 columns, 50 moves, players 1-3)\n\
         1 valid, 1 invalid, 1 unreadable\n"
    );
    let err = text(&out.stderr);
    assert!(
        err.starts_with(
            "error: tests/data/errors/bad.cnf:1:13: row 2, column 3: '*' is not a cell"
        ),
        "{err}"
    );
    assert!(err.contains("error: cannot read no/such.cnf"), "{err}");
    assert_eq!(out.status.code(), Some(2));
    let bad = grader_in(manifest(), &["check", "tests/data/errors/bad.cnf"]);
    assert_eq!(bad.status.code(), Some(1));
    let ok = grader_in(manifest(), &["check", SPEC_GAME]);
    assert_eq!(ok.status.code(), Some(0));
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
    let run = |name: &str| {
        let a = args(name);
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        grader_in(d, &a)
    };
    let out = run("one/g");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).starts_with("seed 42: 8x9 board, 4 players, 30 moves\nwrote one/g.cnf\n")
    );
    run("two/g");
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
    let again = run("one/g");
    assert_eq!(again.status.code(), Some(2));
    assert!(text(&again.stderr).contains("already exists"));
    let check = grader_in(d, &["check", "one/g.cnf"]);
    assert!(text(&check.stdout).contains("8 rows, 9 columns, 30 moves, players 1-4"));
    let grade = grader_in(d, &["grade", ".", "--no-times"]);
    assert!(text(&grade.stdout).ends_with("\n8 passed, 0 failed\n"));
}

#[test]
fn small_things_a_new_user_tripped_over() {
    let tmp = tempfile::tempdir().unwrap();
    // An empty file name is shown quoted.
    let o = grader_in(tmp.path(), &["run", "1", ""]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).starts_with("error: cannot read \"\" (an empty file name): "),
        "{}",
        text(&o.stderr)
    );
    // `gen --name g/` would write a hidden g/.cnf.
    fs::create_dir(tmp.path().join("g")).unwrap();
    let o = grader_in(tmp.path(), &["gen", "--name", "g/", "--seed", "1"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("the game needs a file name"),
        "{}",
        text(&o.stderr)
    );
    assert_eq!(fs::read_dir(tmp.path().join("g")).unwrap().count(), 0);
    // bless lists what it wrote and only counts what it left alone.
    let o = grader_in(tmp.path(), &["gen", "--name", "g/a", "--seed", "1"]);
    assert_eq!(o.status.code(), Some(0));
    let o = grader_in(tmp.path(), &["bless", "g"]);
    assert_eq!(text(&o.stdout), "0 created, 0 changed, 4 unchanged\n");
}
