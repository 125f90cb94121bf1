//! End-to-end tests of the `connect` binary: `solve`, `best` and `play`
//! (the game on a pseudo-terminal and piped). Expected scores come from
//! Pascal Pons's published benchmark sets (`tests/data/`).

use std::io::Write;
use std::process::{Command, Output, Stdio};
use std::time::Duration;

use connect_core::cnf::parse_cnf;
use connect_core::solve::{Position, Size, Solver};

fn connect(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_connect"))
        .args(args)
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("connect runs");
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

/// The first `n` lines of End-Easy: `(moves, published score)`.
fn end_easy(n: usize) -> Vec<(String, i32)> {
    let path = format!("{}/tests/data/Test_L3_R1", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .take(n)
        .map(|l| {
            let (m, s) = l.split_once(' ').unwrap();
            (m.to_string(), s.parse().unwrap())
        })
        .collect()
}

#[test]
fn solve_prints_the_published_scores_and_reads_the_sets_as_they_are() {
    let lines = end_easy(20);
    let input: String = lines.iter().map(|(m, s)| format!("{m} {s}\n")).collect();
    let out = connect(&["solve"], &input);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), input);
    assert!(out.stderr.is_empty());
    let weak = connect(&["solve", "--weak"], &input);
    let expected: String = lines
        .iter()
        .map(|(m, s)| format!("{m} {}\n", s.signum()))
        .collect();
    assert_eq!(text(&weak.stdout), expected);
}

#[test]
fn a_bad_line_is_named_and_the_others_are_still_solved() {
    let lines = end_easy(2);
    let input = format!("{}\n44444444\n12x4\n{}\r\n", lines[0].0, lines[1].0);
    let out = connect(&["solve"], &input);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stdout),
        format!(
            "{} {}\n{} {}\n",
            lines[0].0, lines[0].1, lines[1].0, lines[1].1
        )
    );
    assert_eq!(
        text(&out.stderr),
        "error: <stdin>:2: move 7: column 4 is full\n\
         error: <stdin>:3: move 3: 'x' is not a column; a move is a digit 1 to 7\n"
    );
    let won = connect(&["solve"], "1212121\n12121212\n");
    assert_eq!(won.status.code(), Some(2));
    // Won with the first player's 4th stone: the second player, to move, scores -(22 - 4).
    assert_eq!(text(&won.stdout), "1212121 -18\n");
    assert_eq!(
        text(&won.stderr),
        "error: <stdin>:2: move 8: the game was already won by move 7\n"
    );
}

#[test]
fn analyze_gives_every_column_consistent_with_solving_each_child() {
    let size = Size::STANDARD;
    for (moves, score) in end_easy(6) {
        let out = connect(&["solve", "--analyze"], &format!("{moves}\n"));
        assert_eq!(out.status.code(), Some(0));
        let line = text(&out.stdout);
        let fields: Vec<&str> = line.trim_end().split(' ').collect();
        assert_eq!(fields[0], moves);
        assert_eq!(fields.len(), 8);
        let p = Position::from_moves(size, &moves).unwrap();
        let mut best = i32::MIN;
        for (c, field) in fields[1..].iter().enumerate() {
            if !p.can_play(c) {
                assert_eq!(*field, "-");
                continue;
            }
            let s: i32 = field.parse().unwrap();
            best = best.max(s);
            if !p.is_winning_move(c) {
                // The child line's own score, negated.
                let child = connect(&["solve"], &format!("{moves}{}\n", c + 1));
                let child_score: i32 = text(&child.stdout)
                    .trim_end()
                    .rsplit(' ')
                    .next()
                    .unwrap()
                    .parse()
                    .unwrap();
                assert_eq!(s, -child_score, "{moves} column {}", c + 1);
            }
        }
        assert_eq!(
            best, score,
            "{moves}: the best column is the position's score"
        );
    }
}

#[test]
fn best_plays_a_column_that_keeps_the_published_score() {
    for (moves, score) in end_easy(6) {
        let out = connect(&["best"], &format!("{moves}\n"));
        assert_eq!(out.status.code(), Some(0));
        let line = text(&out.stdout);
        let (m, c) = line.trim_end().split_once(' ').unwrap();
        assert_eq!(m, moves);
        let c: usize = c.parse().unwrap();
        let size = Size::STANDARD;
        let p = Position::from_moves(size, &moves).unwrap();
        let after = if p.is_winning_move(c - 1) {
            score
        } else {
            let child = Position::from_moves(size, &format!("{moves}{c}")).unwrap();
            -Solver::with_table_bits(size, 16).solve(&child)
        };
        assert_eq!(after, score, "{moves}: column {c}");
    }
    // Three players each stack three in columns 1, 2, 3; player 1 to move completes its four.
    let three = connect(&["best", "--players", "3"], "123123123\n");
    assert_eq!(three.status.code(), Some(0), "{}", text(&three.stderr));
    assert_eq!(text(&three.stdout), "123123123 1\n");
}

#[test]
fn bad_sizes_are_usage_errors() {
    let out = connect(&["solve", "--width", "10"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("--width is 1 to 9"),
        "{}",
        text(&out.stderr)
    );
    let out = connect(&["solve", "--width", "9", "--height", "14"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("at most 128"),
        "{}",
        text(&out.stderr)
    );
}

fn on_terminal(args: &[&str], input: &str, dir: &std::path::Path) -> test_support::TerminalRun {
    let mut command = Command::new(env!("CARGO_BIN_EXE_connect"));
    command.args(args).current_dir(dir).env("NO_COLOR", "1");
    test_support::on_terminal(command, input.as_bytes(), Duration::from_secs(120))
}

#[test]
fn a_whole_game_on_a_terminal() {
    let dir = tempfile::tempdir().unwrap();
    // Player 1 stacks four in column 1 while player 2 plays column 2.
    let run = on_terminal(&["play"], "1\n2\n1\n2\n1\n2\n1\nq\n", dir.path());
    assert_eq!(run.code, Some(0), "{}", run.screen);
    assert!(
        run.screen
            .contains("Connect Four: 2 players on 6 rows x 7 columns.")
    );
    assert!(run.screen.contains("Player 1 wins."), "{}", run.screen);
    assert!(
        run.screen
            .contains("1 2 - - - - -\r\n1 2 - - - - -\r\n1 2 - - - - -\r\n"),
        "{}",
        run.screen
    );
}

#[test]
fn undo_hint_save_and_reload_on_a_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let (moves, _) = end_easy(1).remove(0);
    // Play End-Easy's first position move by move, with an undo on the way.
    let mut input = String::new();
    for (i, c) in moves.chars().enumerate() {
        if i == 3 {
            input.push_str("7\nu\n");
        }
        input.push(c);
        input.push('\n');
    }
    input.push_str("h\nzz\ns game.cnf\nq\n");
    let run = on_terminal(&["play"], &input, dir.path());
    assert_eq!(run.code, Some(0), "{}", run.screen);
    assert!(
        run.screen.contains("note: \"zz\": not a move"),
        "{}",
        run.screen
    );
    assert!(run.screen.contains("Saved game.cnf."), "{}", run.screen);
    // The hint is every column's score, as the solver analyses the position.
    let size = Size::STANDARD;
    let p = Position::from_moves(size, &moves).unwrap();
    let scores = Solver::with_table_bits(size, 16).analyze(&p, false);
    let cells: Vec<String> = scores
        .iter()
        .enumerate()
        .map(|(c, s)| match s {
            Some(0) => format!("{}:0", c + 1),
            Some(s) => format!("{}:{s:+}", c + 1),
            None => format!("{}:-", c + 1),
        })
        .collect();
    assert!(
        run.screen.contains(&cells.join(" ")),
        "{cells:?}\n{}",
        run.screen
    );
    // The file holds the empty board and every move, undo applied.
    let saved = std::fs::read_to_string(dir.path().join("game.cnf")).unwrap();
    let game = parse_cnf(&saved).unwrap();
    let expected: Vec<i64> = moves.chars().map(|c| i64::from(c as u8 - b'0')).collect();
    assert_eq!(game.moves, expected);
    assert!(game.board.row_strings().all(|r| r == "-------"));
    // Loading it goes on from the same position: player 2 to move.
    let again = on_terminal(&["play", "game.cnf"], "q\n", dir.path());
    assert_eq!(again.code, Some(0), "{}", again.screen);
    let rows: Vec<String> = p
        .rows()
        .iter()
        .map(|r| r.chars().map(String::from).collect::<Vec<_>>().join(" "))
        .collect();
    let rows = rows.join("\r\n");
    assert!(again.screen.contains(&rows), "{rows}\n{}", again.screen);
    assert!(
        again.screen.contains("Player 2 to move"),
        "{}",
        again.screen
    );
}

#[test]
fn piped_play_with_a_computer_and_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    // The computer (easy) blocks player 1's three in column 4.
    let out = Command::new(env!("CARGO_BIN_EXE_connect"))
        .args(["play", "--computer", "2", "--level", "easy", "--seed", "1"])
        .current_dir(dir.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .and_then(|mut c| {
            c.stdin.take().unwrap().write_all(b"4\n4\n")?;
            c.wait_with_output()
        })
        .unwrap();
    let screen = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(screen.contains("Player 2 (computer) plays"), "{screen}");
    // End of input ends the game cleanly.
    let bad = connect(&["play"], "9\nx\n1\n");
    assert_eq!(bad.status.code(), Some(2));
    assert_eq!(
        text(&bad.stderr),
        "error: <stdin>:1: \"9\": column 9 is not on the board; columns are 1 to 7\n\
         error: <stdin>:2: \"x\": not a move; type a column 1-7, u, h, s FILE or q\n"
    );
}

#[test]
fn play_refuses_bad_setups() {
    let out = connect(&["play", "--players", "2", "--computer", "3"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("--computer 3: there are 2 players"));
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("g.cnf");
    std::fs::write(&file, "([\"--\",\"-3\"],[1])").unwrap();
    let out = connect(&["play", file.to_str().unwrap(), "--players", "2"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("player 3's pieces"),
        "{}",
        text(&out.stderr)
    );
    std::fs::write(&file, "([\"--\",\"-x?\"],[1])").unwrap();
    let out = connect(&["play", file.to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("g.cnf:1:"),
        "{}",
        text(&out.stderr)
    );
}
