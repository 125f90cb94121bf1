//! Two-player positions as bitboards, and the errors of building one.

use std::fmt;

use crate::board::{Board, Cell, Player};

/// The most bits a bitboard may use: `width · (height + 1)`.
pub const MAX_BITS: usize = 128;

/// A board size the solver works on: `width · (height + 1) ≤ 128`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Size {
    width: u32,
    height: u32,
}

/// Why a position cannot be built or played.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PositionError {
    /// Occurs when the board's bitboard would need more than 128 bits.
    #[error(
        "a {width}x{height} board needs {} bits ({width} x ({height} + 1)); the solver handles boards of at most {MAX_BITS} (7x6 needs 49)",
        width * (height + 1)
    )]
    TooBig {
        /// Columns.
        width: usize,
        /// Rows.
        height: usize,
    },
    /// Occurs when the width or height is 0.
    #[error("a board needs at least one column and one row, not {width}x{height}")]
    Empty {
        /// Columns.
        width: usize,
        /// Rows.
        height: usize,
    },
    /// Occurs when a move is not a column digit of the board.
    #[error("move {index}: {found:?} is not a column; a move is a digit 1 to {width}")]
    NotAColumn {
        /// 1-based index of the move.
        index: usize,
        /// What was found.
        found: char,
        /// The board's width.
        width: usize,
    },
    /// Occurs when a move goes into a full column.
    #[error("move {index}: column {column} is full")]
    ColumnFull {
        /// 1-based index of the move.
        index: usize,
        /// 1-based column.
        column: usize,
    },
    /// Occurs when a move comes after a four in a row.
    #[error("move {index}: the game was already won by move {won_at}")]
    AfterWin {
        /// 1-based index of the move.
        index: usize,
        /// 1-based index of the winning move.
        won_at: usize,
    },
    /// Occurs when a board holds something the two-player solver cannot
    /// take: another player's piece, or a piece above an empty cell.
    #[error("{0}")]
    NotTwoPlayer(String),
}

impl Size {
    /// The size `width` × `height`, if both are at least 1 and the bitboard fits.
    pub fn new(width: usize, height: usize) -> Result<Size, PositionError> {
        if width == 0 || height == 0 {
            return Err(PositionError::Empty { width, height });
        }
        match width.checked_mul(height + 1) {
            Some(bits) if bits <= MAX_BITS => Ok(Size {
                width: width as u32,
                height: height as u32,
            }),
            _ => Err(PositionError::TooBig { width, height }),
        }
    }

    /// The standard 7 × 6 board.
    pub const STANDARD: Size = Size {
        width: 7,
        height: 6,
    };

    /// Columns.
    pub fn width(self) -> usize {
        self.width as usize
    }

    /// Rows.
    pub fn height(self) -> usize {
        self.height as usize
    }

    /// Cells: `width · height`.
    pub fn area(self) -> usize {
        self.width() * self.height()
    }

    /// Bits of the bitboard: `width · (height + 1)`.
    pub fn bits(self) -> usize {
        self.width() * (self.height() + 1)
    }

    /// The bit of 0-based column `c`, row `r` counted from the bottom.
    pub(crate) fn bit(self, c: u32, r: u32) -> u128 {
        1u128 << (c * (self.height + 1) + r)
    }

    pub(crate) fn column_mask(self, c: u32) -> u128 {
        ((1u128 << self.height) - 1) << (c * (self.height + 1))
    }

    pub(crate) fn bottom_mask(self) -> u128 {
        (0..self.width).map(|c| self.bit(c, 0)).sum()
    }

    pub(crate) fn board_mask(self) -> u128 {
        (0..self.width).map(|c| self.column_mask(c)).sum()
    }
}

/// A position of a two-player game: the side to move's stones and every
/// stone, one bit per cell, column after column from the left, each column
/// from the bottom with one spare bit on top (the layout of the fast
/// solvers, so a column's next cell is `mask + bottom`).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    size: Size,
    current: u128,
    mask: u128,
    /// Whether the side to move is the game's first player.
    first_to_move: bool,
    /// The 1-based index of the move that made a four, if one did.
    won_at: Option<usize>,
    moves: usize,
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Position")
            .field("size", &self.size)
            .field("rows", &self.rows())
            .field("first_to_move", &self.first_to_move)
            .finish()
    }
}

impl Position {
    /// The empty board of this size, the first player to move.
    pub fn new(size: Size) -> Position {
        Position {
            size,
            current: 0,
            mask: 0,
            first_to_move: true,
            won_at: None,
            moves: 0,
        }
    }

    /// The position after `moves`, column digits `1`–`9` from the left,
    /// first player first (the notation of Pascal Pons's benchmark sets).
    ///
    /// A move into a full column, after a four, or that is not a column of
    /// the board is an error naming the move's 1-based index.
    pub fn from_moves(size: Size, moves: &str) -> Result<Position, PositionError> {
        let mut p = Position::new(size);
        for (i, ch) in moves.chars().enumerate() {
            let index = i + 1;
            let column = ch
                .to_digit(10)
                .map(|d| d as usize)
                .filter(|&d| (1..=size.width().min(9)).contains(&d))
                .ok_or(PositionError::NotAColumn {
                    index,
                    found: ch,
                    width: size.width().min(9),
                })?;
            p.try_play(column - 1)
                .map_err(|e| e.with_index(index, column))?;
        }
        Ok(p)
    }

    /// The position of a connect-core [`Board`] with `to_move` (player 1 or
    /// 2) to move: every piece must be player 1's or 2's and no piece may
    /// float above an empty cell. The board must hold no four.
    pub fn from_board(board: &Board, to_move: Player) -> Result<Position, PositionError> {
        let size = Size::new(board.width(), board.height())?;
        let h = board.height();
        let (mut first, mut second, mut mask) = (0u128, 0u128, 0u128);
        let mut moves = 0;
        for c in 0..board.width() {
            let mut seen_empty = false;
            for r in (0..h).rev() {
                match board.cell(r, c) {
                    Cell::Empty => seen_empty = true,
                    Cell::Piece(p) if p.number() <= 2 => {
                        if seen_empty {
                            return Err(PositionError::NotTwoPlayer(format!(
                                "row {}, column {}: a piece above an empty cell",
                                r + 1,
                                c + 1
                            )));
                        }
                        let bit = size.bit(c as u32, (h - 1 - r) as u32);
                        mask |= bit;
                        moves += 1;
                        if p.number() == 1 {
                            first |= bit;
                        } else {
                            second |= bit;
                        }
                    }
                    Cell::Piece(p) => {
                        return Err(PositionError::NotTwoPlayer(format!(
                            "row {}, column {}: a piece of player {p}; the solver takes two players",
                            r + 1,
                            c + 1
                        )));
                    }
                }
            }
        }
        let first_to_move = to_move.number() == 1;
        let current = if first_to_move { first } else { second };
        let p = Position {
            size,
            current,
            mask,
            first_to_move,
            won_at: None,
            moves,
        };
        if has_four_u128(size, first) || has_four_u128(size, second) {
            return Err(PositionError::NotTwoPlayer(
                "the board already has a four".to_string(),
            ));
        }
        Ok(p)
    }

    /// The board size.
    pub fn size(&self) -> Size {
        self.size
    }

    /// Stones on the board.
    pub fn moves(&self) -> usize {
        self.moves
    }

    /// Empty cells.
    pub fn empty_cells(&self) -> usize {
        self.size.area() - self.moves
    }

    /// Whether the side to move is the game's first player.
    pub fn first_to_move(&self) -> bool {
        self.first_to_move
    }

    /// The 1-based index of the move that made a four, if the game is won.
    pub fn won_at(&self) -> Option<usize> {
        self.won_at
    }

    /// Whether the game is over: won, or the board full.
    pub fn is_over(&self) -> bool {
        self.won_at.is_some() || self.moves == self.size.area()
    }

    /// The side to move's stones and every stone, as bit sets.
    pub(crate) fn bits(&self) -> (u128, u128) {
        (self.current, self.mask)
    }

    /// A key shared by this position and its mirror image, and by every
    /// order of moves that reaches either: the smaller of the two images'
    /// (stones of the side to move, every stone).
    pub(crate) fn symmetric_key(&self) -> (u128, u128) {
        let mirror = |bits: u128| {
            let h1 = self.size.height + 1;
            let column = (1u128 << h1) - 1;
            (0..self.size.width).fold(0u128, |out, c| {
                let bits = (bits >> (c * h1)) & column;
                out | bits << ((self.size.width - 1 - c) * h1)
            })
        };
        let plain = (self.mask, self.current);
        let mirrored = (mirror(self.mask), mirror(self.current));
        let (mask, current) = plain.min(mirrored);
        (current, mask)
    }

    /// Whether 0-based `column` has room.
    pub fn can_play(&self, column: usize) -> bool {
        column < self.size.width()
            && self.mask & self.size.bit(column as u32, self.size.height - 1) == 0
    }

    /// Whether the side to move makes a four by playing 0-based `column`.
    pub fn is_winning_move(&self, column: usize) -> bool {
        if !self.can_play(column) {
            return false;
        }
        let mv = self.next_cell(column);
        has_four_u128(self.size, self.current | mv)
    }

    fn next_cell(&self, column: usize) -> u128 {
        (self.mask + self.size.bit(column as u32, 0)) & self.size.column_mask(column as u32)
    }

    /// Plays 0-based `column` for the side to move.
    pub fn try_play(&mut self, column: usize) -> Result<(), PositionError> {
        if let Some(won_at) = self.won_at {
            return Err(PositionError::AfterWin {
                index: self.moves + 1,
                won_at,
            });
        }
        if !self.can_play(column) {
            return Err(PositionError::ColumnFull {
                index: self.moves + 1,
                column: column + 1,
            });
        }
        let win = self.is_winning_move(column);
        let mv = self.next_cell(column);
        self.current ^= self.mask;
        self.mask |= mv;
        self.moves += 1;
        self.first_to_move = !self.first_to_move;
        if win {
            self.won_at = Some(self.moves);
        }
        Ok(())
    }

    /// The rows top to bottom as connect-core cells: `1` the first player, `2` the second.
    pub fn rows(&self) -> Vec<String> {
        let first = if self.first_to_move {
            self.current
        } else {
            self.current ^ self.mask
        };
        (0..self.size.height)
            .rev()
            .map(|r| {
                (0..self.size.width)
                    .map(|c| {
                        let bit = self.size.bit(c, r);
                        if self.mask & bit == 0 {
                            '-'
                        } else if first & bit != 0 {
                            '1'
                        } else {
                            '2'
                        }
                    })
                    .collect()
            })
            .collect()
    }

    /// This position as a connect-core [`Board`] (players 1 and 2).
    pub fn to_board(&self) -> Board {
        Board::from_rows(self.rows()).expect("rows of a valid size hold only '-', '1' and '2'")
    }
}

impl PositionError {
    /// The error with the move index and column a caller knows.
    fn with_index(self, index: usize, column: usize) -> PositionError {
        match self {
            PositionError::ColumnFull { .. } => PositionError::ColumnFull { index, column },
            PositionError::AfterWin { won_at, .. } => PositionError::AfterWin { index, won_at },
            e => e,
        }
    }
}

/// Whether `stones` hold four in a row on a board of this size.
pub(crate) fn has_four_u128(size: Size, stones: u128) -> bool {
    let h1 = size.height() as u32 + 1;
    [1, h1, h1 - 1, h1 + 1].into_iter().any(|d| {
        let m = stones & stones.checked_shr(d).unwrap_or(0);
        m & m.checked_shr(2 * d).unwrap_or(0) != 0
    })
}
