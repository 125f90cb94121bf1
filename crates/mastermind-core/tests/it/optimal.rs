//! The exact optimal strategy reproduces the published optimal totals (spec §7, issue 7).

use mastermind_core::{DecisionTree, Error, Game, Solver, Strategy, stats};
use test_support::Cli;

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
fn four_by_six_is_5625() {
    let g = Game::default();
    let s = stats(g, Strategy::Optimal, None).unwrap();
    assert_eq!((s.total, s.codes), (5625, 1296));
    assert_eq!(format!("{:.3}", s.average), "4.340");
}

#[test]
fn four_by_six_within_five_guesses_is_5626() {
    assert_eq!(optimal_total(4, 6, Some(5)), 5626);
}

#[test]
#[ignore = "about 10 s in a release build, minutes in debug; run with --release -- --ignored"]
fn four_by_seven_is_11228() {
    assert_eq!(optimal_total(4, 7, None), 11228);
}

/// The tree in `tests/data/NAME`, checked against every secret by [`DecisionTree::from_json`].
fn stored_tree(game: Game, name: &str) -> DecisionTree {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    DecisionTree::from_json(game, &serde_json::from_str(&text).unwrap()).unwrap()
}

/// The 4×8 tree `tree --strategy optimal --pegs 4 --colors 8 --format json` wrote (in
/// about 3 minutes, so not rebuilt here) plays every secret and totals the published
/// optimum 20471 (the search's lower bounds are what prove nothing is better).
#[test]
fn the_stored_4x8_tree_plays_the_published_optimum() {
    let g = Game::new(4, 8).unwrap();
    let s = stored_tree(g, "optimal-4x8.json").stats(g, Strategy::Optimal);
    assert_eq!((s.codes, s.total, s.worst), (4096, 20471, 7));
}

/// 5×5 has no published optimum that we know of: the search finds 13496 (average 4.3187,
/// first guess aabbc). The stored tree is checked secret by secret, and it beats every
/// heuristic (each a valid strategy, so an upper bound on the optimum).
#[test]
fn the_stored_5x5_tree_solves_every_secret_in_13496() {
    let g = Game::new(5, 5).unwrap();
    let t = stored_tree(g, "optimal-5x5.json");
    let s = t.stats(g, Strategy::Optimal);
    assert_eq!((s.codes, s.total, s.worst), (3125, 13496, 6));
    assert_eq!(g.format_code(t.guess), "aabbc");
    for h in Strategy::ALL.into_iter().filter(|h| h.is_heuristic()) {
        assert!(stats(g, h, None).unwrap().total > s.total, "{h}");
    }
}

#[test]
#[ignore = "about 8 s in a release build; run with --release -- --ignored"]
fn five_by_five_search_finds_the_stored_total() {
    assert_eq!(optimal_total(5, 5, None), 13496);
}

/// The `mastermind` binary, standard input empty.
fn mastermind() -> Cli {
    Cli::new(env!("CARGO_BIN_EXE_mastermind"))
}

/// Plays `secret` through a printed JSON tree; returns the guesses it takes.
fn play(game: Game, tree: &serde_json::Value, secret: mastermind_core::Code) -> u64 {
    let mut node = tree;
    for turn in 1.. {
        let guess = game.parse_code(node["guess"].as_str().unwrap()).unwrap();
        let score = game.calc_score(secret, guess);
        if score == game.win() {
            assert_eq!(node["solves"], true);
            return turn;
        }
        node = &node["next"][score.to_string()];
        assert!(node.is_object(), "no branch for score {score}");
    }
    unreachable!()
}

/// Every secret played through `mastermind tree --format json` gives `mastermind stats`'s figures.
#[track_caller]
fn tree_agrees_with_stats(size: &[&str], strategy: &str) {
    let (pegs, colors) = (size[1].parse().unwrap(), size[3].parse().unwrap());
    let game = Game::new(pegs, colors).unwrap();
    let mut args = size.to_vec();
    args.extend(["--strategy", strategy, "tree", "--format", "json"]);
    let run = mastermind().args(&args).run();
    run.clean();
    let tree: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let mut histogram = Vec::new();
    for c in 0..game.num_codes() {
        let n = play(game, &tree, mastermind_core::Code(c)) as usize;
        if histogram.len() < n {
            histogram.resize(n, 0u64);
        }
        histogram[n - 1] += 1;
    }
    let total: u64 = histogram
        .iter()
        .enumerate()
        .map(|(i, c)| (i as u64 + 1) * c)
        .sum();
    let mut args = size.to_vec();
    args.extend(["--strategy", strategy, "stats", "--format", "json"]);
    let run = mastermind().args(&args).run();
    run.code(0);
    let stats: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(stats["total"], total, "{strategy}");
    assert_eq!(stats["worst"], histogram.len());
    assert_eq!(stats["histogram"], serde_json::json!(histogram));
}

#[test]
fn printed_trees_play_like_stats() {
    tree_agrees_with_stats(&["--pegs", "3", "--colors", "6"], "optimal");
    tree_agrees_with_stats(&["--pegs", "4", "--colors", "4"], "optimal");
    tree_agrees_with_stats(&["--pegs", "4", "--colors", "6"], "optimal");
    tree_agrees_with_stats(&["--pegs", "4", "--colors", "6"], "knuth");
    tree_agrees_with_stats(&["--pegs", "3", "--colors", "5"], "first-consistent");
}

#[test]
fn optimal_stats_text_and_tree_text() {
    mastermind()
        .args([
            "--pegs",
            "3",
            "--colors",
            "6",
            "--strategy",
            "optimal",
            "stats",
        ])
        .run()
        .code(0)
        .stdout_has("total: 854\n")
        .stdout_has("average: 3.9537\n");
    let run = mastermind()
        .args([
            "--pegs",
            "2",
            "--colors",
            "3",
            "--strategy",
            "optimal",
            "tree",
        ])
        .run();
    run.code(0);
    // The root line names the first guess and all 9 codes; every other line is one score deeper.
    let mut lines = run.stdout.lines();
    assert!(lines.next().unwrap().ends_with(" (9)"));
    for l in lines {
        let body = l.trim_start();
        assert_eq!((l.len() - body.len()) % 2, 0);
        assert_eq!(&body[2..4], ": ", "{l}");
    }
}

#[test]
fn both_plays_the_optimal_tree() {
    let game = Game::new(3, 6).unwrap();
    let tree = mastermind()
        .args([
            "--pegs",
            "3",
            "--colors",
            "6",
            "--strategy",
            "optimal",
            "tree",
            "--format",
            "json",
        ])
        .run();
    let tree: serde_json::Value = serde_json::from_str(&tree.stdout).unwrap();
    for secret in ["aaa", "fed", "abc", "ccf"] {
        let run = mastermind()
            .args([
                "--pegs",
                "3",
                "--colors",
                "6",
                "--strategy",
                "optimal",
                "both",
                "--secret",
                secret,
            ])
            .run();
        run.code(0);
        let out = &run.stdout;
        let turns = out
            .lines()
            .filter(|l| l.starts_with("Computer turn"))
            .count() as u64;
        assert_eq!(
            turns,
            play(game, &tree, game.parse_code(secret).unwrap()),
            "{out}"
        );
        assert!(
            out.ends_with(&format!("\"{secret}\" => 30\nI'm the best!\n")),
            "{out}"
        );
    }
}

#[test]
fn bad_guess_limits_are_usage_errors() {
    mastermind()
        .args(["--strategy", "knuth", "--max-guesses", "5", "stats"])
        .run()
        .code(2)
        .stderr_has("--max-guesses applies to --strategy optimal only");
    mastermind()
        .args([
            "--pegs",
            "2",
            "--colors",
            "6",
            "--strategy",
            "optimal",
            "--max-guesses",
            "3",
            "stats",
        ])
        .run()
        .code(2)
        .stderr_has("no strategy finds every secret within 3 guesses");
    mastermind()
        .args(["--strategy", "optimal", "--max-guesses", "0", "stats"])
        .run()
        .code(2);
}

/// The least total by plain exhaustive search: every code as a guess, no bounds, no
/// symmetry, memory by candidate set (independent of the library's search).
fn brute_force(game: Game) -> u64 {
    use std::collections::HashMap;
    fn cost(game: Game, set: &[u64], memo: &mut HashMap<Vec<u64>, u64>) -> u64 {
        if set.len() == 1 {
            return 1;
        }
        if let Some(&c) = memo.get(set) {
            return c;
        }
        let mut best = u64::MAX;
        for g in 0..game.num_codes() {
            let mut parts: HashMap<(u8, u8), Vec<u64>> = HashMap::new();
            for &s in set {
                let sc = game.calc_score(Code(s), Code(g));
                if sc != game.win() {
                    parts.entry((sc.right, sc.wrong)).or_default().push(s);
                }
            }
            if parts.len() == 1 && parts.values().next().unwrap().len() == set.len() {
                continue; // learns nothing
            }
            let mut total = set.len() as u64;
            for p in parts.values() {
                total += cost(game, p, memo);
                if total >= best {
                    break;
                }
            }
            best = best.min(total);
        }
        memo.insert(set.to_vec(), best);
        best
    }
    use mastermind_core::Code;
    let all: Vec<u64> = (0..game.num_codes()).collect();
    cost(game, &all, &mut HashMap::new())
}

#[test]
fn agrees_with_plain_exhaustive_search() {
    for (p, c) in [
        (2, 3),
        (2, 4),
        (3, 2),
        (3, 3),
        (2, 5),
        (4, 2),
        (2, 6),
        (3, 4),
        (5, 2),
    ] {
        assert_eq!(
            optimal_total(p, c, None),
            brute_force(Game::new(p, c).unwrap()),
            "{p}x{c}"
        );
    }
}

#[test]
fn sessions_after_any_first_guess_play_optimally() {
    // After a first guess the strategy did not choose, a session plans the rest itself:
    // over every secret it must need exactly what the tree with that first guess needs.
    use std::sync::Arc;
    let game = Game::new(3, 5).unwrap();
    let solver = Arc::new(Solver::new(game, Strategy::Optimal).unwrap());
    for first in ["abc", "aab", "aaa"] {
        let first = game.parse_code(first).unwrap();
        let want = DecisionTree::try_build(&solver, Some(first))
            .unwrap()
            .stats(game, Strategy::Optimal)
            .total;
        let mut total = 0;
        for c in 0..game.num_codes() {
            let secret = mastermind_core::Code(c);
            let mut b =
                mastermind_core::Breaker::with_solver(Arc::clone(&solver)).with_first(first);
            for turn in 1.. {
                let g = b.next_guess().unwrap();
                let s = game.calc_score(secret, g);
                if s == game.win() {
                    total += turn;
                    break;
                }
                b.feed(g, s);
            }
        }
        assert_eq!(total, want, "first {}", game.format_code(first));
    }
}
