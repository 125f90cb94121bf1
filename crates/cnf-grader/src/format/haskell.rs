//! Haskell's lexical syntax as `read` accepts it and `show` writes it, from
//! the workspace's one implementation (`haskell-text`), shared with the Peg
//! reader.

pub use haskell_text::show_string;
pub(crate) use haskell_text::{describe_found, is_space, string_literal};
