//! `mastermind`: the original menu-driven game, single games for scripts, statistics and scoring.
//!
//! A thin front end: it parses the command line, calls [`mastermind_core::play`] or the
//! statistics, and prints. Exit codes: 0 for success (also end of input at a prompt and a
//! closed standard output), 1 for a tree `check-tree` finds invalid, 2 for bad usage or
//! input (also a tree file that cannot be read or is not JSON) and for a failed read or
//! write. Every error message starts with `error: `, as clap's own do.
#![allow(clippy::print_stdout, clippy::print_stderr)] // reason: a command-line program talks on stdout/stderr

use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;
use std::time::Duration;

use clap::Parser;
use indicatif::{ProgressBar, ProgressStyle};
use mastermind_core::play::{self, Player, Ui};
use mastermind_core::{Code, DecisionTree, Game, Strategy};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use args::{Cli, Command, FirstArgs, Format, TreeFormat};

mod args;

/// Why the program failed.
enum Failure {
    /// Bad input on the command line.
    Usage(String),
    /// Reading or writing failed.
    Io(io::Error),
}

impl From<io::Error> for Failure {
    fn from(e: io::Error) -> Self {
        Failure::Io(e)
    }
}

impl From<mastermind_core::Error> for Failure {
    fn from(e: mastermind_core::Error) -> Self {
        Failure::Usage(e.to_string())
    }
}

impl From<Failure> for frontend::Failure {
    fn from(failure: Failure) -> Self {
        match failure {
            Failure::Usage(message) => frontend::Failure::Usage(message),
            Failure::Io(e) => frontend::Failure::Io(e),
        }
    }
}

fn main() -> ExitCode {
    // The workspace's one convention: exit codes, prefix, a quiet closed pipe.
    frontend::finish(run().map_err(Into::into))
}

fn run() -> Result<ExitCode, Failure> {
    let Cli {
        size,
        player: top,
        seed: top_seed,
        command,
    } = Cli::parse();
    let game = Game::new(size.pegs, size.colors)?;
    let (args, seed) = args::merge(&command, top, top_seed).map_err(Failure::Usage)?;
    let strategy = args.strategy.unwrap_or_default();
    if args.max_guesses.is_some() && strategy != Strategy::Optimal {
        return Err(Failure::Usage(format!(
            "--max-guesses applies to --strategy optimal only, not {strategy}"
        )));
    }
    // Long searches: statistics, trees, and the optimal strategy's plan before a game.
    let optimal = strategy == Strategy::Optimal;
    let bar = progress(match &command {
        Some(Command::Stats { .. } | Command::Tree { .. }) => true,
        Some(Command::Both(_) | Command::Computer(_)) => optimal,
        _ => false,
    });
    let shown = bar.clone();
    let player = Player::new(game, strategy, args.max_guesses)
        .with_progress(move |line| shown.set_message(line.to_string()));
    // Read before standard input is handed to the games.
    let mut tree_json = match &command {
        Some(Command::CheckTree { file }) => Some(read_tree(file)?),
        _ => None,
    };
    let stdin = io::stdin();
    let mut out = io::stdout().lock();
    let mut err = io::stderr();
    let mut ui = Ui::new(stdin.lock(), &mut out);
    if stdin.is_terminal() {
        ui = ui.with_notes(&mut err);
    }
    let mut rng = make_rng(seed);
    let mut random = move || Code(rng.random_range(0..game.num_codes()));
    match &command {
        None => {
            play::menu(&mut ui, &player, &mut random)?;
        }
        Some(Command::Human(a)) => {
            let secret = pick_secret(game, &a.secret, &mut random)?;
            play::human(&mut ui, &player, secret)?;
        }
        Some(Command::Computer(_)) => {
            player.plan()?;
            bar.finish_and_clear();
            play::computer(&mut ui, game, player.breaker()?)?;
        }
        Some(Command::Both(a)) => {
            let secret = pick_secret(game, &a.secret, &mut random)?;
            player.plan()?;
            bar.finish_and_clear();
            play::both(&mut ui, game, player.breaker()?, secret)?;
        }
        Some(Command::Stats { first, format, .. }) => {
            let first = parse_first(game, first)?;
            let stats = player.tree(first)?.stats(game, strategy);
            bar.finish_and_clear();
            match format {
                Format::Json => {
                    let text = serde_json::to_string(&stats).map_err(io::Error::other)?;
                    writeln!(ui.out(), "{text}")?;
                }
                Format::Human => {
                    let first = first.map(|f| game.format_code(f));
                    write!(ui.out(), "{}", stats.to_text(first.as_deref()))?;
                }
            }
        }
        Some(Command::Tree { first, format, .. }) => {
            let tree = player.tree(parse_first(game, first)?)?;
            bar.finish_and_clear();
            match format {
                TreeFormat::Json => writeln!(ui.out(), "{}", tree.to_json(game))?,
                TreeFormat::Human => write!(ui.out(), "{}", tree.to_text(game))?,
                TreeFormat::Dot => write!(ui.out(), "{}", tree.to_dot(game)?)?,
            }
        }
        Some(Command::CheckTree { .. }) => {
            let value = tree_json.take().expect("read before the game's input");
            match DecisionTree::from_json(game, &value) {
                Ok(tree) => {
                    let stats = tree.stats(game, strategy);
                    write!(ui.out(), "{}", stats.figures_text(None))?;
                }
                Err(e) => {
                    ui.out().flush()?;
                    eprintln!("{}{e}", frontend::PREFIX);
                    return Ok(ExitCode::from(1));
                }
            }
        }
        Some(Command::Score { secret, guess }) => {
            let secret = parse_arg(game, "SECRET", secret)?;
            let guess = parse_arg(game, "GUESS", guess)?;
            writeln!(ui.out(), "{}", game.calc_score(secret, guess))?;
        }
    }
    // A game's outcome (played out, left with `q`, or end of input at a prompt, which is
    // quiet) does not change the exit code.
    ui.out().flush()?;
    Ok(ExitCode::SUCCESS)
}

/// The JSON text of `file` (`-` for standard input), or why it cannot be read.
fn read_tree(file: &std::path::Path) -> Result<serde_json::Value, Failure> {
    let arg = file.to_string_lossy();
    if arg == "-" {
        frontend::waiting_for_stdin("a tree in JSON", "give its file name instead of -");
    }
    let frontend::input::Input { name, text } = frontend::input::read_text(
        &arg,
        "a tree in JSON (as mastermind tree --format json writes it), or - for standard input",
    )
    .map_err(|e| Failure::Usage(e.to_string()))?;
    // A byte-order mark in front (Windows Notepad saves UTF-8 so) is not JSON
    // but says nothing about the tree: skip it, as the game-file readers do.
    let json = text.strip_prefix('\u{feff}').unwrap_or(&text);
    serde_json::from_str(json).map_err(|e| Failure::Usage(format!("tree {name} is not JSON: {e}")))
}

fn parse_arg(game: Game, what: &str, text: &str) -> Result<Code, Failure> {
    game.parse_code(text)
        .map_err(|e| Failure::Usage(format!("bad {what}: {e}")))
}

/// The secret `given` on the command line, else a random one.
fn pick_secret(
    game: Game,
    given: &Option<String>,
    random: &mut dyn FnMut() -> Code,
) -> Result<Code, Failure> {
    match given {
        Some(s) => parse_arg(game, "--secret", s),
        None => Ok(random()),
    }
}

fn parse_first(game: Game, first: &FirstArgs) -> Result<Option<Code>, Failure> {
    first
        .first
        .as_deref()
        .map(|f| parse_arg(game, "--first", f))
        .transpose()
}

fn make_rng(seed: Option<u64>) -> StdRng {
    match seed {
        Some(s) => StdRng::seed_from_u64(s),
        None => StdRng::from_rng(&mut rand::rng()),
    }
}

/// A line on standard error with the time taken and the search's last report, while a long
/// run works; drawn only when standard error is a terminal.
fn progress(enabled: bool) -> ProgressBar {
    if !enabled {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new_spinner();
    if let Ok(style) = ProgressStyle::with_template("working, {elapsed} {msg}") {
        bar.set_style(style);
    }
    bar.enable_steady_tick(Duration::from_secs(1));
    bar
}
