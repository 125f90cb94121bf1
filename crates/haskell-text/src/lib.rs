//! Haskell's lexical rules as `read` accepts text and `show` writes it, and
//! located diagnostics for the readers built on them; and Haskell source
//! text as tokens ([`source`]), for tools that read programs.
//!
//! The `.cnf` reader of `cnf-grader` and the Peg reader of `peg-core` both
//! read values the way GHC's derived `Read` instances do. The key design
//! decision is that the rules they share live here once: what counts as
//! white space (exactly GHC's `Data.Char.isSpace`, not Rust's
//! `char::is_whitespace`), string literals with every escape, `show` of a
//! string, parentheses counted rather than recursed into, how the text found
//! at a failure is named, and how a byte offset becomes `FILE:LINE:COLUMN`
//! with the source line and a caret. Both readers therefore accept the same
//! white space and word their errors the same way.
//!
//! ```
//! use haskell_text::{Diagnostic, is_space, show_string, string_literal};
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! assert!(is_space('\u{3000}') && !is_space('\u{2028}'));
//! let (rest, (row, _escaped)) = string_literal(r#""\45\&1" ]"#).map_err(|e| e.to_string())?;
//! assert_eq!((row.as_str(), rest), ("-1", " ]"));
//! assert_eq!(show_string("é1"), r#""\233\&1""#);
//!
//! let source = "([\"-\"],\n [x])";
//! let problem = Diagnostic::new(10, "expected a move, found 'x'");
//! assert_eq!(problem.render("g.cnf", source).to_string(), "g.cnf:2:3: expected a move, found 'x'\n2 |  [x])\n  |   ^");
//! # Ok(())
//! # }
//! ```
//!
//! # Modules
//!
//! - [`lex`]: [`is_space`] (exactly GHC's `Data.Char.isSpace`: tab to
//!   carriage return and category Zs, so not U+0085, U+2028 or U+2029),
//!   `ws`, `token`, counted parentheses (`open_parens`, `close_parens`),
//!   `describe_found` (`end of input`, `end of line`, `'x'`, a word) and
//!   `SyntaxError`, the nom error (the furthest failure, expectations at
//!   one place merged, `expected …, found …`).
//! - [`string`]: [`string_literal`] (every escape and gap) and [`show_string`].
//! - [`diagnostic`]: [`Diagnostic`], [`Diagnostics`], [`line_column`]; the
//!   rendering as `FILE:LINE:COLUMN: message`, the source line and a caret.
//! - [`source`]: `tokens`, a lexer of Haskell programs (not values) for the
//!   similarity detector: nested `{- -}` comments and pragmas dropped, every
//!   token with its line and column, qualified names, literals by kind; it
//!   never fails on any bytes.
//!
//! # Checked against independent sources
//!
//! `tests/it/is_space_table.rs` compares [`is_space`] over every `char` with
//! the general categories of the `unicode-general-category` crate and with
//! GHC's own `isSpace`; `tests/it/strings.rs` compares [`show_string`] with
//! GHC's `show` and [`string_literal`] with GHC's `read`. Each reader's
//! `tests/it/read_against_ghc.rs` (in `cnf-grader` and `peg-core`) compares
//! it with GHC's `read` of its type.
//!
//! # Invariant
//!
//! White space, string literals, the naming of what was found and located
//! rendering are defined here only; the `.cnf`, `.solution` and Peg readers
//! never define their own, and none of them recurses on nesting.
#![deny(missing_docs)]

pub mod diagnostic;
pub mod lex;
pub mod source;
pub mod string;

pub use diagnostic::{Diagnostic, Diagnostics, Rendered, line_column, skip_bom};
pub use lex::{
    Res, SyntaxError, close_parens, describe_found, fail, fatal, is_ident_char, is_space,
    open_parens, to_failure, token, ws,
};
pub use string::{show_string, string_literal};
