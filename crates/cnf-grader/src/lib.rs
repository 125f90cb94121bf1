//! Reading, checking and grading the course's Connect Four game files.
//!
//! The `.cnf` format is one Haskell value, `([String], [Int])`, read as
//! Haskell's `read` reads it; a `.solution` file is what the course's
//! programs printed with `print`. This crate parses both with exact
//! `FILE:LINE:COLUMN` errors, runs the four functions of `connect-core` on
//! games, and grades fixture trees.
//!
//! Three layers, one folder each:
//! - [`mod@format`]: the text formats, `.cnf` and `.solution`, and playing a
//!   game file; no file system, no processes;
//! - [`harness`]: grading fixture trees: [`harness::discover`] finds
//!   fixtures, [`harness::grade`] runs every case (in-process or through
//!   `--exec`, in parallel) into [`harness::grade::CaseReport`]s in a stable
//!   order, and [`harness::report`] turns them into human text (plain or
//!   with colours, chosen by the caller), JSON or JUnit XML;
//! - [`submission`]: grading students' Haskell: GHC, the sandbox every
//!   program under test runs in, the cache and the gradebook.
//!
//! The key design decision of the grader is that the library returns data,
//! never prints; colour is decided at the edge, by the `cnf-grader` binary,
//! so tests compare plain text. Each module's docs list the decisions it
//! makes where the assignment is silent (what is an error and what a
//! failure, how points are shared, how a runaway program is stopped).
//!
//! ```
//! use cnf_grader::harness::diff::Style;
//! use cnf_grader::harness::grade::{GradeOptions, Totals, grade, select};
//! use cnf_grader::harness::report::{ReportOptions, human};
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let dir = tempfile::tempdir()?;
//! std::fs::write(dir.path().join("g.cnf"), "([\"----\",\"-12-\"],[1,4,2])")?;
//! std::fs::write(
//!     dir.path().join("g.onePlayerOneMove.solution"),
//!     "\"Result\"\n\"----\"\n\"112-\"\n\"\"\n",
//! )?;
//! let options = GradeOptions::default();
//! let fixtures = select(cnf_grader::harness::discover::discover(&[dir.path().into()])?, &options);
//! let cases = grade(&fixtures, &options, &|| {})?;
//! assert_eq!(Totals::of(&cases).summary(), "1 passed, 0 failed");
//! let text = human(&cases, ReportOptions { times: false, points: None, ..Default::default() }, Style::Plain);
//! assert!(text.starts_with("PASS "));
//! # Ok(())
//! # }
//! ```
#![deny(missing_docs)]

pub mod escape;
pub mod format;
pub mod harness;
pub mod similarity;
pub mod submission;

pub use format::haskell::show_string;
