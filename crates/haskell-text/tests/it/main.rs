//! The integration tests of `haskell-text`, built as one binary (one link, not one
//! per file): a module per subject. `cargo test -p haskell-text --test it MODULE::`
//! runs one module.

mod is_space_table;
mod strings;
