//! Mastermind for any size (1–8 pegs, 2–26 colours): scoring, the original program's
//! computer player, stronger strategies (Knuth, most parts, expected size, entropy) and
//! statistics over every secret.
//!
//! Key design decision: a code is its index in lexicographic order ([`Code`]), and the hot
//! loop — scoring a guess against a candidate set — runs on precomputed bit vectors
//! ([`Scorer`]): pegs right and pegs in common are each one AND and one popcount, and a
//! score is the small integer `right·(pegs+1) + wrong`. A strategy's choice depends only on
//! the set of remaining candidates, so statistics build the [`DecisionTree`] once (in
//! parallel with rayon) and walk it instead of replaying the game per secret. The heuristic
//! strategies only score one guess per class of codes that differ by a permutation of
//! colours not yet played or by a symmetry of the guesses so far, and only guesses whose
//! colour counts alone do not already rule them out; none of this can change the choice
//! (checked against the plain definition, [`Solver::plain`], and against the spec read
//! literally, in the tests). Games too big to list every code (more than [`MAX_LIST_CODES`], e.g. 8 pegs and
//! 26 colours) are still played by `first-consistent`, which then searches the next
//! consistent code depth-first.
//!
//! # How to play
//!
//! The `mastermind` binary without arguments shows the original menu: `H` you guess a
//! random secret (type `?` for the number of codes still possible and a suggestion), `C`
//! the computer guesses your secret (type each score as two digits, right then wrong:
//! `21`), `B` the computer plays itself, `Q` quits. `mastermind human|computer|both` plays
//! one game; `--pegs N --colors K` change the size; `--strategy NAME` picks the player.
//! Added to the original: `q` at a game prompt leaves the game, and on a terminal a
//! refused guess or score is explained on standard error. The menu and the games are
//! [`play`], over any reader and writer.
//!
//! # Strategies
//!
//! [`Strategy::FirstConsistent`] is the original (play the first code that fits);
//! [`Strategy::Knuth`], [`Strategy::MostParts`], [`Strategy::ExpectedSize`] and
//! [`Strategy::Entropy`] score every code as a guess by how it splits the candidates, with
//! the tie rules of the spec: best rank, then a guess that could be the secret, then the
//! lowest code. [`Strategy::Optimal`] searches the whole game for the least total number of
//! guesses (branch and bound with lower bounds, symmetry reduction and memoisation): 5625 for
//! 4×6, optionally within a limit on guesses ([`Solver::with_max_guesses`]).
//!
//! # Statistics
//!
//! `mastermind stats --strategy knuth` plays every secret (total 5801, average 4.4761,
//! worst 5 for 4×6); `--first CODE` fixes the first guess, `--format json` prints JSON.
//! `mastermind tree` prints the whole decision tree ([`DecisionTree::to_text`],
//! [`DecisionTree::to_json`], [`DecisionTree::to_dot`] for Graphviz), and `mastermind
//! check-tree FILE.json` reads one back from any tool ([`DecisionTree::from_json`]),
//! follows every secret down it and prints its statistics, or the first problem and where.
//!
//! ```
//! use mastermind_core::{stats, Breaker, Game, Score, Strategy};
//!
//! # fn main() -> Result<(), mastermind_core::Error> {
//! let game = Game::default(); // 4 pegs, 6 colours
//! let secret = game.parse_code("dbcb")?;
//! assert_eq!(game.calc_score(secret, game.parse_code("abcd")?), Score::new(2, 1));
//!
//! let mut breaker = Breaker::new(game, Strategy::Knuth)?;
//! let guess = breaker.next_guess().expect("a code fits");
//! assert_eq!(game.format_code(guess), "aabb");
//! breaker.feed(guess, game.calc_score(secret, guess));
//! assert!(breaker.candidates().any(|c| c == secret));
//!
//! let s = stats(game, Strategy::Knuth, None)?;
//! assert_eq!((s.total, s.worst), (5801, 5));
//! # Ok(())
//! # }
//! ```
//!
//! # Modules
//!
//! Bottom up; each module imports only modules named before it.
//! - `error.rs` ([`Error`]); `game.rs` ([`Game`], [`Code`], [`Score`] and
//!   the original functions); `scorer.rs` ([`Scorer`], two precomputed words
//!   per code); `codes.rs` (the code lists everything above shares: the
//!   original order, one guess per colour-symmetry class, the colour
//!   multiset of every code); `symmetry.rs` (position permutations with the
//!   colour maps that fix every guess so far); `strategy.rs` ([`Strategy`]);
//!   `consistent.rs` (the depth-first search of codes that fit the scores,
//!   for games too big to list).
//! - `tree.rs` ([`DecisionTree`], plain data, and [`Stats`] read from it);
//!   `render.rs` (text, JSON, and Graphviz for games of at most
//!   [`MAX_DOT_CODES`] codes); `check.rs` ([`DecisionTree::from_json`]
//!   follows every secret down a tree from any tool; the first problem is
//!   [`Error::Tree`] with its path); `builder.rs` (the rule-based
//!   strategies' tree builder, in parallel, with memory linear in the
//!   number of codes).
//! - `optimal/`: the exact optimal strategy: `bounds.rs` (lower bounds),
//!   `memo.rs` (exact costs and proven bounds per candidate set),
//!   `search.rs` (branch and bound on `n + Σ cost(part)`), `parallel.rs`
//!   (the root on every core), `mod.rs` (the planner).
//! - `solver.rs` ([`Solver`]: the spec's ranks and ties, or the planner;
//!   [`Solver::plain`] turns every shortcut off, for checking);
//!   `breaker.rs` ([`Breaker`], one game); [`play`] (the original's text
//!   interface over any reader and writer).
//! - `src/bin/mastermind/` (feature `cli`, on by default; the only user of
//!   clap, rand and indicatif): `args.rs` the flags, `main.rs` parse, call,
//!   print, and the exit codes.
//!
//! # Invariants
//!
//! - The library does no I/O of its own and holds no global state: [`play`]
//!   writes only to the reader and writers it is given.
//! - A strategy's guess depends only on the candidate set (and the colours
//!   played so far), so statistics build the decision tree once and never
//!   replay games per secret.
//! - The tree builder knows nothing of the optimal strategy, and `optimal/`
//!   imports nothing of [`Solver`]: both only produce [`DecisionTree`]s.
//! - Every search shortcut of the rule-based strategies yields exactly the
//!   tree of the plain definition (`tests/it/stats.rs` compares the two).
//!   The optimal search may return another tree from one version to the
//!   next but never another total; `tests/it/optimal.rs` checks totals
//!   against published optima and a plain exhaustive search, and checks
//!   the stored optimal 4×8 and 5×5 trees of `tests/data/`.
//! - A symmetry may skip a guess only if it maps the current candidate set
//!   to itself.
#![deny(missing_docs)]

mod breaker;
mod builder;
mod check;
mod codes;
mod consistent;
mod error;
mod game;
mod optimal;
pub mod play;
mod render;
mod scorer;
mod solver;
mod strategy;
mod symmetry;
mod tree;

pub use breaker::Breaker;
pub use error::Error;
pub use game::{Code, Game, MAX_COLORS, MAX_PEGS, MIN_COLORS, MIN_PEGS, Score};
pub use optimal::{MAX_GUESS_LIMIT, MAX_OPTIMAL_CODES, SearchStats};
pub use render::MAX_DOT_CODES;
pub use scorer::{MAX_LIST_CODES, Scorer};
pub use solver::{MAX_HEURISTIC_CODES, Solver, stats};
pub use strategy::Strategy;
pub use tree::{DecisionTree, Stats};
