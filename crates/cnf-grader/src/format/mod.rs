//! The text formats: a `.cnf` game file read as Haskell's `read` reads it,
//! a `.solution` result as `print` writes it, their located diagnostics,
//! and playing one part on a game file. No processes; the only file access
//! is reading the one game file a part is asked to play.

pub mod cnf;
pub mod diagnostic;
pub(crate) mod haskell;
pub mod play;
pub mod solution;
pub mod units;
