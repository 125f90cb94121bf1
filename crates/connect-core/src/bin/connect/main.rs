#![allow(clippy::print_stdout, clippy::print_stderr)] // reason: printing results and errors is this binary's job
//! `connect`: Connect Four in the terminal, an exact solver and a perfect player.

use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, IsTerminal, Write};
use std::path::Path;
use std::process::ExitCode;

use clap::Parser;
use connect_core::solve::{Position, PositionError, Size, Solver};
use frontend::Failure;

mod args;
mod play;

use args::{BestArgs, Cli, Command, SolveArgs};

fn main() -> ExitCode {
    frontend::finish(run(Cli::parse()))
}

fn run(cli: Cli) -> Result<ExitCode, Failure> {
    match cli.command {
        Command::Solve(args) => solve(args),
        Command::Best(args) => best(args),
        Command::Play(args) => play::play(args),
    }
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
                cnf_escape(&e.to_string())
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

/// Control characters of a bad line shown as escapes, never sent to the terminal.
fn cnf_escape(text: &str) -> String {
    text.chars()
        .flat_map(|c| {
            if c.is_control() {
                c.escape_default().collect::<Vec<_>>()
            } else {
                vec![c]
            }
        })
        .collect()
}

fn solve(args: SolveArgs) -> Result<ExitCode, Failure> {
    let size = size(args.board.width, args.board.height)?;
    let mut solver = Solver::new(size);
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
        let mut solver = Solver::new(size);
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
