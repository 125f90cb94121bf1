#![allow(clippy::print_stdout, clippy::print_stderr)] // reason: printing results and errors is this binary's job
//! `peg`: the Peg Reversal functions from the shell, the game, a solver and a counter.

use std::io::{self, BufRead, IsTerminal, Read, Write};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::{Parser, Subcommand};
use peg_core::{
    Board, CountError, CountMethod, CountReport, Game, Move, MoveRefusal, Position, Shape,
    all_positions, count_board, count_orderings_with, create_board, is_goal, is_valid_move,
    list_positions, parse_board, parse_position_arg, render_game, show_bool, show_list,
    show_possible_next_states, solve, start_classes,
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
    /// Play in the terminal: type a position per turn, or hint, undo, moves, quit.
    Play {
        /// The starting white peg (random if not given).
        #[arg(long, allow_hyphen_values = true, value_parser = position_arg)]
        start: Option<Position>,
        /// Seed for the random start, for a repeatable game.
        #[arg(long)]
        seed: Option<u64>,
    },
    /// Print one winning game (32 moves), one `M (x,y)` per line.
    Solve {
        /// The starting white peg.
        #[arg(long, allow_hyphen_values = true, value_parser = position_arg, default_value = "0,0")]
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
        #[arg(long, allow_hyphen_values = true, value_parser = position_arg, conflicts_with_all = ["all", "board"])]
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

/// Everything that ends a run early, mapped to an exit code in one place.
enum Failure {
    /// The spec's own error (exit 1): its exact message.
    Spec(String),
    /// Input that does not read (exit 2).
    Input(String),
    /// Writing or reading failed.
    Io(io::Error),
}

impl From<io::Error> for Failure {
    fn from(e: io::Error) -> Self {
        Failure::Io(e)
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        Err(Failure::Spec(msg)) => {
            eprintln!("{msg}");
            ExitCode::from(1)
        }
        Err(Failure::Input(msg)) => {
            eprintln!("error: {msg}");
            ExitCode::from(2)
        }
        Err(Failure::Io(e)) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(Failure::Io(e)) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

fn read_board(text: Option<String>) -> Result<Board, Failure> {
    let (source, text) = match text {
        Some(t) => ("--board", t),
        None => {
            let mut t = String::new();
            io::stdin()
                .read_to_string(&mut t)
                .map_err(|e| Failure::Input(format!("cannot read standard input: {e}")))?;
            ("stdin", t)
        }
    };
    board_from(source, &text)
}

/// The board in `text`, or an input error naming `source` and the line and column.
fn board_from(source: &str, text: &str) -> Result<Board, Failure> {
    parse_board(text).map_err(|e| Failure::Input(format!("{source}:{e}")))
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
        Command::Play { start, seed } => {
            let start = start.unwrap_or_else(|| random_start(seed));
            let game = Game::new(start).map_err(|e| Failure::Spec(e.to_string()))?;
            let color = io::stdout().is_terminal()
                && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
            play(game, io::stdin().lock(), &mut out, color)?;
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
        .map_err(|e| Failure::Input(format!("cannot read standard input: {e}")))?;
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
        return Err(Failure::Input(
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

const HELP: &str = "Type a position to flip that black peg white (x,y such as 1,0 or (-2,1)),\n\
or a command: hint (suggest a move), undo (take back the last move),\n\
moves (list the valid moves), count (the number of ways to finish from here),\n\
quit (leave the game).";

fn show_turn(game: &Game, out: &mut impl Write, color: bool) -> io::Result<()> {
    write!(out, "\n{}", render_game(game, color))?;
    writeln!(out, "Valid moves: {}", list_positions(&game.valid_moves()))?;
    Ok(())
}

fn prompt(game: &Game, out: &mut impl Write) -> io::Result<()> {
    write!(out, "move {}> ", game.history().len() + 1)?;
    out.flush()
}

/// The game loop: reads one line per turn from `input`, writes to `out`.
///
/// A line is read as bytes and shown with invalid UTF-8 replaced, so a stray
/// byte is one unreadable move, not the end of the game.
fn play(
    mut game: Game,
    mut input: impl BufRead,
    out: &mut impl Write,
    color: bool,
) -> io::Result<()> {
    writeln!(
        out,
        "Peg Reversal: turn every peg white. W is a white peg, B a black one.\nYou start with the white peg at {}.\n{HELP}",
        game.start()
    )?;
    show_turn(&game, out, color)?;
    prompt(&game, out)?;
    let mut taken_back = 0usize;
    let mut buf = Vec::new();
    loop {
        buf.clear();
        if input.read_until(b'\n', &mut buf)? == 0 {
            break;
        }
        let line = String::from_utf8_lossy(&buf);
        let word = line.trim();
        match word.to_ascii_lowercase().as_str() {
            "" => {}
            "quit" | "q" | "exit" => {
                writeln!(out, "Bye.")?;
                return Ok(());
            }
            "help" | "?" => writeln!(out, "{HELP}")?,
            "moves" => writeln!(out, "Valid moves: {}", list_positions(&game.valid_moves()))?,
            "count" => match count_board(game.board()) {
                Ok(r) => writeln!(out, "Ways to finish from here: {}.", r.orderings)?,
                Err(e) => writeln!(out, "Cannot count: {e}.")?,
            },
            "hint" => match game.hint() {
                Some(m) => writeln!(out, "Hint: try {}.", m.0)?,
                None => writeln!(out, "No move is left.")?,
            },
            "undo" => match game.undo() {
                Some(p) => {
                    taken_back += 1;
                    writeln!(out, "Took back {p}; it is black again.")?;
                    show_turn(&game, out, color)?;
                }
                None => writeln!(out, "Nothing to undo: no move has been made yet.")?,
            },
            _ => match parse_position_arg(word) {
                Err(e) => writeln!(
                    out,
                    "Cannot read `{word}` as a position or command: {}.\n{HELP}",
                    e.message
                )?,
                Ok(pos) => match game.play(pos) {
                    Err(reason) => {
                        let why = match reason {
                            MoveRefusal::NoWhiteNeighbour(_) => {
                                format!("{reason}: flip a black peg next to a white one")
                            }
                            _ => reason.to_string(),
                        };
                        writeln!(out, "Refused: {why}. Try again.")?;
                    }
                    Ok(()) => {
                        if game.is_won() {
                            write!(out, "\n{}", render_game(&game, color))?;
                            let undo_note = match taken_back {
                                0 => String::new(),
                                1 => " (1 move taken back on the way)".to_string(),
                                n => format!(" ({n} moves taken back on the way)"),
                            };
                            writeln!(
                                out,
                                "Congratulations! Every peg is white: you won in {} moves{undo_note}.",
                                game.history().len()
                            )?;
                            return Ok(());
                        }
                        show_turn(&game, out, color)?;
                    }
                },
            },
        }
        prompt(&game, out)?;
    }
    // End of input: quit quietly, leaving the terminal on a fresh line.
    writeln!(out)?;
    Ok(())
}
