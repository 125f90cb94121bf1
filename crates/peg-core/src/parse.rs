//! Reading the game's values from the text Haskell's `read` accepts.
//!
//! What is accepted, following GHC's derived `Read` instances and
//! `Text.Read.Lex`:
//!
//! - any whitespace (Haskell's `isSpace`: tab, line feed, vertical tab, form
//!   feed, carriage return and the Unicode space separators) before and between tokens and at the
//!   end, including line breaks, so boards copied across lines parse; none is
//!   needed between tokens (`Peg(0,0)W` reads), except to separate two words;
//! - any number of redundant parentheses around any value: `((1,2))`,
//!   `(1,(-2))`, `[(Peg (0,0) (W))]`, `((M (1,0)))`;
//! - a constructor application used as an argument must be parenthesised, as
//!   in `S (M (1,0)) [...]`; `S M (1,0) [...]` is refused, as `read` refuses it;
//! - an `Int` is `-`, optionally followed by whitespace, then a literal, or the
//!   literal alone: decimal `12`, hexadecimal `0x1F`/`0X1f`, octal `0o17`/`0O17`;
//!   `- 3` reads as -3, `-(3)` and `--3` are refused, as `read` refuses them;
//!   fractional and exponent literals (`1.0`, `1e3`) are not `Int`s.
//!
//! Two deliberate differences: `read` silently wraps an `Int` literal that does
//! not fit in 64 bits; here it is an error. And parentheses nested more than
//! [`MAX_NESTING`] deep are refused with their place (the reader recurses once
//! per level; hostile input must not overflow the stack).
//!
//! A board must also be a board: a peg off the `+`, or two pegs on one
//! position, is an error naming the peg and where it starts.

use std::fmt;

use nom::bytes::complete::{take_while, take_while1};
use nom::character::complete::char;
use nom::error::{ErrorKind, ParseError as NomParseError};
use nom::{IResult, Parser};

use crate::types::{Board, Color, Move, Peg, Position, State};

/// A text that does not read as the expected value: where, and what was wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    /// 1-based line of the problem.
    pub line: usize,
    /// 1-based column (in characters) of the problem.
    pub column: usize,
    /// What is wrong there and what would be valid.
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.column, self.message)
    }
}

impl std::error::Error for ParseError {}

/// The internal nom error: the furthest point reached and what was expected there.
#[derive(Debug, Clone)]
struct PErr<'a> {
    rest: &'a str,
    expected: Vec<&'static str>,
    /// A complete message that overrides "expected ...", e.g. for an out-of-range number.
    message: Option<String>,
}

impl<'a> PErr<'a> {
    fn expected(rest: &'a str, what: &'static str) -> Self {
        Self {
            rest,
            expected: vec![what],
            message: None,
        }
    }
}

impl<'a> NomParseError<&'a str> for PErr<'a> {
    fn from_error_kind(input: &'a str, _kind: ErrorKind) -> Self {
        Self {
            rest: input,
            expected: Vec::new(),
            message: None,
        }
    }

    fn append(_input: &'a str, _kind: ErrorKind, other: Self) -> Self {
        other
    }

    fn or(self, other: Self) -> Self {
        // Keep the error that got furthest; merge what was expected on a tie.
        match self.rest.len().cmp(&other.rest.len()) {
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
}

type Res<'a, O> = IResult<&'a str, O, PErr<'a>>;

fn fail<'a, O>(e: PErr<'a>) -> Res<'a, O> {
    Err(nom::Err::Error(e))
}

/// Whether `c` is whitespace for Haskell's `isSpace`: tab to carriage
/// return, and the Unicode space separators (category Zs). Unlike Rust's
/// `char::is_whitespace`, U+0085 and the line/paragraph separators are not.
fn is_space(c: char) -> bool {
    matches!(
        c,
        '\t'..='\r'
            | ' '
            | '\u{A0}'
            | '\u{1680}'
            | '\u{2000}'..='\u{200A}'
            | '\u{202F}'
            | '\u{205F}'
            | '\u{3000}'
    )
}

fn ws(i: &str) -> Res<'_, &str> {
    take_while(is_space).parse(i)
}

fn is_ident_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '\''
}

fn is_symbol_char(c: char) -> bool {
    "!@#$%&*+./<=>?\\^|:-~".contains(c)
}

/// A punctuation token.
fn punct<'a>(c: char, label: &'static str) -> impl Fn(&'a str) -> Res<'a, ()> {
    move |i| {
        let (i, _) = ws(i)?;
        match char::<&str, PErr<'a>>(c).parse(i) {
            Ok((rest, _)) => Ok((rest, ())),
            Err(_) => fail(PErr::expected(i, label)),
        }
    }
}

/// A whole identifier token equal to `name`.
fn ident<'a>(name: &'static str, label: &'static str) -> impl Fn(&'a str) -> Res<'a, ()> {
    move |i| {
        let (i, _) = ws(i)?;
        let word: Res<'a, &str> = take_while1(is_ident_char).parse(i);
        match word {
            Ok((rest, w)) if w == name => Ok((rest, ())),
            _ => fail(PErr::expected(i, label)),
        }
    }
}

/// An unsigned integer literal: decimal, `0x` hexadecimal or `0o` octal.
fn literal(i: &str) -> Res<'_, u64> {
    let (i, _) = ws(i)?;
    let start = i;
    let (radix, body) = if let Some(r) = i.strip_prefix("0x").or_else(|| i.strip_prefix("0X")) {
        if r.starts_with(|c: char| c.is_ascii_hexdigit()) {
            (16, r)
        } else {
            (10, i)
        }
    } else if let Some(r) = i.strip_prefix("0o").or_else(|| i.strip_prefix("0O")) {
        if r.starts_with(|c: char| c.is_digit(8)) {
            (8, r)
        } else {
            (10, i)
        }
    } else {
        (10, i)
    };
    let digits: Res<'_, &str> = take_while1(move |c: char| c.is_digit(radix)).parse(body);
    let Ok((rest, digits)) = digits else {
        return fail(PErr::expected(start, "an integer"));
    };
    if radix == 10 {
        // `1.5` and `1e3` are one fractional lexeme in Haskell, never an Int.
        let mut chars = rest.chars();
        let fractional = match (chars.next(), chars.next(), chars.next()) {
            (Some('.'), Some(d), _) if d.is_ascii_digit() => true,
            (Some('e' | 'E'), Some(d), _) if d.is_ascii_digit() => true,
            (Some('e' | 'E'), Some('+' | '-'), Some(d)) if d.is_ascii_digit() => true,
            _ => false,
        };
        if fractional {
            return fail(PErr {
                rest: start,
                expected: Vec::new(),
                message: Some("expected an integer (Int), found a fractional number".into()),
            });
        }
    }
    match u64::from_str_radix(digits, radix) {
        Ok(n) => Ok((rest, n)),
        Err(_) => fail(PErr {
            rest: start,
            expected: Vec::new(),
            message: Some(format!(
                "the integer `{digits}` does not fit in a 64-bit Int (from {} to {})",
                i64::MIN,
                i64::MAX
            )),
        }),
    }
}

/// A signed Int without surrounding parentheses: `-` symbol then literal, or a literal.
fn int_bare(i: &str) -> Res<'_, i64> {
    let (i, _) = ws(i)?;
    let start = i;
    if let Some(after) = i.strip_prefix('-') {
        if after.starts_with(is_symbol_char) {
            return fail(PErr::expected(start, "an integer"));
        }
        let (rest, n) = literal(after)?;
        return match 0i64.checked_sub_unsigned(n) {
            Some(v) => Ok((rest, v)),
            None => fail(PErr {
                rest: start,
                expected: Vec::new(),
                message: Some(format!(
                    "the integer `-{n}` does not fit in a 64-bit Int (from {} to {})",
                    i64::MIN,
                    i64::MAX
                )),
            }),
        };
    }
    let (rest, n) = literal(i)?;
    match i64::try_from(n) {
        Ok(v) => Ok((rest, v)),
        Err(_) => fail(PErr {
            rest: start,
            expected: Vec::new(),
            message: Some(format!(
                "the integer `{n}` does not fit in a 64-bit Int (from {} to {})",
                i64::MIN,
                i64::MAX
            )),
        }),
    }
}

/// Haskell's `parens`: `p`, or `p` inside one or more pairs of parentheses.
///
/// With `bare_ok == false` (a constructor application in argument position)
/// at least one pair is required; inside parentheses precedence is reset.
fn parens<'a, O>(i: &'a str, bare_ok: bool, p: &dyn Fn(&'a str) -> Res<'a, O>) -> Res<'a, O> {
    let mut first_err = None;
    if bare_ok {
        match p(i) {
            Ok(r) => return Ok(r),
            Err(nom::Err::Error(e)) => first_err = Some(e),
            Err(e) => return Err(e),
        }
    }
    let mandatory = (|| {
        let (i, _) = punct('(', "`(`")(i)?;
        let (i, o) = parens(i, true, p)?;
        let (i, _) = punct(')', "`)`")(i)?;
        Ok((i, o))
    })();
    match mandatory {
        Ok(r) => Ok(r),
        Err(nom::Err::Error(e)) => fail(match first_err {
            Some(f) => f.or(e),
            None => e,
        }),
        Err(e) => Err(e),
    }
}

fn int(i: &str) -> Res<'_, i64> {
    parens(i, true, &int_bare)
}

fn position(i: &str) -> Res<'_, Position> {
    parens(i, true, &|i| {
        let (i, _) = punct('(', "`(` starting a position (x,y)")(i)?;
        let (i, x) = int(i)?;
        let (i, _) = punct(',', "`,`")(i)?;
        let (i, y) = int(i)?;
        let (i, _) = punct(')', "`)`")(i)?;
        Ok((i, Position::new(x, y)))
    })
}

fn color(i: &str) -> Res<'_, Color> {
    parens(i, true, &|i| {
        let w: Res<'_, ()> = ident("W", "`W`")(i);
        match w {
            Ok((rest, ())) => Ok((rest, Color::W)),
            Err(nom::Err::Error(e)) => match ident("B", "`B`")(i) {
                Ok((rest, ())) => Ok((rest, Color::B)),
                Err(nom::Err::Error(e2)) => fail(e.or(e2)),
                Err(e2) => Err(e2),
            },
            Err(e) => Err(e),
        }
    })
}

/// A peg; `arg` says it is a constructor argument (precedence 11).
fn peg(i: &str, arg: bool) -> Res<'_, Peg> {
    parens(i, !arg, &|i| {
        let (i, _) = ident("Peg", "`Peg`")(i)?;
        let (i, pos) = position(i)?;
        let (i, c) = color(i)?;
        Ok((i, Peg::new(pos, c)))
    })
}

/// A move; `arg` says it is a constructor argument (precedence 11).
fn mv(i: &str, arg: bool) -> Res<'_, Move> {
    parens(i, !arg, &|i| {
        let (i, _) = ident("M", "`M`")(i)?;
        let (i, pos) = position(i)?;
        Ok((i, Move(pos)))
    })
}

/// A Haskell list of `elem`, with redundant parentheses around it allowed.
fn list<'a, O>(i: &'a str, elem: &dyn Fn(&'a str) -> Res<'a, O>) -> Res<'a, Vec<O>> {
    parens(i, true, &|i| {
        let (mut i, _) = punct('[', "`[`")(i)?;
        let mut out = Vec::new();
        if let Ok((rest, ())) = punct(']', "`]`")(i) {
            return Ok((rest, out));
        }
        loop {
            let (rest, o) = elem(i)?;
            out.push(o);
            i = rest;
            match punct(',', "`,`")(i) {
                Ok((rest, ())) => {
                    i = rest;
                    continue;
                }
                Err(nom::Err::Error(e)) => match punct(']', "`]`")(i) {
                    Ok((rest, ())) => return Ok((rest, out)),
                    Err(nom::Err::Error(e2)) => return fail(e.or(e2)),
                    Err(e2) => return Err(e2),
                },
                Err(e) => return Err(e),
            }
        }
    })
}

/// A peg together with the text it starts at (after whitespace), for board errors.
fn located_peg(i: &str) -> Res<'_, (Peg, &str)> {
    let (i, _) = ws(i)?;
    let (rest, p) = peg(i, false)?;
    Ok((rest, (p, i)))
}

fn board_raw(i: &str) -> Res<'_, Vec<(Peg, &str)>> {
    list(i, &located_peg)
}

fn line_col(full: &str, rest: &str) -> (usize, usize) {
    let offset = full.len() - rest.len();
    let before = &full[..offset];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |k| k + 1);
    let column = before[line_start..].chars().count() + 1;
    (line, column)
}

fn describe_found(rest: &str) -> String {
    match rest.chars().next() {
        None => "end of input".to_string(),
        Some(c) if c.is_whitespace() || c.is_control() => format!("{c:?}"),
        Some(c) => {
            let token: String = if is_ident_char(c) {
                rest.chars()
                    .take_while(|&c| is_ident_char(c))
                    .take(20)
                    .collect()
            } else {
                c.to_string()
            };
            format!("`{token}`")
        }
    }
}

fn to_error(full: &str, e: PErr<'_>) -> ParseError {
    let (line, column) = line_col(full, e.rest);
    let message = match e.message {
        Some(m) => m,
        None => {
            let expected = match e.expected.as_slice() {
                [] => "a value".to_string(),
                [one] => (*one).to_string(),
                many => {
                    let (last, init) = many.split_last().expect("non-empty");
                    format!("{} or {}", init.join(", "), last)
                }
            };
            format!("expected {expected}, found {}", describe_found(e.rest))
        }
    };
    ParseError {
        line,
        column,
        message,
    }
}

/// Deepest nesting of parentheses read; the game's values need at most 4,
/// and the parser recurses once per level, so a limit keeps hostile input
/// from overflowing the stack.
pub const MAX_NESTING: usize = 100;

/// The place of the first `(` nested deeper than [`MAX_NESTING`], if any.
fn too_deep(full: &str) -> Option<ParseError> {
    let mut depth = 0usize;
    for (at, c) in full.char_indices() {
        match c {
            '(' => {
                depth += 1;
                if depth > MAX_NESTING {
                    let (line, column) = line_col(full, &full[at..]);
                    return Some(ParseError {
                        line,
                        column,
                        message: format!(
                            "parentheses nested more than {MAX_NESTING} deep; a value of the game needs only a few"
                        ),
                    });
                }
            }
            ')' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    None
}

/// Runs `p` over the whole text (whitespace allowed around it).
fn run<'a, O>(
    full: &'a str,
    what: &'static str,
    p: impl Fn(&'a str) -> Res<'a, O>,
) -> Result<O, ParseError> {
    if let Some(mut err) = too_deep(full) {
        err.message = format!("cannot read {what}: {}", err.message);
        return Err(err);
    }
    let parsed = p(full).and_then(|(rest, o)| {
        let (rest, _) = ws(rest)?;
        if rest.is_empty() {
            Ok((rest, o))
        } else {
            fail(PErr::expected(rest, "end of input"))
        }
    });
    match parsed {
        Ok((_, o)) => Ok(o),
        Err(nom::Err::Error(e) | nom::Err::Failure(e)) => {
            let mut err = to_error(full, e);
            err.message = format!("cannot read {what}: {}", err.message);
            Err(err)
        }
        Err(nom::Err::Incomplete(_)) => Err(ParseError {
            line: 1,
            column: 1,
            message: format!("cannot read {what}: incomplete input"),
        }),
    }
}

/// Reads a `Position` such as `(1,-2)`.
pub fn parse_position(text: &str) -> Result<Position, ParseError> {
    run(text, "a position (x,y)", position)
}

/// Reads a `Color`: `W` or `B`.
pub fn parse_color(text: &str) -> Result<Color, ParseError> {
    run(text, "a colour (W or B)", color)
}

/// Reads a `Peg` such as `Peg (1,-2) W` (any position: a lone peg need not be on the board).
pub fn parse_peg(text: &str) -> Result<Peg, ParseError> {
    run(text, "a peg (Peg (x,y) W or B)", |i| peg(i, false))
}

/// Reads a `Move` such as `M (1,0)` (any position).
pub fn parse_move(text: &str) -> Result<Move, ParseError> {
    run(text, "a move (M (x,y))", |i| mv(i, false))
}

fn check_board(full: &str, located: Vec<(Peg, &str)>) -> Result<Board, ParseError> {
    let starts: Vec<&str> = located.iter().map(|(_, s)| *s).collect();
    let pegs = located.into_iter().map(|(p, _)| p).collect();
    Board::new(pegs).map_err(|e| {
        let (line, column) = line_col(full, starts[e.peg_index()]);
        ParseError {
            line,
            column,
            message: format!("not a board: {e}"),
        }
    })
}

/// Reads a `Board` such as `[Peg (0,0) W,Peg (1,0) B]` and checks it is one.
pub fn parse_board(text: &str) -> Result<Board, ParseError> {
    let located = run(text, "a board ([Peg (x,y) W, ...])", board_raw)?;
    check_board(text, located)
}

fn state_raw(i: &str) -> Res<'_, (Move, Vec<(Peg, &str)>)> {
    parens(i, true, &|i| {
        let (i, _) = ident("S", "`S`")(i)?;
        let (i, m) = mv(i, true)?;
        let (i, b) = board_raw(i)?;
        Ok((i, (m, b)))
    })
}

/// Reads a `State` such as `S (M (1,0)) [Peg (0,0) W,Peg (1,0) W]`.
pub fn parse_state(text: &str) -> Result<State, ParseError> {
    let (m, located) = run(text, "a state (S (M (x,y)) [...])", state_raw)?;
    Ok(State {
        mv: m,
        board: check_board(text, located)?,
    })
}

/// Reads a list of states, as `showPossibleNextStates` prints it.
pub fn parse_states(text: &str) -> Result<Vec<State>, ParseError> {
    let raw = run(text, "a list of states", |i| list(i, &state_raw))?;
    raw.into_iter()
        .map(|(m, located)| {
            Ok(State {
                mv: m,
                board: check_board(text, located)?,
            })
        })
        .collect()
}

/// Reads a position as typed on a command line or in the game: `1,-2`, `(1,-2)` or `1 -2`.
pub fn parse_position_arg(text: &str) -> Result<Position, ParseError> {
    if let Ok(p) = parse_position(text) {
        return Ok(p);
    }
    let loose = run(text, "a position", |i| {
        let (i, x) = int(i)?;
        let (i, _) = match punct(',', "`,`")(i) {
            Ok(r) => r,
            Err(_) => (i, ()),
        };
        let (i, y) = int(i)?;
        Ok((i, Position::new(x, y)))
    });
    loose.map_err(|mut e| {
        e.message = format!(
            "{} (write a position as x,y or (x,y), e.g. 1,0 or (-2,1))",
            e.message
        );
        e
    })
}
