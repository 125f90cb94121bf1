//! The four part binaries run on every fixture and on bad input, as the
//! course's executables were run.

use std::path::{Path, PathBuf};
use std::time::Duration;

use connect_core::Function;
use test_support::Cli;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures")
}

fn bin(function: Function) -> &'static str {
    match function.part() {
        1 => env!("CARGO_BIN_EXE_part01"),
        2 => env!("CARGO_BIN_EXE_part02"),
        3 => env!("CARGO_BIN_EXE_part03"),
        _ => env!("CARGO_BIN_EXE_part04"),
    }
}

/// The part binary of `function`, with `args` and `stdin` (which it may
/// exit before reading: a closed pipe is fine).
fn part(function: Function, args: &[&str], stdin: &[u8]) -> Cli {
    Cli::new(bin(function)).args(args).stdin(stdin)
}

#[test]
fn every_fixture_matches_byte_for_byte() {
    let mut cases = 0;
    // The base folder and its group folders (extra-credit/, edge/): each
    // game there has the .solution files of its group's parts.
    let mut entries: Vec<_> = ["", "extra-credit", "edge"]
        .iter()
        .flat_map(|group| std::fs::read_dir(fixtures().join(group)).unwrap())
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for cnf in entries
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "cnf"))
    {
        let mut own = 0;
        for f in Function::ALL {
            let expected_path = cnf.with_extension(format!("{}.solution", f.name()));
            if !expected_path.exists() {
                continue;
            }
            let expected = std::fs::read(&expected_path)
                .unwrap_or_else(|e| panic!("{}: {e}", expected_path.display()));
            part(f, &[cnf.to_str().unwrap()], b"")
                .label(format!("{} {f}", cnf.display()))
                .run()
                .stdout_is(&String::from_utf8_lossy(&expected))
                .clean();
            own += 1;
        }
        assert!(own > 0, "{}: no .solution file", cnf.display());
        cases += own;
    }
    assert!(cases >= 100, "only {cases} cases: fixtures missing?");
}

#[test]
fn dash_reads_standard_input() {
    let src = std::fs::read(fixtures().join("test03.cnf")).unwrap();
    let expected = std::fs::read(fixtures().join("test03.manyPlayersOneMove.solution")).unwrap();
    let run = part(Function::ManyPlayersOneMove, &["-"], &src).run();
    assert_eq!(run.stdout_bytes, expected, "{}", run.describe());
    run.code(0);
}

#[test]
fn a_byte_order_mark_at_the_start_is_skipped() {
    // Windows Notepad saves UTF-8 with a byte-order mark in front.
    let mut src = "\u{feff}".as_bytes().to_vec();
    src.extend(std::fs::read(fixtures().join("test03.cnf")).unwrap());
    let expected = std::fs::read(fixtures().join("test03.manyPlayersOneMove.solution")).unwrap();
    let run = part(Function::ManyPlayersOneMove, &["-"], &src).run();
    assert_eq!(run.stdout_bytes, expected, "{}", run.describe());
    run.code(0);
    // An error on the first line counts its column after the mark and shows
    // the line without it: the same report as without the mark.
    let bad = r#"(["--","-"],[1])"#;
    check_bad(
        Function::OnePlayerManyMoves,
        &["-"],
        format!("\u{feff}{bad}").as_bytes(),
        "error: <stdin>:1:8: row 2 has 1 cell, but row 1 has 2; every row must have the same length\n1 | ([\"--\",\"-\"],[1])\n  |        ^\n",
    );
}

#[test]
fn players_option_overrides_the_count() {
    // Three players by the board; with --players 2 player 1 plays move 3.
    let src = b"([\"---\",\"--3\"],[1,1,2])";
    part(
        Function::ManyPlayersManyMoves,
        &["-", "--players", "2"],
        src,
    )
    .run()
    .stdout_is("\"Result\"\n\"2--\"\n\"113\"\n\"\"\n");
    // Without it: players 1, 2, 3.
    part(Function::ManyPlayersManyMoves, &["-"], src)
        .run()
        .stdout_is("\"Result\"\n\"2--\"\n\"133\"\n\"\"\n");
    // An empty board needs it.
    part(
        Function::ManyPlayersOneMove,
        &["-", "--players", "2"],
        b"([\"--\"],[2,1])",
    )
    .run()
    .stdout_is("\"Result\"\n\"21\"\n\"\"\n");
}

/// Bad input: exit code 2, the expected message on standard error, nothing on standard output.
#[track_caller]
fn check_bad(function: Function, args: &[&str], stdin: &[u8], message: &str) {
    part(function, args, stdin)
        .label(format!("input {:?}", String::from_utf8_lossy(stdin)))
        .run()
        .code(2)
        .stdout_is("")
        .stderr_has(message)
        // One prefix.
        .stderr_starts("error: ");
}

#[test]
fn bad_input_exits_2_with_a_message_and_no_output() {
    use Function::*;
    check_bad(
        OnePlayerOneMove,
        &["no/such.cnf"],
        b"",
        "error: no/such.cnf: no such file or folder (relative to the current folder, ",
    );
    check_bad(
        OnePlayerOneMove,
        &["-"],
        b"([\"--\"],[])",
        "<stdin>: the move list is empty",
    );
    check_bad(
        OnePlayerManyMoves,
        &["-"],
        b"(\n[\"--\",\n\"-\"],[1])",
        "<stdin>:3:1: row 2 has 1 cell, but row 1 has 2",
    );
    check_bad(
        OnePlayerManyMoves,
        &["-"],
        b"([\"-Q\"],[1])",
        "<stdin>:1:5: row 1, column 2: 'Q' is not a cell",
    );
    check_bad(
        ManyPlayersOneMove,
        &["-"],
        b"([\"--\"],[1,3])",
        "<stdin>:1:12: move 2 is 3, but the board has columns 1 to 2",
    );
    check_bad(
        ManyPlayersOneMove,
        &["-"],
        b"([\"--\"],[1])",
        "the board holds no player pieces",
    );
    check_bad(
        ManyPlayersManyMoves,
        &["-"],
        b"([\"-1\"],[1,,2])",
        "<stdin>:1:12: expected a move (a column number such as 3), found ','\n1 | ([\"-1\"],[1,,2])\n  |            ^",
    );
    check_bad(
        ManyPlayersManyMoves,
        &["-"],
        b"([\"-1\"],[1,123456789012345678901234567890])",
        "move 2 is 123456789012345678901234567890, a number too large to be a column",
    );
    check_bad(
        OnePlayerOneMove,
        &["-"],
        b"([\"-\xff\"],[1])",
        "<stdin>:1:5: not UTF-8 text (byte 4 is invalid)",
    );
    check_bad(
        ManyPlayersOneMove,
        &["-", "--players", "36"],
        b"",
        "36 is not in 1..=35",
    );
    check_bad(
        OnePlayerOneMove,
        &["-", "--players", "2"],
        b"",
        "unexpected argument '--players'",
    );
    check_bad(
        OnePlayerOneMove,
        &[],
        b"",
        "required arguments were not provided",
    );
}

#[test]
fn help_explains_the_function() {
    part(Function::OnePlayerManyMoves, &["--help"], b"")
        .run()
        .code(0)
        .stdout_has("onePlayerManyMoves: player 1 plays every move in order");
}

/// `part01 -` on a terminal says it is waiting for a game and how to end
/// it, as `peg` does; piped, standard error stays empty.
#[test]
fn reading_standard_input_on_a_terminal_says_so() {
    let game = b"([\"--\",\"--\"],[1])\n\x04";
    let run = Cli::new(bin(Function::OnePlayerOneMove))
        .arg("-")
        .timeout(Duration::from_secs(60))
        .run_on_terminal(game);
    assert_eq!(run.code, Some(0), "{}", run.screen);
    let note = "note: reading a game, e.g. ([\"----\",\"-12-\"],[1,4]) from standard input (end it \
                with Ctrl-D); or give a .cnf file instead of -";
    assert!(run.screen.contains(note), "{}", run.screen);
    assert!(run.screen.contains("\"1-\""), "{}", run.screen);
    part(Function::OnePlayerOneMove, &["-"], b"([\"--\",\"--\"],[1])")
        .run()
        .clean();
}
