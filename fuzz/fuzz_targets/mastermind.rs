//! Mastermind codes, scores and strategy names as a person types them:
//! never panic, and what parses is written back and parses to the same
//! value, in every game size.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mastermind_core::Game;
use mastermind_core::Strategy;

fuzz_target!(|data: &[u8]| {
    let [pegs, colors, rest @ ..] = data else {
        return;
    };
    // Sizes out of range must be refused, not panic.
    let Ok(game) = Game::new(u32::from(*pegs % 10), u32::from(*colors % 28)) else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    if let Ok(code) = game.parse_code(text) {
        assert!(code.0 < game.num_codes());
        let shown = game.format_code(code);
        assert_eq!(game.parse_code(&shown).ok(), Some(code));
        assert_eq!(shown, text, "a code has one spelling");
    } else if let Err(e) = game.parse_code(text) {
        assert!(!e.to_string().is_empty());
    }
    if let Some(score) = game.parse_score(text) {
        assert!(usize::from(score.right) + usize::from(score.wrong) <= game.pegs());
        assert_eq!(game.parse_score(&score.to_string()), Some(score));
        let index = game.score_index(score);
        assert!(index < game.num_score_slots());
        assert_eq!(game.score_from_index(index), score);
    }
    if let Ok(strategy) = text.parse::<Strategy>() {
        assert_eq!(
            strategy.to_string().parse::<Strategy>().ok(),
            Some(strategy)
        );
    }
});
