//! The one error type of the library.

/// What went wrong with a game size, a code or a strategy name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// Occurs when the number of pegs is outside 1–8.
    #[error("invalid number of pegs {0}: expected 1 to 8")]
    Pegs(u32),
    /// Occurs when the number of colours is outside 2–26.
    #[error("invalid number of colors {0}: expected 2 to 26")]
    Colors(u32),
    /// Occurs when a code has the wrong number of letters.
    #[error("invalid code '{code}': it has {len} letters, expected {pegs}")]
    CodeLength {
        /// The code as written.
        code: String,
        /// Its number of letters.
        len: usize,
        /// The number expected.
        pegs: usize,
    },
    /// Occurs when a code has a letter that is not one of the game's colours.
    #[error(
        "invalid code '{code}': letter '{letter}' at position {position} is not a colour, expected letters {letters}"
    )]
    CodeLetter {
        /// The code as written.
        code: String,
        /// The offending letter.
        letter: char,
        /// Its position, from 1.
        position: usize,
        /// The letters allowed, e.g. `a-f`.
        letters: String,
    },
    /// Occurs when a strategy name is not known.
    #[error(
        "unknown strategy '{0}': expected one of first-consistent, knuth, most-parts, expected-size, entropy, optimal"
    )]
    UnknownStrategy(String),
    /// Occurs when a limit on guesses is outside 1 to [`crate::MAX_GUESS_LIMIT`].
    #[error("invalid guess limit {0}: expected 1 to 60")]
    GuessLimitRange(u32),
    /// Occurs when no strategy can find every secret within the limit on guesses.
    #[error("no strategy finds every secret within {limit} guesses")]
    GuessLimit {
        /// The limit asked for.
        limit: u32,
    },
    /// Occurs when a game has too many codes to list them all.
    #[error("a game with {codes} codes is too big to list every code (at most {limit})")]
    TooManyCodes {
        /// Codes in the game.
        codes: u64,
        /// The limit.
        limit: u64,
    },
    /// Occurs when a game has too many codes for a strategy that scores every code as a guess.
    #[error(
        "strategy '{strategy}' supports games of at most {limit} codes; this one has {codes} (use first-consistent)"
    )]
    TooManyForStrategy {
        /// The strategy's name.
        strategy: &'static str,
        /// Codes in the game.
        codes: u64,
        /// The limit.
        limit: u64,
    },
    /// Occurs when a strategy tree read from JSON does not play the game.
    #[error("invalid tree at {path}: {problem}")]
    Tree {
        /// The guesses and scores from the root to the node, e.g. `aabb 00 ccde`.
        path: String,
        /// What is wrong there.
        problem: String,
    },
    /// Occurs when a tree is asked for as a drawing but the game is too big to draw.
    #[error(
        "a game with {codes} codes is too big to draw as a Graphviz tree (at most {limit}); use --format json or text"
    )]
    TooBigToDraw {
        /// Codes in the game.
        codes: u64,
        /// The limit.
        limit: u64,
    },
}
