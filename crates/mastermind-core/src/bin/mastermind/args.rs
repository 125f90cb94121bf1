//! The command line: flags are declared once, in groups, and each subcommand takes only
//! the groups that apply to it (`mastermind score --help` lists no `--strategy`).

use clap::{Args, Parser, Subcommand, ValueEnum};
use mastermind_core::Strategy;

/// Mastermind: guess a secret code, let the computer guess yours, or measure its strategies.
#[derive(Parser, Debug)]
#[command(name = "mastermind", version)]
pub(crate) struct Cli {
    #[command(flatten)]
    pub(crate) size: SizeArgs,
    #[command(flatten)]
    pub(crate) player: PlayerArgs,
    /// Seed for reproducible random secrets: of the menu's games, or of `human` and `both`.
    #[arg(long, value_name = "N")]
    pub(crate) seed: Option<u64>,
    #[command(subcommand)]
    pub(crate) command: Option<Command>,
}

/// The size of the game: applies to every mode.
#[derive(Args, Debug)]
pub(crate) struct SizeArgs {
    /// Pegs per code (1-8).
    #[arg(long, global = true, default_value_t = 4, value_name = "N",
          value_parser = clap::value_parser!(u32).range(1..=8))]
    pub(crate) pegs: u32,
    /// Number of colours, the letters a, b, ... (2-26).
    #[arg(long, global = true, default_value_t = 6, value_name = "K",
          value_parser = clap::value_parser!(u32).range(2..=26))]
    pub(crate) colors: u32,
}

/// The computer player: for the modes where the computer guesses (or hints).
#[derive(Args, Debug, Default)]
pub(crate) struct PlayerArgs {
    /// How the computer guesses: first-consistent (the original), knuth, most-parts,
    /// expected-size, entropy, optimal [default: first-consistent].
    #[arg(long, value_name = "NAME")]
    pub(crate) strategy: Option<Strategy>,
    /// With --strategy optimal: the least total within at most N guesses per secret.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=60))]
    pub(crate) max_guesses: Option<u32>,
}

#[derive(Subcommand, Debug)]
pub(crate) enum Command {
    /// One game where you guess the computer's secret (`?` shows how many codes remain and a
    /// suggestion, `q` leaves).
    Human(GameArgs),
    /// One game where the computer guesses your secret; type each score as two digits, right
    /// then wrong (`q` leaves).
    Computer(PlayerArgs),
    /// One game where the computer guesses its own secret.
    Both(GameArgs),
    /// Play the strategy against every secret: total, average, worst case, histogram.
    Stats {
        #[command(flatten)]
        first: FirstArgs,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Human)]
        format: Format,
        #[command(flatten)]
        player: PlayerArgs,
    },
    /// Print the strategy's whole decision tree: the guess, then for each score what follows.
    Tree {
        #[command(flatten)]
        first: FirstArgs,
        /// Output format: human (indented text), JSON (`guess`, `candidates`, `solves`, `next` by
        /// score), or a Graphviz drawing (dot; games of at most 1296 codes).
        #[arg(long, value_enum, default_value_t = TreeFormat::Human)]
        format: TreeFormat,
        #[command(flatten)]
        player: PlayerArgs,
    },
    /// Check a strategy tree in the JSON of `tree --format json` (from this program or
    /// written by hand) against every secret of the game, then print its statistics.
    ///
    /// Exit code 1 and the first problem, with its path from the root, for a tree that
    /// misses a secret or has a branch its guess's score cannot reach; 2 when FILE cannot be
    /// read or is not JSON.
    CheckTree {
        /// The tree as JSON, or - for standard input.
        file: std::path::PathBuf,
    },
    /// Print the score of GUESS against SECRET as two digits, right then wrong.
    Score {
        /// The secret code, e.g. dbcb.
        secret: String,
        /// The guess, e.g. abcd.
        guess: String,
    },
}

/// A game against a secret the computer knows.
#[derive(Args, Debug)]
pub(crate) struct GameArgs {
    /// The secret code instead of a random one.
    #[arg(long, value_name = "CODE", conflicts_with = "seed")]
    pub(crate) secret: Option<String>,
    /// Seed for a reproducible random secret.
    #[arg(long, value_name = "N")]
    pub(crate) seed: Option<u64>,
    #[command(flatten)]
    pub(crate) player: PlayerArgs,
}

/// A fixed first guess.
#[derive(Args, Debug)]
pub(crate) struct FirstArgs {
    /// Fix the first guess: a code of --pegs letters, e.g. aabb (or aabbc with --pegs 5).
    #[arg(long, value_name = "CODE")]
    pub(crate) first: Option<String>,
}

/// The output formats of `stats`: `human` (the word every binary of the
/// workspace uses for text meant for people; `text`, the old name, is a
/// hidden alias so scripts keep working) or `json`.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub(crate) enum Format {
    #[value(alias = "text")]
    Human,
    Json,
}

/// The output formats of `tree`: `human` (indented; alias `text`), `json` or `dot`.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub(crate) enum TreeFormat {
    #[value(alias = "text")]
    Human,
    Json,
    Dot,
}

/// The player flags and the seed that apply to `command`: its own, else those given before
/// it; a flag given before a subcommand it does not apply to is an error.
pub(crate) fn merge(
    command: &Option<Command>,
    top: PlayerArgs,
    top_seed: Option<u64>,
) -> Result<(PlayerArgs, Option<u64>), String> {
    let (own, own_seed, name) = match command {
        None => (None, None, ""),
        Some(Command::Human(a)) => (Some(&a.player), Some((a.seed, &a.secret)), "human"),
        Some(Command::Both(a)) => (Some(&a.player), Some((a.seed, &a.secret)), "both"),
        Some(Command::Computer(p)) => (Some(p), None, "computer"),
        Some(Command::Stats { player, .. }) => (Some(player), None, "stats"),
        Some(Command::Tree { player, .. }) => (Some(player), None, "tree"),
        Some(Command::Score { .. }) => (None, None, "score"),
        Some(Command::CheckTree { .. }) => (None, None, "check-tree"),
    };
    let not_here = |flag: &str| format!("{flag} does not apply to `{name}`");
    let args = match own {
        Some(p) => PlayerArgs {
            strategy: p.strategy.or(top.strategy),
            max_guesses: p.max_guesses.or(top.max_guesses),
        },
        None if command.is_none() => top,
        None if top.strategy.is_some() => return Err(not_here("--strategy")),
        None if top.max_guesses.is_some() => return Err(not_here("--max-guesses")),
        None => top,
    };
    let seed = match own_seed {
        None if command.is_none() => top_seed,
        None if top_seed.is_some() => return Err(not_here("--seed")),
        None => None,
        Some((_, Some(_))) if top_seed.is_some() => {
            return Err(
                "the argument '--seed <N>' cannot be used with '--secret <CODE>'".to_string(),
            );
        }
        Some((own, _)) => own.or(top_seed),
    };
    Ok((args, seed))
}
