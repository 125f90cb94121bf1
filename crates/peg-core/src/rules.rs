//! The `+` board and the four functions of the assignment (spec §1, §3).

use thiserror::Error;

use crate::types::{Board, Color, Move, Peg, Position, State};

/// The error of `createBoard` on a position off the `+`; its text is exactly the assignment's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
#[error("The position is not valid.")]
pub struct InvalidPosition;

/// The error of `showPossibleNextStates` on a board with no black peg; its text is exactly the assignment's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
#[error("No Possible States Exist.")]
pub struct NoPossibleStates;

/// The number of holes on the `+` board.
pub const BOARD_SIZE: usize = 33;

/// The 33 positions of the `+` board in canonical order: by column, then by row, both ascending.
pub fn all_positions() -> Vec<Position> {
    let mut out = Vec::with_capacity(BOARD_SIZE);
    for x in -3..=3 {
        for y in -3..=3 {
            let p = Position::new(x, y);
            if p.is_on_board() {
                out.push(p);
            }
        }
    }
    out
}

/// The on-board neighbours of `pos` (up, down, left, right), in canonical order.
pub fn neighbours(pos: Position) -> Vec<Position> {
    // Canonical order is by column then row, so: left, down, up, right.
    [(-1, 0), (0, -1), (0, 1), (1, 0)]
        .into_iter()
        .filter_map(|(dx, dy)| {
            let p = Position::new(pos.x.checked_add(dx)?, pos.y.checked_add(dy)?);
            p.is_on_board().then_some(p)
        })
        .collect()
}

/// `createBoard`: the 33 pegs in canonical order, all black but a white peg at `pos`.
pub fn create_board(pos: Position) -> Result<Board, InvalidPosition> {
    if !pos.is_on_board() {
        return Err(InvalidPosition);
    }
    let pegs = all_positions()
        .into_iter()
        .map(|p| Peg::new(p, if p == pos { Color::W } else { Color::B }))
        .collect();
    Ok(Board::new(pegs).expect("the canonical board is valid"))
}

/// Why a move is not valid on a board; the text says it in words for the game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum MoveRefusal {
    /// The position is not one of the 33 holes.
    #[error("{0} is not on the board")]
    OffBoard(Position),
    /// The board holds no peg at the position (only on partial boards).
    #[error("the board holds no peg at {0}")]
    NoPeg(Position),
    /// The peg there is white already.
    #[error("the peg at {0} is already white")]
    AlreadyWhite(Position),
    /// The peg there has no white neighbour.
    #[error("the peg at {0} has no white neighbour")]
    NoWhiteNeighbour(Position),
}

/// Checks a move, saying why it is refused if it is not valid.
pub fn check_move(mv: Move, board: &Board) -> Result<(), MoveRefusal> {
    let pos = mv.0;
    if !pos.is_on_board() {
        return Err(MoveRefusal::OffBoard(pos));
    }
    match board.color_at(pos) {
        None => return Err(MoveRefusal::NoPeg(pos)),
        Some(Color::W) => return Err(MoveRefusal::AlreadyWhite(pos)),
        Some(Color::B) => {}
    }
    let has_white_neighbour = board
        .pegs()
        .iter()
        .any(|p| p.color == Color::W && p.pos.is_neighbour(pos));
    if has_white_neighbour {
        Ok(())
    } else {
        Err(MoveRefusal::NoWhiteNeighbour(pos))
    }
}

/// `isValidMove`: the move's position is on the `+`, holds a black peg, and has a white neighbouring peg.
pub fn is_valid_move(mv: Move, board: &Board) -> bool {
    check_move(mv, board).is_ok()
}

/// `isGoal`: no peg on the board is black.
pub fn is_goal(board: &Board) -> bool {
    board.pegs().iter().all(|p| p.color == Color::W)
}

/// The valid moves of a board, in the order of its list.
pub fn valid_moves(board: &Board) -> Vec<Move> {
    board
        .pegs()
        .iter()
        .map(|p| Move(p.pos))
        .filter(|&m| is_valid_move(m, board))
        .collect()
}

/// `showPossibleNextStates`: one state per valid move, in list order; an error if no peg is black.
pub fn show_possible_next_states(board: &Board) -> Result<Vec<State>, NoPossibleStates> {
    if is_goal(board) {
        return Err(NoPossibleStates);
    }
    Ok(valid_moves(board)
        .into_iter()
        .map(|mv| State {
            mv,
            board: board.with_white(mv.0),
        })
        .collect())
}
