//! An opening book: the exact score of every position of at most `depth`
//! stones, computed by this solver (`connect book --depth N`) and read back
//! from its text. Nothing in it comes from elsewhere.
//!
//! The positions of the deepest level are solved; every shallower one is
//! scored from its children by negamax (a move that makes a four scores the
//! win at once), so a book of depth 1 holds the empty board's score without
//! the empty board ever being searched. A position and its mirror image, and
//! every order of moves that reaches them, are one entry.
//!
//! The text is `connect solve`'s output for those positions, one line each,
//! `MOVES SCORE` (the empty board's line is ` SCORE`), under one header line
//! `# connect book WxH depth N`; further lines starting with `#` are
//! comments. Books are made for every board size the solver takes, with an
//! odd number of cells too (a score's sign is always the outcome there, see
//! [`super`]).
//!
//! ```
//! use connect_core::solve::{Book, Position, Size, Solver};
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let size = Size::new(4, 4)?;
//! let mut solver = Solver::with_table_bits(size, 16);
//! let book = Book::compute(&mut solver, 2, |_| {})?;
//! // 4x4 is a draw; the book knows it without searching the empty board.
//! assert_eq!(book.score(&Position::new(size)), Some(0));
//! assert_eq!(Book::from_text(&book.to_text())?, book);
//! # Ok(())
//! # }
//! ```

use std::collections::{BTreeMap, HashMap, HashSet};

use super::{Position, PositionError, Size, Solver};

/// The score of every position of at most [`Book::depth`] stones.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Book {
    size: Size,
    depth: usize,
    /// Score by [`Position::symmetric_key`].
    scores: HashMap<(u128, u128), i32>,
    /// One order of moves per entry (the first in column order), for the text.
    lines: BTreeMap<(usize, String), (u128, u128)>,
}

/// Why a book cannot be made or read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum BookError {
    /// Occurs when the depth reaches the end of the game.
    #[error("--depth {depth}: a {width}x{height} board has {} cells; the depth must be below that", width * height)]
    TooDeep {
        /// The depth asked for.
        depth: usize,
        /// Columns.
        width: usize,
        /// Rows.
        height: usize,
    },
    /// Occurs when the first line is not `# connect book WxH depth N`.
    #[error(
        "line 1: {found:?} is not a book's header; the first line is `# connect book WxH depth N`"
    )]
    Header {
        /// The first line.
        found: String,
    },
    /// Occurs when a line's moves are not a position of the board.
    #[error("line {line}: {source}")]
    Moves {
        /// 1-based line.
        line: usize,
        /// What is wrong with the moves.
        source: PositionError,
    },
    /// Occurs when a line holds no score, or not an integer.
    #[error("line {line}: {found:?} is not a score; a line is `MOVES SCORE`, the score an integer")]
    Score {
        /// 1-based line.
        line: usize,
        /// What was found.
        found: String,
    },
    /// Occurs when a line's position is deeper than the header says, or over.
    #[error("line {line}: {moves:?} is not a position of the book ({why})")]
    Outside {
        /// 1-based line.
        line: usize,
        /// The moves.
        moves: String,
        /// Why not.
        why: String,
    },
}

/// How far [`Book::compute`] is: positions of `stones` stones, `done` of `total`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress {
    /// Stones of the positions being scored.
    pub stones: usize,
    /// How many of them are scored.
    pub done: usize,
    /// How many there are (mirror images and transpositions counted once).
    pub total: usize,
}

impl Book {
    /// Scores every position of at most `depth` stones that the game can
    /// reach (not over), with `solver`; `progress` is told after each
    /// position of the deepest level and after each level.
    pub fn compute(
        solver: &mut Solver,
        depth: usize,
        mut progress: impl FnMut(&Progress),
    ) -> Result<Book, BookError> {
        let size = solver.size();
        check_size(size, depth)?;
        // Every level, each position once with the first moves to it. The
        // parents are in move order and each one's children follow in
        // column order, so every level is in move order too.
        let mut levels: Vec<Vec<(String, Position)>> =
            vec![vec![(String::new(), Position::new(size))]];
        for _ in 0..depth {
            let mut seen = HashSet::new();
            let mut next = Vec::new();
            for (moves, p) in levels.last().expect("level 0") {
                for col in 0..size.width() {
                    let mut child = *p;
                    if child.try_play(col).is_err() || child.is_over() {
                        continue;
                    }
                    if seen.insert(child.symmetric_key()) {
                        next.push((format!("{moves}{}", col + 1), child));
                    }
                }
            }
            levels.push(next);
        }
        let mut book = Book {
            size,
            depth,
            scores: HashMap::new(),
            lines: BTreeMap::new(),
        };
        for (stones, level) in levels.iter().enumerate().rev() {
            let total = level.len();
            for (done, (moves, p)) in level.iter().enumerate() {
                let score = if stones == depth {
                    solver.solve(p)
                } else {
                    book.negamax(solver, p)
                };
                let key = p.symmetric_key();
                book.scores.insert(key, score);
                book.lines.insert((stones, moves.clone()), key);
                if stones == depth {
                    progress(&Progress {
                        stones,
                        done: done + 1,
                        total,
                    });
                }
            }
            if stones < depth {
                progress(&Progress {
                    stones,
                    done: total,
                    total,
                });
            }
        }
        Ok(book)
    }

    /// The score of `p` from its children: each one the book holds, or an
    /// ended game (which the solver scores without searching).
    fn negamax(&self, solver: &mut Solver, p: &Position) -> i32 {
        (0..self.size.width())
            .filter_map(|col| {
                let mut child = *p;
                child.try_play(col).ok()?;
                let s = if child.is_over() {
                    solver.solve(&child)
                } else {
                    *self.scores.get(&child.symmetric_key())?
                };
                Some(-s)
            })
            .max()
            .expect("a position of the book has a move")
    }

    /// The built-in 7 × 6 book, `books/7x6.txt` in this crate, written by
    /// `connect book --depth 1` (how long it took is in its comments).
    pub fn standard() -> Book {
        Book::from_text(include_str!("../../books/7x6.txt"))
            .expect("the built-in book is a book: a test reads it")
    }

    /// The board size.
    pub fn size(&self) -> Size {
        self.size
    }

    /// The most stones of a position the book holds.
    pub fn depth(&self) -> usize {
        self.depth
    }

    /// Entries (a position and its mirror image are one).
    pub fn len(&self) -> usize {
        self.scores.len()
    }

    /// Whether the book holds nothing.
    pub fn is_empty(&self) -> bool {
        self.scores.is_empty()
    }

    /// The exact score of `p` from the side to move, if the book holds it.
    pub fn score(&self, p: &Position) -> Option<i32> {
        if p.size() != self.size || p.moves() > self.depth || p.is_over() {
            return None;
        }
        self.scores.get(&p.symmetric_key()).copied()
    }

    /// The book as text (module docs), level by level, each in move order.
    pub fn to_text(&self) -> String {
        let mut out = format!(
            "# connect book {}x{} depth {}\n",
            self.size.width(),
            self.size.height(),
            self.depth
        );
        out.push_str(
            "# every position of at most that many stones (mirror images once): MOVES SCORE, from the side to move\n",
        );
        for ((_, moves), key) in &self.lines {
            out.push_str(&format!("{moves} {}\n", self.scores[key]));
        }
        out
    }

    /// Reads a book's text (module docs).
    pub fn from_text(text: &str) -> Result<Book, BookError> {
        let mut lines = text.lines();
        let header = lines.next().unwrap_or("");
        let bad_header = || BookError::Header {
            found: header.to_owned(),
        };
        let rest = header
            .strip_prefix("# connect book ")
            .ok_or_else(bad_header)?;
        let (board, depth) = rest.split_once(" depth ").ok_or_else(bad_header)?;
        let (w, h) = board.split_once('x').ok_or_else(bad_header)?;
        let (Ok(w), Ok(h), Ok(depth)) = (
            w.parse::<usize>(),
            h.parse::<usize>(),
            depth.trim().parse::<usize>(),
        ) else {
            return Err(bad_header());
        };
        let size = Size::new(w, h).map_err(|_| bad_header())?;
        check_size(size, depth)?;
        let mut book = Book {
            size,
            depth,
            scores: HashMap::new(),
            lines: BTreeMap::new(),
        };
        for (i, line) in lines.enumerate() {
            let number = i + 2;
            if line.starts_with('#') || line.trim().is_empty() {
                continue;
            }
            let (moves, score) = line.split_once(' ').unwrap_or((line, ""));
            let p = Position::from_moves(size, moves).map_err(|source| BookError::Moves {
                line: number,
                source,
            })?;
            let score: i32 = score.trim().parse().map_err(|_| BookError::Score {
                line: number,
                found: score.to_owned(),
            })?;
            let outside = |why: String| BookError::Outside {
                line: number,
                moves: moves.to_owned(),
                why,
            };
            if p.moves() > depth {
                return Err(outside(format!(
                    "{} stones, the book's depth is {depth}",
                    p.moves()
                )));
            }
            if p.is_over() {
                return Err(outside("the game is over".to_owned()));
            }
            let key = p.symmetric_key();
            book.scores.insert(key, score);
            book.lines.insert((p.moves(), moves.to_owned()), key);
        }
        Ok(book)
    }
}

fn check_size(size: Size, depth: usize) -> Result<(), BookError> {
    let (width, height) = (size.width(), size.height());
    if depth >= size.area() {
        return Err(BookError::TooDeep {
            depth,
            width,
            height,
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn size(w: usize, h: usize) -> Size {
        Size::new(w, h).unwrap()
    }

    #[test]
    fn mirror_images_and_transpositions_are_one_entry() {
        let s = size(7, 6);
        let key = |m: &str| Position::from_moves(s, m).unwrap().symmetric_key();
        assert_eq!(key("1"), key("7"));
        assert_eq!(key("12"), key("76"));
        assert_eq!(key("1234"), key("3214"));
        assert_ne!(key("1"), key("2"));
        // The same stones with the other side to move are another position.
        assert_ne!(key("11"), key("1"));
    }

    #[test]
    fn a_book_counts_each_position_once() {
        // 4x4: 1 empty board, 2 first moves up to mirror images (1|4, 2|3),
        // and of the 16 two-move games, 8 up to mirror images.
        let mut solver = Solver::with_table_bits(size(4, 4), 12);
        let book = Book::compute(&mut solver, 2, |_| {}).unwrap();
        assert_eq!(book.len(), 1 + 2 + 8);
        assert_eq!(book.depth(), 2);
        let text = book.to_text();
        assert!(text.starts_with("# connect book 4x4 depth 2\n"), "{text}");
        assert_eq!(text.lines().filter(|l| !l.starts_with('#')).count(), 11);
        assert!(text.contains("\n 0\n"), "the empty board's line: {text}");
        assert_eq!(Book::from_text(&text).unwrap(), book);
    }

    #[test]
    fn progress_is_told_for_every_deepest_position_and_every_level() {
        let mut solver = Solver::with_table_bits(size(4, 4), 12);
        let mut seen = Vec::new();
        Book::compute(&mut solver, 1, |p| seen.push(*p)).unwrap();
        let p = |stones, done, total| Progress {
            stones,
            done,
            total,
        };
        assert_eq!(seen, [p(1, 1, 2), p(1, 2, 2), p(0, 1, 1)]);
    }

    #[test]
    fn depths_past_the_end_are_refused() {
        let mut solver = Solver::with_table_bits(size(2, 2), 12);
        assert_eq!(
            Book::compute(&mut solver, 4, |_| {})
                .unwrap_err()
                .to_string(),
            "--depth 4: a 2x2 board has 4 cells; the depth must be below that"
        );
    }

    #[test]
    fn bad_text_is_refused_with_its_line() {
        let err = |text: &str| Book::from_text(text).unwrap_err().to_string();
        assert_eq!(
            err("4 -1\n"),
            "line 1: \"4 -1\" is not a book's header; the first line is `# connect book WxH depth N`"
        );
        assert!(err("# connect book 12x12 depth 1\n").starts_with("line 1: "));
        let head = "# connect book 7x6 depth 1\n# a comment\n";
        assert_eq!(
            err(&format!("{head} 1\n8 2\n")),
            "line 4: move 1: '8' is not a column; a move is a digit 1 to 7"
        );
        assert_eq!(
            err(&format!("{head}4 x\n")),
            "line 3: \"x\" is not a score; a line is `MOVES SCORE`, the score an integer"
        );
        assert_eq!(
            err(&format!("{head}4\n")),
            "line 3: \"\" is not a score; a line is `MOVES SCORE`, the score an integer"
        );
        assert_eq!(
            err(&format!("{head}44 0\n")),
            "line 3: \"44\" is not a position of the book (2 stones, the book's depth is 1)"
        );
    }

    #[test]
    fn the_solver_answers_from_its_book_without_searching() {
        // A book that says the empty 4x4 board (a draw) is a win: the solver
        // repeats it, so the answer came from the book.
        let s = size(4, 4);
        let book = Book::from_text("# connect book 4x4 depth 0\n 5\n").unwrap();
        let mut solver = Solver::with_table_bits(s, 12);
        solver.set_book(book).unwrap();
        let empty = Position::new(s);
        assert_eq!(solver.solve(&empty), 5);
        assert_eq!(solver.solve_weak(&empty), 1);
        assert_eq!(solver.nodes(), 0);
        let mut plain = Solver::with_table_bits(s, 12);
        assert_eq!(plain.solve(&empty), 0);
    }

    #[test]
    fn a_book_answers_only_its_own_positions() {
        let s = size(4, 4);
        let mut solver = Solver::with_table_bits(s, 12);
        let book = Book::compute(&mut solver, 1, |_| {}).unwrap();
        assert_eq!(book.score(&Position::from_moves(s, "4").unwrap()), Some(0));
        assert_eq!(book.score(&Position::from_moves(s, "44").unwrap()), None);
        let other = Position::new(size(6, 4));
        assert_eq!(book.score(&other), None);
        let mut wrong = Solver::with_table_bits(size(6, 4), 12);
        assert!(wrong.set_book(book).is_err());
    }
}
