//! Running cases: finding fixtures, choosing which cases run, running each
//! function in-process or through `--exec`, and comparing what came out.
//! Grading produces [`crate::model`] values and never formats text.

pub mod discover;
pub mod exec;
pub mod peg;
pub mod run;
