//! Reading, checking and grading the course's Connect Four game files, and
//! grading students' projects of an assignment (Connect Four, Peg Reversal).
//!
//! The `.cnf` format is one Haskell value, `([String], [Int])`, read as
//! Haskell's `read` reads it; a `.solution` file is what the course's
//! programs printed with `print`. This crate parses both with exact
//! `FILE:LINE:COLUMN` errors, runs the four functions of `connect-core` on
//! games, and grades fixture trees.
//!
//! # Folders
//!
//! Each folder imports only those listed after it; the `cnf-grader`
//! binary's own `cli/` (flags, one file per subcommand, standard output,
//! colour, progress) uses them all.
//! - [`similarity`]: copying across a class (normalise, fingerprint, score);
//!   it reads the class through [`submission::source`] and never compiles
//!   or runs anything;
//! - [`submission`]: grading students' Haskell: [`submission::source`] (the
//!   only code that reads a student's folder, a class listing or the
//!   roster), a private build folder, GHC in the sandbox, the cache, the
//!   class with its saved results and roster, the run's temporary folder;
//!   it never renders a report;
//! - [`mod@write`]: writing fixtures (`bless`, `gen`) and `write_atomically`;
//! - [`grade`]: running cases: [`grade::discover`] finds fixtures (and is
//!   the only reader of fixture files), [`grade::run`] selects the cases
//!   (`--part`, `--filter`) and runs each (in-process or through `--exec`,
//!   on a local rayon pool) into `CaseReport`s in discovery order,
//!   [`grade::exec`] runs one program with a time limit and an output cap;
//!   it never formats a report (though a case's `reason` is still a
//!   sentence written here);
//! - [`report`]: every renderer, the model in and text out: human (plain or
//!   with colours, chosen by the caller), JSON (and `read_json`, its
//!   inverse), JUnit, Gradescope, HTML, the gradebook and similarity; it
//!   never runs anything and reads no file;
//! - [`model`]: the result data every layer shares: a case
//!   ([`model::case::CaseReport`]), a submission, a class, similarity
//!   results, provenance, shards and their merge (serde, so JSON reports
//!   and `merge` read and write it); it never runs anything, reads a file
//!   or renders a report;
//! - [`mod@format`]: the text formats, `.cnf` and `.solution`, playing a
//!   game text, durations and sizes; it runs no process and reads no file
//!   (the binaries read game files through `frontend::input`);
//! - [`assignment`]: what differs between the assignments graded (their
//!   parts' names, point tables, default fixtures, how a Peg Reversal
//!   submission's file is found and made the module `Student`); it imports
//!   nothing of the crate but [`escape`], so the model and every report can
//!   read it;
//! - [`escape`] (how outside text is shown), [`output`] (output paths
//!   checked before any work) and [`mod@sandbox`] (the grader's face of the
//!   `sandbox` crate) import nothing of this crate.
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
//!
//! # How a case flows
//!
//! 1. `cli/grade.rs` reads the flags and calls [`grade::discover::discover`],
//!    which finds `fixtures/g.cnf` and its `g.onePlayerOneMove.solution`
//!    and names the fixture `g.cnf` below its base.
//! 2. [`grade::run::select`] keeps the cases `--part` and `--filter` ask
//!    for; [`grade::discover::fixtures_digest`] hashes them for the
//!    [`model::provenance::Provenance`].
//! 3. [`grade::run::grade`] reads and parses the `.cnf` once, runs the
//!    function in-process or through [`grade::exec`] (for a submission, in
//!    the sandbox), compares with [`model::compare::Compare`] and, on a
//!    difference, records a [`model::diff::Diff`]: the result is a
//!    [`model::case::CaseReport`].
//! 4. For a submission, [`submission::grade_submission`] puts each part's
//!    compilation first (`PartBuild::as_case`) and scores with
//!    [`model::points`]; a class wraps each student's in a
//!    [`model::class::StudentResult`].
//! 5. `cli/` hands the model and `--format` to [`report::run`] (a run),
//!    [`report::submission()`] (a submission) or [`report::class`] (a class's
//!    gradebook), which pick the renderer; `cli/submission.rs` still picks
//!    the CSV layout and each student's own page itself.
//!
//! # Assignments
//!
//! An assignment lives in [`assignment`]: its variant of
//! [`assignment::Assignment`] (names, point table, default fixtures, the
//! `--assignment` value) and its folder (`assignment/connect_four.rs`,
//! `assignment/peg_reversal/`, the latter with its Haskell drivers). Its
//! cases are found by `grade/` ([`grade::discover`] for Connect Four's
//! `.cnf`, [`grade::peg`] for Peg Reversal's `.call`), gathered in a
//! [`grade::peg::Suite`]; its submissions are prepared, built and run in
//! `submission/` (`prepare.rs` and `run.rs` for Connect Four,
//! `submission/peg.rs` for Peg Reversal), through the same compilation
//! (`submission/build.rs`), sandbox, cache, `--resume`, shards and
//! reports. A third assignment needs: its variant (and its arms in
//! `Assignment`'s methods), its folder under `assignment/`, its cases'
//! reader and `Suite` variant in `grade/`, and its `prepare` and `run`
//! arms in `submission/` (`prepare_student`, `grade_many_indexed`); the
//! model, the reports and the command line follow from the variant.
//!
//! # Adding things
//!
//! - A report format: `report/NEW.rs` and `report/mod.rs` (its `mod` line,
//!   the [`report::Format`] variant, which is also the `--format` value,
//!   and its arm in [`report::run`] and [`report::submission()`]).
//! - A comparison mode: `model/compare.rs` and the `--compare` help in
//!   `cli/args.rs`.
//! - A sandbox limit: `Limits` in the `sandbox` crate (see its docs) and
//!   its flag in `cli/args.rs`.
//!
//! # Invariants
//!
//! - Grading produces the model and nothing else does: no module of
//!   [`grade`], [`submission`], [`model`] or [`similarity`] imports
//!   [`report`]. A class's saved results, a shard's JSON and `merge` carry
//!   the model, never rendered text, and `merge` renders through the same
//!   functions as an unsharded run (`write_run` in `cli/grade.rs`,
//!   `write_class` in `cli/submission.rs`), so a merged or resumed run's
//!   report is a fresh run's apart from durations and the date.
//! - Every report of a run records its [`model::provenance::Provenance`];
//!   the fixture hash covers the whole selection before `--shard`, so the
//!   shards of one run record the same one.
//! - Report order is the sorted discovery order ([`grade::discover::Fixture`]'s
//!   name), whatever `--jobs` is or which case finishes first.
//! - A broken fixture is an `ERROR` and a wrong program a `FAIL`; neither
//!   stops the run, and the last line of the human report is the totals
//!   line. Every report of a submission counts its tests alike, from the
//!   `Totals` of `SubmissionReport::all_cases` (the compilations, then the
//!   cases); no renderer counts its own way (`tests/it/counts_agree.rs`).
//! - A hidden case (its fixture under a folder named `hidden`) never shows
//!   its input, expected output or diff in a report a student sees (the
//!   students' human report, Gradescope, HTML).
//! - One student's broken submission lowers only that student's row; it
//!   never stops the class or touches another student's build.
//! - An HTML page holds no script and no external resource (its
//!   `Content-Security-Policy` is `default-src 'none'`), and every text in
//!   it is escaped.
#![deny(missing_docs)]

pub mod assignment;
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
