//! Counting the ways to finish a board (`count_board`, `count_finishes`):
//! against brute force through the spec's own functions on small boards, and
//! against a second method written separately on boards of up to 21 cells.

use std::collections::{HashMap, HashSet};

use peg_core::{
    Board, Color, Peg, Position, Shape, all_positions, count_board, count_finishes,
    count_orderings, create_board, is_goal, show_possible_next_states, start_classes, valid_moves,
};
use proptest::prelude::*;
use proptest::sample::subsequence;

fn pos(x: i64, y: i64) -> Position {
    Position::new(x, y)
}

/// Every sequence of valid moves to the goal, walked one by one through
/// `showPossibleNextStates` and `isGoal` (spec §3), with no bit sets.
fn brute(board: &Board) -> u128 {
    if is_goal(board) {
        return 1;
    }
    show_possible_next_states(board)
        .expect("a black peg is left")
        .iter()
        .map(|s| brute(&s.board))
        .sum()
}

/// A second method, written separately: pull instead of push, no symmetry,
/// over the board's own list of pegs. ways(T) = sum over the cells v of T
/// that were black at the start, with a neighbour in T \ {v} and T \ {v}
/// reachable, of ways(T \ {v}).
fn count_by_pulling(board: &Board) -> u128 {
    let pegs = board.pegs();
    let n = pegs.len();
    let near: Vec<u64> = pegs
        .iter()
        .map(|p| {
            pegs.iter()
                .enumerate()
                .filter(|(_, q)| p.pos.is_neighbour(q.pos))
                .fold(0, |m, (j, _)| m | (1u64 << j))
        })
        .collect();
    let start: u64 = pegs
        .iter()
        .enumerate()
        .filter(|(_, p)| p.color == Color::W)
        .fold(0, |m, (i, _)| m | (1 << i));
    let full = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
    let mut prev: HashMap<u64, u128> = HashMap::from([(start, 1)]);
    for _ in start.count_ones() as usize..n {
        let mut sets: HashSet<u64> = HashSet::new();
        for &m in prev.keys() {
            for (v, &nv) in near.iter().enumerate() {
                if m & (1 << v) == 0 && nv & m != 0 {
                    sets.insert(m | (1 << v));
                }
            }
        }
        let mut next = HashMap::with_capacity(sets.len());
        for t in sets {
            let mut c = 0u128;
            for (v, &nv) in near.iter().enumerate() {
                let rest = t & !(1 << v);
                if start & (1 << v) == 0
                    && t & (1 << v) != 0
                    && nv & rest != 0
                    && let Some(&w) = prev.get(&rest)
                {
                    c += w;
                }
            }
            next.insert(t, c);
        }
        prev = next;
    }
    prev.get(&full).copied().unwrap_or(0)
}

fn board(pegs: &[((i64, i64), Color)]) -> Board {
    Board::new(
        pegs.iter()
            .map(|&((x, y), c)| Peg::new(pos(x, y), c))
            .collect(),
    )
    .unwrap()
}

/// The `+` of radius 2 (21 holes) with white pegs at `white`, black elsewhere.
fn plus21(white: &[(i64, i64)]) -> Board {
    let pegs: Vec<((i64, i64), Color)> = all_positions()
        .into_iter()
        .filter(|p| p.x.abs() <= 2 && p.y.abs() <= 2)
        .map(|p| {
            let c = if white.contains(&(p.x, p.y)) {
                Color::W
            } else {
                Color::B
            };
            ((p.x, p.y), c)
        })
        .collect();
    board(&pegs)
}

#[test]
fn hand_derived_boards() {
    use Color::{B, W};
    // A line W B B: one way; B W B: the two ends in either order.
    assert_eq!(
        count_board(&board(&[((0, 0), W), ((1, 0), B), ((2, 0), B)]))
            .unwrap()
            .orderings,
        1
    );
    assert_eq!(
        count_board(&board(&[((-1, 0), B), ((0, 0), W), ((1, 0), B)]))
            .unwrap()
            .orderings,
        2
    );
    // Two white pegs apart, each with a black neighbour: either first, 2 ways;
    // with two blacks beyond one of them in a line: interleave 1 among 3, 3 ways.
    assert_eq!(
        count_board(&board(&[
            ((0, 0), W),
            ((1, 0), B),
            ((3, 0), W),
            ((3, 1), B)
        ]))
        .unwrap()
        .orderings,
        2
    );
    assert_eq!(
        count_board(&board(&[
            ((0, 0), W),
            ((0, 1), B),
            ((0, 2), B),
            ((2, 0), W),
            ((3, 0), B),
        ]))
        .unwrap()
        .orderings,
        3
    );
    // Already won: the empty sequence. The empty board is won too.
    assert_eq!(
        count_board(&board(&[((0, 0), W), ((1, 0), W)]))
            .unwrap()
            .orderings,
        1
    );
    assert_eq!(count_board(&Board::default()).unwrap().orderings, 1);
    // A black peg that can never get a white neighbour: no way to finish.
    assert_eq!(
        count_board(&board(&[((0, 0), W), ((1, 0), B), ((3, 0), B)]))
            .unwrap()
            .orderings,
        0
    );
    // No white peg at all: no move is valid.
    assert_eq!(
        count_board(&board(&[((0, 0), B), ((1, 0), B)]))
            .unwrap()
            .orderings,
        0
    );
}

#[test]
fn finishes_need_their_white_cells_on_the_shape() {
    let shape = Shape::plus();
    assert!(count_finishes(&shape, &[pos(0, 0), pos(3, 3)]).is_err());
    // The whole board white: one way (no move left).
    assert_eq!(
        count_finishes(&shape, &all_positions()).unwrap().orderings,
        1
    );
}

#[test]
fn start_classes_of_the_plus() {
    let classes = start_classes();
    let reps: Vec<Position> = classes.iter().map(|c| c.0).collect();
    assert_eq!(
        reps,
        [
            pos(0, 0),
            pos(1, 0),
            pos(2, 0),
            pos(3, 0),
            pos(1, 1),
            pos(2, 1),
            pos(3, 1)
        ]
    );
    let sizes: Vec<usize> = classes.iter().map(|c| c.1.len()).collect();
    assert_eq!(sizes, [1, 4, 4, 4, 4, 8, 8]);
    assert_eq!(
        classes[5].1,
        [
            pos(-2, -1),
            pos(-2, 1),
            pos(-1, -2),
            pos(-1, 2),
            pos(1, -2),
            pos(1, 2),
            pos(2, -1),
            pos(2, 1)
        ]
    );
    let mut all: Vec<Position> = classes.into_iter().flat_map(|c| c.1).collect();
    all.sort();
    assert_eq!(all, all_positions());
}

#[test]
fn counts_agree_with_pulling_on_21_hole_boards() {
    let cases: &[&[(i64, i64)]] = &[
        &[(0, 0)],
        &[(-2, -1)],
        &[(1, 1)],
        // White pegs in separate groups.
        &[(-2, 0), (2, 0)],
        &[(-2, -1), (1, 2), (0, 0)],
        &[(-1, -1), (1, 1), (-1, 1), (1, -1)],
        // A position reached in play.
        &[(0, 0), (1, 0), (1, 1), (1, 2), (0, 2)],
    ];
    for white in cases {
        let b = plus21(white);
        let want = count_by_pulling(&b);
        assert_eq!(count_board(&b).unwrap().orderings, want, "white {white:?}");
    }
    // From a single white peg, a board count is the start count on its shape.
    let b = plus21(&[(-2, 1)]);
    let shape = Shape::new(b.pegs().iter().map(|p| p.pos).collect()).unwrap();
    assert_eq!(
        count_board(&b).unwrap().orderings,
        count_orderings(&shape, pos(-2, 1)).unwrap().orderings
    );
}

/// Plays `moves` valid moves from a fresh start, each time the `pick`-th valid move.
fn played(start: Position, picks: &[u8]) -> Board {
    let mut b = create_board(start).unwrap();
    for &pick in picks {
        let moves = valid_moves(&b);
        b = b.with_white(moves[pick as usize % moves.len()].0);
    }
    b
}

/// A random board: any subset of the holes, any order, random colours, at
/// most `max_black` black pegs.
fn small_board(max_black: usize) -> impl Strategy<Value = Board> {
    subsequence(all_positions(), 1..=14)
        .prop_shuffle()
        .prop_flat_map(|ps| {
            let n = ps.len();
            (Just(ps), proptest::collection::vec(any::<bool>(), n))
        })
        .prop_map(move |(ps, blacks)| {
            let mut left = max_black;
            let pegs = ps
                .into_iter()
                .zip(blacks)
                .map(|(p, black)| {
                    let c = if black && left > 0 {
                        left -= 1;
                        Color::B
                    } else {
                        Color::W
                    };
                    Peg::new(p, c)
                })
                .collect();
            Board::new(pegs).unwrap()
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn count_board_agrees_with_brute_force_on_small_boards(b in small_board(7)) {
        prop_assert_eq!(count_board(&b).unwrap().orderings, brute(&b), "{}", b);
    }

    #[test]
    fn count_board_agrees_with_brute_force_late_in_play(
        start in 0usize..33,
        picks in proptest::collection::vec(any::<u8>(), 25..=32),
    ) {
        let b = played(all_positions()[start], &picks);
        prop_assert_eq!(count_board(&b).unwrap().orderings, brute(&b), "{}", b);
    }

    #[test]
    fn count_board_agrees_with_pulling_in_play_on_the_21_hole_plus(
        start in 0usize..21,
        picks in proptest::collection::vec(any::<u8>(), 3..=12),
        scattered in proptest::collection::vec(0usize..21, 0..3),
    ) {
        let mut b = plus21(&[]);
        let cells: Vec<Position> = b.pegs().iter().map(|p| p.pos).collect();
        b = b.with_white(cells[start]);
        for &pick in &picks {
            let moves = valid_moves(&b);
            if moves.is_empty() {
                break;
            }
            b = b.with_white(moves[pick as usize % moves.len()].0);
        }
        // Some white pegs apart from the group, as a board typed in may have.
        for &i in &scattered {
            b = b.with_white(cells[i]);
        }
        prop_assert_eq!(count_board(&b).unwrap().orderings, count_by_pulling(&b), "{}", b);
    }
}
