//! Hostile input: `peg play` fed random bytes, very long lines, invalid
//! UTF-8 and end of input at every prompt never panics, never spins and
//! exits cleanly; the readers refuse deep nesting instead of overflowing the
//! stack.

use std::thread;

use peg_core::parse::MAX_NESTING;
use peg_core::{parse_board, parse_position, parse_position_arg, parse_state};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use test_support::{Cli, Run, TIMEOUT};

/// Runs `peg ARGS` with `input` on standard input, then end of input.
fn peg(args: &[&str], input: &[u8]) -> Run {
    Cli::new(env!("CARGO_BIN_EXE_peg"))
        .args(args)
        .env("NO_COLOR", "1")
        .stdin(input)
        .timeout(TIMEOUT)
        .run()
}

#[test]
fn random_bytes_end_cleanly() {
    let mut rng = StdRng::seed_from_u64(8);
    for round in 0..20 {
        let len = rng.random_range(0..4000);
        let mut bytes: Vec<u8> = (0..len).map(|_| rng.random()).collect();
        // Mostly short lines, as typing gives.
        for b in bytes.iter_mut() {
            if rng.random_ratio(1, 8) {
                *b = b'\n';
            }
        }
        let run = peg(&["play", "--start", "0,0"], &bytes);
        run.clone().labelled(format!("round {round}")).clean();
        assert!(run.stdout.contains("move 1> "));
    }
}

#[test]
fn invalid_utf8_is_one_unreadable_line_not_the_end() {
    let run = peg(&["play", "--start", "0,0"], b"\xff\xfe\n\xc3\n1,0\n");
    run.clone().labelled("invalid UTF-8").clean();
    assert!(run.stdout.contains("Cannot read `\u{fffd}\u{fffd}`"));
    // The move after the bad lines is still played.
    assert!(run.stdout.contains("move 2> "), "{}", run.stdout);
}

#[test]
fn very_long_lines() {
    let long = "1".repeat(10_000_000);
    // Without a line end, then with one and a move after it.
    let run = peg(&["play", "--start", "0,0"], long.as_bytes());
    run.clone()
        .labelled("a 10 MB line without a line end")
        .clean();
    let input = format!("{long}\n1,0\nquit\n");
    let run = peg(&["play", "--start", "0,0"], input.as_bytes());
    run.clone().labelled("a 10 MB line").clean();
    assert!(run.stdout.contains("move 2> "));
    assert!(run.stdout.ends_with("Bye.\n"));
    // Deep parentheses typed at the prompt are refused, not a stack overflow.
    let input = format!("{}1,0{}\n", "(".repeat(1_000_000), ")".repeat(1_000_000));
    let run = peg(&["play", "--start", "0,0"], input.as_bytes());
    run.clone().labelled("deep parentheses").clean();
    assert!(run.stdout.contains("nested more than 100 deep"));
}

#[test]
fn end_of_input_at_every_prompt_of_a_won_game() {
    let solution = peg(&["solve", "--start", "0,0"], b"");
    solution.clone().labelled("solve").clean();
    // `M (x,y)` lines, typed as positions; a few commands on the way.
    let mut lines = vec!["hint", "moves", "", "undo", "nonsense", "9,9"];
    let moves: Vec<&str> = solution
        .stdout
        .lines()
        .map(|l| l.trim_start_matches("M "))
        .collect();
    assert_eq!(moves.len(), 32);
    lines.extend(moves);
    for cut in 0..=lines.len() {
        let input: String = lines[..cut].iter().map(|l| format!("{l}\n")).collect();
        let run = peg(&["play", "--start", "0,0"], input.as_bytes());
        run.clone()
            .labelled(format!("end of input after {cut} lines"))
            .clean();
        if cut == lines.len() {
            assert!(run.stdout.contains("Congratulations!"), "{}", run.stdout);
        } else {
            // Quiet end: a fresh line after the last prompt.
            assert!(run.stdout.ends_with("> \n"), "cut {cut}: {}", run.stdout);
        }
    }
}

#[test]
fn readers_refuse_deep_nesting_with_a_place() {
    let n = 1_000_000;
    let deep = format!("{}1,0{}", "(".repeat(n), ")".repeat(n));
    let e = parse_position(&deep).unwrap_err();
    assert_eq!((e.line, e.column), (1, MAX_NESTING + 1));
    assert!(e.message.contains("nested more than 100 deep"), "{e}");
    assert!(parse_position_arg(&deep).is_err());
    let board = format!("{}[]{}", "(".repeat(n), ")".repeat(n));
    assert!(parse_board(&board).unwrap_err().message.contains("nested"));
    let state = format!("S {}M (1,0){} []", "(".repeat(n), ")".repeat(n));
    assert!(parse_state(&state).unwrap_err().message.contains("nested"));
}

#[test]
fn nesting_up_to_the_limit_still_reads_on_a_small_stack() {
    // 2 MiB, the default stack of a spawned thread, in a debug build.
    let handle = thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(|| {
            // The tuple's own parentheses count: MAX_NESTING in all.
            let k = MAX_NESTING - 1;
            let text = format!("{}(1,-2){}", "(".repeat(k), ")".repeat(k));
            let pos = parse_position(&text).expect("nesting at the limit reads");
            assert_eq!((pos.x, pos.y), (1, -2));
            let text = format!("[{}Peg (0,0) W{}]", "(".repeat(k), ")".repeat(k));
            assert_eq!(parse_board(&text).expect("board").pegs().len(), 1);
            let over = format!("[{}Peg (0,0) W{}]", "(".repeat(k + 1), ")".repeat(k + 1));
            let e = parse_board(&over).unwrap_err();
            assert_eq!(e.column, 1 + MAX_NESTING + 1 + 4);
        })
        .expect("thread");
    handle.join().expect("no stack overflow");
}

#[test]
fn a_board_of_a_million_pegs_is_refused() {
    // A long list is not nesting: it is read, then refused as not a board.
    let pegs = vec!["Peg (0,0) W"; 1_000_000].join(",");
    let e = parse_board(&format!("[{pegs}]")).unwrap_err();
    assert!(e.message.contains("not a board"), "{e}");
    assert!(e.message.contains("Peg (0,0) W"), "{e}");
}
