//! Problems found in a text file, located by byte offset and shown as
//! `FILE:LINE:COLUMN: message` with the source line and a caret (the
//! workspace's one implementation, `haskell-text`, shared with the Peg
//! reader).

pub use haskell_text::diagnostic::{Diagnostic, Diagnostics, Rendered, line_column};
