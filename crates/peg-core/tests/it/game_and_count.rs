//! The game engine, the board drawing, and the counter against a second,
//! independently written method on boards too big to enumerate.

use std::collections::{HashMap, HashSet};

use peg_core::{
    CountMethod, Game, MoveRefusal, Position, Shape, count_board, count_orderings,
    count_orderings_with, create_board, render_board, start_classes,
};

fn pos(x: i64, y: i64) -> Position {
    Position::new(x, y)
}

#[test]
fn game_plays_refuses_undoes_and_hints() {
    let mut g = Game::new(pos(0, 0)).unwrap();
    assert_eq!(g.play(pos(0, 0)), Err(MoveRefusal::AlreadyWhite(pos(0, 0))));
    assert_eq!(g.play(pos(2, 2)), Err(MoveRefusal::OffBoard(pos(2, 2))));
    assert_eq!(
        g.play(pos(0, 2)),
        Err(MoveRefusal::NoWhiteNeighbour(pos(0, 2)))
    );
    assert_eq!(g.play(pos(0, 1)), Ok(()));
    assert_eq!(g.play(pos(0, 2)), Ok(()));
    assert_eq!(g.history(), &[pos(0, 1), pos(0, 2)]);
    assert_eq!(g.undo(), Some(pos(0, 2)));
    assert_eq!(g.undo(), Some(pos(0, 1)));
    assert_eq!(g.undo(), None);
    assert_eq!(g.board(), Game::new(pos(0, 0)).unwrap().board());
    // The hint is a valid move next to the start.
    let h = g.hint().unwrap();
    assert!(g.valid_moves().contains(&h));
    assert!(h.0.is_neighbour(pos(0, 0)));
    assert!(Game::new(pos(3, 3)).is_err());
}

#[test]
fn following_hints_wins_in_32_moves() {
    let mut g = Game::new(pos(-3, -1)).unwrap();
    while !g.is_won() {
        let m = g.hint().expect("a move while not won");
        g.play(m.0).unwrap();
    }
    assert_eq!(g.history().len(), 32);
    assert_eq!(g.hint(), None);
}

#[test]
fn plain_drawing_of_the_start_board() {
    // Drawn by hand: columns -3..3 left to right, rows 3..-3 top to bottom.
    let want = "    -3 -2 -1  0  1  2  3
  3        B  B  B
  2        B  B  B
  1  B  B  B  B  B  B  B
  0  B  B  B  B  B  B  W
 -1  B  B  B  B  B  B  B
 -2        B  B  B
 -3        B  B  B
";
    let g = Game::new(pos(3, 0)).unwrap();
    assert_eq!(render_board(g.board(), false), want);
    let coloured = render_board(g.board(), true);
    assert!(coloured.contains('\u{1b}'));
    assert_eq!(coloured.matches(" W ").count(), 1);
}

/// A second method, written separately: pull instead of push, no symmetry.
/// count(T) = sum over v in T (not the start) with T \ {v} connected and
/// containing the start of count(T \ {v}); connected sets are generated
/// layer by layer as plain sets first.
fn count_by_pulling(shape: &Shape, start: Position) -> u128 {
    let s = shape.index_of(start).unwrap();
    let n = shape.len();
    let mut prev: HashMap<u64, u128> = HashMap::from([(1u64 << s, 1)]);
    for _ in 1..n {
        let mut sets: HashSet<u64> = HashSet::new();
        for &m in prev.keys() {
            for v in 0..n {
                if m & (1 << v) == 0 && shape.neighbours_mask(v) & m != 0 {
                    sets.insert(m | (1 << v));
                }
            }
        }
        let mut next = HashMap::with_capacity(sets.len());
        for t in sets {
            let mut c = 0u128;
            for v in 0..n {
                if v != s
                    && t & (1 << v) != 0
                    && let Some(&w) = prev.get(&(t & !(1 << v)))
                {
                    c += w;
                }
            }
            next.insert(t, c);
        }
        prev = next;
    }
    prev.into_values().sum()
}

/// The `+` of radius 2 (21 cells), too big to enumerate (up to 20! games).
fn plus21() -> Shape {
    let mut cells = vec![];
    for x in -2..=2i64 {
        for y in -2..=2i64 {
            if x.abs() <= 1 || y.abs() <= 1 {
                cells.push(pos(x, y));
            }
        }
    }
    Shape::new(cells).unwrap()
}

#[test]
fn count_agrees_with_pulling_on_a_21_cell_plus() {
    let shape = plus21();
    for start in [pos(0, 0), pos(-2, -1), pos(1, 1)] {
        let want = count_by_pulling(&shape, start);
        for method in [
            CountMethod::Grouped,
            CountMethod::Orbits,
            CountMethod::Parts,
        ] {
            let r = count_orderings_with(&shape, start, method).unwrap();
            assert_eq!(r.orderings, want, "from {start} by {method:?}");
        }
    }
}

/// The count from each class of start holes on the 33-hole board. Centre
/// and corner: the figures published in the README. The other five: the
/// figures of the earlier counters, hash maps per layer with the start's
/// stabiliser ([`CountMethod::Orbits`] for (1,0), (2,0), (3,0), (1,1)) or
/// parts without symmetry ([`CountMethod::Parts`] for (2,1)), which share
/// no code with the grouped counter but the shape. `full_board_census.rs`
/// also gets all seven by a backward count written apart from the library.
const FULL_BOARD: [((i64, i64), u128); 7] = [
    ((0, 0), 25_589_827_238_367_749_588_818_329_600),
    ((1, 0), 13_440_604_905_717_502_354_610_503_680),
    ((2, 0), 2_185_950_813_687_554_123_636_674_560),
    ((3, 0), 156_775_150_324_787_664_960_829_440),
    ((1, 1), 6_606_382_326_882_472_295_250_001_920),
    ((2, 1), 844_691_401_834_747_881_606_558_720),
    ((3, 1), 48_486_454_774_910_983_346_595_840),
];

#[test]
#[ignore = "counts every class twice on the full board: a minute or more in release; run by hand with --release --ignored (CI runs the census and the earlier methods)"]
fn full_board_counts_for_every_class() {
    let shape = Shape::plus();
    let classes = start_classes();
    for (((x, y), want), (rep, holes)) in FULL_BOARD.into_iter().zip(classes) {
        assert_eq!(rep, pos(x, y));
        let r = count_orderings(&shape, rep).unwrap();
        assert_eq!(r.orderings, want, "from {rep}");
        assert_eq!(r.method, CountMethod::Grouped);
        // Another hole of the class, as a board: the same by symmetry.
        let other = *holes.last().unwrap();
        let b = count_board(&create_board(other).unwrap()).unwrap();
        assert_eq!(b.orderings, want, "from {other} as a board");
    }
}

#[test]
#[ignore = "runs the earlier counters on the full board: about a minute and 0.9 GB in release; CI runs it with --release --ignored"]
fn full_board_grouped_agrees_with_the_earlier_methods() {
    let shape = Shape::plus();
    for (start, method) in [
        (pos(0, 0), CountMethod::Orbits),
        (pos(-2, 1), CountMethod::Parts),
    ] {
        let earlier = count_orderings_with(&shape, start, method).unwrap();
        let grouped = count_orderings_with(&shape, start, CountMethod::Grouped).unwrap();
        assert_eq!(grouped.orderings, earlier.orderings, "from {start}");
        assert!(grouped.states <= earlier.states);
    }
}
