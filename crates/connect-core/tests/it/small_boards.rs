//! The solver on small boards against a brute-force minimax written here
//! from the rules and the score's definition alone: columns as vectors,
//! fours found by walking the four lines through the last stone, a win
//! scored S + 1 − k by counting the winner's stones (k) and its share of a
//! full board (S: the first player places ⌈W·H/2⌉ stones, the second
//! ⌊W·H/2⌋), every move tried, positions memoised by their columns. Every position reachable in
//! the first few moves is compared, with every column's score (`analyze`)
//! and the weak result, once searched and once answered from an opening
//! book that the solver computed (its positions scored from their
//! children, never searched).

use std::collections::HashMap;

use connect_core::solve::{Book, Position, Size, Solver};

struct Brute {
    w: usize,
    h: usize,
    /// By the columns packed as `(1 << len) | first player's cells`, `h + 1` bits each.
    memo: HashMap<u128, (i32, i32)>,
}

impl Brute {
    fn new(w: usize, h: usize) -> Brute {
        Brute {
            w,
            h,
            memo: HashMap::new(),
        }
    }

    fn four_through(&self, cols: &[Vec<u8>], c: usize) -> bool {
        let r = cols[c].len() - 1;
        let me = cols[c][r];
        let at = |c: isize, r: isize| -> bool {
            c >= 0
                && (c as usize) < self.w
                && r >= 0
                && cols[c as usize].get(r as usize) == Some(&me)
        };
        [(1, 0), (0, 1), (1, 1), (1, -1)].iter().any(|&(dc, dr)| {
            let run = |s: isize| {
                (1..4)
                    .take_while(|&k| at(c as isize + s * k * dc, r as isize + s * k * dr))
                    .count()
            };
            1 + run(1) + run(-1) >= 4
        })
    }

    /// A win's score for `me` (1 or 2) made with its `k`-th stone.
    fn win_score(&self, me: u8, k: i32) -> i32 {
        let cells = (self.w * self.h) as i32;
        let share = if me == 1 { (cells + 1) / 2 } else { cells / 2 };
        share + 1 - k
    }

    /// The score and the outcome (1 win, 0 draw, −1 loss) for the side to
    /// move (`me`, 1 or 2) of a position with no four; the outcome is
    /// searched on its own, to check the score's sign.
    fn solve(&mut self, cols: &mut Vec<Vec<u8>>, me: u8) -> (i32, i32) {
        let key = cols.iter().rev().fold(0u128, |k, col| {
            let bits = col
                .iter()
                .enumerate()
                .fold(1u128 << col.len(), |b, (i, &x)| {
                    b | (u128::from(x == 1) << i)
                });
            (k << (self.h + 1)) | bits
        });
        if let Some(&s) = self.memo.get(&key) {
            return s;
        }
        let mut best: Option<(i32, i32)> = None;
        for c in 0..self.w {
            if cols[c].len() == self.h {
                continue;
            }
            cols[c].push(me);
            let s = if self.four_through(cols, c) {
                let k = cols.iter().flatten().filter(|&&x| x == me).count() as i32;
                (self.win_score(me, k), 1)
            } else {
                let (s, o) = self.solve(cols, 3 - me);
                (-s, -o)
            };
            cols[c].pop();
            best = Some(best.map_or(s, |b| (b.0.max(s.0), b.1.max(s.1))));
        }
        let s = best.unwrap_or((0, 0)); // a full board is a draw
        self.memo.insert(key, s);
        s
    }

    fn score(&mut self, cols: &mut Vec<Vec<u8>>, me: u8) -> i32 {
        self.solve(cols, me).0
    }

    /// The position after `moves` (0-based columns), or `None` if a move
    /// is illegal or the game was won before the end.
    fn play(&self, moves: &[usize]) -> Option<(Vec<Vec<u8>>, u8, bool)> {
        let mut cols = vec![Vec::new(); self.w];
        let mut me = 1;
        let mut won = false;
        for &c in moves {
            if won || cols[c].len() == self.h {
                return None;
            }
            cols[c].push(me);
            won = self.four_through(&cols, c);
            me = 3 - me;
        }
        Some((cols, me, won))
    }
}

/// Every move sequence of `depth` moves or fewer on a `w`-wide board.
fn sequences(w: usize, depth: usize) -> Vec<Vec<usize>> {
    let mut all = vec![vec![]];
    let mut layer = vec![vec![]];
    for _ in 0..depth {
        layer = layer
            .iter()
            .flat_map(|s: &Vec<usize>| {
                (0..w).map(move |c| {
                    let mut t = s.clone();
                    t.push(c);
                    t
                })
            })
            .collect();
        all.extend(layer.iter().cloned());
    }
    all
}

#[track_caller]
fn check(w: usize, h: usize, depth: usize) {
    check_solver(w, h, depth, Solver::new(Size::new(w, h).unwrap()));
}

/// [`check`] with a solver that answers positions of up to `book_depth`
/// stones from a book it computed first.
#[track_caller]
fn check_with_book(w: usize, h: usize, depth: usize, book_depth: usize) {
    let size = Size::new(w, h).unwrap();
    let mut search = Solver::without_book(size);
    let book = Book::compute(&mut search, book_depth, |_| {}).unwrap();
    assert!(book.len() > 1, "{w}x{h}: a book of {} entries", book.len());
    let mut solver = Solver::without_book(size);
    solver.set_book(book).unwrap();
    check_solver(w, h, depth, solver);
}

#[track_caller]
fn check_solver(w: usize, h: usize, depth: usize, solver: Solver) {
    check_sequences(w, h, sequences(w, depth), solver);
}

/// [`check`] on the positions of `tests/data/other-sizes/WxH` (random
/// play) with at most `max_empty` empty cells.
#[track_caller]
fn check_late(w: usize, h: usize, max_empty: usize) {
    let path = format!(
        "{}/tests/data/other-sizes/{w}x{h}",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let seqs = text
        .lines()
        .map(|l| l.split(' ').next().unwrap())
        .filter(|moves| moves.len() + max_empty >= w * h)
        .map(|moves| moves.bytes().map(|b| usize::from(b - b'1')).collect())
        .collect();
    check_sequences(w, h, seqs, Solver::new(Size::new(w, h).unwrap()));
}

#[track_caller]
fn check_sequences(w: usize, h: usize, seqs: Vec<Vec<usize>>, mut solver: Solver) {
    let size = solver.size();
    let mut brute = Brute::new(w, h);
    let mut checked = 0;
    for seq in seqs {
        let text: String = seq.iter().map(|c| char::from(b'1' + *c as u8)).collect();
        let Some((mut cols, me, won)) = brute.play(&seq) else {
            assert!(
                Position::from_moves(size, &text).is_err(),
                "{w}x{h} {text}: the brute force refuses it"
            );
            continue;
        };
        let p = Position::from_moves(size, &text).unwrap();
        assert_eq!(p.won_at().is_some(), won, "{w}x{h} {text}: won?");
        if won {
            continue;
        }
        let expected = brute.score(&mut cols, me);
        assert_eq!(solver.solve(&p), expected, "{w}x{h} {text}");
        assert_eq!(
            solver.solve_weak(&p),
            brute.solve(&mut cols, me).1,
            "{w}x{h} {text} weak"
        );
        // Every column: the score after playing it, from the mover's view.
        let per_column: Vec<Option<i32>> = (0..w)
            .map(|c| {
                (cols[c].len() < h).then(|| {
                    cols[c].push(me);
                    let s = if brute.four_through(&cols, c) {
                        let k = cols.iter().flatten().filter(|&&x| x == me).count() as i32;
                        brute.win_score(me, k)
                    } else {
                        -brute.score(&mut cols, 3 - me)
                    };
                    cols[c].pop();
                    s
                })
            })
            .collect();
        assert_eq!(
            solver.analyze(&p, false),
            per_column,
            "{w}x{h} {text} analyze"
        );
        if let Some((c, s)) = solver.best_move(&p) {
            assert_eq!(s, expected);
            assert_eq!(
                per_column[c],
                Some(expected),
                "{w}x{h} {text} best move {c}"
            );
        }
        checked += 1;
    }
    assert!(checked > 10, "{w}x{h}: {checked} positions");
}

#[test]
fn four_by_four() {
    check(4, 4, 3);
}

#[test]
fn four_by_four_from_a_book() {
    // Depth 2: the empty board and the first move come from the book.
    check_with_book(4, 4, 3, 2);
}

#[test]
fn odd_boards_five_by_three_and_three_by_five() {
    // An odd number of cells: the first player has one stone more.
    check(5, 3, 3);
    check(3, 5, 3);
}

#[test]
fn late_positions_of_six_by_five_and_seven_by_five() {
    check_late(6, 5, 12);
    check_late(7, 5, 12);
}

#[test]
#[ignore = "release: positions of 6x5 and 7x5 with up to 18 empty cells"]
fn deeper_positions_of_six_by_five_and_seven_by_five() {
    check_late(6, 5, 18);
    check_late(7, 5, 18);
}

#[test]
#[ignore = "release: every position of up to 5 moves on 4x4, 5x3, 3x5"]
fn four_by_four_and_odd_boards_deeper() {
    check(4, 4, 5);
    check(5, 3, 5);
    check(3, 5, 5);
}

#[test]
#[ignore = "release: the whole 5x4 game tree by brute force"]
fn five_by_four() {
    check(5, 4, 4);
    check_with_book(5, 4, 4, 3);
}

#[test]
#[ignore = "release: the whole 4x5 game tree by brute force"]
fn four_by_five() {
    check(4, 5, 4);
}

#[test]
#[ignore = "release, by hand: the whole 5x5 game tree by brute force (CI runs 5x4 and 4x5)"]
fn five_by_five() {
    check(5, 5, 3);
}
