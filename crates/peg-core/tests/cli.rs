//! End-to-end tests of the `peg` binary: stdout, stderr and exit codes.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn peg(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_peg"))
        .args(args)
        .env_remove("NO_COLOR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("peg runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

/// `createBoard (1,1)` typed out by hand (canonical order, spec §1).
const CREATE_1_1: &str = "[Peg (-3,-1) B,Peg (-3,0) B,Peg (-3,1) B,Peg (-2,-1) B,Peg (-2,0) B,Peg (-2,1) B,\
Peg (-1,-3) B,Peg (-1,-2) B,Peg (-1,-1) B,Peg (-1,0) B,Peg (-1,1) B,Peg (-1,2) B,Peg (-1,3) B,\
Peg (0,-3) B,Peg (0,-2) B,Peg (0,-1) B,Peg (0,0) B,Peg (0,1) B,Peg (0,2) B,Peg (0,3) B,\
Peg (1,-3) B,Peg (1,-2) B,Peg (1,-1) B,Peg (1,0) B,Peg (1,1) W,Peg (1,2) B,Peg (1,3) B,\
Peg (2,-1) B,Peg (2,0) B,Peg (2,1) B,Peg (3,-1) B,Peg (3,0) B,Peg (3,1) B]\n";

#[test]
fn create_prints_the_board_for_both_position_spellings() {
    for arg in ["1,1", "(1,1)", " ( 1 , 1 ) "] {
        let out = peg(&["create", arg], "");
        assert_eq!(out.status.code(), Some(0), "{arg}");
        assert_eq!(text(&out.stdout), CREATE_1_1, "{arg}");
        assert!(out.stderr.is_empty());
    }
}

#[test]
fn create_takes_negative_positions() {
    let out = peg(&["create", "-2,1"], "");
    assert_eq!(out.status.code(), Some(0));
    let s = text(&out.stdout);
    assert!(s.contains(",Peg (-2,1) W,"), "{s}");
    assert_eq!(s.matches(" W").count(), 1);
    let out = peg(&["create", "(-3,-1)"], "");
    assert!(text(&out.stdout).starts_with("[Peg (-3,-1) W,"));
}

#[test]
fn create_off_the_board_is_the_exact_error() {
    let out = peg(&["create", "-2,2"], "");
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    assert_eq!(text(&out.stderr), "The position is not valid.\n");
}

#[test]
fn unreadable_position_exits_2() {
    let out = peg(&["create", "one,two"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    assert!(text(&out.stderr).contains("cannot read a position"));
}

#[test]
fn valid_reads_the_board_from_stdin_or_flag() {
    let board = "[Peg (2,0) W,Peg (1,0) B,\n  Peg (-2,0) B]";
    assert_eq!(text(&peg(&["valid", "1,0"], board).stdout), "True\n");
    assert_eq!(text(&peg(&["valid", "-2,0"], board).stdout), "False\n");
    assert_eq!(
        text(&peg(&["valid", "(1,0)", "--board", board], "").stdout),
        "True\n"
    );
    assert_eq!(
        text(&peg(&["valid", "--board", board, "-2,0"], "").stdout),
        "False\n"
    );
}

#[test]
fn goal_prints_haskell_bools() {
    assert_eq!(
        text(&peg(&["goal"], "[Peg (0,0) W, Peg (1,0) W]").stdout),
        "True\n"
    );
    assert_eq!(
        text(&peg(&["goal"], "[Peg (0,0) W, Peg (1,0) B]").stdout),
        "False\n"
    );
    assert_eq!(text(&peg(&["goal"], CREATE_1_1).stdout), "False\n");
}

#[test]
fn next_prints_the_states_as_print_would() {
    let out = peg(&["next"], "[Peg (0,0) W, Peg (1,0) B]");
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        text(&out.stdout),
        "[S (M (1,0)) [Peg (0,0) W,Peg (1,0) W]]\n"
    );
    // From the centre: four states, moves in board order.
    let board = text(&peg(&["create", "0,0"], "").stdout);
    let out = text(&peg(&["next"], &board).stdout);
    let moves: Vec<&str> = out
        .match_indices("S (M (")
        .map(|(i, _)| &out[i..i + 12])
        .collect();
    assert_eq!(moves.len(), 4);
    assert!(out.starts_with("[S (M (-1,0)) [Peg (-3,-1) B,"));
    assert!(out.contains("],S (M (0,-1)) ["));
    assert!(out.contains("],S (M (0,1)) ["));
    assert!(out.contains("],S (M (1,0)) ["));
    assert!(out.ends_with("Peg (3,1) B]]\n"));
}

#[test]
fn next_without_a_black_peg_is_the_exact_error() {
    let out = peg(&["next", "--board", "[Peg (0,0) W,Peg (1,0) W]"], "");
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    assert_eq!(text(&out.stderr), "No Possible States Exist.\n");
}

#[test]
fn unreadable_board_exits_2_with_line_and_column() {
    let out = peg(&["next"], "[Peg (0,0) W,\nPeg (1,0) X]");
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let err = text(&out.stderr);
    assert!(err.contains("<stdin>:2:11:"), "{err}");
    let out = peg(&["goal"], "[Peg (0,0) W,Peg (4,4) B]");
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    assert!(text(&out.stderr).contains("`Peg (4,4) B`"));
    let out = peg(
        &["valid", "0,0", "--board", "[Peg (0,0) W,Peg (0,0) B]"],
        "",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("--board:1:14:"));
}

#[test]
fn solve_prints_32_moves_that_win() {
    let out = peg(&["solve", "--start", "-3,-1"], "");
    assert_eq!(out.status.code(), Some(0));
    let s = text(&out.stdout);
    let lines: Vec<&str> = s.lines().collect();
    assert_eq!(lines.len(), 32);
    assert!(lines.iter().all(|l| l.starts_with("M (")));
    // Feed the solution to the game: it must end with the congratulation.
    let mut script: String = lines.iter().map(|l| format!("{}\n", &l[2..])).collect();
    // One detour: play the first move, take it back, then play the solution.
    script.insert_str(0, &format!("{}\nundo\n", &lines[0][2..]));
    let out = peg(&["play", "--start", "-3,-1"], &script);
    assert_eq!(out.status.code(), Some(0));
    let s = text(&out.stdout);
    assert!(s.contains("Congratulations"), "{s}");
    assert!(
        s.contains("you won in 32 moves (1 move taken back on the way).\n"),
        "{s}"
    );
    assert!(!s.contains("Refused"));
}

#[test]
fn count_on_the_full_board_is_refused_off_board() {
    let out = peg(&["count", "--start", "5,5"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("(5,5) is not a hole of the + board"));
}

#[test]
fn play_scripted_game_through_a_pipe() {
    // Ends without `quit`: end of input must end the game quietly.
    let script = "0,0\n1,0\n0,0\n5,5\n3,3\n0,2\nbanana\nundo\nhint\nmoves\n";
    let out = peg(&["play", "--start", "0,0"], script);
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stderr.is_empty());
    let s = text(&out.stdout);
    // Plain text when stdout is not a terminal.
    assert!(!s.contains('\u{1b}'), "no colour codes in a pipe");
    assert!(s.contains("You start with the white peg at (0,0)."));
    assert!(s.contains("    -3 -2 -1  0  1  2  3\n"), "{s}");
    assert!(s.contains("  0  B  B  B  W  B  B  B\n"), "{s}");
    assert!(s.contains("Valid moves: (-1,0) (0,-1) (0,1) (1,0)\n"));
    assert!(s.contains("Refused: the peg at (0,0) is already white. Try again."));
    assert!(s.contains("  0  B  B  B  W  W  B  B\n"), "after 1,0: {s}");
    assert!(s.contains("Refused: (5,5) is not on the board. Try again."));
    assert!(s.contains("Refused: (3,3) is not on the board. Try again."));
    assert!(s.contains("Refused: the peg at (0,2) has no white neighbour"));
    assert!(s.contains("Cannot read `banana`"));
    assert!(s.contains("Took back (1,0); it is black again."));
    assert!(s.contains("Hint: try (-1,0)."), "{s}");
    assert!(!s.contains("Bye."), "{s}");
    // Turn numbers: after the undo the game asks for move 1 again.
    assert!(s.contains("move 2> "));
    assert!(
        s.ends_with("move 1> Valid moves: (-1,0) (0,-1) (0,1) (1,0)\nmove 1> \n"),
        "{s}"
    );
}

#[test]
fn play_quit_says_goodbye() {
    let out = peg(&["play", "--start", "0,0"], "0,1\nquit\n0,2\n");
    assert_eq!(out.status.code(), Some(0));
    let s = text(&out.stdout);
    assert!(s.ends_with("move 2> Bye.\n"), "{s}");
}

#[test]
fn play_quits_quietly_at_end_of_input() {
    let out = peg(&["play", "--start", "-2,1"], "0,1\n");
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stderr.is_empty());
    let s = text(&out.stdout);
    assert!(s.contains("Refused: the peg at (0,1) has no white neighbour"));
    assert!(s.ends_with("move 1> \n"), "{s:?}");
}

#[test]
fn play_random_start_is_repeatable_with_a_seed() {
    let a = text(&peg(&["play", "--seed", "42"], "").stdout);
    let b = text(&peg(&["play", "--seed", "42"], "").stdout);
    assert_eq!(a, b);
    assert!(a.contains("You start with the white peg at ("));
    // An off-board start is bad input, like one that does not read.
    for start in ["3,3", "9,9", "abc"] {
        let out = peg(&["play", "--start", start], "");
        assert_eq!(out.status.code(), Some(2), "{start}");
        assert!(
            text(&out.stderr).starts_with("error: invalid value"),
            "{start}"
        );
    }
    let out = peg(&["play", "--start", "9,9"], "");
    assert!(
        text(&out.stderr).contains("(9,9) is not a hole of the + board (a hole has |x| <= 1 and |y| <= 3, or |x| <= 3 and |y| <= 1)"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn count_finishes_a_board_from_the_flag_or_stdin() {
    // B W B in a line: the two ends in either order.
    let board = "[Peg (-1,0) B,Peg (0,0) W,\n Peg (1,0) B]";
    let out = peg(&["count", "--board", board], "");
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(text(&out.stdout), "2\n");
    let out = peg(&["count"], board);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(text(&out.stdout), "2\n");
    assert!(out.stderr.is_empty());
    // White pegs apart: (0,1) before (0,2), and (3,0) at any of 3 places.
    let apart = "[Peg (0,0) W,Peg (0,1) B,Peg (0,2) B,Peg (2,0) W,Peg (3,0) B]";
    assert_eq!(text(&peg(&["count"], apart).stdout), "3\n");
    // A black peg that can never turn white: no way to finish.
    let stuck = "[Peg (0,0) W,Peg (2,0) B]";
    assert_eq!(text(&peg(&["count"], stuck).stdout), "0\n");
    let out = peg(&["count", "--verbose"], board);
    assert!(text(&out.stderr).starts_with("board: "), "{out:?}");
}

#[test]
fn count_refuses_bad_boards_and_mixed_requests() {
    let out = peg(&["count"], "[Peg (0,0) W,\nPeg (1,0) X]");
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    assert!(text(&out.stderr).contains("<stdin>:2:11:"), "{out:?}");
    let out = peg(&["count", "--board", "[Peg (4,4) W]"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("`Peg (4,4) W`"));
    let out = peg(
        &["count", "--method", "orbits", "--board", "[Peg (0,0) W]"],
        "",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("count from a start hole only"));
    let out = peg(&["count", "--start", "0,0", "--board", "[Peg (0,0) W]"], "");
    assert_eq!(out.status.code(), Some(2));
    let out = peg(&["count", "--all", "--start", "0,0"], "");
    assert_eq!(out.status.code(), Some(2));
}

/// Every sequence of valid moves to the goal, through the spec's functions.
fn brute(board: &peg_core::Board) -> u128 {
    if peg_core::is_goal(board) {
        return 1;
    }
    peg_core::show_possible_next_states(board)
        .unwrap()
        .iter()
        .map(|s| brute(&s.board))
        .sum()
}

#[test]
fn play_count_shows_the_ways_to_finish_the_board_on_screen() {
    let solution = text(&peg(&["solve", "--start", "3,0"], "").stdout);
    let moves: Vec<&str> = solution.lines().map(|l| &l[2..]).take(26).collect();
    let mut board = peg_core::create_board(peg_core::Position::new(3, 0)).unwrap();
    for m in &moves {
        board = board.with_white(peg_core::parse_position_arg(m).unwrap());
    }
    let want = brute(&board);
    assert!(want > 1, "six black pegs left: {board}");
    let script = format!("{}\ncount\nquit\n", moves.join("\n"));
    let out = peg(&["play", "--start", "3,0"], &script);
    assert_eq!(out.status.code(), Some(0));
    let s = text(&out.stdout);
    assert!(
        s.contains(&format!(
            "move 27> Ways to finish from here: {want}.\nmove 27> Bye.\n"
        )),
        "{s}"
    );
    assert!(s.contains("count (the number of ways to finish from here)"));
}

/// On a terminal (and only there) a `count` says it is working while it
/// counts, and a command waiting for a board on standard input says so;
/// piped, the transcript is the same as ever and standard error is empty.
#[test]
fn on_a_terminal_count_says_it_is_working_and_a_wait_for_a_board_is_explained() {
    let solution = text(&peg(&["solve", "--start", "3,0"], "").stdout);
    let moves: Vec<&str> = solution.lines().map(|l| &l[2..]).take(26).collect();
    let script = format!("{}\ncount\nquit\n", moves.join("\n"));
    let mut command = Command::new(env!("CARGO_BIN_EXE_peg"));
    command.args(["play", "--start", "3,0", "--color", "never"]);
    let run = test_support::on_terminal(
        command,
        script.as_bytes(),
        std::time::Duration::from_secs(120),
    );
    assert_eq!(run.code, Some(0), "{}", run.screen);
    let working = run
        .screen
        .find("counting the ways to finish from here…")
        .unwrap_or_else(|| panic!("{}", run.screen));
    let answer = run.screen.find("Ways to finish from here: ").unwrap();
    assert!(working < answer, "{}", run.screen);
    let piped = peg(&["play", "--start", "3,0", "--color", "never"], &script);
    assert!(!text(&piped.stdout).contains("counting"));
    assert!(piped.stderr.is_empty(), "{}", text(&piped.stderr));

    let mut command = Command::new(env!("CARGO_BIN_EXE_peg"));
    command.args(["valid", "1,0"]);
    let run = test_support::on_terminal(
        command,
        b"[Peg (0,0) W,Peg (1,0) B]\n\x04",
        std::time::Duration::from_secs(60),
    );
    assert_eq!(run.code, Some(0), "{}", run.screen);
    assert!(
        run.screen.contains(
            "note: reading a board, e.g. [Peg (0,0) W,Peg (1,0) B] from standard input (end \
             it with Ctrl-D); or give it with --board TEXT"
        ),
        "{}",
        run.screen
    );
    assert!(run.screen.contains("True"), "{}", run.screen);
    let piped = peg(&["valid", "1,0"], "[Peg (0,0) W,Peg (1,0) B]");
    assert!(piped.stderr.is_empty());
}

#[test]
#[ignore = "counts all 7 classes on the full board: seconds in release, minutes in debug; CI runs it with --release --ignored"]
fn count_all_prints_one_row_per_class() {
    let out = peg(&["count", "--all"], "");
    assert_eq!(out.status.code(), Some(0));
    let s = text(&out.stdout);
    let lines: Vec<&str> = s.lines().collect();
    assert_eq!(lines.len(), 9, "{s}");
    assert!(lines[0].starts_with("holes "));
    assert!(lines[1].starts_with("(0,0) "));
    assert!(lines[1].contains(" 25589827238367749588818329600 "));
    assert!(lines[7].starts_with("(-3,-1) (-3,1) (-1,-3) (-1,3) (1,-3) (1,3) (3,-1) (3,1) "));
    assert!(lines[7].contains(" 48486454774910983346595840 "));
    assert!(lines[8].starts_with("7 classes, 33 holes, "));
}
