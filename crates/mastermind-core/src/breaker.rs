//! [`Breaker`]: the computer as code breaker in one game, driven one guess at a time.

use std::sync::Arc;

use crate::codes::code;
use crate::consistent::{count_consistent, next_consistent, visit_consistent};
use crate::{Code, Error, Game, Score, Solver, Strategy};

/// The computer as code breaker: proposes guesses, is told their scores, keeps the codes that still fit.
///
/// Games of at most [`crate::MAX_LIST_CODES`] codes keep the candidates in a list; bigger
/// ones (only with `first-consistent`) search the next consistent code depth-first.
#[derive(Debug, Clone)]
pub struct Breaker {
    game: Game,
    /// `None` for the depth-first `first-consistent` of games too big to list.
    solver: Option<Arc<Solver>>,
    /// Candidates still consistent with every score (original order for
    /// `first-consistent`, lexicographic otherwise); unused without a solver.
    candidates: Vec<u32>,
    history: Vec<(Code, Score)>,
    played: u32,
    first: Option<Code>,
    pending: Option<Code>,
}

impl Breaker {
    /// A fresh session for `strategy` in `game`: every code is still possible.
    pub fn new(game: Game, strategy: Strategy) -> Result<Breaker, Error> {
        if strategy == Strategy::FirstConsistent && game.num_codes() > crate::MAX_LIST_CODES {
            return Ok(Breaker {
                game,
                solver: None,
                candidates: Vec::new(),
                history: Vec::new(),
                played: 0,
                first: None,
                pending: None,
            });
        }
        Ok(Breaker::with_solver(Arc::new(Solver::new(game, strategy)?)))
    }

    /// A fresh session sharing an existing solver (and its caches).
    pub fn with_solver(solver: Arc<Solver>) -> Breaker {
        let game = solver.game();
        let candidates = solver.initial_set();
        Breaker {
            game,
            solver: Some(solver),
            candidates,
            history: Vec::new(),
            played: 0,
            first: None,
            pending: None,
        }
    }

    /// Makes `first` the first guess instead of the strategy's own choice.
    pub fn with_first(mut self, first: Code) -> Breaker {
        self.first = Some(first);
        self
    }

    /// The game being played.
    pub fn game(&self) -> Game {
        self.game
    }

    /// The next guess, or `None` when no code fits the scores given (someone scored wrongly).
    pub fn next_guess(&mut self) -> Option<Code> {
        if self.pending.is_none() {
            self.pending = match (&self.solver, self.history.len(), self.first) {
                (Some(_), _, _) if self.candidates.is_empty() => None,
                (_, 0, Some(f)) => Some(f),
                (Some(solver), _, _) => Some(code(solver.choose(&self.candidates, self.played))),
                (None, _, _) => {
                    let init = self.game.initial_code();
                    if self.is_possible(init) {
                        Some(init)
                    } else {
                        next_consistent(self.game, &self.history, 0)
                    }
                }
            };
        }
        self.pending
    }

    /// Records that `guess` scored `score`: keeps only the candidates that give that score.
    pub fn feed(&mut self, guess: Code, score: Score) {
        let game = self.game;
        if let Some(solver) = &self.solver {
            let want = game.score_index(score);
            let g = guess.0 as u32;
            let scorer = solver.scorer();
            self.candidates.retain(|&c| scorer.index(g, c) == want);
        }
        self.history.push((guess, score));
        self.played |= game.colour_mask(guess);
        self.pending = None;
    }

    /// Whether `code` fits every score given so far.
    pub fn is_possible(&self, code: Code) -> bool {
        self.history
            .iter()
            .all(|&(g, s)| self.game.calc_score(code, g) == s)
    }

    /// How many codes are still possible, or `None` when there are more than `cap`.
    pub fn remaining_up_to(&self, cap: u64) -> Option<u64> {
        let n = if self.solver.is_some() {
            self.candidates.len() as u64
        } else {
            count_consistent(self.game, &self.history, cap)
        };
        (n <= cap).then_some(n)
    }

    /// How many codes are still possible (slow for games too big to list: see [`Breaker::remaining_up_to`]).
    pub fn remaining(&self) -> u64 {
        self.remaining_up_to(u64::MAX).unwrap_or(u64::MAX)
    }

    /// Whether no code fits the scores given so far.
    pub fn no_code_fits(&self) -> bool {
        self.remaining_up_to(0) == Some(0)
    }

    /// The codes still possible: in the strategy's order for listed games, lexicographically otherwise.
    pub fn candidates(&self) -> impl Iterator<Item = Code> + '_ {
        let listed = self
            .solver
            .as_ref()
            .map(|_| self.candidates.iter().map(|&c| code(c)));
        let searched = self.solver.is_none().then(|| {
            // Search in batches: each search restarts from the root.
            let mut from = 0;
            let mut batch = std::collections::VecDeque::new();
            std::iter::from_fn(move || {
                if batch.is_empty() {
                    visit_consistent(self.game, &self.history, from, &mut |c| {
                        batch.push_back(c);
                        batch.len() < 4096
                    });
                    from = batch.back()?.0 + 1;
                }
                batch.pop_front()
            })
        });
        listed
            .into_iter()
            .flatten()
            .chain(searched.into_iter().flatten())
    }

    /// How many scores have been fed.
    pub fn turns(&self) -> usize {
        self.history.len()
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

    #[test]
    fn depth_first_search_agrees_with_the_list() {
        // 4x6: the depth-first search visits the consistent codes in the same order.
        let g = Game::default();
        let mut b = Breaker::new(g, Strategy::FirstConsistent).unwrap();
        for (guess, s) in [("abcd", Score::new(0, 2)), ("bade", Score::new(1, 1))] {
            b.feed(g.parse_code(guess).unwrap(), s);
        }
        let mut lazy = Vec::new();
        let mut from = 0;
        while let Some(c) = next_consistent(g, &b.history, from) {
            lazy.push(c);
            from = c.0 + 1;
        }
        let mut listed: Vec<Code> = b.candidates.iter().map(|&c| code(c)).collect();
        listed.sort();
        assert_eq!(lazy, listed);
        assert!(!lazy.is_empty());
        assert_eq!(next_consistent(g, &b.history, lazy[1].0), Some(lazy[1]));
    }

    #[test]
    fn huge_games_play_first_consistent() {
        let g = Game::new(6, 17).unwrap();
        assert!(g.num_codes() > crate::MAX_LIST_CODES);
        let secret = g.parse_code("qponmq").unwrap();
        let mut b = Breaker::new(g, Strategy::FirstConsistent).unwrap();
        assert_eq!(b.remaining_up_to(1000), None);
        for _ in 0..30 {
            let guess = b.next_guess().unwrap();
            assert!(
                b.candidates().take(1_000_000).any(|c| c == secret)
                    || b.remaining_up_to(1_000_000).is_none()
            );
            let s = g.calc_score(secret, guess);
            if s == g.win() {
                return;
            }
            b.feed(guess, s);
        }
        panic!("not solved in 30 guesses");
    }
}
