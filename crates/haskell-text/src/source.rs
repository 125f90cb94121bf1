//! Haskell source text as tokens, for tools that read a program rather than
//! a value (the grader's similarity detector).
//!
//! The lexer follows the Haskell 2010 report's lexical syntax, with its
//! decisions where the input is not a valid program: it never fails and
//! never panics, whatever the bytes (an unclosed comment runs to the end,
//! an unclosed string to the end of its line, a character no token starts
//! with becomes one [`Kind::Other`] token). Comments (`--` to the end of the
//! line, `{- -}` nested to any depth) and pragmas (`{-# … #-}`) are dropped;
//! white space is dropped too, but every token keeps its line and column,
//! so a layout-sensitive reader can still find where a declaration starts.
//! Columns count characters from 1, a tab moving to the next multiple of 8
//! plus 1, as the report's layout rule says.
//!
//! ```
//! use haskell_text::source::{Kind, tokens};
//!
//! let toks = tokens("f {- a {- nested -} comment -} xs = Data.List.sort xs -- done\n");
//! let words: Vec<&str> = toks.iter().map(|t| t.text).collect();
//! assert_eq!(words, ["f", "xs", "=", "Data.List.sort", "xs"]);
//! assert_eq!((toks[3].kind, toks[3].name(), toks[3].qualified), (Kind::Var, "sort", true));
//! assert_eq!((toks[4].line, toks[4].column), (1, 52));
//! ```

use crate::lex::is_space;
use crate::string::string_literal;

/// What a token is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    /// A variable name: `xs`, `foldr'`, `_unused`, `Data.List.sort`.
    Var,
    /// A constructor, type or module name: `Just`, `Int`, `Data.List`.
    Con,
    /// An operator: `++`, `<$>`, `Data.Map.!`.
    VarSym,
    /// A constructor operator (starts with `:`): `:|`.
    ConSym,
    /// A reserved word: `case`, `where`, `_`, ….
    Keyword,
    /// A reserved operator: `=`, `->`, `<-`, `::`, `|`, `\`, `@`, `~`, `=>`, `..`, `:`.
    ReservedOp,
    /// One of `( ) , ; [ ] ` { }`.
    Special,
    /// An integer literal: `42`, `0x2A`, `1_000`.
    Integer,
    /// A floating-point literal: `1.5`, `2e-3`.
    Float,
    /// A character literal: `'a'`, `'\n'`.
    Char,
    /// A string literal: `"Result"`.
    String,
    /// A character no token starts with (kept so nothing is silently lost).
    Other,
}

/// One token of a Haskell source text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Token<'a> {
    /// What it is.
    pub kind: Kind,
    /// Its text, as written (a qualified name with its qualifier).
    pub text: &'a str,
    /// Whether a name or operator is qualified (`Data.List.sort`).
    pub qualified: bool,
    /// Its line, from 1.
    pub line: u32,
    /// Its column, from 1 (tabs to the next multiple of 8, plus 1).
    pub column: u32,
    /// Its byte offset in the source.
    pub offset: usize,
}

impl<'a> Token<'a> {
    /// The name without its qualifier: `sort` for `Data.List.sort`.
    pub fn name(&self) -> &'a str {
        let mut rest = self.text;
        if !self.qualified {
            return rest;
        }
        loop {
            let n = span(rest, is_name_char);
            let module = rest.starts_with(char::is_uppercase);
            if n > 0 && module && rest[n..].starts_with('.') && rest.len() > n + 1 {
                rest = &rest[n + 1..];
            } else {
                return rest;
            }
        }
    }
}

/// The reserved words.
const KEYWORDS: [&str; 23] = [
    "_", "case", "class", "data", "default", "deriving", "do", "else", "foreign", "if", "import",
    "in", "infix", "infixl", "infixr", "instance", "let", "module", "newtype", "of", "then",
    "type", "where",
];

/// The reserved operators.
const RESERVED_OPS: [&str; 11] = ["..", ":", "::", "=", "\\", "|", "<-", "->", "@", "~", "=>"];

/// Whether `c` is one of Haskell's special characters.
fn is_special(c: char) -> bool {
    matches!(c, '(' | ')' | ',' | ';' | '[' | ']' | '`' | '{' | '}')
}

/// Whether `c` can be part of an operator.
fn is_symbol(c: char) -> bool {
    if c.is_ascii() {
        matches!(
            c,
            '!' | '#'
                | '$'
                | '%'
                | '&'
                | '*'
                | '+'
                | '.'
                | '/'
                | '<'
                | '='
                | '>'
                | '?'
                | '@'
                | '\\'
                | '^'
                | '|'
                | '-'
                | '~'
                | ':'
        )
    } else {
        !(c.is_alphanumeric()
            || c.is_whitespace()
            || c.is_control()
            || is_space(c)
            || is_special(c)
            || c == '"'
            || c == '\'')
    }
}

/// Whether `c` continues a name.
fn is_name_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '\''
}

/// Whether `c` starts a variable name.
fn starts_var(c: char) -> bool {
    c == '_' || c.is_lowercase() || (c.is_alphabetic() && !c.is_uppercase())
}

/// The length in bytes of the longest prefix of `s` whose characters satisfy `f`.
fn span(s: &str, f: impl Fn(char) -> bool) -> usize {
    s.find(|c: char| !f(c)).unwrap_or(s.len())
}

/// The Haskell tokens of `source`, comments and white space left out; see
/// the module's documentation.
pub fn tokens(source: &str) -> Vec<Token<'_>> {
    let mut out = Vec::new();
    let mut at = 0;
    let mut position = Position::default();
    while at < source.len() {
        let rest = &source[at..];
        let Some(c) = rest.chars().next() else { break };
        // White space.
        if is_space(c) || c.is_whitespace() {
            at += c.len_utf8();
            continue;
        }
        // A line comment: two or more dashes not followed by a symbol.
        if rest.starts_with("--") {
            let dashes = span(rest, |c| c == '-');
            if !rest[dashes..].chars().next().is_some_and(is_symbol) {
                at += rest.find('\n').unwrap_or(rest.len());
                continue;
            }
        }
        // A block comment or a pragma, nested.
        if rest.starts_with("{-") {
            at += block_comment(rest);
            continue;
        }
        let (kind, len, qualified) = token_at(rest, c);
        let (line, column) = position.advance_to(source, at);
        out.push(Token {
            kind,
            text: &rest[..len],
            qualified,
            line,
            column,
            offset: at,
        });
        at += len;
    }
    out
}

/// Where the lexer is: a line and column, kept as it moves forward.
#[derive(Default)]
struct Position {
    offset: usize,
    line: u32,
    column: u32,
}

impl Position {
    /// Moves to the byte offset `to` of `source` (never backwards) and says
    /// its line and column.
    fn advance_to(&mut self, source: &str, to: usize) -> (u32, u32) {
        if self.line == 0 {
            (self.line, self.column) = (1, 1);
        }
        for c in source[self.offset..to].chars() {
            match c {
                '\n' => (self.line, self.column) = (self.line.saturating_add(1), 1),
                '\t' => self.column = ((self.column - 1) / 8 + 1) * 8 + 1,
                _ => self.column = self.column.saturating_add(1),
            }
        }
        self.offset = to;
        (self.line, self.column)
    }
}

/// The length of the nested block comment at the start of `s` (to the end
/// of `s` when it is not closed).
fn block_comment(s: &str) -> usize {
    let bytes = s.as_bytes();
    let mut depth = 0usize;
    let mut i = 0;
    while i + 1 < bytes.len() {
        match (bytes[i], bytes[i + 1]) {
            (b'{', b'-') => {
                depth += 1;
                i += 2;
            }
            (b'-', b'}') => {
                depth -= 1;
                i += 2;
                if depth == 0 {
                    return i;
                }
            }
            _ => i += 1,
        }
    }
    s.len()
}

/// The kind, length and qualification of the token starting `rest` with `c`.
fn token_at(rest: &str, c: char) -> (Kind, usize, bool) {
    if is_special(c) {
        return (Kind::Special, 1, false);
    }
    if c == '"' {
        return match string_literal(rest) {
            Ok((after, _)) => (Kind::String, rest.len() - after.len(), false),
            // Unclosed: to the end of the line.
            Err(_) => (
                Kind::String,
                rest.find('\n').unwrap_or(rest.len()).max(1),
                false,
            ),
        };
    }
    if c == '\'' {
        return match char_literal(rest) {
            Some(len) => (Kind::Char, len, false),
            None => (Kind::Other, 1, false),
        };
    }
    if c.is_ascii_digit() {
        return number(rest);
    }
    if c.is_uppercase() {
        return qualified_name(rest);
    }
    if starts_var(c) {
        let len = span(rest, is_name_char);
        let kind = if KEYWORDS.contains(&&rest[..len]) {
            Kind::Keyword
        } else {
            Kind::Var
        };
        return (kind, len, false);
    }
    if is_symbol(c) {
        let len = span(rest, is_symbol);
        let text = &rest[..len];
        let kind = if RESERVED_OPS.contains(&text) {
            Kind::ReservedOp
        } else if text.starts_with(':') {
            Kind::ConSym
        } else {
            Kind::VarSym
        };
        return (kind, len, false);
    }
    (Kind::Other, c.len_utf8(), false)
}

/// A constructor name, or a qualified name: `M.N.x`, `M.Con`, `M.+`.
fn qualified_name(rest: &str) -> (Kind, usize, bool) {
    let mut len = span(rest, is_name_char);
    let mut qualified = false;
    loop {
        let after = &rest[len..];
        let Some(next) = after.strip_prefix('.') else {
            return (Kind::Con, len, qualified);
        };
        match next.chars().next() {
            Some(c) if c.is_uppercase() => {
                len += 1 + span(next, is_name_char);
                qualified = true;
            }
            Some(c) if starts_var(c) => {
                let name = span(next, is_name_char);
                if KEYWORDS.contains(&&next[..name]) {
                    return (Kind::Con, len, qualified);
                }
                return (Kind::Var, len + 1 + name, true);
            }
            // `M.+` is a qualified operator, but `[A ..]` and `[A..B]` are
            // ranges far more often in course work: only a symbol other
            // than a dot makes a qualified operator.
            Some(c) if is_symbol(c) && c != '.' => {
                let sym = span(next, is_symbol);
                let kind = if next.starts_with(':') {
                    Kind::ConSym
                } else {
                    Kind::VarSym
                };
                return (kind, len + 1 + sym, true);
            }
            _ => return (Kind::Con, len, qualified),
        }
    }
}

/// An integer or floating-point literal at the start of `rest`.
fn number(rest: &str) -> (Kind, usize, bool) {
    let bytes = rest.as_bytes();
    if bytes.len() > 2 && bytes[0] == b'0' {
        let digits: Option<fn(char) -> bool> = match bytes[1] {
            b'x' | b'X' => Some(|c: char| c.is_ascii_hexdigit() || c == '_'),
            b'o' | b'O' => Some(|c: char| matches!(c, '0'..='7' | '_')),
            b'b' | b'B' => Some(|c: char| matches!(c, '0' | '1' | '_')),
            _ => None,
        };
        if let Some(digit) = digits {
            let n = span(&rest[2..], digit);
            if n > 0 {
                return (Kind::Integer, 2 + n, false);
            }
        }
    }
    let decimal = |c: char| c.is_ascii_digit() || c == '_';
    let mut len = span(rest, decimal);
    let mut kind = Kind::Integer;
    // A fraction needs a digit after the dot (`1..5` is a range).
    if let Some(after) = rest[len..].strip_prefix('.')
        && after.starts_with(|c: char| c.is_ascii_digit())
    {
        len += 1 + span(after, decimal);
        kind = Kind::Float;
    }
    // An exponent: e, an optional sign, digits.
    let after = &rest[len..];
    if let Some(e) = after.strip_prefix(['e', 'E']) {
        let signed = e.strip_prefix(['+', '-']).unwrap_or(e);
        let n = span(signed, |c| c.is_ascii_digit());
        if n > 0 {
            len += 1 + (e.len() - signed.len()) + n;
            kind = Kind::Float;
        }
    }
    (kind, len, false)
}

/// The length of the character literal at the start of `rest`, if one is
/// there (`'a'`, `'\''`, `'\n'`, `'\65'`, `'\x41'`, `'\SOH'`); `None` for a
/// lone quote (Template Haskell's `'name`).
fn char_literal(rest: &str) -> Option<usize> {
    let body = &rest[1..];
    let mut chars = body.chars();
    match chars.next()? {
        '\\' => {
            // An escape: up to the closing quote after the escaped
            // character, within a few characters.
            let first = body[1..].chars().next()?;
            let from = 1 + first.len_utf8();
            let end = body[from..].find('\'')? + from;
            let escape = &body[1..end];
            let valid = escape.len() <= 8
                && escape
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "\\\"'&^@[]_".contains(c));
            valid.then_some(1 + end + 1)
        }
        '\'' | '\n' => None,
        c => chars
            .next()
            .filter(|&q| q == '\'')
            .map(|_| 1 + c.len_utf8() + 1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(s: &str) -> Vec<(Kind, &str)> {
        tokens(s).iter().map(|t| (t.kind, t.text)).collect()
    }

    #[test]
    fn comments_nested_and_pragmas_are_dropped() {
        assert_eq!(
            kinds("module M where"),
            [
                (Kind::Keyword, "module"),
                (Kind::Con, "M"),
                (Kind::Keyword, "where")
            ]
        );
        assert_eq!(
            kinds("{-# LANGUAGE X #-}\na {- 1 {- 2 -} 1 -} b -- c\n--> d\n---\ne"),
            [
                (Kind::Var, "a"),
                (Kind::Var, "b"),
                (Kind::VarSym, "-->"),
                (Kind::Var, "d"),
                (Kind::Var, "e"),
            ]
        );
        // Unclosed: to the end.
        assert_eq!(kinds("a {- {- -} b"), [(Kind::Var, "a")]);
    }

    #[test]
    fn literals_by_kind() {
        assert_eq!(
            kinds(r#"1 0x1F 1_000 1.5 2e-3 1..5 'a' '\'' '\n' '\65' "s\"q" 'x"#),
            [
                (Kind::Integer, "1"),
                (Kind::Integer, "0x1F"),
                (Kind::Integer, "1_000"),
                (Kind::Float, "1.5"),
                (Kind::Float, "2e-3"),
                (Kind::Integer, "1"),
                (Kind::ReservedOp, ".."),
                (Kind::Integer, "5"),
                (Kind::Char, "'a'"),
                (Kind::Char, "'\\''"),
                (Kind::Char, "'\\n'"),
                (Kind::Char, "'\\65'"),
                (Kind::String, "\"s\\\"q\""),
                (Kind::Other, "'"),
                (Kind::Var, "x"),
            ]
        );
        // An unclosed string runs to the end of its line only.
        assert_eq!(
            kinds("\"abc\nx"),
            [(Kind::String, "\"abc"), (Kind::Var, "x")]
        );
    }

    #[test]
    fn names_operators_and_qualification() {
        let toks = tokens("x' Data.List.sortBy M.+ [A..B] Just :| <- \\ ::");
        let seen: Vec<(Kind, &str, bool)> = toks
            .iter()
            .map(|t| (t.kind, t.name(), t.qualified))
            .collect();
        assert_eq!(
            seen,
            [
                (Kind::Var, "x'", false),
                (Kind::Var, "sortBy", true),
                (Kind::VarSym, "+", true),
                (Kind::Special, "[", false),
                (Kind::Con, "A", false),
                (Kind::ReservedOp, "..", false),
                (Kind::Con, "B", false),
                (Kind::Special, "]", false),
                (Kind::Con, "Just", false),
                (Kind::ConSym, ":|", false),
                (Kind::ReservedOp, "<-", false),
                (Kind::ReservedOp, "\\", false),
                (Kind::ReservedOp, "::", false),
            ]
        );
    }

    #[test]
    fn lines_and_columns_with_tabs() {
        let toks = tokens("a\n\tb  c\n  {- x\n -} d");
        let at: Vec<(u32, u32)> = toks.iter().map(|t| (t.line, t.column)).collect();
        assert_eq!(at, [(1, 1), (2, 9), (2, 12), (4, 5)]);
    }

    proptest::proptest! {
        #[test]
        fn never_panics_and_keeps_order(s in "\\PC{0,200}") {
            let toks = tokens(&s);
            for w in toks.windows(2) {
                proptest::prop_assert!(w[0].offset + w[0].text.len() <= w[1].offset);
                proptest::prop_assert!(w[0].line <= w[1].line);
            }
        }

        #[test]
        fn never_panics_on_haskell_like_text(s in "[a-zA-Z0-9 \\n\\t'\"{}\\-#.:=|\\\\()]{0,200}") {
            let _ = tokens(&s);
        }
    }
}
