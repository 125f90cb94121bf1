//! The exact optimal strategy reproduces the published optimal totals (spec §7, issue 7).

use mastermind_core::{DecisionTree, Error, Game, Solver, Strategy, stats};

/// The optimal total for `pegs`×`colors`, optionally within `limit` guesses.
fn optimal_total(pegs: u32, colors: u32, limit: Option<u32>) -> u64 {
    let game = Game::new(pegs, colors).unwrap();
    let mut solver = Solver::new(game, Strategy::Optimal).unwrap();
    if let Some(l) = limit {
        solver = solver.with_max_guesses(l).unwrap();
    }
    let t = DecisionTree::try_build(&solver, None).unwrap();
    let s = t.stats(game, Strategy::Optimal);
    assert_eq!(s.codes, game.num_codes());
    if let Some(l) = limit {
        assert!(
            s.worst <= l as usize,
            "worst {} over the limit {l}",
            s.worst
        );
    }
    s.total
}

#[test]
fn small_games_match_published_optima() {
    assert_eq!(optimal_total(2, 6, None), 132);
    assert_eq!(optimal_total(3, 6, None), 854);
    assert_eq!(optimal_total(4, 4, None), 905);
    assert_eq!(optimal_total(3, 8, None), 2359);
    assert_eq!(optimal_total(4, 5, None), 2463);
}

#[test]
fn tiny_games_by_hand() {
    // One peg, k colours: guess them in turn, 1 + 2 + … + k.
    assert_eq!(optimal_total(1, 2, None), 3);
    assert_eq!(optimal_total(1, 5, None), 15);
    // 2×2: {aa, ab, ba, bb}. Guess ab: 20 {ab}, 02 {ba}, 10 {aa, bb}; aa then bb:
    // 1 + 2 + 2 + 3 = 8, and no first guess splits the other three apart.
    assert_eq!(optimal_total(2, 2, None), 8);
}

#[test]
fn beats_or_ties_every_heuristic() {
    for (p, c) in [(2, 6), (3, 5), (4, 4)] {
        let best = optimal_total(p, c, None);
        let g = Game::new(p, c).unwrap();
        for s in Strategy::ALL {
            assert!(best <= stats(g, s, None).unwrap().total, "{s} {p}x{c}");
        }
    }
}

#[test]
fn guess_limits_are_kept_or_reported() {
    // The 2×6 optimum needs 5 guesses at worst (every heuristic does too), so a limit of 5
    // keeps the optimum. With 2 pegs there are 4 non-winning scores, so 3 guesses tell at
    // most 1 + 4 + 16 = 21 of the 36 codes apart: a limit of 3 is impossible.
    assert_eq!(optimal_total(2, 6, Some(5)), 132);
    let g = Game::new(2, 6).unwrap();
    let s = Solver::new(g, Strategy::Optimal)
        .unwrap()
        .with_max_guesses(3)
        .unwrap();
    assert_eq!(
        DecisionTree::try_build(&s, None),
        Err(Error::GuessLimit { limit: 3 })
    );
    assert!(
        Solver::new(g, Strategy::Optimal)
            .unwrap()
            .with_max_guesses(0)
            .is_err()
    );
}

#[test]
#[ignore = "about 4 s in release, a minute in debug; run with --release -- --ignored"]
fn four_by_six_is_5625() {
    let g = Game::default();
    let s = stats(g, Strategy::Optimal, None).unwrap();
    assert_eq!((s.total, s.codes), (5625, 1296));
    assert_eq!(format!("{:.3}", s.average), "4.340");
}

#[test]
#[ignore = "needs a release build; run with --release -- --ignored"]
fn four_by_six_within_five_guesses_is_5626() {
    assert_eq!(optimal_total(4, 6, Some(5)), 5626);
}

#[test]
#[ignore = "minutes in a release build; run with --release -- --ignored"]
fn four_by_seven_is_11228() {
    assert_eq!(optimal_total(4, 7, None), 11228);
}
