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
