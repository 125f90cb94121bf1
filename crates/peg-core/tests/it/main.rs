//! The integration tests of `peg-core`, built as one binary (one link, not one
//! per file): a module per subject. `cargo test -p peg-core --test it MODULE::`
//! runs one module.

mod board_count;
#[cfg(feature = "cli")]
mod case_files;
#[cfg(feature = "cli")]
mod cli;
mod full_board_census;
mod game_and_count;
#[cfg(feature = "cli")]
mod hostile_input;
mod properties;
mod read_against_ghc;
mod read_syntax;
mod spec_examples;
