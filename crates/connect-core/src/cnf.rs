//! The `.cnf` game format: one Haskell value of type `([String], [Int])`,
//! read exactly as Haskell's `read` reads it, then validated.
//!
//! Grammar (white space `ws` may stand between any two tokens):
//!
//! ```text
//! game   := ws '('* rows ')'* ',' moves ')'* ws EOF   -- k '(' and k ')' in all, k >= 1
//! rows   := '(' rows ')' | '[' (row (',' row)*)? ']'
//! row    := '(' row ')' | string
//! moves  := '(' moves ')' | '[' (move (',' move)*)? ']'
//! move   := '(' move ')' | '-'? digit+
//! ```
//!
//! A byte-order mark (U+FEFF) at the very start, as Windows Notepad saves
//! UTF-8, is skipped: `read` would refuse it, but it is an invisible mark of
//! the encoding, not text a person wrote, and an error naming it would point
//! at nothing visible. Lines and columns are counted after it. Anywhere else
//! it is an unexpected character, as for `read`.
//!
//! Parentheses are counted, never recursed into, so any depth of nesting is
//! safe. Parse errors stop at the first one; validation problems (a bad cell,
//! a ragged row, a move outside the board) are all collected.

use crate::{Board, BoardError, Cell, GameError, check_move};

use haskell_text::diagnostic::{Diagnostic, Diagnostics};
use haskell_text::{
    Res, SyntaxError, close_parens, fail, open_parens, show_string, skip_bom, string_literal,
    to_failure, token, ws,
};

/// What a program reading a game file asks for when it cannot read one, in
/// the one error form of `frontend::input`.
pub const GAME_FILE_WANTED: &str = "a .cnf game file, or - for standard input";

/// A game, as the note shown while a program waits on standard input names it.
pub const GAME_EXAMPLE: &str = "a game, e.g. ([\"----\",\"-12-\"],[1,4])";

/// Parser input: the unread rest of the source.
type In<'a> = &'a str;

/// A game read from a `.cnf` file: a valid board and moves that are all columns of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CnfGame {
    /// The board, rows top to bottom.
    pub board: Board,
    /// The moves, each a column number from 1 to the board's width.
    pub moves: Vec<i64>,
}

/// Problems stored beyond this many are dropped, with a note saying so.
const MAX_PROBLEMS: usize = 1000;

/// Reads and validates the text of a `.cnf` file.
pub fn parse_cnf(source: &str) -> Result<CnfGame, Diagnostics> {
    let mut parser = GameParser {
        source,
        problems: Vec::new(),
        dropped: 0,
    };
    match parser.game(skip_bom(source)) {
        Ok((_, Some(game))) if parser.problems.is_empty() => Ok(game),
        Ok(_) => Err(parser.finish()),
        Err(e) => {
            let e = match e {
                nom::Err::Error(e) | nom::Err::Failure(e) => e,
                nom::Err::Incomplete(_) => SyntaxError::expected("", "more input"),
            };
            let offset = source.len() - e.at.len();
            parser.push(offset, e.text());
            Err(parser.finish())
        }
    }
}

/// The game as `.cnf` text in the layout of the assignment's example.
pub fn render_cnf(board: &Board, moves: &[i64]) -> String {
    let mut out = String::from("(\n[\n");
    let rows: Vec<String> = board.row_strings().map(|r| show_string(&r)).collect();
    out.push_str(&rows.join(",\n"));
    out.push_str("\n]\n,\n[");
    let moves: Vec<String> = moves.iter().map(i64::to_string).collect();
    out.push_str(&moves.join(","));
    out.push_str("]\n\n)\n");
    out
}

/// What a part prints for its resulting board, as the course's program
/// printed it with `print`: `"Result"`, each row as a Haskell string, then
/// `""`, every line ending with LF (the grader's `.solution` text).
pub fn render_result(board: &Board) -> String {
    let mut out = String::with_capacity((board.width() + 3) * (board.height() + 2) + 10);
    out.push_str("\"Result\"\n");
    for row in board.row_strings() {
        out.push_str(&show_string(&row));
        out.push('\n');
    }
    out.push_str("\"\"\n");
    out
}

/// A row string as it appeared in the file.
struct RowLiteral<'a> {
    value: String,
    /// Byte offset of the opening quote.
    offset: usize,
    /// The literal's text between the quotes, when it used no escape.
    plain: Option<&'a str>,
}

struct GameParser<'s> {
    source: &'s str,
    problems: Vec<Diagnostic>,
    dropped: usize,
}

impl<'s> GameParser<'s> {
    fn offset(&self, at: In<'s>) -> usize {
        self.source.len() - at.len()
    }

    fn push(&mut self, offset: usize, message: String) {
        if self.problems.len() < MAX_PROBLEMS {
            self.problems.push(Diagnostic::new(offset, message));
        } else {
            self.dropped += 1;
        }
    }

    fn finish(mut self) -> Diagnostics {
        self.problems.sort_by_key(|d| d.offset);
        if self.dropped > 0 {
            let last = self.problems.last().map_or(0, |d| d.offset);
            self.problems.push(Diagnostic::new(
                last,
                format!("{} further problems were not listed", self.dropped),
            ));
        }
        Diagnostics(self.problems)
    }

    /// `game`: the tuple, its redundant parentheses, and nothing after it.
    /// Returns `None` when it parsed but validation found problems.
    fn game(&mut self, i: In<'s>) -> Res<'s, Option<CnfGame>> {
        let (i, ()) = ws(i)?;
        let (i, outer) = open_parens(i)?;
        if outer == 0 {
            return fail(i, "'(' opening the game ([rows], [moves])");
        }
        let (i, rows) = self.rows(i).map_err(to_failure)?;
        // Parentheses closed here wrapped the row list; one must stay open
        // for the tuple itself.
        let mut i = i;
        let mut closed = 0;
        while closed + 1 < outer {
            match token(')', "")(i) {
                Ok((rest, ())) => {
                    i = rest;
                    closed += 1;
                }
                Err(_) => break,
            }
        }
        let (i, ()) = token(',', "',' between the rows and the moves")(i).map_err(to_failure)?;
        let board = self.board(rows);
        let width = board.as_ref().map(Board::width);
        let (i, moves) = self.moves(i, width).map_err(to_failure)?;
        let (i, ()) = close_parens(i, outer - closed)?;
        if !i.is_empty() {
            return Err(nom::Err::Failure(SyntaxError::expected(
                i,
                "end of input after the game",
            )));
        }
        Ok((i, board.map(|board| CnfGame { board, moves })))
    }

    /// `list := '(' list ')' | '[' (item (',' item)*)? ']'`, where `item`
    /// is given the list so far.
    fn list<T>(
        &mut self,
        i: In<'s>,
        open: &'static str,
        separator: &'static str,
        mut item: impl FnMut(&mut Self, In<'s>, &[T]) -> Res<'s, T>,
    ) -> Res<'s, Vec<T>> {
        let (i, parens) = open_parens(i)?;
        let (mut i, ()) = token('[', open)(i).map_err(to_failure)?;
        let mut items = Vec::new();
        if let Ok((rest, ())) = token(']', "")(i) {
            let (rest, ()) = close_parens(rest, parens)?;
            return Ok((rest, items));
        }
        loop {
            let (rest, x) = item(self, i, &items)?;
            items.push(x);
            if let Ok((rest, ())) = token(',', "")(rest) {
                i = rest;
                continue;
            }
            let (rest, ()) = token(']', separator)(rest).map_err(to_failure)?;
            let (rest, ()) = close_parens(rest, parens)?;
            return Ok((rest, items));
        }
    }

    /// `rows := list(row)`
    fn rows(&mut self, i: In<'s>) -> Res<'s, Vec<RowLiteral<'s>>> {
        self.list(
            i,
            "'[' opening the list of rows",
            "',' or ']' after a row",
            |p, i, _| p.row(i),
        )
    }

    /// `row := '(' row ')' | string`
    fn row(&mut self, i: In<'s>) -> Res<'s, RowLiteral<'s>> {
        let (i, parens) = open_parens(i)?;
        let offset = self.offset(i);
        let (rest, (value, escaped)) = match string_literal(i) {
            Ok(ok) => ok,
            Err(nom::Err::Error(_)) => {
                return Err(nom::Err::Failure(SyntaxError::expected(
                    i,
                    "a row string such as \"--1-\"",
                )));
            }
            Err(e) => return Err(e),
        };
        let plain = (!escaped).then(|| &i[1..i.len() - rest.len() - 1]);
        let (rest, ()) = ws(rest)?;
        let (rest, ()) = close_parens(rest, parens)?;
        Ok((
            rest,
            RowLiteral {
                value,
                offset,
                plain,
            },
        ))
    }

    /// Checks every row, recording each problem at its place in the file.
    fn board(&mut self, rows: Vec<RowLiteral<'s>>) -> Option<Board> {
        let Some(first) = rows.first() else {
            // The offending place is the empty list; point at the file's start
            // of the value would be vague, so point at the first '['.
            let at = self.source.find('[').unwrap_or(0);
            self.push(at, BoardError::NoRows.to_string());
            return None;
        };
        let width = first.value.chars().count();
        let before = self.problems.len() + self.dropped;
        if width == 0 {
            self.push(first.offset, BoardError::EmptyRow.to_string());
        }
        for (r, row) in rows.iter().enumerate() {
            for (c, (byte, ch)) in row.value.char_indices().enumerate() {
                if Cell::from_token(ch).is_none() {
                    let at = match row.plain {
                        Some(_) => row.offset + 1 + byte,
                        None => row.offset,
                    };
                    let e = BoardError::BadCell {
                        row: r + 1,
                        column: c + 1,
                        found: ch,
                    };
                    self.push(at, e.to_string());
                }
            }
            let len = row.value.chars().count();
            if r > 0 && len != width {
                let e = BoardError::RaggedRow {
                    row: r + 1,
                    len,
                    expected: width,
                };
                self.push(row.offset, e.to_string());
            }
        }
        if self.problems.len() + self.dropped > before {
            return None;
        }
        match Board::from_rows(rows.iter().map(|r| r.value.as_str())) {
            Ok(board) => Some(board),
            Err(e) => {
                // Unreachable after the checks above; report rather than panic.
                self.push(first.offset, e.to_string());
                None
            }
        }
    }

    /// `moves := list(move)`, checking each move against `width` when the
    /// board is valid.
    fn moves(&mut self, i: In<'s>, width: Option<usize>) -> Res<'s, Vec<i64>> {
        self.list(
            i,
            "'[' opening the list of moves",
            "',' or ']' after a move",
            |p, i, before| p.one_move(i, before.len() + 1, width),
        )
    }

    /// `move := '(' move ')' | '-'? digit+`
    fn one_move(&mut self, i: In<'s>, position: usize, width: Option<usize>) -> Res<'s, i64> {
        let (i, parens) = open_parens(i)?;
        let start = i;
        let (i, negative) = match i.strip_prefix('-') {
            Some(rest) => (ws(rest)?.0, true),
            None => (i, false),
        };
        let len = i.bytes().take_while(u8::is_ascii_digit).count();
        if len == 0 {
            return Err(nom::Err::Failure(SyntaxError::expected(
                i,
                "a move (a column number such as 3)",
            )));
        }
        let digits = &i[..len];
        let value = digits
            .bytes()
            .try_fold(0i64, |acc, d| {
                acc.checked_mul(10)?.checked_add(i64::from(d - b'0'))
            })
            .map(|v| if negative { -v } else { v });
        let at = self.offset(start);
        match (value, width) {
            (Some(v), Some(w)) => {
                if let Err(e @ GameError::MoveOutOfRange { .. }) = check_move(position, v, w) {
                    self.push(at, e.to_string());
                }
            }
            (None, w) => {
                let sign = if negative { "-" } else { "" };
                let range = w.map_or(String::new(), |w| {
                    format!("; a move is a column number from 1 to {w}")
                });
                self.push(
                    at,
                    format!("move {position} is {sign}{digits}, a number too large to be a column{range}"),
                );
            }
            (Some(_), None) => {}
        }
        let (i, ()) = ws(&i[len..])?;
        let (i, ()) = close_parens(i, parens)?;
        Ok((i, value.unwrap_or(0)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The assignment's `test03.cnf`, as the spec page prints it.
    pub(crate) const TEST03: &str = "(\n[\n\"------\",\n\"------\",\n\"------\",\n\"------\",\n\"------\",\n\"------\",\n\"------\",\n\"-----2\",\n\"-12--3\",\n\"-132-2\"\n]\n,\n[1,4,4,3,4,5,3,6,5,2,4,5,5,2,4,3,6,2,6,1,1,1,5,4,3,5,6,3,6,6,2,3,4,4,4,6,1,5,4,6,6,6,2,6,5,3,4,5,3,5]\n\n)\n";

    fn ok(src: &str) -> CnfGame {
        match parse_cnf(src) {
            Ok(g) => g,
            Err(d) => panic!("{}", d.render("t.cnf", src)),
        }
    }

    fn err(src: &str) -> String {
        match parse_cnf(src) {
            Ok(g) => panic!("parsed: {g:?}"),
            Err(d) => d.render("t.cnf", src).to_string(),
        }
    }

    fn rows(g: &CnfGame) -> Vec<String> {
        g.board.row_strings().collect()
    }

    #[test]
    fn reads_the_assignment_example() {
        let g = ok(TEST03);
        assert_eq!(g.board.height(), 10);
        assert_eq!(g.board.width(), 6);
        assert_eq!(rows(&g)[9], "-132-2");
        assert_eq!(g.moves.len(), 50);
        assert_eq!(&g.moves[..5], &[1, 4, 4, 3, 4]);
    }

    #[test]
    fn whitespace_anywhere_crlf_and_one_line() {
        let one_line = ok(r#"(["-1","2-"],[1,2])"#);
        let spaced = ok("\r\n\t ( [ \"-1\" ,\r\n \"2-\" ] ,\x0c[ 1 , 2 ]\r\n\r\n ) \r\n");
        assert_eq!(one_line, spaced);
        assert_eq!(rows(&one_line), ["-1", "2-"]);
    }

    #[test]
    fn a_leading_byte_order_mark_is_skipped_and_not_counted() {
        assert_eq!(ok("\u{feff}([\"-1\"],[1])"), ok("([\"-1\"],[1])"));
        assert_eq!(ok(&format!("\u{feff}{TEST03}")), ok(TEST03));
        // Errors on the first line count columns after the mark and show
        // the line without it.
        assert_eq!(
            err("\u{feff}([\"--\",\"-\"],[1])"),
            "t.cnf:1:8: row 2 has 1 cell, but row 1 has 2; every row must have the same length\n1 | ([\"--\",\"-\"],[1])\n  |        ^"
        );
        // Only at the very start: elsewhere it is a character like any other.
        assert!(
            err("([\"-1\"],\u{feff}[1])").contains("found '\u{feff}'"),
            "{}",
            err("([\"-1\"],\u{feff}[1])")
        );
        assert!(err(" \u{feff}([\"-1\"],[1])").contains("1:2:"));
    }

    #[test]
    fn white_space_is_exactly_haskells_is_space() {
        // Vertical tab, no-break space and the Unicode space separators are
        // white space for `read`...
        let g = ok("(\x0b[\u{a0}\"-1\"\u{3000}],\u{2003}[1]\u{1680})");
        assert_eq!(rows(&g), ["-1"]);
        // ...but the line and paragraph separators and NEL are not, although
        // Rust's `char::is_whitespace` says they are.
        assert_eq!(
            err("([\"-1\"],\u{2028}[1])"),
            "t.cnf:1:9: expected '[' opening the list of moves, found '\\u{2028}'\n1 | ([\"-1\"],\u{2028}[1])\n  |         ^"
        );
        assert!(
            err("(\u{2029}[\"-1\"],[1])")
                .starts_with("t.cnf:1:2: expected '[' opening the list of rows")
        );
        assert!(
            err("([\"-1\"],[1]\u{85})").starts_with("t.cnf:1:12: expected ')', found '\\u{85}'")
        );
    }

    #[test]
    fn redundant_parentheses_negative_signs_and_empty_lists() {
        let g = ok(r#"((( (["-1","2-"]) , ([(1),((2))]) )))"#);
        assert_eq!(rows(&g), ["-1", "2-"]);
        assert_eq!(g.moves, [1, 2]);
        // A sign, even apart from its digits, is read; validation rejects it.
        assert!(
            err(r#"(["-1","2-"],[1, - 1])"#)
                .starts_with("t.cnf:1:18: move 2 is -1, but the board has columns 1 to 2")
        );
        let g = ok(r#"((["-1","2-"]),[(1),((2))])"#);
        assert_eq!(g.moves, [1, 2]);
        let g = ok(r#"(([(("-1")),"2-"],[1]))"#);
        assert_eq!(rows(&g), ["-1", "2-"]);
        let g = ok(r#"(["-"],[])"#);
        assert!(g.moves.is_empty());
    }

    #[test]
    fn escapes_in_rows() {
        let g = ok(r#"(["\45\&1","\x32\&-"],[1])"#);
        assert_eq!(rows(&g), ["-1", "2-"]);
    }

    #[test]
    fn syntax_errors_give_line_column_expected_and_found() {
        assert_eq!(
            err("(\n[\"--\" \"--\"],[1])"),
            "t.cnf:2:7: expected ',' or ']' after a row, found '\"'\n2 | [\"--\" \"--\"],[1])\n  |       ^"
        );
        assert!(
            err("[\"-\"]").starts_with(
                "t.cnf:1:1: expected '(' opening the game ([rows], [moves]), found '['"
            )
        );
        assert!(
            err("([\"-\"],[1,x])")
                .starts_with("t.cnf:1:11: expected a move (a column number such as 3), found 'x'")
        );
        assert!(
            err("([\"-\"],[1])x")
                .starts_with("t.cnf:1:12: expected end of input after the game, found 'x'")
        );
        assert!(err("([\"-\"],[1]").starts_with("t.cnf:1:11: expected ')', found end of input"));
        assert!(
            err("([\"-\"],[1]))")
                .starts_with("t.cnf:1:12: expected end of input after the game, found ')'")
        );
        assert!(
            err("([\"-\"][1])")
                .starts_with("t.cnf:1:7: expected ',' between the rows and the moves, found '['")
        );
        assert!(
            err("([\"-],[1])").contains("expected '\"' to close the string, found end of input")
        );
        assert!(err("").starts_with("t.cnf:1:1: expected '(' opening the game"));
        // `-(5)` is not an integer for `read`.
        assert!(err("([\"-\"],[-(1)])").starts_with("t.cnf:1:10: expected a move"));
    }

    #[test]
    fn validation_problems_are_all_reported_with_places() {
        let src = "(\n[\"-X-\",\n\"--\",\n\"-.-\"],\n[1,4,0,-2])";
        let out = err(src);
        assert!(
            out.contains("t.cnf:2:4: row 1, column 2: 'X' is not a cell"),
            "{out}"
        );
        assert!(
            out.contains("t.cnf:3:1: row 2 has 2 cells, but row 1 has 3"),
            "{out}"
        );
        assert!(
            out.contains("t.cnf:4:3: row 3, column 2: '.' is not a cell"),
            "{out}"
        );
        // Moves are checked only against a valid board.
        assert!(!out.contains("move"), "{out}");

        let out = err("([\"---\"],\n[1,4,0,-2,3])");
        assert!(
            out.contains("t.cnf:2:4: move 2 is 4, but the board has columns 1 to 3"),
            "{out}"
        );
        assert!(out.contains("t.cnf:2:6: move 3 is 0,"), "{out}");
        assert!(out.contains("t.cnf:2:8: move 4 is -2,"), "{out}");
        assert_eq!(out.matches("\nt.cnf:").count() + 1, 3);
    }

    #[test]
    fn empty_board_shapes_are_rejected() {
        assert!(err("([],[1])").contains("the board has no rows"));
        assert!(err("([\"\"],[])").contains("row 1 is empty"));
    }

    #[test]
    fn overflowing_moves_are_errors() {
        let out = err("([\"---\"],[1,99999999999999999999999])");
        assert!(
            out.starts_with("t.cnf:1:13: move 2 is 99999999999999999999999, a number too large to be a column; a move is a column number from 1 to 3"),
            "{out}"
        );
        assert!(err("([\"-\"],[-9223372036854775808])").contains("move 1 is -9223372036854775808"));
    }

    #[test]
    fn render_reads_back() {
        let g = ok(TEST03);
        assert_eq!(render_cnf(&g.board, &g.moves), TEST03);
    }

    #[test]
    fn deep_parentheses_do_not_overflow_the_stack() {
        let n = 200_000;
        let src = format!("{}[\"-\"],[1]{}", "(".repeat(n), ")".repeat(n));
        assert_eq!(ok(&src).moves, [1]);
        let src = format!("([\"-\"],[{}1{}])", "(".repeat(n), ")".repeat(n));
        assert_eq!(ok(&src).moves, [1]);
    }
}
