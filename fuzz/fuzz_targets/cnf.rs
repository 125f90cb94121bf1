//! The `.cnf` parser and validator: never panics, every error renders with
//! a place, and a game that parses renders and parses back to itself.
#![no_main]

use cnf_grader::format::cnf::{parse_cnf, render_cnf};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // The grader refuses non-UTF-8 files before parsing; only text gets here.
    let Ok(source) = std::str::from_utf8(data) else {
        return;
    };
    match parse_cnf(source) {
        Ok(game) => {
            let text = render_cnf(&game.board, &game.moves);
            let again = parse_cnf(&text).unwrap_or_else(|d| {
                panic!(
                    "the rendering does not parse:\n{}",
                    d.render("rendered.cnf", &text)
                )
            });
            assert_eq!(again, game, "render then parse changed the game");
            assert_eq!(render_cnf(&again.board, &again.moves), text);
        }
        Err(d) => {
            assert!(!d.0.is_empty(), "an error without a diagnostic");
            let shown = d.render("fuzz.cnf", source).to_string();
            assert!(shown.starts_with("fuzz.cnf:"), "{shown}");
        }
    }
});
