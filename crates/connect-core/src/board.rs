//! The board: a validated grid of cells, dropping pieces, and four-in-a-row checks.

use std::fmt;

/// A player, numbered 1 to 35 and written `1`–`9`, then `a`–`z`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Player(u8);

impl Player {
    /// The highest player number a board can hold (token `z`).
    pub const MAX: u8 = 35;

    /// The player with this number, if it lies in `1..=35`.
    pub fn new(number: u8) -> Option<Player> {
        (1..=Self::MAX).contains(&number).then_some(Player(number))
    }

    /// The player written as this board character (`1`–`9`, `a`–`z`).
    pub fn from_token(token: char) -> Option<Player> {
        match token {
            '1'..='9' => Some(Player(token as u8 - b'0')),
            'a'..='z' => Some(Player(token as u8 - b'a' + 10)),
            _ => None,
        }
    }

    /// The player's number, 1 to 35.
    pub fn number(self) -> u8 {
        self.0
    }

    /// The board character for this player.
    pub fn token(self) -> char {
        if self.0 <= 9 {
            char::from(b'0' + self.0)
        } else {
            char::from(b'a' + self.0 - 10)
        }
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// One cell of the board: empty (`-`) or holding a player's piece.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Cell {
    /// No piece: written `-`.
    Empty,
    /// A piece of this player.
    Piece(Player),
}

impl Cell {
    /// The character that stands for this cell in a game file.
    pub fn token(self) -> char {
        match self {
            Cell::Empty => '-',
            Cell::Piece(p) => p.token(),
        }
    }

    /// The cell written as this character, if it is `-` or a player token.
    pub fn from_token(token: char) -> Option<Cell> {
        if token == '-' {
            Some(Cell::Empty)
        } else {
            Player::from_token(token).map(Cell::Piece)
        }
    }

    fn encode(self) -> u8 {
        match self {
            Cell::Empty => 0,
            Cell::Piece(p) => p.0,
        }
    }

    fn decode(raw: u8) -> Cell {
        if raw == 0 {
            Cell::Empty
        } else {
            Cell::Piece(Player(raw))
        }
    }
}

/// Why a grid of cells is not a valid board.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum BoardError {
    /// Occurs when the board has no rows.
    #[error("the board has no rows; it needs at least one row of at least one cell")]
    NoRows,
    /// Occurs when the first row has no cells.
    #[error("row 1 is empty; every row needs at least one cell")]
    EmptyRow,
    /// Occurs when a row's length differs from the first row's.
    #[error(
        "row {row} has {len} {}, but row 1 has {expected}; every row must have the same length",
        if *len == 1 { "cell" } else { "cells" }
    )]
    RaggedRow {
        /// 1-based row number.
        row: usize,
        /// The row's length.
        len: usize,
        /// The first row's length.
        expected: usize,
    },
    /// Occurs when a cell is not `-`, `1`–`9` or `a`–`z`.
    #[error(
        "row {row}, column {column}: {found:?} is not a cell; a cell is '-' (empty), '1'-'9' or 'a'-'z' (players 10-35)"
    )]
    BadCell {
        /// 1-based row number.
        row: usize,
        /// 1-based column number.
        column: usize,
        /// The offending character.
        found: char,
    },
}

/// Where a dropped piece ended up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Drop {
    /// The piece came to rest in this 0-based row.
    Landed {
        /// 0-based row, counted from the top.
        row: usize,
    },
    /// The column's top cell was occupied: nothing changed.
    ColumnFull,
}

/// A rectangular board of at least one row and one column.
///
/// Every value is valid: the only ways to build one check the shape and the
/// cells. Next to the cells it keeps, for every column, the row of the first
/// occupied cell seen from the top, so a drop is constant time whatever the
/// board's height.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Board {
    width: usize,
    height: usize,
    cells: Vec<u8>,
    /// Per column: 0-based row of the topmost occupied cell, or `height`.
    top: Vec<usize>,
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.row_strings()).finish()
    }
}

impl Board {
    /// A board built from rows of cell characters, listed top to bottom.
    pub fn from_rows<I, S>(rows: I) -> Result<Board, BoardError>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let mut width = None;
        let mut height = 0;
        let mut cells = Vec::new();
        for (r, row) in rows.into_iter().enumerate() {
            let row = row.as_ref();
            let before = cells.len();
            for (c, ch) in row.chars().enumerate() {
                let cell = Cell::from_token(ch).ok_or(BoardError::BadCell {
                    row: r + 1,
                    column: c + 1,
                    found: ch,
                })?;
                cells.push(cell.encode());
            }
            let len = cells.len() - before;
            match width {
                None if len == 0 => return Err(BoardError::EmptyRow),
                None => width = Some(len),
                Some(w) if w != len => {
                    return Err(BoardError::RaggedRow {
                        row: r + 1,
                        len,
                        expected: w,
                    });
                }
                Some(_) => {}
            }
            height += 1;
        }
        let width = width.ok_or(BoardError::NoRows)?;
        Ok(Board::from_valid_cells(width, height, cells))
    }

    /// A board of `height` rows of `width` empty cells, if both are at least 1.
    pub fn empty(width: usize, height: usize) -> Result<Board, BoardError> {
        if height == 0 {
            return Err(BoardError::NoRows);
        }
        if width == 0 {
            return Err(BoardError::EmptyRow);
        }
        Ok(Board::from_valid_cells(
            width,
            height,
            vec![0; width * height],
        ))
    }

    fn from_valid_cells(width: usize, height: usize, cells: Vec<u8>) -> Board {
        let mut top = vec![height; width];
        for (c, t) in top.iter_mut().enumerate() {
            *t = (0..height)
                .find(|&r| cells[r * width + c] != 0)
                .unwrap_or(height);
        }
        Board {
            width,
            height,
            cells,
            top,
        }
    }

    /// Number of columns.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Number of rows.
    pub fn height(&self) -> usize {
        self.height
    }

    /// The cell at 0-based `row` (from the top) and `column` (from the left).
    ///
    /// # Panics
    /// When the position lies outside the board.
    pub fn cell(&self, row: usize, column: usize) -> Cell {
        assert!(
            row < self.height && column < self.width,
            "cell outside the board"
        );
        Cell::decode(self.cells[row * self.width + column])
    }

    /// The cell at a signed position, or `None` outside the board.
    fn get(&self, row: isize, column: isize) -> Option<u8> {
        if row < 0 || column < 0 {
            return None;
        }
        let (r, c) = (row as usize, column as usize);
        (r < self.height && c < self.width).then(|| self.cells[r * self.width + c])
    }

    /// The rows as strings of cell characters, top to bottom.
    pub fn row_strings(&self) -> impl Iterator<Item = String> + '_ {
        self.cells
            .chunks(self.width)
            .map(|row| row.iter().map(|&c| Cell::decode(c).token()).collect())
    }

    /// The number of players: the highest player on the board, if any.
    pub fn highest_player(&self) -> Option<Player> {
        self.cells
            .iter()
            .copied()
            .max()
            .filter(|&m| m > 0)
            .map(Player)
    }

    /// Drops `player`'s piece into the 0-based `column` (spec §2).
    ///
    /// The piece falls through empty cells and stops above the first occupied
    /// cell or on the bottom row; a column whose top cell is occupied is full
    /// and the board is left unchanged.
    ///
    /// # Panics
    /// When `column` is not below [`Board::width`].
    pub fn drop_piece(&mut self, column: usize, player: Player) -> Drop {
        assert!(column < self.width, "column outside the board");
        let top = &mut self.top[column];
        if *top == 0 {
            return Drop::ColumnFull;
        }
        *top -= 1;
        let row = *top;
        self.cells[row * self.width + column] = player.0;
        Drop::Landed { row }
    }

    /// Whether four consecutive cells in a row, column or diagonal hold the
    /// same player (spec §3), by scanning the whole board.
    pub fn has_four(&self) -> bool {
        (0..self.height).any(|r| (0..self.width).any(|c| self.four_starting_at(r, c)))
    }

    /// Whether a line of four starts at this cell and runs right, down, or
    /// down either diagonal.
    fn four_starting_at(&self, row: usize, column: usize) -> bool {
        let me = self.cells[row * self.width + column];
        if me == 0 {
            return false;
        }
        let (r, c) = (row as isize, column as isize);
        DIRECTIONS
            .iter()
            .any(|&(dr, dc)| (1..4).all(|k| self.get(r + k * dr, c + k * dc) == Some(me)))
    }

    /// Whether the piece at this cell is part of a four in a row, looking
    /// only at the four lines through it.
    pub fn has_four_through(&self, row: usize, column: usize) -> bool {
        let me = self.cells[row * self.width + column];
        if me == 0 {
            return false;
        }
        let (r, c) = (row as isize, column as isize);
        DIRECTIONS.iter().any(|&(dr, dc)| {
            let run = |sign: isize| {
                (1..4)
                    .take_while(|&k| self.get(r + sign * k * dr, c + sign * k * dc) == Some(me))
                    .count()
            };
            1 + run(1) + run(-1) >= 4
        })
    }
}

/// The four line directions: right, down, down-right, down-left.
const DIRECTIONS: [(isize, isize); 4] = [(0, 1), (1, 0), (1, 1), (1, -1)];

#[cfg(test)]
mod tests {
    use super::*;

    fn board(rows: &[&str]) -> Board {
        Board::from_rows(rows).unwrap()
    }

    #[test]
    fn player_tokens_cover_1_to_35() {
        assert_eq!(Player::from_token('1').unwrap().number(), 1);
        assert_eq!(Player::from_token('9').unwrap().number(), 9);
        assert_eq!(Player::from_token('a').unwrap().number(), 10);
        assert_eq!(Player::from_token('z').unwrap().number(), 35);
        assert_eq!(Player::from_token('0'), None);
        assert_eq!(Player::from_token('A'), None);
        for n in 1..=35 {
            let p = Player::new(n).unwrap();
            assert_eq!(Player::from_token(p.token()), Some(p));
        }
        assert_eq!(Player::new(0), None);
        assert_eq!(Player::new(36), None);
    }

    #[test]
    fn shape_is_validated() {
        assert_eq!(
            Board::from_rows(Vec::<&str>::new()),
            Err(BoardError::NoRows)
        );
        assert_eq!(Board::from_rows([""]), Err(BoardError::EmptyRow));
        assert_eq!(
            Board::from_rows(["---", "--", "---"]),
            Err(BoardError::RaggedRow {
                row: 2,
                len: 2,
                expected: 3
            })
        );
        assert_eq!(
            Board::from_rows(["---", "-x.-"]),
            Err(BoardError::BadCell {
                row: 2,
                column: 3,
                found: '.'
            })
        );
    }

    #[test]
    fn drop_falls_to_bottom_or_onto_a_piece() {
        let mut b = board(&["---", "---", "-1-"]);
        let p2 = Player::new(2).unwrap();
        assert_eq!(b.drop_piece(0, p2), Drop::Landed { row: 2 });
        assert_eq!(b.drop_piece(1, p2), Drop::Landed { row: 1 });
        assert_eq!(b.row_strings().collect::<Vec<_>>(), ["---", "-2-", "21-"]);
    }

    #[test]
    fn drop_stops_above_a_floating_piece() {
        // The 1 floats over an empty cell; only cells down to it matter.
        let mut b = board(&["--", "1-", "--", "--"]);
        let p = Player::new(3).unwrap();
        assert_eq!(b.drop_piece(0, p), Drop::Landed { row: 0 });
        assert_eq!(b.drop_piece(0, p), Drop::ColumnFull);
        assert_eq!(
            b.row_strings().collect::<Vec<_>>(),
            ["3-", "1-", "--", "--"]
        );
    }

    #[test]
    fn full_column_changes_nothing() {
        let mut b = board(&["1-", "2-"]);
        let before = b.clone();
        assert_eq!(b.drop_piece(0, Player::new(1).unwrap()), Drop::ColumnFull);
        assert_eq!(b, before);
    }

    #[test]
    fn one_by_one_board() {
        let mut b = board(&["-"]);
        assert_eq!(
            b.drop_piece(0, Player::new(7).unwrap()),
            Drop::Landed { row: 0 }
        );
        assert_eq!(b.drop_piece(0, Player::new(7).unwrap()), Drop::ColumnFull);
        assert_eq!(b.row_strings().collect::<Vec<_>>(), ["7"]);
    }

    #[test]
    fn fours_in_every_direction() {
        assert!(board(&["-1111-"]).has_four());
        assert!(!board(&["-111-1"]).has_four());
        assert!(board(&["2", "2", "2", "2"]).has_four());
        assert!(!board(&["2", "2", "3", "2", "2"]).has_four());
        assert!(board(&["a---", "-a--", "--a-", "---a"]).has_four());
        assert!(board(&["---5", "--5-", "-5--", "5---"]).has_four());
        assert!(!board(&["---5", "--5-", "-6--", "5---"]).has_four());
        // Mixed owners never make a four.
        assert!(!board(&["1212", "2121"]).has_four());
    }

    #[test]
    fn four_through_a_cell_sees_both_sides() {
        let mut b3 = board(&["-----", "11-11"]);
        assert_eq!(
            b3.drop_piece(2, Player::new(1).unwrap()),
            Drop::Landed { row: 1 }
        );
        assert!(b3.has_four_through(1, 2));
        assert!(b3.has_four());
        // Every piece of the run sees it; the cell above sees nothing.
        assert!(b3.has_four_through(1, 0));
        assert!(b3.has_four_through(1, 4));
        assert!(!b3.has_four_through(0, 2));
    }

    #[test]
    fn highest_player() {
        assert_eq!(board(&["---"]).highest_player(), None);
        assert_eq!(board(&["-3-", "21c"]).highest_player(), Player::new(12));
    }
}
