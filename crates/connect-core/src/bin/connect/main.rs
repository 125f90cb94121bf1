#![allow(clippy::print_stdout, clippy::print_stderr)] // reason: printing results and errors is this binary's job
//! `connect`: Connect Four in the terminal, an exact solver and a perfect player.

use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, IsTerminal, Write};
use std::path::Path;
use std::process::ExitCode;

use clap::Parser;
use connect_core::solve::{Book, Position, PositionError, Size, Solver};
use frontend::Failure;

mod args;
mod book;
mod play;
mod serve;

use args::{BestArgs, BookChoice, Cli, Command, SearchChoice, SolveArgs};

fn main() -> ExitCode {
    frontend::finish(run(Cli::parse()))
}

fn run(cli: Cli) -> Result<ExitCode, Failure> {
    match cli.command {
        Command::Solve(args) => solve(args),
        Command::Best(args) => best(args),
        Command::Play(args) => play::play(args),
        Command::Book(args) => book::book(args),
        Command::Serve(args) => serve::serve(args),
    }
}

/// The solver of `size` answering from the book `choice` names: a file,
/// none, or the built-in one (7x6 only).
pub(crate) fn solver(size: Size, choice: &BookChoice) -> Result<Solver, Failure> {
    let book = book_of(size, choice, Book::standard)?;
    solver_with(size, &choice.search, book)
}

/// The book `choice` names for a board of `size`: a file, none, or
/// `built_in` on 7x6.
pub(crate) fn book_of(
    size: Size,
    choice: &BookChoice,
    built_in: fn() -> Book,
) -> Result<Option<Book>, Failure> {
    if choice.no_book {
        return Ok(None);
    }
    let Some(path) = &choice.book else {
        return Ok((size == Size::STANDARD).then(built_in));
    };
    let shown = path.display();
    let text = frontend::input::read_text(
        &path.to_string_lossy(),
        "--book FILE, a book written by connect book, or --no-book",
    )?
    .text;
    let book = Book::from_text(&text)
        .map_err(|e| Failure::Usage(format!("--book {shown}: {}", escaped(&e.to_string()))))?;
    if book.size() != size {
        return Err(Failure::Usage(format!(
            "--book {shown}: a book of a {}x{} board for a {}x{} solver; give --width/--height of the book's board",
            book.size().width(),
            book.size().height(),
            size.width(),
            size.height()
        )));
    }
    Ok(Some(book))
}

/// A solver with the table and threads asked for, answering from `book`.
pub(crate) fn solver_with(
    size: Size,
    search: &SearchChoice,
    book: Option<Book>,
) -> Result<Solver, Failure> {
    let mut solver = search_solver(size, search);
    if let Some(book) = book {
        solver
            .set_book(book)
            .map_err(|e| Failure::Usage(format!("--book: {e}")))?;
    }
    Ok(solver)
}

/// A solver without a book, with the table and threads asked for.
fn search_solver(size: Size, search: &SearchChoice) -> Solver {
    let mut solver = Solver::with_table_mb(size, usize::from(search.table_mb));
    let threads = search.threads.map_or_else(
        || std::thread::available_parallelism().map_or(1, usize::from),
        usize::from,
    );
    solver.set_threads(threads);
    solver
}

/// The board size of `--width`/`--height`, for the digit notation (at most 9 columns).
pub(crate) fn size(width: usize, height: usize) -> Result<Size, Failure> {
    if width > 9 {
        return Err(Failure::Usage(format!(
            "--width {width}: positions are written with the digits 1-9, so --width is 1 to 9"
        )));
    }
    Size::new(width, height).map_err(|e| Failure::Usage(format!("--width/--height: {e}")))
}

/// Reads positions line by line from `file` or standard input, hands each
/// readable one to `answer`, reports the others on standard error, and
/// exits 2 when any line was bad.
fn each_line(
    file: Option<&Path>,
    mut answer: impl FnMut(&str, &mut dyn Write) -> Result<Result<(), PositionError>, Failure>,
) -> Result<ExitCode, Failure> {
    let give = "a FILE of positions, one line of moves each, or - for standard input";
    let file = file.filter(|path| path.as_os_str() != "-");
    let (name, input): (String, Box<dyn BufRead>) = match file {
        Some(path) => {
            let opened = if path.is_dir() {
                Err(io::ErrorKind::IsADirectory.into())
            } else {
                File::open(path)
            };
            let f = opened.map_err(|e| frontend::input::read_error(path, &e, give))?;
            (frontend::input::shown(path), Box::new(BufReader::new(f)))
        }
        None => {
            frontend::waiting_for_stdin(
                "positions, one line of moves each (e.g. 4453)",
                "give a FILE",
            );
            (frontend::STDIN.to_string(), Box::new(io::stdin().lock()))
        }
    };
    let interactive = io::stdin().is_terminal() || io::stdout().is_terminal();
    let mut out = BufWriter::new(io::stdout().lock());
    let mut bad = 0usize;
    let mut input = input;
    let mut line = Vec::new();
    for i in 0.. {
        line.clear();
        let n = input
            .read_until(b'\n', &mut line)
            .map_err(|e| Failure::Usage(format!("cannot read {name}: {e}")))?;
        if n == 0 {
            break;
        }
        if line.last() == Some(&b'\n') {
            line.pop();
        }
        let line = String::from_utf8_lossy(&line);
        let line = line.strip_suffix('\r').unwrap_or(&line);
        let moves = line.split([' ', '\t']).next().unwrap_or("");
        if let Err(e) = answer(moves, &mut out)? {
            bad += 1;
            out.flush()?;
            eprintln!(
                "{}{name}:{}: {}",
                frontend::PREFIX,
                i + 1,
                escaped(&e.to_string())
            );
        }
        if interactive {
            out.flush()?;
        }
    }
    out.flush()?;
    Ok(if bad == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(2)
    })
}

/// Text from a file or the keyboard as it may be shown: control
/// characters and the bidirectional overrides and isolates (which reorder
/// what a terminal shows) written as escapes, never sent to the terminal.
pub(crate) fn escaped(text: &str) -> String {
    text.chars()
        .flat_map(|c| {
            if c.is_control() || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}') {
                c.escape_default().collect::<Vec<_>>()
            } else {
                vec![c]
            }
        })
        .collect()
}

fn solve(args: SolveArgs) -> Result<ExitCode, Failure> {
    let size = size(args.board.width, args.board.height)?;
    let mut solver = solver(size, &args.book)?;
    each_line(args.file.as_deref(), |moves, out| {
        let p = match Position::from_moves(size, moves) {
            Ok(p) => p,
            Err(e) => return Ok(Err(e)),
        };
        write!(out, "{moves}")?;
        if args.analyze {
            for s in solver.analyze(&p, args.weak) {
                match s {
                    Some(s) => write!(out, " {s}")?,
                    None => write!(out, " -")?,
                }
            }
        } else if args.weak {
            write!(out, " {}", solver.solve_weak(&p))?;
        } else {
            write!(out, " {}", solver.solve(&p))?;
        }
        writeln!(out)?;
        Ok(Ok(()))
    })
}

fn best(args: BestArgs) -> Result<ExitCode, Failure> {
    let width = args.board.width;
    if args.players == 2 {
        let size = size(width, args.board.height)?;
        let book = book_of(size, &args.book, Book::standard)?;
        let mut solver = solver_with(size, &args.book.search, book.clone())?;
        return each_line(args.file.as_deref(), |moves, out| {
            let p = match Position::from_moves(size, moves) {
                Ok(p) => p,
                Err(e) => return Ok(Err(e)),
            };
            // A play book's move, else the search's.
            let from_book = book.as_ref().and_then(|b| b.best_move(&p));
            match from_book.or_else(|| solver.best_move(&p)) {
                Some((c, _)) => writeln!(out, "{moves} {}", c + 1)?,
                None => writeln!(out, "{moves} -")?,
            }
            Ok(Ok(()))
        });
    }
    let size = size(width, args.board.height)?;
    let players = args.players;
    let mut computer =
        connect_core::computer::Computer::new(connect_core::computer::Level::Perfect, 0);
    each_line(args.file.as_deref(), |moves, out| {
        let game = match connect_core::computer::Game::from_moves(
            size.width(),
            size.height(),
            players,
            moves,
        ) {
            Ok(g) => g,
            Err(e) => return Ok(Err(e)),
        };
        match computer.choose(&game) {
            Some(c) => writeln!(out, "{moves} {}", c + 1)?,
            None => writeln!(out, "{moves} -")?,
        }
        Ok(Ok(()))
    })
}
