//! The integration tests of `cnf-grader`, built as one binary (one link, not one
//! per file): a module per subject. `cargo test -p cnf-grader --test it MODULE::`
//! runs one module.

#[cfg(feature = "cli")]
mod counts_agree;
#[cfg(feature = "cli")]
mod exec_programs;
#[cfg(feature = "cli")]
mod fixture_spellings;
#[cfg(feature = "cli")]
mod grade_integrity;
#[cfg(feature = "cli")]
mod grade_reports;
#[cfg(feature = "cli")]
mod grade_subcommands;
#[cfg(feature = "cli")]
mod grader_faults;
#[cfg(feature = "cli")]
mod gradescope_kit;
#[cfg(feature = "cli")]
mod hostile_bless;
#[cfg(feature = "cli")]
mod hostile_data;
#[cfg(feature = "cli")]
mod hostile_limits;
mod hostile_output_cap;
#[cfg(feature = "cli")]
mod hostile_submissions;
#[cfg(feature = "cli")]
mod html_report;
#[cfg(feature = "cli")]
mod parts;
#[cfg(feature = "cli")]
mod peg_class;
mod peg_reference;
#[cfg(feature = "cli")]
mod point_table;
mod read_against_ghc;
mod roundtrip;
#[cfg(feature = "cli")]
mod shard_merge;
#[cfg(feature = "cli")]
mod similarity;
#[cfg(feature = "cli")]
mod submission_cli;
