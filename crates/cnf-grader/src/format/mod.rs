//! The text formats: a `.cnf` game file read as Haskell's `read` reads it,
//! a `.solution` result as `print` writes it, their located diagnostics,
//! and playing one part on a game's text. Pure: no file system, no processes.

pub mod cnf;
pub mod diagnostic;
pub(crate) mod haskell;
pub mod play;
pub mod solution;
