//! The examples of the spec (`shared/spec/peg-reversal.md` §1–§3), checked literally.

use peg_core::{
    Board, Color, Move, Peg, Position, create_board, is_goal, is_valid_move, neighbours,
    parse_board, show_list, show_possible_next_states, valid_moves,
};

/// `createBoard (1,1)`, typed out by hand from the canonical order of spec §1.
const CREATE_1_1: &str = "[Peg (-3,-1) B,Peg (-3,0) B,Peg (-3,1) B,Peg (-2,-1) B,Peg (-2,0) B,Peg (-2,1) B,\
Peg (-1,-3) B,Peg (-1,-2) B,Peg (-1,-1) B,Peg (-1,0) B,Peg (-1,1) B,Peg (-1,2) B,Peg (-1,3) B,\
Peg (0,-3) B,Peg (0,-2) B,Peg (0,-1) B,Peg (0,0) B,Peg (0,1) B,Peg (0,2) B,Peg (0,3) B,\
Peg (1,-3) B,Peg (1,-2) B,Peg (1,-1) B,Peg (1,0) B,Peg (1,1) W,Peg (1,2) B,Peg (1,3) B,\
Peg (2,-1) B,Peg (2,0) B,Peg (2,1) B,Peg (3,-1) B,Peg (3,0) B,Peg (3,1) B]";

/// `createBoard (-2,1)`, typed out by hand.
const CREATE_M2_1: &str = "[Peg (-3,-1) B,Peg (-3,0) B,Peg (-3,1) B,Peg (-2,-1) B,Peg (-2,0) B,Peg (-2,1) W,\
Peg (-1,-3) B,Peg (-1,-2) B,Peg (-1,-1) B,Peg (-1,0) B,Peg (-1,1) B,Peg (-1,2) B,Peg (-1,3) B,\
Peg (0,-3) B,Peg (0,-2) B,Peg (0,-1) B,Peg (0,0) B,Peg (0,1) B,Peg (0,2) B,Peg (0,3) B,\
Peg (1,-3) B,Peg (1,-2) B,Peg (1,-1) B,Peg (1,0) B,Peg (1,1) B,Peg (1,2) B,Peg (1,3) B,\
Peg (2,-1) B,Peg (2,0) B,Peg (2,1) B,Peg (3,-1) B,Peg (3,0) B,Peg (3,1) B]";

/// The 33 pegs, all white, typed out by hand.
const ALL_WHITE: &str = "[Peg (-3,-1) W,Peg (-3,0) W,Peg (-3,1) W,Peg (-2,-1) W,Peg (-2,0) W,Peg (-2,1) W,\
Peg (-1,-3) W,Peg (-1,-2) W,Peg (-1,-1) W,Peg (-1,0) W,Peg (-1,1) W,Peg (-1,2) W,Peg (-1,3) W,\
Peg (0,-3) W,Peg (0,-2) W,Peg (0,-1) W,Peg (0,0) W,Peg (0,1) W,Peg (0,2) W,Peg (0,3) W,\
Peg (1,-3) W,Peg (1,-2) W,Peg (1,-1) W,Peg (1,0) W,Peg (1,1) W,Peg (1,2) W,Peg (1,3) W,\
Peg (2,-1) W,Peg (2,0) W,Peg (2,1) W,Peg (3,-1) W,Peg (3,0) W,Peg (3,1) W]";

fn pos(x: i64, y: i64) -> Position {
    Position::new(x, y)
}

#[test]
fn create_board_1_1_is_exact() {
    assert_eq!(create_board(pos(1, 1)).unwrap().to_string(), CREATE_1_1);
}

#[test]
fn create_board_minus_2_1_is_exact() {
    assert_eq!(create_board(pos(-2, 1)).unwrap().to_string(), CREATE_M2_1);
}

#[test]
fn create_board_off_the_plus_is_the_exact_error() {
    let err = create_board(pos(-2, 2)).unwrap_err();
    assert_eq!(err.to_string(), "The position is not valid.");
    for p in [
        pos(4, 0),
        pos(0, -4),
        pos(2, 2),
        pos(-3, 3),
        pos(i64::MIN, 0),
    ] {
        assert!(create_board(p).is_err(), "{p}");
    }
}

#[test]
fn is_valid_move_examples() {
    // "With only (2,0) white: M (1,0) -> True, M (-2,0) -> False."
    let board = create_board(pos(2, 0)).unwrap();
    assert!(is_valid_move(Move(pos(1, 0)), &board));
    assert!(!is_valid_move(Move(pos(-2, 0)), &board));
    // The assignment's partial-board example.
    let partial = parse_board("[Peg (0,0) W, Peg (1,0) B]").unwrap();
    assert!(is_valid_move(Move(pos(1, 0)), &partial));
    // Already white, off the board, and a position the board holds no peg for.
    assert!(!is_valid_move(Move(pos(2, 0)), &board));
    assert!(!is_valid_move(Move(pos(3, 3)), &board));
    assert!(!is_valid_move(Move(pos(0, 1)), &partial));
}

#[test]
fn is_goal_examples() {
    assert!(is_goal(&parse_board("[Peg (0,0) W, Peg (1,0) W]").unwrap()));
    assert!(is_goal(&parse_board(ALL_WHITE).unwrap()));
    assert!(!is_goal(&create_board(pos(0, 0)).unwrap()));
    assert!(!is_goal(&parse_board("[Peg (0,0) W,Peg (1,0) B]").unwrap()));
}

#[test]
fn next_states_one_state_example() {
    // A board all white except (0,1).
    let text = ALL_WHITE.replace("Peg (0,1) W", "Peg (0,1) B");
    let board = parse_board(&text).unwrap();
    let states = show_possible_next_states(&board).unwrap();
    assert_eq!(show_list(&states), format!("[S (M (0,1)) {ALL_WHITE}]"));
}

#[test]
fn next_states_partial_board_example() {
    let board = parse_board("[Peg (0,0) W, Peg (1,0) B]").unwrap();
    let states = show_possible_next_states(&board).unwrap();
    assert_eq!(
        show_list(&states),
        "[S (M (1,0)) [Peg (0,0) W,Peg (1,0) W]]"
    );
}

#[test]
fn next_states_keep_the_order_of_the_list() {
    let board = parse_board("[Peg (1,0) B,Peg (0,0) W,Peg (-1,0) B,Peg (3,0) B]").unwrap();
    let states = show_possible_next_states(&board).unwrap();
    assert_eq!(
        show_list(&states),
        "[S (M (1,0)) [Peg (1,0) W,Peg (0,0) W,Peg (-1,0) B,Peg (3,0) B],\
S (M (-1,0)) [Peg (1,0) B,Peg (0,0) W,Peg (-1,0) W,Peg (3,0) B]]"
    );
    // Black pegs but no valid move: the empty list, not the error.
    let stuck = parse_board("[Peg (3,0) B]").unwrap();
    assert_eq!(show_list(&show_possible_next_states(&stuck).unwrap()), "[]");
}

#[test]
fn moves_from_the_centre_come_in_board_order() {
    let board = create_board(pos(0, 0)).unwrap();
    let moves: Vec<Position> = valid_moves(&board).into_iter().map(|m| m.0).collect();
    assert_eq!(moves, vec![pos(-1, 0), pos(0, -1), pos(0, 1), pos(1, 0)]);
    let states = show_possible_next_states(&board).unwrap();
    let shown: Vec<String> = states.iter().map(|s| s.mv.to_string()).collect();
    assert_eq!(shown, ["M (-1,0)", "M (0,-1)", "M (0,1)", "M (1,0)"]);
}

#[test]
fn no_black_peg_is_the_exact_error() {
    let err = show_possible_next_states(&parse_board(ALL_WHITE).unwrap()).unwrap_err();
    assert_eq!(err.to_string(), "No Possible States Exist.");
    let err = show_possible_next_states(&parse_board("[Peg (0,0) W, Peg (1,0) W]").unwrap());
    assert_eq!(err.unwrap_err().to_string(), "No Possible States Exist.");
    let empty = Board::new(vec![]).unwrap();
    assert!(show_possible_next_states(&empty).is_err());
}

#[test]
fn board_shape_and_neighbours() {
    let board = create_board(pos(0, 0)).unwrap();
    assert_eq!(board.pegs().len(), 33);
    assert_eq!(neighbours(pos(0, 0)).len(), 4);
    assert_eq!(neighbours(pos(-3, -1)), vec![pos(-3, 0), pos(-2, -1)]);
    assert_eq!(
        board.pegs()[..3],
        [
            Peg::new(pos(-3, -1), Color::B),
            Peg::new(pos(-3, 0), Color::B),
            Peg::new(pos(-3, 1), Color::B)
        ]
    );
}
