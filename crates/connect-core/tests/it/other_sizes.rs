//! Boards other than 7 × 6, boards of an odd number of cells among them,
//! against the scores of Pascal Pons's solver built for each size
//! (`tests/data/other-sizes/`, see `tests/data/README.md`): every column's
//! score, the position's score (the best of them) and its sign.
//!
//! The default run checks the positions with at most 14 empty cells;
//! `cargo test --release -p connect-core --test it other_sizes:: -- --ignored`
//! checks every line.

use connect_core::solve::{Position, Size, Solver};

/// The lines of `WxH`: moves and every column's score.
fn lines(w: usize, h: usize) -> Vec<(String, Vec<Option<i32>>)> {
    let path = format!(
        "{}/tests/data/other-sizes/{w}x{h}",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .map(|l| {
            let mut words = l.split(' ');
            let moves = words.next().expect("moves").to_owned();
            let scores: Vec<Option<i32>> = words
                .map(|s| (s != "-").then(|| s.parse().expect("a score")))
                .collect();
            assert_eq!(scores.len(), w, "{path}: {l}");
            (moves, scores)
        })
        .collect()
}

#[track_caller]
fn check(w: usize, h: usize, max_empty: usize) {
    let size = Size::new(w, h).unwrap();
    let mut solver = Solver::new(size);
    let mut checked = 0;
    for (moves, columns) in lines(w, h) {
        let p = Position::from_moves(size, &moves).unwrap();
        if p.empty_cells() > max_empty {
            continue;
        }
        let best = columns.iter().flatten().max().copied().unwrap();
        assert_eq!(solver.analyze(&p, false), columns, "{w}x{h} {moves}");
        assert_eq!(solver.solve(&p), best, "{w}x{h} {moves}");
        assert_eq!(solver.solve_weak(&p), best.signum(), "{w}x{h} {moves}");
        checked += 1;
    }
    assert!(checked >= 10, "{w}x{h}: {checked} positions");
}

#[test]
fn five_by_four_and_four_by_five() {
    check(5, 4, 20);
    check(4, 5, 20);
}

#[test]
fn six_by_five_and_seven_by_five_near_the_end() {
    check(6, 5, 14);
    check(7, 5, 14);
}

#[test]
fn a_first_player_win_with_the_last_stone_of_an_odd_board() {
    // Perfect play ends with the first player's 18th stone, its last and
    // the 35th of the game, making a four: 18 + 1 − 18 = 1 for the first
    // player, so −1 for the second, to move here (not 0, as a draw).
    let size = Size::new(7, 5).unwrap();
    let p = Position::from_moves(size, "52223114242167563567344").unwrap();
    assert_eq!(Solver::new(size).solve(&p), -1);
}

#[test]
#[ignore = "release: every position of 6x5 and 7x5"]
fn six_by_five_and_seven_by_five_all() {
    check(6, 5, 30);
    check(7, 5, 35);
}
