//! The game's values (spec §2) and their Haskell `show` text.
//!
//! Every `Display` impl here writes exactly what the derived Haskell `show`
//! writes: no spaces after commas, negative numbers unparenthesised inside a
//! tuple, one space between a constructor and each argument, and a
//! constructor application parenthesised when it is itself an argument.

use std::collections::HashMap;
use std::fmt;

use thiserror::Error;

/// A `(column, row)` pair, Haskell's `(Int,Int)`; column grows right, row grows up.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Position {
    /// The column `x`.
    pub x: i64,
    /// The row `y`.
    pub y: i64,
}

impl Position {
    /// The position `(x, y)`.
    pub const fn new(x: i64, y: i64) -> Self {
        Self { x, y }
    }

    /// Whether this position is one of the 33 holes of the `+` board.
    pub const fn is_on_board(self) -> bool {
        let (ax, ay) = (self.x.unsigned_abs(), self.y.unsigned_abs());
        ax <= 3 && ay <= 3 && (ax <= 1 || ay <= 1)
    }

    /// Whether `other` is one step up, down, left or right of this position.
    pub const fn is_neighbour(self, other: Position) -> bool {
        let dx = self.x.abs_diff(other.x);
        let dy = self.y.abs_diff(other.y);
        (dx == 1 && dy == 0) || (dx == 0 && dy == 1)
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({},{})", self.x, self.y)
    }
}

/// The colour of a peg, Haskell's `data Color = W | B`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Color {
    /// White.
    W,
    /// Black.
    B,
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::W => "W",
            Color::B => "B",
        })
    }
}

/// A peg at a position, Haskell's `Peg Position Color`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Peg {
    /// Where the peg stands.
    pub pos: Position,
    /// Its colour.
    pub color: Color,
}

impl Peg {
    /// The peg of colour `color` at `pos`.
    pub const fn new(pos: Position, color: Color) -> Self {
        Self { pos, color }
    }
}

impl fmt::Display for Peg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Peg {} {}", self.pos, self.color)
    }
}

/// A move flipping the peg at a position to white, Haskell's `M Position`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move(pub Position);

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "M {}", self.0)
    }
}

/// Why a list of pegs is not a board.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum BoardError {
    /// A peg stands on a position that is not one of the 33 holes.
    #[error(
        "peg `{peg}` (number {index} in the list) is not on the board: positions are (x,y) with -3 <= x,y <= 3 and |x| <= 1 or |y| <= 1"
    )]
    OffBoard {
        /// The offending peg.
        peg: Peg,
        /// Its 1-based place in the list.
        index: usize,
    },
    /// Two pegs stand on the same position.
    #[error(
        "peg `{peg}` (number {index} in the list) is on the same position as peg `{first}` (number {first_index}): each position holds at most one peg"
    )]
    Duplicate {
        /// The later peg.
        peg: Peg,
        /// Its 1-based place in the list.
        index: usize,
        /// The earlier peg on the same position.
        first: Peg,
        /// Its 1-based place in the list.
        first_index: usize,
    },
}

impl BoardError {
    /// The 0-based index in the list of the peg this error names.
    pub fn peg_index(&self) -> usize {
        match self {
            BoardError::OffBoard { index, .. } | BoardError::Duplicate { index, .. } => index - 1,
        }
    }
}

/// A list of pegs, Haskell's `[Peg]`: any subset of the 33 positions, in any
/// order, each position at most once.
///
/// The order of the list is kept by every function.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct Board {
    pegs: Vec<Peg>,
}

impl Board {
    /// The board holding `pegs` in that order, or the first peg that is off the `+` or repeats a position.
    pub fn new(pegs: Vec<Peg>) -> Result<Self, BoardError> {
        let mut seen: HashMap<Position, usize> = HashMap::with_capacity(pegs.len());
        for (i, peg) in pegs.iter().enumerate() {
            if !peg.pos.is_on_board() {
                return Err(BoardError::OffBoard {
                    peg: *peg,
                    index: i + 1,
                });
            }
            if let Some(&j) = seen.get(&peg.pos) {
                return Err(BoardError::Duplicate {
                    peg: *peg,
                    index: i + 1,
                    first: pegs[j],
                    first_index: j + 1,
                });
            }
            seen.insert(peg.pos, i);
        }
        Ok(Self { pegs })
    }

    /// The pegs in list order.
    pub fn pegs(&self) -> &[Peg] {
        &self.pegs
    }

    /// The peg at `pos`, if the board holds one.
    pub fn peg_at(&self, pos: Position) -> Option<Peg> {
        self.pegs.iter().copied().find(|p| p.pos == pos)
    }

    /// The colour of the peg at `pos`, if the board holds one.
    pub fn color_at(&self, pos: Position) -> Option<Color> {
        self.peg_at(pos).map(|p| p.color)
    }

    /// This board with the peg at `pos` (if any) turned white, order kept.
    pub fn with_white(&self, pos: Position) -> Board {
        let pegs = self
            .pegs
            .iter()
            .map(|p| {
                if p.pos == pos {
                    Peg::new(pos, Color::W)
                } else {
                    *p
                }
            })
            .collect();
        Board { pegs }
    }
}

impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&show_list(&self.pegs))
    }
}

/// A move and the board it leads to, Haskell's `S Move Board`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct State {
    /// The move made.
    pub mv: Move,
    /// The board after the move.
    pub board: Board,
}

impl fmt::Display for State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "S ({}) {}", self.mv, self.board)
    }
}

/// Haskell's `show` of a list: `[a,b,c]`, elements shown at precedence 0.
pub fn show_list<T: fmt::Display>(items: &[T]) -> String {
    let mut out = String::from("[");
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(&item.to_string());
    }
    out.push(']');
    out
}

/// Haskell's `show` of a `Bool`: `True` or `False`.
pub fn show_bool(b: bool) -> &'static str {
    if b { "True" } else { "False" }
}
