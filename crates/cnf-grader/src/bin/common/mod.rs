//! The command line shared by the four part binaries: read a `.cnf` file,
//! play one function, print the `.solution` text.

use std::io::{self, Read, Write};
use std::process::ExitCode;

use clap::{Arg, ArgAction, Command, value_parser};
use cnf_grader::format::play::play_source;
use connect_core::{Function, Player};

/// Runs the part binary for `function` on the process's arguments.
pub(crate) fn part_main(function: Function) -> ExitCode {
    let name = format!("part0{}", function.part());
    let mut cmd = Command::new(name.clone())
        .about(format!("{}: {}", function.name(), function.summary()))
        .long_about(long_help(function))
        .arg(
            Arg::new("FILE")
                .required(true)
                .help("The .cnf game file to play, or - to read standard input"),
        );
    if function.uses_players() {
        cmd = cmd.arg(
            Arg::new("players")
                .long("players")
                .value_name("N")
                .value_parser(value_parser!(u8).range(1..=i64::from(Player::MAX)))
                .action(ArgAction::Set)
                .help("Number of players (1-35); default: the highest player on the board"),
        );
    }
    let matches = cmd.get_matches();
    let file: &String = matches.get_one("FILE").expect("FILE is required");
    let players = matches
        .try_get_one::<u8>("players")
        .ok()
        .flatten()
        .and_then(|&n| Player::new(n));

    let (display, source) = match read_input(file) {
        Ok(read) => read,
        Err(message) => {
            eprintln!("{name}: {message}");
            return ExitCode::from(2);
        }
    };
    match play_source(function, &source, players) {
        Ok(text) => write_stdout(&text),
        Err(e) => {
            eprintln!("{}", e.render(&display, &source));
            ExitCode::from(2)
        }
    }
}

fn long_help(function: Function) -> String {
    let players = if function.uses_players() {
        " The number of players n is the highest player token on the board (1-9, then a-z for 10-35) unless --players N is given; a board with no pieces needs --players."
    } else {
        ""
    };
    format!(
        "Part {part} of the Connect Four assignment, {name}: {summary}. \
It reads the game file FILE (a Haskell value ([String],[Int]): the rows top to bottom, \
then the moves as column numbers from 1), plays the function, and prints the \
resulting board on standard output exactly as the course's program did: \"Result\", \
each row as a quoted string, then \"\".{players} Invalid input is reported on standard \
error with its FILE:LINE:COLUMN and exit code 2; nothing is printed on standard output then.",
        part = function.part(),
        name = function.name(),
        summary = function.summary(),
    )
}

/// Reads the file named on the command line (`-` for standard input) as text.
/// Returns the name to show in messages and the text.
pub(crate) fn read_input(file: &str) -> Result<(String, String), String> {
    let (display, bytes) = if file == "-" {
        let mut buf = Vec::new();
        io::stdin()
            .read_to_end(&mut buf)
            .map_err(|e| format!("cannot read standard input: {e}"))?;
        ("<stdin>".to_owned(), buf)
    } else {
        let bytes = std::fs::read(file).map_err(|e| format!("cannot read {file}: {e}"))?;
        (file.to_owned(), bytes)
    };
    match String::from_utf8(bytes) {
        Ok(text) => Ok((display, text)),
        Err(e) => {
            let at = e.utf8_error().valid_up_to();
            let lossy = String::from_utf8_lossy(e.as_bytes());
            let (line, column) = cnf_grader::format::diagnostic::line_column(&lossy, at);
            Err(format!(
                "{display}:{line}:{column}: the file is not UTF-8 text (byte {at} is invalid); a .cnf file is plain text"
            ))
        }
    }
}

/// Writes the result; a closed pipe is not an error worth reporting.
pub(crate) fn write_stdout(text: &str) -> ExitCode {
    let mut out = io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("cannot write the result: {e}");
            ExitCode::from(2)
        }
    }
}
