//! The built-in 7x6 opening book (`books/7x6.txt`, written by `connect book
//! --depth 1`) against published figures, and against a plain search.

use connect_core::solve::{Book, Position, Size, Solver};

#[test]
fn the_built_in_book_gives_the_published_opening_scores() {
    let book = Book::standard();
    assert_eq!((book.size(), book.depth()), (Size::STANDARD, 1));
    // The empty board and the seven first moves, mirror images once.
    assert_eq!(book.len(), 5);
    let empty = Position::new(Size::STANDARD);
    // The first player wins 7x6 (Allis; Allen, 1988), with the last stone
    // against best defence: +1, as Pons's solver reports it.
    assert_eq!(book.score(&empty), Some(1));
    // Every first move's score from the first player's view, as Pons's
    // solver publishes them: only the centre wins, its neighbours draw.
    let mut solver = Solver::new(Size::STANDARD);
    assert_eq!(
        solver.analyze(&empty, false),
        [-2, -1, 0, 1, 0, -1, -2].map(Some)
    );
    assert_eq!(solver.best_move(&empty), Some((3, 1)));
    assert_eq!(solver.solve(&empty), 1);
    // All from the book: nothing was searched.
    assert_eq!(solver.nodes(), 0);
}

#[test]
#[ignore = "release: solves the four positions of one stone again (minutes each)"]
fn the_built_in_book_is_what_a_plain_search_gives() {
    let mut solver = Solver::without_book(Size::STANDARD);
    let computed = Book::compute(&mut solver, 1, |_| {}).unwrap();
    assert_eq!(computed, Book::standard());
}

#[test]
#[ignore = "release: searches the empty 7x6 board from scratch (minutes)"]
fn the_empty_board_searched_from_scratch_scores_plus_one() {
    let mut solver = Solver::without_book(Size::STANDARD);
    assert_eq!(solver.solve(&Position::new(Size::STANDARD)), 1);
}
