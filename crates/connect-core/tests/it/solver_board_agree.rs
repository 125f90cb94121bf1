//! The solver's bitboard against connect-core's board: the same moves give
//! the same cells, the same full columns and the same four, on every board
//! size the solver takes; a board read back into a position is the same
//! position.

use connect_core::solve::{Position, PositionError, Size, Solver};
use connect_core::{Board, Drop, Player};
use proptest::prelude::*;

fn sizes() -> impl Strategy<Value = (usize, usize)> {
    (1usize..=9, 1usize..=12).prop_filter("fits 128 bits", |&(w, h)| w * (h + 1) <= 128)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn moves_agree_with_the_board((w, h) in sizes(), moves in prop::collection::vec(0usize..9, 0..60)) {
        let size = Size::new(w, h).unwrap();
        let mut p = Position::new(size);
        let mut board = Board::empty(w, h).unwrap();
        let players = [Player::new(1).unwrap(), Player::new(2).unwrap()];
        let mut turn = 0;
        for (i, &c) in moves.iter().filter(|&&c| c < w).enumerate() {
            let before_won = p.won_at().is_some();
            let result = p.try_play(c);
            if before_won {
                let is_after_win = matches!(result, Err(PositionError::AfterWin { .. }));
                prop_assert!(is_after_win, "move {}: {:?}", i + 1, result);
                break;
            }
            match board.drop_piece(c, players[turn]) {
                Drop::ColumnFull => {
                    let is_full = matches!(result, Err(PositionError::ColumnFull { .. }));
                    prop_assert!(is_full, "move {}: {:?}", i + 1, result);
                }
                Drop::Landed { row } => {
                    prop_assert!(result.is_ok());
                    prop_assert_eq!(p.won_at().is_some(), board.has_four_through(row, c));
                    prop_assert_eq!(p.won_at().is_some(), board.has_four());
                    turn = 1 - turn;
                }
            }
            let rows: Vec<String> = board.row_strings().collect();
            prop_assert_eq!(p.rows(), rows);
            for col in 0..w {
                prop_assert_eq!(p.can_play(col), board.cell(0, col) == connect_core::Cell::Empty);
            }
        }
        if p.won_at().is_none() {
            let back = Position::from_board(&board, players[turn]).unwrap();
            prop_assert_eq!(back.rows(), p.rows());
            prop_assert_eq!(back.first_to_move(), p.first_to_move());
            prop_assert_eq!(back.moves(), p.moves());
            for col in 0..w {
                prop_assert_eq!(back.is_winning_move(col), p.is_winning_move(col));
            }
            if p.empty_cells() <= 14 {
                let mut solver = Solver::with_table_bits(size, 12);
                prop_assert_eq!(solver.solve(&back), solver.solve(&p));
            }
        }
    }
}

#[test]
fn boards_the_solver_refuses_say_why() {
    let floating = Board::from_rows(["1-", "--"]).unwrap();
    let err = Position::from_board(&floating, Player::new(2).unwrap()).unwrap_err();
    assert!(err.to_string().contains("above an empty cell"), "{err}");
    let third = Board::from_rows(["--", "3-"]).unwrap();
    let err = Position::from_board(&third, Player::new(1).unwrap()).unwrap_err();
    assert!(err.to_string().contains("player 3"), "{err}");
    let won = Board::from_rows(["1---", "1---", "1---", "1222"]).unwrap();
    assert!(Position::from_board(&won, Player::new(2).unwrap()).is_err());
    assert!(Size::new(8, 16).is_err());
    assert!(Size::new(8, 15).is_ok());
    assert!(Size::new(0, 6).is_err());
}

#[test]
fn move_errors_name_the_move() {
    let size = Size::STANDARD;
    assert_eq!(
        Position::from_moves(size, "4444444").unwrap_err(),
        PositionError::ColumnFull {
            index: 7,
            column: 4
        }
    );
    assert_eq!(
        Position::from_moves(size, "12121212").unwrap_err(),
        PositionError::AfterWin {
            index: 8,
            won_at: 7
        }
    );
    assert_eq!(
        Position::from_moves(size, "12x").unwrap_err(),
        PositionError::NotAColumn {
            index: 3,
            found: 'x',
            width: 7
        }
    );
    assert!(Position::from_moves(size, "8").is_err());
    assert!(Position::from_moves(size, "0").is_err());
}
