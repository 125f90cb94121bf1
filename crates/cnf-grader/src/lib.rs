//! Reading, checking and grading the course's Connect Four game files.
//!
//! The `.cnf` format is one Haskell value, `([String], [Int])`, read as
//! Haskell's `read` reads it; a `.solution` file is what the course's
//! programs printed with `print`. This crate parses both with exact
//! `FILE:LINE:COLUMN` errors, runs the four functions of `connect-core` on
//! games, and grades fixture trees.
#![deny(missing_docs)]

pub mod cnf;
pub mod diagnostic;
mod haskell;
pub mod play;
pub mod solution;

pub use haskell::show_string;
