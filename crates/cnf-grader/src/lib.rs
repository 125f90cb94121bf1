//! Reading, checking and grading the course's Connect Four game files.
//!
//! The `.cnf` format is one Haskell value, `([String], [Int])`, read as
//! Haskell's `read` reads it; a `.solution` file is what the course's
//! programs printed with `print`. This crate parses both with exact
//! `FILE:LINE:COLUMN` errors, runs the four functions of `connect-core` on
//! games, and grades fixture trees.
//!
//! Five folders, each importing only those below it:
//! - [`mod@format`]: the text formats, `.cnf` and `.solution`, playing a
//!   game file, durations and sizes; no file system, no processes;
//! - [`model`]: the result data every layer shares: a case
//!   ([`model::case::CaseReport`]), a submission, a class, their
//!   provenance (serde, so JSON reports and `merge` read and write it);
//! - [`grade`]: running cases: [`grade::discover`] finds fixtures,
//!   [`grade::run`] runs every case (in-process or through `--exec`, in
//!   parallel) into `CaseReport`s in a stable order;
//! - [`submission`]: grading students' Haskell: reading their files, GHC,
//!   the sandbox every program under test runs in, the cache and the class;
//! - [`report`]: every renderer, the model in and text out: human (plain or
//!   with colours, chosen by the caller), JSON, JUnit, Gradescope, HTML and
//!   the gradebook; [`write`] writes fixtures (`bless`, `gen`).
//!
//! The key design decision of the grader is that the library returns data,
//! never prints; colour is decided at the edge, by the `cnf-grader` binary,
//! so tests compare plain text. Each module's docs list the decisions it
//! makes where the assignment is silent (what is an error and what a
//! failure, how points are shared, how a runaway program is stopped).
//!
//! ```
//! use cnf_grader::grade::run::{GradeOptions, grade, select};
//! use cnf_grader::model::case::Totals;
//! use cnf_grader::report::human::human;
//! use cnf_grader::report::{ReportOptions, Style};
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let dir = tempfile::tempdir()?;
//! std::fs::write(dir.path().join("g.cnf"), "([\"----\",\"-12-\"],[1,4,2])")?;
//! std::fs::write(
//!     dir.path().join("g.onePlayerOneMove.solution"),
//!     "\"Result\"\n\"----\"\n\"112-\"\n\"\"\n",
//! )?;
//! let options = GradeOptions::default();
//! let fixtures = select(cnf_grader::grade::discover::discover(&[dir.path().into()])?, &options);
//! let cases = grade(&fixtures, &options, &|_| {})?;
//! assert_eq!(Totals::of(&cases).summary(), "1 passed, 0 failed");
//! let text = human(&cases, ReportOptions { times: false, points: None, ..Default::default() }, Style::Plain);
//! assert!(text.starts_with("PASS "));
//! # Ok(())
//! # }
//! ```
#![deny(missing_docs)]

pub mod escape;
pub mod format;
pub mod grade;
pub mod model;
pub mod output;
pub mod report;
pub mod sandbox;
pub mod similarity;
pub mod submission;
pub mod write;

pub use format::haskell::show_string;
