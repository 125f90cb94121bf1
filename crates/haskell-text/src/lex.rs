//! Tokens between values: white space as GHC's `isSpace`, single-character
//! tokens, counted parentheses, and the parse error every reader reports.

use std::fmt;

use nom::bytes::complete::take_while;
use nom::error::{ErrorKind, ParseError};
use nom::{IResult, Parser};

/// Haskell's `Data.Char.isSpace`: the characters `read` skips between tokens.
///
/// GHC's definition: tab, line feed, vertical tab, form feed, carriage
/// return, and every character of Unicode category Zs (space separator).
/// Unlike Rust's `char::is_whitespace`, U+0085 (next line), U+2028 (line
/// separator) and U+2029 (paragraph separator) are not space.
#[inline]
pub fn is_space(c: char) -> bool {
    matches!(
        c,
        '\t'..='\r'
            | ' '
            | '\u{a0}'
            | '\u{1680}'
            | '\u{2000}'..='\u{200a}'
            | '\u{202f}'
            | '\u{205f}'
            | '\u{3000}'
    )
}

/// Whether `c` continues a Haskell identifier (`isAlphaNum`, `_` or `'`).
#[inline]
pub fn is_ident_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '\''
}

/// A parse failure: where, what was expected there, or a complete message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyntaxError<'a> {
    /// The rest of the input at the failure.
    pub at: &'a str,
    /// What would have been valid there (`')'`, `a move`, …), in order.
    pub expected: Vec<&'static str>,
    /// A complete message that replaces `expected …, found …`.
    pub message: Option<String>,
}

impl<'a> SyntaxError<'a> {
    /// `expected WHAT, found …` at `at`.
    pub fn expected(at: &'a str, what: &'static str) -> Self {
        SyntaxError {
            at,
            expected: vec![what],
            message: None,
        }
    }

    /// The complete `message` at `at`.
    pub fn message(at: &'a str, message: String) -> Self {
        SyntaxError {
            at,
            expected: Vec::new(),
            message: Some(message),
        }
    }

    /// What was expected, as a phrase: `A`, `A or B`, `A, B or C`.
    pub fn expected_text(&self) -> String {
        match self.expected.as_slice() {
            [] => "a value".to_owned(),
            [one] => (*one).to_owned(),
            [init @ .., last] => format!("{} or {last}", init.join(", ")),
        }
    }

    /// Of two alternatives that failed, the one that got further explains
    /// more; at the same place, what either expected is merged.
    pub fn merge(self, other: Self) -> Self {
        match self.at.len().cmp(&other.at.len()) {
            std::cmp::Ordering::Less => self,
            std::cmp::Ordering::Greater => other,
            std::cmp::Ordering::Equal => {
                if self.message.is_some() {
                    return self;
                }
                if other.message.is_some() {
                    return other;
                }
                let mut merged = self;
                for e in other.expected {
                    if !merged.expected.contains(&e) {
                        merged.expected.push(e);
                    }
                }
                merged
            }
        }
    }

    /// The message for a person: `expected X, found Y`, or the full message.
    pub fn text(&self) -> String {
        match &self.message {
            Some(m) => m.clone(),
            None => format!(
                "expected {}, found {}",
                self.expected_text(),
                describe_found(self.at)
            ),
        }
    }
}

impl fmt::Display for SyntaxError<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text())
    }
}

impl std::error::Error for SyntaxError<'_> {}

impl<'a> ParseError<&'a str> for SyntaxError<'a> {
    fn from_error_kind(input: &'a str, _kind: ErrorKind) -> Self {
        SyntaxError {
            at: input,
            expected: Vec::new(),
            message: None,
        }
    }

    fn append(_input: &'a str, _kind: ErrorKind, other: Self) -> Self {
        other
    }

    fn or(self, other: Self) -> Self {
        self.merge(other)
    }
}

/// Result of a parser over the rest of a source text.
pub type Res<'a, T> = IResult<&'a str, T, SyntaxError<'a>>;

/// A recoverable failure at `at`: `expected WHAT`.
pub fn fail<'a, T>(at: &'a str, what: &'static str) -> Res<'a, T> {
    Err(nom::Err::Error(SyntaxError::expected(at, what)))
}

/// An unrecoverable failure at `at` (the input committed to a rule).
pub fn fatal<'a, T>(at: &'a str, what: &'static str) -> Res<'a, T> {
    Err(nom::Err::Failure(SyntaxError::expected(at, what)))
}

/// Turns a recoverable error into an unrecoverable one.
#[inline]
pub fn to_failure(e: nom::Err<SyntaxError<'_>>) -> nom::Err<SyntaxError<'_>> {
    match e {
        nom::Err::Error(e) => nom::Err::Failure(e),
        other => other,
    }
}

/// `ws := isSpace*`
#[inline]
pub fn ws(i: &str) -> Res<'_, ()> {
    take_while(is_space).map(|_| ()).parse(i)
}

/// The character `c`, then white space; else `expected WHAT`.
#[inline]
pub fn token<'a>(c: char, what: &'static str) -> impl Fn(&'a str) -> Res<'a, ()> {
    move |i: &'a str| {
        // Compared as a char, not with `strip_prefix`: `c` is not known
        // where this is compiled, and a byte comparison of unknown length
        // becomes a call to `memcmp` for every token.
        let mut chars = i.chars();
        if chars.next() == Some(c) {
            ws(chars.as_str())
        } else {
            fail(i, what)
        }
    }
}

/// `( ws` repeated: how many opening parentheses come next.
///
/// Parentheses are counted, never recursed into, so any depth is safe.
#[inline]
pub fn open_parens(mut i: &str) -> Res<'_, usize> {
    let mut n = 0;
    while let Some(rest) = i.strip_prefix('(') {
        n += 1;
        (i, ()) = ws(rest)?;
    }
    Ok((i, n))
}

/// Exactly `n` closing parentheses, each followed by white space; a missing
/// one is unrecoverable.
#[inline]
pub fn close_parens(mut i: &str, n: usize) -> Res<'_, ()> {
    for _ in 0..n {
        (i, ()) = token(')', "')'")(i).map_err(to_failure)?;
    }
    Ok((i, ()))
}

/// Longest word shown when a message names the word found.
const WORD: usize = 20;

/// How the text found where something else was expected is named in a
/// message: `end of input`, `end of line`, a word or a character in quotes,
/// or an invisible character escaped (`'\t'`, `'\u{2028}'`).
pub fn describe_found(rest: &str) -> String {
    match rest.chars().next() {
        None => "end of input".to_owned(),
        Some('\n' | '\r') => "end of line".to_owned(),
        Some(c) if c.is_whitespace() || c.is_control() => format!("{c:?}"),
        Some(c) if is_ident_char(c) => {
            let word: String = rest
                .chars()
                .take_while(|&c| is_ident_char(c))
                .take(WORD)
                .collect();
            format!("'{word}'")
        }
        Some(c) => format!("'{c}'"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spaces_named_by_ghc() {
        for c in [
            '\t', '\n', '\x0b', '\x0c', '\r', ' ', '\u{a0}', '\u{1680}', '\u{2000}', '\u{200a}',
            '\u{202f}', '\u{205f}', '\u{3000}',
        ] {
            assert!(is_space(c), "{c:?}");
        }
        for c in [
            '\x08', '\x0e', '\u{85}', '\u{180e}', '\u{200b}', '\u{2028}', '\u{2029}', '\u{feff}',
            'a',
        ] {
            assert!(!is_space(c), "{c:?}");
        }
    }

    #[test]
    fn found_text_is_named() {
        assert_eq!(describe_found(""), "end of input");
        assert_eq!(describe_found("\r\n"), "end of line");
        assert_eq!(describe_found("\t1"), "'\\t'");
        assert_eq!(describe_found("\u{2028}"), "'\\u{2028}'");
        assert_eq!(describe_found("White]"), "'White'");
        assert_eq!(describe_found("\"x"), "'\"'");
        assert_eq!(
            describe_found(&"x".repeat(50)),
            format!("'{}'", "x".repeat(20))
        );
    }

    #[test]
    fn alternatives_merge_at_one_place() {
        let src = "X]";
        let e = SyntaxError::expected(src, "'W'").merge(SyntaxError::expected(src, "'B'"));
        let e = e.merge(SyntaxError::expected(src, "'('"));
        assert_eq!(e.text(), "expected 'W', 'B' or '(', found 'X'");
        let further = SyntaxError::expected(&src[1..], "','");
        assert_eq!(
            SyntaxError::expected(src, "'W'").merge(further.clone()),
            further
        );
    }

    #[test]
    fn parens_are_counted_without_recursion() {
        let deep = format!("{}5{}", "(".repeat(100_000), ")".repeat(100_000));
        let (rest, n) = open_parens(&deep).unwrap();
        assert_eq!(n, 100_000);
        let (rest, ()) = close_parens(&rest[1..], n).unwrap();
        assert_eq!(rest, "");
        match close_parens("( )", 1) {
            Err(nom::Err::Failure(e)) => assert_eq!(e.text(), "expected ')', found '('"),
            other => panic!("{other:?}"),
        }
    }
}
