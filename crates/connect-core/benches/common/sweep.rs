//! The benchmark game shared by `connect-core` and `cnf-grader`: a
//! `size` × `size` board swept row by row by 9 players.
//!
//! Column 1 starts full with players 1–9 cycling down it; every row is filled
//! left to right from column 2, then two moves into the full column 1 pass
//! the turn, which shifts each row's players by 2 against the row above. So
//! neighbours in every direction belong to different players, no four ever
//! forms, every move but the passes lands, and the board ends full.

use connect_core::Board;

/// The board and moves of the sweep game (about `size`² moves).
pub(crate) fn sweep_game(size: usize) -> (Board, Vec<i64>) {
    let rows: Vec<String> = (0..size)
        .map(|r| {
            let first = char::from(b'1' + (r % 9) as u8);
            std::iter::once(first)
                .chain(std::iter::repeat_n('-', size - 1))
                .collect()
        })
        .collect();
    let board = Board::from_rows(rows).expect("valid board");
    let mut moves = Vec::with_capacity(size * (size + 1));
    for _ in 0..size {
        moves.extend(2..=size as i64);
        moves.extend([1, 1]);
    }
    (board, moves)
}
