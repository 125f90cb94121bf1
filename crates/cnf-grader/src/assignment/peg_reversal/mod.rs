//! The Peg Reversal assignment (spec `peg-reversal.md` §5): a submission is
//! the student's one `.hs` file that defines `createBoard`, of any name; the
//! grader compiles it as the module `Student` with a driver per function
//! (`haskell/`), and a case is one call of one function (`NAME.call`, what a
//! correct driver prints in `NAME.expected`).
//!
//! Decisions:
//! - the submission is the file that defines `createBoard` at the top level,
//!   as Haskell's lexer sees it ([`haskell_text::source::tokens`]: a
//!   `createBoard` in a comment, a string or a `where` block does not
//!   count); when no file or several do, none is graded ([`choose`]);
//! - the file is compiled as `Student.hs`, its `module` header replaced by
//!   `module Student where` (an export list is dropped, so a helper the
//!   driver needs is never hidden) or given one when it has none (as a
//!   WinHugs file usually does): [`student_module`]. Pragmas and comments
//!   before the header stay first, so `LANGUAGE` pragmas still apply, and a
//!   `main` is kept (the module is not `Main`).

use haskell_text::source::{Kind, Token, tokens};

/// The four functions, part 1 first.
pub const FUNCTIONS: [&str; 4] = [
    "createBoard",
    "isValidMove",
    "isGoal",
    "showPossibleNextStates",
];

/// The module name the student's file is compiled under.
pub const STUDENT_MODULE: &str = "Student";

/// The file name the student's file is compiled under.
pub const STUDENT_FILE: &str = "Student.hs";

/// The name of the function every submission defines, by which its file is found.
pub const FINDER: &str = "createBoard";

/// The type declarations the assignment's description gives (spec §1):
/// every student writes them, so `similarity` takes them as base code.
pub const DESCRIPTION_TYPES: &str = "type Position = (Int,Int)
data Color = W | B
data Peg   = Peg Position Color
data Move  = M Position
type Board = [Peg]
data State = S Move Board
createBoard :: Position -> Board
isValidMove :: Move -> Board -> Bool
isGoal :: Board -> Bool
showPossibleNextStates :: Board -> [State]
";

/// The `module … where` header of a file's tokens: the index of `module`
/// and of its `where` (`None`: no header).
fn header(toks: &[Token<'_>]) -> Option<(usize, usize)> {
    let first = toks.first()?;
    if (first.kind, first.text) != (Kind::Keyword, "module") {
        return None;
    }
    let end = toks
        .iter()
        .position(|t| (t.kind, t.text) == (Kind::Keyword, "where"))?;
    Some((0, end))
}

/// Whether `source` defines `name` at the top level: a signature or an
/// equation that starts at the column of the module's declarations.
pub fn defines(source: &str, name: &str) -> bool {
    let toks = tokens(source);
    let start = header(&toks).map_or(0, |(_, end)| end + 1);
    let Some(first) = toks.get(start) else {
        return false;
    };
    // Explicit braces (`module M where {`): a declaration follows `{` or `;`
    // at depth one instead.
    if first.text == "{" && first.kind == Kind::Special {
        let mut depth = 0usize;
        let mut at_start = false;
        for t in &toks[start..] {
            match (t.kind, t.text) {
                (Kind::Special, "{") => {
                    depth += 1;
                    at_start = depth == 1;
                    continue;
                }
                (Kind::Special, "}") => depth = depth.saturating_sub(1),
                (Kind::Special, ";") if depth == 1 => {
                    at_start = true;
                    continue;
                }
                (Kind::Var, text) if at_start && !t.qualified && text == name => return true,
                _ => {}
            }
            at_start = false;
        }
        return false;
    }
    let column = first.column;
    toks[start..]
        .iter()
        .any(|t| t.column == column && t.kind == Kind::Var && !t.qualified && t.text == name)
}

/// `source` as the module `Student`: its header replaced by `module Student
/// where`, or that header put before its first declaration (after the
/// pragmas and comments that open the file) when it has none. A file that
/// is not UTF-8 is given the header first, unchanged otherwise (GHC then
/// says what is wrong with it).
pub fn student_module(source: &[u8]) -> Vec<u8> {
    let new_header = format!("module {STUDENT_MODULE} where");
    let Ok(text) = std::str::from_utf8(source) else {
        let mut out = format!("{new_header}\n").into_bytes();
        out.extend_from_slice(source);
        return out;
    };
    let toks = tokens(text);
    let (from, to, line_end) = match header(&toks) {
        Some((start, end)) => {
            let w = &toks[end];
            (toks[start].offset, w.offset + w.text.len(), "")
        }
        None => {
            let at = toks.first().map_or(text.len(), |t| t.offset);
            (at, at, "\n")
        }
    };
    let mut out = String::with_capacity(text.len() + new_header.len() + 1);
    out.push_str(&text[..from]);
    if from == text.len() && !text.is_empty() && !text.ends_with('\n') {
        out.push('\n');
    }
    out.push_str(&new_header);
    out.push_str(line_end);
    out.push_str(&text[to..]);
    out.into_bytes()
}

/// Which of a folder's `.hs` files (name, bytes) is the submission: the one
/// that defines `createBoard`, or every file that does (none, or several)
/// when that is not exactly one.
pub fn choose<'a>(files: &[(&'a str, &[u8])]) -> Result<&'a str, Vec<&'a str>> {
    let candidates: Vec<&str> = files
        .iter()
        .filter(|(_, bytes)| defines(&String::from_utf8_lossy(bytes), FINDER))
        .map(|(name, _)| *name)
        .collect();
    match candidates.as_slice() {
        [one] => Ok(one),
        _ => Err(candidates),
    }
}

/// The message of a driver's error line, `error "MESSAGE"` (the string
/// literal read back as Haskell reads it), or `None` for any other text.
pub fn error_message(line: &str) -> Option<String> {
    let literal = line.trim_end_matches(['\n', '\r']).strip_prefix("error ")?;
    let (rest, (message, _)) = haskell_text::string::string_literal(literal).ok()?;
    rest.is_empty().then_some(message)
}

/// How a student's error message differs from the assignment's: `a
/// "Program error: " prefix` (WinHugs's words copied into the message),
/// `white space`, `punctuation`, `letter case` or `other text`; `None` when
/// they are equal.
pub fn message_difference(expected: &str, actual: &str) -> Option<&'static str> {
    const WINHUGS: &str = "Program error: ";
    if expected == actual {
        return None;
    }
    if actual
        .strip_prefix(WINHUGS)
        .is_some_and(|rest| rest == expected)
    {
        return Some("a \"Program error: \" prefix");
    }
    let words = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    if words(expected) == words(actual) || expected.replace(' ', "") == actual.replace(' ', "") {
        return Some("white space");
    }
    let letters = |s: &str| {
        s.chars()
            .filter(|c| c.is_alphanumeric())
            .collect::<String>()
    };
    if letters(expected) == letters(actual) {
        return Some("punctuation");
    }
    if letters(expected).to_lowercase() == letters(actual).to_lowercase() {
        return Some("letter case");
    }
    if let Some(rest) = actual.strip_prefix(WINHUGS)
        && letters(rest) == letters(expected)
    {
        return Some("a \"Program error: \" prefix and punctuation");
    }
    Some("other text")
}

/// The file name of part `part`'s driver, e.g. `Driver_createBoard.hs`.
pub fn driver_file(part: u8) -> String {
    format!(
        "Driver_{}.hs",
        super::Assignment::PegReversal.function(part)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rewritten(source: &str) -> String {
        String::from_utf8(student_module(source.as_bytes())).unwrap()
    }

    #[test]
    fn error_messages_and_how_they_differ() {
        let msg = "The position is not valid.";
        assert_eq!(
            error_message("error \"The position is not valid.\"\n").as_deref(),
            Some(msg)
        );
        assert_eq!(error_message("error \"a\\\"b\""), Some("a\"b".to_owned()));
        assert_eq!(error_message("[Peg (0,0) W]\n"), None);
        assert_eq!(error_message("error \"open"), None);
        let differs = |actual| message_difference(msg, actual);
        assert_eq!(differs(msg), None);
        assert_eq!(
            differs("Program error: The position is not valid."),
            Some("a \"Program error: \" prefix")
        );
        assert_eq!(differs(" The position is not valid."), Some("white space"));
        assert_eq!(differs("The position  is not valid."), Some("white space"));
        assert_eq!(differs("The position is not valid"), Some("punctuation"));
        assert_eq!(differs("the position is not valid."), Some("letter case"));
        assert_eq!(
            differs("Program error: The position is not valid"),
            Some("a \"Program error: \" prefix and punctuation")
        );
        assert_eq!(differs("Invalid position!"), Some("other text"));
    }

    #[test]
    fn a_file_without_header_gets_one_before_its_first_declaration() {
        assert_eq!(
            rewritten("data Color = B | W\ncreateBoard p = []\n"),
            "module Student where\ndata Color = B | W\ncreateBoard p = []\n"
        );
        // Comments and pragmas first stay first.
        assert_eq!(
            rewritten("{-# LANGUAGE TupleSections #-}\n-- Peg Reversal\n\ncreateBoard = x\n"),
            "{-# LANGUAGE TupleSections #-}\n-- Peg Reversal\n\nmodule Student where\ncreateBoard = x\n"
        );
        assert_eq!(rewritten(""), "module Student where\n");
        assert_eq!(
            rewritten("-- nothing"),
            "-- nothing\nmodule Student where\n"
        );
    }

    #[test]
    fn a_header_is_replaced_and_its_export_list_dropped() {
        assert_eq!(
            rewritten("module Main where\nmain = print 1\n"),
            "module Student where\nmain = print 1\n"
        );
        assert_eq!(
            rewritten(
                "{-# LANGUAGE BangPatterns #-}\nmodule Peg\n  ( createBoard -- the board\n  , isGoal\n  ) where\n\nimport Data.List\nmain :: IO ()\nmain = pure ()\n"
            ),
            "{-# LANGUAGE BangPatterns #-}\nmodule Student where\n\nimport Data.List\nmain :: IO ()\nmain = pure ()\n"
        );
        // A `where` in a comment of the export list is no header's end.
        assert_eq!(
            rewritten("module A ({- where -} f) where f = 1"),
            "module Student where f = 1"
        );
    }

    #[test]
    fn the_file_that_defines_create_board_is_found_by_its_tokens() {
        assert!(defines("createBoard :: Position -> Board\n", FINDER));
        assert!(defines("module M where\n\ncreateBoard p = []\n", FINDER));
        assert!(defines(
            "module M (createBoard) where\n  import Data.List\n  createBoard p = []\n",
            FINDER
        ));
        assert!(defines(
            "module M where { x = 1; createBoard p = [] }",
            FINDER
        ));
        // Not a top-level definition: a comment, a string, a use, a where block.
        assert!(!defines("-- createBoard p = []\nmain = pure ()\n", FINDER));
        assert!(!defines("{- createBoard -}\ns = \"createBoard\"\n", FINDER));
        assert!(!defines("main = print (createBoard (0,0))\n", FINDER));
        assert!(!defines("f = g\n  where\n    createBoard = 1\n", FINDER));
        assert!(!defines(
            "module M (createBoard) where\nimport Peg\n",
            FINDER
        ));
        assert!(!defines("createBoardX = 1\n", FINDER));
        let files = [
            ("Peg Reversal Game.hs", b"createBoard p = []\n".as_slice()),
            ("Helpers.hs", b"module Helpers where\nhelp = 1\n".as_slice()),
        ];
        assert_eq!(choose(&files), Ok("Peg Reversal Game.hs"));
        let two = [files[0], ("copy.hs", b"createBoard = undefined".as_slice())];
        assert_eq!(choose(&two), Err(vec!["Peg Reversal Game.hs", "copy.hs"]));
        assert_eq!(choose(&files[1..]), Err(vec![]));
    }
}
