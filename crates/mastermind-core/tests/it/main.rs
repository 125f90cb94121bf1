//! The integration tests of `mastermind-core`, built as one binary (one link, not one
//! per file): a module per subject. `cargo test -p mastermind-core --test it MODULE::`
//! runs one module.

#[cfg(feature = "cli")]
mod cli;
#[cfg(feature = "cli")]
mod hostile_input;
#[cfg(feature = "cli")]
mod optimal;
mod properties;
mod stats;
