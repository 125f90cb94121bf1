//! `cnf-grader bless`, `run`, `check` and `gen`: working with fixtures and games.

use crate::cli::Error;
use std::path::PathBuf;
use std::process::ExitCode;

use crate::cli::args::*;
use crate::cli::output::*;
use cnf_grader::format::play::{check_source, play_text};
use cnf_grader::write::bless::{bless, errors, summary};
use cnf_grader::write::generate::{GenError, GenSpec, generate, write_generated};
use connect_core::Function;

pub(crate) fn bless_command(args: BlessArgs) -> Result<ExitCode, Error> {
    let fixtures = discover_fixtures(&args.paths)?;
    if !fixtures.iter().any(|f| f.cnf_exists) {
        let paths: Vec<String> = args.paths.iter().map(|p| p.display().to_string()).collect();
        return Err(format!("no .cnf files under {}", paths.join(" ")).into());
    }
    let functions = if args.part.is_empty() {
        Function::ALL.to_vec()
    } else {
        let mut f = args.part.clone();
        f.sort();
        f.dedup();
        f
    };
    let entries = bless(&fixtures, &functions, args.check);
    let (text, bad) = summary(&entries, args.check);
    // Verdicts on standard output, problems on standard error (as `check`).
    for error in errors(&entries) {
        eprintln!("{}{error}", frontend::PREFIX);
    }
    print_out(&text, None)?;
    Ok(if bad {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

pub(crate) fn run_command(args: RunArgs) -> Result<ExitCode, Error> {
    if args.file == "-" {
        frontend::waiting_for_stdin(
            connect_core::cnf::GAME_EXAMPLE,
            "give a .cnf file instead of -",
        );
    }
    if args.players.is_some() && !args.part.uses_players() {
        return Err(format!(
            "--players applies only to parts 3 and 4, not part {}",
            args.part.part()
        )
        .into());
    }
    let input = frontend::input::read_text(&args.file, connect_core::cnf::GAME_FILE_WANTED)
        .map_err(|e| e.to_string())?;
    // --players was checked above, before the file was read.
    let text =
        play_text(args.part, &input.name, &input.text, args.players).map_err(|e| e.to_string())?;
    print_out(&text, None)?;
    Ok(ExitCode::SUCCESS)
}

pub(crate) fn check_command(args: CheckArgs) -> Result<ExitCode, Error> {
    // Verdicts on standard output, problems on standard error.
    let mut text = String::new();
    let (mut invalid, mut unreadable) = (0, 0);
    for file in &args.files {
        if file == "-" {
            frontend::waiting_for_stdin(
                connect_core::cnf::GAME_EXAMPLE,
                "give .cnf files instead of -",
            );
        }
        match frontend::input::read_text(file, connect_core::cnf::GAME_FILE_WANTED) {
            Err(message) => {
                unreadable += 1;
                eprintln!("{}{message}", frontend::PREFIX);
            }
            Ok(input) => match check_source(&input.name, &input.text) {
                Ok(line) => {
                    text.push_str(&line);
                    text.push('\n');
                }
                Err(problems) => {
                    invalid += 1;
                    eprintln!("{}{problems}", frontend::PREFIX);
                }
            },
        }
    }
    text.push_str(&format!(
        "{} valid, {invalid} invalid",
        args.files.len() - invalid - unreadable
    ));
    if unreadable > 0 {
        text.push_str(&format!(", {unreadable} unreadable"));
    }
    text.push('\n');
    print_out(&text, None)?;
    Ok(ExitCode::from(if unreadable > 0 {
        2
    } else if invalid > 0 {
        1
    } else {
        0
    }))
}

pub(crate) fn gen_command(args: GenArgs) -> Result<ExitCode, Error> {
    let seed = args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64)
    });
    let spec = GenSpec {
        rows: args.rows,
        cols: args.cols,
        players: args.players,
        moves: args.moves,
        seed,
    };
    let name = args
        .name
        .unwrap_or_else(|| PathBuf::from(format!("game-{seed}")));
    // `g/` or `` would write the hidden file `g/.cnf`.
    if name.file_name().is_none_or(|n| n.is_empty())
        || name.as_os_str().to_string_lossy().ends_with('/')
    {
        return Err(format!(
            "--name {:?}: the game needs a file name, e.g. --name fixtures/new/game1 (which writes game1.cnf and its .solution files)",
            name.display().to_string()
        ).into());
    }
    let mut cnf = name.as_os_str().to_owned();
    cnf.push(".cnf");
    if !args.force && PathBuf::from(&cnf).exists() {
        return Err(format!(
            "{} already exists; pick another --name or add --force",
            PathBuf::from(cnf).display()
        )
        .into());
    }
    let game = generate(&spec).map_err(gen_error)?;
    let written = write_generated(&name, &game)
        .map_err(|e| format!("cannot write {}: {e}", name.display()))?;
    let mut text = format!(
        "seed {seed}: {}x{} board, {} players, {} moves\n",
        spec.rows, spec.cols, spec.players, spec.moves
    );
    for path in written {
        text.push_str(&format!("wrote {}\n", path.display()));
    }
    print_out(&text, None)?;
    Ok(ExitCode::SUCCESS)
}

/// A setting `gen` cannot use, in the words of its flags.
fn gen_error(e: GenError) -> Error {
    Error::Usage(match e {
        GenError::Players(n) => format!("--players {n} is out of range; expected 1 to 35"),
        GenError::NoCells { rows, cols } => {
            format!("a {rows}x{cols} board has no cells; --rows and --cols must be at least 1")
        }
        GenError::NoMoves => {
            "--moves must be at least 1 (onePlayerOneMove needs a move)".to_owned()
        }
        GenError::TooManyMoves(n) => {
            format!("--moves {n} is too many; at most 1,000,000 (a game file of a few megabytes)")
        }
        other => other.to_string(),
    })
}
