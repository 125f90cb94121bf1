//! Haskell string literals as `read` accepts them (every escape, string
//! gaps) and as `show` writes them.

use crate::lex::{Res, SyntaxError, fail, fatal, is_space, ws};

/// `string := '"' (char | escape | gap)* '"'` — a Haskell string literal,
/// unescaped. Returns the value and whether it used any escape.
pub fn string_literal(i: &str) -> Res<'_, (String, bool)> {
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
fn escape(i: &str) -> Res<'_, Option<char>> {
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
        'x' | 'X' => numeric_escape(&after[1..], 16, after),
        'o' | 'O' => numeric_escape(&after[1..], 8, after),
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
fn numeric_escape<'a>(digits: &'a str, radix: u32, start: &'a str) -> Res<'a, Option<char>> {
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
        None => Err(nom::Err::Failure(SyntaxError::message(
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
        // GHC's `read` also takes the base letters in capitals.
        assert_eq!(lit(r#""\X41\O102""#), "AB");
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
}
