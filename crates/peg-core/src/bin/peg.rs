#![allow(clippy::print_stdout, clippy::print_stderr)] // reason: printing results and errors is this binary's job
//! `peg`: the Peg Reversal functions from the shell, the game, a solver and a counter.

use std::io::{self, IsTerminal, Read, Write};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::{Parser, Subcommand};
use frontend::ColorWhen;
use peg_core::play::play;
use peg_core::{
    Board, CountError, CountMethod, CountReport, Game, Move, Position, Shape, all_positions,
    count_board, count_orderings_with, create_board, is_goal, is_valid_move, parse_board,
    parse_position_arg, show_bool, show_list, show_possible_next_states, solve, start_classes,
};
use rand::{Rng, SeedableRng, rngs::StdRng};

/// Peg Reversal: turn every peg of the `+` board white, one black neighbour of a white peg at a time.
#[derive(Parser, Debug)]
#[command(name = "peg", version)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Print `createBoard POSITION`: all black but a white peg at POSITION.
    Create {
        /// The white peg's position: `1,1`, `(1,1)` or `-2,1`.
        #[arg(allow_hyphen_values = true, value_parser = position_arg)]
        position: Position,
    },
    /// Print `isValidMove (M POSITION) board` for the board on stdin (or --board).
    Valid {
        /// The move's position: `1,0`, `(1,0)` or `-2,0`.
        #[arg(allow_hyphen_values = true, value_parser = position_arg)]
        position: Position,
        /// The board as Haskell text, instead of reading stdin.
        #[arg(long, value_name = "TEXT")]
        board: Option<String>,
    },
    /// Print `isGoal board` for the board on stdin (or --board).
    Goal {
        /// The board as Haskell text, instead of reading stdin.
        #[arg(long, value_name = "TEXT")]
        board: Option<String>,
    },
    /// Print `showPossibleNextStates board` for the board on stdin (or --board).
    Next {
        /// The board as Haskell text, instead of reading stdin.
        #[arg(long, value_name = "TEXT")]
        board: Option<String>,
    },
    /// Play in the terminal: type a position per turn, or hint, undo, moves, count, quit.
    Play {
        /// The starting white peg (random if not given).
        #[arg(long, allow_hyphen_values = true, value_parser = hole_arg)]
        start: Option<Position>,
        /// Seed for the random start, for a repeatable game.
        #[arg(long)]
        seed: Option<u64>,
        /// When to draw the board in colour (auto: on a terminal, unless NO_COLOR is set).
        #[arg(long, value_enum, default_value = "auto", value_name = "WHEN")]
        color: ColorWhen,
    },
    /// Print one winning game (32 moves), one `M (x,y)` per line.
    Solve {
        /// The starting white peg.
        #[arg(long, allow_hyphen_values = true, value_parser = hole_arg, default_value = "0,0")]
        start: Position,
    },
    /// Print the exact number of distinct winning games from a start, from every
    /// class of starts (--all), or of ways to finish a board (--board or stdin).
    ///
    /// With neither --start, --all nor --board, a board is read from standard
    /// input when it is not a terminal and holds text; otherwise the count is
    /// from the centre.
    Count {
        /// The starting white peg (the centre if nothing else is given).
        #[arg(long, allow_hyphen_values = true, value_parser = hole_arg, conflicts_with_all = ["all", "board"])]
        start: Option<Position>,
        /// Print a table: each class of start holes under the board's 8
        /// symmetries, with its holes, its count, the sets stored and the time.
        #[arg(long, conflicts_with = "board")]
        all: bool,
        /// The board to finish, as Haskell text, instead of reading stdin; any
        /// board that reads, white pegs in one group or several.
        #[arg(long, value_name = "TEXT")]
        board: Option<String>,
        /// Also print the work done (states, largest layer, symmetries, time) on stderr.
        #[arg(long)]
        verbose: bool,
        /// How to walk the sets of white pegs: grouped (one set per orbit under all
        /// 8 symmetries, parts in parallel; the default), orbits (one hash map per
        /// layer, symmetries fixing the start), parts (no symmetry, parts in
        /// parallel). Only grouped counts a board.
        #[arg(long, value_enum, default_value_t = MethodArg::Auto)]
        method: MethodArg,
    },
}

/// The counting method as a command-line value.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
enum MethodArg {
    Auto,
    Grouped,
    Orbits,
    Parts,
}

fn position_arg(text: &str) -> Result<Position, String> {
    parse_position_arg(text).map_err(|e| e.to_string())
}

/// A start hole: a position that is a hole of the `+` board (an off-board
/// start is bad input, exit 2, like one that does not read).
fn hole_arg(text: &str) -> Result<Position, String> {
    let pos = position_arg(text)?;
    if all_positions().contains(&pos) {
        Ok(pos)
    } else {
        Err(format!(
            "{pos} is not a hole of the + board (a hole has |x| <= 1 and |y| <= 3, or |x| <= 3 and |y| <= 1)"
        ))
    }
}

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
            if io::stdin().is_terminal() {
                eprintln!(
                    "peg: reading a board from standard input, e.g. [Peg (0,0) W,Peg (1,0) B] \
                     (end it with Ctrl-D), or give it with --board TEXT"
                );
            }
            let mut t = String::new();
            io::stdin()
                .read_to_string(&mut t)
                .map_err(|e| Input(format!("cannot read standard input: {e}")))?;
            ("stdin", t)
        }
    };
    board_from(source, &text)
}

/// The board in `text`, or an input error naming `source` and the line and column.
fn board_from(source: &str, text: &str) -> Result<Board, Failure> {
    parse_board(text).map_err(|e| Input(format!("{source}:{e}")))
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
            play(game, io::stdin().lock(), &mut out, color.for_stdout())?;
        }
        Command::Solve { start } => {
            let moves = solve(&Shape::plus(), start)
                .ok_or_else(|| Failure::Spec(peg_core::InvalidPosition.to_string()))?;
            for m in moves {
                writeln!(out, "{m}")?;
            }
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
                count_table(method, &mut out)?;
            } else if let Some(board) = count_input(start, board)? {
                count_from_board(&board, method, verbose, &mut out)?;
            } else {
                let start = start.unwrap_or(Position::new(0, 0));
                let t = Instant::now();
                let report = count_start(start, method)?;
                writeln!(out, "{}", report.orderings)?;
                if verbose {
                    eprintln!("start {start}: {}", work(&report, t.elapsed()));
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
    let mut text = String::new();
    io::stdin()
        .read_to_string(&mut text)
        .map_err(|e| Input(format!("cannot read standard input: {e}")))?;
    if text.trim().is_empty() {
        return Ok(None);
    }
    board_from("stdin", &text).map(Some)
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
        eprintln!("board: {}", work(&report, t.elapsed()));
    }
    Ok(())
}

/// The work a count did, for `--verbose`.
fn work(report: &CountReport, time: Duration) -> String {
    format!(
        "{} sets stored ({:?} method, {} symmetries), largest layer {}, {:.2?}",
        report.states, report.method, report.symmetries, report.largest_layer, time
    )
}

/// `peg count --all`: one row per class of start holes, printed as it is counted.
fn count_table(method: CountMethod, out: &mut impl Write) -> Result<(), Failure> {
    let classes = start_classes();
    let holes: Vec<String> = classes
        .iter()
        .map(|(_, hs)| {
            hs.iter()
                .map(|h| h.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    let width = holes.iter().map(String::len).max().unwrap_or(0);
    writeln!(
        out,
        "{:<width$}  {:>29}  {:>10}  {:>8}",
        "holes", "winning games from each hole", "states", "time"
    )?;
    out.flush()?;
    let total = Instant::now();
    for ((rep, _), holes) in classes.iter().zip(&holes) {
        let t = Instant::now();
        let report = count_start(*rep, method)?;
        writeln!(
            out,
            "{holes:<width$}  {:>29}  {:>10}  {:>6.2} s",
            report.orderings,
            report.states,
            t.elapsed().as_secs_f64()
        )?;
        out.flush()?;
    }
    writeln!(
        out,
        "{} classes, 33 holes, {:.2} s in all",
        classes.len(),
        total.elapsed().as_secs_f64()
    )?;
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
