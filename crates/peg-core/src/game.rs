//! The playable game: a board with history, and drawing it as text.

use std::fmt::Write as _;

use owo_colors::OwoColorize;

use crate::rules::{InvalidPosition, MoveRefusal, check_move, create_board, is_goal, valid_moves};
use crate::types::{Board, Color, Move, Position};

/// A game in progress: the board, the start and the moves made so far.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Game {
    start: Position,
    board: Board,
    history: Vec<Position>,
}

impl Game {
    /// A new game whose only white peg is at `start`.
    pub fn new(start: Position) -> Result<Self, InvalidPosition> {
        Ok(Self {
            start,
            board: create_board(start)?,
            history: Vec::new(),
        })
    }

    /// The starting white peg.
    pub fn start(&self) -> Position {
        self.start
    }

    /// The current board (canonical order).
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The positions flipped so far, in order.
    pub fn history(&self) -> &[Position] {
        &self.history
    }

    /// Flips the peg at `pos` if that is a valid move, else says why not.
    pub fn play(&mut self, pos: Position) -> Result<(), MoveRefusal> {
        check_move(Move(pos), &self.board)?;
        self.board = self.board.with_white(pos);
        self.history.push(pos);
        Ok(())
    }

    /// Takes back the last move, returning its position; `None` at the start.
    pub fn undo(&mut self) -> Option<Position> {
        let pos = self.history.pop()?;
        self.board = self.board_from_history();
        Some(pos)
    }

    fn board_from_history(&self) -> Board {
        let mut b = create_board(self.start).expect("start was valid");
        for &p in &self.history {
            b = b.with_white(p);
        }
        b
    }

    /// The valid moves now, in canonical order.
    pub fn valid_moves(&self) -> Vec<Move> {
        valid_moves(&self.board)
    }

    /// A move to suggest: every valid move keeps the game winnable, so the
    /// one closest to the start (then first in canonical order) is offered,
    /// which grows the white region evenly.
    pub fn hint(&self) -> Option<Move> {
        let s = self.start;
        self.valid_moves()
            .into_iter()
            .min_by_key(|m| m.0.x.abs_diff(s.x) + m.0.y.abs_diff(s.y))
    }

    /// Whether every peg is white.
    pub fn is_won(&self) -> bool {
        is_goal(&self.board)
    }
}

/// Draws a board as the `+` with column numbers above and row numbers on the
/// left (row 3 at the top), `W` for white and `B` for black pegs, `.` for a
/// hole the board has no peg for; with `color`, pegs are painted with ANSI
/// colours (white peg: dark letter on white; black peg: light letter on black).
pub fn render_board(board: &Board, color: bool) -> String {
    render(board, color, &[])
}

/// Draws a game's board as [`render_board`] does; with `color`, the black
/// pegs that are valid moves now are painted yellow on black, to stand out.
pub fn render_game(game: &Game, color: bool) -> String {
    let targets: Vec<Position> = game.valid_moves().into_iter().map(|m| m.0).collect();
    render(game.board(), color, &targets)
}

fn render(board: &Board, color: bool, targets: &[Position]) -> String {
    let mut out = String::new();
    let mut header = String::from("    ");
    for x in -3..=3 {
        let _ = write!(header, "{x:^3}");
    }
    out.push_str(header.trim_end());
    out.push('\n');
    for y in (-3..=3).rev() {
        let _ = write!(out, "{y:>3} ");
        let mut line = String::new();
        for x in -3..=3 {
            let pos = Position::new(x, y);
            if !pos.is_on_board() {
                line.push_str("   ");
                continue;
            }
            let cell = match board.color_at(pos) {
                Some(Color::W) if color => " W ".black().on_white().bold().to_string(),
                Some(Color::B) if color && targets.contains(&pos) => {
                    " B ".bright_yellow().on_black().bold().to_string()
                }
                Some(Color::B) if color => " B ".bright_white().on_black().bold().to_string(),
                Some(Color::W) => " W ".to_string(),
                Some(Color::B) => " B ".to_string(),
                None => " . ".to_string(),
            };
            line.push_str(&cell);
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// The positions of `moves` separated by spaces, e.g. `(-1,0) (0,1)`.
pub fn list_positions(moves: &[Move]) -> String {
    moves
        .iter()
        .map(|m| m.0.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}
