//! The integration tests of `connect-core`, built as one binary (one link, not one
//! per file): a module per subject. `cargo test -p connect-core --test it MODULE::`
//! runs one module.

mod benchmark_sets;
#[cfg(feature = "cli")]
mod cli;
mod opening_book;
mod other_sizes;
mod perfect_player;
mod properties;
#[cfg(feature = "cli")]
mod serve;
mod small_boards;
mod solver_board_agree;
mod stopping;
#[cfg(feature = "cli")]
mod web;
