//! A perfect two-player solver on bitboards: exact scores of positions,
//! every column's score, and the move a perfect player makes.
//!
//! # Scores
//! From the side to move: 0 for a draw; a win scores one more than the
//! stones the winner still holds after its winning stone, a loss the
//! negative. Put otherwise, a win with the winner's k-th stone scores
//! S + 1 − k, where S is the winner's share of a full board: ⌈W·H/2⌉ for
//! the first player, ⌊W·H/2⌋ for the second (22 − k for both on 7 × 6).
//! This is the convention of Pascal Pons's benchmark sets and solver,
//! `(W·H + 2 − m) / 2` (rounded down) for a win by the m-th stone of the
//! game, on boards of an odd number of cells too: there the first player's
//! win with its very last stone scores 1, never 0, so a score's sign is
//! always the outcome.
//!
//! # Search
//! Negamax with alpha-beta, over two integers per position (the side to
//! move's stones and all stones; `u64` for boards of at most 52 bits, `u128`
//! up to 128). The root narrows the score by null-window searches (a binary
//! search on the score, biased towards 0, which is the iterative deepening
//! of a solver whose depth is the game's end). Each node looks for forced
//! moves (an opponent threat it must block, two it cannot), never plays
//! just below an opponent's winning cell, plays a move left alone without
//! a table entry, bounds the score by the cells left (by a win with its
//! third stone from now unless a move leaves the opponent no reply that
//! stops a win with its second; by a draw when
//! no four is left open to the side to move, or, on boards of even height,
//! by the second player's claimeven strategy: a draw when it leaves the
//! first no four, a loss, by when the second's four is complete at the
//! latest, when it also gives the second one), consults a
//! transposition table (on boards of at most 52 bits two slots a place,
//! the entry with less work behind it replaced, partial keys that with the
//! place still determine the position; a position and its mirror image
//! sharing one entry), far from the end bounds its children by claimeven
//! and probes them in the table before searching any (an enhanced
//! transposition cutoff), and tries moves
//! by the number of winning cells they create, ties from the centre out.
//! Threads ([`Solver::set_threads`]) share the table (Lazy SMP).
//! The table lives as long as the [`Solver`], so a file of positions reuses
//! what earlier lines proved.
//!
//! # Opening book
//! A [`Book`] holds exact scores computed by this solver ([`Book::compute`],
//! [`Book::compute_play`], `connect book`): every position of at most a
//! few stones, or (a play book) every position of up to N stones a
//! perfect player meets against any opponent, with its move. A solver
//! with a book answers those positions from it. [`Solver::new`] on 7 × 6
//! has the built-in play book of 8 stones ([`Book::standard`]), so the
//! perfect player's first moves are answered at once instead of in
//! minutes; [`Solver::without_book`] and [`Solver::with_table_bits`]
//! search everything.
//!
//! ```
//! use connect_core::solve::{Position, Size, Solver};
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let size = Size::STANDARD;
//! let mut solver = Solver::with_table_bits(size, 16);
//! // A line of Pons's End-Easy set, with its published score.
//! let p = Position::from_moves(size, "2252576253462244111563365343671351441")?;
//! assert_eq!(solver.solve(&p), -1);
//! # Ok(())
//! # }
//! ```

mod bits;
mod book;
mod position;
mod search;

pub use book::{Book, BookError, Progress};
pub use position::{MAX_BITS, Position, PositionError, Size};

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use search::Engine;

/// The exact solver, with its transposition table.
pub struct Solver {
    size: Size,
    inner: Inner,
    book: Option<Book>,
}

enum Inner {
    /// 7 × 6, its size fixed at compile time.
    Standard(Engine<u64, 7, 6, 8>),
    Small(Engine<u64, 0, 0, 64>),
    Large(Engine<u128, 0, 0, 64>),
}

/// Runs `$body` with `$e` the engine, whatever its integer type.
macro_rules! with_engine {
    ($self:expr, $e:ident, $body:expr) => {
        match &mut $self.inner {
            Inner::Standard($e) => $body,
            Inner::Small($e) => $body,
            Inner::Large($e) => $body,
        }
    };
}

/// A position's two bit sets and empty cells in the engine's integer type.
fn convert<B: bits::Bits>(p: &Position) -> (B, B, i32) {
    let (c, m) = p.bits();
    (B::from_u128(c), B::from_u128(m), p.empty_cells() as i32)
}

impl Solver {
    /// A solver for boards of `size`, with a table sized for it (2^24
    /// entries from 7 × 6 up, fewer for small boards), and on 7 × 6 the
    /// built-in opening book ([`Book::standard`]).
    pub fn new(size: Size) -> Solver {
        let mut solver = Solver::without_book(size);
        if size == Size::STANDARD {
            solver.book = Some(Book::standard());
        }
        solver
    }

    /// [`Solver::new`] without a book: every position is searched.
    pub fn without_book(size: Size) -> Solver {
        if size.bits() >= 40 {
            Solver::with_table_mb(size, Solver::DEFAULT_TABLE_MB)
        } else {
            Solver::with_table_bits(size, 18)
        }
    }

    /// The table size of [`Solver::new`] on boards from 7 × 6 up, in MiB.
    pub const DEFAULT_TABLE_MB: usize = 64;

    /// A solver without a book whose table takes at most `mb` MiB (the
    /// largest power of two of entries that fits, at least 2^10).
    pub fn with_table_mb(size: Size, mb: usize) -> Solver {
        let slot = if bits::fits_u64(size.bits(), size.width(), size.height()) {
            8
        } else {
            24
        };
        let entries = (mb.saturating_mul(1 << 20) / slot).max(1);
        Solver::with_table_bits(size, entries.ilog2())
    }

    /// Searches with `threads` threads sharing the table (Lazy SMP); 1 by
    /// default. Boards of more than 52 bits keep one thread.
    pub fn set_threads(&mut self, threads: usize) {
        with_engine!(self, e, e.set_threads(threads))
    }

    /// Gives up each search within moments once `stop` is set (`None`:
    /// never); what a search given up answers means nothing, and its
    /// table keeps only what was proved.
    pub fn set_stop(&mut self, stop: Option<Arc<AtomicBool>>) {
        with_engine!(self, e, e.set_stop(stop))
    }

    /// A solver of the same size, book and threads whose searches share
    /// this one's table, so that searches running side by side (each on
    /// its own solver) fill and read one table, as the threads of one
    /// search do; on boards of more than 52 bits, whose table slots are
    /// not written in one store, it gets a table of its own of the same
    /// size. Its stop flag is its own ([`Solver::set_stop`]).
    pub fn share(&self) -> Solver {
        let inner = match &self.inner {
            Inner::Standard(e) => Inner::Standard(e.sharing()),
            Inner::Small(e) => Inner::Small(e.sharing()),
            Inner::Large(e) => Inner::Large(e.sharing()),
        };
        Solver {
            size: self.size,
            inner,
            book: self.book.clone(),
        }
    }

    /// A solver whose table has 2^`log_size` entries (10 to 30).
    pub fn with_table_bits(size: Size, log_size: u32) -> Solver {
        let log = log_size.clamp(10, 30);
        let inner = if size == Size::STANDARD {
            Inner::Standard(Engine::new(size, log))
        } else if bits::fits_u64(size.bits(), size.width(), size.height()) {
            Inner::Small(Engine::new(size, log))
        } else {
            Inner::Large(Engine::new(size, log))
        };
        Solver {
            size,
            inner,
            book: None,
        }
    }

    /// Answers the positions `book` holds from it, without searching (the
    /// book must be of this solver's board size).
    pub fn set_book(&mut self, book: Book) -> Result<(), PositionError> {
        if book.size() != self.size {
            return Err(PositionError::NotTwoPlayer(format!(
                "a book of a {}x{} board for a {}x{} solver",
                book.size().width(),
                book.size().height(),
                self.size.width(),
                self.size.height()
            )));
        }
        self.book = Some(book);
        Ok(())
    }

    /// The book's score of `p`, if there is a book and it holds `p`.
    fn book_score(&self, p: &Position) -> Option<i32> {
        self.book.as_ref().and_then(|b| b.score(p))
    }

    /// The board size this solver is for.
    pub fn size(&self) -> Size {
        self.size
    }

    /// Nodes searched since the solver was made.
    pub fn nodes(&self) -> u64 {
        match &self.inner {
            Inner::Standard(e) => e.nodes,
            Inner::Small(e) => e.nodes,
            Inner::Large(e) => e.nodes,
        }
    }

    /// Forgets everything the table holds.
    pub fn clear(&mut self) {
        with_engine!(self, e, e.clear())
    }

    /// Whether a position and its mirror image share a table entry (on by
    /// default; off only to measure what it gains).
    pub fn set_symmetric(&mut self, on: bool) {
        with_engine!(self, e, e.set_symmetric(on))
    }

    fn check(&self, p: &Position) {
        assert_eq!(p.size(), self.size, "a position of another board size");
    }

    /// The score (or, `weak`, its sign) of a position, won or not.
    fn internal(&mut self, p: &Position, weak: bool) -> i32 {
        self.check(p);
        if p.won_at().is_some() {
            // The side to move has lost: the winner's stone came with one
            // more cell empty.
            let s = -(p.empty_cells() as i32 + 2) / 2;
            return if weak { -1 } else { s };
        }
        with_engine!(self, e, {
            let (c, m, empty) = convert(p);
            e.solve(c, m, empty, weak)
        })
    }

    /// The exact score of the position, from the side to move (module docs).
    ///
    /// # Panics
    /// When the position is of another size than the solver's.
    pub fn solve(&mut self, p: &Position) -> i32 {
        if let Some(s) = self.book_score(p) {
            return s;
        }
        self.internal(p, false)
    }

    /// 1 when the side to move wins, 0 for a draw, −1 when it loses.
    pub fn solve_weak(&mut self, p: &Position) -> i32 {
        if let Some(s) = self.book_score(p) {
            return s.signum();
        }
        self.internal(p, true).signum()
    }

    /// The score of every column from the side to move's view (`None` for
    /// a full column, or every column once the game is over); `weak` gives
    /// only 1, 0 or −1.
    pub fn analyze(&mut self, p: &Position, weak: bool) -> Vec<Option<i32>> {
        self.check(p);
        let size = self.size;
        if p.is_over() {
            return vec![None; size.width()];
        }
        let known: Vec<Option<i32>> = (0..size.width())
            .map(|col| self.child_from_book(p, col))
            .collect();
        with_engine!(self, e, {
            let (c, m, empty) = convert(p);
            (0..size.width() as u32)
                .map(|col| {
                    if let Some(s) = known[col as usize] {
                        return Some(if weak { s.signum() } else { s });
                    }
                    e.can_play(m, col).then(|| {
                        let s = e.score_move(c, m, empty, col, weak);
                        if weak { s.signum() } else { s }
                    })
                })
                .collect()
        })
    }

    /// The move a perfect player makes and the position's score: a column
    /// keeping the best score, the one nearest the centre (left first)
    /// among equals; `None` once the game is over.
    pub fn best_move(&mut self, p: &Position) -> Option<(usize, i32)> {
        self.check(p);
        if p.is_over() {
            return None;
        }
        if let Some(best) = self.book_score(p) {
            let order: Vec<u32> = with_engine!(self, e, e.order().to_vec());
            let found = order.into_iter().find(|&col| {
                p.can_play(col as usize)
                    && match self.child_from_book(p, col as usize) {
                        Some(s) => s == best,
                        None => with_engine!(self, e, {
                            let (c, m, empty) = convert(p);
                            e.move_reaches(c, m, empty, col, best)
                        }),
                    }
            });
            if let Some(col) = found {
                return Some((col as usize, best));
            }
        }
        let best = self.internal(p, false);
        with_engine!(self, e, {
            let (c, m, empty) = convert(p);
            let order: Vec<u32> = e.order().to_vec();
            order
                .into_iter()
                .find(|&col| e.can_play(m, col) && e.move_reaches(c, m, empty, col, best))
                .map(|col| (col as usize, best))
        })
    }

    /// The score of playing `col` in `p`, from `p`'s side to move, when the
    /// book holds the position it leads to or the move ends the game.
    fn child_from_book(&mut self, p: &Position, col: usize) -> Option<i32> {
        self.book.as_ref()?;
        let mut child = *p;
        child.try_play(col).ok()?;
        if child.is_over() {
            return Some(-self.solve(&child));
        }
        self.book_score(&child).map(|s| -s)
    }
}

/// A score (module docs) in words, from the side to move's view, the side
/// to move being the first player when `first_to_move`: `draw`, `wins with
/// its 4th stone`, `loses to the opponent's 21st stone` (the k-th stone of
/// the winner's own, counted from its first of the game).
pub fn score_words(size: Size, first_to_move: bool, score: i32) -> String {
    if score == 0 {
        return "draw".to_string();
    }
    let area = size.area() as i32;
    let share = |first: bool| if first { (area + 1) / 2 } else { area / 2 };
    if score > 0 {
        let k = share(first_to_move) + 1 - score;
        format!("wins with its {} stone", ordinal(k))
    } else {
        let k = share(!first_to_move) + 1 + score;
        format!("loses to the opponent's {} stone", ordinal(k))
    }
}

/// `1st`, `2nd`, `3rd`, `4th`, … `11th`, `12th`, `13th`, `21st`.
fn ordinal(n: i32) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

#[cfg(test)]
mod tests {
    use super::{Position, Size, Solver, ordinal, score_words};

    #[test]
    fn ordinals_follow_english() {
        let got: Vec<String> = [1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111]
            .into_iter()
            .map(ordinal)
            .collect();
        assert_eq!(
            got,
            [
                "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "23rd",
                "101st", "111th"
            ]
        );
    }

    #[test]
    fn scores_in_words_count_the_winners_own_stones() {
        let size = Size::STANDARD;
        // After 112233 the first player completes the bottom row with its
        // 4th stone in column 4: 22 - 4 = 18.
        assert_eq!(score_words(size, true, 18), "wins with its 4th stone");
        // The empty board: the first player wins with its 21st (last) stone.
        assert_eq!(score_words(size, true, 1), "wins with its 21st stone");
        // The second player, to move, losing to the first's 4th stone.
        assert_eq!(
            score_words(size, false, -18),
            "loses to the opponent's 4th stone"
        );
        // The second player's share is 21 too on 7x6: its 5th stone scores 17.
        assert_eq!(score_words(size, false, 17), "wins with its 5th stone");
        assert_eq!(score_words(size, true, 0), "draw");
        // 5x5: 13 stones for the first, 12 for the second.
        let odd = Size::new(5, 5).unwrap();
        assert_eq!(score_words(odd, true, 1), "wins with its 13th stone");
        assert_eq!(
            score_words(odd, true, -1),
            "loses to the opponent's 12th stone"
        );
    }

    #[test]
    fn a_shared_table_gives_the_same_scores_side_by_side() {
        // End-Easy's first line, with its published score.
        let size = Size::STANDARD;
        let p = Position::from_moves(size, "2252576253462244111563365343671351441").unwrap();
        let first = Solver::with_table_bits(size, 16);
        let scores: Vec<i32> = std::thread::scope(|s| {
            let runs: Vec<_> = (0..3)
                .map(|_| {
                    let mut solver = first.share();
                    s.spawn(move || solver.solve(&p))
                })
                .collect();
            runs.into_iter().map(|r| r.join().unwrap()).collect()
        });
        assert_eq!(scores, [-1, -1, -1]);
    }
}
