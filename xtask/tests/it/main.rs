//! The integration tests of `xtask` and of the workspace as a whole, built
//! as one binary (one link, not one per file): a module per subject.
//! `cargo test -p xtask --test it MODULE::` runs one module.

mod bad_input;
mod cli;
mod gradescope_kit;
mod readme;
mod support;
