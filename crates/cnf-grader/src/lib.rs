//! Reading, checking and grading the course's Connect Four game files.
//!
//! The `.cnf` format is one Haskell value, `([String], [Int])`, read as
//! Haskell's `read` reads it; a `.solution` file is what the course's
//! programs printed with `print`. This crate parses both with exact
//! `FILE:LINE:COLUMN` errors, runs the four functions of `connect-core` on
//! games, and grades fixture trees.
//!
//! The key design decision of the grader is that the library returns data,
//! never prints: [`discover`] finds fixtures, [`grade`] runs every case
//! (in-process or through `--exec`, in parallel) into [`grade::CaseReport`]s in a
//! stable order, and [`report`] turns them into human text (plain or with
//! colours, chosen by the caller), JSON or JUnit XML. Colour is decided at
//! the edge, by the `cnf-grader` binary, so tests compare plain text.
//! Each module's docs list the decisions it makes where the assignment is
//! silent (what is an error and what a failure, how points are shared, how
//! a runaway program is stopped). [`submission`] grades a student's
//! Haskell files: it compiles each part with GHC ([`ghc`]) in a temporary
//! folder and grades it through the same `--exec` path; [`gradebook`] turns
//! a class into one row per student.
//!
//! ```
//! use cnf_grader::diff::Style;
//! use cnf_grader::grade::{GradeOptions, Totals, grade, select};
//! use cnf_grader::report::{ReportOptions, human};
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let dir = tempfile::tempdir()?;
//! std::fs::write(dir.path().join("g.cnf"), "([\"----\",\"-12-\"],[1,4,2])")?;
//! std::fs::write(
//!     dir.path().join("g.onePlayerOneMove.solution"),
//!     "\"Result\"\n\"----\"\n\"112-\"\n\"\"\n",
//! )?;
//! let options = GradeOptions::default();
//! let fixtures = select(cnf_grader::discover::discover(&[dir.path().into()])?, &options);
//! let cases = grade(&fixtures, &options, &|| {})?;
//! assert_eq!(Totals::of(&cases).summary(), "1 passed, 0 failed");
//! let text = human(&cases, ReportOptions { times: false, points: None, warning: None }, Style::Plain);
//! assert!(text.starts_with("PASS "));
//! # Ok(())
//! # }
//! ```
#![deny(missing_docs)]

pub mod bless;
pub mod cache;
pub mod cnf;
pub mod diagnostic;
pub mod diff;
pub mod discover;
pub mod exec;
pub mod generator;
pub mod ghc;
pub mod grade;
pub mod gradebook;
mod haskell;
pub mod play;
pub mod points;
pub mod report;
pub mod sandbox;
pub mod solution;
pub mod submission;
pub mod units;

pub use haskell::show_string;
