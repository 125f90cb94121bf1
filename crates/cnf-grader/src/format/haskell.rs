//! Haskell's lexical syntax as `read` accepts it and `show` writes it: white
//! space, string literals with every escape, and the parser plumbing shared
//! by the `.cnf` and `.solution` parsers.

use nom::bytes::complete::take_while;
use nom::error::{ErrorKind, ParseError};
use nom::{IResult, Parser};

use crate::format::diagnostic::describe_found;

/// Parser input: the unread rest of the source.
pub(crate) type In<'a> = &'a str;

/// A parse failure: where, and what was expected there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct PErr<'a> {
    /// The rest of the input at the failure.
    pub(crate) at: In<'a>,
    /// What was wrong.
    pub(crate) what: What,
}

/// What a parse failure reports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum What {
    /// `expected X, found <the character at the failure>`.
    Expected(&'static str),
    /// A complete message.
    Message(String),
}

impl<'a> PErr<'a> {
    pub(crate) fn expected(at: In<'a>, what: &'static str) -> Self {
        PErr {
            at,
            what: What::Expected(what),
        }
    }

    pub(crate) fn message(at: In<'a>, message: String) -> Self {
        PErr {
            at,
            what: What::Message(message),
        }
    }

    /// The message for a person: `expected X, found Y` or the full message.
    pub(crate) fn text(&self) -> String {
        match &self.what {
            What::Expected(x) => format!("expected {x}, found {}", describe_found(self.at)),
            What::Message(m) => m.clone(),
        }
    }
}

impl<'a> ParseError<In<'a>> for PErr<'a> {
    fn from_error_kind(input: In<'a>, _kind: ErrorKind) -> Self {
        PErr::expected(input, "valid syntax")
    }

    fn append(_input: In<'a>, _kind: ErrorKind, other: Self) -> Self {
        other
    }

    /// Of two alternatives that failed, the one that got further explains more.
    fn or(self, other: Self) -> Self {
        if other.at.len() < self.at.len() {
            other
        } else {
            self
        }
    }
}

/// Result of a parser over [`In`].
pub(crate) type Res<'a, T> = IResult<In<'a>, T, PErr<'a>>;

/// A recoverable failure at `at`.
pub(crate) fn fail<'a, T>(at: In<'a>, what: &'static str) -> Res<'a, T> {
    Err(nom::Err::Error(PErr::expected(at, what)))
}

/// An unrecoverable failure at `at` (the input committed to a rule).
pub(crate) fn fatal<'a, T>(at: In<'a>, what: &'static str) -> Res<'a, T> {
    Err(nom::Err::Failure(PErr::expected(at, what)))
}

/// Haskell's `isSpace`: the characters `read` skips between tokens.
pub(crate) fn is_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\r' | '\x0b' | '\x0c' | '\u{a0}')
        || (c > '\u{ff}' && c.is_whitespace())
}

/// `ws := isSpace*`
pub(crate) fn ws(i: In<'_>) -> Res<'_, ()> {
    take_while(is_space).map(|_| ()).parse(i)
}

/// A single expected character, then white space.
pub(crate) fn token<'a>(c: char, what: &'static str) -> impl Fn(In<'a>) -> Res<'a, ()> {
    move |i: In<'a>| match i.strip_prefix(c) {
        Some(rest) => ws(rest),
        None => fail(i, what),
    }
}

/// `( ws` repeated: how many opening parentheses come next.
pub(crate) fn open_parens(mut i: In<'_>) -> Res<'_, usize> {
    let mut n = 0;
    while let Some(rest) = i.strip_prefix('(') {
        n += 1;
        (i, ()) = ws(rest)?;
    }
    Ok((i, n))
}

/// Exactly `n` closing parentheses, each followed by white space.
pub(crate) fn close_parens(mut i: In<'_>, n: usize) -> Res<'_, ()> {
    for _ in 0..n {
        (i, ()) = token(')', "')'")(i).map_err(to_failure)?;
    }
    Ok((i, ()))
}

/// Turns a recoverable error into an unrecoverable one.
pub(crate) fn to_failure(e: nom::Err<PErr<'_>>) -> nom::Err<PErr<'_>> {
    match e {
        nom::Err::Error(e) => nom::Err::Failure(e),
        other => other,
    }
}

/// `string := '"' (char | escape | gap)* '"'` — a Haskell string literal,
/// unescaped. Returns the value and whether it used any escape.
pub(crate) fn string_literal(i: In<'_>) -> Res<'_, (String, bool)> {
    let Some(mut rest) = i.strip_prefix('"') else {
        return fail(i, "a string");
    };
    let mut out = String::new();
    let mut escaped = false;
    loop {
        // Copy a run of plain characters at once.
        let plain = rest.find(['"', '\\']).unwrap_or(rest.len());
        out.push_str(&rest[..plain]);
        rest = &rest[plain..];
        match rest.chars().next() {
            None => {
                return fatal(rest, "'\"' to close the string");
            }
            Some('"') => return Ok((&rest[1..], (out, escaped))),
            Some(_) => {
                escaped = true;
                let (r, c) = escape(rest)?;
                if let Some(c) = c {
                    out.push(c);
                }
                rest = r;
            }
        }
    }
}

/// ASCII control-character names accepted after `\`, longest first where
/// one is a prefix of another (`SOH` before `SO`).
const ASCII_NAMES: [(&str, u8); 34] = [
    ("NUL", 0),
    ("SOH", 1),
    ("STX", 2),
    ("ETX", 3),
    ("EOT", 4),
    ("ENQ", 5),
    ("ACK", 6),
    ("BEL", 7),
    ("BS", 8),
    ("HT", 9),
    ("LF", 10),
    ("VT", 11),
    ("FF", 12),
    ("CR", 13),
    ("SO", 14),
    ("SI", 15),
    ("DLE", 16),
    ("DC1", 17),
    ("DC2", 18),
    ("DC3", 19),
    ("DC4", 20),
    ("NAK", 21),
    ("SYN", 22),
    ("ETB", 23),
    ("CAN", 24),
    ("EM", 25),
    ("SUB", 26),
    ("ESC", 27),
    ("FS", 28),
    ("GS", 29),
    ("RS", 30),
    ("US", 31),
    ("SP", 32),
    ("DEL", 127),
];

/// One escape starting at `\`: a character, or nothing for `\&` and gaps.
fn escape(i: In<'_>) -> Res<'_, Option<char>> {
    let after = &i[1..];
    let mut chars = after.chars();
    let Some(c) = chars.next() else {
        return fatal(after, "an escape after '\\'");
    };
    let simple = match c {
        'a' => Some('\x07'),
        'b' => Some('\x08'),
        'f' => Some('\x0c'),
        'n' => Some('\n'),
        'r' => Some('\r'),
        't' => Some('\t'),
        'v' => Some('\x0b'),
        '\\' => Some('\\'),
        '"' => Some('"'),
        '\'' => Some('\''),
        _ => None,
    };
    if let Some(s) = simple {
        return Ok((chars.as_str(), Some(s)));
    }
    match c {
        '&' => Ok((chars.as_str(), None)),
        '^' => match chars.next() {
            Some(k @ '@'..='_') => Ok((chars.as_str(), Some(char::from(k as u8 - b'@')))),
            _ => fatal(&after[1..], "a control character '@'..'_' after '\\^'"),
        },
        '0'..='9' => numeric_escape(after, 10, after),
        'x' => numeric_escape(&after[1..], 16, after),
        'o' => numeric_escape(&after[1..], 8, after),
        c if is_space(c) => {
            // A string gap: `\`, white space, `\`.
            let (r, ()) = ws(after)?;
            match r.strip_prefix('\\') {
                Some(r) => Ok((r, None)),
                None => fatal(r, "'\\' to close the string gap"),
            }
        }
        _ => {
            let mut best = None;
            for (name, code) in ASCII_NAMES {
                if after.starts_with(name)
                    && best.is_none_or(|(n, _): (&str, u8)| name.len() > n.len())
                {
                    best = Some((name, code));
                }
            }
            match best {
                Some((name, code)) => Ok((&after[name.len()..], Some(char::from(code)))),
                None => fatal(
                    after,
                    "an escape such as \\n, \\t, \\\\, \\\", \\65 or \\x41",
                ),
            }
        }
    }
}

/// Digits of a numeric escape in `radix`; the value must be a Unicode scalar.
fn numeric_escape<'a>(digits: In<'a>, radix: u32, start: In<'a>) -> Res<'a, Option<char>> {
    let len = digits
        .find(|c: char| !c.is_digit(radix))
        .unwrap_or(digits.len());
    if len == 0 {
        return fatal(digits, "digits of a numeric escape");
    }
    let value = u32::from_str_radix(&digits[..len], radix)
        .ok()
        .and_then(char::from_u32);
    match value {
        Some(c) => Ok((&digits[len..], Some(c))),
        None => Err(nom::Err::Failure(PErr::message(
            start,
            format!(
                "the escape \\{} is not a character; the largest is \\1114111 (\\x10FFFF)",
                &start[..start.len() - digits.len() + len]
            ),
        ))),
    }
}

/// A string written as Haskell's `show` writes it, quotes included.
pub fn show_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    let mut prev_numeric = false;
    let mut prev_so = false;
    for c in s.chars() {
        // `show` writes `\&` after a numeric escape followed by a digit, and
        // after `\SO` followed by `H`, so the text reads back the same.
        if (prev_numeric && c.is_ascii_digit()) || (prev_so && c == 'H') {
            out.push_str("\\&");
        }
        prev_numeric = false;
        prev_so = false;
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            '\x07' => out.push_str("\\a"),
            '\x08' => out.push_str("\\b"),
            '\x0c' => out.push_str("\\f"),
            '\x0b' => out.push_str("\\v"),
            '\x7f' => out.push_str("\\DEL"),
            c if (c as u32) < 0x20 => {
                let name = ASCII_NAMES
                    .iter()
                    .find(|(_, code)| u32::from(*code) == c as u32)
                    .map(|(n, _)| *n)
                    .unwrap_or("NUL");
                out.push('\\');
                out.push_str(name);
                prev_so = name == "SO";
            }
            c if (c as u32) >= 0x80 => {
                out.push_str(&format!("\\{}", c as u32));
                prev_numeric = true;
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lit(s: &str) -> String {
        let (rest, (v, _)) = string_literal(s).unwrap();
        assert_eq!(rest, "");
        v
    }

    #[test]
    fn string_escapes_as_read_accepts_them() {
        assert_eq!(lit(r#""--12""#), "--12");
        assert_eq!(lit(r#""a\"b\\c""#), "a\"b\\c");
        assert_eq!(lit(r#""\n\t\r\a\b\f\v\'""#), "\n\t\r\x07\x08\x0c\x0b'");
        assert_eq!(lit(r#""\65\x42\o103""#), "ABC");
        assert_eq!(lit(r#""\45\&1""#), "-1");
        assert_eq!(lit(r#""\SOH\SO\DEL\NUL""#), "\x01\x0e\x7f\0");
        assert_eq!(lit(r#""\^A\^@""#), "\x01\0");
        assert_eq!(lit("\"ab\\  \n  \\cd\""), "abcd");
        assert_eq!(lit(r#""""#), "");
    }

    #[test]
    fn bad_strings_are_failures_with_a_position() {
        for (src, at) in [
            (r#""abc"#, 4),
            (r#""a\qb""#, 3),
            (r#""\1114112""#, 2),
            (r#""\x""#, 3),
            (r#""\^a""#, 3),
        ] {
            match string_literal(src) {
                Err(nom::Err::Failure(e)) => {
                    assert_eq!(src.len() - e.at.len(), at, "{src}: {}", e.text());
                }
                other => panic!("{src}: {other:?}"),
            }
        }
    }

    #[test]
    fn show_string_matches_haskell() {
        assert_eq!(show_string("--12"), r#""--12""#);
        assert_eq!(show_string("a\"b\\"), r#""a\"b\\""#);
        assert_eq!(show_string("\n\x01"), r#""\n\SOH""#);
        assert_eq!(show_string("é1"), r#""\233\&1""#);
        assert_eq!(show_string("é"), r#""\233""#);
        assert_eq!(show_string("\x0eH"), r#""\SO\&H""#);
        for s in ["", "x\u{10ffff}9\0\x7f\x1f", "\x0eH"] {
            assert_eq!(lit(&show_string(s)), s);
        }
    }

    #[test]
    fn parens_are_counted_without_recursion() {
        let deep = format!("{}5{}", "(".repeat(100_000), ")".repeat(100_000));
        let (rest, n) = open_parens(&deep).unwrap();
        assert_eq!(n, 100_000);
        let (rest, ()) = close_parens(&rest[1..], n).unwrap();
        assert_eq!(rest, "");
    }
}
