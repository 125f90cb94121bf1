//! Statistics over every secret reproduce the published figures of spec §7.

use mastermind_core::{DecisionTree, Game, Solver, Strategy, stats};

#[track_caller]
fn check(game: Game, strategy: Strategy, total: u64, worst: usize, histogram: &str) {
    let s = stats(game, strategy, None).unwrap();
    assert_eq!(
        (s.total, s.worst, s.histogram_text().as_str()),
        (total, worst, histogram),
        "{strategy} {}x{}",
        game.pegs(),
        game.colors()
    );
    assert_eq!(s.codes, game.num_codes());
}

#[test]
fn first_consistent_4x6() {
    check(
        Game::default(),
        Strategy::FirstConsistent,
        6671,
        9,
        "1/13/73/256/465/360/110/16/2",
    );
}

#[test]
fn knuth_4x6() {
    check(Game::default(), Strategy::Knuth, 5801, 5, "1/6/62/533/694");
}

#[test]
fn most_parts_4x6() {
    check(
        Game::default(),
        Strategy::MostParts,
        5668,
        6,
        "1/12/72/635/569/7",
    );
}

#[test]
fn expected_size_4x6() {
    check(
        Game::default(),
        Strategy::ExpectedSize,
        5696,
        6,
        "1/10/54/645/583/3",
    );
}

#[test]
fn entropy_4x6() {
    check(
        Game::default(),
        Strategy::Entropy,
        5722,
        6,
        "1/4/71/612/596/12",
    );
}

#[test]
fn knuth_4x7() {
    check(
        Game::new(4, 7).unwrap(),
        Strategy::Knuth,
        11613,
        6,
        "1/2/64/538/1512/284",
    );
}

/// The fast path (colour symmetry, pruning) builds exactly the tree of the plain definition.
#[track_caller]
fn same_as_plain(game: Game, strategy: Strategy) {
    let fast = Solver::new(game, strategy).unwrap();
    let plain = Solver::new(game, strategy).unwrap().plain();
    assert_eq!(
        DecisionTree::build(&fast, None),
        DecisionTree::build(&plain, None),
        "{strategy}"
    );
}

#[test]
fn fast_equals_plain_4x6() {
    for s in Strategy::ALL {
        same_as_plain(Game::default(), s);
    }
}

#[test]
fn fast_equals_plain_small_sizes() {
    for (p, c) in [(3, 5), (2, 9), (5, 3), (3, 8)] {
        for s in Strategy::ALL {
            same_as_plain(Game::new(p, c).unwrap(), s);
        }
    }
}

#[test]
#[ignore = "about 25 s in a debug build, 2 s in release; run with --release -- --ignored"]
fn fast_equals_plain_4x7_4x8_5x5() {
    for (p, c) in [(4, 7), (4, 8), (5, 5)] {
        for s in Strategy::ALL {
            same_as_plain(Game::new(p, c).unwrap(), s);
        }
    }
}

#[test]
fn first_guess_option_is_played() {
    let g = Game::default();
    let first = g.parse_code("abcd").unwrap();
    let s = Solver::new(g, Strategy::Knuth).unwrap();
    let t = DecisionTree::build(&s, Some(first));
    assert_eq!(t.guess, first);
    assert_eq!(t.stats(g, Strategy::Knuth).codes, 1296);
}

#[test]
#[ignore = "needs a release build (a few seconds there); run with --release -- --ignored"]
fn knuth_and_most_parts_5x8_aabbc() {
    let g = Game::new(5, 8).unwrap();
    let first = g.parse_code("aabbc").unwrap();
    let k = stats(g, Strategy::Knuth, Some(first)).unwrap();
    assert_eq!((k.total, k.worst), (183_775, 7));
    let m = stats(g, Strategy::MostParts, Some(first)).unwrap();
    assert_eq!((m.total, m.worst), (181_834, 8));
}

#[test]
fn hand_derived_2x2_knuth_tree() {
    // aa splits {aa, ab, ba, bb} into 20:{aa} 10:{ab, ba} 00:{bb}; ab splits the same way
    // (largest part 2), so the tie goes to the lower aa. Then {ab, ba} plays ab, then ba.
    let g = Game::new(2, 2).unwrap();
    let s = Solver::new(g, Strategy::Knuth).unwrap();
    let t = DecisionTree::build(&s, None);
    assert_eq!(g.format_code(t.guess), "aa");
    assert_eq!(t.nodes(), 4);
    let st = t.stats(g, Strategy::Knuth);
    assert_eq!(
        (st.total, st.worst, st.histogram_text().as_str()),
        (8, 3, "1/2/1")
    );
}
