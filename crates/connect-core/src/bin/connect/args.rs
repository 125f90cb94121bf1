//! The command line of `connect`: its subcommands and their flags.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};
use connect_core::computer::Level;
use frontend::ColorWhen;

/// Connect Four for 2 to 35 players: play in the terminal, solve positions exactly, pick perfect moves.
#[derive(Parser, Debug)]
#[command(name = "connect", version)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub(crate) command: Command,
}

#[derive(Subcommand, Debug)]
pub(crate) enum Command {
    /// Play in the terminal: type a column, or u (undo), h (hint), s FILE (save), q (quit).
    Play(PlayArgs),
    /// Print the exact score of each two-player position (one line of moves per line).
    ///
    /// A line is the columns played so far, as digits 1-9 from the left,
    /// first player first (e.g. 4453; an empty line is the empty board);
    /// anything after a space on the line (the score column of a benchmark
    /// set) is ignored. Each answer is
    /// `MOVES SCORE`, from the side to move: 0 a draw, 22 - k a win with
    /// the winner's k-th stone on 7x6 (in general S + 1 - k, S the stones
    /// the winner places on a full board), the negative a loss.
    Solve(SolveArgs),
    /// Print the column a perfect player plays in each position (`MOVES COLUMN`).
    ///
    /// Positions are read as by `solve`. With --players above 2 the moves
    /// rotate through every player and the column is the pick of a
    /// depth-limited paranoid search.
    Best(BestArgs),
    /// Write an opening book: every position of at most N stones, or with --play those a perfect player meets.
    ///
    /// Without --play, the positions of N stones are solved and every
    /// shallower one is scored from its children, so the empty board's
    /// score comes out without the empty board being searched; a line is
    /// `MOVES SCORE`. With --play, the book holds the positions of at most
    /// N stones that a perfect player meets, moving first or second,
    /// whatever its opponent plays, each with its score and the column it
    /// plays (`MOVES SCORE COLUMN`): far fewer positions for the same
    /// depth. Mirror images are one line. `solve`, `best` and `play` read
    /// either with --book. This takes long on 7x6 (a position of a few
    /// stones is as hard as a Begin-Hard one, and harder): progress goes to
    /// standard error, and with --play and --output each finished level is
    /// written at once.
    Book(BookArgs),
    /// Serve a page to play and analyse Connect Four in a browser, and its JSON API.
    ///
    /// Prints `serving on http://ADDRESS:PORT/` once it listens, then
    /// answers until stopped (Ctrl-C). The page and the API are described
    /// in the guide (docs/connect-four.md, "In the browser").
    Serve(ServeArgs),
}

#[derive(Args, Debug)]
pub(crate) struct ServeArgs {
    /// The port to listen on; 0 picks a free one (the address printed says which).
    #[arg(long, default_value_t = 8040, value_name = "N")]
    pub(crate) port: u16,
    /// The address to listen on: this machine only by default; another
    /// address (e.g. 0.0.0.0) lets other machines play.
    #[arg(long, default_value = "127.0.0.1", value_name = "ADDR")]
    pub(crate) address: std::net::IpAddr,
    /// The most one analysis or computer move may search before it is
    /// given up: 500ms, 2s, 1m, 1h, or 0 for no limit.
    #[arg(long, value_name = "DURATION", default_value = "60s", value_parser = parse_think)]
    pub(crate) think: std::time::Duration,
    #[command(flatten)]
    pub(crate) book: BookChoice,
}

/// Which opening book the solver answers from.
#[derive(Args, Debug)]
pub(crate) struct BookChoice {
    /// Answer the positions of this book (written by `connect book`) from it.
    #[arg(long, value_name = "FILE", conflicts_with = "no_book")]
    pub(crate) book: Option<PathBuf>,
    /// Search every position, even those of the built-in 7x6 book.
    #[arg(long)]
    pub(crate) no_book: bool,
    #[command(flatten)]
    pub(crate) search: SearchChoice,
}

/// The solver's table and threads.
#[derive(Args, Debug)]
pub(crate) struct SearchChoice {
    /// Threads searching together, sharing one table [default: the machine's cores].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub(crate) threads: Option<u16>,
    /// Memory of the transposition table, in MiB.
    #[arg(long, value_name = "MB", default_value_t = 64, value_parser = clap::value_parser!(u16).range(1..=16384))]
    pub(crate) table_mb: u16,
}

#[derive(Args, Debug)]
pub(crate) struct BookArgs {
    /// The deepest positions, in stones (1 on 7x6 is 4 positions to solve, 2 is 28).
    #[arg(long, value_name = "N")]
    pub(crate) depth: usize,
    /// Only the positions a perfect player meets, with the column it plays.
    #[arg(long)]
    pub(crate) play: bool,
    #[command(flatten)]
    pub(crate) board: Board,
    /// Write the book to FILE (whole or not at all) instead of standard output.
    #[arg(long, short, value_name = "FILE")]
    pub(crate) output: Option<PathBuf>,
    /// The book the search answers from: --book FILE, or --no-book; by
    /// default none, and with --play on 7x6 the built-in scores of the
    /// positions of at most one stone.
    #[command(flatten)]
    pub(crate) book: BookChoice,
}

#[derive(Args, Debug)]
pub(crate) struct Board {
    /// Columns of the board.
    #[arg(long, default_value_t = 7, value_name = "W")]
    pub(crate) width: usize,
    /// Rows of the board.
    #[arg(long, default_value_t = 6, value_name = "H")]
    pub(crate) height: usize,
}

#[derive(Args, Debug)]
pub(crate) struct SolveArgs {
    /// The positions, one per line (standard input when not given).
    pub(crate) file: Option<PathBuf>,
    #[command(flatten)]
    pub(crate) board: Board,
    /// Print the score of every column instead (`-` for a full column).
    #[arg(long, short)]
    pub(crate) analyze: bool,
    /// Only win (1), draw (0) or loss (-1): faster.
    #[arg(long, short)]
    pub(crate) weak: bool,
    #[command(flatten)]
    pub(crate) book: BookChoice,
}

#[derive(Args, Debug)]
pub(crate) struct BestArgs {
    /// The positions, one per line (standard input when not given).
    pub(crate) file: Option<PathBuf>,
    #[command(flatten)]
    pub(crate) board: Board,
    /// Players taking turns (2-35).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u8).range(2..=35))]
    pub(crate) players: u8,
    #[command(flatten)]
    pub(crate) book: BookChoice,
}

#[derive(Args, Debug)]
pub(crate) struct PlayArgs {
    /// A .cnf game to go on with: its rows and its moves so far.
    pub(crate) file: Option<PathBuf>,
    /// Rows of a new board (1-99).
    #[arg(long, default_value_t = 6, value_name = "R", conflicts_with = "file")]
    pub(crate) rows: usize,
    /// Columns of a new board (1-99).
    #[arg(long, default_value_t = 7, value_name = "C", conflicts_with = "file")]
    pub(crate) cols: usize,
    /// Players taking turns, 2-35 (tokens 1-9, then a-z); from a .cnf, at
    /// least its highest token, which is the default.
    #[arg(long, value_parser = clap::value_parser!(u8).range(2..=35))]
    pub(crate) players: Option<u8>,
    /// Players the computer plays, e.g. 2 or 2,3.
    #[arg(long, value_delimiter = ',', value_parser = clap::value_parser!(u8).range(1..=35))]
    pub(crate) computer: Vec<u8>,
    /// How well the computer plays.
    #[arg(long, value_enum, default_value_t = Level::Perfect)]
    pub(crate) level: Level,
    /// Seed for the computer's random choices, for a repeatable game.
    #[arg(long)]
    pub(crate) seed: Option<u64>,
    /// The most the computer's look-ahead thinks per move: 500ms, 2s, 1m, 1h, or 0 for no limit
    /// [default: 2s on boards over 100 cells, else none].
    ///
    /// The look-ahead deepens one move at a time and plays the deepest
    /// depth it finished in time (one move deep always finishes). The exact
    /// solver of two-player games on small boards is not limited.
    #[arg(long, value_name = "DURATION", value_parser = parse_think)]
    pub(crate) think: Option<std::time::Duration>,
    /// When to draw the board in colour (auto: on a terminal, unless NO_COLOR is set).
    #[arg(long, value_enum, default_value = "auto", value_name = "WHEN")]
    pub(crate) color: ColorWhen,
    #[command(flatten)]
    pub(crate) book: BookChoice,
}

/// A `--think` value: a whole number followed by `ms`, `s`, `m` or `h`,
/// or `0` (no limit, [`std::time::Duration::ZERO`]).
fn parse_think(text: &str) -> Result<std::time::Duration, String> {
    use std::time::Duration;
    let bad = || {
        format!(
            "\"{text}\" is not a time: write a whole number with ms, s, m or h \
             (500ms, 2s, 1m, 1h), or 0 for no limit"
        )
    };
    let text = text.trim();
    if text == "0" {
        return Ok(Duration::ZERO);
    }
    let digits = text.find(|c: char| !c.is_ascii_digit()).ok_or_else(bad)?;
    let n: u64 = text[..digits].parse().map_err(|_| bad())?;
    let unit = match &text[digits..] {
        "ms" => 1,
        "s" => 1_000,
        "m" => 60_000,
        "h" => 3_600_000,
        _ => return Err(bad()),
    };
    n.checked_mul(unit)
        .map(Duration::from_millis)
        .ok_or_else(bad)
}

#[cfg(test)]
mod tests {
    use super::parse_think;
    use std::time::Duration;

    #[test]
    fn think_takes_each_form_and_names_them_when_refused() {
        assert_eq!(parse_think("500ms"), Ok(Duration::from_millis(500)));
        assert_eq!(parse_think("2s"), Ok(Duration::from_secs(2)));
        assert_eq!(parse_think("1m"), Ok(Duration::from_secs(60)));
        assert_eq!(parse_think("1h"), Ok(Duration::from_secs(3600)));
        assert_eq!(parse_think("0"), Ok(Duration::ZERO));
        assert_eq!(parse_think("0s"), Ok(Duration::ZERO));
        for bad in [
            "",
            "2",
            "s",
            "2 s",
            "-1s",
            "1.5s",
            "2x",
            "99999999999999999999h",
        ] {
            let e = parse_think(bad).unwrap_err();
            assert!(e.contains("500ms, 2s, 1m, 1h"), "{bad}: {e}");
        }
    }
}
