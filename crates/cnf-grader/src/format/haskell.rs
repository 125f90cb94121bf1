//! Haskell's lexical syntax as `read` accepts it and `show` writes it, from
//! the workspace's one implementation (`haskell-text`), shared with the Peg
//! reader.

pub use haskell_text::show_string;
pub(crate) use haskell_text::{
    Res, SyntaxError, close_parens, describe_found, fail, is_space, open_parens, string_literal,
    to_failure, token, ws,
};
