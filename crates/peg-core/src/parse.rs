//! Reading the game's values from the text Haskell's `read` accepts.
//!
//! What is accepted, following GHC's derived `Read` instances and
//! `Text.Read.Lex`:
//!
//! - any whitespace (Haskell's `isSpace`, as `haskell_text::is_space`: tab,
//!   line feed, vertical tab, form feed, carriage return and the Unicode space
//!   separators, but not U+2028/U+2029) before and between tokens and at the
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
//! A byte-order mark (U+FEFF) at the very start of the text, as Windows
//! Notepad saves UTF-8, is skipped (`read` would refuse it), and lines and
//! columns are counted after it (`haskell_text::skip_bom`); anywhere else it
//! is an unexpected character.
//!
//! Two deliberate differences: `read` silently wraps an `Int` literal that does
//! not fit in 64 bits; here it is an error. And parentheses nested more than
//! [`MAX_NESTING`] deep are refused with their place.
//!
//! Redundant parentheses are counted, never recursed into (the
//! `haskell-text` counters), so no text can overflow the stack; the nesting
//! of the values themselves is fixed (a list of states of boards of pegs).
//!
//! A board must also be a board: a peg off the `+`, or two pegs on one
//! position, is an error naming the peg and where it starts.

use std::fmt;

use haskell_text::{
    Diagnostic, Res, SyntaxError, close_parens, fail, is_ident_char, line_column, open_parens,
    skip_bom, ws,
};
use nom::Parser;
use nom::bytes::complete::take_while1;

use crate::types::{Board, Color, Move, Peg, Position, State};

/// A text that does not read as the expected value: where, and what was wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    /// Byte offset of the problem in the text read.
    pub offset: usize,
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

impl ParseError {
    /// A problem at byte `offset` of `full`.
    fn at(full: &str, offset: usize, message: String) -> ParseError {
        let (line, column) = line_column(full, offset);
        ParseError {
            offset,
            line,
            column,
            message,
        }
    }

    /// The problem as `FILE:LINE:COLUMN: message` with the line of `source`
    /// (the text that was read) and a caret under the column.
    pub fn render<'a>(&'a self, file: &'a str, source: &'a str) -> impl fmt::Display + 'a {
        RenderedError {
            diagnostic: Diagnostic::new(self.offset, self.message.as_str()),
            file,
            source,
        }
    }
}

/// A [`ParseError`] with its file name and source, ready to display.
struct RenderedError<'a> {
    diagnostic: Diagnostic,
    file: &'a str,
    source: &'a str,
}

impl fmt::Display for RenderedError<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.diagnostic.render(self.file, self.source).fmt(f)
    }
}

/// A recoverable failure described by `e`.
pub(crate) fn fail_with<'a, O>(e: SyntaxError<'a>) -> Res<'a, O> {
    Err(nom::Err::Error(e))
}

fn is_symbol_char(c: char) -> bool {
    "!@#$%&*+./<=>?\\^|:-~".contains(c)
}

/// A punctuation token.
fn punct<'a>(c: char, label: &'static str) -> impl Fn(&'a str) -> Res<'a, ()> {
    move |i| {
        let (i, _) = ws(i)?;
        match i.strip_prefix(c) {
            Some(rest) => Ok((rest, ())),
            None => fail(i, label),
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
            _ => fail(i, label),
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
        return fail(start, "an integer");
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
            return fail_with(SyntaxError::message(
                start,
                "expected an integer (Int), found a fractional number".into(),
            ));
        }
    }
    match u64::from_str_radix(digits, radix) {
        Ok(n) => Ok((rest, n)),
        Err(_) => fail_with(SyntaxError::message(
            start,
            format!(
                "the integer `{digits}` does not fit in a 64-bit Int (from {} to {})",
                i64::MIN,
                i64::MAX
            ),
        )),
    }
}

/// A signed Int without surrounding parentheses: `-` symbol then literal, or a literal.
fn int_bare(i: &str) -> Res<'_, i64> {
    let (i, _) = ws(i)?;
    let start = i;
    if let Some(after) = i.strip_prefix('-') {
        if after.starts_with(is_symbol_char) {
            return fail(start, "an integer");
        }
        let (rest, n) = literal(after)?;
        return match 0i64.checked_sub_unsigned(n) {
            Some(v) => Ok((rest, v)),
            None => fail_with(SyntaxError::message(
                start,
                format!(
                    "the integer `-{n}` does not fit in a 64-bit Int (from {} to {})",
                    i64::MIN,
                    i64::MAX
                ),
            )),
        };
    }
    let (rest, n) = literal(i)?;
    match i64::try_from(n) {
        Ok(v) => Ok((rest, v)),
        Err(_) => fail_with(SyntaxError::message(
            start,
            format!(
                "the integer `{n}` does not fit in a 64-bit Int (from {} to {})",
                i64::MIN,
                i64::MAX
            ),
        )),
    }
}

/// Haskell's `parens`: `p`, or `p` inside any number of pairs of
/// parentheses, counted rather than recursed into.
///
/// With `bare_ok == false` (a constructor application in argument position)
/// at least one pair is required; inside parentheses precedence is reset.
/// `p` must not itself start with `(` (a tuple is read by [`position`]).
pub(crate) fn parens<'a, O>(
    i: &'a str,
    bare_ok: bool,
    p: &dyn Fn(&'a str) -> Res<'a, O>,
) -> Res<'a, O> {
    let (i, ()) = ws(i)?;
    let (i, n) = open_parens(i)?;
    if n == 0 && !bare_ok {
        return fail(i, "'('");
    }
    let (rest, o) = p(i).map_err(|e| or_more_parens(e, i))?;
    let (rest, ()) = ws(rest)?;
    let (rest, ()) = close_parens(rest, n)?;
    Ok((rest, o))
}

/// Where `p` failed without reading anything, another `(` would also have
/// been valid: say so.
fn or_more_parens<'a>(e: nom::Err<SyntaxError<'a>>, at: &'a str) -> nom::Err<SyntaxError<'a>> {
    match e {
        nom::Err::Error(e) if e.at.len() == at.len() => {
            nom::Err::Error(e.merge(SyntaxError::expected(at, "'('")))
        }
        other => other,
    }
}

fn int(i: &str) -> Res<'_, i64> {
    parens(i, true, &int_bare)
}

/// `(x,y)` in any number of redundant parentheses, which may also wrap `x`:
/// of the `n` opening parentheses counted first, one is the tuple's, those
/// closed right after `x` wrap `x`, and the rest wrap the tuple.
pub(crate) fn position(i: &str) -> Res<'_, Position> {
    let (i, ()) = ws(i)?;
    let (i, n) = open_parens(i)?;
    if n == 0 {
        return fail(i, "'(' starting a position (x,y)");
    }
    let (mut i, x) = int_bare(i).map_err(|e| or_more_parens(e, i))?;
    let mut around_x = 0;
    let mut closing = None;
    while around_x + 1 < n {
        match punct(')', "')'")(i) {
            Ok((rest, ())) => {
                i = rest;
                around_x += 1;
            }
            Err(nom::Err::Error(e)) => {
                closing = Some(e);
                break;
            }
            Err(e) => return Err(e),
        }
    }
    let (i, _) = match punct(',', "','")(i) {
        Ok(r) => r,
        Err(nom::Err::Error(e)) => {
            return fail_with(match closing {
                Some(c) => c.merge(e),
                None => e,
            });
        }
        Err(e) => return Err(e),
    };
    let (i, y) = int(i)?;
    let (i, _) = punct(')', "')'")(i)?;
    let (i, ()) = ws(i)?;
    let (i, ()) = close_parens(i, n - 1 - around_x)?;
    Ok((i, Position::new(x, y)))
}

fn color(i: &str) -> Res<'_, Color> {
    parens(i, true, &|i| {
        let w: Res<'_, ()> = ident("W", "'W'")(i);
        match w {
            Ok((rest, ())) => Ok((rest, Color::W)),
            Err(nom::Err::Error(e)) => match ident("B", "'B'")(i) {
                Ok((rest, ())) => Ok((rest, Color::B)),
                Err(nom::Err::Error(e2)) => fail_with(e.merge(e2)),
                Err(e2) => Err(e2),
            },
            Err(e) => Err(e),
        }
    })
}

/// A peg; `arg` says it is a constructor argument (precedence 11).
fn peg(i: &str, arg: bool) -> Res<'_, Peg> {
    parens(i, !arg, &|i| {
        let (i, _) = ident("Peg", "'Peg'")(i)?;
        let (i, pos) = position(i)?;
        let (i, c) = color(i)?;
        Ok((i, Peg::new(pos, c)))
    })
}

/// A move; `arg` says it is a constructor argument (precedence 11).
pub(crate) fn mv(i: &str, arg: bool) -> Res<'_, Move> {
    parens(i, !arg, &|i| {
        let (i, _) = ident("M", "'M'")(i)?;
        let (i, pos) = position(i)?;
        Ok((i, Move(pos)))
    })
}

/// A Haskell list of `elem`, with redundant parentheses around it allowed.
fn list<'a, O>(i: &'a str, elem: &dyn Fn(&'a str) -> Res<'a, O>) -> Res<'a, Vec<O>> {
    parens(i, true, &|i| {
        let (mut i, _) = punct('[', "'['")(i)?;
        let mut out = Vec::new();
        if let Ok((rest, ())) = punct(']', "']'")(i) {
            return Ok((rest, out));
        }
        loop {
            let (rest, o) = elem(i)?;
            out.push(o);
            i = rest;
            match punct(',', "','")(i) {
                Ok((rest, ())) => {
                    i = rest;
                    continue;
                }
                Err(nom::Err::Error(e)) => match punct(']', "']'")(i) {
                    Ok((rest, ())) => return Ok((rest, out)),
                    Err(nom::Err::Error(e2)) => return fail_with(e.merge(e2)),
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

pub(crate) fn board_raw(i: &str) -> Res<'_, Vec<(Peg, &str)>> {
    list(i, &located_peg)
}

/// The located error for a failure of the parser over `full`.
fn to_error(full: &str, e: SyntaxError<'_>) -> ParseError {
    ParseError::at(full, full.len() - e.at.len(), e.text())
}

/// Deepest nesting of parentheses read; the game's values need at most 4.
///
/// The reader counts parentheses, so this bound no longer guards the stack;
/// it stays a documented difference from `read`, which has none.
pub const MAX_NESTING: usize = 100;

/// The place of the first `(` nested deeper than [`MAX_NESTING`], if any.
fn too_deep(full: &str) -> Option<ParseError> {
    let mut depth = 0usize;
    for (at, c) in full.char_indices() {
        match c {
            '(' => {
                depth += 1;
                if depth > MAX_NESTING {
                    return Some(ParseError::at(
                        full,
                        at,
                        format!(
                            "parentheses nested more than {MAX_NESTING} deep; a value of the game needs only a few"
                        ),
                    ));
                }
            }
            ')' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    None
}

/// Runs `p` over the whole text (whitespace allowed around it).
pub(crate) fn run<'a, O>(
    full: &'a str,
    what: &'static str,
    p: impl Fn(&'a str) -> Res<'a, O>,
) -> Result<O, ParseError> {
    if let Some(mut err) = too_deep(full) {
        err.message = format!("cannot read {what}: {}", err.message);
        return Err(err);
    }
    let parsed = p(skip_bom(full)).and_then(|(rest, o)| {
        let (rest, _) = ws(rest)?;
        if rest.is_empty() {
            Ok((rest, o))
        } else {
            fail(rest, "end of input")
        }
    });
    match parsed {
        Ok((_, o)) => Ok(o),
        Err(nom::Err::Error(e) | nom::Err::Failure(e)) => {
            let mut err = to_error(full, e);
            err.message = format!("cannot read {what}: {}", err.message);
            Err(err)
        }
        Err(nom::Err::Incomplete(_)) => Err(ParseError::at(
            full,
            0,
            format!("cannot read {what}: incomplete input"),
        )),
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

pub(crate) fn check_board(full: &str, located: Vec<(Peg, &str)>) -> Result<Board, ParseError> {
    let starts: Vec<&str> = located.iter().map(|(_, s)| *s).collect();
    let pegs = located.into_iter().map(|(p, _)| p).collect();
    Board::new(pegs).map_err(|e| {
        let offset = full.len() - starts[e.peg_index()].len();
        ParseError::at(full, offset, format!("not a board: {e}"))
    })
}

/// Reads a `Board` such as `[Peg (0,0) W,Peg (1,0) B]` and checks it is one.
pub fn parse_board(text: &str) -> Result<Board, ParseError> {
    let located = run(text, "a board ([Peg (x,y) W, ...])", board_raw)?;
    check_board(text, located)
}

fn state_raw(i: &str) -> Res<'_, (Move, Vec<(Peg, &str)>)> {
    parens(i, true, &|i| {
        let (i, _) = ident("S", "'S'")(i)?;
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
        let (i, _) = match punct(',', "','")(i) {
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
