//! The built-in 7x6 books against published figures and a plain search:
//! `books/7x6-depth1.txt` (every position of at most one stone, written
//! by `connect book --depth 1`) and `books/7x6.txt` (the play book,
//! written by `connect book --play`), and play books of small boards
//! recomputed and checked against a search without a book.

use std::collections::HashSet;

use connect_core::solve::{Book, Position, Size, Solver};

/// Pons's published scores of the seven first moves, from the first
/// player's view: only the centre wins, its neighbours draw.
const FIRST_MOVES: [i32; 7] = [-2, -1, 0, 1, 0, -1, -2];

#[test]
fn the_built_in_book_gives_the_published_opening_scores() {
    let book = Book::standard_scores();
    assert_eq!((book.size(), book.depth()), (Size::STANDARD, 1));
    // The empty board and the seven first moves, mirror images once.
    assert_eq!(book.len(), 5);
    let empty = Position::new(Size::STANDARD);
    // The first player wins 7x6 (Allis; Allen, 1988), with the last stone
    // against best defence: +1, as Pons's solver reports it.
    assert_eq!(book.score(&empty), Some(1));
    let mut solver = Solver::new(Size::STANDARD);
    assert_eq!(solver.analyze(&empty, false), FIRST_MOVES.map(Some));
    assert_eq!(solver.best_move(&empty), Some((3, 1)));
    assert_eq!(solver.solve(&empty), 1);
    // All from the book: nothing was searched.
    assert_eq!(solver.nodes(), 0);
}

/// Checks that `book` is a play book closed under play: every position
/// it holds of fewer than its depth minus one stones leads, after its
/// move and any reply, to a position it holds (or an ended game); and
/// that it holds the empty board and every first move.
fn assert_closed(book: &Book) {
    let size = book.size();
    let empty = Position::new(size);
    let mut todo = vec![empty];
    for c in 0..size.width() {
        let mut p = empty;
        p.try_play(c).unwrap();
        todo.push(p);
    }
    let mut seen = HashSet::new();
    while let Some(p) = todo.pop() {
        if p.moves() > book.depth() || p.is_over() || !seen.insert(p.rows()) {
            continue;
        }
        let (c, score) = book
            .best_move(&p)
            .unwrap_or_else(|| panic!("not in the book: {:?}", p.rows()));
        assert_eq!(book.score(&p), Some(score));
        let mut after = p;
        after.try_play(c).unwrap();
        for reply in 0..size.width() {
            let mut next = after;
            if next.try_play(reply).is_ok() {
                todo.push(next);
            }
        }
    }
}

#[test]
fn the_built_in_play_book_is_closed_and_agrees_with_the_scores_book() {
    let book = Book::standard();
    assert!(book.is_play());
    assert!(book.depth() >= 1, "{}", book.depth());
    assert_closed(&book);
    let empty = Position::new(Size::STANDARD);
    // The centre is the only winning first move.
    assert_eq!(book.best_move(&empty), Some((3, 1)));
    // Moving second, after each first move: the published score, negated.
    for (c, published) in FIRST_MOVES.into_iter().enumerate() {
        let mut p = empty;
        p.try_play(c).unwrap();
        let (reply, score) = book.best_move(&p).unwrap();
        assert_eq!(score, -published, "after {}", c + 1);
        assert!(p.can_play(reply));
    }
}

#[test]
fn a_small_boards_play_book_is_what_a_search_without_a_book_gives() {
    // 5x4, 7 stones deep: every score is a plain search's, and every move
    // keeps it (the position after it scores the negative).
    let size = Size::new(5, 4).unwrap();
    let mut solver = Solver::with_table_bits(size, 18);
    let book = Book::compute_play(&mut solver, 7, |_| {}, |_| {}).unwrap();
    assert_closed(&book);
    let text = book.to_text();
    assert!(
        text.starts_with("# connect book 5x4 play depth 7\n"),
        "{text}"
    );
    let mut plain = Solver::without_book(size);
    let mut lines = 0;
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let mut parts = line.split(' ');
        let (moves, score, column) = (
            parts.next().unwrap(),
            parts.next().unwrap().parse::<i32>().unwrap(),
            parts.next().unwrap().parse::<usize>().unwrap(),
        );
        let p = Position::from_moves(size, moves).unwrap();
        assert_eq!(plain.solve(&p), score, "{line}");
        let mut after = p;
        after.try_play(column - 1).unwrap();
        // An ended game is scored by the solver too (a win: the loser's score).
        assert_eq!(-plain.solve(&after), score, "{line}");
        lines += 1;
    }
    assert_eq!(lines, book.len());
    // Read back, it is the same book; computed again, too.
    assert_eq!(Book::from_text(&text).unwrap(), book);
    let mut again = Solver::with_table_bits(size, 12);
    assert_eq!(
        Book::compute_play(&mut again, 7, |_| {}, |_| {}).unwrap(),
        book
    );
}

#[test]
#[ignore = "release: solves the four positions of one stone again (minutes each)"]
fn the_built_in_book_is_what_a_plain_search_gives() {
    let mut solver = Solver::without_book(Size::STANDARD);
    let computed = Book::compute(&mut solver, 1, |_| {}).unwrap();
    assert_eq!(computed, Book::standard_scores());
}

#[test]
#[ignore = "release: recomputes the built-in play book from the depth-1 scores (an hour or more)"]
fn the_built_in_play_book_is_what_connect_book_play_gives() {
    let shipped = Book::standard();
    let mut solver = Solver::without_book(Size::STANDARD);
    solver.set_book(Book::standard_scores()).unwrap();
    solver.set_threads(std::thread::available_parallelism().map_or(1, usize::from));
    let computed = Book::compute_play(&mut solver, shipped.depth(), |_| {}, |_| {}).unwrap();
    assert_eq!(computed, shipped);
}

#[test]
#[ignore = "release: searches the empty 7x6 board from scratch (minutes)"]
fn the_empty_board_searched_from_scratch_scores_plus_one() {
    let mut solver = Solver::without_book(Size::STANDARD);
    assert_eq!(solver.solve(&Position::new(Size::STANDARD)), 1);
}
