#![allow(clippy::print_stdout, clippy::print_stderr)] // reason: printing results and errors is this binary's job
//! `peg`: the Peg Reversal functions from the shell, the game, a solver and a counter.

use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;
use std::time::Instant;

use clap::Parser;
use peg_core::count::{TableError, describe_work, write_count_table};
use peg_core::play::play_with_progress;
use peg_core::{
    Board, CountError, CountMethod, CountReport, Game, Move, Position, Shape, all_positions,
    count_board, count_orderings_with, create_board, is_goal, is_valid_move, parse_board,
    show_bool, show_list, show_possible_next_states, solve,
};
use rand::{Rng, SeedableRng, rngs::StdRng};

mod args;
mod case;

use args::{Cli, Command, MethodArg};

/// Everything that ends a run early. The assignment's own errors keep
/// their exact text and exit 1; the rest go through the workspace's one
/// convention ([`frontend::finish`]: `error: `, exit 2).
enum Failure {
    /// The spec's own error (exit 1): its exact message.
    Spec(String),
    /// Input that does not read, or an I/O error.
    Front(frontend::Failure),
}

impl From<io::Error> for Failure {
    fn from(e: io::Error) -> Self {
        Failure::Front(frontend::Failure::Io(e))
    }
}

#[allow(non_snake_case)] // reason: reads as the variant it stands for
fn Input(message: String) -> Failure {
    Failure::Front(frontend::Failure::Usage(message))
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    frontend::finish(match run(cli) {
        Err(Failure::Spec(msg)) => {
            eprintln!("{msg}");
            Ok(ExitCode::from(1))
        }
        Err(Failure::Front(f)) => Err(f),
        Ok(code) => Ok(code),
    })
}

fn read_board(text: Option<String>) -> Result<Board, Failure> {
    let (source, text) = match text {
        Some(t) => ("--board", t),
        None => {
            frontend::waiting_for_stdin(
                "a board, e.g. [Peg (0,0) W,Peg (1,0) B]",
                "give it with --board TEXT",
            );
            (frontend::STDIN, read_stdin()?)
        }
    };
    board_from(source, &text)
}

/// Standard input whole, read as every binary reads a file (one error form;
/// text that is not UTF-8 located at its first bad byte).
fn read_stdin() -> Result<String, Failure> {
    frontend::input::read_text("-", BOARD_GIVE)
        .map(|input| input.text)
        .map_err(|e| Input(e.to_string()))
}

/// What to give when standard input cannot be read.
const BOARD_GIVE: &str =
    "a board in Haskell syntax, e.g. [Peg (0,0) W,Peg (1,0) B], or --board TEXT";

/// The board in `text`, or an input error naming `source` and the line and column.
fn board_from(source: &str, text: &str) -> Result<Board, Failure> {
    parse_board(text).map_err(|e| Input(e.render(source, text).to_string()))
}

fn run(cli: Cli) -> Result<ExitCode, Failure> {
    let mut out = io::stdout().lock();
    match cli.command {
        Command::Create { position } => {
            let board = create_board(position).map_err(|e| Failure::Spec(e.to_string()))?;
            writeln!(out, "{board}")?;
        }
        Command::Valid { position, board } => {
            let board = read_board(board)?;
            writeln!(out, "{}", show_bool(is_valid_move(Move(position), &board)))?;
        }
        Command::Goal { board } => {
            let board = read_board(board)?;
            writeln!(out, "{}", show_bool(is_goal(&board)))?;
        }
        Command::Next { board } => {
            let board = read_board(board)?;
            let states =
                show_possible_next_states(&board).map_err(|e| Failure::Spec(e.to_string()))?;
            writeln!(out, "{}", show_list(&states))?;
        }
        Command::Play { start, seed, color } => {
            let start = start.unwrap_or_else(|| random_start(seed));
            let game = Game::new(start).map_err(|e| Failure::Spec(e.to_string()))?;
            // On a terminal, a long `count` says it is working (on standard
            // error, erased when done); piped, the transcript is all.
            let terminal = io::stdin().is_terminal() && io::stderr().is_terminal();
            let mut working = |what: Option<&str>| {
                if !terminal {
                    return;
                }
                let mut err = io::stderr().lock();
                let _ = match what {
                    Some(what) => write!(err, "{what}…"),
                    None => write!(err, "\r\x1b[2K"),
                };
                let _ = err.flush();
            };
            play_with_progress(
                game,
                io::stdin().lock(),
                &mut out,
                color.for_stdout(),
                &mut working,
            )?;
        }
        Command::Solve { start } => {
            let moves = solve(&Shape::plus(), start)
                .ok_or_else(|| Failure::Spec(peg_core::InvalidPosition.to_string()))?;
            for m in moves {
                writeln!(out, "{m}")?;
            }
        }
        Command::Case {
            dir,
            name,
            call,
            check,
        } => {
            if check {
                let checked = case::check_dir(&dir).map_err(Input)?;
                for error in &checked.unreadable {
                    eprintln!("{}{error}", frontend::PREFIX);
                }
                write!(out, "{}", checked.report)?;
                let good = checked.cases - checked.differ - checked.unreadable.len();
                writeln!(
                    out,
                    "{} {}: {good} as derived, {} differ, {} do not read",
                    checked.cases,
                    if checked.cases == 1 { "case" } else { "cases" },
                    checked.differ,
                    checked.unreadable.len()
                )?;
                out.flush()?;
                return Ok(if !checked.unreadable.is_empty() {
                    ExitCode::from(2)
                } else if checked.differ > 0 {
                    ExitCode::from(1)
                } else {
                    ExitCode::SUCCESS
                });
            }
            let (Some(name), Some(call)) = (name, call) else {
                return Err(Input(
                    "peg case needs a NAME and a CALL, or --check".to_string(),
                ));
            };
            let call = case::read_call(&call).map_err(Input)?;
            let expected = case::write_case(&dir, &name, &call).map_err(Input)?;
            write!(out, "{expected}")?;
        }
        Command::Count {
            start,
            all,
            board,
            verbose,
            method,
        } => {
            let method = match method {
                MethodArg::Auto => CountMethod::Auto,
                MethodArg::Grouped => CountMethod::Grouped,
                MethodArg::Orbits => CountMethod::Orbits,
                MethodArg::Parts => CountMethod::Parts,
            };
            if all {
                write_count_table(method, &mut out).map_err(|e| match e {
                    TableError::Io(e) => Failure::from(e),
                    TableError::Count(e) => Failure::Spec(e.to_string()),
                })?;
            } else if let Some(board) = count_input(start, board)? {
                count_from_board(&board, method, verbose, &mut out)?;
            } else {
                let start = start.unwrap_or(Position::new(0, 0));
                let t = Instant::now();
                let report = count_start(start, method)?;
                writeln!(out, "{}", report.orderings)?;
                if verbose {
                    eprintln!("start {start}: {}", describe_work(&report, t.elapsed()));
                }
            }
        }
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// The board `peg count` is to finish, if it is given one: `--board`, or
/// standard input when neither `--start` nor `--board` is given and stdin is
/// not a terminal and holds more than white space.
fn count_input(start: Option<Position>, board: Option<String>) -> Result<Option<Board>, Failure> {
    if board.is_some() {
        return read_board(board).map(Some);
    }
    if start.is_some() || io::stdin().is_terminal() {
        return Ok(None);
    }
    let text = read_stdin()?;
    if text.trim().is_empty() {
        return Ok(None);
    }
    board_from(frontend::STDIN, &text).map(Some)
}

fn count_start(start: Position, method: CountMethod) -> Result<CountReport, Failure> {
    count_orderings_with(&Shape::plus(), start, method).map_err(|e| match e {
        CountError::StartNotInShape(_) => Failure::Spec(peg_core::InvalidPosition.to_string()),
        CountError::Overflow | CountError::TooManyStates(_) => Failure::Spec(e.to_string()),
    })
}

fn count_from_board(
    board: &Board,
    method: CountMethod,
    verbose: bool,
    out: &mut impl Write,
) -> Result<(), Failure> {
    if matches!(method, CountMethod::Orbits | CountMethod::Parts) {
        return Err(Input(
            "--method orbits and parts count from a start hole only; a board is counted by the grouped method (the default)".to_string(),
        ));
    }
    let t = Instant::now();
    let report = count_board(board).map_err(|e| Failure::Spec(e.to_string()))?;
    writeln!(out, "{}", report.orderings)?;
    if verbose {
        eprintln!("board: {}", describe_work(&report, t.elapsed()));
    }
    Ok(())
}

fn random_start(seed: Option<u64>) -> Position {
    let cells = all_positions();
    let i = match seed {
        Some(s) => StdRng::seed_from_u64(s).random_range(0..cells.len()),
        None => rand::rng().random_range(0..cells.len()),
    };
    cells[i]
}
