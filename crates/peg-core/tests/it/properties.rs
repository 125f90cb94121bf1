//! Property tests: show/read round trips, next states, the solver, and the counter.

use peg_core::{
    Board, Call, Color, CountMethod, Move, Peg, Position, Shape, State, all_positions,
    count_orderings, count_orderings_by_enumeration, count_orderings_with, create_board, is_goal,
    is_valid_move, parse_board, parse_call, parse_move, parse_peg, parse_position, parse_state,
    parse_states, show_list, show_possible_next_states, solve,
};
use proptest::prelude::*;
use proptest::sample::subsequence;

fn any_position() -> impl Strategy<Value = Position> {
    prop_oneof![
        (-5i64..=5, -5i64..=5).prop_map(|(x, y)| Position::new(x, y)),
        (any::<i64>(), any::<i64>()).prop_map(|(x, y)| Position::new(x, y)),
    ]
}

fn any_color() -> impl Strategy<Value = Color> {
    prop_oneof![Just(Color::W), Just(Color::B)]
}

/// Any valid board: a subset of the 33 positions, shuffled, random colours.
fn any_board() -> impl Strategy<Value = Board> {
    subsequence(all_positions(), 0..=33)
        .prop_shuffle()
        .prop_flat_map(|ps| {
            let n = ps.len();
            (Just(ps), proptest::collection::vec(any_color(), n))
        })
        .prop_map(|(ps, cs)| {
            Board::new(
                ps.into_iter()
                    .zip(cs)
                    .map(|(p, c)| Peg::new(p, c))
                    .collect(),
            )
            .unwrap()
        })
}

/// The 33 positions with random colours, in canonical order.
fn full_board() -> impl Strategy<Value = Board> {
    proptest::collection::vec(any_color(), 33).prop_map(|cs| {
        Board::new(
            all_positions()
                .into_iter()
                .zip(cs)
                .map(|(p, c)| Peg::new(p, c))
                .collect(),
        )
        .unwrap()
    })
}

/// Re-spaces Haskell text: random whitespace (with line breaks) after commas
/// and instead of single spaces, and around brackets.
fn respace(text: &str, seeds: &[u8]) -> String {
    let pads = ["", " ", "\n", "  \n\t", "\r\n "];
    let mut out = String::new();
    let mut k = 0;
    let mut pad = |out: &mut String| {
        out.push_str(pads[seeds[k % seeds.len()] as usize % pads.len()]);
        k += 1;
    };
    for c in text.chars() {
        match c {
            ' ' => {
                out.push(' ');
                pad(&mut out);
            }
            ',' | '[' | '(' => {
                out.push(c);
                pad(&mut out);
            }
            ']' | ')' => {
                pad(&mut out);
                out.push(c);
            }
            _ => out.push(c),
        }
    }
    out
}

/// Any call of the four functions on any position, move and valid board.
fn any_call() -> impl Strategy<Value = Call> {
    prop_oneof![
        any_position().prop_map(Call::CreateBoard),
        (any_position(), any_board()).prop_map(|(p, b)| Call::IsValidMove(Move(p), b)),
        any_board().prop_map(Call::IsGoal),
        any_board().prop_map(Call::ShowPossibleNextStates),
    ]
}

proptest! {
    #[test]
    fn write_then_read_call(call in any_call(), seeds in proptest::collection::vec(any::<u8>(), 1..16)) {
        let text = call.to_string();
        prop_assert!(text.starts_with(call.function().name()));
        prop_assert_eq!(&parse_call(&text).unwrap(), &call);
        prop_assert_eq!(&parse_call(&respace(&text, &seeds)).unwrap(), &call);
        // What the driver reads is the arguments' `show`, one line.
        let input = call.driver_input();
        prop_assert!(input.ends_with('\n') && !input[..input.len() - 1].contains('\n'));
        match &call {
            Call::CreateBoard(p) => prop_assert_eq!(parse_position(&input).unwrap(), *p),
            Call::IsValidMove(m, b) => prop_assert_eq!(input, format!("({m},{b})\n")),
            Call::IsGoal(b) | Call::ShowPossibleNextStates(b) => {
                prop_assert_eq!(&parse_board(&input).unwrap(), b)
            }
        }
        prop_assert!(call.expected().ends_with('\n'));
    }

    #[test]
    fn show_then_read_position(p in any_position()) {
        prop_assert_eq!(parse_position(&p.to_string()).unwrap(), p);
    }

    #[test]
    fn show_then_read_peg_and_move(p in any_position(), c in any_color()) {
        let peg = Peg::new(p, c);
        prop_assert_eq!(parse_peg(&peg.to_string()).unwrap(), peg);
        prop_assert_eq!(parse_move(&Move(p).to_string()).unwrap(), Move(p));
    }

    #[test]
    fn show_then_read_board(b in any_board(), seeds in proptest::collection::vec(any::<u8>(), 1..16)) {
        let text = b.to_string();
        prop_assert!(!text.contains(", "));
        prop_assert_eq!(&parse_board(&text).unwrap(), &b);
        prop_assert_eq!(&parse_board(&respace(&text, &seeds)).unwrap(), &b);
    }

    #[test]
    fn show_then_read_state(b in any_board(), p in any_position()) {
        let s = State { mv: Move(p), board: b };
        prop_assert_eq!(&parse_state(&s.to_string()).unwrap(), &s);
    }

    #[test]
    fn show_then_read_next_states(b in full_board(), seeds in proptest::collection::vec(any::<u8>(), 1..16)) {
        if let Ok(states) = show_possible_next_states(&b) {
            let text = show_list(&states);
            prop_assert_eq!(&parse_states(&text).unwrap(), &states);
            prop_assert_eq!(&parse_states(&respace(&text, &seeds)).unwrap(), &states);
        }
    }

    #[test]
    fn next_states_flip_exactly_one_valid_peg(b in any_board()) {
        match show_possible_next_states(&b) {
            Err(_) => prop_assert!(is_goal(&b)),
            Ok(states) => {
                prop_assert!(!is_goal(&b));
                let expected_moves = b.pegs().iter().filter(|p| is_valid_move(Move(p.pos), &b)).count();
                prop_assert_eq!(states.len(), expected_moves);
                for s in &states {
                    prop_assert!(is_valid_move(s.mv, &b));
                    prop_assert_eq!(s.board.pegs().len(), b.pegs().len());
                    let diffs: Vec<(Peg, Peg)> = b.pegs().iter().zip(s.board.pegs())
                        .filter(|(x, y)| x != y).map(|(x, y)| (*x, *y)).collect();
                    prop_assert_eq!(diffs.len(), 1);
                    let (before, after) = diffs[0];
                    prop_assert_eq!(before.pos, s.mv.0);
                    prop_assert_eq!(after.pos, s.mv.0);
                    prop_assert_eq!((before.color, after.color), (Color::B, Color::W));
                }
            }
        }
    }
}

#[test]
fn solve_wins_in_32_valid_moves_from_every_start() {
    let shape = Shape::plus();
    for start in all_positions() {
        let moves = solve(&shape, start).unwrap();
        assert_eq!(moves.len(), 32, "from {start}");
        let mut board = create_board(start).unwrap();
        for m in moves {
            assert!(is_valid_move(m, &board), "{m} from {start}");
            assert!(!is_goal(&board));
            board = board.with_white(m.0);
        }
        assert!(is_goal(&board), "from {start}");
    }
    assert!(solve(&shape, Position::new(2, 2)).is_none());
}

fn shape(cells: &[(i64, i64)]) -> Shape {
    Shape::new(cells.iter().map(|&(x, y)| Position::new(x, y)).collect()).unwrap()
}

#[test]
fn count_hand_derived_small_shapes() {
    let p = |x, y| Position::new(x, y);
    // A path of 5 started at an end: one order; at the 2nd cell: C(4,1) = 4;
    // in the middle: C(4,2) = 6 (interleave the two sides).
    let path = shape(&[(0, 0), (1, 0), (2, 0), (3, 0), (4, 0)]);
    assert_eq!(count_orderings(&path, p(0, 0)).unwrap().orderings, 1);
    assert_eq!(count_orderings(&path, p(1, 0)).unwrap().orderings, 4);
    assert_eq!(count_orderings(&path, p(2, 0)).unwrap().orderings, 6);
    // A 2x2 square from a corner a: b,c,d / b,d,c / c,b,d / c,d,b.
    let square = shape(&[(0, 0), (1, 0), (0, 1), (1, 1)]);
    assert_eq!(count_orderings(&square, p(0, 0)).unwrap().orderings, 4);
    // A + of 5 from the centre: any order of the 4 arms, 4! = 24; from a tip:
    // the centre first, then 3! = 6.
    let plus5 = shape(&[(0, 0), (1, 0), (-1, 0), (0, 1), (0, -1)]);
    let r = count_orderings(&plus5, p(0, 0)).unwrap();
    assert_eq!(r.orderings, 24);
    assert_eq!(r.symmetries, 8);
    assert_eq!(r.method, CountMethod::Grouped);
    assert_eq!(
        r.states,
        1 + 1 + 2 + 1 + 1,
        "orbits of 1..5 cells: sizes 1,1,2,1,1"
    );
    assert_eq!(count_orderings(&plus5, p(1, 0)).unwrap().orderings, 6);
    assert!(count_orderings(&plus5, p(5, 5)).is_err());
}

#[test]
fn count_agrees_with_enumeration_on_sub_boards() {
    // Sub-boards of the +: the 3x3 centre, the centre with one arm, a
    // plus of arm length 1 and width 1, and an L-shaped corner region.
    let mut shapes = vec![];
    let square: Vec<(i64, i64)> = (-1..=1)
        .flat_map(|x| (-1..=1).map(move |y| (x, y)))
        .collect();
    shapes.push(square.clone());
    let mut with_arm = square.clone();
    with_arm.extend([(2, -1), (2, 0), (2, 1)]);
    shapes.push(with_arm);
    shapes.push(vec![
        (0, 0),
        (1, 0),
        (2, 0),
        (-1, 0),
        (-2, 0),
        (0, 1),
        (0, 2),
        (0, -1),
        (0, -2),
    ]);
    shapes.push(vec![
        (-3, -1),
        (-3, 0),
        (-3, 1),
        (-2, -1),
        (-2, 0),
        (-2, 1),
        (-1, -1),
        (-1, -2),
        (-1, -3),
        (0, -1),
    ]);
    for cells in shapes {
        let sh = shape(&cells);
        for &start in sh.cells() {
            let slow = count_orderings_by_enumeration(&sh, start).unwrap();
            for method in [
                CountMethod::Auto,
                CountMethod::Grouped,
                CountMethod::Orbits,
                CountMethod::Parts,
            ] {
                let fast = count_orderings_with(&sh, start, method).unwrap();
                assert_eq!(
                    fast.orderings, slow,
                    "shape {cells:?} start {start} {method:?}"
                );
            }
        }
    }
}

/// Random polyominoes grown inside the + board, random start.
fn small_sub_board() -> impl Strategy<Value = (Vec<Position>, usize)> {
    (
        proptest::collection::vec(any::<u32>(), 1..9),
        any::<prop::sample::Index>(),
    )
        .prop_map(|(picks, start)| {
            let board = all_positions();
            let mut cells = vec![Position::new(0, 0)];
            for pick in picks {
                let frontier: Vec<Position> = board
                    .iter()
                    .copied()
                    .filter(|c| !cells.contains(c) && cells.iter().any(|d| d.is_neighbour(*c)))
                    .collect();
                cells.push(frontier[pick as usize % frontier.len()]);
            }
            let s = start.index(cells.len());
            (cells, s)
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn count_agrees_with_enumeration_on_random_sub_boards((cells, s) in small_sub_board()) {
        let sh = Shape::new(cells.clone()).unwrap();
        let start = cells[s];
        let slow = count_orderings_by_enumeration(&sh, start).unwrap();
        for method in [CountMethod::Grouped, CountMethod::Orbits, CountMethod::Parts] {
            prop_assert_eq!(count_orderings_with(&sh, start, method).unwrap().orderings, slow);
        }
    }
}
