//! Opening books, computed by this solver (`connect book`) and read back
//! from their text. Nothing in them comes from elsewhere. A book is of one
//! of two kinds:
//!
//! - **Every position** (`connect book --depth N`): the exact score of
//!   every position of at most N stones. The positions of N stones are
//!   solved; every shallower one is scored from its children by negamax (a
//!   move that makes a four scores the win at once), so a book of depth 1
//!   holds the empty board's score without the empty board ever being
//!   searched. Their number grows sevenfold with each stone.
//! - **Play** (`connect book --play --depth N`): the positions of at most
//!   N stones that a perfect player meets, moving first or second, whatever
//!   its opponent plays: from the empty board, and from each of the
//!   opponent's first moves, the perfect player's move (as
//!   [`Solver::best_move`] picks it) then every reply, and so on. Each holds
//!   its score and that move, so a player answers from the book without
//!   searching. Their number grows sevenfold every two stones only.
//!
//! A position and its mirror image, and every order of moves that reaches
//! them, are one entry.
//!
//! The text is one line per position under one header line, `# connect
//! book WxH depth N` (every position; a line is `connect solve`'s output,
//! `MOVES SCORE`, the empty board's ` SCORE`) or `# connect book WxH play
//! depth N` (a line is `MOVES SCORE COLUMN`, the column the perfect player
//! plays, 1-based); further lines starting with `#` are comments. Books
//! are made for every board size the solver takes, with an odd number of
//! cells too (a score's sign is always the outcome there, see [`super`]).
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
//! // What a perfect player meets in 4 stones, with the move it plays.
//! let play = Book::compute_play(&mut solver, 4, |_| {}, |_| {})?;
//! assert_eq!(play.best_move(&Position::new(size)), Some((1, 0)));
//! # Ok(())
//! # }
//! ```

use std::collections::{BTreeMap, HashMap, HashSet};

use super::{Position, PositionError, Size, Solver};

/// Exact scores of positions of at most [`Book::depth`] stones: of every
/// one, or of those a perfect player meets, with its move (module docs).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Book {
    size: Size,
    depth: usize,
    /// Score by [`Position::symmetric_key`].
    scores: HashMap<(u128, u128), i32>,
    /// A play book's moves, 0-based columns, by the key, each as played in
    /// the key's own image (see [`keyed_column`]); empty for the other kind.
    moves: HashMap<(u128, u128), u8>,
    /// Whether this is a play book.
    play: bool,
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
    /// Occurs when the first line is not `# connect book WxH [play] depth N`.
    #[error(
        "line 1: {found:?} is not a book's header; the first line is `# connect book WxH depth N` or `# connect book WxH play depth N`"
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
    /// Occurs when a play book's line holds no playable column after its score.
    #[error(
        "line {line}: {found:?} is not a column with room; a line of a play book is `MOVES SCORE COLUMN`, the column 1 to {width}"
    )]
    Column {
        /// 1-based line.
        line: usize,
        /// What was found.
        found: String,
        /// The board's width.
        width: usize,
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
    fn empty(size: Size, depth: usize, play: bool) -> Book {
        Book {
            size,
            depth,
            scores: HashMap::new(),
            moves: HashMap::new(),
            play,
            lines: BTreeMap::new(),
        }
    }

    /// The play book of `depth` stones (module docs), computed with
    /// `solver` level by level from the empty board: `progress` is told
    /// after each position, `level` is shown the book after each level (a
    /// play book of that depth, so a long computation can save it as it
    /// goes).
    pub fn compute_play(
        solver: &mut Solver,
        depth: usize,
        mut progress: impl FnMut(&Progress),
        mut level: impl FnMut(&Book),
    ) -> Result<Book, BookError> {
        let size = solver.size();
        check_size(size, depth)?;
        let mut book = Book::empty(size, 0, true);
        for stones in 0..=depth {
            book.deepen(solver, stones, &mut progress);
            level(&book);
        }
        Ok(book)
    }

    /// Whether this is a play book (positions a perfect player meets, with
    /// its move) rather than one of every position.
    pub fn is_play(&self) -> bool {
        self.play
    }

    /// Adds the level of `stones` stones to a play book holding those of
    /// fewer: each position of that many stones that the perfect player
    /// meets, with its score and move from `solver`. `progress` is told
    /// after each one.
    fn deepen(&mut self, solver: &mut Solver, stones: usize, mut progress: impl FnMut(&Progress)) {
        let size = self.size;
        // The perfect player meets the empty board when it moves first, and
        // every first move when it moves second; later, each of its own
        // positions two stones back, after its move and then every reply.
        let mut next: Vec<(String, Position)> = Vec::new();
        let mut seen = HashSet::new();
        let mut add = |moves: String, p: Position, next: &mut Vec<(String, Position)>| {
            if !p.is_over() && seen.insert(p.symmetric_key()) {
                next.push((moves, p));
            }
        };
        match stones {
            0 => add(String::new(), Position::new(size), &mut next),
            1 => {
                for col in 0..size.width() {
                    let mut p = Position::new(size);
                    p.try_play(col).expect("an empty column");
                    add(format!("{}", col + 1), p, &mut next);
                }
            }
            _ => {
                for ((level, moves), key) in &self.lines {
                    if *level != stones - 2 {
                        continue;
                    }
                    let mut p = Position::from_moves(size, moves).expect("the book's own line");
                    let mine = keyed_column(&p, self.moves[key].into());
                    p.try_play(mine.into()).expect("the book's move has room");
                    if p.is_over() {
                        continue;
                    }
                    for col in 0..size.width() {
                        let mut child = p;
                        if child.try_play(col).is_ok() {
                            add(format!("{moves}{}{}", mine + 1, col + 1), child, &mut next);
                        }
                    }
                }
            }
        }
        let total = next.len();
        for (done, (moves, p)) in next.into_iter().enumerate() {
            let (col, score) = solver
                .best_move(&p)
                .expect("a position not over has a move");
            let key = p.symmetric_key();
            self.scores.insert(key, score);
            self.moves.insert(key, keyed_column(&p, col));
            self.lines.insert((stones, moves), key);
            progress(&Progress {
                stones,
                done: done + 1,
                total,
            });
        }
        self.depth = stones;
    }

    /// A play book's move in `p` (0-based) and `p`'s score, if the book
    /// holds `p`.
    pub fn best_move(&self, p: &Position) -> Option<(usize, i32)> {
        if p.size() != self.size || p.moves() > self.depth || p.is_over() {
            return None;
        }
        let key = p.symmetric_key();
        let c = *self.moves.get(&key)?;
        Some((keyed_column(p, c.into()).into(), self.scores[&key]))
    }

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
        let mut book = Book::empty(size, depth, false);
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

    /// The built-in 7 × 6 book, `books/7x6.txt` in this crate: a play book
    /// (module docs) written by `connect book --play` (its comments say
    /// the command, its depth and how long it took). It holds every
    /// position of the depth-1 book, [`Book::standard_scores`].
    pub fn standard() -> Book {
        Book::from_text(include_str!("../../books/7x6.txt"))
            .expect("the built-in book is a book: a test reads it")
    }

    /// The 7 × 6 book of every position of at most one stone,
    /// `books/7x6-depth1.txt` in this crate, written by `connect book
    /// --depth 1`: the scores the play book was computed from.
    pub fn standard_scores() -> Book {
        Book::from_text(include_str!("../../books/7x6-depth1.txt"))
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
            "# connect book {}x{}{} depth {}\n",
            self.size.width(),
            self.size.height(),
            if self.play { " play" } else { "" },
            self.depth
        );
        if self.play {
            out.push_str(
                "# the positions of at most that many stones a perfect player meets, moving first or second (mirror images once): MOVES SCORE COLUMN, the score from the side to move, the column it plays\n",
            );
        } else {
            out.push_str(
                "# every position of at most that many stones (mirror images once): MOVES SCORE, from the side to move\n",
            );
        }
        for ((_, moves), key) in &self.lines {
            out.push_str(&format!("{moves} {}", self.scores[key]));
            if let Some(&c) = self.moves.get(key) {
                let p = Position::from_moves(self.size, moves).expect("the book's own line");
                out.push_str(&format!(" {}", usize::from(keyed_column(&p, c.into())) + 1));
            }
            out.push('\n');
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
        let (board, play) = match board.strip_suffix(" play") {
            Some(board) => (board, true),
            None => (board, false),
        };
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
        let mut book = Book::empty(size, depth, play);
        for (i, line) in lines.enumerate() {
            let number = i + 2;
            if line.starts_with('#') || line.trim().is_empty() {
                continue;
            }
            let (moves, rest) = line.split_once(' ').unwrap_or((line, ""));
            let (score, column) = if play {
                rest.split_once(' ').unwrap_or((rest, ""))
            } else {
                (rest, "")
            };
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
            if play {
                let bad_column = || BookError::Column {
                    line: number,
                    found: column.to_owned(),
                    width: size.width(),
                };
                let c = column
                    .trim()
                    .parse::<usize>()
                    .ok()
                    .filter(|&c| (1..=size.width()).contains(&c) && p.can_play(c - 1))
                    .ok_or_else(bad_column)?;
                book.moves.insert(key, keyed_column(&p, c - 1));
            }
            book.scores.insert(key, score);
            book.lines.insert((p.moves(), moves.to_owned()), key);
        }
        Ok(book)
    }
}

/// `col` (0-based) of `p` as played in the image of `p` its key is
/// (itself, or its mirror image); the same map takes it back.
fn keyed_column(p: &Position, col: usize) -> u8 {
    let (current, mask) = p.bits();
    let (key_current, key_mask) = p.symmetric_key();
    let col = if (current, mask) == (key_current, key_mask) {
        col
    } else {
        p.size().width() - 1 - col
    };
    col as u8
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
            "line 1: \"4 -1\" is not a book's header; the first line is `# connect book WxH depth N` or `# connect book WxH play depth N`"
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
    fn a_play_book_holds_what_a_perfect_player_meets() {
        // 4x4, depth 2: the empty board (the perfect player moves first),
        // both first moves up to mirror images (it moves second), and after
        // its own first move every reply: 1 + 2 + 4 positions.
        let s = size(4, 4);
        let mut solver = Solver::with_table_bits(s, 12);
        let mut levels = Vec::new();
        let book = Book::compute_play(&mut solver, 2, |_| {}, |b| levels.push(b.len())).unwrap();
        assert_eq!(levels, [1, 3, 7]);
        assert!(book.is_play());
        let (first, score) = book.best_move(&Position::new(s)).unwrap();
        assert_eq!(score, 0);
        for reply in 0..4 {
            let p = Position::from_moves(s, &format!("{}{}", first + 1, reply + 1)).unwrap();
            assert!(book.best_move(&p).is_some(), "reply {reply}");
        }
        // The other side's positions are not the book's.
        assert_eq!(book.score(&Position::from_moves(s, "11").unwrap()), None);
        assert_eq!(Book::from_text(&book.to_text()).unwrap(), book);
    }

    #[test]
    fn a_play_books_move_is_mirrored_with_its_position() {
        // One line, read back for the position and its mirror image.
        let s = size(7, 6);
        let book = Book::from_text("# connect book 7x6 play depth 2\n12 0 3\n").unwrap();
        let p = |m: &str| Position::from_moves(s, m).unwrap();
        assert_eq!(book.best_move(&p("12")), Some((2, 0)));
        assert_eq!(book.best_move(&p("76")), Some((4, 0)));
        assert_eq!(book.best_move(&p("13")), None);
        assert_eq!(book.to_text().lines().nth(2), Some("12 0 3"));
        // A book of every position answers scores only.
        let scores = Book::from_text("# connect book 7x6 depth 0\n 1\n").unwrap();
        assert_eq!(scores.best_move(&Position::new(s)), None);
        assert_eq!(scores.score(&Position::new(s)), Some(1));
    }

    #[test]
    fn a_play_books_bad_column_is_refused() {
        let err = |text: &str| Book::from_text(text).unwrap_err().to_string();
        let head = "# connect book 4x4 play depth 4\n";
        for bad in ["", "x", "0", "5"] {
            assert_eq!(
                err(&format!("{head} 0 {bad}\n")),
                format!(
                    "line 2: \"{bad}\" is not a column with room; a line of a play book is `MOVES SCORE COLUMN`, the column 1 to 4"
                )
            );
        }
        assert!(err(&format!("{head}1111 0 1\n")).starts_with("line 2: \"1\" is not a column"));
        assert!(Book::from_text(&format!("{head}1111 0 2\n")).is_ok());
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
