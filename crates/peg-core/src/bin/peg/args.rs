//! The command line of `peg`: its subcommands and their flags.

use std::path::PathBuf;

use clap::{Parser, Subcommand};
use frontend::ColorWhen;
use peg_core::{Position, all_positions, parse_position_arg};

/// Peg Reversal: turn every peg of the `+` board white, one black neighbour of a white peg at a time.
#[derive(Parser, Debug)]
#[command(name = "peg", version)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub(crate) command: Command,
}

#[derive(Subcommand, Debug)]
pub(crate) enum Command {
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
    /// Play in the terminal: type a position per turn, or hint, undo, moves, count, quit.
    Play {
        /// The starting white peg (random if not given).
        #[arg(long, allow_hyphen_values = true, value_parser = hole_arg)]
        start: Option<Position>,
        /// Seed for the random start, for a repeatable game (not with --start,
        /// which leaves nothing to chance).
        #[arg(long, conflicts_with = "start")]
        seed: Option<u64>,
        /// When to draw the board in colour (auto: on a terminal, unless NO_COLOR is set).
        #[arg(long, value_enum, default_value = "auto", value_name = "WHEN")]
        color: ColorWhen,
    },
    /// Print one winning game (32 moves), one `M (x,y)` per line.
    Solve {
        /// The starting white peg.
        #[arg(long, allow_hyphen_values = true, value_parser = hole_arg, default_value = "0,0")]
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
        #[arg(long, allow_hyphen_values = true, value_parser = hole_arg, conflicts_with_all = ["all", "board"])]
        start: Option<Position>,
        /// Print a table: each class of start holes under the board's 8
        /// symmetries, with its holes, its count, the orbits stored and the time.
        #[arg(long, conflicts_with = "board")]
        all: bool,
        /// The board to finish, as Haskell text, instead of reading stdin; any
        /// board that reads, white pegs in one group or several.
        #[arg(long, value_name = "TEXT")]
        board: Option<String>,
        /// Also print the work done on stderr: the orbits (of sets of white pegs)
        /// stored, the method and its symmetries, the largest layer, the time.
        #[arg(long)]
        verbose: bool,
        /// How to walk the sets of white pegs: grouped (one set per orbit under all
        /// 8 symmetries, parts in parallel; the default), orbits (one hash map per
        /// layer, symmetries fixing the start), parts (no symmetry, parts in
        /// parallel). Only grouped counts a board.
        #[arg(long, value_enum, default_value_t = MethodArg::Auto)]
        method: MethodArg,
    },
    /// Write a grading case: DIR/NAME.call (the call) and DIR/NAME.expected
    /// (what a correct program's driver prints for it); or, with --check,
    /// derive every DIR/*.expected again and list those that differ.
    ///
    /// The call is written as at the interpreter's prompt, e.g.
    /// 'isValidMove (M (1,0)) [Peg (0,0) W,Peg (1,0) B]' or 'createBoard (-2,2)'.
    #[command(override_usage = "peg case DIR NAME CALL\n       peg case DIR --check")]
    Case {
        /// The folder of cases (created if missing when a case is written).
        dir: PathBuf,
        /// The case's name: letters, digits, '-', '_' and '.', not starting with '.' or '-'.
        #[arg(required_unless_present = "check")]
        name: Option<String>,
        /// The call, e.g. 'isGoal [Peg (0,0) W]'.
        #[arg(required_unless_present = "check")]
        call: Option<String>,
        /// Derive every DIR/NAME.expected again from DIR/NAME.call; list those that differ (exit 1).
        #[arg(long, conflicts_with_all = ["name", "call"])]
        check: bool,
    },
}

/// The counting method as a command-line value.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub(crate) enum MethodArg {
    Auto,
    Grouped,
    Orbits,
    Parts,
}

pub(crate) fn position_arg(text: &str) -> Result<Position, String> {
    parse_position_arg(text).map_err(|e| e.to_string())
}

/// A start hole: a position that is a hole of the `+` board (an off-board
/// start is bad input, exit 2, like one that does not read).
pub(crate) fn hole_arg(text: &str) -> Result<Position, String> {
    let pos = position_arg(text)?;
    if all_positions().contains(&pos) {
        Ok(pos)
    } else {
        Err(format!(
            "{pos} is not a hole of the + board (a hole has |x| <= 1 and |y| <= 3, or |x| <= 3 and |y| <= 1)"
        ))
    }
}
