//! A code-breaker session that a user interface drives one guess at a time.

use std::sync::Arc;

use crate::strategy::{code, original_order_indices};
use crate::{Code, Error, Game, Score, Solver, Strategy};

/// The computer as code breaker: proposes guesses, is told their scores, keeps the codes that still fit.
#[derive(Debug, Clone)]
pub struct Breaker {
    solver: Arc<Solver>,
    /// Candidates still consistent with every score (original order for
    /// `first-consistent`, lexicographic otherwise).
    candidates: Vec<u32>,
    played: u32,
    first: Option<Code>,
    pending: Option<Code>,
    turns: usize,
}

impl Breaker {
    /// A fresh session for `strategy` in `game`: every code is still possible.
    pub fn new(game: Game, strategy: Strategy) -> Result<Breaker, Error> {
        Ok(Breaker::with_solver(Arc::new(Solver::new(game, strategy)?)))
    }

    /// A fresh session sharing an existing solver (and its caches).
    pub fn with_solver(solver: Arc<Solver>) -> Breaker {
        let game = solver.game();
        let candidates = if solver.strategy() == Strategy::FirstConsistent {
            original_order_indices(game)
        } else {
            (0..game.num_codes() as u32).collect()
        };
        Breaker {
            solver,
            candidates,
            played: 0,
            first: None,
            pending: None,
            turns: 0,
        }
    }

    /// Makes `first` the first guess instead of the strategy's own choice.
    pub fn with_first(mut self, first: Code) -> Breaker {
        self.first = Some(first);
        self
    }

    /// The game being played.
    pub fn game(&self) -> Game {
        self.solver.game()
    }

    /// The next guess, or `None` when no code fits the scores given (someone scored wrongly).
    pub fn next_guess(&mut self) -> Option<Code> {
        if self.candidates.is_empty() {
            return None;
        }
        if self.pending.is_none() {
            let g = match (self.turns, self.first) {
                (0, Some(f)) => f,
                _ => code(self.solver.choose(&self.candidates, self.played)),
            };
            self.pending = Some(g);
        }
        self.pending
    }

    /// Records that `guess` scored `score`: keeps only the candidates that give that score.
    pub fn feed(&mut self, guess: Code, score: Score) {
        let game = self.game();
        let want = game.score_index(score);
        let g = guess.0 as u32;
        let scorer = self.solver.scorer();
        self.candidates.retain(|&c| scorer.index(g, c) == want);
        self.played |= game.colour_mask(guess);
        self.pending = None;
        self.turns += 1;
    }

    /// How many codes are still possible.
    pub fn remaining(&self) -> usize {
        self.candidates.len()
    }

    /// Whether no code fits the scores given so far.
    pub fn no_code_fits(&self) -> bool {
        self.candidates.is_empty()
    }

    /// The codes still possible, in the strategy's order.
    pub fn candidates(&self) -> impl Iterator<Item = Code> + '_ {
        self.candidates.iter().map(|&c| code(c))
    }

    /// How many scores have been fed.
    pub fn turns(&self) -> usize {
        self.turns
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replays_the_dbcb_example() {
        let g = Game::default();
        let mut b = Breaker::new(g, Strategy::FirstConsistent).unwrap();
        let secret = g.parse_code("dbcb").unwrap();
        let mut seen = Vec::new();
        loop {
            let guess = b.next_guess().unwrap();
            let s = g.calc_score(secret, guess);
            seen.push(format!("{} {}", g.format_code(guess), s));
            if s == g.win() {
                break;
            }
            b.feed(guess, s);
        }
        assert_eq!(seen, ["abcd 21", "aabd 02", "bbca 21", "dbcb 40"]);
    }

    #[test]
    fn detects_cheating() {
        let g = Game::default();
        let mut b = Breaker::new(g, Strategy::Knuth).unwrap();
        let first = b.next_guess().unwrap();
        assert_eq!(g.format_code(first), "aabb");
        b.feed(first, Score::new(3, 1));
        assert!(b.no_code_fits());
        assert_eq!(b.next_guess(), None);
    }
}
