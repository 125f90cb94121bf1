//! Property tests: scoring laws, the fast scorer, and the breaker never losing the secret.

use mastermind_core::{Breaker, Code, Game, Score, Scorer, Strategy as Player};
use proptest::prelude::*;

/// A game and two codes of it.
fn game_and_codes() -> impl Strategy<Value = (Game, Code, Code)> {
    (1u32..=8, 2u32..=26).prop_flat_map(|(p, c)| {
        let g = Game::new(p, c).unwrap();
        let n = g.num_codes();
        (Just(g), (0..n).prop_map(Code), (0..n).prop_map(Code))
    })
}

/// The original `calcScore`, literally: `wrong = length secret - length (secret \\ guess) - right`.
fn haskell_score(secret: &[u8], guess: &[u8]) -> (usize, usize) {
    let right = secret.iter().zip(guess).filter(|(x, y)| x == y).count();
    let mut not_found = secret.to_vec();
    for g in guess {
        if let Some(i) = not_found.iter().position(|x| x == g) {
            not_found.remove(i);
        }
    }
    (right, secret.len() - not_found.len() - right)
}

proptest! {
    #[test]
    fn score_is_symmetric((g, a, b) in game_and_codes()) {
        prop_assert_eq!(g.calc_score(a, b), g.calc_score(b, a));
    }

    #[test]
    fn right_plus_wrong_at_most_pegs((g, a, b) in game_and_codes()) {
        let s = g.calc_score(a, b);
        prop_assert!((s.right + s.wrong) as usize <= g.pegs());
        prop_assert_eq!(s == g.win(), a == b);
    }

    #[test]
    fn matches_the_original_definition((g, a, b) in game_and_codes()) {
        let p = g.pegs();
        let s = g.calc_score(a, b);
        let (r, w) = haskell_score(&g.digits(a)[..p], &g.digits(b)[..p]);
        prop_assert_eq!((s.right as usize, s.wrong as usize), (r, w));
    }

    #[test]
    fn codes_print_and_parse_back((g, a, _b) in game_and_codes()) {
        prop_assert_eq!(g.parse_code(&g.format_code(a)), Ok(a));
    }

    #[test]
    fn typed_scores_round_trip(p in 1u32..=8, r in 0u8..=8, w in 0u8..=8) {
        let g = Game::new(p, 6).unwrap();
        let parsed = g.parse_score(&format!(" {r}{w}\n"));
        let valid = (r + w) as u32 <= p;
        prop_assert_eq!(parsed, valid.then_some(Score::new(r, w)));
    }
}

/// Games small enough for the in-memory scorer and the heuristic strategies.
fn small_game() -> impl Strategy<Value = Game> {
    (1u32..=5, 2u32..=8)
        .prop_map(|(p, c)| Game::new(p, c).unwrap())
        .prop_filter("at most 4096 codes", |g| g.num_codes() <= 4096)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn fast_scorer_agrees(g in small_game(), seed in any::<u64>()) {
        let s = Scorer::new(g).unwrap();
        let n = g.num_codes();
        for k in 0..50u64 {
            let a = (seed.wrapping_mul(k + 1).wrapping_add(k * 7919)) % n;
            let b = (seed.rotate_left(17).wrapping_add(k * 104_729)) % n;
            let want = g.score_index(g.calc_score(Code(a), Code(b)));
            prop_assert_eq!(s.index(a as u32, b as u32), want);
        }
    }

    #[test]
    fn secret_stays_among_candidates(
        g in small_game(),
        secret_seed in any::<u64>(),
        which in 0usize..5,
    ) {
        let strategy = Player::ALL[which];
        let secret = Code(secret_seed % g.num_codes());
        let mut b = Breaker::new(g, strategy).unwrap();
        for _turn in 0..20 {
            let guess = b.next_guess().expect("the true secret always fits");
            let s = g.calc_score(secret, guess);
            if s == g.win() {
                return Ok(());
            }
            b.feed(guess, s);
            prop_assert!(b.candidates().any(|c| c == secret));
        }
        prop_assert!(false, "not solved in 20 guesses");
    }
}
