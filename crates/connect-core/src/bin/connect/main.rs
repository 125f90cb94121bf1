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
mod play;

use args::{BestArgs, BookArgs, BookChoice, Cli, Command, SearchChoice, SolveArgs};

fn main() -> ExitCode {
    frontend::finish(run(Cli::parse()))
}

fn run(cli: Cli) -> Result<ExitCode, Failure> {
    match cli.command {
        Command::Solve(args) => solve(args),
        Command::Best(args) => best(args),
        Command::Play(args) => play::play(args),
        Command::Book(args) => book(args),
    }
}

/// The solver of `size` answering from the book `choice` names: a file,
/// none, or the built-in one (7x6 only).
pub(crate) fn solver(size: Size, choice: &BookChoice) -> Result<Solver, Failure> {
    let mut solver = search_solver(size, &choice.search);
    if choice.no_book {
        return Ok(solver);
    }
    let Some(path) = &choice.book else {
        if size == Size::STANDARD {
            solver
                .set_book(Book::standard())
                .expect("the built-in book is of 7x6");
        }
        return Ok(solver);
    };
    let shown = path.display();
    let text = std::fs::read_to_string(path)
        .map_err(|e| Failure::Usage(format!("--book {shown}: cannot read it: {e}")))?;
    let book = Book::from_text(&text)
        .map_err(|e| Failure::Usage(format!("--book {shown}: {}", escaped(&e.to_string()))))?;
    solver.set_book(book).map_err(|e| {
        Failure::Usage(format!(
            "--book {shown}: {e}; give --width/--height of the book's board"
        ))
    })?;
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

fn book(args: BookArgs) -> Result<ExitCode, Failure> {
    let size = size(args.board.width, args.board.height)?;
    let mut solver = search_solver(size, &args.search);
    let start = std::time::Instant::now();
    let book = Book::compute(&mut solver, args.depth, |p| {
        frontend::note(&format!(
            "{} stone{}: {} of {} positions scored ({:.1} s)",
            p.stones,
            if p.stones == 1 { "" } else { "s" },
            p.done,
            p.total,
            start.elapsed().as_secs_f64()
        ));
    })
    .map_err(|e| Failure::Usage(e.to_string()))?;
    let mut text = book.to_text();
    text.push_str(&format!(
        "# {} entries; made by `connect book --depth {}` (connect {}) in {:.1} s, {} nodes searched\n",
        book.len(),
        args.depth,
        env!("CARGO_PKG_VERSION"),
        start.elapsed().as_secs_f64(),
        solver.nodes()
    ));
    match &args.output {
        None => {
            let mut out = io::stdout().lock();
            out.write_all(text.as_bytes())?;
            out.flush()?;
        }
        Some(path) => write_whole(path, text.as_bytes())
            .map_err(|e| Failure::Usage(format!("--output {}: {e}", path.display())))?,
    }
    Ok(ExitCode::SUCCESS)
}

/// Writes `bytes` to `path` whole or not at all: a temporary file beside
/// it, then a rename.
pub(crate) fn write_whole(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let name = path
        .file_name()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "not a file name"))?;
    let mut tmp_name = std::ffi::OsString::from(".");
    tmp_name.push(name);
    tmp_name.push(format!(".tmp-{}", std::process::id()));
    let tmp = path.with_file_name(tmp_name);
    let result = (|| {
        let mut f = File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// The board size of `--width`/`--height`, for the digit notation (at most 9 columns).
fn size(width: usize, height: usize) -> Result<Size, Failure> {
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
    let (name, input): (String, Box<dyn BufRead>) = match file {
        Some(path) => {
            let f = File::open(path)
                .map_err(|e| Failure::Usage(format!("cannot open {}: {e}", path.display())))?;
            (path.display().to_string(), Box::new(BufReader::new(f)))
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
        let mut solver = solver(size, &args.book)?;
        return each_line(args.file.as_deref(), |moves, out| {
            let p = match Position::from_moves(size, moves) {
                Ok(p) => p,
                Err(e) => return Ok(Err(e)),
            };
            match solver.best_move(&p) {
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
