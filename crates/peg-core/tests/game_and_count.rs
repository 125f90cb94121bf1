//! The game engine, the board drawing, and the counter against a second,
//! independently written method on boards too big to enumerate.

use std::collections::{HashMap, HashSet};

use peg_core::{
    CountMethod, Game, MoveRefusal, Position, Shape, count_orderings, count_orderings_with,
    render_board,
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

#[test]
#[ignore = "takes about a minute in release and far longer in debug; run with --release --ignored"]
fn full_board_counts() {
    // Expected values: computed by a separate symmetry-free push DP written
    // for this check (not the crate's code path through orbits); for the
    // centre the orbit DP stores 8x fewer sets and must agree.
    let shape = Shape::plus();
    let centre = count_orderings(&shape, pos(0, 0)).unwrap();
    assert_eq!(centre.orderings, 25_589_827_238_367_749_588_818_329_600);
    let corner = count_orderings(&shape, pos(-3, -1)).unwrap();
    assert_eq!(corner.orderings, 48_486_454_774_910_983_346_595_840);
    assert_eq!(corner.states, 66_464_735);
    assert_eq!(corner.method, CountMethod::Parts);
    assert_eq!(centre.method, CountMethod::Orbits);
}
