//! End-to-end tests of the `connect` binary: `solve`, `best` and `play`
//! (the game on a pseudo-terminal and piped). Expected scores come from
//! Pascal Pons's published benchmark sets (`tests/data/`).

use std::time::Duration;

use connect_core::Function;
use connect_core::cnf::parse_cnf;
use connect_core::solve::{Position, Size, Solver};
use test_support::Cli;

/// `connect` without colour.
fn connect() -> Cli {
    Cli::new(env!("CARGO_BIN_EXE_connect")).env("NO_COLOR", "1")
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
    connect()
        .arg("solve")
        .stdin(&input)
        .run()
        .clean()
        .stdout_is(&input);
    let expected: String = lines
        .iter()
        .map(|(m, s)| format!("{m} {}\n", s.signum()))
        .collect();
    connect()
        .args(["solve", "--weak"])
        .stdin(&input)
        .run()
        .stdout_is(&expected);
}

#[test]
fn a_bad_line_is_named_and_the_others_are_still_solved() {
    let lines = end_easy(2);
    let input = format!("{}\n44444444\n12x4\n{}\r\n", lines[0].0, lines[1].0);
    connect()
        .arg("solve")
        .stdin(&input)
        .run()
        .code(2)
        .stdout_is(&format!(
            "{} {}\n{} {}\n",
            lines[0].0, lines[0].1, lines[1].0, lines[1].1
        ))
        .stderr_is(
            "error: <stdin>:2: move 7: column 4 is full\n\
             error: <stdin>:3: move 3: 'x' is not a column; a move is a digit 1 to 7\n",
        );
    connect()
        .arg("solve")
        .stdin("1212121\n12121212\n")
        .run()
        .code(2)
        // Won with the first player's 4th stone: the second player, to move, scores -(22 - 4).
        .stdout_is("1212121 -18\n")
        .stderr_is("error: <stdin>:2: move 8: the game was already won by move 7\n");
}

#[test]
fn analyze_gives_every_column_consistent_with_solving_each_child() {
    let size = Size::STANDARD;
    for (moves, score) in end_easy(6) {
        let out = connect()
            .args(["solve", "--analyze"])
            .stdin(format!("{moves}\n"))
            .run();
        out.code(0);
        let fields: Vec<&str> = out.stdout.trim_end().split(' ').collect();
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
                let child = connect()
                    .arg("solve")
                    .stdin(format!("{moves}{}\n", c + 1))
                    .run();
                let child_score: i32 = child
                    .stdout
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
        let out = connect().arg("best").stdin(format!("{moves}\n")).run();
        out.code(0);
        let (m, c) = out.stdout.trim_end().split_once(' ').unwrap();
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
    connect()
        .args(["best", "--players", "3"])
        .stdin("123123123\n")
        .run()
        .code(0)
        .stdout_is("123123123 1\n");
}

#[test]
fn bad_sizes_are_usage_errors() {
    connect()
        .args(["solve", "--width", "10"])
        .run()
        .code(2)
        .stderr_has("--width is 1 to 9");
    connect()
        .args(["solve", "--width", "9", "--height", "14"])
        .run()
        .code(2)
        .stderr_has("at most 128");
}

/// A game on a terminal may take this long in a debug build on a busy machine.
const ON_TERMINAL: Duration = Duration::from_secs(120);

#[test]
fn a_whole_game_on_a_terminal() {
    let dir = tempfile::tempdir().unwrap();
    // Player 1 stacks four in column 1 while player 2 plays column 2.
    let run = connect()
        .arg("play")
        .current_dir(dir.path())
        .timeout(ON_TERMINAL)
        .run_on_terminal("1\n2\n1\n2\n1\n2\n1\nq\n");
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
fn a_terminal_game_is_redrawn_in_place_and_keeps_what_was_said() {
    // A clear-screen before each of the 4 boards (the empty one, after 4,
    // after "zz", after 4-4); the refusal of "zz" shows under the board that
    // follows it, and only there.
    let run = connect()
        .arg("play")
        .timeout(ON_TERMINAL)
        .run_on_terminal("4\nzz\n4\nq\n");
    assert_eq!(run.code, Some(0), "{}", run.screen);
    let clear = "\x1b[H\x1b[2J";
    assert_eq!(run.screen.matches(clear).count(), 4, "{}", run.screen);
    let screens: Vec<&str> = run.screen.split(clear).collect();
    assert!(
        screens[3].contains("- - - 1 - - -\r\nnote: \"zz\": not a move"),
        "{}",
        run.screen
    );
    assert!(
        screens[4].contains("- - - 2 - - -\r\n- - - 1 - - -\r\nPlayer 1 to move"),
        "{}",
        run.screen
    );
    assert!(!screens[4].contains("not a move"), "{}", run.screen);
}

#[test]
fn a_terminal_redraw_keeps_every_computer_move_of_the_round() {
    // Issue 40, item 9: players 2 and 3 are the computer. After the
    // person's move both answer, each followed by a redraw; the last screen
    // (after the last clear-screen, where the person is asked again) shows
    // both moves, not only player 3's.
    let run = connect()
        .args([
            "play",
            "--players",
            "3",
            "--computer",
            "2,3",
            "--level",
            "easy",
            "--seed",
            "1",
        ])
        .timeout(ON_TERMINAL)
        .run_on_terminal("4\nq\n");
    assert_eq!(run.code, Some(0), "{}", run.screen);
    let clear = "\x1b[H\x1b[2J";
    // The empty board, after 4, after player 2's move, after player 3's.
    assert_eq!(run.screen.matches(clear).count(), 4, "{}", run.screen);
    let last = run.screen.rsplit(clear).next().unwrap();
    let two = last.find("Player 2 (computer) plays ");
    let three = last.find("Player 3 (computer) plays ");
    let prompt = last.find("Player 1 to move");
    assert!(two.is_some() && three.is_some(), "{last}");
    assert!(two < three && three < prompt, "{last}");
}

#[test]
fn the_perfect_computer_thinks_on_a_terminal_and_q_or_ctrl_d_stop_it() {
    // The computer plays second. It answers the person's moves from the
    // built-in play book as long as the book holds the position; its first
    // answer past the book is a search (seconds in a release build, far
    // longer than the time limit in a debug one), and the `q` typed
    // meanwhile ends the game at once.
    let depth = connect_core::solve::Book::standard().depth();
    // The computer's positions have an odd number of stones: the first past
    // the book has `past`, after `past / 2 + 1` of the person's moves.
    let past = (depth + 1) | 1;
    let from_book = past / 2;
    let moves: String = ["4", "3", "5", "2", "6", "1"][..=from_book]
        .iter()
        .map(|m| format!("{m}\n"))
        .collect();
    let game = || {
        connect()
            .args([
                "play",
                "--computer",
                "2",
                "--level",
                "perfect",
                "--seed",
                "1",
            ])
            .timeout(Duration::from_secs(60))
    };
    let run = game().run_on_terminal(format!("{moves}q\n"));
    let tail = |s: &str| {
        let cut = s.char_indices().rev().nth(2000).map_or(0, |(i, _)| i);
        s[cut..].to_string()
    };
    assert_eq!(run.code, Some(0), "{}", tail(&run.screen));
    assert_eq!(
        run.screen.matches("Player 2 (computer) plays").count(),
        from_book,
        "{}",
        tail(&run.screen)
    );
    assert!(
        run.screen.contains("Player 2 (computer) is thinking... "),
        "{}",
        tail(&run.screen)
    );
    assert!(run.screen.contains(" s (q quits)"), "{}", tail(&run.screen));
    // Ctrl-D (the end of input) during the search ends the game as well.
    let run = game().run_on_terminal(format!("{moves}\x04"));
    assert_eq!(run.code, Some(0), "{}", tail(&run.screen));
    assert_eq!(
        run.screen.matches("Player 2 (computer) plays").count(),
        from_book,
        "{}",
        tail(&run.screen)
    );
    assert!(
        run.screen.contains("is thinking... "),
        "{}",
        tail(&run.screen)
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
    let run = connect()
        .arg("play")
        .current_dir(dir.path())
        .timeout(ON_TERMINAL)
        .run_on_terminal(&input);
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
    // The file replays (as part04 plays it: players in turn from player 1,
    // as many as the highest token) to the position, undo applied.
    let saved = std::fs::read_to_string(dir.path().join("game.cnf")).unwrap();
    let game = parse_cnf(&saved).unwrap();
    let replayed = Function::ManyPlayersManyMoves
        .apply(&game.board, &game.moves, None)
        .unwrap();
    assert_eq!(replayed, p.to_board(), "{saved}");
    assert_eq!(game.moves.len() % 2, 1, "player 2 to move: {saved}");
    // Loading it goes on from the same position: player 2 to move.
    let again = connect()
        .args(["play", "game.cnf"])
        .current_dir(dir.path())
        .timeout(ON_TERMINAL)
        .run_on_terminal("q\n");
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

/// Rows of `board` as `connect play` draws them piped: cells apart.
fn drawn(board: &connect_core::Board) -> String {
    board
        .row_strings()
        .map(|r| r.chars().map(String::from).collect::<Vec<_>>().join(" "))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn a_three_player_save_reloads_as_the_same_game() {
    let dir = tempfile::tempdir().unwrap();
    // Two moves: player 3 has no piece yet, so the file cannot say how
    // many play; the note says to give --players.
    connect()
        .args(["play", "--players", "3"])
        .current_dir(dir.path())
        .stdin(
            "4
4
s early.cnf
q
",
        )
        .run()
        .code(0)
        .stdout_has("Saved early.cnf. Player 3 has no piece on the board yet")
        .stdout_has("connect play --players 3 early.cnf, part04 --players 3 early.cnf");
    // Five moves, player 3 has played: the file alone says 3 players.
    connect()
        .args(["play", "--players", "3"])
        .current_dir(dir.path())
        .stdin(
            "4
4
5
3
4
s game.cnf
q
",
        )
        .run()
        .code(0)
        .stdout_has("Saved game.cnf.\n");
    // By hand: columns 4, 4, 5, 3, 4 by players 1, 2, 3, 1, 2.
    let expected = connect_core::Board::from_rows([
        "-------", "-------", "-------", "---2---", "---2---", "--113--",
    ])
    .unwrap();
    let saved = std::fs::read_to_string(dir.path().join("game.cnf")).unwrap();
    let game = parse_cnf(&saved).unwrap();
    // What part04 does with it (connect_core's manyPlayersManyMoves, the
    // number of players from the highest token).
    let replayed = Function::ManyPlayersManyMoves
        .apply(&game.board, &game.moves, None)
        .unwrap();
    assert_eq!(replayed, expected, "{saved}");
    // connect play: the same board, 3 players, player 3 to move.
    connect()
        .args(["play", "game.cnf"])
        .current_dir(dir.path())
        .stdin(
            "q
",
        )
        .run()
        .code(0)
        .stdout_has("Connect Four: 3 players")
        .stdout_has(&drawn(&expected))
        .stdout_has("Player 3 to move");
    // The early save, loaded with --players 3: player 3 to move.
    connect()
        .args(["play", "--players", "3", "early.cnf"])
        .current_dir(dir.path())
        .stdin(
            "q
",
        )
        .run()
        .code(0)
        .stdout_has("Connect Four: 3 players")
        .stdout_has("Player 3 to move");
}

#[test]
fn columns_past_nine_are_numbered_downwards() {
    // Written by hand: tens above units, one character per column.
    connect()
        .args(["play", "--cols", "20", "--rows", "3"])
        .stdin("q\n")
        .run()
        .code(0)
        .stdout_has(concat!(
            "\n                  1 1 1 1 1 1 1 1 1 1 2\n",
            "1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0\n",
            "- - - - - - - - - - - - - - - - - - - -\n",
        ));
    // Up to 9 columns, one line of numbers.
    connect()
        .args(["play", "--cols", "9", "--rows", "2"])
        .stdin("q\n")
        .run()
        .code(0)
        .stdout_has("\n\n1 2 3 4 5 6 7 8 9\n- - - - - - - - -\n");
}

#[test]
fn a_hint_on_seven_columns_fits_in_eighty_characters() {
    // At worst 7 columns of `c:+nn` (5 characters) and 6 spaces after the
    // prompt `> ` and the 35-character prefix: 78. Late in a game
    // (End-Easy's first position), so the hint is quick.
    let (moves, _) = end_easy(1).remove(0);
    let mut input: String = moves.chars().flat_map(|c| [c, '\n']).collect();
    input.push_str("h\nq\n");
    let run = connect().arg("play").stdin(input).run();
    run.code(0);
    let hint = run
        .stdout
        .lines()
        .find(|l| l.contains("Hint"))
        .expect("a hint line");
    assert!(
        hint.chars().count() <= 80,
        "{} chars: {hint}",
        hint.chars().count()
    );
}

#[test]
fn think_limits_a_reply_on_a_big_board_and_is_shown() {
    // Issue 40, item 10. On 20 x 30 (600 cells, over 100) the computer
    // thinks up to 2 s a move by default, and the header says so; a reply
    // comes (a full-depth search would take minutes in a debug build).
    connect()
        .args(["play", "--rows", "20", "--cols", "30", "--computer", "2"])
        .timeout(ON_TERMINAL)
        .stdin("15\nq\n")
        .run()
        .code(0)
        .stdout_has(
            "Connect Four: 2 players on 20 rows x 30 columns; the computer (perfect) plays 2; \
             the computer thinks up to 2 s a move.",
        )
        .stdout_has("Player 2 (computer) plays ");
    connect()
        .args(["play", "--rows", "20", "--cols", "30", "--computer", "1"])
        .args(["--players", "3", "--think", "500ms"])
        .timeout(ON_TERMINAL)
        .stdin("q\n")
        .run()
        .code(0)
        .stdout_has("; the computer thinks up to 500 ms a move.")
        .stdout_has("Player 1 (computer) plays ");
    // 7 x 6 is not limited by default; --think 0 is no limit; a limit with
    // no computer playing is not mentioned.
    for extra in [
        &[][..],
        &["--think", "0"],
        &["--rows", "20", "--cols", "30", "--think", "1m"],
    ] {
        connect()
            .args(["play"])
            .args(extra)
            .stdin("q\n")
            .run()
            .code(0)
            .stdout_lacks("thinks up to");
    }
    connect()
        .args(["play", "--computer", "2", "--think", "1m"])
        .stdin("q\n")
        .run()
        .code(0)
        .stdout_has("; the computer thinks up to 1 min a move.");
    connect()
        .args(["play", "--think", "2 seconds"])
        .run()
        .code(2)
        .stderr_has("--think")
        .stderr_has("500ms, 2s, 1m, 1h), or 0 for no limit");
}

#[test]
fn piped_play_with_a_computer_and_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    // The computer (easy) blocks player 1's three in column 4.
    Cli::new(env!("CARGO_BIN_EXE_connect"))
        .args(["play", "--computer", "2", "--level", "easy", "--seed", "1"])
        .current_dir(dir.path())
        .stdin("4\n4\n")
        .run()
        .code(0)
        .stdout_has("Player 2 (computer) plays");
    // End of input ends the game cleanly.
    connect()
        .arg("play")
        .stdin("9\nx\n1\n")
        .run()
        .code(2)
        .stderr_is(
            "error: <stdin>:1: \"9\": column 9 is not on the board; columns are 1 to 7\n\
             error: <stdin>:2: \"x\": not a move; type a column 1-7, u, h, s FILE or q\n",
        );
}

#[test]
fn play_refuses_bad_setups() {
    connect()
        .args(["play", "--players", "2", "--computer", "3"])
        .run()
        .code(2)
        .stderr_has("--computer 3: there are 2 players");
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("g.cnf");
    std::fs::write(&file, "([\"--\",\"-3\"],[1])").unwrap();
    connect()
        .arg("play")
        .arg(&file)
        .args(["--players", "2"])
        .run()
        .code(2)
        .stderr_has("player 3's pieces");
    std::fs::write(&file, "([\"--\",\"-x?\"],[1])").unwrap();
    connect()
        .arg("play")
        .arg(&file)
        .run()
        .code(2)
        .stderr_has("g.cnf:1:");
}

#[test]
fn play_refuses_a_board_too_big_to_play_and_says_what_fits() {
    // Once accepted, 100000 x 100000 hung building a board of 10^10 cells.
    connect()
        .args(["play", "--rows", "100000", "--cols", "100000"])
        .stdin("q\n")
        .timeout(Duration::from_secs(60))
        .run()
        .code(2)
        .stdout_is("")
        .stderr_is(
            "error: --rows 100000 --cols 100000: a board of 100000 rows x 100000 columns is \
             too big to play; connect play takes 1 to 99 rows and 1 to 99 columns\n",
        );
    connect()
        .args(["play", "--rows", "6", "--cols", "100"])
        .stdin("q\n")
        .run()
        .code(2)
        .stderr_has("1 to 99 columns");
    // The largest board plays.
    connect()
        .args(["play", "--rows", "99", "--cols", "99"])
        .stdin("q\n")
        .run()
        .clean()
        .stdout_has("2 players on 99 rows x 99 columns");
    // A game file's board too.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("wide.cnf");
    std::fs::write(&file, format!("([\"{}\"],[])", "-".repeat(100))).unwrap();
    connect()
        .arg("play")
        .arg(&file)
        .stdin("q\n")
        .run()
        .code(2)
        .stdout_is("")
        .stderr_has("wide.cnf: a board of 1 row x 100 columns is too big to play");
}

#[test]
fn book_writes_every_shallow_position_and_search_agrees_with_it() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("4x4.book");
    let run = connect()
        .args([
            "book", "--depth", "2", "--width", "4", "--height", "4", "-o",
        ])
        .arg(&file)
        .run();
    run.code(0)
        .stdout_is("")
        .stderr_has("note: 2 stones: 8 of 8 positions scored")
        .stderr_has("note: 0 stones: 1 of 1 positions scored");
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.starts_with("# connect book 4x4 depth 2\n"), "{text}");
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    // 1 empty board, 2 first moves and 8 two-move games, mirror images once.
    assert_eq!(lines.len(), 11, "{text}");
    // The book's scores are negamax over its deepest level; a plain search
    // of every one of its positions gives the same.
    let input: String = lines.iter().map(|l| format!("{l}\n")).collect();
    connect()
        .args(["solve", "--no-book", "--width", "4", "--height", "4"])
        .stdin(&input)
        .run()
        .clean()
        .stdout_is(&input);
    // Read back with --book: the empty board and every column's score.
    connect()
        .args([
            "solve",
            "--width",
            "4",
            "--height",
            "4",
            "--analyze",
            "--book",
        ])
        .arg(&file)
        .stdin("\n")
        .run()
        .clean()
        .stdout_is(" 0 0 0 0\n");
}

#[test]
fn book_play_writes_what_a_perfect_player_meets_and_best_plays_it() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("4x4.book");
    let run = connect()
        .args([
            "book", "--play", "--depth", "2", "--width", "4", "--height", "4", "-o",
        ])
        .arg(&file)
        .run();
    run.code(0)
        .stdout_is("")
        .stderr_has("note: 0 stones: 1 of 1 positions played")
        .stderr_has("note: 2 stones: 4 of 4 positions played");
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(
        text.starts_with("# connect book 4x4 play depth 2\n"),
        "{text}"
    );
    assert!(
        text.contains("made by `connect book --play --depth 2 --width 4 --height 4`"),
        "{text}"
    );
    // The empty board, both first moves up to mirror images, and after
    // the perfect player's first move every reply.
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(lines.len(), 1 + 2 + 4, "{text}");
    // `best` with the book plays each line's column, and the position
    // after it scores the negative of the line's score by a plain search.
    let moves: String = lines
        .iter()
        .map(|l| format!("{}\n", l.split(' ').next().unwrap()))
        .collect();
    let expected: String = lines
        .iter()
        .map(|l| {
            let mut parts = l.split(' ');
            let (m, _, c) = (parts.next(), parts.next(), parts.next());
            format!("{} {}\n", m.unwrap(), c.unwrap())
        })
        .collect();
    connect()
        .args(["best", "--width", "4", "--height", "4", "--book"])
        .arg(&file)
        .stdin(&moves)
        .run()
        .clean()
        .stdout_is(&expected);
    let after: String = lines
        .iter()
        .map(|l| {
            let mut parts = l.split(' ');
            let (m, _, c) = (parts.next(), parts.next(), parts.next());
            format!("{}{}\n", m.unwrap(), c.unwrap())
        })
        .collect();
    let scores: String = lines
        .iter()
        .map(|l| {
            let mut parts = l.split(' ');
            let (m, s, c) = (parts.next(), parts.next(), parts.next());
            let s: i32 = s.unwrap().parse().unwrap();
            format!("{}{} {}\n", m.unwrap(), c.unwrap(), -s)
        })
        .collect();
    connect()
        .args(["solve", "--no-book", "--width", "4", "--height", "4"])
        .stdin(&after)
        .run()
        .clean()
        .stdout_is(&scores);
}

#[test]
fn a_bad_book_or_one_of_another_board_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let small = dir.path().join("small.book");
    std::fs::write(&small, "# connect book 4x4 depth 1\n 0\n1 0\n2 0\n").unwrap();
    connect()
        .args(["solve", "--book"])
        .arg(&small)
        .stdin("4\n")
        .run()
        .code(2)
        .stdout_is("")
        .stderr_has(
            "a book of a 4x4 board for a 7x6 solver; give --width/--height of the book's board",
        );
    let broken = dir.path().join("broken.book");
    std::fs::write(&broken, "# connect book 4x4 depth 1\n 0\n1 \u{1b}[2J\n").unwrap();
    connect()
        .args(["best", "--width", "4", "--height", "4", "--book"])
        .arg(&broken)
        .stdin("\n")
        .run()
        .code(2)
        .stderr_has(": line 3: \"\\u{1b}[2J\" is not a score");
    connect()
        .args(["book", "--depth", "16", "--width", "4", "--height", "4"])
        .run()
        .code(2)
        .stdout_is("")
        .stderr_is("error: --depth 16: a 4x4 board has 16 cells; the depth must be below that\n");
}

#[test]
fn a_bad_key_is_shown_escaped_bidirectional_overrides_too() {
    // U+202E would make the rest of the line display right to left, and
    // ESC [2J would clear the screen.
    connect()
        .args(["play", "--color", "never"])
        .stdin("\u{202e}1\n\u{1b}[2J\nq\n")
        .run()
        .code(2)
        .stderr_has("error: <stdin>:1: \"\\u{202e}1\": not a move")
        .stderr_has("error: <stdin>:2: \"\\u{1b}[2J\": not a move")
        .stderr_lacks("\u{202e}")
        .stderr_lacks("\u{1b}");
}

#[test]
fn a_line_that_is_not_text_is_refused_like_any_other_and_the_game_goes_on() {
    // Piped: the invalid line is refused where it is, as "zz" would be,
    // the next move is played (player 2's 4 lands on player 1's), and the
    // exit code says a line was bad.
    let out = connect()
        .args(["play", "--players", "2"])
        .stdin(b"4\n\xff\xfe\n4\nq\n".as_slice())
        .run();
    out.code(2)
        .stderr_has("error: <stdin>:2: \"\u{fffd}\u{fffd}\": not a move");
    assert!(
        out.stdout.contains("- - - 2 - - -\n- - - 1 - - -\n"),
        "{}",
        out.stdout
    );
    // On a terminal too: the game does not end at the bad line.
    let run = connect()
        .arg("play")
        .timeout(ON_TERMINAL)
        .run_on_terminal(b"4\n\xff\n4\nq\n".as_slice());
    assert_eq!(run.code, Some(0), "{}", run.screen);
    assert!(run.screen.contains("not a move"), "{}", run.screen);
    assert!(run.screen.contains("- - - 2 - - -"), "{}", run.screen);
}

#[test]
fn a_reply_pondered_on_a_terminal_is_the_one_played_piped() {
    // Begin-Medium's second line, 12 stones, the person (player 1) to
    // move; the computer (player 2) answers the person's 6 and then 4.
    // On a terminal the person stops to think before each move, so the
    // computer ponders its replies meanwhile (in a debug build each takes
    // a fraction of a second, and with the pauses none shows the thinking
    // line on an idle machine; not checked, as at the lowest priority a
    // busy machine may leave the pondering no time). Whether a reply comes
    // from pondering or from a search after the move, it is the one
    // played when piped, where the computer does not ponder.
    let dir = tempfile::tempdir().unwrap();
    let p = Position::from_moves(Size::STANDARD, "335662333565").unwrap();
    let text = connect_core::cnf::render_cnf(&p.to_board(), &[]);
    std::fs::write(dir.path().join("begin.cnf"), text).unwrap();
    let game = || {
        connect()
            .args(["play", "--computer", "2", "begin.cnf"])
            .current_dir(dir.path())
            .timeout(ON_TERMINAL)
    };
    let piped = game().stdin("6\n4\nq\n").run();
    piped.code(0);
    let plays = |screen: &str| -> Vec<String> {
        screen
            .lines()
            .filter(|l| l.starts_with("Player 2 (computer) plays"))
            .map(|l| l.trim().to_string())
            .collect()
    };
    let expected = plays(&piped.stdout);
    assert_eq!(expected.len(), 2, "{}", piped.stdout);
    let think = Duration::from_secs(5);
    let run = game().run_on_terminal_typed(&[
        (think, b"6\n"),
        (think, b"4\n"),
        (Duration::from_secs(1), b"q\n"),
    ]);
    assert_eq!(run.code, Some(0), "{}", run.screen);
    let played: Vec<String> = plays(&run.screen.replace("\r\n", "\n"));
    assert_eq!(played, expected, "{}", run.screen);
}

#[test]
fn play_dash_reads_the_game_from_standard_input() {
    // Drawn by hand: on 2 rows x 4 columns with 1 and 2 on the bottom row,
    // player 1 drops in column 1 and player 2 in column 4; player 1 is next.
    // The game is read to the end of standard input, so the game ends there.
    connect()
        .args(["play", "-"])
        .stdin("([\"----\",\"-12-\"],[1,4])\n")
        .run()
        .code(0)
        .stdout_has("Connect Four: 2 players on 2 rows x 4 columns.\n")
        .stdout_has("\n- - - -\n1 1 2 2\nPlayer 1 to move");
    // A bad game from standard input is located in <stdin>, as a file's is.
    connect()
        .args(["play", "-"])
        .stdin("([\"----\"],[1,4\n")
        .run()
        .code(2)
        .stdout_is("")
        .stderr_starts("error: <stdin>:");
    // `solve -` reads positions from standard input, as `solve` does.
    let solved = |args: &[&str]| {
        let run = connect()
            .args(["solve", "--width", "4", "--height", "4", "--no-book"])
            .args(args)
            .stdin("1\n21\n")
            .run();
        run.clean();
        run.stdout.clone()
    };
    let piped = solved(&[]);
    assert_eq!(solved(&["-"]), piped);
    assert!(
        piped.starts_with("1 ") && piped.contains("\n21 "),
        "{piped}"
    );
}

#[test]
fn book_says_an_output_it_cannot_write_before_it_computes() {
    // A 7x6 book to depth 30 would not finish in this test's life: the error
    // can only come first, before any level is computed.
    connect()
        .args(["book", "--depth", "30", "-o", "/no/such/folder/book.txt"])
        .run()
        .code(2)
        .stdout_is("")
        .stderr_is(
            "error: /no/such/folder/book.txt: its folder does not exist; give --output FILE, \
             a file in a folder you may write in\n",
        );
}
