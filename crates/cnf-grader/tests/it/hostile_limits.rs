//! Limits that hold on hostile input: 10 million moves, a row of 10 million
//! cells, parentheses nested a million deep (all read, no stack overflow),
//! and a 100 MB `.cnf` played by `part04` under a 1.5 GB address-space
//! limit. The full sizes take tens of seconds in a debug build, so the
//! normal suite runs each case at a tenth of the size (the code paths are
//! linear) and the full sizes are `#[ignore]`d, to be run in release:
//!
//! ```text
//! cargo test --release -p cnf-grader --test it hostile_limits:: -- --include-ignored
//! ```

use cnf_grader::format::cnf::parse_cnf;
use cnf_grader::format::play::play_source;
use cnf_grader::format::solution::parse_solution;
use connect_core::{Function, Player};
use test_support::Cli;

fn parse(src: &str) -> cnf_grader::format::cnf::CnfGame {
    parse_cnf(src).unwrap_or_else(|d| panic!("{}", d.render("t.cnf", src)))
}

#[test]
fn a_million_moves_are_read_and_played() {
    moves_are_read_and_played(1_000_000);
}

#[test]
#[ignore = "full size: run in release (see the file's docs)"]
fn ten_million_moves_are_read_and_played() {
    moves_are_read_and_played(10_000_000);
}

fn moves_are_read_and_played(n: usize) {
    let mut src = String::with_capacity(2 * n + 40);
    src.push_str("([\"---\",\"---\"],[");
    for i in 0..n {
        src.push(if i % 2 == 0 { '1' } else { '3' });
        src.push(',');
    }
    src.push_str("2])");
    let game = parse(&src);
    assert_eq!(game.moves.len(), n + 1);
    assert_eq!(game.moves[n - 1], 3);
    // Part 2 skips moves into full columns (the spec's rule), so the board
    // ends full: columns 1 and 3 alternate, column 2 gets the last move.
    let out = play_source(Function::OnePlayerManyMoves, &src, None).expect("plays");
    assert_eq!(parse_solution(&out).expect("solution"), ["1-1", "111"]);
}

#[test]
fn a_hundred_thousand_bad_moves_give_a_thousand_problems() {
    bad_moves_give_a_thousand_problems(100_000);
}

#[test]
#[ignore = "full size: run in release (see the file's docs)"]
fn ten_million_bad_moves_give_a_thousand_problems() {
    bad_moves_give_a_thousand_problems(10_000_000);
}

/// `n + 1` moves outside the board: the diagnostics are capped.
fn bad_moves_give_a_thousand_problems(n: usize) {
    let src = format!("([\"-\"],[{}9])", "9,".repeat(n));
    let d = parse_cnf(&src).unwrap_err();
    assert_eq!(d.0.len(), 1001);
    assert_eq!(
        d.0[1000].message,
        format!("{} further problems were not listed", n + 1 - 1000)
    );
}

#[test]
fn a_row_of_a_million_cells() {
    row_of_cells(1_000_000);
}

#[test]
#[ignore = "full size: run in release (see the file's docs)"]
fn a_row_of_ten_million_cells() {
    row_of_cells(10_000_000);
}

fn row_of_cells(n: usize) {
    let src = format!("([\"{}\"],[1,{n}])", "-".repeat(n));
    let game = parse(&src);
    assert_eq!(game.board.width(), n);
    let out = play_source(Function::ManyPlayersManyMoves, &src, Player::new(2)).expect("plays");
    let rows = parse_solution(&out).expect("solution");
    assert_eq!(rows.len(), 1);
    assert!(rows[0].starts_with("1-"));
    assert!(rows[0].ends_with("-2"));
    // One bad cell at the far end is found and placed.
    let src = format!("([\"{}.\"],[1])", "-".repeat(n - 1));
    let Err(d) = parse_cnf(&src) else {
        panic!("a row ending in '.' parsed")
    };
    let shown = d.render("t.cnf", &src).to_string();
    assert!(
        shown.starts_with(&format!(
            "t.cnf:1:{}: row 1, column {n}: '.' is not a cell",
            n + 3
        )),
        "{}",
        &shown[..200]
    );
}

#[test]
fn parentheses_nested_a_hundred_thousand_deep_everywhere() {
    nested_everywhere(100_000);
}

#[test]
#[ignore = "full size: run in release (see the file's docs)"]
fn parentheses_nested_a_million_deep_everywhere() {
    nested_everywhere(1_000_000);
}

fn nested_everywhere(n: usize) {
    let (o, c) = ("(".repeat(n), ")".repeat(n));
    // Around the game, the row list, a row, the move list and a move.
    for src in [
        format!("{o}[\"-1\"],[1]{c}"),
        format!("({o}[\"-1\"]{c},[1])"),
        format!("([{o}\"-1\"{c}],[1])"),
        format!("([\"-1\"],{o}[1]{c})"),
        format!("([\"-1\"],[{o}1{c}])"),
    ] {
        let game = parse(&src);
        assert_eq!(game.moves, [1]);
    }
    // Unbalanced: a clear error at the end, not a stack overflow.
    let src = format!("([\"-1\"],[{o}1])");
    let shown = parse_cnf(&src)
        .unwrap_err()
        .render("t.cnf", &src)
        .to_string();
    assert!(shown.contains("expected ')'"), "{}", &shown[..200]);
    let src = format!("{o}{o}");
    assert!(parse_cnf(&src).is_err());
}

/// The `.cnf` text of `rows` rows of `width` empty cells, and three moves.
fn big_cnf(rows: usize, width: usize) -> String {
    let row = format!("\"{}\"", "-".repeat(width));
    format!("([{}],[1,2,{width}])\n", vec![row; rows].join(",\n"))
}

#[test]
#[ignore = "writes a 100 MB file and plays it: run in release (see the file's docs)"]
fn a_100_mb_cnf_is_played_within_1_5_gb_of_address_space() {
    let dir = tempfile::tempdir().expect("temporary folder");
    let cnf = dir.path().join("big.cnf");
    std::fs::write(&cnf, big_cnf(10, 10_000_000)).expect("write");
    assert!(std::fs::metadata(&cnf).expect("size").len() >= 100_000_000);
    // `ulimit -v` (KiB) makes an allocation past the limit fail, and the
    // program abort: a memory blow-up fails this test on any machine.
    let solution = dir.path().join("big.solution");
    Cli::new("sh")
        .arg("-c")
        .arg("ulimit -v 1500000 && exec \"$0\" --players 2 \"$1\" > \"$2\"")
        .arg(env!("CARGO_BIN_EXE_part04"))
        .arg(&cnf)
        .arg(&solution)
        .run()
        .clean();
    let text = std::fs::read_to_string(&solution).expect("the result");
    let rows = parse_solution(&text).expect("a .solution");
    assert_eq!(rows.len(), 10);
    assert!(rows[9].starts_with("12-"), "{}", &rows[9][..10]);
    assert!(rows[9].ends_with("-1"));
}
