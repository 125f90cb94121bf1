//! The rules of the course's Connect Four variant: boards, drops, four in a
//! row, and the assignment's four functions.
//!
//! The key design decision is that a move costs the same on any board: a
//! [`Board`] remembers, per column, where the next piece will land, and a
//! function scans the board for a four only once, at the start; after that it
//! looks only at the four lines through the piece just placed. A million moves
//! on a 1000 × 1000 board cost no more per move than on a 6 × 7 one.
//!
//! This crate does no I/O: [`cnf`] reads and writes the `.cnf` text (the
//! grader and the `connect` game share it), [`solve`] is the exact
//! two-player solver, [`computer`] the game and the computer player; the
//! binaries read and write files.
//!
//! ```
//! use connect_core::{Board, Function};
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let board = Board::from_rows(["----", "-12-"])?;
//! let after = Function::ManyPlayersOneMove.apply(&board, &[1, 4, 2], None)?;
//! let rows: Vec<String> = after.row_strings().collect();
//! assert_eq!(rows, ["----", "1122"]);
//! # Ok(())
//! # }
//! ```
//!
//! Decisions where the assignment is silent (see the project's spec page):
//! players `10`–`35` are written `a`–`z`; every move is checked against the
//! board's width before any move is played, even moves a function would not
//! reach; a board that already has a four is returned unchanged by parts 2–4.
//!
//! # Modules
//!
//! - `board.rs`: [`Player`] (1–35, written `1`–`9`, `a`–`z`), [`Cell`] and
//!   [`Board`], a validated grid with a landing row per column, so a drop
//!   is O(1); [`Board::drop_piece`], [`Board::has_four`] (a full scan) and
//!   [`Board::has_four_through`] (the four lines through one cell).
//! - `game.rs`: [`Function`] (the four parts, their names and numbers),
//!   [`one_player_one_move`] … [`many_players_many_moves`],
//!   [`number_of_players`], [`check_move`], [`GameError`].
//! - [`cnf`]: the `.cnf` text, read and written (`cnf_grader::format::cnf`
//!   re-exports it).
//! - [`solve`]: the exact two-player solver: `position.rs` ([`solve::Size`],
//!   `width · (height + 1) ≤ 128`; [`solve::Position`], from moves in
//!   Pons's digit notation or from a [`Board`], and back), `bits.rs` (the
//!   integer a bitboard is held in), `search.rs` (the search), `book.rs`
//!   (the opening book the solver computes itself; `books/7x6.txt` is
//!   built in) and `mod.rs` ([`solve::Solver`], [`solve::Solver::share`]
//!   for searches side by side over one table, the score convention and
//!   [`solve::score_words`]).
//! - [`computer`]: the game of 2–35 players and the computer player.
//! - `src/bin/connect/` (feature `cli`): the `connect` binary: `args.rs`
//!   its flags; `main.rs` `solve` and `best` (one position per line, a bad
//!   line reported on standard error with its line and move index and exit
//!   2 at the end) and the `--book FILE` / `--no-book` choice every
//!   subcommand shares; `book.rs` `connect book` (progress on standard
//!   error, the file written whole through a temporary file and a rename);
//!   `play.rs` the terminal game; `serve/` `connect serve`, the page in
//!   the browser and its JSON API.
//!
//! # Invariants
//!
//! - The library does no I/O: the `.cnf` functions take and return text,
//!   the solver and the game take values; only the binary reads or writes
//!   files and terminals.
//! - Every [`Board`] is valid (at least one row, rows of one width of at
//!   least one, cells `-` or a player): its only constructors check this.
//! - There is one copy of the rules: the game plays through
//!   [`Board::drop_piece`] and [`Board::has_four_through`]; the solver's
//!   bitboard is an independent encoding of them for speed, and
//!   `tests/it/solver_board_agree.rs` plays random games on every size
//!   through both and compares cells, full columns and fours.
//! - Solver scores are checked against published figures
//!   (`tests/it/benchmark_sets.rs`, Pons's sets in `tests/data/`) and a
//!   brute force written in the test (`tests/it/small_boards.rs`), never
//!   against the solver's own output.
#![deny(missing_docs)]

mod board;
pub mod cnf;
pub mod computer;
mod game;
pub mod solve;

pub use board::{Board, BoardError, Cell, Drop, Player};
pub use game::{
    Function, GameError, UnknownFunction, check_move, check_moves, many_players_many_moves,
    many_players_one_move, number_of_players, one_player_many_moves, one_player_one_move,
};
