//! Property tests: drops, the incremental four check, and the four functions
//! against a plain reference that rescans the board after every move.

use connect_core::{Board, Cell, Drop, Function, Player};
use proptest::prelude::*;

/// Boards up to 8 × 8 with mostly empty cells and players 1–3 (plus an
/// occasional letter player), so fours are neither rare nor certain.
fn board_strategy() -> impl Strategy<Value = Board> {
    (1usize..=8, 1usize..=8).prop_flat_map(|(w, h)| {
        let cell = prop_oneof![
            6 => Just('-'),
            2 => Just('1'),
            2 => Just('2'),
            1 => Just('3'),
            1 => Just('b'),
        ];
        proptest::collection::vec(proptest::collection::vec(cell, w), h).prop_map(|rows| {
            let rows: Vec<String> = rows.into_iter().map(|r| r.into_iter().collect()).collect();
            Board::from_rows(rows).expect("generated rows are valid")
        })
    })
}

fn game_strategy() -> impl Strategy<Value = (Board, Vec<i64>)> {
    board_strategy().prop_flat_map(|b| {
        let w = b.width() as i64;
        (Just(b), proptest::collection::vec(1..=w, 0..40))
    })
}

fn pieces(b: &Board) -> usize {
    (0..b.height())
        .flat_map(|r| (0..b.width()).map(move |c| (r, c)))
        .filter(|&(r, c)| b.cell(r, c) != Cell::Empty)
        .count()
}

/// The rules as the assignment states them, with no caching: find the
/// landing row by walking down the column, and rescan the whole board for a
/// four before every move.
fn reference(f: Function, board: &Board, moves: &[i64]) -> Option<Board> {
    let rows: Vec<Vec<char>> = board.row_strings().map(|r| r.chars().collect()).collect();
    let mut grid = rows;
    let n = if f.uses_players() {
        board.highest_player()?.number()
    } else {
        1
    };
    let to_board = |g: &Vec<Vec<char>>| {
        Board::from_rows(g.iter().map(|r| r.iter().collect::<String>())).unwrap()
    };
    let count = match f {
        Function::OnePlayerOneMove => 1.min(moves.len()),
        Function::ManyPlayersOneMove => moves.len().min(usize::from(n)),
        _ => moves.len(),
    };
    if f == Function::OnePlayerOneMove && moves.is_empty() {
        return None;
    }
    for (i, &m) in moves.iter().take(count).enumerate() {
        if f != Function::OnePlayerOneMove && to_board(&grid).has_four() {
            break;
        }
        let col = (m - 1) as usize;
        let player = Player::new((i % usize::from(n)) as u8 + 1).unwrap();
        let landing = grid
            .iter()
            .take_while(|row| row[col] == '-')
            .count()
            .checked_sub(1);
        if let Some(r) = landing {
            grid[r][col] = player.token();
        }
    }
    Some(to_board(&grid))
}

proptest! {
    #[test]
    fn a_drop_adds_one_piece_or_changes_nothing((board, moves) in game_strategy()) {
        let mut b = board.clone();
        for m in moves {
            let col = (m - 1) as usize;
            let before = b.clone();
            let top_was_empty = b.cell(0, col) == Cell::Empty;
            match b.drop_piece(col, Player::new(4).unwrap()) {
                Drop::Landed { row } => {
                    prop_assert!(top_was_empty);
                    prop_assert_eq!(pieces(&b), pieces(&before) + 1);
                    prop_assert_eq!(b.cell(row, col), Cell::Piece(Player::new(4).unwrap()));
                    // Every cell above the landing cell is empty, the one below is not.
                    prop_assert!((0..row).all(|r| b.cell(r, col) == Cell::Empty));
                    prop_assert!(row + 1 == b.height() || b.cell(row + 1, col) != Cell::Empty);
                }
                Drop::ColumnFull => {
                    prop_assert!(!top_was_empty);
                    prop_assert_eq!(&b, &before);
                }
            }
        }
    }

    #[test]
    fn incremental_four_check_equals_full_scan((board, moves) in game_strategy()) {
        let mut b = board;
        let mut seen = b.has_four();
        for (i, m) in moves.into_iter().enumerate() {
            let col = (m - 1) as usize;
            let player = Player::new((i % 3) as u8 + 1).unwrap();
            if let Drop::Landed { row } = b.drop_piece(col, player) {
                seen = seen || b.has_four_through(row, col);
            }
            prop_assert_eq!(seen, b.has_four());
        }
    }

    #[test]
    fn functions_match_the_rescanning_reference((board, moves) in game_strategy()) {
        for f in Function::ALL {
            let fast = f.apply(&board, &moves, None).ok();
            prop_assert_eq!(fast, reference(f, &board, &moves), "{}", f);
        }
    }
}
