//! The command line shared by the four part binaries: read a `.cnf` file,
//! play one function, print the `.solution` text.

use std::process::ExitCode;

use clap::{Arg, ArgAction, Command, value_parser};
use cnf_grader::format::play::play_text;
use connect_core::{Function, Player};
use frontend::{Failure, finish, write_stdout};

/// Runs the part binary for `function` on the process's arguments.
pub(crate) fn part_main(function: Function) -> ExitCode {
    let name = format!("part0{}", function.part());
    let mut cmd = Command::new(name)
        .version(env!("CARGO_PKG_VERSION"))
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
    let players = matches.try_get_one::<u8>("players").ok().flatten().copied();
    finish(run(function, file, players))
}

fn run(function: Function, file: &str, players: Option<u8>) -> Result<ExitCode, Failure> {
    if file == "-" {
        frontend::waiting_for_stdin(
            connect_core::cnf::GAME_EXAMPLE,
            "give a .cnf file instead of -",
        );
    }
    if players.is_some() && !function.uses_players() {
        return Err(format!(
            "--players applies only to parts 3 and 4, not part {}",
            function.part()
        )
        .into());
    }
    let input = frontend::input::read_text(file, connect_core::cnf::GAME_FILE_WANTED)?;
    // --players was checked above, before the file was read.
    let text = play_text(function, &input.name, &input.text, players).map_err(|e| e.to_string())?;
    write_stdout(&text, frontend::ColorWhen::Never)?;
    Ok(ExitCode::SUCCESS)
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
