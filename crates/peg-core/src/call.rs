//! One call of one of the assignment's four functions, as a grading case.
//!
//! A case is written as the call a person types at the interpreter's
//! prompt: `createBoard (1,1)`, `isValidMove (M (1,0)) [Peg (0,0) W,Peg (1,0) B]`,
//! `isGoal [Peg (0,0) W]`, `showPossibleNextStates [...]`. [`parse_call`]
//! reads that text with the rules of [`crate::parse`] (any white space,
//! redundant parentheses; an argument that is a constructor application in
//! parentheses, as Haskell requires). Boards in calls must be boards (spec
//! §5): a peg off the `+` or a position twice is a located error.
//!
//! For each call, [`Call::expected`] is what a correct program's driver
//! prints (the value's `show`, or `error` and the assignment's message as a
//! Haskell string literal), and [`Call::driver_input`] what that driver
//! reads: the arguments as one value in `show` syntax.

use std::fmt;

use haskell_text::{
    Res, SyntaxError, close_parens, fail, is_ident_char, open_parens, show_string, ws,
};
use nom::Parser;
use nom::bytes::complete::take_while1;

use crate::parse::{ParseError, board_raw, check_board, fail_with, mv, position, run};
use crate::rules::{create_board, is_goal, is_valid_move, show_possible_next_states};
use crate::types::{Board, Move, Peg, Position, show_bool, show_list};

/// One of the four functions of the assignment.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Function {
    /// `createBoard :: Position -> Board`.
    CreateBoard,
    /// `isValidMove :: Move -> Board -> Bool`.
    IsValidMove,
    /// `isGoal :: Board -> Bool`.
    IsGoal,
    /// `showPossibleNextStates :: Board -> [State]`.
    ShowPossibleNextStates,
}

impl Function {
    /// The four functions in the assignment's order.
    pub const ALL: [Function; 4] = [
        Function::CreateBoard,
        Function::IsValidMove,
        Function::IsGoal,
        Function::ShowPossibleNextStates,
    ];

    /// The function's Haskell name, e.g. `createBoard`.
    pub const fn name(self) -> &'static str {
        match self {
            Function::CreateBoard => "createBoard",
            Function::IsValidMove => "isValidMove",
            Function::IsGoal => "isGoal",
            Function::ShowPossibleNextStates => "showPossibleNextStates",
        }
    }

    /// The function of the Haskell name `name`, if it is one of the four.
    pub fn from_name(name: &str) -> Option<Function> {
        Function::ALL.into_iter().find(|f| f.name() == name)
    }

    /// The function's type as the assignment gives it, e.g. `Position -> Board`.
    pub const fn signature(self) -> &'static str {
        match self {
            Function::CreateBoard => "Position -> Board",
            Function::IsValidMove => "Move -> Board -> Bool",
            Function::IsGoal => "Board -> Bool",
            Function::ShowPossibleNextStates => "Board -> [State]",
        }
    }
}

impl fmt::Display for Function {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One call of one function on its arguments: a grading case.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Call {
    /// `createBoard POSITION` (any position: off the board is the error case).
    CreateBoard(Position),
    /// `isValidMove (M POSITION) BOARD` (any position).
    IsValidMove(Move, Board),
    /// `isGoal BOARD`.
    IsGoal(Board),
    /// `showPossibleNextStates BOARD`.
    ShowPossibleNextStates(Board),
}

impl Call {
    /// The function called.
    pub const fn function(&self) -> Function {
        match self {
            Call::CreateBoard(_) => Function::CreateBoard,
            Call::IsValidMove(..) => Function::IsValidMove,
            Call::IsGoal(_) => Function::IsGoal,
            Call::ShowPossibleNextStates(_) => Function::ShowPossibleNextStates,
        }
    }

    /// What a correct program's driver prints for this call: the result's
    /// `show` and a newline, or, for the assignment's two errors, `error `,
    /// the message as a Haskell string literal and a newline.
    pub fn expected(&self) -> String {
        match self {
            Call::CreateBoard(pos) => match create_board(*pos) {
                Ok(board) => format!("{board}\n"),
                Err(e) => error_line(&e.to_string()),
            },
            Call::IsValidMove(m, board) => format!("{}\n", show_bool(is_valid_move(*m, board))),
            Call::IsGoal(board) => format!("{}\n", show_bool(is_goal(board))),
            Call::ShowPossibleNextStates(board) => match show_possible_next_states(board) {
                Ok(states) => format!("{}\n", show_list(&states)),
                Err(e) => error_line(&e.to_string()),
            },
        }
    }

    /// What the driver reads on standard input: the arguments as one
    /// Haskell value in `show` syntax (a pair for `isValidMove`) and a newline.
    pub fn driver_input(&self) -> String {
        match self {
            Call::CreateBoard(pos) => format!("{pos}\n"),
            Call::IsValidMove(m, board) => format!("({m},{board})\n"),
            Call::IsGoal(board) | Call::ShowPossibleNextStates(board) => format!("{board}\n"),
        }
    }
}

/// The driver's line for an `ErrorCall` with `message`.
fn error_line(message: &str) -> String {
    format!("error {}\n", show_string(message))
}

impl fmt::Display for Call {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = self.function().name();
        match self {
            Call::CreateBoard(pos) => write!(f, "{name} {pos}"),
            Call::IsValidMove(m, board) => write!(f, "{name} ({m}) {board}"),
            Call::IsGoal(board) | Call::ShowPossibleNextStates(board) => {
                write!(f, "{name} {board}")
            }
        }
    }
}

/// What is listed when the text does not start with a function's name.
const FUNCTION_NAMES: &str = "createBoard, isValidMove, isGoal or showPossibleNextStates";

/// The most characters of an unknown function's name a message shows.
const SHOWN_NAME: usize = 40;

/// A call before its boards are checked: each board's pegs with where they start.
enum RawCall<'a> {
    CreateBoard(Position),
    IsValidMove(Move, Vec<(Peg, &'a str)>),
    IsGoal(Vec<(Peg, &'a str)>),
    ShowPossibleNextStates(Vec<(Peg, &'a str)>),
}

/// `name := identifier`, one of the four functions' names.
fn function_name(i: &str) -> Res<'_, Function> {
    let (i, ()) = ws(i)?;
    let word: Res<'_, &str> = take_while1(is_ident_char).parse(i);
    let Ok((rest, word)) = word else {
        return fail(
            i,
            "a function name (createBoard, isValidMove, isGoal or showPossibleNextStates)",
        );
    };
    match Function::from_name(word) {
        Some(f) => Ok((rest, f)),
        None => {
            // A long word is shown by its start, as `describe_found` shows one.
            let shown: String = word.chars().take(SHOWN_NAME).collect();
            let more = if shown.len() < word.len() { "…" } else { "" };
            fail_with(SyntaxError::message(
                i,
                format!("`{shown}{more}` is not one of the functions: give {FUNCTION_NAMES}"),
            ))
        }
    }
}

/// `call := '('* name arguments ')'*`, the arguments in argument position
/// (a move in parentheses, a position as its tuple, a board as its list).
fn raw_call(i: &str) -> Res<'_, RawCall<'_>> {
    let (i, ()) = ws(i)?;
    let (i, n) = open_parens(i)?;
    let (i, function) = function_name(i)?;
    let (i, call) = match function {
        Function::CreateBoard => {
            let (i, pos) = position(i)?;
            (i, RawCall::CreateBoard(pos))
        }
        Function::IsValidMove => {
            let (i, m) = mv(i, true)?;
            let (i, board) = board_raw(i)?;
            (i, RawCall::IsValidMove(m, board))
        }
        Function::IsGoal => {
            let (i, board) = board_raw(i)?;
            (i, RawCall::IsGoal(board))
        }
        Function::ShowPossibleNextStates => {
            let (i, board) = board_raw(i)?;
            (i, RawCall::ShowPossibleNextStates(board))
        }
    };
    let (i, ()) = ws(i)?;
    let (i, ()) = close_parens(i, n)?;
    Ok((i, call))
}

/// Reads a call such as `isValidMove (M (1,0)) [Peg (0,0) W,Peg (1,0) B]`,
/// with any white space `read` allows and every board checked.
pub fn parse_call(text: &str) -> Result<Call, ParseError> {
    let raw = run(
        text,
        "a call (createBoard (x,y), isValidMove (M (x,y)) [...], isGoal [...] or showPossibleNextStates [...])",
        raw_call,
    )?;
    Ok(match raw {
        RawCall::CreateBoard(pos) => Call::CreateBoard(pos),
        RawCall::IsValidMove(m, b) => Call::IsValidMove(m, check_board(text, b)?),
        RawCall::IsGoal(b) => Call::IsGoal(check_board(text, b)?),
        RawCall::ShowPossibleNextStates(b) => Call::ShowPossibleNextStates(check_board(text, b)?),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Color;

    /// `createBoard (1,1)` by hand from spec §1: the 33 holes by column then
    /// row, all `B` but `(1,1)`.
    const BOARD_1_1: &str = "[Peg (-3,-1) B,Peg (-3,0) B,Peg (-3,1) B,\
Peg (-2,-1) B,Peg (-2,0) B,Peg (-2,1) B,\
Peg (-1,-3) B,Peg (-1,-2) B,Peg (-1,-1) B,Peg (-1,0) B,Peg (-1,1) B,Peg (-1,2) B,Peg (-1,3) B,\
Peg (0,-3) B,Peg (0,-2) B,Peg (0,-1) B,Peg (0,0) B,Peg (0,1) B,Peg (0,2) B,Peg (0,3) B,\
Peg (1,-3) B,Peg (1,-2) B,Peg (1,-1) B,Peg (1,0) B,Peg (1,1) W,Peg (1,2) B,Peg (1,3) B,\
Peg (2,-1) B,Peg (2,0) B,Peg (2,1) B,\
Peg (3,-1) B,Peg (3,0) B,Peg (3,1) B]";

    fn board(pegs: &[((i64, i64), Color)]) -> Board {
        Board::new(
            pegs.iter()
                .map(|&((x, y), c)| Peg::new(Position::new(x, y), c))
                .collect(),
        )
        .unwrap()
    }

    #[track_caller]
    fn check(text: &str, call: Call, canonical: &str, input: &str, expected: &str) {
        let got = parse_call(text).unwrap_or_else(|e| panic!("{text:?}: {e}"));
        assert_eq!(got, call, "{text:?}");
        assert_eq!(got.to_string(), canonical);
        assert_eq!(got.driver_input(), input);
        assert_eq!(got.expected(), expected);
        assert_eq!(
            parse_call(canonical).unwrap(),
            got,
            "the canonical text reads back"
        );
    }

    #[track_caller]
    fn refused(text: &str, line: usize, column: usize, message: &str) {
        let e = parse_call(text).expect_err(text);
        assert_eq!((e.line, e.column), (line, column), "{text:?}: {e}");
        assert!(e.message.contains(message), "{text:?}: {e}");
    }

    #[test]
    fn the_functions_in_the_assignments_order() {
        let names: Vec<&str> = Function::ALL.iter().map(|f| f.name()).collect();
        assert_eq!(
            names,
            [
                "createBoard",
                "isValidMove",
                "isGoal",
                "showPossibleNextStates"
            ]
        );
        assert_eq!(Function::from_name("isGoal"), Some(Function::IsGoal));
        assert_eq!(Function::from_name("isgoal"), None);
    }

    #[test]
    fn create_board_calls() {
        check(
            "createBoard (1,1)",
            Call::CreateBoard(Position::new(1, 1)),
            "createBoard (1,1)",
            "(1,1)\n",
            &format!("{BOARD_1_1}\n"),
        );
        check(
            "  createBoard(-2, 2)\n",
            Call::CreateBoard(Position::new(-2, 2)),
            "createBoard (-2,2)",
            "(-2,2)\n",
            "error \"The position is not valid.\"\n",
        );
        check(
            "(createBoard ((- 3),(0)))",
            Call::CreateBoard(Position::new(-3, 0)),
            "createBoard (-3,0)",
            "(-3,0)\n",
            &format!(
                "{}\n",
                BOARD_1_1
                    .replace("(1,1) W", "(1,1) B")
                    .replace("(-3,0) B", "(-3,0) W")
            ),
        );
    }

    #[test]
    fn is_valid_move_calls() {
        let b = board(&[((0, 0), Color::W), ((1, 0), Color::B)]);
        check(
            "isValidMove (M (1,0)) [Peg (0,0) W,Peg (1,0) B]",
            Call::IsValidMove(Move(Position::new(1, 0)), b.clone()),
            "isValidMove (M (1,0)) [Peg (0,0) W,Peg (1,0) B]",
            "(M (1,0),[Peg (0,0) W,Peg (1,0) B])\n",
            "True\n",
        );
        check(
            "isValidMove\n  ((M (0,0)))\n  [ Peg (0,0) W ,\n    Peg (1,0) B ]",
            Call::IsValidMove(Move(Position::new(0, 0)), b.clone()),
            "isValidMove (M (0,0)) [Peg (0,0) W,Peg (1,0) B]",
            "(M (0,0),[Peg (0,0) W,Peg (1,0) B])\n",
            "False\n",
        );
        // Off the board: False, not an error (spec §3).
        check(
            "isValidMove (M (5,5)) [Peg (0,0) W]",
            Call::IsValidMove(Move(Position::new(5, 5)), board(&[((0, 0), Color::W)])),
            "isValidMove (M (5,5)) [Peg (0,0) W]",
            "(M (5,5),[Peg (0,0) W])\n",
            "False\n",
        );
    }

    #[test]
    fn is_goal_and_next_states_calls() {
        check(
            "isGoal []",
            Call::IsGoal(board(&[])),
            "isGoal []",
            "[]\n",
            "True\n",
        );
        check(
            "isGoal [Peg (0,0) W,Peg (1,0) B]",
            Call::IsGoal(board(&[((0, 0), Color::W), ((1, 0), Color::B)])),
            "isGoal [Peg (0,0) W,Peg (1,0) B]",
            "[Peg (0,0) W,Peg (1,0) B]\n",
            "False\n",
        );
        check(
            "showPossibleNextStates [Peg (0,0) W,Peg (1,0) B]",
            Call::ShowPossibleNextStates(board(&[((0, 0), Color::W), ((1, 0), Color::B)])),
            "showPossibleNextStates [Peg (0,0) W,Peg (1,0) B]",
            "[Peg (0,0) W,Peg (1,0) B]\n",
            "[S (M (1,0)) [Peg (0,0) W,Peg (1,0) W]]\n",
        );
        check(
            "showPossibleNextStates [Peg (0,0) W,Peg (1,0) W]",
            Call::ShowPossibleNextStates(board(&[((0, 0), Color::W), ((1, 0), Color::W)])),
            "showPossibleNextStates [Peg (0,0) W,Peg (1,0) W]",
            "[Peg (0,0) W,Peg (1,0) W]\n",
            "error \"No Possible States Exist.\"\n",
        );
        // A black peg without a white neighbour: no state, no error.
        check(
            "showPossibleNextStates [Peg (0,0) W,Peg (2,0) B]",
            Call::ShowPossibleNextStates(board(&[((0, 0), Color::W), ((2, 0), Color::B)])),
            "showPossibleNextStates [Peg (0,0) W,Peg (2,0) B]",
            "[Peg (0,0) W,Peg (2,0) B]\n",
            "[]\n",
        );
    }

    #[test]
    fn bad_calls_are_located() {
        refused(
            "creatBoard (1,1)",
            1,
            1,
            "`creatBoard` is not one of the functions: give createBoard, isValidMove, isGoal or showPossibleNextStates",
        );
        refused("[Peg (0,0) W]", 1, 1, "expected a function name");
        let long = format!("{} []", "x".repeat(1000));
        refused(&long, 1, 1, &format!("`{}…` is not one", "x".repeat(40)));
        refused("", 1, 1, "expected a function name");
        refused("isValidMove M (1,0) [Peg (0,0) W]", 1, 13, "expected '('");
        refused("createBoard 1,1", 1, 13, "'(' starting a position");
        refused(
            "isGoal [Peg (0,0) W] [Peg (1,0) B]",
            1,
            22,
            "expected end of input",
        );
        refused("isGoal", 1, 7, "expected '['");
        refused("(isGoal []", 1, 11, "expected ')'");
        refused(
            "isGoal [Peg (0,0) W,\n        Peg (0,0) B]",
            2,
            9,
            "not a board: peg `Peg (0,0) B` (number 2 in the list) is on the same position",
        );
        refused(
            "showPossibleNextStates [Peg (2,2) W]",
            1,
            25,
            "not a board: peg `Peg (2,2) W` (number 1 in the list) is not on the board",
        );
        refused(
            "isValidMove (M (0,0)) [Peg (0,0) W,Peg (3,3) B]",
            1,
            36,
            "not a board",
        );
        let e = parse_call("isGoal x").unwrap_err();
        assert!(e.message.starts_with("cannot read a call ("), "{e}");
    }
}
