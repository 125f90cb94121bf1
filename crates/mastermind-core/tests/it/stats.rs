//! Statistics over every secret reproduce the published figures of spec §7.

use mastermind_core::{DecisionTree, Game, Scorer, Solver, Strategy, stats};

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

/// Spec §7 read literally, independent of the library's scan and its reductions: every code
/// is scored against every candidate, grouped by score, ranked; ties go to a candidate, then
/// to the lowest code. Scores come from [`Scorer::index`] (checked against
/// [`Game::calc_score`] in its own tests), which is what makes 6×6 affordable.
mod reference {
    use mastermind_core::{Game, Scorer, Strategy};
    use rayon::prelude::*;

    /// The rank of a guess from its part sizes (lower is better).
    fn rank(strategy: Strategy, n: usize, parts: &[u64]) -> f64 {
        let sizes = parts.iter().filter(|&&c| c > 0);
        match strategy {
            Strategy::Knuth => *parts.iter().max().unwrap() as f64,
            Strategy::MostParts => (n - sizes.count()) as f64,
            Strategy::ExpectedSize => sizes.map(|&c| (c * c) as f64).sum(),
            Strategy::Entropy => sizes.map(|&c| c as f64 * (c as f64).ln()).sum(),
            _ => unreachable!("not a heuristic"),
        }
    }

    /// The guess for the candidate set `set` (sorted).
    pub(crate) fn choose(scorer: &Scorer, strategy: Strategy, set: &[u64]) -> u64 {
        if set.len() == 1 {
            return set[0];
        }
        let game = scorer.game();
        let slots = game.num_score_slots();
        let ranks: Vec<f64> = (0..game.num_codes())
            .into_par_iter()
            .map(|g| {
                let mut parts = vec![0u64; slots];
                for &s in set {
                    parts[scorer.index(g as u32, s as u32)] += 1;
                }
                rank(strategy, set.len(), &parts)
            })
            .collect();
        // Ranks within rounding are equal (entropy); integer ranks differ by at least 1.
        let best = ranks.iter().cloned().fold(f64::INFINITY, f64::min);
        let tied = |g: u64| ranks[g as usize] - best <= 1e-9 * best.abs().max(1.0);
        set.iter()
            .copied()
            .find(|&g| tied(g))
            .or_else(|| (0..game.num_codes()).find(|&g| tied(g)))
            .unwrap()
    }

    /// The candidate sets that follow `guess` from `set`, by increasing score.
    pub(crate) fn split(game: Game, set: &[u64], guess: u64) -> Vec<Vec<u64>> {
        use mastermind_core::Code;
        let mut parts = vec![Vec::new(); game.num_score_slots()];
        for &s in set {
            parts[game.score_index(game.calc_score(Code(s), Code(guess)))].push(s);
        }
        parts
    }
}

/// Checks the nodes of the library's tree down to `depth` against [`reference::choose`].
#[track_caller]
fn matches_reference(game: Game, strategy: Strategy, depth: usize) {
    fn walk(sc: &Scorer, s: Strategy, t: &DecisionTree, set: Vec<u64>, depth: usize) -> usize {
        let game = sc.game();
        assert_eq!(t.candidates, set.len());
        let want = reference::choose(sc, s, &set);
        assert_eq!(
            game.format_code(t.guess),
            game.format_code(mastermind_core::Code(want)),
            "{s} with {} candidates from {}",
            set.len(),
            game.format_code(mastermind_core::Code(set[0]))
        );
        let mut checked = 1;
        if depth > 0 {
            let mut parts = reference::split(game, &set, want);
            for (score, child) in &t.children {
                let part = std::mem::take(&mut parts[game.score_index(*score)]);
                checked += walk(sc, s, child, part, depth - 1);
            }
        }
        checked
    }
    let t = DecisionTree::build(&Solver::new(game, strategy).unwrap(), None);
    let all: Vec<u64> = (0..game.num_codes()).collect();
    walk(&Scorer::new(game).unwrap(), strategy, &t, all, depth);
}

#[test]
fn heuristics_match_a_reference_3x5_and_4x4() {
    for s in Strategy::ALL.into_iter().filter(|s| s.is_heuristic()) {
        matches_reference(Game::new(3, 5).unwrap(), s, usize::MAX);
        matches_reference(Game::new(4, 4).unwrap(), s, usize::MAX);
    }
}

#[test]
#[ignore = "about a minute of CPU in release; run by hand with --release -- --ignored (CI runs 5x5 and 5x6)"]
fn heuristics_match_a_reference_4x6_and_6x6() {
    for s in Strategy::ALL.into_iter().filter(|s| s.is_heuristic()) {
        matches_reference(Game::default(), s, usize::MAX);
        // The first guess (46656² scores per strategy).
        matches_reference(Game::new(6, 6).unwrap(), s, 0);
    }
}

#[test]
#[ignore = "about 10 s in release; run with --release -- --ignored"]
fn heuristics_match_a_reference_5x5_and_5x6() {
    // Every node of the whole trees, where the symmetries of the history and the
    // colour-multiset bounds skip guesses.
    for s in Strategy::ALL.into_iter().filter(|s| s.is_heuristic()) {
        matches_reference(Game::new(5, 5).unwrap(), s, usize::MAX);
        matches_reference(Game::new(5, 6).unwrap(), s, usize::MAX);
    }
}

/// Candidate sets reached by real play: random secrets, each guess random or the
/// strategy's own, every set on the way kept (with the colours played before it).
fn sets_by_play(game: Game, games: usize, seed: u64) -> Vec<(Vec<u32>, u32)> {
    use rand::{Rng, SeedableRng};
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let knuth = Solver::new(game, Strategy::Knuth).unwrap();
    let mut out = Vec::new();
    for _ in 0..games {
        let secret = mastermind_core::Code(rng.random_range(0..game.num_codes()));
        let mut set: Vec<u32> = (0..game.num_codes() as u32).collect();
        let mut played = 0;
        while set.len() > 1 {
            let g = if rng.random_bool(0.5) {
                knuth.choose(&set, played)
            } else {
                rng.random_range(0..game.num_codes() as u32)
            };
            let guess = mastermind_core::Code(g as u64);
            let score = game.calc_score(secret, guess);
            set.retain(|&c| game.calc_score(mastermind_core::Code(c as u64), guess) == score);
            played |= game.colour_mask(guess);
            out.push((set.clone(), played));
        }
    }
    out
}

#[test]
#[ignore = "about 20 s in release; run with --release -- --ignored"]
fn choices_on_sets_reached_by_play_match_a_reference_6x6() {
    let game = Game::new(6, 6).unwrap();
    let scorer = Scorer::new(game).unwrap();
    // The reference scores all 46656 codes against each set: the biggest sets are left
    // to the first-guess test above.
    let mut sets = sets_by_play(game, 12, 2024);
    sets.retain(|(set, _)| set.len() <= 3000);
    assert!(sets.len() > 40, "{}", sets.len());
    for s in Strategy::ALL.into_iter().filter(|s| s.is_heuristic()) {
        let solver = Solver::new(game, s).unwrap();
        for (set, played) in &sets {
            let wide: Vec<u64> = set.iter().map(|&c| c as u64).collect();
            let want = reference::choose(&scorer, s, &wide);
            assert_eq!(
                solver.choose(set, *played) as u64,
                want,
                "{s} on {} codes",
                set.len()
            );
        }
    }
}

#[test]
fn choices_on_sets_reached_by_play_match_the_plain_scan_4x6() {
    let game = Game::default();
    let sets = sets_by_play(game, 30, 7);
    for s in Strategy::ALL.into_iter().filter(|s| s.is_heuristic()) {
        let fast = Solver::new(game, s).unwrap();
        let plain = Solver::new(game, s).unwrap().plain();
        for (set, played) in &sets {
            assert_eq!(
                fast.choose(set, *played),
                plain.choose(set, 0),
                "{s} on {set:?}"
            );
        }
    }
}
